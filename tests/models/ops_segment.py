"""Conformance cases for segment reductions (issue 17): UnsortedSegmentSum,
Prod, Max and Min (run-time ids, a negative id dropping its row, an empty
segment holding the fold's identity, 2-D ids, int64 ids, int32 data) and
SegmentSum, Max, Min and Mean (constant sorted ids with an empty segment).
"""
from opcase import EXACT, np, rng_for, tf, contraction

UNSORTED = {"Sum": tf.math.unsorted_segment_sum, "Prod": tf.math.unsorted_segment_prod,
            "Max": tf.math.unsorted_segment_max, "Min": tf.math.unsorted_segment_min}
SORTED = {"Sum": tf.math.segment_sum, "Max": tf.math.segment_max, "Min": tf.math.segment_min,
          "Mean": tf.math.segment_mean}
SORTED_IDS = [0, 0, 1, 3, 3, 3]   # segment 2 is empty


def data(rng, name, shape, dt):
    if dt == np.int32:
        return rng.integers(-3 if name == "Prod" else -50, 4 if name == "Prod" else 51, shape).astype(dt)
    if name == "Prod":
        return (rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape)).astype(np.float32)
    return rng.uniform(-5, 5, shape).astype(np.float32)


def unsorted_cases():
    for name, op in UNSORTED.items():
        tol = EXACT if name in ("Max", "Min") else contraction(3)
        for sfx, dt in (("", np.float32), ("_i32", np.int32)):
            case = "UnsortedSegment%s%s" % (name, sfx)
            rng = rng_for(case)
            # 5 segments: 3 is empty, -1 drops row 4
            ids = np.array([0, 2, 1, 2, -1, 0, 4], np.int32)
            ids2 = np.array([[1, 0, 1], [2, 1, 1]], np.int64)
            feeds = {"serving_default": {"x": data(rng, name, [7, 3], dt), "ids": ids},
                     "ids_2d_i64": {"x": data(rng, name, [2, 3, 2], dt), "ids": ids2}}
            fns = {"serving_default": lambda x, ids, op=op: op(x, ids, num_segments=5),
                   "ids_2d_i64": lambda x, ids, op=op: op(x, ids, num_segments=4)}
            yield (case, None, feeds, tol,
                   "%s UnsortedSegment%s: ids given at run time, one negative (its row dropped), an empty "
                   "segment (the identity), and 2-D int64 ids" % ("int32" if sfx else "float32", name),
                   {"fns": fns})


def sorted_cases():
    for name, op in SORTED.items():
        tol = EXACT if name in ("Max", "Min") else contraction(3)
        for sfx, dt in (("", np.float32), ("_i32", np.int32)):
            case = "Segment%s%s" % (name, sfx)
            rng = rng_for(case)
            feeds = {"serving_default": {"x": data(rng, name, [6, 4], dt)}}
            fn = (lambda op: lambda x: op(x, tf.constant(SORTED_IDS, tf.int32)))(op)
            yield (case, fn, feeds, tol,
                   "%s Segment%s over constant sorted ids %s (segment 2 empty: 0)"
                   % ("int32" if sfx else "float32", name, SORTED_IDS))


def cases():
    yield from unsorted_cases()
    yield from sorted_cases()
