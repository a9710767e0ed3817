#!/usr/bin/env python3
"""Run sm2c on the real-model corpus and compare with TensorFlow's outputs.

usage: check_corpus.py SM2C MODELS_DIR REFS_JSON

REFS_JSON is tests/corpus/refs.json, written by tests/models/gen_corpus_refs.py
(TensorFlow run on the loaded SavedModels).  For every model and signature in
it: write the inputs as .npy files in a temporary directory, run

    SM2C run MODELS_DIR/<dir> --signature KEY --input K=FILE.npy ... --outdir OUT
         [--tag_set TAGS] [--shape K=d0,d1,...]

and compare each OUT/<output key>.npy with the reference, by the whole-model
policy of docs/reliability.md section 9: float outputs |got - ref| <= atol + rtol*|ref|
with rtol = atol = 1e-4, NaN positions and +-Inf (with sign) exact, subnormals
flushed to zero on both sides; integer and bool outputs bit-exact; dtype and
shape exact.  String inputs (serialized tf.Examples, hex in REFS_JSON) are
written as numpy 'S' arrays; string outputs are read from them and must be
byte-exact.  Prints "ok MODEL/KEY: max abs error E, max ulp U" or
"FAIL MODEL/KEY: ..." per signature and "N passed, M failed" at the end;
exits 1 if any failed.  Python standard library only.
"""
import ast
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

RTOL = 1e-4
ATOL = 1e-4
FLT_MIN = 1.1754943508222875e-38
DBL_MIN = 2.2250738585072014e-308
TIMEOUT = 240

# dtype name -> (npy descr, struct code, item size)
DTYPES = {
    "float16": ("<f2", "e", 2), "float32": ("<f4", "f", 4), "float64": ("<f8", "d", 8),
    "int8": ("|i1", "b", 1), "int16": ("<i2", "h", 2), "int32": ("<i4", "i", 4),
    "int64": ("<i8", "q", 8), "uint8": ("|u1", "B", 1), "uint16": ("<u2", "H", 2),
    "uint32": ("<u4", "I", 4), "uint64": ("<u8", "Q", 8), "bool": ("|b1", "?", 1),
}
DESCR = {}
for _name, (_d, _code, _size) in DTYPES.items():
    DESCR[_d[1:]] = _name  # kind+size, e.g. "f4"
FLOATS = ("float16", "float32", "float64")


def output_file(key):
    """The file name sm2c run gives an output key (compiler/cli/run.c output_file_name):
    the exact key when it can be a file name, else its C identifier."""
    if key and len(key) <= 200 and key[0] != "." and all(" " < ch <= "~" and ch not in "/\\" for ch in key):
        return key + ".npy"
    s = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9]", "_", key[:64]))
    return ("x" if not key or not key[0].isalpha() else "") + s + ".npy"


def dec(v):
    if isinstance(v, str):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[v]
    return v


# ---- .npy ---------------------------------------------------------------------------------

def write_npy(path, dtype, shape, data):
    if dtype == "string":   # hex of each element's bytes -> a fixed-width bytes ('S') array
        vals = [bytes.fromhex(v) for v in data]
        width = max([1] + [len(v) for v in vals])
        descr, payload = "|S%d" % width, b"".join(v.ljust(width, b"\0") for v in vals)
    else:
        descr, code, _ = DTYPES[dtype]
        vals = [dec(v) for v in data]
        if dtype == "bool":
            vals = [bool(v) for v in vals]
        payload = struct.pack("<%d%s" % (len(vals), code), *vals)
    if len(shape) == 1:
        shp = "(%d,)" % shape[0]
    else:
        shp = "(" + ", ".join(str(d) for d in shape) + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shp)
    pad = 64 - (10 + len(header) + 1) % 64
    if pad == 64:
        pad = 0
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(payload)


