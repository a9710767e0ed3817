#!/usr/bin/env bash
# `sm2c inspect DIR --signature KEY` (issue 31): one signature as
# `saved_model_cli show --signature_def KEY` shows it, then the tf.Example
# features its protos must hold (key, dtype, shape, default; specs from
# tests/models/ops_parse.py and gen_inspect_run.py) and sm2c's verdict; an
# unknown KEY is a usage error naming the valid keys; the full listing lists
# the concrete functions only with -v.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
multi=$root/tests/data/inspect_run/multi
# expect EXIT TEXT FILE(out|err) CMD...: the exit status and a line of output
expect() {
  local want=$1 text=$2 where=$3 rc; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/$where"; then
    passed=$((passed + 1))
  else
    echo "FAIL (exit $rc, wanted $want and '$text' on std$where): $*"
    sed 's/^/  /' "$tmp/out" "$tmp/err" | head -40
    fail=1
  fi
}

# saved_model_cli's layout, exactly.
"$sm2c" inspect "$multi" --signature add_one >"$tmp/show" 2>&1
cat >"$tmp/want" <<'TXT'
The given SavedModel SignatureDef contains the following input(s):
  inputs['x'] tensor_info:
      dtype: DT_FLOAT
      shape: (1, 3)
      name: add_one_x:0
The given SavedModel SignatureDef contains the following output(s):
  outputs['y'] tensor_info:
      dtype: DT_FLOAT
      shape: (1, 3)
      name: PartitionedCall:0
Method name is: tensorflow/serving/predict
sm2c: compiles
TXT
if diff "$tmp/want" "$tmp/show" >/dev/null; then passed=$((passed + 1)); else
  echo "FAIL: inspect --signature add_one:"; diff "$tmp/want" "$tmp/show"; fail=1; fi

# tf.Example feature specs: a default, a required feature, a sparse one.
expect 0 "  features['age']:" out "$sm2c" inspect "$multi" --signature parse
tr '\n' '|' <"$tmp/out" >"$tmp/flat"
for spec in "features['age']:|      dtype: DT_INT64|      shape: (1,) (tf.io.FixedLenFeature)|      default: [7]|" \
            "features['score']:|      dtype: DT_FLOAT|      shape: (2,) (tf.io.FixedLenFeature)|      default: none (required)|" \
            "features['tags']:|      dtype: DT_STRING|      shape: variable length (tf.io.VarLenFeature)|"; do
  if grep -qF -- "$spec" "$tmp/flat"; then passed=$((passed + 1)); else echo "FAIL: no '$spec'"; fail=1; fi
done
# TF1's ParseExample (keys as scalar inputs) and V2 with a scalar feature.
expect 0 "default: [1, 2, 3]" out "$sm2c" inspect "$root/tests/data/ops/ParseExample_dense/model" --signature serving_default
tr '\n' '|' <"$tmp/out" >"$tmp/flat"
grep -qF "features['x']:|      dtype: DT_FLOAT|      shape: (2,) (tf.io.FixedLenFeature)|      default: none (required)|" "$tmp/flat" \
  || { echo "FAIL: ParseExample_dense's x"; fail=1; }
expect 0 "shape: () (tf.io.FixedLenFeature)" out "$sm2c" inspect "$root/tests/data/ops/ParseExampleV2_dense/model" --signature serving_default
grep -qF "      default: 7" "$tmp/out" || { echo "FAIL: a scalar default prints as 7"; fail=1; }

# A signature that does not compile says why, as compile does; one that does says so.
refused=$root/tests/data/bad/control_unbounded_list
expect 0 "sm2c: does not compile: __inference_signature_wrapper_call_68/__inference_call_61: 'TensorArrayV2' (TensorListReserve): the TensorList length is not bounded" \
  out "$sm2c" inspect "$refused" --signature serving_default
expect 0 "sm2c: compiles" out "$sm2c" inspect "$multi" --signature concat_str

# An unknown key is an error naming the valid ones; only one --signature.
expect 2 "error: --signature 'nosuch' names no signature; the model has '__saved_model_init_op', 'add_one', 'concat_str', 'gather', 'parse', 'ragged'" \
  err "$sm2c" inspect "$multi" --signature nosuch
[ -s "$tmp/out" ] && { echo "FAIL: output written for an unknown --signature"; fail=1; }
expect 2 "error: --signature 'nosuch' names no signature" err "$sm2c" inspect "$multi" --signature nosuch --json
expect 2 "inspect shows one --signature" err "$sm2c" inspect "$multi" --signature add_one --signature parse
# --json --signature: that signature alone, with its verdict.
expect 0 '"compiles": false' out "$sm2c" inspect "$refused" --signature serving_default --json
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["signatures"]; assert [x["key"] for x in s] == ["serving_default"], s' \
  "$tmp/out" || { echo "FAIL: --json --signature lists other signatures"; fail=1; }
expect 0 '"compiles": true' out "$sm2c" inspect "$multi" --signature concat_str --json

# --json --signature of a tf.Example signature: its features too.
expect 0 '"features"' out "$sm2c" inspect "$multi" --signature parse --json
python3 - "$tmp/out" <<'PY' || { echo "FAIL: --json --signature parse: features"; fail=1; }
import json, sys
f = json.load(open(sys.argv[1]))["signatures"][0]["features"]
assert f == [{"key": "age", "kind": "fixed_len", "dtype": "DT_INT64", "shape": [1], "default": [7]},
             {"key": "score", "kind": "fixed_len", "dtype": "DT_FLOAT", "shape": [2], "default": None},
             {"key": "tags", "kind": "var_len", "dtype": "DT_STRING", "shape": None, "default": None}], f
PY

# The full listing: concrete functions collapsed unless -v.
expect 0 "Concrete functions: 10, 5 of them compilable with --function (-v lists them all)" out "$sm2c" inspect "$multi"
grep -qF "  entry: add_one_0 (--function add_one) " "$tmp/out" || { echo "FAIL: the --function entries are not listed"; fail=1; }
grep -q "input signature:" "$tmp/out" && { echo "FAIL: concrete functions listed without -v"; fail=1; }
expect 0 "Concrete functions (10)" out "$sm2c" inspect "$multi" -v
grep -q "input signature:" "$tmp/out" || { echo "FAIL: -v does not list the concrete functions"; fail=1; }

[ $fail -eq 0 ] && echo "inspect_show: $passed checks passed"
exit $fail
