# environment.sh AB NOOP_LIB WORK: an allocator goes in front of an
# existing LD_PRELOAD, git settings are appended to an existing
# GIT_CONFIG_COUNT list (git sees both), the baseline's environment is
# ours unchanged, and mimalloc/jemalloc resolve to the files the Debian
# packages install (checked only when they are installed).
. "$(dirname "$0")/lib.sh"
AB=$1
noop=$2
work=$3
fresh_dir "$work"
cp "$noop" "$work/libfirst.so"
cp "$noop" "$work/libsecond.so"

# shellcheck disable=SC2016 # expanded by the fake command's shell
show=(sh -c 'printf "%s|%s|%s|%s|%s\n" "$(git config --get ab.name)" "$LD_PRELOAD" \
	"$(git config --get ab.pre)" "$GIT_CONFIG_COUNT" "$(git config --get core.packedGitLimit)" \
	>>"$0"' "$work/env.log")

LD_PRELOAD=$work/libfirst.so GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=ab.pre GIT_CONFIG_VALUE_0=kept \
	run_ab 0 "$work/out.json" "$work/err" --variant 'plain=' \
	--variant "both=--alloc $work/libsecond.so -c ab.name=both -c core.packedGitLimit=128m" \
	--rounds 2 --json -- "${show[@]}"
check_eq "baseline environment" "|$work/libfirst.so|kept|1|" "$(sed -n 1p "$work/env.log")"
check_eq "variant environment" "both|$work/libsecond.so:$work/libfirst.so|kept|3|128m" \
	"$(sed -n 2p "$work/env.log")"
check_eq "every run of a variant alike" 2 "$(sort -u "$work/env.log" | wc -l)"
check_eq "JSON settings" "ab.name=both core.packedGitLimit=128m" \
	"$(jq -r '.variants[1].settings[] | "\(.key)=\(.value)"' "$work/out.json" | xargs)"
check_eq "JSON preload" "$work/libsecond.so" "$(jq -r '.variants[1].preload' "$work/out.json")"

# GIT_CONFIG_PARAMETERS in the environment (as `git -c` leaves it for the
# programs git runs): git reads it after the GIT_CONFIG_COUNT list, so the
# variant's settings go at its end too, or its key outranked the variant's
# (--confirm's git defaults measured the lowered windows again). A value
# with a quote and a bang, as git quotes them.
: >"$work/env.log"
GIT_CONFIG_PARAMETERS="'core.packedgitlimit=1m' 'ab.pre=param'" \
	run_ab 0 "$work/params.json" "$work/err" --variant 'plain=' \
	--variant "both=-c core.packedGitLimit=128m -c ab.name=it's!" \
	--rounds 2 --json -- "${show[@]}"
check_eq "GIT_CONFIG_PARAMETERS: baseline's" "||param||1m" "$(sed -n 1p "$work/env.log")"
check_eq "GIT_CONFIG_PARAMETERS: the variant's settings win" "it's!||param|2|128m" \
	"$(sed -n 2p "$work/env.log")"

# --alloc PATH alone: named after the library, the baseline "system" added.
: >"$work/env.log"
run_ab 0 "$work/one.json" "$work/err" --alloc "$work/libsecond.so" --rounds 2 --json -- "${show[@]}"
check_eq "names" "system second" "$(jq -r '.variants[].name' "$work/one.json" | xargs)"
check_eq "system adds nothing" "||||" "$(sed -n 1p "$work/env.log")"

for pair in mimalloc:libmimalloc2.0 jemalloc:libjemalloc2; do
	name=${pair%%:*}
	pkg=${pair#*:}
	file=$(dpkg -L "$pkg" 2>/dev/null | grep -E "/lib${name}\.so\.2$" | head -1 || true)
	if [ -z "$file" ] || [ ! -e "$file" ]; then
		echo "skip: $pkg is not installed"
		continue
	fi
	run_ab 0 "$work/$name.json" "$work/err" --alloc "$name" --rounds 2 --json -- true
	check_eq "$name resolves to the package's file" "$(realpath "$file")" \
		"$(realpath "$(jq -r '.variants[1].preload' "$work/$name.json")")"
done
finish
