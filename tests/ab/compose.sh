# compose.sh AB NOOP_LIB WORK: how variants compose, from the environment
# each variant's runs saw (nothing is timed): --common reaches every
# variant, the baseline too; a lone --alloc beside --variant is the baseline
# with that allocator (it keeps the baseline's git settings); a variant that
# differs from the baseline in both allocator and settings gets one warning
# line; conflicts with --common are usage errors.
. "$(dirname "$0")/lib.sh"
AB=$1
noop=$2
work=$3
fresh_dir "$work"
lib=$work/libsecond.so
cp "$noop" "$lib"

# Each run appends "variant-setting|LD_PRELOAD|common-setting|window".
# shellcheck disable=SC2016 # expanded by the fake command's shell
show=(sh -c 'printf "%s|%s|%s|%s\n" "$(git config --get ab.name)" "$LD_PRELOAD" \
	"$(git config --get ab.common)" "$(git config --get core.packedGitWindowSize)" \
	>>"$0"' "$work/env.log")

# compare OUT ARGS...: gittrace-ab with the variant ARGS on the logging
# command, 2 rounds, JSON in $work/OUT.json and stderr in $work/OUT.err, a
# fresh log.
compare() {
	local out=$1
	shift
	: >"$work/env.log"
	run_ab 0 "$work/$out.json" "$work/$out.err" "$@" --rounds 2 --json -- "${show[@]}"
}

# ran NAME: the line the runs of variant NAME (ab.name=NAME) logged, once
# whatever the number of runs.
ran() { grep "^$1|" "$work/env.log" | sort -u | tr '\n' ' ' | sed 's/ $//'; }

# --common settings in every variant, the baseline too, before its own.
compare common --common '-c ab.common=yes' --variant 'base=-c ab.name=base' \
	--variant 'small=-c ab.name=small -c core.packedGitWindowSize=64k'
check_eq "baseline with --common" "base||yes|" "$(ran base)"
check_eq "variant with --common" "small||yes|64k" "$(ran small)"
check_eq "common settings first in the JSON" "ab.common=yes ab.name=small core.packedGitWindowSize=64k" \
	"$(jq -r '.variants[1].settings[] | "\(.key)=\(.value)"' "$work/common.json" | xargs)"
check_eq "no warning: the variants differ in settings only" 0 "$(grep -c warning "$work/common.err" || true)"

# A lone --alloc beside --variant: the baseline's settings, another allocator.
compare lone --variant 'small=-c ab.name=small -c core.packedGitWindowSize=64k' --alloc "$lib"
check_eq "lone --alloc keeps the baseline's settings" "small|$lib||64k" \
	"$(grep "|$lib|" "$work/env.log" | sort -u)"
check_eq "baseline unchanged" "small|||64k" "$(grep "^small|||" "$work/env.log" | sort -u)"
check_eq "no warning: only the allocator differs" 0 "$(grep -c warning "$work/lone.err" || true)"

# --common --alloc: every variant preloads it; the variants differ in settings.
compare calloc --common "--alloc $lib" --variant 'base=-c ab.name=base' \
	--variant 'other=-c ab.name=other'
check_eq "--common --alloc in the baseline" "base|$lib||" "$(ran base)"
check_eq "--common --alloc in the variant" "other|$lib||" "$(ran other)"

# Two ways at once: one warning line, and the comparison still runs.
compare mixed --variant 'plain=' --variant "both=--alloc $lib -c ab.name=both"
check_eq "warning about the mixed variant" \
	"gittrace-ab: warning: variant 'both' differs from the baseline 'plain' in both its allocator and its git settings: its difference cannot be put down to either" \
	"$(grep warning "$work/mixed.err")"
check_eq "one warning line" 1 "$(grep -c warning "$work/mixed.err")"
check_eq "the mixed variant ran as given" "both|$lib||" "$(ran both)"

# Conflicts with --common are usage errors, named.
run_ab 2 "$work/c1.out" "$work/c1.err" --common '-c ab.common=yes' \
	--variant 'a=-c ab.common=no' -- true
check_eq "same key in --common and a variant" \
	"gittrace-ab: variant 'a' sets 'ab.common', which --common sets for every variant" \
	"$(head -1 "$work/c1.err")"
run_ab 2 "$work/c2.out" "$work/c2.err" --common "--alloc $lib" --variant 'x=--alloc system' -- true
check_eq "an allocator in --common and a variant" \
	"gittrace-ab: variant 'x' names an allocator, and so does --common" \
	"$(head -1 "$work/c2.err")"
run_ab 2 "$work/c3.out" "$work/c3.err" --common '-c nodot' --variant a= -- true
check_eq "bad setting in --common" \
	"gittrace-ab: bad git setting 'nodot' in --common (want section.key=value)" \
	"$(head -1 "$work/c3.err")"
finish
