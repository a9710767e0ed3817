#!/usr/bin/env python3
"""sm2c int8 against TFLite's own full-integer quantization, in one run (issue 16's goals).

Run with the project venv, after bench/gen_bench_models.py:
    /work/main/.venv/bin/python bench/run_bench_int8.py [--sm2c build/sm2c] [--rounds 9]
        [--results FILE.md] [NAME...]

Per model (the benchmark's SavedModels, random weights; and samples/digits, trained):
  calibration  32 inputs, uniform in [-1, 1) like input.npy (seed 2); the trained
               digits model takes scikit-learn's digits training split, scaled as
               it was trained
  held out     16 other inputs (seed 3); digits: its 10 sample images
  sm2c-int8    sm2c compile --quantize int8 --calibration KEY=calib.npy, float IO,
               cc -O3 -march=native, timed inside C (bench/harness.c)
  tflite-int8  TFLiteConverter, optimizations DEFAULT, the same calibration inputs
               as its representative dataset, TFLITE_BUILTINS_INT8 only (float IO);
               ai_edge_litert Interpreter, num_threads=1
  sm2c-int8-frq  sm2c-int8 with --requantize float: Conv2D, depthwise, Dense and Add
               requantize in float (XNNPACK's scheme for the contractions, the one
               TFLite's XNNPACK kernels use), not TFLite's reference bits
  sm2c-float   the float model, built like sm2c-int8

Accuracy is against TensorFlow's float outputs on the held-out inputs: mean
absolute error, and for classifiers (softmax outputs) top-1 agreement.  Timing is
run_bench.py's: thread CPU time, round robin, medians and interquartile ranges.
"""
import argparse
import os
import shutil
import statistics
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench as rb  # noqa: E402

MODELS = ["ds_cnn", "vww", "resnet8", "fc_autoencoder", "mobilenet_v2", "digits", "digits_trained"]
CLASSIFIERS = {"ds_cnn", "vww", "resnet8", "mobilenet_v2", "digits", "digits_trained"}
N_CALIB, N_HELD = 32, 16


def model_dir(args, name):
    if name == "digits_trained":
        return os.path.join(rb.ROOT, "samples", "digits", "model")
    return os.path.join(args.models, name, "saved_model")


def input_key_shape(args, name):
    if name == "digits_trained":
        return "pixels", [1, 64]
    info = rb.json.load(open(os.path.join(args.models, name, "info.json")))
    return info["input_key"], info["input_shape"]


def datasets(name, shape):
    """Calibration and held-out inputs, each stacked along the leading dim."""
    if name == "digits_trained":
        from sklearn.datasets import load_digits
        from sklearn.model_selection import train_test_split
        d = load_digits()
        x_train, _, _, _ = train_test_split(d.data, d.target, test_size=0.25, random_state=0,
                                            stratify=d.target)
        calib = (x_train[:N_CALIB] / 16.0).astype(np.float32)
        held = np.load(os.path.join(rb.ROOT, "samples", "digits", "images.npy"))
        return calib, held
    one = shape[1:]
    calib = np.random.default_rng(2).uniform(-1, 1, [N_CALIB, *one]).astype(np.float32)
    held = np.random.default_rng(3).uniform(-1, 1, [N_HELD, *one]).astype(np.float32)
    return calib, held


def tf_outputs(sm_dir, key, xs):
    """TensorFlow's float outputs, one input at a time (batch 1, as the engines run)."""
    import tensorflow as tf
    fn = tf.saved_model.load(sm_dir).signatures["serving_default"]
    outs = []
    for x in xs:
        res = fn(**{key: tf.constant(x[None])})
        outs.append(next(iter(res.values())).numpy()[0])
    return np.stack(outs)


def tflite_int8(sm_dir, calib, path):
    import tensorflow as tf
    conv = tf.lite.TFLiteConverter.from_saved_model(sm_dir)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = lambda: ([x[None]] for x in calib)
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    with open(path, "wb") as f:
        f.write(conv.convert())


