"""Keras layers, activations and small architectures as TensorFlow 2.21 saves
them (issue 4, part "keras").  Cases, all in tests/data/ops:

  keras_<Layer>[_variant]            a layer in a functional model called from a
                                     tf.function: signature serving_default is the
                                     Keras 3 layer, signature tfkeras the tf_keras
                                     (Keras 2) one, on the same inputs
  keras_Activation_<name>[_variant]  every function keras.activations lists (and
                                     tf_keras's too, as signature tfkeras)
  keras_{Dense,Conv2D}_export        Keras 3 model.export() (the real export path)
  keras_{Dense,Conv2D}_tfkeras_save  tf_keras tf.saved_model.save(model)
  arch_<name>                        a whole Keras 3 architecture in a tf.function
  arch_resnet_export                 the small ResNet through Keras 3 model.export()
  arch_resnet_tfkeras_save           and through tf_keras tf.saved_model.save(model)

Weights are random (seeded from the case name) and made non-trivial: zero
biases/betas/means become small random values and unit gammas/variances random
values in [0.5, 1.5], so no layer is an identity by accident.  Tolerance is the
whole-model policy (docs/reliability.md section 9: rtol = atol = 1e-4), exact for
pure data movement.
"""
import os

from opcase import EXACT, np, rng_for, save_module, tf

os.environ.setdefault("TF_USE_LEGACY_KERAS", "0")

E2E = {"rtol": 1e-4, "atol": 1e-4}
SIG = {"": "serving_default", "_tfkeras": "tfkeras"}
F32 = "float32"


def _libs():
    import keras
    import tf_keras
    return {"": keras, "_tfkeras": tf_keras}


# ---- models -----------------------------------------------------------------------------

def _perturb(model, rng):
    """Zero vectors and all-ones vectors (biases, BN statistics, gammas) get
    random values, so every parameter takes part in the result."""
    for w in model.weights:
        v = np.asarray(w.numpy())
        if v.dtype != np.float32 or v.size == 0:
            continue
        if np.all(v == 0):
            w.assign(rng.uniform(-0.3, 0.3, v.shape).astype(np.float32))
        elif np.all(v == 1):
            w.assign(rng.uniform(0.5, 1.5, v.shape).astype(np.float32))


def _build(K, name, inputs, body):
    """A functional model over named inputs [(name, shape, dtype)] whose
    outputs are body(K, *input_tensors); seeded from the case name."""
    rng = rng_for(name)
    K.utils.set_random_seed(int(rng.integers(1 << 30)))
    ins = [K.Input(shape=s, name=n, dtype=d) for n, s, d in inputs]
    out = body(K, *ins)
    model = K.Model(ins if len(ins) > 1 else ins[0], out)
    _perturb(model, rng)
    return model


def _feeds(name, inputs, batch):
    rng = rng_for(name + "/inputs")
    feeds = {}
    for n, s, d in inputs:
        shape = (batch,) + tuple(s)
        if d == F32:
            feeds[n] = rng.standard_normal(shape).astype(np.float32)
        else:
            feeds[n] = rng.integers(0, 10, shape).astype(d)
    return {"serving_default": feeds}


def _call(model, names):
    def fn(**kw):
        args = [kw[n] for n in names]
        out = model(args if len(args) > 1 else args[0], training=False)
        return out if isinstance(out, dict) else {"y": out}
    return fn


def _tracked_case(name, libs, inputs, body, tol, desc, batch):
    """One signature per Keras library (serving_default: Keras 3, tfkeras:
    tf_keras), each a tf.function calling its model, with the same inputs.
    The models are built only when the case is written (gen_ops.py filters
    by name)."""
    names = [n for n, _, _ in inputs]
    one = _feeds(name, inputs, batch)["serving_default"]
    feeds = {SIG[suffix]: dict(one) for suffix in libs}

    def export(mdir):
        fns, weights = {}, []
        for suffix, K in libs.items():
            model = _build(K, name, inputs, body)
            fns[SIG[suffix]] = _call(model, names)
            weights += list(model.weights)
        save_module(mdir, None, feeds, fns, track=weights)
    return (name, None, feeds, tol, desc, {"export": export})


