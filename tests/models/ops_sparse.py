"""Conformance cases for the sparse-tensor ops of feature columns and
embedding lookups (issue 17): SparseReshape, SparseFillEmptyRows and
SparseSegmentSum/Mean/SqrtN, fed static index rows and index rows with a
data-dependent count (Where's), including the linear-model chain
SparseFillEmptyRows -> [:, 0] -> SparseSegmentSum whose row count is the
dense shape's.
"""
from opcase import EXACT, contraction, np, rng_for, tf

raw = tf.raw_ops


def sparse_reshape_cases():
    def fn(idx):
        r = raw.SparseReshape(input_indices=idx, input_shape=tf.constant([2, 3, 4], tf.int64),
                              new_shape=tf.constant([6, -1], tf.int64))
        return {"indices": r.output_indices, "shape": r.output_shape}

    def fn_2d(idx):
        r = raw.SparseReshape(input_indices=idx, input_shape=tf.constant([4, 6], tf.int64),
                              new_shape=tf.constant([2, -1, 3], tf.int64))
        return {"indices": r.output_indices, "shape": r.output_shape}
    feeds = {
        "serving_default": {"idx": np.array([[0, 0, 0], [0, 2, 3], [1, 0, 1], [1, 2, 3]], np.int64)},
        "to_rank3": {"idx": np.array([[0, 5], [1, 2], [3, 0], [3, 5], [2, 4]], np.int64)},
    }
    yield ("SparseReshape", fn, feeds, EXACT,
           "SparseReshape of constant shapes with a -1 to resolve: rank 3 to 2 and rank 2 to 3 (out of order "
           "index rows keep their order)", {"fns": {"to_rank3": fn_2d}})

    def where_fn(x):
        idx = tf.where(x > 0.5)
        r = raw.SparseReshape(input_indices=idx, input_shape=tf.constant([3, 4], tf.int64),
                              new_shape=tf.constant([-1, 2], tf.int64))
        return {"indices": r.output_indices, "shape": r.output_shape}
    r = rng_for("SparseReshape_where")
    feeds_w = {"serving_default": {"x": r.uniform(-1, 2, [3, 4]).astype(np.float32)},
               "none": {"x": np.zeros([3, 4], np.float32)},
               "all": {"x": r.uniform(1, 2, [3, 4]).astype(np.float32)}}
    yield ("SparseReshape_where", where_fn, feeds_w, EXACT,
           "SparseReshape of Where's index rows (a data-dependent count): some, none and all kept")


def fill_empty_rows_cases():
    def fn(idx, values, default):
        r = raw.SparseFillEmptyRows(indices=idx, values=values, dense_shape=tf.constant([5, 3], tf.int64),
                                    default_value=default)
        return {"indices": r.output_indices, "values": r.output_values, "empty": r.empty_row_indicator,
                "reverse": r.reverse_index_map}
    feeds = {
        "serving_default": {"idx": np.array([[0, 1], [0, 2], [2, 0], [4, 1]], np.int64),
                            "values": np.array([1.5, -2, 3, 4], np.float32), "default": np.float32(-1)},
        "unordered": {"idx": np.array([[3, 2], [1, 0], [3, 0], [1, 1], [0, 2]], np.int64),
                      "values": np.array([1, 2, 3, 4, 5], np.int64), "default": np.int64(7)},
        "full": {"idx": np.array([[0, 0], [1, 2], [2, 1], [3, 0], [4, 0]], np.int64),
                 "values": np.array([9, 8, 7, 6, 5], np.int32), "default": np.int32(0)},
    }
    yield ("SparseFillEmptyRows", fn, feeds, EXACT,
           "SparseFillEmptyRows into 5 rows: float32 with empty rows, int64 with rows out of order (grouped by "
           "row, stable), int32 with every row full")

    def where_fn(x):
        idx = tf.where(x > 0.5)
        r = raw.SparseFillEmptyRows(indices=idx, values=tf.gather_nd(x, idx),
                                    dense_shape=tf.constant([4, 3], tf.int64), default_value=tf.constant(-1.0))
        return {"indices": r.output_indices, "values": r.output_values, "empty": r.empty_row_indicator,
                "reverse": r.reverse_index_map}
    r = rng_for("SparseFillEmptyRows_where")
    x = r.uniform(-1, 2, [4, 3]).astype(np.float32)
    x[1] = 0.0
    feeds_w = {"serving_default": {"x": x},
               "none": {"x": np.zeros([4, 3], np.float32)},
               "all": {"x": r.uniform(1, 2, [4, 3]).astype(np.float32)}}
    yield ("SparseFillEmptyRows_where", where_fn, feeds_w, EXACT,
           "SparseFillEmptyRows of Where's entries (a data-dependent count): some rows empty, all empty, none")


