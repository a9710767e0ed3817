"""Conformance cases for ops whose output size depends on the data (issue 17):
Where with one argument, tf.boolean_mask (Where + Squeeze + GatherV2) and
consumers that carry the count (elementwise, MatMul, Cast), Unique,
NonMaxSuppressionV3/V4/V5 with a detection-style gather of the selected boxes,
and SparseToDense.  Each has signatures where the count is 0, partial and the
whole bound.
"""
from opcase import EXACT, IEEE, contraction, np, rng_for, tf


def where_cases():
    r = rng_for("Where")
    x = r.integers(-1, 2, [3, 4]).astype(np.float32) * r.uniform(1, 2, [3, 4]).astype(np.float32)
    x[0, 0] = -0.0
    feeds = {
        "serving_default": {"x": x},
        "zeros": {"x": np.zeros([2, 3], np.float32)},
        "full": {"x": r.uniform(1, 2, [2, 3]).astype(np.float32)},
        "f64": {"x": np.array([[0.0, 1.5], [np.nan, 0.0]], np.float64)},
        "i32_rank3": {"x": r.integers(-1, 2, [2, 3, 2]).astype(np.int32)},
        "i64_rank1": {"x": np.array([0, 5, 0, -3, 7], np.int64)},
        "bool": {"x": np.array([[True, False, True], [False, False, True]])},
    }
    yield ("Where", lambda x: tf.where(x), feeds, EXACT,
           "Where with one argument (int64 coordinates of the nonzero elements, row-major): float32 with -0.0, "
           "all zero (0 rows), all nonzero (every row), float64 with NaN, int32 rank 3, int64 rank 1, bool")


def boolean_mask_cases():
    r = rng_for("BooleanMask")
    w = r.uniform(-1, 1, [3, 2]).astype(np.float32)
    b = np.array([0.5, -0.25], np.float32)

    def fn(x, mask):
        m = tf.boolean_mask(x, mask)
        return {"y": m, "z": tf.matmul(m * 2.0 + 1.0, tf.constant(w)) + tf.constant(b),
                "k": tf.cast(m, tf.int32), "e": tf.exp(m) - tf.constant([1.0, 2.0, 3.0])}
    x = r.uniform(-3, 3, [6, 3]).astype(np.float32)
    feeds = {
        "serving_default": {"x": x, "mask": np.array([True, False, True, True, False, False])},
        "none": {"x": x, "mask": np.zeros([6], bool)},
        "all": {"x": x, "mask": np.ones([6], bool)},
    }
    yield ("BooleanMask", fn, feeds, contraction(3),
           "tf.boolean_mask on rows (Where, Squeeze, GatherV2), then elementwise with a broadcast operand, "
           "MatMul + bias and Cast on the selected rows: some, none and all rows selected")

    def fn2(x, mask):
        return tf.boolean_mask(x, mask)
    x2 = r.uniform(-3, 3, [2, 3, 4]).astype(np.float32)
    feeds2 = {
        "serving_default": {"x": x2, "mask": np.array([[True, False, True], [False, True, True]])},
        "none": {"x": x2, "mask": np.zeros([2, 3], bool)},
    }
    yield ("BooleanMask_2d", fn2, feeds2, EXACT,
           "tf.boolean_mask with a 2-D mask over the leading dims of a rank-3 tensor (Reshape first)")


