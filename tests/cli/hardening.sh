#!/usr/bin/env bash
# Issue 32, classes 3 to 7: bad inputs of the second hardening round, each
# with its exit code and its one-line message (docs/reliability.md section 7,
# cases F8, F9, G13-G15, N9 and M1-M4).
#   3. sizes: every value's elements and bytes within --limit elements and
#      the runtime's int32 sizes, whatever op made the shape (exit 4);
#   4. outputs: every path a command writes is checked before anything is
#      written, and a failing command leaves none of its outputs;
#   5. StridedSlice masks TensorFlow rejects, and dtypes that are no dtype in
#      a function's signature or a call's Tin/Tout, are rejected (exit 1);
#   6. a TF1 cond's Merge may list its branches in either order (exit 0,
#      the same program);
#   7. messages: one line per fault, never cut before "error:", never an
#      empty file or place, control characters escaped.
# The models are small text SavedModels written here; sm2c run needs $CC.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
# expect CODE 'EXACT STDERR' sm2c-args...: exit code and the whole (one-line) stderr
expect() {
  local code=$1 want=$2; shift 2
  local err rc
  err=$("$sm2c" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$code" ] && [ "$err" = "$want" ]; then ok
  else bad "sm2c $(printf '%.200s' "$*"): exit $rc (want $code), stderr: $(printf '%.400s' "$err") (want: $want)"; fi
}

# mk DIR 'NODES' 'SIGNATURE INPUTS AND OUTPUTS': a text SavedModel
mk() { mkdir -p "$1"; cat > "$1/saved_model.pbtxt" <<EOT
saved_model_schema_version: 1
meta_graphs {
  meta_info_def { tags: "serve" }
  graph_def {
    versions { producer: 1000 }
    $2
  }
  signature_def { key: "serving_default" value {
    $3
    method_name: "tensorflow/serving/predict" } }
}
EOT
}
ph() { echo "node { name: \"$1\" op: \"Placeholder\" attr { key: \"dtype\" value { type: $2 } } attr { key: \"shape\" value { shape { $3 } } } }"; }
ci() { echo "node { name: \"$1\" op: \"Const\" attr { key: \"dtype\" value { type: DT_INT32 } } attr { key: \"value\" value { tensor { dtype: DT_INT32 tensor_shape { $2 } $3 } } } }"; }
sig() { echo "inputs { key: \"$1\" value { name: \"$1:0\" dtype: $2 tensor_shape { $3 } } } outputs { key: \"y\" value { name: \"$4\" dtype: $5 tensor_shape { unknown_rank: true } } }"; }
T='attr { key: "T" value { type: DT_FLOAT } }'

# ---- 3. sizes -------------------------------------------------------------------------
mk onehot "$(ph i DT_INT32 'dim { size: 65536 }') $(ci d '' 'int_val: 65536') $(ci on '' 'int_val: 1') $(ci off '' 'int_val: 0')
  node { name: \"y\" op: \"OneHot\" input: \"i\" input: \"d\" input: \"on\" input: \"off\" attr { key: \"T\" value { type: DT_INT32 } } attr { key: \"TI\" value { type: DT_INT32 } } attr { key: \"axis\" value { i: -1 } } }" \
  "$(sig i DT_INT32 'dim { size: 65536 }' y:0 DT_INT32)"
expect 4 "onehot/saved_model.pbtxt: 'y' (OneHot): error: output 0: shape [65536,65536] has more than 2147483647 elements (--limit elements=N)" \
  compile onehot -o out
expect 4 "onehot/saved_model.pbtxt: 'y' (OneHot): error: output 0: shape [65536,65536] has more than 2147483647 elements, the most the generated code's int32 element counts hold" \
  compile onehot -o out --limit elements=4294967296
mk resize "$(ph x DT_FLOAT 'dim { size: 1 } dim { size: 2 } dim { size: 2 } dim { size: 1 }') $(ci sz 'dim { size: 2 }' 'int_val: 1048576 int_val: 1048576')
  node { name: \"y\" op: \"ResizeBilinear\" input: \"x\" input: \"sz\" $T }" \
  "$(sig x DT_FLOAT 'dim { size: 1 } dim { size: 2 } dim { size: 2 } dim { size: 1 }' y:0 DT_FLOAT)"
expect 4 "resize/saved_model.pbtxt: 'y' (ResizeBilinear): error: output 0: shape [1,1048576,1048576,1] has more than 2147483647 elements (--limit elements=N)" \
  compile resize -o out
mk relu "$(ph x DT_FLOAT 'dim { size: -1 } dim { size: 1 }') node { name: \"y\" op: \"Relu\" input: \"x\" $T }" \
  "$(sig x DT_FLOAT 'dim { size: -1 } dim { size: 1 }' y:0 DT_FLOAT)"
expect 4 "relu/saved_model.pbtxt: signature 'serving_default' input 'x': error: shape [4611686018427387904,1] has more than 2147483647 elements (--limit elements=N)" \
  compile relu -o out --shape x=4611686018427387904,1
expect 4 "relu/saved_model.pbtxt: signature 'serving_default' input 'x': error: shape [1073741824,1] of float32 is 4294967296 bytes, more than the 2147483647 bytes the runtime's int32 sizes hold" \
  compile relu -o out --shape x=1073741824,1
mk tlist "$(ph x DT_FLOAT 'dim { size: 1 }') $(ci es 'dim { size: 1 }' 'int_val: 1') $(ci n '' 'int_val: 2147483647') $(ci i '' 'int_val: 0')
  node { name: \"r\" op: \"TensorListReserve\" input: \"es\" input: \"n\" attr { key: \"element_dtype\" value { type: DT_FLOAT } } attr { key: \"shape_type\" value { type: DT_INT32 } } }
  node { name: \"s\" op: \"TensorListSetItem\" input: \"r\" input: \"i\" input: \"x\" attr { key: \"element_dtype\" value { type: DT_FLOAT } } }
  node { name: \"y\" op: \"TensorListStack\" input: \"s\" input: \"es\" attr { key: \"element_dtype\" value { type: DT_FLOAT } } attr { key: \"num_elements\" value { i: -1 } } }" \
  "$(sig x DT_FLOAT 'dim { size: 1 }' y:0 DT_FLOAT)"
expect 4 "tlist/saved_model.pbtxt: 'r' (TensorListReserve): error: output 0: shape [2147483647,1] of float32 is 8589934588 bytes, more than the 2147483647 bytes the runtime's int32 sizes hold" \
  compile tlist -o out
check "no output after a size error" test ! -e out

# ---- 4. outputs -------------------------------------------------------------------------
cp -r "$root/samples/half_plus_two" M
expect 1 "M/sub/deeper/out: error: is (inside) the SavedModel directory M; refusing to write there" \
  compile M -o M/sub/deeper/out -q
check "compile -o inside the model creates nothing there" test ! -e M/sub
ls -R M > before
expect 1 "M/variables: error: is (inside) the SavedModel directory M; refusing to write there" \
  run M --input_exprs 'x=[[1],[2]]' --outdir M/variables -q
check "run --outdir inside the model writes nothing there" bash -c "ls -R M | cmp -s - before"
mkdir rdir; touch afile
expect 1 "rdir: error: exists and is a directory; refusing to replace it" compile M -o o1 --report rdir -q
expect 1 "afile/r.txt: error: cannot use: Not a directory" compile M -o o1 --report afile/r.txt -q
expect 1 "/dev/full: error: exists and is not a regular file; refusing to replace it" compile M -o o1 --report /dev/full -q
expect 1 "missing/r.txt: error: its directory missing does not exist" compile M -o o1 --report missing/r.txt -q
check "a --report that cannot be written: OUT not written" test ! -e o1
expect 0 "" compile M -o o2 --report o2/report.txt -q
check "--report into OUT itself" test -s o2/report.txt -a -s o2/m.h
expect 1 "afile/st: error: cannot use: Not a directory" run M --input_exprs 'x=[[1],[2]]' --outdir o3 --state-out afile/st -q
check "a --state-out that cannot be written: --outdir not written" test ! -e o3
expect 2 "-o: error: the path is empty" compile M -o '' -q
expect 2 "o4: error: --outdir and --state-out name the same path" run M --input_exprs 'x=[[1],[2]]' --outdir o4 --state-out o4 -q
if command -v "${CC:-cc}" >/dev/null; then
  expect 3 "$root/tests/data/state/colliding_keys/saved_model.pb: error: --state-out: variables 'a/b/.ATTRIBUTES/VARIABLE_VALUE' and 'a__b/.ATTRIBUTES/VARIABLE_VALUE' would both be written to a__b__.ATTRIBUTES__VARIABLE_VALUE.npy" \
    run "$root/tests/data/state/colliding_keys" --input_exprs 'g=[1,1]' --outdir o5 --state-out s5 -q
  check "colliding --state-out names: neither output written" test ! -e o5 -a ! -e s5
  expect 0 "" run M --input_exprs 'x=[[1],[2]]' --outdir o6 -q
  check "run --outdir still writes" test -s o6/y.npy
fi

# ---- 5. invalid graphs ---------------------------------------------------------------
ss() { # DIR 'ATTRS' 'STRIDES'
  mk "$1" "$(ph x DT_FLOAT 'dim { size: 2 } dim { size: 3 }') $(ci b 'dim { size: 2 }' 'int_val: 0 int_val: 0') $(ci e 'dim { size: 2 }' 'int_val: 1 int_val: 1') $(ci s 'dim { size: 2 }' "$3")
    node { name: \"y\" op: \"StridedSlice\" input: \"x\" input: \"b\" input: \"e\" input: \"s\" $T attr { key: \"Index\" value { type: DT_INT32 } } $2 }" \
    "$(sig x DT_FLOAT 'dim { size: 2 } dim { size: 3 }' y:0 DT_FLOAT)"
}
ss ss_ell 'attr { key: "ellipsis_mask" value { i: 3 } }' 'int_val: 1 int_val: 1'
expect 1 "ss_ell/saved_model.pbtxt: 'y' (StridedSlice): error: attr 'ellipsis_mask' is 3: more than one ellipsis (TensorFlow allows at most one)" \
  compile ss_ell -o out
ss ss_shrink 'attr { key: "shrink_axis_mask" value { i: 1 } }' 'int_val: 0 int_val: 1'
expect 1 "ss_shrink/saved_model.pbtxt: 'y' (StridedSlice): error: strides[0] is 0 (must be non-zero)" \
  compile ss_shrink -o out
ss ss_ok 'attr { key: "ellipsis_mask" value { i: 1 } }' 'int_val: 1 int_val: 1'
expect 0 "" compile ss_ok -o ok_ss -q

# dtypes a function's signature or a call's Tin/Tout name must be real (G15)
edit() { # FROM TO DIR: tests/data/catalog/functions.pbtxt with one edit
  mkdir -p "$3"
  python3 - "$root/tests/data/catalog/functions.pbtxt" "$3/saved_model.pbtxt" "$1" "$2" <<'PY'
import sys
s = open(sys.argv[1]).read()
assert sys.argv[3] in s
open(sys.argv[2], "w").write(s.replace(sys.argv[3], sys.argv[4], 1))
PY
}
edit 'input_arg { name: "a" type: DT_FLOAT }' 'input_arg { name: "a" type: 9999 }' fn_arg
expect 1 "fn_arg/saved_model.pbtxt: function 'f': error: input 'a' has type DT_9999, not a valid dtype" compile fn_arg -o out
edit 'attr { key: "Tout" value { list { type: DT_FLOAT } } }' 'attr { key: "Tout" value { list { type: 9999 } } }' fn_tout
expect 1 "fn_tout/saved_model.pbtxt: 'call' (StatefulPartitionedCall): error: attr 'Tout' entry 0 is DT_9999, not a valid dtype" \
  compile fn_tout -o out

# ---- 6. a valid graph: Merge(true, false) ------------------------------------------------
mkdir -p ft/model tf/model
cp "$root/tests/data/catalog/tf1_control.pbtxt" ft/model/saved_model.pbtxt
python3 - "$root/tests/data/catalog/tf1_control.pbtxt" tf/model/saved_model.pbtxt <<'PY'
import sys
s = open(sys.argv[1]).read()
a = 'input: "cond/sub"\n      input: "cond/mul"'
assert a in s
open(sys.argv[2], "w").write(s.replace(a, 'input: "cond/mul"\n      input: "cond/sub"'))
PY
expect 0 "" compile ft/model -o ft/out --name m -q
expect 0 "" compile tf/model -o tf/out --name m -q
check "Merge(t, f) and Merge(f, t): the same program" \
  bash -c "cmp -s <(tail -n +5 ft/out/m.c) <(tail -n +5 tf/out/m.c) && cmp -s <(tail -n +5 ft/out/m.h) <(tail -n +5 tf/out/m.h)"

# ---- 7. messages -----------------------------------------------------------------------
op() { mk "$1" "$(ph x DT_FLOAT 'dim { size: 2 }') node { name: \"y\" op: \"$2\" input: \"x\" $T }" \
  "$(sig x DT_FLOAT 'dim { size: 2 }' "${3:-y:0}" DT_FLOAT)"; }
op bigop "$(head -c 1048576 /dev/zero | tr '\0' Q)"
for cmd in compile inspect; do
  expect 4 "bigop/saved_model.pbtxt: graph_def.node[1].op: error: op name is 1048576 bytes, more than the limit of 4096 (--limit name-length=N)" \
    $cmd bigop $([ $cmd = compile ] && echo -o out)
done
op longop "$(head -c 4000 /dev/zero | tr '\0' Q)"
err=$("$sm2c" compile longop -o out 2>&1); rc=$?
check "a 4000-byte op name: exit 3, one line under 2048 bytes with error: and the end of the message" \
  bash -c '[ "$1" -eq 3 ] && [ "$(printf "%s\n" "$2" | wc -l)" -eq 1 ] && [ ${#2} -lt 2048 ] &&
    [[ $2 == "longop/saved_model.pbtxt: '"'"'y'"'"' (QQQ"*"...QQQ"*"): error: op '"'"'QQQ"*"...QQQ"*"'"'"' is not supported" ]]' _ "$rc" "$err"
mk ed "$(ph x DT_FLOAT 'dim { size: 2 }') $(ci ax '' 'int_val: 5')
  node { name: \"y\" op: \"ExpandDims\" input: \"x\" input: \"ax\" $T attr { key: \"Tdim\" value { type: DT_INT32 } } }" \
  "$(sig x DT_FLOAT 'dim { size: 2 }' y:0 DT_FLOAT)"
expect 1 "ed/saved_model.pbtxt: 'y' (ExpandDims): error: axis 5 is out of range for rank 2" compile ed -o out
op y3 Relu y:3
expect 1 "y3/saved_model.pbtxt: signature 'serving_default': error: returns 'y:3': names an output the node does not have" \
  compile y3 -o out
expect 2 "sm2c: error: compile: --name must be a C identifier, got 'a?b' (sm2c help compile shows the usage)" \
  compile M -o out --name $'a\nb'
check "no output after the message errors" test ! -e out

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
