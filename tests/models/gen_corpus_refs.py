#!/usr/bin/env python3
"""TensorFlow's reference outputs for the real-model corpus in ../shared/models.

Run with the project venv (TensorFlow installed there):
    .venv/bin/python tests/models/gen_corpus_refs.py [--models DIR] [--out FILE]

--models defaults to <repo>/../shared/models, --out to tests/corpus/refs.json.

For every model listed in MODELS below and every signature whose inputs are all
numeric or batches of serialized tf.Example protos, the script makes
deterministic inputs (np.random.default_rng(seed), seed fixed per model), runs
TensorFlow on the LOADED SavedModel and records inputs and outputs:

  * TF2 models: tf.saved_model.load(dir, tags).signatures[key](**inputs);
  * TF1 models: a tf.compat.v1.Session after
    tf.compat.v1.saved_model.loader.load(sess, tags, dir) (which restores the
    variables and runs the main/legacy init op), feeding the signature's input
    tensor names and fetching its output tensor names.

Unknown dims: a leading -1 becomes BATCH (2) unless the model says otherwise;
inputs of unknown rank get the shape the model entry gives, recorded under
"shape_flags" so the checker passes it to sm2c as --shape KEY=d0,d1,...

refs.json reads
  {"generator": "tests/models/gen_corpus_refs.py", "tf_version": "2.21.0",
   "tolerance": {"float": {"rtol": 1e-4, "atol": 1e-4}, "integer": "exact"},
   "models": [{"dir": "...", "tags": "serve", "format": "tf1"|"tf2",
               "signatures": [{"key": "...",
                   "inputs":  {KEY: {"dtype": "float32", "shape": [...], "data": [...]}},
                   "outputs": {KEY: {"dtype": ..., "shape": ..., "data": ...}},
                   "shape_flags": {KEY: [dims]},
                   "formulas": [{"output": "y", "input": "x", "a": 0.5, "b": 2.0}]}]}]}
A string input (serialized tf.Examples for the graph's ParseExample /
ParseExampleV2 that reads it) is {"dtype": "string", "shape": [n], "data": [hex
of each serialized proto]}: example 0 sets every dense feature, example 1 only
the required ones (the others take their defaults); a sparse feature
(tf.io.VarLenFeature) has 2 values in example 0, 1 in example 1 and none in
example 2 (and so on, cycling); values are random, float32 or int64 (sparse
int64 ones in the model's sparse_range), drawn until no proto ends in a NUL
byte (numpy's 'S' arrays, which the checker writes, drop trailing NULs).  A
model's "sparse_counts" list replaces the 2, 1, 0 cycle (feature k of example
i has sparse_counts[(i + k) % len] values), and string features take their
values in turn from its "strings" pools (feature key -> list of bytes).  A
string output is {"dtype": "string", "shape": [...], "data": [hex of each
element]}.
data is the flattened row-major tensor; floats are JSON numbers holding the exact
float32 value (Python repr of the double), NaN/Inf as the strings "NaN",
"Infinity", "-Infinity".  A formula means output = a*input + b element-wise; it
is what SOURCES.md says the model computes, and it is asserted here against
TensorFlow's own output, so the references are known right.
"""
import argparse
import json
import math
import os
import sys
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_MODELS = os.path.join(ROOT, "..", "shared", "models")
DEFAULT_OUT = os.path.join(ROOT, "tests", "corpus", "refs.json")
BATCH = 2

