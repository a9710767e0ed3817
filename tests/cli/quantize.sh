#!/usr/bin/env bash
# --quantize int8 (issue 16):
#  1. tests/data/q8/cnn (tests/models/gen_q8.py): a Keras CNN compiled with
#     --calibration, run on held-out inputs through the C and LLVM backends,
#     which agree bit for bit; its error vs TensorFlow's float outputs at most
#     TFLite int8's plus 25%, and within 1 output quantum of TFLite's int8
#     outputs (reference kernels; all equal today).  The kernels are TFLite's
#     reference arithmetic and the ranges TFLite's choice (pass_quantize.c:
#     in-place binary ops, same-scale chains), so a quantum comes only from a
#     float range that differs in its last bit.
#  1b. tests/data/q8/head (gen_q8.py): Conv2D, hard-swish, global average
#     pooling (Mean), Dense with Tanh and Sigmoid, a broadcasting Mul and Add,
#     a Concat of differently scaled inputs (requantized), Softmax, all int8 (no node left in float); both backends agree bit for
#     bit and are within 1 output quantum (1/256) of TFLite's int8 outputs
#     (all equal today).
#  1c. tests/data/q8/resid (gen_q8.py): residual Adds followed by ReLU and
#     ReLU6, which become the Adds' output clamps with the activations' ranges
#     (TFLite's fusion); within 1 output quantum of TFLite's int8 outputs.
#  1e. tests/data/q8/ties (gen_q8.py): weights on half steps of their scales,
#     equal to TFLite's int8 outputs (0 quanta): its weight rounding.
#  2. tests/data/e2e/qat_cnn: a quantization-aware model, no calibration, its
#     FakeQuant ranges; within 0.005 of TensorFlow's (float, fake-quantized) output.
#  3. --io int8: int8 ports, their scale and zero point in the header and the
#     metadata (tensor_info.scale, .zero_point), the
#     same results as the float-I/O build on inputs quantized with them.
#  4. the report (text and JSON): int8 tensors, their error, the float nodes.
#  1d. --requantize float (XNNPACK's scheme, the _frq kernels; Add of
#     same-shaped tensors in float too): the three
#     cases above through both backends, which agree bit for bit, within 1
#     output quantum of TFLite's int8 outputs and their error at most TFLite's
#     plus 25%; refused without --quantize int8 and for a Cortex-M target.
#  5. bad input: one line, non-zero exit, nothing written.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
tmp=$(mktemp -d)
trap "rm -rf $tmp" EXIT; [ -n "${KEEP:-}" ] && trap - EXIT
fail=0 pass=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
export ROOT="$root"
d="$root/tests/data/q8/cnn" qat="$root/tests/data/e2e/qat_cnn"

# run_vs_tflite NAME CASE_DIR: the case's held-out inputs through `sm2c run
# --quantize int8` with the C and the LLVM backend (outputs in $tmp/NAME_c,
# $tmp/NAME_obj), which must agree bit for bit and lie within 1 output quantum
# of TFLite's int8 outputs (q8_check.py).
run_vs_tflite() {
  local name=$1 dir=$2 emit
  shift 2
  for emit in c obj; do
    if "$sm2c" run "$dir/model" --signature serving_default --input image="$dir/heldout.npy" \
         --outdir "$tmp/${name}_$emit" --quantize int8 --calibration image="$dir/calib.npy" --emit $emit "$@" \
         2>"$tmp/log"; then ok
    else cat "$tmp/log"; no "$name: run --emit $emit"; fi
  done
  if python3 "$root/tests/cli/q8_check.py" "$dir" "${QUANTA:-1}" 0.25 "$tmp/${name}_c/output_0.npy" \
       "$tmp/${name}_obj/output_0.npy"; then ok
  else no "$name outputs"; fi
}

run_vs_tflite cnn "$d"

hd="$root/tests/data/q8/head"
run_vs_tflite head "$hd"
"$sm2c" compile "$hd/model" -o "$tmp/headc" --signature serving_default --quantize int8 \
  --calibration image="$hd/calib.npy" --report "$tmp/head.txt" 2>/dev/null
