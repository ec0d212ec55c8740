# faults.sh: whatever goes wrong with the trace file, git is never harmed.
# Each fault runs a real git command untraced and traced with the fault in
# place: stdout and exit status must be identical, and stderr the untraced
# stderr plus exactly the expected number of "gittrace:" warning lines (one
# when the tracer has to give up, none when it copes). Then what the fault
# must or must not leave behind: files never followed or clobbered, a trace
# readable up to the fault and reported incomplete.
#
# Covered elsewhere, not repeated here: an unwritable output directory as an
# unprivileged user (tests/git/never_harm.sh with git, and
# tests/capture/settings_faults.sh), kill -9 mid-run (tests/capture/kill9.sh).
#
# usage: bash faults.sh PRELOAD REPORT MAKE_DEMO WORKDIR FSIZE_UNSEEN
# (FSIZE_UNSEEN: tests/progs/fsize_unseen.c, built)
. "$(dirname "$0")/../lib.sh"
use_git

[ $# -eq 5 ] || fail "usage: faults.sh PRELOAD REPORT MAKE_DEMO WORKDIR FSIZE_UNSEEN"
preload=$1 report=$2 make_demo=$3 work=$4 fsize_unseen=$5
fresh_dir "$work"
demo_repo "$make_demo" "$work/demo" 2
"$GIT" -C "$work/demo" config pack.threads 1
export HOME=$work TZ=UTC GIT_CEILING_DIRECTORIES=$work
clean_gittrace_env

# The workloads: a read that makes many calls (a trace of some 80 KB in
# format 3.0: well over the 32 KiB tmpfs below, which it must fill) and a
# write with a child (repack runs pack-objects). Repack gets a fresh copy
# of the repository for each run.
log_cmd=("$GIT" -C "$work/demo" log -p --all)
repack_cmd=("$GIT" -C "$work/repack" repack -adfq)

# dashes_at ARGS...: how many of ARGS come before the first "--".
dashes_at() {
	local n=0 a
	for a; do
		[ "$a" != -- ] || break
		n=$((n + 1))
	done
	echo "$n"
}

# run_git OUT WRAP... -- CMD...: runs CMD (through WRAP, e.g. env settings
# or a limit) with stdout and stderr in OUT.stdout, OUT.stderr and the exit
# status in OUT.status. stdout goes through a pipe to a cat outside WRAP,
# so that a file-size limit in WRAP binds the trace, not git's output file.
run_git() {
	local out=$1 n status
	shift
	n=$(dashes_at "$@")
	local -a wrap=("${@:1:n}")
	shift $((n + 1))
	rm -rf "$work/repack"
	cp -a "$work/demo" "$work/repack"
	set +e
	"${wrap[@]}" "$@" 2>"$out.stderr" | cat >"$out.stdout"
	status=${PIPESTATUS[0]}
	set -e
	echo "$status" >"$out.status"
}

# untraced NAME WRAP... -- CMD...: the reference run of a fault.
untraced() {
	local name=$1
	shift
	run_git "$work/$name.plain" "$@"
}

# traced NAME BASE WARNINGS VAR=VALUE... -- [WRAP... --] CMD...: runs CMD
# with the preload and the settings, and compares it with the untraced run
# BASE.
traced() {
	local name=$1 plain=$work/$2.plain warnings=$3 out=$work/$1.traced n
	shift 3
	n=$(dashes_at "$@")
	local -a settings=("${@:1:n}") wrap=()
	shift $((n + 1))
	if [ "${1:0:1}" != / ]; then # a wrapper before the command
		n=$(dashes_at "$@")
		wrap=("${@:1:n}")
		shift $((n + 1))
	fi
	run_git "$out" "${wrap[@]}" env "${settings[@]}" LD_PRELOAD="$preload" -- "$@"
	same_outcome "$name" "$plain" "$out" "$warnings"
}

# readable_incomplete NAME TRACE: the trace was cut by the fault: the
# analyzer reads it (exit 0), says it is incomplete, and its whole blocks
# are a valid zstd stream.
readable_incomplete() {
	local name=$1 trace=$2
	cut_trace_readable "$name" "$trace" "$work/$name" --top 1
	[ "$(jq '.trace.events' "$work/$name.json")" -gt 0 ] ||
		fail "$name: no call read before the fault"
	echo "ok: $name: $(stat -c %s "$trace") bytes, $prefix in whole blocks," \
		"$(jq '.trace.events' "$work/$name.json") calls read"
}

untraced log -- "${log_cmd[@]}"
untraced repack -- "${repack_cmd[@]}"

# --- The output directory does not exist: one warning, no trace anywhere.
traced missing-dir repack 1 GITTRACE_OUTPUT="$work/no/such/dir/trace.zst" -- "${repack_cmd[@]}"
[ ! -e "$work/no" ] || fail "missing-dir: the tracer created directories"

# --- GITTRACE_OUTPUT names a symlink: refused, never followed, whether its
# target exists (and must keep its bytes) or not (and must not appear).
echo "precious bytes" >"$work/target"
cp "$work/target" "$work/target.orig"
ln -s "$work/target" "$work/link.zst"
ln -s "$work/absent" "$work/dangling.zst"
traced symlink log 1 GITTRACE_OUTPUT="$work/link.zst" -- "${log_cmd[@]}"
same_files "symlink: target" "$work/target.orig" "$work/target"
[ -L "$work/link.zst" ] || fail "symlink: the link was replaced"
traced dangling-symlink log 1 GITTRACE_OUTPUT="$work/dangling.zst" -- "${log_cmd[@]}"
[ ! -e "$work/absent" ] || fail "dangling-symlink: the tracer created the link's target"

# --- No GITTRACE_OUTPUT: a new file in $TMPDIR, none where the program
# works (git status would list it, git add -A commit it).
mkdir "$work/default-tmp" "$work/default-cwd"
cd "$work/default-cwd"
traced default log 0 TMPDIR="$work/default-tmp" -- "${log_cmd[@]}"
cd "$OLDPWD"
check_eq "default: nothing in the current directory" "" "$(ls -A "$work/default-cwd")"
check_eq "default: one trace in \$TMPDIR" 1 \
	"$(find "$work/default-tmp" -type f -name 'gittrace.git.*.zst' | wc -l)"
# A relative TMPDIR is not taken (mktemp's rule): /tmp then, the file named
# by the pid (sh execs git in place), so that no other trace is touched.
cat >"$work/pid.sh" <<'EOF'
echo $$ >"$1"
shift
exec "$@"
EOF
cd "$work/default-cwd"
traced default-relative log 0 TMPDIR=. -- sh "$work/pid.sh" "$work/relative.pid" -- \
	"${log_cmd[@]}"
cd "$OLDPWD"
check_eq "default, TMPDIR relative: nothing in the current directory" "" \
	"$(ls -A "$work/default-cwd")"
in_tmp=/tmp/gittrace.git.$(cat "$work/relative.pid").zst
check_eq "default, TMPDIR relative: the trace in /tmp" true "$([ -s "$in_tmp" ] && echo true)"
rm -f "$in_tmp"

# --- A default file name already taken, by a file or by a symlink: never
# clobbered or followed; the trace goes to the next free name. The pid is
# known in advance because sh execs git in place.
mkdir "$work/taken"
# plant.sh KIND CMD...: plants a KIND (file or symlink) at the default
# name of the traced process, then execs CMD in its place.
cat >"$work/plant.sh" <<'EOF'
kind=$1
shift
name=gittrace.git.$$.zst
if [ "$kind" = file ]; then echo "an older trace" >"$name"; else ln -s ../target "$name"; fi
exec "$@"
EOF
for kind in file symlink; do
	# Not in a subshell: traced's counted checks must reach finish.
	cd "$work/taken"
	traced "taken-$kind" log 0 TMPDIR="$work/taken" -- sh "$work/plant.sh" "$kind" -- \
		"${log_cmd[@]}"
	cd "$OLDPWD"
done
check_eq "taken: the planted file" "an older trace" \
	"$(find "$work/taken" -type f -name 'gittrace.git.*.zst' ! -name '*.1.zst' -exec cat {} +)"
same_files "taken: the symlink's target" "$work/target.orig" "$work/target"
check_eq "taken: traces at the next free name" 2 \
	"$(find "$work/taken" -type f -name 'gittrace.git.*.1.zst' | wc -l)"
for t in "$work"/taken/gittrace.git.*.1.zst; do
	"$report" --json "$t" | jq -e '.trace.complete' >/dev/null ||
		fail "taken: $t is not a complete trace"
done
echo "ok: taken: both traces complete"

# --- New files are created 0600 unless GITTRACE_FILE_MODE says otherwise.
traced mode-default log 0 GITTRACE_OUTPUT="$work/mode-default.zst" -- "${log_cmd[@]}"
check_eq "mode-default: mode" 600 "$(stat -c %a "$work/mode-default.zst")"
mkdir "$work/mode-dir"
traced mode-dir log 0 GITTRACE_OUTPUT="$work/mode-dir" -- "${log_cmd[@]}"
check_eq "mode-dir: mode" 600 "$(stat -c %a "$work"/mode-dir/gittrace.git.*.zst)"
traced mode-asked log 0 GITTRACE_OUTPUT="$work/mode-asked.zst" GITTRACE_FILE_MODE=0640 -- \
	"${log_cmd[@]}"
check_eq "mode-asked: mode (umask $(umask))" 640 "$(stat -c %a "$work/mode-asked.zst")"

# --- /dev/full as the output: refused (not a regular file) or failing
# every write with ENOSPC: either way one warning for the whole run.
traced dev-full repack 1 GITTRACE_OUTPUT=/dev/full -- "${repack_cmd[@]}"

# --- Disk full on a real file system: a 32 KiB tmpfs fills up mid-run. If
# this machine does not let us mount one (no privilege, in a container),
# /dev/full above is the only disk-full case: say so and go on.
mkdir "$work/small"
if mount -t tmpfs -o size=32k gittrace-faults "$work/small" 2>"$work/mount.stderr"; then
	trap 'umount "$work/small" 2>/dev/null || true' EXIT
	traced tmpfs log 1 GITTRACE_OUTPUT="$work/small/trace.zst" GITTRACE_BUFFER_SIZE=64k -- \
		"${log_cmd[@]}"
	cp "$work/small/trace.zst" "$work/tmpfs.zst"
	# With children: all of repack's processes write to the full file; the
	# run still warns once.
	rm "$work/small/trace.zst"
	traced tmpfs-child repack 1 GITTRACE_OUTPUT="$work/small/trace.zst" \
		GITTRACE_BUFFER_SIZE=64k -- "${repack_cmd[@]}"
	cp "$work/small/trace.zst" "$work/tmpfs-child.zst"
	umount "$work/small"
	trap - EXIT
	readable_incomplete tmpfs "$work/tmpfs.zst"
	readable_incomplete tmpfs-child "$work/tmpfs-child.zst"
else
	echo "note: no tmpfs here ($(cat "$work/mount.stderr")): disk full is /dev/full only"
fi

# --- File-size limit (ulimit -f, 1 KiB units in bash): crossing it would
# raise SIGXFSZ and kill git; the tracer must stop before it instead. The
# limit binds git's process, whose stdout is a pipe (run_git). The log's
# trace is some 70 KB; limit it to 24 KiB.
limit=(bash -c 'ulimit -f 24 && exec "$@"' limit)
untraced fsize "${limit[@]}" -- "${log_cmd[@]}"
traced fsize fsize 1 GITTRACE_OUTPUT="$work/fsize.zst" GITTRACE_BUFFER_SIZE=64k -- \
	"${limit[@]}" -- "${log_cmd[@]}"
[ "$(stat -c %s "$work/fsize.zst")" -le $((24 * 1024)) ] || fail "fsize: trace beyond the limit"
readable_incomplete fsize "$work/fsize.zst"
# The same limit set by a traced program after tracing started: a shell's
# ulimit -f before it execs git. The tracer reads the limit before each
# block; read once at the start, it let the shell's next block raise
# SIGXFSZ and kill the shell.
lower=(-c 'ulimit -f 1 && exec "$@"' lower)
untraced fsize-lowered bash "${lower[@]}" -- "${log_cmd[@]}"
traced fsize-lowered fsize-lowered 1 GITTRACE_OUTPUT="$work/fsize-lowered.zst" -- \
	"$(command -v bash)" "${lower[@]}" "${log_cmd[@]}"
# A block that crosses the limit all the same, as when another process of
# the run appends between the tracer's check and its write (fsize_unseen
# hides the limit from the check): the write's SIGXFSZ is taken back, and
# tracing stops with one warning, the trace torn at the limit. The code
# before died of the signal.
preload_alone=$preload
preload="$preload_alone $fsize_unseen"
traced fsize-unseen fsize 1 GITTRACE_OUTPUT="$work/fsize-unseen.zst" GITTRACE_BUFFER_SIZE=64k -- \
	"${limit[@]}" -- "${log_cmd[@]}"
preload=$preload_alone
grep -q "^gittrace: cannot write trace file: File too large" "$work/fsize-unseen.traced.stderr" ||
	fail "fsize-unseen: $(grep gittrace: "$work/fsize-unseen.traced.stderr")"
check_eq "fsize-unseen: trace bytes (the limit)" $((24 * 1024)) "$(stat -c %s "$work/fsize-unseen.zst")"
readable_incomplete fsize-unseen "$work/fsize-unseen.zst"
# --- A limit on address space (ulimit -v, KiB): the tracer's buffers and
# compressor (some 11 MiB) count against it. When the program's own call
# fails for want of memory, the tracer writes its last block, gives them
# back and the call is made again: the program fares as it does untraced
# wherever what the tracer cannot give back (in counting mode, its
# libraries: some 3 MiB) still fits. The workload starts small and grows
# late (hash-object reads 48 MiB from stdin into one buffer), so that the
# tracer starts and the program's call is the one that fails. Found here:
# the least limit git needs untraced, to the MiB; traced in counting mode,
# 8 MiB more, below the ~13 MiB the tracer holds in all (the code before
# this failed there).
head -c $((48 << 20)) /dev/zero >"$work/big.in"
# vlimit.sh KIB INPUT CMD...: CMD under ulimit -v KIB, its stdin from INPUT.
echo 'ulimit -v "$1" && exec "${@:3}" <"$2"' >"$work/vlimit.sh"
# least_vlimit INPUT CMD...: the least ulimit -v (KiB, to the MiB) under
# which CMD, its stdin from INPUT, succeeds untraced.
least_vlimit() {
	local lo=8192 hi=1048576 mid
	bash "$work/vlimit.sh" $hi "$@" >/dev/null 2>&1 ||
		fail "address space: ${*:2} fails untraced even under $hi KiB"
	while [ $((hi - lo)) -gt 1024 ]; do
		mid=$(((lo + hi) / 2))
		if bash "$work/vlimit.sh" $mid "$@" >/dev/null 2>&1; then hi=$mid; else lo=$mid; fi
	done
	echo $hi
}
hash_cmd=("$GIT" hash-object --stdin)
hi=$(least_vlimit "$work/big.in" "${hash_cmd[@]}")
limit=(bash "$work/vlimit.sh" $((hi + 8 * 1024)) "$work/big.in")
untraced vsize "${limit[@]}" -- "${hash_cmd[@]}"
traced vsize vsize 1 GITTRACE_OUTPUT="$work/vsize.zst" GITTRACE_STACK_DEPTH=0 -- "${limit[@]}" -- \
	"${hash_cmd[@]}"
grep -q "^gittrace: out of memory" "$work/vsize.traced.stderr" ||
	fail "vsize: $(grep gittrace: "$work/vsize.traced.stderr")"
readable_incomplete vsize "$work/vsize.zst"
echo "ok: vsize: git needs $hi KiB untraced; traced under $((hi + 8 * 1024)) KiB"
# The same limit, after tracing stopped for another reason: a tracer that
# stops gives its buffers and compressor back at once, for an untraced call
# is not made again. hash-object hashes a small file 100,000 times (some
# 600,000 calls: blocks written before the end whatever the clock says),
# then maps the 48 MiB file; ulimit -f 1 lets the first block (the image's
# modules, under 1 KiB) through, if anything, and stops tracing at a later
# one, before the mapping. The code before this failed here.
echo small >"$work/small.in"
awk -v small="$work/small.in" -v big="$work/big.in" \
	'BEGIN { for (i = 0; i < 100000; i++) print small; print big }' >"$work/paths.in"
echo 'ulimit -f 1 && exec "$@"' >"$work/flimit.sh"
paths_cmd=("$GIT" hash-object --stdin-paths)
hi=$(least_vlimit "$work/paths.in" bash "$work/flimit.sh" "${paths_cmd[@]}")
limit=(bash "$work/vlimit.sh" $((hi + 8 * 1024)) "$work/paths.in" bash "$work/flimit.sh")
untraced stopped-vsize "${limit[@]}" -- "${paths_cmd[@]}"
traced stopped-vsize stopped-vsize 1 GITTRACE_OUTPUT="$work/stopped-vsize.zst" \
	GITTRACE_STACK_DEPTH=0 -- "${limit[@]}" -- "${paths_cmd[@]}"
grep -q "^gittrace: the trace reached the file size limit" "$work/stopped-vsize.traced.stderr" ||
	fail "stopped-vsize: $(grep gittrace: "$work/stopped-vsize.traced.stderr")"
check_eq "stopped-vsize: hashes" 100001 "$(wc -l <"$work/stopped-vsize.traced.stdout")"
echo "ok: stopped-vsize: git needs $hi KiB untraced; traced under $((hi + 8 * 1024)) KiB"

# The next run to that file (whose mark says a process of its run failed)
# replaces it: traced whole, without a warning, and the mark cleared.
[ -k "$work/fsize.zst" ] || fail "fsize: the file does not carry the mark of a failed run"
traced after-failed log 0 GITTRACE_OUTPUT="$work/fsize.zst" -- "${log_cmd[@]}"
[ ! -k "$work/fsize.zst" ] || fail "after-failed: the earlier run's mark is still on the file"
"$report" --json "$work/fsize.zst" | jq -e '.trace.complete and .trace.events > 0' >/dev/null ||
	fail "after-failed: not a complete trace of the run"
echo "ok: after-failed: a complete trace, the mark cleared"
# With a child: an alias runs git log in a shell, so the trace crosses the
# limit in a child's image (the log's trace is some 37 KB; git, the shell
# and the child write nothing else to files).
limit=(bash -c 'ulimit -f 24 && exec "$@"' limit)
child_cmd=("$GIT" -C "$work/demo" -c 'alias.lograw=!git log --raw --all' lograw)
untraced fsize-child "${limit[@]}" -- "${child_cmd[@]}"
traced fsize-child fsize-child 1 GITTRACE_OUTPUT="$work/fsize-child.zst" \
	GITTRACE_BUFFER_SIZE=64k -- "${limit[@]}" -- "${child_cmd[@]}"
[ "$(stat -c %s "$work/fsize-child.zst")" -le $((24 * 1024)) ] ||
	fail "fsize-child: trace beyond the limit"
readable_incomplete fsize-child "$work/fsize-child.zst"

finish
