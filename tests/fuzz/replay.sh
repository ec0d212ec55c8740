#!/bin/sh
# Runs the fuzz harness once on every input in DIR (tests/fuzz/regressions:
# inputs that once crashed the analyzer); fails if any crashes again.
# Usage: replay.sh FUZZER DIR
set -eu
fuzzer=$1 dir=$2
set -- "$dir"/*
[ -e "$1" ] || { echo "no regression inputs in $dir"; exit 0; }
exec "$fuzzer" -close_fd_mask=2 "$@"
