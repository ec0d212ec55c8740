# log_counts.sh: on `git log --raw` of a demo repository (deterministic, one
# process), the trace's malloc/calloc/realloc/free counts equal an
# independent count made without the preload by ltrace, and its pack-file
# mmaps equal strace's count of mmap calls on *.pack files. Run twice: with
# git's default windows and with tiny ones (many maps and unmaps).
#
# usage: bash log_counts.sh PRELOAD REPORT MAKE_DEMO WORKDIR
#
# Why ltrace's count is the same quantity: `ltrace -e malloc` (no @library)
# puts a breakpoint on the malloc PLT entry of *every* loaded object - git,
# libz, libpcre2 and libc itself, whose internal malloc calls also go through
# its PLT because glibc keeps malloc interposable. An interposer sees exactly
# the calls that go through the dynamic symbol: the same set. What neither
# sees is glibc-internal allocation that does not use the symbol (for
# instance realloc(NULL, n) entering malloc inside libc, which a uprobe on
# malloc would count); `ltrace -e malloc@libc.so.6` alone would count only
# libc's own PLT calls, and ltrace of only git's PLT would miss libz's.
. "$(dirname "$0")/lib.sh"

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

	ltrace -c -e malloc+calloc+realloc+free -o "$work/$name.ltrace" "${cmd[@]}" >/dev/null
	for fn in malloc calloc realloc free; do
		check_eq "$name: $fn calls, trace vs ltrace" "$(ltrace_count "$work/$name.ltrace" $fn)" \
			"$(jq ".processes[0].calls.$fn" "$work/$name.json")"
	done

	strace -f -y -e trace=mmap -o "$work/$name.strace" "${cmd[@]}" >/dev/null
	local maps
	maps=$(grep -c '\.pack>' "$work/$name.strace" || true)
	check_eq "$name: pack maps, trace vs strace" "$maps" \
		"$(jq '.processes[0].maps.by_kind.pack.mmaps' "$work/$name.json")"
}

one_case default
one_case tiny-windows -c core.packedGitWindowSize=16k -c core.packedGitLimit=64k
echo "PASS"
