#!/usr/bin/env bash
# The --quantize modes besides int8 (issue 34) (tests/cli/quantize.sh), each against
# TFLite's converter in the same mode on the cases of tests/data/q8
# (tests/models/gen_q8.py: tflite_<mode>.npy, TFLite's reference kernels):
#  1. float16 (TFLite's float16 quantization: every float constant rounded to
#     binary16, float32 compute): cnn, head and resid through the C and LLVM
#     backends, which agree bit for bit, within 1e-5 of TFLite's outputs and at
#     most a tenth as far from them as TensorFlow's float outputs are (so the
#     weights were rounded as TFLite rounds them); weights at most 0.6x the
#     float build's, the large ones stored as binary16 and widened before use,
#     small ones (under 256 elements) kept float32 with rounded values.
#  2. dynamic (TFLite's dynamic-range quantization: int8 weights for filters of
#     1024 or more, inputs quantized per call by the hybrid kernels): dyn
#     (Conv2D, 1x1 Conv2D, depthwise of multiplier 1 and 2, Dense), cnn,
#     resid and ties (weights on half steps of their scales) through both backends, within 1e-6 of TFLite's outputs (reference
#     kernels; only its float layers' summation order differs) and a tenth of
#     TF float's distance from them; every hybrid kernel taken, the small Dense
#     left float; weights at most 0.35x float's; the packed layouts for VNNI
#     (the FullyConnected, the 1x1 Conv2D) give the bits of the row-major and
#     generic forms --opt Os takes.
#  3. --quantize-skip: int8 cnn with its depthwise and first Dense left float
#     (by a pattern, and by the name of the Relu6 fused into the Dense) against
#     TFLite's quantization debugger with those nodes denylisted, through both
#     backends, within 1e-6 (TF float is 9e-3 away); dynamic dyn with its Dense
#     left float; a pattern that names no node is an error.
#  4. int16x8 (TFLite's 16x8: int16 activations calibrated on calib.npy, int8
#     weights, int64 biases): cnn, resid and s16 (non-zero biases,
#     batch norm, depthwise multiplier 2, Mean, Softmax) through both backends,
#     within one output quantum of TFLite's reference kernels (the calibrated
#     ranges come from sm2c's float kernels, TFLite's from its own: a scale may
#     differ in its last bits, and a value then by one quantum; with equal
#     scales every layer gives TFLite's integers) and a tenth of TF float's
#     distance; every contraction, the Add, Mean and Softmax on int16 kernels.
#  5. bad combinations: one line, non-zero exit, nothing written.
#  6. --weights-bits 4 (int4 weights, ai-edge-quantizer's scheme) against
#     tflite_int4.npy (TFLite's full-integer model with INT4 Conv2D, depthwise
#     and FC filters) and tflite_dynamic_int4.npy (dynamic range, INT4 Conv2D
#     and FC filters), gen_q8.py's int4 modes, reference kernels: cnn, dyn and
#     resid through both backends.  int8 at the default opt (and cnn at --opt Os):
#     TFLite's int8 outputs exactly (the float outputs within 1e-6, the
#     Dequantize's last bit).  (The default opt once lowered an int8 MatMul
#     to the packed Conv2D's 1x1 kernel, which rounds twice as TFLite's
#     convolutions do where its FullyConnected rounds once: int4's larger
#     multipliers made that 7, 10 and 5 of 160 outputs one quantum off.)
#     Dynamic within 1e-6 as section 2.  Weights at most 0.15x float's in int8
#     mode (the int4 filters are 1/8 of float's; per-channel biases,
#     multipliers and shifts make the rest) and 0.2x in dynamic mode (small
#     layers, the depthwise and float biases stay); the large Dense stored
#     packed and widened before use.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
tmp=$(mktemp -d)
trap "rm -rf $tmp" EXIT; [ -n "${KEEP:-}" ] && trap - EXIT
fail=0 pass=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
q8="$root/tests/data/q8"

