"""Writes tests/data/q8/cnn, tests/data/q8/head, tests/data/q8/resid and
tests/data/q8/dyn for --quantize int8 (issue 16) and its other modes.  cnn: a small Keras CNN (Conv2D, DepthwiseConv2D, Dense, Add, zero Pad,
MaxPool, AvgPool, Concatenate, ReLU6); head: a classifier head with the int8
kernels of their own (Conv2D, hard-swish, global average pooling as Mean,
Dense with Tanh and Sigmoid, a squeeze-excite Mul and an Add that broadcast,
a Concat of inputs with different scales, Softmax); resid: ResNet blocks whose
residual Add a ReLU or ReLU6 follows (TFLite fuses the activation into the ADD
and gives its output the activation's range), with a 1x1 and an identity
shortcut; dyn: the contractions --quantize dynamic makes hybrid, on inputs
in [-1, 1]; ties: Dense weights on half steps of their scales (the weight
quantizers' rounding).  Each, fixed seed, writes
its SavedModel, calibration inputs (calib.npy, 64 samples stacked along the
leading dim) and held-out inputs (heldout.npy, 16 samples), TensorFlow's float
outputs on them (float.npy) and TFLite's full-integer quantization of the same
model with the same calibration data as representative dataset, float I/O,
run with TFLite's reference kernels (tflite_int8.npy; ai_edge_litert's
interpreter, tf.lite's when it is missing).  meta.json records the TFLite
model's output scale, to count disagreements in output quanta.

s16: the 16x8 scheme's kernels with non-zero int64 biases, a residual Add,
an average pool, Mean and Softmax.
Each case also holds TFLite's outputs in its other modes, tflite_float16.npy
(float16 weights) and tflite_dynamic.npy (dynamic range: int8 weights of 1024
elements or more, activations quantized per call by the hybrid kernels), and
cnn tflite_int8_skip.npy (full int8 with two layers left float by TFLite's
quantization debugger, --quantize-skip's reference) and, but for head,
tflite_int16x8.npy (16x8: int16 activations calibrated on calib.npy, int8
weights, int64 biases), all run with the
reference kernels; `--modes` writes only these for the cases as
they are.

int4 modes (--weights-bits 4; `--modes int4,dynamic_int4 CASE`, not run by
default): tflite_int4.npy is TFLite's full-integer model above (its activation
parameters, which sm2c computes as the converter does) with every CONV_2D,
DEPTHWISE_CONV_2D and FULLY_CONNECTED filter replaced by an INT4 tensor (type
17, two to a byte, low nibble first) of the float filter quantized per channel
by Google's ai-edge-quantizer (its uniform_quantize_tensor: scale
max|w| / 7 in float32, np.rint, clamped to [-8, 7]; the same values its
static_wi4_ai8 recipe writes for CONV_2D and FULLY_CONNECTED) and each int32
bias requantized to the new scales as the converter quantizes biases;
tflite_dynamic_int4.npy is the dynamic-range model with its CONV_2D and
FULLY_CONNECTED filters so replaced (TFLite's hybrid depthwise takes no INT4
filter).  Both run with the reference kernels.  ai-edge-quantizer's own
calibration picks other activation ranges than the converter, so its static
model is not the reference.  It needs ai-edge-quantizer
(tests/models/requirements-int4.txt), installed beside the pinned
TensorFlow without its dependencies (pip install --no-deps --target DIR, then
PYTHONPATH=DIR), so that the pinned packages stay as they are.

usage: .venv/bin/python tests/models/gen_q8.py [cnn|head|resid ...]   (needs the pinned TensorFlow)
       .venv/bin/python tests/models/gen_q8.py --modes float16,dynamic,int16x8 [CASE ...]
       PYTHONPATH=DIR .venv/bin/python tests/models/gen_q8.py --modes int4,dynamic_int4 cnn dyn
"""
import json
import os
import shutil
import sys

import numpy as np
import tensorflow as tf

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "q8")


