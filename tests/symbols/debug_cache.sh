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

# A whole copy but for one section header, whose size runs past the end
# of the file (sh_size: 32 bytes into the 64-bit section header).
info=$(readelf -SW "$copy" 2>/dev/null | sed -n 's/^ *\[ *\([0-9]*\)\] \.debug_info .*/\1/p')
shoff=$(od -An -t u8 -j 40 -N 8 "$copy" | tr -d ' ')
shentsize=$(od -An -t u2 -j 58 -N 2 "$copy" | tr -d ' ')
[ -n "$info" ] && [ -n "$shoff" ] && [ -n "$shentsize" ] || fail "no .debug_info header in $copy"
printf '\377\377\377\377\377\377\377\177' |
	dd of="$copy" bs=1 seek=$((shoff + info * shentsize + 32)) conv=notrunc status=none
cmp -s "$copy" "$work/first-copy" && fail "the section header was not changed"
lookup past_end GITTRACE_DEBUG_CACHE="$cache"
check_eq "names and lines with a section past the end" 0 "$(cat "$work/past_end.status")"
cmp -s "$copy" "$work/first-copy" || check_failed "the copy with a section past its end was not made again"

# 4. Making a copy removes the cache's files unused for 30 days, and only
# those: not a file of another name, whatever its age.
rm "$copy"
for name in 0123.debug .0123.debug.AbCdEf notes.debug; do
	echo old >"$cache/$name"
	touch -d '40 days ago' "$cache/$name"
done
echo recent >"$cache/4567.debug"
touch -d '20 days ago' "$cache/4567.debug"
lookup again GITTRACE_DEBUG_CACHE="$cache"
check_eq "names and lines, the copy made again" 0 "$(cat "$work/again.status")"
check_eq "the cache after it" \
	"$(printf '%s\n' 4567.debug "$build_id.debug" notes.debug | sort | xargs)" \
	"$(ls -A "$cache" | sort | xargs)"

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

# Not a private directory (another user could put files there that libdw
# would read): warned about, not used.
mkdir -p "$work/shared"
chmod 777 "$work/shared"
lookup shared GITTRACE_DEBUG_CACHE="$work/shared"
check_eq "names and lines, a shared directory" 0 "$(cat "$work/shared.status")"
check_grep "a shared directory is warned about" "$work/shared is no directory of the user's own" \
	"$work/shared.stderr"
check_eq "files put in the shared directory" "" "$(ls -A "$work/shared")"

# Something other than a file at the copy's name: a FIFO does not hang
# the lookup (the test's timeout would), a directory is left alone.
mkdir -p "$work/odd"
chmod 700 "$work/odd"
mkfifo "$work/odd/$build_id.debug"
lookup fifo GITTRACE_DEBUG_CACHE="$work/odd"
check_eq "names and lines, a FIFO at the copy's name" 0 "$(cat "$work/fifo.status")"
rm "$work/odd/$build_id.debug"
mkdir "$work/odd/$build_id.debug"
lookup directory GITTRACE_DEBUG_CACHE="$work/odd"
check_eq "names and lines, a directory at the copy's name" 0 "$(cat "$work/directory.status")"
check_eq "files in the cache, a directory at the copy's name" "$build_id.debug" "$(ls -A "$work/odd")"

# 6. A debug file without compressed sections gets no copy.
objcopy --only-keep-debug --decompress-debug-sections "$test_bin" "$original"
lookup plain GITTRACE_DEBUG_CACHE="$work/cache-plain"
check_eq "names and lines from an uncompressed file" 0 "$(cat "$work/plain.status")"
[ ! -e "$work/cache-plain/$build_id.debug" ] || check_failed "an uncompressed file was copied"

# 7. A dwz'd debug file: its .gnu_debugaltlink names the file of the DWARF
# it shares with another program, where its names are. libdwfl asks for
# that file with the module's build-id still its own: the module's copy
# handed back then gave no name at all.
command -v dwz >/dev/null || fail "dwz is not installed (Debian: dwz; scripts/install-deps.sh installs it)"
mkdir -p "$work/dwz"
cp "$test_bin" "$work/dwz/one"
cp "$test_bin" "$work/dwz/two"
dwz -m "$work/dwz/common.debug" -M "$work/dwz/common.debug" "$work/dwz/one" "$work/dwz/two" ||
	fail "dwz failed"
# Not `readelf | grep -q`: grep stops reading at the match, and readelf,
# killed by SIGPIPE while it writes the rest, fails the pipeline now and
# then under pipefail.
readelf -SW "$work/dwz/one" >"$work/dwz/sections" 2>/dev/null || true
grep -q '\.gnu_debugaltlink' "$work/dwz/sections" || fail "dwz left no altlink"
objcopy --only-keep-debug --compress-debug-sections=zlib "$work/dwz/one" "$original"
for run in dwz_first dwz_second; do
	lookup "$run" GITTRACE_DEBUG_CACHE="$work/cache-dwz"
	check_eq "names and lines of a dwz'd file ($run)" 0 "$(cat "$work/$run.status")"
done
[ -f "$work/cache-dwz/$build_id.debug" ] || check_failed "the dwz'd file got no copy"

# 8. A debug file installed by build-id (libc6-dbg's for libc, which the
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
