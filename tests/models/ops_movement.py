"""Conformance cases for shape and data-movement ops (issue 4, "movement"):
reshapes, slices, pads, joins and splits, tiles, gathers and scatters, one-hot,
top-k, space/depth/batch rearrangements and the pass-through ops.

Constant operands (axes, multiples, paddings, k, block sizes) are baked into
the functions so they are Const nodes, as Keras emits them; index tensors are
inputs (data-dependent) where models feed them, constants where they do not.
Most cases have a float32 signature (serving_default) and int32/int64 ones
("int32", "int64") fed to the same function, where TensorFlow has the kernel.
Every movement op is bit-exact (docs/reliability.md section 9).
"""
from opcase import EXACT, np, rng_for, tf


def f32(r, shape):
    return r.uniform(-10, 10, shape).astype(np.float32)


def ints(r, shape, dtype):
    return r.integers(-1000, 1000, shape).astype(dtype)


def typed(name, shape, dtypes=("int32", "int64")):
    """float32 (serving_default) and integer signatures, all fed to one function."""
    r = rng_for(name)
    feeds = {"serving_default": {"x": f32(r, shape)}}
    for dt in dtypes:
        feeds[dt] = {"x": ints(r, shape, dt)}
    return feeds


def case(name, fn, feeds, desc, **opts):
    return (name, fn, feeds, EXACT, desc, opts) if opts else (name, fn, feeds, EXACT, desc)


def existing_cases():
    """Ops sm2c had before this module: one case each (or more for variants)."""
    yield case("Reshape_minus1", lambda x: {"a": tf.reshape(x, [4, -1]), "b": tf.reshape(x, [-1])},
               typed("Reshape_minus1", [2, 3, 4]), "Reshape to [4, -1] and [-1]")
    yield case("Squeeze_all", lambda x: tf.squeeze(x), typed("Squeeze_all", [1, 3, 1, 2]),
               "Squeeze of every size-1 dim")
    yield case("Squeeze_dims", lambda x: tf.squeeze(x, [0, -2]), typed("Squeeze_dims", [1, 3, 1, 1, 2]),
               "Squeeze of listed dims (one negative), another size-1 dim kept")
    yield case("ExpandDims_negative_axis",
               lambda x: {"a": tf.expand_dims(x, -1), "b": tf.expand_dims(x, -3), "c": tf.expand_dims(x, 0)},
               typed("ExpandDims_negative_axis", [2, 3]), "ExpandDims at -1, -3 and 0")
    yield case("Transpose", lambda x: {"a": tf.transpose(x, [2, 0, 1]), "b": tf.transpose(x)},
               typed("Transpose", [2, 3, 4]), "Transpose by [2, 0, 1] and the default reversal")
    yield case("Transpose_4d", lambda x: tf.transpose(x, [0, 3, 1, 2]), typed("Transpose_4d", [2, 3, 4, 2]),
               "Transpose NHWC to NCHW")
    yield case("ConcatV2_negative_axis",
               lambda x, y: {"a": tf.concat([x, y, x], -1), "b": tf.concat([x, x], 0)},
               {"serving_default": {"x": f32(rng_for("c1"), [2, 3]), "y": f32(rng_for("c2"), [2, 2])},
                "int32": {"x": ints(rng_for("c3"), [2, 3], "int32"), "y": ints(rng_for("c4"), [2, 2], "int32")},
                "int64": {"x": ints(rng_for("c5"), [2, 3], "int64"), "y": ints(rng_for("c6"), [2, 2], "int64")}},
               "ConcatV2 on axis -1 (three inputs) and 0")
    yield case("Pack", lambda x, y: {"a": tf.stack([x, y], axis=1), "b": tf.stack([x, y, x], axis=-1),
                                     "c": tf.stack([y, x])},
               {"serving_default": {"x": f32(rng_for("p1"), [2, 3]), "y": f32(rng_for("p2"), [2, 3])},
                "int32": {"x": ints(rng_for("p3"), [2, 3], "int32"), "y": ints(rng_for("p4"), [2, 3], "int32")},
                "int64": {"x": ints(rng_for("p5"), [2, 3], "int64"), "y": ints(rng_for("p6"), [2, 3], "int64")}},
               "Pack on axis 1, -1 and 0")
    yield case("Slice_size_minus1", lambda x: {"a": tf.slice(x, [1, 0, 2], [-1, 2, -1]),
                                               "b": tf.slice(x, [0, 1, 1], [1, 1, 3])},
               typed("Slice_size_minus1", [3, 4, 5]), "Slice with size -1 and a plain one")
    yield from strided_slice_cases()
    yield case("Pad", lambda x: tf.pad(x, [[1, 0], [2, 1], [0, 3]]), typed("Pad", [2, 3, 2]),
               "Pad with zeros, asymmetric")
    yield case("PadV2_constant", lambda x: tf.pad(x, [[1, 2], [0, 1]], constant_values=tf.constant(3, x.dtype)),
               typed("PadV2_constant", [2, 3]), "PadV2 with constant value 3")
    yield case("Fill", lambda x: {"a": tf.fill([2, 3], x), "b": tf.fill([4], x)},
               {"serving_default": {"x": np.array(-2.5, np.float32)},
                "int32": {"x": np.array(7, np.int32)}, "int64": {"x": np.array(-9, np.int64)}},
               "Fill with a run-time scalar value")
    yield case("ZerosLike", lambda x: tf.raw_ops.ZerosLike(x=x), typed("ZerosLike", [2, 3]), "ZerosLike")
    yield case("OnesLike", lambda x: tf.raw_ops.OnesLike(x=x), typed("OnesLike", [3, 2]), "OnesLike")
    yield case("Shape", lambda x: {"a": tf.raw_ops.Shape(input=x, out_type=tf.int32),
                                   "b": tf.raw_ops.Shape(input=x, out_type=tf.int64)},
               typed("Shape", [2, 3, 4]), "Shape with out_type int32 and int64")
    yield case("Size", lambda x: {"a": tf.raw_ops.Size(input=x, out_type=tf.int32),
                                  "b": tf.raw_ops.Size(input=x, out_type=tf.int64)},
               typed("Size", [2, 3, 4]), "Size with out_type int32 and int64")
    yield case("Rank", lambda x: tf.raw_ops.Rank(input=x), typed("Rank", [2, 3, 4]), "Rank")