def build_model():
    import keras
    keras.utils.set_random_seed(0)
    inp = keras.Input(shape=(8, 8, 3), name="image")
    c1 = keras.layers.Conv2D(8, 3, padding="same", activation="relu6", name="conv1")(inp)
    d1 = keras.layers.DepthwiseConv2D(3, padding="same", activation="relu6", name="dw")(c1)
    c2 = keras.layers.Conv2D(8, 1, name="conv2")(d1)
    h = keras.layers.Add(name="residual")([c1, c2])
    h = keras.layers.ZeroPadding2D(1, name="pad")(h)
    m = keras.layers.MaxPooling2D(2, name="maxpool")(h)
    a = keras.layers.AveragePooling2D(2, name="avgpool")(h)
    h = keras.layers.Concatenate(name="concat")([m, a])
    h = keras.layers.Flatten(name="flatten")(h)
    h = keras.layers.Dense(16, activation="relu6", name="fc1")(h)
    out = keras.layers.Dense(10, name="logits")(h)
    return keras.Model(inp, out)


def build_head():
    import keras
    keras.utils.set_random_seed(1)
    inp = keras.Input(shape=(8, 8, 3), name="image")
    c = keras.layers.Conv2D(16, 3, padding="same", name="conv")(inp)
    c = keras.layers.Activation("hard_silu", name="hswish")(c)
    g = keras.layers.GlobalAveragePooling2D(name="gap")(c)
    t = keras.layers.Dense(16, activation="tanh", name="fc_tanh")(g)
    s = keras.layers.Dense(16, activation="sigmoid", name="fc_sigmoid")(t)
    se = keras.layers.Multiply(name="excite")([c, keras.layers.Reshape((1, 1, 16), name="s4")(s)])
    h = keras.layers.Add(name="shift")([se, keras.layers.Reshape((1, 1, 16), name="t4")(t)])
    h = keras.layers.GlobalAveragePooling2D(name="gap2")(h)
    h = keras.layers.Concatenate(name="concat")([h, t, s])
    h = keras.layers.Dense(10, name="logits")(h)
    out = keras.layers.Softmax(name="probs")(h)
    return keras.Model(inp, out)


def build_resid():
    import keras
    keras.utils.set_random_seed(2)
    L = keras.layers
    inp = keras.Input(shape=(8, 8, 3), name="image")
    h = L.Conv2D(8, 3, padding="same", activation="relu", name="stem")(inp)
    b = L.Conv2D(16, 3, strides=2, padding="same", activation="relu", name="b1_conv1")(h)
    b = L.Conv2D(16, 3, padding="same", name="b1_conv2")(b)
    s = L.Conv2D(16, 1, strides=2, name="b1_short")(h)
    h = L.ReLU(name="b1_relu")(L.Add(name="b1_add")([b, s]))
    b = L.Conv2D(16, 3, padding="same", activation="relu", name="b2_conv1")(h)
    b = L.Conv2D(16, 3, padding="same", name="b2_conv2")(b)
    h = L.ReLU(max_value=6.0, name="b2_relu6")(L.Add(name="b2_add")([h, b]))
    h = L.AveragePooling2D(4, name="pool")(h)
    h = L.Flatten(name="flatten")(h)
    out = L.Dense(10, name="logits")(h)
    return keras.Model(inp, out)


def build_dyn():
    """For --quantize dynamic: every contraction TFLite's dynamic-range
    quantizer makes hybrid (Conv2D, 1x1 Conv2D, depthwise of multiplier 1 and 2,
    Dense: 1024 weights or more) and one it keeps float (the last Dense)."""
    import keras
    keras.utils.set_random_seed(3)
    L = keras.layers
    inp = keras.Input(shape=(8, 8, 16), name="image")
    h = L.Conv2D(32, 3, padding="same", activation="relu", name="conv")(inp)
    h = L.Conv2D(128, 1, name="expand")(h)
    h = L.DepthwiseConv2D(3, strides=2, padding="same", activation="relu6", name="dw")(h)
    h = L.DepthwiseConv2D(3, depth_multiplier=2, padding="valid", name="dw2")(h)
    h = L.GlobalAveragePooling2D(name="gap")(h)
    h = L.Dense(64, activation="relu", name="fc")(h)
    out = L.Dense(10, name="logits")(h)
    return keras.Model(inp, out)


