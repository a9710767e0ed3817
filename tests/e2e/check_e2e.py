"""Run every end-to-end case through `sm2c run` and compare with TensorFlow.

usage: check_e2e.py [--emit c|obj|so] [--keep-outputs DIR] [-j N] [--report FILE]
                    [--families OPS_DEF] [--run-args ARGS] SM2C CASES_DIR [CASE...]
--run-args adds ARGS (split as a shell would) to every `sm2c run`: with
"--threads 1,2,3,8 --task-work 1" every case also runs its context entry point
on 1, 2, 3 and 8 threads with every splittable step split, and the driver
checks those outputs bit for bit against the static entry point's.
The runtime is built once with $CC (`sm2c runtime`) and linked into every case
(`sm2c run --runtime-lib`) for the c and obj forms; the library is kept between
runs under a digest of its sources and $CC (rtlib.py: $SM2C_E2E_CACHE, by
default ~/.cache/sm2c/e2e-rtlib, as `sm2c run`'s cache).
--report writes a Markdown table, a row per case: status, worst absolute error
and worst ULP over its outputs (the conformance report); with --families
(compiler/ops/ops.def) it starts with the worst error per op family.
CASES_DIR/<case>/{model/, inputs/<sig>/<key>.npy, expected/<sig>/<key>.npy, case.json};
an entry of case.json with "function": true is run with --function, not --signature;
one with "calls": N is stateful: expected/<sig>/call_<k>/<key>.npy are the outputs of
the k-th consecutive call (sm2c run --repeat k), expected/<sig>/state/<checkpoint key
with / as __>.npy the written variables after N calls (--state-out).
A case.json with "max_batch": N (tests/data/batch) runs each signature with
--max-batch N once per row count in its "batches", from inputs/<sig>/b<B>/ against
expected/<sig>/b<B>/.
Comparison (docs/reliability.md section 9): |got - want| <= atol + rtol*|want| per
element, NaN positions equal, infinities equal; integers exactly (atol 0).
Prints the worst absolute error and ULP distance per output.  Standard library only.
float16 is '<f2'; bfloat16 is '<V2' (numpy + ml_dtypes' encoding; sm2c reads and
writes it the same way), compared as the float32 it widens to; complex64 ('<c8')
as its real and imaginary float32 parts.
"""
import ast
import json
import math
import os
import shlex
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rtlib import build_runtime_lib  # noqa: E402

FORMATS = {"<f4": ("f", 4), "<f8": ("d", 8), "<i4": ("i", 4), "<i8": ("q", 8), "|u1": ("B", 1),
           "|b1": ("?", 1), "<i2": ("h", 2), "|i1": ("b", 1), "<u2": ("H", 2), "<u4": ("I", 4),
           "<u8": ("Q", 8), "<f2": ("e", 2), "<V2": ("H", 2),
           "<c8": ("f", 4)}   # complex64: its (re, im) floats, compared one by one
FLOATS = ("<f4", "<f8", "<f2", "<V2", "<c8")
RUN_ARGS = []   # --run-args


def bf16_to_float(bits):
    """bfloat16 is stored as '<V2' (what numpy with ml_dtypes writes): the
    top 16 bits of a float32."""
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def load_npy(path):
    data = open(path, "rb").read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError("%s: not a .npy file" % path)
    major = data[6]
    hlen_size = 2 if major == 1 else 4
    hlen = int.from_bytes(data[8:8 + hlen_size], "little")
    start = 8 + hlen_size
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    if header["descr"].startswith("|S"):
        # strings (np.bytes_, zero-padded to the widest): compared as bytes, exactly
        width, body = int(header["descr"][2:]), data[start + hlen:]
        n = len(body) // width if width else 0
        return header["shape"], "|S", [body[i * width:(i + 1) * width].rstrip(b"\0") for i in range(n)]
    fmt, size = FORMATS[header["descr"]]
    body = data[start + hlen:]
    n = len(body) // size
    values = list(struct.unpack("<%d%s" % (n, fmt), body))
    if header["descr"] == "<V2":
        values = [bf16_to_float(v) for v in values]
    return header["shape"], header["descr"], values


