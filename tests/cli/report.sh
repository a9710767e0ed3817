#!/usr/bin/env bash
# --report FILE.json and FILE.html (docs/report.schema.json):
#  1. every test model that compiles (tests/data, samples, default options)
#     writes a JSON report that validates against the schema and is
#     consistent with itself (check_report.py), and an HTML report;
#  2. known figures: the digits MLP (64-32-10) does 64*32 + 32*10 MACs; the
#     e2e cnn's first convolution 16*16*8 outputs of 3*3*3 MACs;
#  3. the text report's stack line is the header's x86-64 NAME_STACK_SIZE,
#     for C and for --emit so (whose code calls every kernel).
# What a browser shows of the HTML page: report_browser.sh.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c "import jsonschema" 2>/dev/null || { echo "skip: needs python3-jsonschema"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }

n=0 compiled=0
for d in "$root"/samples/*/model "$root"/samples/half_plus_two "$root"/tests/data/models/*/ \
         "$root"/tests/data/e2e/*/model "$root"/tests/data/ops/*/model "$root"/tests/data/batch/*/model; do
  [ -f "$d/saved_model.pb" ] || [ -f "$d/saved_model.pbtxt" ] || continue
  n=$((n + 1))
  if "$sm2c" compile "$d" -o "$tmp/out" --name m --report "$tmp/r$n.json" >/dev/null 2>&1; then
    compiled=$((compiled + 1))
    "$sm2c" compile "$d" -o "$tmp/out" --name m --report "$tmp/r$n.html" >/dev/null 2>&1 ||
      { echo "FAIL: ${d#"$root"/}: no HTML report"; fail=$((fail + 1)); }
  else
    rm -f "$tmp/r$n.json"
  fi
  rm -rf "$tmp/out"
done
echo "$n models, $compiled compile"
check "every JSON report validates and is consistent" "$py" "$root/tests/cli/check_report.py" \
  "$root/docs/report.schema.json" "$tmp"/r*.json
check "HTML reports are complete pages" bash -c "for f in '$tmp'/r*.html; do tail -c 20 \"\$f\" | grep -q '</html>' || exit 1; done"

"$sm2c" compile "$root/samples/digits/model" -o "$tmp/d" --name digits --shape pixels=1,64 \
  --report "$tmp/digits.json" >/dev/null 2>&1
check "digits: 2368 MACs" "$py" -c "import json,sys; e=json.load(open(sys.argv[1]))['entries']
sys.exit(0 if all(x['macs'] == 64*32 + 32*10 for x in e) else 1)" "$tmp/digits.json"
"$sm2c" compile "$root/tests/data/e2e/cnn/model" -o "$tmp/c" --name cnn --report "$tmp/cnn.json" >/dev/null 2>&1
check "cnn: the first Conv2D does 16*16*8 * 3*3*3 MACs" "$py" -c "import json,sys
s=[s for s in json.load(open(sys.argv[1]))['entries'][0]['steps'] if s['op'] == 'Conv2D' and s['macs']]
sys.exit(0 if s[0]['macs'] == 16*16*8*3*3*3 and s[0]['output_shape'] == [1,16,16,8] else 1)" "$tmp/cnn.json"

"$sm2c" compile "$root/tests/data/e2e/cnn/model" -o "$tmp/c" --name cnn --report "$tmp/cnn.txt" >/dev/null 2>&1
stack=$(sed -n '/#else/,/#endif/s/^#define CNN_STACK_SIZE \([0-9]*\)$/\1/p' "$tmp/c/cnn.h")
check "cnn: the text report's stack is the header's x86-64 figure ($stack)" \
  grep -q "^stack $stack bytes (x86-64)$" "$tmp/cnn.txt"
check "cnn: each footprint line names that stack and its target" bash -c \
  "[ \$(grep -c 'stack $stack); code for Cortex-M4F -Os, stack for x86-64\$' '$tmp/cnn.txt') = 2 ]"
# --emit so: the header's figure for code that calls every kernel (no shape-specialised layers).
"$sm2c" compile "$root/tests/data/e2e/cnn/model" -o "$tmp/so" --name cnn --emit so --report "$tmp/so.txt" >/dev/null 2>&1
stack=$(sed -n '/#else/,/#endif/s/^#define CNN_STACK_SIZE \([0-9]*\)$/\1/p' "$tmp/so/cnn.h")
check "cnn --emit so: the text report's stack is that header's ($stack)" grep -q "^stack $stack bytes (x86-64)$" "$tmp/so.txt"
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
