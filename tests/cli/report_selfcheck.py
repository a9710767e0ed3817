#!/usr/bin/env python3
"""report_selfcheck.py DOM.html REPORT.json HEADER.h|- [--expect-cut] [--expect-fused] [--expect-times]:
check what headless Chromium showed of an sm2c HTML report opened as
FILE.html#selfcheck (its script writes its findings into <pre id="selfcheck">;
DOM.html is `chromium --dump-dom`).  The summary's figures must be the
header's (NAME_ARENA_SIZE, and NAME_STACK_SIZE for x86-64: the header's #else)
and the JSON report's (weights, state, MACs per entry, inputs and outputs) and
be on screen; no element's content may overflow it; every shown buffer label
must lie inside its rectangle, every buffer have a legend row; the table of
contents' links must have targets; zoom must widen the plan; with
--expect-times, a time bar per measured step (HEADER "-": no header to compare,
a page made without one, tests/unit/test_report.c's).  Prints one line
per problem and exits 1 when there is any."""
import html
import json
import re
import sys


def findings(dom_path):
    dom = open(dom_path, encoding="utf-8").read()
    m = re.search(r'<pre id="selfcheck"[^>]*>(.*?)</pre>', dom, re.S)
    if not m or not m.group(1).strip():
        return None
    return html.unescape(m.group(1)).splitlines()


def header_figures(path):
    text = open(path).read()
    arena = re.search(r"#define \w+_ARENA_SIZE (\d+)", text)
    stacks = re.findall(r"#define \w+_STACK_SIZE (\d+)", text)  # Arm's, then the #else: x86-64's
    return int(arena.group(1)), int(stacks[-1]), int(stacks[0])


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = set(a for a in sys.argv[1:] if a.startswith("--"))
    lines = findings(args[0])
    if lines is None:
        print("the page wrote no self-check (did its script run?)")
        return 1
    report = json.load(open(args[1]))
    if args[2] == "-":
        arena, stack = report["arena_bytes"], report["stack_bytes"]
    else:
        arena, stack_x86, stack_arm = header_figures(args[2])
        stack = stack_arm if report["stack_target"] == "Cortex-M4F" else stack_x86
    entries = report["entries"]
    want = {
        "entries": len(entries), "arena": arena, "stack": stack,
        "weights": report["weight_bytes"], "state": report["state_bytes"],
    }
    for e in entries:
        want["macs[%s]" % e["key"]] = e["macs"]
    problems = []
    if report["arena_bytes"] != arena or report["stack_bytes"] != stack:
        problems.append("the JSON report (arena %d, stack %d) disagrees with the header (arena %d, stack %d)"
                        % (report["arena_bytes"], report["stack_bytes"], arena, stack))
    shown = {}
    for line in lines:
        m = re.match(r"summary (\S+?)=(.+) visible=(\d)$", line)
        if m:
            shown[m.group(1)] = (m.group(2), m.group(3) == "1")
    for key, value in want.items():
        if key not in shown:
            problems.append("the summary does not show %s" % key)
        elif shown[key][0] != str(value):
            problems.append("the summary shows %s=%s, want %s" % (key, shown[key][0], value))
        elif not shown[key][1]:
            problems.append("the summary's %s is not on screen" % key)
    rest = "\n".join(lines)

    def field(pattern):
        m = re.search(pattern, rest)
        return tuple(int(g) for g in m.groups()) if m else None

    ports = field(r"ports in=(\d+) out=(\d+)")
    want_ports = (sum(len(e["inputs"]) for e in entries), sum(len(e["outputs"]) for e in entries))
    if ports != want_ports:
        problems.append("the summary lists %s inputs/outputs, want %s" % (ports, want_ports))
    over = re.search(r"^overflow (\d+)(.*)$", rest, re.M)
    if not over or over.group(1) != "0":
        problems.append("elements overflow: %s" % (over.group(0) if over else "no overflow line"))
    labels = field(r"labels (\d+) outside (\d+) buffers (\d+) legend (\d+)")
    arena_bufs = sum(1 for e in entries for b in e["buffers"] if b["kind"] == "arena" and b["first_step"] >= 0)
    if not labels or labels[1] or labels[2] != arena_bufs or labels[3] != arena_bufs:
        problems.append("plan labels shown/outside/buffers/legend %s, want n/0/%d/%d" % (labels, arena_bufs,
                                                                                          arena_bufs))
    elif arena_bufs and not labels[0]:
        problems.append("no buffer of the plan is labelled")
    toc = field(r"toc (\d+) missing (\d+)")
    if toc != (3 * len(entries), 0):
        problems.append("table of contents: %s links/missing, want %d/0" % (toc, 3 * len(entries)))
    counts = field(r"fused (\d+) cut (\d+) timebars (\d+) steps (\d+)")
    fused = sum(len(s["fused"]) for e in entries for s in e["steps"])
    if not counts or counts[0] != fused or counts[3] != sum(len(e["steps"]) for e in entries):
        problems.append("step tables: fused/cut/timebars/steps %s, want %d fused" % (counts, fused))
    elif "--expect-fused" in flags and not fused:
        problems.append("no step shows a fused op")
    elif "--expect-cut" in flags and not counts[1]:
        problems.append("no long name is cut")
    timed = sum(1 for e in entries for s in e["steps"] if "time_us" in s)
    if counts and counts[2] != timed:
        problems.append("%d time bars for %d measured steps" % (counts[2], timed))
    elif "--expect-times" in flags and not timed:
        problems.append("no step is measured")
    if "--expect-times" in flags:
        for e in entries:
            if "time_us" in e and "time[%s]" % e["key"] not in shown:
                problems.append("the summary does not show %s's measured time" % e["key"])
    if any(e["buffers"] for e in entries) and field(r"zoom (\d) scrolls (\d)") not in (None, (1, 1)):
        problems.append("zoom: %s, want the plan wider and scrolling" % (field(r"zoom (\d) scrolls (\d)"),))
    for p in problems:
        print(p)
    if not problems:
        print("ok: %s" % "; ".join(lines[-5:]))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
