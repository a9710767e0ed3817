#!/usr/bin/env python3
"""sm2c's --quantize dynamic, float16, int16x8 and int4 (--quantize int8
--weights-bits 4) against TFLite in the same modes, in one run (issue 34's
benchmark rows).

Run with the project venv, after bench/gen_bench_models.py:
    /work/venv/bin/python bench/run_bench_modes.py [--sm2c build/sm2c] [--rounds 5]
        [--modes dynamic,float16,int16x8,int4] [--results FILE.md] [NAME...]
    (int4 needs ai-edge-quantizer on PYTHONPATH: tests/models/requirements-int4.txt)

Per model and mode (the benchmark's SavedModels, random weights; held-out
inputs uniform in [-1, 1), seed 3, as bench/run_bench_int8.py's):
  sm2c-MODE     sm2c compile --quantize MODE, float IO, cc -O3 -march=native,
                timed inside C (bench/harness.c)
  tflite-MODE   TFLiteConverter, optimizations DEFAULT (float16: supported_types
                float16; dynamic: no representative dataset; int16x8: the 16x8 ops
                set with run_bench_int8.py's calibration inputs, which sm2c gets
                as --calibration; int4: the full-integer int8 conversion with the
                same inputs, its filters INT4 from ai-edge-quantizer, as
                tests/models/gen_q8.py makes its references); ai_edge_litert
                Interpreter with its default XNNPACK delegate, num_threads=1: what a
                TFLite user runs
  sm2c-float    the float model, built like sm2c-MODE
Weights: sm2c's count (the compile's "weights N bytes") against the float
build's; TFLite's .tflite file against its float conversion's.  Accuracy: mean
absolute error against TensorFlow's float outputs; "equal": outputs within
rtol 1e-5 of TFLite's reference kernels (BUILTIN_REF, the bits sm2c follows);
for int16x8, within one quantum of TFLite's output scale (the calibrated
ranges come from different float kernels: ARCHITECTURE.md).
Timing is run_bench.py's: thread CPU time, round robin, medians and
interquartile ranges.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench as rb  # noqa: E402
import run_bench_int8 as r8  # noqa: E402

MODELS = ["fc_autoencoder", "lstm", "transformer", "ds_cnn", "mobilenet_v2"]
KERAS_ONLY = {"lstm"}   # converted from the Keras model (keras_converter)


def keras_converter(name, sm_dir):
    """The converter of the benchmark's Keras model, rebuilt as
    gen_bench_models.py built it (same seed), at batch 1: from the SavedModel
    an LSTM's TensorList ops do not lower to TFLite's builtins, while a Keras
    model with a static batch becomes its fused sequence op."""
    import gen_bench_models as gb
    import keras
    import tensorflow as tf
    keras.utils.set_random_seed(0)
    model = {**gb.MODELS, **gb.BIG}[name][1]()
    gb.randomise_batch_norms(model, np.random.default_rng(0))
    x = np.load(os.path.join(os.path.dirname(sm_dir), "input.npy"))
    want = np.load(os.path.join(os.path.dirname(sm_dir), "expected.npy"))
    if not np.allclose(model(x).numpy(), want, rtol=1e-4, atol=1e-5):
        raise RuntimeError(f"{name}: the rebuilt Keras model is not the SavedModel's")
    inp = keras.Input(tuple(x.shape[1:]), batch_size=1)
    return tf.lite.TFLiteConverter.from_keras_model(keras.Model(inp, model(inp)))


def tflite_int4(sm_dir, calib):
    """TFLite's int8 model with INT4 Conv2D, depthwise and FC filters (gen_q8.py's)."""
    sys.path.insert(0, os.path.join(rb.ROOT, "tests", "models"))
    import gen_q8
    return gen_q8.int4_filters(gen_q8.tflite_int8(sm_dir, calib), gen_q8.tflite_float(sm_dir), (3, 4, 9))


def tflite_mode(sm_dir, mode, path, name, calib=None):
    import tensorflow as tf
    if mode == "int4":
        with open(path, "wb") as f:
            f.write(tflite_int4(sm_dir, calib))
        return os.path.getsize(path)
    conv = tf.lite.TFLiteConverter.from_saved_model(sm_dir) if name not in KERAS_ONLY else \
        keras_converter(name, sm_dir)
    if mode != "float":
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
    if mode == "float16":
        conv.target_spec.supported_types = [tf.float16]
    if mode == "int16x8":
        conv.representative_dataset = lambda: ([x[None]] for x in calib)
        conv.target_spec.supported_ops = [tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
    with open(path, "wb") as f:
        f.write(conv.convert())
    return os.path.getsize(path)


def output_scale(path):
    """The scale of the integer tensor the output DEQUANTIZE reads (None: float)."""
    from ai_edge_litert.interpreter import Interpreter
    it = Interpreter(model_path=path)
    out = it.get_output_details()[0]["index"]
    details = {d["index"]: d for d in it.get_tensor_details()}
    for op in it._get_ops_details():
        if op["op_name"] == "DEQUANTIZE" and list(op["outputs"]) == [out]:
            return float(details[op["inputs"][0]]["quantization"][0])
    return None


def reference_outputs(path, xs):
    """TFLite's reference kernels (no delegate), one input at a time."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_path=path, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    inp, out = it.get_input_details()[0], it.get_output_details()[0]
    it.resize_tensor_input(inp["index"], [1, *xs.shape[1:]])
    it.allocate_tensors()
    outs = []
    for x in xs:
        it.set_tensor(inp["index"], x[None])
        it.invoke()
        outs.append(it.get_tensor(out["index"]).reshape(-1).copy())
    return np.stack(outs)


