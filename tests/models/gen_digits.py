#!/usr/bin/env python3
"""Train the samples/digits model: a small Keras MLP on scikit-learn's 8x8 digits.

Run with the project venv (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_digits.py [OUT_DIR]

OUT_DIR defaults to samples/digits.  The data is sklearn.datasets.load_digits()
(1797 8x8 images bundled with scikit-learn, no download), pixels 0..16 scaled
to 0..1 (x / 16).  A fixed split (test_size 0.25, random_state 0, stratified)
and fixed seeds make the run repeatable.  Writes

    model/               the SavedModel (keras model.export(): "serve" and
                         "serving_default", input float32 [-1, 64], output
                         softmax probabilities float32 [-1, 10])
    images.npy           float32 [10, 64], the first 10 test images, scaled
    labels.npy           int64 [10], their true labels
    expected_probs.npy   float32 [10, 10], what the loaded SavedModel's
                         serving_default signature returns for images.npy
    info.json            test accuracy, versions, split
"""
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402
import sklearn  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "..", "samples", "digits")
N_SAMPLES = 10
EPOCHS = 30


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    keras.utils.set_random_seed(0)
    tf.config.experimental.enable_op_determinism()

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)       # [1797, 64], 0..1
    y = digits.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(
        x, y, test_size=0.25, random_state=0, stratify=y)

    model = keras.Sequential([
        keras.Input(shape=(64,), name="pixels"),
        keras.layers.Dense(32, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=EPOCHS, verbose=0, shuffle=True)
    _, acc = model.evaluate(x_test, y_test, verbose=0)
    test_acc = float(np.mean(np.argmax(model.predict(x_test, verbose=0), axis=1) == y_test))
    assert test_acc > 0.9, f"test accuracy {test_acc} too low"

    model_dir = os.path.join(out, "model")
    shutil.rmtree(model_dir, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    model.export(model_dir, verbose=False)

    images = np.ascontiguousarray(x_test[:N_SAMPLES])
    labels = np.ascontiguousarray(y_test[:N_SAMPLES])
    loaded = tf.saved_model.load(model_dir)
    sig = loaded.signatures["serving_default"]
    (key, probs), = sig(pixels=tf.constant(images)).items()
    probs = probs.numpy()
    np.save(os.path.join(out, "images.npy"), images)
    np.save(os.path.join(out, "labels.npy"), labels)
    np.save(os.path.join(out, "expected_probs.npy"), probs)
    sample_acc = float(np.mean(np.argmax(probs, axis=1) == labels))
    info = {
        "test_accuracy": round(test_acc, 4),
        "test_images": int(len(y_test)),
        "train_images": int(len(y_train)),
        "sample_accuracy": sample_acc,
        "output_key": key,
        "epochs": EPOCHS,
        "scaling": "pixels / 16.0",
        "split": "train_test_split(test_size=0.25, random_state=0, stratify=y)",
        "tf_version": tf.__version__,
        "keras_version": keras.__version__,
        "sklearn_version": sklearn.__version__,
    }
    with open(os.path.join(out, "info.json"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    print(f"test accuracy {test_acc:.4f} ({len(y_test)} images), "
          f"samples {sample_acc:.2f}, output key {key!r}", file=sys.stderr)


if __name__ == "__main__":
    main()
