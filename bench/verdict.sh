#!/bin/bash
# bench/verdict.sh: does the verdict predict? For a set of workloads it
# records what one traced run predicts (the class, and each remedy's saving
# with its interval: verdict.predictions), what `gittrace --confirm` then
# measures and concludes (the confirmed class), and what every remedy really
# saves (git's default windows, mimalloc, jemalloc; paired rounds of
# gittrace-ab, 95% CIs), and prints a Markdown table (the one under "Does
# the verdict predict?" in BENCHMARKS.md comes from it). A benchmark, not a
# test: a wrong prediction is printed, and the script still exits 0.
#
# usage: bench/verdict.sh [-r ROUNDS] [-s SCALE] [-l MAXLOAD] [-w KEYS] [-t] OUTDIR [BUILD_DIR]
#   OUTDIR     receives the repositories (OUTDIR/repos, made once and reused
#              by a later run into the same OUTDIR), and per workload KEY:
#              KEY.json (gittrace --confirm --json: the report of the traced
#              run plus "confirmation"), KEY.ab.json (the gittrace-ab JSON
#              behind the confirmation), KEY.extra.json (gittrace-ab of the
#              remedies --confirm did not measure, if any), KEY.summary.json
#              (what the table is made of), KEY.load (load averages before
#              and after); and table.md, details.md
#   BUILD_DIR  a CMake build of gittrace (default: build/ next to bench/)
#   -r ROUNDS  measured rounds of every comparison (default 10; 1 warm-up)
#   -s SCALE   demo repository scale (default 100; examples/make-demo-repo.sh)
#   -l MAXLOAD before each workload, wait (at most 10 minutes) until the
#              1-minute load average is below MAXLOAD (default: do not wait)
#   -w KEYS    only these workloads (comma-separated keys, below); the table
#              still lists every KEY.summary.json found in OUTDIR
#   -t         run nothing: print the table of what OUTDIR holds (give the
#              same -r as the run, for the header)
# The table's "load" is the 1-minute load average before → after the
# workload (gittrace-ab's rounds are paired, but a busy machine still
# widens the intervals and inflates the traced call durations).
#
# Workloads (KEY: command):
#   tiny         examples/workloads/log-tiny-windows.sh on the demo repository
#                (window 68k, limit 256k written into its config; git log --raw)
#   big-quarter  git log --raw on a generated repository with a >= 100 MB pack,
#                core.packedGitWindowSize = core.packedGitLimit = 1/4 of the
#                pack, set in the repository's config
#   big-limit    the same with only core.packedGitLimit = 1/4 of the pack
#   log          git log --raw, git's defaults, on the demo repository
#   repack       git repack -adf, defaults, on a fresh copy of the demo
#                repository every run (--template)
#   churn        examples/alloc-churn (built here with gcc -O2)
#   perturb      env MALLOC_PERTURB_=165 git log --raw on the demo repository
#   loose        git log --raw on a repository holding the demo repository's
#                objects loose (git unpack-objects: ~33,000 files)
#
# Method. Per workload: `gittrace --confirm --rounds=ROUNDS --json -- CMD`
# (one traced run, then gittrace-ab on the remedies the trace points at:
# the command as given against git's default windows when they apply, and
# mimalloc and jemalloc when the allocator applies). The launcher used is a
# copy of BUILD_DIR/launcher/gittrace whose only change is the path of
# gittrace-ab: a wrapper that also keeps gittrace-ab's JSON (KEY.ab.json),
# for the CPU times and page faults behind each ratio. Then, with gittrace-ab
# and the same rounds, the remedies --confirm did not measure: default
# windows when the workload lowers a pack setting (else the setting is
# already git's default and the remedy does nothing: "n/a"), and the
# allocators. The report goes to stderr (without --stdout), so that the
# command's own output never mixes with the JSON.
#
# Time: making the repositories takes ~3 minutes (most of it the big one:
# fast-import of ~500 MB of blobs, then repack -adf); the workloads with
# -r 10 took ~15 minutes on 2 loaded CPUs.
#
# Saving ("gain") = 1 - the geometric mean of the paired wall-time ratios
# (remedy / as given); its 95% interval is 1 - the ratio's interval. Truth
# of a workload = the class of the remedy with the largest measured saving
# when that is >= 10%, "neither" when every measured saving is < 5%, else
# "gray" (not judged). The prediction matches when its class equals a
# non-gray truth. An interval check asks whether the measured saving lies
# inside the predicted [low, high] of that remedy (the allocator prediction
# for both mimalloc and jemalloc; a remedy that does not apply predicts 0),
# and whether the measured 95% interval at least overlaps it.
# shellcheck disable=SC2016 # the jq programs are single-quoted on purpose
set -euo pipefail
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY MALLOC_PERTURB_ 2>/dev/null || true

