#!/bin/bash
# run.sh: runs scripts of git's own test suite twice, plain and under the
# preload, and compares the outcome of every test. git's suite checks git's
# behaviour far more closely than our tests can, so "same outcomes with the
# preload in every process" is the strongest evidence that tracing never
# harms the traced program.
#
# usage: bash run.sh PRELOAD GIT_BUILD_DIR OUTDIR SCRIPT...
#   PRELOAD        libgittrace.so
#   GIT_BUILD_DIR  a git tree built by build-git.sh (the tests run its own
#                  build through t/../bin-wrappers, not /usr/bin/git)
#   OUTDIR         per script: <script>.zst (the trace), <script>.{plain,traced}
#                  .{tap,err} (the test output), <script>.{plain,traced}/ (the
#                  test-results and, when a test failed, the trash directory),
#                  <script>.diff (the tests whose outcome differs);
#                  summary.tsv, one row per script
#   SCRIPT         a test script of GIT_BUILD_DIR/t: t1450, t1450-fsck or
#                  t1450-fsck.sh
# Environment: UPSTREAM_TIMEOUT, seconds per run (default 900); a run that
# takes longer is killed and counts as a difference. UPSTREAM_REPORT, a
# gittrace-report binary: when set, each trace is also read back with
# `--json` and the analyzer's time and peak RSS join the result line.
#
# Prints one line per script, e.g.
#   t1450-fsck: plain 92/0, traced 92/0 (ok/failed; 0 skipped, 2 known breakages): same; trace 41.2 MiB
# and exits 1 if any script's outcomes differ, a run timed out or stopped
# before its plan line, or the analyzer failed; 2 on bad usage.
set -uo pipefail
export LC_ALL=C