def ulp_distance(a, b):
    """Distance in float32 units in the last place."""
    def key(x):
        i = struct.unpack("<i", struct.pack("<f", x))[0]
        return i if i >= 0 else -(i & 0x7fffffff)
    try:
        return abs(key(a) - key(b))
    except (OverflowError, struct.error):
        return float("inf")


def compare(want, got, descr, rtol, atol):
    """Returns (ok, max_abs_error, max_ulp, first_bad_index)."""
    if len(want) != len(got):
        return False, float("inf"), float("inf"), -1
    worst, worst_ulp, bad = 0.0, 0, -1
    is_float = descr in FLOATS
    for i, (w, g) in enumerate(zip(want, got)):
        if is_float:
            if math.isnan(w) or math.isnan(g):
                if not (math.isnan(w) and math.isnan(g)) and bad < 0:
                    bad = i
                continue
            if math.isinf(w) or math.isinf(g):
                if w != g and bad < 0:
                    bad = i
                continue
            err = abs(w - g)
            worst = max(worst, err)
            if descr in ("<f4", "<c8"):
                worst_ulp = max(worst_ulp, ulp_distance(w, g))
            if err > atol + rtol * abs(w) and bad < 0:
                bad = i
        elif w != g and bad < 0:
            bad = i
            worst = float("inf") if isinstance(w, bytes) else max(worst, abs(w - g))
    return bad < 0, worst, worst_ulp, bad


EMIT = "c"
KEEP = None
RTLIB = None


def compare_dir(expected_dir, out, label, tol, report, stats):
    """Every expected/<...>/<key>.npy against the file of that name in out."""
    ok = True
    for f in sorted(os.listdir(expected_dir)):
        shape_w, descr_w, want = load_npy(os.path.join(expected_dir, f))
        path = os.path.join(out, f)
        if not os.path.exists(path):
            report.append("  %s/%s: no output written" % (label, f))
            ok = False
            continue
        shape_g, descr_g, got = load_npy(path)
        if tuple(shape_g) != tuple(shape_w) or descr_g != descr_w:
            report.append("  %s/%s: got %s %s, want %s %s" % (label, f, descr_g, shape_g, descr_w, shape_w))
            ok = False
            continue
        good, err, ulp, bad = compare(want, got, descr_w, tol["rtol"], tol["atol"])
        stats.append((err, ulp))
        report.append("  %s/%s: %s max abs error %.3g, max ulp %s" % (label, f, "ok" if good else "MISMATCH",
                                                                      err, ulp))
        if not good:
            report.append("    first bad element %d: want %r, got %r" % (bad, want[bad], got[bad]))
            ok = False
    return ok


def run_once(sm2c, case_dir, sig, function, out, extra, report, sub=""):
    inputs_dir = os.path.join(case_dir, "inputs", sig, sub)
    cmd = [sm2c, "run", os.path.join(case_dir, "model"), "--function" if function else "--signature", sig,
           "--outdir", out,
           "--emit", EMIT] + (["--runtime-lib", RTLIB] if RTLIB else []) + RUN_ARGS + extra
    for f in sorted(os.listdir(inputs_dir)) if os.path.isdir(inputs_dir) else []:
        cmd += ["--input", "%s=%s" % (f[:-4], os.path.join(inputs_dir, f))]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        report.append("  %s: sm2c run %sfailed (exit %d): %s" % (sig, " ".join(extra) + " " if extra else "",
                                                               p.returncode, p.stderr.strip()[-600:]))
        return False
    if KEEP:
        import shutil
        dest = os.path.join(KEEP, os.path.basename(case_dir), sig, sub)
        shutil.copytree(out, dest, dirs_exist_ok=True)
    return True


