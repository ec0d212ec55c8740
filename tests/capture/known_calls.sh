# known_calls.sh: traces tests/progs/known_calls and checks the report's JSON
# against `known_calls --expect`, per process image, per named site, per
# calling stack: counts, leaks, pack maps, threads.
#
# usage: bash known_calls.sh PRELOAD REPORT KNOWN_CALLS WORKDIR
#
# The expectations come from the program (its own constants), not from this
# script. libc makes allocations of its own (stdio buffers, pthread_create),
# so heap calls are compared per site, where they are exact; the mmap family
# is compared per image too, because libc maps memory internally without
# going through the interposable symbols, so every recorded map is ours.
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: known_calls.sh PRELOAD REPORT KNOWN_CALLS WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
dir=$work/run

"$prog" --expect >"$work/expect.json"
GITTRACE_OUTPUT=$work/trace.zst run_traced "$preload" "$prog" "$dir" >"$work/stdout" 2>"$work/stderr"
check_eq "known_calls stdout" "known_calls: done" "$(cat "$work/stdout")"
check_eq "known_calls stderr" "" "$(cat "$work/stderr")"
[ -s "$work/trace.zst" ] || fail "no trace written at $work/trace.zst"

"$report" --json --top 0 "$work/trace.zst" >"$work/report.json" 2>"$work/report.stderr" ||
	fail "gittrace-report --json failed: $(cat "$work/report.stderr")"

# The four images, told apart by argv and pid (see known_calls.c).
images='
  ($e.exec_argv) as $xargv
  | [.processes[] | select(.argv == $xargv)] as $x
  | [.processes[] | select(.argv[-1] == $dir and .pid == $x[0].ppid)] as $root
  | [.processes[] | select(.argv[-1] == $dir and .pid != $x[0].ppid and .pid != $x[0].pid)]
    as $fork
  | [.processes[] | select(.pid == $x[0].pid and .argv != $xargv)] as $pre
  | {root: $root, fork_exit: $fork, fork_then_exec: $pre, exec: $x}'

# q FILTER: FILTER on the report, with $e the expectations and .img.ROLE the
# images found for each role.
q() {
	jq -r --slurpfile expect "$work/expect.json" --arg dir "$dir" \
		"\$expect[0] as \$e | . + {img: ($images)} | $1" "$work/report.json"
}

check_eq "trace complete" true "$(q '.trace.complete')"
check_eq "process images" 4 "$(q '.processes | length')"
for role in root fork_exit fork_then_exec exec; do
	check_eq "$role: images found" 1 "$(q ".img.$role | length")"
	check_eq "$role: complete" true "$(q ".img.$role[0].complete")"
done
check_eq "exec'd image keeps the pid of the forked child" true \
	"$(q '.img.exec[0].pid == .img.fork_then_exec[0].pid')"
check_eq "fork child's parent is the root" true "$(q '.img.fork_exit[0].ppid == .img.root[0].pid')"

heap_fns='["malloc","calloc","realloc","reallocarray","posix_memalign","aligned_alloc",
	"memalign","valloc","pvalloc"]'
map_fns='["mmap","mmap64","munmap","mremap"]'

