#!/usr/bin/env bash
# A1 Fresh machine: the README's two commands, from a fresh clone, on a clean Debian bookworm
# root made with debootstrap (minbase: nothing of ours installed). Takes 15-25 minutes and
# needs root and Debian's mirror, so it is run by hand, not by CTest:
#
#   sudo tests/a1_fresh_machine/run.sh [WORKDIR]
#
# It prints the two commands' last lines and exits non-zero when either fails.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-/tmp/twinblocks-a1}"
root="$work/root"
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap
if [ ! -f "$work/bookworm-minbase.tar" ]; then
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log"
  tar -C "$root" -cf "$work/bookworm-minbase.tar" .
fi
# A new root every time, from the pristine tarball.
rm -rf "$root" && mkdir -p "$root"
tar -C "$root" -xf "$work/bookworm-minbase.tar"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# A fresh clone of the committed tree (what a new user gets).
git clone -q "$repo" "$root/home/twinblocks"
mount -t proc proc "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
run() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root bash -c "$1"; }
echo "== demo: scripts/demo.sh"
run "cd /home/twinblocks && scripts/demo.sh" | tail -5
echo "== tests: scripts/test.sh"
run "cd /home/twinblocks && scripts/test.sh" 2>&1 | tail -8
