#!/usr/bin/env python3
"""Writes tests/data/ops/Check_*: CheckNumerics and Assert, which TensorFlow
raises as errors and generated code returns as error codes (issue 17).

  Check_numerics_assert  check_numerics on an intermediate and an
                         assert_greater / assert_non_negative pair (Assert
                         ops whose messages carry string data): inputs/ pass
                         both checks; raises/<name>/ holds inputs for which
                         TensorFlow raises InvalidArgumentError (a NaN reaches
                         check_numerics; a value fails the assert), checked
                         by tests/cli/runtime_checks.sh
  Check_numerics_dtypes  CheckNumerics on float64 (serving_default), float16
                         and bfloat16 inputs that pass
  Check_print_dropped    tf.print (StringFormat, PrintV2) beside the
                         computation: dropped, the outputs unchanged

Run with the project venv: .venv/bin/python tests/models/gen_checks.py [OUT_DIR]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import IEEE, np, rng_for, tf, write_case  # noqa: E402

F32 = np.float32


def checked(x, k):
    y = tf.debugging.check_numerics(x * k, "x * k is not finite")
    tf.debugging.assert_greater(x, tf.constant(-10.0), message="x must be above -10")
    tf.debugging.assert_non_negative(k, message="k must not be negative")
    return {"y": y + 1.0}


def numerics_dtypes(out):
    rng = rng_for("Check_numerics_dtypes")
    feeds, fns = {}, {}
    for sig, dt in (("serving_default", np.float64), ("f16", np.float16), ("bf16", tf.bfloat16.as_numpy_dtype)):
        feeds[sig] = {"x": rng.uniform(-5, 5, [2, 3]).astype(dt)}
        fns[sig] = lambda x: {"y": tf.debugging.check_numerics(x, "x is not finite")}
    write_case(out, "Check_numerics_dtypes", None, feeds, IEEE,
               "CheckNumerics passing float64, float16 and bfloat16 inputs through", fns=fns)
    print("Check_numerics_dtypes")


def print_dropped(out):
    def fn(x):
        tf.print("x is", x, "sum", tf.reduce_sum(x))
        return {"y": x * 2.0 + 1.0}
    x = rng_for("Check_print_dropped").uniform(-5, 5, [2, 3]).astype(F32)
    write_case(out, "Check_print_dropped", fn, {"serving_default": {"x": x}}, IEEE,
               "tf.print (StringFormat and PrintV2, host output) beside y = 2x + 1: dropped, as a "
               "side effect generated code does not have")
    print("Check_print_dropped")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                             "..", "data", "ops")
    rng = rng_for("Check_numerics_assert")
    x = rng.uniform(-5, 5, [2, 3]).astype(F32)
    k = np.array(1.5, F32)
    name = "Check_numerics_assert"
    write_case(out, name, checked, {"serving_default": {"x": x, "k": k}}, IEEE,
               "CheckNumerics on x * k and two Asserts (assert_greater, assert_non_negative) with string "
               "messages, on inputs that pass; inputs in raises/ make TensorFlow raise")
    loaded = tf.saved_model.load(os.path.join(out, name, "model"))
    bad_x = x.copy()
    bad_x[1, 2] = np.nan
    low_x = x.copy()
    low_x[0, 0] = -11.0
    raises = {"nan": (bad_x, k, -5), "assert_x": (low_x, k, -6), "assert_k": (x, np.array(-1.0, F32), -6)}
    for case, (bx, bk, code) in raises.items():
        try:
            loaded.signatures["serving_default"](x=tf.constant(bx), k=tf.constant(bk))
            raise SystemExit("TensorFlow did not raise for %s" % case)
        except tf.errors.InvalidArgumentError:
            pass
        d = os.path.join(out, name, "raises", case)
        os.makedirs(d, exist_ok=True)
        np.save(os.path.join(d, "x.npy"), bx)
        np.save(os.path.join(d, "k.npy"), bk)
        with open(os.path.join(d, "code"), "w") as f:
            f.write("%d\n" % code)
    print(name)
    numerics_dtypes(out)
    print_dropped(out)


if __name__ == "__main__":
    main()