def strided_slice_cases():
    def ss(begin, end, strides, **masks):
        return lambda x: tf.strided_slice(x, begin, end, strides, **masks)
    shape = [4, 5, 6]
    yield case("StridedSlice_begin_end_mask", ss([1, 3, 2], [3, 0, 5], [1, -1, 2], begin_mask=2, end_mask=5),
               typed("StridedSlice_begin_end_mask", shape), "StridedSlice with begin_mask and end_mask")
    yield case("StridedSlice_ellipsis_mask", lambda x: x[..., 1:4], typed("StridedSlice_ellipsis_mask", shape),
               "StridedSlice x[..., 1:4]")
    yield case("StridedSlice_ellipsis_middle", lambda x: x[1:3, ..., ::2],
               typed("StridedSlice_ellipsis_middle", [3, 2, 4, 6]), "StridedSlice x[1:3, ..., ::2]")
    yield case("StridedSlice_new_axis_mask", lambda x: x[:, tf.newaxis, 1:3],
               typed("StridedSlice_new_axis_mask", shape), "StridedSlice x[:, newaxis, 1:3]")
    yield case("StridedSlice_shrink_mask", lambda x: {"a": x[1, :, -1], "b": x[-1], "c": x[2, 3, 4]},
               typed("StridedSlice_shrink_mask", shape), "StridedSlice x[1, :, -1], x[-1] and x[2, 3, 4]")
    yield case("StridedSlice_negative_strides", lambda x: {"a": x[::-1, 4:0:-2, -1:-7:-3], "b": x[2:0:-1, ::-2]},
               typed("StridedSlice_negative_strides", shape),
               "StridedSlice with negative strides, implicit and clamped bounds")
    yield case("StridedSlice_ellipsis_new_axis", lambda x: x[tf.newaxis, ..., tf.newaxis, 2],
               typed("StridedSlice_ellipsis_new_axis", shape), "StridedSlice x[newaxis, ..., newaxis, 2]")
    yield case("StridedSlice_out_of_range", lambda x: x[-100:100, 3:1, 1:100:4],
               typed("StridedSlice_out_of_range", shape), "StridedSlice with bounds clamped and an empty dim")


