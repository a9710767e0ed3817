#!/usr/bin/env bash
# sm2c run --dump-intermediates DIR and sm2c.verify(..., per_layer=True)
# against TensorFlow's tensors for the same nodes, committed by
# tests/models/gen_layers.py (tests/data/layers; no TensorFlow needed here):
#  1. the dump: DIR/index.json maps each step to its node and file, a fused
#     step is named by its last node, a helper step (the padded copy) has node
#     null, and the last step's file is the run's output;
#  2. verify(per_layer=True, reference=...) agrees on every layer of the e2e cnn
#     and mlp (docs/reliability.md section 9 tolerances);
#  3. with the MaxPool and the Dense reference perturbed it names the MaxPool,
#     the first node in step order past the tolerance; with the first layer
#     perturbed, that one;
#  4. --dump-intermediates with --emit so or --max-batch is refused (exit 2).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c "import numpy" 2>/dev/null || { echo "skip: needs python3-numpy"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi; }
ref=$root/tests/data/layers
cnn=$root/tests/data/e2e/cnn/model

"$sm2c" run "$cnn" --signature serving_default --input image="$ref/cnn/input.image.npy" --outdir "$tmp/out" \
  --dump-intermediates "$tmp/dump" -q; rc=$?
check "run --dump-intermediates exits 0" test $rc = 0
check "the index names each step's node and file" "$py" - "$tmp" <<'PY'
import json, os, sys
import numpy as np
d = sys.argv[1] + "/dump"
steps = json.load(open(d + "/index.json"))["steps"]
nodes = [s["node"] for s in steps]
want = [None, "sequential_1_1/re_lu_1/Relu", "sequential_1_1/max_pooling2d_1/MaxPool2d",
        "sequential_1_1/conv2d_1_2/BiasAdd", "sequential_1_1/dense_3_1/BiasAdd", "sequential_1_1/dense_3_1/Softmax"]
print("  nodes:", nodes)
assert nodes == want, nodes
assert [s["step"] for s in steps] == list(range(6))
assert steps[1]["file"] == "sequential_1_1__re_lu_1__Relu.npy" and steps[1]["op"] == "Conv2D"
assert steps[0]["file"] == "sequential_1_1__re_lu_1__Relu.step0.npy"
for s in steps:
    a = np.load(os.path.join(d, s["file"]))
    assert list(a.shape) == s["shape"] and str(a.dtype) == s["dtype"], s
last = np.load(os.path.join(d, steps[-1]["file"]))
assert np.array_equal(last, np.load(sys.argv[1] + "/out/output_0.npy"))
PY

verify() {  # CASE REFDIR -> prints first_bad_node and the compared count
  SM2C="$sm2c" PYTHONPATH="$root/python" "$py" - "$root" "$1" "$2" <<'PY'
import json, sys
import numpy as np
import sm2c
root, case, ref = sys.argv[1:]
idx = json.load(open(ref + "/index.json"))
inputs = {k: np.load(ref + "/" + f) for k, f in idx["inputs"].items()}
r = sm2c.verify(root + "/tests/data/e2e/%s/model" % case, inputs, per_layer=True, reference=ref)
compared = [l for l in r["layers"] if l["ok"] is not None]
print(r["first_bad_node"], len(compared))
PY
}
got=$(verify cnn "$ref/cnn"); echo "  cnn: $got"
check "cnn: every layer agrees with TensorFlow's (5 compared)" test "$got" = "None 5"
got=$(verify mlp "$ref/mlp"); echo "  mlp: $got"
check "mlp: every layer agrees with TensorFlow's (4 compared)" test "$got" = "None 4"

perturb() {  # DIR NODE-FILE...: add 1e-2 to those reference tensors
  local dir=$1; shift
  for f in "$@"; do
    "$py" -c "import numpy as np, sys; a = np.load(sys.argv[1]); np.save(sys.argv[1], a + np.float32(1e-2))" "$dir/$f"
  done
}
cp -r "$ref/cnn" "$tmp/bad"
perturb "$tmp/bad" StatefulPartitionedCall__sequential_1_1__dense_3_1__BiasAdd.npy \
  StatefulPartitionedCall__sequential_1_1__max_pooling2d_1__MaxPool2d.npy
got=$(verify cnn "$tmp/bad"); echo "  perturbed MaxPool and Dense: $got"
check "a perturbed reference names the first node past the tolerance" \
  test "$got" = "sequential_1_1/max_pooling2d_1/MaxPool2d 5"
cp -r "$ref/cnn" "$tmp/bad1"
perturb "$tmp/bad1" StatefulPartitionedCall__sequential_1_1__re_lu_1__Relu.npy
got=$(verify cnn "$tmp/bad1"); echo "  perturbed Relu: $got"
check "a perturbed first layer is named" test "$got" = "sequential_1_1/re_lu_1/Relu 5"

for bad in "--emit so" "--max-batch 4"; do
  msg=$("$sm2c" run "$cnn" --signature serving_default --input image="$ref/cnn/input.image.npy" \
        --outdir "$tmp/o2" --dump-intermediates "$tmp/d2" $bad 2>&1); rc=$?
  echo "  $bad: exit $rc: $msg"
  check "--dump-intermediates with $bad is refused (exit 2)" \
    bash -c "[ $rc = 2 ] && printf '%s' \"\$1\" | grep -q 'error: --dump-intermediates'" _ "$msg"
done
check "nothing is written when refused" test ! -e "$tmp/d2"
exit $fail
