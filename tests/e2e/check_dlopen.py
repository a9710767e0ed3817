"""Each e2e case compiled with --emit so, loaded with dlopen and driven only
through its metadata table (dlopen_driver.c), must reproduce TensorFlow.

usage: check_dlopen.py SM2C DRIVER CASES_DIR
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_e2e import compare, load_npy, FORMATS  # noqa: E402


def raw_bytes(path):
    shape, descr, values = load_npy(path)
    fmt, _ = FORMATS[descr]
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def run_one(sm2c, driver, cases_dir, case, sig, spec, tol):
    """Compile, load and run one signature; returns (ok, report line)."""
    with tempfile.TemporaryDirectory(prefix="sm2c-so-") as tmp:
        name = "m_" + case
        cmd = [sm2c, "compile", os.path.join(cases_dir, case, "model"), "-o", tmp, "--name", name,
               "--emit", "so", "--signature", sig]
        for key, dims in sorted(spec["shapes"].items()):
            cmd += ["--shape", "%s=%s" % (key, ",".join(str(d) for d in dims))]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            return False, "FAIL %s/%s: compile: %s" % (case, sig, p.stderr.strip()[-300:])
        in_dir = os.path.join(cases_dir, case, "inputs", sig)
        exp_dir = os.path.join(cases_dir, case, "expected", sig)
        args = [driver, os.path.join(tmp, name + ".so"), name, sig]
        for f in sorted(os.listdir(in_dir)):
            raw = os.path.join(tmp, "in_" + f + ".raw")
            open(raw, "wb").write(raw_bytes(os.path.join(in_dir, f)))
            args.append(raw)
        outs = sorted(os.listdir(exp_dir))
        args += [os.path.join(tmp, "out_" + f + ".raw") for f in outs]
        p = subprocess.run(args, capture_output=True, text=True)
        ok = p.returncode == 0
        worst = 0.0
        for f in outs if ok else []:
            shape, descr, want = load_npy(os.path.join(exp_dir, f))
            fmt, size = FORMATS[descr]
            data = open(os.path.join(tmp, "out_" + f + ".raw"), "rb").read()
            got = list(struct.unpack("<%d%s" % (len(data) // size, fmt), data))
            good, err, _, _ = compare(want, got, descr, tol["rtol"], tol["atol"])
            ok = ok and good
            worst = max(worst, err)
        return ok, "%s %s/%s: max abs error %.3g%s" % ("ok  " if ok else "FAIL", case, sig, worst,
                                                      "" if p.returncode == 0 else " " + p.stderr.strip())


def main():
    sm2c, driver, cases_dir = sys.argv[1:4]
    jobs = []
    for case in sorted(os.listdir(cases_dir)):
        meta_path = os.path.join(cases_dir, case, "case.json")
        if not os.path.isfile(meta_path):
            continue
        meta = json.load(open(meta_path))
        for sig, spec in sorted(meta["signatures"].items()):
            jobs.append((case, sig, spec, meta["tolerance"]))
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda j: run_one(sm2c, driver, cases_dir, *j), jobs))
    for _, line in results:
        print(line)
    passed = sum(1 for ok, _ in results if ok)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
