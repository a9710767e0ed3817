#!/usr/bin/env bash
# The generated C and the runtime on AArch64 (its NEON paths) against
# TensorFlow: three image models of tests/data/e2e (Conv2D, DepthwiseConv2D,
# MatMul, pools, Softmax) compiled by sm2c, built by aarch64-linux-gnu-gcc
# -static with -Werror and run under qemu-aarch64 by a small driver, their
# outputs compared with the .npy references within each case's tolerance.
# Skipped (77) without the cross compiler or qemu-aarch64.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
cc=${SM2C_AARCH64_CC:-aarch64-linux-gnu-gcc}
if ! command -v "$cc" >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
  echo "skip: needs $cc and qemu-aarch64"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The entry point ENTRY(input, output) on NIN floats from argv[1], its NOUT
# floats to argv[2], raw.
cat >"$tmp/driver.c" <<'C'
#include <stdio.h>
#include MODEL_H

static float in[NIN], out[NOUT];

int main(int argc, char **argv)
{
    FILE *f;
    if (argc != 3 || !(f = fopen(argv[1], "rb")) || fread(in, sizeof in, 1, f) != 1)
        return 2;
    fclose(f);
    if (ENTRY(in, out) != 0 || !(f = fopen(argv[2], "wb")) || fwrite(out, sizeof out, 1, f) != 1)
        return 1;
    return fclose(f) != 0;
}
C

# npy.py: raw float32 of a .npy (to), or a .npy against raw float32 (check).
cat >"$tmp/npy.py" <<'PY'
import ast, json, struct, sys
def load(path):
    d = open(path, "rb").read()
    n = 2 if d[6] == 1 else 4
    h = int.from_bytes(d[8:8 + n], "little")
    assert ast.literal_eval(d[8 + n:8 + n + h].decode("latin1"))["descr"] == "<f4"
    return d[8 + n + h:]
if sys.argv[1] == "raw":
    open(sys.argv[3], "wb").write(load(sys.argv[2]))
    print(len(load(sys.argv[2])) // 4)
else:
    tol = json.load(open(sys.argv[4])).get("tolerance", {})
    rtol, atol = tol.get("rtol", 1e-5), tol.get("atol", 1e-5)
    want = struct.unpack("<%df" % (len(load(sys.argv[2])) // 4), load(sys.argv[2]))
    got = struct.unpack("<%df" % len(want), open(sys.argv[3], "rb").read())
    bad = [i for i, (w, g) in enumerate(zip(want, got)) if not abs(g - w) <= atol + rtol * abs(w)]
    worst = max(abs(g - w) for w, g in zip(want, got))
    print("%d outputs, worst error %.3g%s" % (len(want), worst,
          "" if not bad else ", element %d: got %r want %r" % (bad[0], got[bad[0]], want[bad[0]])))
    sys.exit(1 if bad else 0)
PY

fail=0 passed=0
# case signature input output shape
while read -r case sig input output shape; do
  d=$root/tests/data/e2e/$case out=$tmp/$case
  if ! "$sm2c" compile "$d/model" -o "$out" --name "$case" --signature "$sig" \
       --shape "$input=$shape" >/dev/null 2>&1; then
    echo "FAIL: $case: sm2c compile"; fail=$((fail + 1)); continue
  fi
  nin=$(python3 "$tmp/npy.py" raw "$d/inputs/$sig/$input.npy" "$out/in.bin")
  nout=$(python3 "$tmp/npy.py" raw "$d/expected/$sig/$output.npy" "$out/want.bin")
  if ! "$cc" -std=c99 -O2 -Wall -Wextra -pedantic -Werror -static -I"$out" \
       -DMODEL_H="\"$case.h\"" -DENTRY="${case}_$sig" -DNIN="$nin" -DNOUT="$nout" \
       "$tmp/driver.c" "$out"/*.c -lm -o "$out/run"; then
    echo "FAIL: $case: build for aarch64"; fail=$((fail + 1)); continue
  fi
  if qemu-aarch64 "$out/run" "$out/in.bin" "$out/got.bin" &&
     python3 "$tmp/npy.py" check "$d/expected/$sig/$output.npy" "$out/got.bin" "$d/case.json"; then
    passed=$((passed + 1))
  else
    echo "FAIL: $case: outputs differ from TensorFlow's"; fail=$((fail + 1))
  fi
done <<'CASES'
cnn serve image output_0 2,16,16,3
bn_fold serving_default image head 2,10,10,3
keras3_fold serve image output_0 2,9,11,3
CASES

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
