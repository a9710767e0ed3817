#!/usr/bin/env python3
"""Write the end-to-end test models and TensorFlow's reference outputs.

Run with the project venv (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_e2e.py [--out OUT_DIR] [CASE ...]

OUT_DIR defaults to tests/data/e2e; with no CASE every case is written.  Each
case becomes

    <case>/model/                              the SavedModel
    <case>/inputs/<signature>/<input_key>.npy   random inputs (seed 0)
    <case>/expected/<signature>/<output_key>.npy
    <case>/case.json

The expected outputs are what TensorFlow computes when it LOADS the SavedModel
and calls the signature: tf.saved_model.load(dir).signatures[key](**inputs),
or for TF1 models a tf.compat.v1.Session after
tf.compat.v1.saved_model.loader.load.  case.json reads

    {"description": "...",
     "tolerance": {"rtol": 1e-4, "atol": 1e-4},
     "tf_version": "2.21.0",
     "signatures": {"serving_default": {
         "shapes": {"x": [2, 8]},               concrete input shapes (-1 dims
                                                 of the signature made 2 or 3)
         "signature_shapes": {"x": [-1, 8]},     as the signature declares them
         "inputs": {"x": "float32"},
         "outputs": {"y": {"dtype": "float32", "shape": [2, 4]}},
         "ops": {"MatMul": 3, ...}}}}            op histogram of everything the
                                                 signature reaches in saved_model.pb
                                                 (graph nodes and the library
                                                 functions they call)
"""
import argparse
import json
import os
import re
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "0")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "data", "e2e")
DEFAULT_TOL = {"rtol": 1e-4, "atol": 1e-4}
EXACT = {"rtol": 0.0, "atol": 0.0}


def seed_all():
    import keras
    keras.utils.set_random_seed(0)
    tf.random.set_seed(0)
    np.random.seed(0)


# ---- op histogram -------------------------------------------------------------------------

