#!/usr/bin/env python3
"""Time sm2c against TFLite and ONNX Runtime on the benchmark's models, in one run.

Run with the project venv, after bench/gen_bench_models.py:
    /work/main/.venv/bin/python bench/run_bench.py [--sm2c build/sm2c] [--rounds 15]
        [--big] [--results bench/RESULTS.md] [NAME...]

Engines, all one thread, batch 1, on the same SavedModel and input:
  sm2c-native    generated C + runtime, cc -O3 -march=native, timed inside C
  sm2c-portable  the same, cc -O2 (no -march), timed inside C
  tflite         ai_edge_litert Interpreter (default XNNPACK delegate), num_threads=1
  ort            onnxruntime (tf2onnx model), intra- and inter-op threads 1, IO binding

Each engine's output is first checked against TensorFlow's (expected.npy) with
docs/reliability.md's whole-model tolerance (rtol = atol = 1e-4).  Then the engines
are timed round robin: every round times one sample of each engine in turn (a
sample is the mean over a batch of calls sized to about 20 ms), so load changes
on this shared machine hit every engine alike.  Every engine is timed by the
calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID; time.thread_time), not
wall time: all of them run in that one thread, and on a machine shared by
several users the time a thread spends descheduled is not the engine's.  The table gives medians and the
interquartile range over rounds.  TFLite and ORT are called from Python, so
their times include the Python call overhead (about a microsecond): it matters
only for the tiny MLPs.
"""
import argparse
import ctypes
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SMALL = ["hello_world", "digits", "fc_autoencoder", "ds_cnn", "vww", "resnet8", "lstm",
         "transformer"]
BIG = ["mobilenet_v2", "resnet50"]
BUILDS = {"sm2c-native": ["-O3", "-march=native"], "sm2c-portable": ["-O2"]}
RTOL = ATOL = 1e-4


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


class Sm2c:
    """One compiled model in a shared object; times calls inside C."""

    def __init__(self, so, x, out_shape):
        self.lib = ctypes.CDLL(so)
        self.x = np.ascontiguousarray(x)
        self.y = np.zeros(out_shape, np.float32)
        ptrs = ctypes.c_void_p * 1
        self.ins = ptrs(self.x.ctypes.data)
        self.outs = ptrs(self.y.ctypes.data)
        self.lib.bench_time.restype = ctypes.c_double
        self.lib.bench_time.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32]

    def run(self):
        rc = self.lib.bench_call(self.ins, self.outs)
        if rc != 0:
            raise RuntimeError(f"entry point returned {rc}")
        return self.y.copy()

    def time(self, calls):
        return self.lib.bench_time(self.ins, self.outs, calls)


class Tflite:
    def __init__(self, path, x):
        from ai_edge_litert.interpreter import Interpreter
        self.it = Interpreter(model_path=path, num_threads=1)
        inp = self.it.get_input_details()[0]
        self.it.resize_tensor_input(inp["index"], list(x.shape))
        self.it.allocate_tensors()
        self.it.set_tensor(inp["index"], x)
        self.out = self.it.get_output_details()[0]["index"]

    def run(self):
        self.it.invoke()
        return self.it.get_tensor(self.out).copy()

    def time(self, calls):
        invoke = self.it.invoke
        t0 = time.thread_time()
        for _ in range(calls):
            invoke()
        return time.thread_time() - t0


class Ort:
    def __init__(self, path, x):
        import onnxruntime as ort
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        self.binding = self.sess.io_binding()
        self.binding.bind_cpu_input(self.sess.get_inputs()[0].name, x)
        self.binding.bind_output(self.sess.get_outputs()[0].name)

    def run(self):
        self.sess.run_with_iobinding(self.binding)
        return self.binding.copy_outputs_to_cpu()[0].copy()

    def time(self, calls):
        run, b = self.sess.run_with_iobinding, self.binding
        t0 = time.thread_time()
        for _ in range(calls):
            run(b)
        return time.thread_time() - t0


