"""Worst-case stack of every function in gcc -fcallgraph-info=su output.

usage: check_stack.py [--from FN] [--extern N] BUDGET FILE.ci...
Builds the call graph of all the .ci files, rejects recursion (docs/reliability.md
rule 10) and frames gcc cannot bound, and checks that the deepest call chain
from any function (or from FN alone), frames summed, stays within BUDGET
bytes.  Functions without stack information (libm, memcpy) count EXTERN
bytes each (N when given).
Standard library only.
"""
import re
import sys

EXTERN = 2048
NODE = re.compile(r'node: \{ title: "([^"]*)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"')
FRAME = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')


def load(paths):
    frames, kinds, edges = {}, {}, {}
    for p in paths:
        text = open(p).read()
        for title, label in NODE.findall(text):
            m = FRAME.search(label)
            if m:
                frames[title] = int(m.group(1))
                kinds[title] = m.group(2)
        for a, b in EDGE.findall(text):
            edges.setdefault(a, set()).add(b)
    return frames, kinds, edges


def worst(frames, edges, extern=EXTERN):
    """Deepest chain per function, iteratively; raises on recursion."""
    memo, state = {}, {}
    for root in list(frames) + list(edges):
        if root in memo:
            continue
        stack = [(root, iter(sorted(edges.get(root, ()))))]
        state[root] = 1
        while stack:
            fn, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                state[fn] = 2
                callee = max((memo[c] for c in edges.get(fn, ())), default=0)
                memo[fn] = frames.get(fn, extern) + callee
                continue
            if state.get(nxt) == 1:
                chain = [f for f, _ in stack] + [nxt]
                raise SystemExit("recursion: " + " -> ".join(chain))
            if nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(sorted(edges.get(nxt, ())))))
    return memo


def main():
    args, root, extern = sys.argv[1:], None, EXTERN
    while args[0].startswith("--"):
        if args[0] == "--from":
            root = args[1]
        else:
            extern = int(args[1])
        args = args[2:]
    budget, paths = int(args[0]), args[1:]
    frames, kinds, edges = load(paths)
    unbounded = [f for f, k in kinds.items() if "dynamic" in k and "bounded" not in k]
    if unbounded:
        raise SystemExit("unbounded stack frames (VLA or alloca): " + ", ".join(sorted(unbounded)))
    memo = worst(frames, edges, extern)
    if root is not None and root not in memo:
        raise SystemExit("no function " + root)
    top = (root, memo[root]) if root is not None else max(memo.items(), key=lambda kv: kv[1])
    print("%d functions; deepest chain from %s: %d bytes (budget %d)" % (len(memo), top[0], top[1], budget))
    if top[1] > budget:
        raise SystemExit("over the stack budget")


if __name__ == "__main__":
    main()
