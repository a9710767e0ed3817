#!/usr/bin/env python3
"""Time sm2c against TFLite and ONNX Runtime on the benchmark's models, in one run.

Run with the project venv, after bench/gen_bench_models.py:
    /work/main/.venv/bin/python bench/run_bench.py [--sm2c build/sm2c] [--rounds 15]
        [--big] [--results bench/RESULTS.md] [NAME...]
    ... run_bench.py --threads N [--rounds R] [--results FILE.md] [NAME...]
    ... run_bench.py --throughput K [--rounds R] [--results FILE.md] [NAME...]

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

--threads N (issue 29) replaces that table with one of 1 and N threads per
engine, all -O3 -march=native for sm2c: sm2c through its context entry
(NAME_ctx_table.run[0], its own 64-byte aligned workspace) with par zeroed
(1 thread) and with the runtime's pthread pool (sm2c_rt_pool_create(N),
par = {sm2c_rt_pool_parallel_for, pool, N}); TFLite with num_threads=N (XNNPACK);
ORT with intra_op_num_threads=N.  Every column of this table is WALL time
(CLOCK_MONOTONIC; time.perf_counter), since N threads share the work: the
calling thread's CPU time would miss the workers'.  sm2c's N-thread outputs are
also compared with its 1-thread outputs bit for bit.

--throughput K times calls per second with 1 and with K caller threads at once:
sm2c with K contexts (each its own workspace, par zeroed: one thread each),
its threads started in C (bench_throughput in harness.c, pthreads), so no
Python overhead counts; ONNX Runtime with one shared session
(intra_op_num_threads=1) called from K Python threads, each with its own IO
binding; TFLite with K interpreters (num_threads=1), one per Python thread.
The peers' calls release the GIL.  Wall time from the moment all K threads
are ready to the last one's end; every thread's output is checked.
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
import threading
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
        self.x = np.array(x, order="C")   # a copy: callers set inputs into it (a view would write into theirs)
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


class Sm2cCtx:
    """The model's context entry (issue 29) in the same shared object: its own
    workspace, and for threads > 1 its own pthread pool.  Wall time."""

    def __init__(self, so, x, out_shape, threads):
        lib = self.lib = ctypes.CDLL(so)
        if not hasattr(lib, "bench_ctx_new"):
            raise RuntimeError("the generated header has no NAME_ctx_table (issue 29's context"
                               " entries): --threads and --throughput need them")
        lib.bench_ctx_new.restype = ctypes.c_void_p
        lib.bench_ctx_new.argtypes = [ctypes.c_int32]
        lib.bench_ctx_free.argtypes = [ctypes.c_void_p]
        lib.bench_ctx_call.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        lib.bench_ctx_time.restype = ctypes.c_double
        lib.bench_ctx_time.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_int32, ctypes.c_int32]
        self.pooled = threads > 1 and bool(lib.bench_has_pool())
        self.h = lib.bench_ctx_new(threads)
        if not self.h:
            raise RuntimeError("bench_ctx_new failed")
        self.x = np.array(x, order="C")   # a copy, as Sm2c's
        self.y = np.zeros(out_shape, np.float32)
        ptrs = ctypes.c_void_p * 1
        self.ins = ptrs(self.x.ctypes.data)
        self.outs = ptrs(self.y.ctypes.data)

    def run(self):
        rc = self.lib.bench_ctx_call(self.h, self.ins, self.outs)
        if rc != 0:
            raise RuntimeError(f"context entry returned {rc}")
        return self.y.copy()

    def time(self, calls):
        return self.lib.bench_ctx_time(self.h, self.ins, self.outs, calls, 1)


def clock_fn(wall):
    return time.perf_counter if wall else time.thread_time


class Tflite:
    def __init__(self, path, x, threads=1, wall=False):
        from ai_edge_litert.interpreter import Interpreter
        self.clock = clock_fn(wall)
        self.it = Interpreter(model_path=path, num_threads=threads)
        inp = self.it.get_input_details()[0]
        self.it.resize_tensor_input(inp["index"], list(x.shape))
        self.it.allocate_tensors()
        self.it.set_tensor(inp["index"], x)
        self.out = self.it.get_output_details()[0]["index"]

    def run(self):
        self.it.invoke()
        return self.it.get_tensor(self.out).copy()

    def time(self, calls):
        invoke, clock = self.it.invoke, self.clock
        t0 = clock()
        for _ in range(calls):
            invoke()
        return clock() - t0


def ort_session(path, threads):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


class Ort:
    def __init__(self, path, x, threads=1, wall=False, sess=None):
        self.clock = clock_fn(wall)
        self.sess = sess or ort_session(path, threads)
        self.x = x.copy()
        self.binding = self.sess.io_binding()
        self.binding.bind_cpu_input(self.sess.get_inputs()[0].name, self.x)
        self.binding.bind_output(self.sess.get_outputs()[0].name)

    def run(self):
        self.sess.run_with_iobinding(self.binding)
        return self.binding.copy_outputs_to_cpu()[0].copy()

    def time(self, calls):
        run, b, clock = self.sess.run_with_iobinding, self.binding, self.clock
        t0 = clock()
        for _ in range(calls):
            run(b)
        return clock() - t0


def build_sm2c(sm2c, mdir, work, builds=None, tag=""):
    """Compile the SavedModel to C, then build one shared object per build flavour."""
    builds = builds or BUILDS
    out = os.path.join(work, "c" + tag)
    shutil.rmtree(out, ignore_errors=True)  # sm2c copies only the runtime files it uses
    sh([sm2c, "compile", os.path.join(mdir, "saved_model"), "-o", out, "--name", "m",
        "--signature", "serving_default"])
    cc = os.environ.get("CC", "cc")
    sources = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".c"))
    # issue 29: the context entries (and the pthread pool, copied when some step can split)
    with open(os.path.join(out, "m.h")) as f:
        ctx = ["-DBENCH_CTX", "-pthread"] if "m_ctx_table" in f.read() else []
    sos = {}
    for flavour, flags in builds.items():
        so = os.path.join(work, flavour + ".so")
        sh([cc, "-std=c99", *flags, *ctx, "-shared", "-fPIC", "-I", out, "-DMODEL=m",
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


def spread(samples):
    s = sorted(samples)
    q = statistics.quantiles(s, n=4) if len(s) > 1 else [s[0]] * 3
    return {"median": statistics.median(s), "q1": q[0], "q3": q[2], "min": s[0], "max": s[-1]}


def bench_threads(name, args, so):
    """sm2c (context entry), TFLite and ORT at 1 and N threads, wall time."""
    mdir = os.path.join(args.models, name)
    info = json.load(open(os.path.join(mdir, "info.json")))
    x = np.load(os.path.join(mdir, "input.npy"))
    want = np.load(os.path.join(mdir, "expected.npy"))
    n = args.threads
    engines = {}
    for t in (1, n):
        engines[f"sm2c-{t}"] = Sm2cCtx(so, x, want.shape, t)
        engines[f"tflite-{t}"] = Tflite(os.path.join(mdir, "model.tflite"), x, t, wall=True)
        engines[f"ort-{t}"] = Ort(os.path.join(mdir, "model.onnx"), x, t, wall=True)
    order = [f"{e}-{t}" for t in (1, n) for e in ("sm2c", "tflite", "ort")]
    outs = {k: engines[k].run() for k in order}
    checks = {k: check(k, outs[k], want) for k in order}
    same = bool(np.array_equal(outs["sm2c-1"].view(np.uint32), outs[f"sm2c-{n}"].view(np.uint32)))
    calls = {k: calibrate(engines[k]) for k in order}
    samples = {k: [] for k in order}
    for _ in range(args.rounds):
        for k in order:
            samples[k].append(engines[k].time(calls[k]) / calls[k] * 1e6)
    row = {"name": name, "description": info["description"], "mflops": info["mflops"],
           "threads": n, "sm2c_pool": engines[f"sm2c-{n}"].pooled, "sm2c_bit_identical": same,
           "clock": "wall (CLOCK_MONOTONIC)", "engines": {}}
    for k in order:
        ok, abs_err, rel_err = checks[k]
        sp = spread(samples[k])
        row["engines"][k] = {"median_us": sp["median"], "q1_us": sp["q1"], "q3_us": sp["q3"],
                             "min_us": sp["min"], "max_us": sp["max"], "calls": calls[k],
                             "ok": ok, "max_abs_err": abs_err, "max_rel_err": rel_err}
    for e in engines.values():
        if isinstance(e, Sm2cCtx):
            e.lib.bench_ctx_free(e.h)
            e.h = None
    return row


def run_py_threads(fns, calls):
    """Calls per second: each fn called `calls` times in its own Python thread, all at once."""
    k = len(fns)
    ready = threading.Barrier(k + 1)
    go = threading.Event()
    errors = []

    def work(fn):
        try:
            ready.wait()
            go.wait()
            for _ in range(calls):
                fn()
        except Exception as ex:  # noqa: BLE001 (re-raised below)
            errors.append(ex)
    ths = [threading.Thread(target=work, args=(f,)) for f in fns]
    for t in ths:
        t.start()
    ready.wait()
    t0 = time.perf_counter()
    go.set()
    for t in ths:
        t.join()
    t1 = time.perf_counter()
    if errors:
        raise errors[0]
    return k * calls / (t1 - t0)


class TpSm2c:
    """K contexts in K C threads (bench_throughput)."""

    def __init__(self, so, x, out_shape, k):
        self.lib = ctypes.CDLL(so)
        if not hasattr(self.lib, "bench_throughput"):
            raise RuntimeError("the generated header has no NAME_ctx_table (issue 29's context"
                               " entries): --throughput needs them")
        self.lib.bench_throughput.restype = ctypes.c_double
        self.lib.bench_throughput.argtypes = [ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p,
                                              ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32]
        self.xs = [np.ascontiguousarray(x).copy() for _ in range(k)]
        self.ys = [np.zeros(out_shape, np.float32) for _ in range(k)]
        self.ins = (ctypes.c_void_p * k)(*[a.ctypes.data for a in self.xs])
        self.outs = (ctypes.c_void_p * k)(*[a.ctypes.data for a in self.ys])

    def sample(self, k, calls):
        t = self.lib.bench_throughput(k, calls, self.ins, 1, self.outs, 1)
        if t < 0:
            raise RuntimeError("bench_throughput failed")
        return k * calls / t

    def outputs(self, k):
        return [y.copy() for y in self.ys[:k]]


class TpTflite:
    """K interpreters (num_threads=1), one per Python thread."""

    def __init__(self, path, x, k):
        self.its = [Tflite(path, x.copy(), 1) for _ in range(k)]

    def sample(self, k, calls):
        return run_py_threads([t.it.invoke for t in self.its[:k]], calls)

    def outputs(self, k):
        return [t.it.get_tensor(t.out).copy() for t in self.its[:k]]


class TpOrt:
    """One session (intra_op_num_threads=1) shared by K Python threads, an IO binding each."""

    def __init__(self, path, x, k):
        sess = ort_session(path, 1)
        self.runs = [Ort(path, x, sess=sess) for _ in range(k)]

    def sample(self, k, calls):
        import functools
        return run_py_threads([functools.partial(r.sess.run_with_iobinding, r.binding)
                               for r in self.runs[:k]], calls)

    def outputs(self, k):
        return [r.binding.copy_outputs_to_cpu()[0].copy() for r in self.runs[:k]]


def bench_throughput(name, args, so):
    mdir = os.path.join(args.models, name)
    info = json.load(open(os.path.join(mdir, "info.json")))
    x = np.load(os.path.join(mdir, "input.npy"))
    want = np.load(os.path.join(mdir, "expected.npy"))
    k = args.throughput
    engines = {"sm2c": TpSm2c(so, x, want.shape, k),
               "tflite": TpTflite(os.path.join(mdir, "model.tflite"), x, k),
               "ort": TpOrt(os.path.join(mdir, "model.onnx"), x, k)}
    calls = {}
    for e, eng in engines.items():  # calls per thread: a 1-thread sample of about 20 ms
        c = 1
        while True:
            cps = eng.sample(1, c)
            if c / cps >= 0.02 or c >= 1 << 20:
                break
            c = max(c * 2, int(c * 0.025 * cps / c))
        calls[e] = c
    checks = {}
    for e, eng in engines.items():  # every thread's output, after a K-thread sample
        eng.sample(k, max(1, calls[e] // 8))
        res = [check(e, y, want) for y in eng.outputs(k)]
        checks[e] = (all(r[0] for r in res), max(r[1] for r in res), max(r[2] for r in res))
    order = [(e, t) for e in engines for t in (1, k)]
    samples = {o: [] for o in order}
    for _ in range(args.rounds):
        for e, t in order:
            samples[(e, t)].append(engines[e].sample(t, calls[e]))
    row = {"name": name, "description": info["description"], "mflops": info["mflops"], "k": k,
           "clock": "wall (CLOCK_MONOTONIC)", "engines": {}}
    for e, t in order:
        ok, abs_err, rel_err = checks[e]
        sp = spread(samples[(e, t)])
        row["engines"][f"{e}-{t}"] = {"median_cps": sp["median"], "q1_cps": sp["q1"],
                                      "q3_cps": sp["q3"], "min_cps": sp["min"],
                                      "max_cps": sp["max"], "calls_per_thread": calls[e],
                                      "ok": ok, "max_abs_err": abs_err, "max_rel_err": rel_err}
    return row


def fmt_cps(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def mode_header(title, m, load_before, load_after, args, lines):
    commit = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
    return [
        f"### {title}", "",
        f"Written by `bench/run_bench.py {' '.join(sys.argv[1:])}` on"
        f" {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, sm2c commit {commit}.", "",
        f"- machine: {m['cpu']}, {m['cores']} cores (shared with other users while measured)",
        f"- load before: `{load_before}`", f"- load after: `{load_after}`",
        "- core-to-core round trip (bench/core_latency.c), ns, before the first model and after"
        f" each: {', '.join(str(t) for t in m.get('round_trips', []))} (the host places the two"
        " vCPUs near each other, about 100 ns, or on different chiplets, some hundreds: then"
        " every engine's 2-thread times rise)",
        f"- compiler: {m['cc']}; sm2c built -O3 -march=native; ai-edge-litert {m['litert']};"
        f" onnxruntime {m['onnxruntime']}; numpy {np.__version__}; Python"
        f" {platform.python_version()}",
        f"- {args.rounds} rounds, round robin over engines and thread counts; batch 1",
        *lines,
        "- every engine's output checked against TensorFlow's: rtol = atol = 1e-4", ""]


def threads_markdown(rows, m, load_before, load_after, args):
    n = args.threads
    lines = mode_header(f"1 and {n} threads", m, load_before, load_after, args, [
        "- clock: **wall time** (CLOCK_MONOTONIC inside C for sm2c, time.perf_counter for"
        " TFLite and ORT) for every column, the 1-thread ones too",
        "- one sample = mean over a batch of calls of about 20 ms",
        f"- sm2c: the context entry `m_ctx_table.run[0]` with its own 64-byte aligned workspace;"
        f" 1 thread = par zeroed; {n} threads = the runtime's pthread pool"
        f" (`sm2c_rt_pool_create({n})`, par = {{sm2c_rt_pool_parallel_for, pool, {n}}});"
        " timed inside C (bench/harness.c)",
        f"- TFLite: ai_edge_litert Interpreter, num_threads = 1 / {n} (XNNPACK);"
        f" ORT: intra_op_num_threads = 1 / {n}, inter-op 1, sequential, IO binding;"
        " both called from Python (about 1 us of call overhead)"])
    lines += [
        "Medians in µs, with the interquartile range over rounds in brackets.", "",
        f"| model | MFLOPs | sm2c 1 thr | TFLite 1 thr | ORT 1 thr | sm2c {n} thr | TFLite {n} thr"
        f" | ORT {n} thr | sm2c / best peer, 1 thr | sm2c / best peer, {n} thr"
        f" | sm2c speed-up 1→{n} |",
        "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        e = r["engines"]

        def cell(k):
            v = e[k]
            bad = "" if v["ok"] else " **WRONG**"
            return f"{fmt_us(v['median_us'])} [{fmt_us(v['q1_us'])}–{fmt_us(v['q3_us'])}]{bad}"
        med = {k: v["median_us"] for k, v in e.items()}
        best1 = min(med["tflite-1"], med["ort-1"])
        bestn = min(med[f"tflite-{n}"], med[f"ort-{n}"])
        lines.append(
            f"| {r['description']} | {r['mflops']:g} | "
            + " | ".join(cell(f"{x}-{t}") for t in (1, n) for x in ("sm2c", "tflite", "ort"))
            + f" | {med['sm2c-1'] / best1:.2f}x | {med[f'sm2c-{n}'] / bestn:.2f}x"
            f" | {med['sm2c-1'] / med[f'sm2c-{n}']:.2f}x |")
    lines += ["", "The same from each engine's fastest round (minimum; on a shared machine the"
              " round least disturbed by other users' work), µs:", "",
              f"| model | sm2c 1 | TFLite 1 | ORT 1 | sm2c {n} | TFLite {n} | ORT {n}"
              f" | sm2c / best peer, 1 thr | sm2c / best peer, {n} thr | sm2c speed-up 1→{n} |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mn = {k: v["min_us"] for k, v in r["engines"].items()}
        lines.append(
            f"| {r['name']} | "
            + " | ".join(fmt_us(mn[f"{x}-{t}"]) for t in (1, n) for x in ("sm2c", "tflite", "ort"))
            + f" | {mn['sm2c-1'] / min(mn['tflite-1'], mn['ort-1']):.2f}x"
            f" | {mn[f'sm2c-{n}'] / min(mn[f'tflite-{n}'], mn[f'ort-{n}']):.2f}x"
            f" | {mn['sm2c-1'] / mn[f'sm2c-{n}']:.2f}x |")
    lines += ["", f"sm2c's {n}-thread run: pool linked (some step splits) and outputs bit-identical"
              " to its 1-thread run; largest error against TensorFlow (absolute / relative to"
              " |ref| floored at 1e-6):", "",
              "| model | pool | bit-identical | " + " | ".join(rows[0]["engines"]) + " |",
              "|---|---|---|" + "---|" * len(rows[0]["engines"])]
    for r in rows:
        lines.append(f"| {r['name']} | {'yes' if r['sm2c_pool'] else 'no'} |"
                     f" {'yes' if r['sm2c_bit_identical'] else '**no**'} | " + " | ".join(
                         f"{v['max_abs_err']:.1e} / {v['max_rel_err']:.1e}"
                         for v in r["engines"].values()) + " |")
    return lines


def throughput_markdown(rows, m, load_before, load_after, args):
    k = args.throughput
    lines = mode_header(f"Throughput: {k} callers at once", m, load_before, load_after, args, [
        "- clock: **wall time** (CLOCK_MONOTONIC; time.perf_counter) from the moment all"
        " caller threads are ready until the last has finished; calls per second = threads x"
        " calls per thread / that time",
        "- one sample = a fixed number of calls per thread, about 20 ms at 1 thread",
        f"- sm2c: {k} contexts, each its own workspace (posix_memalign, 64 bytes), par zeroed"
        " (one thread each), each called from its own pthread started in C"
        " (bench_throughput in bench/harness.c): no Python overhead",
        f"- ORT: one session (intra_op_num_threads = 1, inter-op 1, sequential) shared by {k}"
        " Python threads, an IO binding each; TFLite: one interpreter (num_threads = 1, XNNPACK)"
        f" per Python thread, {k} of them.  Their calls release the GIL; the Python loop"
        " around each call (about 1 us) counts",
        "- every thread's output checked"])
    lines += [
        "Medians of calls per second, with the interquartile range over rounds in brackets.", "",
        f"| model | MFLOPs | sm2c 1 ctx | sm2c {k} ctx | sm2c {k}/1 | TFLite 1 | TFLite {k} |"
        f" TFLite {k}/1 | ORT 1 | ORT {k} | ORT {k}/1 | sm2c {k} / best peer {k} |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        e = r["engines"]

        def cell(key):
            v = e[key]
            bad = "" if v["ok"] else " **WRONG**"
            return f"{fmt_cps(v['median_cps'])} [{fmt_cps(v['q1_cps'])}–{fmt_cps(v['q3_cps'])}]{bad}"
        med = {key: v["median_cps"] for key, v in e.items()}
        cells = []
        for x in ("sm2c", "tflite", "ort"):
            cells += [cell(f"{x}-1"), cell(f"{x}-{k}"), f"{med[f'{x}-{k}'] / med[f'{x}-1']:.2f}x"]
        best = max(med[f"tflite-{k}"], med[f"ort-{k}"])
        lines.append(f"| {r['description']} | {r['mflops']:g} | " + " | ".join(cells)
                     + f" | {med[f'sm2c-{k}'] / best:.2f}x |")
    lines += ["", "(sm2c / best peer > 1 is more calls per second than the best peer.)", "",
              "The same from each engine's fastest round (maximum calls per second):", "",
              f"| model | sm2c 1 | sm2c {k} | sm2c {k}/1 | TFLite 1 | TFLite {k} | TFLite {k}/1"
              f" | ORT 1 | ORT {k} | ORT {k}/1 | sm2c {k} / best peer {k} |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mx = {key: v["max_cps"] for key, v in r["engines"].items()}
        cells = []
        for x in ("sm2c", "tflite", "ort"):
            cells += [fmt_cps(mx[f"{x}-1"]), fmt_cps(mx[f"{x}-{k}"]),
                      f"{mx[f'{x}-{k}'] / mx[f'{x}-1']:.2f}x"]
        lines.append(f"| {r['name']} | " + " | ".join(cells) + f" | "
                     f"{mx[f'sm2c-{k}'] / max(mx[f'tflite-{k}'], mx[f'ort-{k}']):.2f}x |")
    return lines


def core_latency(work):
    """The cores' round trip in ns (bench/core_latency.c), or None without a C compiler."""
    exe = os.path.join(work, "core_latency")
    try:
        if not os.path.exists(exe):
            sh([os.environ.get("CC", "cc"), "-std=c99", "-O2", "-pthread",
                os.path.join(HERE, "core_latency.c"), "-o", exe])
        return int(sh([exe]).strip())
    except (subprocess.CalledProcessError, OSError, ValueError):
        return None


