#!/usr/bin/env bash
# Where outputs go (issue 17): `sm2c run` names each output file by the exact
# output key ("1head_dense.npy", not a C identifier), and `sm2c compile -o
# a/b/c` creates the missing parent directories.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if "$@"; then :; else echo "FAIL: $*"; fail=1; fi; }
model=$root/tests/data/models/output_keys

# The outputs are named by their keys and hold TensorFlow's values.
check "$sm2c" run "$model" --signature serving_default --input x="$model/x.npy" --outdir "$tmp/run"
check test "$(ls "$tmp/run" | tr '\n' ' ')" = "1head_dense.npy head-2.npy "
# Same header and data as TensorFlow's (both are float32 .npy v1 files).
for k in 1head_dense head-2; do
  check python3 - "$tmp/run/$k.npy" "$model/expected_$k.npy" <<'PY'
import struct, sys
def load(p):
    raw = open(p, "rb").read()
    n = struct.unpack_from("<H", raw, 8)[0]
    hdr = raw[10:10 + n].decode("latin1")
    return hdr[hdr.index("'shape'"):hdr.index(")") + 1], raw[10 + n:]
got, want = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if got == want else 1)
PY
done

# compile -o with missing parents creates them.
check "$sm2c" compile "$model" -o "$tmp/a/b/c" 2>/dev/null
check test -f "$tmp/a/b/c/output_keys.h"
[ $fail -eq 0 ] && echo "output_names: all checks passed"
exit $fail