# One entry per model.  fmt: tf1 (Session) or tf2 (tf.saved_model.load).
# shapes: concrete shape per input key (overrides the default -1 -> BATCH rule;
#   required for unknown-rank inputs).  batch: the leading -1 for this model.
# skip: signature keys not to use although their declared inputs are numeric.
# formulas: {signature: [{"output", "input", "a", "b"}]}; "a"/"b" may be a
#   checkpoint key ("ckpt:NAME") whose scalar value is read from variables/;
#   "feature": the input is serialized Examples, the formula is on this
#   float feature's first value (asserted, not recorded).
# matmul: {signature: (a, b, c)} meaning c = a @ b (batched).
# int_range: [lo, hi) for integer inputs.
# sparse_range: [lo, hi) for the values of int64 sparse features of serialized
#   Examples (ids into a bucketized or indicator column).
MODELS = [
    dict(dir="serving_half_plus_two_cpu", fmt="tf1", shapes={},
         formulas={"serving_default": [dict(output="y", input="x", a=0.5, b=2.0)],
                   "classify_x_to_y": [dict(output="scores", input="inputs", feature="x", a=0.5, b=2.0)],
                   "regress_x_to_y": [dict(output="outputs", input="inputs", feature="x", a=0.5, b=2.0)],
                   "regress_x2_to_y3": [dict(output="outputs", input="inputs", a=0.5, b=3.0)]}),
    dict(dir="serving_half_plus_two_gpu", fmt="tf1",
         formulas={"serving_default": [dict(output="y", input="x", a=0.5, b=2.0)],
                   "classify_x_to_y": [dict(output="scores", input="inputs", feature="x", a=0.5, b=2.0)],
                   "regress_x_to_y": [dict(output="outputs", input="inputs", feature="x", a=0.5, b=2.0)]}),
    dict(dir="serving_half_plus_two_gpu_trt", fmt="tf1",
         formulas={"serving_default": [dict(output="y", input="x", a=0.5, b=2.0)],
                   "classify_x_to_y": [dict(output="scores", input="inputs", feature="x", a=0.5, b=2.0)],
                   "regress_x_to_y": [dict(output="outputs", input="inputs", feature="x", a=0.5, b=2.0)]}),
    dict(dir="serving_half_plus_three", fmt="tf1",
         formulas={"serving_default": [dict(output="y", input="x", a=0.5, b=3.0)],
                   "tensorflow/serving/regress": [dict(output="outputs", input="inputs", feature="x",
                                                       a=0.5, b=3.0)]}),
    dict(dir="serving_matrix_half_plus_two", fmt="tf1",
         formulas={"serving_default": [dict(output="y", input="x", a=0.5, b=2.0)]}),
    dict(dir="java_saved_model", fmt="tf1",
         formulas={"serving_default": [dict(output="y", input="x", a=0.5, b=2.0)],
                   "classify_x_to_y": [dict(output="scores", input="inputs", feature="x", a=0.5, b=2.0)],
                   "regress_x_to_y": [dict(output="outputs", input="inputs", feature="x", a=0.5, b=2.0)],
                   "regress_x2_to_y3": [dict(output="outputs", input="inputs", a=0.5, b=3.0)],
                   "classify_x2_to_y3": [dict(output="scores", input="inputs", a=0.5, b=3.0)]}),
    dict(dir="tf2onnx_regression", fmt="tf1", shapes={"X": [4]},
         formulas={"serving_default": [dict(output="pred", input="X", a="ckpt:W", b="ckpt:b")]}),
    dict(dir="tf2onnx_redundant_inputs", fmt="tf1",
         formulas={"serving_default": [dict(output="z", input="x", a=1.0, b="const:Add/y")]}),
    dict(dir="rust_test_regression_model", fmt="tf1", tags="train,serve",
         shapes={"x": [4], "y": [4]},
         formulas={"tensorflow/serving/regress": [dict(output="out", input="x", a="ckpt:w", b="ckpt:b")]}),
    dict(dir="tfjs_times_three_float", fmt="tf2",
         formulas={"serving_default": [dict(output="output_0", input="x", a=3.0, b=0.0)]}),
    dict(dir="tfjs_times_two_int", fmt="tf2",
         formulas={"serving_default": [dict(output="output_0", input="x", a=2, b=0)]}),
    dict(dir="tfjs_int64_multiply", fmt="tf2",
         formulas={"serving_default": [dict(output="output_0", input="x", a=6, b=0)]}),
    dict(dir="tfjs_model_multi_output", fmt="tf2",
         formulas={"serving_default": [dict(output="output_0", input="x", a=2, b=0),
                                       dict(output="output_1", input="y", a=1, b=0)]}),
    dict(dir="tfjs_model_single_input_multi_output", fmt="tf2",
         formulas={"serving_default": [dict(output="output_0", input="x", a=2, b=0),
                                       dict(output="output_1", input="x", a=1, b=0)]}),
    dict(dir="cppflow_load_model", fmt="tf2"),
    # Keras exports of TF 1.14-dev and 2.0-alpha (tfdeploy's test models)
    dict(dir="tfdeploy_keras_2_0_0_alpha0", fmt="tf1"),
    dict(dir="tfdeploy_keras_multiple_2_0_0_alpha0", fmt="tf2"),
    # Identity/Reshape of partially known shapes: every unknown dim given
    dict(dir="mlnet_model_shape_test", fmt="tf1",
         shapes={"FourDim": [1, 2, 3, 3], "OneDim": [4], "ThreeDim": [1, 3, 2], "TwoDim": [2, 5]}),
    dict(dir="cppflow_multi_input_output", fmt="tf2"),
    dict(dir="rust_keras_single_input", fmt="tf2"),
    dict(dir="mlnet_mnist_lr_model", fmt="tf1"),
    # StringSplit of B on "/" (empty tokens skipped), its tokens joined by ReduceJoin
    # with " "; A passes through a Reshape.  Strings given verbatim ("texts").
    dict(dir="mlnet_model_string_test", fmt="tf1",
         texts={"A": [[b"a", b"B c"], [b"", "\u00e9\u00e8".encode()]],
                "B": [b"usr/local//bin/", b"", "/\u00fcber/a/".encode()]}),
    # Add of two string inputs of unknown rank: their concatenation, broadcast
    dict(dir="mlnet_model_primitive_input_test", fmt="tf1",
         texts={"input1": [[b"ab", b""], ["\u00e9t\u00e9".encode(), b"x y"]],
                "input2": [b"_1", "\u4e2d".encode()]}),
    dict(dir="mlnet_model_matmul", fmt="tf1",
         matmul={"serving_default": ("a", "b", "c")}),
    dict(dir="tfdeploy_tensorflow_1_13_1", fmt="tf1"),
    dict(dir="tfdeploy_keras_multiple_1_13_1_pbtxt", fmt="tf1"),
    dict(dir="tfnet_simple_model_from_auto_compile", fmt="tf2"),
    dict(dir="mlnet_cifar_saved_model", fmt="tf1", batch=1),
    # an Estimator's linear model whose weights are partitioned (part_0 slices)
    dict(dir="tfdeploy_tfestimators_mtcars_pbtxt", fmt="tf1"),
    # a tf.Module with w, b and SGD: `train` writes them (state); each
    # signature runs on a fresh load, `train` 5 times in a row
    dict(dir="rust_regression_savedmodel", fmt="tf2", batch=3, calls={"train": 5}),
    # TFX's Keras penguin trainer: serving_default parses serialized tf.Examples
    # (ParseExampleV2, four required float features) inside its tf.function
    dict(dir="tfx_keras_taxi_serving", fmt="tf2"),
    # a TF1 DNNRegressor on serialized Examples: a dense float feature and a
    # sparse int64 one (ids < 26) into an indicator column (SparseToDense,
    # OneHot, Sum); batch 3 so examples with 2, 1 and 0 ids all occur
    dict(dir="tfdeploy_tfestimators_example_pbtxt", fmt="tf1", batch=3, sparse_range=(0, 26)),
    # TFX's taxi Estimator (a tf.Transform layer, then a DNN and linear
    # combined classifier): 17 sparse features, at most one value each, some
    # missing; its two string features are looked up in vocabularies
    # (assets/, HashTableV2) with values in them, out of them and empty; the
    # classes outputs are strings (AsString)
    dict(dir="tfx_estimator_taxi_serving", fmt="tf1", batch=4, sparse_counts=[1, 1, 0, 1, 1],
         strings={b"company": [b"Taxi Affiliation Services", b"Not A Taxi Company", b"Choice Taxi Association",
                               b"", b"Blue Ribbon Taxi Association Inc."],
                  b"payment_type": [b"Cash", b"Credit Card", b"Bitcoin", b"No Charge", b"cash"]}),
]


