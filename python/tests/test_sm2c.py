"""The Python package against models TensorFlow wrote (tests/data, samples):
digits through sm2c.load, a stateful signature over 3 calls, a --max-batch
signature at 1 and 5 rows, the error cases, verify without TensorFlow, and
the contexts of issue 29: Python threads calling one model at once, a CNN at
threads=1, 2 and 3 bit for bit, pools stopped with their thread or model.
The compiler comes from $SM2C (ctest sets it) or $PATH."""
import gc
import os
import sys
import threading
import time

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import sm2c  # noqa: E402

DIGITS = os.path.join(ROOT, "samples", "digits")
STATE = os.path.join(ROOT, "tests", "data", "ops", "State_three_signatures")
BATCH = os.path.join(ROOT, "tests", "data", "batch", "keras_mlp")
DETECT = os.path.join(ROOT, "tests", "data", "ops", "NMS_detection")
CNN = os.path.join(ROOT, "tests", "data", "e2e", "cnn")
STRICT = os.path.join(ROOT, "tests", "data", "strict", "model")
TEXT = os.path.join(ROOT, "tests", "data", "ops")


def close(a, b, rtol, atol):
    return np.allclose(a, b, rtol=rtol, atol=atol)


@pytest.fixture(scope="module")
def digits(tmp_path_factory):
    out = tmp_path_factory.mktemp("digits")
    return sm2c.load(sm2c.compile(os.path.join(DIGITS, "model"), out, name="digits",
                                  shape={"pixels": (1, 64)}, emit="so"))


@pytest.fixture(scope="module")
def state_so(tmp_path_factory):
    out = tmp_path_factory.mktemp("state")
    return sm2c.compile(os.path.join(STATE, "model"), out, name="st", emit="so",
                        shape={"x": (4, 3), "y": (4, 2)})


@pytest.fixture(scope="module")
def cnn_so(tmp_path_factory):
    """Conv2D-BatchNorm-ReLU-MaxPool-Conv2D-Dense on 1 to 8 images of
    16x16x3; tasks of 2000 multiply-adds, so that the convolutions split."""
    out = tmp_path_factory.mktemp("cnn")
    return sm2c.compile(os.path.join(CNN, "model"), out, name="cnn", emit="so", signature="serving_default",
                        max_batch=8, task_work=2000)


@pytest.fixture(scope="module")
def batched(tmp_path_factory):
    out = tmp_path_factory.mktemp("batch")
    return sm2c.load(sm2c.compile(os.path.join(BATCH, "model"), out, name="mlp", max_batch=5, emit="so"))


def test_digits_ten_of_ten(digits):
    images = np.load(os.path.join(DIGITS, "images.npy"))
    labels = np.load(os.path.join(DIGITS, "labels.npy"))
    expected = np.load(os.path.join(DIGITS, "expected_probs.npy"))
    correct = 0
    for i in range(len(images)):
        probs = digits.serving_default(pixels=images[i:i + 1])["output_0"]
        assert probs.shape == (1, 10) and probs.dtype == np.float32
        assert close(probs[0], expected[i], 1e-5, 1e-6)
        correct += int(np.argmax(probs) == labels[i])
    assert correct == 10
    assert "serving_default" in digits.entries and not digits.stateful


def test_stateful_three_calls_and_independent_instances(state_so):
    x = np.load(os.path.join(STATE, "inputs", "train", "x.npy"))
    y = np.load(os.path.join(STATE, "inputs", "train", "y.npy"))
    m1, m2 = sm2c.load(state_so), sm2c.load(state_so)
    assert m1.stateful
    for call in (1, 2, 3):
        loss = m1.train(x=x, y=y)["loss"]
        want = np.load(os.path.join(STATE, "expected", "train", "call_%d" % call, "loss.npy"))
        assert close(loss, want, 1e-5, 1e-6), (call, loss, want)
    # m2 is its own model: its first call is TensorFlow's first call.
    first = np.load(os.path.join(STATE, "expected", "train", "call_1", "loss.npy"))
    assert close(m2.train(x=x, y=y)["loss"], first, 1e-5, 1e-6)
    assert m1.variables()["calls/.ATTRIBUTES/VARIABLE_VALUE"] == 3
    assert m2.variables()["calls/.ATTRIBUTES/VARIABLE_VALUE"] == 1
    # count reads and bumps the same shared counter.
    assert m1.count()["calls"] == 4
    m1.reset()
    assert m1.variables()["calls/.ATTRIBUTES/VARIABLE_VALUE"] == 0
    assert close(m1.train(x=x, y=y)["loss"], first, 1e-5, 1e-6)


