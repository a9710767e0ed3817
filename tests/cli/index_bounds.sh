#!/usr/bin/env bash
# Data-dependent indices are checked (docs/reliability.md section 6 rule 4, catalog N8).
# Run time: conformance models with index inputs (GatherV2, ResourceGather,
# GatherNd, ScatterNd, InvertPermutation, ReverseSequence, UnsortedSegment*,
# SparseSoftmaxCrossEntropyWithLogits, SparseToDense: all zeros repeat an index,
# which validate_indices refuses; TensorScatterUpdate; DenseBincount, whose
# negative values TensorFlow refuses; RaggedTensorToTensor, whose row ids must
# be below first_dim_size and row splits start at 0) are compiled, and a
# driver calls each entry point through the metadata table with every element
# of the index input set to an out-of-range value: the call must return
# SM2C_RT_ERR_INDEX (-1), where TensorFlow's CPU kernels report an error.  With
# valid indices (zeros) it returns 0.  Built warning-free with gcc, with clang
# under ASan+UBSan (so an out-of-bounds access would abort), and through the
# LLVM backend (--emit obj).
# Compile time: constant indices out of range are an error naming the node.
set -u
# It builds its own gcc, clang ASan+UBSan and LLVM variants of the generated
# code, so the sanitizer half of scripts/test.sh would only repeat them.
case "${SM2C_TEST_CC:-}" in *sanitize*) echo "sanitizer build: its own clang ASan run covers it"; exit 77 ;; esac
sm2c=$(realpath "$1") root=$(realpath "$2")
ops=$root/tests/data/ops
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/driver.c" <<'EOF'
/* driver SIG INPUT VALUE WANT: runs signature SIG with INPUT's every element
** set to VALUE (all other inputs zero); exits 0 when it returns WANT. */
#include MODEL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define SIGS CAT(PREFIX, _signatures)
#define N_SIGS CAT(PREFIX, _n_signatures)

int main(int argc, char **argv)
{
    void *in[16], *out[16];
    int32_t i, k, rc;
    long long value;
    if (argc != 5)
        return 2;
    value = atoll(argv[3]);
    for (i = 0; i < N_SIGS; i++) {
        const struct CAT(PREFIX, _signature_info) *s = &SIGS[i];
        if (strcmp(s->key, argv[1]) != 0)
            continue;
        for (k = 0; k < s->n_inputs; k++) {
            int64_t n = s->inputs[k].size_bytes, e;
            in[k] = calloc((size_t)n + 1, 1);
            if (strcmp(s->inputs[k].key, argv[2]) != 0)
                continue;
            for (e = 0; e < n / (s->inputs[k].dtype == 9 ? 8 : 4); e++) {
                if (s->inputs[k].dtype == 9) {
                    int64_t v = (int64_t)value;
                    memcpy((char *)in[k] + e * 8, &v, 8);
                } else {
                    int32_t v = (int32_t)value;
                    memcpy((char *)in[k] + e * 4, &v, 4);
                }
            }
        }
        for (k = 0; k < s->n_outputs; k++)
            out[k] = calloc((size_t)s->outputs[k].size_bytes + 1, 1);
        rc = s->run(in, out);
        for (k = 0; k < s->n_inputs; k++)
            free(in[k]);
        for (k = 0; k < s->n_outputs; k++)
            free(out[k]);
        if (rc != atoi(argv[4])) {
            printf("%s %s=%lld: returned %d, want %s\n", argv[1], argv[2], value, (int)rc, argv[4]);
            return 1;
        }
        return 0;
    }
    printf("no signature %s\n", argv[1]);
    return 1;
}
EOF

