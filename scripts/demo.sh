#!/usr/bin/env bash
# Set up, build, and inspect the sample model (the main job until compilation lands).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
"$root/build/sm2c" inspect "$root/samples/half_plus_two"
