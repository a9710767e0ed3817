#!/usr/bin/env bash
# Where outputs go (issue 17): `sm2c run` names each output file by the exact
# output key ("1head_dense.npy", not a C identifier), and `sm2c compile -o
# a/b/c` creates the missing parent directories.  Keys named like C++
# keywords (`class`, `new`) are mangled, so the header compiles as C++ too.
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
# A text SavedModel whose input is `class` and output `new`: the parameters
# may not take those names, since C++ includes the header inside extern "C".
kw=$tmp/kw
mkdir -p "$kw"
cat >"$kw/saved_model.pbtxt" <<'EOF'
saved_model_schema_version: 1
meta_graphs {
  meta_info_def { tags: "serve" tensorflow_version: "2.21.0" }
  graph_def {
    node { name: "x" op: "Placeholder"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "shape" value { shape { dim { size: 4 } } } } }
    node { name: "y" op: "Relu" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
  }
  signature_def {
    key: "serving_default"
    value {
      inputs { key: "class" value { name: "x:0" dtype: DT_FLOAT tensor_shape { dim { size: 4 } } } }
      outputs { key: "new" value { name: "y:0" } }
      method_name: "tensorflow/serving/predict"
    }
  }
}
EOF
check "$sm2c" compile "$kw" -o "$tmp/kw_out" --name kw
check grep -q 'int32_t kw_serving_default(const float \*x_class, float \*x_new);' "$tmp/kw_out/kw.h"
cxx=$(command -v c++ || command -v g++ || command -v clang++ || true)
if [ -n "$cxx" ]; then
  echo '#include "kw.h"' >"$tmp/kw.cc"
  check "$cxx" -fsyntax-only -Wall -Werror -I "$tmp/kw_out" "$tmp/kw.cc"
fi

[ $fail -eq 0 ] && echo "output_names: all checks passed"
exit $fail
