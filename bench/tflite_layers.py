#!/usr/bin/env python3
"""TFLite's (XNNPACK's) rate on single layers, beside bench_kernels.c's for
sm2c: each shape is a Keras model of one Conv2D or DepthwiseConv2D (SAME
padding, bias, Relu6), converted to TFLite and invoked alone on one thread.

    .venv/bin/python bench/tflite_layers.py [FILTER]

Prints the rows of bench_kernels' table (`| layer | MFLOP | GFLOP/s | us |`),
the median of 7 samples of about 30 ms each, wall time, about a microsecond
of Python per call included.  FILTER keeps the layers whose name contains it.
The shapes are bench_kernels.c's (its first column names them alike); a
layer's time in a whole model differs (its inputs and filter are cold there)."""
import os
import sys
import time

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# name, depthwise, H, W, C, K, OC, stride: as bench_kernels.c's LAYERS
LAYERS = [
    ("mnv2 3x3 s2 3->32 224x224", 0, 224, 224, 3, 3, 32, 2),
    ("mnv2 1x1 32->16 112x112", 0, 112, 112, 32, 1, 16, 1),
    ("mnv2 1x1 24->144 56x56", 0, 56, 56, 24, 1, 144, 1),
    ("mnv2 1x1 144->24 56x56", 0, 56, 56, 144, 1, 24, 1),
    ("mnv2 1x1 96->576 14x14", 0, 14, 14, 96, 1, 576, 1),
    ("mnv2 1x1 576->96 14x14", 0, 14, 14, 576, 1, 96, 1),
    ("mnv2 1x1 32->192 28x28", 0, 28, 28, 32, 1, 192, 1),
    ("mnv2 1x1 320->1280 7x7", 0, 7, 7, 320, 1, 1280, 1),
    ("mnv2 1x1 160->960 7x7", 0, 7, 7, 160, 1, 960, 1),
    ("mnv2 1x1 960->160 7x7", 0, 7, 7, 960, 1, 160, 1),
    ("mnv2 1x1 16->96 112x112", 0, 112, 112, 16, 1, 96, 1),
    ("mnv2 dw 3x3 32 112x112", 1, 112, 112, 32, 3, 32, 1),
    ("mnv2 dw 3x3 s2 144 56x56", 1, 56, 56, 144, 3, 144, 2),
    ("mnv2 dw 3x3 s2 96 112x112", 1, 112, 112, 96, 3, 96, 2),
    ("mnv2 dw 3x3 144 56x56", 1, 56, 56, 144, 3, 144, 1),
    ("mnv2 dw 3x3 960 7x7", 1, 7, 7, 960, 3, 960, 1),
    ("resnet50 7x7 s2 3->64 224x224", 0, 224, 224, 3, 7, 64, 2),
    ("resnet50 3x3 64->64 56x56", 0, 56, 56, 64, 3, 64, 1),
    ("resnet50 1x1 64->256 56x56", 0, 56, 56, 64, 1, 256, 1),
    ("resnet50 3x3 256->256 14x14", 0, 14, 14, 256, 3, 256, 1),
    ("resnet50 1x1 1024->256 14x14", 0, 14, 14, 1024, 1, 256, 1),
]


def one_layer(depthwise, h, w, c, k, oc, stride):
    """The TFLite flatbuffer of one layer, and its FLOPs."""
    import tensorflow as tf

    inp = tf.keras.Input((h, w, c), batch_size=1)
    if depthwise:
        layer = tf.keras.layers.DepthwiseConv2D(k, stride, padding="same", activation=tf.nn.relu6)
        macs = k * k * c
    else:
        layer = tf.keras.layers.Conv2D(oc, k, stride, padding="same", activation=tf.nn.relu6)
        macs = k * k * c * oc
    model = tf.keras.Model(inp, layer(inp))
    oh, ow = (h + stride - 1) // stride, (w + stride - 1) // stride
    return tf.lite.TFLiteConverter.from_keras_model(model).convert(), 2.0 * oh * ow * macs


def time_layer(flatbuffer, h, w, c, flops):
    from ai_edge_litert.interpreter import Interpreter

    it = Interpreter(model_content=flatbuffer, num_threads=1)
    it.allocate_tensors()
    x = np.random.default_rng(1).random((1, h, w, c), dtype=np.float32)
    it.set_tensor(it.get_input_details()[0]["index"], x)
    for _ in range(20):
        it.invoke()
    calls = max(1, int(0.03 / (flops / 200e9)))
    samples = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(calls):
            it.invoke()
        samples.append((time.perf_counter() - t0) / calls)
    return sorted(samples)[3]


def main():
    keep = sys.argv[1] if len(sys.argv) > 1 else ""
    print("| layer (HxW input) | MFLOP | GFLOP/s | us |")
    print("|---|---|---|---|")
    for name, depthwise, h, w, c, k, oc, stride in LAYERS:
        if keep not in name:
            continue
        flatbuffer, flops = one_layer(depthwise, h, w, c, k, oc, stride)
        t = time_layer(flatbuffer, h, w, c, flops)
        print(f"| {name} | {flops / 1e6:.2f} | {flops / t / 1e9:.1f} | {t * 1e6:.1f} |", flush=True)


if __name__ == "__main__":
    main()
