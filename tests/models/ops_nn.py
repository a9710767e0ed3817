"""Neural-network op cases (conformance, issue 4): matmuls, softmax, convolutions,
transposed convolutions, pools, batch norm, bias add, LRN, Einsum, resizing.

One case per op and attribute variant that changes the arithmetic; every input
is a signature argument (random, seeded by the case name), so the generated
code computes it at run time.  Contractions use opcase.contraction(K), K the
reduction length; selections (MaxPool, nearest resize) are EXACT.
"""
from opcase import EXACT, NORM, SOFTMAX, contraction, np, rng_for, tf

F32 = np.float32
raw = tf.raw_ops


def rnd(rng, shape, lo=-1.0, hi=1.0, dtype=F32):
    return rng.uniform(lo, hi, shape).astype(dtype)


def sig(**arrays):
    return {"serving_default": arrays}


def two(name, shape_x, shape_w):
    r = rng_for(name)
    return sig(x=rnd(r, shape_x), w=rnd(r, shape_w))


def matmul_cases():
    for suffix, ta, tb in (("", 0, 0), ("_transpose_a", 1, 0), ("_transpose_b", 0, 1),
                           ("_transpose_ab", 1, 1)):
        name = "MatMul" + suffix
        a = (5, 3) if ta else (3, 5)
        b = (4, 5) if tb else (5, 4)
        yield (name, (lambda ta, tb: lambda x, w: raw.MatMul(a=x, b=w, transpose_a=bool(ta),
                                                             transpose_b=bool(tb)))(ta, tb),
               two(name, a, b), contraction(5),
               "float32 MatMul [3,5]x[5,4], transpose_a=%d transpose_b=%d" % (ta, tb))
    name = "MatMul_float64"
    r = rng_for(name)
    yield (name, lambda x, w: raw.MatMul(a=x, b=w),
           sig(x=rnd(r, (3, 6), dtype=np.float64), w=rnd(r, (6, 2), dtype=np.float64)),
           {"rtol": 1e-12, "atol": 1e-12}, "float64 MatMul [3,6]x[6,2]")
    bmm = {
        "BatchMatMul": (raw.BatchMatMul, (2, 3, 4), (2, 4, 5), 0, 0),
        "BatchMatMul_adj": (raw.BatchMatMul, (2, 4, 3), (2, 5, 4), 1, 1),
        "BatchMatMulV2_broadcast": (raw.BatchMatMulV2, (2, 1, 3, 4), (3, 4, 5), 0, 0),
        "BatchMatMulV2_adj_x": (raw.BatchMatMulV2, (3, 4, 3), (1, 4, 2), 1, 0),
        "BatchMatMulV2_adj_y": (raw.BatchMatMulV2, (2, 3, 4), (5, 4), 0, 1),
        "BatchMatMulV3": (lambda **k: raw.BatchMatMulV3(Tout=tf.float32, **k), (2, 1, 3, 4),
                          (1, 2, 4, 2), 0, 0),
        "BatchMatMulV3_adj": (lambda **k: raw.BatchMatMulV3(Tout=tf.float32, **k), (2, 4, 3),
                              (2, 5, 4), 1, 1),
    }
    for name, (op, sa, sb, ax, ay) in bmm.items():
        yield (name, (lambda op, ax, ay: lambda x, w: op(x=x, y=w, adj_x=bool(ax), adj_y=bool(ay)))(op, ax, ay),
               two(name, sa, sb), contraction(4),
               "float32 %s %s x %s, adj_x=%d adj_y=%d" % (name.split("_")[0], sa, sb, ax, ay))


def softmax_cases():
    special = np.array([[0.0, -np.inf, 1.0, 2.0], [np.nan, 1.0, 2.0, 3.0],
                        [-np.inf, -np.inf, -np.inf, -np.inf], [1e30, -1e30, 0.0, 5.0]], F32)
    for op, fn in (("Softmax", tf.nn.softmax), ("LogSoftmax", tf.nn.log_softmax)):
        for rank, shape in ((2, (3, 7)), (3, (2, 3, 5))):
            name = "%s_rank%d" % (op, rank)
            r = rng_for(name)
            feeds = {"serving_default": {"x": rnd(r, shape, -5, 5)}}
            if rank == 2:
                feeds["special"] = {"x": special}
            yield (name, (lambda fn: lambda x: fn(x, axis=-1))(fn), feeds,
                   SOFTMAX if op == "Softmax" else {"rtol": 1e-5, "atol": 1e-5},
                   "float32 %s over the last axis of a rank-%d tensor%s" %
                   (op, rank, " (special: -Inf, NaN, all -Inf, huge)" if rank == 2 else ""))