def build_sm2c(sm2c, mdir, work, builds=None, tag=""):
    """Compile the SavedModel to C, then build one shared object per build flavour."""
    builds = builds or BUILDS
    out = os.path.join(work, "c" + tag)
    shutil.rmtree(out, ignore_errors=True)  # sm2c copies only the runtime files it uses
    sh([sm2c, "compile", os.path.join(mdir, "saved_model"), "-o", out, "--name", "m",
        "--signature", "serving_default"])
    cc = os.environ.get("CC", "cc")
    sources = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".c"))
    sos = {}
    for flavour, flags in builds.items():
        so = os.path.join(work, flavour + ".so")
        sh([cc, "-std=c99", *flags, "-shared", "-fPIC", "-I", out, "-DMODEL=m",
            os.path.join(HERE, "harness.c"), *sources, "-lm", "-o", so])
        sos[flavour] = so
    return sos


def calibrate(engine):
    """Calls per sample: about 20 ms worth."""
    calls = 1
    while True:
        t = engine.time(calls)
        if t >= 0.02 or calls >= 1 << 20:
            return calls
        calls = max(calls * 2, int(calls * 0.025 / max(t, 1e-9)))


def check(name, got, want):
    got = np.asarray(got, np.float32).reshape(want.shape)
    err = np.abs(got - want)
    ok = bool(np.all(err <= ATOL + RTOL * np.abs(want)))
    rel = float(np.max(err / np.maximum(np.abs(want), 1e-6)))
    return ok, float(np.max(err)), rel


def bench_model(name, args):
    mdir = os.path.join(args.models, name)
    info = json.load(open(os.path.join(mdir, "info.json")))
    x = np.load(os.path.join(mdir, "input.npy"))
    want = np.load(os.path.join(mdir, "expected.npy"))
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    engines = {}
    builds = {"sm2c-native": BUILDS["sm2c-native"]} if args.native_only else BUILDS
    for flavour, so in build_sm2c(args.sm2c, mdir, work, builds).items():
        engines[flavour] = Sm2c(so, x, want.shape)
    if args.before:
        before = build_sm2c(args.before, mdir, work, {"sm2c-before": BUILDS["sm2c-native"]},
                            "-before")
        engines["sm2c-before"] = Sm2c(before["sm2c-before"], x, want.shape)
    engines["tflite"] = Tflite(os.path.join(mdir, "model.tflite"), x)
    engines["ort"] = Ort(os.path.join(mdir, "model.onnx"), x)
    checks = {k: check(k, e.run(), want) for k, e in engines.items()}
    calls = {k: calibrate(e) for k, e in engines.items()}
    samples = {k: [] for k in engines}
    for _ in range(args.rounds):
        for k, e in engines.items():
            samples[k].append(e.time(calls[k]) / calls[k] * 1e6)
    row = {"name": name, "description": info["description"], "mflops": info["mflops"],
           "engines": {}}
    for k in engines:
        s = sorted(samples[k])
        q = statistics.quantiles(s, n=4) if len(s) > 1 else [s[0]] * 3
        ok, abs_err, rel_err = checks[k]
        row["engines"][k] = {"median_us": statistics.median(s), "q1_us": q[0], "q3_us": q[2],
                             "min_us": s[0], "max_us": s[-1], "calls": calls[k], "ok": ok,
                             "max_abs_err": abs_err, "max_rel_err": rel_err}
    return row


def fmt_us(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}" if v < 1 else f"{v:.1f}"


def machine():
    cpu = next((ln.split(":", 1)[1].strip() for ln in sh(["lscpu"]).splitlines()
                if ln.startswith("Model name")), platform.processor())
    cc = sh([os.environ.get("CC", "cc"), "--version"]).splitlines()[0]
    import ai_edge_litert
    import onnxruntime
    return {"cpu": cpu, "cores": os.cpu_count(), "cc": cc,
            "litert": getattr(ai_edge_litert, "__version__", "?"),
            "onnxruntime": onnxruntime.__version__}