if grep -q "^int8 serving_default: .* 0 nodes in float" "$tmp/head.txt" &&
   grep -q "sm2c_rt_mean_s8" "$tmp/headc/model.c" && grep -q "sm2c_rt_softmax_s8" "$tmp/headc/model.c" &&
   [ "$(sed '/^void [A-Za-z_0-9]*_ctx_init(/,$d' "$tmp/headc/model.c" | grep -c "sm2c_rt_lut_s8(")" -eq 3 ]; then ok
else cat "$tmp/head.txt"; no "head: not all int8"; fi

# 1c. A residual Add that a ReLU or ReLU6 follows takes the activation's range,
# as TFLite fuses it (pass_quantize.c: fused_relu_ranges): with the Add's own
# range its outputs were several quanta from TFLite's.
rd="$root/tests/data/q8/resid"
run_vs_tflite resid "$rd"
"$sm2c" compile "$rd/model" -o "$tmp/residc" --signature serving_default --quantize int8 \
  --calibration image="$rd/calib.npy" 2>/dev/null
if ! grep -q "sm2c_rt_relu" "$tmp/residc/model.c" && [ "$(grep -c "sm2c_rt_add_s8" "$tmp/residc/model.c")" -ge 2 ]; then ok
else no "resid: the ReLUs after the Adds are not the Adds' clamps"; fi

# 1e. tests/data/q8/ties: Dense weights on half steps of their scales, where
# TFLite's weight rounding (round(w * (float)(1 / scale))) and a division by
# the scale differ (108 of 160 outputs equal, 1 quantum off, before
# quant_params.c rounded as TFLite does): TFLite's outputs exactly.
QUANTA=0 run_vs_tflite ties "$root/tests/data/q8/ties"

# 1d. The float requantization: an output may be 1 quantum off TFLite's
# reference bits (XNNPACK's are not those either); every contraction takes
# its _frq kernel.
for c in cnn head resid; do
  run_vs_tflite "frq_$c" "$root/tests/data/q8/$c" --requantize float
done
"$sm2c" compile "$d/model" -o "$tmp/frqc" --signature serving_default --quantize int8 --requantize float \
  --calibration image="$d/calib.npy" 2>/dev/null
if grep -q "sm2c_rt_conv2d_packed_s8_frq(" "$tmp/frqc/model.c" && grep -q "sm2c_rt_depthwise_conv2d_s8_frq(" "$tmp/frqc/model.c" &&
   ! grep -q "sm2c_rt_conv2d_packed_s8(\|sm2c_rt_depthwise_conv2d_s8(" "$tmp/frqc/model.c"; then ok
else no "--requantize float: not every contraction takes its _frq kernel"; fi
"$sm2c" compile "$rd/model" -o "$tmp/frqr" --signature serving_default --quantize int8 --requantize float \
  --calibration image="$rd/calib.npy" 2>/dev/null
if grep -q "sm2c_rt_add_s8_frq(" "$tmp/frqr/model.c" && ! grep -q "sm2c_rt_add_s8(" "$tmp/frqr/model.c"; then ok
else no "--requantize float: a residual Add is not the float Add"; fi
"$sm2c" compile "$d/model" -o "$tmp/frqm" --quantize int8 --requantize float --calibration image="$d/calib.npy" \
  --target thumbv7em-none-eabihf 2>"$tmp/frqm.log"
if [ $? -ne 0 ] && [ ! -e "$tmp/frqm" ] && [ "$(wc -l <"$tmp/frqm.log")" -eq 1 ] && grep -q "Cortex-M" "$tmp/frqm.log"; then ok
else cat "$tmp/frqm.log"; no "--requantize float for a Cortex-M target: not one line and no output"; fi
"$sm2c" compile "$d/model" -o "$tmp/frqn" --requantize float 2>"$tmp/frqn.log"
if [ $? -ne 0 ] && [ ! -e "$tmp/frqn" ] && grep -q "needs --quantize int8" "$tmp/frqn.log"; then ok
else cat "$tmp/frqn.log"; no "--requantize float without --quantize int8 accepted"; fi

# Weights: int8 filters are a quarter of the float ones.
"$sm2c" compile "$d/model" -o "$tmp/f32" --signature serving_default 2>"$tmp/f32.log"
"$sm2c" compile "$d/model" -o "$tmp/i8" --signature serving_default --quantize int8 \
  --calibration image="$d/calib.npy" 2>"$tmp/i8.log"
wf=$(sed -n 's/.*weights \([0-9]*\) bytes.*/\1/p' "$tmp/f32.log") wq=$(sed -n 's/.*weights \([0-9]*\) bytes.*/\1/p' "$tmp/i8.log")
echo "weights: float $wf bytes, int8 $wq bytes"
if [ -n "$wf" ] && [ -n "$wq" ] && [ $((wq * 3)) -lt "$wf" ]; then ok; else no "weights float $wf, int8 $wq"; fi
if grep -q "sm2c_rt_conv2d_s8\|sm2c_rt_conv2d_packed_s8\|sm2c_rt_fully_connected_s8" "$tmp/i8/model.c" && ! grep -q "conv2d_f32\|matmul_f32" "$tmp/i8/model.c"
then ok; else no "the int8 program still calls float contractions"; fi

# --io int8: int8 ports with _SCALE and _ZERO_POINT in the header; fed the held-out
# inputs quantized with them, the int8 outputs dequantized are the float-I/O run's.
# (At the run's batch of 16: the float kernels, hence the calibrated ranges, may
# differ in the last bit from batch 1's.)
"$sm2c" compile "$d/model" -o "$tmp/io8" --signature serving_default --quantize int8 \
  --calibration image="$d/calib.npy" --io int8 --shape image=16,8,8,3 2>/dev/null
h="$tmp/io8/model.h"
if grep -q "IMAGE_SIZE 3072 /\* bytes, int8\[16,8,8,3\]" "$h" && grep -q "int8_t \*output_0" "$h"; then ok
else no "--io int8 header: $(grep -n "IMAGE\|OUTPUT" "$h")"; fi
macro() { sed -n "s/^#define MODEL_SERVING_DEFAULT_$1 \([^ ]*\).*/\1/p" "$h" | sed 's/f$//'; }
in_scale=$(macro IMAGE_SCALE) in_zp=$(macro IMAGE_ZERO_POINT) out_scale=$(macro OUTPUT_0_SCALE) out_zp=$(macro OUTPUT_0_ZERO_POINT)
if grep -q "{ \"image\", 6, 4, model_d0_i0, 3072, -1, ${in_scale}f, $in_zp }," "$tmp/io8/model.c" &&
   grep -q "{ \"output_0\", 6, 2, model_d0_o0, 160, -1, ${out_scale}f, $out_zp }," "$tmp/io8/model.c"
then ok; else no "--io int8 metadata: $(grep -n '{ "' "$tmp/io8/model.c")"; fi
python3 - "$d/heldout.npy" "$tmp/heldout_s8.npy" "$in_scale" "$in_zp" <<'PY'
import math, os, struct, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "tests", "e2e"))
from check_e2e import load_npy
shape, _, x = load_npy(sys.argv[1])
scale = struct.unpack("<f", struct.pack("<f", float(sys.argv[3])))[0]
zp = int(sys.argv[4])
def q(v):   # float32 division (exact through double), rounded half away from zero
    r = struct.unpack("<f", struct.pack("<f", v / scale))[0]
    r = math.floor(abs(r) + 0.5) * (1 if r >= 0 else -1)
    return max(-128, min(127, int(r) + zp))
