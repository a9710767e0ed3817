"""Helpers of the Cortex-M4F test (tests/cli/firmware_m4.sh); standard library only.

    fw.py header CASE_DIR NAME SIGNATURE [OUT_DIR]
                                           writes fw_case.h to stdout; with
                                           OUT_DIR, the build of a model
                                           compiled with --io int8, its input's
                                           and output's scale and zero point
                                           from OUT_DIR/NAME.h (harness.c's
                                           FW_IO_INT8)
    fw.py header-entry CASE_DIR FUNCTION   the same for another generator's
                                           int32_t FUNCTION(const float *, float *),
                                           no stack bound
    fw.py check CASE_DIR RUN_LOG           compares the run's outputs with
                                           TensorFlow's, the stack with the bound
                                           (never below it, within 2x of it)
    fw.py calib CASE_DIR OUT.npy [N]       N calibration inputs for --quantize
                                           int8 (default: case.json's
                                           int8.calibration): the case's input,
                                           then N - 1 seeded shuffles of its values
    fw.py from-bench ROOT MODEL_DIR OUT_CASE_DIR
                                           a case (case.json, input.bin,
                                           expected.bin) from one of
                                           bench/gen_bench_models.py's models
                                           (bench/embedded/run.sh's MLPerf Tiny
                                           rows)
    fw.py check-q8 CASE_DIR RUN_LOG HOST.npy
    fw.py check-mode CASE_DIR RUN_LOG HOST.npy     (check-q8, the host's bits not required)
                                           an int8 build's run: outputs bit for
                                           bit those of the same build on the
                                           host (sm2c run), within the case's
                                           int8 tolerance of TensorFlow's
"""
import json
import math
import os
import random
import re
import struct
import sys


