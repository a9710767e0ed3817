"""Conformance cases for tf.Example parsing (issue 17): ParseExampleV2 (what
tf.io.parse_example makes) and ParseExample (the v1 op TF1 serving exports
hold) with dense float32 and int64 features, fixed shapes, defaults and
required features, feeding a small computation; and sparse features
(tf.io.VarLenFeature: indices, values and dense_shape of a data-dependent
size) as outputs and through SparseToDense, OneHot and Sum (the indicator
column of an Estimator's input layer).  The input is a batch of
serialized tf.Example protos, saved as a numpy 'S' array; the protos mix
packed and unpacked lists, missing optional features, features the parser
does not ask for, and a repeated key (the last one wins).  No proto ends in a
NUL byte ('S' arrays drop trailing NULs).
"""
from opcase import EXACT, np, rng_for, tf


def _feature(v):
    if isinstance(v, tuple) and v[0] == "unpacked":
        v = v[1]
    if isinstance(v, bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[v]))
    if all(isinstance(x, float) for x in v):
        return tf.train.Feature(float_list=tf.train.FloatList(value=v))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=v))


def example(**feats):
    ex = tf.train.Example(features=tf.train.Features(
        feature={k: _feature(v) for k, v in feats.items()}))
    data = ex.SerializeToString(deterministic=True)
    assert not data.endswith(b"\0"), feats
    return data


def _unpacked(data):
    """The same Example with its float and int64 lists unpacked (proto2-style
    repeated fields), which parsers must read too."""
    ex = tf.train.Example.FromString(data)
    out = b""

    def varint(v):
        o = b""
        while True:
            b, v = v & 0x7F, v >> 7
            if v:
                o += bytes([b | 0x80])
            else:
                return o + bytes([b])

    def ld(f, p):
        return varint(f << 3 | 2) + varint(len(p)) + p

    for key in sorted(ex.features.feature):
        f = ex.features.feature[key]
        kind = f.WhichOneof("kind")
        if kind == "float_list":
            body = b"".join(b"\x0d" + np.float32(v).tobytes() for v in f.float_list.value)
            feat = ld(2, body)
        elif kind == "int64_list":
            body = b"".join(b"\x08" + varint(v & (2 ** 64 - 1)) for v in f.int64_list.value)
            feat = ld(3, body)
        else:
            feat = f.SerializeToString()
        out += ld(1, ld(1, key.encode()) + ld(2, feat))
    data = ld(1, out)
    assert not data.endswith(b"\0")
    return data


def batch(rng):
    """Four Examples: all features; optional ones missing plus an unused
    feature; unpacked lists; a repeated key whose last value wins."""
    def f(n):
        return [float(v) for v in (np.round(rng.uniform(-4, 4, n) * 8) / 8 + 0.0625)]

    def i(n):
        return [int(v) for v in rng.integers(1, 50, n)]
    exs = [example(x=f(2), r=i(1), w=f(1), k=i(3)),
           example(x=f(2), other=f(5), tag=b"unused"),
           _unpacked(example(x=f(2), r=i(1), w=f(1), k=i(3))),
           ]
    # a repeated key: two map entries for "x" (the serializer writes one; we append)
    last = example(x=f(2), r=i(1))
    extra = example(x=f(2))
    # Example{features{...}} + Example{features{x}}: two features fields merge, x's last entry wins
    exs.append(last + extra)
    return np.array(exs, dtype="S")


def dense_fn_v2(ex):
    feats = tf.io.parse_example(ex, {
        "x": tf.io.FixedLenFeature([2], tf.float32),                      # required
        "r": tf.io.FixedLenFeature([], tf.int64, default_value=7),
        "w": tf.io.FixedLenFeature([1], tf.float32, default_value=[0.5]),
        "k": tf.io.FixedLenFeature([3], tf.int64, default_value=[1, 2, 3]),
    })
    y = feats["x"] * feats["w"] + tf.cast(feats["r"], tf.float32)[:, None]
    return {"y": y, "k": feats["k"] * 2, "r": feats["r"]}