def _export_case(name, K, inputs, body, tol, desc, batch):
    """The real export path: Keras 3 model.export(), tf_keras tf.saved_model.save."""
    def export(mdir):
        model = _build(K, name, inputs, body)
        if hasattr(model, "export") and K.__name__ == "keras":
            model.export(mdir, verbose=False)
        else:
            tf.saved_model.save(model, mdir)
    return (name, None, _feeds(name, inputs, batch), tol, desc, {"export": export})


# ---- layers -----------------------------------------------------------------------------
# name: (inputs [(key, shape without batch, dtype)], body(K, *inputs), tolerance, description)

def _x(*shape):
    return [("x", shape, F32)]


def _two(*shape):
    return [("a", shape, F32), ("b", shape, F32)]


def _layer(make):
    """body for a model that is one layer applied to its only input."""
    return lambda K, x: make(K.layers)(x)


def _merge(cls):
    return lambda K, a, b: getattr(K.layers, cls)()([a, b])


def _bn_2d(K, x):
    return K.layers.BatchNormalization(epsilon=1e-3)(x)


def _mha(causal):
    def body(K, q, v):
        mha = K.layers.MultiHeadAttention(num_heads=2, key_dim=4)
        return mha(q, v, use_causal_mask=causal)
    return body


def _attention(causal):
    def body(K, q, v):
        return K.layers.Attention()([q, v], use_causal_mask=causal)
    return body


