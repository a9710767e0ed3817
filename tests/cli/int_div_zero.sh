#!/usr/bin/env bash
# Integer division by zero is not undefined behaviour in generated code: the
# checked FloorDiv/FloorMod/TruncateDiv/TruncateMod/Mod kernels make the entry
# point return SM2C_RT_ERR_VALUE (-2), where TensorFlow raises "Integer
# division by zero", through the C and the LLVM backends.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ops="$root/tests/data/ops"
. "$root/tests/e2e/runtime_lib.sh"
rtlib=$(runtime_lib "$sm2c" "$CC" "$tmp/rtlib") || { echo "building the runtime failed"; exit 1; }
# y: int32 or int64 [3, 4] of ones with one zero, as a .npy (standard library only).
python3 - "$tmp" <<'PY'
import struct, sys
for name, code, fmt in (("i32", "<i4", "i"), ("i64", "<i8", "q")):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (3, 4), }" % code
    header += " " * (63 - len(header) % 64) + "\n"
    vals = [1] * 12
    vals[7] = 0
    with open("%s/zero_%s.npy" % (sys.argv[1], name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<12" + fmt, *vals))
PY
fail=0 pass=0
for case in FloorDiv_i32 FloorMod_i64 TruncateDiv_i32 TruncateMod_i64 Mod_i32; do
  sfx=${case##*_}
  for emit in c obj; do
    out=$("$sm2c" run "$ops/$case/model" --signature serving_default --outdir "$tmp/out" --emit $emit --runtime-lib "$rtlib" \
          --input x="$ops/$case/inputs/serving_default/x.npy" --input y="$tmp/zero_$sfx.npy" 2>&1)
    if [ $? -ne 0 ] && grep -q "entry returned -2" <<<"$out"; then
      pass=$((pass + 1))
    else
      echo "$case --emit $emit: want 'entry returned -2', got: $out"
      fail=$((fail + 1))
    fi
  done
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
