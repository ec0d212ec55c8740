# debug_cache.sh TEST STRIPPED WORK: a separate debug file with compressed
# sections, as distributions ship them, gets a decompressed copy in the
# cache (analyzer/symbols/debug_cache.h), and the copy serves the lookups
# after it. TEST is symbols_test_pie (built -g), STRIPPED its stripped copy;
# its debug-path mode checks the names and lines found for the copy.
. "$(dirname "$0")/../lib.sh"
test_bin=$1
stripped=$2
work=$3
fresh_dir "$work"
build_id=$(readelf -n "$stripped" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
[ -n "$build_id" ] || fail "no build-id in $stripped"

# The debug file where libdwfl finds it by the program's own name (the
# program has no debuglink), its DWARF compressed with zlib.
mkdir -p "$work/named/.debug"
cp "$stripped" "$work/named/prog"
objcopy --only-keep-debug --compress-debug-sections=zlib "$test_bin" "$work/named/.debug/prog"
original=$work/named/.debug/prog

# compressed_sections FILE: how many of FILE's sections are compressed:
# readelf's flag C, its seventh column once the "[Nr]" is cut off.
compressed_sections() {
	readelf -SW "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$7 ~ /C/' | wc -l
}
[ "$(compressed_sections "$original")" -gt 0 ] || fail "objcopy compressed no section of $original"

# lookup NAME [VAR=VALUE...]: symbols_test's debug-path checks on the copy,
# output in $work/NAME.{stdout,stderr,status}.
lookup() {
	local name=$1
	shift
	run_status "$work/$name" env "$@" "$test_bin" "$work/named/prog" debug-path
}

cache=$work/cache
copy=$cache/$build_id.debug

# 1. The first lookup finds the compressed file and leaves a copy behind.
lookup first GITTRACE_DEBUG_CACHE="$cache"
check_eq "names and lines from the compressed file" 0 "$(cat "$work/first.status")"
[ -f "$copy" ] || fail "no copy at $copy: $(ls -la "$cache" 2>&1)"
check_eq "compressed sections in the copy" 0 "$(compressed_sections "$copy")"
check_eq "the copy's build-id" "$build_id" \
	"$(readelf -n "$copy" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')"
check_eq "files left in the cache" "$build_id.debug" "$(ls -A "$cache")"
cp "$copy" "$work/first-copy"

# 2. The copy serves the next lookup: with the original gone, the names and
# lines are still there; the copy's time says it was used.
mv "$original" "$work/original"
touch -d '10 days ago' "$copy"
lookup from_copy GITTRACE_DEBUG_CACHE="$cache"
check_eq "names and lines from the copy alone" 0 "$(cat "$work/from_copy.status")"
check_eq "the copy's time, bumped when used" 0 "$(find "$copy" -mtime +1 | wc -l)"
lookup without GITTRACE_DEBUG_CACHE=0
[ "$(cat "$work/without.status")" != 0 ] ||
	check_failed "names and lines found with neither the copy nor the original"
mv "$work/original" "$original"

# 3. A copy cut short is not used, and is made again whole.
head -c 4096 "$work/first-copy" >"$copy"
lookup cut GITTRACE_DEBUG_CACHE="$cache"
check_eq "names and lines with a cut copy" 0 "$(cat "$work/cut.status")"
cmp -s "$copy" "$work/first-copy" || check_failed "the cut copy was not made again whole"

# 4. Making a copy removes the ones unused for 30 days, and only those.
rm "$copy"
echo old >"$cache/0123.debug"
touch -d '40 days ago' "$cache/0123.debug"
echo recent >"$cache/4567.debug"
touch -d '20 days ago' "$cache/4567.debug"
lookup again GITTRACE_DEBUG_CACHE="$cache"
check_eq "names and lines, the copy made again" 0 "$(cat "$work/again.status")"
check_eq "the cache after it" "$(printf '%s\n' 4567.debug "$build_id.debug" | sort | xargs)" \
	"$(ls "$cache" | sort | xargs)"

# 5. Off: GITTRACE_DEBUG_CACHE=0, or a value that is no absolute path
# (warned about); the default place, under XDG_CACHE_HOME.
lookup off GITTRACE_DEBUG_CACHE=0 XDG_CACHE_HOME="$work/xdg-off"
check_eq "names and lines, the cache off" 0 "$(cat "$work/off.status")"
[ ! -e "$work/xdg-off" ] || check_failed "the cache off, yet $work/xdg-off was made"
lookup relative GITTRACE_DEBUG_CACHE=relative XDG_CACHE_HOME="$work/xdg-relative"
check_eq "names and lines, a relative setting" 0 "$(cat "$work/relative.status")"
check_grep "a relative setting is warned about" \
	"warning: GITTRACE_DEBUG_CACHE is 0 or an absolute directory, not 'relative'" \
	"$work/relative.stderr"
[ ! -e "$work/xdg-relative" ] || check_failed "a relative setting, yet $work/xdg-relative was made"
lookup default -u GITTRACE_DEBUG_CACHE XDG_CACHE_HOME="$work/xdg"
check_eq "names and lines, the default place" 0 "$(cat "$work/default.status")"
[ -f "$work/xdg/gittrace/debug/$build_id.debug" ] ||
	check_failed "no copy under XDG_CACHE_HOME: $(find "$work/xdg" 2>&1)"

# 6. A debug file without compressed sections gets no copy.
objcopy --only-keep-debug "$test_bin" "$original"
lookup plain GITTRACE_DEBUG_CACHE="$work/cache-plain"
check_eq "names and lines from an uncompressed file" 0 "$(cat "$work/plain.status")"
[ ! -e "$work/cache-plain/$build_id.debug" ] || check_failed "an uncompressed file was copied"

# 7. A debug file installed by build-id (libc6-dbg's for libc, which the
# program's full checks look up) gets its copy too. symbols.c makes that
# one before libdwfl opens the file, so that the first report reads the
# copy already; which file libdw read is not seen from here.
libc=$(ldd "$test_bin" | awk '$1 ~ /^libc\.so/ {print $3}')
libc_id=$(readelf -n "$libc" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
installed=/usr/lib/debug/.build-id/${libc_id:0:2}/${libc_id:2}.debug
if [ -n "$libc_id" ] && [ -f "$installed" ] && [ "$(compressed_sections "$installed")" -gt 0 ]; then
	run_status "$work/installed" env GITTRACE_DEBUG_CACHE="$work/cache-installed" \
		"$test_bin" "$stripped" pie
	case $(cat "$work/installed.status") in
	0 | 77) echo "ok: the full checks ran" ;;
	*) check_failed "the full checks failed: $(tail -5 "$work/installed.stderr")" ;;
	esac
	[ -f "$work/cache-installed/$libc_id.debug" ] ||
		check_failed "no copy of $installed: $(ls -A "$work/cache-installed" 2>&1)"
else
	echo "not checked: no compressed debug file installed for $libc (Debian: libc6-dbg)"
fi
finish