@pytest.mark.parametrize("rows", [1, 5])
def test_max_batch_rows(batched, rows):
    entry = batched.serving_default
    assert entry.max_batch == 5
    x = np.load(os.path.join(BATCH, "inputs", "serving_default", "b%d" % rows, "x.npy"))
    want = np.load(os.path.join(BATCH, "expected", "serving_default", "b%d" % rows, "dense_2.npy"))
    got = entry(x=x)["dense_2"]
    assert got.shape == (rows, 4)
    assert close(got, want, 1e-4, 1e-4)


@pytest.mark.parametrize("sig", ["serving_default", "max3", "none"])
def test_data_dependent_outputs_cut_to_their_count(tmp_path, sig):
    m = sm2c.load(sm2c.compile(os.path.join(DETECT, "model"), tmp_path, name="det", emit="so"))
    e = m[sig]
    assert [p.key for p in e.outputs] == ["boxes", "classes", "scaled", "scores", "valid"]
    assert e.outputs[0].dynamic_dim == 0 and e.outputs[4].dynamic_dim == -1
    feeds = {k: np.load(os.path.join(DETECT, "inputs", sig, k + ".npy")) for k in
             ("boxes", "classes", "iou", "max_out", "scores")}
    got = e(**feeds)
    for k in got:
        want = np.load(os.path.join(DETECT, "expected", sig, k + ".npy"))
        assert got[k].shape == want.shape and np.array_equal(got[k], want)


@pytest.mark.parametrize("case", ["text_classifier_int", "text_StringSplitV2_sep"])
def test_string_inputs_and_outputs(tmp_path, case):
    """numpy bytes arrays in (TextVectorization's text) and out (split tokens,
    cut to their count), as TensorFlow gave them."""
    d = os.path.join(TEXT, case)
    ins = os.path.join(d, "inputs", "serving_default")
    feeds = {f[:-4]: np.load(os.path.join(ins, f)) for f in os.listdir(ins)}
    m = sm2c.load(sm2c.compile(os.path.join(d, "model"), tmp_path, name="text", emit="so",
                               shape={k: a.shape for k, a in feeds.items()}))
    e = m["serving_default"]
    got = e(**feeds)
    for k in got:
        want = np.load(os.path.join(d, "expected", "serving_default", k + ".npy"))
        assert got[k].shape == want.shape
        assert close(got[k], want, 1e-5, 1e-6) if want.dtype.kind == "f" else np.array_equal(got[k], want)
    with pytest.raises(TypeError):
        e.bind(**feeds)


def test_bound_call_runs_in_place(digits):
    images = np.load(os.path.join(DIGITS, "images.npy"))
    x = np.ascontiguousarray(images[:1])
    run = digits.serving_default.bind(pixels=x)
    out = run()
    for i in range(len(images)):
        x[...] = images[i:i + 1]          # new values in place, then the same call
        got = run()
        assert got is out                  # the same dict and arrays every call
        want = digits.serving_default(pixels=images[i:i + 1])["output_0"]
        assert np.array_equal(got["output_0"], want)


def test_bound_call_is_checked_once(digits):
    e = digits.serving_default
    with pytest.raises(TypeError, match="must be a C-contiguous numpy array"):
        e.bind(pixels=np.zeros((1, 128), np.float32)[:, ::2])
    with pytest.raises(TypeError, match="dtype float64, expected float32"):
        e.bind(pixels=np.zeros((1, 64)))
    with pytest.raises(TypeError, match="missing input"):
        e.bind()


def test_bound_call_cuts_data_dependent_outputs(tmp_path):
    m = sm2c.load(sm2c.compile(os.path.join(DETECT, "model"), tmp_path, name="det", emit="so"))
    feeds = {k: np.load(os.path.join(DETECT, "inputs", "max3", k + ".npy")) for k in
             ("boxes", "classes", "iou", "max_out", "scores")}
    run = m.max3.bind(**feeds)
    for _ in range(2):
        got = run()
        for k in got:
            want = np.load(os.path.join(DETECT, "expected", "max3", k + ".npy"))
            assert got[k].shape == want.shape and np.array_equal(got[k], want)


def test_bound_batched_and_stateful(batched, state_so):
    x = np.load(os.path.join(BATCH, "inputs", "serving_default", "b3", "x.npy"))
    run = batched.serving_default.bind(x=x)
    assert np.array_equal(run()["dense_2"], batched.serving_default(x=x)["dense_2"])
    a, b = sm2c.load(state_so), sm2c.load(state_so)
    feeds = {k: np.load(os.path.join(STATE, "inputs", "train", k + ".npy")) for k in ("x", "y")}
    run = a.train.bind(**feeds)
    for _ in range(3):
        got, want = run(), b.train(**feeds)
        assert all(np.array_equal(got[k], want[k]) for k in want)