def slice_concat_cases():
    r = rng_for("BooleanMask_slices")

    def fn(x, mask):
        m = tf.boolean_mask(x, mask)
        return {"col": m[:, 1], "even": m[:, ::2], "cat": tf.concat([m, m * 2.0], 1),
                "stack": tf.stack([m[:, 0], m[:, 2]], 1), "stack0": tf.stack([m[:, 0], m[:, 2]], 0),
                "lead": tf.expand_dims(m, 0), "part": tf.slice(m, [0, 1], [-1, 2])}
    x = r.uniform(-3, 3, [5, 3]).astype(np.float32)
    feeds = {"serving_default": {"x": x, "mask": np.array([False, True, True, False, True])},
             "none": {"x": x, "mask": np.zeros([5], bool)},
             "all": {"x": x, "mask": np.ones([5], bool)}}
    yield ("BooleanMask_slices", fn, feeds, EXACT,
           "slices that keep the selected rows whole (a column, every other column, Slice), ConcatV2 and "
           "Pack along the other dim and along a new leading one, ExpandDims in front (the count in dim 1)")

    def red(x, mask):
        m = tf.boolean_mask(x, mask)
        return {"total": tf.reduce_sum(m), "cols": tf.reduce_sum(m, 0), "rows": tf.reduce_sum(m, 1),
                "keep": tf.reduce_sum(m, [0], keepdims=True), "n": tf.reduce_sum(tf.ones_like(m[:, 0])),
                "norm": tf.norm(tf.exp(m), axis=0), "any": tf.reduce_any(m > 2.0, 0),
                "shape": tf.shape(m), "rows_i64": tf.shape(m, out_type=tf.int64)[0], "size": tf.size(m)}
    yield ("BooleanMask_reduce", red, feeds, contraction(5),
           "sums over the selected rows (whole, per column, per row, keepdims; the padding zeroed first), "
           "the number of rows as a sum of ones, EuclideanNorm and Any over them, Shape and Size of them (the "
           "count at run time): some, none, all rows")

    def post(boxes, scores):
        sel, valid = tf.raw_ops.NonMaxSuppressionV4(boxes=boxes, scores=scores, max_output_size=5,
                                                    iou_threshold=0.5, score_threshold=0.3)
        b = tf.gather(boxes, sel)
        h, w = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
        return {"det": tf.concat([b, tf.expand_dims(tf.gather(scores, sel), 1)], 1),
                "hw": tf.stack([h, w], 1), "valid": valid}
    feeds = nms_feeds("NMS_postprocess")
    yield ("NMS_postprocess", post, feeds, EXACT,
           "NonMaxSuppressionV4 (not padded), then the selected boxes' heights and widths (column slices, "
           "Sub, Pack) and [box, score] rows (ConcatV2): partial, none, the full bound, equal scores")


def unique_cases():
    def fn(x):
        y, idx = tf.unique(x)
        return {"y": y, "idx": idx}

    def fn64(x):
        y, idx = tf.unique(x, out_idx=tf.int64)
        return {"y": y, "idx": idx}
    feeds = {
        "serving_default": {"x": np.array([3, 1, 3, 7, 1, 1, -2, 7], np.int32)},
        "same": {"x": np.array([4, 4, 4, 4], np.int32)},
        "distinct": {"x": np.array([5, 4, 3, 2, 1], np.int32)},
        "i64": {"x": np.array([9, -9, 9, 0], np.int64)},
        "f32": {"x": np.array([1.5, -0.5, 1.5, 2.0, -0.5], np.float32)},
    }
    def v2(x):
        y, idx = tf.raw_ops.UniqueV2(x=x, axis=tf.constant([0], tf.int64))
        return {"y": y, "idx": idx}
    yield ("UniqueV2", v2, {"serving_default": feeds["serving_default"], "f32": feeds["f32"],
                            "i64": feeds["i64"]}, EXACT,
           "UniqueV2 with axis [0] on a 1-D tensor (the same as Unique): int32, float32, int64")
    yield ("Unique", fn, feeds, EXACT,
           "Unique (values in order of first occurrence, int32 idx): repeats, one value, all distinct, "
           "int64 and float32 values", {"fns": {"i64": fn64}})


