#!/usr/bin/env bash
# `sm2c run` runs exactly the program `sm2c compile` emits with the same flags
# (issue 28: run once lowered without --opt's size level and the Cortex-M
# target, so `run --opt Os` ran the hoisted loop and the padded copy).  For
# each model and flag set, every file compile writes is byte-identical in
# run's kept build directory (but the header's "Command:" line), run's
# outputs match TensorFlow's, and the flags change the program where they
# should: --opt Os drops the LSTM's hoisted input projection (a smaller
# arena) and the first convolution's padded copy (fewer steps), and a
# Cortex-M target lays int8 Conv2D filters out for conv2d_ohwi_s8.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
m4="--opt Os --target thumbv7em-none-eabihf --cpu cortex-m4"

# agree NAME CASE_DIR INPUT_KEY INPUT FLAGS...: compile and run with FLAGS;
# leaves compile's output in $tmp/NAME.c and run's outputs in $tmp/NAME.out.
agree() {
  local name=$1 case=$2 key=$3 input=$4; shift 4
  if ! "$sm2c" compile "$case/model" -o "$tmp/$name.c" --name model --signature serving_default "$@" \
       2>"$tmp/log"; then
    cat "$tmp/log"; no "$name: compile"; return
  fi
  if ! "$sm2c" run "$case/model" --signature serving_default --input "$key=$input" \
       --outdir "$tmp/$name.out" --keep "$@" 2>"$tmp/log"; then
    cat "$tmp/log"; no "$name: run"; return
  fi
  local dir
  dir=$(sed -n 's/: note: build directory kept$//p' "$tmp/log")
  [ -d "$dir" ] || { no "$name: no kept build directory in: $(cat "$tmp/log")"; return; }
  local f same=1
  for f in "$tmp/$name.c"/*; do
    f=$(basename "$f")
    if ! cmp -s <(grep -v '^ \* Command:' "$tmp/$name.c/$f") <(grep -v '^ \* Command:' "$dir/$f" 2>/dev/null); then
      no "$name: run built another $f than compile wrote"; same=0
    fi
  done
  rm -rf "$dir"
  [ $same = 1 ] && pass=$((pass + 1))
}

# matches NAME CASE_DIR OUTPUT: run's output against TensorFlow's, within the case's tolerance.
matches() {
  if python3 - "$tmp/$1.out/$3.npy" "$2/expected/serving_default/$3.npy" "$2/case.json" "$root/tests/e2e" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[4])
from check_e2e import compare, load_npy
got, want = load_npy(sys.argv[1]), load_npy(sys.argv[2])
tol = json.load(open(sys.argv[3])).get("tolerance", {"rtol": 1e-4, "atol": 1e-4})
ok = got[0] == want[0] and compare(want[2], got[2], want[1], tol["rtol"], tol["atol"])[0]
sys.exit(0 if ok else 1)
PY
  then pass=$((pass + 1)); else no "$1: outputs differ from TensorFlow's"; fi
}

# differ A B WHAT: compile's programs for two flag sets differ (the flag matters).
differ() {
  if cmp -s "$tmp/$1.c/model.c" "$tmp/$2.c/model.c"; then no "$1 and $2: $3"; else pass=$((pass + 1)); fi
}

lstm=$root/tests/data/ops/Control_rnn_LSTM_keras3
cnn=$root/tests/data/e2e/cnn
for v in "o2:" "os:--opt Os" "m4:$m4"; do
  # shellcheck disable=SC2086
  agree "lstm_${v%%:*}" "$lstm" x "$lstm/inputs/serving_default/x.npy" --shape x=2,5,3 ${v#*:}
  matches "lstm_${v%%:*}" "$lstm" output_0
  # shellcheck disable=SC2086
  agree "cnn_${v%%:*}" "$cnn" image "$cnn/inputs/serving_default/image.npy" --shape image=2,16,16,3 ${v#*:}
  matches "cnn_${v%%:*}" "$cnn" output_0
done
differ lstm_o2 lstm_os "--opt Os keeps the hoisted input projection"
differ cnn_o2 cnn_os "--opt Os keeps the padded copy"
# the padded copy is one step, sm2c_rt_pad_copy_f32
if grep -q "sm2c_rt_pad_copy_f32" "$tmp/cnn_o2.c/model.c" && ! grep -q "sm2c_rt_pad_copy_f32" "$tmp/cnn_os.c/model.c"; then
  pass=$((pass + 1))
else no "cnn: the padded copy is not made at O2 and left out at Os"; fi

# int8 on a Cortex-M target: the SMLAD filter layout, in run too.
q8=$root/tests/data/q8/cnn
# shellcheck disable=SC2086
agree q8_m4 "$q8" image "$q8/heldout.npy" --shape image=16,8,8,3 --quantize int8 --calibration "image=$q8/calib.npy" $m4
if grep -q "sm2c_rt_conv2d_ohwi_s8" "$tmp/q8_m4.c/model.c"; then pass=$((pass + 1))
else no "q8_m4: no conv2d_ohwi_s8 for the Cortex-M target"; fi

# run refuses to build an object for another machine, naming the target.
if "$sm2c" run "$cnn/model" --signature serving_default --input "image=$cnn/inputs/serving_default/image.npy" \
     --outdir "$tmp/x" --emit obj $m4 2>"$tmp/log"; then no "run --emit obj for a Cortex-M target ran"
elif [ "$(wc -l <"$tmp/log")" -eq 1 ] && grep -q "not for --target thumbv7em-none-eabihf" "$tmp/log"; then
  pass=$((pass + 1))
else no "run --emit obj for a Cortex-M target: $(cat "$tmp/log")"; fi

echo "$pass passed, $fail failed"
exit $((fail > 0))
