# usage.sh AB WORK: usage errors exit 2 and bad input exits 1, each with one
# line "gittrace-ab: <what>" (lowercase, no full stop), usage errors then a
# hint to --help; --help itself exits 0.
. "$(dirname "$0")/lib.sh"
AB=$1
work=$2
fresh_dir "$work"
n=0

# expect STATUS MESSAGE ARGS...: exits STATUS and prints exactly MESSAGE first.
expect() {
	local want=$1 msg=$2
	shift 2
	n=$((n + 1))
	run_ab "$want" "$work/$n.out" "$work/$n.err" "$@"
	check_eq "message of: $*" "gittrace-ab: $msg" "$(head -1 "$work/$n.err")"
	if [ "$want" = 2 ]; then
		check_eq "hint of: $*" "try 'gittrace-ab --help' for more information" \
			"$(sed -n 2p "$work/$n.err")"
	else
		check_eq "lines of: $*" 1 "$(wc -l <"$work/$n.err")"
	fi
}

expect 2 "no command to run (put it after --)"
expect 2 "no variants (give --alloc or --variant)" -- true
expect 2 "unknown option '--frob'" --frob -- true
expect 2 "option '--rounds' needs an argument" --rounds
expect 2 "--rounds wants a number from 2 to 100000, not '1'" --rounds 1 --alloc system -- true
expect 2 "--seed wants a number from 0 to 4294967295, not '-3'" --seed -3 --alloc system -- true
expect 2 "--precision wants a number above 0, at most 100, not '0'" --precision 0 --alloc system -- true
expect 2 "--precision wants a number above 0, at most 100, not '2%'" --precision 2% --alloc system -- true
expect 2 "--max-rounds and --max-seconds go with --precision" --max-rounds 9 --alloc system -- true
expect 2 "--max-rounds and --max-seconds go with --precision" --max-seconds 9 --alloc system -- true
expect 2 "--max-rounds 3 is below --rounds 4" --rounds 4 --precision 5 --max-rounds 3 \
	--alloc system -- true
expect 2 "--variant wants NAME=SPEC, not 'small'" --variant small -- true
expect 2 "unexpected '--frob' in variant 'a' (want -c KEY=VALUE or --alloc NAME)" \
	--variant 'a=--frob' -- true
expect 2 "bad git setting 'nodot=1' in variant 'a' (want section.key=value)" \
	--variant 'a=-c nodot=1' -- true
expect 2 "variant name 'a b' may only use letters, digits and . _ + -" --variant 'a b=' -- true
expect 2 "two variants are named 'x'" --variant x= --variant 'x=-c a.b=1' -- true
expect 2 "unknown allocator 'tcmalloc' (system, mimalloc, jemalloc or a path)" --alloc tcmalloc -- true
expect 2 "unknown option '--explain'" --explain --alloc system -- true
expect 1 "cannot use allocator '$work/none.so': No such file or directory" --alloc "$work/none.so" -- true

n=$((n + 1))
run_ab 0 "$work/$n.out" "$work/$n.err" --help
check_grep "help" "^usage: gittrace-ab \[options\] -- CMD" "$work/$n.out"
finish