usage() {
	echo "usage: run.sh PRELOAD GIT_BUILD_DIR OUTDIR SCRIPT..." >&2
	exit 2
}
[ $# -ge 4 ] || usage
preload=$(realpath -e "$1") || usage
tdir=$(realpath -m "$2/t")
if [ ! -f "$tdir/test-lib.sh" ] || [ ! -f "$tdir/../GIT-BUILD-OPTIONS" ]; then
	echo "run.sh: '$2' is not a built git tree (run build-git.sh)" >&2
	exit 2
fi
mkdir -p "$3" || usage
outdir=$(realpath -e "$3")
shift 3
timeout_s=${UPSTREAM_TIMEOUT:-900}
report=${UPSTREAM_REPORT:-}

# tap_status TAPFILE: one "N STATUS" line per test, sorted by N, where STATUS
# is ok, failed, skip, broken (a "# TODO known breakage": expected to fail)
# or fixed (a known breakage that passed). Lines other than test results
# (comments, the plan, the failing test's body) are ignored.
tap_status() {
	sed -nE \
		-e 's/^ok ([0-9]+) # skip .*/\1 skip/p;t' \
		-e 's/^ok ([0-9]+) - .*# TODO known breakage vanished$/\1 fixed/p;t' \
		-e 's/^ok ([0-9]+) - .*/\1 ok/p;t' \
		-e 's/^not ok ([0-9]+) - .*# TODO known breakage$/\1 broken/p;t' \
		-e 's/^not ok ([0-9]+) - .*/\1 failed/p' "$1" | sort -n
}

# count STATUSFILE STATUS: how many tests have STATUS.
count() {
	grep -c " $2\$" "$1"
}

# run_one SCRIPT MODE [ENV...]: runs t/SCRIPT.sh with ENV added and stdin
# closed; its output goes to OUTDIR/SCRIPT.MODE.{tap,err} and its
# test-results to OUTDIR/SCRIPT.MODE/. Sets rc (the script's exit status,
# 124 on timeout) and secs.
#
# The trash directory is made under a short path of the same length for
# both modes ($scratch/p, $scratch/t) and moved to OUTDIR/SCRIPT.MODE/ when
# a test failed (test-lib removes it otherwise): Unix socket paths are
# limited to 108 bytes, so under a long OUTDIR gpg-agent cannot start and
# every GPG test is skipped, and a one-byte difference between the plain
# and traced paths could flip such a prerequisite in one mode only.
run_one() {
	local script=$1 mode=$2 start root=$scratch/${2:0:1}
	shift 2
	rm -rf "${outdir:?}/$script.$mode" "$root"
	mkdir -p "$outdir/$script.$mode" "$root"
	start=$(date +%s)
	# TEST_NO_MALLOC_CHECK: test-lib would otherwise set MALLOC_CHECK_ /
	# GLIBC_TUNABLES and MALLOC_PERTURB_ per test, which change glibc's
	# allocator under the hooks and make the traced timings meaningless.
	# timeout kills the whole process group (daemons a test left behind too).
	(cd "$tdir" && timeout -k 10 "$timeout_s" env TEST_NO_MALLOC_CHECK=1 \
		TEST_OUTPUT_DIRECTORY="$outdir/$script.$mode" "$@" \
		sh "./$script.sh" --root="$root" </dev/null >"$outdir/$script.$mode.tap" \
		2>"$outdir/$script.$mode.err")
	rc=$?
	secs=$(($(date +%s) - start))
	# A kept trash directory may hold a gpg-agent (lib-gpg.sh starts one);
	# stop it rather than leave it running in a moved directory.
	if [ -d "$root/trash directory.$script/gpghome" ]; then
		gpgconf --homedir "$root/trash directory.$script/gpghome" --kill gpg-agent \
			>/dev/null 2>&1 || true
	fi
	if [ -d "$root/trash directory.$script" ]; then
		mv "$root/trash directory.$script" "$outdir/$script.$mode/"
	fi
	rm -rf "$root"
}

# ranges: the sorted test numbers on stdin as one line, runs collapsed
# ("3 5-9 12").
ranges() {
	awk 'function flush() { if (n) { printf "%s%s", sep, (a == b ? a : a "-" b); sep = " " } }
		n && $1 == b + 1 { b = $1; next }
		{ flush(); a = b = $1; n = 1 }
		END { flush() }'
}

# mib BYTES: BYTES in MiB with one decimal.
mib() {
	awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/gtup.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT

status=0
printf 'script\tplain_ok\tplain_failed\ttraced_ok\ttraced_failed\tskipped\tbroken\tplain_s\ttraced_s\ttrace_bytes\treport_s\treport_rss_kb\tresult\n' \
	>"$outdir/summary.tsv"
for arg in "$@"; do
	arg=${arg%.sh}
	matches=("$tdir/$arg".sh "$tdir/$arg"-*.sh)
	found=()
	for m in "${matches[@]}"; do
		[ -f "$m" ] && found+=("$m")
	done
	if [ ${#found[@]} -ne 1 ]; then
		echo "$arg: no single test script matches in $tdir (${#found[@]} do)"
		status=1
		continue
	fi
	script=$(basename "${found[0]}" .sh)
	trace=$outdir/$script.zst
	rm -f "$trace"

	run_one "$script" plain
	plain_rc=$rc plain_s=$secs
	# Every process of the test script (sh, git, test-tool, sed, perl, ...)
	# is traced, all into the one trace file, at the default stack depth.
	run_one "$script" traced LD_PRELOAD="$preload" GITTRACE_OUTPUT="$trace"
	traced_rc=$rc traced_s=$secs

	tap_status "$outdir/$script.plain.tap" >"$outdir/$script.plain.status"
	tap_status "$outdir/$script.traced.tap" >"$outdir/$script.traced.status"
	p=$outdir/$script.plain.status t=$outdir/$script.traced.status
	counts="plain $(count "$p" ok)/$(count "$p" failed), traced $(count "$t" ok)/$(count "$t" failed)"
	counts+=" (ok/failed; $(count "$p" skip) skipped, $(count "$p" broken) known breakages)"

	# What went wrong, if anything: a timeout, a missing plan line (the
	# script died), different outcomes, or exit statuses that differ although
	# the outcomes agree.
	problems=()
	[ "$plain_rc" -ne 124 ] || problems+=("plain run timed out after ${timeout_s} s")
	[ "$traced_rc" -ne 124 ] || problems+=("traced run timed out after ${timeout_s} s")
	grep -qE '^1\.\.[0-9]+' "$outdir/$script.plain.tap" ||
		problems+=("plain run printed no plan (exit $plain_rc, see $script.plain.err)")
	grep -qE '^1\.\.[0-9]+' "$outdir/$script.traced.tap" ||
		problems+=("traced run printed no plan (exit $traced_rc, see $script.traced.err)")
	if ! cmp -s "$p" "$t"; then
		# The tests whose status differs, or that ran in one run only
		# (status "none"), split by which run did worse.
		join -a1 -a2 -e none -o 0,1.2,2.2 "$p" "$t" | awk '$2 != $3' >"$outdir/$script.diff"
		only_traced=$(awk '$3 != "ok" && $3 != "skip" { print $1 }' "$outdir/$script.diff" | ranges)
		only_plain=$(awk '$3 == "ok" || $3 == "skip" { print $1 }' "$outdir/$script.diff" | ranges)
		[ -z "$only_traced" ] || problems+=("tests $only_traced fail only traced")
		[ -z "$only_plain" ] || problems+=("tests $only_plain fail only plain")
	elif [ "$plain_rc" -ne "$traced_rc" ]; then
		problems+=("exit $plain_rc plain, $traced_rc traced")
	fi

	size=0
	[ -f "$trace" ] && size=$(stat -c %s "$trace")
	extra="trace $(mib "$size"), plain ${plain_s} s, traced ${traced_s} s"
	report_s=- report_rss=-
	if [ -n "$report" ] && [ -f "$trace" ]; then
		# The whole suite's trace must read back; its cost is worth knowing.
		if /usr/bin/time -f '%e %M' -o "$outdir/$script.time" \
			"$report" --json "$trace" >/dev/null 2>"$outdir/$script.report.err"; then
			read -r report_s report_rss <"$outdir/$script.time"
			extra+=", report ${report_s} s, $((report_rss / 1024)) MiB"
		else
			problems+=("gittrace-report --json failed: $(head -1 "$outdir/$script.report.err")")
		fi
	fi

	if [ ${#problems[@]} -eq 0 ]; then
		result=same
	else
		status=1
		result="DIFFERENT ($(printf '%s; ' "${problems[@]}" | sed 's/; $//'))"
	fi
	echo "$script: $counts: $result; $extra"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$script" \
		"$(count "$p" ok)" "$(count "$p" failed)" "$(count "$t" ok)" "$(count "$t" failed)" \
		"$(count "$p" skip)" "$(count "$p" broken)" "$plain_s" "$traced_s" "$size" \
		"$report_s" "$report_rss" "$result" >>"$outdir/summary.tsv"
done
exit $status
