#!/usr/bin/env python3
"""Writes tests/data/ops/Function_*: polymorphic tf.functions (several concrete
functions each), compiled with `sm2c --function` (issue 5).

Each case is in the tests/data/e2e layout; its case.json lists one entry per
concrete function, keyed "<object path>_<k>" (k: its position in the
SavedFunction, as sm2c numbers them) with "function": true.  Inputs are random
for each traced TensorSpec; the expected outputs are what the LOADED SavedModel
returns when the restored tf.function is called with those inputs (and the
Python values it was traced with).  Input keys are the FunctionDef's argument
names, output keys those of the returned dict, else output_0, output_1, ...

usage: gen_functions.py [OUT_DIR [CASE...]]   (default tests/data/ops, every case)
"""
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402
from tensorflow.python.saved_model import nested_structure_coder  # noqa: E402

EXACT = {"rtol": 0.0, "atol": 0.0}
IEEE = {"rtol": 1.2e-7, "atol": 0.0}
CONTRACTION = {"rtol": 1e-5, "atol": 1e-5}   # docs/reliability.md section 9, K <= 40


class CustomModule(tf.Module):
    """The SavedModel guide's CustomModule: __call__ traced for a scalar and a vector."""

    def __init__(self):
        super().__init__()
        self.v = tf.Variable(1.)

    @tf.function
    def __call__(self, x):
        return x * self.v


class Retraced(tf.Module):
    """The tf.function guide's retracing: a dtype per trace, and a Python argument per trace."""

    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0, 3.0])
        self.c = tf.constant([10.0, 20.0, 30.0])

    @tf.function
    def double(self, a):
        return a + a

    @tf.function
    def scaled(self, x, n):
        return {"y": x * n + self.v, "z": self.c - x}


class GuideFunctions(tf.Module):
    """The tf.function guide's first example: add, and dense_layer calling it."""

    @tf.function
    def add(self, a, b):
        return a + b

    @tf.function
    def dense_layer(self, x, w, b):
        return self.add(tf.matmul(x, w), b)


def guide_functions():
    m = GuideFunctions()
    m.add(tf.ones([2, 2]), tf.ones([2, 2]))
    m.dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2]))
    return m


def custom_module():
    m = CustomModule()
    m.v.assign(2.5)
    m(tf.constant(0.))
    m(tf.constant([0., 0.]))
    return m


def retraced():
    m = Retraced()
    m.double(tf.constant([1, 2, 3]))
    m.double(tf.constant([[1.1, 2.2]]))
    m.scaled(tf.constant([1.0, 2.0, 3.0]), 2.0)
    m.scaled(tf.constant([1.0, 2.0, 3.0]), 3.0)
    return m


CASES = {
    "Function_guide_dense_layer": (guide_functions, CONTRACTION,
                                   "the tf.function guide's add (traced for [2,2] + [2,2]) and "
                                   "dense_layer(x, w, b) = add(matmul(x, w), b) (traced for [3,2], [2,2], [2]), "
                                   "which traces add again for [3,2] + [2]"),
    "Function_polymorphic_call": (custom_module, IEEE,
                                  "the SavedModel guide's CustomModule.__call__ traced for a scalar "
                                  "and a [2] vector (captures variable v)"),
    "Function_retraced": (retraced, IEEE,
                          "the tf.function guide's retracing: double() traced for int32 and float32, "
                          "scaled(x, n) for n=2.0 and n=3.0 (captures a variable and a constant, "
                          "returns a dict)"),
}


def object_paths(og):
    """SavedObject node id -> its path from the root ("a/b")."""
    paths, todo = {0: ""}, [0]
    while todo:
        i = todo.pop()
        for ch in og.nodes[i].children:
            if ch.node_id not in paths:
                paths[ch.node_id] = ch.local_name if not paths[i] else paths[i] + "/" + ch.local_name
                todo.append(ch.node_id)
    return paths


def sample(rng, spec):
    shape = [d if d is not None else 2 for d in spec.shape.as_list()]
    if spec.dtype.is_integer:
        return rng.integers(-100, 100, shape).astype(spec.dtype.as_numpy_dtype)
    return rng.uniform(-10, 10, shape).astype(spec.dtype.as_numpy_dtype)


def resolve(obj, path):
    for part in path.split("/"):
        obj = getattr(obj, part)
    return obj


def flat_outputs(res):
    if isinstance(res, dict) and all(isinstance(v, tf.Tensor) for v in res.values()):
        return {k: res[k].numpy() for k in sorted(res)}
    return {"output_%d" % i: v.numpy() for i, v in enumerate(tf.nest.flatten(res))}


def function_entries(case, rng, only=None):
    """Inputs and TensorFlow's outputs for every concrete function of the
    SavedModel in case/model (of the tf.function at object path `only`, when
    given), written under case/inputs and case/expected; returns their
    case.json entries."""
    mdir = os.path.join(case, "model")
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(mdir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    mg = sm.meta_graphs[0]
    fdefs = {f.signature.name: f for f in mg.graph_def.library.function}
    loaded = tf.saved_model.load(mdir)
    paths = object_paths(mg.object_graph_def)
    entries = {}
    for node_id, node in enumerate(mg.object_graph_def.nodes):
        if node.WhichOneof("kind") != "function" or (only and paths[node_id] != only):
            continue
        for k, cf_name in enumerate(node.function.concrete_functions):
            cf = mg.object_graph_def.concrete_functions[cf_name]
            args, kwargs = nested_structure_coder.decode_proto(cf.canonicalized_input_signature)
            specs = [s for s in tf.nest.flatten((args, kwargs)) if isinstance(s, tf.TensorSpec)]
            arg_names = [a.name for a in fdefs[cf_name].signature.input_arg][:len(specs)]
            values = [sample(rng, s) for s in specs]
            it = iter(values)
            call_args, call_kwargs = tf.nest.map_structure(
                lambda s: tf.constant(next(it)) if isinstance(s, tf.TensorSpec) else s, (args, kwargs))
            outs = flat_outputs(resolve(loaded, paths[node_id])(*call_args, **call_kwargs))
            entry = "%s_%d" % (paths[node_id], k)
            inputs = dict(zip(arg_names, values))
            for sub, d in (("inputs", inputs), ("expected", outs)):
                os.makedirs(os.path.join(case, sub, entry))
                for key, v in d.items():
                    np.save(os.path.join(case, sub, entry, key + ".npy"), np.asarray(v))
            entries[entry] = {
                "function": True,
                "shapes": {key: list(v.shape) for key, v in inputs.items()},
                "inputs": {key: str(v.dtype) for key, v in inputs.items()},
                "outputs": {key: {"dtype": str(v.dtype), "shape": list(v.shape)} for key, v in outs.items()},
            }
    return entries


def write(out, name, make, tol, desc):
    case = os.path.join(out, name)
    shutil.rmtree(case, ignore_errors=True)
    mdir = os.path.join(case, "model")
    tf.saved_model.save(make(), mdir)
    shutil.rmtree(os.path.join(mdir, "assets"), ignore_errors=True)
    rng = np.random.default_rng(sum(map(ord, name)))
    info = {"description": desc, "tolerance": tol, "tf_version": tf.__version__,
            "signatures": function_entries(case, rng)}
    with open(os.path.join(case, "case.json"), "w") as f:
        f.write(json.dumps(info, indent=1) + "\n")
    print(name, ", ".join(sorted(info["signatures"])))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                             "..", "data", "ops")
    only = set(sys.argv[2:])
    for name, (make, tol, desc) in CASES.items():
        if not only or name in only:
            write(out, name, make, tol, desc)


if __name__ == "__main__":
    main()
