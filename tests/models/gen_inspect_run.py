"""Write tests/data/inspect_run: models for `sm2c inspect` agreeing with
`sm2c compile` and for `sm2c run`'s defaults (tests/cli/inspect_verdict.sh,
tests/cli/inspect_show.sh, tests/cli/run_defaults.sh).

  multi/   signatures add_one (float x [1,3] -> x + 1, compiles), gather
           (int32 idx [2] into a constant [4]: an index out of range is the
           entry's error -1), concat_str (string Add), ragged (a RaggedTensor
           input: composite) and parse (tf.Example: dense age int64 [1]
           default 7, dense score float [2] required, sparse tags string)
  single/  one signature, serving_default: x float [1,3] -> y = x * 2 + 1;
           expected_y.npy for x = [[1, 2, 3]]

Run with the pinned TensorFlow (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_inspect_run.py
Outputs are committed; the tests never need TensorFlow.
"""
import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "inspect_run")


class Multi(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([1, 3], tf.float32, name="x")])
    def add_one(self, x):
        return {"y": x + 1.0}

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32, name="idx")])
    def gather(self, idx):
        return {"g": tf.gather(tf.constant([10.0, 20.0, 30.0, 40.0]), idx)}

    @tf.function(input_signature=[tf.TensorSpec([], tf.string, name="a"), tf.TensorSpec([], tf.string, name="b")])
    def concat_str(self, a, b):
        return {"s": tf.add(a, b)}

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def ragged(self, r):
        return {"total": tf.reduce_sum(r.flat_values)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="examples")])
    def parse(self, examples):
        f = tf.io.parse_example(examples, {
            "age": tf.io.FixedLenFeature([1], tf.int64, default_value=[7]),
            "score": tf.io.FixedLenFeature([2], tf.float32),
            "tags": tf.io.VarLenFeature(tf.string),
        })
        return {"age": f["age"], "score": f["score"], "tags": f["tags"].values}


class Single(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([1, 3], tf.float32, name="x")])
    def __call__(self, x):
        return {"y": x * 2.0 + 1.0}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    m = Multi()
    tf.saved_model.save(m, os.path.join(OUT, "multi"), signatures={
        "add_one": m.add_one, "gather": m.gather, "concat_str": m.concat_str,
        "ragged": m.ragged, "parse": m.parse})
    s = Single()
    tf.saved_model.save(s, os.path.join(OUT, "single"), signatures={"serving_default": s.__call__})
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    np.save(os.path.join(OUT, "single", "expected_y.npy"), s(x)["y"].numpy())


if __name__ == "__main__":
    main()
