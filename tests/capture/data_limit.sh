# data_limit.sh: under a limit on data (ulimit -d: the heap and private
# writable maps), the tracer's buffers count against the program's limit,
# so a malloc that fails near it may have failed for them: the tracer gives
# its memory back and the call is made again (preload/record.h,
# gt_may_fit), and the program gets all but a few MiB of what it gets
# untraced. Without that it got 11 MiB less (the record buffers and zstd's).
# tests/progs/heap_grows.c allocates 1 MiB blocks until one fails. The same
# for the stacks of new threads, which the C library maps past the mmap
# hooks: pthread_create failed with EAGAIN instead (preload/hooks_thread.c;
# git grep --threads=8 died of it); tests/progs/threads_grow.c starts
# threads of 1 MiB stacks until one cannot start.
#
# usage: bash data_limit.sh PRELOAD REPORT PROGRAM THREADS_PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 5 ] || fail "usage: data_limit.sh PRELOAD REPORT PROGRAM THREADS_PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 threads_prog=$4 work=$5
fresh_dir "$work"
clean_gittrace_env

heap_room -d $((128 << 10)) "$preload" "$prog" 6
"$report" --json "$work/trace.zst" >"$work/report.json" || fail "the report failed"
heap_room -d $((128 << 10)) "$preload" "$threads_prog" 6
"$report" --json "$work/trace.zst" >"$work/threads.json" || fail "the threads' report failed"
finish
