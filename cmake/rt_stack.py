#!/usr/bin/env python3
"""Per-kernel worst-case stack and code size of the runtime, measured when sm2c is built.

usage: rt_stack.py OUT.c RUNTIME_DIR HOST_CC [ARM_CC]
($SM2C_RUNTIME_MAP_CACHE: see build_cache.py)

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
import time
import tempfile

import build_cache

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


# Naked functions (their assembly pushes what it uses): gcc reports a frame
# of 0 bytes, so each states its own with SM2C_RT_NAKED_STACK(fn, bytes) in
# its source (dsp_s8.h); main() reads them.
NAKED = {}
NAKED_STACK = re.compile(r"SM2C_RT_NAKED_STACK\((\w+), (\d+)\)")


def naked_frames(sources):
    found = {}
    for src in sources:
        for fn, n in NAKED_STACK.findall(open(src).read()):
            found[fn] = int(n)
    return found


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
                frames[title] = max(int(m.group(1)), NAKED.get(title.rpartition(":")[2], 0))
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


# The C backend's shape-specialised layers (codegen/c_special.c) inline these
# loop nests with constant shapes; their frames are measured on sample layers
# (windows as in sm2c_rt.h: N H W C KH KW OH OW OC SH SW DH DW PT PL FC; matvec
# k,n), each window a static const array as the generated code has it.
CONV_WINDOWS = ["1,8,8,16,1,1,8,8,16,1,1,1,1,0,0,16", "1,8,8,8,3,3,8,8,16,1,1,1,1,1,1,8",
                "1,9,9,8,3,3,4,4,8,2,2,1,1,0,0,8", "1,49,10,1,10,4,25,5,64,2,2,1,1,4,1,1",
                "1,10,10,4,3,3,6,6,4,1,1,2,2,0,0,4", "1,8,8,8,3,3,8,8,8,1,1,1,1,1,1,2",
                "2,5,5,3,5,5,5,5,3,1,1,1,1,2,2,3"]
DW_WINDOWS = ["1,25,5,64,3,3,25,5,64,1,1,1,1,1,1,1", "1,8,8,8,3,3,8,8,16,1,1,1,1,1,1,2",
              "1,9,9,8,3,3,4,4,8,2,2,1,1,0,0,1", "1,7,7,3,5,5,7,7,3,1,1,2,2,4,4,1"]
POOL_WINDOWS = ["1,8,8,16,2,2,4,4,16,2,2,1,1,0,0,1", "1,25,5,64,25,5,1,1,64,25,5,1,1,0,0,1",
                "1,7,7,8,3,3,7,7,8,1,1,1,1,1,1,1"]
MATVECS = ["16,16", "1,16", "16,1", "64,32", "32,10", "784,32", "3,5", "128,640"]
# Each probe file fuses one activation (sm2c_rt.h's SM2C_RT_ACT_*, ACT in the
# calls), and each activation gets its own bound: sigmoid inlines exp, and
# relu6 changes -Os's unrolling.  One file mixing the kinds would make -Os
# keep the loop nest out of line, which no generated layer does.  main() reads
# the kinds from sm2c_rt.h's enum, the one list of them.
ACT_KINDS = range(0)


def act_kinds(include):
    """The codes of sm2c_rt.h's SM2C_RT_ACT_* enum, which must be 0..n-1."""
    text = open(os.path.join(include, "sm2c_rt.h")).read()
    codes = sorted(int(v) for v in re.findall(r"\bSM2C_RT_ACT_[A-Z0-9_]+ = (\d+)", text))
    if not codes or codes != list(range(len(codes))):
        sys.exit("rt_stack.py: sm2c_rt.h's SM2C_RT_ACT_* codes are not 0..n-1: %s" % codes)
    return range(len(codes))


LAYERS = {  # kernel: family source; per probe its window (or None) and call arguments
    "conv2d_f32": ("conv_f32.c", [(k, "x, w, %s, y, WIN, ACT, 0.0f, 0.0f" % b) for k in CONV_WINDOWS
                                  for b in ("w", "NULL")]),
    "conv2d_add_f32": ("conv_f32.c", [(k, "x, w, %s, x, y, WIN, ACT, 0.0f, 0.0f" % b)
                                      for k in CONV_WINDOWS for b in ("w", "NULL")]),
    "depthwise_conv2d_f32": ("conv_f32.c", [(k, "x, w, %s, y, WIN, ACT, 0.0f, 0.0f" % b)
                                            for k in DW_WINDOWS for b in ("w", "NULL")]),
    "max_pool_f32": ("pool_f32.c", [(k, "x, y, WIN") for k in POOL_WINDOWS]),
    "avg_pool_f32": ("pool_f32.c", [(k, "x, y, WIN") for k in POOL_WINDOWS]),
}
for _k in ("matvec_f32", "matvec_t_f32", "matvec_small_f32", "matvec_t_small_f32"):
    LAYERS[_k] = ("matvec_f32.c", [(None, "x, w, %s, y, %s, ACT, 0.0f, 0.0f" % (b, kn))
                                   for kn in MATVECS for b in ("w", "NULL")])


