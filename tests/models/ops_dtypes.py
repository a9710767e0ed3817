"""Conformance cases for the dtypes of the data-movement ops (issue 4: "each
supported dtype").

The movement kernels copy elements by size, so one case per dtype runs every
movement op on that dtype: Movement_<dtype>, outputs named after the op.  An op
is in a case only where TensorFlow has a CPU kernel for that dtype (probed
eagerly here), so the case is TF-referenced like every other.  float32, int32
and int64 are in ops_movement.py already.  Every output is bit-exact.
"""
from opcase import EXACT, np, rng_for, tf

DTYPES = ["float64", "float16", "bfloat16", "int8", "int16", "uint8", "uint16", "uint32",
          "uint64", "bool"]

# output name: movement op on x of shape [2, 4, 4, 2].
OPS = {
    "Reshape": lambda x: tf.reshape(x, [4, -1]),
    "Squeeze": lambda x: tf.squeeze(x[:1], [0]),
    "ExpandDims": lambda x: tf.expand_dims(x, -2),
    "Transpose": lambda x: tf.transpose(x, [0, 3, 1, 2]),
    "ConcatV2": lambda x: tf.concat([x, x[:, :1]], 1),
    "Pack": lambda x: tf.stack([x, x], -1),
    "Unpack": lambda x: tf.unstack(x, axis=1)[2],
    "Split": lambda x: tf.split(x, 2, axis=2)[1],
    "SplitV": lambda x: tf.split(x, [1, 3], axis=1)[1],
    "Slice": lambda x: tf.slice(x, [0, 1, 1, 0], [2, 2, -1, 1]),
    "StridedSlice": lambda x: x[::-1, 1::2, ..., tf.newaxis, 1],
    "Tile": lambda x: tf.tile(x, [1, 2, 1, 3]),
    "Pad": lambda x: tf.pad(x, [[1, 0], [0, 2], [1, 1], [0, 0]]),
    "MirrorPad": lambda x: tf.pad(x, [[0, 0], [1, 2], [2, 1], [0, 0]], mode="REFLECT"),
    "ReverseV2": lambda x: tf.reverse(x, [1, -1]),
    "GatherV2": lambda x: tf.gather(x, [3, 0, 0, 2], axis=1),
    "GatherNd": lambda x: tf.gather_nd(x, [[1, 2], [0, 3]]),
    "SpaceToDepth": lambda x: tf.nn.space_to_depth(x, 2),
    "DepthToSpace": lambda x: tf.nn.depth_to_space(tf.concat([x, x], -1), 2),
    "SpaceToBatchND": lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 1]]),
    "BatchToSpaceND": lambda x: tf.batch_to_space(tf.concat([x, x], 0), [2, 1], [[0, 0], [0, 1]]),
    "BroadcastTo": lambda x: tf.broadcast_to(x[:1, :1], [3, 2, 4, 2]),
    "ReverseSequence": lambda x: tf.reverse_sequence(x, [1, 4], seq_axis=1, batch_axis=0),
    "MatrixBandPart": lambda x: tf.linalg.band_part(x, 1, 0),
    "SelectV2": lambda x: tf.where([True, False], x, x[::-1]),
    "ZerosLike": lambda x: tf.raw_ops.ZerosLike(x=x),
    "OnesLike": lambda x: tf.raw_ops.OnesLike(x=x),
}

# TensorFlow 2.21 returns zeros for these when the op runs inside a saved
# signature (eager gives ones): not a reference to test against.
TF_DISAGREES = {("OnesLike", "uint32"), ("OnesLike", "uint64")}


def sample(dtype, shape):
    r = rng_for("Movement_" + dtype)
    if dtype == "bool":
        return r.integers(0, 2, shape).astype(bool)
    if dtype in ("float64", "float16"):
        return r.uniform(-100, 100, shape).astype(dtype)
    if dtype == "bfloat16":
        return r.uniform(-100, 100, shape).astype(tf.bfloat16.as_numpy_dtype)
    info = np.iinfo(dtype)
    return r.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def has_kernel(op, x):
    try:
        op(tf.constant(x))
        return True
    except (tf.errors.OpError, TypeError, ValueError):
        return False


def cases():
    for dt in DTYPES:
        x = sample(dt, [2, 4, 4, 2])
        ops = {name: op for name, op in OPS.items()
               if (name, dt) not in TF_DISAGREES and has_kernel(op, x)}
        yield ("Movement_" + dt, lambda x, ops=ops: {k: op(x) for k, op in ops.items()},
               {"serving_default": {"x": x}}, EXACT,
               "%s through %s" % (dt, ", ".join(sorted(ops))))