def split_cases():
    yield case("Unpack", lambda x: {"a%d" % i: t for i, t in enumerate(tf.unstack(x, axis=1))},
               typed("Unpack", [2, 3, 2]), "Unpack along axis 1 (three outputs)")
    yield case("Unpack_negative_axis", lambda x: {"a%d" % i: t for i, t in enumerate(tf.unstack(x, axis=-1))},
               typed("Unpack_negative_axis", [3, 2]), "Unpack along axis -1")
    yield case("Split", lambda x: {"a%d" % i: t for i, t in enumerate(tf.split(x, 3, axis=1))},
               typed("Split", [2, 6, 2]), "Split in 3 along axis 1")
    yield case("SplitV_minus1", lambda x: {"a%d" % i: t for i, t in enumerate(tf.split(x, [1, -1, 2], axis=-1))},
               typed("SplitV_minus1", [2, 3, 7]), "SplitV with sizes [1, -1, 2] on axis -1")


def tile_pad_cases():
    yield case("Tile", lambda x: {"a": tf.tile(x, [2, 1, 3]), "b": tf.tile(x, [1, 2, 1])},
               typed("Tile", [2, 3, 2]), "Tile by [2, 1, 3] and [1, 2, 1]")
    for mode in ("REFLECT", "SYMMETRIC"):
        name = "MirrorPad_" + mode
        most = 2 if mode == "REFLECT" else 3
        yield case(name, (lambda mode, most: lambda x: {
                       "a": tf.pad(x, [[1, most], [most, 0], [0, 1]], mode=mode),
                       "b": tf.pad(x, [[0, 0], [1, 1], [most, most]], mode=mode)})(mode, most),
                   typed(name, [3, 3, 4]), "MirrorPad %s, widest pads allowed" % mode)
    yield case("BroadcastTo", lambda x: {"a": tf.broadcast_to(x, [2, 3, 4]), "b": tf.broadcast_to(x, [3, 1])},
               typed("BroadcastTo", [3, 1]), "BroadcastTo [2, 3, 4] and to its own shape")
    yield case("ReverseV2", lambda x: {"a": tf.reverse(x, [0, -1]), "b": tf.reverse(x, [1])},
               typed("ReverseV2", [2, 3, 4]), "ReverseV2 on axes [0, -1] and [1]")


def range_cases():
    def rng_fn(x):
        return {"i": tf.range(3, 20, 4), "i_neg": tf.range(10, -7, -3),
                "l": tf.range(tf.constant(-5, tf.int64), 6, 2),
                "f": tf.range(0.5, 4.0, 0.7), "f_neg": tf.range(2.5, -3.0, -0.3),
                "f_long": tf.range(0.1, 50.3, 0.37), "y": x}
    yield case("Range", rng_fn, {"serving_default": {"x": np.zeros([1], np.float32)}},
               "Range for int32, int64 and float32, positive and negative deltas")
    yield case("BroadcastArgs", lambda x: {
                   "a": tf.raw_ops.BroadcastArgs(s0=tf.constant([2, 1, 3]), s1=tf.constant([4, 1])),
                   "b": tf.raw_ops.BroadcastArgs(s0=tf.constant([5, 1], tf.int64), s1=tf.constant([1, 1, 7], tf.int64)),
                   "y": x},
               {"serving_default": {"x": np.zeros([1], np.float32)}}, "BroadcastArgs int32 and int64")