def test_wrong_dtype(digits):
    with pytest.raises(TypeError, match="input 'pixels': dtype float64, expected float32"):
        digits.serving_default(pixels=np.zeros((1, 64)))


def test_wrong_shape(digits):
    with pytest.raises(ValueError, match=r"input 'pixels': shape \(64,\), expected \(1, 64\)"):
        digits.serving_default(pixels=np.zeros(64, np.float32))


def test_missing_and_unknown_inputs(digits):
    with pytest.raises(TypeError, match="missing input.*'pixels'.*unknown input.*'pixel'"):
        digits.serving_default(pixel=np.zeros((1, 64), np.float32))


def test_unknown_entry(digits):
    with pytest.raises(AttributeError, match="no signature or function 'predict'"):
        digits.predict
    with pytest.raises(KeyError):
        digits["predict"]


@pytest.mark.parametrize("rows", [0, 6])
def test_batch_out_of_range(batched, rows):
    with pytest.raises(ValueError, match="batch of %d rows; this entry takes 1 to 5" % rows):
        batched.serving_default(x=np.zeros((rows, 8), np.float32))


def test_batch_wrong_row_shape(batched):
    with pytest.raises(ValueError, match="input 'x'"):
        batched.serving_default(x=np.zeros((2, 7), np.float32))


def test_stateless_model_has_no_init(digits):
    with pytest.raises(sm2c.Sm2cError, match="no state"):
        digits.init()


def test_compile_error_is_sm2c_message(tmp_path):
    with pytest.raises(sm2c.Sm2cError) as e:
        sm2c.compile(tmp_path / "nothing", tmp_path / "out")
    assert e.value.status == 1 and "error:" in str(e.value)


def test_load_rejects_a_foreign_library(tmp_path, digits):
    with pytest.raises(sm2c.Sm2cError, match="no other_signatures table"):
        sm2c.load(digits.path, name="other")


def test_compile_flags():
    flags = sm2c._compile._flags({"name": "m", "shape": {"a": (1, 2)}, "signature": ["s", "t"],
                                  "max_batch": 4, "limit": {"rank": 8}, "tag_set": "serve",
                                  "skip_failing": True})
    assert flags == ["--name", "m", "--shape", "a=1,2", "--signature", "s", "--signature", "t",
                     "--max-batch", "4", "--limit", "rank=8", "--tag_set", "serve", "--skip-failing"]


def test_compile_section_flags():
    flags = sm2c._compile._flags({"section": {"weights": ".qspi", "arena": ".sram1"}, "fast_arena": 4096})
    assert flags == ["--section", "weights=.qspi", "--section", "arena=.sram1", "--fast-arena", "4096"]


def test_shape_key_must_name_an_input(tmp_path):
    with pytest.raises(sm2c.Sm2cError) as e:
        sm2c.compile(STRICT, tmp_path / "out", signature="open_batch", shape={"nosuch": (4, 1)})
    assert e.value.status == 2
    assert "no selected signature has an input 'nosuch' (the keys: x)" in str(e.value)


def test_shape_must_agree_with_the_declared_one(tmp_path):
    with pytest.raises(sm2c.Sm2cError) as e:
        sm2c.compile(STRICT, tmp_path / "out", signature="open_batch", shape={"x": (4, 5)})
    assert e.value.status == 2 and "but the signature declares [-1,10]" in str(e.value)


def test_per_signature_shape(tmp_path):
    path = sm2c.compile(STRICT, tmp_path / "out", name="m", signature=["open_batch", "fixed"],
                        shape={"open_batch.x": (4, 10)})
    header = open(os.path.join(os.path.dirname(path), "m.h")).read()
    assert "M_OPEN_BATCH_X_SHAPE {4, 10}" in header and "M_FIXED_X_SHAPE {1, 5}" in header


STRICT_SHAPES = {"two_unknown.u": (1, 2, 3), "two_unknown.v": (2, 2)}


def test_failing_signature_is_an_error(tmp_path):
    with pytest.raises(sm2c.Sm2cError) as e:
        sm2c.compile(STRICT, tmp_path / "out", shape=STRICT_SHAPES)
    assert e.value.status == 3 and not os.path.exists(tmp_path / "out")
    assert "1 of the 4 signatures could not be compiled (unsupported;" in str(e.value)
    assert "--skip-failing leaves them out" in str(e.value)


