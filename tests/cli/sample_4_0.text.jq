# The text report has a section for each of the two processes that made
# calls (pack-objects, git repack), none for the child forked only to exec
# pack-objects, and says so under the process table.
([scan("\n== pid [0-9]+: ")] | length) == 2
and (test("\n== pid 13222: /usr/lib/git-core/git pack-objects "))
and (test("\n== pid 13221: git "))
and (test("\n1 process made no calls: its row in the table above is all there is\n"))