def load_pb(model_dir):
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(model_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    assert len(sm.meta_graphs) == 1, "one MetaGraphDef expected"
    return sm.meta_graphs[0]


def called_functions(node):
    for attr in node.attr.values():
        if attr.HasField("func") and attr.func.name:
            yield attr.func.name
        if attr.HasField("list"):
            for fn in attr.list.func:
                yield fn.name


def op_histogram(meta, sig_key):
    """Ops of the graph nodes the signature's outputs depend on, plus every node
    of every library function they (transitively) call."""
    graph = meta.graph_def
    nodes = {n.name: n for n in graph.node}
    funcs = {f.signature.name: f for f in graph.library.function}
    sig = meta.signature_def[sig_key]
    hist = {}
    seen_nodes, seen_funcs = set(), set()
    stack = [t.name.split(":")[0] for t in sig.outputs.values()]
    fstack = []
    while stack:
        name = stack.pop().lstrip("^").split(":")[0]
        if name in seen_nodes:
            continue
        seen_nodes.add(name)
        n = nodes[name]
        hist[n.op] = hist.get(n.op, 0) + 1
        fstack.extend(called_functions(n))
        stack.extend(n.input)
    while fstack:
        fname = fstack.pop()
        if fname in seen_funcs or fname not in funcs:
            continue
        seen_funcs.add(fname)
        for n in funcs[fname].node_def:
            hist[n.op] = hist.get(n.op, 0) + 1
            fstack.extend(called_functions(n))
    return dict(sorted(hist.items())), sorted(seen_funcs)


# ---- inputs and references ----------------------------------------------------------

def make_input(rng, dtype, shape):
    if dtype.is_floating:
        a = rng.standard_normal(shape).astype(dtype.as_numpy_dtype)
        # No exact zeros (ReLU ties).
        a[a == 0] = 0.25
        return a
    if dtype.is_integer:
        return rng.integers(-50, 50, size=shape).astype(dtype.as_numpy_dtype)
    if dtype == tf.bool:
        return rng.integers(0, 2, size=shape).astype(bool)
    raise ValueError(f"no input generator for {dtype}")


def concrete_shape(dims, batch):
    return [batch if d < 0 else d for d in dims]


def sig_input_specs(meta, key):
    sig = meta.signature_def[key]
    out = {}
    for k, info in sorted(sig.inputs.items()):
        dims = [d.size for d in info.tensor_shape.dim]
        assert not info.tensor_shape.unknown_rank, f"{key}/{k}: unknown rank"
        out[k] = (tf.dtypes.as_dtype(info.dtype), dims)
    return out


def write_case(out, case, model_dir, description, tolerance=None, batch=2,
               tf1=False, signatures=None, extra=None, relu_margin=None):
    """Inputs, expected outputs and case.json for the model in <case>/model."""
    meta = load_pb(model_dir)
    keys = signatures or sorted(k for k in meta.signature_def if not k.startswith("__"))
    rng = np.random.default_rng(0)
    info = {"description": description, "tolerance": tolerance or DEFAULT_TOL,
            "tf_version": tf.__version__, "signatures": {}}
    if extra:
        info.update(extra)
    case_dir = os.path.join(out, case)
    for key in keys:
        specs = sig_input_specs(meta, key)
        inputs = {k: make_input(rng, dt, concrete_shape(dims, batch))
                  for k, (dt, dims) in specs.items()}
        outputs = run_tf1(model_dir, meta, key, inputs) if tf1 else run_tf2(model_dir, key, inputs)
        save_arrays(case_dir, key, "", inputs, outputs)
        hist, funcs = op_histogram(meta, key)
        if relu_margin:
            # Smallest |pre-activation| at a ReLU for these inputs: far from 0 means no tie.
            margin = float(relu_margin(inputs))
            assert margin > 1e-4, f"{case}/{key}: ReLU input {margin} too close to 0"
        info["signatures"][key] = {
            "shapes": {k: list(v.shape) for k, v in inputs.items()},
            "signature_shapes": {k: dims for k, (_, dims) in specs.items()},
            "inputs": {k: str(v.dtype) for k, v in inputs.items()},
            "outputs": {k: {"dtype": str(v.dtype), "shape": list(v.shape)}
                        for k, v in sorted(outputs.items())},
            "ops": hist,
            "functions": len(funcs),
        }
        if relu_margin:
            info["signatures"][key]["relu_min_abs_input"] = margin
    with open(os.path.join(case_dir, "case.json"), "w") as f:
        f.write(dump_json(info))
    return info


def save_arrays(case_dir, key, sub, inputs, outputs):
    """inputs/<key>/<sub>/<k>.npy and expected/<key>/<sub>/<k>.npy (finite floats)."""
    idir = os.path.join(case_dir, "inputs", key, sub)
    edir = os.path.join(case_dir, "expected", key, sub)
    os.makedirs(idir)
    os.makedirs(edir)
    for k, v in inputs.items():
        np.save(os.path.join(idir, k + ".npy"), v)
    for k, v in outputs.items():
        v = np.ascontiguousarray(v)
        assert np.all(np.isfinite(v)) if v.dtype.kind == "f" else True, (case_dir, key, k)
        np.save(os.path.join(edir, k + ".npy"), v)


def dump_json(obj):
    """Indented JSON with lists of numbers (shapes) kept on one line."""
    text = json.dumps(obj, indent=1)
    return re.sub(r"\[\s*([-0-9.e,\s]*?)\s*\]",
                  lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",") if x.strip()) + "]",
                  text) + "\n"


def run_tf2(model_dir, key, inputs):
    loaded = tf.saved_model.load(model_dir)
    fn = loaded.signatures[key]
    res = fn(**{k: tf.constant(v) for k, v in inputs.items()})
    return {k: v.numpy() for k, v in res.items()}


def run_tf1(model_dir, meta, key, inputs):
    sig = meta.signature_def[key]
    g = tf.Graph()
    with g.as_default(), tf.compat.v1.Session(graph=g) as sess:
        tf.compat.v1.saved_model.loader.load(sess, ["serve"], model_dir)
        feeds = {sig.inputs[k].name: v for k, v in inputs.items()}
        names = sorted(sig.outputs.keys())
        vals = sess.run([sig.outputs[k].name for k in names], feed_dict=feeds)
    return dict(zip(names, vals))


