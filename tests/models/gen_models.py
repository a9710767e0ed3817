"""Write the small SavedModels the loader tests and the sample use.

Run with the pinned TensorFlow (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_models.py
Outputs are committed; the tests never need TensorFlow.
"""
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np
import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "models")


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def half_plus_two(path):
    """The sample: y = 0.5 * x + 2 as a tf.Module with two variables."""

    class HalfPlusTwo(tf.Module):
        def __init__(self):
            self.a = tf.Variable(0.5, name="a")
            self.b = tf.Variable(2.0, name="b")

        @tf.function(input_signature=[tf.TensorSpec([None, 1], tf.float32, name="x")])
        def __call__(self, x):
            return {"y": self.a * x + self.b}

    m = HalfPlusTwo()
    tf.saved_model.save(m, fresh(path), signatures={"serving_default": m.__call__})


def tf2_module(path):
    """Names that repeat: two variables both called "Variable", a captured
    constant, a polymorphic function traced for two shapes, and two signatures."""

    class Module(tf.Module):
        def __init__(self):
            self.v1 = tf.Variable([1.0, 2.0, 3.0], name="Variable")
            self.v2 = tf.Variable([[4, 5], [6, 7]], dtype=tf.int64, name="Variable")
            self.nested = tf.Module()
            self.nested.w = tf.Variable(np.float64(0.25), name="w")
            self.table = tf.constant([10.0, 20.0, 30.0])

        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32, name="x")])
        def scale(self, x):
            return {"out": x * self.v1 + self.table}

        @tf.function(input_signature=[tf.TensorSpec([2], tf.int64, name="i")])
        def ints(self, i):
            return {"sum": tf.reduce_sum(self.v2, axis=0) + i}

        @tf.function
        def poly(self, x):
            return x * tf.cast(self.nested.w, x.dtype)

    m = Module()
    m.poly(tf.constant([1.0, 2.0]))
    m.poly(tf.constant([[1.0], [2.0], [3.0]]))
    tf.saved_model.save(m, fresh(path), signatures={"scale": m.scale, "ints": m.ints})


def tf1_saver(path):
    """A TF1 graph whose checkpoint keys differ from the variable node names:
    the Saver maps them explicitly, so only following the graph finds them."""
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2], name="x")
        w = tf.compat.v1.Variable([[1.0], [2.0]], name="weights", use_resource=False)
        b = tf.compat.v1.Variable([0.5], name="bias", use_resource=True)
        tf.compat.v1.Variable(7, name="unsaved", use_resource=False)
        y = tf.identity(tf.matmul(x, w) + b, name="y")
        saver = tf.compat.v1.train.Saver({"model/kernel": w, "model/offset": b}, sharded=False)
        with tf.compat.v1.Session() as s:
            s.run(tf.compat.v1.global_variables_initializer())
            builder = tf.compat.v1.saved_model.Builder(fresh(path))
            sig = tf.compat.v1.saved_model.predict_signature_def({"x": x}, {"y": y})
            builder.add_meta_graph_and_variables(
                s, ["serve"], signature_def_map={"serving_default": sig}, saver=saver)
            builder.save()


def tf1_linear(path, kernel, names=("model/kernel", "model/offset")):
    """y = x @ kernel + bias in TF1 form, saved under the given checkpoint keys."""
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.as_dtype(kernel.dtype), [None, kernel.shape[0]], name="x")
        w = tf.compat.v1.Variable(kernel, name="weights", use_resource=False)
        b = tf.compat.v1.Variable(np.zeros([kernel.shape[1]], kernel.dtype), name="bias")
        y = tf.identity(tf.matmul(x, w) + b, name="y")
        saver = tf.compat.v1.train.Saver(dict(zip(names, (w, b))))
        with tf.compat.v1.Session() as s:
            s.run(tf.compat.v1.global_variables_initializer())
            builder = tf.compat.v1.saved_model.Builder(fresh(path))
            sig = tf.compat.v1.saved_model.predict_signature_def({"x": x}, {"y": y})
            builder.add_meta_graph_and_variables(
                s, ["serve"], signature_def_map={"serving_default": sig}, saver=saver)
            builder.save()


def mismatched_checkpoints(bad):
    """C10: the graph of one model with the checkpoint TensorFlow wrote for another:
    a kernel of another shape, of another dtype, and a key the graph needs missing."""
    good = np.array([[1.0], [2.0]], np.float32)
    others = {
        "c10_shape": (np.ones([3, 1], np.float32), ("model/kernel", "model/offset")),
        "c10_dtype": (np.ones([2, 1], np.float64), ("model/kernel", "model/offset")),
        "c10_missing_key": (good, ("model/other", "model/offset")),
    }
    scratch = os.path.join(bad, "_scratch")
    for name, (kernel, keys) in others.items():
        target = os.path.join(bad, name)
        tf1_linear(target, good)
        tf1_linear(scratch, kernel, keys)
        shutil.rmtree(os.path.join(target, "variables"))
        shutil.copytree(os.path.join(scratch, "variables"), os.path.join(target, "variables"))
    shutil.rmtree(scratch)


def keras_dense(path):
    """A Keras 3 Dense model exported with model.export()."""
    import keras
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((4,), name="features"),
                              keras.layers.Dense(3, activation="relu", name="hidden"),
                              keras.layers.Dense(1, name="out")])
    model.export(fresh(path), verbose=False)


def main():
    tf.random.set_seed(0)
    half_plus_two(os.path.join(ROOT, "samples", "half_plus_two"))
    tf2_module(os.path.join(DATA, "tf2_module"))
    tf1_saver(os.path.join(DATA, "tf1_saver"))
    keras_dense(os.path.join(DATA, "keras_dense"))
    mismatched_checkpoints(os.path.join(ROOT, "tests", "data", "bad"))
    print("wrote samples/half_plus_two and", sorted(os.listdir(DATA)), file=sys.stderr)


if __name__ == "__main__":
    main()
