#!/usr/bin/env bash
# Compile time and peak memory grow at most n log n in the size of the model
# (issue 32, class 1; docs/reliability.md P8): for signatures, nodes of the
# main graph (Negs, which run in place, and MatMuls, which each need a buffer:
# the passes and the arena planner) and nodes of one function body, each at n
# and 4n, the ratio of CPU time and of peak memory above a one-node model's is
# at most 8 (n log n gives about 4.6, quadratic growth 16).  Ratios, not
# absolute times, so the test holds on a slow machine and under
# AddressSanitizer.  The models come from tests/models/gen_scale.py (no
# TensorFlow).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=$root/tests/models/gen_scale.py

python3 - "$sm2c" "$gen" "$tmp" <<'PY'
import os, subprocess, sys, time

sm2c, gen, tmp = sys.argv[1:4]
MAX_RATIO = 8.0
LIMIT_S = 60

def measure(kind, n):
    d = os.path.join(tmp, "%s%d" % (kind, n))
    subprocess.run([sys.executable, gen, d, kind, str(n)], check=True)
    with open(d + ".err", "w+") as err:
        p = subprocess.Popen([sm2c, "compile", d, "-o", d + ".out", "--emit", "c"],
                             stdout=subprocess.DEVNULL, stderr=err)
        # This child's own usage and peak; a run past LIMIT_S seconds (a
        # regression to quadratic growth) is stopped and fails the test.
        deadline = time.monotonic() + LIMIT_S
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                print("FAIL: %s %d: no result after %d s" % (kind, n, LIMIT_S))
                sys.exit(1)
            time.sleep(0.02)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        msg = err.read()
    if p.returncode != 0:
        print("FAIL: %s %d: exit %d: %s" % (kind, n, p.returncode, msg.strip()[-300:]))
        sys.exit(1)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss   # CPU seconds, peak KiB

# A one-node model's peak memory is the baseline subtracted below.
_, base_kb = measure("chain", 1)
fail = 0
for kind, n in (("signatures", 2000), ("chain", 8000), ("body", 8000), ("matmuls", 4000)):
    t1, m1 = measure(kind, n)
    t4, m4 = measure(kind, 4 * n)
    mr = (m4 - base_kb) / max(m1 - base_kb, 1024)
    tr = t4 / max(t1, 0.01)
    ok = tr <= MAX_RATIO and mr <= MAX_RATIO
    print("%-10s n=%-6d 4n: time %.2fs -> %.2fs (x%.1f), peak above base %d -> %d KiB (x%.1f) %s"
          % (kind, n, t1, t4, tr, m1 - base_kb, m4 - base_kb, mr, "ok" if ok else "FAIL"))
    fail |= not ok
sys.exit(1 if fail else 0)
PY