# run_mode MODE TOL CASE [flags]: the case's held-out inputs through both
# backends in MODE, checked by qmode_check.py.
# (REF=NAME: against tflite_NAME.npy instead of tflite_MODE.npy.)  Under the
# sanitizers (scripts/test.sh's second run) the C backend alone: the LLVM
# object is not sanitized, and the plain run compares the two backends.
emits="c obj"
case "$CC" in *-fsanitize=*) emits=c ;; esac
run_mode() {
  local mode=$1 tol=$2 case=$3 emit ref=${REF:-$1} outs=()
  shift 3
  for emit in $emits; do
    if "$sm2c" run "$q8/$case/model" --signature serving_default --input image="$q8/$case/heldout.npy" \
         --outdir "$tmp/${ref}_${case}_$emit" --quantize "$mode" --emit $emit "$@" 2>"$tmp/log"; then ok
    else cat "$tmp/log"; no "$case: run --quantize $mode --emit $emit"; fi
    outs+=("$tmp/${ref}_${case}_$emit/output_0.npy")
  done
  if python3 "$root/tests/cli/qmode_check.py" "$q8/$case" "$ref" "$tol" "${outs[@]}"; then ok
  else no "$case --quantize $mode outputs against tflite_$ref"; fi
}

# weights_at_most MODE CASE PERCENT: compiles CASE as float and in MODE (into
# $tmp/MODE_CASE) and checks MODE's weight bytes against PERCENT of float's.
# Flags after PERCENT go to MODE's compile; TAG=NAME: into $tmp/NAME_CASE.
weights_at_most() {
  local mode=$1 case=$2 pct=$3 wf wm tag=${TAG:-$1}
  shift 3
  "$sm2c" compile "$q8/$case/model" -o "$tmp/f32_$case" --signature serving_default 2>"$tmp/f32.log"
  "$sm2c" compile "$q8/$case/model" -o "$tmp/${tag}_$case" --signature serving_default --quantize "$mode" \
    "$@" 2>"$tmp/$mode.log"
  wf=$(sed -n 's/.*weights \([0-9]*\) bytes.*/\1/p' "$tmp/f32.log")
  wm=$(sed -n 's/.*weights \([0-9]*\) bytes.*/\1/p' "$tmp/$mode.log")
  echo "weights: float $wf bytes, $mode $wm bytes"
  if [ -n "$wf" ] && [ -n "$wm" ] && [ $((wm * 100)) -le $((wf * pct)) ]; then ok
  else no "$case weights: float $wf, $mode $wm (at most $pct%)"; fi
}

# 1. float16
for c in cnn head resid; do
  run_mode float16 1e-5 "$c"
done
weights_at_most float16 cnn 60
# The Dense of 6400 weights is binary16, widened before its step; no step reads it as float32.
if grep -q "^static SM2C_ALIGN const uint16_t [a-z_0-9]*\[6400\]" "$tmp/float16_cnn/model.c" &&
   grep -q "sm2c_rt_widen_f16_f32(" "$tmp/float16_cnn/model.c" && ! grep -q "\[6400\]" <(grep "float" "$tmp/float16_cnn/model.c"); then ok
else grep -n "6400\|widen" "$tmp/float16_cnn/model.c" | head; no "float16: the large weight is not stored as binary16"; fi

# 2. dynamic
for c in dyn cnn resid; do
  run_mode dynamic 1e-6 "$c"