def segment_cases():
    def make(op):
        def fn(data, idx):
            return op(data=data, indices=idx, segment_ids=tf.constant([0, 0, 1, 3, 3, 3], tf.int64))
        return fn

    def dyn_ids(data, idx, ids):
        return raw.SparseSegmentSum(data=data, indices=idx, segment_ids=ids)
    r = rng_for("SparseSegment")
    data = r.uniform(-2, 2, [5, 3]).astype(np.float32)
    idx = np.array([4, 0, 2, 2, 1, 3], np.int32)
    base = {"data": data, "idx": idx}
    feeds = {"serving_default": base, "mean": base, "sqrtn": base,
             "i64": {"data": data, "idx": idx.astype(np.int64)},
             "ids": {"data": data, "idx": idx, "ids": np.array([0, 1, 1, 2, 4, 4], np.int32)}}
    fns = {"mean": make(raw.SparseSegmentMean), "sqrtn": make(raw.SparseSegmentSqrtN), "ids": dyn_ids}
    yield ("SparseSegmentSum", make(raw.SparseSegmentSum), feeds, contraction(3),
           "SparseSegmentSum, Mean and SqrtN with constant sorted ids (segment 2 empty), int32 and int64 "
           "indices, and run-time ids (a result of last id + 1 rows within the bound)", {"fns": fns})

    w = r.uniform(-1, 1, [6, 2]).astype(np.float32)

    def linear(x):
        idx = tf.where(x >= 0)
        vals = tf.gather_nd(x, idx)
        f = raw.SparseFillEmptyRows(indices=idx, values=vals, dense_shape=tf.constant([4, 3], tf.int64),
                                    default_value=tf.constant(0, tf.int64))
        ids = f.output_indices[:, 0]
        s = raw.SparseSegmentSum(data=tf.constant(w), indices=f.output_values, segment_ids=ids)
        return {"y": s, "mean": raw.SparseSegmentMean(data=tf.constant(w), indices=f.output_values,
                                                      segment_ids=ids)}
    xi = np.array([[1, -1, 5], [-1, -1, -1], [0, 3, 3], [2, -1, -1]], np.int64)
    feeds_l = {"serving_default": {"x": xi}, "empty": {"x": np.full([4, 3], -1, np.int64)},
               "full": {"x": np.array([[1, 2, 3], [4, 5, 0], [0, 0, 0], [5, 4, 3]], np.int64)}}
    yield ("SparseSegmentSum_filled", linear, feeds_l, contraction(3),
           "the linear-model chain: Where, SparseFillEmptyRows, its indices' column 0 as the ids of "
           "SparseSegmentSum/Mean (a static result of dense_shape[0] rows): some, all and no rows empty")


def embedding_cases():
    r = rng_for("SparseEmbedding")
    emb = tf.Variable(r.uniform(-1, 1, [7, 2]).astype(np.float32))

    def lookup(x, combiner):
        idx = tf.where(tf.not_equal(x, -1))
        sp = tf.SparseTensor(idx, tf.gather_nd(x, idx), tf.shape(x, out_type=tf.int64))
        return tf.nn.safe_embedding_lookup_sparse(emb, sp, combiner=combiner)

    def fn(x):
        return {"sum": lookup(x, "sum"), "mean": lookup(x, "mean"), "sqrtn": lookup(x, "sqrtn")}
    xi = np.array([[1, -1, 5], [-1, -1, -1], [0, 3, 3], [-2, 6, -1]], np.int64)
    feeds = {"serving_default": {"x": xi}, "empty": {"x": np.full([4, 3], -1, np.int64)},
             "full": {"x": np.array([[1, 2, 3], [4, 5, 0], [0, 0, 0], [6, 4, 3]], np.int64)}}
    yield ("SparseEmbedding_safe", fn, feeds, contraction(3),
           "tf.nn.safe_embedding_lookup_sparse (sum, mean, sqrtn) of Where-made ids from a variable: "
           "SparseReshape, the negative ids dropped (Where of a data-dependent value, GatherV2 along it), "
           "SparseFillEmptyRows, Unique of a data-dependent value, ResourceGather, SparseSegment*, empty rows "
           "zeroed; some, all and no rows empty", {"track": emb})

    def uniq(x):
        idx = tf.where(x > 0)
        u = tf.unique(tf.gather_nd(x, idx), out_idx=tf.int64)
        return {"y": u.y, "idx": u.idx}
    feeds_u = {"serving_default": {"x": np.array([[3, 0, 3], [1, 3, 0]], np.int32)},
               "none": {"x": np.zeros([2, 3], np.int32)}}
    yield ("Unique_where", uniq, feeds_u, EXACT,
           "Unique of Where-selected values (a data-dependent input: idx shares its count): some and none")


def cases():
    yield from embedding_cases()
    yield from sparse_reshape_cases()
    yield from fill_empty_rows_cases()
    yield from segment_cases()
