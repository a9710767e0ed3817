#!/usr/bin/env bash
# Build sm2c's Debian package (cpack -G DEB) and show that it installs on a
# clean Debian 12: debootstrap a minimal bookworm into a temporary chroot (from
# the mirror apt is configured with), install the .deb there with apt (which
# must pull in every dependency it declares), and compile the digits sample
# with the installed sm2c, building the result with the chroot's gcc.
# Needs root and the network; not part of the test suite.
#   scripts/deb_check.sh [BUILD_DIR] [CHROOT_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$root/build}")
chroot_dir=${2:-$(mktemp -d /tmp/sm2c-deb-chroot.XXXXXX)}
mirror=$(grep -rhoE 'https?://[^ ]*debian/?$' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
         head -1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null || { echo "deb_check: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }

(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/sm2c_*.deb | head -1)
echo "deb_check: $deb"
dpkg-deb -f "$deb" Depends Recommends

if [ ! -x "$chroot_dir/usr/bin/apt-get" ]; then
  echo "deb_check: debootstrap bookworm from $mirror into $chroot_dir"
  debootstrap --variant=minbase bookworm "$chroot_dir" "$mirror" >"$chroot_dir.log" 2>&1 ||
    { tail -20 "$chroot_dir.log" >&2; exit 1; }
fi
cp "$deb" "$chroot_dir/tmp/sm2c.deb"
cp -r "$root/samples/digits" "$chroot_dir/tmp/digits"
mount --bind /proc "$chroot_dir/proc"
trap 'umount "$chroot_dir/proc"' EXIT
chroot "$chroot_dir" /bin/sh -ec '
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends /tmp/sm2c.deb >/dev/null
  echo "deb_check: installed: $(dpkg-query -W sm2c)"
  sm2c --version
  sm2c compile /tmp/digits/model -o /tmp/out --name digits --shape pixels=1,64
  ls /tmp/out
  apt-get install -y -qq --no-install-recommends gcc libc6-dev >/dev/null
  cc -std=c99 -O2 -Wall -Wextra -pedantic -Werror -I /tmp/out /tmp/out/*.c /tmp/digits/predict.c -lm \
     -o /tmp/out/predict
  /tmp/out/predict /tmp/digits/images.npy /tmp/digits/labels.npy | tail -1'
echo "deb_check: ok"