# name: (x shape NHWC, filter shape, strides, padding, dilations)
CONV2D = {
    "Conv2D_same": ((1, 6, 7, 3), (3, 3, 3, 4), 1, "SAME", 1),
    "Conv2D_valid": ((2, 6, 5, 2), (3, 2, 2, 3), 1, "VALID", 1),
    "Conv2D_same_strides": ((1, 7, 8, 3), (3, 3, 3, 2), (2, 3), "SAME", 1),
    "Conv2D_valid_strides": ((1, 8, 7, 2), (2, 3, 2, 3), 2, "VALID", 1),
    "Conv2D_explicit": ((1, 5, 6, 2), (3, 3, 2, 3), 1, [[0, 0], [1, 2], [0, 3], [0, 0]], 1),
    "Conv2D_explicit_strides": ((1, 7, 6, 2), (2, 3, 2, 2), (2, 2), [[0, 0], [2, 0], [1, 1], [0, 0]], 1),
    "Conv2D_dilations": ((1, 8, 8, 2), (3, 3, 2, 3), 1, "SAME", (2, 3)),
    "Conv2D_dilations_valid": ((1, 9, 8, 2), (2, 3, 2, 2), 1, "VALID", 2),
    "Conv2D_grouped": ((1, 5, 5, 4), (3, 3, 2, 6), 1, "SAME", 1),
}

DEPTHWISE = {
    "DepthwiseConv2dNative_same": ((1, 6, 7, 3), (3, 3, 3, 1), 1, "SAME", 1),
    "DepthwiseConv2dNative_valid": ((2, 6, 5, 2), (3, 2, 2, 1), 1, "VALID", 1),
    "DepthwiseConv2dNative_multiplier": ((1, 5, 6, 3), (3, 3, 3, 2), 1, "SAME", 1),
    "DepthwiseConv2dNative_strides": ((1, 7, 8, 2), (3, 3, 2, 2), 2, "SAME", 1),
    "DepthwiseConv2dNative_valid_strides": ((1, 8, 7, 2), (2, 3, 2, 3), (2, 1), "VALID", 1),
    "DepthwiseConv2dNative_explicit": ((1, 5, 6, 2), (3, 3, 2, 2), 1, [[0, 0], [1, 2], [0, 1], [0, 0]], 1),
    "DepthwiseConv2dNative_dilations": ((1, 8, 8, 2), (3, 3, 2, 2), 1, "SAME", 2),
}


def four(v):
    v = (v, v) if isinstance(v, int) else tuple(v)
    return [1, v[0], v[1], 1]


def pad_attrs(padding):
    if isinstance(padding, str):
        return {"padding": padding}
    return {"padding": "EXPLICIT", "explicit_paddings": [p for pair in padding for p in pair]}


def conv_cases():
    for table, op, kdim in ((CONV2D, raw.Conv2D, 2), (DEPTHWISE, raw.DepthwiseConv2dNative, None)):
        for name, (xs, ws, st, pad, dil) in table.items():
            k = ws[0] * ws[1] * (ws[2] if kdim else 1)
            fn = (lambda op, st, pad, dil: lambda x, w: op(
                input=x, filter=w, strides=four(st), dilations=four(dil), **pad_attrs(pad)))(op, st, pad, dil)
            yield (name, fn, two(name, xs, ws), contraction(k),
                   "float32 %s: input %s, filter %s, strides %s, padding %s, dilations %s"
                   % (name.split("_")[0], xs, ws, st, pad, dil))