usage() {
	echo "usage: bench/verdict.sh [-r ROUNDS] [-s SCALE] [-l MAXLOAD] [-w KEYS] [-t] OUTDIR [BUILD_DIR]" >&2
	exit 2
}

all_keys=(tiny big-quarter big-limit log repack churn perturb loose)
rounds=10 scale=100 maxload='' only='' table_only=''
while getopts r:s:l:w:t opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	s) scale=$OPTARG ;;
	l) maxload=$OPTARG ;;
	w) only=$OPTARG ;;
	t) table_only=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${2:-$src/build}" && pwd)
launcher=$build/launcher/gittrace
ab=$build/ab/gittrace-ab
for tool in "$launcher" "$ab" "$build/analyzer/gittrace-report" "$build/preload/libgittrace.so"; do
	[ -e "$tool" ] || { echo "bench/verdict.sh: '$tool' is missing: build first" >&2; exit 1; }
done
for tool in git jq gcc perl; do
	command -v "$tool" >/dev/null || { echo "bench/verdict.sh: '$tool' is missing" >&2; exit 1; }
done
case $rounds in '' | *[!0-9]* | 0 | 1) usage ;; esac
mkdir -p "$1"
dir=$(cd "$1" && pwd)
case $dir in *[[:space:]]*) echo "bench/verdict.sh: OUTDIR must not contain spaces" >&2; exit 1 ;; esac
keys=("${all_keys[@]}")
[ -z "$only" ] || IFS=, read -ra keys <<<"$only"
[ -z "$table_only" ] || keys=()
for key in "${keys[@]}"; do
	case " ${all_keys[*]} " in *" $key "*) ;; *) echo "bench/verdict.sh: unknown workload '$key'" >&2; exit 2 ;; esac
done

log() { echo "bench/verdict.sh: $*" >&2; }

# --- the repositories (made once per OUTDIR) ---------------------------------
repos=$dir/repos
demo=$repos/demo.git
if [ ! -e "$repos/.done" ]; then
	rm -rf "$repos"
	mkdir -p "$repos"
	log "demo repository (scale $scale)"
	sh "$src/examples/make-demo-repo.sh" "$demo" "$scale" >/dev/null
	cp -a "$demo" "$repos/tiny.git" # log-tiny-windows.sh writes its config

	log "loose repository (git unpack-objects of the demo pack)"
	git init -q --bare "$repos/loose.git"
	git -C "$repos/loose.git" symbolic-ref HEAD refs/heads/main
	git -C "$repos/loose.git" -c gc.auto=0 unpack-objects -q <"$(ls "$demo"/objects/pack/pack-*.pack)"
	git -C "$repos/loose.git" update-ref refs/heads/main "$(git -C "$demo" rev-parse main)"

	# A repository with a pack of > 100 MB: 560 files of 256 KiB of
	# pseudorandom base64 lines (no deltas between files; base64 leaves
	# zlib 3/4 of the bytes), then 1,000 commits that edit a few lines of
	# 1-3 files (deltas) and every other commit move one edited file (an
	# inexact rename, so git log --raw reads both blobs: reads spread over
	# the whole pack, as in make-demo-repo.sh). Perl's own drand48 with a
	# fixed seed: the same history everywhere.
	log "big repository (~125 MB pack; about 2 minutes)"
	big=$repos/big.git
	git init -q --bare "$big"
	git -C "$big" symbolic-ref HEAD refs/heads/main
	perl -e '
