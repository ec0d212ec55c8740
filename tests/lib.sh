# lib.sh: the helpers every bash test script shares (sourced, not run).
# A folder keeps a lib.sh of its own only for helpers no other folder uses
# (ab: run_ab; behaviour: the untraced-vs-traced harness; html: the
# browser). Every check prints what it expected and what it got.
#
#   fail, check_failed, check_eq, check_grep,        checks and the verdict
#   same_files, finish
#   fresh_dir, run_status                            running things
#   run_traced, unwritable_dir, same_outcome         running under the preload
#   check_complete                                   traces
#   complete_prefix, cut_trace_readable              traces cut short
#   use_git, clean_gittrace_env, demo_repo           git, pinned
#   has_library                                      the system
# The calling script sets work (its directory) and, for the helpers that
# read traces, report (gittrace-report).
# shellcheck shell=bash disable=SC2154,SC2034 # work, report: the caller's; as_user: for it
set -euo pipefail
export LC_ALL=C

# fail MESSAGE: the test fails now.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# check_failed MESSAGE: a check failed; the test goes on, so one run shows
# every mismatch, and finish fails it. The counted checks below use it.
failures=0
check_failed() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# check_eq WHAT EXPECTED ACTUAL: ACTUAL is EXPECTED (counted).
check_eq() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1 = $3"
	else
		check_failed "$1: expected '$2', got '$3'"
	fi
}

# check_grep WHAT PATTERN FILE: FILE has a line matching the extended
# regex PATTERN (counted).
check_grep() {
	if grep -Eq -- "$2" "$3"; then
		echo "ok: $1"
	else
		check_failed "$1: no line matching '$2' in: $(cat "$3")"
	fi
}

# same_files WHAT FILE1 FILE2: fails unless both files have the same bytes.
same_files() {
	cmp -s "$2" "$3" || fail "$1 differ: $(diff "$2" "$3" | head -5)"
	echo "ok: same $1"
}

# finish: the test's verdict, after all checks. Every script that uses a
# counted check ends with it (a check made in a subshell is not counted).
finish() {
	[ "$failures" -eq 0 ] || fail "$failures check(s) failed"
	echo "PASS"
}

# fresh_dir PATH: an empty directory at PATH (tests rerun in the same build dir).
fresh_dir() {
	rm -rf "$1"
	mkdir -p "$1"
}

# run_status OUT CMD...: runs CMD with its stdout in OUT.stdout, its stderr
# in OUT.stderr and its exit status in OUT.status, whatever that status.
run_status() {
	local out=$1 status=0
	shift
	"$@" >"$out.stdout" 2>"$out.stderr" || status=$?
	echo "$status" >"$out.status"
}

# run_traced PRELOAD CMD...: runs CMD with PRELOAD appended to LD_PRELOAD.
run_traced() {
	local preload=$1
	shift
	LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$@"
}

# as_nobody VAR...: sets as_user, the prefix that runs a program as the
# user the test runs it as: itself, but nobody as root (to whom every
# directory is writable). As root it also makes $work and the files that
# the variables VAR... name reachable by nobody (reachable_by).
as_nobody() {
	as_user=()
	[ "$(id -u)" -eq 0 ] || return 0
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	reachable_by "${as_user[@]}" -- "$@"
}