def gather_cases():
    r = rng_for("GatherV2")
    params = f32(r, [3, 5, 2])
    idx = np.array([[4, 0], [2, 4]], np.int32)
    yield case("GatherV2_axis1", lambda x, i: tf.gather(x, i, axis=1),
               {"serving_default": {"x": params, "i": idx},
                "int64": {"x": params, "i": idx.astype(np.int64)},
                "int32_params": {"x": ints(r, [3, 5, 2], "int32"), "i": idx}},
               "GatherV2 on axis 1 with run-time int32 and int64 indices")
    yield case("GatherV2_negative_axis", lambda x: tf.gather(x, [1, 0, 1], axis=-1),
               typed("GatherV2_negative_axis", [2, 3, 2]), "GatherV2 on axis -1 with constant indices")
    yield case("GatherV2_axis0_scalar", lambda x, i: {"a": tf.gather(x, i), "b": tf.gather(x, i[0])},
               {"serving_default": {"x": f32(r, [6, 3]), "i": np.array([5, 0, 5, 2], np.int64)}},
               "GatherV2 on axis 0 with a vector and a scalar index")
    yield case("GatherV2_batch_dims", lambda x, i: tf.gather(x, i, axis=2, batch_dims=1),
               {"serving_default": {"x": f32(r, [2, 3, 4, 2]), "i": np.array([[3, 0, 1], [2, 2, 0]], np.int32)},
                "int64": {"x": f32(r, [2, 3, 4, 2]), "i": np.array([[1, 3, 3], [0, 2, 1]], np.int64)}},
               "GatherV2 with batch_dims 1 on axis 2")
    yield case("GatherNd", lambda x, i: tf.gather_nd(x, i),
               {"serving_default": {"x": f32(r, [3, 4, 2]), "i": np.array([[2, 3], [0, 0], [1, 2]], np.int32)},
                "int64": {"x": f32(r, [3, 4, 2]), "i": np.array([[[1, 1]], [[2, 0]]], np.int64)},
                "int32_params": {"x": ints(r, [3, 4, 2], "int32"), "i": np.array([[0, 3], [2, 1]], np.int32)},
                "int64_params": {"x": ints(rng_for("GatherNd_i64"), [3, 4, 2], "int64"),
                                 "i": np.array([[1, 0], [2, 3]], np.int64)}},
               "GatherNd of slices (index depth 2 of rank 3): float32, int32 and int64 params")
    yield case("GatherNd_full", lambda x, i: tf.gather_nd(x, i),
               {"serving_default": {"x": f32(r, [3, 4]), "i": np.array([[2, 3], [0, 1], [2, 0], [1, 1]], np.int32)}},
               "GatherNd of single elements")
    emb = tf.Variable(f32(r, [6, 4]))

    class Holder(tf.Module):
        def __init__(self):
            self.emb = emb
    yield case("ResourceGather", lambda i: {"a": tf.gather(emb, i), "b": tf.gather(emb, [[5, 0], [1, 1]])},
               {"serving_default": {"i": np.array([[1, 5, 0], [3, 3, 2]], np.int32)},
                "int64": {"i": np.array([4, 0], np.int64)}},
               "ResourceGather from a variable with run-time and constant indices", track=Holder())
    import tf_keras  # Keras 2: its Embedding reads the variable with ResourceGather
    layer = tf_keras.layers.Embedding(7, 3)
    layer.build((None, 2))
    layer.set_weights([f32(r, [7, 3])])
    yield case("ResourceGather_keras_embedding", lambda i: layer(i),
               {"serving_default": {"i": np.array([[6, 0], [2, 2]], np.int32)}},
               "a tf_keras (Keras 2) Embedding layer", track=layer)
    yield case("ScatterNd", lambda i, u: tf.scatter_nd(i, u, [5, 3]),
               {"serving_default": {"i": np.array([[4], [1], [4], [0]], np.int32), "u": f32(r, [4, 3])},
                "int64": {"i": np.array([[2], [2], [2], [3]], np.int64), "u": f32(r, [4, 3])},
                "int32_updates": {"i": np.array([[0], [1], [0], [0]], np.int32), "u": ints(r, [4, 3], "int32")}},
               "ScatterNd of rows, duplicate indices summed in order")
    yield case("ScatterNd_elements", lambda i, u: tf.scatter_nd(i, u, [3, 4]),
               {"serving_default": {"i": np.array([[2, 3], [0, 1], [2, 3]], np.int32),
                                    "u": np.array([1.5, -2.0, 0.25], np.float32)},
                "int64_updates": {"i": np.array([[1, 1], [0, 0]], np.int32), "u": np.array([7, -9], np.int64)}},
               "ScatterNd of single elements")


def one_hot_cases():
    idx = np.array([0, 3, -1, 4, 2, 9], np.int32)
    yield case("OneHot", lambda i: {"a": tf.one_hot(i, 4, on_value=2.0, off_value=-1.0),
                                    "b": tf.one_hot(i, 3, axis=0), "c": tf.one_hot(i, 2, dtype=tf.int32)},
               {"serving_default": {"i": idx}, "int64": {"i": idx.astype(np.int64)}},
               "OneHot with on/off values, axis 0, int32 output; out-of-range indices give all-off rows")
    yield case("OneHot_axis1", lambda i: tf.one_hot(i, 3, axis=1, on_value=5, off_value=1),
               {"serving_default": {"i": np.array([[2, 0], [3, 1]], np.int64)}}, "OneHot of [2, 2] indices, axis 1")


