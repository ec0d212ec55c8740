# CMake helpers for the test folders (included by tests/CMakeLists.txt).
#
# Every test carries a label for its kind (the folder's name: unit, cli,
# capture, git, ...) and the long ones also "slow": `ctest -LE slow` is the
# quick run, `ctest` (scripts/test.sh, .ci/run) runs everything.

# What the folders' tests run (generator expressions: used only where the
# target exists).
set(preload $<TARGET_FILE:gittrace>)
set(report $<TARGET_FILE:gittrace-report>)
set(make_demo ${PROJECT_SOURCE_DIR}/examples/make-demo-repo.sh)

# gt_need_targets(WHAT TARGET...): unless every TARGET is built, says that
# WHAT (the tests that follow) is skipped, and leaves the calling
# CMakeLists.txt (a macro, so its return() is the caller's).
macro(gt_need_targets what)
	foreach(_gt_target ${ARGN})
		if(NOT TARGET ${_gt_target})
			message(STATUS "${what} skipped: they need ${ARGN} (no ${_gt_target})")
			return()
		endif()
	endforeach()
endmacro()

# The test properties every helper below takes:
#   LABELS l...            required: the test's kind, and slow if it is long
#   TIMEOUT s, ENV VAR=VALUE..., SKIP_RETURN_CODE n,
#   FIXTURES_SETUP f..., FIXTURES_REQUIRED f...
set(GT_TEST_ONE_VALUE TIMEOUT SKIP_RETURN_CODE)
set(GT_TEST_MULTI_VALUE LABELS ENV FIXTURES_SETUP FIXTURES_REQUIRED)

# Sets those properties on test NAME from the caller's PREFIX_LABELS,
# PREFIX_TIMEOUT, ... (cmake_parse_arguments with the lists above).
function(_gt_test_properties name prefix)
	if(${prefix}_UNPARSED_ARGUMENTS)
		message(FATAL_ERROR "test ${name}: unknown arguments '${${prefix}_UNPARSED_ARGUMENTS}'")
	endif()
	if(NOT ${prefix}_LABELS)
		message(FATAL_ERROR "test ${name} has no LABELS (its kind, and slow if it is long)")
	endif()
	set_tests_properties(${name} PROPERTIES LABELS "${${prefix}_LABELS}")
	# The analyzer's copies of debug files (analyzer/symbols/debug_cache.h)
	# in the build tree, not the home directory: each build starts empty.
	set(env GITTRACE_DEBUG_CACHE=${CMAKE_BINARY_DIR}/debug-cache ${${prefix}_ENV})
	set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}")
	foreach(p TIMEOUT SKIP_RETURN_CODE FIXTURES_SETUP FIXTURES_REQUIRED)
		if(DEFINED ${prefix}_${p})
			set_tests_properties(${name} PROPERTIES ${p} "${${prefix}_${p}}")
		endif()
	endforeach()
endfunction()

# gt_test(NAME COMMAND... [WORKING_DIRECTORY dir] <properties>):
# add_test(NAME NAME COMMAND ...) with the properties above.
function(gt_test name)
	cmake_parse_arguments(PARSE_ARGV 1 T "" "WORKING_DIRECTORY;${GT_TEST_ONE_VALUE}"
		"COMMAND;${GT_TEST_MULTI_VALUE}")
	if(NOT T_WORKING_DIRECTORY)
		set(T_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
	endif()
	add_test(NAME ${name} COMMAND ${T_COMMAND} WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
	_gt_test_properties(${name} T)
endfunction()

# gt_script_test(NAME SCRIPT [SHELL bash|sh] [ARGS a...] <properties>)
# A test that runs SCRIPT (relative to the calling folder, or absolute)
# with SHELL (default bash) and ARGS (generator expressions allowed; an
# empty argument is dropped).
function(gt_script_test name script)
	cmake_parse_arguments(PARSE_ARGV 2 S "" "SHELL;${GT_TEST_ONE_VALUE}"
		"ARGS;${GT_TEST_MULTI_VALUE}")
	if(NOT S_SHELL)
		set(S_SHELL bash)
	endif()
	if(NOT IS_ABSOLUTE ${script})
		set(script ${CMAKE_CURRENT_SOURCE_DIR}/${script})
	endif()
	add_test(NAME ${name} COMMAND ${S_SHELL} ${script} ${S_ARGS})
	_gt_test_properties(${name} S)
endfunction()

# gt_report_case(NAME STATUS STDERR [ARGS a...] <properties>): one command
# line of gittrace-report (tests/cli/expect.sh): it exits STATUS and its
# stderr holds STDERR on one line (empty: no stderr at all).
function(gt_report_case name status msg)
	cmake_parse_arguments(PARSE_ARGV 3 C "" "${GT_TEST_ONE_VALUE}"
		"ARGS;${GT_TEST_MULTI_VALUE}")
	add_test(NAME ${name} COMMAND sh ${PROJECT_SOURCE_DIR}/tests/cli/expect.sh ${status} "${msg}"
		$<TARGET_FILE:gittrace-report> ${C_ARGS})
	_gt_test_properties(${name} C)
endfunction()
