"""Conformance cases for issue 33's dtype audit (tests/conformance/DTYPE_AUDIT.md):
the integer widths TensorFlow's CPU kernels register for elementwise and
comparison ops, and Select on every dtype.

- IntUnary_<dtype>: Neg, Abs, Sign and Square (signed widths), Square
  (unsigned), on every value's extremes (INT_MIN negates to itself, squares
  wrap) and random values of the whole range.
- IntBinary_<dtype> (int8, int16, uint8 ... uint64; int32 and int64 are in
  ops_arith.py and ops_logic.py): Add/AddV2, Sub, Mul, Maximum, Minimum,
  FloorDiv, FloorMod, TruncateDiv and the six comparisons, random over the
  whole range with ties, a broadcast operand, and the limits (MIN / -1).
- IntReduce_<dtype> (the same widths): Sum, Prod, Max, Min and Mean.
- IntMisc_<dtype>, IntBits_<dtype> (the same widths): ClipByValue, AddN,
  ArgMax, ArgMin; the bitwise ops, shifts and Invert.
- Dtypes_float64_int64: float64 ClipByValue, AddN, ArgMax/ArgMin, Cumsum,
  Cumprod; int64 ClipByValue and ReverseSequence.
- FillPadV2_dtypes: Fill and PadV2 on every dtype.
- Select_dtypes: Select (v1, a vector condition picking rows) on every dtype
  sm2c represents but float32 and int32 (ops_logic.py has those).

An op is in a case only where TensorFlow has a CPU kernel for the dtype (probed
eagerly), so every output is TensorFlow's.  Every output is bit-exact.
"""
from opcase import EXACT, np, rng_for, tf

R = tf.raw_ops
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]

UNARY = {"Neg": R.Neg, "Abs": R.Abs, "Sign": R.Sign, "Square": R.Square}
BINARY = {
    "Add": R.Add, "AddV2": R.AddV2, "Sub": R.Sub, "Mul": R.Mul, "Maximum": R.Maximum,
    "Minimum": R.Minimum, "FloorDiv": R.FloorDiv, "FloorMod": R.FloorMod,
    "TruncateDiv": R.TruncateDiv, "Equal": R.Equal, "NotEqual": R.NotEqual, "Less": R.Less,
    "LessEqual": R.LessEqual, "Greater": R.Greater, "GreaterEqual": R.GreaterEqual,
}


def has_kernel(fn, *args):
    try:
        fn(*[tf.constant(a) for a in args])
        return True
    except (tf.errors.OpError, TypeError, ValueError):
        return False


def full_range(rng, dt, shape):
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)


def unary_cases():
    for dt in SIGNED + UNSIGNED:
        info = np.iinfo(dt)
        name = "IntUnary_" + dt
        r = rng_for(name)
        edges = [info.min, info.min + 1, -1 if info.min else 1, 0, 1, info.max - 1, info.max, 2]
        x = np.concatenate([np.array(edges, dt), full_range(r, dt, [16])]).reshape(4, 6)
        ops = {k: fn for k, fn in UNARY.items() if has_kernel(lambda v, fn=fn: fn(x=v), x)}
        yield (name, lambda x, ops=ops: {k: fn(x=x) for k, fn in ops.items()},
               {"serving_default": {"x": x}}, EXACT,
               "%s %s at the extremes and over the whole range, wrapping as TensorFlow%s" %
               (dt, ", ".join(sorted(ops)), " (MIN negates to itself)" if info.min else ""))


def binary_feeds(name, dt):
    """x, y [4, 6] over the whole range (y nonzero, every other row equal to x's:
    ties), b [6] broadcast, and the limits in the last row (MIN / -1, MIN % -1)."""
    info = np.iinfo(dt)
    r = rng_for(name)
    x = full_range(r, dt, [4, 6])
    y = full_range(r, dt, [4, 6])
    x[1], y[3] = r.integers(-3 if info.min else 0, 4, 6).astype(dt), r.integers(1, 4, 6).astype(dt)
    y[::2] = x[::2]
    x[3, :3] = [info.min, info.max, 0]
    if info.min:
        y[3, :3] = [-1, -1, -1]
    y[y == 0] = 1
    b = np.where(full_range(r, dt, [6]) == 0, 1, full_range(r, dt, [6])).astype(dt)
    return {"x": x, "y": y, "b": b}


def binary_cases():
    for dt in ["int8", "int16"] + UNSIGNED:
        name = "IntBinary_" + dt
        f = binary_feeds(name, dt)
        ops = {k: fn for k, fn in BINARY.items() if has_kernel(lambda a, c, fn=fn: fn(x=a, y=c), f["x"], f["y"])}

        def body(x, y, b, ops=ops):
            out = {k: fn(x=x, y=y) for k, fn in ops.items()}
            out.update({k + "_bcast": fn(x=x, y=b) for k, fn in ops.items()})
            return out
        yield (name, body, {"serving_default": f}, EXACT,
               "%s %s over the whole range, ties, a broadcast operand and MIN / -1" % (dt, ", ".join(sorted(ops))))


