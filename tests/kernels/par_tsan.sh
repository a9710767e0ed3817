#!/usr/bin/env bash
# par_tsan: the split kernels and the pthread pool (test_par.c) under
# ThreadSanitizer, built with clang -fsanitize=thread and the standalone test
# header (no cmocka, whose library is not instrumented).  Any report fails.
# Usage: par_tsan.sh SOURCE_DIR WORK_DIR; exits 77 (skipped) without clang or
# when it cannot build a TSan binary here.
set -euo pipefail
src=$1
out=$2
cc=${SM2C_TSAN_CC:-clang}
command -v "$cc" >/dev/null || { echo "par_tsan: skipped: needs $cc"; exit 77; }
mkdir -p "$out"
rt="par_f32.c pool_pthread.c conv_f32.c matmul_f32.c matvec_f32.c pool_f32.c nn_f32.c layer_norm_f32.c
    binary_f32.c unary_f32.c movement.c pad_copy_f32.c"
srcs=()
for f in $rt; do srcs+=("$src/runtime/$f"); done
if ! "$cc" -std=c99 -D_GNU_SOURCE -O1 -g -fsanitize=thread -Wall -Wextra -pedantic -Werror \
     -Wno-gnu-zero-variadic-macro-arguments -I"$src/tests/kernels/standalone" -I"$src/tests/kernels" \
     -I"$src/runtime" -I"$src/runtime/include" "$src/tests/kernels/test_par.c" "${srcs[@]}" -lm -lpthread \
     -o "$out/test_par_tsan" 2>"$out/build.log"; then
  if grep -q "sanitizer\|tsan" "$out/build.log"; then
    echo "par_tsan: skipped: $cc cannot build with -fsanitize=thread here"; cat "$out/build.log"; exit 77
  fi
  cat "$out/build.log"; exit 1
fi
TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$out/test_par_tsan" 2>&1 | tee "$out/run.log"
status=${PIPESTATUS[0]}
if grep -q "WARNING: ThreadSanitizer" "$out/run.log"; then
  echo "par_tsan: ThreadSanitizer reported a race"; exit 1
fi
exit "$status"
