#!/usr/bin/env bash
# Data-dependent output sizes (ops_dyn.c): the ABI a header documents (an
# int64 count argument per such output after the outputs, _BOUND and
# _DYNAMIC_DIM macros, tensor_info.dynamic_dim), and consumers that would mix
# rows (Max over them, Cumsum) refused with "data-dependent shape reaches <op>" (exit 3).
set -u
case "${SM2C_TEST_CC:-}" in *sanitize*) echo "sanitizer build: nothing generated is run"; exit 77 ;; esac
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$tmp/det
"$sm2c" compile "$root/tests/data/ops/NMS_detection/model" -o "$out" --name det >/dev/null 2>&1
check "NMS_detection compiles" test -f "$out/det.h"
h=$out/det.h
check "count arguments follow the outputs" \
  grep -q 'int64_t \*boxes_count, int64_t \*classes_count, int64_t \*scaled_count, int64_t \*scores_count)' "$h"
check "bound macro" grep -q '#define DET_SERVING_DEFAULT_SCALED_BOUND 16' "$h"
check "dynamic dim macro" grep -q '#define DET_SERVING_DEFAULT_SCALED_DYNAMIC_DIM 0' "$h"
check "tensor_info.dynamic_dim" grep -q 'int32_t dynamic_dim;' "$h"
check "metadata marks the dynamic output" grep -q '{ "boxes", 1, 2, det_d0_o0, 256, 0, 0.0f, 0 },' "$out/det.c"
check "metadata lists the count output" grep -q '{ "boxes_count", 9, 0, NULL, 8, -1, 0.0f, 0 },' "$out/det.c"

# x float[6] -> Where -> $1 (a node named y reading "w").
model() {
  local dir=$1
  mkdir -p "$dir"
  cat >"$dir/saved_model.pbtxt" <<EOF
saved_model_schema_version: 1
meta_graphs {
  meta_info_def { tags: "serve" tensorflow_version: "2.21.0" }
  graph_def {
    node { name: "x" op: "Placeholder"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "shape" value { shape { dim { size: 6 } } } } }
    node { name: "axis" op: "Const"
      attr { key: "dtype" value { type: DT_INT32 } }
      attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 0 } } } }
    node { name: "w" op: "Where" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
    $2
  }
  signature_def {
    key: "s"
    value {
      inputs { key: "x" value { name: "x:0" dtype: DT_FLOAT tensor_shape { dim { size: 6 } } } }
      outputs { key: "y" value { name: "y:0" } }
      method_name: "tensorflow/serving/predict"
    }
  }
}
EOF
}
refused() { # description, dir, op
  local msg rc
  msg=$("$sm2c" compile "$2" -o "$tmp/out_err" 2>&1)
  rc=$?
  if [ $rc -ne 3 ] || ! grep -q "error: data-dependent shape reaches $3" <<<"$msg" || [ "$(wc -l <<<"$msg")" -ne 1 ]; then
    echo "$1: exit $rc: $msg"
    return 1
  fi
}
model "$tmp/prod" 'node { name: "y" op: "Prod" input: "w" input: "axis" attr { key: "T" value { type: DT_INT64 } } attr { key: "Tidx" value { type: DT_INT32 } } }'
check "Prod over the data-dependent dim is refused" refused Prod "$tmp/prod" Prod
# an integer Max reads the rows past the count as the lowest value (ops_dyn.c, dyn_fill.c)
model "$tmp/max" 'node { name: "y" op: "Max" input: "w" input: "axis" attr { key: "T" value { type: DT_INT64 } } attr { key: "Tidx" value { type: DT_INT32 } } }'
check "integer Max over the data-dependent dim compiles" "$sm2c" compile "$tmp/max" -o "$tmp/out_max"
model "$tmp/cumsum" 'node { name: "y" op: "Cumsum" input: "w" input: "axis" attr { key: "T" value { type: DT_INT64 } } attr { key: "Tidx" value { type: DT_INT32 } } }'
check "Cumsum along a data-dependent dim is refused" refused Cumsum "$tmp/cumsum" Cumsum
model "$tmp/where2" 'node { name: "y" op: "Where" input: "w" attr { key: "T" value { type: DT_INT64 } } }'
compiles() { "$sm2c" compile "$@" >/dev/null; }
# Where reads a data-dependent count since the sparse feature columns (its
# values: the conformance case Unique_where); its own output gets a count.
check "Where of a data-dependent value compiles" compiles "$tmp/where2" -o "$tmp/where2_out" --name where2
check "its output has a count" grep -q '#define WHERE2_S_Y_BOUND 6$' "$tmp/where2_out/where2.h"
model "$tmp/ok" 'node { name: "y" op: "Cast" input: "w" attr { key: "SrcT" value { type: DT_INT64 } } attr { key: "DstT" value { type: DT_FLOAT } } }'
check "Cast of it compiles" compiles "$tmp/ok" -o "$tmp/ok_out" --name ok

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