# case signature input bad-value [valid-zeros-rc]
runs=(
  "GatherV2_axis1 serving_default i 5 0"
  "GatherV2_axis1 serving_default i -1 0"
  "GatherV2_axis1 int64 i 1099511627776 0"
  "GatherV2_batch_dims serving_default i 4 0"
  "ResourceGather serving_default i 6 0"
  "ResourceGather int64 i -3 0"
  "GatherNd serving_default i 3 0"
  "GatherNd int64 i -1 0"
  "ScatterNd serving_default i 5 0"
  "ScatterNd int64 i -2 0"
  "InvertPermutation serving_default p 6 -1"
  "ReverseSequence serving_default s 6 0"
  "ReverseSequence int64 s -1 0"
  "UnsortedSegmentSum serving_default ids 5 0"
  "UnsortedSegmentMax_i32 ids_2d_i64 ids 4 0"
  "SparseSoftmaxCrossEntropyWithLogits serving_default c 5 0"
  "SparseSoftmaxCrossEntropyWithLogits_i64 serving_default c -1 0"
  "SparseToDense serving_default idx 3 -1"
  "SparseToDense unvalidated idx 5 0"
  "TensorScatterUpdate serving_default i 4 0"
  "TensorScatterUpdate int64 j -1 0"
  "DenseBincount serving_default x -1 0"
  "DenseBincount int64 x2 -3 0"
  "RaggedTensorToTensor serving_default ids 4 0"
  "RaggedTensorToTensor int32 s -1 0"
)

gcc_flags=(gcc -std=c99 -Wall -Wextra -pedantic -Werror)
builds=("gcc:c:${gcc_flags[*]}")
if command -v clang >/dev/null; then
  builds+=("clang:c:clang -std=c99 -Wall -Wextra -pedantic -Werror -fsanitize=address,undefined -fno-sanitize-recover=all")
else
  echo "clang not installed: no sanitizer build"
fi
builds+=("llvm:obj:${gcc_flags[*]}")

. "$root/tests/e2e/runtime_lib.sh"
declare -A built rtlib
for spec in "${runs[@]}"; do
  read -r case sig input bad valid <<<"$spec"
  for b in "${builds[@]}"; do
    IFS=: read -r tag emit cc <<<"$b"
    name=m_$(echo "$case" | tr 'A-Z' 'a-z')
    dir=$tmp/$tag/$case exe=$tmp/$tag/$case/run
    if [ -z "${built[$tag/$case]:-}" ]; then
      built[$tag/$case]=1
      mkdir -p "$tmp/$tag"
      if ! "$sm2c" compile "$ops/$case/model" -o "$dir" --name "$name" --emit "$emit" >"$dir.log" 2>&1; then
        cat "$dir.log"
        check "$tag: compile $case" false
        continue
      fi
      main=("$dir/$name.c")
      [ "$emit" = obj ] && main=("$dir/$name.o")
      # rtlib.py adds -std=c99 -O2 itself; without it the gcc command is the
      # plain test run's $SM2C_TEST_CC, whose library the conformance run builds.
      if [ -z "${rtlib[$tag]:-}" ]; then
        rtlib[$tag]=$(runtime_lib "$sm2c" "${cc/ -std=c99/}" "$tmp/rt_$tag") || check "$tag: build the runtime" false
      fi
      # shellcheck disable=SC2086
      check "$tag: build $case" $cc -I "$dir" -DMODEL_H="\"$name.h\"" -DPREFIX="$name" \
        "$tmp/driver.c" "${main[@]}" "${rtlib[$tag]}" -lm -o "$exe"
    fi
    [ -x "$exe" ] || continue
    check "$tag: $case $sig $input=$bad returns -1" "$exe" "$sig" "$input" "$bad" -1
    check "$tag: $case $sig $input=0 returns $valid" "$exe" "$sig" "$input" 0 "$valid"
  done
done