use strict; use warnings; use MIME::Base64 qw(encode_base64);
my ($nfiles, $filekb, $ncommits) = (560, 256, 1000);
srand(20240611);
my $lines = int($filekb * 1024 / 77);
sub rline { encode_base64(pack("N*", map { int(rand(4294967296)) } 1 .. 14), "") . "\n" }
my (@path, @body);
for my $f (0 .. $nfiles - 1) {
	$path[$f] = sprintf("d%02d/big%04d.txt", $f % 20, $f);
	$body[$f] = [ map { rline() } 1 .. $lines ];
}
my $mark = 0;
sub commit {
	my ($c, $msg) = @_;
	my $when = 1700000000 + $c * 3607;
	print "commit refs/heads/main\nmark :", ++$mark, "\n";
	print "author Demo Author <author\@example.com> $when +0000\n";
	print "committer Demo Committer <committer\@example.com> $when +0000\n";
	print "data ", length($msg), "\n$msg\n";
	print "from :", $mark - 1, "\n" if $mark > 1;
}
sub emit {
	my $f = shift;
	my $b = join("", @{ $body[$f] });
	print "M 100644 inline $path[$f]\ndata ", length($b), "\n", $b, "\n";
}
commit(0, "initial import");
emit($_) for 0 .. $nfiles - 1;
for my $c (1 .. $ncommits - 1) {
	commit($c, "change $c: edit some files");
	my %touched; my $f;
	for (0 .. int(rand(3))) {
		$f = int(rand($nfiles));
		$body[$f][int(rand(scalar @{ $body[$f] }))] = rline() for 0 .. int(rand(3));
		$touched{$f} = 1;
	}
	if (int(rand(2)) == 0) {
		print "D $path[$f]\n";
		$path[$f] = sprintf("d%02d/big%04d.txt", int(rand(20)), $f);
	}
	emit($_) for sort { $a <=> $b } keys %touched;
}
print "done\n";
' | git -C "$big" fast-import --quiet --done
	git -C "$big" -c pack.threads=2 repack -adfq
	git -C "$big" prune-packed
	packsize=$(stat -c %s "$big"/objects/pack/pack-*.pack)
	[ "$packsize" -ge 100000000 ] || { log "big pack is only $packsize bytes"; exit 1; }
	quarter=$((packsize / 4))
	# Set in the repositories' config files, as a user's config would: a
	# `git -c` would override what the remedy sets.
	cp -a "$big" "$repos/big-quarter.git"
	git -C "$repos/big-quarter.git" config core.packedGitWindowSize "$quarter"
	git -C "$repos/big-quarter.git" config core.packedGitLimit "$quarter"
	mv "$big" "$repos/big-limit.git"
	git -C "$repos/big-limit.git" config core.packedGitLimit "$quarter"

	cp -a "$demo" "$repos/repack.git" # the template: never written to
	gcc -O2 -o "$repos/alloc-churn" "$src/examples/alloc-churn.c"
	touch "$repos/.done"
fi
packsize=$(stat -c %s "$repos"/big-limit.git/objects/pack/pack-*.pack)
quarter=$((packsize / 4))

# --- the launcher copy that keeps gittrace-ab's JSON ------------------------
cat >"$dir/ab-keep" <<EOF
#!/bin/sh
# gittrace-ab, keeping a copy of its standard output in \$VERDICT_AB_OUT.
"$ab" "\$@" >"\$VERDICT_AB_OUT.tmp"
s=\$?
cat "\$VERDICT_AB_OUT.tmp" && mv "\$VERDICT_AB_OUT.tmp" "\$VERDICT_AB_OUT"
exit \$s
EOF
chmod +x "$dir/ab-keep"
sed "s|^ab='.*'\$|ab='$dir/ab-keep'|" "$launcher" >"$dir/gittrace"
chmod +x "$dir/gittrace"
[ "$(diff "$launcher" "$dir/gittrace" | grep -c '^>')" = 1 ] ||
	{ log "could not make the launcher copy (ab= line not found once)"; exit 1; }