def build(sm2c, sm_dir, key, calib_npy, work, tag, quantize, extra=()):
    out = os.path.join(work, "c-" + tag)
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sm2c, "compile", sm_dir, "-o", out, "--name", "m", "--signature", "serving_default"]
    if quantize:
        cmd += ["--quantize", "int8", "--calibration", f"{key}={calib_npy}",
                "--report", os.path.join(work, tag + "-report.txt"), *extra]
    rb.sh(cmd)
    sources = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".c"))
    so = os.path.join(work, tag + ".so")
    rb.sh([os.environ.get("CC", "cc"), "-std=c99", "-O3", "-march=native", "-shared", "-fPIC",
           "-I", out, "-DMODEL=m", os.path.join(rb.HERE, "harness.c"), *sources, "-lm", "-o", so])
    weights = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out) if f == "m.c")
    return so, weights


def run_all(engine, xs, set_input):
    outs = []
    for x in xs:
        set_input(engine, x[None])
        outs.append(np.asarray(engine.run()).reshape(-1))
    return np.stack(outs)


def set_sm2c(e, x):
    e.x[...] = x


def set_tflite(e, x):
    e.it.set_tensor(e.it.get_input_details()[0]["index"], x)


def accuracy(name, got, want):
    mae = float(np.mean(np.abs(got - want.reshape(got.shape))))
    top1 = None
    if name in CLASSIFIERS:
        top1 = int(np.sum(np.argmax(got, 1) == np.argmax(want.reshape(got.shape), 1)))
    return mae, top1


def bench_model(name, args):
    sm_dir = model_dir(args, name)
    key, shape = input_key_shape(args, name)
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    calib, held = datasets(name, shape)
    calib_npy = os.path.join(work, "calib.npy")
    np.save(calib_npy, calib)
    want = tf_outputs(sm_dir, key, held)
    tfl = os.path.join(work, "int8.tflite")
    tflite_int8(sm_dir, calib, tfl)
    so_q, _ = build(args.sm2c, sm_dir, key, calib_npy, work, "int8", True)
    so_r, _ = build(args.sm2c, sm_dir, key, calib_npy, work, "int8-frq", True, ["--requantize", "float"])
    so_f, _ = build(args.sm2c, sm_dir, key, calib_npy, work, "float", False)
    x0 = held[:1]
    out_shape = (1, *want.shape[1:])
    engines = {"sm2c-int8": rb.Sm2c(so_q, x0, out_shape), "tflite-int8": rb.Tflite(tfl, x0),
               "sm2c-int8-frq": rb.Sm2c(so_r, x0, out_shape), "sm2c-float": rb.Sm2c(so_f, x0, out_shape)}
    acc, outs = {}, {}
    for k, e in engines.items():
        outs[k] = run_all(e, held, set_tflite if k.startswith("tflite") else set_sm2c)
        acc[k] = accuracy(name, outs[k], want.reshape(len(held), -1))
    set_sm2c(engines["sm2c-int8"], x0), set_tflite(engines["tflite-int8"], x0)
    set_sm2c(engines["sm2c-int8-frq"], x0), set_sm2c(engines["sm2c-float"], x0)
    calls = {k: rb.calibrate(e) for k, e in engines.items()}
    samples = {k: [] for k in engines}
    for _ in range(args.rounds):
        for k, e in engines.items():
            samples[k].append(e.time(calls[k]) / calls[k] * 1e6)
    # equal to TFLite's up to its own float dequantization (an int8 quantum is far larger)
    same = {k: int(np.sum(np.isclose(outs[k], outs["tflite-int8"], rtol=1e-5, atol=1e-6)))
            for k in ("sm2c-int8", "sm2c-int8-frq")}
    row = {"name": name, "held": len(held), "engines": {}, "same": same, "n_out": int(outs["tflite-int8"].size)}
    for k in engines:
        s = sorted(samples[k])
        q = statistics.quantiles(s, n=4) if len(s) > 1 else [s[0]] * 3
        row["engines"][k] = {"median_us": statistics.median(s), "q1_us": q[0], "q3_us": q[2],
                             "mae": acc[k][0], "top1": acc[k][1]}
    return row


