#!/usr/bin/env bash
# Every TensorFlow-referenced case in tests/data/e2e through the C backend
# (--emit c, built with $SM2C_TEST_CC: gcc with -Werror in scripts/test.sh's
# plain run, clang with ASan and UBSan in its sanitizer run) and the LLVM
# backend (--emit obj and --emit so): each must match TensorFlow, and every
# LLVM output must be bit-identical to the C backend's, since both call the
# same runtime kernels; and each context entry point on 1, 2, 3 and 8 threads
# must give the static one's outputs (every splittable step split).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
# Under the sanitizers (scripts/test.sh's second run) the so form is left to
# the plain run's so_dlopen, which runs every e2e case through it: LLVM
# builds both forms' model code uninstrumented, so a second pass adds time
# and no check.
forms="c obj so"
case "$CC" in *-fsanitize*) forms="c obj" ;; esac
for emit in $forms; do
  if python3 "$root/tests/e2e/check_e2e.py" -j "$(nproc)" --emit "$emit" --keep-outputs "$tmp/$emit" \
       --run-args "--threads 1,2,3,8 --task-work 1" \
       "$sm2c" "$root/tests/data/e2e" > "$tmp/$emit.log" 2>&1; then
    passed=$((passed + 1)); echo "ok   --emit $emit: $(tail -1 "$tmp/$emit.log")"
  else
    fail=$((fail + 1)); echo "FAIL --emit $emit:"; grep -v "^ok\|: ok " "$tmp/$emit.log"
  fi
done
for emit in ${forms#c }; do
  if diff -r "$tmp/c" "$tmp/$emit" > "$tmp/diff.log"; then
    passed=$((passed + 1)); echo "ok   --emit $emit outputs are bit-identical to --emit c"
  else
    fail=$((fail + 1)); echo "FAIL --emit $emit outputs differ from --emit c:"; head -5 "$tmp/diff.log"
  fi
done
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
