#!/usr/bin/env python3
"""The cost of one call from Python (issue 29): sm2c's ordinary call and bound
call (sm2c.load, entry.bind) beside TFLite's invoke() and ORT's
run_with_iobinding() on one model of bench/.models, and the same sm2c entry
called from C (bench/harness.c, bench_time: thread CPU time).

    .venv/bin/python bench/python_call.py [--sm2c BUILD/sm2c] [--repeat R] [NAME]

NAME defaults to digits.  Medians over R repeats (default 15) of a timed loop
of about 20 ms each, with the spread (min-max) beside them, in microseconds
per call; the load before and after is printed, as the machine is shared."""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
import sm2c  # noqa: E402


def per_call(fn, repeat):
    """Median, min and max microseconds per call over `repeat` loops of ~20 ms."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 > 0.02:
            break
        n *= 2
    fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(samples), min(samples), max(samples)


def from_c(so_dir, x, out_len, repeat):
    """The same entry from C: bench/harness.c's bench_time in a shared object."""
    so = os.path.join(so_dir, "harness.so")
    srcs = sorted(os.path.join(so_dir, "c", f) for f in os.listdir(os.path.join(so_dir, "c"))
                  if f.endswith(".c"))
    subprocess.run([os.environ.get("CC", "cc"), "-std=c99", "-O3", "-march=native", "-shared", "-fPIC",
                    "-pthread", "-I", os.path.join(so_dir, "c"), "-DMODEL=m",
                    os.path.join(HERE, "harness.c"), *srcs, "-lm", "-o", so], check=True)
    lib = ctypes.CDLL(so)
    lib.bench_time.restype = ctypes.c_double
    lib.bench_time.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32]
    y = np.zeros(out_len, np.float32)
    ins = (ctypes.c_void_p * 1)(x.ctypes.data)
    outs = (ctypes.c_void_p * 1)(y.ctypes.data)
    calls = 200000
    lib.bench_time(ins, outs, calls // 10)
    samples = [lib.bench_time(ins, outs, calls) / calls * 1e6 for _ in range(repeat)]
    return statistics.median(samples), min(samples), max(samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sm2c", default=os.path.join(ROOT, "build", "sm2c"))
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--work", default=os.path.join(HERE, ".work", "python_call"))
    ap.add_argument("name", nargs="?", default="digits")
    args = ap.parse_args()
    os.environ["SM2C"] = os.path.abspath(args.sm2c)
    mdir = os.path.join(HERE, ".models", args.name)
    x = np.load(os.path.join(mdir, "input.npy")).astype(np.float32)
    want = np.load(os.path.join(mdir, "expected.npy"))
    key = __import__("json").load(open(os.path.join(mdir, "info.json")))["input_key"]
    os.makedirs(args.work, exist_ok=True)
    load_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()

    so = sm2c.compile(os.path.join(mdir, "saved_model"), os.path.join(args.work, "so"), name="m",
                      signature="serving_default", emit="so")
    subprocess.run([args.sm2c, "compile", os.path.join(mdir, "saved_model"), "-o",
                    os.path.join(args.work, "c"), "--name", "m", "--signature", "serving_default"],
                   check=True, capture_output=True)
    m = sm2c.load(so)
    entry = m.serving_default
    out = entry(**{key: x})
    got = next(iter(out.values()))
    assert np.allclose(got, want, rtol=1e-4, atol=1e-4), "sm2c's output is not TensorFlow's"
    run = entry.bind(**{key: x})

    from ai_edge_litert.interpreter import Interpreter
    import onnxruntime as ort
    it = Interpreter(model_path=os.path.join(mdir, "model.tflite"), num_threads=1)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    so_opts = ort.SessionOptions()
    so_opts.intra_op_num_threads = so_opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(os.path.join(mdir, "model.onnx"), so_opts, providers=["CPUExecutionProvider"])
    io = sess.io_binding()
    io.bind_cpu_input(sess.get_inputs()[0].name, x)
    io.bind_output(sess.get_outputs()[0].name)

    rows = [
        ("sm2c from C (static entry, bench_time)", from_c(args.work, x, want.size, args.repeat)),
        ("sm2c, ordinary call `m.serving_default(x=...)`", per_call(lambda: entry(**{key: x}), args.repeat)),
        ("sm2c, bound call `run()`", per_call(run, args.repeat)),
        ("TFLite `invoke()` (input set once)", per_call(it.invoke, args.repeat)),
        ("ORT `run_with_iobinding()`", per_call(lambda: sess.run_with_iobinding(io), args.repeat)),
    ]
    load_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"model {args.name}; load before: {load_before}; after: {load_after}")
    print("| call | median µs | min–max |")
    print("|---|---|---|")
    for what, (med, lo, hi) in rows:
        print(f"| {what} | {med:.2f} | {lo:.2f}–{hi:.2f} |")


if __name__ == "__main__":
    main()
