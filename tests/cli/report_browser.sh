#!/usr/bin/env bash
# --report FILE.html in a real browser (headless Chromium): the page opened
# as FILE.html#selfcheck runs its check and writes what the browser shows into
# the page; report_selfcheck.py compares that with the generated header and
# the JSON report.  For a small model (tests/data/e2e/cnn) at two window widths,
# and for the TFX taxi model (4 entries x 358 steps, ../shared/models; skipped
# when absent):
#  1. the summary shows the header's NAME_ARENA_SIZE and NAME_STACK_SIZE (the
#     x86-64 figure on this host; the Cortex-M4F one for --target thumbv7em),
#     the JSON report's weights, state, MACs, inputs and outputs, on screen;
#  2. no element's content overflows it (scrollWidth > clientWidth), the page
#     does not scroll sideways; every shown buffer label lies in its rectangle
#     and every buffer has a legend row; the contents' links have targets;
#     zoom widens the plan; fused ops are shown (cnn), long names cut (taxi),
#     a time bar per measured step and the total in a profiled run's page
#     (tests/unit/test_report.c writes one; skipped when it is not built);
#  3. the check can fail: a page whose cells may not wrap overflows, and a
#     page whose plan is hidden does not pass png_plan.py's screenshot test,
#     which the real page passes (coloured buffers and the red peak marker).
# Skips (77) without chromium.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "skip: no chromium (scripts/setup.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }
chrome() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$tmp/profile" "$@" 2>/dev/null; }
selfcheck() { # NAME WIDTH PAGE JSON HEADER FLAGS...: render PAGE#selfcheck, check its findings
  local name=$1 width=$2 page=$3 json=$4 header=$5; shift 5
  chrome --window-size="$width,1000" --dump-dom "file://$page#selfcheck" >"$tmp/$name.dom"
  check "$name: what the browser shows" python3 "$root/tests/cli/report_selfcheck.py" "$tmp/$name.dom" \
    "$json" "$header" "$@"
}
compile() { # NAME MODEL FLAGS...: out dir, HTML and JSON reports
  local name=$1 model=$2; shift 2
  "$sm2c" compile "$model" -o "$tmp/$name" --name "$name" --report "$tmp/$name.html" "$@" >/dev/null 2>&1 &&
    "$sm2c" compile "$model" -o "$tmp/$name" --name "$name" --report "$tmp/$name.json" "$@" >/dev/null 2>&1
}

check "cnn: compiles with reports" compile cnn "$root/tests/data/e2e/cnn/model"
selfcheck cnn-wide 1280 "$tmp/cnn.html" "$tmp/cnn.json" "$tmp/cnn/cnn.h" --expect-fused
selfcheck cnn-narrow 800 "$tmp/cnn.html" "$tmp/cnn.json" "$tmp/cnn/cnn.h" --expect-fused
check "mlp for Cortex-M4F: compiles with reports" compile m4 "$root/tests/data/e2e/mlp/model" \
  --target thumbv7em-none-eabihf
selfcheck m4 1280 "$tmp/m4.html" "$tmp/m4.json" "$tmp/m4/m4.h"
check "mlp for Cortex-M4F: the JSON names the Cortex-M4F figure" grep -q '"stack_target": *"Cortex-M4F"' "$tmp/m4.json"

# The check can fail: cells that may not wrap, with a long name, overflow.
sed 's|</style>|table.steps{table-layout:auto;width:auto}td{white-space:nowrap;overflow-wrap:normal}</style>|; s|<span class="nm">serving_default</span>|<span class="nm">'"$(printf 'x%.0s' {1..300})"'</span>|' \
  "$tmp/cnn.html" >"$tmp/bad.html"
chrome --window-size=800,1000 --dump-dom "file://$tmp/bad.html#selfcheck" >"$tmp/bad.dom"
check "a page whose cells overflow fails the check" bash -c \
  "! python3 '$root/tests/cli/report_selfcheck.py' '$tmp/bad.dom' '$tmp/cnn.json' '$tmp/cnn/cnn.h' >'$tmp/bad.out' &&
   grep -q 'elements overflow' '$tmp/bad.out'"

# The screenshot shows the plan; the same page with the plan hidden does not pass.
sed 's|</style>|.plan{display:none}</style>|' "$tmp/cnn.html" >"$tmp/noplan.html"
for page in cnn noplan; do
  chrome --window-size=1200,1400 --screenshot="$tmp/$page.png" "file://$tmp/$page.html" >/dev/null
done
check "the screenshot shows the memory plan" python3 "$root/tests/cli/png_plan.py" "$tmp/cnn.png"
check "a page without the plan does not pass for one" bash -c "! python3 '$root/tests/cli/png_plan.py' '$tmp/noplan.png'"

# A profiled run's page (measured per-step times): tests/unit/test_report.c writes one.
unit=$(dirname "$sm2c")/tests/test_report
if [ -x "$unit" ]; then
  check "a profiled page is written" env SM2C_REPORT_PAGE="$tmp/timed.html" "$unit" >/dev/null 2>&1
  selfcheck timed 1280 "$tmp/timed.html" "$tmp/timed.html.json" - --expect-times --expect-fused
  selfcheck timed-narrow 800 "$tmp/timed.html" "$tmp/timed.html.json" - --expect-times --expect-fused
else
  echo "note: no $unit; the profiled page is not checked"
fi

taxi=$root/../shared/models/tfx_estimator_taxi_serving
if [ -f "$taxi/saved_model.pb" ]; then
  check "taxi: compiles with reports" compile taxi "$taxi"
  selfcheck taxi 1280 "$tmp/taxi.html" "$tmp/taxi.json" "$tmp/taxi/taxi.h" --expect-cut --expect-fused
else
  echo "note: no $taxi; the TFX taxi report is not checked"
fi
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