def build(sm2c, sm_dir, work, mode, calib_arg=None):
    out = os.path.join(work, "c-" + mode)
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sm2c, "compile", sm_dir, "-o", out, "--name", "m", "--signature", "serving_default"]
    if mode != "float":
        cmd += ["--quantize", mode] if mode != "int4" else ["--quantize", "int8", "--weights-bits", "4"]
    if mode in ("int16x8", "int4"):
        cmd += ["--calibration", calib_arg]
    log = subprocess.run(cmd, check=True, capture_output=True, text=True).stderr
    weights = int(re.search(r"weights (\d+) bytes", log).group(1))
    sources = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".c"))
    so = os.path.join(work, mode + ".so")
    rb.sh([os.environ.get("CC", "cc"), "-std=c99", "-O3", "-march=native", "-shared", "-fPIC",
           "-I", out, "-DMODEL=m", os.path.join(rb.HERE, "harness.c"), *sources, "-lm", "-o", so])
    return so, weights


def bench_model(name, modes, args):
    sm_dir = r8.model_dir(args, name)
    key, shape = r8.input_key_shape(args, name)
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    calib, held = r8.datasets(name, shape)
    calib_npy = os.path.join(work, "calib.npy")
    np.save(calib_npy, calib)
    want = r8.tf_outputs(sm_dir, key, held).reshape(len(held), -1)
    x0 = held[:1]
    out_shape = (1, *r8.tf_outputs(sm_dir, key, held[:1]).shape[1:])
    so_f, w_f = build(args.sm2c, sm_dir, work, "float")
    tfl_f = os.path.join(work, "float.tflite")
    engines, weights, ref = {"sm2c-float": rb.Sm2c(so_f, x0, out_shape)}, {"sm2c-float": w_f}, {}
    weights["tflite-float"] = tflite_mode(sm_dir, "float", tfl_f, name)
    quantum = {}
    for mode in modes:
        so, w = build(args.sm2c, sm_dir, work, mode, f"{key}={calib_npy}")
        tfl = os.path.join(work, mode + ".tflite")
        weights["tflite-" + mode] = tflite_mode(sm_dir, mode, tfl, name, calib)
        quantum[mode] = output_scale(tfl) if mode in ("int16x8", "int4") else None
        weights["sm2c-" + mode] = w
        engines["sm2c-" + mode] = rb.Sm2c(so, x0, out_shape)
        engines["tflite-" + mode] = rb.Tflite(tfl, x0)
        ref[mode] = reference_outputs(tfl, held)
    outs, mae = {}, {}
    for k, e in engines.items():
        outs[k] = r8.run_all(e, held, r8.set_tflite if k.startswith("tflite") else r8.set_sm2c)
        mae[k] = float(np.mean(np.abs(outs[k] - want)))
    for k, e in engines.items():
        (r8.set_tflite if k.startswith("tflite") else r8.set_sm2c)(e, x0)
    calls = {k: rb.calibrate(e) for k, e in engines.items()}
    samples = {k: [] for k in engines}
    for _ in range(args.rounds):
        for k, e in engines.items():
            samples[k].append(e.time(calls[k]) / calls[k] * 1e6)
    row = {"name": name, "modes": modes, "engines": {}, "n_out": int(want.size), "weights": weights, "equal": {},
           "ref_mae": {m: float(np.mean(np.abs(ref[m] - want))) for m in modes}}
    for m in modes:
        if quantum[m]:
            row["equal"][m] = int(np.sum(np.abs(outs["sm2c-" + m] - ref[m]) <= 1.01 * quantum[m]))
        else:
            row["equal"][m] = int(np.sum(np.isclose(outs["sm2c-" + m], ref[m], rtol=1e-5, atol=1e-7)))
    for k in engines:
        s = sorted(samples[k])
        q = statistics.quantiles(s, n=4) if len(s) > 1 else [s[0]] * 3
        row["engines"][k] = {"median_us": statistics.median(s), "q1_us": q[0], "q3_us": q[2], "mae": mae[k]}
    return row


