# ld_preload_rewritten.sh: the tree stays traced when a program rewrites
# LD_PRELOAD for its children, as git's test library does
# (LD_PRELOAD=libc_malloc_debug.so.0) and as `env -u LD_PRELOAD` does: the
# run's session puts libgittrace back, in front, at exec (exec_env.c), by
# its absolute path alone; and with the run's settings when the environment
# was made anew (env -i). A second copy of the library in LD_PRELOAD stays
# out of the way.
#
# usage: bash ld_preload_rewritten.sh PRELOAD REPORT WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || fail "usage: ld_preload_rewritten.sh PRELOAD REPORT WORKDIR"
preload=$1 report=$2 work=$3
fresh_dir "$work"
other=libc_malloc_debug.so.0

# Both children run git: one without LD_PRELOAD, one with only another library.
script='unset LD_PRELOAD; git --version; LD_PRELOAD='$other' git --version'
plain=$(sh -c "$script")
traced=$(GITTRACE_OUTPUT="$work/trace.zst" run_traced "$preload" sh -c "$script")
check_eq "output as untraced" "$plain" "$traced"
"$report" --json "$work/trace.zst" >"$work/report.json"
check_eq "git images traced" 2 \
	"$(jq '[.processes[] | select(.argv[0] == "git")] | length' "$work/report.json")"
check_eq "trace complete" true "$(jq .trace.complete "$work/report.json")"

# What the child sees: libgittrace first, the program's own entry after it.
seen=$(GITTRACE_OUTPUT="$work/env.zst" run_traced "$preload" \
	sh -c "LD_PRELOAD=$other exec printenv LD_PRELOAD")
check_eq "LD_PRELOAD of the child" "$(realpath "$preload"):$other" "$seen"
# A child that already names libgittrace keeps its LD_PRELOAD as it is.
seen=$(GITTRACE_OUTPUT="$work/env2.zst" run_traced "$preload" \
	sh -c "LD_PRELOAD=$other:$(realpath "$preload") exec printenv LD_PRELOAD")
check_eq "LD_PRELOAD naming libgittrace" "$other:$(realpath "$preload")" "$seen"

# A relative path, as given: a child that changed directory sees the
# absolute one alone. Before, it saw both, and the loader printed "cannot
# be preloaded" on its stderr for the relative one.
rel=$(realpath --relative-to="$work" "$preload")
seen=$(cd "$work" && GITTRACE_OUTPUT="$work/rel.zst" LD_PRELOAD="$rel" \
	sh -c 'cd / && exec printenv LD_PRELOAD' 2>"$work/rel.stderr")
check_eq "relative LD_PRELOAD: the child's" "$(realpath "$preload")" "$seen"
check_eq "relative LD_PRELOAD: the child's stderr" "" "$(cat "$work/rel.stderr")"

# env -i: the session comes back with the run's settings, so a counting run
# stays a counting run; a setting the new environment gives is its own.
GITTRACE_OUTPUT="$work/env_i.zst" GITTRACE_STACK_DEPTH=0 GITTRACE_FLUSH_INTERVAL_MS=500 \
	run_traced "$preload" sh -c 'env -i git --version; env -i GITTRACE_STACK_DEPTH=7 git --version' >/dev/null
"$report" --dump "$work/env_i.zst" >"$work/env_i.dump"
check_eq "env -i: stack depths of the two git images" "0 7" \
	"$(awk '/ IMAGE / && /exe=[^ ]*git / { for (i = 1; i <= NF; i++) if ($i ~ /^stack_depth=/) printf "%s%s", sep, substr($i, 13); sep = " " }' "$work/env_i.dump")"
seen=$(GITTRACE_OUTPUT="$work/env_i2.zst" GITTRACE_STACK_DEPTH=0 run_traced "$preload" \
	sh -c 'env -i printenv' | grep '^GITTRACE_' | sed 's/=.*//' | sort | tr '\n' ' ')
check_eq "env -i: what the program sees" "GITTRACE_SESSION GITTRACE_STACK_DEPTH " "$seen"

# A second copy of libgittrace.so in LD_PRELOAD (a file of the same name
# elsewhere): the first traces the whole tree, the second stays quiet.
# Before, the second warned "another malloc comes before libgittrace.so's"
# and, called as the first's real execve, gave the children
# GITTRACE_SESSION=-: git ran untraced, and the trace said nothing of it.
mkdir -p "$work/copy"
cp "$preload" "$work/copy/libgittrace.so"
GITTRACE_OUTPUT="$work/copy.zst" LD_PRELOAD="$(realpath "$preload"):$work/copy/libgittrace.so" \
	run_status "$work/copy" sh -c 'git --version; git --version'
check_eq "two copies: exit status" 0 "$(cat "$work/copy.status")"
check_eq "two copies: stderr" "" "$(cat "$work/copy.stderr")"
"$report" --json "$work/copy.zst" >"$work/copy.json"
check_eq "two copies: git images traced" 2 \
	"$(jq '[.processes[] | select(.argv[0] == "git")] | length' "$work/copy.json")"
check_eq "two copies: trace complete" true "$(jq .trace.complete "$work/copy.json")"
finish