# --- the workloads ------------------------------------------------------------
declare -A cmd template lowered title
cmd[tiny]="sh $src/examples/workloads/log-tiny-windows.sh $repos/tiny.git"
title[tiny]="log-tiny-windows.sh (window 68k, limit 256k in the config; git log --raw)"
lowered[tiny]=1
cmd[big-quarter]="git --git-dir=$repos/big-quarter.git log --raw"
title[big-quarter]="git log --raw, $((packsize / 1000000)) MB pack, window = limit = $((quarter / 1000000)) MB in the config"
lowered[big-quarter]=1
cmd[big-limit]="git --git-dir=$repos/big-limit.git log --raw"
title[big-limit]="git log --raw, $((packsize / 1000000)) MB pack, limit = $((quarter / 1000000)) MB in the config (window default)"
lowered[big-limit]=1
cmd[log]="git --git-dir=$demo log --raw"
title[log]="git log --raw, defaults"
cmd[repack]="git repack -adf"
title[repack]="git repack -adf, defaults (fresh copy per run)"
template[repack]=$repos/repack.git
cmd[churn]="$repos/alloc-churn"
title[churn]="examples/alloc-churn"
cmd[perturb]="env MALLOC_PERTURB_=165 git --git-dir=$demo log --raw"
title[perturb]="MALLOC_PERTURB_=165 git log --raw"
cmd[loose]="git --git-dir=$repos/loose.git log --raw"
title[loose]="git log --raw, $(git -C "$repos/loose.git" count-objects | cut -d' ' -f1) loose objects"
defaults_spec='defaults=-c core.packedGitWindowSize=1g -c core.packedGitLimit=32768g'

wait_load() {
	[ -n "$maxload" ] || return 0
	local i=0
	while [ $i -lt 60 ] && awk -v m="$maxload" '{ exit !($1 >= m) }' /proc/loadavg; do
		[ $i -gt 0 ] || log "waiting for the load average to fall below $maxload ($(cut -d' ' -f1-3 /proc/loadavg))"
		sleep 10
		i=$((i + 1))
	done
}

