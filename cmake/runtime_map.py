#!/usr/bin/env python3
"""runtime_map.py: the exact kernel map, made at build time from the runtime itself.

Every runtime .c file is compiled and read back with nm: the sm2c_rt_* kernels
it defines and those it calls.  A file that defines one kernel ships as it is.
A file that defines several (a family) ships as FILE.inc, and each kernel gets
a file sm2c_rt_<kernel>.c that includes it with only that kernel selected
(runtime/rt_select.h); each of those is compiled alone, warnings as errors,
and must define its kernel and nothing else.  The compiler's dependency
output gives the headers each needs.

The result is one C file (codegen/rt_embed.h): the bytes of every runtime file,
the text of every kernel file, and per kernel the files it needs and the
kernels it calls.

Usage: runtime_map.py --runtime DIR --cc CC --work DIR --out FILE.c
($SM2C_RUNTIME_MAP_CACHE: see build_cache.py)
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import build_cache

CFLAGS = ["-std=c99", "-O0", "-Wall", "-Wextra", "-pedantic", "-Werror"]


def fail(msg):
    sys.stderr.write(f"runtime_map.py: error: {msg}\n")
    sys.exit(1)


def compile_all(cc, sources, include, work):
    """Compile sources (objects and .d files in work): a few compiler runs of
    many files each, one per core, since the files are small."""
    jobs = max(1, min(os.cpu_count() or 1, 8))
    runs = []
    for j in range(jobs):
        part = sources[j::jobs]
        if part:
            cmd = shlex.split(cc) + CFLAGS + ["-MD", "-I", include, "-c"] + part
            runs.append(subprocess.Popen(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True))
    errors = "".join(r.communicate()[1] for r in runs if r.wait() or True)
    if any(r.returncode for r in runs):
        fail("compiling the runtime failed:\n" + errors)


def nm_all(objects):
    """{object: (defined, called)}, from one nm run for all of them (an nm
    per object took a second per hundred)."""
    out = subprocess.run(["nm", "-A"] + objects, capture_output=True, text=True, check=True).stdout
    syms = {o: ([], []) for o in objects}
    for line in out.splitlines():
        obj, _, rest = line.rpartition(":")
        p = rest.split()
        defined, called = syms[obj]
        if len(p) == 3 and p[1] in "TDBRC":
            defined.append(p[2])
        elif len(p) == 2 and p[0] == "U" and p[1].startswith("sm2c_rt_"):
            called.append(p[1])
    return {o: (sorted(d), sorted(c)) for o, (d, c) in syms.items()}


def headers_of(dfile, rt_dir):
    """The runtime headers a .d file names (base names), sorted; relative
    names are relative to the folder the compiler ran in (the .d file's)."""
    text = open(dfile).read().replace("\\\n", " ")
    deps = text.split(":", 1)[1].split()
    out = set()
    for d in deps:
        p = os.path.realpath(os.path.join(os.path.dirname(dfile), d))
        if p.endswith(".h") and p.startswith(os.path.realpath(rt_dir) + os.sep):
            out.add(os.path.basename(p))
    return sorted(out)


def wrapper_text(kernel, family):
    short = kernel[len("sm2c_rt_"):]
    return (f"/* {kernel} alone, from the runtime family {family[:-2]}.inc (rt_select.h). */\n"
            f"#define SM2C_RT_ONLY 1\n#define SM2C_RT_ONLY_{short} 1\n#include \"{family[:-2]}.inc\"\n")


def c_bytes(data):
    cells = [f"0x{b:02x}" for b in data + b"\0"]
    return ",\n".join(",".join(cells[i:i + 16]) for i in range(0, len(cells), 16))


def main():
    ap = argparse.ArgumentParser()
    for a in ("--runtime", "--cc", "--work", "--out"):
        ap.add_argument(a, required=True)
    a = ap.parse_args()
    started = time.time()
    rt = os.path.realpath(a.runtime)
    include = os.path.join(rt, "include")
    work = a.work
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "whole"))
    os.makedirs(os.path.join(work, "alone"))

    sources = sorted(f for f in os.listdir(rt) if f.endswith(".c"))
    headers = sorted(f for f in os.listdir(rt) if f.endswith(".h")) + sorted(os.listdir(include))
    inputs = [os.path.join(rt, f) for f in sources + headers if os.path.exists(os.path.join(rt, f))]
    inputs += [os.path.join(include, f) for f in os.listdir(include)]
    cache = build_cache.path("runtime_map", [__file__], inputs, [a.cc])
    if build_cache.install(cache, a.out, started):
        return
    compile_all(a.cc, [os.path.join(rt, s) for s in sources], include, os.path.join(work, "whole"))
    whole = nm_all([os.path.join(work, "whole", s[:-2] + ".o") for s in sources])

    kernels = {}     # kernel -> dict(source, shipped, wrapper, headers, calls)
    families = []
    for s in sources:
        base = s[:-2]
        defined, called = whole[os.path.join(work, "whole", base + ".o")]
        ks = [d for d in defined if d.startswith("sm2c_rt_")]
        others = [d for d in defined if not d.startswith("sm2c_rt_")]
        if others:
            fail(f"runtime/{s}: defines {', '.join(others)}: runtime symbols are sm2c_rt_* (helpers static)")
        if not ks:
            fail(f"runtime/{s}: defines no sm2c_rt_* kernel")
        hdrs = headers_of(os.path.join(work, "whole", base + ".d"), rt)
        if len(ks) == 1:
            kernels[ks[0]] = dict(source=s, shipped=s, wrapper=None, headers=hdrs,
                                  calls=[c for c in called if c != ks[0]])
        else:
            families.append(s)
            for k in ks:
                kernels[k] = dict(source=s, shipped=base + ".inc", wrapper=wrapper_text(k, s),
                                  headers=None, calls=None)

    # Each kernel of a family alone: its own file, compiled with only it selected.
    alone = os.path.join(work, "alone")
    for s in families:
        shutil.copy(os.path.join(rt, s), os.path.join(alone, s[:-2] + ".inc"))
    for h in headers:
        src = os.path.join(rt, h) if os.path.exists(os.path.join(rt, h)) else os.path.join(include, h)
        shutil.copy(src, os.path.join(alone, h))
    wrapped = sorted(k for k, v in kernels.items() if v["wrapper"])
    for k in wrapped:
        with open(os.path.join(alone, k + ".c"), "w") as f:
            f.write(kernels[k]["wrapper"])
    if wrapped:
        compile_all(a.cc, [k + ".c" for k in wrapped], alone, alone)
    unguarded = set()
    alone_syms = nm_all([os.path.join(alone, k + ".o") for k in wrapped]) if wrapped else {}
    for k in wrapped:
        defined, called = alone_syms[os.path.join(alone, k + ".o")]
        if k not in defined:
            fail(f"runtime/{kernels[k]['source']}: compiled for {k} alone it does not define it")
        if defined != [k]:
            unguarded.add(kernels[k]["source"])
        kernels[k]["calls"] = [c for c in called if c != k]
        kernels[k]["headers"] = headers_of(os.path.join(alone, k + ".d"), alone)
    if unguarded:
        fail(f"{', '.join('runtime/' + u for u in sorted(unguarded))}: a kernel compiled alone defines others "
             "too: guard every kernel with SM2C_RT_WANT or SM2C_RT_DEFINE (runtime/rt_select.h)")
    for k, v in kernels.items():
        for c in v["calls"]:
            if c not in kernels:
                fail(f"runtime/{v['source']}: {k} calls {c}, which no runtime file defines")

    write_table(a.out, rt, include, headers, sources, families, kernels)
    build_cache.store(cache, a.out)
    # Dated when the runtime was read: a runtime file edited while this ran
    # is newer, so the next build runs it again instead of keeping a stale map.
    os.utime(a.out, (started, started))


