# trace_known_calls.sh PRELOAD KNOWN_CALLS DIR: traces tests/progs'
# known_calls (every hooked function, the aligned ones too) into
# DIR/known.zst, for unit.decoder.
set -e
preload=$1 known_calls=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
GITTRACE_OUTPUT=$dir/known.zst LD_PRELOAD=$preload "$known_calls" "$dir" >/dev/null
[ -s "$dir/known.zst" ]