def build_s16():
    """For --quantize int16x8: TFLite's 16x8 kernels with their int64 biases
    non-zero (a Conv2D with batch norm folded, a depthwise of multiplier 2, a
    Dense), a residual Add, an average pool (whose scale TFLite's 16x8
    quantizer takes from its input, where int8's goes the other way), global
    average pooling (Mean) and a Softmax."""
    import keras
    keras.utils.set_random_seed(5)
    L = keras.layers
    inp = keras.Input(shape=(8, 8, 4), name="image")
    c = L.Conv2D(8, 3, padding="same", name="conv")(inp)
    c = L.BatchNormalization(name="bn")(c)
    c = L.ReLU(name="relu")(c)
    d = L.DepthwiseConv2D(3, depth_multiplier=2, padding="same", name="dw")(c)
    d = L.Conv2D(8, 1, name="project")(d)
    h = L.Add(name="residual")([c, d])
    h = L.AveragePooling2D(2, name="avgpool")(h)   # 16x8 keeps the Add's scale (int8 takes the pool's)
    h = L.GlobalAveragePooling2D(name="gap")(h)
    h = L.Dense(16, activation="relu", name="fc")(h)
    h = L.Dense(10, name="logits")(h)
    out = L.Softmax(name="softmax")(h)
    model = keras.Model(inp, out)
    rng = np.random.default_rng(5)
    for layer in model.layers:
        ws = layer.get_weights()
        if layer.name == "bn":   # a batch norm that moves the values
            ws = [rng.uniform(0.5, 1.5, w.shape).astype(np.float32) if i in (0, 3) else
                  rng.normal(0, 0.3, w.shape).astype(np.float32) for i, w in enumerate(ws)]
        elif len(ws) == 2:       # biases as trained layers have them
            ws[1] = rng.normal(0, 0.2, ws[1].shape).astype(np.float32)
        layer.set_weights(ws)
    return model


def build_ties():
    """Dense layers whose weights lie on half steps of their scale and one
    float either side: where the quantizers' rounding formulas differ
    (full int8: round(w * (float)(1 / scale)); dynamic: round(w / scale) in
    double)."""
    import keras
    keras.utils.set_random_seed(4)
    rng = np.random.default_rng(4)
    inp = keras.Input(shape=(8, 8, 3), name="image")
    h = keras.layers.Flatten(name="flatten")(inp)
    d1 = keras.layers.Dense(32, name="fc1")
    h = d1(h)
    d2 = keras.layers.Dense(10, name="logits")
    out = d2(h)
    model = keras.Model(inp, out)
    for layer in (d1, d2):
        k, b = layer.get_weights()
        amax = np.float32(0.5)
        s = np.float32(amax / np.float32(127))
        steps = rng.integers(-126, 126, k.shape).astype(np.float32)
        w = ((steps + np.float32(0.5)) * s).astype(np.float32)
        nudge = rng.integers(-1, 2, k.shape)
        w = np.where(nudge == 1, np.nextafter(w, np.float32(10)),
                     np.where(nudge == -1, np.nextafter(w, np.float32(-10)), w)).astype(np.float32)
        w[0, :] = amax
        layer.set_weights([w, b])
    return model


def tflite_int8(model_dir, calib):
    conv = tf.lite.TFLiteConverter.from_saved_model(model_dir)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = lambda: ([calib[i:i + 1]] for i in range(len(calib)))
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    return conv.convert()


def tflite_float16(model_dir):
    """TFLite's float16 quantization: every float constant stored as float16."""
    conv = tf.lite.TFLiteConverter.from_saved_model(model_dir)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.target_spec.supported_types = [tf.float16]
    return conv.convert()


def tflite_dynamic(model_dir):
    """TFLite's dynamic-range quantization: int8 weights, no calibration."""
    conv = tf.lite.TFLiteConverter.from_saved_model(model_dir)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    return conv.convert()


# --quantize-skip's reference: TFLite's quantization debugger leaves these
# nodes (its tensor names) float, quantizing and dequantizing at the seams.
SKIP = {"cnn": ["functional_1/dw_1/Relu6;functional_1/dw_1/depthwise",
                "functional_1/fc1_1/MatMul;functional_1/fc1_1/Relu6"]}


def tflite_int8_skip(model_dir):
    """Full int8 with the case's SKIP nodes float (calib.npy beside the model)."""
    calib = np.load(os.path.join(os.path.dirname(model_dir), "calib.npy"))
    conv = tf.lite.TFLiteConverter.from_saved_model(model_dir)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    rep = lambda: ([calib[i:i + 1]] for i in range(len(calib)))  # noqa: E731
    conv.representative_dataset = rep
    name = os.path.basename(os.path.dirname(model_dir))
    opts = tf.lite.experimental.QuantizationDebugOptions(denylisted_nodes=SKIP[name])
    dbg = tf.lite.experimental.QuantizationDebugger(converter=conv, debug_dataset=rep, debug_options=opts)
    return dbg.get_nondebug_quantized_model()


