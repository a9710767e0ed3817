#!/usr/bin/env bash
# The firmware test of issue 15: the models of tests/data/firmware, compiled by
# sm2c, built with arm-none-eabi-gcc -Os for a Cortex-M4F and run under QEMU
# (mps2-an386).  Per model: outputs within tolerance of TensorFlow's, the
# painted stack not above the header's _STACK_SIZE, no double-precision
# helper (__aeabi_d*) in the link; code, data, bss and stack are printed.
# The cases whose case.json has "int8" (DS-CNN, cnn28) also run compiled with
# --quantize int8 --target thumbv7em-none-eabihf (issue 16; the Cortex-M
# convolution, conv_ohwi_s8.c), on the runtime's SMLAD paths (the Cortex-M4's
# DSP extension): outputs bit for bit those of the same int8 program on this
# machine (sm2c run), within the int8 tolerance of TensorFlow's, stack within
# its bound, no double helpers; and built again on the portable C paths
# (-DSM2C_RT_PORTABLE_ONLY): the same bits, stack within the same bound.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "skip: no $tool"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fw=$root/tests/firmware
fail=0 passed=0
for dir in "$root"/tests/data/firmware/*/; do
  case=$(basename "$dir")
  out=$tmp/$case
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  if ! "$sm2c" compile "$root/$model" -o "$out" --name "$case" --signature serving_default \
      --shape "$input=$shape" --opt Os --target thumbv7em-none-eabihf --report "$out/report.txt" 2>"$tmp/log"; then
    echo "FAIL: $case: compile"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  python3 "$fw/fw.py" header "$dir" "$case" serving_default >"$out/fw_case.h"
  if ! "$fw/build_fw.sh" "$out/fw.elf" "$out" "$out"/*.c 2>"$tmp/log"; then
    echo "FAIL: $case: firmware build"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  if arm-none-eabi-nm "$out/fw.elf" | grep -q ' __aeabi_d'; then
    echo "FAIL: $case: double-precision helpers linked:"
    arm-none-eabi-nm "$out/fw.elf" | grep ' __aeabi_d' | head -5
    fail=$((fail + 1))
  fi
  "$fw/run_fw.sh" "$out/fw.elf" >"$out/run.log" 2>&1
  if python3 "$fw/fw.py" check "$dir" "$out/run.log" >"$tmp/check"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $case: run"; cat "$out/run.log"; fail=$((fail + 1))
  fi
  # The report's RAM names the stack bound the header states for Cortex-M, the target compiled for.
  bound=$(sed -n 's/^bound //p' "$out/run.log")
  if ! grep -q "^footprint serving_default: flash [0-9]* bytes (code ~[0-9]*, weights [0-9]*), ram [0-9]* bytes (arena [0-9]*, state 0, stack $bound); code for Cortex-M4F -Os, stack for Cortex-M4F" \
      "$out/report.txt"; then
    echo "FAIL: $case: report footprint"; cat "$out/report.txt"; fail=$((fail + 1))
  fi
  # The benchmark's plugin (tests/firmware/insn_count.c): instructions and the
  # Cortex-M4 cycle estimate, consistent with each other, on one model (sine).
  if [ "$case" = sine ]; then
    gcc -std=c99 -O2 -Wall -Wextra -Werror -shared -fPIC -o "$tmp/insn_count.so" "$fw/insn_count.c" \
      "$fw/m4_timing.c"
    addr() { arm-none-eabi-nm "$out/fw.elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
    "$fw/run_fw.sh" "$out/fw.elf" -plugin \
      "$tmp/insn_count.so,begin=$(addr fw_mark_begin),end=$(addr fw_mark_end)" -d plugin >"$out/plugin.log" 2>&1
    if ! python3 - "$out/plugin.log" <<'PY'
import sys
v = dict(l.split() for l in open(sys.argv[1]) if l.split()[:1] and l.split()[0] in
         ('insns', 'cycles', 'cycles_base', 'refills', 'divides') and len(l.split()) == 2)
v = {k: int(x) for k, x in v.items()}
ok = len(v) == 5 and v['insns'] > 0 and v['cycles_base'] >= v['insns'] and \
    v['cycles'] == v['cycles_base'] + 2 * v['refills'] and 0 < v['refills'] < v['insns']
print('plugin:', v)
sys.exit(0 if ok else 1)
PY
    then
      echo "FAIL: $case: the cycle-estimating plugin's counts"; cat "$out/plugin.log" | tail -8; fail=$((fail + 1))
    fi
  fi
  sizes=$(arm-none-eabi-size -A "$out/fw.elf" | awk '$1 ~ /^\.(text|rodata|data|bss)$/ {printf "%s %s ", $1, $2}')
  echo "$case: $sizes; $(cat "$tmp/check")"
done
for dir in "$root"/tests/data/firmware/*/; do
  grep -q '"int8"' "$dir/case.json" || continue
  case=$(basename "$dir")
  out=$tmp/q8_$case
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  mkdir -p "$out"
  python3 "$fw/fw.py" calib "$dir" "$out/calib.npy" && python3 "$fw/fw.py" calib "$dir" "$out/input.npy" 1
  qflags=(--signature serving_default --quantize int8 --calibration "$input=$out/calib.npy")
  if ! "$sm2c" run "$root/$model" "${qflags[@]}" --input "$input=$out/input.npy" --outdir "$out/host" \
      >"$tmp/log" 2>&1; then
    echo "FAIL: $case int8: host run"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  # --target: the C for a Cortex-M, int8 Conv2D filters in its SMLAD kernel's layout.
  if ! "$sm2c" compile "$root/$model" -o "$out/c" --name "$case" --shape "$input=$shape" "${qflags[@]}" \
      --target thumbv7em-none-eabihf 2>"$tmp/log"; then
    echo "FAIL: $case int8: compile"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  if ! grep -q 'sm2c_rt_conv2d_ohwi_s8' "$out/c/$case.c"; then
    echo "FAIL: $case int8: --target thumbv7em did not take the Cortex-M convolution"; fail=$((fail + 1))
  fi
  python3 "$fw/fw.py" header "$dir" "$case" serving_default >"$out/c/fw_case.h"
  if ! "$fw/build_fw.sh" "$out/fw.elf" "$out/c" "$out"/c/*.c 2>"$tmp/log"; then
    echo "FAIL: $case int8: firmware build"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  if ! arm-none-eabi-objdump -d "$out/fw.elf" | grep -q $'\tsmlad'; then
    echo "FAIL: $case int8: no SMLAD in the image"; fail=$((fail + 1))
  fi
  if arm-none-eabi-nm "$out/fw.elf" | grep -q ' __aeabi_d'; then
    echo "FAIL: $case int8: double-precision helpers linked"; fail=$((fail + 1))
  fi
  "$fw/run_fw.sh" "$out/fw.elf" >"$out/run.log" 2>&1
  if python3 "$fw/fw.py" check-q8 "$dir" "$out/run.log" "$out/host/output_0.npy" >"$tmp/check"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $case int8: run"; cat "$tmp/check"; fail=$((fail + 1))
  fi
  sizes=$(arm-none-eabi-size -A "$out/fw.elf" | awk '$1 ~ /^\.(text|rodata|data|bss)$/ {printf "%s %s ", $1, $2}')
  echo "$case int8: $sizes; $(cat "$tmp/check")"
  # The same program on the portable C paths (firmware for a core without the
  # DSP extension): the same bits, and the header's one stack bound holds.
  if ! "$fw/build_fw.sh" "$out/fw_portable.elf" "$out/c" "$out"/c/*.c -DSM2C_RT_PORTABLE_ONLY 2>"$tmp/log"; then
    echo "FAIL: $case int8 portable: firmware build"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  "$fw/run_fw.sh" "$out/fw_portable.elf" >"$out/run_portable.log" 2>&1
  if python3 "$fw/fw.py" check-q8 "$dir" "$out/run_portable.log" "$out/host/output_0.npy" >"$tmp/check"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $case int8 portable: run"; cat "$tmp/check"; fail=$((fail + 1))
  fi
  echo "$case int8 portable: $(cat "$tmp/check")"
done
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