def write_results(path, rows, m, load_before, load_after, args):
    commit = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
    lines = [
        "# Benchmark results", "",
        f"Written by `bench/run_bench.py` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())},"
        f" sm2c commit {commit}.", "",
        f"- machine: {m['cpu']}, {m['cores']} cores (shared with other users while measured)",
        f"- load before: `{load_before}`", f"- load after: `{load_after}`",
        f"- compiler: {m['cc']}; ai-edge-litert {m['litert']}; onnxruntime {m['onnxruntime']}",
        (f"- sm2c before: `{os.path.basename(args.before)}` (another sm2c binary, same models,"
         " same build flags as the native column)" if args.before else "- no before column"),
        f"- {args.rounds} rounds, round robin over engines; one sample = mean over a batch of"
        " calls of about 20 ms; one thread, batch 1",
        "- sm2c is timed inside C (bench/harness.c); TFLite and ORT from Python (their times"
        " include about 1 us of call overhead)",
        "- times are the calling thread's CPU time (every engine runs in that one thread), not"
        " wall time: the machine is shared, and time spent descheduled is not the engine's",
        "- every engine's output checked against TensorFlow's: rtol = atol = 1e-4", "",
        "Medians in µs, with the interquartile range over rounds in brackets.", "",
        "| model | MFLOPs | sm2c -O3 -march=native | sm2c -O2 portable | TFLite (XNNPACK) | ORT |"
        " sm2c / best peer | portable / native | sm2c GFLOP/s |"
        + (" sm2c before (-O3 native) | before / now |" if args.before else ""),
        "|---|---|---|---|---|---|---|---|---|" + ("---|---|" if args.before else ""),
    ]
    for r in rows:
        e = r["engines"]

        def cell(k):
            if k not in e:
                return "–"
            v = e[k]
            bad = "" if v["ok"] else " **WRONG**"
            return f"{fmt_us(v['median_us'])} [{fmt_us(v['q1_us'])}–{fmt_us(v['q3_us'])}]{bad}"
        best = min(e["tflite"]["median_us"], e["ort"]["median_us"])
        nat = e["sm2c-native"]["median_us"]
        gflops = r["mflops"] / nat * 1e3 if nat > 0 else 0  # MFLOP per us = TFLOP/s
        port = (f"{e['sm2c-portable']['median_us'] / nat:.2f}x" if "sm2c-portable" in e
                else "–")
        before = (f" {cell('sm2c-before')} | {e['sm2c-before']['median_us'] / nat:.2f}x |"
                  if "sm2c-before" in e else (" – | – |" if args.before else ""))
        lines.append(f"| {r['description']} | {r['mflops']:g} | {cell('sm2c-native')} | "
                     f"{cell('sm2c-portable')} | {cell('tflite')} | {cell('ort')} | "
                     f"{nat / best:.2f}x | {port} | {gflops:.1f} |" + before)
    lines += ["", "Largest error against TensorFlow (absolute / relative to |ref| floored at 1e-6):",
              "", "| model | " + " | ".join(rows[0]["engines"]) + " |",
              "|---|" + "---|" * len(rows[0]["engines"])]
    for r in rows:
        lines.append(f"| {r['name']} | " + " | ".join(
            f"{v['max_abs_err']:.1e} / {v['max_rel_err']:.1e}" for v in r["engines"].values())
            + " |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sm2c", default=os.path.join(ROOT, "build", "sm2c"))
    ap.add_argument("--models", default=os.path.join(HERE, ".models"))
    ap.add_argument("--work", default=os.path.join(HERE, ".work"))
    ap.add_argument("--before", default=None,
                    help="another sm2c binary (e.g. main's) timed beside, as sm2c-before")
    ap.add_argument("--native-only", action="store_true",
                    help="skip the portable build (the big models take long to build)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--results", default=None, help="write the table here (Markdown)")
    ap.add_argument("--json", default=None, help="write raw numbers here")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    names = args.names or SMALL + (BIG if args.big else [])
    load_before = sh(["uptime"]).strip()
    rows = []
    for name in names:
        row = bench_model(name, args)
        rows.append(row)
        e = row["engines"]
        print(name, " ".join(f"{k} {v['median_us']:.2f}us{'' if v['ok'] else ' WRONG'}"
                             for k, v in e.items()), flush=True)
    load_after = sh(["uptime"]).strip()
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)
    if args.results:
        write_results(args.results, rows, machine(), load_before, load_after, args)
    return 0 if all(v["ok"] for r in rows for v in r["engines"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