REDUCE = {"Sum": tf.math.reduce_sum, "Prod": tf.math.reduce_prod, "Max": tf.math.reduce_max,
          "Min": tf.math.reduce_min, "Mean": tf.math.reduce_mean}


def reduce_cases():
    """Sum (wrapping), Prod (wrapping), Max, Min and Mean (TensorFlow sums in
    int64/uint64) over the middle axis, the first two kept, and everything, of
    [3, 4, 5] values over the whole range."""
    for dt in ["int8", "int16"] + UNSIGNED:
        name = "IntReduce_" + dt
        x = full_range(rng_for(name), dt, [3, 4, 5])
        ops = {k: fn for k, fn in REDUCE.items() if has_kernel(lambda v, fn=fn: fn(v, 1), x)}

        def body(x, ops=ops):
            out = {}
            for k, fn in ops.items():
                out[k + "_mid"] = fn(x, 1)
                out[k + "_keep"] = fn(x, [0, 1], keepdims=True)
                out[k + "_all"] = fn(x)
            return out
        yield (name, body, {"serving_default": {"x": x}}, EXACT,
               "%s %s over one axis, two kept and all" % (dt, ", ".join(sorted(ops))))


SELECT_DTYPES = ["float64", "float16", "bfloat16", "int8", "int16", "int64", "uint8", "uint16",
                 "uint32", "uint64", "bool"]


def select_sample(r, dt, shape):
    if dt == "bool":
        return r.integers(0, 2, shape).astype(bool)
    if dt.startswith("float") or dt == "bfloat16":
        npdt = tf.bfloat16.as_numpy_dtype if dt == "bfloat16" else dt
        return r.uniform(-100, 100, shape).astype(npdt)
    return full_range(r, dt, shape)


def select_case():
    r = rng_for("Select_dtypes")
    feeds = {"c": np.array([True, False, True]), "m": r.integers(0, 2, [3, 4]).astype(bool)}
    dts = []
    for dt in SELECT_DTYPES:
        x, y = select_sample(r, dt, [3, 4]), select_sample(r, dt, [3, 4])
        if has_kernel(lambda c, a, b: R.Select(condition=c, x=a, y=b), feeds["c"], x, y):
            feeds["x_" + dt], feeds["y_" + dt] = x, y
            dts.append(dt)

    def body(**kw):
        out = {}
        for dt in dts:
            x, y = kw["x_" + dt], kw["y_" + dt]
            out["rows_" + dt] = R.Select(condition=kw["c"], x=x, y=y)
            out["same_" + dt] = R.Select(condition=kw["m"], x=x, y=y)
        return out
    yield ("Select_dtypes", body, {"serving_default": feeds}, EXACT,
           "Select (rows by a vector condition, and elementwise) on %s" % ", ".join(dts))


MISC_WIDTHS = ["int8", "int16"] + UNSIGNED


def misc_int_cases():
    """ClipByValue (scalar and elementwise bounds), AddN, ArgMax and ArgMin
    (int32 and int64 indices, ties keep the first) on the narrow and unsigned
    widths, where TensorFlow registers them."""
    for dt in MISC_WIDTHS:
        name = "IntMisc_" + dt
        r = rng_for(name)
        info = np.iinfo(dt)
        x, y, z = (full_range(r, dt, [3, 4]) for _ in range(3))
        x[0, 1] = x[0, 3] = info.max
        x[2, :2] = info.min
        lo, hi = np.array(sorted(full_range(r, dt, [2])), dt)
        feeds = {"x": x, "y": y, "z": z, "lo": np.array(lo, dt), "hi": np.array(hi, dt)}
        ops = {
            "ClipByValue": lambda f: R.ClipByValue(t=f["x"], clip_value_min=f["lo"], clip_value_max=f["hi"]),
            "ClipByValue_elementwise": lambda f: R.ClipByValue(t=f["x"], clip_value_min=tf.minimum(f["y"], f["z"]),
                                                               clip_value_max=tf.maximum(f["y"], f["z"])),
            "AddN": lambda f: tf.math.add_n([f["x"], f["y"], f["z"]]),
            "ArgMax": lambda f: tf.math.argmax(f["x"], 1),
            "ArgMax_i32": lambda f: tf.math.argmax(f["x"], 0, output_type=tf.int32),
            "ArgMin": lambda f: tf.math.argmin(f["x"], 1),
            "ArgMin_i32": lambda f: tf.math.argmin(f["x"], 0, output_type=tf.int32),
        }
        ops = {k: fn for k, fn in ops.items()
               if has_kernel(lambda *a, fn=fn: fn(dict(zip(sorted(feeds), a))), *[feeds[k] for k in sorted(feeds)])}
        yield (name, lambda ops=ops, **f: {k: fn(f) for k, fn in ops.items()}, {"serving_default": feeds}, EXACT,
               "%s %s" % (dt, ", ".join(sorted(ops))))


