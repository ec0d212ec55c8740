#!/bin/sh
# Workload: `git log --raw` on the demo repository with tiny pack windows, as
# a `core.packedGitWindowSize`/`core.packedGitLimit` line in a config file
# would set them. With a several-MB pack this makes thousands of
# mmap/munmap calls (LRU evictions). git rounds the window size down to a
# multiple of two pages: 68k becomes 64 KiB with 4 KiB pages.
# expect-verdict: window-bound
# expect-window: 68k
# expect-limit: 256k
# usage: log-tiny-windows.sh REPO
exec git -C "$1" -c core.packedGitWindowSize=68k -c core.packedGitLimit=256k log --raw
