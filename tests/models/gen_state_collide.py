#!/usr/bin/env python3
"""A model whose written variables' checkpoint keys give one --state-out file
name (issue 32, class 4; tests/cli/hardening.sh).

Run with the project venv:  .venv/bin/python tests/models/gen_state_collide.py
Writes tests/data/state/colliding_keys: a tf.Module with a variable at
`a/b` (a child module's attribute) and one at `a__b`; its `train` signature
adds its input to both.  --state-out names a file by the key with '/' as
"__", so both would be a__b__.ATTRIBUTES__VARIABLE_VALUE.npy.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "data", "state", "colliding_keys")


class Colliding(tf.Module):
    def __init__(self):
        self.a = tf.Module()
        self.a.b = tf.Variable([1.0, 2.0], name="ab")
        self.a__b = tf.Variable([3.0, 4.0], name="a__b")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def train(self, g):
        self.a.b.assign_add(g)
        self.a__b.assign_add(g)
        return {"s": self.a.b.read_value() + self.a__b.read_value()}


if __name__ == "__main__":
    m = Colliding()
    tf.saved_model.save(m, OUT, signatures={"train": m.train})
