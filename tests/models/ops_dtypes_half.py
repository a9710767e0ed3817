"""Conformance cases for issue 33's dtype audit (tests/conformance/DTYPE_AUDIT.md):
the float16 and bfloat16 forms of the reductions, scans, segment, arg, top-k,
one-hot, scatter, range and the other non-unary elementwise ops.

- Half_<dtype> (float16, bfloat16): every op below that TensorFlow has a CPU
  kernel for with that dtype (probed eagerly), in one SavedModel.  sm2c runs
  them in float32 between Casts (compiler/import/import_widen.c), splits the
  ops TensorFlow rounds inside (AddN, SquaredDifference, TruncateDiv:
  import_widen_split.c), and runs Cumsum/Cumprod in the half type, rounding
  each partial result as TensorFlow does (runtime/scan.c).

Tolerance: reliability.md's for half types (float16 1e-3, bfloat16 1e-2).
TensorFlow rounds Prod's partial products, ScatterNd's duplicate sums, Range's
start + i * delta and Xlogy's log to the half type where sm2c rounds once:
the axes here are short, so the difference stays within that tolerance
(a long Prod can exceed it); Sum, Mean and L2Loss sum in float32 as
TensorFlow does but in another order, so the half result can differ in its
last bit.  Sums and means small enough not to overflow float16 (TensorFlow's float16 Mean and
EuclideanNorm give inf where the float32 sum passes 65504; sm2c's do not).
"""
from opcase import np, rng_for, tf

R = tf.raw_ops
HALF_TOL = {"float16": {"rtol": 1e-3, "atol": 1e-3}, "bfloat16": {"rtol": 1e-2, "atol": 1e-2}}
SEG = np.array([0, 0, 1, 3], np.int32)          # sorted, segment 2 empty
USEG = np.array([1, 0, 1, 3], np.int32)         # unsorted, segments 2 and 4 empty


def ops_for(dt):
    """Output name -> fn(f) of the feeds dict; c casts a Python constant to dt."""
    def c(x):
        return tf.constant(x, dt)
    return {
        "AddN": lambda f: tf.math.add_n([f["a"], f["p"], f["w"]]),
        "ArgMax": lambda f: tf.math.argmax(f["a"], 1),
        "ArgMin_i32": lambda f: tf.math.argmin(f["a"], 0, output_type=tf.int32),
        "ClipByValue": lambda f: R.ClipByValue(t=f["a"], clip_value_min=c(-1.5), clip_value_max=c(2.25)),
        "ClipByValue_elementwise": lambda f: R.ClipByValue(t=f["a"], clip_value_min=-f["p"], clip_value_max=f["p"]),
        "Cumsum": lambda f: tf.math.cumsum(f["w"], 1),
        "Cumsum_exclusive_reverse": lambda f: tf.math.cumsum(f["a"], 0, exclusive=True, reverse=True),
        "Cumprod": lambda f: tf.math.cumprod(f["p"], 1),
        "Cumprod_exclusive": lambda f: tf.math.cumprod(f["a"], 1, exclusive=True),
        "Digamma": lambda f: R.Digamma(x=f["w"]),
        "Lgamma": lambda f: R.Lgamma(x=f["a"]),
        "EuclideanNorm": lambda f: R.EuclideanNorm(input=f["a"], axis=[1]),
        "IsNan": lambda f: tf.math.is_nan(f["s"]),
        "IsInf": lambda f: tf.math.is_inf(f["s"]),
        "IsFinite": lambda f: tf.math.is_finite(f["s"]),
        "L2Loss": lambda f: R.L2Loss(t=f["a"]),
        "Prod": lambda f: tf.math.reduce_prod(f["p"], 1),
        "TruncateDiv": lambda f: R.TruncateDiv(x=f["a"] * c(8), y=f["w"]),
        "Xlogy": lambda f: R.Xlogy(x=f["a"], y=f["w"]),
        "Xlog1py": lambda f: R.Xlog1py(x=f["a"], y=f["w"]),
        "BiasAdd": lambda f: tf.nn.bias_add(f["a"], f["b"]),
        "SquaredDifference": lambda f: R.SquaredDifference(x=f["a"], y=f["w"]),
        "Sum": lambda f: tf.math.reduce_sum(f["w"], 1),
        "Sum_all": lambda f: tf.math.reduce_sum(f["a"]),
        "Mean": lambda f: tf.math.reduce_mean(f["w"], 0, keepdims=True),
        "Max": lambda f: tf.math.reduce_max(f["a"], 1),
        "Min": lambda f: tf.math.reduce_min(f["a"], [0, 1]),
        "SegmentSum": lambda f: tf.math.segment_sum(f["a"], SEG),
        "SegmentMean": lambda f: tf.math.segment_mean(f["w"], SEG),
        "SegmentMax": lambda f: tf.math.segment_max(f["a"], SEG),
        "SegmentMin": lambda f: tf.math.segment_min(f["a"], SEG),
        "UnsortedSegmentSum": lambda f: tf.math.unsorted_segment_sum(f["a"], USEG, 5),
        "UnsortedSegmentProd": lambda f: tf.math.unsorted_segment_prod(f["p"], USEG, 5),
        "UnsortedSegmentMax": lambda f: tf.math.unsorted_segment_max(f["a"], USEG, 5),
        "UnsortedSegmentMin": lambda f: tf.math.unsorted_segment_min(f["a"], USEG, 5),
        "OneHot": lambda f: tf.one_hot(f["i"], 3, on_value=f["b"][0], off_value=f["b"][1]),
        "Range": lambda f: R.Range(start=f["v"][0], limit=f["v"][1], delta=f["v"][2]),
        "Range_negative": lambda f: R.Range(start=f["v"][3], limit=f["v"][4], delta=f["v"][5]),
        "ScatterNd": lambda f: tf.scatter_nd([[1], [3], [1]], f["a"][:3], [5, 6]),
        "TopKV2": lambda f: tf.math.top_k(f["a"], 3)[0],
        "TopKV2_indices": lambda f: tf.math.top_k(f["r"], 3)[1],
    }


