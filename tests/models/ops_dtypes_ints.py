"""Conformance cases for issue 33's dtype audit (tests/conformance/DTYPE_AUDIT.md),
second round: the integer widths of the activation, scan, segment and indexing
ops that were refused with "no kernel for these integer widths".

Each case is one SavedModel over every width TensorFlow's CPU kernel serves
(probed eagerly, as ops_int_dtypes.py does), named after its first op so that
check_e2e.py puts it in that op's family:

- Relu_int_dtypes: Relu, Relu6, BiasAdd (channels last and first) on every
  width, Pow on the signed ones (exponents >= 0: TensorFlow refuses negative
  ones at run time), and TruncateDiv on float32 (trunc(x / y), a zero divisor
  giving inf and NaN).  (Not Round on int32/int64: TensorFlow 2.21's kernel
  returns zeros.)
- Cumsum_int_dtypes: Cumsum and Cumprod (exclusive, reverse) and EuclideanNorm
  (sums of squares that wrap, negative ones included: TensorFlow's root of a
  negative sum is what x86-64 converts NaN to).
- UnsortedSegmentSum_int_dtypes: the four unsorted and four sorted segment ops,
  with empty segments (the type's lowest and highest values for Max/Min),
  dropped negative ids, wrapping sums and products, int32 and int64 ids.
- ScatterNd_int_dtypes: ScatterNd (duplicate indices sum, wrapping), TopKV2
  (ties keep the lower index) and OneHot (an index out of range is all off).

Every output is bit-exact.
"""
from opcase import EXACT, np, rng_for, tf
from ops_int_dtypes import full_range, has_kernel

R = tf.raw_ops
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
WIDTHS = SIGNED + UNSIGNED


def edges(dt, n, rng):
    """n values: the type's extremes and small values around 0 and 6, then
    random ones over the whole range."""
    info = np.iinfo(dt)
    e = [info.min, info.max, 0, 1, 5, 6, 7, info.max - 1] + ([-1, -6, -7] if info.min else [2, 3, 4])
    return np.concatenate([np.array(e, dt), full_range(rng, dt, [n - len(e)])])


def act_case():
    name = "Relu_int_dtypes"
    r = rng_for(name)
    feeds, ops = {}, {}
    for dt in WIDTHS:
        x = edges(dt, 24, r).reshape(2, 3, 4)
        b = full_range(r, dt, [4])
        c = full_range(r, dt, [3])
        base = r.integers(-3 if dt in SIGNED else 0, 4, [2, 6]).astype(dt)
        base[0, :3] = [np.iinfo(dt).max, np.iinfo(dt).min, 2]
        expo = r.integers(0, 9, [2, 6]).astype(dt)
        expo[0, :3] = [3, 2, 2 * np.iinfo(dt).bits + 1]  # wrapping powers; 2^(2*bits+1) wraps to 0
        expo[1, 0] = 0
        feeds.update({"x_" + dt: x, "b_" + dt: b, "c_" + dt: c, "p_" + dt: base, "e_" + dt: expo})
        cand = {
            "Relu": lambda f: R.Relu(features=f[0]), "Relu6": lambda f: R.Relu6(features=f[0]),
            "BiasAdd": lambda f: R.BiasAdd(value=f[0], bias=f[1]),
            "BiasAdd_NCHW": lambda f: R.BiasAdd(value=f[0], bias=f[2], data_format="NCHW"),
            "Pow": lambda f: R.Pow(x=f[3], y=f[4]), "Pow_bcast": lambda f: R.Pow(x=f[3], y=f[4][0, :]),
        }
        args = (x, b, c, base, expo)
        for k, fn in cand.items():
            if has_kernel(lambda *a, fn=fn: fn(a), *args):
                ops[k + "_" + dt] = (dt, fn)
    feeds["tx"] = np.array([7.5, -7.5, 7.0, -0.5, 1e30, 3.0, -3.0, 0.0, 5.0, -2.25], np.float32)
    feeds["ty"] = np.array([2.0, 2.0, -2.0, 3.0, 7.0, 0.0, 0.0, 0.0, -0.0, 0.75], np.float32)

    def body(**f):
        out = {k: fn(tuple(f[p + "_" + dt] for p in "xbcpe")) for k, (dt, fn) in ops.items()}
        out["TruncateDiv_float32"] = R.TruncateDiv(x=f["tx"], y=f["ty"])
        return out
    by_op = {}
    for k, (dt, _) in ops.items():
        by_op.setdefault(k[:-len(dt) - 1], []).append(dt)
    yield (name, body, {"serving_default": feeds}, EXACT,
           "%s; TruncateDiv on float32 (a zero divisor: inf, NaN)" %
           "; ".join("%s on %s" % (k, " ".join(v)) for k, v in by_op.items()))


