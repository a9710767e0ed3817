#!/usr/bin/env python3
"""Write the small TensorFlow checkpoints that tests/unit/test_bundle.c reads.

Run with the project venv (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_bundles.py [OUT_DIR]

OUT_DIR defaults to tests/data/bundles.  Each case becomes
<OUT_DIR>/<case>/variables/variables.{index,data-0000S-of-0000N}, named as in a
SavedModel, plus <case>/expected.txt with what TensorFlow reads back:

    # num_shards=N entries=M
    key<TAB>DT_x<TAB>[d0,d1]<TAB>hex:<little-endian bytes> | str:<hex>,<hex>,...<TAB>values

The test compares the bytes (hex:) or the strings (str:) exactly; the last
column is for people.
"""
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "data", "bundles")


def fresh_case(out, case):
    d = os.path.join(out, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "variables"))
    return d, os.path.join(d, "variables", "variables")


def save_v2(prefix, named):
    names = [k for k, _ in named]
    tensors = [v for _, v in named]
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=names,
                      shape_and_slices=[""] * len(names), tensors=tensors)


def dtype_enum(dt):
    from tensorflow.core.framework import types_pb2
    return types_pb2.DataType.Name(tf.dtypes.as_dtype(dt).as_datatype_enum)


def slicing_initializer(full):
    """A v1 initializer giving each partition its part of `full`."""
    def init(shape, dtype=None, partition_info=None):
        offset = partition_info.var_offset if partition_info else [0] * len(shape)
        index = tuple(slice(o, o + n) for o, n in zip(offset, shape))
        return tf.constant(full[index], dtype=dtype)
    return init


def encode_value(value, dt):
    flat = value.reshape(-1)
    human = repr([bytes(x) for x in flat[:16]] if dt == tf.string else flat[:16].tolist())
    if flat.size > 16:
        human = human[:-1] + ", ...]"
    if dt == tf.string:
        return "str:" + ",".join(bytes(s).hex() for s in flat), human
    return "hex:" + value.tobytes().hex(), human


def write_expected(case_dir, prefix):
    reader = tf.train.load_checkpoint(prefix)
    shapes = reader.get_variable_to_shape_map()
    dtypes = reader.get_variable_to_dtype_map()
    shards = sum(1 for f in os.listdir(os.path.dirname(prefix)) if ".data-" in f)
    lines = ["# num_shards=%d entries=%d" % (shards, len(shapes))]
    for key in sorted(shapes):
        value = np.asarray(reader.get_tensor(key))
        data, human = encode_value(value, dtypes[key])
        shape = "[" + ",".join(str(d) for d in shapes[key]) + "]"
        lines.append("\t".join([key, dtype_enum(dtypes[key]), shape, data, human]))
    with open(os.path.join(case_dir, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def all_dtypes(out):
    case_dir, prefix = fresh_case(out, "dtypes")
    c = tf.constant
    named = [
        ("f32", c([[1.5, -2.0, 3.25], [0.0, -0.0, 1e-38]], tf.float32)),
        ("f32_scalar", c(3.14159, tf.float32)),
        ("f64", c([1.0 / 3.0, -1e300, 2.5], tf.float64)),
        ("i8", c([-128, 0, 127], tf.int8)),
        ("i16", c([-32768, 1, 32767], tf.int16)),
        ("i32", c([[-2147483648, 7], [2147483647, -1]], tf.int32)),
        ("i64", c([-9223372036854775808, 42, 9223372036854775807], tf.int64)),
        ("u8", c([0, 1, 255], tf.uint8)),
        ("u16", c([0, 65535], tf.uint16)),
        ("u32", c([0, 4294967295], tf.uint32)),
        ("u64", c([0, 18446744073709551615], tf.uint64)),
        ("bool", c([True, False, True, True], tf.bool)),
        ("half", c([1.0, -2.5, 65504.0, 0.000061035156], tf.float16)),
        ("bf16", c([1.0, -2.5, 3.0e38], tf.bfloat16)),
        ("c64", c([1 + 2j, -3.5 - 0.25j], tf.complex64)),
        ("c128", c([1 + 2j, 1e200 - 1j], tf.complex128)),
        ("str", c([b"", b"hello", "h\u00e9llo \u2713".encode(), b"a\x00b", b"x" * 200])),
        ("str_2d", c([[b"ab", b""], [b"c", b"\xff\xfe"]])),
        ("str_scalar", c(b"only one")),
        ("empty_f32", tf.zeros([2, 0], tf.float32)),
        ("empty_str", tf.constant([], tf.string)),
    ]
    save_v2(prefix, named)
    write_expected(case_dir, prefix)


def two_shards(out):
    # What Saver(sharded=True) does: one SaveV2 per device into a temporary
    # prefix, then MergeV2Checkpoints renumbers the shards (num_shards=2).
    case_dir, prefix = fresh_case(out, "sharded")
    tmp = os.path.join(case_dir, "variables", "tmp")
    part0, part1 = tmp + "_part-00000-of-00002", tmp + "_part-00001-of-00002"
    save_v2(part0, [("a", tf.constant([1.0, 2.0, 3.0])), ("c", tf.constant([7, 8], tf.int64))])
    save_v2(part1, [("b", tf.constant([[4.0, 5.0], [6.0, 7.0]])), ("d", tf.constant([b"shard", b"one"]))])
    tf.raw_ops.MergeV2Checkpoints(checkpoint_prefixes=[part0, part1], destination_prefix=prefix,
                                  delete_old_dirs=False)
    write_expected(case_dir, prefix)


def partitioned(out):
    case_dir, prefix = fresh_case(out, "partitioned")
    g = tf.Graph()
    with g.as_default():
        v1 = tf.compat.v1
        init = np.arange(14, dtype=np.float32).reshape(7, 2) / 4.0
        v1.get_variable("part", shape=[7, 2], initializer=slicing_initializer(init),
                        partitioner=v1.fixed_size_partitioner(3), use_resource=False)
        cols = np.arange(12, dtype=np.int32).reshape(2, 6)
        v1.get_variable("cols", shape=[2, 6], dtype=tf.int32,
                        initializer=slicing_initializer(cols),
                        partitioner=v1.fixed_size_partitioner(2, axis=1), use_resource=False)
        v1.get_variable("plain", initializer=np.array([9.0, 8.0], np.float32), use_resource=False)
        # 50 slices whose starts reach past 2^13: 1-, 2- and 3-byte OrderedCode numbers.
        wide = (np.arange(8400) % 251 - 125).astype(np.int8)
        v1.get_variable("wide", shape=[8400], dtype=tf.int8, initializer=slicing_initializer(wide),
                        partitioner=v1.fixed_size_partitioner(50), use_resource=False)
        saver = v1.train.Saver(sharded=False)
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            saver.save(sess, prefix, write_meta_graph=False, write_state=False)
    write_expected(case_dir, prefix)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    all_dtypes(out)
    two_shards(out)
    partitioned(out)
    for root, _, files in os.walk(out):
        for f in sorted(files):
            print(os.path.relpath(os.path.join(root, f), out), os.path.getsize(os.path.join(root, f)))


if __name__ == "__main__":
    main()
