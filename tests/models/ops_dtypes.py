"""Conformance cases for the dtypes of the data-movement ops (issue 4: "each
supported dtype").

The movement kernels copy elements by size, so one case per dtype runs every
movement op on that dtype: Movement_<dtype>, outputs named after the op.  An op
is in a case only where TensorFlow has a CPU kernel for that dtype (probed
eagerly here), so the case is TF-referenced like every other.  float32, int32
and int64 are in ops_movement.py already.  Every output is bit-exact.
"""
from opcase import EXACT, np, rng_for, tf

DTYPES = ["float64", "float16", "bfloat16", "int8", "int16", "uint8", "uint16", "uint32",
          "uint64", "bool"]

# output name: movement op on x of shape [2, 4, 4, 2].
OPS = {
    "Reshape": lambda x: tf.reshape(x, [4, -1]),
    "Squeeze": lambda x: tf.squeeze(x[:1], [0]),
    "ExpandDims": lambda x: tf.expand_dims(x, -2),
    "Transpose": lambda x: tf.transpose(x, [0, 3, 1, 2]),
    "ConcatV2": lambda x: tf.concat([x, x[:, :1]], 1),
    "Pack": lambda x: tf.stack([x, x], -1),
    "Unpack": lambda x: tf.unstack(x, axis=1)[2],
    "Split": lambda x: tf.split(x, 2, axis=2)[1],
    "SplitV": lambda x: tf.split(x, [1, 3], axis=1)[1],
    "Slice": lambda x: tf.slice(x, [0, 1, 1, 0], [2, 2, -1, 1]),
    "StridedSlice": lambda x: x[::-1, 1::2, ..., tf.newaxis, 1],
    "Tile": lambda x: tf.tile(x, [1, 2, 1, 3]),
    "Pad": lambda x: tf.pad(x, [[1, 0], [0, 2], [1, 1], [0, 0]]),
    "MirrorPad": lambda x: tf.pad(x, [[0, 0], [1, 2], [2, 1], [0, 0]], mode="REFLECT"),
    "ReverseV2": lambda x: tf.reverse(x, [1, -1]),
    "GatherV2": lambda x: tf.gather(x, [3, 0, 0, 2], axis=1),
    "GatherNd": lambda x: tf.gather_nd(x, [[1, 2], [0, 3]]),
    "SpaceToDepth": lambda x: tf.nn.space_to_depth(x, 2),
    "DepthToSpace": lambda x: tf.nn.depth_to_space(tf.concat([x, x], -1), 2),
    "SpaceToBatchND": lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 1]]),
    "BatchToSpaceND": lambda x: tf.batch_to_space(tf.concat([x, x], 0), [2, 1], [[0, 0], [0, 1]]),
    "BroadcastTo": lambda x: tf.broadcast_to(x[:1, :1], [3, 2, 4, 2]),
    "ReverseSequence": lambda x: tf.reverse_sequence(x, [1, 4], seq_axis=1, batch_axis=0),
    "MatrixBandPart": lambda x: tf.linalg.band_part(x, 1, 0),
    "SelectV2": lambda x: tf.where([True, False], x, x[::-1]),
    "ZerosLike": lambda x: tf.raw_ops.ZerosLike(x=x),
    "OnesLike": lambda x: tf.raw_ops.OnesLike(x=x),
}

# TensorFlow 2.21 returns zeros for these when the op runs inside a saved
# signature (eager gives ones): not a reference to test against.
TF_DISAGREES = {("OnesLike", "uint32"), ("OnesLike", "uint64")}


def sample(dtype, shape):
    r = rng_for("Movement_" + dtype)
    if dtype == "bool":
        return r.integers(0, 2, shape).astype(bool)
    if dtype in ("float64", "float16"):
        return r.uniform(-100, 100, shape).astype(dtype)
    if dtype == "bfloat16":
        return r.uniform(-100, 100, shape).astype(tf.bfloat16.as_numpy_dtype)
    info = np.iinfo(dtype)
    return r.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def has_kernel(op, x):
    try:
        op(tf.constant(x))
        return True
    except (tf.errors.OpError, TypeError, ValueError):
        return False


def cases():
    for dt in DTYPES:
        x = sample(dt, [2, 4, 4, 2])
        ops = {name: op for name, op in OPS.items()
               if (name, dt) not in TF_DISAGREES and has_kernel(op, x)}
        yield ("Movement_" + dt, lambda x, ops=ops: {k: op(x) for k, op in ops.items()},
               {"serving_default": {"x": x}}, EXACT,
               "%s through %s" % (dt, ", ".join(sorted(ops))))
