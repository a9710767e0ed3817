"""Conformance cases for the ops today's Keras models export that sm2c refused
(issue 33): Roll (Swin's shifted windows), XlaDynamicUpdateSlice
(keras.ops.slice_update on the TensorFlow backend), TensorScatterUpdate (also
in a greedy decoding loop), DenseBincount (CategoryEncoding multi_hot and
count) and RaggedTensorToTensor (a ragged tensor padded with to_tensor()).

Each op has a case of its edge cases, a <Op>_dtypes case with one signature
per dtype TensorFlow runs it on (probed here, so every one is TF-referenced)
and, where Keras exports it, a Keras model saved through model.export().
Every output is bit-exact (the ops move or count; DenseBincount's float
weights are summed in input order, as TensorFlow's CPU kernel does).
"""
import keras
from opcase import EXACT, np, rng_for, tf
from tensorflow.compiler.tf2xla.ops import gen_xla_ops

DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
          "uint16", "uint32", "uint64", "bool", "complex64", "string"]


def sample(name, dtype, shape):
    r = rng_for(name + "/" + dtype)
    if dtype == "bool":
        return r.integers(0, 2, shape).astype(bool)
    if dtype == "string":   # numpy bytes, some empty
        return np.array([b"s%d" % v if v % 5 else b"" for v in r.integers(0, 1000, shape).ravel()]).reshape(shape)
    if dtype in ("float32", "float64", "float16"):
        return r.uniform(-100, 100, shape).astype(dtype)
    if dtype == "bfloat16":
        return r.uniform(-100, 100, shape).astype(tf.bfloat16.as_numpy_dtype)
    if dtype == "complex64":
        return (r.uniform(-9, 9, shape) + 1j * r.uniform(-9, 9, shape)).astype(np.complex64)
    info = np.iinfo(dtype)
    return r.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def has_kernel(fn, feed):
    try:
        tf.function(fn)(**{k: tf.constant(v) for k, v in feed.items()})
        return True
    except (tf.errors.OpError, TypeError, ValueError):
        return False


def dtype_case(name, fn, feed_of, desc):
    """One signature per dtype (serving_default: float32) TensorFlow runs fn on."""
    feeds = {}
    for dt in DTYPES:
        feed = feed_of(dt)
        if has_kernel(fn, feed):
            feeds["serving_default" if dt == "float32" else dt] = feed
    return (name, fn, feeds, EXACT, desc + ": " + ", ".join(DTYPES[i] for i in range(len(DTYPES))
                                                           if (DTYPES[i] == "float32" or DTYPES[i] in feeds)))


def keras_export(name, inputs, body, feeds, desc):
    """A functional Keras 3 model over inputs [(key, shape, dtype)] saved by model.export()."""
    def export(mdir):
        keras.utils.set_random_seed(int(rng_for(name).integers(1 << 30)))
        ins = [keras.Input(shape=s, name=k, dtype=d) for k, s, d in inputs]
        model = keras.Model(ins if len(ins) > 1 else ins[0], body(*ins))
        model.export(mdir, verbose=False)
    return (name, None, feeds, EXACT, desc, {"export": export})


# ---- Roll ---------------------------------------------------------------------------------

