#!/usr/bin/env python3
"""dtype_audit.py: the (op, dtype) pairs TensorFlow's CPU kernels register that sm2c refuses.

Usage: dtype_audit.py [--before OPS_TXT] [-o OUT.md] SM2C [OPS_DEF]

For every op `SM2C ops` lists, reads the pinned TensorFlow's kernel registry
(tensorflow.python.framework.kernels: the KernelDefs of device CPU and their
constraints on the op's type attr) and compares the dtypes registered there
with those `sm2c ops` lists.  The type attr is the one sm2c's lowering checks
(compiler/ops/lower_node.c, sm2c_node_dtype): "T", else "dtype", else the
first input's type attr (the random ops whose "T" is their shape's type: their
"dtype" or "Tout").  A kernel without a constraint on that attr takes every
type the OpDef allows.

Writes tests/conformance/DTYPE_AUDIT.md: the refused pairs whose dtype sm2c can
represent, by op family (compiler/ops/ops.def's sections), each with the reason
it stays refused, and the count of pairs whose dtype sm2c has no representation
for (complex128, quantized and float8 types...).  With --before (the output of
`sm2c ops` at an earlier commit) it also counts the pairs refused then and
lists those closed since.  Needs TensorFlow (the venv of tests/models); the
tests never run it.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
from check_e2e import op_families  # noqa: E402

# sm2c_dtype_name's names, in `sm2c ops` order, with TensorFlow's DataType enum.
SM2C_DTYPES = [("float32", 1), ("float64", 2), ("float16", 19), ("bfloat16", 14), ("int8", 6),
               ("int16", 5), ("int32", 3), ("int64", 9), ("uint8", 4), ("uint16", 17),
               ("uint32", 22), ("uint64", 23), ("bool", 10), ("string", 7), ("complex64", 8)]
BY_ENUM = {e: n for n, e in SM2C_DTYPES}
ORDER = [n for n, _ in SM2C_DTYPES]

# The ops whose "T" is their shape input's type (lower_node.c, t_is_shape).
T_IS_SHAPE = {"RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
              "StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
              "StatelessRandomUniformInt"}
# Ops whose dtype column names another attr (ops.def: "dtypes: the key's").
KEY_ATTR = {"HashTableV2": "key_dtype", "LookupTableSizeV2": None, "LookupTableFindV2": "Tin"}


def sm2c_ops(text):
    """op -> set of dtype names, from `sm2c ops` output."""
    ops = {}
    for line in text.splitlines():
        parts = line.split()
        if parts:
            ops[parts[0]] = set(parts[1:])
    return ops


def type_attr(op_def):
    """The name of the attr sm2c's lowering reads the dtype from, or None."""
    name = op_def.name
    attrs = {a.name: a for a in op_def.attr if a.type == "type"}
    if name in KEY_ATTR:
        return KEY_ATTR[name]
    if name in T_IS_SHAPE:
        return "Tout" if "Tout" in attrs else "dtype"
    for a in ("T", "dtype"):
        if a in attrs:
            return a
    if op_def.input_arg and op_def.input_arg[0].type_attr in attrs:
        return op_def.input_arg[0].type_attr
    return None


def fixed_type(op_def):
    """The first input's (else first output's) fixed type, or None."""
    for args in (op_def.input_arg, op_def.output_arg):
        if args:
            return args[0].type or None
    return None


def tf_cpu_types(name, kernels, op_def_registry):
    """The DataType enums TensorFlow's CPU kernels of op `name` register, or None
    when there is no OpDef; the attr audited."""
    op_def = op_def_registry.get(name)
    if op_def is None:
        return None, None
    attr = type_attr(op_def)
    allowed_by_def = None
    for a in op_def.attr:
        if a.name == attr and a.HasField("allowed_values"):
            allowed_by_def = set(a.allowed_values.list.type)
    everything = set(range(1, 34))
    types = set()
    for kd in kernels.get_registered_kernels_for_op(name).kernel:
        if kd.device_type != "CPU":
            continue
        if attr is None:
            fixed = fixed_type(op_def)
            if fixed:
                types.add(fixed)
            continue
        cons = [c for c in kd.constraint if c.name == attr]
        if cons:
            types |= set(cons[0].allowed_values.list.type)
        else:
            types |= allowed_by_def if allowed_by_def is not None else everything
    return types, attr


