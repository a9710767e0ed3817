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
    yield ("Unique", fn, feeds, EXACT,
           "Unique (values in order of first occurrence, int32 idx): repeats, one value, all distinct, "
           "int64 and float32 values", {"fns": {"i64": fn64}})


def cases():
    yield from where_cases()
    yield from boolean_mask_cases()
    yield from unique_cases()
