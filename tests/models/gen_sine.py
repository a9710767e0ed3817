"""Write tests/data/models/sine_dense: TensorFlow Lite Micro's hello_world model,
a Dense 1-16-16-1 network (ReLU, ReLU, linear) fitted to sin(x) on [0, 2*pi].

Run with the pinned TensorFlow (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_sine.py
The model is committed; tests/cli/runtime_files.sh compiles it.
"""
import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np
import keras

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "models", "sine_dense")


def main():
    keras.utils.set_random_seed(1)
    x = np.random.uniform(0, 2 * np.pi, (1000, 1)).astype(np.float32)
    y = np.sin(x) + np.random.normal(0, 0.1, x.shape).astype(np.float32)
    model = keras.Sequential([keras.Input((1,), name="x"),
                              keras.layers.Dense(16, activation="relu", name="dense_1"),
                              keras.layers.Dense(16, activation="relu", name="dense_2"),
                              keras.layers.Dense(1, name="dense_3")])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=20, batch_size=64, verbose=0)
    shutil.rmtree(OUT, ignore_errors=True)
    model.export(OUT, verbose=False)


if __name__ == "__main__":
    main()