def test_skip_failing_warns(tmp_path):
    with pytest.warns(sm2c.Sm2cWarning, match="signature 'unsupported': warning: not compiled"):
        path = sm2c.compile(STRICT, tmp_path / "out", name="m", shape=STRICT_SHAPES, skip_failing=True)
    assert os.path.exists(path)


def test_default_name_is_sm2c_s(tmp_path):
    model = tmp_path / "9 my-model"
    os.symlink(os.path.join(DIGITS, "model"), model)
    path = sm2c.compile(model, tmp_path / "out", shape={"pixels": (1, 64)})
    assert os.path.basename(path) == "x9_my_model.so" and os.path.exists(path)


def test_versioned_export_takes_the_parent_name(tmp_path):
    """TF Serving's export/1: the default name is the parent's, as sm2c's."""
    os.makedirs(tmp_path / "My-Export")
    os.symlink(os.path.join(DIGITS, "model"), tmp_path / "My-Export" / "1")
    path = sm2c.compile(tmp_path / "My-Export" / "1", tmp_path / "out", shape={"pixels": (1, 64)})
    assert os.path.basename(path) == "my_export.so" and os.path.exists(path)
    assert sm2c.load(path).entries


def test_compile_defaults_to_what_load_opens(tmp_path):
    """sm2c.load(sm2c.compile(model, out)) without emit=: the default is 'so'."""
    m = sm2c.load(sm2c.compile(os.path.join(DIGITS, "model"), tmp_path / "out", shape={"pixels": (1, 64)}))
    x = np.load(os.path.join(DIGITS, "images.npy"))[:1]
    expected = np.load(os.path.join(DIGITS, "expected_probs.npy"))[:1]
    assert close(m.serving_default(pixels=x)["output_0"], expected, 1e-5, 1e-6)


def test_load_of_c_output_says_what_to_do(tmp_path):
    c = sm2c.compile(os.path.join(DIGITS, "model"), tmp_path / "out", name="d", shape={"pixels": (1, 64)},
                     emit="c")
    assert c.endswith("d.c") and os.path.exists(c)
    with pytest.raises(sm2c.Sm2cError, match=r"d\.c is C source, not a shared object: compile with emit='so'"):
        sm2c.load(c)
    with pytest.raises(sm2c.Sm2cError, match="is a directory: pass the shared object in it"):
        sm2c.load(tmp_path / "out")


def test_verify_runs_the_compiled_model():
    images = np.load(os.path.join(DIGITS, "images.npy"))
    result = sm2c.verify(os.path.join(DIGITS, "model"), {"pixels": images[:1]})
    expected = np.load(os.path.join(DIGITS, "expected_probs.npy"))[:1]
    assert close(result["outputs"]["output_0"], expected, 1e-5, 1e-6)
    try:
        import tensorflow  # noqa: F401
    except ImportError:
        assert result["tensorflow"] is None and result["max_abs_error"] is None
    else:
        assert result["max_abs_error"]["output_0"] < 1e-5


def test_verify_per_layer_against_a_reference():
    """per_layer=True: every layer of the mlp within tolerance of TensorFlow's
    committed tensors (tests/models/gen_layers.py); dump_intermediates.sh
    perturbs them."""
    ref = os.path.join(ROOT, "tests", "data", "layers", "mlp")
    x = np.load(os.path.join(ref, "input.x.npy"))
    model = os.path.join(ROOT, "tests", "data", "e2e", "mlp", "model")
    result = sm2c.verify(model, {"x": x}, per_layer=True, reference=ref)
    assert result["first_bad_node"] is None
    assert [l["node"] for l in result["layers"]] == [
        "sequential_1/dense_1/Relu", "sequential_1/dense_1_2/Relu", "sequential_1/dense_2_1/BiasAdd",
        "sequential_1/softmax_1/Softmax"]
    assert all(l["ok"] for l in result["layers"])


def test_verify_per_layer_without_tensorflow_warns():
    try:
        import tensorflow  # noqa: F401
        pytest.skip("TensorFlow is importable")
    except ImportError:
        pass
    x = np.load(os.path.join(ROOT, "tests", "data", "layers", "mlp", "input.x.npy"))
    with pytest.warns(UserWarning, match="no layer is compared"):
        result = sm2c.verify(os.path.join(ROOT, "tests", "data", "e2e", "mlp", "model"), {"x": x}, per_layer=True)
    assert result["first_bad_node"] is None and all(l["ok"] is None for l in result["layers"])


