"""Writing one TF-referenced conformance case (imported by gen_ops.py and the
ops_<family>.py case modules).

A case is a directory in the tests/data/e2e layout: model/ (a SavedModel with one
signature per input set), inputs/<sig>/<key>.npy, expected/<sig>/<key>.npy
(TensorFlow's outputs) and case.json (tolerance, shapes, dtypes).

    write_case(out, "Tile_multiples", fn, {"serving_default": {"x": arr}}, EXACT,
               "Tile with multiples [2, 1, 3]")

fn takes the inputs as keyword tensors and returns a tensor (saved as output
"y") or a dict of tensors.  `fns` may give a different function per signature;
`track` is an object whose variables the functions use (a Keras model), saved
with the module.  `export(model_dir)`, if given, writes the SavedModel itself
(Keras 3 model.export(), tf_keras tf.saved_model.save) instead of fn/fns; the
feeds then name its signatures' real input keys.
Inputs are fed as the signature's arguments in sorted key order, with the
array's dtype and exact shape.  The model keeps its assets/ (vocabulary files
of lookup tables); string outputs are saved as numpy 'S' arrays.
"""
import json
import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

# Tolerances, docs/reliability.md section 9.
EXACT = {"rtol": 0.0, "atol": 0.0}
IEEE = {"rtol": 1.2e-7, "atol": 0.0}            # one correctly rounded operation (<= 1 ulp)
TRANS = {"rtol": 1e-5, "atol": 1e-6}            # transcendental unary, vs TF
SOFTMAX = {"rtol": 1e-5, "atol": 1e-6}
NORM = {"rtol": 1e-4, "atol": 1e-5}
F16 = {"rtol": 1e-3, "atol": 1e-3}
BF16 = {"rtol": 1e-2, "atol": 1e-2}


def contraction(k):
    """rtol = atol = max(1e-5, 2*K*eps) for a reduction of length K."""
    t = max(1e-5, 2 * k * float(np.finfo(np.float32).eps))
    return {"rtol": t, "atol": t}


def rng_for(name):
    """A generator seeded from the case name, so regenerating one case is stable."""
    return np.random.default_rng(sum(ord(c) * (i + 1) for i, c in enumerate(name)))


def _contiguous(v):
    """C-contiguous, keeping 0-d arrays 0-d (np.ascontiguousarray makes them 1-d)."""
    v = np.asarray(v)
    return np.ascontiguousarray(v).reshape(v.shape)


def _as_dict(res):
    return res if isinstance(res, dict) else {"y": res}


def _make_fn(fn, names, arrays):
    specs = [tf.TensorSpec(arrays[k].shape, tf.as_dtype(arrays[k].dtype), name=k) for k in names]

    def call(*args):
        return _as_dict(fn(**dict(zip(names, args))))
    return tf.function(call, input_signature=specs)


def save_module(mdir, fn, feeds, fns=None, track=None):
    """A tf.Module with one tf.function per signature of feeds, saved to mdir."""
    fns = fns or {}
    m = tf.Module()
    if track is not None:
        m.tracked = track
    sigs = {}
    for sig, arrays in feeds.items():
        sigs[sig] = _make_fn(fns.get(sig, fn), sorted(arrays), arrays)
        setattr(m, "f_" + sig, sigs[sig])
    tf.saved_model.save(m, mdir, signatures=sigs)


def write_case(out, name, fn, feeds, tol, description, fns=None, track=None, export=None):
    """Saves the model, runs TF on every signature's feeds, writes the case."""
    for sig in feeds:
        feeds[sig] = {k: _contiguous(v) for k, v in feeds[sig].items()}
    case = os.path.join(out, name)
    shutil.rmtree(case, ignore_errors=True)
    mdir = os.path.join(case, "model")
    if export is not None:
        export(mdir)
    else:
        save_module(mdir, fn, feeds, fns, track)
    loaded = tf.saved_model.load(mdir)
    info = {"description": description, "tolerance": tol, "tf_version": tf.__version__,
            "signatures": {}}
    for sig, inp in feeds.items():
        res = loaded.signatures[sig](**{k: tf.constant(v) for k, v in inp.items()})
        # string outputs as numpy 'S' arrays (an object array would need pickle)
        outs = {k: np.array(v.numpy()).astype("S") if v.dtype == tf.string else v.numpy() for k, v in res.items()}
        for sub, d in (("inputs", inp), ("expected", outs)):
            os.makedirs(os.path.join(case, sub, sig))
            for k, v in d.items():
                np.save(os.path.join(case, sub, sig, k + ".npy"), _contiguous(v))
        info["signatures"][sig] = {
            "shapes": {k: list(v.shape) for k, v in inp.items()},
            "inputs": {k: str(v.dtype) for k, v in inp.items()},
            "outputs": {k: {"dtype": str(v.dtype), "shape": list(v.shape)} for k, v in outs.items()},
        }
    with open(os.path.join(case, "case.json"), "w") as f:
        f.write(json.dumps(info, indent=1) + "\n")
