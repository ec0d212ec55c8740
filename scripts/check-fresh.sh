#!/bin/sh
# check-fresh.sh: the README's two commands, `sh scripts/demo.sh` and
# `sh scripts/test.sh`, on a new Debian 12 system: a minbase chroot made by
# debootstrap, holding nothing but what those commands install. CI runs on a
# machine that already has every package (and more: libc6-dbg, valgrind), so
# a package missing from install-deps.sh passes there; here it fails.
#
# usage (as root, by hand: it needs Debian's mirror and about 25 minutes on
# 2 CPUs): sh scripts/check-fresh.sh
#
# It checks the committed HEAD of this checkout (a clone of it), not the
# uncommitted changes. The chroot lives in a new directory under
# ${TMPDIR:-/var/tmp}, removed at the end; its logs are printed on failure.
set -eu

[ "$(id -u)" -eq 0 ] || { echo "check-fresh.sh: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
command -v debootstrap >/dev/null || {
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

root=$(mktemp -d "${TMPDIR:-/var/tmp}/gittrace-fresh.XXXXXX")
# It becomes /: mktemp's mode 0700 would keep out every user but root, and
# tests run programs as another user.
chmod 755 "$root"
mounted=""
cleanup() {
	for m in $mounted; do # the last mounted first
		umount "$root/$m" 2>/dev/null || umount -l "$root/$m"
	done
	# Never remove through a mount still there (the bind of /dev above all).
	if grep -q " $root/" /proc/mounts; then
		echo "check-fresh.sh: mounts left under $root; not removing it" >&2
	else
		rm -rf --one-file-system "$root"
	fi
	rm -f "$root.debootstrap.log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "check-fresh.sh: a minbase Debian 12 in $root"
debootstrap --variant=minbase bookworm "$root" >"$root.debootstrap.log" 2>&1 || {
	tail -20 "$root.debootstrap.log" >&2
	exit 1
}

# What a booted machine has: /proc, /sys, devices, a writable /dev/shm, DNS.
mount_in() { # mount_in DIR MOUNT-ARGS...: mounts onto $root/DIR
	dir=$1
	shift
	mount "$@" "$root/$dir"
	mounted="$dir $mounted"
}
mount_in proc -t proc proc
mount_in sys -t sysfs sys
mount_in dev --bind /dev
mount_in dev/pts --bind /dev/pts
mount_in dev/shm -t tmpfs tmpfs
cp /etc/resolv.conf "$root/etc/resolv.conf"

git clone -q "$repo" "$root/root/gittrace"
echo "check-fresh.sh: checking $(git -C "$root/root/gittrace" log -1 --format='%h %s')"

# in_chroot LOG COMMAND: runs COMMAND in the clone, in a login environment
# of root's and nothing of this one's (no LANG, no CI variables).
in_chroot() {
	chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/sh \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c "cd /root/gittrace && $2" </dev/null >"$root/$1" 2>&1
}

failed=0
for cmd in "sh scripts/demo.sh" "sh scripts/test.sh"; do
	log=root/$(echo "$cmd" | sed 's/.*\///; s/\.sh$//').log
	echo "check-fresh.sh: $cmd ..."
	status=0
	in_chroot "$log" "$cmd" || status=$?
	echo "check-fresh.sh: $cmd: exit $status"
	grep 'tests passed' "$root/$log" || true # test.sh's two ctest runs: plain, sanitized
	if [ "$status" -ne 0 ]; then
		failed=1
		grep -E '\*\*\*|FAIL|tests passed|rror' "$root/$log" | tail -40 >&2 || true
		tail -20 "$root/$log" >&2
	fi
done
[ "$failed" -eq 0 ] && echo "check-fresh.sh: both commands passed on a new Debian 12"
exit "$failed"
