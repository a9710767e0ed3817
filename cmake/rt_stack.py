#!/usr/bin/env python3
"""Per-kernel worst-case stack and code size of the runtime, measured when sm2c is built.

usage: rt_stack.py OUT.c RUNTIME_DIR HOST_CC [ARM_CC]

Compiles every runtime/*.c with gcc's -fcallgraph-info=su, once with HOST_CC
-O2 (x86-64) and once with ARM_CC -Os for a Cortex-M4F, and writes OUT.c: for
every sm2c_rt_* function, its deepest call chain, frames summed, per target.
A library function counts EXTERN bytes (LEAF for memcpy, memset and
memmove, which call nothing and keep at most a few registers).  Without ARM_CC, or
when a compiler cannot give call graphs, the target's column is -1 and the
code generator falls back to the runtime-wide budget.  For the Cortex-M4F
it also records each kernel's code: the Thumb bytes of the kernel and every
runtime function it reaches (-ffunction-sections, library code excluded),
for the compile report's flash estimate.  Standard library only.
"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

EXTERN = {"x86_64": 128, "cortex_m4": 64}
LEAF = {"x86_64": 16, "cortex_m4": 16}
LEAVES = ("memcpy", "memset", "memmove")
NODE = re.compile(r'node: \{ title: "([^"]*)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"')
FRAME = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')
FLAGS = {"x86_64": ["-O2"],
         "cortex_m4": ["-Os", "-ffunction-sections", "-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]}


def compile_all(cc, flags, sources, include, out):
    def one(src):
        obj = os.path.join(out, os.path.basename(src)[:-2] + ".o")
        r = subprocess.run([cc, "-std=c99", "-ffp-contract=off", "-fcallgraph-info=su",
                            "-I" + include] + flags + ["-c", src, "-o", obj],
                           cwd=out, capture_output=True)
        return r.returncode == 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return all(pool.map(one, sources))


def text_sizes(objdir, size_tool):
    """Bytes of .text.FN per function, keyed as gcc's call graph titles them."""
    return text_sizes_of(glob.glob(os.path.join(objdir, "*.o")), size_tool)


def text_sizes_of(objects, size_tool):
    sizes = {}
    for obj in objects:
        r = subprocess.run([size_tool, "-A", obj], capture_output=True, text=True)
        ci = open(obj[:-2] + ".ci").read()
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0].startswith(".text.") and parts[1].isdigit():
                fn = parts[0][len(".text."):]
                static = re.search(r'title: "([^"]*:%s)"' % re.escape(fn), ci)
                sizes[static.group(1) if static else fn] = int(parts[1])
    return sizes


def code(edges, sizes):
    """Bytes of each sm2c_rt_* function and of everything it reaches."""
    out = {}
    for fn in sizes:
        if not fn.startswith("sm2c_rt_"):
            continue
        seen, todo = {fn}, [fn]
        while todo:
            for c in edges.get(todo.pop(), ()):
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        out[fn] = sum(sizes.get(f, 0) for f in seen)
    return out


def graph(ci_files):
    edges = {}
    for p in ci_files:
        for a, b in EDGE.findall(open(p).read()):
            edges.setdefault(a, set()).add(b)
    return edges


def chains(ci_files, extern, leaf, known=None):
    """Deepest chain from every function; None on recursion or a dynamic frame.
    A callee defined in none of ci_files takes its chain from known, if there."""
    frames, edges = {}, {}
    for p in ci_files:
        text = open(p).read()
        for title, label in NODE.findall(text):
            m = FRAME.search(label)
            if m:
                if "dynamic" in m.group(2) and "bounded" not in m.group(2):
                    return None
                frames[title] = int(m.group(1))
        for a, b in EDGE.findall(text):
            edges.setdefault(a, set()).add(b)
    memo = {}

    def deepest(fn, path):
        if fn in memo:
            return memo[fn]
        if fn in path:
            raise RecursionError(fn)
        path.add(fn)
        callee = max((deepest(c, path) for c in edges.get(fn, ())), default=0)
        path.discard(fn)
        if fn not in frames and known and fn in known:
            memo[fn] = known[fn]
            return memo[fn]
        memo[fn] = frames.get(fn, leaf if fn in LEAVES else extern) + callee
        return memo[fn]
    try:
        return {f: deepest(f, set()) for f in frames if f.startswith("sm2c_rt_")}
    except RecursionError:
        return None