def floats(path):
    data = open(path, "rb").read()
    return struct.unpack("<%df" % (len(data) // 4), data)


def input_bits(case_dir):
    raw = open(os.path.join(case_dir, "input.bin"), "rb").read()
    return struct.unpack("<%dI" % (len(raw) // 4), raw)


def io_int8(out_dir, name, up, input_key):
    """harness.c's FW_IO_INT8 macros: the header's <UP>_<KEY>_SCALE and
    _ZERO_POINT of the input and of the one output."""
    keys = re.findall(r"^#define %s_(\w+)_SCALE " % up, open(os.path.join(out_dir, name + ".h")).read(), re.M)
    outs = [k for k in keys if k != input_key.upper()]
    if input_key.upper() not in keys or len(outs) != 1:
        sys.exit("fw.py: %s.h: no int8 input %s and one int8 output (scales %s)" % (name, input_key, keys))
    print("#define FW_IO_INT8 1")
    for what, key in (("IN", input_key.upper()), ("OUT", outs[0])):
        print("#define FW_%s_SCALE %s_%s_SCALE" % (what, up, key))
        print("#define FW_%s_ZERO_POINT %s_%s_ZERO_POINT" % (what, up, key))


def header(case_dir, name, sig, out_dir=None):
    case = json.load(open(os.path.join(case_dir, "case.json")))
    bits = input_bits(case_dir)
    up = (name + "_" + sig).upper()
    print('#include "%s.h"' % name)
    if out_dir:
        io_int8(out_dir, name, up, case["input"])
    print("#define FW_ENTRY %s_%s" % (name, sig))
    print("#define FW_STACK_BOUND %s_STACK_SIZE" % name.upper())
    print("_Static_assert(%d == %s_%s_ELEMENTS, \"input size\");"
          % (len(bits), up, case["input"].upper()))
    data(case, bits)


def header_entry(case_dir, function):
    case = json.load(open(os.path.join(case_dir, "case.json")))
    print("#include <stdint.h>")
    print("int32_t %s(const float *x, float *y);" % function)
    print("#define FW_ENTRY %s" % function)
    print("#define FW_STACK_BOUND 0")
    data(case, input_bits(case_dir))


def data(case, bits):
    print("#define FW_IN_ELEMENTS %d" % len(bits))
    print("#define FW_OUT_ELEMENTS %d" % case["output_elements"])
    print("static const uint32_t fw_input_bits[%d] = {" % len(bits))
    for i in range(0, len(bits), 8):
        print("    " + ", ".join("0x%08xu" % b for b in bits[i:i + 8]) + ",")
    print("};")


def stack_errors(lines, errors):
    """The painted stack and the header's bound: never below, within 2x."""
    fields = dict(l.split(" ", 1) for l in lines if l.split(" ", 1)[0] in ("stack", "bound"))
    stack, bound = int(fields.get("stack", -1)), int(fields.get("bound", -1))
    if bound == 0:
        pass                        # a generator that states no bound (bench/embedded)
    elif bound < stack:
        errors.append("stack bound %d below the %d bytes measured" % (bound, stack))
    if bound > 2 * stack > 0:
        errors.append("stack bound %d more than twice the %d bytes measured" % (bound, stack))
    return stack, bound


def check(case_dir, log):
    case = json.load(open(os.path.join(case_dir, "case.json")))
    want = floats(os.path.join(case_dir, "expected.bin"))
    lines = open(log).read().split("\n")
    got = [struct.unpack("<f", struct.pack("<I", int(l[4:], 16)))[0]
           for l in lines if l.startswith("out ")]
    fields = dict(l.split(" ", 1) for l in lines if l.split(" ", 1)[0] in ("status", "stack", "bound"))
    errors = []
    if fields.get("status") != "0":
        errors.append("status %s" % fields.get("status"))
    if len(got) != len(want):
        errors.append("%d outputs, want %d" % (len(got), len(want)))
    tol = case["tolerance"]
    worst = 0.0
    for i, (g, w) in enumerate(zip(got, want)):
        err = abs(g - w)
        worst = max(worst, err)
        if not err <= tol["atol"] + tol["rtol"] * abs(w) or math.isnan(g):
            errors.append("output %d: %r, TensorFlow %r" % (i, g, w))
    stack, bound = stack_errors(lines, errors)
    print("outputs %d, max abs error %.3g; stack %d bytes (painted), bound %d"
          % (len(got), worst, stack, bound))
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


def calib(case_dir, out, n=None):
    """Shuffles keep the input's distribution exactly (DS-CNN's inputs are
    normal, cnn28's uniform) with the standard library alone; the seed makes
    the file, hence the calibrated scales, the same on every run."""
    case = json.load(open(os.path.join(case_dir, "case.json")))
    n = int(n) if n is not None else case["int8"]["calibration"]
    bits = list(input_bits(case_dir))
    rng = random.Random(16)
    rows = [bits]
    for _ in range(n - 1):
        row = bits[:]
        rng.shuffle(row)
        rows.append(row)
    shape = [n] + case["shape"][1:]
    head = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % "".join("%d, " % d for d in shape)
    head += " " * (63 - (10 + len(head)) % 64) + "\n"
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode())
        for row in rows:
            f.write(struct.pack("<%dI" % len(row), *row))


def npy_floats(path):
    data = open(path, "rb").read()
    start = 10 + struct.unpack("<H", data[8:10])[0]
    return struct.unpack("<%df" % ((len(data) - start) // 4), data[start:])


def from_bench(root, model_dir, out):
    """info.json's input key and shape, input.npy and expected.npy (float32,
    batch 1) as a case; the model path relative to ROOT, as case.json has it."""
    info = json.load(open(os.path.join(model_dir, "info.json")))
    x, y = npy_floats(os.path.join(model_dir, "input.npy")), npy_floats(os.path.join(model_dir, "expected.npy"))
    os.makedirs(out, exist_ok=True)
    for name, values in (("input.bin", x), ("expected.bin", y)):
        with open(os.path.join(out, name), "wb") as f:
            f.write(struct.pack("<%df" % len(values), *values))
    case = {"model": os.path.relpath(os.path.join(model_dir, "saved_model"), root), "signature": "serving_default",
            "input": info["input_key"], "shape": info["input_shape"], "outputs": 1, "output_elements": len(y),
            "tolerance": {"rtol": 1e-4, "atol": 1e-4}, "int8": {"atol": 0.1, "calibration": 16}}
    json.dump(case, open(os.path.join(out, "case.json"), "w"), indent=1)


def check_q8(case_dir, log, host, exact=True):
    """The int8 tolerance (case.json's "int8": atol on the dequantized
    outputs) is about quantization; the host comparison is exact, so it is
    about the Cortex-M kernels (DSP or portable) alone.  The stack bound is
    checked as check() checks it.  exact False (check-mode: --quantize
    float16 or dynamic, whose float layers sum in another order on the host)
    reports the largest difference from the host instead."""
    case = json.load(open(os.path.join(case_dir, "case.json")))
    want = floats(os.path.join(case_dir, "expected.bin"))
    lines = open(log).read().split("\n")
    got = [int(l[4:], 16) for l in lines if l.startswith("out ")]
    ref = [struct.unpack("<I", struct.pack("<f", v))[0] for v in npy_floats(host)]
    errors = []
    status = [l for l in lines if l.startswith("status ")]
    if status != ["status 0"]:
        errors.append("status %s" % status)
    off = max((abs(struct.unpack("<f", struct.pack("<I", g))[0] - struct.unpack("<f", struct.pack("<I", r))[0])
               for g, r in zip(got, ref)), default=0.0)
    if got != ref and exact:
        errors.append("outputs differ from the host's int8 run: %s, host %s"
                      % (" ".join("%08x" % g for g in got), " ".join("%08x" % r for r in ref)))
    atol = case["int8"]["atol"]
    worst = 0.0
    for i, (g, w) in enumerate(zip(got, want)):
        g = struct.unpack("<f", struct.pack("<I", g))[0]
        worst = max(worst, abs(g - w))
        if not abs(g - w) <= atol:
            errors.append("output %d: %r, TensorFlow %r (int8 atol %g)" % (i, g, w, atol))
    stack, bound = stack_errors(lines, errors)
    print("int8: outputs %d, host's bits: %s, max abs error vs TensorFlow %.3g; vs the host %.3g; "
          "stack %d bytes (painted), bound %d"
          % (len(got), "equal" if got == ref else "DIFFER", worst, off, stack, bound))
    for e in errors:
        print("error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    if sys.argv[1] == "header":
        header(*sys.argv[2:6])
    elif sys.argv[1] == "header-entry":
        header_entry(*sys.argv[2:4])
    elif sys.argv[1] == "calib":
        calib(*sys.argv[2:5])
    elif sys.argv[1] == "from-bench":
        from_bench(*sys.argv[2:5])
    elif sys.argv[1] == "check-q8":
        sys.exit(check_q8(*sys.argv[2:5]))
    elif sys.argv[1] == "check-mode":
        sys.exit(check_q8(*sys.argv[2:5], exact=False))
    else:
        sys.exit(check(*sys.argv[2:4]))