# Pairs TensorFlow registers but cannot serve as a reference.
NO_REFERENCE = {
    ("Tile", "uint16"): "no reference: TensorFlow registers it, but its kernel refuses uint16 at run "
                        "time (TileOp: the input data type is not supported)",
    ("OnesLike", "uint32"): "no reference: TensorFlow 2.21 returns zeros inside a saved signature",
    ("OnesLike", "uint64"): "no reference: TensorFlow 2.21 returns zeros inside a saved signature",
    ("Round", "int32"): "no reference: TensorFlow 2.21's kernel returns zeros (the identity expected)",
    ("Round", "int64"): "no reference: TensorFlow 2.21's kernel returns zeros (the identity expected)",
    ("DenseBincount", "float16"): "no reference: TensorFlow registers the kernel, but its op def allows "
                                  "weights of int32, int64, float and double only",
    ("DenseBincount", "bfloat16"): "no reference: TensorFlow registers the kernel, but its op def allows "
                                   "weights of int32, int64, float and double only",
    ("XlaDynamicUpdateSlice", "string"): "no reference: TensorFlow runs it through XLA, which has no strings",
}
# String pairs that stay refused, and why.
STRING_REASONS = {
    "ReadVariableOp": "strings: a written string variable would hold pointers into a call's inputs or arena; "
                      "state needs bytes of its own (a read-only one is a constant)",
    "AssignVariableOp": "strings: a written string variable would hold pointers into a call's inputs or arena; "
                        "state needs bytes of its own (a read-only one is a constant)",
    "ResourceScatterUpdate": "strings: a written string variable would hold pointers into a call's inputs or "
                             "arena; state needs bytes of its own (a read-only one is a constant)",
}
# Kernels TensorFlow registers for types its OpDef refuses: no graph can use them.
for _dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
    NO_REFERENCE[("LeakyRelu", _dt)] = "no reference: a kernel is registered, but LeakyRelu's OpDef " \
                                       "allows only float types"
    if _dt in ("int8", "int16", "int32", "int64"):
        NO_REFERENCE[("Acos", _dt)] = "no reference: a kernel is registered, but Acos's OpDef allows " \
                                      "only float and complex types"
    if _dt not in ("int32", "int64"):
        NO_REFERENCE[("DenseBincount", _dt)] = "no reference: a kernel is registered, but DenseBincount's " \
                                               "OpDef allows weights of int32, int64, float and double only"
AUDITED = ("elementwise", "comparison, logic and integer", "reductions", "shape and data movement", "cast")


def reason(family, op, dtype):
    """Why a pair stays refused (the audit's categories)."""
    if (op, dtype) in NO_REFERENCE:
        return NO_REFERENCE[(op, dtype)]
    if dtype == "string":
        return STRING_REASONS.get(op, "not yet: no string kernel")
    if dtype == "complex64":
        return "complex64: only the signal ops and complex Add/Sub/Mul/Exp"
    if op.startswith("Sparse") or family not in AUDITED:
        return "out of scope: not an elementwise, reduction, movement or comparison op"
    if dtype in ("float16", "bfloat16"):
        return "not yet: no half-type path (only elementwise ops are widened to float32)"
    if dtype == "float64":
        return "not yet: no float64 kernel"
    if dtype == "bool":
        return "not yet: no bool kernel"
    return "not yet: no kernel for these integer widths"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sm2c")
    ap.add_argument("ops_def", nargs="?", default=os.path.join(ROOT, "compiler", "ops", "ops.def"))
    ap.add_argument("--before", help="`sm2c ops` output at an earlier commit")
    ap.add_argument("--before-label", default="before")
    ap.add_argument("-o", "--out", default=os.path.join(HERE, "DTYPE_AUDIT.md"))
    args = ap.parse_args()

    now = sm2c_ops(subprocess.run([args.sm2c, "ops"], check=True, capture_output=True,
                                  text=True).stdout)
    before = sm2c_ops(open(args.before).read()) if args.before else None
    families = op_families(args.ops_def)

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    from tensorflow.python.framework import kernels, op_def_registry

    refused, before_refused, unrepresentable, no_def, attrs = [], set(), {}, [], {}
    for op in sorted(now):
        types, attr = tf_cpu_types(op, kernels, op_def_registry)
        if types is None:
            no_def.append(op)
            continue
        attrs[op] = attr
        for t in sorted(types):
            name = BY_ENUM.get(t)
            if name is None:
                unrepresentable[op] = unrepresentable.get(op, 0) + 1
                continue
            if name not in now[op]:
                refused.append((families.get(op, "other"), op, name))
            if before is not None and name not in before.get(op, set()):
                before_refused.add((op, name))

    write(args, tf.__version__, now, refused, before_refused if before is not None else None,
          unrepresentable, no_def)
    print("%d refused pairs (sm2c dtypes); %d with no sm2c dtype; wrote %s" %
          (len(refused), sum(unrepresentable.values()), os.path.relpath(args.out, ROOT)))


