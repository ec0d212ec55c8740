#!/bin/sh
# Workload: examples/alloc-churn.c, a program that does little but malloc and
# free small blocks (built by the tests as alloc_churn).
# verdict on the reference machine (BENCHMARKS.md): allocator-bound
# expect-remedy: allocator
# usage: alloc-churn.sh ALLOC_CHURN_BINARY
exec "$1"
