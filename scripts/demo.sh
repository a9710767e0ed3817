#!/usr/bin/env bash
# Set up, build, and inspect the sample model (the main job until compilation lands).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
log=$(mktemp)
if ! "$root/scripts/build.sh" >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
"$root/build/sm2c" inspect "$root/samples/half_plus_two"
