#!/usr/bin/env python3
"""check_report.py SCHEMA REPORT.json...: each report validates against
docs/report.schema.json and is consistent with itself: every buffer id a
step or port names exists; arena buffers fit their entry's arena, and two
whose lifetimes overlap do not share bytes (entries without loops: a loop
body's buffers live across iterations, which first/last step cannot show);
the steps' MACs add up to the entry's.  Prints one line per problem."""
import json
import sys

import jsonschema


def problems(report):
    for e in report["entries"]:
        where = "%s: %s" % (report["name"], e["key"])
        n = len(e["buffers"])
        if e["arena_bytes"] > report["arena_bytes"]:
            yield "%s: entry arena %d > program arena %d" % (where, e["arena_bytes"], report["arena_bytes"])
        if sum(s["macs"] for s in e["steps"]) != e["macs"]:
            yield "%s: the steps' MACs do not add up" % where
        for p in e["inputs"] + e["outputs"]:
            if not 0 <= p["buffer"] < n:
                yield "%s: port %s names buffer %d of %d" % (where, p["key"], p["buffer"], n)
        for s in e["steps"]:
            if any(not 0 <= b < n for b in s["buffers"]):
                yield "%s: step %d names a buffer out of range" % (where, s["index"])
        arena = [b for b in e["buffers"] if b["kind"] == "arena" and b["first_step"] >= 0]
        for b in arena:
            if b["offset"] + b["bytes"] > e["arena_bytes"]:
                yield "%s: buffer %d ends at %d, past the arena (%d)" % (where, b["id"], b["offset"] + b["bytes"],
                                                                      e["arena_bytes"])
        if any(s["control"] for s in e["steps"]):
            continue
        arena.sort(key=lambda b: b["first_step"])
        for i, a in enumerate(arena):
            for b in arena[i + 1:]:
                if b["first_step"] > a["last_step"]:
                    break
                if a["bytes"] and b["bytes"] and a["offset"] < b["offset"] + b["bytes"] and \
                        b["offset"] < a["offset"] + a["bytes"]:
                    yield "%s: buffers %d and %d are live together and overlap" % (where, a["id"], b["id"])


def main():
    schema = json.load(open(sys.argv[1]))
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        report = json.load(open(path))
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
        for err in errors[:3]:
            print("%s: schema: %s at %s" % (path, err.message[:200], "/".join(map(str, err.path))))
        found = list(problems(report)) if not errors else []
        for p in found[:3]:
            print("%s: %s" % (path, p))
        bad += bool(errors or found)
    print("%d reports, %d bad" % (len(sys.argv) - 2, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
