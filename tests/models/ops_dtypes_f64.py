"""Conformance cases for issue 33's dtype audit: the float64 pairs it left
"not yet: no float64 kernel", and ArgMax/ArgMin on bool.

- Dtypes_float64_math: Sigmoid, Softplus (both thresholds), LeakyRelu (the
  default and another alpha), Erfinv, Lgamma and Digamma (poles, +-1, Inf,
  NaN), Pow, FloorDiv, FloorMod, Atan2, Xdivy, DivNoNan, TruncateDiv,
  TruncateMod, Mod, Xlogy and Xlog1py (signs, zeros, a broadcast operand),
  and BiasAdd (NHWC and NCHW).
- Dtypes_float64_reduce: Sum, Mean, Max, Min, Prod and EuclideanNorm (one
  axis, two apart kept, all; a NaN row), L2Loss, the four UnsortedSegment ops
  (a negative id, an empty segment, int64 ids) and the four Segment ops
  (constant sorted ids, an empty segment).
- Dtypes_float64_move_bool: OneHot with float64 on/off values, Range,
  ScatterNd (duplicate indices sum), TopKV2 (ties), and ArgMax/ArgMin on bool
  with int32 and int64 indices (ties keep the first; all false gives 0).

float64 results are computed in double: within rtol 1e-13 of TensorFlow's
(the float64 tolerance ops_int_dtypes.py uses), NaN and Inf exactly.
"""
from opcase import np, rng_for, tf

R = tf.raw_ops
F64_TOL = {"rtol": 1e-13, "atol": 1e-15}
SPECIAL = [0.0, -0.0, 1.0, -1.0, -2.0, 0.5, -0.5, 1e-300, 40.0, -40.0, np.inf, -np.inf, np.nan,
           34.5, -34.5, 33.0, -33.0, 2.5, 1e-8, -1e-8, 1e8, 3.0, -3.5, 7.25]


def math_feeds(r):
    x = r.uniform(-6, 6, [4, 6])
    x[0] = np.array(SPECIAL[:6])
    y = r.uniform(-4, 4, [4, 6])
    y[0] = [2.0, -2.0, 0.0, -0.0, 3.0, -0.5]
    x[1, :3] = [7.5, -7.5, 0.0]
    y[1, :3] = [2.0, 2.0, 0.0]
    return {
        "x": x, "y": y, "b": r.uniform(-3, 3, [6]),
        "s": np.array(SPECIAL).reshape(4, 6),
        "u": np.concatenate([[0.0, -0.0, 1.0, -1.0, 0.999999, -0.999999, 1 - 1e-15, 1.5, np.nan],
                             r.uniform(-1, 1, 15)]).reshape(4, 6),
        "p": np.abs(r.uniform(0.1, 3, [4, 6])),
        "g": r.uniform(-3, 3, [2, 3, 2, 2]), "gb": r.uniform(-3, 3, [3]),
    }


BINARY = {"Pow": R.Pow, "FloorDiv": R.FloorDiv, "FloorMod": R.FloorMod, "Atan2": R.Atan2,
          "Xdivy": R.Xdivy, "DivNoNan": R.DivNoNan, "TruncateDiv": R.TruncateDiv,
          "TruncateMod": R.TruncateMod, "Mod": R.Mod, "Xlogy": R.Xlogy, "Xlog1py": R.Xlog1py}


def math_case():
    r = rng_for("Dtypes_float64_math")

    def body(x, y, b, s, u, p, g, gb):
        out = {
            "Sigmoid": R.Sigmoid(x=x), "Sigmoid_special": R.Sigmoid(x=s),
            "Softplus": R.Softplus(features=x), "Softplus_special": R.Softplus(features=s),
            "LeakyRelu": R.LeakyRelu(features=s), "LeakyRelu_alpha": R.LeakyRelu(features=x, alpha=0.1),
            "Erfinv": R.Erfinv(x=u), "Lgamma": R.Lgamma(x=x), "Lgamma_special": R.Lgamma(x=s),
            "Digamma": R.Digamma(x=x), "Digamma_special": R.Digamma(x=s),
            "Pow_positive": R.Pow(x=p, y=y),
            "BiasAdd": R.BiasAdd(value=x, bias=b),
            "BiasAdd_nchw": R.BiasAdd(value=g, bias=gb, data_format="NCHW"),
        }
        for k, fn in BINARY.items():
            out[k] = fn(x=x, y=y)
            out[k + "_bcast"] = fn(x=x, y=b)
        return out
    yield ("Dtypes_float64_math", body, {"serving_default": math_feeds(r)}, F64_TOL,
           "float64 Sigmoid, Softplus, LeakyRelu, Erfinv, Lgamma, Digamma (special values), %s "
           "(zeros, signs, a broadcast operand), BiasAdd NHWC and NCHW" % ", ".join(BINARY))


