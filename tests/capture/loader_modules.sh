# loader_modules.sh: glibc loads some modules itself, without dlopen (iconv's
# gconv modules, NSS's), so the dlopen hook never sees them. Stacks through
# them must still name their frames: the trace gets MODULE records for them
# when a new stack appears (image.h, gt_image_modules_if_loaded).
#
# usage: bash loader_modules.sh PRELOAD REPORT ICONV_MODULES WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: loader_modules.sh PRELOAD REPORT ICONV_MODULES WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
clean_gittrace_env

out=$(GITTRACE_OUTPUT=$work/t.zst run_traced "$preload" "$prog")
check_eq "the program's output" "15 conversions" "$out"
"$report" --dump "$work/t.zst" >"$work/t.dump"
check_grep "a MODULE record for a gconv module" 'MODULE .*path=[^ ]*/gconv/' "$work/t.dump"
check_grep "a stack through a gconv module's init" 'STACK .*frames=[^ ]*gconv_init' "$work/t.dump"
check_eq "stacks with a frame named ?" 0 \
	"$(grep ' STACK ' "$work/t.dump" | grep -c 'frames=?;\|;?;\|;?$' || true)"
finish
