#!/usr/bin/env bash
# The embedded benchmark of issue 15: the models of tests/data/firmware
# through sm2c and (when given) onnx2c, each built for a Cortex-M4F at -Os on
# the firmware test's harness (tests/firmware), run under QEMU mps2-an386 with
# the instruction-counting plugin, outputs checked against TensorFlow's.
# DS-CNN and cnn28 also run as --quantize int8 builds (issue 16), with the
# Arm DSP extension's SMLAD paths and without.
# Writes bench/embedded/RESULTS.md: code (.text, weights excluded), constants
# (.rodata, weights included), data, bss, painted stack, the stated stack
# bound and instructions per inference.
#
#   bench/embedded/run.sh [BUILD_DIR]            (default: build)
#   ONNX2C=/path/to/onnx2c ONNX_DIR=dir bench/embedded/run.sh [BUILD_DIR]
#
# ONNX_DIR holds <case>.onnx from bench/embedded/to_onnx.py (needs the
# TensorFlow venv); onnx2c is built from its public source
# (github.com/kraiskil/onnx2c) outside the repository.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
fw=$root/tests/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -std=c99 -O2 -Wall -Wextra -shared -fPIC -o "$tmp/insn_count.so" "$fw/insn_count.c" "$fw/m4_timing.c"

# run_one GENERATOR CASE_DIR OUT_DIR [HOST.npy]: runs OUT_DIR/fw.elf, appends
# a table row and keeps the numbers the goals compare (text, stack, bound,
# insns, double).  With HOST.npy (an int8 build) the outputs must be its
# bits, and within the case's int8 tolerance of TensorFlow's.
rows=""
declare -A text stk bnd ins dbls rodata bss data cyc cyc_lo cyc_hi
run_one() {
  local gen=$1 dir=$2 out=$3 host=${4:-} how=${5:-check-q8} case
  case=$(basename "$dir")
  addr() { arm-none-eabi-nm "$out/fw.elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
  "$fw/run_fw.sh" "$out/fw.elf" -plugin \
    "$tmp/insn_count.so,begin=$(addr fw_mark_begin),end=$(addr fw_mark_end)" -d plugin >"$out/run.log" 2>&1
  local ok=correct
  # Only the outputs here: the stack bound has its own column and goal.
  if [ -n "$host" ]; then
    python3 "$fw/fw.py" "$how" "$dir" "$out/run.log" "$host" >"$out/check" || true
    ok="sm2c int8's bits, $(sed -n 's/.*max abs error vs TensorFlow \([^;]*\);.*/max error \1/p' "$out/check")"
    [ "$how" = check-mode ] &&
      ok="$(sed -n 's/.*max abs error vs TensorFlow \([^;]*\); vs the host \([^;]*\);.*/max error \1, \2 from the host/p' "$out/check")"
  else
    python3 "$fw/fw.py" check "$dir" "$out/run.log" >"$out/check" || true
  fi
  if grep -qE '^error: (status|output|[0-9]+ outputs)' "$out/check"; then
    ok="WRONG: $(grep -E '^error: (status|output|[0-9]+ outputs)' "$out/check" | head -1 | cut -c1-120)"
  fi
  sec() { arm-none-eabi-size -A "$out/fw.elf" | awk -v s="$1" '$1 == s { print $2 }'; }
  local stack bound insns dbl cycles
  stack=$(sed -n 's/^stack //p' "$out/run.log") bound=$(sed -n 's/^bound //p' "$out/run.log")
  insns=$(sed -n 's/^insns //p' "$out/run.log") cycles=$(sed -n 's/^cycles //p' "$out/run.log")
  cyc[$gen.$case]=$cycles
  cyc_lo[$gen.$case]=$(awk '$1 == "cycles_base" { b = $2 } $1 == "refills" { r = $2 } END { print b + r }' "$out/run.log")
  cyc_hi[$gen.$case]=$(awk '$1 == "cycles_base" { b = $2 } $1 == "refills" { r = $2 } END { print b + 3 * r }' "$out/run.log")
  [ "$bound" = 0 ] && bound=-
  dbl=$(arm-none-eabi-nm "$out/fw.elf" | grep -c ' __aeabi_d' || true)
  text[$gen.$case]=$(sec .text) stk[$gen.$case]=$stack bnd[$gen.$case]=$bound
  ins[$gen.$case]=$insns dbls[$gen.$case]=$dbl rodata[$gen.$case]=$(sec .rodata) bss[$gen.$case]=$(sec .bss)
  data[$gen.$case]=$(sec .data)
  rows+="| $case | $gen | $(sec .text) | $(sec .rodata) | $(sec .data) | $(sec .bss) | $stack | $bound | $insns | $cycles | $dbl | $ok |"$'\n'
}

for dir in "$root"/tests/data/firmware/*/; do
  case=$(basename "$dir")
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  out=$tmp/sm2c/$case
  mkdir -p "$tmp/sm2c"
  "$build/sm2c" compile "$root/$model" -o "$out" --name "$case" --signature serving_default \
    --shape "$input=$shape" --opt Os 2>/dev/null
  python3 "$fw/fw.py" header "$dir" "$case" serving_default >"$out/fw_case.h"
  "$fw/build_fw.sh" "$out/fw.elf" "$out" "$out"/*.c
  run_one sm2c "$dir" "$out"
  # The LLVM backend: an object at --opt Os, the runtime from the C sources.
  obj=$tmp/sm2c-obj/$case
  mkdir -p "$tmp/sm2c-obj"
  "$build/sm2c" compile "$root/$model" -o "$obj" --name "$case" --signature serving_default \
    --shape "$input=$shape" --emit obj --opt Os --target thumbv7em-none-eabihf --cpu cortex-m4 \
    --features +vfp4d16sp 2>/dev/null
  cp "$out/fw_case.h" "$obj/"
  "$fw/build_fw.sh" "$obj/fw.elf" "$obj" "$obj"/*.c "$obj/$case.o" 2>/dev/null
  run_one "sm2c obj Os" "$dir" "$obj"
  if [ -n "${ONNX2C:-}" ]; then
    out=$tmp/onnx2c/$case
    mkdir -p "$out"
    "$ONNX2C" "$ONNX_DIR/$case.onnx" >"$out/model.c" 2>"$out/onnx2c.log"
    # onnx2c's entry() takes arrays of the model's shapes; pointers convert.
    printf '#include <stdint.h>\nint32_t fw_onnx2c_run(const float *x, float *y)\n{\n    entry((const void *)x, (void *)y);\n    return 0;\n}\n' \
      >"$out/run.c"
    cat "$out/model.c" "$out/run.c" >"$out/onnx2c_model.c"
    python3 "$fw/fw.py" header-entry "$dir" fw_onnx2c_run >"$out/fw_case.h"
    "$fw/build_fw.sh" "$out/fw.elf" "$out" "$out/onnx2c_model.c" 2>"$out/build.log"
    run_one onnx2c "$dir" "$out"
  fi
done
# int8 (issue 16): the convolution models compiled with --quantize int8
# --target thumbv7em-none-eabihf (the Cortex-M filter layout),
# calibrated on tests/firmware/fw.py's inputs (the case's input and seeded
# shuffles of its values), built with the DSP extension's SMLAD paths (the
# default for -mcpu=cortex-m4) and with the portable C paths; both must give
# the bits of the same int8 program run on this machine (sm2c run).
declare -A wbytes tflm_arena
TFLM_REF=${TFLM_REF:-}
q8_cases="ds_cnn cnn28"
for case in $q8_cases; do
  dir=$root/tests/data/firmware/$case
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  q=$tmp/q8/$case
  mkdir -p "$q"
  python3 "$fw/fw.py" calib "$dir" "$q/calib.npy"
  python3 "$fw/fw.py" calib "$dir" "$q/input.npy" 1
  qflags=(--signature serving_default --quantize int8 --calibration "$input=$q/calib.npy")
  "$build/sm2c" run "$root/$model" "${qflags[@]}" --input "$input=$q/input.npy" --outdir "$q/host" >/dev/null 2>&1
  for v in dsp portable; do
    gen="sm2c int8" def=()
    [ $v = portable ] && gen="sm2c int8 portable" def=(-DSM2C_RT_PORTABLE_ONLY)
    out=$q/$v
    "$build/sm2c" compile "$root/$model" -o "$out" --name "$case" --shape "$input=$shape" "${qflags[@]}" \
      --target thumbv7em-none-eabihf 2>"$q/$v.log"
    python3 "$fw/fw.py" header "$dir" "$case" serving_default >"$out/fw_case.h"
    "$fw/build_fw.sh" "$out/fw.elf" "$out" "$out"/*.c "${def[@]}"
    run_one "$gen" "$dir" "$out" "$q/host/output_0.npy"
  done
  # TensorFlow Lite Micro on the same harness: its interpreter set up before
  # the count (FW_SETUP), one Invoke counted.
  for v in ref cmsis; do
    objs=$TFLM_REF gen="tflm ref"
    [ $v = cmsis ] && objs=${TFLM_CMSIS:-} gen="tflm cmsis-nn"
    [ -n "$objs" ] || continue
    out=$q/tflm_$v
    mkdir -p "$out"
    python3 - "$TFLITE_DIR/$case.tflite" >"$out/model_data.c" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
print("const unsigned char fw_tflm_model[] __attribute__((aligned(16))) = {")
for i in range(0, len(d), 16):
    print("    " + ", ".join("0x%02x" % b for b in d[i:i + 16]) + ",")
print("};")
PY
    { python3 "$fw/fw.py" header-entry "$dir" fw_tflm_run
      printf 'void fw_tflm_setup(void);\n#define FW_SETUP fw_tflm_setup\n'; } >"$out/fw_case.h"
    "$fw/build_fw.sh" "$out/fw.elf" "$out" "$out/model_data.c" "$objs"/*.o 2>"$out/build.log"
    run_one "$gen" "$dir" "$out" "$q/host/output_0.npy"
    tflm_arena[$gen.$case]=$(sed -n 's/^arena_used //p' "$out/run.log")
  done
  "$build/sm2c" compile "$root/$model" -o "$q/float" --name "$case" --signature serving_default \
    --shape "$input=$shape" 2>"$q/float.log"
  wbytes[float.$case]=$(sed -n 's/.*weights \([0-9]*\) bytes.*/\1/p' "$q/float.log")
  wbytes[int8.$case]=$(sed -n 's/.*weights \([0-9]*\) bytes.*/\1/p' "$q/dsp.log")
done

# The other quantization modes (issue 34): the convolution models compiled
# with --quantize float16 and dynamic at --opt Os, built and run as above;
# their float layers sum in another order than the host's, so the outputs
# are checked within the int8 tolerance of TensorFlow's, and their distance
# from the host's run of the same program is reported.  int16x8 and int4
# (--quantize int8 --weights-bits 4), calibrated as int8 and compiled for the
# same target, are integer arithmetic (and int16x8's FullyConnected's double
# scaling IEEE's): bit-identical to the host's run.
modes="float16 dynamic int16x8 int4"
for case in $q8_cases; do
  dir=$root/tests/data/firmware/$case q=$tmp/q8/$case
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  for mode in $modes; do
    out=$q/$mode
    mflags=(--signature serving_default --quantize "$mode") target=(--opt Os) how=check-mode
    [ "$mode" = int4 ] && mflags=(--signature serving_default --quantize int8 --weights-bits 4)
    if [ "$mode" = int16x8 ] || [ "$mode" = int4 ]; then
      mflags+=(--calibration "$input=$q/calib.npy") target=(--target thumbv7em-none-eabihf) how=
    fi
    "$build/sm2c" run "$root/$model" "${mflags[@]}" --input "$input=$q/input.npy" --outdir "$q/host_$mode" \
      >/dev/null 2>&1
    "$build/sm2c" compile "$root/$model" -o "$out" --name "$case" --shape "$input=$shape" "${mflags[@]}" \
      "${target[@]}" 2>"$q/$mode.log"
    wbytes[$mode.$case]=$(sed -n 's/.*weights \([0-9]*\) bytes.*/\1/p' "$q/$mode.log")
    python3 "$fw/fw.py" header "$dir" "$case" serving_default >"$out/fw_case.h"
    "$fw/build_fw.sh" "$out/fw.elf" "$out" "$out"/*.c
    run_one "sm2c $mode" "$dir" "$out" "$q/host_$mode/output_0.npy" $how
  done
done

# MLPerf Tiny's other reference models (issue 30), when bench/gen_bench_models.py
# has written them (bench/.models, not committed; MODELS= elsewhere): VWW
# (MobileNetV1 0.25, 96x96x3), IC (ResNet-8) and AD (the FC autoencoder),
# --quantize int8 on the SMLAD paths, calibrated and checked as above.  With
# --io int8, as MLPerf Tiny runs its int8 models on int8 data: the harness
# quantizes the input and dequantizes the output outside the count
# (tests/firmware/harness.c's FW_IO_INT8), so the outputs are still compared
# bit for bit with the host's float-I/O run.
models=${MODELS:-$root/bench/.models}
mlperf_cases=""
for case in vww resnet8 fc_autoencoder; do
  [ -d "$models/$case/saved_model" ] || continue
  dir=$tmp/mlperf/$case q=$tmp/q8/$case
  mkdir -p "$q"
  python3 "$fw/fw.py" from-bench "$root" "$models/$case" "$dir"
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  python3 "$fw/fw.py" calib "$dir" "$q/calib.npy"
  python3 "$fw/fw.py" calib "$dir" "$q/input.npy" 1
  qflags=(--signature serving_default --quantize int8 --calibration "$input=$q/calib.npy")
  "$build/sm2c" run "$root/$model" "${qflags[@]}" --input "$input=$q/input.npy" --outdir "$q/host" >/dev/null 2>&1
  "$build/sm2c" compile "$root/$model" -o "$q/dsp" --name "$case" --shape "$input=$shape" "${qflags[@]}" \
    --io int8 --target thumbv7em-none-eabihf 2>"$q/dsp.log"
  python3 "$fw/fw.py" header "$dir" "$case" serving_default "$q/dsp" >"$q/dsp/fw_case.h"
  "$fw/build_fw.sh" "$q/dsp/fw.elf" "$q/dsp" "$q"/dsp/*.c
  run_one "sm2c int8 io8" "$dir" "$q/dsp" "$(ls "$q"/host/*.npy | head -1)"
  mlperf_cases+=" $case"
done
# KWS's row: the firmware case ds_cnn's int8 build again with int8 I/O.
q=$tmp/q8/ds_cnn dir=$root/tests/data/firmware/ds_cnn
read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
"$build/sm2c" compile "$root/$model" -o "$q/io8" --name ds_cnn --shape "$input=$shape" --signature serving_default \
  --quantize int8 --calibration "$input=$q/calib.npy" --io int8 --target thumbv7em-none-eabihf 2>"$q/io8.log"
python3 "$fw/fw.py" header "$dir" ds_cnn serving_default "$q/io8" >"$q/io8/fw_case.h"
"$fw/build_fw.sh" "$q/io8/fw.elf" "$q/io8" "$q"/io8/*.c
run_one "sm2c int8 io8" "$dir" "$q/io8" "$q/host/output_0.npy"

# The harness alone (a copy as the model): what every row's .text includes.
mkdir -p "$tmp/empty"
cat >"$tmp/empty/fw_case.h" <<'H'
#include <stdint.h>
#define FW_IN_ELEMENTS 1
#define FW_OUT_ELEMENTS 1
#define FW_STACK_BOUND 0
static const uint32_t fw_input_bits[1] = { 0 };
static int32_t fw_empty(const float *x, float *y) { y[0] = x[0]; return 0; }
#define FW_ENTRY fw_empty
H
"$fw/build_fw.sh" "$tmp/empty/fw.elf" "$tmp/empty"
harness=$(arm-none-eabi-size -A "$tmp/empty/fw.elf" | awk '$1 == ".text" { print $2 }')

# Issue 15's goals per model: met, or the gap.
goals=""
verdict() { if [ "$1" -le "$2" ]; then echo "met ($1 <= $2)"; else echo "**missed**: $1 > $2 (+$(($1 - $2)))"; fi; }
for dir in "$root"/tests/data/firmware/*/; do
  case=$(basename "$dir")
  s=${stk[sm2c.$case]} b=${bnd[sm2c.$case]}
  bound_ok="**missed**: bound $b, stack $s"
  [ "$b" -ge "$s" ] && [ "$b" -le $((2 * s)) ] && bound_ok="met ($s <= $b <= $((2 * s)))"
  code="(no onnx2c run)" insn="(no onnx2c run)"
  if [ -n "${text[onnx2c.$case]:-}" ]; then
    code=$(verdict "$((${text[sm2c.$case]} - harness))" "$((${text[onnx2c.$case]} - harness))")
    insn=$(verdict "${ins[sm2c.$case]}" "${ins[onnx2c.$case]}")
  fi
  goals+="| $case | $(verdict "$s" 1024) | $bound_ok | $code | $insn | $(verdict "${dbls[sm2c.$case]}" 0) |"$'\n'
done
# Issue 16's goals per model: int8 (SMLAD) against float, both sm2c's C backend.
ratio() { python3 -c "import sys; print('%.2f' % (int(sys.argv[1]) / int(sys.argv[2])))" "$1" "$2"; }
q8goals="" tflmgoals=""
# RAM: .data, .bss and the painted stack; TFLite Micro's .bss less the part
# of its arena array (tflm_run.cc's kArenaBytes) the interpreter did not use.
ram() {
  local unused=0
  [ -n "${tflm_arena[$1.$2]:-}" ] && unused=$((98304 - ${tflm_arena[$1.$2]}))
  echo $((${data[$1.$2]} + ${bss[$1.$2]} + ${stk[$1.$2]} - unused))
}
for case in $q8_cases; do
  i8=${ins[sm2c int8.$case]} f=${ins[sm2c.$case]} ip=${ins[sm2c int8 portable.$case]}
  wi=${wbytes[int8.$case]} wf=${wbytes[float.$case]}
  insn="**missed**: $(ratio "$i8" "$f")x float's ($i8 vs $f)"
  [ $((i8 * 3)) -le "$f" ] && insn="met: $(ratio "$i8" "$f")x float's ($i8 vs $f)"
  wgt="**missed**: $(ratio "$wi" "$wf")x ($wi vs $wf)"
  [ $((wi * 10)) -le $((wf * 3)) ] && wgt="met: $(ratio "$wi" "$wf")x ($wi vs $wf B)"
  q8goals+="| $case | $insn | $(ratio "$ip" "$i8")x ($ip vs $i8) | $wgt | $(verdict "${stk[sm2c int8.$case]}" 1024) | $(ram "sm2c int8" "$case") vs $(ram sm2c "$case") B |"$'\n'
  for gen in "tflm ref" "tflm cmsis-nn"; do
    [ -n "${ins[$gen.$case]:-}" ] || continue
    tflmgoals+="| $case | $gen | $(verdict "$i8" "${ins[$gen.$case]}") | $(verdict "$(ram "sm2c int8" "$case")" "$(ram "$gen" "$case")") | ${tflm_arena[$gen.$case]} |"$'\n'
  done
done
modegoals=""
for case in $q8_cases; do
  for mode in $modes; do
    g="sm2c $mode" b=sm2c bw=float   # int16x8's goal is against int8, int4 is int8's with smaller weights
    [ "$mode" = int16x8 ] || [ "$mode" = int4 ] && b="sm2c int8" bw=int8
    modegoals+="| $case | $mode vs $bw | ${wbytes[$mode.$case]} vs ${wbytes[$bw.$case]} ($(ratio "${wbytes[$mode.$case]}" "${wbytes[$bw.$case]}")x) | $(ram "$g" "$case") vs $(ram "$b" "$case") | ${ins[$g.$case]} vs ${ins[$b.$case]} ($(ratio "${ins[$g.$case]}" "${ins[$b.$case]}")x) | ${cyc[$g.$case]} vs ${cyc[$b.$case]} ($(ratio "${cyc[$g.$case]}" "${cyc[$b.$case]}")x) |"$'\n'
  done
done
tflmsection=""
if [ -n "$tflmgoals" ]; then
  tflmsection="## int8 against TensorFlow Lite Micro

TensorFlow Lite Micro ($TFLM_VERSION) built from its source by bench/embedded/tflm/build.sh
(reference kernels; CMSIS-NN's for conv, depthwise, fully connected, softmax
and pools), the models converted by bench/embedded/tflm/to_tflite.py with the same
calibration inputs; \"sm2c int8's bits\": its outputs equal sm2c's int8 program's.
RAM as above, TFLite Micro's arena counted as the interpreter used it.

| model | TFLite Micro | sm2c int8 (SMLAD) instructions <= TFLM | sm2c int8 RAM <= TFLM | TFLM arena used (B) |
|---|---|---|---|---|
$tflmgoals"
fi
# Issue 30: the estimated cycles of sm2c's int8 build beside MLPerf Tiny's
# closed-division results on its reference board (NUCLEO-L4R5ZI, Cortex-M4F
# at 120 MHz, int8), for the models of MLPerf Tiny that this benchmark runs.
mlperf() {   # CASE TASK: a row
  local c=${cyc[sm2c int8 io8.$1]} lo=${cyc_lo[sm2c int8 io8.$1]} hi=${cyc_hi[sm2c int8 io8.$1]}
  python3 - "$2" "$c" "$lo" "$hi" <<'PY'
import sys
task, c, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# ms: TFLM + CMSIS-NN (v0.5), microTVM + CMSIS-NN (v1.0), Plumerai (v1.1), X-CUBE-AI 9.0 (v1.2);
# the goal compares with X-CUBE-AI's, and for AD with Plumerai's (the fastest there).
pub = {'KWS DS-CNN': (181.9, 99.8, 47.8, 43.2), 'VWW MobileNetV1': (600.6, 301.2, 98.8, 88.9),
       'IC ResNet-8': (704.2, 389.6, 167.8, 165.1), 'AD FC autoencoder': (10.05, 8.60, 4.05, 5.26)}[task]
best = min(pub[2:]) * 120e3
goal = 'met' if c <= 0.9 * best else '**missed**'
print('| %s | %.2f M (%.2f .. %.2f) | %.1f ms | %s | %.2fx (%s: goal <= 0.9x) |' % (
    task, c / 1e6, lo / 1e6, hi / 1e6, c / 120e3, ' / '.join('%g' % p for p in pub), c / best, goal))
PY
}
mlperfrows=$(mlperf ds_cnn "KWS DS-CNN")
for case in $mlperf_cases; do
  task=$(case $case in vww) echo "VWW MobileNetV1";; resnet8) echo "IC ResNet-8";; *) echo "AD FC autoencoder";; esac)
  mlperfrows+=$'\n'$(mlperf "$case" "$task")
