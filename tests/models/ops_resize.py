"""ResizeBicubic and ResizeArea cases (issue 17): up- and down-scaling with
integer and non-integer ratios, align_corners / half_pixel_centers (bicubic:
TF's legacy a = -0.75 kernel without half_pixel_centers, Keys' a = -0.5 with
it), what tf.image.resize(method="bicubic"/"area") emits in TF 2.21, and the
integer and float64 input types (output float32).

tf.image.resize with antialias=True (bicubic) or the lanczos, gaussian and
mitchellcubic methods emit ScaleAndTranslate: those cases, and the raw op with
the box, triangle and keyscubic kernels and a translation.
"""
from opcase import contraction, np, rng_for, tf

raw = tf.raw_ops
SIZES = {"up": ((1, 4, 5, 2), (7, 9)), "down": ((2, 7, 8, 3), (3, 5)),
         "ratio": ((1, 5, 6, 1), (8, 4)), "big_down": ((1, 11, 13, 2), (3, 4))}
# Bicubic: 16 products per value; area: up to (ceil(1/scale) + 1)^2 cells.
CUBIC_TOL = {"rtol": 1e-5, "atol": 1e-5}
AREA_TOL = contraction(25)


def sig(**arrays):
    return {"serving_default": arrays}


def image(r, shape, dtype=np.float32):
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        return r.integers(lo, hi, shape, endpoint=True).astype(dtype)
    return r.uniform(-5, 5, shape).astype(dtype)


def bicubic_cases():
    for mode, align, half in (("", False, False), ("_align_corners", True, False),
                              ("_half_pixel", False, True)):
        for which, (xs, hw) in SIZES.items():
            name = "ResizeBicubic%s_%s" % (mode, which)
            r = rng_for(name)
            f = (lambda hw, align, half: lambda x: raw.ResizeBicubic(
                images=x, size=tf.constant(hw, tf.int32), align_corners=align,
                half_pixel_centers=half))(hw, align, half)
            yield (name, f, sig(x=image(r, xs)), CUBIC_TOL,
                   "float32 ResizeBicubic %s -> %s, align_corners=%s, half_pixel_centers=%s"
                   % (xs, hw, align, half))


def area_cases():
    for mode, align in (("", False), ("_align_corners", True)):
        for which, (xs, hw) in SIZES.items():
            name = "ResizeArea%s_%s" % (mode, which)
            r = rng_for(name)
            f = (lambda hw, align: lambda x: raw.ResizeArea(
                images=x, size=tf.constant(hw, tf.int32), align_corners=align))(hw, align)
            yield (name, f, sig(x=image(r, xs)), AREA_TOL,
                   "float32 ResizeArea %s -> %s, align_corners=%s" % (xs, hw, align))


def tf_image_cases():
    for method, op, tol in (("bicubic", "ResizeBicubic", CUBIC_TOL), ("area", "ResizeArea", AREA_TOL)):
        name = "%s_tf_image_resize" % op
        r = rng_for(name)
        yield (name, (lambda m: lambda x: tf.image.resize(x, [6, 10], method=m))(method),
               sig(x=image(r, (2, 9, 4, 3))), tol,
               "tf.image.resize(method=%r) [2,9,4,3] -> [6,10] (%s)" % (method, op))


DTYPES = (np.float64, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64)


def dtype_cases():
    xs, hw = (1, 5, 7, 2), (3, 10)
    for op, tol, f in (("ResizeBicubic", CUBIC_TOL, lambda x: raw.ResizeBicubic(
                            images=x, size=tf.constant(hw, tf.int32), half_pixel_centers=True)),
                       ("ResizeArea", AREA_TOL, lambda x: raw.ResizeArea(
                           images=x, size=tf.constant(hw, tf.int32)))):
        name = op + "_dtypes"
        r = rng_for(name)
        feeds = {np.dtype(dt).name: {"x": image(r, xs, dt)} for dt in DTYPES}
        feeds["serving_default"] = feeds.pop("float64")
        yield (name, f, feeds, tol,
               "%s %s -> %s of float64 (serving_default) and integer images (a signature per "
               "type), float32 out" % (op, xs, hw))


def scale_translate_cases():
    # tf.image.resize: scale = new / old (folded from the static shape), no translation.
    for method, aa, xs, hw in (("bicubic", True, (1, 9, 11, 2), (4, 5)), ("bicubic", True, (1, 4, 5, 2), (7, 9)),
                               ("lanczos3", False, (1, 6, 7, 3), (10, 4)), ("lanczos5", True, (2, 12, 9, 1), (5, 4)),
                               ("gaussian", True, (1, 9, 6, 2), (4, 4)),
                               ("mitchellcubic", False, (1, 5, 8, 2), (9, 3)), ("area", True, (1, 5, 5, 1), (2, 3))):
        if method == "area":
            continue    # antialiased area is ResizeArea
        name = "ScaleAndTranslate_%s%s_%dx%d_to_%dx%d" % (method, "_antialias" if aa else "", xs[1], xs[2], *hw)
        r = rng_for(name)
        yield (name, (lambda m, aa, hw: lambda x: tf.image.resize(x, hw, method=m, antialias=aa))(method, aa, hw),
               sig(x=image(r, xs)), CUBIC_TOL,
               "tf.image.resize(method=%r, antialias=%s) %s -> %s (ScaleAndTranslate)" % (method, aa, xs, hw))
    # The raw op: the kernels tf.image.resize reaches only through other ops, and a translation.
    for kernel, aa in (("box", True), ("triangle", False), ("keyscubic", True), ("lanczos1", True),
                       ("lanczos3", False)):
        name = "ScaleAndTranslate_raw_%s%s" % (kernel, "_antialias" if aa else "")
        r = rng_for(name)
        f = (lambda k, aa: lambda x: raw.ScaleAndTranslate(
            images=x, size=tf.constant([5, 7], tf.int32), scale=tf.constant([0.6, 1.3]),
            translation=tf.constant([0.75, -1.5]), kernel_type=k, antialias=aa))(kernel, aa)
        yield (name, f, sig(x=image(r, (2, 8, 6, 2))), CUBIC_TOL,
               "ScaleAndTranslate kernel_type=%s antialias=%s [2,8,6,2] -> [5,7], scale [0.6, 1.3], "
               "translation [0.75, -1.5]" % (kernel, aa))
    name = "ScaleAndTranslate_uint8"
    r = rng_for(name)
    yield (name, lambda x: tf.image.resize(x, [3, 4], method="lanczos3", antialias=True),
           sig(x=r.integers(0, 255, (1, 7, 9, 3), endpoint=True).astype(np.uint8)), CUBIC_TOL,
           "tf.image.resize(method='lanczos3', antialias=True) of a uint8 image [1,7,9,3] -> [3,4]")


def cases():
    yield from bicubic_cases()
    yield from area_cases()
    yield from tf_image_cases()
    yield from dtype_cases()
    yield from scale_translate_cases()
