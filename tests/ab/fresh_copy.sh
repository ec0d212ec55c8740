# fresh_copy.sh AB WORK: with --template every run sees a pristine copy of
# the template (a command that fails when its own earlier change is still
# there passes every run), in the same place each time, with modes and
# symlinks kept; the template itself is never touched. Without --template
# the same command fails on its second run: the check can fail.
. "$(dirname "$0")/lib.sh"
AB=$1
work=$2
fresh_dir "$work"

tmpl=$work/template
mkdir -p "$tmpl/sub"
echo pristine >"$tmpl/state"
printf '#!/bin/sh\n' >"$tmpl/sub/tool"
chmod 755 "$tmpl/sub/tool"
ln -s sub/tool "$tmpl/link"

# shellcheck disable=SC2016 # expanded by the fake command's shell
fake=(sh -c '
	test "$(cat state)" = pristine && test ! -e marker || exit 7
	test -L link && test -x sub/tool || exit 8
	touch marker && echo changed >state && pwd >>"$0"' "$work/pwd.log")

run_ab 0 "$work/ok.json" "$work/ok.err" --variant 'a=-c ab.name=a' --variant 'b=-c ab.name=b' \
	--rounds 3 --seed 5 --template "$tmpl" --workdir "$work" --json -- "${fake[@]}"
check_eq "runs that saw a pristine copy" 8 "$(wc -l <"$work/pwd.log")"
check_eq "one place for every copy" 1 "$(sort -u "$work/pwd.log" | wc -l)"
copy=$(head -1 "$work/pwd.log")
case $copy in
"$work"/gittrace-ab.*/*) echo "ok: the copy is in the scratch directory ($copy)" ;;
*) fail "the command ran in '$copy', not in a copy under $work" ;;
esac
[ ! -e "$copy" ] || fail "the copy '$copy' is still there"
[ -z "$(find "$work" -maxdepth 1 -name 'gittrace-ab.*')" ] || fail "scratch directory left behind"
echo "ok: scratch directory removed"
check_eq "template state" pristine "$(cat "$tmpl/state")"
[ ! -e "$tmpl/marker" ] || fail "the template was modified"
echo "ok: template untouched"
check_eq "JSON template" "$tmpl" "$(jq -r .template "$work/ok.json")"

# The control: in one directory, the second run finds the marker.
fresh_dir "$work/control"
cp -a "$tmpl/." "$work/control/"
(cd "$work/control" && run_ab 7 "$work/control.out" "$work/control.err" \
	--variant 'a=-c ab.name=a' --variant 'b=-c ab.name=b' --rounds 2 -- "${fake[@]}")
check_grep "control fails on its second run" "failed with exit status 7 \(variant b, warm-up\)" \
	"$work/control.err"

# A template that does not exist is bad input.
run_ab 1 "$work/none.out" "$work/none.err" --variant 'b=-c ab.name=b' --template "$work/nope" -- true
check_eq "missing template message" "gittrace-ab: cannot open '$work/nope': No such file or directory" \
	"$(cat "$work/none.err")"
finish
