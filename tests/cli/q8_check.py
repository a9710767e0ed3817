"""Checks sm2c's --quantize int8 outputs against TensorFlow's float outputs and
TFLite's int8 outputs (tests/models/gen_q8.py), without numpy or TensorFlow.

usage: q8_check.py CASE_DIR MAX_QUANTA MARGIN OUT.npy [OUT2.npy ...]
  every OUT must be bit-identical to the first (one per backend);
  mean |sm2c - TF float| <= mean |TFLite int8 - TF float| * (1 + MARGIN);
  max |sm2c - TFLite int8| <= MAX_QUANTA output quanta (TFLite's output scale).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from check_e2e import load_npy  # noqa: E402


def main():
    case, max_quanta, margin, outs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
    meta = json.load(open(os.path.join(case, "meta.json")))
    _, _, ref = load_npy(os.path.join(case, "float.npy"))
    _, _, lite = load_npy(os.path.join(case, "tflite_int8.npy"))
    _, _, got = load_npy(outs[0])
    ok = True
    for other in outs[1:]:
        if load_npy(other)[2] != got:
            print("FAIL: %s and %s differ" % (outs[0], other))
            ok = False
    n = len(ref)
    err = sum(abs(a - b) for a, b in zip(got, ref)) / n
    lite_err = sum(abs(a - b) for a, b in zip(lite, ref)) / n
    quanta = [round(abs(a - b) / meta["output_scale"]) for a, b in zip(got, lite)]
    worst = max(quanta)
    exact = sum(1 for q in quanta if q == 0)
    print("mean |err| vs TF float: sm2c int8 %.6f, TFLite int8 %.6f; vs TFLite: max %d quanta, "
          "%d of %d outputs equal" % (err, lite_err, worst, exact, n))
    if err > lite_err * (1 + margin):
        print("FAIL: sm2c's error exceeds TFLite's by more than %g%%" % (margin * 100))
        ok = False
    if worst > max_quanta:
        print("FAIL: sm2c and TFLite differ by %d quanta (at most %g allowed)" % (worst, max_quanta))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
