"""Writes tests/data/e2e/qat_cnn: a quantization-aware Keras 3 model (issue 16),
the form quantization-aware training leaves in a SavedModel: every weight passes
through FakeQuantWithMinMaxVarsPerChannel (8 bits, narrow range, symmetric per
output channel), the input and every activation through FakeQuantWithMinMaxVars
with learned range variables.  The ranges are set from calibration data, as the
moving-average quantizers of quantization-aware training do.

usage: .venv/bin/python tests/models/gen_quant.py   (needs the pinned TensorFlow)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_e2e import DEFAULT_OUT, fresh, seed_all, write_case  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def case_qat_cnn(out):
    import keras

    class ActQuant(keras.layers.Layer):
        """FakeQuantWithMinMaxVars on the activations, range in two variables."""
        def build(self, shape):
            self.lo = self.add_weight(name="min", shape=(), initializer="zeros", trainable=False)
            self.hi = self.add_weight(name="max", shape=(), initializer="ones", trainable=False)

        def call(self, x):
            return tf.quantization.fake_quant_with_min_max_vars(x, self.lo, self.hi, num_bits=8)

    class QConv(keras.layers.Conv2D):
        """Conv2D whose kernel is fake-quantized per output channel."""
        def call(self, x):
            k = tf.convert_to_tensor(self.kernel)
            m = tf.reduce_max(tf.abs(k), axis=[0, 1, 2])
            kq = tf.quantization.fake_quant_with_min_max_vars_per_channel(k, -m, m, num_bits=8, narrow_range=True)
            return self.activation(tf.nn.conv2d(x, kq, self.strides, self.padding.upper()) + self.bias)

    class QDense(keras.layers.Dense):
        def call(self, x):
            k = tf.convert_to_tensor(self.kernel)
            m = tf.reduce_max(tf.abs(k), axis=0)
            kq = tf.quantization.fake_quant_with_min_max_vars_per_channel(k, -m, m, num_bits=8, narrow_range=True)
            return self.activation(tf.matmul(x, kq) + self.bias)

    seed_all()
    inp = keras.Input(shape=(12, 12, 1), name="image")
    h = ActQuant(name="quant_input")(inp)
    h = QConv(8, 3, padding="valid", activation="relu", name="conv")(h)
    h = ActQuant(name="quant_conv")(h)
    h = keras.layers.MaxPooling2D(name="pool")(h)
    h = keras.layers.Flatten(name="flatten")(h)
    h = QDense(10, name="dense")(h)
    h = ActQuant(name="quant_logits")(h)
    out_ = keras.layers.Softmax(name="probs")(h)
    model = keras.Model(inp, out_)
    rng = np.random.default_rng(3)
    calib = rng.uniform(0, 1, (32, 12, 12, 1)).astype(np.float32)
    # Ranges from calibration data, layer by layer (the activations each sees).
    for name in ("quant_input", "quant_conv", "quant_logits"):
        layer = model.get_layer(name)
        probe = keras.Model(inp, layer.input)
        a = probe.predict(calib, verbose=0)
        layer.lo.assign(min(float(a.min()), 0.0))
        layer.hi.assign(max(float(a.max()), 0.0))
    d = fresh(out, "qat_cnn")
    model.export(d, verbose=False)
    return write_case(out, "qat_cnn", d,
                      "Quantization-aware Keras 3 CNN: FakeQuantWithMinMaxVars on the input and activations, "
                      "FakeQuantWithMinMaxVarsPerChannel (narrow range) on the Conv2D and Dense weights, "
                      "ranges from calibration data, model.export()")


def main():
    info = case_qat_cnn(DEFAULT_OUT)
    for key, s in info["signatures"].items():
        print(f"qat_cnn/{key}: {s['shapes']} ops={s['ops']}", file=sys.stderr)


if __name__ == "__main__":
    main()
