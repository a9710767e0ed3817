"""Write tests/data/models/output_keys: a signature whose output keys are not C
identifiers ("1head_dense" starts with a digit, "head-2" has a dash), for the
`sm2c run` file-naming test (tests/cli/output_names.sh).

Run with the pinned TensorFlow (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_output_keys.py
Outputs are committed; the tests never need TensorFlow.
"""
import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "models", "output_keys")


class Heads(tf.Module):
    def __init__(self):
        self.w = tf.Variable(np.array([[1.5], [-2.0]], np.float32), name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def __call__(self, x):
        return {"1head_dense": tf.matmul(x, self.w), "head-2": x * 3.0}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    m = Heads()
    tf.saved_model.save(m, OUT, signatures={"serving_default": m.__call__})
    x = np.array([[1.0, 2.0], [3.0, -4.0]], np.float32)
    out = m(x)
    np.save(os.path.join(OUT, "x.npy"), x)
    for k, v in out.items():
        np.save(os.path.join(OUT, "expected_%s.npy" % k), v.numpy())


if __name__ == "__main__":
    main()