def bits_cases():
    """BitwiseAnd/Or/Xor, LeftShift and RightShift (counts below 0 and past the
    width: TensorFlow clamps them), Invert, on the narrow and unsigned widths."""
    for dt in MISC_WIDTHS:
        name = "IntBits_" + dt
        r = rng_for(name)
        info = np.iinfo(dt)
        bits = info.bits
        x, y = full_range(r, dt, [4, 6]), full_range(r, dt, [4, 6])
        x[0, :3] = [info.min, info.max, 0]
        counts = [0, 1, 3, bits - 1, bits, bits + 5] + ([-1, -3] if info.min else [2, 7])
        n = np.array((counts * 3)[:24], dt).reshape(4, 6)
        feeds = {"x": x, "y": y, "n": n}
        ops = {"BitwiseAnd": lambda x, y, n: R.BitwiseAnd(x=x, y=y), "BitwiseOr": lambda x, y, n: R.BitwiseOr(x=x, y=y),
               "BitwiseXor": lambda x, y, n: R.BitwiseXor(x=x, y=y), "LeftShift": lambda x, y, n: R.LeftShift(x=x, y=n),
               "RightShift": lambda x, y, n: R.RightShift(x=x, y=n), "Invert": lambda x, y, n: R.Invert(x=x)}
        ops = {k: fn for k, fn in ops.items() if has_kernel(fn, x, y, n)}
        yield (name, lambda x, y, n, ops=ops: {k: fn(x, y, n) for k, fn in ops.items()},
               {"serving_default": feeds}, EXACT,
               "%s %s, shift counts %spast the width" % (dt, ", ".join(sorted(ops)), "below 0 and " if info.min else ""))


F64_TOL = {"rtol": 1e-13, "atol": 1e-15}


def float64_case():
    """float64 ClipByValue, AddN, ArgMax/ArgMin (ties), Cumsum and Cumprod
    (exclusive, reverse); int64 ClipByValue and ReverseSequence."""
    r = rng_for("Dtypes_float64_int64")
    x = np.round(r.uniform(-4, 4, [3, 5]) * 4) / 4
    x[1, 3] = x[1, 0]
    feeds = {"x": x, "y": r.uniform(-4, 4, [3, 5]), "z": r.uniform(-4, 4, [3, 5]),
             "i": r.integers(-2**62, 2**62, [3, 5]), "n": np.array([1, 5, 3], np.int64)}

    def body(x, y, z, i, n):
        return {
            "ClipByValue": R.ClipByValue(t=x, clip_value_min=np.float64(-1.5), clip_value_max=np.float64(2.25)),
            "AddN": tf.math.add_n([x, y, z]),
            "ArgMax": tf.math.argmax(x, 1), "ArgMin": tf.math.argmin(x, 0, output_type=tf.int32),
            "Cumsum": tf.math.cumsum(x, 1), "Cumsum_exclusive_reverse": tf.math.cumsum(y, 1, exclusive=True, reverse=True),
            "Cumprod": tf.math.cumprod(x, 0), "Cumprod_reverse": tf.math.cumprod(z, 1, reverse=True),
            "ClipByValue_int64": R.ClipByValue(t=i, clip_value_min=np.int64(-2**61), clip_value_max=np.int64(2**60)),
            "ReverseSequence_int64": tf.reverse_sequence(i, n, seq_axis=1, batch_axis=0),
        }
    yield ("Dtypes_float64_int64", body, {"serving_default": feeds}, F64_TOL,
           "float64 ClipByValue, AddN, ArgMax, ArgMin, Cumsum, Cumprod; int64 ClipByValue and ReverseSequence")


FILL_DTYPES = ["float64", "float16", "bfloat16", "int8", "int16", "uint8", "uint16", "uint32", "uint64", "bool"]


def fill_pad_case():
    """Fill and PadV2 (a run-time pad value) on every dtype.  (Not Tile on
    uint16: TensorFlow registers it, but its kernel refuses uint16 at run time.)"""
    r = rng_for("FillPadV2_dtypes")
    feeds, dts = {}, []
    for dt in FILL_DTYPES:
        x = select_sample(r, dt, [2, 3])
        v = select_sample(r, dt, [])
        ok = has_kernel(lambda a, b: tf.pad(a, [[1, 0], [0, 2]], constant_values=b), x, v) and \
            has_kernel(lambda b: tf.fill([2, 2], b), v)
        if ok:
            feeds["x_" + dt], feeds["v_" + dt] = x, np.asarray(v)
            dts.append(dt)

    def body(**f):
        out = {}
        for dt in dts:
            out["Fill_" + dt] = tf.fill([2, 2], f["v_" + dt])
            out["PadV2_" + dt] = tf.pad(f["x_" + dt], [[1, 0], [0, 2]], constant_values=f["v_" + dt])
        return out
    yield ("FillPadV2_dtypes", body, {"serving_default": feeds}, EXACT,
           "Fill and PadV2 with a run-time value on %s" % ", ".join(dts))


def cases():
    yield from unary_cases()
    yield from binary_cases()
    yield from reduce_cases()
    yield from misc_int_cases()
    yield from bits_cases()
    yield from float64_case()
    yield from fill_pad_case()
    yield from select_case()
