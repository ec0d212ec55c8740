#!/bin/sh
# Workload: `git repack -adf` with git's default settings on the demo
# repository (examples/make-demo-repo.sh). It rewrites the repository's pack:
# run it on a copy. The work is delta search and compression in the
# pack-objects child: neither the allocator nor the windows bound it.
# verdict on the reference machine (BENCHMARKS.md): neither
# expect-remedy: none
# usage: repack-default.sh REPO
exec git -C "$1" repack -adf