def roll_cases():
    def edge(x):
        return {"neg": tf.roll(x, -1, 0),
                "multi": tf.roll(x, [1, -2], [0, 2]),
                "large": tf.roll(x, [7, -9], [1, -1]),
                "same_axis": tf.roll(x, [1, 2], [1, 1]),
                "all": tf.roll(x, [2, 1, -1], [0, 1, 2]),
                "zero": tf.roll(x, [3, 4], [0, 1]),
                "i64": tf.roll(x, tf.constant([1, -5], tf.int64), tf.constant([0, -1], tf.int64)),
                "i64_shift": tf.roll(x, tf.constant(5, tf.int64), 1)}
    feeds = {"serving_default": {"x": sample("Roll", "float32", [3, 4, 2])},
             "int32": {"x": sample("Roll", "int32", [3, 4, 2])},
             "int64": {"x": sample("Roll", "int64", [3, 4, 2])}}
    yield ("Roll", edge, feeds, EXACT,
           "Roll with negative, multi-axis, larger-than-dim, repeated-axis and zero shifts; int64 shift and axis")
    yield dtype_case("Roll_dtypes", lambda x: tf.roll(x, [1, -3], [0, 1]),
                     lambda dt: {"x": sample("Roll_dtypes", dt, [3, 4])}, "Roll [1, -3] on every dtype")

    def swin(x):   # Swin's cyclic shift of the feature map and its reverse
        s = keras.ops.roll(x, shift=(-1, -1), axis=(1, 2))
        return {"shifted": s, "back": keras.ops.roll(s * 2.0, shift=(1, 1), axis=(1, 2))}
    yield keras_export("Roll_keras", [("x", (4, 4, 2), "float32")], lambda x: swin(x),
                       {"serving_default": {"x": sample("Roll_keras", "float32", [2, 4, 4, 2])}},
                       "keras.ops.roll in a Keras model (Swin's shifted windows), model.export()")


# ---- XlaDynamicUpdateSlice ----------------------------------------------------------------

def update_slice_cases():
    def edge(x, u, s):
        return {"y": gen_xla_ops.xla_dynamic_update_slice(x, u, s),
                "row": gen_xla_ops.xla_dynamic_update_slice(x, u[:1], s),
                "const": keras.ops.slice_update(x, (1, 2), u)}
    x = sample("XlaDynamicUpdateSlice", "float32", [4, 5])
    u = sample("XlaDynamicUpdateSlice/u", "float32", [2, 3])
    feeds = {"serving_default": {"x": x, "u": u, "s": np.array([1, 2], np.int32)},
             "clamp_high": {"x": x, "u": u, "s": np.array([3, 9], np.int32)},
             "clamp_low": {"x": x, "u": u, "s": np.array([-2, -7], np.int32)},
             "clamp_mixed": {"x": x, "u": u, "s": np.array([-1, 4], np.int32)},
             "int64": {"x": x, "u": u, "s": np.array([2, 1], np.int64)},
             "int64_clamp": {"x": x, "u": u, "s": np.array([1 << 40, -(1 << 40)], np.int64)}}
    yield ("XlaDynamicUpdateSlice", edge, feeds, EXACT,
           "XlaDynamicUpdateSlice at run-time starts, in range and clamped (XLA: each start into "
           "[0, dim - update dim]), int32 and int64; keras.ops.slice_update at constant starts")
    yield dtype_case("XlaDynamicUpdateSlice_dtypes",
                     lambda x, u: gen_xla_ops.xla_dynamic_update_slice(x, u, tf.constant([1, 0])),
                     lambda dt: {"x": sample("XlaDynamicUpdateSlice_dtypes", dt, [3, 4]),
                                 "u": sample("XlaDynamicUpdateSlice_dtypes/u", dt, [2, 3])},
                     "XlaDynamicUpdateSlice of a [2, 3] box at [1, 0] on every dtype")

    def decode(table, start):
        """A decoding loop that appends each step's token with
        keras.ops.slice_update at the loop counter (a KV cache's write)."""
        steps = 5
        seq = keras.ops.slice_update(tf.zeros([2, steps], tf.int32), (0, 0), start[:, None])

        def body(t, prev, seq):
            nxt = tf.argmax(tf.gather(table, prev), axis=-1, output_type=tf.int32)
            return t + 1, nxt, keras.ops.slice_update(seq, (tf.constant(0), t), nxt[:, None])
        _, _, seq = tf.while_loop(lambda t, p, s: t < steps, body, [tf.constant(1), start, seq])
        return {"tokens": seq}
    yield ("XlaDynamicUpdateSlice_loop", decode,
           {"serving_default": {"table": sample("XlaDynamicUpdateSlice_loop", "float32", [5, 5]),
                                "start": np.array([4, 1], np.int32)}}, EXACT,
           "keras.ops.slice_update at the counter of a while loop: decoding that appends each token")

    class CacheWrite(keras.layers.Layer):   # a KV cache's write of one step's row at position t
        def call(self, k, t):
            return keras.ops.slice_update(k, (0, t[0, 0], 0), keras.ops.ones((1, 1, 3)) * 2.0)
    yield keras_export("XlaDynamicUpdateSlice_keras", [("k", (4, 3), "float32"), ("t", (1,), "int32")],
                       lambda k, t: CacheWrite()(k, t), {"serving_default": {"k": sample("XlaDynamicUpdateSlice_keras", "float32", [1, 4, 3]),
                                                   "t": np.array([[2]], np.int32)}},
                       "keras.ops.slice_update at a run-time position in a Keras model, model.export()")


