# command_config.sh AB WORK: a git setting the command itself passes with
# -c outranks the environment, so a variant setting the same key gets its
# value into its own copy of the command (ab/command.h): the git processes
# of each variant see that variant's value. The key matches as git matches
# it (section and name in any case); a global option's own value
# (--shallow-file FILE) is not the subcommand; a -c after the subcommand is
# the subcommand's and stays.
. "$(dirname "$0")/lib.sh"
AB=$1
work=$2
fresh_dir "$work"
log=$work/seen.log

# The alias's git sees the command's -c settings (GIT_CONFIG_PARAMETERS).
seen="!f() { printf '%s %s\n' \"\$(git config --get core.packedGitWindowSize)\" \"\$*\" >>'$log'; }; f"
run_ab 0 "$work/out.json" "$work/err" --variant 'as-given=' \
	--variant 'defaults=-c core.packedgitwindowsize=1g' --rounds 2 --warmups 0 --json -- \
	git --shallow-file /dev/null -c core.packedGitWindowSize=4k -c "alias.seen=$seen" seen \
	-c core.packedGitWindowSize=4k
check_eq "runs" 4 "$(wc -l <"$log")"
check_eq "as given" "4k -c core.packedGitWindowSize=4k" "$(sort -u "$log" | grep '^4k')"
check_eq "the variant's value" "1g -c core.packedGitWindowSize=4k" "$(sort -u "$log" | grep -v '^4k')"
check_eq "the report's command as given" \
	"git --shallow-file /dev/null -c core.packedGitWindowSize=4k" \
	"$(jq -r '.command[:5] | join(" ")' "$work/out.json")"
finish