LAYERS = {
    "Dense": (_x(8), _layer(lambda L: L.Dense(5)), E2E, "Dense(5) on [N, 8]"),
    "Dense_relu_3d": (_x(3, 8), _layer(lambda L: L.Dense(5, activation="relu")), E2E,
                      "Dense(5, relu) on a rank-3 input [N, 3, 8]"),
    "Conv1D": (_x(16, 3), _layer(lambda L: L.Conv1D(4, 3, padding="same")), E2E,
               "Conv1D(4, 3, same)"),
    "Conv1D_strided_valid": (_x(16, 3), _layer(lambda L: L.Conv1D(4, 5, strides=2)), E2E,
                             "Conv1D(4, 5, strides 2, valid)"),
    "Conv1D_causal_dilated": (_x(16, 3), _layer(
        lambda L: L.Conv1D(4, 3, padding="causal", dilation_rate=2)), E2E,
        "Conv1D(4, 3, causal padding, dilation 2)"),
    "Conv2D": (_x(8, 8, 3), _layer(lambda L: L.Conv2D(4, 3, padding="same", activation="relu")),
               E2E, "Conv2D(4, 3x3, same, relu)"),
    "Conv2D_strided_valid": (_x(9, 9, 3), _layer(lambda L: L.Conv2D(4, (3, 2), strides=2)), E2E,
                             "Conv2D(4, 3x2, strides 2, valid)"),
    "Conv2D_dilated": (_x(9, 9, 3), _layer(
        lambda L: L.Conv2D(4, 3, padding="same", dilation_rate=2)), E2E,
        "Conv2D(4, 3x3, same, dilation 2)"),
    "Conv3D": (_x(5, 6, 6, 2), _layer(lambda L: L.Conv3D(3, 3, padding="same")), E2E,
               "Conv3D(3, 3x3x3, same)"),
    "SeparableConv1D": (_x(16, 3), _layer(
        lambda L: L.SeparableConv1D(4, 3, padding="same", depth_multiplier=2)), E2E,
        "SeparableConv1D(4, 3, same, depth multiplier 2)"),
    "SeparableConv2D": (_x(8, 8, 3), _layer(
        lambda L: L.SeparableConv2D(4, 3, padding="same", depth_multiplier=2)), E2E,
        "SeparableConv2D(4, 3x3, same, depth multiplier 2)"),
    "DepthwiseConv2D": (_x(8, 8, 3), _layer(
        lambda L: L.DepthwiseConv2D(3, padding="same", depth_multiplier=2)), E2E,
        "DepthwiseConv2D(3x3, same, depth multiplier 2)"),
    "DepthwiseConv2D_strided": (_x(9, 9, 4), _layer(
        lambda L: L.DepthwiseConv2D(3, strides=2)), E2E, "DepthwiseConv2D(3x3, strides 2, valid)"),
    "Conv2DTranspose": (_x(5, 5, 3), _layer(
        lambda L: L.Conv2DTranspose(4, 3, strides=2, padding="same")), E2E,
        "Conv2DTranspose(4, 3x3, strides 2, same)"),
    "Conv2DTranspose_valid": (_x(4, 4, 3), _layer(
        lambda L: L.Conv2DTranspose(2, 3, strides=1)), E2E, "Conv2DTranspose(2, 3x3, valid)"),
    "MaxPooling1D": (_x(12, 3), _layer(lambda L: L.MaxPooling1D(2)), EXACT, "MaxPooling1D(2)"),
    "MaxPooling2D": (_x(8, 8, 3), _layer(lambda L: L.MaxPooling2D(2)), EXACT, "MaxPooling2D(2)"),
    "MaxPooling2D_same": (_x(7, 7, 3), _layer(
        lambda L: L.MaxPooling2D(3, strides=2, padding="same")), EXACT,
        "MaxPooling2D(3, strides 2, same)"),
    "MaxPooling3D": (_x(4, 4, 4, 2), _layer(lambda L: L.MaxPooling3D(2)), EXACT, "MaxPooling3D(2)"),
    "AveragePooling1D": (_x(12, 3), _layer(lambda L: L.AveragePooling1D(2)), E2E,
                         "AveragePooling1D(2)"),
    "AveragePooling2D": (_x(8, 8, 3), _layer(lambda L: L.AveragePooling2D(2)), E2E,
                         "AveragePooling2D(2)"),
    "AveragePooling2D_same": (_x(7, 7, 3), _layer(
        lambda L: L.AveragePooling2D(3, strides=2, padding="same")), E2E,
        "AveragePooling2D(3, strides 2, same): padding not counted"),
    "AveragePooling3D": (_x(4, 4, 4, 2), _layer(lambda L: L.AveragePooling3D(2)), E2E,
                         "AveragePooling3D(2)"),
    "GlobalAveragePooling1D": (_x(6, 4), _layer(lambda L: L.GlobalAveragePooling1D()), E2E,
                               "GlobalAveragePooling1D"),
    "GlobalAveragePooling2D": (_x(5, 5, 4), _layer(lambda L: L.GlobalAveragePooling2D()), E2E,
                               "GlobalAveragePooling2D"),
    "GlobalMaxPooling1D": (_x(6, 4), _layer(lambda L: L.GlobalMaxPooling1D()), EXACT,
                           "GlobalMaxPooling1D"),
    "GlobalMaxPooling2D": (_x(5, 5, 4), _layer(lambda L: L.GlobalMaxPooling2D()), EXACT,
                           "GlobalMaxPooling2D"),
    "BatchNormalization": (_x(6, 6, 4), _layer(lambda L: L.BatchNormalization()), E2E,
                           "BatchNormalization (inference) on [N, 6, 6, 4], random statistics"),
    "BatchNormalization_2d": (_x(8), _bn_2d, E2E,
                              "BatchNormalization(epsilon 1e-3) (inference) on [N, 8]"),
    "LayerNormalization": (_x(5, 8), _layer(lambda L: L.LayerNormalization()), E2E,
                           "LayerNormalization over the last axis of [N, 5, 8]"),
    "LayerNormalization_eps": (_x(4, 37), _layer(lambda L: L.LayerNormalization(epsilon=1e-2)), E2E,
                               "LayerNormalization(epsilon 1e-2) over a last axis of 37 "
                               "(sum lanes and a tail)"),
    "LayerNormalization_nocenter": (_x(3, 24), _layer(lambda L: L.LayerNormalization(center=False)),
                                    E2E, "LayerNormalization(center False): no beta"),
    "LayerNormalization_noscale": (_x(3, 24), _layer(lambda L: L.LayerNormalization(scale=False)),
                                   E2E, "LayerNormalization(scale False): no gamma"),
    "LayerNormalization_plain": (_x(2, 3, 16), _layer(
        lambda L: L.LayerNormalization(center=False, scale=False, epsilon=1e-6)), E2E,
        "LayerNormalization(center False, scale False, epsilon 1e-6) on rank 4"),
    "GroupNormalization": (_x(4, 4, 8), _layer(lambda L: L.GroupNormalization(groups=4)), E2E,
                           "GroupNormalization(groups 4) on [N, 4, 4, 8]"),
    "Dropout": (_x(8), lambda K, x: K.layers.Dense(4)(K.layers.Dropout(0.5)(x)), E2E,
                "Dropout(0.5) at inference (identity) then Dense(4)"),
    "Flatten": (_x(3, 4, 2), _layer(lambda L: L.Flatten()), EXACT, "Flatten [N, 3, 4, 2]"),
    "Reshape": (_x(12), _layer(lambda L: L.Reshape((3, -1))), EXACT, "Reshape((3, -1)) of [N, 12]"),
    "Permute": (_x(2, 3, 4), _layer(lambda L: L.Permute((3, 1, 2))), EXACT, "Permute((3, 1, 2))"),
    "RepeatVector": (_x(5), _layer(lambda L: L.RepeatVector(3)), EXACT, "RepeatVector(3)"),
    "UpSampling1D": (_x(6, 3), _layer(lambda L: L.UpSampling1D(2)), EXACT, "UpSampling1D(2)"),
    "UpSampling2D": (_x(4, 4, 3), _layer(lambda L: L.UpSampling2D(2)), EXACT,
                     "UpSampling2D(2), nearest"),
    "UpSampling2D_bilinear": (_x(4, 4, 3), _layer(
        lambda L: L.UpSampling2D(2, interpolation="bilinear")), E2E, "UpSampling2D(2), bilinear"),
    "ZeroPadding1D": (_x(6, 3), _layer(lambda L: L.ZeroPadding1D((1, 2))), EXACT,
                      "ZeroPadding1D((1, 2))"),
    "ZeroPadding2D": (_x(4, 4, 3), _layer(lambda L: L.ZeroPadding2D(((1, 2), (2, 1)))), EXACT,
                      "ZeroPadding2D(((1, 2), (2, 1)))"),
    "Cropping1D": (_x(8, 3), _layer(lambda L: L.Cropping1D((1, 2))), EXACT, "Cropping1D((1, 2))"),
    "Cropping2D": (_x(6, 6, 3), _layer(lambda L: L.Cropping2D(((1, 1), (2, 1)))), EXACT,
                   "Cropping2D(((1, 1), (2, 1)))"),
    "Embedding": ([("ids", (5,), "int32")], _layer(lambda L: L.Embedding(10, 4)), EXACT,
                  "Embedding(10, 4) on int32 ids [N, 5]"),
    "Attention": ([("q", (3, 4), F32), ("v", (5, 4), F32)], _attention(False), E2E,
                  "Attention (dot-product) query [N, 3, 4], value [N, 5, 4]"),
    "Attention_causal": ([("q", (4, 4), F32), ("v", (4, 4), F32)], _attention(True), E2E,
                         "Attention with use_causal_mask, query and value [N, 4, 4]"),
    "MultiHeadAttention": ([("q", (4, 8), F32), ("v", (6, 8), F32)], _mha(False), E2E,
                           "MultiHeadAttention(2 heads, key_dim 4), query [N, 4, 8], "
                           "value [N, 6, 8]"),
    "MultiHeadAttention_causal": ([("q", (5, 8), F32), ("v", (5, 8), F32)], _mha(True), E2E,
                                  "MultiHeadAttention(2 heads, key_dim 4) with use_causal_mask"),
    "Add": (_two(6), _merge("Add"), E2E, "Add of two [N, 6]"),
    "Concatenate": (_two(6), _merge("Concatenate"), EXACT, "Concatenate of two [N, 6]"),
    "Multiply": (_two(6), _merge("Multiply"), E2E, "Multiply of two [N, 6]"),
    "Average": (_two(6), _merge("Average"), E2E, "Average of two [N, 6]"),
}

