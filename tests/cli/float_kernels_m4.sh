#!/usr/bin/env bash
# No double precision in float32 kernels (issue 15): every runtime kernel with
# f32 in its name and no f64, compiled alone for a Cortex-M4F (single-precision FPU) at
# -Os, references no __aeabi_d* helper, except the known ones listed below.
set -u
sm2c=$(realpath "$1")
command -v arm-none-eabi-gcc >/dev/null || { echo "skip: no arm-none-eabi-gcc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Known: casts from or to float go through double (range checks); training
# batch norm sums in double; TF itself computes in double Box-Muller's 2*pi*u
# (random normals), the bicubic coefficient table and the gaussian sampling
# kernel of ScaleAndTranslate, which the kernels match bit for bit.
known=" sm2c_rt_cast_f32_bf16 sm2c_rt_cast_f32_f16 sm2c_rt_cast_f32_f32 sm2c_rt_cast_f32_i16
 sm2c_rt_cast_f32_i32 sm2c_rt_cast_f32_i8 sm2c_rt_cast_f32_u16 sm2c_rt_cast_f32_u32
 sm2c_rt_cast_f32_u8 sm2c_rt_cast_bf16_f32 sm2c_rt_cast_f16_f32
 sm2c_rt_batch_norm_train_f32
 sm2c_rt_random_normal_f32 sm2c_rt_random_truncated_normal_f32 sm2c_rt_resize_bicubic_f32
 sm2c_rt_scale_translate_f32 "
known=" $(echo $known) "
fail=0 checked=0
for k in $("$sm2c" runtime --list | cut -d: -f1 | grep '_f32' | grep -v 'f64'); do
  d=$tmp/$k
  "$sm2c" runtime --kernel "$k" -o "$d" || { echo "FAIL: $k: no files"; fail=$((fail + 1)); continue; }
  # A family ships sm2c_rt_<kernel>.c; a one-kernel file ships as it is.
  if ! (cd "$d" && arm-none-eabi-gcc -std=c99 -Os -mcpu=cortex-m4 -mthumb -mfloat-abi=hard \
      -mfpu=fpv4-sp-d16 -ffp-contract=off -I. -c ./*.c) 2>"$tmp/log"; then
    echo "FAIL: $k: does not compile for Cortex-M4F"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  checked=$((checked + 1))
  helpers=$(arm-none-eabi-nm "$d"/*.o | awk '$1 == "U" && $2 ~ /^__aeabi_d/ { print $2 }' | tr '\n' ' ')
  case "$known" in *" $k "*) continue ;; esac
  if [ -n "$helpers" ]; then
    echo "FAIL: $k uses double precision: $helpers"; fail=$((fail + 1))
  fi
done
echo "$checked float32 kernels compiled, $fail failed"
[ "$fail" -eq 0 ] && [ "$checked" -gt 100 ]