def fresh(out, case):
    d = os.path.join(out, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return os.path.join(d, "model")


# ---- cases ---------------------------------------------------------------------------------

def case_mlp(out):
    import keras
    seed_all()
    model = keras.Sequential([
        keras.Input(shape=(8,), name="x"),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(8, activation="relu"),
        keras.layers.Dense(4),
        keras.layers.Softmax(),
    ])
    # Biases away from zero, so the graph has real BiasAdd/AddV2 work.
    for layer in model.layers:
        if hasattr(layer, "bias") and layer.bias is not None:
            layer.bias.assign(np.linspace(-0.2, 0.3, layer.bias.shape[0]).astype(np.float32))
    d = fresh(out, "mlp")
    model.export(d, verbose=False)
    dense = [layer.get_weights() for layer in model.layers[:2]]

    def margin(inputs):
        h, m = inputs["x"].astype(np.float64), np.inf
        for w, b in dense:
            z = h @ w + b
            m = min(m, np.abs(z).min())
            h = np.maximum(z, 0)
        return m

    return write_case(out, "mlp", d, "Keras 3 Sequential MLP 8-16-8-4 + softmax, model.export()",
                      relu_margin=margin)


def case_cnn(out):
    import keras
    seed_all()
    tf.config.experimental.enable_op_determinism()
    model = keras.Sequential([
        keras.Input(shape=(16, 16, 3), name="image"),
        keras.layers.Conv2D(8, 3, padding="same"),
        keras.layers.BatchNormalization(),
        keras.layers.ReLU(),
        keras.layers.MaxPool2D(),
        keras.layers.Conv2D(8, 3, padding="valid", strides=2),
        keras.layers.Flatten(),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss="sparse_categorical_crossentropy")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((16, 16, 16, 3)).astype(np.float32) * 2 + 0.5
    y = rng.integers(0, 10, size=(16,))
    model.fit(x, y, batch_size=8, epochs=1, steps_per_epoch=2, verbose=0, shuffle=False)
    bn = model.layers[1]
    mm = bn.moving_mean.numpy()
    mv = bn.moving_variance.numpy()
    assert np.abs(mm).max() > 1e-3 and np.abs(mv - 1).max() > 1e-3, "BatchNorm stats trivial"
    d = fresh(out, "cnn")
    model.export(d, verbose=False)
    return write_case(out, "cnn", d,
                      "Keras 3 Conv2D(same)-BatchNorm-ReLU-MaxPool-Conv2D(valid, stride 2)-"
                      "Flatten-Dense(10, softmax) on 16x16x3, trained 2 steps, model.export()")


def case_checkpoint_guide(out):
    seed_all()

    class Net(tf.keras.Model):
        """A simple linear model (TF's checkpoint guide)."""

        def __init__(self):
            super().__init__()
            self.l1 = tf.keras.layers.Dense(5)

        def call(self, x):
            return self.l1(x)

    def toy_dataset():
        inputs = tf.range(10.)[:, None]
        labels = inputs * 5. + tf.range(5.)[None, :]
        return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)

    def train_step(net, example, optimizer):
        with tf.GradientTape() as tape:
            output = net(example["x"])
            loss = tf.reduce_mean(tf.abs(output - example["y"]))
        variables = net.trainable_variables
        gradients = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(gradients, variables))
        return loss

    net = Net()
    opt = tf.keras.optimizers.Adam(0.1)
    it = iter(toy_dataset())
    for _ in range(10):
        train_step(net, next(it), opt)

    @tf.function(input_signature=[tf.TensorSpec([None, 1], tf.float32, name="x")])
    def serve(x):
        return {"output_0": net(x)}

    net.serve = serve
    d = fresh(out, "checkpoint_guide")
    tf.saved_model.save(net, d, signatures={"serving_default": serve})
    return write_case(out, "checkpoint_guide", d,
                      "TF checkpoint guide's Net (Dense(5)), 10 Adam steps on its toy dataset, "
                      "tf.saved_model.save with input_signature [None, 1]", batch=3)


def case_module_fn(out):
    seed_all()
    rng = np.random.default_rng(2)

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(rng.standard_normal((5, 3)).astype(np.float32), name="w")
            self.b = tf.Variable(np.array([0.1, -0.2, 0.3], np.float32), name="b")
            self.c = tf.constant(np.array([0.5, 1.0, -1.5], np.float32))

        @tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32, name="x")])
        def __call__(self, x):
            return {"y": tf.nn.relu(x @ self.w + self.b) * 2.0 - self.c}

    m = M()
    d = fresh(out, "module_fn")
    tf.saved_model.save(m, d, signatures={"serving_default": m.__call__})
    w, b = m.w.numpy().astype(np.float64), m.b.numpy().astype(np.float64)
    return write_case(out, "module_fn", d, relu_margin=lambda i: np.abs(i["x"] @ w + b).min(),
                      description=
                      "tf.Module: y = relu(x @ w + b) * 2 - c, w/b variables, c a captured "
                      "constant, tf.saved_model.save", batch=3)


