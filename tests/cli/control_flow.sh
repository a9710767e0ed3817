#!/usr/bin/env bash
# Control flow that sm2c refuses or stops at run time, with clear errors:
# TensorLists without a static bound and loop-carried values whose shape
# changes are compile errors (exit 3) naming the loop and node; a loop that
# runs past its iteration cap (--limit loop-iterations) makes the entry point
# return SM2C_RT_ERR_ITERATIONS (-4) through the C and the LLVM backends,
# instead of hanging (docs/reliability.md U5).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad="$root/tests/data/bad" ops="$root/tests/data/ops"
fail=0 pass=0
check() {   # name, want exit code, want text, command...
  local name=$1 code=$2 text=$3
  shift 3
  out=$("$@" 2>&1)
  rc=$?
  if [ $rc -eq "$code" ] && grep -qF -- "$text" <<<"$out" && [ "$(grep -c 'error:' <<<"$out")" -le 1 ]; then
    pass=$((pass + 1))
  else
    echo "$name: want exit $code and '$text', got exit $rc: $out"
    fail=$((fail + 1))
  fi
}
check unbounded_list 3 "'while/TensorArrayV2Write/TensorListSetItem' (TensorListSetItem) adds to it in While 'while', whose trip count is not static" \
  "$sm2c" compile "$bad/control_unbounded_list" -o "$tmp/o1"
check pushback_loop 3 "the TensorList length is not bounded" \
  "$sm2c" compile "$bad/control_pushback_loop" -o "$tmp/o2"
check shape_change 3 "'while' (StatelessWhile): error: loop-carried value 2 ('serving_default_x:0') enters the loop as float32 [2] but the body returns float32 [4]" \
  "$sm2c" compile "$bad/control_shape_change" -o "$tmp/o3"
for d in o1 o2 o3; do
  [ ! -e "$tmp/$d" ] || { echo "$d: output left behind after an error"; fail=$((fail + 1)); }
done
# Collatz(27) takes 111 steps: a cap of 100 stops it, a cap of 111 does not.
for emit in c obj; do
  check "cap_$emit" 1 "entry returned -4" \
    "$sm2c" run "$ops/Control_next_collatz/model" --signature n27 --limit loop-iterations=100 --emit $emit \
      --input n="$ops/Control_next_collatz/inputs/n27/n.npy" --outdir "$tmp/cap_$emit"
  check "nocap_$emit" 0 "" \
    "$sm2c" run "$ops/Control_next_collatz/model" --signature n27 --limit loop-iterations=111 --emit $emit \
      --input n="$ops/Control_next_collatz/inputs/n27/n.npy" --outdir "$tmp/nocap_$emit"
done
# Constants divided by zero in a branch: compiled as a run-time step, which
# returns -2 only when the branch runs (TF raises only then too).
python3 - "$tmp" <<'PY'
import struct, sys
for v in (3, 200):
    header = "{'descr': '<i4', 'fortran_order': False, 'shape': (), }"
    header += " " * (63 - len(header) % 64) + "\n"
    with open("%s/k%d.npy" % (sys.argv[1], v), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack("<i", v))
PY
for emit in c obj; do
  check "div_zero_untaken_$emit" 0 "" "$sm2c" run "$bad/control_branch_div_zero" --signature serving_default \
    --emit $emit --input k="$tmp/k3.npy" --outdir "$tmp/dz3_$emit"
  got=$(python3 -c "import struct,sys; print(struct.unpack('<i', open(sys.argv[1], 'rb').read()[-4:])[0])" \
        "$tmp/dz3_$emit/y.npy" 2>&1)
  [ "$got" = 6 ] || { echo "div_zero_untaken_$emit: y = $got, want 6"; fail=$((fail + 1)); }
  check "div_zero_taken_$emit" 1 "entry returned -2" "$sm2c" run "$bad/control_branch_div_zero" \
    --signature serving_default --emit $emit --input k="$tmp/k200.npy" --outdir "$tmp/dz200_$emit"
done
# A tf_keras LSTM whose graph calls the CuDNN implementation (as when saved on
# a GPU machine, where Grappler swaps api_implements twins) compiles the CPU
# twin: the case's own TensorFlow outputs still hold.  The names are those of
# tests/data/ops/Control_rnn_LSTM_tfkeras (gen_control.py).
gpu="$tmp/gpu/Control_rnn_LSTM_tfkeras_gpu_call"
mkdir -p "$tmp/gpu" && cp -r "$ops/Control_rnn_LSTM_tfkeras" "$gpu"
if python3 "$root/tests/e2e/rename_call.py" "$ops/Control_rnn_LSTM_tfkeras/model/saved_model.pb" \
     "$gpu/model/saved_model.pb" __inference_standard_lstm_6345 __inference_gpu_lstm_with_fallback_6450; then
  for emit in c obj; do
    check "gpu_call_$emit" 0 "1 passed, 0 failed" python3 "$root/tests/e2e/check_e2e.py" -j "$(nproc)" --emit $emit "$sm2c" "$tmp/gpu"
  done
else
  echo "gpu_call: could not rewire the model"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
