# window.sh: the window-bound example (examples/workloads/log-tiny-windows.sh,
# `git log --raw` with tiny pack windows) as an HTML page in headless
# Chromium: the common checks, and the pack-window mmap/munmap storm on
# the timeline: the page's pack mmap and munmap series add up to the JSON
# report's pack counts, there are hundreds of them, and the drawn series
# changes in many places (a storm over the run, not one spike).
#
# usage: bash window.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR WORKDIR
. "$(dirname "$0")/lib.sh"

[ $# -eq 5 ] || fail "usage: window.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR WORKDIR"
preload=$1 report=$2 make_demo=$3 workloads=$4 work=$5
fresh_dir "$work"
# SCALE 40: a pack of ~2 MB, over a thousand pack maps with 64 KiB windows.
workload_page log 40 log-tiny-windows

mmaps=$(jq .totals.maps.by_kind.pack.mmaps "$work/log.json")
munmaps=$(jq .totals.maps.by_kind.pack.munmaps "$work/log.json")
[ "$mmaps" -ge 500 ] && [ "$munmaps" -ge 500 ] ||
	fail "the workload made only $mmaps pack mmaps and $munmaps munmaps"
check_eq "pack mmaps on the timeline" "$mmaps" "$(series_total "$work/log.dom" mmap-pack)"
check_eq "pack munmaps on the timeline" "$munmaps" "$(series_total "$work/log.dom" munmap-pack)"
for s in mmap-pack munmap-pack; do
	steps=$(grep -o "<path d=\"[^\"]*\"[^>]*data-series=\"$s\"" "$work/log.dom" | tr -cd L | wc -c)
	if [ "$steps" -ge 100 ]; then
		echo "ok: $s drawn with $steps steps"
	else
		check_failed "$s drawn with only $steps steps"
	fi
done
finish
