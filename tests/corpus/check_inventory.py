"""Check `sm2c inspect --json` against the decoded inventory of the real models.

usage: check_inventory.py SM2C MODELS_DIR
For every model in MODELS_DIR/INVENTORY.txt: inspect must succeed, and its
tags, TensorFlow version, signatures (keys, methods, every input and output
with tensor name, dtype and shape) and checkpoint entries (keys, dtypes,
shapes, shard/offset/size and the small values) must equal the inventory.
Standard library only.
"""
import ast
import json
import os
import re
import struct
import subprocess
import sys

SIG_ITEM = re.compile(r"^(?P<key>[^=]+)=(?P<tensor>.*):(?P<dtype>DT_[A-Z0-9_]+)"
                      r"(?P<shape>\[[-0-9,]*\]|<unknown rank>)$")
ENTRY = re.compile(r"^  (?P<key>.*): (?P<dtype>DT_[A-Z0-9_]+) \[(?P<shape>[-0-9,]*)\] "
                   r"shard=(?P<shard>\d+) off=(?P<off>\d+) size=(?P<size>\d+)(?P<rest>.*)$")


def parse_shape(text):
    if text == "<unknown rank>":
        return None
    inner = text.strip("[]")
    return [int(d) for d in inner.split(",")] if inner else []


def split_items(text):
    return [item for item in text.split(", ") if item] if text.strip() else []


def parse_inventory(path):
    models, cur, sig = {}, None, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("=== "):
            cur = models.setdefault(line[4:].rstrip("/"), {"signatures": {}, "entries": {}})
            continue
        if cur is None:
            continue
        m = re.match(r"^meta_graph tags=(\[.*?\]) tf_version=(.*) tf_git=", line)
        if m:
            cur["tags"] = ast.literal_eval(m.group(1))
            cur["tf_version"] = ast.literal_eval(m.group(2))
            continue
        m = re.match(r"^  signature '(.*)' method=(.*)$", line)
        if m:
            sig = cur["signatures"].setdefault(m.group(1), {"method": m.group(2)})
            continue
        m = re.match(r"^      (in|out): ?(.*)$", line)
        if m and sig is not None:
            items = {}
            for item in split_items(m.group(2)):
                im = SIG_ITEM.match(item)
                if not im:
                    raise ValueError("cannot parse signature item %r" % item)
                items[im.group("key")] = (im.group("tensor"), im.group("dtype"),
                                          parse_shape(im.group("shape")))
            sig["inputs" if m.group(1) == "in" else "outputs"] = items
            continue
        m = ENTRY.match(line)
        if m:
            values = None
            vm = re.search(r"values=(\[.*\])$", m.group("rest"))
            if vm:
                values = ast.literal_eval(vm.group(1))
            cur["entries"][m.group("key")] = {
                "dtype": m.group("dtype"), "shape": parse_shape("[" + m.group("shape") + "]"),
                "shard": int(m.group("shard")), "offset": int(m.group("off")),
                "size": int(m.group("size")), "values": values}
    return models


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def same_value(dtype, want, got):
    if dtype == "DT_FLOAT":
        return f32(float(want)) == f32(float(got))
    if dtype in ("DT_DOUBLE", "DT_HALF", "DT_BFLOAT16"):
        return float(want) == float(got)
    return want == got


def compare(name, want, got):
    errors = []
    if got["tags"] != want["tags"]:
        errors.append("tags %r != %r" % (got["tags"], want["tags"]))
    if got["tensorflow_version"] != want["tf_version"]:
        errors.append("tf_version %r != %r" % (got["tensorflow_version"], want["tf_version"]))
    sigs = {s["key"]: s for s in got["signatures"]}
    if set(sigs) != set(want["signatures"]):
        errors.append("signatures %s != %s" % (sorted(sigs), sorted(want["signatures"])))
    for key, ws in want["signatures"].items():
        gs = sigs.get(key)
        if not gs:
            continue
        if gs["method"] != ws["method"]:
            errors.append("signature %s method %r != %r" % (key, gs["method"], ws["method"]))
        for part in ("inputs", "outputs"):
            g = {i["key"]: (i["tensor"], i["dtype"], i["shape"]) for i in gs[part]}
            if g != ws.get(part, {}):
                errors.append("signature %s %s %r != %r" % (key, part, g, ws.get(part)))
    entries = {e["key"]: e for e in (got["checkpoint"] or {}).get("entries", [])}
    if set(entries) != set(want["entries"]):
        errors.append("checkpoint keys %s != %s" % (sorted(entries), sorted(want["entries"])))
    for key, we in want["entries"].items():
        ge = entries.get(key)
        if not ge:
            continue
        for field in ("dtype", "shape", "shard", "offset", "size"):
            if ge[field] != we[field]:
                errors.append("%s %s %r != %r" % (key, field, ge[field], we[field]))
        if we["values"] is not None:
            gv = ge.get("values")
            if gv is None or len(gv) != len(we["values"]) or not all(
                    same_value(we["dtype"], w, g) for w, g in zip(we["values"], gv)):
                errors.append("%s values %r != %r" % (key, gv, we["values"]))
    return errors


def main():
    sm2c, models_dir = sys.argv[1], sys.argv[2]
    inventory = parse_inventory(os.path.join(models_dir, "INVENTORY.txt"))
    failed, values_checked, entries_checked = 0, 0, 0
    for name in sorted(inventory):
        want = inventory[name]
        cmd = [sm2c, "inspect", "--json", "--tag_set", ",".join(want["tags"]),
               os.path.join(models_dir, name)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            print("FAIL %s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
            failed += 1
            continue
        errors = compare(name, want, json.loads(p.stdout))
        entries_checked += len(want["entries"])
        values_checked += sum(e["values"] is not None for e in want["entries"].values())
        if errors:
            failed += 1
            print("FAIL %s:\n  %s" % (name, "\n  ".join(errors[:10])))
        else:
            print("ok   %s: %d signatures, %d checkpoint entries" %
                  (name, len(want["signatures"]), len(want["entries"])))
    print("%d models, %d checkpoint entries (%d with values) compared" %
          (len(inventory), entries_checked, values_checked))
    print("%d passed, %d failed" % (len(inventory) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
