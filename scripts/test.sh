#!/usr/bin/env bash
# Set up, build and run every test twice: a normal build and one under
# AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"

run() {
  local dir=$1; shift
  BUILD_DIR="$root/$dir" BUILD_TYPE=Debug "$root/scripts/build.sh" "$@"
  (cd "$root/$dir" && ctest --output-on-failure -j"$(nproc)")
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run build-test
run build-asan -DSM2C_SANITIZE=ON
