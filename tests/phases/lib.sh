# lib.sh: what the phases tests share (sourced, not run).
# shellcheck shell=bash

# synthetic_trace2 FILE: a trace2 stream for make_trace's image of pid 100
# (which starts at realtime 2023-11-14T22:13:20Z): region test:setup over
# its first 50 us, test:maps over 90-200 us with test:inner-empty at
# 95-96 us inside it, another thread's region, exit at 1 s.
synthetic_trace2() {
	local sid=20231114T221320.000000Z-H0a7c9cdf-P00000064
	# event NAME MICROSECONDS [MEMBERS]: one trace2 event of the session.
	event() {
		printf '{"event":"%s","sid":"%s","thread":"main","time":"2023-11-14T22:13:%02d.%06dZ"%s}\n' \
			"$1" "$sid" $((20 + $2 / 1000000)) $(($2 % 1000000)) "${3:+,$3}"
	}
	region() { # region enter|leave MICROSECONDS LABEL
		event "region_$1" "$2" "\"category\":\"test\",\"label\":\"$3\""
	}
	{
		event version 0 '"evt":"3","exe":"2.39.5"'
		event start 10 '"t_abs":0.00001,"argv":["git","log"]'
		region enter 0 setup
		region leave 50 setup
		region enter 90 maps
		region enter 95 inner-empty
		region leave 96 inner-empty
		region leave 200 maps
		# Another thread's region does not count (trace2.h).
		printf '{"event":"region_enter","sid":"%s","thread":"th01:x","time":"2023-11-14T22:13:20.000000Z","category":"test","label":"thread"}\n' "$sid"
		event exit 1000000 '"t_abs":1.0,"code":0'
	} >"$1"
}