def layer_cases():
    libs = _libs()
    for layer, (inputs, body, tol, desc) in LAYERS.items():
        yield _tracked_case("keras_" + layer, libs, inputs, body, tol,
                            "%s, batch 3: Keras 3 (serving_default) and tf_keras %s (tfkeras), "
                            "each model called from a tf.function" % (desc, libs["_tfkeras"].__version__),
                            batch=3)


# ---- activations ------------------------------------------------------------------------
# Inputs span [-7, 7]: both sides of every kink (relu6, hard_sigmoid, thresholds).

ACTIVATION_ARGS = {
    "gelu": [("approximate", {"approximate": True}), ("exact", {"approximate": False})],
    "leaky_relu": [("", {}), ("slope_0p3", {"negative_slope": 0.3})],
    "relu": [("", {}), ("clipped", {"negative_slope": 0.1, "max_value": 4.0, "threshold": 0.5})],
    "elu": [("", {}), ("alpha_0p5", {"alpha": 0.5})],
    "threshold": [("", {"threshold": 0.5, "default_value": -1.0})],
}
NOT_ACTIVATIONS = {"deserialize", "serialize", "get"}


def _activation_names(K):
    return sorted(n for n in dir(K.activations)
                  if not n.startswith("_") and n not in NOT_ACTIVATIONS
                  and callable(getattr(K.activations, n)))