def main_modes(args, names):
    load_before = sh(["uptime"]).strip()
    os.makedirs(args.work, exist_ok=True)
    trips = [core_latency(args.work)]
    rows = {"threads": [], "throughput": []}
    for name in names:
        work = os.path.join(args.work, name)
        os.makedirs(work, exist_ok=True)
        so = build_sm2c(args.sm2c, os.path.join(args.models, name), work,
                        {"sm2c-native": BUILDS["sm2c-native"]})["sm2c-native"]
        if args.threads:
            r = bench_threads(name, args, so)
            rows["threads"].append(r)
            print(name, f"(wall us; pool {'yes' if r['sm2c_pool'] else 'no'}, bit-identical "
                  f"{'yes' if r['sm2c_bit_identical'] else 'NO'})",
                  " ".join(f"{k} {v['median_us']:.2f}{'' if v['ok'] else ' WRONG'}"
                           for k, v in r["engines"].items()), flush=True)
        if args.throughput:
            r = bench_throughput(name, args, so)
            rows["throughput"].append(r)
            print(name, "(calls/s, wall)", " ".join(
                f"{k} {v['median_cps']:.1f}{'' if v['ok'] else ' WRONG'}"
                for k, v in r["engines"].items()), flush=True)
        trips.append(core_latency(args.work))
        print(f"core-to-core round trip after {name}: {trips[-1]} ns", flush=True)
    load_after = sh(["uptime"]).strip()
    m = machine()
    m["round_trips"] = trips
    md = []
    if rows["threads"]:
        md += threads_markdown(rows["threads"], m, load_before, load_after, args) + [""]
    if rows["throughput"]:
        md += throughput_markdown(rows["throughput"], m, load_before, load_after, args) + [""]
    print("\n".join(md))
    if args.json:
        json.dump({"load_before": load_before, "load_after": load_after, "machine": m, **rows},
                  open(args.json, "w"), indent=1)
    if args.results:
        with open(args.results, "w") as f:
            f.write("\n".join(md))
    ok = all(v["ok"] for rs in rows.values() for r in rs for v in r["engines"].values())
    ok = ok and all(r["sm2c_bit_identical"] for r in rows["threads"])
    return 0 if ok else 1


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
    ap.add_argument("--threads", type=int, default=0, metavar="N",
                    help="instead of the 1-thread table: 1 and N threads per engine, wall time"
                    " (sm2c through its context entry and the runtime's pthread pool)")
    ap.add_argument("--throughput", type=int, default=0, metavar="K",
                    help="instead of the 1-thread table: calls per second with 1 and K callers"
                    " at once (sm2c: K contexts; ORT: one shared session; TFLite: K interpreters)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    names = args.names or SMALL + (BIG if args.big else [])
    if args.threads or args.throughput:
        if args.threads == 1 or args.throughput == 1 or args.threads < 0 or args.throughput < 0:
            ap.error("--threads and --throughput take 2 or more")
        return main_modes(args, names)
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
