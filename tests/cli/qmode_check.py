"""Checks sm2c's outputs in a --quantize mode against TFLite's conversion in
the same mode (tests/models/gen_q8.py: tflite_<MODE>.npy, reference kernels)
and TensorFlow's float outputs (float.npy), without numpy or TensorFlow.

usage: qmode_check.py CASE_DIR MODE TOL OUT.npy [OUT2.npy ...]
  every OUT must be bit-identical to the first (one per backend);
  max |sm2c - TFLite MODE| <= TOL;
  and at most a tenth of max |TF float - TFLite MODE|: sm2c follows the
  mode's rounding (of weights, or of activations) wherever TFLite's result
  moves away from float's.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from check_e2e import load_npy  # noqa: E402


def main():
    case, mode, tol, outs = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
    ref = load_npy(os.path.join(case, "float.npy"))[2]
    lite = load_npy(os.path.join(case, "tflite_%s.npy" % mode))[2]
    got = load_npy(outs[0])[2]
    ok = len(got) == len(lite)
    for other in outs[1:]:
        if load_npy(other)[2] != got:
            print("FAIL: %s and %s differ" % (outs[0], other))
            ok = False
    off = max(abs(a - b) for a, b in zip(got, lite))
    moved = max(abs(a - b) for a, b in zip(ref, lite))
    equal = sum(1 for a, b in zip(got, lite) if a == b)
    print("%s %s: max |sm2c - TFLite| %.3g (%d of %d equal), max |TF float - TFLite| %.3g"
          % (os.path.basename(case), mode, off, equal, len(lite), moved))
    if off > tol or off > moved / 10:
        print("FAIL: sm2c is not TFLite's %s (tolerance %g)" % (mode, tol))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
