#!/usr/bin/env python3
"""check_layers.py: the stages of the compiler form layers (ARCHITECTURE.md).

Each file of a stage folder may include headers and call functions of its own
stage and of earlier stages only, so no call or include cycle runs between
stage folders.  Two kinds of edge are checked:

- includes: every `#include "..."` of every .c and .h file, resolved as the
  compiler does (the including file's folder, then compiler/, then the root);
- calls: every symbol an object references (`nm`, U) and the object that
  defines it (T, D, B, R), over the library and CLI objects of a build.

Usage: check_layers.py --root SRC --build BUILD_DIR   (exit 1 on a violation)
"""
import argparse
import os
import re
import subprocess
import sys

# Layer order: a stage may use the stages before it.  codegen/ and runtime/
# live beside compiler/; the runtime is below everything (plain C kernels).
STAGES = ["runtime", "base", "load", "ir", "lower", "ops", "import", "optimize", "plan", "driver",
          "codegen", "cli"]
# Files allowed directly in compiler/: the library's public headers.
ROOT_FILES_ALLOWED = re.compile(r"^[a-z0-9_]+\.h$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def stage_of(root, path):
    """The stage of a source path, or None when it belongs to none."""
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    parts = rel.split("/")
    if parts[0] == "compiler" and len(parts) >= 3:
        return parts[1]
    if parts[0] in ("codegen", "runtime"):
        return parts[0]
    return None


def source_files(root):
    for top in ("compiler", "codegen"):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith((".c", ".h", ".def")):
                    yield os.path.join(d, n)


def resolve_include(root, including, name):
    for base in (os.path.dirname(including), os.path.join(root, "compiler"), root,
                 os.path.join(root, "runtime", "include")):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return p
    return None  # generated (protobuf-c) or a system header


def check_layout(root, errors):
    for n in sorted(os.listdir(os.path.join(root, "compiler"))):
        p = os.path.join(root, "compiler", n)
        if os.path.isdir(p):
            if n not in STAGES:
                errors.append(f"compiler/{n}/: not a stage folder (known: {', '.join(STAGES[1:-2])}, cli)")
        elif not ROOT_FILES_ALLOWED.match(n):
            errors.append(f"compiler/{n}: only the library's public headers sit in compiler/; "
                          "put sources in their stage folder")


def rank(stage):
    return STAGES.index(stage)


def check_includes(root, errors):
    for f in source_files(root):
        st = stage_of(root, f)
        if st is None or st not in STAGES:
            continue
        text = open(f, encoding="utf-8", errors="replace").read()
        for name in INCLUDE.findall(text):
            target = resolve_include(root, f, name)
            if not target:
                continue
            tst = stage_of(root, target)
            if tst in STAGES and rank(tst) > rank(st):
                errors.append(f"{os.path.relpath(f, root)}: includes \"{name}\": "
                              f"{st} may not use {tst} (a later stage)")


def object_files(root, build):
    """(object path, source path relative to the source root) of the library and CLI."""
    for target in ("sm2c_lib.dir", "sm2c.dir"):
        top = os.path.join(build, "CMakeFiles", target)
        for d, _, names in os.walk(top):
            for n in sorted(names):
                if n.endswith(".c.o"):
                    obj = os.path.join(d, n)
                    src = os.path.relpath(obj, top)[:-2]
                    if os.path.isfile(os.path.join(root, src)):  # not a stale object of a moved file
                        yield obj, src


def nm_symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCV":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def check_calls(root, build, errors):
    objs = list(object_files(root, build))
    if not objs:
        errors.append(f"{build}: no compiler objects found (build sm2c first)")
        return 0
    where, uses = {}, {}
    for obj, src in objs:
        defined, used = nm_symbols(obj)
        for s in defined:
            where[s] = src
        uses[src] = used
    for src in sorted(uses):
        st = stage_of(root, os.path.join(root, src))
        if st not in STAGES:
            continue
        for sym in sorted(uses[src]):
            dsrc = where.get(sym)
            if not dsrc:
                continue
            dst = stage_of(root, os.path.join(root, dsrc))
            if dst in STAGES and rank(dst) > rank(st):
                errors.append(f"{src}: calls {sym} ({dsrc}): {st} may not use {dst} (a later stage)")
    return len(objs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--build", required=True)
    a = ap.parse_args()
    root = os.path.realpath(a.root)
    errors = []
    check_layout(root, errors)
    check_includes(root, errors)
    n = check_calls(root, os.path.realpath(a.build), errors)
    for e in errors:
        print(e)
    print(f"check_layers: {len(STAGES)} layers, {n} objects, {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