# ---- TensorScatterUpdate ------------------------------------------------------------------

def scatter_update_cases():
    def edge(x, i, j, u, v):
        return {"rows": tf.tensor_scatter_nd_update(x, i, u),
                "elements": tf.tensor_scatter_nd_update(x, j, v)}
    x = sample("TensorScatterUpdate", "float32", [4, 3])
    feeds = {"serving_default": {"x": x, "i": np.array([[3], [0]], np.int32),
                                 "u": sample("TensorScatterUpdate/u", "float32", [2, 3]),
                                 "j": np.array([[1, 2], [0, 0], [3, 1]], np.int32),
                                 "v": np.array([1.5, -2.0, 0.25], np.float32)},
             "int64": {"x": x, "i": np.array([[1], [2]], np.int64),
                       "u": sample("TensorScatterUpdate/u64", "float32", [2, 3]),
                       "j": np.array([[3, 2], [2, 0], [0, 1]], np.int64),
                       "v": np.array([7.0, 8.0, 9.0], np.float32)}}
    yield ("TensorScatterUpdate", edge, feeds, EXACT,
           "TensorScatterUpdate of rows and of single elements, int32 and int64 indices")
    yield dtype_case("TensorScatterUpdate_dtypes",
                     lambda x, u: tf.tensor_scatter_nd_update(x, [[2], [0]], u),
                     lambda dt: {"x": sample("TensorScatterUpdate_dtypes", dt, [3, 4]),
                                 "u": sample("TensorScatterUpdate_dtypes/u", dt, [2, 4])},
                     "TensorScatterUpdate of rows 2 and 0 on every dtype")

    def greedy(table, start):
        """Greedy decoding over a bigram table [V, V]: token t+1 is the argmax of
        table[token t], written into the sequence with tensor_scatter_nd_update."""
        b, steps = 2, 6
        seq = tf.zeros([b, steps], tf.int32)
        seq = tf.tensor_scatter_nd_update(seq, tf.stack([tf.range(b), tf.zeros([b], tf.int32)], 1), start)

        def body(t, prev, seq):
            nxt = tf.argmax(tf.gather(table, prev), axis=-1, output_type=tf.int32)
            seq = tf.tensor_scatter_nd_update(seq, tf.stack([tf.range(b), tf.fill([b], t)], 1), nxt)
            return t + 1, nxt, seq
        _, _, seq = tf.while_loop(lambda t, p, s: t < steps, body, [tf.constant(1), start, seq])
        return {"tokens": seq}
    yield ("TensorScatterUpdate_loop", greedy,
           {"serving_default": {"table": sample("TensorScatterUpdate_loop", "float32", [5, 5]),
                                "start": np.array([3, 0], np.int32)}}, EXACT,
           "TensorScatterUpdate in a while-loop body: greedy decoding writing each next token")


# ---- DenseBincount ------------------------------------------------------------------------