# ---- compile time: constant indices out of range (N8) -------------------------------
# A TF1-style text SavedModel: x float[3,4] (or a constant), a constant index
# tensor, and the op.  $1 op text, $2 output node.
model() {
  local dir=$1; shift
  mkdir -p "$dir"
  cat >"$dir/saved_model.pbtxt" <<EOF
saved_model_schema_version: 1
meta_graphs {
  meta_info_def { tags: "serve" tensorflow_version: "2.21.0" }
  graph_def {
    node { name: "x" op: "Placeholder"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "shape" value { shape { dim { size: 3 } dim { size: 4 } } } } }
    node { name: "c" op: "Const"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 4 } } float_val: 1.5 } } } }
    node { name: "axis" op: "Const"
      attr { key: "dtype" value { type: DT_INT32 } }
      attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }
    $1
  }
  signature_def {
    key: "s"
    value {
      inputs { key: "x" value { name: "x:0" dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 4 } } } }
      outputs { key: "y" value { name: "$2:0" } }
      method_name: "tensorflow/serving/predict"
    }
  }
}
EOF
}
const_i32() { # name, shape dims (space separated), values
  local name=$1 dims="" vals="" d v
  for d in $2; do dims="$dims dim { size: $d }"; done
  for v in $3; do vals="$vals int_val: $v"; done
  echo "node { name: \"$name\" op: \"Const\" attr { key: \"dtype\" value { type: DT_INT32 } }
    attr { key: \"value\" value { tensor { dtype: DT_INT32 tensor_shape { $dims } $vals } } } }"
}
t32='attr { key: "T" value { type: DT_FLOAT } } attr { key: "Tindices" value { type: DT_INT32 } }'
compile_error() { # description, dir, expected text
  local out
  out=$("$sm2c" compile "$2" -o "$tmp/out_err" --signature s 2>&1)
  local rc=$?
  if [ $rc -ne 1 ] || ! grep -q -- "$3" <<<"$out"; then
    echo "$1: exit $rc: $out"
    return 1
  fi
}
model "$tmp/n8_gather" "$(const_i32 idx 2 '0 4')
    node { name: \"y\" op: \"GatherV2\" input: \"x\" input: \"idx\" input: \"axis\" $t32
      attr { key: \"Taxis\" value { type: DT_INT32 } } attr { key: \"Tparams\" value { type: DT_FLOAT } } }" y
check "GatherV2 with constant index 4 on a dim of 4 is a compile-time error" \
  compile_error GatherV2 "$tmp/n8_gather" "'y' (GatherV2): error: constant index 4"
model "$tmp/n8_gather_folded" "$(const_i32 idx 2 '0 -1')
    node { name: \"y\" op: \"GatherV2\" input: \"c\" input: \"idx\" input: \"axis\" $t32
      attr { key: \"Taxis\" value { type: DT_INT32 } } attr { key: \"Tparams\" value { type: DT_FLOAT } } }" y
check "GatherV2 of constants with index -1 is a compile-time error" \
  compile_error GatherV2_folded "$tmp/n8_gather_folded" "'y' (GatherV2): error: indices.1. = -1 is not in"
model "$tmp/n8_gather_nd" "$(const_i32 idx '2 2' '0 0 3 0')
    node { name: \"y\" op: \"GatherNd\" input: \"x\" input: \"idx\" $t32
      attr { key: \"Tparams\" value { type: DT_FLOAT } } }" y
check "GatherNd with constant tuple [3, 0] into [3, 4] is a compile-time error" \
  compile_error GatherNd "$tmp/n8_gather_nd" "'y' (GatherNd): error: constant index 3"
model "$tmp/n8_scatter_nd" "$(const_i32 idx '3 1' '0 1 3') $(const_i32 shape 2 '3 4')
    node { name: \"y\" op: \"ScatterNd\" input: \"idx\" input: \"x\" input: \"shape\" $t32 }" y
check "ScatterNd with constant row 3 into [3, 4] is a compile-time error" \
  compile_error ScatterNd "$tmp/n8_scatter_nd" "'y' (ScatterNd): error: constant index 3"
model "$tmp/n8_scatter_update" "$(const_i32 idx '2 1' '2 3') $(const_i32 two '2 4' '1 2 3 4 5 6 7 8')
    node { name: \"u\" op: \"Cast\" input: \"two\" attr { key: \"SrcT\" value { type: DT_INT32 } }
      attr { key: \"DstT\" value { type: DT_FLOAT } } }
    node { name: \"y\" op: \"TensorScatterUpdate\" input: \"x\" input: \"idx\" input: \"u\" $t32 }" y
check "TensorScatterUpdate with constant row 3 into [3, 4] is a compile-time error" \
  compile_error TensorScatterUpdate "$tmp/n8_scatter_update" "'y' (TensorScatterUpdate): error: constant index 3"

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
