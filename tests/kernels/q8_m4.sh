#!/usr/bin/env bash
# q8_m4: the int8 kernels on a Cortex-M4F under QEMU (mps2-an386), where they
# take conv_m_s8.h's register-summed loops: test_q8.c, built with
# standalone/sm2c_test.h in place of cmocka on the firmware test's startup and
# linker script (tests/firmware), once with the DSP extension's SMLAD paths
# (dsp_s8.h; -mcpu=cortex-m4 has them) and once with -DSM2C_RT_PORTABLE_ONLY,
# each against the same references, bit for bit.  The runtime files build with
# -Werror.  Usage: q8_m4.sh SOURCE_DIR WORK_DIR; exits 77 (skipped) without
# arm-none-eabi-gcc or qemu-system-arm.
set -euo pipefail
src=$1
out=$2
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "q8_m4: skipped: needs $tool"; exit 77; }
done
fw=$src/tests/firmware
runtime="conv_s8.c conv_packed_s8.c conv_ohwi_s8.c dw_plane_s8.c fc_s8.c fc_m_s8.c fc_hybrid_s8.c pool_s8.c eltwise_s8.c mean_s8.c softmax_s8.c quantize_s8.c pad_copy_s8.c requantize_s8.c lut_s8.c"
cflags=(-std=c99 -Os -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -ffp-contract=off
        -ffunction-sections -fdata-sections -Wall -Wextra -pedantic -I"$src/runtime" -I"$src/runtime/include")
mkdir -p "$out"
status=0
for b in "dsp:" "portable:-DSM2C_RT_PORTABLE_ONLY"; do
  tag=${b%%:*} def=${b#*:} dir=$out/${b%%:*}
  mkdir -p "$dir"
  objs=()
  for f in $runtime; do
    arm-none-eabi-gcc "${cflags[@]}" -Werror $def -c "$src/runtime/$f" -o "$dir/${f%.c}.o"
    objs+=("$dir/${f%.c}.o")
  done
  # Which path the build took: SMLAD in the DSP objects, none in the portable ones.
  n=$(arm-none-eabi-objdump -d "$dir/conv_s8.o" "$dir/conv_ohwi_s8.o" "$dir/dw_plane_s8.o" "$dir/fc_s8.o" "$dir/fc_m_s8.o" | grep -c $'\tsmlad' || true)
  if { [ "$tag" = dsp ] && [ "$n" -eq 0 ]; } || { [ "$tag" = portable ] && [ "$n" -ne 0 ]; }; then
    echo "FAIL: $tag build has $n SMLAD instructions"; status=1
  fi
  arm-none-eabi-gcc "${cflags[@]}" $def -I"$src/tests/kernels/standalone" -I"$src/tests/kernels" -I"$fw" \
    "$fw/startup.c" "$fw/semihost.c" "$fw/newlib_sys.c" "$src/tests/kernels/test_q8.c" "${objs[@]}" \
    -nostartfiles --specs=nano.specs -T "$fw/link.ld" -Wl,--gc-sections --specs=nosys.specs -lm -o "$dir/test_q8.elf"
  echo "== $tag test_q8 (Cortex-M4F)"
  # The exit status is main's (semihosting); newlib-nano's printf has no %zu,
  # so the tests that passed are counted here.
  "$fw/run_fw.sh" "$dir/test_q8.elf" >"$dir/log" 2>&1 || status=1
  grep -v '^q8: ' "$dir/log"
  want=$(grep -c 'cmocka_unit_test(test_' "$src/tests/kernels/test_q8.c")
  [ "$(grep -c '^\[       OK \]' "$dir/log")" -eq "$want" ] || { echo "FAIL: $tag: not all $want passed"; status=1; }
done
exit $status