def boxes_scores(r, n, clusters):
    """n boxes [ymin, xmin, ymax, xmax] around `clusters` centres (overlapping
    within a cluster), some corners swapped, scores in (0, 1)."""
    centres = r.uniform(0, 10, [clusters, 2])
    c = centres[r.integers(0, clusters, n)] + r.normal(0, 0.4, [n, 2])
    hw = r.uniform(1, 2, [n, 2])
    b = np.concatenate([c - hw / 2, c + hw / 2], 1)
    swap = r.random(n) < 0.2
    b[swap] = b[swap][:, [2, 3, 0, 1]]
    return b.astype(np.float32), r.uniform(0.05, 1, n).astype(np.float32)


def nms_feeds(name, n=10):
    r = rng_for(name)
    b, s = boxes_scores(r, n, 3)
    far = np.array([[i * 3, 0, i * 3 + 1, 1] for i in range(n)], np.float32)   # no overlaps
    tb, ts = boxes_scores(r, n, 2)
    ts[:] = np.repeat(np.array([0.9, 0.6], np.float32), n // 2)     # ties: lower index first
    return {
        "serving_default": {"boxes": b, "scores": s},
        "none": {"boxes": b, "scores": (s * 0.2).astype(np.float32)},      # all below 0.3
        "full": {"boxes": far, "scores": r.uniform(0.5, 1, n).astype(np.float32)},
        "ties": {"boxes": tb, "scores": ts},
    }


def nms_cases():
    raw = tf.raw_ops
    yield ("NonMaxSuppressionV2", lambda boxes, scores: raw.NonMaxSuppressionV2(
               boxes=boxes, scores=scores, max_output_size=5, iou_threshold=0.5),
           nms_feeds("NonMaxSuppressionV2"), EXACT,
           "NonMaxSuppressionV2 (max 5 of 10, IOU 0.5): overlapping clusters, low scores, no overlaps "
           "(the full bound), equal scores")
    yield ("NonMaxSuppressionV3", lambda boxes, scores: raw.NonMaxSuppressionV3(
               boxes=boxes, scores=scores, max_output_size=5, iou_threshold=0.5, score_threshold=0.3),
           nms_feeds("NonMaxSuppressionV3"), EXACT,
           "NonMaxSuppressionV3 (max 5 of 10, IOU 0.5, score > 0.3): partial, none above the threshold "
           "(0 selected), no overlaps (the full bound), equal scores")

    def v4(pad):
        def fn(boxes, scores):
            sel, valid = raw.NonMaxSuppressionV4(boxes=boxes, scores=scores, max_output_size=6,
                                                 iou_threshold=0.4, score_threshold=0.3,
                                                 pad_to_max_output_size=pad)
            return {"selected": sel, "valid": valid}
        return fn
    feeds = nms_feeds("NonMaxSuppressionV4")
    feeds["padded"] = dict(feeds["serving_default"])
    yield ("NonMaxSuppressionV4", v4(False), feeds, EXACT,
           "NonMaxSuppressionV4 (max 6 of 10, IOU 0.4, score > 0.3) with valid_outputs; padded: "
           "pad_to_max_output_size (a static shape)", {"fns": {"padded": v4(True)}})

    def v5(sigma, pad=False):
        def fn(boxes, scores):
            sel, sc, valid = raw.NonMaxSuppressionV5(boxes=boxes, scores=scores, max_output_size=6,
                                                     iou_threshold=0.5, score_threshold=0.3,
                                                     soft_nms_sigma=sigma, pad_to_max_output_size=pad)
            return {"selected": sel, "scores": sc, "valid": valid}
        return fn
    feeds = nms_feeds("NonMaxSuppressionV5")
    feeds["soft"] = dict(feeds["serving_default"])
    feeds["soft_padded"] = dict(feeds["ties"])
    yield ("NonMaxSuppressionV5", v5(0.0), feeds, IEEE,
           "NonMaxSuppressionV5 (max 6 of 10, IOU 0.5, score > 0.3) with selected_scores: greedy; soft: "
           "soft NMS with sigma 0.5; soft_padded: soft NMS padded to 6",
           {"fns": {"soft": v5(0.5), "soft_padded": v5(0.5, True)}})

    # Detection head: NMS, then the selected boxes, scores and classes gathered.
    r = rng_for("NMS_detection")
    b, s = boxes_scores(r, 16, 4)
    cls = r.integers(0, 5, 16).astype(np.int32)

    def detect(boxes, scores, classes, max_out, iou):
        sel, sc, valid = raw.NonMaxSuppressionV5(boxes=boxes, scores=scores, max_output_size=max_out,
                                                 iou_threshold=iou, score_threshold=0.25,
                                                 soft_nms_sigma=0.0)
        return {"boxes": tf.gather(boxes, sel), "scores": sc, "classes": tf.gather(classes, sel),
                "scaled": tf.gather(boxes, sel) * 2.0, "valid": valid}
    base = {"boxes": b, "scores": s, "classes": cls, "max_out": np.int32(8), "iou": np.float32(0.5)}
    feeds = {"serving_default": base,
             "max3": dict(base, max_out=np.int32(3)),
             "none": dict(base, scores=(s * 0.2).astype(np.float32)),
             "max0": dict(base, max_out=np.int32(0))}
    yield ("NMS_detection", detect, feeds, EXACT,
           "detection head: NonMaxSuppressionV5 with run-time max_output_size and IOU threshold, then the "
           "selected boxes, scores and classes gathered (and scaled): 8, 3, none and 0 selected")


def sparse_to_dense_cases():
    raw = tf.raw_ops

    def fn(idx, values, default):
        return raw.SparseToDense(sparse_indices=idx, output_shape=[3, 4], sparse_values=values,
                                 default_value=default)

    def fn_1d(idx, values, default):
        return raw.SparseToDense(sparse_indices=idx, output_shape=[6], sparse_values=values,
                                 default_value=default)

    def fn_dup(idx, values, default):
        return raw.SparseToDense(sparse_indices=idx, output_shape=[3, 4], sparse_values=values,
                                 default_value=default, validate_indices=False)
    idx = np.array([[0, 1], [1, 0], [1, 3], [2, 2]], np.int64)
    feeds = {
        "serving_default": {"idx": idx, "values": np.array([1.5, -2, 3, 4], np.float32),
                            "default": np.float32(-1)},
        "scalar_value": {"idx": idx.astype(np.int32), "values": np.float32(7), "default": np.float32(0.5)},
        "i32_1d": {"idx": np.array([0, 2, 5], np.int32), "values": np.array([4, 5, 6], np.int32),
                   "default": np.int32(9)},
        "unvalidated": {"idx": np.array([[2, 2], [0, 1], [2, 2]], np.int64),
                        "values": np.array([1, 2, 3], np.float32), "default": np.float32(0)},
    }
    def keep_positive(x):
        idx = tf.where(x > 0.5)
        return tf.sparse.to_dense(tf.sparse.SparseTensor(idx, tf.gather_nd(x, idx), [3, 4]))
    r = rng_for("SparseToDense_where")
    feeds_w = {"serving_default": {"x": r.uniform(-1, 2, [3, 4]).astype(np.float32)},
               "none": {"x": np.zeros([3, 4], np.float32)},
               "all": {"x": r.uniform(1, 2, [3, 4]).astype(np.float32)}}
    yield ("SparseToDense_where", keep_positive, feeds_w, EXACT,
           "tf.sparse.to_dense of the elements above 0.5 (Where, GatherNd, SparseToDense reading index rows "
           "and values up to their data-dependent count): some, none and all kept")
    yield ("SparseToDense", fn, feeds, EXACT,
           "SparseToDense into a constant shape: int64 and int32 indices, a scalar value, 1-D int32, and "
           "validate_indices=false with indices out of order and repeated (the later one wins)",
           {"fns": {"i32_1d": fn_1d, "unvalidated": fn_dup}})


def cases():
    yield from where_cases()
    yield from sparse_to_dense_cases()
    yield from nms_cases()
    yield from boolean_mask_cases()
    yield from unique_cases()
    yield from slice_concat_cases()
