# trace2_images.jq: the process images a traced run must contain, derived
# from git's own GIT_TRACE2_EVENT files (one per git process) — an account
# of the run that does not come from gittrace.
#
# usage: jq -n -r -f trace2_images.jq TRACE2_FILES...
# Prints one line per expected image, "PID PPID ORIGIN ARGV-JSON", where
# ORIGIN is the gittrace origin (root, fork, exec) and PPID is "-" for the
# root (its parent is the test's shell). Compare with report_images.jq.
#
# Every child git starts through run-command (child_start, and child_exit
# with its pid) is a fork of the parent (argv still the parent's) that then
# execs; the exec'd program is a git process with its own trace2 file, or
# a program without trace2 (its argv from child_start). A command that
# needs a shell (use_shell and a metacharacter in argv[0], as git's
# prepare_shell_cmd decides) execs /bin/sh -c, which starts the command.

# The pid at the end of a session id: ".../<time>-H<host>-P<pid in hex>".
def sid_pid: (split("/") | last | split("-P") | last | ascii_downcase
	| explode | reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end)));

def shell_argv: if (.[0] | test("[|&;<>()$`\\\\\"' \t\n*?\\[#~=%]"))
	then ["/bin/sh", "-c", (if length > 1 then .[0] + " \"$@\"" else .[0] end)] + .
	else . end;

[inputs] as $events
| ($events | map(select(.event == "start")) | map({key: (.sid | sid_pid | tostring),
	value: {argv, parent_sid: (.sid | split("/") | .[:-1] | join("/"))}}) | from_entries)
	as $procs
| ($events | map(select(.event == "start")) | map({key: .sid, value: (.sid | sid_pid)})
	| from_entries) as $sid_pid
# Every child of every process, with its pid from child_exit.
| [$events | group_by(.sid)[] | (.[0].sid | sid_pid) as $ppid
	| (map(select(.event == "child_exit")) | map({key: (.child_id | tostring), value: .pid})
		| from_entries) as $pids
	| .[] | select(.event == "child_start")
	| {ppid: $ppid, pid: $pids[.child_id | tostring], argv,
	   shell: (.use_shell and (.argv | shell_argv) != .argv)}] as $children
| ($children | map({key: (.pid | tostring), value: .ppid}) | from_entries) as $parent
# The shell a git process ran under: its parent git's only shell child.
| def via_shell: $procs[.].parent_sid as $ps
	| [$children[] | select(.shell and .ppid == $sid_pid[$ps])] as $sh
	| if ($sh | length) == 1 then $sh[0].pid else "?" end;
(
	# each git process: the root, the image its fork exec'd, or the image a
	# shell started (the shell runs the command in a child of its own: dash
	# uses vfork, which the tracer does not see as a fork)
	($procs | to_entries[] | .key as $pid
		| if $parent[$pid] then "\($pid) \($parent[$pid]) exec"
		  elif .value.parent_sid != "" then "\($pid) \($pid | via_shell) exec"
		  else "\($pid) - root" end
		+ " \(.value.argv | tojson)"),
	# each child: the fork, then the shell or the program if it is not git
	($children[] | select(.pid != null)
		| "\(.pid) \(.ppid) fork \($procs[.ppid | tostring].argv | tojson)",
		  (if .shell then "\(.pid) \(.ppid) exec \(.argv | shell_argv | tojson)"
		   elif $procs[.pid | tostring] then empty
		   else "\(.pid) \(.ppid) exec \(.argv | tojson)" end))
)
