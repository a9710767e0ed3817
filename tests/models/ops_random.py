"""Random op cases (issue 17): the stateless random ops on TensorFlow's Philox
stream, which sm2c computes bit for bit as TF's CPU kernels do.

tf.random.stateless_* in TF 2.21 emit StatelessRandomGetKeyCounter and the V2
fills (alg a constant); the V1 fills and StatelessRandomGetKeyCounterAlg /
StatelessRandomGetAlg come through tf.raw_ops.  Each case has several
signatures with different output shapes (odd sizes leave part of Philox's
4-wide block, or the truncated normal's group, unused) and seeds that are
signature inputs (int32 and int64, run time) or constants (folded by sm2c
through the same kernels).  Uniform and integer outputs are EXACT; the normals
are exact on glibc (TF calls glibc's logf/sincosf too), TRANS elsewhere.
"""
from opcase import EXACT, TRANS, np, tf

raw = tf.raw_ops
SHAPES = {"serving_default": [3, 5], "odd": [7], "one": [1], "cube": [2, 3, 3]}


def seed_feed(i, dtype):
    return np.array([17 + 5 * i, -3 * i - 1], dtype)


def feeds_for(shapes, dtype=np.int32):
    return {sig: {"seed": seed_feed(i, dtype)} for i, sig in enumerate(shapes)}


def per_sig(make, shapes):
    """One function per signature: make(shape) -> fn(seed)."""
    return {sig: make(shape) for sig, shape in shapes.items()}


FLOAT_FILLS = {
    "uniform": lambda s, seed, dt: tf.random.stateless_uniform(s, seed, dtype=dt),
    "normal": lambda s, seed, dt: tf.random.stateless_normal(s, seed, dtype=dt),
    "truncated_normal": lambda s, seed, dt: tf.random.stateless_truncated_normal(s, seed, dtype=dt),
}
V1 = {
    "uniform": raw.StatelessRandomUniform,
    "normal": raw.StatelessRandomNormal,
    "truncated_normal": raw.StatelessTruncatedNormal,
}
V2_OP = {"uniform": "StatelessRandomUniformV2", "normal": "StatelessRandomNormalV2",
         "truncated_normal": "StatelessTruncatedNormalV2"}
V1_OP = {"uniform": "StatelessRandomUniform", "normal": "StatelessRandomNormal",
         "truncated_normal": "StatelessTruncatedNormal"}


def tol_for(kind):
    return EXACT if kind == "uniform" else TRANS


def float_cases():
    for kind, fill in FLOAT_FILLS.items():
        for dt, dname in ((tf.float32, "float32"), (tf.float64, "float64")):
            # V2 (what tf.random.stateless_* emit), seed a run-time input.
            for sdt in (np.int32, np.int64):
                name = "%s_%s_seed_%s" % (V2_OP[kind], dname, np.dtype(sdt).name)
                fns = per_sig(lambda s, fill=fill, dt=dt: lambda seed: fill(s, seed, dt), SHAPES)
                yield (name, None, feeds_for(SHAPES, sdt), tol_for(kind),
                       "tf.random.stateless_%s (StatelessRandomGetKeyCounter + %s), %s, seed an %s "
                       "input, shapes %s" % (kind, V2_OP[kind], dname, np.dtype(sdt).name,
                                             list(SHAPES.values())), {"fns": fns})
            # V1 raw op, seed a run-time input.
            name = "%s_%s" % (V1_OP[kind], dname)
            op = V1[kind]
            fns = per_sig(lambda s, op=op, dt=dt: lambda seed: op(shape=s, seed=seed, dtype=dt), SHAPES)
            yield (name, None, feeds_for(SHAPES, np.int64), tol_for(kind),
                   "%s (V1: the seed straight in), %s, int64 seed input" % (V1_OP[kind], dname),
                   {"fns": fns})
    # Constant seeds: sm2c folds the op through its kernels.
    for kind, fill in FLOAT_FILLS.items():
        name = "%s_const_seed" % V2_OP[kind]
        yield (name, lambda x, fill=fill: {"y": fill([5, 3], tf.constant([7, 11]), tf.float32) * x},
               {"serving_default": {"x": np.ones([5, 3], np.float32)}}, tol_for(kind),
               "tf.random.stateless_%s with a constant seed (folded), float32 [5, 3], times an "
               "input of ones" % kind)