# ---- helpers ------------------------------------------------------------------------------

def enc_float(v):
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v  # json writes repr(v): exact for a float32 widened to double


def tensor_json(arr):
    if isinstance(arr, list):
        return string_json(arr)
    arr = np.asarray(arr)
    dt = arr.dtype
    if dt.kind in "OS":     # a string output: each element's bytes in hex
        return {"dtype": "string", "shape": list(arr.shape),
                "data": [bytes(v).hex() for v in arr.reshape(-1).tolist()]}
    if dt.kind == "f":
        data = [enc_float(v) for v in arr.reshape(-1).tolist()]
    elif dt.kind in "iu":
        data = [int(v) for v in arr.reshape(-1).tolist()]
    elif dt.kind == "b":
        data = [bool(v) for v in arr.reshape(-1).tolist()]
    else:
        raise TypeError(f"unsupported dtype {dt}")
    return {"dtype": dt.name, "shape": list(arr.shape), "data": data}


def string_json(values):
    return {"dtype": "string", "shape": [len(values)], "data": [v.hex() for v in values]}


def feature(dtype, values):
    if dtype == tf.string:
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    if dtype == tf.float32:
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    if dtype == tf.int64:
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    raise TypeError(dtype)


def parse_config(sess, op):
    """The features of a ParseExample / ParseExampleV2 op: [(key, dtype,
    shape, has_default)], shape None for a sparse feature; ragged keys are an
    error (sm2c refuses them)."""
    tdense = op.get_attr("Tdense")
    shapes = [tf.TensorShape(s).as_list() for s in op.get_attr("dense_shapes")]
    if op.type == "ParseExample":
        ns, nd = op.get_attr("Nsparse"), op.get_attr("Ndense")
        sparse_keys = [sess.run(t) for t in op.inputs[2:2 + ns]]
        keys = [sess.run(t) for t in op.inputs[2 + ns:2 + ns + nd]]
        defaults = op.inputs[2 + ns + nd:]
    else:
        ns = op.get_attr("num_sparse")
        sparse_keys = list(sess.run(op.inputs[2])) if ns else []
        keys = list(sess.run(op.inputs[3]))
        defaults = op.inputs[5:]
        if op.get_attr("ragged_value_types"):
            raise SystemExit(f"{op.name}: ragged features")
    has_default = [d.shape.num_elements() != 0 for d in defaults]
    sparse = [(k, dt, None, True) for k, dt in zip(sparse_keys, op.get_attr("sparse_types"))]
    return sparse + [(k, dt, shp, hd) for k, dt, shp, hd in zip(keys, tdense, shapes, has_default)]