# Elementwise ops on float16 and bfloat16 (sm2c computes them in float32, as
# TensorFlow's CPU kernels do): output name -> (op, inputs).  Inputs: a in
# [-4, 4], p in [1, 8], u in [-0.9, 0.9], each op's domain.
R = tf.raw_ops
UNARY = {
    "Relu": (lambda x: R.Relu(features=x), "a"), "Relu6": (lambda x: R.Relu6(features=x * 2), "a"),
    "Sigmoid": (tf.math.sigmoid, "a"), "Tanh": (tf.math.tanh, "a"), "Neg": (tf.math.negative, "a"),
    "Abs": (tf.math.abs, "a"), "Square": (tf.math.square, "a"), "Sqrt": (tf.math.sqrt, "p"),
    "Rsqrt": (tf.math.rsqrt, "p"), "Exp": (tf.math.exp, "a"), "Log": (tf.math.log, "p"),
    "Floor": (tf.math.floor, "a"), "Ceil": (tf.math.ceil, "a"), "Round": (tf.math.round, "a"),
    "Rint": (tf.math.rint, "a"), "Sin": (tf.math.sin, "a"), "Cos": (tf.math.cos, "a"),
    "Tan": (tf.math.tan, "u"), "Asin": (tf.math.asin, "u"), "Acos": (tf.math.acos, "u"),
    "Atan": (tf.math.atan, "a"), "Sinh": (tf.math.sinh, "a"), "Cosh": (tf.math.cosh, "a"),
    "Asinh": (tf.math.asinh, "a"), "Acosh": (tf.math.acosh, "p"), "Atanh": (tf.math.atanh, "u"),
    "Erf": (tf.math.erf, "a"), "Erfc": (tf.math.erfc, "a"), "Expm1": (tf.math.expm1, "a"),
    "Log1p": (tf.math.log1p, "p"), "Sign": (tf.math.sign, "a"), "Reciprocal": (tf.math.reciprocal, "p"),
    "Inv": (lambda x: R.Inv(x=x), "p"), "Softplus": (tf.math.softplus, "a"),
    "Softsign": (tf.math.softsign, "a"), "Elu": (tf.nn.elu, "a"), "Selu": (tf.nn.selu, "a"),
    "LeakyRelu": (tf.nn.leaky_relu, "a"),
}
BINARY = {
    "Add": (lambda x, y: R.Add(x=x, y=y), "ap"), "AddV2": (lambda x, y: R.AddV2(x=x, y=y), "ap"),
    "Sub": (tf.math.subtract, "ap"), "Mul": (tf.math.multiply, "ap"), "RealDiv": (tf.math.truediv, "ap"),
    "Maximum": (tf.math.maximum, "au"), "Minimum": (tf.math.minimum, "au"),
    "Pow": (tf.math.pow, "pa"),
    "Atan2": (tf.math.atan2, "au"), "FloorDiv": (tf.math.floordiv, "ap"), "FloorMod": (tf.math.floormod, "ap"),
    "Xdivy": (tf.math.xdivy, "ap"), "DivNoNan": (tf.math.divide_no_nan, "ap"),
    "Equal": (tf.math.equal, "ar"), "NotEqual": (tf.math.not_equal, "ar"), "Less": (tf.math.less, "au"),
    "LessEqual": (tf.math.less_equal, "ar"), "Greater": (tf.math.greater, "au"),
    "GreaterEqual": (tf.math.greater_equal, "ar"),
}
# Not SquaredDifference: TensorFlow rounds x - y to the half type before
# squaring, which one float32 computation does not reproduce (sm2c splits it:
# Half_<dtype> in ops_dtypes_half.py).
HALF_TOL = {"float16": {"rtol": 1e-3, "atol": 1e-3}, "bfloat16": {"rtol": 1e-2, "atol": 1e-2}}


def half_inputs(dt):
    """a, p, u and r (a with every other element rounded, so comparisons see ties)."""
    r = rng_for("Elementwise_" + dt)
    npdt = tf.bfloat16.as_numpy_dtype if dt == "bfloat16" else np.float16
    a = r.uniform(-4, 4, [4, 6]).astype(npdt)
    rr = a.copy()
    rr[:, ::2] = np.round(a[:, ::2].astype(np.float32)).astype(npdt)
    rr[:, 1::2] = a[:, 1::2]
    return {"a": a, "p": r.uniform(1, 8, [4, 6]).astype(npdt), "u": r.uniform(-0.9, 0.9, [4, 6]).astype(npdt),
            "r": rr}


def elementwise_cases():
    for dt in ("float16", "bfloat16"):
        feeds = half_inputs(dt)
        ops = {}
        for name, (fn, arg) in UNARY.items():
            if has_kernel(fn, feeds[arg]):
                ops[name] = (fn, arg)
        for name, (fn, args) in BINARY.items():
            f2 = (lambda fn: lambda x: fn(x, x))(fn)
            if has_kernel(f2, feeds[args[0]]):
                ops[name] = (fn, args)

        def body(a, p, r, u, ops=ops):
            env = {"a": a, "p": p, "r": r, "u": u}
            return {name: fn(*[env[k] for k in arg]) for name, (fn, arg) in ops.items()}
        yield ("Elementwise_" + dt, body, {"serving_default": feeds}, HALF_TOL[dt],
               "%s elementwise ops, computed by TensorFlow's CPU kernels: %s" % (dt, ", ".join(sorted(ops))))


# float64 unary kernels sm2c has (runtime/unary_f64.c).  TF's double functions
# (Eigen, std::) and libm agree to a few ulp: rtol 1e-13 is about 450 ulp.
F64_UNARY = ["Relu", "Relu6", "Tanh", "Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Floor",
             "Ceil", "Round", "Rint", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh",
             "Acosh", "Atanh", "Erf", "Erfc", "Expm1", "Log1p", "Sign", "Reciprocal", "Inv", "Softsign",
             "Elu", "Selu"]
F64_TOL = {"rtol": 1e-13, "atol": 1e-15}


def float64_case():
    r = rng_for("Elementwise_float64")
    feeds = {"a": r.uniform(-4, 4, [4, 6]), "p": r.uniform(1, 8, [4, 6]), "u": r.uniform(-0.9, 0.9, [4, 6])}
    ops = {k: UNARY[k] for k in F64_UNARY if has_kernel(UNARY[k][0], feeds[UNARY[k][1]])}

    def body(a, p, u, ops=ops):
        env = {"a": a, "p": p, "u": u}
        return {name: fn(env[arg]) for name, (fn, arg) in ops.items()}
    yield ("Elementwise_float64", body, {"serving_default": feeds}, F64_TOL,
           "float64 unary ops: %s" % ", ".join(sorted(ops)))


_movement_cases = cases


def cases():
    yield from _movement_cases()
    yield from elementwise_cases()
    yield from float64_case()
