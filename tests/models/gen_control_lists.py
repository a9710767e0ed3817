#!/usr/bin/env python3
"""Writes tests/data/ops/Control_tensorlist_*: TensorList patterns beyond the
TensorArray cases of gen_control.py.

  Control_tensorlist_pushback  EmptyTensorList, PushBack in a loop over a
                               constant tf.range (its trip count bounds the
                               list), PopBack, Length, ElementShape, Stack
  Control_tensorlist_large     a 40 x 64 TensorArray written every other index
                               (tf.range with a step): filled at run time,
                               written in place, unwritten rows stack as zeros
  Control_tensorarray_shape_range  `for i in tf.range(tf.shape(x)[0])` over a
                               dynamic-size TensorArray, x of fixed shape [5]:
                               the trip count comes from a static shape

Run with the project venv: .venv/bin/python tests/models/gen_control_lists.py [OUT_DIR]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import IEEE, np, rng_for, tf, write_case  # noqa: E402
from tensorflow.python.ops import list_ops  # noqa: E402

F32 = np.float32


def pushback(x):
    lst = list_ops.empty_tensor_list(element_shape=[3], element_dtype=tf.float32)
    v = x
    for i in tf.range(5):
        v = v * 0.5 + tf.cast(i, tf.float32)
        lst = list_ops.tensor_list_push_back(lst, v)
    lst, last = list_ops.tensor_list_pop_back(lst, element_dtype=tf.float32)
    lst = list_ops.tensor_list_push_back(lst, last * 10.0)
    return {"stacked": list_ops.tensor_list_stack(lst, tf.float32, element_shape=[3], num_elements=5),
            "last": last,
            "n": list_ops.tensor_list_length(lst),
            "shape": list_ops.tensor_list_element_shape(lst, tf.int32)}


def large(x):
    ta = tf.TensorArray(tf.float32, size=40, element_shape=[64])
    for i in tf.range(0, 40, 2):
        ta = ta.write(i, x * tf.cast(i, tf.float32))
    return {"y": ta.stack(), "row3": ta.read(3), "row4": ta.read(4)}


def shape_range(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(tf.shape(x)[0]):
        ta = ta.write(i, x[i] * 2.0 + tf.cast(i, tf.float32))
    sized = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    for i in tf.range(tf.size(x)):
        sized = sized.write(i, tf.reduce_sum(x) - x[i])
    return {"y": ta.stack(), "others": sized.stack()}


def shape_range_case(out):
    x5 = rng_for("ta_shape_range").uniform(-2, 2, [5]).astype(F32)
    write_case(out, "Control_tensorarray_shape_range", shape_range, {"serving_default": {"x": x5}}, IEEE,
               "loops over tf.range(tf.shape(x)[0]) and tf.range(tf.size(x)) writing TensorArrays (one "
               "dynamic_size, one sized by tf.shape(x)[0]) with x of fixed shape [5]: trip counts and list "
               "lengths come from a static shape")
    print("Control_tensorarray_shape_range")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                             "..", "data", "ops")
    x3 = rng_for("tl_push").uniform(-2, 2, [3]).astype(F32)
    write_case(out, "Control_tensorlist_pushback", pushback, {"serving_default": {"x": x3}}, IEEE,
               "EmptyTensorList with PushBack in a loop over tf.range(5), then PopBack, PushBack, Length, "
               "ElementShape and Stack (TensorList ops as list_ops writes them)")
    print("Control_tensorlist_pushback")
    x64 = rng_for("tl_large").uniform(-2, 2, [64]).astype(F32)
    write_case(out, "Control_tensorlist_large", large, {"serving_default": {"x": x64}}, IEEE,
               "a TensorArray of 40 x 64 floats written at even indices in a loop over tf.range(0, 40, 2), "
               "stacked and read at a written and an unwritten index")
    print("Control_tensorlist_large")
    shape_range_case(out)


if __name__ == "__main__":
    main()
