"""Quantization-aware training's float ops (issue 16): FakeQuantWithMinMaxArgs,
FakeQuantWithMinMaxVars and FakeQuantWithMinMaxVarsPerChannel against TensorFlow.

Each case has one signature per attribute variant: the default range, narrow_range
with 4 bits, 2 and 16 bits, ranges that do not contain 0 (all positive, all
negative), and for the Vars ops min = max (0 gives zeros, 1 gives NaN, as TF) and
min > max; bounds come as run-time inputs (serving_default) and as constants.  The
inputs include rounding ties, values outside the range and infinities.  The results
are TF's to within one rounding of values of the range's magnitude (QUANT): TF's
build fuses the final level * scale + min into one multiply-add in some lanes of its
vector loop and not in others; a wrong level would be off by a whole step (at
least 1.3e-4 here), far outside it.
"""
from opcase import np, rng_for, tf

F32 = np.float32
raw = tf.raw_ops
INF = np.inf
QUANT = {"rtol": 0.0, "atol": 1e-6}


def xs(rng, shape, lo=-8.0, hi=8.0):
    return rng.uniform(lo, hi, shape).astype(F32)


def ties():
    """Every rounding tie of 8 bits over [0, 1], and the float just below each:
    which level a tie takes shows how the level is computed."""
    t = ((np.arange(255) + 0.5) / 255).astype(F32)
    return np.concatenate([t, np.nextafter(t, F32(0))]).astype(F32)


def args_case():
    name = "FakeQuantWithMinMaxArgs"
    r = rng_for(name)
    variants = {  # signature: attrs
        "serving_default": dict(),
        "narrow4": dict(min=-1.0, max=3.0, num_bits=4, narrow_range=True),
        "bits2": dict(min=-2.0, max=2.0, num_bits=2),
        "bits16": dict(min=-1.5, max=7.25, num_bits=16),
        "positive": dict(min=0.5, max=3.0),
        "negative": dict(min=-3.0, max=-0.5),
    }
    feeds, fns = {}, {}
    for sig, attrs in variants.items():
        feeds[sig] = {"x": xs(r, [4, 5])}
        fns[sig] = (lambda a: lambda x: raw.FakeQuantWithMinMaxArgs(inputs=x, **a))(attrs)
    feeds["ties"] = {"x": ties()}
    fns["ties"] = lambda x: raw.FakeQuantWithMinMaxArgs(inputs=x, min=0.0, max=1.0)
    feeds["special"] = {"x": np.array([0.0, -0.0, INF, -INF, 6.0, -6.0, 7.0, -7.0, 0.0235294,
                                       0.02352941, 0.023529412, 5.999, 1e-30, -1e30], F32)}
    fns["special"] = lambda x: raw.FakeQuantWithMinMaxArgs(inputs=x)
    yield (name, None, feeds, QUANT,
           "FakeQuantWithMinMaxArgs: default range, narrow_range 4 bits, 2 and 16 bits, ranges above "
           "and below 0, every 8-bit rounding tie over [0, 1], special values", {"fns": fns})


def vars_case():
    name = "FakeQuantWithMinMaxVars"
    r = rng_for(name)
    feeds, fns = {}, {}

    def runtime(sig, lo, hi, **attrs):
        feeds[sig] = {"x": xs(r, [3, 4]), "mn": np.array(lo, F32), "mx": np.array(hi, F32)}
        fns[sig] = (lambda a: lambda x, mn, mx: raw.FakeQuantWithMinMaxVars(inputs=x, min=mn, max=mx, **a))(attrs)

    def const(sig, lo, hi, **attrs):
        feeds[sig] = {"x": xs(r, [3, 4])}
        fns[sig] = (lambda lo, hi, a: lambda x: raw.FakeQuantWithMinMaxVars(
            inputs=x, min=tf.constant(lo, tf.float32), max=tf.constant(hi, tf.float32), **a))(lo, hi, attrs)

    runtime("serving_default", -6.0, 6.0)
    runtime("narrow4", -1.0, 3.0, num_bits=4, narrow_range=True)
    runtime("positive", 0.5, 3.0)
    runtime("min_eq_max_0", 0.0, 0.0)
    runtime("min_eq_max_1", 1.0, 1.0)
    runtime("min_gt_max", 2.0, 1.0)
    feeds["ties"] = {"x": ties(), "mn": np.array(0.0, F32), "mx": np.array(1.0, F32)}
    fns["ties"] = fns["serving_default"]
    const("const_range", -2.0, 2.5)
    const("const_negative", -3.0, -0.5, num_bits=5)
    yield (name, None, feeds, QUANT,
           "FakeQuantWithMinMaxVars: run-time and constant bounds, narrow_range 4 bits, a range above "
           "0, min = max (0 and 1), min > max, every 8-bit rounding tie over [0, 1]", {"fns": fns})


def per_channel_case():
    name = "FakeQuantWithMinMaxVarsPerChannel"
    r = rng_for(name)
    feeds, fns = {}, {}

    def pc(x, mn, mx, **attrs):
        return raw.FakeQuantWithMinMaxVarsPerChannel(inputs=x, min=mn, max=mx, **attrs)

    feeds["serving_default"] = {"x": xs(r, [5, 3]), "mn": np.array([-6, -1, 0], F32),
                                "mx": np.array([6, 3, 0], F32)}
    fns["serving_default"] = lambda x, mn, mx: pc(x, mn, mx)
    feeds["rank4_narrow"] = {"x": xs(r, [2, 3, 3, 4]), "mn": np.array([-1, -2, 0.5, -3], F32),
                             "mx": np.array([1, 2, 3, -0.5], F32)}
    fns["rank4_narrow"] = lambda x, mn, mx: pc(x, mn, mx, num_bits=6, narrow_range=True)
    feeds["rank1"] = {"x": np.array([0.0235294, -1.3, 2.2, 0.5, -7.0, 0.49999997], F32),
                      "mn": np.array([-6, -2, -1, 0, -3, 0], F32), "mx": np.array([6, 2, 3, 1, -0.5, 1], F32)}
    fns["rank1"] = lambda x, mn, mx: pc(x, mn, mx)
    feeds["ties"] = {"x": ties().reshape(-1, 2), "mn": np.array([0, 0], F32), "mx": np.array([1, 1], F32)}
    fns["ties"] = lambda x, mn, mx: pc(x, mn, mx)
    feeds["const_weights"] = {"x": xs(r, [3, 3, 2, 4])}
    fns["const_weights"] = lambda x: pc(x, tf.constant([-1, -0.5, -2, -4], tf.float32),
                                        tf.constant([1, 0.5, 2, 4], tf.float32), narrow_range=True)
    yield (name, None, feeds, QUANT,
           "FakeQuantWithMinMaxVarsPerChannel: rank 2 with a min = max = 0 channel, rank 4 with "
           "narrow_range 6 bits and ranges off 0, rank 1 with a rounding tie, every 8-bit tie over [0, 1], "
           "constant bounds", {"fns": fns})


def cases():
    yield from args_case()
    yield from vars_case()
    yield from per_channel_case()