def make_examples(rng, config, n, sparse_range=(1, 100), sparse_counts=None, strings=None):
    """n serialized tf.Examples: example 0 has every dense feature, the others
    only the required ones; sparse features (shape None) have 2, 1, 0, 2, ...
    values, or with sparse_counts, feature k of example i has
    sparse_counts[(i + k) % len] values; a string feature's values come from
    strings[key] in turn; no proto ends in a NUL byte."""
    out = []
    for i in range(n):
        while True:
            feats = {}
            for k, (key, dtype, shape, has_default) in enumerate(config):
                if shape is None:
                    count = (2 - i) % 3 if sparse_counts is None else sparse_counts[(i + k) % len(sparse_counts)]
                    if count == 0:
                        continue
                    if dtype == tf.string:
                        pool = strings[key]
                        feats[key.decode()] = feature(dtype, [pool[(i + j) % len(pool)] for j in range(count)])
                        continue
                elif i > 0 and has_default:
                    continue
                else:
                    count = int(np.prod(shape)) if shape else 1
                if dtype == tf.float32:
                    vals = rng.standard_normal(count).astype(np.float32).tolist()
                elif shape is None:
                    vals = rng.integers(*sparse_range, size=count).tolist()
                else:
                    vals = rng.integers(1, 100, size=count).tolist()
                feats[key.decode()] = feature(dtype, vals)
            ex = tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString(
                deterministic=True)
            if not ex.endswith(b"\0"):
                break
        out.append(ex)
    return out


def example_input(sess, graph, tensor_name, rng, n, model):
    """Serialized Examples for the ParseExample op that reads tensor_name."""
    ops = [op for op in graph.get_operations()
           if op.type in ("ParseExample", "ParseExampleV2") and op.inputs[0].name == tensor_name]
    if len(ops) != 1:
        raise SystemExit(f"{tensor_name}: {len(ops)} ParseExample ops read it")
    return make_examples(rng, parse_config(sess, ops[0]), n, model.get("sparse_range", (1, 100)),
                         model.get("sparse_counts"), model.get("strings"))