def layers(cc, flags, rt, include, tmp, extern, leaf):
    """Per specialisable kernel, the deepest frame of its sample layers per activation."""
    work = os.path.join(tmp, "layers")
    os.makedirs(work)
    files, probes = [], {}
    for k, (src, calls) in LAYERS.items():
        kinds = ACT_KINDS if any("ACT" in c for _, c in calls) else [0]
        for kind in kinds:
            name = "probe_%s_%d" % (k, kind)
            lines = ['#define SM2C_RT_ONLY 1', '#include "%s"' % os.path.join(rt, src)]
            for i, (win, call) in enumerate(calls):
                fn = "sm2c_rt_%s_%d" % (name, i)
                call = call.replace("ACT", str(kind))
                if win:
                    lines.append("static const int32_t win%d[16] = {%s};" % (i, win))
                    call = call.replace("WIN", "win%d" % i)
                lines += ["void %s(const float *x, const float *w, float *y);" % fn,
                          "void %s(const float *x, const float *w, float *y)" % fn,
                          "{", "    (void)w;", "    SM2C_RT_SPECIAL_%s(%s);" % (k, call), "}"]
                probes.setdefault(k, []).append((name, fn))
            path = os.path.join(work, name + ".c")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            files.append(path)
    if not compile_all(cc, flags + ["-I" + rt], files, include, work):
        return {}
    out = {}
    for k in LAYERS:
        kinds = sorted({n for n, _ in probes[k]}, key=lambda n: int(n.rsplit("_", 1)[1]))
        frames = []
        for name in kinds:
            got = chains([os.path.join(work, name + ".ci")], extern, leaf) or {}
            mine = [got[f] for n, f in probes[k] if n == name and f in got]
            frames.append(max(mine) if len(mine) == len(LAYERS[k][1]) else -1)
        # A family without an activation (pooling) has one bound for every kind.
        out["sm2c_rt_" + k] = frames if len(frames) > 1 else frames * len(ACT_KINDS)
    return out


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
        global LAYER_STACK
        LAYER_STACK = layers(cc, FLAGS[target], os.path.dirname(include), include, tmp,
                             EXTERN[target], LEAF[target])
        # Firmware may be built without the DSP paths (SM2C_RT_PORTABLE_ONLY):
        # the header's one bound must hold for that build too.
        for k, v in portable(cc, FLAGS[target], sources, include, stack).items():
            stack[k] = max(stack.get(k, v), v)
        return stack, codes


def preprocessed(cc, flags, src, include):
    r = subprocess.run([cc, "-std=c99", "-E", "-P", "-I" + include] + flags + [src],
                       capture_output=True)
    return r.stdout if r.returncode == 0 else None


def portable(cc, flags, sources, include, known):
    """Stack per kernel of the files SM2C_RT_PORTABLE_ONLY changes (their
    preprocessed text differs), built with it; callees in other files take
    their chains from known."""
    port = flags + ["-DSM2C_RT_PORTABLE_ONLY"]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        differ = list(pool.map(lambda s: preprocessed(cc, flags, s, include) !=
                               preprocessed(cc, port, s, include), sources))
    subset = [s for s, d in zip(sources, differ) if d]
    if not subset:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        if not compile_all(cc, port, subset, include, tmp):
            return {}
        stack = chains(glob.glob(os.path.join(tmp, "*.ci")), EXTERN["cortex_m4"], LEAF["cortex_m4"],
                       known) or {}
        st, _ = alone(cc, port, os.path.dirname(include), include, tmp, dict(known, **stack),
                      EXTERN["cortex_m4"], LEAF["cortex_m4"], "")
        stack.update(st)
        return stack


LAYER_STACK = {}


def main():
    out, rt, host_cc = sys.argv[1:4]
    started = time.time()
    arm_cc = sys.argv[4] if len(sys.argv) > 4 else ""
    sources = sorted(glob.glob(os.path.join(rt, "*.c")))
    include = os.path.join(rt, "include")
    inputs = sources + glob.glob(os.path.join(rt, "*.h")) + glob.glob(os.path.join(include, "*.h"))
    cache = build_cache.path("rt_stack", [__file__], inputs, [host_cc, arm_cc])
    if build_cache.install(cache, out, started):
        return
    global ACT_KINDS
    ACT_KINDS = act_kinds(include)
    NAKED.update(naked_frames(sources))
    host, _ = measure("x86_64", host_cc, sources, include)
    arm, arm_code = measure("cortex_m4", arm_cc, sources, include)
    names = sorted(set(host) | set(arm))
    lines = ["/* Generated by cmake/rt_stack.py: worst-case stack of each runtime kernel,",
             " * its callees included, x86-64 at -O2 and Cortex-M4F at -Os, and its",
             " * Cortex-M4F code with what it reaches, and for kernels with a",
             " * shape-specialised form the Cortex-M4F stack of that form per fused",
             " * activation (-1: unknown). */",
             '#include "codegen/rt_stack.h"', "",
             "const sm2c_rt_stack_use sm2c_rt_stack_uses[] = {"]
    for n in names:
        layer = LAYER_STACK.get(n, [-1] * len(ACT_KINDS))
        lines.append('    { "%s", %d, %d, %d, (const int32_t[]){ %s } },' % (
            n, host.get(n, -1), arm.get(n, -1), arm_code.get(n, -1), ", ".join(map(str, layer))))
    lines += ["};", "const int32_t sm2c_rt_stack_n_uses = %d;" % len(names),
              "const int32_t sm2c_rt_stack_n_acts = %d;" % len(ACT_KINDS), ""]
    build_cache.write_if_changed(out, "\n".join(lines))
    build_cache.store(cache, out)
    # Dated when the runtime was read (see runtime_map.py).
    os.utime(out, (started, started))


if __name__ == "__main__":
    main()
