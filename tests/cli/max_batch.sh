#!/usr/bin/env bash
# --max-batch N: one compiled program takes 1..N rows at run time.
#  1. tests/data/batch (TensorFlow's outputs at 1, 3 and N rows) through sm2c run,
#     C, object (LLVM) and shared-object forms, which agree bit for bit;
#  2. models it must refuse, each with its exit status and the op or input named;
#  3. the generated entry point itself: batch 0, -1 and N+1 return
#     SM2C_RT_ERR_BATCH (-3), the size macros, and the <name>_batches table
#     (run_batch gives what a direct call gives), for every --emit form.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
read -r -a cc <<<"$CC"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data="$root/tests/data/batch" bad="$root/tests/data/batch_bad"
fail=0 pass=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }

# Under the sanitizers the object and shared-object forms' model code is not
# instrumented (LLVM builds it), and cli_e2e_llvm runs the sanitized LLVM
# backend: that run leaves the obj and so passes of the batch cases to the
# plain run (the so pass compiles the runtime into each case's library: most
# of this test's time under the sanitizers).
forms="c obj so"
case "${SM2C_TEST_CC:-}" in *sanitize*) forms="c" ;; esac
for emit in $forms; do
  if python3 "$root/tests/e2e/check_e2e.py" -j 2 --emit $emit --keep-outputs "$tmp/keep_$emit" \
     --run-args "--threads 1,2,3,8 --task-work 1" "$sm2c" "$data" \
     >"$tmp/e2e.log" 2>&1; then
    ok
  else
    cat "$tmp/e2e.log"; no "check_e2e --emit $emit"
  fi
done
for emit in ${forms#c}; do
  if diff -r "$tmp/keep_c" "$tmp/keep_$emit" >/dev/null; then ok; else no "--emit c and --emit $emit outputs differ"; fi
done

# expect STATUS PATTERN COMMAND...: exit status and a line of stderr, and no
# output directory left behind.
expect() {
  local want=$1 pattern=$2
  shift 2
  local out rc
  out=$("$@" 2>&1 >/dev/null)
  rc=$?
  if [ $rc -eq "$want" ] && grep -q -- "$pattern" <<<"$out" && [ ! -e "$tmp/x" ] && [ ! -e "$tmp/out" ]; then
    ok
  else
    no "$* -> exit $rc (want $want, /$pattern/): $out"
  fi
  rm -rf "$tmp/x" "$tmp/out"
}
# Models under tests/data/batch_bad: status|model|what stderr says.
while IFS='|' read -r status model pattern; do
  expect "$status" "$pattern" "$sm2c" compile "$bad/$model/model" -o "$tmp/x" --max-batch 4
done <<'EOF'
3|row_mixing|'Mean' (Mean): error: --max-batch: it works across the batch dim
3|batch_as_data|(RealDiv): error: --max-batch: input 1 is computed from the batch size
3|train_bn|(FusedBatchNormV3): error: --max-batch: training-mode batch norm
3|transpose_batch|'transpose' (Transpose): error: --max-batch: it moves the batch dim
3|concat_rows|'concat' (ConcatV2): error: --max-batch: it joins along the batch dim
3|softmax_over_batch|(Softmax): error: --max-batch: it works along the last axis, which is the batch dim
3|einsum_over_batch|(Einsum): error: --max-batch: equation 'ab,ac->bc' does not keep label 'b' as the batch
2|fixed_batch|signature 'serving_default': error: --max-batch needs an input whose leading dim is unknown
EOF
expect 2 "input 'x': error: both --shape and --max-batch" \
  "$sm2c" compile "$data/keras_mlp/model" -o "$tmp/x" --max-batch 4 --shape x=2,8
# A program with written variables: refused (state + batch is not composed yet).
expect 3 "error: --max-batch with written variables (state) is not supported yet" \
  "$sm2c" compile "$root/tests/data/ops/State_three_signatures/model" -o "$tmp/x" --signature predict \
  --signature count --max-batch 4
expect 2 "error: compile: --max-batch expects a row count" "$sm2c" compile "$data/keras_mlp/model" -o "$tmp/x" --max-batch 0
# --shape KEY=-1,... leaves the leading dim to the batch: same outputs as without it.
in3="$data/keras_mlp/inputs/serving_default/b3/x.npy"
for shape in "" "--shape x=-1,8"; do
  # shellcheck disable=SC2086
  "$sm2c" run "$data/keras_mlp/model" --signature serving_default --max-batch 5 $shape \
    --input x="$in3" --outdir "$tmp/open${shape:+_shape}" 2>/dev/null
done
if cmp -s "$tmp/open/dense_2.npy" "$tmp/open_shape/dense_2.npy"; then ok; else no "--shape x=-1,8 --max-batch 5"; fi
# sm2c run: more rows than --max-batch, or no rows.
python3 - "$tmp" <<'PY'
import struct, sys
for rows in (0, 6):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, 8), }" % rows
    header += " " * (63 - len(header) % 64) + "\n"
    with open("%s/x%d.npy" % (sys.argv[1], rows), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % (rows * 8), *([0.5] * rows * 8)))
