#!/usr/bin/env bash
# Install what sm2c needs from Debian, if it is missing.  Idempotent; runs as
# root (or with sudo available) on Debian 12.
set -euo pipefail

packages=(build-essential cmake pkg-config python3
          libprotobuf-c-dev protobuf-c-compiler libsnappy-dev libcmocka-dev llvm-dev clang libclang-rt-14-dev
          binutils-arm-none-eabi gcc-arm-none-eabi libnewlib-arm-none-eabi
          gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
          # tests: the Cortex-M4F firmware under QEMU, the runtime's NEON paths
          # under qemu-aarch64 (rt_neon), the Python package (python/),
          # --report's schema and its screenshot
          qemu-system-arm python3-numpy python3-pytest python3-jsonschema chromium fonts-dejavu-core)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
