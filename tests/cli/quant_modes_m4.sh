#!/usr/bin/env bash
# The quantization modes besides int8 on a Cortex-M4F (issue 34), as
# firmware_m4.sh runs int8: the cases of tests/data/firmware with "int8" in
# case.json, calibrated as there, compiled with --target thumbv7em-none-eabihf
# in each mode, built with arm-none-eabi-gcc -Os and run under QEMU
# (mps2-an386), on the DSP extension's paths and on the portable C paths
# (-DSM2C_RT_PORTABLE_ONLY).  Both give the bits of the same program run on
# this machine (sm2c run):
#  int16x8  Conv2D and FullyConnected on the SMLAD kernels of int16 inputs
#           (conv_ohwi_s16.c, its dot loop in assembly), depthwise by SMLAxy;
#           the FullyConnected's double scaling links the soft-float helpers
#           (TFLite's reference kernel scales in double), so they are allowed.
#  int4     --quantize int8 --weights-bits 4: int8's Cortex-M kernels on
#           filters widened from nibbles (widen_s4.c); no double helpers.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "skip: no $tool"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fw=$root/tests/firmware
fail=0 passed=0
no() { echo "FAIL: $*"; fail=$((fail + 1)); }

# one CASE_DIR MODE KERNEL: the case in MODE, whose image must call KERNEL.
one() {
  local dir=$1 mode=$2 kernel=$3 case model input shape out qflags v def
  case=$(basename "$dir")
  out=$tmp/${mode}_$case
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  mkdir -p "$out"
  python3 "$fw/fw.py" calib "$dir" "$out/calib.npy" && python3 "$fw/fw.py" calib "$dir" "$out/input.npy" 1
  qflags=(--signature serving_default --calibration "$input=$out/calib.npy" --quantize "$mode")
  [ "$mode" = int4 ] && qflags=(--signature serving_default --calibration "$input=$out/calib.npy" --quantize int8
                                --weights-bits 4)
  if ! "$sm2c" run "$root/$model" "${qflags[@]}" --input "$input=$out/input.npy" --outdir "$out/host" \
      >"$tmp/log" 2>&1; then
    no "$case $mode: host run"; cat "$tmp/log"; return
  fi
  if ! "$sm2c" compile "$root/$model" -o "$out/c" --name "$case" --shape "$input=$shape" "${qflags[@]}" \
      --target thumbv7em-none-eabihf 2>"$tmp/log"; then
    no "$case $mode: compile"; cat "$tmp/log"; return
  fi
  grep -q "$kernel(" "$out/c/$case.c" || no "$case $mode: the image does not call $kernel"
  python3 "$fw/fw.py" header "$dir" "$case" serving_default >"$out/c/fw_case.h"
  for v in dsp portable; do
    def=()
    [ $v = portable ] && def=(-DSM2C_RT_PORTABLE_ONLY)
    if ! "$fw/build_fw.sh" "$out/$v.elf" "$out/c" "$out"/c/*.c "${def[@]}" 2>"$tmp/log"; then
      no "$case $mode $v: firmware build"; cat "$tmp/log"; continue
    fi
    if [ $v = dsp ] && ! arm-none-eabi-objdump -d "$out/$v.elf" | grep -q $'\tsmlad'; then
      no "$case $mode: no SMLAD in the image"
    fi
    if [ "$mode" = int4 ] && arm-none-eabi-nm "$out/$v.elf" | grep -q ' __aeabi_d'; then
      no "$case $mode $v: double-precision helpers linked"
    fi
    "$fw/run_fw.sh" "$out/$v.elf" >"$out/$v.log" 2>&1
    if python3 "$fw/fw.py" check-q8 "$dir" "$out/$v.log" "$out/host/output_0.npy" >"$tmp/check"; then
      passed=$((passed + 1))
    else
      no "$case $mode $v: run"; cat "$tmp/check"
    fi
    echo "$case $mode $v: $(cat "$tmp/check")"
  done
}

for dir in "$root"/tests/data/firmware/*/; do
  grep -q '"int8"' "$dir/case.json" || continue
  one "$dir" int16x8 sm2c_rt_conv2d_ohwi_s16
  one "$dir" int4 sm2c_rt_widen_s4_s8
done
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$passed" -gt 0 ]