header = "{'descr': '|i1', 'fortran_order': False, 'shape': %s, }" % (tuple(shape),)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
body = struct.pack("<%db" % len(x), *[q(v) for v in x])
open(sys.argv[2], "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + body)
PY
if "$sm2c" run "$d/model" --signature serving_default --input image="$tmp/heldout_s8.npy" --outdir "$tmp/io8run" \
     --quantize int8 --calibration image="$d/calib.npy" --io int8 2>"$tmp/log" &&
   python3 - "$tmp/io8run/output_0.npy" "$tmp/cnn_c/output_0.npy" "$out_scale" "$out_zp" <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "tests", "e2e"))
from check_e2e import load_npy
_, descr, q = load_npy(sys.argv[1])
_, _, want = load_npy(sys.argv[2])
scale = struct.unpack("<f", struct.pack("<f", float(sys.argv[3])))[0]
got = [struct.unpack("<f", struct.pack("<f", scale * (v - int(sys.argv[4]))))[0] for v in q]
sys.exit(0 if descr == "|i1" and got == want else 1)
PY
then ok; else cat "$tmp/log"; no "--io int8 outputs differ from the float-I/O run's"; fi

qin="$qat/inputs/serving_default/image.npy" qout="$qat/expected/serving_default/output_0.npy"
if "$sm2c" run "$qat/model" --signature serving_default --input image="$qin" --outdir "$tmp/qat" \
     --quantize int8 2>"$tmp/log" &&
   python3 - "$qout" "$tmp/qat/output_0.npy" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "tests", "e2e"))