def write(args, tf_version, now, refused, before_refused, unrepresentable, no_def):
    by_family = {}
    for fam, op, dt in refused:
        by_family.setdefault(fam, []).append((op, dt))
    with open(args.out, "w") as f:
        w = f.write
        w("# dtype audit: what TensorFlow's CPU kernels register and sm2c refuses\n\n")
        w("Generated by `tests/conformance/dtype_audit.py` (TensorFlow %s's kernel registry against "
          "`sm2c ops`); do not edit by hand.  A pair is (op, dtype of the attr sm2c's lowering "
          "checks: `T`, else `dtype`, else the first input's).  Only the %d ops `sm2c ops` lists are "
          "audited.\n\n" % (tf_version, len(now)))
        w("## Counts\n\n| | refused (op, dtype) pairs |\n|---|---:|\n")
        if before_refused is not None:
            w("| %s | %d |\n" % (args.before_label, len(before_refused)))
        w("| now | %d |\n" % len(refused))
        w("| registered with a dtype sm2c has no representation for (complex128, quantized, float8, "
          "int4, resource, variant) | %d |\n\n" % sum(unrepresentable.values()))
        why = {}
        for fam, op, dt in refused:
            r = reason(fam, op, dt)
            why[r] = why.get(r, 0) + 1
        w("| why the refused pairs stay refused | pairs |\n|---|---:|\n")
        for r in sorted(why, key=lambda r: (-why[r], r)):
            w("| %s | %d |\n" % (r, why[r]))
        w("\n| family | refused now |\n|---|---:|\n")
        for fam in sorted(by_family):
            w("| %s | %d |\n" % (fam, len(by_family[fam])))
        w("\n")
        if before_refused is not None:
            closed = sorted(before_refused - {(op, dt) for _, op, dt in refused},
                            key=lambda p: (p[0], ORDER.index(p[1])))
            w("## Closed since %s (%d)\n\n" % (args.before_label, len(closed)))
            ops = {}
            for op, dt in closed:
                ops.setdefault(op, []).append(dt)
            for op in sorted(ops):
                w("- %s: %s\n" % (op, ", ".join(ops[op])))
            w("\n")
        w("## Refused pairs by family\n\nEach op with the dtypes TensorFlow registers on CPU that "
          "sm2c refuses, and why they stay refused.\n")
        for fam in sorted(by_family):
            w("\n### %s (%d)\n\n| op | dtypes | why |\n|---|---|---|\n" % (fam, len(by_family[fam])))
            rows = {}
            for op, dt in by_family[fam]:
                rows.setdefault(op, {}).setdefault(reason(fam, op, dt), []).append(dt)
            for op in sorted(rows):
                for why, dts in sorted(rows[op].items()):
                    dts.sort(key=ORDER.index)
                    w("| %s | %s | %s |\n" % (op, " ".join(dts), why))
        if no_def:
            w("\n## Not audited\n\nOps with no OpDef in TensorFlow (sm2c's own): %s.\n" %
              ", ".join(no_def))


if __name__ == "__main__":
    main()