def run_signature(sm2c, case_dir, sig, tol, report, stats, function=False, calls=None, sub="", extra=()):
    """A stateful signature ("calls": N) runs N times: `run --repeat k` gives
    expected/<sig>/call_<k>/, and the last run's --state-out gives
    expected/<sig>/state/ (checkpoint keys with / as __).  A batched run reads
    inputs/<sig>/<sub>/ and expected/<sig>/<sub>/ with the extra flags."""
    expected_dir = os.path.join(case_dir, "expected", sig, sub)
    with tempfile.TemporaryDirectory(prefix="sm2c-e2e-") as tmp:
        if not calls:
            out = os.path.join(tmp, "out")
            return run_once(sm2c, case_dir, sig, function, out, list(extra), report, sub) and \
                compare_dir(expected_dir, out, sig + ("/" + sub if sub else ""), tol, report, stats)
        ok = True
        for k in range(1, calls + 1):
            out, state = os.path.join(tmp, "call_%d" % k), os.path.join(tmp, "state")
            writes = os.path.isdir(os.path.join(expected_dir, "state")) and os.listdir(
                os.path.join(expected_dir, "state"))
            extra = ["--repeat", str(k)] + (["--state-out", state] if k == calls and writes else [])
            if not run_once(sm2c, case_dir, sig, function, out, extra, report):
                return False
            ok &= compare_dir(os.path.join(expected_dir, "call_%d" % k), out, "%s/call_%d" % (sig, k), tol,
                              report, stats)
        if not writes:
            return ok
        return compare_dir(os.path.join(expected_dir, "state"), state, "%s/state" % sig, tol, report,
                           stats) and ok


def run_case(sm2c, case_dir):
    """Returns (ok, report lines, worst abs error, worst ulp)."""
    meta = json.load(open(os.path.join(case_dir, "case.json")))
    report, stats = [], []
    runs = [(sig, "", ()) for sig in sorted(meta["signatures"])]
    if "max_batch" in meta:
        runs = [(sig, "b%d" % b, ("--max-batch", str(meta["max_batch"])))
                for sig in sorted(meta["signatures"]) for b in meta["batches"]]
    ok = all([run_signature(sm2c, case_dir, sig, meta["tolerance"], report, stats,
                            meta["signatures"][sig].get("function", False),
                            meta["signatures"][sig].get("calls"), sub, extra)
              for sig, sub, extra in runs])
    err = max([e for e, _ in stats], default=0.0)
    ulp = max([u for _, u in stats], default=0)
    return ok, report, err, ulp


def op_families(ops_def):
    """op name -> family, from the section comments of compiler/ops/ops.def."""
    names = [("logic", "comparison, logic and integer"), ("reduction", "reductions"),
             ("movement", "shape and data movement"), ("shape", "shape and data movement"),
             ("neural", "neural network"), ("elementwise", "elementwise"),
             ("gradients", "training gradients"), ("run-time checks", "run-time checks"),
             ("classifier losses", "classifier losses"),
             ("quantization", "quantization-aware ops in float"),
             ("data-dependent", "data-dependent sizes"), ("object detection", "data-dependent sizes"),
             ("sparse", "data-dependent sizes"),
             ("random ops", "random (Philox)"), ("resizing", "neural network"),
             ("strings", "strings and lookup tables"), ("tables", "strings and lookup tables"),
             ("signal processing", "complex64 and signal processing")]
    families, family = {}, "other"
    for line in open(ops_def):
        if line.startswith("/*"):
            family = next((f for key, f in names if key in line), family)
        elif line.startswith("OP("):
            families[line[3:line.index(",")]] = family
    families["Cast"] = "cast"
    # Cases named after what is not an op of its own: Gelu is Keras's composite,
    # Identity is removed at import.
    families.update(Gelu="elementwise", Identity="shape and data movement")
    return families


def family_of(case, families):
    """A case's family: keras_* and arch_* by prefix, else its op (the longest
    op name the case name starts with, followed by '_' or nothing)."""
    for prefix, family in (("keras_", "Keras layers"), ("arch_", "architectures"),
                           ("Movement_", "shape and data movement"),
                           ("Elementwise_", "elementwise in float16, bfloat16, float64"),
                           # issue 33's dtype sweeps (tests/models/ops_int_dtypes.py)
                           ("IntReduce_", "reductions"), ("FillPadV2_", "shape and data movement"),
                           ("IntUnary_", "elementwise"), ("IntBinary_", "comparison, logic and integer"),
                           ("IntBits_", "comparison, logic and integer"),
                           ("IntMisc_", "comparison, logic and integer"),
                           ("Dtypes_", "comparison, logic and integer"),
                           ("Function_", "polymorphic functions"),
                           ("State_", "writable variables (state)"),
                           ("Control_", "control flow"), ("Check_", "run-time checks"),
                           ("SoftmaxCrossEntropy_", "classifier losses"),
                           ("BooleanMask", "data-dependent sizes"), ("NMS_", "data-dependent sizes"),
                           ("STFT_", "complex64 and signal processing"),
                           ("MFCC", "complex64 and signal processing"),
                           ("InitializeTable", "strings and lookup tables")):
        if case.startswith(prefix):
            return family
    ops = [op for op in families if case == op or case.startswith(op + "_")]
    return families[max(ops, key=len)] if ops else "other"


