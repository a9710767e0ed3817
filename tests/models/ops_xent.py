"""Conformance cases for classifier losses (issue 17): SoftmaxCrossEntropyWithLogits
(dense label distributions) and SparseSoftmaxCrossEntropyWithLogits (int32 and
int64 class indices), both outputs (loss and backprop), with large logits
(the max shift matters), and the tf.nn wrappers a training step uses.
"""
from opcase import SOFTMAX, np, rng_for, tf

raw = tf.raw_ops


def logits(rng, shape):
    x = rng.uniform(-4, 4, shape).astype(np.float32)
    x[0, 1] = 60.0   # exp overflows without the shift by the row max
    return x


def dense_case():
    name = "SoftmaxCrossEntropyWithLogits"
    rng = rng_for(name)
    p = rng.uniform(0, 1, (4, 5)).astype(np.float32)
    p /= p.sum(axis=1, keepdims=True)
    fn = lambda x, p: dict(zip(("loss", "backprop"), raw.SoftmaxCrossEntropyWithLogits(features=x, labels=p)))
    yield (name, fn, {"serving_default": {"x": logits(rng, (4, 5)), "p": p}}, SOFTMAX,
           "float32 SoftmaxCrossEntropyWithLogits on [4, 5] logits (one large) and label distributions: loss "
           "and backprop")


def sparse_cases():
    for sfx, dt in (("", np.int32), ("_i64", np.int64)):
        name = "SparseSoftmaxCrossEntropyWithLogits" + sfx
        rng = rng_for(name)
        labels = rng.integers(0, 5, 4).astype(dt)
        fn = lambda x, c: dict(zip(("loss", "backprop"),
                                   raw.SparseSoftmaxCrossEntropyWithLogits(features=x, labels=c)))
        yield (name, fn, {"serving_default": {"x": logits(rng, (4, 5)), "c": labels}}, SOFTMAX,
               "float32 SparseSoftmaxCrossEntropyWithLogits on [4, 5] logits (one large) with %s class "
               "indices: loss and backprop" % np.dtype(dt).name)


def wrapper_case():
    name = "SoftmaxCrossEntropy_tf_nn"
    rng = rng_for(name)
    p = np.eye(5, dtype=np.float32)[rng.integers(0, 5, 3)]

    def fn(x, p, c):
        return {"dense": tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=p, logits=x)),
                "sparse": tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=c, logits=x))}
    yield (name, fn, {"serving_default": {"x": logits(rng, (3, 5)), "p": p,
                                          "c": np.argmax(p, axis=1).astype(np.int32)}}, SOFTMAX,
           "tf.nn.softmax_cross_entropy_with_logits and sparse_softmax_cross_entropy_with_logits, averaged "
           "over the batch (one-hot labels, the same classes)")


def cases():
    yield from dense_case()
    yield from sparse_cases()
    yield from wrapper_case()