def kernels_of(ci_file):
    """The sm2c_rt_* functions a compiled file defines (titles with a frame)."""
    return sorted(t for t, label in NODE.findall(open(ci_file).read())
                  if t.startswith("sm2c_rt_") and FRAME.search(label))


def alone(cc, flags, rt, include, tmp, stack, extern, leaf, size_tool):
    """Each kernel of a family compiled alone, as sm2c ships it (rt_select.h):
    helpers a whole-file compile leaves out of line for two kernels are inlined
    into one, so its frame and code differ.  Kernels it calls come from stack."""
    work = os.path.join(tmp, "alone")
    os.makedirs(work)
    wrappers = []
    for ci in glob.glob(os.path.join(tmp, "*.ci")):
        ks = kernels_of(ci)
        base = os.path.basename(ci)[:-3]
        if len(ks) < 2:
            continue
        for k in ks:
            w = os.path.join(work, k + ".c")
            with open(w, "w") as f:
                f.write('#define SM2C_RT_ONLY 1\n#define SM2C_RT_ONLY_%s 1\n#include "%s"\n'
                        % (k[len("sm2c_rt_"):], os.path.join(rt, base + ".c")))
            wrappers.append(w)
    if not compile_all(cc, flags + ["-I" + rt], wrappers, include, work):
        return {}, {}
    st, co = {}, {}
    for w in wrappers:
        k = os.path.basename(w)[:-2]
        ci = [os.path.join(work, k + ".ci")]
        one = chains(ci, extern, leaf, stack)
        if one and k in one:
            st[k] = one[k]
        if size_tool:
            sizes = text_sizes_of([os.path.join(work, k + ".o")], size_tool)
            co[k] = code(graph(ci), sizes).get(k, -1)
    return st, co


def measure(target, cc, sources, include):
    """(stack per kernel, code per kernel); empty when unknown."""
    if not cc:
        return {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        if not compile_all(cc, FLAGS[target], sources, include, tmp):
            return {}, {}
        cis = glob.glob(os.path.join(tmp, "*.ci"))
        stack = chains(cis, EXTERN[target], LEAF[target]) or {}
        size_tool = cc[:-3] + "size" if cc.endswith("gcc") else ""
        if target != "cortex_m4" or not os.path.exists(size_tool):
            return stack, {}
        codes = code(graph(cis), text_sizes(tmp, size_tool))
        # The firmware bound must be close (within 2x), so measure what ships.
        st, co = alone(cc, FLAGS[target], os.path.dirname(include), include, tmp, stack,
                       EXTERN[target], LEAF[target], size_tool)
        stack.update(st)
        codes.update({k: v for k, v in co.items() if v >= 0})
        return stack, codes


def main():
    out, rt, host_cc = sys.argv[1:4]
    arm_cc = sys.argv[4] if len(sys.argv) > 4 else ""
    sources = sorted(glob.glob(os.path.join(rt, "*.c")))
    include = os.path.join(rt, "include")
    host, _ = measure("x86_64", host_cc, sources, include)
    arm, arm_code = measure("cortex_m4", arm_cc, sources, include)
    names = sorted(set(host) | set(arm))
    lines = ["/* Generated by cmake/rt_stack.py: worst-case stack of each runtime kernel,",
             " * its callees included, x86-64 at -O2 and Cortex-M4F at -Os, and its",
             " * Cortex-M4F code with what it reaches (-1: unknown). */",
             '#include "codegen/rt_stack.h"', "",
             "const sm2c_rt_stack_use sm2c_rt_stack_uses[] = {"]
    for n in names:
        lines.append('    { "%s", %d, %d, %d },' % (n, host.get(n, -1), arm.get(n, -1),
                                                 arm_code.get(n, -1)))
    lines += ["};", "const int32_t sm2c_rt_stack_n_uses = %d;" % len(names), ""]
    text = "\n".join(lines)
    if not os.path.exists(out) or open(out).read() != text:
        with open(out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