POOLS = {
    "MaxPool_same": ((1, 6, 7, 3), 3, 1, "SAME"),
    "MaxPool_valid": ((2, 6, 5, 2), (2, 3), 1, "VALID"),
    "MaxPool_same_strides": ((1, 7, 8, 2), 3, 2, "SAME"),
    "MaxPool_valid_strides": ((1, 8, 7, 3), (3, 2), (2, 3), "VALID"),
    "AvgPool_same": ((1, 6, 7, 3), 3, 1, "SAME"),
    "AvgPool_valid": ((2, 6, 5, 2), (2, 3), 1, "VALID"),
    "AvgPool_same_strides": ((1, 7, 8, 2), 3, 2, "SAME"),
    "AvgPool_valid_strides": ((1, 8, 7, 3), (3, 2), (2, 3), "VALID"),
}


def pool_cases():
    for name, (xs, k, st, pad) in POOLS.items():
        op = raw.MaxPool if name.startswith("Max") else raw.AvgPool
        arg = "input" if op is raw.MaxPool else "value"
        fn = (lambda op, arg, k, st, pad: lambda x: op(**{arg: x}, ksize=four(k), strides=four(st),
                                                         padding=pad))(op, arg, k, st, pad)
        kk = four(k)
        r = rng_for(name)
        yield (name, fn, sig(x=rnd(r, xs, -5, 5)),
               EXACT if op is raw.MaxPool else contraction(kk[1] * kk[2]),
               "float32 %s: input %s, ksize %s, strides %s, padding %s%s"
               % (op.__name__ if hasattr(op, "__name__") else name.split("_")[0], xs, k, st, pad,
                  " (SAME divides by the in-bounds count)" if pad == "SAME" and op is raw.AvgPool else ""))
    name = "MaxPoolV2"
    r = rng_for(name)
    yield (name, lambda x: raw.MaxPoolV2(input=x, ksize=tf.constant([1, 2, 3, 1]),
                                         strides=tf.constant([1, 2, 2, 1]), padding="SAME"),
           sig(x=rnd(r, (1, 7, 6, 2), -5, 5)), EXACT,
           "float32 MaxPoolV2 (ksize [1,2,3,1], strides [1,2,2,1] as constant inputs), SAME")


def batch_norm_cases():
    for op in ("FusedBatchNormV3", "FusedBatchNormV2", "FusedBatchNorm"):
        for fmt in ("NHWC", "NCHW"):
            name = "%s_%s" % (op, fmt)
            r = rng_for(name)
            shape = (2, 3, 4, 5) if fmt == "NHWC" else (2, 5, 3, 4)
            feeds = sig(x=rnd(r, shape, -3, 3), scale=rnd(r, (5,), 0.5, 2), offset=rnd(r, (5,)),
                        mean=rnd(r, (5,)), var=rnd(r, (5,), 0.1, 2))
            fn = (lambda op, fmt: lambda x, scale, offset, mean, var: getattr(raw, op)(
                x=x, scale=scale, offset=offset, mean=mean, variance=var, epsilon=0.001,
                is_training=False, data_format=fmt)[0])(op, fmt)
            yield (name, fn, feeds, NORM,
                   "float32 %s, is_training=false, data_format %s, epsilon 0.001" % (op, fmt))


def bias_add_cases():
    for name, shape, fmt in (("BiasAdd_NHWC", (2, 3, 4, 5), "NHWC"), ("BiasAdd_NCHW", (2, 5, 3, 4), "NCHW"),
                             ("BiasAdd_rank2", (3, 5), "NHWC"), ("BiasAdd_NCHW_rank3", (2, 5, 3), "NCHW")):
        r = rng_for(name)
        yield (name, (lambda fmt: lambda x, b: raw.BiasAdd(value=x, bias=b, data_format=fmt))(fmt),
               sig(x=rnd(r, shape), b=rnd(r, (5,))), EXACT,
               "float32 BiasAdd %s, data_format %s" % (shape, fmt))
    name = "BiasAddV1"
    r = rng_for(name)
    yield (name, lambda x, b: raw.BiasAddV1(value=x, bias=b), sig(x=rnd(r, (2, 3, 5)), b=rnd(r, (5,))),
           EXACT, "float32 BiasAddV1 [2,3,5] + [5]")


def five(v):
    v = (v, v, v) if isinstance(v, int) else tuple(v)
    return [1, v[0], v[1], v[2], 1]