def feeds_for(dt):
    """a in [-4, 4] (zeros in its first column, for Xlogy), p in [0.5, 1.5],
    w in [0.5, 8], r with ties (TopKV2 keeps the lower index first), b [6],
    s the special values, i one-hot indices (-1 and 3: all off)."""
    npdt = tf.bfloat16.as_numpy_dtype if dt == "bfloat16" else np.float16
    g = rng_for("Half_" + dt)
    a = g.uniform(-4, 4, [4, 6])
    a[:, 0] = 0
    r = np.round(g.uniform(-3, 3, [4, 6]))
    s = np.array([0, -1.5, np.inf, -np.inf, np.nan, 65504 if dt == "float16" else 3e38])
    return {"a": a.astype(npdt), "p": g.uniform(0.5, 1.5, [4, 6]).astype(npdt),
            "w": g.uniform(0.5, 8, [4, 6]).astype(npdt), "r": r.astype(npdt),
            "b": g.uniform(-2, 2, [6]).astype(npdt), "s": s.astype(npdt),
            "i": np.array([0, 2, -1, 1, 3], np.int32)}


def range_bounds(dt):
    """Range's start, limit and delta as a variable (sm2c reads it as a constant):
    TensorFlow's shape function refuses a half-type Range of constant inputs."""
    return tf.Variable(np.array([0.3, 7.1, 0.7, 2.5, -1.0, -0.75], np.float32).astype(
        tf.as_dtype(dt).as_numpy_dtype), name="range_" + dt)


def has_kernel(fn, feeds, v):
    try:
        fn(dict({k: tf.constant(x) for k, x in feeds.items()}, v=v))
        return True
    except (tf.errors.OpError, TypeError, ValueError):
        return False


def cases():
    for dt in ("float16", "bfloat16"):
        feeds = feeds_for(dt)
        v = range_bounds(dt)
        ops = {k: fn for k, fn in ops_for(tf.as_dtype(dt)).items() if has_kernel(fn, feeds, v)}

        def body(ops=ops, v=v, **f):
            return {k: fn(dict(f, v=v)) for k, fn in ops.items()}
        yield ("Half_" + dt, body, {"serving_default": feeds}, HALF_TOL[dt],
               "%s %s against TensorFlow's CPU kernels" % (dt, ", ".join(sorted(ops))), {"track": v})
