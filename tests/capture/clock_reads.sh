# clock_reads.sh: a single-threaded program reads the clock on its timed
# calls only (about 1 in 16: stream.h, gt_stream_untimed_ns), not on every
# call, because on some machines a reading costs ten times what it costs on
# others. The readings are counted by a library preloaded in front of
# libgittrace (clock_count.c). The untimed calls' times, which the reader
# places between the timed ones (format.h, CALL), still run forward within
# the image's start and end, from one block to the next too (64 KiB blocks).
# A thread's first 128 calls are all timed, none as a sample (stream.h,
# GT_TIMED_FIRST); malloc and free after them are untimed or sampled.
#
# usage: bash clock_reads.sh PRELOAD REPORT ALLOC_CHURN CLOCK_COUNT WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 5 ] || fail "usage: clock_reads.sh PRELOAD REPORT ALLOC_CHURN CLOCK_COUNT WORKDIR"
preload=$1 report=$2 churn=$3 clock_count=$4 work=$5
fresh_dir "$work"
clean_gittrace_env

for depth in 0 32; do
	GITTRACE_OUTPUT=$work/d$depth.zst GITTRACE_STACK_DEPTH=$depth GITTRACE_BUFFER_SIZE=65536 \
		CLOCK_COUNT_OUT=$work/d$depth.reads \
		run_traced "$clock_count:$preload" "$churn" 20000 >/dev/null
	reads=$(cat "$work/d$depth.reads")
	calls=$("$report" --json --top 0 "$work/d$depth.zst" | jq '.processes[0].events')
	# alloc-churn makes three calls per operation, and a few of its own.
	[ "$calls" -ge 60000 ] || fail "depth $depth: only $calls calls traced"
	echo "depth $depth: $reads clock readings for $calls calls"
	check_eq "depth $depth: fewer than one reading per two calls" 1 \
		"$(awk -v r="$reads" -v c="$calls" 'BEGIN { print (r * 2 < c) }')"

	# t_ns of every CALL, then the image's start and end.
	"$report" --dump "$work/d$depth.zst" >"$work/d$depth.dump"
	last_block=$(awk '/ END /{ for (i = 1; i <= NF; i++) if ($i ~ /^seq=/) print substr($i, 5) }' \
		"$work/d$depth.dump")
	[ "$last_block" -ge 4 ] || fail "depth $depth: the calls fill only blocks 0 to $last_block"
	check_eq "depth $depth: call times run forward, within the image" "ok" "$(awk '
		/ IMAGE / { for (i = 1; i <= NF; i++) if ($i ~ /^start_ns=/) start = substr($i, 10) }
		/ END / { for (i = 1; i <= NF; i++) if ($i ~ /^end_ns=/) end = substr($i, 8) }
		/ CALL / {
			for (i = 1; i <= NF; i++) if ($i ~ /^t_ns=/) t = substr($i, 6)
			if (n++ && t + 0 < last + 0 && !bad) bad = "backwards at call " n
			if (n == 1) first = t
			last = t
		}
		END { if (bad) print bad
		      else if (n < 60000) print "only " n " calls"
		      else if (first + 0 < start + 0 || last + 0 > end + 0) print "outside"
		      else print "ok" }' "$work/d$depth.dump")"
	check_eq "depth $depth: first calls timed, later ones sampled" "0 0 1 1" "$(awk '
		/ CALL / {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^thread=/) th = substr($i, 8)
				if ($i ~ /^fn=/) fn = substr($i, 4)
				if ($i ~ /^dur_ns=/) dur = substr($i, 8)
			}
			sampled = / sampled=1 /
			if (++n[$1 " " th] <= 128)
				bad_first += dur == "-" || sampled
			else if (fn == "malloc" || fn == "free")
				if (dur == "-") untimed++
				else if (sampled) drawn++
				else bad_later++
		}
		END { print bad_first + 0, bad_later + 0, (untimed > 0), (drawn > 0) }' "$work/d$depth.dump")"
done
finish
