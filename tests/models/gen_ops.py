#!/usr/bin/env python3
"""Writes tests/data/ops/<op>/: one TF-referenced conformance case per float32
elementwise op, in the tests/data/e2e layout (model/, inputs/<sig>/,
expected/<sig>/, case.json).  Two signatures per op: serving_default (random
inputs inside the op's domain, shape [2, 3] or [8]) and "special" (±0, ±Inf,
NaN, FLT_MAX, domain edges and rounding ties; only values where TF's result is
well defined and not affected by its flush-to-zero of subnormals).

Every other op family lives in tests/models/ops_<family>.py (see opcase.py);
this script writes all of them.

usage: gen_ops.py [OUT_DIR] [CASE_GLOB...]   (default tests/data/ops, all cases)
"""
import fnmatch
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import EXACT, IEEE, TRANS, np, rng_for, tf, write_case  # noqa: E402

INF, NAN, FMAX = np.inf, np.nan, np.finfo(np.float32).max
BASE = [0.0, -0.0, INF, -INF, NAN, FMAX, -FMAX, 1.0, -1.0]

# 1 / FLT_MAX is subnormal: TF flushes it to zero, sm2c does not (left out).
RECIP_SPECIAL = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 3.0, -7.0, 1e-30, 1e30, 1e37]

# name: (tf function, tolerance, random input (rng, shape) -> array or tuple, special values)
def rnd(lo, hi):
    return lambda r, s: r.uniform(lo, hi, s).astype(np.float32)


def ties(r, s):
    a = (r.integers(-8, 8, s) + r.choice([0.5, 0.25, 0.75, 0.0], s)).astype(np.float32)
    return a


UNARY = {
    "Floor": (tf.math.floor, EXACT, rnd(-10, 10), BASE + [0.5, -0.5, 2.5, -2.5, 1e7 + 1, -0.99]),
    "Ceil": (tf.math.ceil, EXACT, rnd(-10, 10), BASE + [0.5, -0.5, 2.5, -2.5, 1e7 + 1, -0.99]),
    "Round": (tf.math.round, EXACT, ties, BASE + [0.5, -0.5, 1.5, 2.5, -2.5, 8388609.0, 0.49999997]),
    "Rint": (tf.math.rint, EXACT, ties, BASE + [0.5, -0.5, 1.5, 2.5, -2.5, 8388609.0, 0.49999997]),
    "Sin": (tf.math.sin, TRANS, rnd(-6, 6), [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 3.1415927, 100.0, 1e-3]),
    "Cos": (tf.math.cos, TRANS, rnd(-6, 6), [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 3.1415927, 100.0, 1e-3]),
    "Tan": (tf.math.tan, TRANS, rnd(-1.5, 1.5), [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 3.0, 100.0, 1e-3]),
    "Asin": (tf.math.asin, TRANS, rnd(-1, 1), [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 1.0000001, -2.0, 0.5, 0.99999994]),
    "Acos": (tf.math.acos, TRANS, rnd(-1, 1), [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 1.0000001, -2.0, 0.5, 0.99999994]),
    "Atan": (tf.math.atan, TRANS, rnd(-10, 10), BASE + [1e-3, 1e10, -1e10]),
    "Sinh": (tf.math.sinh, TRANS, rnd(-5, 5), BASE + [1e-3, 88.0, -88.0, 90.0, -90.0]),
    "Cosh": (tf.math.cosh, TRANS, rnd(-5, 5), BASE + [1e-3, 88.0, -88.0, 90.0, -90.0]),
    "Asinh": (tf.math.asinh, TRANS, rnd(-10, 10), BASE + [1e-3, 1e10, -1e10]),
    "Acosh": (tf.math.acosh, TRANS, rnd(1, 10), [0.0, -0.0, INF, -INF, NAN, FMAX, 1.0, 0.99999994, 1.0000001, 2.0, 1e10]),
    "Atanh": (tf.math.atanh, TRANS, rnd(-0.99, 0.99), [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 1.0000001, -2.0, 0.5, 0.99999994, 1e-3]),
    "Erf": (tf.math.erf, TRANS, rnd(-3, 3), BASE + [1e-3, 4.0, -4.0, 10.0, 0.5]),
    "Erfc": (tf.math.erfc, TRANS, rnd(-3, 3), BASE + [1e-3, 4.0, -4.0, 9.0, 0.5]),
    "Expm1": (tf.math.expm1, TRANS, rnd(-5, 5), BASE + [1e-3, -1e-3, 88.0, 89.0, -100.0]),
    # Not 0.99999994: TF's (1 + x) / 2 rounds to 1 in float there and it gives Inf.
    "Erfinv": (tf.math.erfinv, TRANS, rnd(-0.99, 0.99), [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 1.5, -2.0,
                                                         0.5, -0.5, 1e-3, 0.999, -0.99999994]),
    "Log1p": (tf.math.log1p, TRANS, rnd(-0.9, 5), [0.0, -0.0, INF, -INF, NAN, FMAX, 1.0, -1.0, -2.0, 1e-3, -0.99999994]),
    "Sign": (tf.math.sign, EXACT, rnd(-5, 5), BASE + [1e-30, -1e-30, 0.5, -0.5]),
    "Reciprocal": (tf.math.reciprocal, IEEE, rnd(0.5, 5), RECIP_SPECIAL),
    "Inv": (lambda x: tf.raw_ops.Inv(x=x), IEEE, rnd(0.5, 5), RECIP_SPECIAL),
    "Softplus": (tf.math.softplus, TRANS, rnd(-20, 20), BASE + [-13.0, -14.0, 13.0, 14.0, 15.9, 16.0, -90.0, 100.0]),
    "Softsign": (tf.math.softsign, TRANS, rnd(-5, 5), BASE + [1e-3, 1e10, -1e10]),
    "Elu": (tf.nn.elu, TRANS, rnd(-5, 5), BASE + [1e-3, -1e-3, -20.0, -90.0, 5.0]),
    "Selu": (tf.nn.selu, TRANS, rnd(-5, 5), BASE + [1e-3, -1e-3, -20.0, -90.0, 5.0]),
    "LeakyRelu": (lambda x: tf.nn.leaky_relu(x, alpha=0.1), TRANS, rnd(-5, 5),
                  BASE + [1e-3, -1e-3, -20.0, 5.0, -1e30]),
}


