"""Conformance cases for UpperBound and LowerBound (tf.searchsorted, the
bucketize of tf.Transform's apply_buckets): rows of sorted boundaries with
repeats, values on, between and outside them, int32 and int64 out_type;
float32, int32 and int64 inputs; NaN and infinities among the values.
"""
from opcase import EXACT, np, rng_for, tf


def _fn(op, out_type):
    return lambda s, v: op(sorted_inputs=s, values=v, out_type=out_type)


def cases():
    for name, op in (("UpperBound", tf.raw_ops.UpperBound), ("LowerBound", tf.raw_ops.LowerBound)):
        rng = rng_for(name)
        s = np.sort(np.round(rng.uniform(-4, 4, (3, 9)) * 2) / 2, axis=1).astype(np.float32)
        v = (np.round(rng.uniform(-5, 5, (3, 7)) * 4) / 4).astype(np.float32)
        v[0, :3] = s[0, [0, 4, 8]]                      # exactly on boundaries
        sp = v.copy()
        sp[1, :4] = [np.nan, np.inf, -np.inf, -0.0]
        si = np.sort(rng.integers(-20, 20, (2, 6)), axis=1)
        vi = rng.integers(-25, 25, (2, 5))
        vi[0, :2] = si[0, [1, 3]]
        feeds = {"serving_default": {"s": s, "v": v}, "i64_out": {"s": s, "v": v},
                 "special": {"s": s, "v": sp},
                 "int32": {"s": si.astype(np.int32), "v": vi.astype(np.int32)},
                 "int64": {"s": si.astype(np.int64), "v": vi.astype(np.int64)}}
        fns = {"serving_default": _fn(op, tf.int32), "i64_out": _fn(op, tf.int64),
               "special": _fn(op, tf.int32), "int32": _fn(op, tf.int64), "int64": _fn(op, tf.int32)}
        yield (name, None, feeds, EXACT,
               "%s of float32, int32 and int64 values in rows of sorted boundaries with repeats "
               "(on, between and outside them; NaN and infinities), int32 and int64 out_type" % name,
               {"fns": fns})