def read_npy(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:6] != b"\x93NUMPY":
        raise ValueError("not a .npy file")
    major = raw[6]
    if major == 1:
        (hlen,) = struct.unpack_from("<H", raw, 8)
        off = 10
    else:
        (hlen,) = struct.unpack_from("<I", raw, 8)
        off = 12
    header = ast.literal_eval(raw[off:off + hlen].decode("latin1"))
    off += hlen
    descr = header["descr"]
    if header.get("fortran_order"):
        raise ValueError("fortran_order .npy not supported")
    shape = list(header["shape"])
    if re.fullmatch(r"\|S[0-9]+", descr):   # a string output: each element's bytes in hex
        width = int(descr[2:])
        n = 1
        for d in shape:
            n *= d
        if len(raw) - off != n * width:
            raise ValueError("%d data bytes for %d elements of %s" % (len(raw) - off, n, descr))
        return "string", shape, [raw[off + i * width:off + (i + 1) * width].rstrip(b"\0").hex() for i in range(n)]
    endian = descr[0]
    if endian not in "<>|=":
        endian, descr = "|", "|" + descr
    name = DESCR.get(descr[1:])
    if name is None:
        raise ValueError("unsupported descr %r" % header["descr"])
    _, code, size = DTYPES[name]
    n = 1
    for d in shape:
        n *= d
    if len(raw) - off != n * size:
        raise ValueError("%d data bytes for %d elements of %s" % (len(raw) - off, n, name))
    fmt = (">" if endian == ">" else "<") + "%d%s" % (n, code)
    return name, shape, list(struct.unpack_from(fmt, raw, off))


# ---- comparison ---------------------------------------------------------------------------

def ordered_bits(x, dtype):
    """Float bits mapped to integers whose order is the float order (for ULPs)."""
    if dtype == "float64":
        (b,) = struct.unpack("<q", struct.pack("<d", x))
        top = 1 << 63
    elif dtype == "float16":
        (b,) = struct.unpack("<h", struct.pack("<e", x))
        top = 1 << 15
    else:
        (b,) = struct.unpack("<i", struct.pack("<f", x))
        top = 1 << 31
    return b if b >= 0 else -(b + top)


def flush(x, dtype):
    tiny = DBL_MIN if dtype == "float64" else FLT_MIN
    return 0.0 if x != 0 and abs(x) < tiny and dtype != "float16" else x


def compare(name, ref, got_dtype, got_shape, got):
    """Returns (error message or None, max abs error, max ulp)."""
    if got_dtype != ref["dtype"]:
        return "%s: dtype %s, TensorFlow %s" % (name, got_dtype, ref["dtype"]), 0, 0
    if list(got_shape) != list(ref["shape"]):
        return "%s: shape %s, TensorFlow %s" % (name, got_shape, ref["shape"]), 0, 0
    want = ref["data"] if ref["dtype"] == "string" else [dec(v) for v in ref["data"]]
    if len(want) != len(got):
        return "%s: %d elements, TensorFlow %d" % (name, len(got), len(want)), 0, 0
    dtype = ref["dtype"]
    max_abs, max_ulp = 0.0, 0
    for i, (g, w) in enumerate(zip(got, want)):
        if dtype not in FLOATS:
            if dtype == "bool":
                g, w = bool(g), bool(w)
            if g != w:
                return "%s[%d]: got %r, TensorFlow %r (exact)" % (name, i, g, w), max_abs, max_ulp
            continue
        if math.isnan(w) or math.isnan(g):
            if not (math.isnan(w) and math.isnan(g)):
                return "%s[%d]: got %r, TensorFlow %r (NaN positions)" % (name, i, g, w), max_abs, max_ulp
            continue
        if math.isinf(w) or math.isinf(g):
            if g != w:
                return "%s[%d]: got %r, TensorFlow %r (Inf)" % (name, i, g, w), max_abs, max_ulp
            continue
        g, w = flush(g, dtype), flush(w, dtype)
        err = abs(g - w)
        ulp = abs(ordered_bits(g, dtype) - ordered_bits(w, dtype))
        max_abs, max_ulp = max(max_abs, err), max(max_ulp, ulp)
        if err > ATOL + RTOL * abs(w):
            return ("%s[%d]: got %r, TensorFlow %r (abs error %.3g > atol %g + rtol %g*|ref|)"
                    % (name, i, g, w, err, ATOL, RTOL)), max_abs, max_ulp
    return None, max_abs, max_ulp


# ---- driver -------------------------------------------------------------------------------

RTLIB = []  # ["--runtime-lib", path] once built