def family_table(f, rows, families):
    """Worst error per family over its passing cases."""
    by = {}
    for row in rows:
        by.setdefault(family_of(row[0], families), []).append(row)
    f.write("| family | cases | pass | worst abs error (case) | worst ULP (case) |\n|---|---|---|---|---|\n")
    for family in sorted(by):
        rs = by[family]
        e = max(rs, key=lambda r: r[2])
        u = max(rs, key=lambda r: r[3])
        err = "%.3g (%s)" % (e[2], e[0]) if e[2] else "0"
        ulp = "%s (%s)" % (u[3], u[0]) if u[3] else "0"
        f.write("| %s | %d | %d | %s | %s |\n" % (family, len(rs), sum(1 for r in rs if r[1]), err, ulp))
    f.write("\n")


def write_report(path, cases_dir, rows, families=None):
    with open(path, "w") as f:
        f.write("# Conformance report\n\n")
        f.write("Every case in `%s` run through `sm2c run` (C backend) and compared with the outputs\n"
                "TensorFlow 2.21 gave for the same inputs, under each case's tolerance (case.json;\n"
                "docs/reliability.md section 9).  Regenerate with `scripts/conformance_report.sh`.\n\n"
                % ("tests/data/" + os.path.basename(os.path.normpath(cases_dir))))
        passed = sum(1 for r in rows if r[1])
        f.write("%d cases: %d pass, %d fail.\n\n" % (len(rows), passed, len(rows) - passed))
        if families:
            family_table(f, rows, families)
        f.write("| case | status | max abs error | max ULP |\n|---|---|---|---|\n")
        for case, ok, err, ulp in rows:
            f.write("| %s | %s | %.3g | %s |\n" % (case, "pass" if ok else "FAIL", err, ulp))


def main():
    global EMIT, KEEP
    args = sys.argv[1:]
    jobs, report_path, families = 1, None, None
    while args and args[0].startswith("-"):
        if args[0] == "--emit":
            EMIT = args[1]
        elif args[0] == "--keep-outputs":
            KEEP = args[1]
        elif args[0] == "-j":
            jobs = int(args[1])
        elif args[0] == "--report":
            report_path = args[1]
        elif args[0] == "--families":
            families = op_families(args[1])
        elif args[0] == "--run-args":
            RUN_ARGS.extend(shlex.split(args[1]))
        args = args[2:]
    sm2c, cases_dir = args[0], args[1]
    only = set(args[2:])
    cases = [c for c in sorted(os.listdir(cases_dir))
             if (not only or c in only) and os.path.isfile(os.path.join(cases_dir, c, "case.json"))]
    global RTLIB
    with tempfile.TemporaryDirectory(prefix="sm2c-rtlib-") as tmp:
        if EMIT in ("c", "obj"):
            RTLIB = build_runtime_lib(sm2c, tmp, jobs)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(lambda c: run_case(sm2c, os.path.join(cases_dir, c)), cases))
    rows = []
    for case, (ok, report, err, ulp) in zip(cases, results):
        print("%s %s" % ("ok  " if ok else "FAIL", case))
        print("\n".join(report))
        rows.append((case, ok, err, ulp))
    passed = sum(1 for r in rows if r[1])
    print("%d passed, %d failed" % (passed, len(rows) - passed))
    if report_path:
        write_report(report_path, cases_dir, rows, families)
    return 1 if passed != len(rows) else 0


if __name__ == "__main__":
    sys.exit(main())