done
load=$(cut -d' ' -f1-3 /proc/loadavg)
cat >"$root/bench/embedded/RESULTS.md" <<EOF2
# Embedded benchmark (issue 15)

Written by \`bench/embedded/run.sh\` on $(date -u +%Y-%m-%d) (load average $load; instruction
counts do not depend on load). Cortex-M4F under QEMU $(qemu-system-arm --version | head -1 | sed 's/.*version //')
(\`-M mps2-an386\`), $(arm-none-eabi-gcc --version | head -1), \`-mcpu=cortex-m4 -mthumb -mfloat-abi=hard
-mfpu=fpv4-sp-d16 -Os -ffp-contract=off -ffunction-sections -fdata-sections -Wl,--gc-sections\`,
newlib-nano, one inference of batch 1, outputs checked against TensorFlow's (tests/data/firmware,
docs/reliability.md's whole-model tolerance).${ONNX2C:+ onnx2c built from github.com/kraiskil/onnx2c
($ONNX2C_VERSION) on ONNX files from bench/embedded/to_onnx.py (tf2onnx, opset 13).}

Bytes. \`.text\` is code only (weights are in \`.rodata\`) and includes the harness, $harness B
on its own (startup, semihosting, harness.c, memcpy/memset). Stack is painted, for the call to
the entry point; the bound is the one the generated header states (\`_STACK_SIZE\`).
Instructions are guest instructions between the harness's two markers
(tests/firmware/insn_count.c, a TCG plugin). "est. cycles" is the same plugin's Cortex-M4
estimate at zero wait states (tests/firmware/m4_timing.c, the TRM's cycle tables; a taken branch's
refill P = 2 of the TRM's 1-3; its check against CoreMark is in README.md).
"double" counts the \`__aeabi_d*\` helpers linked.

| model | generator | .text | .rodata | .data | .bss | stack | stack bound | instructions | est. cycles | double | outputs |
|---|---|---|---|---|---|---|---|---|---|---|---|
$rows
## Goals (issue 15), sm2c against the measurements above

Code is \`.text\` less the harness; instructions are compared with onnx2c, the one other
float generator run here (emx-onnx-cgen is not; TensorFlow Lite Micro runs the int8 models,
below). Causes of the gaps: bench/embedded/README.md.

| model | stack <= 1 KB | header bound >= stack, <= 2x | code <= onnx2c | instructions <= onnx2c | no double helpers |
|---|---|---|---|---|---|
$goals
## int8 (issue 16), sm2c \`--quantize int8\` against sm2c float

Both int8 rows are compiled with \`--target thumbv7em-none-eabihf\`: Conv2D
filters laid out at compile time for the Cortex-M kernel (runtime/conv_ohwi_s8.c).
Rows "sm2c int8" use the Arm DSP extension's SMLAD paths (runtime/dsp_s8.h,
conv_ohwi_s8.c, conv_m_s8.h; \`-mcpu=cortex-m4\` defines \`__ARM_FEATURE_DSP\`), rows "sm2c int8
portable" the same program and runtime built with \`-DSM2C_RT_PORTABLE_ONLY\`.
Calibration: the case's input and 15 seeded shuffles of its values
(\`tests/firmware/fw.py calib\`). "sm2c int8's bits": the firmware's outputs
are bit for bit those of the same int8 program run on x86-64 (\`sm2c run\`),
and within case.json's int8 tolerance of TensorFlow's float outputs (2/256:
two quanta of the softmax output; the max error is given). Weights are the
compiler's count (int8 filters, int32 biases, requantization multipliers and
shifts). RAM is .data, .bss (the planned arena and the harness's float input
and output) and the painted stack.

| model | instructions: int8 <= 0.33x float's | DSP gain (portable vs SMLAD) | weights <= 0.3x float | int8 stack <= 1 KB | RAM (B) int8 vs float |
|---|---|---|---|---|---|
$q8goals
$tflmsection
## Quantization modes (issue 34), sm2c \`--quantize float16\` and \`dynamic\` against sm2c float, \`int16x8\` against int8

The rows "sm2c int16x8" and "sm2c int4" (\`--quantize int8 --weights-bits 4\`) above
(\`--target thumbv7em-none-eabihf\`, as int8) give the bits of the host's run of the
same program; both are compared with int8 (int4's weights also with float's in
bench/RESULTS.md).
The rows "sm2c float16" and "sm2c dynamic" above (\`--opt Os\`, the C backend).  Their
float layers sum in another order than the host's, so the firmware's outputs are
checked within case.json's int8 tolerance of TensorFlow's and their distance from the
host's run of the same program is given there.  float16 widens each weight of 256
elements or more into the arena before its step (RAM for the largest); dynamic
quantizes each input of a hybrid layer into the arena (an int8 copy).  Weights are
the compiler's count; RAM as above.

| model | mode | weights (B) | RAM (B) | instructions | est. cycles |
|---|---|---|---|---|---|
$modegoals
## int8 cycles beside MLPerf Tiny (issue 30)

sm2c's int8 build (SMLAD paths; \`--io int8\`, rows "sm2c int8 io8" above: MLPerf Tiny times its int8
models on int8 data, so the input's quantization and the output's dequantization are the
harness's, outside the count) in estimated Cortex-M4 cycles at zero wait states (P = 2; P = 1 .. 3
in brackets) and milliseconds at 120 MHz, beside MLPerf Tiny's closed-division latencies on its
reference board (NUCLEO-L4R5ZI, Cortex-M4F at 120 MHz): TFLite Micro + CMSIS-NN (v0.5),
microTVM + CMSIS-NN (v1.0), Plumerai (v1.1) and X-CUBE-AI 9.0 (v1.2), in ms; the ratio is against
the faster of Plumerai and X-CUBE-AI.  The estimate's check against a published figure (CoreMark)
is in README.md: it overstates cycles, so the ratio is conservative.  KWS is the firmware case
ds_cnn; VWW, IC and AD are bench/gen_bench_models.py's models (random weights, the architectures
of MLPerf Tiny's references), when present.

| task | sm2c int8 est. cycles | at 120 MHz | published ms (TFLM+CMSIS-NN / microTVM / Plumerai / X-CUBE-AI) | vs the best |
|---|---|---|---|---|
$mlperfrows
EOF2
cat "$root/bench/embedded/RESULTS.md"
