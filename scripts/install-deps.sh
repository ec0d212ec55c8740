#!/bin/sh
# Installs the Debian 12 packages gittrace needs to build and test
# (mimalloc/jemalloc: the A/B runner and the replay; jansson: git's trace2
# events and the replay's JSON in gittrace-report; libdebuginfod1: libdw's
# debuginfod client, which nothing else installs on Debian 12 and without
# which DEBUGINFOD_URLS does nothing; chromium: the HTML report's test;
# clang and its runtime: the fuzz harness; python3: the local debuginfod
# server of the symbols test; dwz: the debug cache's test of a dwz'd file).
# Run as root. libunwind-dev replaces LLVM's libunwind-14-dev if an image
# carries it (the two conflict; apt swaps them).
set -e
packages="build-essential cmake pkg-config git zstd jq strace ltrace time
	libunwind-dev uthash-dev libzstd-dev libdw-dev libelf-dev libjansson-dev
	libdebuginfod1
	libmimalloc2.0 libjemalloc2 chromium clang libclang-rt-14-dev python3 dwz"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # word splitting is the point
apt-get install -y -qq --no-install-recommends $missing >/dev/null
