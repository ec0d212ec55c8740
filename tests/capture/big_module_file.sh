# big_module_file.sh: under a limit on address space (ulimit -v), a program
# whose file is far larger than its loaded code (debug info; here a 24 MiB
# section never loaded) has all the room it has untraced but for what the
# tracer cannot give back (~9 MiB with stacks, README). The stack walk had
# libdw map each module's whole file, and kept it mapped when the
# program's malloc failed and tracing stopped: a program that needed the
# last 20 MiB of its limit failed traced. Now the walk lets those files go
# with the stream's buffers (frame_rules.h, gt_frame_rules_give_back).
# tests/progs/heap_grows.c is the subject: it allocates 1 MiB blocks until
# one fails, and says how many it got.
#
# usage: bash big_module_file.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: big_module_file.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
command -v objcopy >/dev/null || fail "objcopy (binutils) is missing"

head -c $((24 << 20)) /dev/zero >"$work/junk"
objcopy --add-section .junk="$work/junk" --set-section-flags .junk=noload,readonly \
	"$prog" "$work/big" || fail "objcopy could not add the section"
rm "$work/junk"
[ "$(stat -c %s "$work/big")" -gt $((24 << 20)) ] || fail "the copy is not big"

# The limit leaves room for the preload's libraries, its buffers and the
# file mapped at the first walk, so that the tracer starts, maps the file
# and traces until the program's own malloc fails.
heap_room -v $((256 << 10)) "$preload" "$work/big" 12
"$report" --json "$work/trace.zst" >"$work/report.json" || fail "the report failed"
finish