def bincount_cases():
    def edge(x, w, x2, w2):
        empty = tf.zeros([0], w.dtype)
        return {"count": tf.raw_ops.DenseBincount(input=x, size=5, weights=empty),
                "binary": tf.raw_ops.DenseBincount(input=x, size=5, weights=empty, binary_output=True),
                "weighted": tf.raw_ops.DenseBincount(input=x, size=5, weights=w),
                "rows": tf.raw_ops.DenseBincount(input=x2, size=4, weights=tf.zeros([0], w.dtype)),
                "rows_binary": tf.raw_ops.DenseBincount(input=x2, size=4, weights=empty, binary_output=True),
                "rows_weighted": tf.raw_ops.DenseBincount(input=x2, size=4, weights=w2),
                "zero_size": tf.raw_ops.DenseBincount(input=x, size=0, weights=empty)}
    x = np.array([1, 4, 1, 7, 0, 1, 5, 3], np.int32)     # 7 and 5 are >= size: dropped
    x2 = np.array([[0, 3, 3, 9], [2, 2, 4, 1]], np.int32)
    r = rng_for("DenseBincount")
    feeds = {}
    for sig, ix, wt in (("serving_default", np.int32, np.float32), ("int64", np.int64, np.float32),
                        ("float64", np.int32, np.float64), ("int32_weights", np.int32, np.int32),
                        ("int64_weights", np.int64, np.int64)):
        w = r.uniform(-4, 4, x.shape) if wt in (np.float32, np.float64) else r.integers(-9, 9, x.shape)
        w2 = r.uniform(-4, 4, x2.shape) if wt in (np.float32, np.float64) else r.integers(-9, 9, x2.shape)
        feeds[sig] = {"x": x.astype(ix), "w": w.astype(wt), "x2": x2.astype(ix), "w2": w2.astype(wt)}
    yield ("DenseBincount", edge, feeds, EXACT,
           "DenseBincount counts, binary and weighted, 1-D and 2-D, values >= size dropped, size 0; "
           "int32/int64 values, float32/float64/int32/int64 bins")

    def encode(x, w):
        return {"multi_hot": keras.layers.CategoryEncoding(num_tokens=6, output_mode="multi_hot")(x),
                "count": keras.layers.CategoryEncoding(num_tokens=6, output_mode="count")(x),
                "weighted": keras.layers.CategoryEncoding(num_tokens=6, output_mode="count")(x, count_weights=w)}
    yield keras_export("DenseBincount_keras", [("x", (3,), "int32"), ("w", (3,), "float32")],
                       lambda x, w: encode(x, w),
                       {"serving_default": {"x": np.array([[1, 5, 1], [0, 2, 4]], np.int32),
                                            "w": np.array([[0.5, 2.0, -1.0], [3.0, 0.25, 1.0]], np.float32)}},
                       "Keras CategoryEncoding multi_hot, count and weighted count, model.export()")


# ---- RaggedTensorToTensor -----------------------------------------------------------------