def dense_fn_v1(ex):
    out = tf.raw_ops.ParseExample(
        serialized=ex, names=tf.constant([], tf.string), sparse_keys=[],
        dense_keys=[tf.constant("k"), tf.constant("r"), tf.constant("w"), tf.constant("x")],
        dense_defaults=[tf.constant([1, 2, 3], tf.int64), tf.constant([7], tf.int64),
                        tf.constant([0.5], tf.float32), tf.constant([], tf.float32)],
        sparse_types=[], dense_shapes=[[3], [1], [1], [2]])
    k, r, w, x = out.dense_values
    return {"y": x * w + tf.cast(r, tf.float32), "k": k, "r": r}


def sparse_batch(rng):
    """Five Examples for sparse features s (float) and t (int64) beside a
    dense one: several values, none (the feature missing), an empty Feature
    (no kind: no values), unpacked lists, a repeated key (the last wins)."""
    def f(n):
        return [float(v) for v in (np.round(rng.uniform(-4, 4, n) * 8) / 8 + 0.0625)]

    def i(n):
        return [int(v) for v in rng.integers(0, 6, n)]
    empty = tf.train.Example(features=tf.train.Features(feature={
        "t": tf.train.Feature(), "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5]))}))
    exs = [example(x=f(1), s=f(3), t=i(2)),
           example(x=f(1)),
           _unpacked(example(x=f(1), s=f(1), t=i(4))),
           empty.SerializeToString(deterministic=True) + example(s=f(2)),
           example(x=f(1), t=i(3)) + example(t=i(1))]
    assert not any(e.endswith(b"\0") for e in exs)
    return np.array(exs, dtype="S")


def _indicator(t, depth):
    """An Estimator's indicator column: the ids to dense (-1 where none), one
    hot, summed over each example's ids."""
    dense = tf.sparse.to_dense(t, default_value=-1)
    return tf.reduce_sum(tf.one_hot(dense, depth), axis=1)


def sparse_fn_v2(ex):
    feats = tf.io.parse_example(ex, {
        "x": tf.io.FixedLenFeature([1], tf.float32, default_value=[0.25]),
        "s": tf.io.VarLenFeature(tf.float32),
        "t": tf.io.VarLenFeature(tf.int64),
    })
    s, t = feats["s"], feats["t"]
    return {"s_indices": s.indices, "s_values": s.values, "s_shape": s.dense_shape,
            "t_indices": t.indices, "t_values": t.values * 3, "t_shape": t.dense_shape,
            "t_dense": tf.sparse.to_dense(t, default_value=-1),
            "y": tf.concat([feats["x"], _indicator(t, 6)], axis=1)}


def sparse_fn_v1(ex):
    out = tf.raw_ops.ParseExample(
        serialized=ex, names=tf.constant([], tf.string),
        sparse_keys=[tf.constant("s"), tf.constant("t")],
        dense_keys=[tf.constant("x")], dense_defaults=[tf.constant([0.25], tf.float32)],
        sparse_types=[tf.float32, tf.int64], dense_shapes=[[1]])
    (si, ti), (sv, tv), (ss, ts) = out.sparse_indices, out.sparse_values, out.sparse_shapes
    t = tf.sparse.SparseTensor(ti, tv, ts)
    y = tf.concat([out.dense_values[0], _indicator(t, 6)], axis=1)
    return {"s_indices": si, "s_values": sv, "s_shape": ss, "t_values": tv, "t_shape": ts, "y": y}


def fill_in_missing_batch():
    """Four Examples with at most one value of f (float) and t (int64) each,
    as tf.Transform's _fill_in_missing expects (the taxi pipeline)."""
    return np.array([example(f=[1.5], t=[4]), example(u=[1]), example(t=[7]), example(f=[-2.0])], dtype="S")


def fill_in_missing_fn(ex):
    """tf.Transform's _fill_in_missing: a sparse feature of at most one value
    per example to dense [batch, 1] with a default, squeezed to [batch]."""
    feats = tf.io.parse_example(ex, {"f": tf.io.VarLenFeature(tf.float32), "t": tf.io.VarLenFeature(tf.int64)})

    def fill(x, default):
        dense = tf.sparse.to_dense(tf.SparseTensor(x.indices, x.values, [x.dense_shape[0], 1]), default)
        return tf.squeeze(dense, axis=1)
    return {"f": fill(feats["f"], 0.5), "t": fill(feats["t"], -1)}


def string_sparse_batch():
    """Five Examples for a string sparse feature: several values (one empty
    string, one with a NUL inside), none, one, an unused float feature."""
    exs = [example(w=b"taxi", f=[1.0]) + example(w=b"cash"),
           _bytes_example([b"a", b"", b"Credit Card", b"x\0y"]),
           example(f=[2.0]),
           _bytes_example([b"Flash Cab"]),
           _bytes_example([b"cash", b"cash"])]
    assert not any(e.endswith(b"\0") for e in exs)
    return np.array(exs, dtype="S")


def _bytes_example(values):
    return tf.train.Example(features=tf.train.Features(feature={
        "w": tf.train.Feature(bytes_list=tf.train.BytesList(value=values))})).SerializeToString(deterministic=True)


def string_sparse_fn(ex):
    """A string VarLenFeature (the taxi model's company and payment_type),
    its values hashed into buckets as a categorical column does."""
    w = tf.io.parse_example(ex, {"w": tf.io.VarLenFeature(tf.string)})["w"]
    return {"indices": w.indices, "shape": w.dense_shape,
            "buckets": tf.strings.to_hash_bucket_fast(w.values, 1000)}


def export_open_batch(mdir):
    """dense_fn_v2 with an unknown batch ([None]), for --max-batch (tests/cli/parse_example.sh)."""
    m = tf.Module()
    m.f = tf.function(dense_fn_v2, input_signature=[tf.TensorSpec([None], tf.string, name="ex")])
    tf.saved_model.save(m, mdir, signatures={"serving_default": m.f})


def cases():
    for name, fn in (("ParseExampleV2_dense", dense_fn_v2), ("ParseExample_dense", dense_fn_v1)):
        rng = rng_for(name)
        feeds = {"serving_default": {"ex": batch(rng)}}
        yield (name, fn, feeds, EXACT,
               "%s: dense float32 and int64 features (fixed shapes, defaults, a required "
               "one) of four serialized tf.Examples (packed and unpacked lists, missing and "
               "unused features, a repeated key), into a small computation" % name.split("_")[0])
    for name, fn in (("ParseExampleV2_sparse", sparse_fn_v2), ("ParseExample_sparse", sparse_fn_v1)):
        feeds = {"serving_default": {"ex": sparse_batch(rng_for(name))}}
        yield (name, fn, feeds, EXACT,
               "%s: sparse float32 and int64 features (tf.io.VarLenFeature) of five serialized "
               "tf.Examples (several values, none, an empty Feature, unpacked lists, a repeated key) "
               "as outputs of a data-dependent size, and through SparseToDense, OneHot and Sum "
               "(an indicator column)" % name.split("_")[0])
    yield ("ParseExampleV2_fill_in_missing", fill_in_missing_fn,
           {"serving_default": {"ex": fill_in_missing_batch()}}, EXACT,
           "tf.Transform's _fill_in_missing: sparse float32 and int64 features of at most one value per "
           "example to dense [batch, 1] (dense_shape[0] is the batch, known exactly), squeezed to [batch]")
    yield ("ParseExampleV2_sparse_string", string_sparse_fn,
           {"serving_default": {"ex": string_sparse_batch()}}, EXACT,
           "a string sparse feature (tf.io.VarLenFeature(tf.string)) of five serialized tf.Examples (a "
           "repeated key, an empty string and one with a NUL, a missing feature): indices, dense_shape and "
           "the values through StringToHashBucketFast")
    name = "ParseExampleV2_open_batch"
    yield (name, None, {"serving_default": {"ex": batch(rng_for(name))}}, EXACT,
           "ParseExampleV2 with an unknown batch ([None] serialized Examples), as TF Serving "
           "exports: compiled at 4 rows, and with --max-batch by tests/cli/parse_example.sh",
           {"export": export_open_batch})
