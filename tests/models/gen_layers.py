#!/usr/bin/env python3
"""Write TensorFlow's per-node reference tensors for sm2c.verify(...,
per_layer=True) and tests/cli/dump_intermediates.sh.

Run with the project venv (TensorFlow; tests/models/requirements.txt):
    /work/venv/bin/python tests/models/gen_layers.py [--out OUT_DIR] [CASE ...]

For each case (an e2e model of tests/data/e2e, its committed serving_default
input) it runs the signature's graph in TensorFlow, functions inlined and
variables made constants, fetching every node's output 0 (but weight reads and the inliner's own
Func/ nodes), with
python/sm2c/_layers.py's tensorflow_intermediates (the code verify runs), and
writes OUT_DIR/<case>/index.json {"signature", "inputs": {key: file},
"nodes": {graph node name: file}} and the .npy files.  Nothing here comes
from sm2c.
"""
import argparse
import json
import os
import re
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
from sm2c import _layers  # noqa: E402

CASES = ("cnn", "mlp")
SIGNATURE = "serving_default"


def file_name(node, taken):
    base = re.sub(r"[^A-Za-z0-9._-]", "_", node.replace("/", "__"))
    name, k = base + ".npy", 1
    while name in taken:
        name, k = "%s_%d.npy" % (base, k), k + 1
    taken.add(name)
    return name


def write_case(case, out_dir):
    e2e = os.path.join(ROOT, "tests", "data", "e2e", case)
    in_dir = os.path.join(e2e, "inputs", SIGNATURE)
    # the first row of each: one sample keeps the files small
    inputs = {f[:-4]: np.load(os.path.join(in_dir, f))[:1] for f in sorted(os.listdir(in_dir))}
    values = _layers.tensorflow_intermediates(os.path.join(e2e, "model"), SIGNATURE, inputs)
    dest = os.path.join(out_dir, case)
    os.makedirs(dest, exist_ok=True)
    taken, nodes, in_files = set(), {}, {}
    for key, value in sorted(inputs.items()):
        in_files[key] = file_name("input." + key, taken)
        np.save(os.path.join(dest, in_files[key]), value)
    for node, value in sorted(values.items()):
        # weights (ReadVariableOp) and the inliner's plumbing (Func/...) are not layers
        if value.dtype.kind not in "fiub" or "ReadVariableOp" in node or node.startswith("Func/"):
            continue
        nodes[node] = file_name(node, taken)
        np.save(os.path.join(dest, nodes[node]), value)
    with open(os.path.join(dest, "index.json"), "w") as f:
        json.dump({"signature": SIGNATURE, "inputs": in_files, "nodes": nodes}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%s: %d nodes" % (case, len(nodes)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "layers"))
    ap.add_argument("cases", nargs="*", default=list(CASES))
    args = ap.parse_args()
    for case in args.cases:
        write_case(case, args.out)


if __name__ == "__main__":
    main()