# unwritable_dir DIR: makes DIR, an output directory that a program run
# with $as_user (as_nobody) cannot write to: as nobody, one nobody can read
# and list but not write, with $work writable by all (for the program's own
# files).
unwritable_dir() {
	mkdir -p "$1"
	chmod 0555 "$1"
	if [ ${#as_user[@]} -gt 0 ]; then
		chmod 0777 "$work"
		chmod 0755 "$1"
	fi
}

# reachable_by USER... -- VAR...: makes $work, and the files the variables
# VAR... name, reachable by the user that the prefix USER... (setpriv)
# runs a program as. A checkout under a private directory (root's home is
# 0700) is out of that user's reach: then $work becomes a fresh directory
# under /tmp (one per build directory and test, reused by the next run, so
# nothing piles up)
# and each file is copied there, its variable set to the copy.
reachable_by() {
	local user=() var ok=1
	while [ "$1" != -- ]; do
		user+=("$1")
		shift
	done
	shift
	"${user[@]}" test -x "$work" || ok=0
	for var; do
		"${user[@]}" test -r "${!var}" || ok=0
	done
	[ $ok -eq 0 ] || return 0
	local shared
	shared=/tmp/gittrace-tests/$(printf '%s' "$work" | cksum | cut -d' ' -f1)-$(basename "$work")
	fresh_dir "$shared"
	chmod 0755 /tmp/gittrace-tests "$shared"
	for var; do
		cp "${!var}" "$shared/"
		printf -v "$var" '%s' "$shared/$(basename "${!var}")"
	done
	work=$shared/work
	mkdir "$work"
	echo "note: $(dirname "$shared") holds this test's files: the build directory is out of reach of the user it runs programs as"
}

# same_outcome NAME PLAIN TRACED WARNINGS: the traced run of NAME did what
# the untraced one did: PLAIN.{status,stdout,stderr} (run_status) and
# TRACED's agree, except that TRACED.stderr has exactly WARNINGS more lines,
# each starting "gittrace:" (the rest of it in TRACED.rest).
same_outcome() {
	local name=$1 plain=$2 traced=$3 warnings=$4
	check_eq "$name: exit status" "$(cat "$plain.status")" "$(cat "$traced.status")"
	same_files "$name: stdout" "$plain.stdout" "$traced.stdout"
	check_eq "$name: gittrace warnings" "$warnings" "$(grep -c '^gittrace:' "$traced.stderr" || true)"
	grep -v '^gittrace:' "$traced.stderr" >"$traced.rest" || true
	same_files "$name: stderr besides warnings" "$plain.stderr" "$traced.rest"
	[ "$warnings" -eq 0 ] || echo "ok: $name: $(grep '^gittrace:' "$traced.stderr")"
}

# plain_and_traced NAME PRELOAD CMD...: runs CMD untraced ($work/plain.*,
# run_status) and under PRELOAD, its trace in $work/trace.zst
# ($work/traced.*), and checks that both did the same, with no warning
# (same_outcome).
plain_and_traced() {
	local name=$1 preload=$2
	shift 2
	run_status "$work/plain" "$@"
	GITTRACE_OUTPUT=$work/trace.zst run_status "$work/traced" run_traced "$preload" "$@"
	same_outcome "$name" "$work/plain" "$work/traced" 0
}

# heap_room OPTION KIB PRELOAD PROG MOST: PROG (tests/progs/heap_grows.c, or
# a copy of it), which allocates 1 MiB blocks until one fails and says how
# many it got, run under `ulimit OPTION KIB` untraced and traced (its trace
# in $work/trace.zst): the traced run stops tracing for want of memory,
# with its warning, and gets at most MOST MiB less than the untraced one.
heap_room() {
	local option=$1 limit=$2 preload=$3 prog=$4 most=$5 plain traced
	(ulimit "$option" "$limit" && "$prog") >"$work/plain.stdout" || fail "the untraced run failed"
	GITTRACE_OUTPUT=$work/trace.zst run_status "$work/traced" \
		bash -c 'ulimit "$1" "$2" && LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$3" "$4"' \
		sh "$option" "$limit" "$preload" "$prog"
	check_eq "traced: exit status" 0 "$(cat "$work/traced.status")"
	check_grep "tracing stopped for want of memory" "^gittrace: out of memory" "$work/traced.stderr"
	plain=$(sed -n 's/^allocated \([0-9]*\) MiB$/\1/p' "$work/plain.stdout")
	traced=$(sed -n 's/^allocated \([0-9]*\) MiB$/\1/p' "$work/traced.stdout")
	[ -n "$plain" ] && [ -n "$traced" ] || fail "no count: '$plain' untraced, '$traced' traced"
	echo "ok: under ulimit $option $limit the program got $plain MiB untraced, $traced MiB traced"
	[ "$traced" -ge $((plain - most)) ] ||
		fail "traced, the program got $((plain - traced)) MiB less than untraced (at most $most allowed)"
}

# complete_prefix FILE: prints the length of the longest prefix of FILE made
# of whole blocks (skippable header frame + zstd frame), read from the
# block headers as include/gittrace/format.h lays them out: an 8-byte
# skippable prefix (magic, size), then the header, whose frame_size is the
# u32 LE at offset 24 of the header content.
complete_prefix() {
	local file=$1 size off=0 hsize fsize
	size=$(stat -c %s "$file")
	while [ $((off + 8)) -le "$size" ]; do
		hsize=$(od -An -tu4 -j $((off + 4)) -N4 "$file" | tr -d ' ')
		[ $((off + 8 + hsize)) -le "$size" ] || break
		fsize=$(od -An -tu4 -j $((off + 8 + 24)) -N4 "$file" | tr -d ' ')
		[ $((off + 8 + hsize + fsize)) -le "$size" ] || break
		off=$((off + 8 + hsize + fsize))
	done
	echo "$off"
}

# cut_trace_readable NAME TRACE OUT [REPORT-ARGS...]: TRACE was cut short
# (killed, disk full, file-size limit): its whole blocks are a valid zstd
# stream, and `$report --json REPORT-ARGS TRACE` reads it (exit 0; the
# JSON in OUT.json, stderr in OUT.stderr) and says it is incomplete. Sets
# prefix to the whole blocks' length.
cut_trace_readable() {
	local name=$1 trace=$2 out=$3
	shift 3
	[ -s "$trace" ] || fail "$name: nothing written"
	prefix=$(complete_prefix "$trace")
	[ "$prefix" -gt 0 ] || fail "$name: no whole block in the trace"
	head -c "$prefix" "$trace" | zstd -tq || fail "$name: zstd -t rejects the whole blocks"
	echo "ok: $name: zstd -t accepts the $prefix bytes of whole blocks" \
		"(of $(stat -c %s "$trace"))"
	run_status "$out" "$report" --json "$@" "$trace"
	mv "$out.stdout" "$out.json"
	check_eq "$name: report exit status" 0 "$(cat "$out.status")"
	check_eq "$name: trace complete" false "$(jq .trace.complete "$out.json")"
}

# check_complete NAME JSON: the report JSON ($report --json) says the
# trace and every process image in it are complete (counted).
check_complete() {
	check_eq "$1: trace complete" true "$(jq .trace.complete "$2")"
	check_eq "$1: incomplete images" 0 \
		"$(jq '[.processes[] | select(.complete | not)] | length' "$2")"
}

# use_git: the tests that run Debian's git pin its environment, so that
# neither the user's nor the system's configuration changes what git does,
# and call it $GIT.
use_git() {
	GIT=/usr/bin/git
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_PAGER=cat PAGER=cat
	unset GIT_DIR GIT_WORK_TREE GIT_TRACE GIT_TRACE2 GIT_TRACE2_EVENT GITTRACE_OUTPUT \
		GIT_CONFIG_COUNT GIT_CONFIG_PARAMETERS 2>/dev/null || true
	[ -x "$GIT" ] || fail "$GIT is missing (the git tests trace Debian's git)"
}

# clean_gittrace_env: no GITTRACE_* setting of the caller's reaches a
# traced run; each run sets its own.
clean_gittrace_env() {
	unset GITTRACE_SESSION GITTRACE_OUTPUT GITTRACE_STACK_DEPTH GITTRACE_BUFFER_SIZE \
		GITTRACE_FLUSH_INTERVAL_MS GITTRACE_FILE_MODE 2>/dev/null || true
}

# demo_repo MAKE_DEMO DIR SCALE: a fresh demo repository at DIR.
demo_repo() {
	rm -rf "$2"
	sh "$1" "$2" "$3" || fail "make-demo-repo.sh failed"
}

# has_library SONAME: the dynamic linker's cache lists SONAME. Not
# `ldconfig -p | grep -q`: grep stops reading at the match, and ldconfig,
# killed by SIGPIPE, now and then fails the pipeline under pipefail (3 times
# in 200 here).
has_library() {
	local tab
	tab=$(printf '\t')
	case $(ldconfig -p) in
	*"$tab$1 "*) return 0 ;;
	esac
	return 1
}