def case_tf_keras(out):
    import tf_keras
    tf_keras.utils.set_random_seed(0)
    a = tf_keras.Input(shape=(4,), name="a")
    b = tf_keras.Input(shape=(3,), name="b")
    h = tf_keras.layers.Dense(6, activation="relu", name="hidden")(a)
    cat = tf_keras.layers.Concatenate(name="concat")([h, b])
    o1 = tf_keras.layers.Dense(2, name="score")(cat)
    o2 = tf_keras.layers.Dense(3, activation="tanh", name="embed")(cat)
    model = tf_keras.Model(inputs=[a, b], outputs=[o1, o2])
    for layer in model.layers:
        if getattr(layer, "bias", None) is not None:
            layer.bias.assign(np.linspace(-0.3, 0.2, layer.bias.shape[0]).astype(np.float32))
    d = fresh(out, "tf_keras")
    tf.saved_model.save(model, d)
    hw, hb = model.get_layer("hidden").get_weights()
    return write_case(out, "tf_keras", d, relu_margin=lambda i: np.abs(i["a"] @ hw + hb).min(),
                      description=
                      "tf_keras (Keras 2) Functional model, inputs a[4] b[3], Dense(relu) + "
                      "Concatenate + Dense heads score[2] and embed[3] (tanh), "
                      "tf.saved_model.save(model, dir)",
                      extra={"tf_keras_version": tf_keras.__version__})


def case_bn_fold(out):
    """tf_keras exports BatchNormalization as FusedBatchNormV3 (Keras 3 decomposes
    it): Conv2D(+bias) -> BN -> ReLU -> DepthwiseConv2D(no bias) -> BN -> ReLU6 ->
    global average pool -> Dense, with moving statistics made non-trivial."""
    import tf_keras
    tf_keras.utils.set_random_seed(0)
    L = tf_keras.layers
    model = tf_keras.Sequential([
        tf_keras.Input(shape=(10, 10, 3), name="image"),
        L.Conv2D(6, 3, padding="same", use_bias=True, name="conv"),
        L.BatchNormalization(name="bn1"),
        L.ReLU(name="relu"),
        L.DepthwiseConv2D(3, padding="valid", use_bias=False, depth_multiplier=2, name="dw"),
        L.BatchNormalization(name="bn2"),
        L.ReLU(max_value=6.0, name="relu6"),
        L.GlobalAveragePooling2D(name="gap"),
        L.Dense(4, name="head"),
    ])
    rng = np.random.default_rng(1)
    for layer in model.layers:
        if isinstance(layer, L.BatchNormalization):
            n = layer.gamma.shape[0]
            layer.gamma.assign(rng.uniform(0.5, 1.5, n).astype(np.float32))
            layer.beta.assign(rng.uniform(-0.2, 0.2, n).astype(np.float32))
            layer.moving_mean.assign(rng.uniform(-0.3, 0.3, n).astype(np.float32))
            layer.moving_variance.assign(rng.uniform(0.5, 2.0, n).astype(np.float32))
    d = fresh(out, "bn_fold")
    tf.saved_model.save(model, d)
    return write_case(out, "bn_fold", d, description=
                      "tf_keras Conv2D + BatchNormalization (FusedBatchNormV3) + ReLU, "
                      "DepthwiseConv2D + BN + ReLU6, global average pool, Dense: BN folding",
                      extra={"tf_keras_version": tf_keras.__version__})