run_workload() {
	local key=$1 argv opts=() extra=()
	read -ra argv <<<"${cmd[$key]}"
	[ -z "${template[$key]:-}" ] || opts=(--template="${template[$key]}")
	wait_load
	local before
	before=$(cut -d' ' -f1-3 /proc/loadavg)
	log "$key: gittrace --confirm --rounds=$rounds -- ${cmd[$key]}"
	rm -f "$dir/$key".{json,ab.json,extra.json,summary.json,confirm.err}
	# The JSON goes to stderr, after gittrace's own notes: it starts at the
	# first line that starts with "{".
	(cd "$dir" && VERDICT_AB_OUT=$dir/$key.ab.json "$dir/gittrace" --confirm \
		--rounds="$rounds" "${opts[@]}" --json -- "${argv[@]}" \
		>/dev/null 2>"$dir/$key.confirm.err") ||
		{ log "$key: gittrace failed:"; tail -5 "$dir/$key.confirm.err" >&2; return 1; }
	sed -n '/^{/,$p' "$dir/$key.confirm.err" >"$dir/$key.json"
	jq -e .confirmation "$dir/$key.json" >/dev/null ||
		{ log "$key: no confirmation in the output:"; tail -5 "$dir/$key.confirm.err" >&2; return 1; }

	# The remedies --confirm did not measure.
	local measured
	measured=$(jq -r '[.confirmation.effects[].remedy] | join(" ")' "$dir/$key.json")
	if [ -n "${lowered[$key]:-}" ] && [[ " $measured " != *" default-windows "* ]]; then
		extra+=(--variant "$defaults_spec")
	fi
	for a in mimalloc jemalloc; do
		[[ " $measured " == *" $a "* ]] || extra+=(--alloc "$a")
	done
	if [ ${#extra[@]} -gt 0 ]; then
		local t=()
		[ -z "${template[$key]:-}" ] || t=(--template "${template[$key]}")
		log "$key: gittrace-ab on what --confirm did not measure: ${extra[*]}"
		(cd "$dir" && "$ab" --json --no-progress --rounds "$rounds" "${t[@]}" \
			--variant 'as-given=' "${extra[@]}" -- "${argv[@]}") >"$dir/$key.extra.json"
	fi
	echo "$before|$(cut -d' ' -f1-3 /proc/loadavg)" >"$dir/$key.load"
}

# --- the summary of one workload ------------------------------------------------
# Input: KEY.json; $ab, $extra: gittrace-ab JSON, slurped ([] if none).
summary_jq='
def remedy_of(n): if n == "defaults" then "default-windows" else n end;
def class_of(r): if r == "default-windows" then "window-bound" else "allocator-bound" end;
def med(v; m): v.metrics[m].median;
def effects($src):
  if $src == null then [] else
  ($src.baseline) as $b | ($src.variants[] | select(.name == $b)) as $base
  | [ $src.variants[] | select(.name != $b and .wall_ratio != null)
      | { remedy: remedy_of(.name),
          gain: (1 - .wall_ratio.geomean),
          gain_low: (1 - .wall_ratio.ci_high),
          gain_high: (1 - .wall_ratio.ci_low),
          cpu_gain: (1 - .cpu_ratio.geomean),
          cpu_gain_low: (1 - .cpu_ratio.ci_high),
          cpu_gain_high: (1 - .cpu_ratio.ci_low),
          conclusion,
          n: .wall_ratio.n,
          base: { wall: med($base; "wall_s"), user: med($base; "user_s"), sys: med($base; "sys_s"),
                  minflt: med($base; "minflt"), maxrss: med($base; "maxrss_kib") },
          this: { wall: med(.; "wall_s"), user: med(.; "user_s"), sys: med(.; "sys_s"),
                  minflt: med(.; "minflt"), maxrss: med(.; "maxrss_kib") } } ] end;
def pred($r): (.verdict.predictions[] | select(.remedy == $r))
  | if .applies then {applies, gain, low, high} else {applies, gain: 0, low: 0, high: 0} end;
. as $rep
| ((effects($ab[0]) | map(. + {source: "confirm"}))
   + (effects($extra[0]) | map(. + {source: "extra"}))) as $eff
| ($eff | max_by(.gain)) as $best
| { key: $key, title: $title, command: $cmd, load: $load, rounds: $rounds,
    predicted_class: .verdict.class,
    predicted: { "default-windows": pred("default-windows"), allocator: pred("allocator") },
    confirmed_class: .confirmation.class,
    confirmed_measured: [.confirmation.effects[].remedy],
    measured: ($eff | map({(.remedy): .}) | add // {}),
    truth: (if ($eff | length) == 0 then "neither"
            elif $best.gain >= $rep.verdict.class_min then class_of($best.remedy)
            elif all($eff[]; .gain < 0.05) then "neither"
            else "gray" end),
    evidence: [.verdict.evidence[] | select(test("predicted to save|inside the malloc|inside mmap|pack window maps|least-recently-used|loose objects|MALLOC_|implausibly|tracer"))],
    traced_cpu_seconds: .totals.cpu_seconds,
    again_faults: ([.processes[].maps.window_cost.again_faults // 0] | add),
    first_faults: ([.processes[].maps.window_cost.first_faults // 0] | add) }
| .match = (if .truth == "gray" then "gray" elif .truth == .predicted_class then "yes" else "no" end)
| .intervals = [ .predicted as $p | .measured as $m | ("default-windows", "mimalloc", "jemalloc")
    | $m[.] // empty |
    (if .remedy == "default-windows" then $p["default-windows"] else $p.allocator end) as $q
    | { remedy, inside: (.gain >= $q.low and .gain <= $q.high),
        overlaps: (.gain_high >= $q.low and .gain_low <= $q.high),
        side: (if .gain < $q.low then "below" elif .gain > $q.high then "above" else "inside" end) } ]
'

summarize() {
	local key=$1 ab_json=/dev/null extra_json=/dev/null
	[ ! -s "$dir/$key.ab.json" ] || ab_json=$dir/$key.ab.json
	[ ! -s "$dir/$key.extra.json" ] || extra_json=$dir/$key.extra.json
	jq --arg key "$key" --arg title "${title[$key]}" --arg cmd "${cmd[$key]}" \
		--arg load "$(cat "$dir/$key.load" 2>/dev/null || echo ?)" --argjson rounds "$rounds" \
		--slurpfile ab "$ab_json" --slurpfile extra "$extra_json" "$summary_jq" \
		"$dir/$key.json" >"$dir/$key.summary.json"
}

for key in "${keys[@]}"; do
	if run_workload "$key"; then
		summarize "$key"
	else
		log "$key: left out"
	fi
done

# --- the table ---------------------------------------------------------------
table_jq='
def pct: if . == null then "n/a" else (. * 1000 | round / 10 | tostring) + "%" end;
def p1: if . == null then "n/a" else (. * 1000 | round / 10 | tostring) end;
def pred(r): if r.applies then "\(r.gain | pct) (\(r.low | p1)–\(r.high | p1))" else "— (does not apply)" end;
def meas(m): if m == null then "n/a" else "\(m.gain | pct) (\(m.gain_low | p1) to \(m.gain_high | p1))" end;
def ival: map("\(.remedy): " + (if .inside then "yes" elif .overlaps then "no, \(.side) (CI overlaps)" else "**no, \(.side)**" end)) | join("; ");
(["| workload | load | predicted class | predicted: default windows | predicted: allocator | confirmed (--confirm) | measured: default windows | measured: mimalloc | measured: jemalloc | truth | prediction = truth? | measured saving inside predicted interval? |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|"] | .[]),
(.[] | "| \(.key): \(.title) | \(.load | split("|") | map(split(" ")[0]) | join("→")) | \(.predicted_class) | \(pred(.predicted["default-windows"])) | \(pred(.predicted.allocator)) | \(.confirmed_class) | \(meas(.measured["default-windows"])) | \(meas(.measured.mimalloc)) | \(meas(.measured.jemalloc)) | \(.truth) | \(if .match == "no" then "**no**" else .match end) | \(.intervals | ival) |")
'
details_jq='
def pct: if . == null then "n/a" else (. * 1000 | round / 10 | tostring) + "%" end;
def p1: if . == null then "n/a" else (. * 1000 | round / 10 | tostring) end;
def f3: if . == null then "n/a" else (. * 1000 | round / 1000 | tostring) end;
.[] | "### \(.key): \(.title)", "",
  "`\(.command)`; load average (1, 5, 15 min) before | after: \(.load); traced CPU \(.traced_cpu_seconds | f3) s",
  "",
  "- predicted \(.predicted_class), confirmed \(.confirmed_class) (--confirm measured: \(.confirmed_measured | join(", "))), truth \(.truth)",
  (.measured[] | "- \(.remedy) [\(.source)]: wall \(.gain | pct) (\(.gain_low | p1) to \(.gain_high | p1)), CPU \(.cpu_gain | pct) (\(.cpu_gain_low | p1) to \(.cpu_gain_high | p1)); medians as given → remedy: wall \(.base.wall | f3) → \(.this.wall | f3) s, user \(.base.user | f3) → \(.this.user | f3) s, sys \(.base.sys | f3) → \(.this.sys | f3) s, minor faults \(.base.minflt) → \(.this.minflt); \(.conclusion)"),
  "- window cost in the trace: \(.again_faults | round) faults while windows of regions mapped before were live, \(.first_faults | round) otherwise",
  (.evidence[] | "- evidence: \(.)"), ""
'

summaries=()
for key in "${all_keys[@]}"; do
	[ ! -s "$dir/$key.summary.json" ] || summaries+=("$dir/$key.summary.json")
done
[ ${#summaries[@]} -gt 0 ] || { log "no workload summarized"; exit 1; }
{
	echo "$(date -u +%Y-%m-%d), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(git --version);"
	echo "build $build (gittrace-report of $(date -u -r "$build/analyzer/gittrace-report" '+%Y-%m-%d %H:%M UTC'); source tree now at $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')); $rounds paired rounds per comparison (1 warm-up);"
	echo "demo repository: $(git -C "$demo" count-objects -v | awk '/in-pack/ {print $2}') objects; big pack: $packsize bytes, quarter $quarter."
	echo
	jq -rs "$table_jq" "${summaries[@]}"
} | tee "$dir/table.md"
jq -rs "$details_jq" "${summaries[@]}" >"$dir/details.md"
log "details in $dir/details.md"