def activation_cases():
    libs = _libs()
    names = {suffix: _activation_names(K) for suffix, K in libs.items()}
    for act in names[""]:
        for variant, kwargs in ACTIVATION_ARGS.get(act, [("", {})]):
            name = "keras_Activation_%s%s" % (act, "_" + variant if variant else "")
            x = rng_for(name).uniform(-7, 7, (3, 8)).astype(np.float32)
            fns, feeds = {}, {}
            for suffix, K in libs.items():
                if act in names[suffix]:
                    f = getattr(K.activations, act)
                    kw = {("alpha" if k == "negative_slope" and suffix else k): v
                          for k, v in kwargs.items()}   # tf_keras's relu says alpha
                    fns[SIG[suffix]] = (lambda f, kw: lambda x: f(x, **kw))(f, kw)
                    feeds[SIG[suffix]] = {"x": x.copy()}
            yield (name, None, feeds, E2E,
                   "activations.%s(%s) on [3, 8] in [-7, 7]: Keras 3 (serving_default)%s"
                   % (act, ", ".join("%s=%r" % kv for kv in kwargs.items()),
                      " and tf_keras (tfkeras)" if len(fns) > 1 else ""),
                   {"fns": fns})


# ---- the real export paths --------------------------------------------------------------

EXPORTED = ["Dense", "Conv2D", "LayerNormalization"]


def export_cases():
    libs = _libs()
    for layer in EXPORTED:
        inputs, body, tol, desc = LAYERS[layer]
        yield _export_case("keras_%s_export" % layer, libs[""], inputs, body, tol,
                           "Keras 3 %s, model.export()" % desc, batch=3)
        yield _export_case("keras_%s_tfkeras_save" % layer, libs["_tfkeras"], inputs, body, tol,
                           "tf_keras %s, tf.saved_model.save(model)" % desc, batch=3)


# ---- architectures ----------------------------------------------------------------------

def _mobilenet_v2(K, image):
    return K.applications.MobileNetV2(alpha=0.35, input_shape=(96, 96, 3), weights=None,
                                      classes=10, input_tensor=image).output


def _res_block(K, x, filters, stride):
    L = K.layers
    y = L.Conv2D(filters, 3, strides=stride, padding="same", use_bias=False)(x)
    y = L.BatchNormalization()(y)
    y = L.ReLU()(y)
    y = L.Conv2D(filters, 3, padding="same", use_bias=False)(y)
    y = L.BatchNormalization()(y)
    if stride != 1 or x.shape[-1] != filters:
        x = L.Conv2D(filters, 1, strides=stride, use_bias=False)(x)
        x = L.BatchNormalization()(x)
    return L.ReLU()(L.Add()([x, y]))