def pair(a, b):
    return (np.array(a, np.float32), np.array(b, np.float32))


BSPEC_A = [5, -5, 5, -5, 0, -0.0, 7, INF, -INF, 1, NAN, 1, -1, 2, 2.5, -2.5]
BSPEC_B = [3, 3, -3, -3, 3, 3, 0.5, 3, 3, INF, 1, -INF, INF, NAN, 0.5, 2]
BINARY = {
    "Pow": (tf.math.pow, TRANS, (rnd(0.1, 3), rnd(-3, 3)),
            pair([2, -2, -2, 0, -0.0, 0, 1, NAN, INF, -INF, 0.5, 2, 1, -8, 10, 3],
                 [3, 3, 2, 0, 3, -1, NAN, 0, -1, 3, INF, -INF, INF, 0.5, 38, 0.5])),
    "FloorDiv": (tf.math.floordiv, EXACT, (rnd(-10, 10), rnd(0.5, 3)), pair(BSPEC_A, BSPEC_B)),
    "FloorMod": (tf.math.floormod, IEEE, (rnd(-10, 10), rnd(0.5, 3)), pair(BSPEC_A, BSPEC_B)),
    "Atan2": (tf.math.atan2, TRANS, (rnd(-5, 5), rnd(-5, 5)),
              pair([0, -0.0, 0, -0.0, 1, -1, INF, INF, -INF, 1, NAN, 1, 0, 5, -5, FMAX],
                   [0, 0, -0.0, -0.0, 0, 0, INF, -INF, 1, INF, 1, NAN, -1, -INF, -INF, 1])),
    "Xdivy": (tf.math.xdivy, IEEE, (rnd(-5, 5), rnd(0.5, 3)),
              pair([0, 0, 0, 1, -1, 1, INF, NAN, 0, 5, 1, 2, -0.0, 3, 0, 1],
                   [0, INF, NAN, 0, 0, INF, 2, 1, -3, 3, NAN, -4, 0, 7, 1, -0.0])),
    "DivNoNan": (tf.math.divide_no_nan, IEEE, (rnd(-5, 5), rnd(0.5, 3)),
                 pair([0, 0, 1, -1, NAN, INF, 1, 5, 1, 2, 0, 3, 0, INF, 1, -1],
                      [0, INF, 0, -0.0, 0, 0, INF, 3, NAN, -4, NAN, 7, 1, 2, -0.0, 3])),
}


def elementwise_cases():
    """The float32 elementwise ops: random inputs in the op's domain and special values."""
    for table, arity in ((UNARY, 1), (BINARY, 2)):
        for name, (fn, tol, rand, special) in table.items():
            rng = rng_for(name)
            shape = [2, 3] if arity == 1 else [8]
            if arity == 1:
                f = (lambda fn: lambda x: fn(x))(fn)
                feeds = {"serving_default": {"x": rand(rng, shape)},
                         "special": {"x": np.array(special, np.float32)}}
            else:
                f = (lambda fn: lambda x, y: {"z": fn(x, y)})(fn)
                feeds = {"serving_default": {"x": rand[0](rng, shape), "y": rand[1](rng, shape)},
                         "special": {"x": special[0], "y": special[1]}}
            yield (name, f, feeds, tol,
                   "float32 %s against TensorFlow: random inputs in its domain "
                   "(serving_default) and special values (special)" % name)


def family_modules():
    """tests/models/ops_<family>.py, each with a cases() generator of
    (name, fn, feeds, tolerance, description[, options]); options is a dict of
    write_case's keyword arguments (fns, track)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    for f in sorted(os.listdir(here)):
        if f.startswith("ops_") and f.endswith(".py"):
            yield importlib.import_module(f[:-3])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "ops")
    patterns = sys.argv[2:]
    sources = [elementwise_cases()] + [m.cases() for m in family_modules()]
    for source in sources:
        for name, fn, feeds, tol, desc, *opts in source:
            if not patterns or any(fnmatch.fnmatchcase(name, p) for p in patterns):
                print(name, flush=True)
                write_case(out, name, fn, feeds, tol, desc, **(opts[0] if opts else {}))


if __name__ == "__main__":
    main()
