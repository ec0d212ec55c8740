# The text report has a section for each of the two processes that made
# calls (pack-objects, git repack), none for the child forked only to exec
# pack-objects, and says so under the process table. A section is headed
# by the program's name and git's subcommand on, its argv beneath.
([scan("\n== pid [0-9]+: ")] | length) == 2
and (test("\n== pid 13222: git pack-objects "))
and (test("\n  argv: /usr/lib/git-core/git pack-objects "))
# The label leaves git's global options (-c) out, the argv beneath has them.
and (test("\n== pid 13221: git repack -adfq ==\n  argv: git -c pack.threads=2 "))
and (test("\n1 process made no calls: its row in the table above is all there is\n"))
# A command cut to the table's column ends in "…".
and (test(" git pack-objects --no-re…\n"))