PY
for rows in 0 6; do
  expect 1 "x$rows.npy: error: holds $rows rows; batched inputs must share a batch of 1 to 5" \
    "$sm2c" run "$data/keras_mlp/model" --signature serving_default --max-batch 5 \
    --input x="$tmp/x$rows.npy" --outdir "$tmp/out"
done

# The entry point and the metadata, through each backend.
cat >"$tmp/driver.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "m.h"

#define X M_SERVING_DEFAULT_X
#define Y M_SERVING_DEFAULT_DENSE_2
static float x[M_SERVING_DEFAULT_X_ELEMENTS], y[M_SERVING_DEFAULT_DENSE_2_ELEMENTS];
static float y2[M_SERVING_DEFAULT_DENSE_2_ELEMENTS];

int main(void)
{
    int fails = 0, i;
    void *ins[1], *outs[1];
    for (i = 0; i < M_SERVING_DEFAULT_X_ELEMENTS; i++)
        x[i] = (float)((i * 7) % 11) / 11.0f - 0.5f;
    fails += M_SERVING_DEFAULT_MAX_BATCH != 5;
    fails += M_SERVING_DEFAULT_X_ROW_SIZE != 32 || M_SERVING_DEFAULT_X_SIZE != 160;
    fails += M_SERVING_DEFAULT_DENSE_2_ROW_ELEMENTS != 4 || M_SERVING_DEFAULT_DENSE_2_ELEMENTS != 20;
    fails += m_serving_default(0, x, y) != -3;
    fails += m_serving_default(-1, x, y) != -3;
    fails += m_serving_default(M_SERVING_DEFAULT_MAX_BATCH + 1, x, y) != -3;
    fails += m_serving_default(3, x, y) != 0;
    /* each row sums to 1 (softmax), and rows past the batch are untouched */
    for (i = 0; i < 3; i++)
        fails += y[4 * i] + y[4 * i + 1] + y[4 * i + 2] + y[4 * i + 3] < 0.999f;
    fails += y[12] != 0.0f;
    fails += m_batches[0].max_batch != 5 || m_batches[0].inputs_batched[0] != 1 ||
             m_batches[0].outputs_batched[0] != 1;
    ins[0] = x;
    outs[0] = y2;
    fails += m_batches[0].run_batch(6, ins, outs) != -3;
    fails += m_batches[0].run_batch(3, ins, outs) != 0;
    fails += memcmp(y, y2, sizeof y) != 0;
    fails += m_signatures[0].inputs[0].size_bytes != 160 || m_signatures[0].inputs[0].dims[0] != 5;
    fails += m_signatures[0].run(ins, outs) != 0;   /* at max_batch */
    printf("%d failures\n", fails);
    return fails != 0;
}
C
rtlib=""
for emit in c obj so; do
  gen="$tmp/gen_$emit"
  if ! "$sm2c" compile "$data/keras_mlp/model" -o "$gen" --name m --max-batch 5 --emit $emit 2>"$tmp/err"; then
    no "compile --emit $emit: $(cat "$tmp/err")"; continue
  fi
  case $emit in
    c) srcs=("$gen"/*.c) ;;
    obj) srcs=("$gen"/*.c "$gen/m.o") ;;
    so) srcs=("$gen/m.so" "-Wl,-rpath,$gen") ;;
  esac
  if "${cc[@]}" -std=c99 -O2 -I "$gen" "$tmp/driver.c" "${srcs[@]}" -o "$tmp/driver_$emit" -lm 2>"$tmp/err" &&
     "$tmp/driver_$emit" >"$tmp/out.txt"; then
    ok
  else
    no "driver --emit $emit: $(cat "$tmp/err" "$tmp/out.txt" 2>/dev/null)"
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
