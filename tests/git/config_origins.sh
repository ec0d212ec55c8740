# config_origins.sh: the advice names where the window settings are set
# (gittrace-report --look-up-config, analyzer/summary/config_origins.h), and
# the commands it gives remove them: the command rerun evicts no window.
# Checked on git's config and behaviour, not on time. Each case lowers
# core.packedGitLimit and core.packedGitWindowSize (64 KiB windows, a 256
# KiB limit: over a thousand pack maps on the demo repository) in one place:
#   global     the global config file (the classic ~/.gitconfig line)
#   include    a file the global config includes
#   local      the repository's config, the command run from a
#              subdirectory of its work tree (git reports the file relative
#              to the top level)
#   script     a script that goes into another repository
#   relative include  a file the repository's config includes by a relative
#              path: the generic advice
#   env        GIT_CONFIG_COUNT: no file to edit
#   launcher   gittrace passes the directory the command ran in
# and a report without --look-up-config gives the generic advice.
#
# usage: bash config_origins.sh PRELOAD REPORT LAUNCHER MAKE_DEMO WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git
clean_gittrace_env

[ $# -eq 5 ] || fail "usage: config_origins.sh PRELOAD REPORT LAUNCHER MAKE_DEMO WORKDIR"
preload=$1 report=$2 launcher=$3 make_demo=$4 work=$5
fresh_dir "$work"
demo_repo "$make_demo" "$work/demo" 40
git clone -q "$work/demo" "$work/wt" || fail "clone failed"
mkdir "$work/wt/sub"
lowered='[core]
	packedGitLimit = 256k
	packedGitWindowSize = 64k'

# trace NAME DIR CMD...: runs CMD from DIR under the preload; the JSON
# report, with the settings looked up from DIR, in NAME.json.
trace() {
	local name=$1 dir=$2
	shift 2
	(cd "$dir" && GITTRACE_OUTPUT=$work/$name.zst run_traced "$preload" "$@" >/dev/null) ||
		fail "$name: the traced command failed"
	"$report" --json --top 1 --look-up-config "$work/$name.zst" >"$work/$name.json" ||
		fail "$name: gittrace-report failed"
}

# unset_steps NAME: the advice's commands that unset a window key, one a line.
unset_steps() {
	jq -r '.verdict.suggestions[]' "$work/$1.json" |
		grep -oE "git( -C [^ ]+)? config (--file [^ ]+|--local|--worktree) --unset-all core\.packedGit(Limit|WindowSize)" ||
		true
}

# apply NAME DIR: runs NAME's unset steps from DIR, as a user would paste them.
apply() {
	local step
	while read -r step; do
		(cd "$2" && eval "$step") || fail "$1: the advised '$step' failed"
	done <<<"$(unset_steps "$1")"
}

# evictions NAME: least-recently-used window unmaps in NAME's run.
evictions() {
	jq '[.processes[].maps.packed_git_limit.evictions] | add' "$work/$1.json"
}

# global: the advice edits the global file, and only its keys.
printf '%s\n' "$lowered" >"$work/global.gitconfig"
export GIT_CONFIG_GLOBAL=$work/global.gitconfig
trace global "$work" git -C demo log --raw
check_eq "global: evictions" true "$(jq "$(evictions global) > 0" -n)"
check_eq "global: the origins" \
	"[[\"core.packedgitlimit\",\"256k\",\"global\",\"file:$work/global.gitconfig\"],[\"core.packedgitwindowsize\",\"64k\",\"global\",\"file:$work/global.gitconfig\"]]" \
	"$(jq -c '[.verdict.config_origins[] | [.key, .value, .scope, .origin]]' "$work/global.json")"
check_eq "global: the steps" \
	"git config --file $work/global.gitconfig --unset-all core.packedGitLimit
git config --file $work/global.gitconfig --unset-all core.packedGitWindowSize" \
	"$(unset_steps global)"
check_eq "global: no search for the file" "" \
	"$(jq -r '.verdict.suggestions[] | select(test("find which config file"))' "$work/global.json")"
check_grep "global: the evidence" \
	"^core\.packedGitLimit=256k is set in $work/global\.gitconfig \(global scope" \
	<(jq -r '.verdict.evidence[]' "$work/global.json")
# The same trace without --look-up-config: the generic advice, no lookup.
"$report" --json "$work/global.zst" >"$work/generic.json" || fail "generic: gittrace-report failed"
check_eq "generic: no origins" null "$(jq '.verdict.config_origins' "$work/generic.json")"
check_grep "generic: the repository's --unset" "git -C demo config --unset core\.packedGitLimit" \
	<(jq -r '.verdict.suggestions[]' "$work/generic.json")
check_grep "generic: find the file" "^find which config file sets them" \
	<(jq -r '.verdict.suggestions[]' "$work/generic.json")
apply global "$work"
check_eq "global: the keys gone" "" "$(git config --global --get-regexp '^core\.packedgit' || true)"
trace global-after "$work" git -C demo log --raw
check_eq "global: no evictions after the advice" 0 "$(evictions global-after)"

# include: the file the global config includes is the one to edit.
printf '%s\n' "$lowered" >"$work/windows.inc"
printf '[include]\n\tpath = %s\n' "$work/windows.inc" >"$work/global.gitconfig"
trace include "$work" git -C demo log --raw
check_eq "include: the steps" \
	"git config --file $work/windows.inc --unset-all core.packedGitLimit
git config --file $work/windows.inc --unset-all core.packedGitWindowSize" \
	"$(unset_steps include)"
# To keep a limit: set where the value that wins is read, so that it wins.
keep=$(jq -r '.verdict.suggestions[]' "$work/include.json" |
	grep -oE "git config --file [^ ]+ --replace-all core\.packedGitLimit [0-9]+[kmg]?" || true)
check_grep "include: a limit kept in the included file" \
	"^git config --file $work/windows\.inc --replace-all core\.packedGitLimit " <(echo "$keep")
(cd "$work" && eval "$keep") || fail "include: '$keep' failed"
check_eq "include: the kept limit in effect" "${keep##* }" "$(git -C "$work/demo" config core.packedGitLimit)"
apply include "$work"
check_eq "include: the keys gone" "" "$(git config --get-regexp '^core\.packedgit' || true)"
check_grep "include: the include kept" "path = $work/windows.inc" "$work/global.gitconfig"
export GIT_CONFIG_GLOBAL=/dev/null

# local: from a subdirectory, git names the file relative to the top level;
# the advice reaches it with --local from where the command ran.
git -C "$work/wt" config core.packedGitLimit 256k
git -C "$work/wt" config core.packedGitWindowSize 64k
trace local "$work/wt/sub" git log --raw
check_eq "local: evictions" true "$(jq "$(evictions local) > 0" -n)"
check_eq "local: the steps" \
	"git config --local --unset-all core.packedGitLimit
git config --local --unset-all core.packedGitWindowSize" \
	"$(unset_steps local)"
apply local "$work/wt/sub"
check_eq "local: the keys gone" "" "$(git -C "$work/wt" config --get-regexp '^core\.packedgit' || true)"
trace local-after "$work/wt/sub" git log --raw
check_eq "local: no evictions after the advice" 0 "$(evictions local-after)"

# script: a script that goes into another repository: its git is asked from
# where it ran, and the advice reaches that repository with -C from anywhere.
git clone -q "$work/demo" "$work/wt2" || fail "clone failed"
git -C "$work/wt2" config core.packedGitLimit 256k
git -C "$work/wt2" config core.packedGitWindowSize 64k
trace script "$work" sh -c 'cd wt2 && git log --raw'
check_eq "script: the steps" \
	"git -C $work/wt2 config --local --unset-all core.packedGitLimit
git -C $work/wt2 config --local --unset-all core.packedGitWindowSize" \
	"$(unset_steps script)"
apply script /
check_eq "script: the keys gone" "" "$(git -C "$work/wt2" config --get-regexp '^core\.packedgit' || true)"

# A file the repository's config includes by a relative path (git names it
# as .git/<path>): no --local for it, the generic advice instead.
git clone -q "$work/demo" "$work/wt3" || fail "clone failed"
mkdir "$work/shared" # named config, as the repository's own file is
printf '%s\n' "$lowered" >"$work/shared/config"
git -C "$work/wt3" config include.path ../../shared/config
trace relative-include "$work" git -C wt3 log --raw
check_eq "relative include: no step for it" "" "$(unset_steps relative-include)"
check_grep "relative include: how to find the file" "^find which config file sets them" \
	<(jq -r '.verdict.suggestions[]' "$work/relative-include.json")

# env: set by the environment, which no git config command edits.
GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=core.packedGitLimit GIT_CONFIG_VALUE_0=256k \
	GIT_CONFIG_KEY_1=core.packedGitWindowSize GIT_CONFIG_VALUE_1=64k \
	trace env "$work" git -C demo log --raw
check_eq "env: no git config step" "" "$(unset_steps env)"
check_grep "env: drop it from the environment" \
	"drop core\.packedGitLimit from the environment that sets it" \
	<(jq -r '.verdict.suggestions[]' "$work/env.json")
check_eq "env: the origins" '["command"]' "$(jq -c '[.verdict.config_origins[].scope] | unique' "$work/env.json")"
check_grep "env: a limit kept where it is set" "core\.packedGitLimit=[0-9]+[kmg]? .*where it is set now" \
	<(jq -r '.verdict.suggestions[]' "$work/env.json")

# launcher: gittrace looks them up from where the command ran.
printf '%s\n' "$lowered" >"$work/global.gitconfig"
export GIT_CONFIG_GLOBAL=$work/global.gitconfig
(cd "$work" && "$launcher" -- git -C demo log --raw >/dev/null 2>"$work/launcher.err") ||
	fail "launcher: failed"
check_grep "launcher: the global file in the advice" \
	"git config --file $work/global\.gitconfig --unset-all" <(tr -s '\n ' ' ' <"$work/launcher.err")
finish