SORTED_IDS = [0, 0, 1, 3, 3, 3]   # segment 2 is empty


def reduce_case():
    r = rng_for("Dtypes_float64_reduce")
    x = r.uniform(-3, 3, [3, 4, 5])
    xn = r.uniform(-3, 3, [3, 4])
    xn[1, 2] = np.nan
    feeds = {"x": x, "xn": xn, "sx": r.uniform(-5, 5, [6, 3]),
             "ux": (r.uniform(0.5, 1.5, [7, 3]) * r.choice([-1, 1], [7, 3])),
             "ids": np.array([0, 2, 1, 2, -1, 0, 4], np.int32),
             "ids64": np.array([1, 0, 1, 3, 3, 0, 1], np.int64)}
    red = {"Sum": tf.math.reduce_sum, "Mean": tf.math.reduce_mean, "Max": tf.math.reduce_max,
           "Min": tf.math.reduce_min, "Prod": tf.math.reduce_prod, "EuclideanNorm": tf.math.reduce_euclidean_norm}
    uns = {"Sum": tf.math.unsorted_segment_sum, "Prod": tf.math.unsorted_segment_prod,
           "Max": tf.math.unsorted_segment_max, "Min": tf.math.unsorted_segment_min}
    srt = {"Sum": tf.math.segment_sum, "Max": tf.math.segment_max, "Min": tf.math.segment_min,
           "Mean": tf.math.segment_mean}

    def body(x, xn, sx, ux, ids, ids64):
        out = {"L2Loss": R.L2Loss(t=x)}
        for k, fn in red.items():
            out[k + "_mid"] = fn(x, 1)
            out[k + "_keep"] = fn(x, [0, 2], keepdims=True)
            out[k + "_all"] = fn(x)
            out[k + "_nan"] = fn(xn, 1)
        for k, fn in uns.items():
            out["UnsortedSegment" + k] = fn(ux, ids, num_segments=5)
            out["UnsortedSegment" + k + "_i64"] = fn(ux, ids64, num_segments=5)
        for k, fn in srt.items():
            out["Segment" + k] = fn(sx, tf.constant(SORTED_IDS, tf.int32))
        return out
    yield ("Dtypes_float64_reduce", body, {"serving_default": feeds}, F64_TOL,
           "float64 %s (one axis, two kept, all, a NaN), L2Loss, UnsortedSegment%s (a negative id, an "
           "empty segment, int64 ids), Segment%s (sorted ids %s)"
           % (", ".join(red), "/".join(uns), "/".join(srt), SORTED_IDS))


def move_bool_case():
    r = rng_for("Dtypes_float64_move_bool")
    v = np.round(r.uniform(-4, 4, [3, 6]) * 2) / 2
    v[0, 4] = v[0, 1]
    feeds = {"v": v, "idx": np.array([[0, 3, -1], [2, 5, 1]], np.int32),
             "on": np.array(2.5), "off": np.array(-0.25),
             "si": np.array([[1, 0], [0, 2], [1, 0]], np.int64), "su": r.uniform(-2, 2, [3, 2]),
             "m": np.array([[False, True, True, False], [False, False, False, False],
                            [True, False, True, True]])}

    def body(v, idx, on, off, si, su, m):
        return {
            "OneHot": tf.one_hot(idx, 4, on_value=on, off_value=off),
            "OneHot_axis0": tf.one_hot(idx, 3, on_value=on, off_value=off, axis=0),
            "Range": tf.range(np.float64(-1.5), np.float64(2.0), np.float64(0.375)),
            "ScatterNd": tf.scatter_nd(si, su, [2, 3, 2]),
            "TopKV2_values": tf.math.top_k(v, 3).values, "TopKV2_indices": tf.math.top_k(v, 3).indices,
            "ArgMax_bool": tf.math.argmax(m, 1), "ArgMax_bool_i32": tf.math.argmax(m, 0, output_type=tf.int32),
            "ArgMin_bool": tf.math.argmin(m, 1), "ArgMin_bool_i32": tf.math.argmin(m, 0, output_type=tf.int32),
        }
    yield ("Dtypes_float64_move_bool", body, {"serving_default": feeds}, F64_TOL,
           "float64 OneHot, Range, ScatterNd (duplicate indices), TopKV2 (ties); ArgMax and ArgMin on bool "
           "with int64 and int32 indices")


def cases():
    yield from math_case()
    yield from reduce_case()
    yield from move_bool_case()
