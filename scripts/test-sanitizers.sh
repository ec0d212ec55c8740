#!/bin/sh
# Builds the analyzer and its unit tests with AddressSanitizer and
# UndefinedBehaviorSanitizer (GITTRACE_SANITIZE=ON, see analyzer/
# CMakeLists.txt) in a build directory of their own, and runs the cli and
# unit tests against that build. Every sanitizer report ends the program
# with an error (halt_on_error), so it fails its test.
# Usage: sh scripts/test-sanitizers.sh [BUILD_DIR]   (default: build-sanitize)
set -e
cd "$(dirname "$0")/.."
build=${1:-build-sanitize}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGITTRACE_SANITIZE=ON >/dev/null
cmake --build "$build" -j2
# A build that dropped the option would pass everything below unchecked.
ASAN_OPTIONS=help=1 "$build/analyzer/gittrace-report" --version 2>&1 |
	grep -q 'flags for AddressSanitizer' ||
	{ echo "test-sanitizers: $build/analyzer/gittrace-report is not built with ASan" >&2; exit 1; }
# UBSan recovers and carries on by default: make it stop like ASan does.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
cd "$build" && ctest -L 'cli|unit' --output-on-failure -j2