def volume_cases():
    conv3d = {
        "Conv3D_same": ((1, 4, 5, 4, 2), (2, 3, 2, 2, 3), 1, "SAME", 1),
        "Conv3D_valid_strides": ((2, 5, 4, 5, 2), (2, 2, 3, 2, 2), (2, 1, 2), "VALID", 1),
        "Conv3D_dilations": ((1, 5, 5, 4, 2), (2, 2, 2, 2, 2), 1, "SAME", (2, 1, 2)),
    }
    for name, (xs, ws, st, pad, dil) in conv3d.items():
        fn = (lambda st, pad, dil: lambda x, w: raw.Conv3D(
            input=x, filter=w, strides=five(st), padding=pad, dilations=five(dil)))(st, pad, dil)
        yield (name, fn, two(name, xs, ws), contraction(ws[0] * ws[1] * ws[2] * ws[3]),
               "float32 Conv3D: input %s, filter %s, strides %s, padding %s, dilations %s"
               % (xs, ws, st, pad, dil))
    pools = {
        "MaxPool3D_same": ((1, 4, 5, 4, 2), (2, 3, 2), 1, "SAME"),
        "MaxPool3D_valid_strides": ((2, 5, 4, 5, 2), 2, (2, 1, 2), "VALID"),
        "AvgPool3D_same": ((1, 4, 5, 4, 2), (2, 3, 2), (1, 2, 1), "SAME"),
        "AvgPool3D_valid_strides": ((2, 5, 4, 5, 2), 2, (2, 1, 2), "VALID"),
    }
    for name, (xs, k, st, pad) in pools.items():
        op = raw.MaxPool3D if name.startswith("Max") else raw.AvgPool3D
        fn = (lambda op, k, st, pad: lambda x: op(input=x, ksize=five(k), strides=five(st),
                                                    padding=pad))(op, k, st, pad)
        kk = five(k)
        r = rng_for(name)
        yield (name, fn, sig(x=rnd(r, xs, -5, 5)),
               EXACT if op is raw.MaxPool3D else contraction(kk[1] * kk[2] * kk[3]),
               "float32 %s: input %s, ksize %s, strides %s, padding %s"
               % (name.split("_")[0], xs, k, st, pad))


# name: (input NHWC, filter HWIO, strides, padding, dilations)
CONV2D_T = {
    "Conv2DBackpropInput_same": ((1, 5, 6, 2), (3, 3, 2, 3), 1, "SAME", 1),
    "Conv2DBackpropInput_valid": ((2, 6, 5, 3), (2, 3, 3, 2), 1, "VALID", 1),
    "Conv2DBackpropInput_same_strides": ((1, 7, 8, 2), (3, 3, 2, 3), 2, "SAME", 1),
    "Conv2DBackpropInput_valid_strides": ((1, 8, 7, 2), (2, 3, 2, 2), (2, 3), "VALID", 1),
    "Conv2DBackpropInput_explicit": ((1, 5, 6, 2), (3, 3, 2, 2), (2, 1), [[0, 0], [1, 2], [0, 1], [0, 0]], 1),
    "Conv2DBackpropInput_dilations": ((1, 7, 7, 2), (3, 2, 2, 2), 1, "SAME", 2),
}
DEPTHWISE_T = {
    "DepthwiseConv2dNativeBackpropInput_same": ((1, 5, 6, 3), (3, 3, 3, 2), 1, "SAME", 1),
    "DepthwiseConv2dNativeBackpropInput_valid_strides": ((1, 8, 7, 2), (2, 3, 2, 1), 2, "VALID", 1),
    "DepthwiseConv2dNativeBackpropInput_same_strides": ((2, 7, 6, 2), (3, 3, 2, 2), (2, 1), "SAME", 1),
}


