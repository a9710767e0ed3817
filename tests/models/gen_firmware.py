#!/usr/bin/env python3
"""The four models of the firmware test (issue 15), with TensorFlow's outputs.

Run with the project venv (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_firmware.py [OUT_DIR]

OUT_DIR defaults to tests/data/firmware.  For each case it writes

    <case>/model/        the SavedModel (keras model.export(), "serving_default")
                         (digits uses samples/digits/model, not copied)
    <case>/input.bin     one input, float32 little-endian, C order
    <case>/expected.bin  what the loaded SavedModel's serving_default returns
    <case>/case.json     model path, input name and shape, output count,
                         tolerance (docs/reliability.md section 9, whole model)

The cases are the issue's table: the TFLite Micro hello_world sine model
(Dense 1-16-16-1, trained briefly on sin), samples/digits' MLP, the MLPerf
Tiny keyword-spotting DS-CNN (49x10x1, seeded weights and batch-norm
statistics) and a small CNN on 28x28x1 (Conv8-Pool-Conv16-Pool-Dense32-Dense10).
Batch size 1: the firmware runs one inference.
"""
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "firmware")
TOL = {"rtol": 1e-4, "atol": 1e-4}
# --quantize int8 builds (bench/embedded, tests/cli/firmware_m4.sh), their
# outputs softmax probabilities: two quanta of the int8 output scale (1/256),
# calibrated on that many inputs (tests/firmware/fw.py calib).
INT8 = {"ds_cnn": {"atol": 2 / 256, "calibration": 16}, "cnn28": {"atol": 2 / 256, "calibration": 16}}


def sine():
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 2 * np.pi, (1000, 1)).astype(np.float32)
    y = (np.sin(x) + 0.1 * rng.standard_normal(x.shape)).astype(np.float32)
    model = keras.Sequential([
        keras.Input(shape=(1,), name="x"),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(1),
    ])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=40, batch_size=32, verbose=0)
    return model, np.array([[1.25]], np.float32)


def randomize_batch_norm(model, rng):
    """Non-trivial moving statistics, so folding them is really checked."""
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            gamma, beta, mean, var = layer.get_weights()
            layer.set_weights([
                rng.uniform(0.5, 1.5, gamma.shape).astype(np.float32),
                rng.uniform(-0.2, 0.2, beta.shape).astype(np.float32),
                rng.uniform(-0.2, 0.2, mean.shape).astype(np.float32),
                rng.uniform(0.5, 1.5, var.shape).astype(np.float32),
            ])


def ds_cnn():
    """MLPerf Tiny's KWS DS-CNN (keras reference): 64 filters, four
    depthwise-separable blocks, average pool, Dense 12 + softmax."""
    layers = [keras.Input(shape=(49, 10, 1), name="mfcc"),
              keras.layers.Conv2D(64, (10, 4), strides=(2, 2), padding="same", use_bias=False),
              keras.layers.BatchNormalization(), keras.layers.ReLU()]
    for _ in range(4):
        layers += [keras.layers.DepthwiseConv2D((3, 3), padding="same", use_bias=False),
                   keras.layers.BatchNormalization(), keras.layers.ReLU(),
                   keras.layers.Conv2D(64, (1, 1), use_bias=False),
                   keras.layers.BatchNormalization(), keras.layers.ReLU()]
    layers += [keras.layers.AveragePooling2D(pool_size=(25, 5)), keras.layers.Flatten(),
               keras.layers.Dense(12, activation="softmax")]
    model = keras.Sequential(layers)
    randomize_batch_norm(model, np.random.default_rng(2))
    x = np.random.default_rng(3).standard_normal((1, 49, 10, 1)).astype(np.float32)
    return model, x


def cnn28():
    model = keras.Sequential([
        keras.Input(shape=(28, 28, 1), name="image"),
        keras.layers.Conv2D(8, 3, activation="relu"),
        keras.layers.MaxPooling2D(2),
        keras.layers.Conv2D(16, 3, activation="relu"),
        keras.layers.MaxPooling2D(2),
        keras.layers.Flatten(),
        keras.layers.Dense(32, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    x = np.random.default_rng(4).uniform(0, 1, (1, 28, 28, 1)).astype(np.float32)
    return model, x


def run_saved(model_dir, x):
    loaded = tf.saved_model.load(model_dir)
    fn = loaded.signatures["serving_default"]
    name = list(fn.structured_input_signature[1])[0]
    out = fn(**{name: tf.constant(x)})
    return name, [out[k].numpy() for k in sorted(out)]


def write_case(out, case, model_dir, model_rel, x):
    d = os.path.join(out, case)
    os.makedirs(d, exist_ok=True)
    name, outputs = run_saved(model_dir, x)
    x.astype("<f4").tofile(os.path.join(d, "input.bin"))
    np.concatenate([o.astype("<f4").ravel() for o in outputs]).tofile(
        os.path.join(d, "expected.bin"))
    info = {"model": model_rel, "signature": "serving_default", "input": name,
            "shape": list(x.shape), "outputs": len(outputs),
            "output_elements": sum(int(o.size) for o in outputs), "tolerance": TOL,
            "tf_version": tf.__version__}
    if case in INT8:
        info["int8"] = INT8[case]
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)
    keras.utils.set_random_seed(0)
    tf.config.experimental.enable_op_determinism()
    for case, build in (("sine", sine), ("ds_cnn", ds_cnn), ("cnn28", cnn28)):
        model, x = build()
        model_dir = os.path.join(out, case, "model")
        shutil.rmtree(model_dir, ignore_errors=True)
        model.export(model_dir, verbose=False)
        write_case(out, case, model_dir, "tests/data/firmware/%s/model" % case, x)
    digits = os.path.join(ROOT, "samples", "digits")
    x = np.load(os.path.join(digits, "images.npy"))[:1]
    write_case(out, "digits", os.path.join(digits, "model"), "samples/digits/model", x)


if __name__ == "__main__":
    main()
