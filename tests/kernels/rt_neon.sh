#!/usr/bin/env bash
# rt_neon: the runtime's AArch64 NEON paths, and its portable C path for
# comparison, run on this machine.  The kernel tests test_conv.c,
# test_matmul.c, test_nn.c, test_unary.c, test_lstm_cell.c, test_widen.c and test_par.c (the
# split kernels, on the pthread pool) are cross-compiled for AArch64 (-static) with standalone/sm2c_test.h in place of cmocka, once with NEON and
# once with -DSM2C_RT_PORTABLE_ONLY, and run under qemu-aarch64; so is
# vmath_lanes.c.  test_q8.c runs on the int8 kernels built three ways: Armv8.0
# NEON (the C path, vectorised), Armv8.2 with DotProd (the SDOT paths of
# conv_sdot_s8.h and fc_s8.c, which must be compiled in) and portable.  The runtime files build with -Werror, as
# cmake/runtime_map.py builds them on x86-64.
# Usage: rt_neon.sh SOURCE_DIR WORK_DIR; exits 77 (skipped) without
# aarch64-linux-gnu-gcc or qemu-aarch64 (scripts/setup.sh installs both).
set -euo pipefail
src=$1
out=$2
cc=${SM2C_AARCH64_CC:-aarch64-linux-gnu-gcc}
if ! command -v "$cc" >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
  echo "rt_neon: skipped: needs $cc and qemu-aarch64"
  exit 77
fi

runtime="conv_f32.c matmul_f32.c matvec_f32.c pool_f32.c nn_f32.c unary_f32.c movement.c lstm_cell_f32.c
         par_f32.c pool_pthread.c layer_norm_f32.c binary_f32.c widen_f16.c widen_s4.c cast.c pad_copy_f32.c"
declare -A links=([conv]="conv_f32 matmul_f32 matvec_f32 pool_f32"
                  [matmul]="matmul_f32 matvec_f32" [nn]="nn_f32" [unary]="unary_f32 movement"
                  [lstm_cell]="lstm_cell_f32 unary_f32" [widen]="widen_f16 widen_s4 cast"
                  [par]="par_f32 pool_pthread conv_f32 matmul_f32 matvec_f32 pool_f32 nn_f32 layer_norm_f32 binary_f32
                        unary_f32 movement pad_copy_f32")
cflags=(-std=c99 -O2 -ffp-contract=off -Wall -Wextra -pedantic -I"$src/runtime"
        -I"$src/runtime/include")

# One build: the runtime objects, then each test linked against its own.
build() {
  local tag=$1 def=$2 dir=$out/$1 f fam objs
  mkdir -p "$dir"
  for f in $runtime; do
    $cc "${cflags[@]}" -Werror $def -c "$src/runtime/$f" -o "$dir/${f%.c}.o"
  done
  for fam in conv matmul nn unary lstm_cell par widen; do
    objs=()
    for f in ${links[$fam]}; do objs+=("$dir/$f.o"); done
    $cc "${cflags[@]}" $def -static -I"$src/tests/kernels/standalone" -I"$src/tests/kernels" \
      "$src/tests/kernels/test_$fam.c" "${objs[@]}" -lm -pthread -o "$dir/test_$fam"
  done
}

mkdir -p "$out"
status=0
# vmath_f32.h's NEON exp, tanh and erf against its scalar forms, bit for bit.
$cc "${cflags[@]}" -Werror -static "$src/tests/kernels/vmath_lanes.c" -lm -o "$out/vmath_lanes"
qemu-aarch64 "$out/vmath_lanes" || status=1
for b in "neon:" "portable:-DSM2C_RT_PORTABLE_ONLY"; do
  tag=${b%%:*}
  build "$tag" "${b#*:}"
  for fam in conv matmul nn unary lstm_cell par widen; do
    echo "== $tag test_$fam"
    qemu-aarch64 "$out/$tag/test_$fam" || status=1
  done
done
# The int8 kernels: every *_s8.c, and test_q8 against its reference.
q8flags=(-std=c99 -O2 -ffp-contract=off -Wall -Wextra -pedantic -I"$src/runtime" -I"$src/runtime/include")
for b in "q8_neon:" "q8_dotprod:-march=armv8.2-a+dotprod" "q8_portable:-DSM2C_RT_PORTABLE_ONLY"; do
  tag=${b%%:*} def=${b#*:} objs=()
  mkdir -p "$out/$tag"
  for f in "$src"/runtime/*_s8.c; do
    o=$out/$tag/$(basename "${f%.c}").o
    $cc "${q8flags[@]}" -Werror $def -c "$f" -o "$o"
    objs+=("$o")
  done
  $cc "${q8flags[@]}" $def -static -I"$src/tests/kernels/standalone" -I"$src/tests/kernels" \
    "$src/tests/kernels/test_q8.c" "${objs[@]}" -lm -o "$out/$tag/test_q8"
  echo "== $tag test_q8"
  qemu-aarch64 "$out/$tag/test_q8" || status=1
done
objdump=${cc%gcc}objdump
if command -v "$objdump" >/dev/null; then
  for f in conv_s8 fc_s8; do
    "$objdump" -d "$out/q8_dotprod/$f.o" >"$out/q8_dotprod/$f.s"
    if ! grep -q sdot "$out/q8_dotprod/$f.s"; then
      echo "FAIL: $f.o built with DotProd has no sdot"; status=1
    fi
  done
fi
exit $status
