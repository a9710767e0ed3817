#!/usr/bin/env bash
# Run one libFuzzer target (docs/reliability.md section 8) for SECONDS seconds.
#
#   scripts/fuzz.sh TARGET SECONDS     build build-fuzz/ if needed, fuzz, log to fuzz/LOG.md
#   scripts/fuzz.sh --list             the targets
#
# The working corpus lives outside the repository, in $SM2C_FUZZ_WORK/TARGET
# (default /work/fuzz-work/TARGET): corpus/ (seeded on first use from
# fuzz/corpus/TARGET, the test models, and /work/shared/models when present),
# artifacts/ (crashes, timeouts, OOMs) and tmp/ (scratch directories of the
# targets that need files).  Each run appends one line to fuzz/LOG.md: date,
# target, seconds, executions, cov and ft from libFuzzer's final stats, and
# findings (new artifacts), so that fuzzing time per target can be summed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
targets=$(sed -n '/set(SM2C_FUZZ_TARGETS/,/)/p' "$root/fuzz/CMakeLists.txt" | grep -o 'fuzz_[a-z0-9_]*')

if [ "${1:-}" = --list ]; then
  echo "$targets"
  exit 0
fi
if [ $# -ne 2 ] || ! grep -qx "$1" <<<"$targets"; then
  echo "usage: $0 TARGET SECONDS | --list" >&2
  exit 2
fi
target=$1 seconds=$2
build=${SM2C_FUZZ_BUILD:-$root/build-fuzz}
work=${SM2C_FUZZ_WORK:-/work/fuzz-work}/$target

"$root/scripts/setup.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang cmake -S "$root" -B "$build" -DSM2C_FUZZ=ON -DSM2C_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j2 --target "$target" >/dev/null

mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
if [ -z "$(ls -A "$work/corpus")" ]; then
  cp "$root/fuzz/corpus/$target/"* "$work/corpus/" 2>/dev/null || true
  seeds=$(mktemp -d)
  inputs=("$root"/tests/data/models/* "$root"/tests/data/e2e/*/model "$root"/tests/data/bad/*
          "$root"/tests/data/bundles/* "$root"/samples/*/model "$root"/tests/data/pbtext/*.pbtxt
          "$root"/tests/data/npy/*.npy)
  [ -d /work/shared/models ] && for d in /work/shared/models/*/; do inputs+=("$d"); done
  python3 "$root/scripts/fuzz_seeds.py" "$seeds" "${inputs[@]}" >/dev/null
  cp "$seeds/$target/"* "$work/corpus/" 2>/dev/null || true
  rm -rf "$seeds"
fi

before=$(ls "$work/artifacts" | wc -l)
log="$work/last.log"
set +e
TMPDIR="$work/tmp" "$build/fuzz/$target" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 \
  -print_final_stats=1 -max_total_time="$seconds" -artifact_prefix="$work/artifacts/" \
  "$work/corpus" >"$log" 2>&1
rc=$?
set -e
after=$(ls "$work/artifacts" | wc -l)
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o "[0-9]*$" | tail -1 || true)
last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
findings=$((after - before))

logmd="$root/fuzz/LOG.md"
[ -f "$logmd" ] || printf '# Fuzzing log\n\nOne line per `scripts/fuzz.sh` run.\n\n| date | target | seconds | executions | cov | ft | findings |\n|---|---|---|---|---|---|---|\n' >"$logmd"
echo "| $(date -u +%Y-%m-%dT%H:%MZ) | $target | $seconds | ${execs:-?} | ${cov:-?} | ${ft:-?} | $findings |" >>"$logmd"
echo "$target: ${seconds}s, ${execs:-?} executions, cov ${cov:-?}, ft ${ft:-?}, $findings findings (exit $rc; log $log)"
[ "$findings" -eq 0 ] || ls -t "$work/artifacts" | head -n "$findings"
exit $rc
