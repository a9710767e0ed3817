#!/usr/bin/env bash
# Polymorphic tf.functions as entry points (issue 5): `sm2c inspect` lists each
# concrete function's entry key, --function PATH compiles all of a
# tf.function's concrete functions into one output (one copy of the weights),
# and bad --function values get one-line errors.  Numerics against TensorFlow
# are in tests/data/ops/Function_* (ops_conformance).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
model=$root/tests/data/ops/Function_retraced/model
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
inspect=$("$sm2c" inspect "$model")
for key in double_0 double_1 scaled_0 scaled_1; do
  check "inspect lists entry $key" grep -q "entry: $key (--function ${key%_*})" <<<"$inspect"
done
"$sm2c" compile "$model" -o "$tmp/all" --function double --function scaled_1 2>"$tmp/err"
check "compile --function double --function scaled_1" [ $? -eq 0 ]
for fn in model_double_0 model_double_1 model_scaled_1; do
  check "header declares $fn" grep -q "^int32_t $fn(" "$tmp/all/model.h"
done
check "no signature entry when only --function is given" \
  bash -c "! grep -q '^int32_t model_serving_default' '$tmp/all/model.h'"
check "the header names the tf.function and its traced input signature" \
  grep -q 'Function "scaled_1" (tf.function scaled traced for ((x: float32\[3\], 3), {}));' "$tmp/all/model.h"
"$sm2c" compile "$model" -o "$tmp/scaled" --function scaled --report "$tmp/report" 2>/dev/null
check "scaled_0 and scaled_1 share one copy of v and of c (and have n = 2, 3)" grep -qx "weights 4 tensors, 32 bytes" "$tmp/report"
out=$("$sm2c" compile "$model" -o "$tmp/none" --function nope 2>&1)
check "unknown --function exits 1" [ $? -eq 1 ]
check "unknown --function error" grep -q "no tf.function or concrete function 'nope'" <<<"$out"
check "nothing written on error" [ ! -e "$tmp/none" ]
out=$("$sm2c" run "$model" --function scaled --input x="$root/tests/data/ops/Function_retraced/inputs/scaled_0/x.npy" \
      --outdir "$tmp/run" 2>&1)
check "run --function with two concrete functions exits 1" [ $? -eq 1 ]
check "run --function names the choice" grep -q "selects 2 concrete functions" <<<"$out"
out=$("$sm2c" compile "$model" -o "$tmp/nosig" 2>&1)
check "a model without signatures points at --function" grep -q "no signature to compile (its tf.functions compile with --function PATH" <<<"$out"
echo "$passed passed, $fail failed"
[ $fail -eq 0 ]
