#!/usr/bin/env bash
# Contexts from several threads at once (issue 29's acceptance): the CNN of
# tests/data/e2e/cnn, compiled with every splittable step split (--task-work
# 1), through the C backend and the LLVM backend (--emit obj).  For each,
# ctx_threads_main.c runs two callers at once, each on its own context and
# inputs (a pthread pool each, then OpenMP's parallel-for as the hook), and
# one context on 1 to 8 threads, checking every output against the static
# entry point's serial outputs bit for bit.  Then the C form again under
# ThreadSanitizer (clang -fsanitize=thread; skipped without it): any report
# fails.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
cc=${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}
fail=0 passed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model=$root/tests/data/e2e/cnn/model
main=$root/tests/cli/ctx_threads_main.c
omp=""
echo 'int main(void){return 0;}' > "$tmp/omp.c"
$cc -fopenmp "$tmp/omp.c" -o "$tmp/omp" 2>/dev/null && omp=-fopenmp

run_form() { # form, out dir, label
  local form=$1 out=$2 label=$3
  if ! "$sm2c" compile "$model" -o "$out" --name cnn --shape image=4,16,16,3 --task-work 1 --emit "$form" \
       2>"$tmp/compile.log"; then
    cat "$tmp/compile.log"; fail=$((fail + 1)); return
  fi
  local srcs=("$out"/*.c)
  [ -e "$out/cnn.o" ] && srcs+=("$out/cnn.o")
  # shellcheck disable=SC2086
  if ! $cc -std=c99 -O2 $omp -pthread -DMODEL=cnn -I"$out" "$main" "${srcs[@]}" -lm -o "$out/test" \
       2>"$tmp/build.log"; then
    echo "FAIL $label: build"; cat "$tmp/build.log"; fail=$((fail + 1)); return
  fi
  if "$out/test"; then passed=$((passed + 1)); echo "ok   $label"; else fail=$((fail + 1)); echo "FAIL $label"; fi
}
run_form c "$tmp/c" "C backend"
run_form obj "$tmp/obj" "LLVM backend (--emit obj)"
grep -q "sm2c_rt_conv2d_f32_par" "$tmp/c/cnn.c" && passed=$((passed + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: the C output splits no step, so the test shows nothing"; }

# The padded copy of the first convolution's input is too small to split by
# its own work, so it splits as the convolution that reads it (split.c): the
# same task count, each band written on the core that reads it.
if "$sm2c" compile "$model" -o "$tmp/pad" --name cnn --shape image=4,16,16,3 2>"$tmp/pad.log"; then
  pair=$(grep -o "sm2c_rt_[a-z0-9_]*_par(&ctx->par, [0-9]*" "$tmp/pad/cnn.c" | head -2 | sed 's/(&ctx->par, / /')
  if [ "$(echo "$pair" | awk 'NR==1 {k=$1; n=$2} NR==2 {print k, $1, (n == $2 && n > 1)}')" = \
       "sm2c_rt_pad_copy_f32_par sm2c_rt_conv2d_f32_par 1" ]; then
    passed=$((passed + 1)); echo "ok   the padded copy splits as its convolution"
  else
    fail=$((fail + 1)); echo "FAIL: the padded copy does not split as its convolution:"; echo "$pair"
  fi
else
  fail=$((fail + 1)); cat "$tmp/pad.log"
fi

tsan=${SM2C_TSAN_CC:-clang}
if command -v "$tsan" >/dev/null && [ -d "$tmp/c" ]; then
  if $tsan -std=c99 -O1 -g -fsanitize=thread -pthread -DMODEL=cnn -I"$tmp/c" "$main" "$tmp"/c/*.c -lm \
       -o "$tmp/tsan" 2>"$tmp/tsan_build.log"; then
    TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$tmp/tsan" > "$tmp/tsan.log" 2>&1
    status=$?
    if [ "$status" -eq 0 ] && ! grep -q "WARNING: ThreadSanitizer" "$tmp/tsan.log"; then
      passed=$((passed + 1)); echo "ok   under ThreadSanitizer"
    else
      fail=$((fail + 1)); echo "FAIL under ThreadSanitizer (status $status)"; head -40 "$tmp/tsan.log"
    fi
  else
    echo "skip ThreadSanitizer: $tsan cannot build with -fsanitize=thread here"; head -5 "$tmp/tsan_build.log"
  fi
else
  echo "skip ThreadSanitizer: no $tsan"
fi
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
