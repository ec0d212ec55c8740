#!/bin/bash
# The preload's modules must form layers (issue 12): no module may depend,
# directly or through others, on a module that depends on it.
#
# A module is a header of preload/ and the files of the same name
# (interpose_linux.c and interpose_darwin.c belong to interpose.h, a
# platform's stand-in X_none.c to X.h); X
# depends on Y when a file of X has #include "Y.h". That graph is only
# the true one if each module declares what it defines in its own header,
# so that is checked first: a gt_ function or variable that X.c defines
# (not static) must be named in X.h.
#
# Prints the modules by layer, the bottom one first. Fails, naming what is
# wrong, if a definition is declared elsewhere or the graph has a cycle.
# Usage: preload_layers.sh [preload-dir]
set -euo pipefail
shopt -s extglob nullglob
dir=${1:-$(dirname "$0")/../preload}
status=0

module() {
	local name
	name=$(basename "$1")
	name=${name%.*}
	echo "${name%_@(linux|darwin|none)}"
}

for file in "$dir"/*.c; do
	header=$dir/$(module "$file").h
	# The name in each top-level definition that is not static.
	for name in $(grep -E '^[A-Za-z_]' "$file" | grep -Ev '^(static|extern|typedef)\b' |
		sed -n 's/^[^(=;]*\b\(gt_[a-z0-9_]*\)[[:space:]]*[(=;[].*/\1/p'); do
		if ! [ -e "$header" ] || ! grep -qw "$name" "$header"; then
			echo "preload_layers: $(basename "$file") defines $name;" \
				"$(basename "$header") does not declare it" >&2
			status=1
		fi
	done
done

# "Y X" pairs: Y must come before X. "X X" keeps a module without edges.
edges=$(
	for file in "$dir"/*.[ch]; do
		from=$(module "$file")
		echo "$from $from"
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\.h\)".*/\1/p' "$file" |
			while read -r header; do
				if [ -e "$dir/$header" ]; then echo "$(module "$header") $from"; fi
			done
	done | sort -u
)
if ! loop=$(tsort <<<"$edges" 2>&1 >/dev/null); then
	echo "preload_layers: the include graph of $dir has a cycle:" >&2
	grep -v 'input contains a loop' <<<"$loop" | sed 's/^tsort: /  /' >&2
	exit 1
fi

# Layer of a module: one above the highest module it depends on.
awk -v order="$(tsort <<<"$edges")" '
	{ if ($1 != $2) deps[$2] = deps[$2] " " $1 }
	END {
		n = split(order, mods, "\n")
		for (i = 1; i <= n; i++) {
			m = mods[i]; l = 0
			k = split(deps[m], d, " ")
			for (j = 1; j <= k; j++)
				if (layer[d[j]] + 1 > l) l = layer[d[j]] + 1
			layer[m] = l
			line[l] = line[l] " " m
			if (l > top) top = l
		}
		for (l = 0; l <= top; l++) printf "layer %d:%s\n", l, line[l]
	}' <<<"$edges"
exit $status