for i in 0 1 2 3; do
	role=$(jq -r ".images[$i].role" "$work/expect.json")
	img=".img.$role[0]"
	exp="\$e.images[$i]"

	# No signal handler allocates here: no call may be counted as dropped
	# (glibc's reallocarray calls realloc inside the hook, which once was).
	check_eq "$role: no calls dropped" 0 "$(q "$img.dropped_calls")"

	# Threads that made calls: the image's own, never the parent's.
	if [ "$role" != fork_then_exec ]; then
		check_eq "$role: threads" "$(q "$exp.threads_with_work")" "$(q "$img.threads")"
	fi

	# Allocating sites: all allocations made from a site's stacks, exactly.
	for site in $(q "$exp.sites | to_entries[] | select(.value.function as \$f |
			$heap_fns | index(\$f)) | .key"); do
		check_eq "$role: $site allocations" "$(q "$exp.sites.$site.calls")" \
			"$(q "[$img.sites[] | select(.function == \"$site\") | .allocations] | add // 0")"
	done

	# Per stack: every stack of a site is site <- do_work <- one of the
	# expected callers, and each caller's share is its units' worth.
	for caller in $(q "$exp.callers | keys[]"); do
		for site in site_malloc site_calloc site_posix_memalign site_pvalloc; do
			want=$(q "$exp.callers.$caller * \$e.unit.$site.calls")
			got=$(q "[$img.sites[] | select(.function == \"$site\")
				| (.frames | map(.function)) as \$f
				| (\$f | index(\"$site\")) as \$k
				| select(\$k != null and \$f[\$k + 1] == \"do_work\"
					and \$f[\$k + 2] == \"$caller\")
				| .allocations] | add // 0")
			check_eq "$role: $site via do_work <- $caller" "$want" "$got"
		done
	done
	check_eq "$role: every site stack goes through do_work or is a known extra" 0 \
		"$(q "[$img.sites[] | select(.function | startswith(\"site_\"))
			| select(.function != \"site_leak\")
			| .function as \$s | (.frames | map(.function)) as \$f
			| (\$f | index(\$s)) as \$k
			| select(\$k == null or \$f[\$k + 1] != \"do_work\")] | length")"

	# The mmap family per image: every recorded call is one of the sites'.
	# (The JSON's calls.mmap includes mmap64.)
	for fn in mmap munmap mremap; do
		check_eq "$role: $fn calls" \
			"$(q "[$exp.sites[] | select(.function == \"$fn\" or
				(\"$fn\" == \"mmap\" and .function == \"mmap64\")) | .calls] | add // 0")" \
			"$(q "$img.calls.$fn")"
	done
	# The malloc family: at least the sites' calls (libc adds its own).
	for fn in malloc calloc realloc reallocarray free posix_memalign aligned_alloc memalign \
		valloc pvalloc; do
		want=$(q "[$exp.sites[] | select(.function == \"$fn\") | .calls] | add // 0")
		got=$(q "$img.calls.$fn")
		[ "$got" -ge "$want" ] || fail "$role: $fn calls: expected at least $want, got $got"
		echo "ok: $role: $fn calls $got >= $want"
	done
done

# The leak, in the root only; no other site of ours leaks.
check_eq "site_leak allocations" "$(q '$e.leak.allocations')" \
	"$(q '[.img.root[0].sites[] | select(.function == "site_leak") | .leaked_allocations] | add')"
check_eq "site_leak bytes" "$(q '$e.leak.bytes')" \
	"$(q '[.img.root[0].sites[] | select(.function == "site_leak") | .leaked_bytes] | add')"
check_eq "no other site of ours leaks" 0 \
	"$(q '[.img[][0].sites[] | select(.function | startswith("site_"))
		| select(.function != "site_leak") | .leaked_allocations] | add // 0')"

# Pack windows, in the root only.
check_eq "root: pack mmaps" "$(q '$e.pack.maps')" "$(q '.img.root[0].maps.by_kind.pack.mmaps')"
check_eq "root: pack munmaps" "$(q '$e.pack.munmaps')" "$(q '.img.root[0].maps.by_kind.pack.munmaps')"
check_eq "root: remapped regions" "$(q '$e.pack.remapped_regions')" \
	"$(q '.img.root[0].maps.remapped_regions')"
check_eq "root: inferred window" "$(q '$e.pack.window_bytes')" \
	"$(q '.img.root[0].maps.inferred_window_bytes')"
for role in fork_exit exec; do
	check_eq "$role: pack mmaps" 0 "$(q ".img.$role[0].maps.by_kind.pack.mmaps // 0")"
	check_eq "$role: remapped regions" 0 "$(q ".img.$role[0].maps.remapped_regions")"
done
# The raw records, per image, stack and function, from --dump: for every
# CALL whose stack holds a site_* frame, (image, site, function, the caller of
# do_work or of the site) must match the expectations exactly, munmaps
# included, and nothing else may appear. Frees are not unwound (format 2.0):
# each must have no stack, and one that frees a block a site_* call returned
# counts as site_free's, with that call's caller.
"$report" --dump "$work/trace.zst" >"$work/dump.txt" || fail "gittrace-report --dump failed"
q '.img | to_entries[] | "\(.value[0].image_id) \(.key)"' >"$work/roles.txt"
awk '
NR == FNR { role[$1] = $2; next }
{ img = substr($1, 7) }
$4 == "STACK" {
	for (i = 5; i <= NF; i++)
		if ($i ~ /^id=/) id = substr($i, 4)
		else if ($i ~ /^frames=/) n = split(substr($i, 8), f, ";")
	for (k = 1; k <= n && f[k] !~ /^site_/; k++)
		;
	if (k <= n)
		site[img, id] = f[k] " " (f[k + 1] == "do_work" ? f[k + 2] : f[k + 1])
}
$4 == "CALL" {
	fn = st = ptr = result = ""
	for (i = 5; i <= NF; i++)
		if ($i ~ /^fn=/) fn = substr($i, 4)
		else if ($i ~ /^stack=/) st = substr($i, 7)
		else if ($i ~ /^ptr=/) ptr = substr($i, 5)
		else if ($i ~ /^result=/) result = substr($i, 8)
	if (fn == "free") {
		if (st != 0)
			count["a free with a stack"]++
		if ((img, ptr) in owner) {
			split(owner[img, ptr], o, " ")
			count[role[img] " site_free " o[2] " free"]++
			delete owner[img, ptr]
		}
		next
	}
	if (ptr != "")
		delete owner[img, ptr] # realloc moved or freed it
	if ((img, st) in site) {
		count[role[img] " " site[img, st] " " fn]++
		if (result != "")
			owner[img, result] = site[img, st]
	}
}
END { for (k in count) print k, count[k] }' "$work/roles.txt" "$work/dump.txt" |
	sort >"$work/dump.counts"
q '$e.images[] as $i | $i.sites | to_entries[] | select(.value.calls > 0)
	| if .value.caller then "\($i.role) \(.key) \(.value.caller) \(.value.function) \(.value.calls)"
	  else ($i.callers | to_entries[]) as $c
	  | "\($i.role) \(.key) \($c.key) \(.value.function) \(.value.calls / $i.units * $c.value)"
	  end' | sort >"$work/expect.counts"
same=$(diff "$work/expect.counts" "$work/dump.counts" || true)
[ -z "$same" ] || fail "records per image, site, caller and function (< expected, > trace):
$same"
echo "ok: $(wc -l <"$work/expect.counts") (image, site, caller, function) counts match the dump"
finish
