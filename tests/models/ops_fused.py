"""Fused activation epilogues (issue 14): a Conv2D, DepthwiseConv2dNative or
MatMul with its BiasAdd, then an activation that sm2c's optimizer fuses into
the kernel (compiler/optimize/pass_fuse_act.c), so the fused path is what the
case runs: LeakyRelu, ClipByValue, tf.clip_by_value (Minimum then Maximum),
Maximum then Minimum, Sigmoid, and hard-swish as Keras writes it
(x * (relu6(x + 3) / 6)) and as tf.nn.relu6(x + 3) * x / 6; BiasAdd alone
with a sigmoid too.  Weights and bias are signature inputs (random, seeded by
the case name); the activation's bounds and alpha are constants, as in a
model.  Tolerance: the contraction's, which covers the sigmoid's too.

A Mul by a constant before a Softmax (attention's 1/sqrt(d)) joins the
Softmax (compiler/optimize/pass_fuse_scale.c): the constant on either side,
negative too, odd rows (the AVX-512 path pairs rows) and a 37-wide last axis
(a tail past the 16-lane blocks), with special values.
"""
from opcase import SOFTMAX, contraction, np, rng_for, tf

F32 = np.float32
raw = tf.raw_ops


def hard_swish_keras(y):
    return y * (tf.nn.relu6(y + 3.0) / 6.0)


def hard_swish_tf(y):
    return tf.nn.relu6(y + 3.0) * y / 6.0


ACTS = {
    "leaky_relu": (lambda y: tf.nn.leaky_relu(y, alpha=0.1), "LeakyRelu(alpha 0.1)"),
    "clip_by_value": (lambda y: raw.ClipByValue(t=y, clip_value_min=tf.constant(-0.5),
                                                clip_value_max=tf.constant(0.75)),
                      "ClipByValue(-0.5, 0.75)"),
    "min_max": (lambda y: tf.clip_by_value(y, -0.5, 0.75), "tf.clip_by_value(-0.5, 0.75)"),
    "max_min": (lambda y: tf.minimum(tf.maximum(y, -1.0), 0.5), "Minimum(Maximum(y, -1), 0.5)"),
    "sigmoid": (tf.sigmoid, "Sigmoid"),
    "hard_swish": (hard_swish_keras, "hard-swish as Keras, y * (relu6(y + 3) / 6)"),
    "hard_swish_tf": (hard_swish_tf, "hard-swish as tf.nn.relu6(y + 3) * y / 6"),
}

# producer: (x shape, w shape, b length, K, what, acts it is tested with)
PRODUCERS = {
    "Conv2D": ((1, 6, 7, 3), (3, 3, 3, 8), 8, 27, "Conv2D 3x3 SAME", tuple(ACTS)),
    "DepthwiseConv2dNative": ((1, 6, 7, 8), (3, 3, 8, 1), 8, 9, "DepthwiseConv2dNative 3x3 SAME",
                              ("leaky_relu", "clip_by_value", "sigmoid", "hard_swish")),
    "MatMul": ((3, 20), (20, 9), 9, 20, "MatMul [3,20]x[20,9]",
               ("leaky_relu", "min_max", "sigmoid", "hard_swish")),
}


def produce(op, x, w, b):
    if op == "Conv2D":
        y = raw.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="SAME")
    elif op == "MatMul":
        y = raw.MatMul(a=x, b=w)
    else:
        y = raw.DepthwiseConv2dNative(input=x, filter=w, strides=[1, 1, 1, 1], padding="SAME")
    return raw.BiasAdd(value=y, bias=b)


def cases():
    for op, (xs, ws, nb, k, what, acts) in PRODUCERS.items():
        for act in acts:
            name = "%s_fused_%s" % (op, act)
            r = rng_for(name)
            # wide enough that the activations' bends and clamps are all crossed
            feeds = {"serving_default": {"x": r.uniform(-2, 2, xs).astype(F32),
                                         "w": r.uniform(-1, 1, ws).astype(F32),
                                         "b": r.uniform(-1, 1, (nb,)).astype(F32)}}
            fn = (lambda op, f: lambda x, w, b: f(produce(op, x, w, b)))(op, ACTS[act][0])
            yield (name, fn, feeds, contraction(k),
                   "float32 %s + BiasAdd + %s, fused into one kernel" % (what, ACTS[act][1]))
    name = "BiasAdd_fused_sigmoid"
    r = rng_for(name)
    yield (name, lambda x, b: tf.sigmoid(raw.BiasAdd(value=x, bias=b)),
           {"serving_default": {"x": r.uniform(-8, 8, (2, 3, 5)).astype(F32),
                                "b": r.uniform(-1, 1, (5,)).astype(F32)}},
           contraction(1), "float32 BiasAdd [2,3,5] + Sigmoid, fused into one kernel")
    special = np.array([[0.0, -np.inf, 1.0, 2.0], [np.nan, 1.0, 2.0, 3.0],
                        [-np.inf, -np.inf, -np.inf, -np.inf], [1e30, -1e30, 0.0, 5.0],
                        [np.inf, 1.0, 0.0, -1.0]], F32)
    scaled = {"Softmax_fused_scale": (lambda x: tf.nn.softmax(x * 0.17677669, axis=-1), "x * 0.17677669"),
              "Softmax_fused_scale_neg": (lambda x: tf.nn.softmax(tf.constant(-2.5) * x, axis=-1), "-2.5 * x")}
    for name, (fn, what) in scaled.items():
        r = rng_for(name)
        yield (name, fn, {"serving_default": {"x": r.uniform(-20, 20, (5, 3, 37)).astype(F32)},
                          "special": {"x": special}},
               SOFTMAX, "float32 Softmax(%s) over the last axis of [5,3,37], the Mul fused into it "
                        "(special: -Inf, NaN, all -Inf, huge, +Inf)" % what)