def case_keras3_fold(out):
    """Keras 3 batch norm (a per-channel Mul and Add) after Conv2D with and without
    bias, DepthwiseConv2D with multipliers 1 and 2, and Dense, each folded into the
    weights (pass_affinefold.c), with ReLU/ReLU6 epilogues, zero padding and a
    residual Add."""
    import keras
    seed_all()
    L = keras.layers
    x = inp = keras.Input(shape=(9, 11, 3), name="image")
    x = L.ZeroPadding2D(((1, 1), (1, 1)))(x)
    x = L.Conv2D(20, 3, strides=2, use_bias=True)(x)
    x = L.ReLU(max_value=6.0)(L.BatchNormalization()(x))
    y = L.DepthwiseConv2D(3, padding="same", use_bias=False)(x)
    y = L.ReLU()(L.BatchNormalization()(y))
    y = L.Conv2D(20, 1, use_bias=False)(y)
    y = L.BatchNormalization()(y)
    x = L.Add()([x, y])
    x = L.DepthwiseConv2D(3, depth_multiplier=2, padding="valid")(x)
    x = L.BatchNormalization()(x)
    x = L.GlobalAveragePooling2D()(x)
    x = L.Dense(12)(x)
    x = L.ReLU()(L.BatchNormalization()(x))
    model = keras.Model(inp, L.Dense(4)(x))
    rng = np.random.default_rng(1)
    for layer in model.layers:
        if isinstance(layer, L.BatchNormalization):
            n = layer.gamma.shape[0]
            layer.gamma.assign(rng.uniform(0.5, 1.5, n).astype(np.float32))
            layer.beta.assign(rng.uniform(-0.2, 0.2, n).astype(np.float32))
            layer.moving_mean.assign(rng.uniform(-0.3, 0.3, n).astype(np.float32))
            layer.moving_variance.assign(rng.uniform(0.5, 2.0, n).astype(np.float32))
    d = fresh(out, "keras3_fold")
    model.export(d, verbose=False)
    return write_case(out, "keras3_fold", d, description=
                      "Keras 3 Conv2D/DepthwiseConv2D(x1, x2)/Dense + BatchNormalization "
                      "(Mul, Add) + ReLU/ReLU6, ZeroPadding2D, residual Add: affine folding")


def case_tf1_builder(out):
    d = fresh(out, "tf1_builder")
    g = tf.Graph()
    rng = np.random.default_rng(3)
    with g.as_default():
        v1 = tf.compat.v1
        x = v1.placeholder(tf.float32, [None, 6], name="x")
        w = v1.get_variable("w", [6, 4], initializer=v1.constant_initializer(
            rng.standard_normal((6, 4)).astype(np.float32)), use_resource=False)
        b = v1.get_variable("b", [4], initializer=v1.constant_initializer(
            np.array([0.1, -0.1, 0.2, 0.0], np.float32)), use_resource=False)
        h = tf.tanh(tf.nn.bias_add(tf.matmul(x, w), b), name="h")
        mean = tf.reduce_mean(h, axis=1, name="mean")
        r = tf.reshape(h, [-1, 2, 2], name="r")
        t = tf.transpose(r, [0, 2, 1], name="t")
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            builder = v1.saved_model.Builder(d)
            sig = v1.saved_model.signature_def_utils.predict_signature_def(
                inputs={"x": x}, outputs={"mean": mean, "t": t})
            builder.add_meta_graph_and_variables(sess, ["serve"],
                                                 signature_def_map={"serving_default": sig})
            builder.save()
        assert w.op.type == "VariableV2", w.op.type
    return write_case(out, "tf1_builder", d,
                      "TF1 graph: placeholders, VariableV2 (get_variable), MatMul + BiasAdd + "
                      "Tanh, Mean over axis 1, Reshape and Transpose; "
                      "tf.compat.v1.saved_model.Builder", tf1=True, batch=3)


def case_ints(out):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.k32 = tf.constant(np.array([3, -7, 0, 11], np.int32))
            self.k64 = tf.constant(np.array([[5], [-2]], np.int64))

        @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.int32, name="a"),
                                      tf.TensorSpec([4], tf.int32, name="b")])
        def i32(self, a, b):
            s = a + b
            p = a * b
            mx = tf.maximum(a, self.k32)
            back = tf.cast(tf.cast(s, tf.float32) * 0.5, tf.int32)
            return {"sum": s, "prod": p, "max": mx, "half": back}

        @tf.function(input_signature=[tf.TensorSpec([2, None], tf.int64, name="a"),
                                      tf.TensorSpec([None], tf.int64, name="b")])
        def i64(self, a, b):
            s = a + b
            p = a * self.k64
            mx = tf.maximum(a, b)
            back = tf.cast(tf.cast(p, tf.float32) / 3.0, tf.int64)
            return {"sum": s, "prod": p, "max": mx, "third": back}

    m = M()
    d = fresh(out, "ints")
    tf.saved_model.save(m, d, signatures={"serving_default": m.i32, "int64_ops": m.i64})
    return write_case(out, "ints", d,
                      "tf.Module with int32 (serving_default) and int64 (int64_ops) "
                      "signatures: Add, Mul, Maximum with broadcasting, Cast to float and back",
                      tolerance=EXACT, batch=3)


