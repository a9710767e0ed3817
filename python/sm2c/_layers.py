"""sm2c.verify(..., per_layer=True): every step's output beside TensorFlow's
tensor for the same node, and the first node whose error is too large.

sm2c's side comes from `sm2c run --dump-intermediates DIR` (the C backend's
step hooks): DIR/index.json maps step -> node -> DIR/<node>.npy.  TensorFlow's
side is the signature's graph with its functions inlined, run with those
nodes' outputs fetched (needs TensorFlow), or a reference directory laid out
the same way (index.json {"nodes": {node: file}}), e.g. committed test data."""
import json
import os
import subprocess
import tempfile

import numpy as np

from ._compile import Sm2cError, _flags, _warn, find_sm2c

# docs/reliability.md section 9: a whole float32 model's tolerance (a layer's
# error carries its inputs' error, as a model's outputs do); integers exact.
FLOAT_RTOL = 1e-4
FLOAT_ATOL = 1e-4

# The options `sm2c run` takes beside its inputs (compile-only ones are dropped).
_RUN_OPTIONS = ("shape", "max_batch", "quantize", "calibration", "io", "requantize", "quantize_skip", "weights_bits", "opt",
                "tag_set", "limit", "section", "fast_arena")


def dump_intermediates(model_dir, inputs, signature, out_dir, options=None):
    """Runs `sm2c run --dump-intermediates out_dir` on inputs (key -> array),
    with those of `options` (sm2c.compile's keywords) that run takes.
    Returns the steps of out_dir/index.json, each with its 'array' (None for a
    step that did not run)."""
    options = options or {}
    run_options = {k: v for k, v in options.items() if k in _RUN_OPTIONS}
    with tempfile.TemporaryDirectory(prefix="sm2c-layers-") as tmp:
        argv = [find_sm2c(), "run", os.fspath(model_dir), "--signature", signature,
                "--outdir", os.path.join(tmp, "out"), "--dump-intermediates", os.fspath(out_dir)]
        for key, value in inputs.items():
            path = os.path.join(tmp, "in_%d.npy" % len(argv))
            np.save(path, np.asarray(value))
            argv += ["--input", "%s=%s" % (key, path)]
        proc = subprocess.run(argv + _flags(run_options), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    _warn(proc.stderr)
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        raise Sm2cError(lines[-1] if lines else "sm2c exited with %d" % proc.returncode, proc.returncode)
    return read_dump(out_dir)


def read_dump(dump_dir):
    """The steps of dump_dir/index.json, each with its 'array'."""
    with open(os.path.join(dump_dir, "index.json")) as f:
        steps = json.load(f)["steps"]
    for s in steps:
        s["array"] = np.load(os.path.join(dump_dir, s["file"])) if s["file"] else None
    return steps


def read_reference(ref_dir):
    """A reference directory: index.json {"nodes": {node: file}} -> {node: array}
    (tests/models/gen_layers.py writes them)."""
    with open(os.path.join(ref_dir, "index.json")) as f:
        nodes = json.load(f)["nodes"]
    return {node: np.load(os.path.join(ref_dir, file)) for node, file in nodes.items()}


def tensorflow_intermediates(model_dir, signature, inputs, nodes=None):
    """TensorFlow's output 0 of each node of the signature's graph (its
    functions inlined, variables as constants), or of the given node names
    only, on inputs (key -> array).  A node is matched by its name inside the
    innermost function (the names sm2c's steps carry).  Needs TensorFlow."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    loaded = tf.saved_model.load(os.fspath(model_dir))   # keeps the variables alive
    fn = loaded.signatures[signature]
    frozen = convert_variables_to_constants_v2(fn)
    graph_def = frozen.graph.as_graph_def()
    specs = fn.structured_input_signature[1]
    feeds = {}
    for key, value in inputs.items():
        name = specs[key].name if key in specs and specs[key].name else key
        feeds[name + ":0"] = np.asarray(value)
    names = [n.name for n in graph_def.node if n.op not in ("Placeholder", "Const", "NoOp")]
    wanted = {}
    for node in (nodes if nodes is not None else names):
        match = _match(node, names)
        if match:
            wanted[node] = match
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(graph_def, name="")
    fetches = {}
    for node, match in wanted.items():
        try:
            fetches[node] = graph.get_tensor_by_name(match + ":0")
        except (KeyError, ValueError):
            pass
    with tf.compat.v1.Session(graph=graph) as sess:
        values = sess.run(fetches, feed_dict=feeds)
    return {k: np.asarray(v) for k, v in values.items()}


def _match(node, names):
    """The graph node that is `node`: the same name, or the shortest name that
    ends with '/' + node (inlined functions prefix their call's name)."""
    if node in names:
        return node
    tails = [n for n in names if n.endswith("/" + node)]
    return min(tails, key=len) if tails else None


def _error(got, ref, rtol, atol):
    """(max |got - ref|, whether every element is within atol + rtol*|ref|) by
    docs/reliability.md section 9: NaNs where the reference has them, infinities
    equal, integers and booleans exact."""
    got = np.asarray(got)
    ref = np.asarray(ref)
    if got.shape != ref.shape:
        if got.size != ref.size:
            return float("inf"), False
        ref = ref.reshape(got.shape)
    if got.dtype.kind not in "fc" and ref.dtype.kind not in "fc":
        diff = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        worst = float(diff.max()) if diff.size else 0.0
        return worst, worst == 0.0
    g = got.astype(np.float64)
    r = ref.astype(np.float64)
    nan_ok = np.array_equal(np.isnan(g), np.isnan(r))
    both = ~np.isnan(g) & ~np.isnan(r)
    inf = np.isinf(r) | np.isinf(g)
    inf_ok = np.array_equal(g[inf & both], r[inf & both])
    finite = both & ~inf
    diff = np.abs(g[finite] - r[finite])
    worst = float(diff.max()) if diff.size else 0.0
    ok = nan_ok and inf_ok and bool(np.all(diff <= atol + rtol * np.abs(r[finite])))
    return worst, ok


def compare(steps, reference, rtol=FLOAT_RTOL, atol=FLOAT_ATOL):
    """Each dumped step beside the reference's tensor of its node (by name, or
    the name with the inlined calls' prefixes), in step order: a list of
    {'step', 'node', 'max_abs_error', 'ok'} (max_abs_error None and ok None
    when the reference lacks the node or the step did not run), and the first
    node not ok, or None."""
    layers, first = [], None
    names = list(reference)
    for s in steps:
        if s["node"] is None:
            continue    # a helper step of its node (index.json)
        match = _match(s["node"], names)
        ref = reference[match] if match else None
        row = {"step": s["step"], "node": s["node"], "max_abs_error": None, "ok": None}
        quantized = s["array"] is not None and s["array"].dtype in (np.int8, np.int16) and ref is not None and \
            np.asarray(ref).dtype.kind == "f"   # an int8 (int16x8) step: its scale is not in the dump
        if ref is not None and s["array"] is not None and not quantized:
            row["max_abs_error"], row["ok"] = _error(s["array"], ref, rtol, atol)
            if not row["ok"] and first is None:
                first = s["node"]
        layers.append(row)
    return layers, first
