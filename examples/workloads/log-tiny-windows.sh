#!/bin/sh
# Workload: `git log --raw` on the demo repository with tiny pack windows,
# set by `core.packedGitWindowSize`/`core.packedGitLimit` lines in the
# repository's config file, as a config file would set them (so that
# `gittrace --confirm`, which passes git's defaults on the command line's
# level, can override them). With a several-MB pack this makes thousands
# of mmap/munmap calls (LRU evictions). git rounds the window size down to
# a multiple of two pages: 68k becomes 64 KiB with 4 KiB pages.
# verdict on the reference machine (BENCHMARKS.md): window-bound
# expect-remedy: default-windows
# expect-window: 68k
# expect-limit: 256k
# usage: log-tiny-windows.sh REPO
git -C "$1" config core.packedGitWindowSize 68k &&
	git -C "$1" config core.packedGitLimit 256k &&
	exec git -C "$1" log --raw
