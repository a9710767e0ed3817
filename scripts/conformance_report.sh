#!/usr/bin/env bash
# Regenerates tests/conformance/REPORT.md: builds sm2c, runs every conformance
# case in tests/data/ops against its committed TensorFlow reference, and writes
# a row per case (status, max abs error, max ULP).  No TensorFlow needed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" >/dev/null
export CC="${CC:-cc -Wall -Wextra -pedantic -Werror}"
python3 "$root/tests/e2e/check_e2e.py" -j "$(nproc)" --report "$root/tests/conformance/REPORT.md" \
    --families "$root/compiler/ops/ops.def" \
    "$root/build/sm2c" "$root/tests/data/ops" | tail -1
echo "wrote tests/conformance/REPORT.md"