def scan_case():
    name = "Cumsum_int_dtypes"
    r = rng_for(name)
    feeds, dts = {}, []
    for dt in WIDTHS:
        info = np.iinfo(dt)
        x = full_range(r, dt, [3, 5])
        x[0] = r.integers(-3 if info.min else 0, 4, 5).astype(dt)   # small products
        n = full_range(r, dt, [4, 3])
        n[0] = [12, 0, 0]                 # 144: wraps negative in int8
        n[1] = [info.max, info.max, 1]    # wraps in every width
        n[2] = [3, 4, 0]
        if info.bits >= 32:
            n[3] = [2 ** (info.bits // 2 - 1), 2 ** (info.bits // 2 - 1), 3]   # sum 2^(bits-1): negative if signed
        ok = has_kernel(lambda a: R.Cumsum(x=a, axis=1), x) and has_kernel(lambda a: R.Cumprod(x=a, axis=1), x)
        ok = ok and has_kernel(lambda a: R.EuclideanNorm(input=a, axis=1), n)
        if ok:
            feeds["x_" + dt], feeds["n_" + dt] = x, n
            dts.append(dt)

    def body(**f):
        out = {}
        for dt in dts:
            x, n = f["x_" + dt], f["n_" + dt]
            out["Cumsum_" + dt] = tf.math.cumsum(x, 1)
            out["Cumsum_exclusive_reverse_" + dt] = tf.math.cumsum(x, 0, exclusive=True, reverse=True)
            out["Cumprod_" + dt] = tf.math.cumprod(x, 1)
            out["Cumprod_exclusive_" + dt] = tf.math.cumprod(x, 0, exclusive=True)
            out["EuclideanNorm_" + dt] = R.EuclideanNorm(input=n, axis=1)
            out["EuclideanNorm_all_" + dt] = R.EuclideanNorm(input=n[2:3], axis=[0, 1], keep_dims=True)
        return out
    yield (name, body, {"serving_default": feeds}, EXACT,
           "Cumsum, Cumprod (exclusive, reverse) and EuclideanNorm (wrapping sums of squares) on %s" %
           ", ".join(dts))


UNSORTED = {"UnsortedSegmentSum": R.UnsortedSegmentSum, "UnsortedSegmentProd": R.UnsortedSegmentProd,
            "UnsortedSegmentMax": R.UnsortedSegmentMax, "UnsortedSegmentMin": R.UnsortedSegmentMin}
SORTED = {"SegmentSum": R.SegmentSum, "SegmentMax": R.SegmentMax, "SegmentMin": R.SegmentMin,
          "SegmentMean": R.SegmentMean}


def segment_case():
    name = "UnsortedSegmentSum_int_dtypes"
    r = rng_for(name)
    feeds = {"ids": np.array([2, 0, -1, 2, 0, 2], np.int32), "ids64": np.array([3, 0, 3, 1, -1, 0], np.int64)}
    sids, sids64 = np.array([0, 0, 0, 2, 2, 3], np.int32), np.array([1, 1, 1, 1, 3, 3], np.int64)  # constants (sm2c)
    ops = []
    for dt in WIDTHS:
        x = full_range(r, dt, [6, 2])
        x[:, 1] = r.integers(-4 if dt in SIGNED else 0, 5, 6).astype(dt)   # small: means without wrapping
        feeds["x_" + dt] = x
        for k, fn in UNSORTED.items():
            if has_kernel(lambda a, i, fn=fn: fn(data=a, segment_ids=i, num_segments=4), x, feeds["ids"]):
                ops.append((k, dt))
        for k, fn in SORTED.items():
            if has_kernel(lambda a, i, fn=fn: fn(data=a, segment_ids=i), x, sids):
                ops.append((k, dt))

    def body(**f):
        out = {}
        for k, dt in ops:
            x = f["x_" + dt]
            if k in UNSORTED:
                out[k + "_" + dt] = UNSORTED[k](data=x, segment_ids=f["ids"], num_segments=4)
                out[k + "_i64_" + dt] = UNSORTED[k](data=x, segment_ids=f["ids64"], num_segments=np.int64(5))
            else:
                out[k + "_" + dt] = SORTED[k](data=x, segment_ids=tf.constant(sids))
                out[k + "_i64_" + dt] = SORTED[k](data=x, segment_ids=tf.constant(sids64))
        return out
    yield (name, body, {"serving_default": feeds}, EXACT,
           "UnsortedSegmentSum/Prod/Max/Min and SegmentSum/Max/Min/Mean with int32 and int64 ids on %s: "
           "empty segments, dropped negative ids, wrapping sums and products" %
           ", ".join(sorted({dt for _, dt in ops})))


def indexing_case():
    name = "ScatterNd_int_dtypes"
    r = rng_for(name)
    feeds = {"idx": np.array([[1], [3], [1], [0]], np.int32), "idx64": np.array([[0, 1], [2, 0], [0, 1]], np.int64),
             "hot": np.array([[0, 2, -1], [3, 1, 5]], np.int32)}
    ops = []
    for dt in WIDTHS:
        info = np.iinfo(dt)
        u = full_range(r, dt, [4, 3])
        u[0, 0] = u[2, 0] = info.max      # duplicates sum, wrapping
        t = full_range(r, dt, [3, 6])
        t[0, 1] = t[0, 4] = info.max      # ties
        t[1, :] = info.min
        onoff = np.array([info.max, info.min], dt)
        feeds.update({"u_" + dt: u, "t_" + dt: t, "o_" + dt: onoff})
        cand = {
            "ScatterNd": lambda f: R.ScatterNd(indices=f["idx"], updates=f["u"], shape=[5, 3]),
            "ScatterNd_i64": lambda f: R.ScatterNd(indices=f["idx64"], updates=f["u"][:3, 0], shape=np.array([3, 2], np.int64)),
            "TopKV2": lambda f: R.TopKV2(input=f["t"], k=3),
            "OneHot": lambda f: R.OneHot(indices=f["hot"], depth=4, on_value=f["o"][0], off_value=f["o"][1]),
            "OneHot_axis0": lambda f: R.OneHot(indices=f["hot"], depth=3, on_value=f["o"][1], off_value=f["o"][0],
                                               axis=0),
        }
        for k, fn in cand.items():
            ff = {"idx": feeds["idx"], "idx64": feeds["idx64"], "hot": feeds["hot"], "u": u, "t": t, "o": onoff}
            try:
                fn({a: tf.constant(v) for a, v in ff.items()})
                ops.append((k, dt, fn))
            except (tf.errors.OpError, TypeError, ValueError):
                pass

    def body(**f):
        out = {}
        for k, dt, fn in ops:
            ff = {"idx": f["idx"], "idx64": f["idx64"], "hot": f["hot"], "u": f["u_" + dt], "t": f["t_" + dt],
                  "o": f["o_" + dt]}
            res = fn(ff)
            if k == "TopKV2":
                out[k + "_values_" + dt], out[k + "_indices_" + dt] = res.values, res.indices
            else:
                out[k + "_" + dt] = res
        return out
    yield (name, body, {"serving_default": feeds}, EXACT,
           "ScatterNd (duplicates sum, wrapping; int32 and int64 indices), TopKV2 (ties) and OneHot (an index "
           "out of range, axis 0) on %s" % ", ".join(sorted({dt for _, dt, _ in ops})))


def cases():
    yield from act_case()
    yield from scan_case()
    yield from segment_case()
    yield from indexing_case()