def int_cases():
    bounds = {"serving_default": (-3, 10), "odd": (0, 7), "one": (-2 ** 31 + 5, 2 ** 31 - 9),
              "cube": (100, 101)}
    for dt, dname in ((tf.int32, "int32"), (tf.int64, "int64")):
        name = "StatelessRandomUniformIntV2_" + dname
        fns = {sig: (lambda s, lo, hi: lambda seed: tf.random.stateless_uniform(
            s, seed, minval=lo, maxval=hi, dtype=dt))(SHAPES[sig], *bounds[sig]) for sig in SHAPES}
        yield (name, None, feeds_for(SHAPES), EXACT,
               "tf.random.stateless_uniform %s with minval/maxval (StatelessRandomUniformIntV2), "
               "ranges %s" % (dname, list(bounds.values())), {"fns": fns})
        name = "StatelessRandomUniformFullIntV2_" + dname
        fns = per_sig(lambda s, dt=dt: lambda seed: tf.random.stateless_uniform(
            s, seed, minval=None, maxval=None, dtype=dt), SHAPES)
        yield (name, None, feeds_for(SHAPES), EXACT,
               "tf.random.stateless_uniform %s over the full range (StatelessRandomUniformFullIntV2)"
               % dname, {"fns": fns})
        name = "StatelessRandomUniformInt_" + dname
        npdt = np.int32 if dt == tf.int32 else np.int64
        # The shape has the output's type: the V1 op's attr T is the shape's
        # type, which sm2c's report counts as the op's dtype.
        fns = per_sig(lambda s, dt=dt, npdt=npdt: lambda seed: raw.StatelessRandomUniformInt(
            shape=tf.constant(s, dt), seed=seed, minval=npdt(-50), maxval=npdt(1000)), SHAPES)
        yield (name, None, feeds_for(SHAPES), EXACT,
               "StatelessRandomUniformInt (V1) %s in [-50, 1000), shape given as %s" % (dname, dname),
               {"fns": fns})
    # Run-time bounds: minval and maxval are signature inputs too.
    name = "StatelessRandomUniformIntV2_bounds_input"
    yield (name, lambda seed, lo, hi: tf.random.stateless_uniform([9], seed, minval=lo, maxval=hi,
                                                                  dtype=tf.int32),
           {"serving_default": {"seed": seed_feed(3, np.int32), "lo": np.int32(-20),
                                "hi": np.int32(35)}}, EXACT,
           "StatelessRandomUniformIntV2 int32 [9], minval and maxval inputs")


def key_counter_alg(shape):
    def fn(seed):
        key, counter, alg = raw.StatelessRandomGetKeyCounterAlg(seed=seed)
        u = raw.StatelessRandomUniformV2(shape=shape, key=key, counter=counter, alg=alg)
        n = raw.StatelessRandomNormalV2(shape=shape, key=key, counter=counter,
                                        alg=raw.StatelessRandomGetAlg())
        return {"u": u, "n": n, "key": key, "counter": counter, "alg": alg}
    return fn


def alg_cases():
    feeds = feeds_for(SHAPES)
    feeds["odd"]["seed"] = feeds["odd"]["seed"].astype(np.int64)
    yield ("StatelessRandomGetAlg_and_GetKeyCounterAlg", None, feeds, TRANS,
           "StatelessRandomGetKeyCounterAlg and StatelessRandomGetAlg feeding the V2 uniform and "
           "normal; key, counter and alg outputs too; seeds int32, and int64 in odd", {"fns": per_sig(key_counter_alg, SHAPES)})
    auto = lambda seed: raw.StatelessRandomUniformV2(  # noqa: E731
        shape=[6], alg=3, **dict(zip(("key", "counter"), raw.StatelessRandomGetKeyCounter(seed=seed))))
    yield ("StatelessRandomUniformV2_auto_select", auto, {"serving_default": {"seed": seed_feed(2, np.int64)}},
           EXACT, "StatelessRandomUniformV2 with alg 3 (auto-select: Philox on CPU)")


def half_fills(seed):
    out = {}
    for kind, fill in FLOAT_FILLS.items():
        out[kind] = fill([7], seed, tf.float16)
        out[kind + "_v1"] = V1[kind](shape=[5], seed=seed, dtype=tf.float16)
    return out


def half_cases():
    yield ("StatelessRandomUniformV2_float16", half_fills, {"serving_default": {"seed": seed_feed(4, np.int32)}},
           EXACT, "float16 stateless fills, V2 [7] (tf.random.stateless_*) and V1 [5]: uniform, normal, "
           "truncated normal")


def cases():
    yield from float_cases()
    yield from int_cases()
    yield from alg_cases()
    yield from half_cases()