def conv_out(xs, ws, st, pad, dil, depthwise):
    """The forward conv's output shape (for the out_backprop input)."""
    st = four(st)[1:3]
    dil = four(dil)[1:3]
    out = []
    for i in range(2):
        eff = (ws[i] - 1) * dil[i] + 1
        if pad == "SAME":
            out.append(-(-xs[1 + i] // st[i]))
        elif pad == "VALID":
            out.append((xs[1 + i] - eff) // st[i] + 1)
        else:
            out.append((xs[1 + i] + pad[1 + i][0] + pad[1 + i][1] - eff) // st[i] + 1)
    oc = ws[2] * ws[3] if depthwise else ws[3]
    return (xs[0], out[0], out[1], oc)


def transposed_cases():
    for table, op, dw in ((CONV2D_T, raw.Conv2DBackpropInput, False),
                          (DEPTHWISE_T, raw.DepthwiseConv2dNativeBackpropInput, True)):
        for name, (xs, ws, st, pad, dil) in table.items():
            ys = conv_out(xs, ws, st, pad, dil, dw)
            r = rng_for(name)
            fn = (lambda op, xs, st, pad, dil: lambda dy, w: op(
                input_sizes=tf.constant(xs, tf.int32), filter=w, out_backprop=dy, strides=four(st),
                dilations=four(dil), **pad_attrs(pad)))(op, xs, st, pad, dil)
            k = ws[0] * ws[1] * (ws[3] if dw else ws[3])
            yield (name, fn, sig(dy=rnd(r, ys), w=rnd(r, ws)), contraction(k),
                   "float32 %s (transposed convolution): input_sizes %s, filter %s, strides %s, "
                   "padding %s, dilations %s" % (name.split("_")[0], xs, ws, st, pad, dil))
    name = "Conv2DBackpropInput_conv2d_transpose"
    r = rng_for(name)
    yield (name, lambda dy, w: tf.nn.conv2d_transpose(dy, w, output_shape=[1, 8, 8, 2], strides=2,
                                                      padding="SAME"),
           sig(dy=rnd(r, (1, 4, 4, 3)), w=rnd(r, (3, 3, 2, 3))), contraction(27),
           "float32 tf.nn.conv2d_transpose [1,4,4,3] -> [1,8,8,2], 3x3, strides 2, SAME")
    for name, xs, ws, st, pad in (("Conv3DBackpropInputV2_same", (1, 4, 5, 4, 2), (2, 3, 2, 2, 3), 1, "SAME"),
                                  ("Conv3DBackpropInputV2_valid_strides", (1, 5, 4, 5, 2), (2, 2, 3, 2, 2),
                                   (2, 1, 2), "VALID")):
        st5 = five(st)
        ys = [xs[0]]
        for i in range(3):
            ys.append(-(-xs[1 + i] // st5[1 + i]) if pad == "SAME" else (xs[1 + i] - ws[i]) // st5[1 + i] + 1)
        ys.append(ws[4])
        r = rng_for(name)
        fn = (lambda xs, st5, pad: lambda dy, w: raw.Conv3DBackpropInputV2(
            input_sizes=tf.constant(xs, tf.int32), filter=w, out_backprop=dy, strides=st5,
            padding=pad))(xs, st5, pad)
        yield (name, fn, sig(dy=rnd(r, ys), w=rnd(r, ws)), contraction(ws[0] * ws[1] * ws[2] * ws[4]),
               "float32 Conv3DBackpropInputV2: input_sizes %s, filter %s, strides %s, padding %s"
               % (xs, ws, st, pad))


def lrn_cases():
    for name, kw in (("LRN_default", {}),
                     ("LRN_radius2", dict(depth_radius=2, bias=2.0, alpha=1e-1, beta=0.75)),
                     ("LRN_beta1", dict(depth_radius=1, bias=0.5, alpha=0.3, beta=1.0))):
        r = rng_for(name)
        yield (name, (lambda kw: lambda x: raw.LRN(input=x, **kw))(kw), sig(x=rnd(r, (2, 3, 2, 7), -2, 2)),
               NORM, "float32 LRN over the last axis, %s" % (kw or "default attrs (radius 5, bias 1, alpha 1, beta 0.5)"))


def einsum_cases():
    eqs = {
        "Einsum_abc_cd": ("abc,cd->abd", (2, 3, 4), (4, 5)),
        "Einsum_abcd_cde": ("abcd,cde->abe", (2, 3, 4, 2), (4, 2, 5)),
        "Einsum_abc_cde": ("abc,cde->abde", (2, 3, 4), (4, 2, 3)),
        "Einsum_aecd_abcd": ("aecd,abcd->acbe", (2, 3, 2, 4), (2, 5, 2, 4)),
        "Einsum_acbe_aecd": ("acbe,aecd->abcd", (2, 2, 3, 5), (2, 5, 2, 4)),
        "Einsum_batch_matmul": ("bij,bjk->bik", (3, 2, 4), (3, 4, 5)),
        "Einsum_matmul_transposed": ("ij,kj->ik", (3, 4), (5, 4)),
        # no strided view (ops_einsum.c): A's free labels a, c are not
        # adjacent, so A is copied; Y's free labels of A (a, b) are split by
        # d in either order, so the product goes to scratch and is copied
        "Einsum_abc_bd_acd": ("abc,bd->acd", (2, 3, 4), (3, 5)),
        "Einsum_abc_cd_adb": ("abc,cd->adb", (2, 3, 4), (4, 5)),
        # size-1 labels inside a merged group, batch labels apart in A
        "Einsum_abcd_aecd_size1": ("abcd,aecd->cabe", (2, 1, 3, 4), (2, 5, 3, 4)),
    }
    for name, (eq, sa, sb) in eqs.items():
        r = rng_for(name)
        k = 1
        for ch, d in zip(eq.split(",")[0], sa):
            if ch in eq.split(",")[1].split("->")[0] and ch not in eq.split("->")[1]:
                k *= d
        yield (name, (lambda eq: lambda x, w: tf.einsum(eq, x, w))(eq), two(name, sa, sb), contraction(k),
               "float32 Einsum '%s' on %s and %s" % (eq, sa, sb))
    # labels summed within one operand (each summand count gives the tolerance)
    own = {
        "Einsum_bij_bjk_b": ("bij,bjk->b", (3, 2, 4), (3, 4, 5), 2 * 4 * 5),
        "Einsum_ij_jk_j": ("ij,jk->j", (3, 4), (4, 5), 3 * 5),
        "Einsum_abc_cd_ad": ("abc,cd->ad", (2, 3, 4), (4, 5), 3 * 4),
    }
    for name, (eq, sa, sb, k) in own.items():
        yield (name, (lambda eq: lambda x, w: tf.einsum(eq, x, w))(eq), two(name, sa, sb), contraction(k),
               "float32 Einsum '%s' on %s and %s: labels summed within one operand" % (eq, sa, sb))
    for name, eq, shape, k in (("Einsum_abc_ca", "abc->ca", (2, 3, 4), 3), ("Einsum_ij_sum", "ij->", (3, 4), 12)):
        r = rng_for(name)
        yield (name, (lambda eq: lambda x: tf.einsum(eq, x))(eq), sig(x=rnd(r, shape)), contraction(k),
               "float32 Einsum '%s' on %s (a sum within the one operand)" % (eq, shape))
    name = "Einsum_transpose"
    r = rng_for(name)
    yield (name, lambda x: tf.einsum("abcd->acbd", x), sig(x=rnd(r, (2, 3, 4, 2))), EXACT,
           "float32 Einsum 'abcd->acbd' (a transpose)")


def resize_cases():
    sizes = {"up": ((1, 4, 5, 2), (7, 9)), "down": ((2, 7, 8, 3), (3, 5))}
    for op, fn in (("ResizeBilinear", raw.ResizeBilinear), ("ResizeNearestNeighbor", raw.ResizeNearestNeighbor)):
        for mode, align, half in (("", False, False), ("_align_corners", True, False),
                                  ("_half_pixel", False, True)):
            for which, (xs, hw) in sizes.items():
                name = "%s%s_%s" % (op, mode, which)
                r = rng_for(name)
                f = (lambda fn, hw, align, half: lambda x: fn(
                    images=x, size=tf.constant(hw, tf.int32), align_corners=align,
                    half_pixel_centers=half))(fn, hw, align, half)
                yield (name, f, sig(x=rnd(r, xs, -5, 5)),
                       EXACT if op == "ResizeNearestNeighbor" else {"rtol": 1e-6, "atol": 1e-6},
                       "float32 %s %s -> %s, align_corners=%s, half_pixel_centers=%s"
                       % (op, xs, hw, align, half))


def cases():
    yield from matmul_cases()
    yield from softmax_cases()
    yield from conv_cases()
    yield from pool_cases()
    yield from batch_norm_cases()
    yield from bias_add_cases()
    yield from volume_cases()
    yield from transposed_cases()
    yield from lrn_cases()
    yield from einsum_cases()
    yield from resize_cases()