def tflite_int16x8(model_dir):
    """TFLite's 16x8 quantization: int16 activations, int8 weights, int64
    biases (calib.npy beside the model as representative dataset)."""
    calib = np.load(os.path.join(os.path.dirname(model_dir), "calib.npy"))
    conv = tf.lite.TFLiteConverter.from_saved_model(model_dir)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = lambda: ([calib[i:i + 1]] for i in range(len(calib)))
    conv.target_spec.supported_ops = [tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
    return conv.convert()



def int4_filters(blob, float_blob, ops):
    """blob (a converted .tflite) with the int8 filters of the ops whose
    builtin codes are in `ops` replaced by INT4 ones quantized from the float
    model's filters (same tensor names) by ai-edge-quantizer, and their int32
    biases requantized: round(b / (in_scale * w_scale)), halves away from zero,
    in double (the converter's)."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as fb
    from ai_edge_quantizer import qtyping
    from ai_edge_quantizer.algorithms.uniform_quantize import uniform_quantize_tensor as uq

    def model(b):
        return fb.ModelT.InitFromObj(fb.Model.GetRootAsModel(b, 0))

    def data(m, t):
        d = m.buffers[t.buffer].data
        return None if d is None or not len(d) else np.asarray(d, np.uint8)

    fm, qm = model(float_blob), model(blob)
    fg, g = fm.subgraphs[0], qm.subgraphs[0]
    ftensor = {t.name: t for t in fg.tensors}
    fop = {fg.tensors[op.outputs[0]].name: op for op in fg.operators}
    for op in g.operators:
        code = qm.operatorCodes[op.opcodeIndex]
        if max(code.builtinCode, code.deprecatedBuiltinCode) not in ops:
            continue
        wt = g.tensors[op.inputs[1]]
        if wt.type != fb.TensorType.INT8 or data(qm, wt) is None:
            continue
        w = data(fm, ftensor[wt.name]).view(np.float32).reshape(wt.shape)
        axis = wt.quantization.quantizedDimension
        others = tuple(i for i in range(w.ndim) if i != axis)
        zp, scale = uq.tensor_zp_scale_from_min_max(w.min(others, keepdims=True), w.max(others, keepdims=True), 4, True,
                                                    qtyping.QuantGranularity.CHANNELWISE)
        params = qtyping.UniformQuantParams(num_bits=4, quantized_dimension=axis, scale=scale, zero_point=zp)
        q = uq.uniform_quantize(w, params).astype(np.int8).reshape(-1)
        q = np.append(q, np.int8(0)) if q.size % 2 else q
        qm.buffers[wt.buffer].data = ((q[0::2].astype(np.uint8) & 15) | ((q[1::2].astype(np.uint8) & 15) << 4))
        wt.type = fb.TensorType.INT4
        scale = scale.reshape(-1).astype(np.float32)
        wt.quantization.scale, wt.quantization.zeroPoint = [float(v) for v in scale], [0] * scale.size
        if len(op.inputs) > 2 and op.inputs[2] >= 0 and g.tensors[op.inputs[2]].type == fb.TensorType.INT32:
            bt = g.tensors[op.inputs[2]]
            bf = data(fm, fg.tensors[fop[g.tensors[op.outputs[0]].name].inputs[2]]).view(np.float32).astype(np.float64)
            bs = np.float64(np.float32(g.tensors[op.inputs[0]].quantization.scale[0])) * scale.astype(np.float64)
            r = bf / bs
            bq = np.trunc(r + np.where(r < 0, -0.5, 0.5))            # C's round()
            qm.buffers[bt.buffer].data = bq.astype(np.int32).view(np.uint8)
            bt.quantization.scale = [float(v) for v in (np.float32(g.tensors[op.inputs[0]].quantization.scale[0]) * scale)]
            bt.quantization.zeroPoint = [0] * scale.size
    b = flatbuffers.Builder(1024)
    b.Finish(qm.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def tflite_float(model_dir):
    return tf.lite.TFLiteConverter.from_saved_model(model_dir).convert()


def tflite_int4(model_dir):
    """Full int8 (calib.npy beside the model) with int4 Conv2D, depthwise and FC filters."""
    calib = np.load(os.path.join(os.path.dirname(model_dir), "calib.npy"))
    return int4_filters(tflite_int8(model_dir, calib), tflite_float(model_dir), (3, 4, 9))


def tflite_dynamic_int4(model_dir):
    """Dynamic range with int4 Conv2D and FC filters (depthwise: int8)."""
    return int4_filters(tflite_dynamic(model_dir), tflite_float(model_dir), (3, 9))


INT4_MODES = {"int4": tflite_int4, "dynamic_int4": tflite_dynamic_int4}   # only by --modes


MODES = {"float16": tflite_float16, "dynamic": tflite_dynamic, "int8_skip": tflite_int8_skip,
         "int16x8": tflite_int16x8}
# head's hard-swish has no 16x8 kernel in TFLite's converter
NO_16X8 = {"head"}


def write_modes(name, modes):
    """tflite_<mode>.npy for an existing case: TFLite's conversion in each of
    `modes` run on its held-out inputs with the reference kernels."""
    d = os.path.join(ROOT, name)
    held = np.load(os.path.join(d, "heldout.npy"))
    for mode in modes:
        out, _, _ = run_tflite({**MODES, **INT4_MODES}[mode](os.path.join(d, "model")), held)
        np.save(os.path.join(d, f"tflite_{mode}.npy"), out.astype(np.float32))


def interpreter(blob):
    try:
        from ai_edge_litert.interpreter import Interpreter, OpResolverType
    except ImportError:
        Interpreter, OpResolverType = tf.lite.Interpreter, tf.lite.experimental.OpResolverType
    return Interpreter(model_content=blob, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)


def run_tflite(blob, xs):
    interp = interpreter(blob)
    interp.allocate_tensors()
    i, o = interp.get_input_details()[0], interp.get_output_details()[0]
    outs = []
    for x in xs:
        interp.set_tensor(i["index"], x[None])
        interp.invoke()
        outs.append(interp.get_tensor(o["index"])[0].copy())
    details = {d["index"]: d for d in interp.get_tensor_details()}
    out_scale = None
    for op in interp._get_ops_details():      # the int8 tensor the output Dequantize reads
        if op["op_name"] == "DEQUANTIZE" and list(op["outputs"]) == [o["index"]]:
            out_scale = float(details[op["inputs"][0]]["quantization"][0])
    return np.stack(outs), out_scale, [(d["name"], d["quantization"]) for d in interp.get_tensor_details()]


def write_case(name, model):
    d = os.path.join(ROOT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    model_dir = os.path.join(d, "model")
    model.export(model_dir, verbose=False)
    rng = np.random.default_rng(16)
    shape, lo = tuple(model.inputs[0].shape[1:]), -1.0 if name == "dyn" else 0.0
    calib = rng.uniform(lo, 1, (64,) + shape).astype(np.float32)
    held = rng.uniform(lo, 1, (16,) + shape).astype(np.float32)
    np.save(os.path.join(d, "calib.npy"), calib)
    np.save(os.path.join(d, "heldout.npy"), held)
    sig = tf.saved_model.load(model_dir).signatures["serving_default"]
    ref = list(sig(image=tf.constant(held)).values())[0].numpy()
    np.save(os.path.join(d, "float.npy"), ref.astype(np.float32))
    blob = tflite_int8(model_dir, calib)
    q, out_scale, params = run_tflite(blob, held)
    np.save(os.path.join(d, "tflite_int8.npy"), q.astype(np.float32))
    meta = {"tf_version": tf.__version__, "output_scale": out_scale,
            "tflite_mean_abs_error": float(np.abs(q - ref).mean()),
            "float_weight_bytes": int(sum(np.prod(w.shape) * 4 for w in model.weights))}
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    for name, qp in params:
        print(name, qp)
    print(meta)


def main():
    cases = {"cnn": build_model, "head": build_head, "resid": build_resid, "dyn": build_dyn, "ties": build_ties,
             "s16": build_s16}
    args = sys.argv[1:]
    if args and args[0] == "--modes":      # --modes MODE,... [CASE ...]: TFLite's outputs only
        for name in args[2:] or cases:
            write_modes(name, args[1].split(","))
        return
    for name in args or cases:
        write_case(name, cases[name]())
        write_modes(name, [m for m in MODES if (m != "int8_skip" or name in SKIP) and
                           (m != "int16x8" or name not in NO_16X8)])


if __name__ == "__main__":
    main()