def write_table(out, rt, include, headers, sources, families, kernels):
    # Files: headers, then single-kernel sources, then families as .inc.
    files = [(h, os.path.join(rt, h) if os.path.exists(os.path.join(rt, h)) else os.path.join(include, h))
             for h in headers]
    files += [(s, os.path.join(rt, s)) for s in sources if s not in families]
    files += [(s[:-2] + ".inc", os.path.join(rt, s)) for s in families]
    index = {name: i for i, (name, _) in enumerate(files)}
    knames = sorted(kernels)
    kindex = {k: i for i, k in enumerate(knames)}
    lines = ["/* Generated by cmake/runtime_map.py from runtime/. DO NOT EDIT. */",
             '#include "codegen/rt_embed.h"', ""]
    for i, (name, path) in enumerate(files):
        lines.append(f"static const unsigned char f{i}[] = {{\n{c_bytes(open(path, 'rb').read())}\n}};")
    lines.append("")
    lines.append("const sm2c_embedded_file sm2c_embedded_runtime[] = {")
    for i, (name, path) in enumerate(files):
        lines.append(f'    {{ "{name}", f{i}, {os.path.getsize(path)}, {int(name.endswith(".inc"))} }},')
    lines.append("    { 0, 0, 0, 0 }\n};")
    lines.append(f"const size_t sm2c_embedded_runtime_count = {len(files)};")
    lines.append("")
    # Per kernel: the file defining it, its headers (-1 ends), the kernels it calls (-1 ends).
    for i, k in enumerate(knames):
        v = kernels[k]
        need = [index[v["shipped"]]] + [index[h] for h in v["headers"]]
        lines.append(f"static const int16_t needs{i}[] = {{ {', '.join(map(str, need + [-1]))} }};")
        lines.append(f"static const int16_t calls{i}[] = {{ {', '.join(str(kindex[c]) for c in v['calls'] + [])}"
                     f"{', ' if v['calls'] else ''}-1 }};")
        if v["wrapper"]:
            text = v["wrapper"].encode()
            lines.append(f"static const unsigned char w{i}[] = {{\n{c_bytes(text)}\n}};")
    lines.append("")
    lines.append("const sm2c_rt_kernel sm2c_rt_kernels[] = {")
    for i, k in enumerate(knames):
        v = kernels[k]
        w = f"w{i}, {len(v['wrapper'].encode())}" if v["wrapper"] else "0, 0"
        lines.append(f'    {{ "{k}", needs{i}, calls{i}, {w} }},')
    lines.append("    { 0, 0, 0, 0, 0 }\n};")
    lines.append(f"const size_t sm2c_rt_kernel_count = {len(knames)};")
    build_cache.write_if_changed(out, "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