def ragged_cases():
    def edge(v, s, ids, m):
        rs = tf.RaggedTensor.from_row_splits(v, s, validate=False)
        rr = tf.RaggedTensor.from_value_rowids(v, ids, nrows=4, validate=False)
        rm = tf.RaggedTensor.from_row_splits(m, s, validate=False)
        return {"splits_pad": rs.to_tensor(default_value=-1, shape=[4, 3]),
                "splits_cut": rs.to_tensor(shape=[2, 2]),
                "splits_wide": rs.to_tensor(default_value=9, shape=[5, 5]),
                "rowids_pad": rr.to_tensor(default_value=-2, shape=[4, 3]),
                "rowids_cut": rr.to_tensor(shape=[3, 1]),
                "inner": rm.to_tensor(default_value=7, shape=[3, 2, 2])}
    r = rng_for("RaggedTensorToTensor")
    feeds = {}
    for sig, vt, it in (("serving_default", np.float32, np.int64), ("int32", np.int32, np.int32),
                        ("int64", np.int64, np.int64)):
        feeds[sig] = {"v": r.integers(-50, 50, [6]).astype(vt), "s": np.array([0, 3, 3, 6], it),
                      "ids": np.array([0, 0, 2, 2, 2, 3], it), "m": r.integers(-50, 50, [6, 2]).astype(vt)}
    feeds["uneven"] = dict(feeds["serving_default"], s=np.array([0, 1, 5, 6], np.int64),
                           ids=np.array([1, 1, 1, 1, 3, 3], np.int64))
    feeds["short_splits"] = dict(feeds["serving_default"], s=np.array([0, 2, 2, 4], np.int64))
    feeds["empty_rows"] = dict(feeds["serving_default"], s=np.array([0, 0, 0, 0], np.int64),
                               ids=np.array([3, 3, 3, 3, 3, 3], np.int64))
    yield ("RaggedTensorToTensor", edge, feeds, EXACT,
           "RaggedTensorToTensor from ROW_SPLITS and FIRST_DIM_SIZE + VALUE_ROWIDS, with defaults, shapes "
           "smaller and larger than the rows, an inner dim; splits that use fewer values than given")
    # (Splits past the last value are left out: TensorFlow 2.21's kernel reads past the values there.)

    def checked(v, s, l):
        return {"splits": tf.RaggedTensor.from_row_splits(v, s).to_tensor(shape=[3, 4]),
                "lengths": tf.RaggedTensor.from_row_lengths(v, l).to_tensor(default_value=-1.0),
                "const": tf.RaggedTensor.from_row_lengths(v, [1, 4, 0, 1]).to_tensor()}
    yield ("RaggedTensorToTensor_validated", checked,
           {"serving_default": {"v": np.arange(6, dtype=np.float32) - 2.5, "s": np.array([0, 4, 4, 6], np.int64),
                                "l": np.array([2, 0, 4], np.int64)}}, EXACT,
           "RaggedTensor.from_row_splits/from_row_lengths with their validation (asserts) and to_tensor(): "
           "a given shape, no shape over run-time lengths, no shape over constant lengths")
    def pad_audio(short, long):
        """Whisper's audio converter: a batch of clips through a ragged tensor,
        padded or cut to a fixed number of samples by to_tensor(shape)."""
        return {"padded": tf.RaggedTensor.from_tensor(short).to_tensor(shape=[None, 8]),
                "cut": tf.RaggedTensor.from_tensor(long).to_tensor(shape=[None, 8])}
    yield ("RaggedTensorToTensor_pad_audio", pad_audio,
           {"serving_default": {"short": sample("RaggedTensorToTensor_pad_audio", "float32", [2, 5]),
                                "long": sample("RaggedTensorToTensor_pad_audio/l", "float32", [2, 11])}}, EXACT,
           "RaggedTensor.from_tensor(x).to_tensor(shape=[None, 8]) as Whisper's audio converter pads and cuts")
    yield dtype_case("RaggedTensorToTensor_dtypes",
                     lambda v: tf.RaggedTensor.from_row_lengths(v, [2, 0, 3], validate=False).to_tensor(shape=[3, 3]),
                     lambda dt: {"v": sample("RaggedTensorToTensor_dtypes", dt, [5])},
                     "RaggedTensorToTensor of rows [2, 0, 3] on every dtype")


# ---- all five on constants: folded at compile time through the kernels ------------------

def folded_cases():
    def folded(x):
        c = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4])
        bins = tf.raw_ops.DenseBincount(input=tf.constant([[1, 3, 3], [0, 9, 2], [2, 2, 2]]), size=4,
                                        weights=tf.constant([[0.5, 1.0, 2.0], [1.0, 1.0, 1.0], [3.0, 3.0, 3.0]]))
        rag = tf.RaggedTensor.from_row_splits(tf.range(6, dtype=tf.float32), [0, 1, 1, 6],
                                              validate=False).to_tensor(default_value=-1.0, shape=[3, 4])
        return {"roll": x + tf.roll(c, [1, -1], [0, 1]),
                "scatter": x + tf.tensor_scatter_nd_update(c, [[2, 1], [0, 3]], [-5.0, -6.0]),
                "update": x + gen_xla_ops.xla_dynamic_update_slice(c, -c[:2, :2], tf.constant([2, 3])),
                "bins": x + bins, "ragged": x + rag}
    yield ("Roll_folded", folded,
           {"serving_default": {"x": sample("Roll_folded", "float32", [3, 4])}}, EXACT,
           "Roll, TensorScatterUpdate, XlaDynamicUpdateSlice, DenseBincount and RaggedTensorToTensor of "
           "constants, folded at compile time through their kernels")


def cases():
    for group in (roll_cases, update_slice_cases, scatter_update_cases, bincount_cases, ragged_cases,
                  folded_cases):
        yield from group()
