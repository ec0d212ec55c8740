# debuginfod.sh TEST STRIPPED WORK: a stripped binary gets its
# names and lines from a debuginfod server, the way a user of a
# distribution's git gets them with DEBUGINFOD_URLS (docs/report.md#symbols):
# proves that our libdw use (dwfl_standard_find_debuginfo) asks debuginfod.
# A local HTTP server answers GET /buildid/<build-id>/debuginfo with
# TEST (symbols_test, built -g) for the stripped copy's build-id only, and 404 otherwise; TEST
# checks the names in its debuginfod mode, and this script
# that the server was asked for exactly that build-id.
. "$(dirname "$0")/../lib.sh"
test_bin=$1
stripped=$2
work=$3
fresh_dir "$work"
command -v python3 >/dev/null || {
	echo "skip: no python3 for the local debuginfod server"
	exit 77
}
# libdw asks debuginfod through libdebuginfod, which it loads when needed:
# without it the server is never asked, and the checks below would only
# say that the names are missing.
has_library libdebuginfod.so.1 ||
	fail "libdebuginfod.so.1 is not installed (Debian: libdebuginfod1; scripts/install-deps.sh installs it)"
build_id=$(readelf -n "$stripped" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
[ -n "$build_id" ] || fail "no build-id in $stripped"

# The server: port 0 (any free one), written to a file once it listens;
# every request path logged.
python3 - "$test_bin" "$build_id" "$work/port" "$work/requests" <<'PY' &
import http.server, os, sys
path, build_id, port_file, log = sys.argv[1:]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(log, "a") as f:
            f.write(self.path + "\n")
        if self.path != "/buildid/%s/debuginfo" % build_id:
            self.send_error(404)
            return
        data = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
PY
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
	[ -s "$work/port" ] && break
	sleep 0.1
done
[ -s "$work/port" ] || fail "the local debuginfod server did not start"

status=0
DEBUGINFOD_URLS="http://127.0.0.1:$(cat "$work/port")" DEBUGINFOD_CACHE_PATH="$work/cache" \
	DEBUGINFOD_TIMEOUT=30 "$test_bin" "$stripped" debuginfod || status=$?
check_eq "symbols_test in debuginfod mode" 0 "$status"
check_eq "the server was asked for the stripped copy's build-id" \
	"/buildid/$build_id/debuginfo" "$(sort -u "$work/requests")"
finish