def function_parse_config(model_dir):
    """TF2: the dense features of the one ParseExample(V2) node in the
    SavedModel's function library (its keys and defaults are Const nodes of the
    same function)."""
    from tensorflow.core.protobuf import saved_model_pb2
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(model_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    found = []
    for fn in sm.meta_graphs[0].graph_def.library.function:
        consts = {n.name: tf.make_ndarray(n.attr["value"].tensor) for n in fn.node_def if n.op == "Const"}
        for n in fn.node_def:
            if n.op not in ("ParseExample", "ParseExampleV2"):
                continue
            if n.op == "ParseExampleV2":
                if n.attr["num_sparse"].i:
                    raise SystemExit(f"{n.name}: sparse features")
                keys = list(consts[n.input[3].split(":")[0]].reshape(-1))
                defaults = n.input[5:]
            else:
                ns, nd = n.attr["Nsparse"].i, n.attr["Ndense"].i
                if ns:
                    raise SystemExit(f"{n.name}: sparse features")
                keys = [consts[i.split(":")[0]].reshape(-1)[0] for i in n.input[2:2 + nd]]
                defaults = n.input[2 + nd:]
            types = [tf.as_dtype(t) for t in n.attr["Tdense"].list.type]
            shapes = [[d.size for d in sh.dim] for sh in n.attr["dense_shapes"].list.shape]
            has_default = [consts[d.split(":")[0]].size != 0 for d in defaults]
            found.append(list(zip(keys, types, shapes, has_default)))
    if len(found) != 1:
        raise SystemExit(f"{model_dir}: {len(found)} ParseExample nodes in its functions")
    return found[0]


def concrete_shape(key, dims, model):
    """dims: list of ints (-1 unknown) or None for unknown rank."""
    shapes = model.get("shapes", {})
    if key in shapes:
        shape = list(shapes[key])
        if dims is not None:
            assert len(shape) == len(dims), (key, shape, dims)
            for s, d in zip(shape, dims):
                assert d == -1 or d == s, (key, shape, dims)
        return shape
    if dims is None:
        raise SystemExit(f"{model['dir']}: input {key} has unknown rank; give a shape")
    out = []
    for i, d in enumerate(dims):
        if d >= 0:
            out.append(d)
        elif i == 0:
            out.append(model.get("batch", BATCH))
        else:
            raise SystemExit(f"{model['dir']}: input {key} dim {i} unknown; give a shape")
    return out


def make_input(rng, dtype, shape, model):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind in "iu":
        lo, hi = model.get("int_range", (-100, 100))
        return rng.integers(lo, hi, size=shape).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    raise TypeError(dtype)


def ckpt_value(model_dir, name):
    reader = tf.train.load_checkpoint(os.path.join(model_dir, "variables", "variables"))
    v = np.asarray(reader.get_tensor(name))
    assert v.size == 1, (name, v.shape)
    return v.reshape(-1)[0].item()


def graph_const(graph, name):
    v = graph.get_tensor_by_name(name + ":0")
    with tf.compat.v1.Session(graph=graph) as sess:
        val = np.asarray(sess.run(v))
    assert val.size == 1, (name, val.shape)
    return val.reshape(-1)[0].item()


def resolve(x, model_dir, graph):
    if isinstance(x, str) and x.startswith("ckpt:"):
        return ckpt_value(model_dir, x[5:])
    if isinstance(x, str) and x.startswith("const:"):
        return graph_const(graph, x[6:])
    return x


def check_formulas(model, model_dir, key, inputs, outputs, graph):
    recorded = []
    for f in model.get("formulas", {}).get(key, []):
        a = resolve(f["a"], model_dir, graph)
        b = resolve(f["b"], model_dir, graph)
        x = inputs[f["input"]]
        y = outputs[f["output"]]
        if isinstance(x, list):     # serialized Examples: the formula is on feature "x"
            x = np.array([tf.train.Example.FromString(e).features.feature[f["feature"]].float_list.value[0]
                          for e in x], dtype=np.float32).reshape(y.shape)
        assert x.shape == y.shape, (model["dir"], key, f, x.shape, y.shape)
        if y.dtype.kind == "f":
            want = (a * x.astype(np.float64) + b)
            ok = np.allclose(y.astype(np.float64), want, rtol=1e-6, atol=1e-6)
        else:
            want = a * x.astype(np.int64) + b
            ok = np.array_equal(y.astype(np.int64), want)
        if not ok:
            raise SystemExit(f"{model['dir']}/{key}: formula {f} (a={a}, b={b}) does not "
                             f"hold on TensorFlow's output: {y.reshape(-1)[:4]} vs {want.reshape(-1)[:4]}")
        if "feature" not in f:
            recorded.append(dict(output=f["output"], input=f["input"], a=a, b=b))
    mm = model.get("matmul", {}).get(key)
    if mm:
        a, b, c = mm
        want = np.matmul(inputs[a].astype(np.float64), inputs[b].astype(np.float64))
        if not np.allclose(outputs[c], want, rtol=1e-5, atol=1e-5):
            raise SystemExit(f"{model['dir']}/{key}: {c} != {a} @ {b}")
        recorded.append(dict(output=c, matmul=[a, b]))
    return recorded


def dims_of(tensor_shape_proto):
    if tensor_shape_proto.unknown_rank:
        return None
    return [d.size for d in tensor_shape_proto.dim]


# ---- TF1 ----------------------------------------------------------------------------------

def run_tf1(model, model_dir, tags, rng):
    sigs = []
    graph = tf.Graph()
    with tf.compat.v1.Session(graph=graph) as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, tags, model_dir)
        for key in sorted(meta.signature_def):
            if key == "__saved_model_init_op" or key in model.get("skip", []):
                continue
            sd = meta.signature_def[key]
            inputs, feed, shape_flags = {}, {}, {}
            for k in sorted(sd.inputs):
                t = sd.inputs[k]
                # the graph's dtype: serving_half_plus_three's regress declares
                # its serialized tf.Example input as DT_FLOAT (SOURCES.md)
                if k in model.get("texts", {}):     # plain strings, given verbatim
                    arr = np.array(model["texts"][k], dtype=object)
                    inputs[k] = arr
                    feed[t.name] = arr
                    if graph.get_tensor_by_name(t.name).shape.rank is None:
                        shape_flags[k] = list(arr.shape)
                    continue
                if graph.get_tensor_by_name(t.name).dtype == tf.string:
                    exs = example_input(sess, graph, t.name, rng, model.get("batch", BATCH), model)
                    inputs[k] = exs
                    feed[t.name] = exs
                    continue
                dims = dims_of(t.tensor_shape)
                # The graph tensor's own shape wins where the signature's
                # metadata is wrong (serving_half_plus_three declares x as a
                # scalar, its placeholder is [-1,1]).
                gshape = graph.get_tensor_by_name(t.name).shape
                gdims = None if gshape.rank is None else \
                    [-1 if d is None else d for d in gshape.as_list()]
                use = gdims if gdims is not None else dims
                shape = concrete_shape(k, use, model)
                if dims is None or len(dims) != len(shape):
                    shape_flags[k] = shape
                arr = make_input(rng, tf.as_dtype(t.dtype).as_numpy_dtype, shape, model)
                inputs[k] = arr
                feed[t.name] = arr
            okeys = sorted(sd.outputs)
            vals = sess.run([sd.outputs[k].name for k in okeys], feed_dict=feed)
            outputs = {k: np.asarray(v) for k, v in zip(okeys, vals)}
            formulas = check_formulas(model, model_dir, key, inputs, outputs, graph)
            sigs.append((key, inputs, outputs, shape_flags, formulas))
    return sigs


