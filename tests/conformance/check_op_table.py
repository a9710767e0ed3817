"""The op table (`sm2c ops`) claims exactly what the conformance cases test.

usage: check_op_table.py SM2C OPS_DIR
Compiles every signature of every case in OPS_DIR with --report and collects
the "lowered OP DTYPE..." lines.  Fails when the table lists a dtype of an op
that no case lowers, or an op that no case lowers and no case is named after
(Shape, Size, Rank and BroadcastArgs fold at compile time; ResourceGather
becomes GatherV2 at import).  Standard library only.
"""
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def table(sm2c):
    out = subprocess.run([sm2c, "ops"], check=True, capture_output=True, text=True).stdout
    return {line.split()[0]: set(line.split()[1:]) for line in out.splitlines() if line.strip()}


def lowered_by(sm2c, case_dir, sig, shapes, function):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.txt")
        cmd = [sm2c, "compile", os.path.join(case_dir, "model"), "-o", os.path.join(tmp, "out"),
               "--function" if function else "--signature", sig, "--report", report]
        for key, dims in shapes.items():
            cmd += ["--shape", "%s=%s" % (key, ",".join(map(str, dims)))]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return None, "%s %s: %s" % (os.path.basename(case_dir), sig, r.stderr.strip())
        pairs = set()
        for line in open(report):
            if line.startswith("lowered "):
                words = line.split()
                pairs.update((words[1], dt) for dt in words[2:])
        return pairs, None


def main():
    sm2c, ops_dir = sys.argv[1], sys.argv[2]
    claimed = table(sm2c)
    jobs = []
    for name in sorted(os.listdir(ops_dir)):
        case_dir = os.path.join(ops_dir, name)
        meta = json.load(open(os.path.join(case_dir, "case.json")))
        for sig, s in meta["signatures"].items():
            jobs.append((case_dir, sig, s.get("shapes", {}), s.get("function", False)))
    tested, failures = set(), []
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for pairs, err in pool.map(lambda j: lowered_by(sm2c, *j), jobs):
            if err:
                failures.append(err)
            else:
                tested |= pairs
    names = os.listdir(ops_dir)
    for op, dtypes in sorted(claimed.items()):
        lowered = {dt for o, dt in tested if o == op}
        if not lowered:
            if not any(n == op or n.startswith(op + "_") for n in names):
                failures.append("%s: no case lowers it and no case is named after it" % op)
            continue
        for dt in sorted(dtypes - lowered):
            failures.append("%s on %s: in `sm2c ops` but no case lowers it" % (op, dt))
    for f in failures:
        print("FAIL", f)
    print("%d ops in the table, %d (op, dtype) pairs lowered by %d signatures of %d cases"
          % (len(claimed), len(tested), len(jobs), len(names)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