def write_results(path, rows, load_before, load_after, args, modes):
    m = rb.machine()
    lines = [
        "## Quantization modes: sm2c against TFLite's converter in the same mode (bench/run_bench_modes.py)",
        "",
        f"- machine: {m['cpu']}, {m['cores']} cores (shared with other users while measured)",
        f"- load before: `{load_before}`",
        f"- load after: `{load_after}`",
        f"- sm2c commit {rb.sh(['git', '-C', rb.ROOT, 'rev-parse', '--short', 'HEAD']).strip()}; "
        f"compiler: {m['cc']}; ai-edge-litert {m['litert']}",
        f"- {args.rounds} rounds, round robin; one thread, batch 1; float inputs and outputs; "
        f"{r8.N_HELD} held-out inputs",
        "- TFLite timed with its default XNNPACK delegate; 'equal' counts sm2c's outputs within "
        "rtol 1e-5 of TFLite's reference kernels in the same mode (int16x8, int4: within one output quantum)",
        "",
    ]
    for mode in modes:
        lines += [
            f"### --quantize {mode}",
            "",
            "| model | weights sm2c / float | weights TFLite / float | MAE sm2c | MAE TFLite (XNNPACK) "
            "| MAE TFLite (reference) | equal to TFLite reference | sm2c µs | TFLite µs | sm2c float µs "
            "| sm2c / TFLite | sm2c / sm2c float |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            if mode not in r["modes"]:
                continue
            e, w = r["engines"], r["weights"]
            s, t, f = e["sm2c-" + mode], e["tflite-" + mode], e["sm2c-float"]
            lines.append(
                f"| {r['name']} | {w['sm2c-' + mode]:,} / {w['sm2c-float']:,} B ({w['sm2c-' + mode] / w['sm2c-float']:.2f}x) "
                f"| {w['tflite-' + mode]:,} / {w['tflite-float']:,} B ({w['tflite-' + mode] / w['tflite-float']:.2f}x) "
                f"| {s['mae']:.2e} | {t['mae']:.2e} | {r['ref_mae'][mode]:.2e} | {r['equal'][mode]}/{r['n_out']} "
                f"| {r8.cell(s)} | {r8.cell(t)} | {r8.cell(f)} | {s['median_us'] / t['median_us']:.2f}x "
                f"| {s['median_us'] / f['median_us']:.2f}x |")
        lines.append("")
    text = "\n".join(lines)
    if path:
        with open(path, "w") as fh:
            fh.write(text)
    print(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sm2c", default=os.path.join(rb.ROOT, "build", "sm2c"))
    ap.add_argument("--models", default=os.path.join(rb.HERE, ".models"))
    ap.add_argument("--work", default=os.path.join(rb.HERE, ".work-modes"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--modes", default="dynamic,float16")
    ap.add_argument("--results", default=None, help="write the tables here (Markdown)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    modes = args.modes.split(",")
    load_before = rb.sh(["uptime"]).strip()
    rows = []
    for name in args.names or MODELS:
        try:
            rows.append(bench_model(name, modes, args))
            print(name, {k: round(v["median_us"], 1) for k, v in rows[-1]["engines"].items()}, flush=True)
        except Exception as ex:  # one model's failure is reported, the others still run
            print(f"{name}: failed: {ex}", file=sys.stderr, flush=True)
    write_results(args.results, rows, load_before, rb.sh(["uptime"]).strip(), args, modes)


if __name__ == "__main__":
    main()
