# trace_audit.awk: an independent audit of a trace, read from
# `gittrace-report --dump`, that the no-silent-loss checks compare with
# the analyzer's --json figures.
#
# usage: gittrace-report --dump T | awk -f trace_audit.awk
# Prints, per image, "IMAGE id pid origin calls allocations frees
# untracked_frees leaked_allocations" and these problem lines:
#   "LOST id pid: ..."      END's recorded-call count disagrees with the
#                           CALL records in the file before it, or the
#                           image dropped calls (END dropped=, DROPPED)
#   "UNTRACKED id pid origin ptr frames"  a free of memory the image never
#                           allocated (normal in a fork, suspect elsewhere)
#
# The heap is replayed by address with the rule format.h gives for racing
# threads: an allocation can be appended before the free (by another
# thread) that made room for it, so an address may be live twice for a
# moment; a free takes one of them. A successful realloc frees its old
# pointer and allocates its result (even in place), as format.h's calls
# read and as the analyzer's model counts them.
function field(name,   i, n) {
	for (i = 5; i <= NF; i++) {
		n = index($i, "=")
		if (substr($i, 1, n - 1) == name)
			return substr($i, n + 1)
	}
	return ""
}
function alloc(p) {
	live[img, p]++
	allocs[img]++
}
function release(p) {
	frees[img]++
	if (live[img, p] > 0) {
		live[img, p]--
		return
	}
	untracked[img]++
	printf "UNTRACKED %s %s %s %s %s\n", img, pid[img], origin[img], p, frames[img, field("stack")]
}
{
	img = substr($1, 7)
	if (!(img in pid)) {
		pid[img] = substr($2, 5)
		order[++nimg] = img
	}
}
$4 == "IMAGE" { origin[img] = field("origin") }
$4 == "STACK" { frames[img, field("id")] = field("frames") }
$4 == "DROPPED" { printf "LOST %s %s: count=%s reason=%s\n", img, pid[img], field("count"), field("reason") }
$4 == "END" {
	if (field("calls") != calls[img] + 0)
		printf "LOST %s %s: END says %s calls, the file holds %d before it\n",
			img, pid[img], field("calls"), calls[img]
	if (field("dropped") != 0)
		printf "LOST %s %s: END says %s calls dropped\n", img, pid[img], field("dropped")
}
$4 == "CALL" {
	calls[img]++
	fn = field("fn")
	ptr = field("ptr")
	res = field("result")
	if (fn == "free") {
		if (ptr != "0x0")
			release(ptr)
	} else if (fn == "realloc" || fn == "reallocarray") {
		# NULL result: a failed realloc left ptr alone, unless it was a
		# realloc to 0 bytes, which freed it.
		zero = field("size") == 0 || field("nmemb") == "0"
		if (ptr != "0x0" && (res != "0x0" || zero))
			release(ptr)
		if (res != "0x0")
			alloc(res)
	} else if (fn == "posix_memalign") {
		if (field("ret") == 0)
			alloc(res)
	} else if (fn ~ /^(malloc|calloc|aligned_alloc|memalign|valloc|pvalloc)$/) {
		if (res != "0x0")
			alloc(res)
	}
}
END {
	for (k in live)
		if (live[k] > 0) {
			split(k, part, SUBSEP)
			leaked[part[1]] += live[k]
		}
	for (i = 1; i <= nimg; i++) {
		m = order[i]
		printf "IMAGE %s %s %s %d %d %d %d %d\n", m, pid[m], origin[m], calls[m],
			allocs[m], frees[m], untracked[m], leaked[m]
	}
}
