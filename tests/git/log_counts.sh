# log_counts.sh: on `git log --raw` of a demo repository (deterministic, one
# process), the trace's malloc/calloc/realloc/free counts equal an
# independent count made without the preload by ltrace, and its pack-file
# mmaps equal strace's count of mmap calls on *.pack files. Run twice: with
# git's default windows and with tiny ones (many maps and unmaps).
#
# usage: bash log_counts.sh PRELOAD REPORT MAKE_DEMO WORKDIR
#
# The independent count: `ltrace -L -x malloc@libc.so.6+...` puts a
# breakpoint on the entry of each function inside libc, as perf's uprobes
# would, and counts every entry. That is a different quantity from what an
# interposer sees, in known ways, checked exactly on tests/progs/known_calls:
#  - glibc's realloc(NULL, n) enters malloc internally: malloc entries =
#    malloc calls + realloc calls with ptr NULL;
#  - reallocarray enters realloc: realloc entries = realloc + reallocarray.
# free and calloc entries equal the calls. The PLT-only count
# (`ltrace -e malloc+free`) is NOT usable for git: Debian's git takes free's
# address (a GLOB_DAT relocation), and calls through that pointer bypass the
# PLT, so ltrace -e misses thousands of frees that do reach the interposer.
. "$(dirname "$0")/../lib.sh"
use_git

[ $# -eq 4 ] || fail "usage: log_counts.sh PRELOAD REPORT MAKE_DEMO WORKDIR"
preload=$1 report=$2 make_demo=$3 work=$4
fresh_dir "$work"
command -v ltrace >/dev/null || fail "ltrace is missing (apt-get install ltrace)"
command -v strace >/dev/null || fail "strace is missing (apt-get install strace)"
demo_repo "$make_demo" "$work/demo" 5

# ltrace_count FILE FN: calls of FN in an `ltrace -c` summary (0 if none).
ltrace_count() {
	awk -v fn="$2" '$NF == fn { n = $(NF - 1) } END { print n + 0 }' "$1"
}

one_case() {
	local name=$1
	shift
	local cmd=("$GIT" -C "$work/demo" "$@" log --raw)

	"${cmd[@]}" >"$work/$name.plain"
	GITTRACE_OUTPUT=$work/$name.zst run_traced "$preload" "${cmd[@]}" >"$work/$name.traced"
	same_files "$name: git log output" "$work/$name.plain" "$work/$name.traced"
	"$report" --json --top 1 "$work/$name.zst" >"$work/$name.json" ||
		fail "gittrace-report --json failed"
	check_eq "$name: one process" 1 "$(jq '.processes | length' "$work/$name.json")"

	ltrace -c -L -x malloc@libc.so.6+calloc@libc.so.6+realloc@libc.so.6+free@libc.so.6 \
		-o "$work/$name.ltrace" "${cmd[@]}" >/dev/null
	"$report" --dump "$work/$name.zst" >"$work/$name.dump"
	local c realloc_null
	c=$(jq -c '.processes[0].calls' "$work/$name.json")
	realloc_null=$(grep -c ' CALL fn=realloc .* ptr=0x0 ' "$work/$name.dump" || true)
	check_eq "$name: malloc entries (ltrace) = malloc + realloc(NULL, n) calls (trace)" \
		"$(ltrace_count "$work/$name.ltrace" malloc)" "$(($(jq .malloc <<<"$c") + realloc_null))"
	check_eq "$name: realloc entries (ltrace) = realloc + reallocarray calls (trace)" \
		"$(ltrace_count "$work/$name.ltrace" realloc)" \
		"$(jq '.realloc + .reallocarray' <<<"$c")"
	for fn in calloc free; do
		check_eq "$name: $fn entries (ltrace) = $fn calls (trace)" \
			"$(ltrace_count "$work/$name.ltrace" $fn)" "$(jq ".$fn" <<<"$c")"
	done

	strace -f -y -e trace=mmap -o "$work/$name.strace" "${cmd[@]}" >/dev/null
	local maps
	maps=$(grep -c '\.pack>' "$work/$name.strace" || true)
	check_eq "$name: pack maps, trace vs strace" "$maps" \
		"$(jq '.processes[0].maps.by_kind.pack.mmaps' "$work/$name.json")"

	# Each reading after a file map or unmap carries the time of the
	# tracer's own system calls around it (format 4.2, USAGE tracer_ns),
	# which the window prediction takes off the kernel time: a count of
	# readings, and of those that say the tracer took any time at all.
	local readings
	readings=$(awk '/ USAGE / { n++; t += $NF ~ /^tracer_ns=[1-9]/ }
		END { print (n > 0) " " (t > 0) }' "$work/$name.dump")
	check_eq "$name: readings, and the tracer's time in them" "1 1" "$readings"
}

one_case default
one_case tiny-windows -c core.packedGitWindowSize=16k -c core.packedGitLimit=64k
finish
