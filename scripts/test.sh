#!/bin/sh
# The whole test suite: dependencies, a build (./build, made or brought up
# to date), every CTest case, then the analyzer's CLI and unit tests again
# under ASan+UBSan.
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
sh scripts/build.sh build
(cd build && ctest --output-on-failure -j2)
sh scripts/test-sanitizers.sh build-sanitize
