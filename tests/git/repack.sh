# repack.sh: `git repack -adf` traced and untraced on two identical copies of
# a demo repository gives the same stdout, stderr, exit status and packs
# (names and bytes with pack.threads=1; the same objects with threads, whose
# delta search, and so the pack's bytes, vary from run to run anyway). The
# trace holds the `git repack` parent and its `git pack-objects` child, with
# argv, records and the child's pack maps.
#
# usage: bash repack.sh PRELOAD REPORT MAKE_DEMO WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git

[ $# -eq 4 ] || fail "usage: repack.sh PRELOAD REPORT MAKE_DEMO WORKDIR"
preload=$1 report=$2 make_demo=$3 work=$4
fresh_dir "$work"
demo_repo "$make_demo" "$work/demo" 5

# objects_of REPO: the sorted object ids in REPO's packs.
objects_of() {
	for idx in "$1"/objects/pack/*.idx; do
		"$GIT" show-index <"$idx" | cut -d' ' -f2
	done | sort
}

# repack_both NAME GIT-ARGS...: repacks copy a untraced and copy b traced.
repack_both() {
	local name=$1
	shift
	rm -rf "$work/$name.a" "$work/$name.b"
	cp -a "$work/demo" "$work/$name.a"
	cp -a "$work/demo" "$work/$name.b"
	run_status "$work/$name.a" "$GIT" -C "$work/$name.a" "$@"
	GITTRACE_OUTPUT=$work/$name.zst run_status "$work/$name.b" run_traced "$preload" \
		"$GIT" -C "$work/$name.b" "$@"
	same_outcome "$name" "$work/$name.a" "$work/$name.b" 0
	check_eq "$name: pack files" "$(cd "$work/$name.a/objects/pack" && ls | grep -c .)" \
		"$(cd "$work/$name.b/objects/pack" && ls | grep -c .)"
	objects_of "$work/$name.a" >"$work/$name.a.objects"
	objects_of "$work/$name.b" >"$work/$name.b.objects"
	same_files "$name: packed objects" "$work/$name.a.objects" "$work/$name.b.objects"
}

repack_both one-thread -c pack.threads=1 repack -adf
check_eq "one-thread: pack names" "$(ls "$work/one-thread.a/objects/pack")" \
	"$(ls "$work/one-thread.b/objects/pack")"
for f in "$work"/one-thread.a/objects/pack/*; do
	same_files "one-thread: bytes of $(basename "$f")" "$f" \
		"$work/one-thread.b/objects/pack/$(basename "$f")"
done
repack_both threads repack -adf

# The trace of the threaded run: the repack parent and the pack-objects child.
"$report" --json --top 5 "$work/threads.zst" >"$work/report.json" 2>"$work/report.stderr" ||
	fail "gittrace-report --json failed: $(cat "$work/report.stderr")"
q() {
	jq -r "$1" "$work/report.json"
}
check_eq "trace complete" true "$(q .trace.complete)"
# git repack forks before it execs pack-objects: that fork is an image with
# repack's argv too (origin "fork"); the repack process itself is the root.
check_eq "repack images" 2 "$(q '[.processes[] | select(.argv[1:] | index(["repack"]))] | length')"
check_eq "pack-objects images" 1 \
	"$(q '[.processes[] | select(.argv[1] == "pack-objects")] | length')"
parent='(.processes[] | select(.origin == "root"))'
child='(.processes[] | select(.argv[1] == "pack-objects"))'
check_eq "repack argv" '["/usr/bin/git","-C","'"$work"'/threads.b","repack","-adf"]' \
	"$(q "$parent.argv | tojson")"
check_eq "pack-objects is repack's child" true "$(q "[$child.ppid == $parent.pid] | all")"
echo "ok: pack-objects argv: $(q "$child.argv | join(\" \")")"
for who in parent child; do
	expr=${!who}
	[ "$(q "$expr.calls.malloc + $expr.calls.calloc + $expr.calls.realloc")" -gt 0 ] ||
		fail "$who: no allocations recorded"
	echo "ok: $who: $(q "$expr.calls.malloc") mallocs, $(q "$expr.calls.free") frees"
done
[ "$(q "$child.maps.by_kind.pack.mmaps")" -gt 0 ] || fail "pack-objects: no pack maps"
echo "ok: pack-objects: $(q "$child.maps.by_kind.pack.mmaps") pack maps"
[ "$(q "$child.sites | length")" -gt 0 ] || fail "pack-objects: no call sites"
finish
