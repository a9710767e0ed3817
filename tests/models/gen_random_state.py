#!/usr/bin/env python3
"""Writes tests/data/ops/Random*_stateful: TF's stateful random ops (issue 17),
each checked over consecutive calls, in gen_state.py's layout (case.json
signatures[sig]["calls"] = N, expected/<sig>/call_<k>/<key>.npy).

A stateful op's generator starts at PhiloxRandom(seed, seed2) when the loaded
model first runs it and moves on by 256 Philox calls per output on every run;
sm2c keeps it in the model's state, so call k of `sm2c run --repeat k` is TF's
k-th call.  Every op has fixed seeds (tf.random.* with an op seed: seed is
TF's default graph seed 87654321, seed2 the op seed), appears twice in one
signature where useful (two generators of their own), and has float32 and
float64 (int32 and int64) outputs of odd sizes.  Each signature multiplies by
an input of ones so it has one.  Two more cases leave Dropout on
(training=True) in an exported Keras model: tf_keras (a stateful RandomUniform)
and Keras 3 (StatelessRandomUniformV2 keyed by a seed-generator variable).

Run with the project venv: .venv/bin/python tests/models/gen_random_state.py [OUT_DIR] [NAME...]
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import EXACT, TRANS, contraction, np, tf  # noqa: E402

CALLS = 3


def _save(d, key, v):
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, key + ".npy"), np.ascontiguousarray(v).reshape(np.shape(v)))


def _case(out, name, fn, feeds, tol, desc, export=None, sig="serving_default"):
    """fn(**inputs) -> outputs dict, saved as a tf.Module's serving_default; or
    export(model_dir) writes the SavedModel (a Keras model) whose signature
    `sig` takes feeds."""
    case = os.path.join(out, name)
    shutil.rmtree(case, ignore_errors=True)
    mdir = os.path.join(case, "model")
    if export:
        export(mdir)
    else:
        m = tf.Module()
        specs = [tf.TensorSpec(v.shape, tf.as_dtype(v.dtype), name=k) for k, v in sorted(feeds.items())]
        m.f = tf.function(lambda *a: fn(**dict(zip(sorted(feeds), a))), input_signature=specs)
        tf.saved_model.save(m, mdir, signatures={sig: m.f})
    shutil.rmtree(os.path.join(mdir, "assets"), ignore_errors=True)
    loaded = tf.saved_model.load(mdir)
    calls = [{k: v.numpy() for k, v in loaded.signatures[sig](
        **{k: tf.constant(v) for k, v in feeds.items()}).items()} for _ in range(CALLS)]
    for k, v in feeds.items():
        _save(os.path.join(case, "inputs", sig), k, v)
    for i, outs in enumerate(calls):
        for k, v in outs.items():
            _save(os.path.join(case, "expected", sig, "call_%d" % (i + 1)), k, v)
    info = {"description": desc, "tolerance": tol, "tf_version": tf.__version__, "signatures": {
        sig: {
            "calls": CALLS,
            "shapes": {k: list(v.shape) for k, v in feeds.items()},
            "inputs": {k: str(v.dtype) for k, v in feeds.items()},
            "outputs": {k: {"dtype": str(v.dtype), "shape": list(v.shape)} for k, v in calls[-1].items()},
            "state": [],
        }}}
    with open(os.path.join(case, "case.json"), "w") as f:
        f.write(json.dumps(info, indent=1) + "\n")
    print(name)


def keras3_dropout(mdir):
    import keras
    keras.utils.set_random_seed(5)
    inp = keras.Input((6,), name="x")
    h = keras.layers.Dense(4)(inp)
    keras.Model(inp, keras.layers.Dropout(0.5, seed=1)(h, training=True)).export(mdir, verbose=False)


def tf_keras_dropout(mdir):
    import tf_keras
    tf_keras.utils.set_random_seed(5)
    inp = tf_keras.Input((6,), name="x")
    h = tf_keras.layers.Dense(4)(inp)
    tf.saved_model.save(tf_keras.Model(inp, tf_keras.layers.Dropout(0.5, seed=1)(h, training=True)), mdir)


def ones(n=1):
    return {"x": np.ones([n], np.float32)}


def cases():
    yield ("RandomUniform_stateful", lambda x: {
        "a": tf.random.uniform([7], seed=3) * x, "b": tf.random.uniform([7], seed=3) * x,
        "c": tf.random.uniform([5], seed=11, dtype=tf.float64) * tf.cast(x, tf.float64),
        "d": tf.random.uniform([2, 3], minval=-2.0, maxval=6.0, seed=12)}, ones(), EXACT,
        "RandomUniform float32 [7] twice with one seed (two generators), float64 [5], [2,3] "
        "scaled to [-2, 6)")
    yield ("RandomStandardNormal_stateful", lambda x: {
        "a": tf.random.normal([5], seed=4) * x,
        "b": tf.random.normal([3], seed=5, dtype=tf.float64) * tf.cast(x, tf.float64)}, ones(), TRANS,
        "RandomStandardNormal float32 [5] and float64 [3]")
    yield ("TruncatedNormal_stateful", lambda x: {
        "a": tf.random.truncated_normal([6], seed=6) * x,
        "b": tf.random.truncated_normal([3], seed=7, dtype=tf.float64) * tf.cast(x, tf.float64)}, ones(),
        TRANS, "TruncatedNormal float32 [6] and float64 [3]")
    yield ("RandomUniformInt_stateful", lambda x: {
        "a": tf.random.uniform([6], minval=-4, maxval=9, dtype=tf.int32, seed=8),
        "b": tf.random.uniform([5], minval=-10 ** 12, maxval=10 ** 12, dtype=tf.int64, seed=9),
        "x": x}, ones(), EXACT, "RandomUniformInt int32 [6] in [-4, 9), int64 [5] in [-1e12, 1e12)")
    yield ("RandomUniform_float16_stateful", lambda x: {
        "u": tf.random.uniform([5], seed=13, dtype=tf.float16), "n": tf.random.normal([3], seed=14, dtype=tf.float16),
        "t": tf.random.truncated_normal([6], seed=15, dtype=tf.float16), "x": x}, ones(), EXACT,
        "float16 RandomUniform [5], RandomStandardNormal [3], TruncatedNormal [6]")
    # Dropout left on (training=True) in an exported model: Keras 3 draws from
    # StatelessRandomUniformV2 with a seed-generator variable it assign-adds each
    # call; tf_keras's legacy Dropout is a stateful RandomUniform.
    x = {"x": np.arange(12, dtype=np.float32).reshape(2, 6) - 5.0}
    yield ("RandomUniform_dropout_tf_keras", None, dict(x), contraction(6),
           "tf_keras Dense + Dropout(0.5, seed=1) called with training=True (RandomUniform), "
           "tf.saved_model.save", {"export": tf_keras_dropout})
    yield ("StatelessRandomUniformV2_dropout_keras3", None, dict(x), contraction(6),
           "Keras 3 Dense + Dropout(0.5, seed=1) called with training=True (StatelessRandomUniformV2 "
           "and its seed-generator variable), model.export", {"export": keras3_dropout, "sig": "serve"})


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "ops")
    names = sys.argv[2:]
    for name, fn, feeds, tol, desc, *opts in cases():
        if not names or name in names:
            _case(out, name, fn, feeds, tol, desc, **(opts[0] if opts else {}))


if __name__ == "__main__":
    main()
