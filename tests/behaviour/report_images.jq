# report_images.jq: the process images in a `gittrace-report --json`
# report, one line each in the form trace2_images.jq prints:
# "PID PPID ORIGIN ARGV-JSON" (PPID "-" for the root).
#
# usage: jq -r -f report_images.jq REPORT.json
.processes[] | "\(.pid) \(if .origin == "root" then "-" else .ppid end) \(.origin) \(.argv | tojson)"
