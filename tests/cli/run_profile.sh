#!/usr/bin/env bash
# sm2c run --profile (run_hooks.h, report_profile.c):
#  1. prints per step its median time over --repeat N calls, share of the
#     total and GFLOP/s (from the report's multiply-accumulates: "-" without),
#     in program order, the shares summing to 100%, and gives the outputs a run
#     without --profile gives;
#  2. --report FILE (text) holds the same table, FILE.json each step's
#     time_us and the entry's (report format 2), and FILE.html shows them;
#  3. with --max-batch the header says how many rows each call ran (a step's
#     time sums them, its GFLOP/s counts them);
#  4. --profile with --emit so is refused (exit 2, one line).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c "import numpy" 2>/dev/null || { echo "skip: needs python3-numpy"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi; }
cnn=$root/tests/data/e2e/cnn/model
in=$root/tests/data/layers/cnn/input.image.npy
run() { "$sm2c" run "$cnn" --signature serving_default --input image="$in" -q "$@"; }

run --outdir "$tmp/plain" || { echo "FAIL: run"; exit 1; }
run --outdir "$tmp/prof" --profile --repeat 5 --report "$tmp/r.txt" >"$tmp/stdout"; rc=$?
cat "$tmp/stdout"
check "run --profile exits 0" test $rc = 0
check "the outputs are those of a run without --profile" cmp -s "$tmp/plain/output_0.npy" "$tmp/prof/output_0.npy"
check "the table: 6 steps in order, shares summing to 100%, GFLOP/s where there are MACs" "$py" - "$tmp/stdout" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert re.match(r"profile serving_default: 6 steps, median of 5 calls each, total [0-9.]+ us, [0-9.]+ GFLOP/s$",
                lines[0]), lines[0]
assert lines[1].split() == ["step", "time_us", "share", "GFLOP/s", "kernel", "node"], lines[1]
rows = [l.split() for l in lines[2:]]
assert [int(r[0]) for r in rows] == list(range(6)), rows
assert abs(sum(float(r[2].rstrip("%")) for r in rows) - 100.0) < 0.5
kernels = [r[4] for r in rows]
assert kernels[1] == "sm2c_rt_conv2d_f32" and kernels[5] == "sm2c_rt_softmax_f32", kernels
gflops = [r[3] for r in rows]
assert gflops[0] == "-" and gflops[5] == "-" and float(gflops[1]) > 0 and float(gflops[4]) > 0, gflops
assert rows[1][5] == "sequential_1_1/re_lu_1/Relu", rows[1]
PY
check "--report FILE holds the same table" bash -c "grep -q '^profile serving_default: 6 steps, median of 5 calls' '$tmp/r.txt' && \
  [ \$(grep -c 'sm2c_rt_conv2d_f32 ' '$tmp/r.txt') = 2 ]"

run --outdir "$tmp/j" --profile --repeat 3 --report "$tmp/r.json" >/dev/null
check "--report FILE.json: time_us per step and for the entry" "$py" - "$tmp/r.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["entries"][0]
t = [s["time_us"] for s in e["steps"]]
assert len(t) == 6 and all(x >= 0 for x in t) and sum(t) > 0, t
assert abs(e["time_us"] - sum(t)) < 1e-3 * sum(t), (e["time_us"], sum(t))
PY
if "$py" -c "import jsonschema" 2>/dev/null; then
  check "the JSON report validates against the schema" "$py" "$root/tests/cli/check_report.py" \
    "$root/docs/report.schema.json" "$tmp/r.json"
fi
"$sm2c" run "$cnn" --signature serving_default --input image="$in" --outdir "$tmp/noprof" -q --report "$tmp/np.json"
check "without --profile the JSON report has no times" bash -c "! grep -q time_us '$tmp/np.json'"
run --outdir "$tmp/h" --profile --report "$tmp/r.html" >/dev/null
check "--report FILE.html shows the measured time (summary and step table)" bash -c "tail -c 20 '$tmp/r.html' | \
  grep -q '</html>' && grep -q 'data-k=\"time\"' '$tmp/r.html' && grep -q '<th title=\"measured per call\">time</th>' '$tmp/r.html'"

mlp=$root/tests/data/batch/keras_mlp
"$sm2c" run "$mlp/model" --signature serving_default --input x="$mlp/inputs/serving_default/b3/x.npy" \
  --outdir "$tmp/b" --max-batch 8 --profile --repeat 3 -q >"$tmp/batch.txt"
head -1 "$tmp/batch.txt"
check "--max-batch: the profile is of the call's 3 rows" \
  grep -q '^profile serving_default: 5 steps, median of 3 calls each of 3 rows (the times are their sums)' "$tmp/batch.txt"

msg=$(run --outdir "$tmp/so" --profile --emit so 2>&1); rc=$?
echo "  --emit so: exit $rc: $msg"
check "--profile with --emit so is refused (exit 2, one line)" \
  bash -c "[ $rc = 2 ] && [ \$(printf '%s\n' \"\$1\" | wc -l) = 1 ] && printf '%s' \"\$1\" | grep -q 'error: --profile needs'" _ "$msg"
exit $fail