from check_e2e import load_npy
want, got = load_npy(sys.argv[1])[2], load_npy(sys.argv[2])[2]
worst = max(abs(a - b) for a, b in zip(want, got))
print("qat_cnn: max |sm2c int8 - TF| %.6f" % worst)
sys.exit(0 if worst <= 0.005 else 1)
PY
then ok; else cat "$tmp/log"; no "qat_cnn --quantize int8"; fi
grep -q "sm2c_rt_conv2d_\(packed_\)\?s8" <("$sm2c" compile "$qat/model" -o "$tmp/qatc" --signature serving_default \
  --quantize int8 2>/dev/null; cat "$tmp/qatc/model.c") && ok || no "qat_cnn did not become int8"

# Deterministic, whatever the paths: the header records the calibration file's
# last component and its data's SHA-256.
(cd "$tmp" && "$sm2c" compile "$d/model" -o "$tmp/det1" --signature serving_default --quantize int8 \
   --calibration image="$d/calib.npy" 2>/dev/null)
cp "$d/calib.npy" "$tmp/calib.npy"
(cd "$root" && "$sm2c" compile tests/data/q8/cnn/model -o "$tmp/det2" --signature serving_default --quantize int8 \
   --calibration image="$tmp/calib.npy" 2>/dev/null)
if diff -r "$tmp/det1" "$tmp/det2" >/dev/null && grep -q "^ \*   calibration image [0-9a-f]\{64\}$" "$tmp/det1/model.h" &&
   grep -q "Command: .*--calibration image=calib.npy" "$tmp/det1/model.h"; then ok
else no "--quantize int8 output depends on paths"; fi

# The report: every int8 tensor's scale, zero point, range and error vs float on
# the calibration data; the nodes left in float (none: the QAT model's Softmax
# is int8 with TFLite's fixed output parameters).
"$sm2c" compile "$d/model" -o "$tmp/rep" --signature serving_default --quantize int8 \
  --calibration image="$d/calib.npy" --report "$tmp/rep.txt" 2>/dev/null
if grep -q "^int8 serving_default: 12 tensors, 0 nodes in float" "$tmp/rep.txt" &&
   grep -q "^int8 tensor functional_1/conv1_1/convolution: scale 0.00511839893 zero_point -128 range \[0, .*\] mean_abs_error" "$tmp/rep.txt"
then ok; else cat "$tmp/rep.txt"; no "text report"; fi
"$sm2c" compile "$qat/model" -o "$tmp/rep2" --signature serving_default --quantize int8 --report "$tmp/rep2.json" 2>/dev/null
if python3 - "$tmp/rep2.json" "$root/docs/report.schema.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
q = r["entries"][0]["int8"]
try:
    import jsonschema
    jsonschema.validate(r, json.load(open(sys.argv[2])))
except ImportError:
    pass