# ---- TF2 ----------------------------------------------------------------------------------

def variable_by_key(loaded, ckpt_key):
    """The variable of checkpoint key "a/b/.ATTRIBUTES/VARIABLE_VALUE": loaded.a.b."""
    obj = loaded
    for part in ckpt_key[:-len("/.ATTRIBUTES/VARIABLE_VALUE")].split("/"):
        obj = getattr(obj, part)
    return obj


def run_calls(loaded, model_dir, fn, inputs, n):
    """n consecutive calls with the same inputs: each call's outputs, and the
    variables the calls changed (by checkpoint key) after the last."""
    reader = tf.train.load_checkpoint(os.path.join(model_dir, "variables", "variables"))
    keys = [k for k in sorted(reader.get_variable_to_shape_map())
            if k.endswith("/.ATTRIBUTES/VARIABLE_VALUE")]
    before = {k: reader.get_tensor(k) for k in keys}
    calls = []
    for _ in range(n):
        res = fn(**{k: tf.constant(v) for k, v in inputs.items()})
        calls.append({k: np.asarray(res[k].numpy()) for k in sorted(res)})
    state = {}
    for k in keys:
        now = np.asarray(variable_by_key(loaded, k).numpy())
        if now.tobytes() != np.asarray(before[k]).tobytes():
            state[k] = now
    return calls, state


