#!/usr/bin/env python3
"""Generate the benchmark's models with the pinned TensorFlow (random weights, fixed seed).

Run with the project venv:
    /work/main/.venv/bin/python bench/gen_bench_models.py [--big] [--out bench/.models] [NAME...]

For each model NAME this writes, under OUT/NAME/ (OUT is not committed):

    saved_model/   the Keras 3 SavedModel (model.export(): "serving_default")
    model.tflite   TFLiteConverter.from_keras_model on a batch-1 wrapper (float32)
    model.onnx     tf2onnx from the same SavedModel (opset 17)
    input.npy      one batch-1 input, uniform in [-1, 1) (seed 1)
    expected.npy   what the loaded SavedModel's serving_default returns for it
    info.json      input shape, MFLOPs (2 x multiply-adds of conv/dense/matmul)

BatchNormalization layers get random moving statistics, so folding them is not a
no-op.  --big adds MobileNetV2 1.0 224 and ResNet50 (slow to generate and run).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402
from keras import layers  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def hello_world():
    return keras.Sequential([keras.Input((1,), name="x"), layers.Dense(16, activation="relu"),
                             layers.Dense(16, activation="relu"), layers.Dense(1)])


def digits():
    return keras.Sequential([keras.Input((64,), name="x"), layers.Dense(32, activation="relu"),
                             layers.Dense(10, activation="softmax")])


def fc_autoencoder():
    """MLPerf Tiny anomaly detection: 640-128x4-8-128x4-640, Dense+BN+ReLU."""
    x = inp = keras.Input((640,), name="x")
    for units in [128] * 4 + [8] + [128] * 4:
        x = layers.Dense(units)(x)
        x = layers.BatchNormalization()(x)
        x = layers.ReLU()(x)
    return keras.Model(inp, layers.Dense(640)(x))


def ds_cnn():
    """MLPerf Tiny keyword spotting DS-CNN (49x10x1 MFCC, 12 classes)."""
    x = inp = keras.Input((49, 10, 1), name="x")
    x = layers.Conv2D(64, (10, 4), strides=(2, 2), padding="same")(x)
    x = layers.ReLU()(layers.BatchNormalization()(x))
    for _ in range(4):
        x = layers.DepthwiseConv2D(3, padding="same")(x)
        x = layers.ReLU()(layers.BatchNormalization()(x))
        x = layers.Conv2D(64, 1)(x)
        x = layers.ReLU()(layers.BatchNormalization()(x))
    x = layers.AveragePooling2D(pool_size=(25, 5))(x)
    x = layers.Flatten()(x)
    return keras.Model(inp, layers.Dense(12, activation="softmax")(x))


def vww():
    """MLPerf Tiny visual wake words: MobileNetV1 alpha 0.25 at 96x96x3, 2 classes."""
    return keras.applications.MobileNet(input_shape=(96, 96, 3), alpha=0.25, weights=None,
                                        classes=2)


def resnet8():
    """MLPerf Tiny image classification ResNet-8 (32x32x3, 10 classes)."""
    def block(x, filters, stride):
        y = layers.Conv2D(filters, 3, strides=stride, padding="same")(x)
        y = layers.ReLU()(layers.BatchNormalization()(y))
        y = layers.Conv2D(filters, 3, padding="same")(y)
        y = layers.BatchNormalization()(y)
        if stride != 1:
            x = layers.Conv2D(filters, 1, strides=stride)(x)
        return layers.ReLU()(layers.Add()([x, y]))

    x = inp = keras.Input((32, 32, 3), name="x")
    x = layers.Conv2D(16, 3, padding="same")(x)
    x = layers.ReLU()(layers.BatchNormalization()(x))
    x = block(x, 16, 1)
    x = block(x, 32, 2)
    x = block(x, 64, 2)
    x = layers.AveragePooling2D(pool_size=8)(x)
    x = layers.Flatten()(x)
    return keras.Model(inp, layers.Dense(10, activation="softmax")(x))


def lstm():
    return keras.Sequential([keras.Input((50, 32), name="x"), layers.LSTM(128),
                             layers.Dense(10)])


def transformer():
    """One encoder block: seq 128, d 128, 4 heads, FFN 512, post-LayerNorm."""
    x = inp = keras.Input((128, 128), name="x")
    a = layers.MultiHeadAttention(num_heads=4, key_dim=32)(x, x)
    x = layers.LayerNormalization()(layers.Add()([x, a]))
    f = layers.Dense(512, activation="relu")(x)
    f = layers.Dense(128)(f)
    x = layers.LayerNormalization()(layers.Add()([x, f]))
    return keras.Model(inp, x)


def mobilenet_v2():
    return keras.applications.MobileNetV2(input_shape=(224, 224, 3), weights=None)


def resnet50():
    return keras.applications.ResNet50(input_shape=(224, 224, 3), weights=None)


MODELS = {
    "hello_world": ("Dense 1-16-16-1 (TFLite Micro's hello_world)", hello_world),
    "digits": ("samples/digits MLP shape (64-32-10, softmax)", digits),
    "fc_autoencoder": ("MLPerf Tiny FC autoencoder (640-128x4-8-128x4-640)", fc_autoencoder),
    "ds_cnn": ("MLPerf Tiny DS-CNN keyword spotting (49x10x1)", ds_cnn),
    "vww": ("MLPerf Tiny MobileNetV1 0.25 visual wake words (96x96x3)", vww),
    "resnet8": ("MLPerf Tiny ResNet-8 (32x32x3)", resnet8),
    "lstm": ("LSTM(128) over [1,50,32], then Dense(10)", lstm),
    "transformer": ("Transformer encoder block (seq 128, d 128, 4 heads, FFN 512, LayerNorm)",
                    transformer),
}
BIG = {
    "mobilenet_v2": ("MobileNetV2 1.0, 224x224", mobilenet_v2),
    "resnet50": ("ResNet50, 224x224", resnet50),
}


def randomise_batch_norms(model, rng):
    for layer in model.layers:
        if isinstance(layer, (layers.BatchNormalization,)):
            n = layer.moving_mean.shape[0]
            layer.moving_mean.assign(rng.normal(0, 0.2, n).astype(np.float32))
            layer.moving_variance.assign(rng.uniform(0.5, 1.5, n).astype(np.float32))
            layer.gamma.assign(rng.uniform(0.5, 1.5, n).astype(np.float32))
            layer.beta.assign(rng.normal(0, 0.2, n).astype(np.float32))


def mflops(model):
    """2 x multiply-adds of the contractions (conv, depthwise, dense, attention, LSTM)."""
    total = 0
    for layer in model._flatten_layers(include_self=False, recursive=True):
        if isinstance(layer, layers.DepthwiseConv2D):
            k = layer.kernel.shape
            out = layer.output.shape
            total += 2 * k[0] * k[1] * out[1] * out[2] * out[3]
        elif isinstance(layer, layers.Conv2D):
            k = layer.kernel.shape
            out = layer.output.shape
            total += 2 * k[0] * k[1] * k[2] * out[1] * out[2] * out[3]
        elif isinstance(layer, layers.EinsumDense):
            pass  # counted by MultiHeadAttention below
        elif isinstance(layer, layers.Dense):
            rows = int(np.prod(layer.input.shape[1:-1])) if len(layer.input.shape) > 2 else 1
            total += 2 * rows * layer.kernel.shape[0] * layer.kernel.shape[1]
        elif isinstance(layer, layers.MultiHeadAttention):
            # self-attention over the model's input sequence
            s, d = model.inputs[0].shape[1], layer._query_dense.kernel.shape[0]
            h, kd = layer.num_heads, layer.key_dim
            total += 2 * s * d * h * kd * 4 + 2 * 2 * s * s * h * kd
        elif isinstance(layer, layers.LSTM):
            steps, feat = layer.input.shape[1], layer.input.shape[2]
            u = layer.units
            total += 2 * steps * 4 * u * (feat + u)
    return total / 1e6


def to_tflite(model, shape):
    """Convert a batch-1 wrapper of the Keras model: with a static batch the
    LSTM's loop becomes TFLite's fused sequence op (from the SavedModel its
    TensorList ops do not lower to builtins)."""
    inp = keras.Input(tuple(shape[1:]), batch_size=1)
    fixed = keras.Model(inp, model(inp))
    return tf.lite.TFLiteConverter.from_keras_model(fixed).convert()


def generate(name, desc, build, out_root):
    out = os.path.join(out_root, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    keras.utils.set_random_seed(0)
    model = build()
    randomise_batch_norms(model, np.random.default_rng(0))
    sm = os.path.join(out, "saved_model")
    model.export(sm, verbose=False)

    shape = [1] + list(model.inputs[0].shape[1:])
    x = np.random.default_rng(1).uniform(-1, 1, shape).astype(np.float32)
    sig = tf.saved_model.load(sm).signatures["serving_default"]
    (in_key,) = sig.structured_input_signature[1].keys()
    outs = sig(**{in_key: tf.constant(x)})
    (y,) = [v.numpy() for v in outs.values()]
    np.save(os.path.join(out, "input.npy"), x)
    np.save(os.path.join(out, "expected.npy"), y)

    with open(os.path.join(out, "model.tflite"), "wb") as f:
        f.write(to_tflite(model, shape))
    subprocess.run([sys.executable, "-m", "tf2onnx.convert", "--saved-model", sm, "--output",
                    os.path.join(out, "model.onnx"), "--opset", "17"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    info = {"name": name, "description": desc, "input_key": in_key, "input_shape": shape,
            "mflops": round(mflops(model), 4), "tensorflow": tf.__version__,
            "keras": keras.__version__}
    with open(os.path.join(out, "info.json"), "w") as f:
        json.dump(info, f, indent=1)
    print(f"{name}: {info['mflops']} MFLOPs, input {shape}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--big", action="store_true", help="also MobileNetV2 224 and ResNet50")
    ap.add_argument("--out", default=os.path.join(HERE, ".models"))
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    table = dict(MODELS, **BIG) if args.big or args.names else MODELS
    names = args.names or list(table)
    tf.config.experimental.enable_op_determinism()
    for name in names:
        desc, build = table[name]
        generate(name, desc, build, args.out)


if __name__ == "__main__":
    main()