soft = [t for t in q["tensors"] if t["name"] == "functional_1/probs_1/Softmax"]
sys.exit(0 if q["float_nodes"] == [] and len(soft) == 1 and soft[0]["zero_point"] == -128 and
         soft[0]["scale"] == 1 / 256 and
         all(t["mean_abs_error"] is None for t in q["tensors"]) and len(q["tensors"]) == 6 else 1)
PY
then ok; else no "JSON report of qat_cnn"; fi
# The report's MACs: an int8 convolution (the packed form's filter and folded
# bias are buffers, its window parameters the step's first ints) counts what
# the float one does, and so does a Dense (a fully connected step: rows * k * n).
"$sm2c" compile "$d/model" -o "$tmp/macq" --signature serving_default --quantize int8 \
  --calibration image="$d/calib.npy" --report "$tmp/macq.json" 2>/dev/null
"$sm2c" compile "$d/model" -o "$tmp/macf" --signature serving_default --report "$tmp/macf.json" 2>/dev/null
if python3 - "$tmp/macq.json" "$tmp/macf.json" <<'PY'
import json, sys
steps = [json.load(open(f))["entries"][0]["steps"] for f in sys.argv[1:]]
conv = [[s["macs"] for s in e if "conv2d" in s["kernel"] and s["macs"] > 0] for e in steps]
every = [sorted(s["macs"] for s in e if s["macs"] > 0) for e in steps]
sys.exit(0 if every[0] == every[1] and len(conv[0]) >= 3 else 1)
PY
then ok; else no "int8 convolutions' MACs in the report"; fi

# Bad calibration data, written here (no numpy): npy FILE DESCR SHAPE VALUES...
npy() {
  python3 - "$@" <<'PY'
import struct, sys
path, descr, shape, vals = sys.argv[1], sys.argv[2], sys.argv[3], [float(v) for v in sys.argv[4:]]
header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
fmt = {"<f4": "f", "<i4": "i"}[descr[:3]]
body = struct.pack("<%d%s" % (len(vals), fmt), *[int(v) if fmt == "i" else v for v in vals])
open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + body)
PY
}
npy "$tmp/shape.npy" "<f4" "(2, 3)" 1 2 3 4 5 6
npy "$tmp/empty.npy" "<f4" "(0, 8, 8, 3)"
vals=$(for i in $(seq 192); do echo 0.5; done)
npy "$tmp/nan.npy" "<f4" "(1, 8, 8, 3)" $(seq 191 | sed 's/.*/0.5/') nan
npy "$tmp/int.npy" "<i4" "(1, 8, 8, 3)" $vals

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
c() { "$sm2c" compile "$d/model" -o "$tmp/x" --signature serving_default "$@"; }
expect 1 "shape \[2,3\] does not match input shape \[1,8,8,3\]" c --quantize int8 --calibration image="$tmp/shape.npy"
expect 1 "the file holds no samples" c --quantize int8 --calibration image="$tmp/empty.npy"
expect 1 "element 191 is not finite" c --quantize int8 --calibration image="$tmp/nan.npy"
expect 1 "must be float32" c --quantize int8 --calibration image="$tmp/int.npy"
expect 2 "needs --calibration KEY=FILE.npy (the model has no FakeQuant ranges)" c --quantize int8
expect 2 "has no input 'pixels'" c --quantize int8 --calibration image="$d/calib.npy" --calibration pixels="$d/calib.npy"
expect 2 "given twice" c --quantize int8 --calibration image="$d/calib.npy" --calibration image="$d/calib.npy"
expect 2 "\-\-io int8 needs --quantize int8" c --io int8
expect 2 "\-\-io expects float or int8" c --quantize int8 --io uint8
expect 2 "\-\-calibration needs --quantize int8" c --calibration image="$d/calib.npy"
expect 2 "\-\-quantize expects int8" c --quantize int4
expect 1 "calibration/missing.npy" c --quantize int8 --calibration image="$tmp/calibration/missing.npy"

echo "quantize: $pass passed, $fail failed"
[ $fail -eq 0 ]