def run_tf2(model, model_dir, tags, rng):
    sigs = []
    loaded = tf.saved_model.load(model_dir, tags=tags)
    for key in sorted(loaded.signatures):
        if key == "__saved_model_init_op" or key in model.get("skip", []):
            continue
        if "calls" in model:    # stateful: every signature starts from the checkpoint
            loaded = tf.saved_model.load(model_dir, tags=tags)
        fn = loaded.signatures[key]
        specs = fn.structured_input_signature[1]
        inputs, shape_flags = {}, {}
        for k in sorted(specs):
            s = specs[k]
            if s.dtype == tf.string:    # serialized tf.Examples
                inputs[k] = make_examples(rng, function_parse_config(model_dir), model.get("batch", BATCH))
                continue
            dims = None if s.shape.rank is None else [-1 if d is None else d for d in s.shape.as_list()]
            shape = concrete_shape(k, dims, model)
            if dims is None:
                shape_flags[k] = shape
            inputs[k] = make_input(rng, s.dtype.as_numpy_dtype, shape, model)
        n = model.get("calls", {}).get(key, 1)
        calls, state = run_calls(loaded, model_dir, fn, inputs, n) if "calls" in model else (None, None)
        if calls is None:
            res = fn(**{k: tf.constant(v) for k, v in inputs.items()})
            outputs = {k: np.asarray(res[k].numpy()) for k in sorted(res)}
        else:
            outputs = calls[0]
            if n == 1 and state:
                raise SystemExit(f"{model['dir']}/{key} writes variables: give it calls")
        formulas = check_formulas(model, model_dir, key, inputs, outputs, None)
        sigs.append((key, inputs, outputs, shape_flags, formulas))
        if n > 1:
            sigs[-1] += (calls, state)
    return sigs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", action="append", default=[],
                    help="regenerate only this model (a dir name; repeatable), keeping the others in --out")
    args = ap.parse_args()
    kept = {}
    if args.only:
        with open(args.out) as f:
            kept = {m["dir"]: m for m in json.load(f)["models"]}

    doc = {"generator": "tests/models/gen_corpus_refs.py",
           "tf_version": tf.__version__,
           "tolerance": {"float": {"rtol": 1e-4, "atol": 1e-4}, "integer": "exact"},
           "models": []}
    for model in MODELS:
        if args.only and model["dir"] not in args.only:
            if model["dir"] in kept:
                doc["models"].append(kept[model["dir"]])
            continue
        model_dir = os.path.join(args.models, model["dir"])
        tags_s = model.get("tags", "serve")
        tags = tags_s.split(",")
        rng = np.random.default_rng(zlib.crc32(model["dir"].encode()))
        run = run_tf1 if model["fmt"] == "tf1" else run_tf2
        sigs = run(model, model_dir, tags, rng)
        if not sigs:
            raise SystemExit(f"{model['dir']}: no numeric signature")
        entry = {"dir": model["dir"], "tags": tags_s, "format": model["fmt"], "signatures": []}
        for key, inputs, outputs, shape_flags, formulas, *stateful in sigs:
            s = {"key": key,
                 "inputs": {k: tensor_json(v) for k, v in inputs.items()},
                 "outputs": {k: tensor_json(v) for k, v in outputs.items()},
                 "shape_flags": shape_flags}
            if stateful:
                # call k's outputs (k = 1..calls; call 1 is "outputs"), and the
                # written variables after the last call, by checkpoint key
                calls, state = stateful
                s["calls"] = len(calls)
                s["call_outputs"] = [{k: tensor_json(v) for k, v in c.items()} for c in calls]
                s["state"] = {k: tensor_json(v) for k, v in state.items()}
            if formulas:
                s["formulas"] = formulas
            entry["signatures"].append(s)
            print(f"{model['dir']}/{key}: " + ", ".join(
                f"{k}{list(v.shape)}" for k, v in outputs.items())
                + (f"  ({len(formulas)} formula checks ok)" if formulas else ""), file=sys.stderr)
        doc["models"].append(entry)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