def _in_parallel(n, fn):
    """Runs fn(i) on n Python threads started together; re-raises a failure."""
    start = threading.Barrier(n)
    errors = []

    def body(i):
        try:
            start.wait()
            fn(i)
        except BaseException as e:  # noqa: B902 (reported in the main thread)
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def _images(rows, seed):
    return np.random.default_rng(seed).standard_normal((rows, 16, 16, 3)).astype(np.float32)


@pytest.mark.parametrize("threads", [None, 2])
def test_python_threads_call_one_model_at_once(cnn_so, threads):
    m = sm2c.load(cnn_so, threads=threads)
    assert m.concurrent, "the shared object has no cnn_ctx_table"
    e = m.serving_default
    feeds = [_images(8, seed) for seed in range(2)] + [_images(3, 2)]
    serial = [e(image=x)["output_0"] for x in feeds]
    assert not np.array_equal(serial[0], serial[1])

    def caller(i):
        x = feeds[i]
        run = e.bind(image=x.copy())
        for _ in range(150):
            assert np.array_equal(e(image=x)["output_0"], serial[i])
            assert np.array_equal(run()["output_0"], serial[i])

    _in_parallel(len(feeds), caller)
    m.close()


def test_threads_are_bit_identical(cnn_so):
    one = sm2c.load(cnn_so)
    models = [sm2c.load(cnn_so, threads=t) for t in (2, 3)]
    assert one.threads == 1 and not one.pooled
    for m in models:
        assert m.pooled                    # the compiler split a step: the runtime's pool is there
    for rows in (1, 5, 8):
        x = _images(rows, rows)
        want = one.serving_default(image=x)["output_0"]
        for m in models:
            assert np.array_equal(m.serving_default(image=x)["output_0"], want)
            assert np.array_equal(m.serving_default.bind(image=x)()["output_0"], want)
    for m in models + [one]:
        m.close()


def _workers():
    return len(os.listdir("/proc/self/task"))


def _settles_at(n):
    """True once the process has n threads (a joined thread may stay listed
    for a moment after pthread_join returns)."""
    for _ in range(400):
        if _workers() == n:
            return True
        time.sleep(0.005)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
def test_pools_stop_with_their_thread_bound_and_model(cnn_so):
    gc.collect()
    base = _workers()
    m = sm2c.load(cnn_so, threads=3)
    assert m.pooled
    x = _images(8, 0)
    _in_parallel(3, lambda i: m.serving_default(image=x))
    gc.collect()
    assert _settles_at(base)                 # each thread's pool stopped when the thread ended
    m.serving_default(image=x)
    assert _settles_at(base + 2)             # this thread's context: a pool of 3 is 2 workers
    run = m.serving_default.bind(image=x)
    assert _settles_at(base + 4)
    del run
    gc.collect()
    assert _settles_at(base + 2)
    m.close()
    assert _settles_at(base)
    with pytest.raises(sm2c.Sm2cError, match="closed"):
        m.serving_default(image=x)
    with sm2c.load(cnn_so, threads=2) as m2:
        run = m2.serving_default.bind(image=x)
        run()
        assert _settles_at(base + 1)
    assert _settles_at(base)
    with pytest.raises(sm2c.Sm2cError, match="closed"):
        run()


def test_stateful_model_has_one_state_for_all_threads(state_so):
    feeds = {k: np.load(os.path.join(STATE, "inputs", "train", k + ".npy")) for k in ("x", "y")}
    m = sm2c.load(state_so, threads=2)
    assert m.stateful and not m.concurrent
    run = m.train.bind(**feeds)

    def caller(i):
        for _ in range(50):
            if i % 2:
                run()
            else:
                m.train(**feeds)

    _in_parallel(4, caller)
    # every call bumped the one counter: the calls took turns on one state
    assert m.variables()["calls/.ATTRIBUTES/VARIABLE_VALUE"] == 200
    m.reset()
    first = np.load(os.path.join(STATE, "expected", "train", "call_1", "loss.npy"))
    assert close(m.train(**feeds)["loss"], first, 1e-5, 1e-6)
    assert m.variables()["calls/.ATTRIBUTES/VARIABLE_VALUE"] == 1


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-2, ValueError), (1.5, TypeError), ("2", TypeError),
                                        (True, TypeError)])
def test_bad_threads(digits, bad, error):
    with pytest.raises(error, match="threads must be an int >= 1"):
        sm2c.load(digits.path, threads=bad)


def test_threads_default_to_one(digits):
    m = sm2c.load(digits.path, threads=None)
    assert m.threads == 1 and not m.pooled
