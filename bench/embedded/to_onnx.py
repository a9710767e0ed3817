#!/usr/bin/env python3
"""The firmware models as ONNX, for the generators bench/embedded compares.

Run with the project venv:  .venv/bin/python bench/embedded/to_onnx.py OUT_DIR
Writes OUT_DIR/<case>.onnx for every tests/data/firmware/<case>: the
SavedModel's serving_default at the case's static input shape (batch 1),
converted by tf2onnx (opset 13), input and output names "input"/"output".
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402
import tf2onnx  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    base = os.path.join(ROOT, "tests", "data", "firmware")
    kept = []
    for case in sorted(os.listdir(base)):
        info = json.load(open(os.path.join(base, case, "case.json")))
        loaded = tf.saved_model.load(os.path.join(ROOT, info["model"]))
        kept.append(loaded)         # its variables must outlive the conversion
        fn = loaded.signatures["serving_default"]
        spec = tf.TensorSpec(info["shape"], tf.float32, name="input")

        @tf.function(input_signature=[spec])
        def run(x, fn=fn, name=info["input"]):
            outs = fn(**{name: x})
            return tf.identity(outs[sorted(outs)[0]], name="output")

        tf2onnx.convert.from_function(run, input_signature=[spec], opset=13,
                                      output_path=os.path.join(out, case + ".onnx"))


if __name__ == "__main__":
    main()