def cell(e):
    return f"{rb.fmt_us(e['median_us'])} [{rb.fmt_us(e['q1_us'])}–{rb.fmt_us(e['q3_us'])}]"


def write_results(path, rows, load_before, load_after, args):
    m = rb.machine()
    lines = [
        "## int8: sm2c against TFLite's full-integer quantization (bench/run_bench_int8.py)",
        "",
        f"- machine: {m['cpu']}, {m['cores']} cores (shared with other users while measured)",
        f"- load before: `{load_before}`",
        f"- load after: `{load_after}`",
        f"- sm2c commit {rb.sh(['git', '-C', rb.ROOT, 'rev-parse', '--short', 'HEAD']).strip()}; "
        f"compiler: {m['cc']}; ai-edge-litert {m['litert']}",
        f"- {args.rounds} rounds, round robin; one thread, batch 1; float inputs and outputs "
        "for every engine",
        f"- calibration: {N_CALIB} inputs; accuracy on {N_HELD} held-out inputs (digits_trained: "
        "its 10 sample images) against TensorFlow's float model",
        "- sm2c int8 frq: --requantize float (Conv2D, depthwise, Dense and same-shape Add requantize in float, as "
        "TFLite's XNNPACK kernels do; not TFLite's reference bits)",
        "",
        "| model | MAE sm2c int8 | MAE sm2c int8 frq | MAE TFLite int8 | top-1 sm2c int8 / frq "
        "| top-1 TFLite int8 | sm2c int8 µs | sm2c int8 frq µs | TFLite int8 µs | sm2c float µs "
        "| sm2c int8 / TFLite int8 | frq / TFLite int8 | sm2c float / int8 | float / frq "
        "| outputs equal to TFLite's (rtol 1e-5): int8 / frq |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        e = r["engines"]
        q, g, t, f = e["sm2c-int8"], e["sm2c-int8-frq"], e["tflite-int8"], e["sm2c-float"]
        top = (lambda v: "–" if v is None else f"{v}/{r['held']}")
        lines.append(
            f"| {r['name']} | {q['mae']:.2e} | {g['mae']:.2e} | {t['mae']:.2e} "
            f"| {top(q['top1'])} / {top(g['top1'])} | {top(t['top1'])} "
            f"| {cell(q)} | {cell(g)} | {cell(t)} | {cell(f)} | {q['median_us'] / t['median_us']:.2f}x "
            f"| {g['median_us'] / t['median_us']:.2f}x | {f['median_us'] / q['median_us']:.2f}x "
            f"| {f['median_us'] / g['median_us']:.2f}x "
            f"| {r['same']['sm2c-int8']}/{r['n_out']} / {r['same']['sm2c-int8-frq']}/{r['n_out']} |")
    text = "\n".join(lines) + "\n"
    if path:
        with open(path, "w") as fh:
            fh.write(text)
    print(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sm2c", default=os.path.join(rb.ROOT, "build", "sm2c"))
    ap.add_argument("--models", default=os.path.join(rb.HERE, ".models"))
    ap.add_argument("--work", default=os.path.join(rb.HERE, ".work-int8"))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--results", default=None, help="write the table here (Markdown)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    names = args.names or MODELS
    load_before = rb.sh(["uptime"]).strip()
    rows = []
    for name in names:
        try:
            rows.append(bench_model(name, args))
            print(name, {k: round(v["median_us"], 1) for k, v in rows[-1]["engines"].items()},
                  flush=True)
        except Exception as ex:  # one model's failure is reported, the others still run
            print(f"{name}: failed: {ex}", file=sys.stderr, flush=True)
    write_results(args.results, rows, load_before, rb.sh(["uptime"]).strip(), args)


if __name__ == "__main__":
    main()