def select_cases():
    r = rng_for("TopKV2")
    x = r.integers(0, 4, [3, 8]).astype(np.float32)
    yield case("TopKV2", lambda x: (lambda v: {"values": v.values, "indices": v.indices})(tf.math.top_k(x, 3)),
               {"serving_default": {"x": x}, "int32": {"x": x.astype(np.int32)},
                "int64": {"x": x.astype(np.int64)}, "random": {"x": f32(r, [2, 5])}},
               "TopKV2, k 3, sorted; ties go to the lower index")
    yield case("TopKV2_k_all", lambda x: (lambda v: {"values": v.values, "indices": v.indices})(tf.math.top_k(x, 6)),
               {"serving_default": {"x": np.array([1, -0.0, 0.0, 3, -7, 1], np.float32)}},
               "TopKV2 with k equal to the row length")
    yield case("MatrixBandPart", lambda x: {"a": tf.linalg.band_part(x, 1, 2), "b": tf.linalg.band_part(x, -1, 0),
                                            "c": tf.linalg.band_part(x, 0, -1)},
               typed("MatrixBandPart", [2, 4, 5]), "MatrixBandPart (1, 2), lower and upper triangles")
    yield case("InvertPermutation", lambda p: tf.math.invert_permutation(p),
               {"serving_default": {"p": np.array([3, 0, 5, 1, 4, 2], np.int32)},
                "int64": {"p": np.array([1, 2, 0], np.int64)}}, "InvertPermutation int32 and int64")
    yield case("ReverseSequence", lambda x, s: tf.reverse_sequence(x, s, seq_axis=1, batch_axis=0),
               {"serving_default": {"x": f32(r, [3, 5, 2]), "s": np.array([5, 0, 3], np.int32)},
                "int64": {"x": f32(r, [3, 5, 2]), "s": np.array([1, 4, 2], np.int64)}},
               "ReverseSequence, batch axis 0, sequence axis 1")
    yield case("ReverseSequence_batch_last", lambda x, s: tf.reverse_sequence(x, s, seq_axis=0, batch_axis=2),
               {"serving_default": {"x": ints(r, [4, 2, 3], "int32"), "s": np.array([4, 2, 3], np.int32)}},
               "ReverseSequence, sequence axis 0 before batch axis 2")


def space_cases():
    yield case("SpaceToDepth", lambda x: tf.nn.space_to_depth(x, 2), typed("SpaceToDepth", [2, 4, 6, 3]),
               "SpaceToDepth, block 2, NHWC")
    yield case("DepthToSpace", lambda x: tf.nn.depth_to_space(x, 2), typed("DepthToSpace", [1, 2, 3, 8]),
               "DepthToSpace, block 2, NHWC")
    yield case("SpaceToBatchND", lambda x: {"a": tf.space_to_batch_nd(x, [2, 3], [[0, 0], [1, 2]]),
                                            "b": tf.space_to_batch_nd(x, [2], [[1, 1]])},
               typed("SpaceToBatchND", [2, 4, 6, 3]), "SpaceToBatchND with 2-D and 1-D blocks and padding")
    yield case("BatchToSpaceND", lambda x: {"a": tf.batch_to_space(x, [2, 3], [[0, 1], [1, 1]]),
                                            "b": tf.batch_to_space(x, [3], [[0, 0]])},
               typed("BatchToSpaceND", [6, 2, 3, 2]), "BatchToSpaceND with 2-D and 1-D blocks and crops")


def passthrough_cases():
    def fn(x, y):
        a, b = tf.identity_n([x, y])
        return {"a": tf.identity(a), "b": tf.stop_gradient(b), "c": tf.raw_ops.Snapshot(input=x),
                "d": tf.ensure_shape(y, [2, 3]), "e": tf.raw_ops.PreventGradient(input=a)}
    yield case("Identity_passthrough", fn,
               {"serving_default": {"x": f32(rng_for("i1"), [3]), "y": f32(rng_for("i2"), [2, 3])},
                "int32": {"x": ints(rng_for("i3"), [3], "int32"), "y": ints(rng_for("i4"), [2, 3], "int32")}},
               "Identity, IdentityN, StopGradient, Snapshot, EnsureShape and PreventGradient pass through")


def cases():
    yield from existing_cases()
    yield from split_cases()
    yield from tile_pad_cases()
    yield from range_cases()
    yield from gather_cases()
    yield from one_hot_cases()
    yield from select_cases()
    yield from space_cases()
    yield from passthrough_cases()
