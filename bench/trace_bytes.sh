#!/bin/sh
# bench/trace_bytes.sh: builds bench/trace_bytes.c (and bench/capture_micro.c)
# and runs trace_bytes on a trace: where its bytes go (format 2.x: by
# column), and what other encodings of the same records would weigh (format
# 1.x; docs/capture-cost.md).
#
# usage: bench/trace_bytes.sh [-l LEVEL] [-b BLOCK_BYTES] TRACE.zst
#        bench/trace_bytes.sh --micro      (the hot path's pieces, ns each)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/gittrace-bench-tools
mkdir -p "$out"
cc -O2 -std=c11 -I "$here/../include" "$here/trace_bytes.c" -lzstd -lm -o "$out/trace_bytes"
if [ "${1-}" = --micro ]; then
	cc -O2 -std=gnu11 "$here/capture_micro.c" -lunwind -lpthread -o "$out/capture_micro"
	exec "$out/capture_micro"
fi
exec "$out/trace_bytes" "$@"
