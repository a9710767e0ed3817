#!/usr/bin/env python3
"""TF1 control flow (control flow v1) as tf.compat.v1 writes it, for
compiler/import/functionalize.c (issue 5):

  tests/data/ops/Control_tf1_*          conformance cases in the tests/data/e2e layout:
      Control_tf1_cond          conds nested in a branch, and one whose branch is a constant;
                                a signature per path
      Control_tf1_while         a loop over an input trip count with a cond and a constant-trip
                                loop in its body; a signature per trip count
      Control_tf1_cond_outputs  a tf.cond (Switch/Merge) with three outputs
      Control_tf1_while_maxiter a tf.while_loop (Enter/Merge/Switch/LoopCond/NextIteration/Exit)
                                with invariants and maximum_iterations
      Control_tf1_nested        a loop in a loop's body, a cond in that body, a cond in a cond
      Control_tf1_loop_in_cond  a loop inside a cond branch
      State_tf1_partitioned     variables split into part_N slices (fixed_size_partitioner)
  tests/data/catalog/tf1_control.pbtxt  one cond and one loop, as a text SavedModel, which
                                        tests/unit/test_functionalize.c edits into bad inputs

Each model is a TF1 graph saved by SavedModelBuilder with control flow v2 off;
expected outputs come from a Session on the loaded model.

Run with the project venv: .venv/bin/python tests/models/gen_tf1.py [OPS_DIR]
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import IEEE, TRANS, np, rng_for, tf  # noqa: E402

I32 = np.int32
F32 = np.float32
HERE = os.path.dirname(os.path.abspath(__file__))


def _save_v1(mdir, build, sig_keys, as_text=False):
    v1 = tf.compat.v1
    v1.disable_control_flow_v2()
    try:
        with tf.Graph().as_default() as g, v1.Session(graph=g) as sess:
            ins, outs = build(v1)
            sess.run(v1.global_variables_initializer())
            sig = v1.saved_model.predict_signature_def(ins, outs)
            b = v1.saved_model.Builder(mdir)
            b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={s: sig for s in sig_keys})
            b.save(as_text=as_text)
    finally:
        v1.enable_control_flow_v2()


def _tf1_case(out, name, build, feeds, tol, desc):
    """build(v1) makes placeholders and returns ({key: placeholder}, {key: output}) in the
    default graph; saved with SavedModelBuilder as signature serving_default for every
    feed set, expected outputs from a Session on the loaded model."""
    v1 = tf.compat.v1
    case = os.path.join(out, name)
    shutil.rmtree(case, ignore_errors=True)
    mdir = os.path.join(case, "model")
    _save_v1(mdir, build, feeds)
    info = {"description": desc, "tolerance": tol, "tf_version": tf.__version__, "signatures": {}}
    with tf.Graph().as_default() as g, v1.Session(graph=g) as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], mdir)
        for sig, inp in feeds.items():
            sd = meta.signature_def[sig]
            res = sess.run({k: t.name for k, t in sd.outputs.items()},
                           {sd.inputs[k].name: v for k, v in inp.items()})
            for sub, d in (("inputs", inp), ("expected", res)):
                os.makedirs(os.path.join(case, sub, sig))
                for k, v in d.items():
                    np.save(os.path.join(case, sub, sig, k + ".npy"), np.asarray(v))
            info["signatures"][sig] = {
                "shapes": {k: list(np.shape(v)) for k, v in inp.items()},
                "inputs": {k: str(np.asarray(v).dtype) for k, v in inp.items()},
                "outputs": {k: {"dtype": str(np.asarray(v).dtype), "shape": list(np.shape(v))}
                            for k, v in res.items()},
            }
    with open(os.path.join(case, "case.json"), "w") as f:
        f.write(json.dumps(info, indent=1) + "\n")
    print(name, ", ".join(sorted(feeds)))


def tf1_nested_conds(v1):
    x = v1.placeholder(tf.float32, [3], name="x")
    k = v1.placeholder(tf.float32, [], name="k")
    inner = lambda: v1.cond(k > 2.0, lambda: tf.tanh(x) * 2.0 + k, lambda: x * k, name="inner")  # noqa: E731
    y = v1.cond(k > 0.0, inner, lambda: x - 1.0, name="outer")
    z = v1.cond(k < -5.0, lambda: tf.reduce_sum(x), lambda: tf.constant(7.0), name="scalar")
    return {"x": x, "k": k}, {"y": y, "z": z}


def tf1_loop_with_body(v1):
    x = v1.placeholder(tf.float32, [3], name="x")
    n = v1.placeholder(tf.int32, [], name="n")

    def body(i, y):
        y = v1.cond(tf.reduce_sum(y) > 0.0, lambda: tf.tanh(y) * 1.5 + x, lambda: y * 0.5 - x)
        _, y = v1.while_loop(lambda j, v: j < 2, lambda j, v: (j + 1, v + 0.25), (tf.constant(0), y))
        return i + 1, y
    i, y = v1.while_loop(lambda i, y: i < n, body, (tf.constant(0), x))
    return {"x": x, "n": n}, {"i": i, "y": y}


def tf1_cond(v1):
    x = v1.placeholder(tf.float32, [4], name="x")
    k = v1.placeholder(tf.int32, [], name="k")
    c = tf.constant([1.0, 2.0, 3.0, 4.0])
    y, z, w = v1.cond(k > 2, lambda: (x * c, tf.reduce_sum(x), x),
                      lambda: (x - c, tf.constant(-1.0), tf.abs(x) + 1.0))
    return {"x": x, "k": k}, {"y": y, "z": z, "w": w}


def tf1_while(v1):
    x = v1.placeholder(tf.float32, [3], name="x")
    n = v1.placeholder(tf.int32, [], name="n")
    scale = tf.constant(0.75)
    i, acc, best = v1.while_loop(lambda i, a, b: i < n,
                                 lambda i, a, b: (i + 1, a * scale + x, tf.maximum(b, tf.reduce_sum(a))),
                                 (tf.constant(0), tf.zeros([3]), tf.constant(-1e9)), maximum_iterations=6)
    return {"x": x, "n": n}, {"i": i, "acc": acc, "best": best}


def tf1_nested(v1):
    a = v1.placeholder(tf.float32, [2, 2], name="a")
    n = v1.placeholder(tf.int32, [], name="n")

    def outer_body(i, s):
        _, p = v1.while_loop(lambda j, p: j < i, lambda j, p: (j + 1, tf.matmul(p, a)), (tf.constant(0), a))
        p = v1.cond(tf.reduce_sum(p) > 0, lambda: p, lambda: -p)
        return i + 1, s + p
    _, s = v1.while_loop(lambda i, s: i < n, outer_body, (tf.constant(0), tf.zeros([2, 2])))
    t = v1.cond(n > 2, lambda: v1.cond(n > 4, lambda: s * 2.0, lambda: s + 1.0), lambda: s)
    return {"a": a, "n": n}, {"s": s, "t": t}


def tf1_loop_in_cond(v1):
    x = v1.placeholder(tf.float32, [3], name="x")
    m = v1.placeholder(tf.int32, [], name="m")

    def halve():
        _, y = v1.while_loop(lambda i, y: i < m, lambda i, y: (i + 1, y * 0.5), (tf.constant(0), x))
        return y
    y = v1.cond(tf.reduce_max(x) > 1.0, halve, lambda: x * 3.0)
    return {"x": x, "m": m}, {"y": y}


def tf1_cases(out):
    x = np.array([0.5, -1.0, 2.0], F32)
    _tf1_case(out, "Control_tf1_cond", tf1_nested_conds,
              {"outer_false": {"x": x, "k": np.array(-6.0, F32)}, "inner_true": {"x": x, "k": np.array(3.0, F32)},
               "inner_false": {"x": x, "k": np.array(1.5, F32)}},
              IEEE, "TF1 Switch/Merge conditionals (control flow v1), one nested in a branch, and one whose "
                    "branch is only a constant; a signature per path")
    x = np.array([0.5, -1.0, 0.25], F32)
    _tf1_case(out, "Control_tf1_while", tf1_loop_with_body,
              {"zero_trips": {"x": x, "n": np.array(0, I32)}, "three_trips": {"x": x, "n": np.array(3, I32)},
               "seven_trips": {"x": -x, "n": np.array(7, I32)}},
              TRANS, "TF1 while_loop (control flow v1) over an input trip count, with a loop invariant, a cond "
                    "and a constant-trip loop in its body; a signature per trip count")
    rng = rng_for("tf1")
    x4 = rng.uniform(-2, 2, 4).astype(F32)
    _tf1_case(out, "Control_tf1_cond_outputs", tf1_cond,
              {"then_taken": {"x": x4, "k": np.array(5, I32)}, "else_taken": {"x": x4, "k": np.array(1, I32)}},
              IEEE, "a TF1 tf.cond (Switch/Merge) with three outputs: a product with a constant, a sum, a "
                    "tensor passed straight through; the else branch returns a constant")
    x3 = rng.uniform(-1, 1, 3).astype(F32)
    _tf1_case(out, "Control_tf1_while_maxiter", tf1_while,
              {"n3": {"x": x3, "n": np.array(3, I32)}, "n0": {"x": x3, "n": np.array(0, I32)},
               "n9": {"x": x3, "n": np.array(9, I32)}},
              IEEE, "a TF1 tf.while_loop (Enter/Merge/Switch/LoopCond/NextIteration/Exit) with three loop "
                    "variables, invariants x and a constant, and maximum_iterations=6 (n9 stops at the cap)")
    a = rng.uniform(-0.9, 0.9, (2, 2)).astype(F32)
    _tf1_case(out, "Control_tf1_nested", tf1_nested,
              {"n%d" % k: {"a": a, "n": np.array(k, I32)} for k in (0, 2, 3, 5)},
              {"rtol": 1e-5, "atol": 1e-6},
              "TF1 nested control flow: a while loop inside a while loop's body, a cond inside that body, and "
              "a cond inside a cond")
    _tf1_case(out, "Control_tf1_loop_in_cond", tf1_loop_in_cond,
              {"loop": {"x": np.array([3.0, -1.0, 0.5], F32), "m": np.array(3, I32)},
               "no_loop": {"x": np.array([0.5, -1.0, 0.25], F32), "m": np.array(3, I32)}},
              IEEE, "a TF1 while loop inside one branch of a TF1 cond")


def tf1_partitioned(v1):
    """Variables split into part_N slices, as Estimators write them: one along
    rows (7 rows in 3 parts: 3, 2, 2), one along columns (6 columns in 2 parts)."""
    init = v1.initializers.random_uniform(-1.0, 1.0, seed=17)
    w = v1.get_variable("w", [7, 4], initializer=init, partitioner=v1.fixed_size_partitioner(3, axis=0))
    e = v1.get_variable("e", [3, 6], initializer=init, partitioner=v1.fixed_size_partitioner(2, axis=1))
    x = v1.placeholder(tf.float32, [2, 7], name="x")
    u = v1.placeholder(tf.float32, [2, 3], name="u")
    return {"x": x, "u": u}, {"y": tf.matmul(x, tf.convert_to_tensor(w)),
                              "z": tf.matmul(u, tf.convert_to_tensor(e))}


def tf1_state_cases(out):
    rng = rng_for("tf1_partitioned")
    _tf1_case(out, "State_tf1_partitioned", tf1_partitioned,
              {"serving_default": {"x": rng.uniform(-1, 1, (2, 7)).astype(F32),
                                   "u": rng.uniform(-1, 1, (2, 3)).astype(F32)}},
              {"rtol": 1e-6, "atol": 1e-6},
              "TF1 partitioned variables (part_N slices along rows and along columns, as Estimators "
              "write them), reassembled from the checkpoint")


def catalog_fixture():
    """tf1_cond and tf1_while in one small graph, as text."""
    def build(v1):
        x = v1.placeholder(tf.float32, [3], name="x")
        n = v1.placeholder(tf.int32, [], name="n")
        y = v1.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0)
        _, acc = v1.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * 0.5 + x), (tf.constant(0), x))
        return {"x": x, "n": n}, {"y": y, "acc": acc}
    with tempfile.TemporaryDirectory() as tmp:
        mdir = os.path.join(tmp, "m")
        _save_v1(mdir, build, ["serving_default"], as_text=True)
        shutil.copy(os.path.join(mdir, "saved_model.pbtxt"),
                    os.path.join(HERE, "..", "data", "catalog", "tf1_control.pbtxt"))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "data", "ops")
    tf1_cases(out)
    tf1_state_cases(out)
    catalog_fixture()


if __name__ == "__main__":
    main()