def check_signature(sm2c, models_dir, model, sig, tmp):
    inputs_dir = os.path.join(tmp, "in")
    out_dir = os.path.join(tmp, "out")
    os.makedirs(inputs_dir)
    cmd = [sm2c, "run", os.path.join(models_dir, model["dir"]), "--signature", sig["key"],
           "--emit", os.environ.get("SM2C_RUN_EMIT", "c")] + RTLIB
    for i, (k, t) in enumerate(sorted(sig["inputs"].items())):
        path = os.path.join(inputs_dir, "in%d.npy" % i)
        write_npy(path, t["dtype"], t["shape"], t["data"])
        cmd += ["--input", "%s=%s" % (k, path)]
    cmd += ["--outdir", out_dir]
    if model.get("tags", "serve") != "serve":
        cmd += ["--tag_set", model["tags"]]
    for k, dims in sorted(sig.get("shape_flags", {}).items()):
        cmd += ["--shape", "%s=%s" % (k, ",".join(str(d) for d in dims))]
    if "calls" not in sig:
        return run_and_compare(cmd, out_dir, sig["outputs"], None, None)
    # Stateful: call k's outputs come from `run --repeat k`; the last run
    # also writes the variables (--state-out).
    max_abs, max_ulp = 0.0, 0
    for k in range(1, sig["calls"] + 1):
        last = k == sig["calls"]
        state_dir = os.path.join(tmp, "state") if last else None
        out_k = "%s%d" % (out_dir, k)
        cmd_k = [out_k if a == out_dir else a for a in cmd] + ["--repeat", str(k)]
        if last:
            cmd_k += ["--state-out", state_dir]
        msg, a, u = run_and_compare(cmd_k, out_k, sig["call_outputs"][k - 1], state_dir,
                                    sig["state"] if last else None)
        max_abs, max_ulp = max(max_abs, a), max(max_ulp, u)
        if msg:
            return "call %d: %s" % (k, msg), max_abs, max_ulp
    return None, max_abs, max_ulp


def state_file(key):
    return key.replace("/", "__") + ".npy"


def run_and_compare(cmd, out_dir, outputs, state_dir, state):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "sm2c run timed out after %ds" % TIMEOUT, 0, 0
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        return "sm2c exit %d: %s" % (p.returncode, " | ".join(err[-3:]) or "(no message)"), 0, 0
    max_abs, max_ulp = 0.0, 0
    files = [(k, ref, os.path.join(out_dir, output_file(k))) for k, ref in sorted(outputs.items())]
    files += [(k, ref, os.path.join(state_dir, state_file(k))) for k, ref in sorted((state or {}).items())]
    for k, ref, path in files:
        if not os.path.exists(path):
            return "output %s: %s not written" % (k, os.path.basename(path)), max_abs, max_ulp
        try:
            dtype, shape, data = read_npy(path)
        except (ValueError, OSError, SyntaxError) as e:
            return "output %s: %s" % (k, e), max_abs, max_ulp
        msg, a, u = compare(k, ref, dtype, shape, data)
        max_abs, max_ulp = max(max_abs, a), max(max_ulp, u)
        if msg:
            return msg, max_abs, max_ulp
    return None, max_abs, max_ulp


def main(argv):
    if len(argv) != 4:
        print("usage: check_corpus.py SM2C MODELS_DIR REFS_JSON", file=sys.stderr)
        return 2
    sm2c, models_dir, refs_path = argv[1:]
    with open(refs_path) as f:
        refs = json.load(f)
    passed = failed = 0
    # The runtime built once with $CC and linked into every run (check_e2e.py).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
    import check_e2e
    rt_tmp = tempfile.mkdtemp(prefix="sm2c-rtlib-")
    if os.environ.get("SM2C_RUN_EMIT", "c") in ("c", "obj"):
        RTLIB.extend(["--runtime-lib", check_e2e.build_runtime_lib(sm2c, rt_tmp, os.cpu_count() or 1)])
    for model in refs["models"]:
        for sig in model["signatures"]:
            name = "%s/%s" % (model["dir"], sig["key"])
            with tempfile.TemporaryDirectory(prefix="sm2c-corpus-") as tmp:
                msg, max_abs, max_ulp = check_signature(sm2c, models_dir, model, sig, tmp)
            if msg is None:
                passed += 1
                print("ok %s: max abs error %.3g, max ulp %d%s"
                      % (name, max_abs, max_ulp, " (> 100 ulp, review)" if max_ulp > 100 else ""))
            else:
                failed += 1
                print("FAIL %s: %s" % (name, msg))
            sys.stdout.flush()
    shutil.rmtree(rt_tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
