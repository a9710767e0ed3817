"""sm2c.verify: the compiled model beside TensorFlow on the same inputs."""
import os
import tempfile
import warnings

import numpy as np

from . import _layers
from ._compile import compile as sm2c_compile
from ._load import load


def _tensorflow_outputs(model_dir, signature, inputs):
    """TensorFlow's outputs for the signature, or None when TensorFlow is not
    importable."""
    try:
        import tensorflow as tf
    except ImportError:
        return None
    loaded = tf.saved_model.load(os.fspath(model_dir))
    fn = loaded.signatures[signature]
    result = fn(**{k: tf.constant(v) for k, v in inputs.items()})
    return {k: v.numpy() for k, v in result.items()}


def verify(model_dir, inputs, signature="serving_default", per_layer=False, reference=None,
           rtol=_layers.FLOAT_RTOL, atol=_layers.FLOAT_ATOL, **options):
    """Compiles model_dir to a shared object (options as for sm2c.compile; the
    input shapes are fixed from `inputs` unless shape= or max_batch= is
    given), runs `signature` on inputs (a dict key -> numpy array) and, when
    TensorFlow is importable, runs TensorFlow on the same inputs.

    Returns {'outputs': sm2c's outputs, 'tensorflow': TensorFlow's outputs or
    None, 'max_abs_error': per output key the largest |sm2c - TF| (None
    without TensorFlow)}.

    per_layer=True also runs `sm2c run --dump-intermediates` (the C backend)
    and compares every step's output with TensorFlow's tensor for the same
    node (the graph run with those nodes fetched; or `reference`, a directory
    whose index.json maps node -> .npy file, which needs no TensorFlow), by
    |sm2c - TF| <= atol + rtol*|TF| (docs/reliability.md section 9; integers
    exact).  The result then also has 'layers' (per step: step, node,
    max_abs_error, ok; None where there is nothing to compare) and
    'first_bad_node', the first node in step order that is not within the
    tolerance, or None."""
    inputs = {k: np.asarray(v) for k, v in inputs.items()}
    options = dict(options)
    options["emit"] = "so"
    options.setdefault("name", "verified")
    options.setdefault("signature", signature)
    if "shape" not in options and "max_batch" not in options:
        options["shape"] = {k: v.shape for k, v in inputs.items()}
    with tempfile.TemporaryDirectory(prefix="sm2c-verify-") as tmp:
        model = load(sm2c_compile(model_dir, os.path.join(tmp, "out"), **options), name=options["name"])
        ours = model[signature](**inputs)
    theirs = _tensorflow_outputs(model_dir, signature, inputs)
    errors = None
    if theirs is not None:
        errors = {}
        for key, value in ours.items():
            ref = np.asarray(theirs[key])
            if ref.shape != value.shape:
                errors[key] = float("inf")
                continue
            diff = np.abs(value.astype(np.float64) - ref.astype(np.float64))
            errors[key] = float(np.nanmax(diff)) if diff.size else 0.0
    result = {"outputs": ours, "tensorflow": theirs, "max_abs_error": errors}
    if per_layer:
        result.update(_per_layer(model_dir, inputs, signature, reference, rtol, atol, options))
    return result


def _per_layer(model_dir, inputs, signature, reference, rtol, atol, options):
    with tempfile.TemporaryDirectory(prefix="sm2c-verify-layers-") as tmp:
        steps = _layers.dump_intermediates(model_dir, inputs, signature, os.path.join(tmp, "dump"), options)
    if reference is not None:
        ref = _layers.read_reference(reference)
    else:
        try:
            ref = _layers.tensorflow_intermediates(model_dir, signature, inputs,
                                                   [s["node"] for s in steps if s["node"]])
        except ImportError:
            warnings.warn("sm2c.verify(per_layer=True): TensorFlow is not importable and no reference= was "
                          "given, so no layer is compared", stacklevel=3)
            ref = {}
    layers, first = _layers.compare(steps, ref, rtol, atol)
    return {"layers": layers, "first_bad_node": first}