done
run_mode dynamic 2e-6 ties   # weights on half steps: the converter's double rounding
weights_at_most dynamic dyn 35
m="$tmp/dynamic_dyn/model.c"   # each call twice: the static entry point and the context one
if [ "$(grep -c "sm2c_rt_conv2d_hybrid(" "$m")" -eq 2 ] && [ "$(grep -c "sm2c_rt_conv2d_1x1_hybrid_packed(" "$m")" -eq 2 ] && [ "$(grep -c "sm2c_rt_depthwise_conv2d_hybrid(" "$m")" -eq 4 ] &&
   [ "$(grep -c "sm2c_rt_fully_connected_hybrid_packed(" "$m")" -eq 2 ] && [ "$(grep -c "sm2c_rt_quantize_rows_s8(" "$m")" -eq 10 ] &&
   [ "$(grep -c "sm2c_rt_matvec_f32(" "$m")" -eq 2 ]; then ok
else grep -o "sm2c_rt_[a-z0-9_]*(" "$m" | sort | uniq -c; no "dynamic: not the contractions TFLite makes hybrid"; fi

# The row-major FullyConnected and generic 1x1 Conv2D (--opt Os, a Cortex-M)
# give the packed forms' bits.
if "$sm2c" run "$q8/dyn/model" --signature serving_default --input image="$q8/dyn/heldout.npy" \
     --outdir "$tmp/dyn_os" --quantize dynamic --opt Os 2>"$tmp/log" &&
   cmp -s "$tmp/dyn_os/output_0.npy" "$tmp/dynamic_dyn_c/output_0.npy"; then ok
else cat "$tmp/log"; no "dynamic: --opt Os (row-major and generic forms) differs from the packed forms"; fi

# 3. --quantize-skip
REF=int8_skip run_mode int8 1e-6 cnn --calibration image="$q8/cnn/calib.npy" --quantize-skip 'functional_1/dw_1/*' \
  --quantize-skip functional_1/fc1_1/Relu6
"$sm2c" compile "$q8/dyn/model" -o "$tmp/dskip" --signature serving_default --quantize dynamic \
  --quantize-skip 'functional_1/fc_1/*' 2>/dev/null
if ! grep -q "fully_connected_hybrid" "$tmp/dskip/model.c" && grep -q "sm2c_rt_conv2d_hybrid(" "$tmp/dskip/model.c"; then ok
else no "dynamic --quantize-skip: the Dense is still hybrid"; fi

# 4. int16x8: the tolerance is one quantum of each case's output scale (s16: its
# Softmax's fixed scale, and every output TFLite's)
for ct in cnn:2e-5 resid:1.2e-5 s16:1e-7; do   # (dyn and ties: gen_q8.py writes theirs too)
  run_mode int16x8 "${ct#*:}" "${ct%%:*}" --calibration image="$q8/${ct%%:*}/calib.npy"
done
# The Cortex-M forms (--cpu cortex-m4: conv_ohwi_s16.c's filter rows and its
# C paths, on this machine and under the sanitizers) give TFLite's outputs too
# (quant_modes_m4.sh runs them on the Cortex-M4's own paths).
all_emits=$emits emits=c
run_mode int16x8 1e-7 s16 --calibration image="$q8/s16/calib.npy" --cpu cortex-m4
emits=$all_emits
"$sm2c" compile "$q8/s16/model" -o "$tmp/s16_16x8" --signature serving_default --quantize int16x8 \
  --calibration image="$q8/s16/calib.npy" 2>/dev/null
m="$tmp/s16_16x8/model.c"
if [ -f "$m" ] && grep -q "sm2c_rt_conv2d_s16(" "$m" && grep -q "sm2c_rt_depthwise_conv2d_s16(" "$m" &&
   grep -q "sm2c_rt_fully_connected_s16(" "$m" && grep -q "sm2c_rt_add_s16(" "$m" &&
   grep -q "sm2c_rt_mean_s16(" "$m" && grep -q "sm2c_rt_softmax_s16(" "$m" && ! grep -q "_f32(" <(grep -v "quantize_f32_s16\|dequantize_s16_f32" "$m" | grep "sm2c_rt_"); then ok
else grep -o "sm2c_rt_[a-z0-9_]*(" "$m" | sort | uniq -c; no "int16x8: s16 is not all on int16 kernels"; fi

# 5. bad combinations
expect() {
  local want=$1 pattern=$2
  shift 2
  local out rc
  out=$("$@" 2>&1 >/dev/null)
  rc=$?
  if [ $rc -eq "$want" ] && grep -q -- "$pattern" <<<"$out" && [ "$(grep -c error <<<"$out")" -eq 1 ] &&
     [ ! -e "$tmp/x" ]; then ok; else no "$* -> exit $rc (want $want, /$pattern/): $out"; fi
  rm -rf "$tmp/x"
}
c() { "$sm2c" compile "$q8/cnn/model" -o "$tmp/x" --signature serving_default "$@"; }
expect 2 "\-\-calibration needs --quantize int8" c --quantize float16 --calibration image="$q8/cnn/calib.npy"
expect 2 "\-\-io int8 needs --quantize int8" c --quantize float16 --io int8
expect 2 "\-\-requantize float needs --quantize int8" c --quantize float16 --requantize float
expect 2 "\-\-calibration needs --quantize int8" c --quantize dynamic --calibration image="$q8/cnn/calib.npy"
expect 2 "\-\-io int8 needs --quantize int8" c --quantize dynamic --io int8
expect 2 "\-\-quantize expects int8, int16x8, dynamic or float16, got 'fp16'" c --quantize fp16
expect 2 "\-\-quantize-skip needs --quantize int8, int16x8 or dynamic" c --quantize float16 --quantize-skip 'x*'
expect 2 "\-\-quantize-skip 'functional_1/nosuch\*' matches no node" c --quantize dynamic \
  --quantize-skip 'functional_1/nosuch*'
expect 2 "\-\-quantize-skip expects a node name or pattern" c --quantize dynamic --quantize-skip ''
expect 2 "\-\-io int8 needs --quantize int8" c --quantize int16x8 --io int8 --calibration image="$q8/cnn/calib.npy"
expect 2 "\-\-requantize float needs --quantize int8" c --quantize int16x8 --requantize float \
  --calibration image="$q8/cnn/calib.npy"
expect 2 "\-\-quantize int16x8 needs --calibration" c --quantize int16x8
# run builds an object for this machine: a Cortex-M --cpu with --emit obj is a mistake
expect 2 "run builds --emit obj for this machine" "$sm2c" run "$q8/s16/model" --signature serving_default \
  --input image="$q8/s16/heldout.npy" --quantize int16x8 --calibration image="$q8/s16/calib.npy" --cpu cortex-m4 \
  --emit obj --outdir "$tmp/x"
expect 2 "\-\-weights-bits 4 needs --quantize int8 or dynamic" c --weights-bits 4
expect 2 "\-\-weights-bits 4 needs --quantize int8 or dynamic" c --quantize float16 --weights-bits 4
expect 2 "\-\-weights-bits expects 8 or 4, got '2'" c --quantize dynamic --weights-bits 2

# 6. --weights-bits 4
for c in cnn dyn resid; do
  cal=(--calibration image="$q8/$c/calib.npy")
  [ "$c" = cnn ] && REF=int4 run_mode int8 1e-6 "$c" "${cal[@]}" --weights-bits 4 --opt Os
  REF=int4 run_mode int8 1e-6 "$c" "${cal[@]}" --weights-bits 4
  REF=dynamic_int4 run_mode dynamic 1e-6 "$c" --weights-bits 4
done
for c in cnn dyn; do
  TAG=int4 weights_at_most int8 "$c" 15 --calibration image="$q8/$c/calib.npy" --weights-bits 4
  TAG=dynamic_int4 weights_at_most dynamic "$c" 20 --weights-bits 4
done
# cnn's Dense of 6400 weights: 3200 bytes, widened before its step.
if grep -q "^static SM2C_ALIGN const uint8_t [a-z_0-9]*\[3200\]" "$tmp/int4_cnn/model.c" &&
   grep -q "sm2c_rt_widen_s4_s8([a-z_0-9]*, [a-z_0-9]*, 6400);" "$tmp/int4_cnn/model.c"; then ok
else grep -n "3200\|widen" "$tmp/int4_cnn/model.c" | head; no "int4: the Dense is not stored packed"; fi


echo "quantize_modes: $pass passed, $fail failed"
[ $fail -eq 0 ]