def case_ops_mix(out):
    rng = np.random.default_rng(4)
    dw_filter = tf.constant(rng.standard_normal((3, 3, 4, 2)).astype(np.float32) * 0.5)
    wb = tf.constant(rng.standard_normal((2, 4, 5)).astype(np.float32))

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 4], tf.float32, name="x"),
                                      tf.TensorSpec([None, 3, 4], tf.float32, name="y")])
        def __call__(self, x, y):
            p = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]])               # Pad [N,8,8,4]
            dw = tf.nn.depthwise_conv2d(p, dw_filter, [1, 1, 1, 1], "VALID")  # [N,6,6,8]
            ap = tf.nn.avg_pool2d(dw, 2, 2, "VALID")                     # [N,3,3,8]
            c = tf.concat([ap, tf.slice(ap, [0, 0, 0, 0], [-1, 3, 3, 2])], axis=3)  # [N,3,3,10]
            s1 = c[..., 1:9:2]                                           # ellipsis [N,3,3,4]
            s2 = c[:, tf.newaxis, 0, ::-1]                               # new axis, shrink [N,1,3,10]
            s3 = c[:, 1]                                                 # shrink [N,3,10]
            e = tf.expand_dims(tf.reduce_sum(s1, axis=[1, 2]), 1)        # [N,1,4]
            sq = tf.squeeze(s2, axis=1)                                  # [N,3,10]
            st = tf.stack([sq, s3], axis=1)                              # Pack [N,2,3,10]
            m = tf.reduce_mean(st, axis=-1, keepdims=True)               # [N,2,3,1]
            dv = (st - m) / (tf.abs(m) + 1.0)                            # Sub, RealDiv
            mn = tf.minimum(dv, 0.5)
            sg = tf.sigmoid(mn)
            ls = tf.nn.log_softmax(tf.reshape(sg, [-1, 10]), axis=-1)    # [N*6,10]
            bm = tf.linalg.matmul(y[:, tf.newaxis], wb)                  # BatchMatMulV2 [N,2,3,5]
            fl = tf.fill(tf.stack([tf.shape(x)[0], 4]), 0.5)             # Shape, Fill [N,4]
            return {"log_softmax": ls, "bmm": bm, "fill_mix": tf.squeeze(e, 1) * fl}

    m = M()
    d = fresh(out, "ops_mix")
    tf.saved_model.save(m, d, signatures={"serving_default": m.__call__})
    return write_case(out, "ops_mix", d,
                      "tf.function mixing Pad, DepthwiseConv2dNative, AvgPool, ConcatV2, Slice, "
                      "StridedSlice (ellipsis/new_axis/shrink/negative stride), Sum, ExpandDims, "
                      "Squeeze, Pack, Mean, Sub, RealDiv, Minimum, Sigmoid, LogSoftmax, "
                      "BatchMatMulV2 (batch broadcasting), Shape, Fill")


CASES = {
    "mlp": case_mlp,
    "cnn": case_cnn,
    "checkpoint_guide": case_checkpoint_guide,
    "module_fn": case_module_fn,
    "tf_keras": case_tf_keras,
    "tf1_builder": case_tf1_builder,
    "ints": case_ints,
    "ops_mix": case_ops_mix,
    "bn_fold": case_bn_fold,
    "keras3_fold": case_keras3_fold,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("cases", nargs="*", help="any of: " + " ".join(CASES))
    args = ap.parse_args()
    for name in args.cases:
        if name not in CASES:
            ap.error(f"unknown case {name!r}")
    os.makedirs(args.out, exist_ok=True)
    for name in args.cases or list(CASES):
        info = CASES[name](args.out)
        for key, s in info["signatures"].items():
            print(f"{name}/{key}: {s['shapes']} -> "
                  f"{ {k: v['shape'] for k, v in s['outputs'].items()} } "
                  f"ops={sum(s['ops'].values())}", file=sys.stderr)


if __name__ == "__main__":
    main()