def _resnet(K, image):
    L = K.layers
    x = L.Conv2D(8, 3, padding="same", use_bias=False)(image)
    x = L.BatchNormalization()(x)
    x = L.ReLU()(x)
    x = _res_block(K, x, 8, 1)
    x = _res_block(K, x, 16, 2)
    x = _res_block(K, x, 16, 1)
    x = L.GlobalAveragePooling2D()(x)
    return L.Dense(10, activation="softmax")(x)


def _transformer_encoder(K, tokens):
    L = K.layers
    h = L.MultiHeadAttention(num_heads=2, key_dim=8)(tokens, tokens)
    x = L.LayerNormalization(epsilon=1e-6)(L.Add()([tokens, h]))
    f = L.Dense(32, activation="relu")(x)
    f = L.Dense(16)(f)
    return L.LayerNormalization(epsilon=1e-6)(L.Add()([x, f]))


def _audio_classifier(K, wave):
    L = K.layers
    x = L.Conv1D(8, 9, strides=2, activation="relu")(wave)
    x = L.MaxPooling1D(2)(x)
    x = L.Conv1D(16, 5, padding="same")(x)
    x = L.BatchNormalization()(x)
    x = L.ReLU()(x)
    x = L.MaxPooling1D(2)(x)
    x = L.Conv1D(16, 3, padding="same", activation="relu")(x)
    x = L.GlobalAveragePooling1D()(x)
    return L.Dense(5, activation="softmax")(x)


def _autoencoder(K, image):
    L = K.layers
    x = L.Conv2D(8, 3, strides=2, padding="same", activation="relu")(image)
    x = L.Conv2D(4, 3, strides=2, padding="same", activation="relu")(x)
    x = L.Conv2DTranspose(8, 3, strides=2, padding="same", activation="relu")(x)
    x = L.UpSampling2D(2)(x)
    return L.Conv2D(1, 3, padding="same", activation="sigmoid")(x)


ARCHS = {
    "mobilenet_v2": ([("image", (96, 96, 3), F32)], _mobilenet_v2, 2,
                     "keras.applications.MobileNetV2(alpha 0.35, 96x96x3, weights None, "
                     "10 classes)"),
    "resnet": ([("image", (32, 32, 3), F32)], _resnet, 2,
               "small ResNet: conv stem, 3 basic residual blocks (one strided with a 1x1 "
               "projection), BatchNorm, global average pool, Dense(10, softmax)"),
    "transformer_encoder": ([("tokens", (8, 16), F32)], _transformer_encoder, 2,
                            "Transformer encoder block: MultiHeadAttention(2 heads, key_dim 8) "
                            "+ residual + LayerNorm, FFN Dense(32, relu)-Dense(16) + residual "
                            "+ LayerNorm, on [N, 8, 16]"),
    "audio_cnn1d": ([("wave", (128, 1), F32)], _audio_classifier, 3,
                    "1-D convolutional audio classifier: 3 Conv1D with BatchNorm, ReLU and "
                    "MaxPooling1D, global average pool, Dense(5, softmax) on [N, 128, 1]"),
    "conv_autoencoder": ([("image", (16, 16, 1), F32)], _autoencoder, 2,
                         "convolutional autoencoder: 2 strided Conv2D down, Conv2DTranspose and "
                         "UpSampling2D up, Conv2D(1, sigmoid) on [N, 16, 16, 1]"),
}


def arch_cases():
    libs = _libs()
    keras3 = {"": libs[""]}
    for arch, (inputs, body, batch, desc) in ARCHS.items():
        yield _tracked_case("arch_%s" % arch, keras3, inputs, body, E2E,
                            "Keras 3 %s, in a tf.function tracking the model" % desc, batch=batch)
    inputs, body, batch, desc = ARCHS["resnet"]
    yield _export_case("arch_resnet_export", libs[""], inputs, body, E2E,
                       "Keras 3 %s, model.export()" % desc, batch=batch)
    yield _export_case("arch_resnet_tfkeras_save", libs["_tfkeras"], inputs, body, E2E,
                       "tf_keras %s, tf.saved_model.save(model)" % desc, batch=batch)


def cases():
    yield from layer_cases()
    yield from activation_cases()
    yield from export_cases()
    yield from arch_cases()
