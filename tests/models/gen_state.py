#!/usr/bin/env python3
"""Writes tests/data/ops/State_*: signatures that write variables (issue 5),
each checked over a sequence of calls.

Layout (tests/data/e2e, plus state): model/, inputs/<sig>/<key>.npy, case.json
whose signatures[sig] has "calls": N, and
  expected/<sig>/call_<k>/<key>.npy   outputs of the k-th consecutive call (k = 1..N)
                                      with the same inputs, from the checkpoint values
  expected/<sig>/state/<key>.npy      every variable the N calls changed, by checkpoint
                                      key with '/' replaced by '__', after call N
Each signature starts from a freshly loaded model (TF2: tf.saved_model.load; TF1:
a new Session restoring the checkpoint), as sm2c run starts from the checkpoint.

  State_example_capture   the SavedModel signatures tour's ExampleModel: capture_fn
                          creates `weight` on first call and assign_adds to it
                          (polymorphic_fn, traced for two shapes, rides along)
  State_assign_ops        assign, assign_add, assign_sub, and a read taken before an
                          assign (it must not see the new value)
  State_scatter           ResourceScatterUpdate and ResourceScatterAdd
  State_three_signatures  predict, train (SGD by assign_sub) and count over one set of
                          variables: three signatures sharing weights and state
  State_train_adam_tfkeras  a linear model trained by tf_keras's legacy Adam
                          (ResourceApplyAdam, iteration counter)
  State_train_keras3      a Dense model trained by Keras 3's Adam (assign ops)
  State_raw_optimizers    ResourceApplyGradientDescent, ResourceApplyMomentum and
                          ResourceApplyAdam, with and without Nesterov, one signature each
  State_tf1_assign        a TF1 graph (ref VariableV2): Assign, AssignAdd, AssignSub and
                          GradientDescentOptimizer (ApplyGradientDescent)
  State_write_in_loop     assign_add in a loop over tf.range, a read after it carried along
  State_write_in_cond     an assign in one branch of an AutoGraph if, assign_sub in the other;
                          the if's results are unused (only its side effects count)
  State_train_loop        n gradient steps in a loop inside one call (GradientTape in the body)
  State_dtypes            a written variable of every numeric dtype and bool: assign (the
                          previous value read first), assign_add/assign_sub on float64,
                          int32 and int64, a bool flipped by LogicalNot

Run with the project venv: .venv/bin/python tests/models/gen_state.py [OUT_DIR] [NAME...]
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import IEEE, np, rng_for, tf  # noqa: E402

CALLS = 5
F32 = np.float32
TRAIN = {"rtol": 1e-5, "atol": 1e-6}   # a few contractions and a sqrt per step, compounded over calls


def _contiguous(v):
    v = np.asarray(v)
    return np.ascontiguousarray(v).reshape(v.shape)


def _save(d, key, v):
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, key + ".npy"), _contiguous(v))


def _checkpoint_values(prefix):
    r = tf.train.load_checkpoint(prefix)
    return {k: r.get_tensor(k) for k in r.get_variable_to_shape_map() if k != "_CHECKPOINTABLE_OBJECT_GRAPH"}


def _changed(before, after):
    return {k: v for k, v in after.items()
            if k in before and (np.asarray(v).shape != np.asarray(before[k]).shape or
                                not np.array_equal(np.asarray(v), np.asarray(before[k]), equal_nan=True))}


def _record(case, sig, feeds, calls_out, changed, info, tol_sig=None):
    for k, v in feeds.items():
        _save(os.path.join(case, "inputs", sig), k, v)
    for i, outs in enumerate(calls_out):
        for k, v in outs.items():
            _save(os.path.join(case, "expected", sig, "call_%d" % (i + 1)), k, v)
    for key, v in changed.items():
        _save(os.path.join(case, "expected", sig, "state"), key.replace("/", "__"), v)
    last = calls_out[-1]
    info["signatures"][sig] = {
        "calls": len(calls_out),
        "shapes": {k: list(np.shape(v)) for k, v in feeds.items()},
        "inputs": {k: str(np.asarray(v).dtype) for k, v in feeds.items()},
        "outputs": {k: {"dtype": str(np.asarray(v).dtype), "shape": list(np.shape(v))} for k, v in last.items()},
        "state": sorted(changed),
    }


def _tf2_case(out, name, save, feeds, tol, desc):
    """save(mdir) writes the SavedModel; feeds: {sig: {key: array}}."""
    case = os.path.join(out, name)
    shutil.rmtree(case, ignore_errors=True)
    mdir = os.path.join(case, "model")
    save(mdir)
    shutil.rmtree(os.path.join(mdir, "assets"), ignore_errors=True)
    before = _checkpoint_values(os.path.join(mdir, "variables", "variables"))
    info = {"description": desc, "tolerance": tol, "tf_version": tf.__version__, "signatures": {}}
    for sig, inp in feeds.items():
        inp = {k: _contiguous(v) for k, v in inp.items()}
        loaded = tf.saved_model.load(mdir)
        calls = []
        for _ in range(CALLS):
            res = loaded.signatures[sig](**{k: tf.constant(v) for k, v in inp.items()})
            calls.append({k: v.numpy() for k, v in res.items()})
        with tempfile.TemporaryDirectory() as tmp:
            after = _checkpoint_values(tf.train.Checkpoint(loaded).write(os.path.join(tmp, "ck")))
        _record(case, sig, inp, calls, _changed(before, after), info)
    with open(os.path.join(case, "case.json"), "w") as f:
        f.write(json.dumps(info, indent=1) + "\n")
    print(name, ", ".join("%s (%d changed)" % (s, len(info["signatures"][s]["state"])) for s in sorted(feeds)))


def _module_saver(module, signatures):
    def save(mdir):
        tf.saved_model.save(module, mdir, signatures=signatures)
    return save


# ---- the cases ----------------------------------------------------------------------------

class ExampleModel(tf.Module):
    """The SavedModel signatures tour's ExampleModel, as written there."""

    @tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
    def capture_fn(self, x):
        if not hasattr(self, "weight"):
            self.weight = tf.Variable(5.0, name="weight")
        self.weight.assign_add(x * self.weight)
        return self.weight

    @tf.function
    def polymorphic_fn(self, x):
        return tf.constant(3.0) * x


def example_capture(out):
    model = ExampleModel()
    model.polymorphic_fn(tf.constant(4.0))
    model.polymorphic_fn(tf.constant([1.0, 2.0, 3.0]))
    _tf2_case(out, "State_example_capture", _module_saver(model, {"capture_fn": model.capture_fn}),
              {"capture_fn": {"x": np.array(0.25, F32)}}, IEEE,
              "the SavedModel signatures tour's ExampleModel: capture_fn makes `weight` (5.0) on its first "
              "trace and does weight.assign_add(x * weight); polymorphic_fn, traced for a scalar and a [3], "
              "compiled with --function (entries polymorphic_fn_0 and _1)")
    _add_functions(os.path.join(out, "State_example_capture"), "polymorphic_fn")


def _add_functions(case, path):
    """The concrete functions of tf.function `path` as --function entries of the case."""
    from gen_functions import function_entries
    meta = json.load(open(os.path.join(case, "case.json")))
    meta["signatures"].update(function_entries(case, np.random.default_rng(7), only=path))
    with open(os.path.join(case, "case.json"), "w") as f:
        f.write(json.dumps(meta, indent=1) + "\n")


class AssignOps(tf.Module):
    def __init__(self):
        super().__init__()
        self.a = tf.Variable(np.array([1.0, 2.0, 3.0], F32))
        self.b = tf.Variable(np.array([[0.5, -1.0], [2.0, 0.25]], F32))
        self.n = tf.Variable(np.int64(7))

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32, name="x")])
    def update(self, x):
        old = self.a.read_value()         # taken before the assign: must keep the old value
        self.a.assign(self.a * 0.5 + x)
        self.b.assign_sub(tf.reshape(x[:2], [2, 1]) * tf.constant([[0.125, -0.25]]))
        self.n.assign_add(3)
        return {"old": old, "new": self.a.read_value(), "b": self.b.read_value(),
                "n": self.n.read_value(), "sum": tf.reduce_sum(old) + tf.reduce_sum(self.a)}


def assign_ops(out):
    m = AssignOps()
    x = rng_for("State_assign_ops").uniform(-1, 1, 3).astype(F32)
    _tf2_case(out, "State_assign_ops", _module_saver(m, {"update": m.update}), {"update": {"x": x}}, IEEE,
              "AssignVariableOp, AssignSubVariableOp, AssignAddVariableOp (int64), and a read before the "
              "assign of the same variable (TF2 automatic control dependencies order them)")


class Scatter(tf.Module):
    def __init__(self):
        super().__init__()
        self.t = tf.Variable(np.arange(12, dtype=F32).reshape(4, 3))
        self.u = tf.Variable(np.zeros(5, F32))

    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32, name="rows"),
                                  tf.TensorSpec([2], tf.int32, name="idx")])
    def scatter(self, rows, idx):
        self.t.scatter_add(tf.IndexedSlices(rows, idx))
        self.u.scatter_update(tf.IndexedSlices(tf.reduce_sum(rows, axis=1), idx + 1))
        return {"t": self.t.read_value(), "u": self.u.read_value()}


def scatter(out):
    m = Scatter()
    rows = rng_for("State_scatter").uniform(-1, 1, (2, 3)).astype(F32)
    _tf2_case(out, "State_scatter", _module_saver(m, {"scatter": m.scatter}),
              {"scatter": {"rows": rows, "idx": np.array([2, 0], np.int32)}}, IEEE,
              "ResourceScatterAdd of two rows and ResourceScatterUpdate of two elements")


class ThreeSignatures(tf.Module):
    """One linear model; predict reads it, train updates it, count counts calls."""

    def __init__(self):
        super().__init__()
        rng = rng_for("State_three_signatures/w")
        self.w = tf.Variable(rng.uniform(-1, 1, (3, 2)).astype(F32), name="w")
        self.b = tf.Variable(np.array([0.1, -0.2], F32), name="b")
        self.calls = tf.Variable(np.int32(0), name="calls")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def predict(self, x):
        return {"y": tf.matmul(x, self.w) + self.b}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x"),
                                  tf.TensorSpec([None, 2], tf.float32, name="y")])
    def train(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, self.w) + self.b - y))
        gw, gb = tape.gradient(loss, [self.w, self.b])
        self.w.assign_sub(0.1 * gw)
        self.b.assign_sub(0.1 * gb)
        self.calls.assign_add(1)
        return {"loss": loss}

    @tf.function(input_signature=[])
    def count(self):
        self.calls.assign_add(1)
        return {"calls": self.calls.read_value(), "w_sum": tf.reduce_sum(self.w)}


def three_signatures(out):
    m = ThreeSignatures()
    rng = rng_for("State_three_signatures")
    x = rng.uniform(-1, 1, (4, 3)).astype(F32)
    y = rng.uniform(-1, 1, (4, 2)).astype(F32)
    sigs = {"predict": m.predict, "train": m.train, "count": m.count}
    _tf2_case(out, "State_three_signatures", _module_saver(m, sigs),
              {"predict": {"x": x}, "train": {"x": x, "y": y}, "count": {}}, TRAIN,
              "three signatures over one set of variables: predict (reads w, b), train (gradient step by "
              "assign_sub, counts calls), count (increments the shared counter)")


def _linear_train_module(opt, name):
    rng = rng_for(name)
    m = tf.Module()
    m.w = tf.Variable(rng.uniform(-1, 1, (3, 1)).astype(F32), name="w")
    m.b = tf.Variable(np.zeros(1, F32), name="b")
    m.opt = opt

    @tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32, name="x"),
                                  tf.TensorSpec([4, 1], tf.float32, name="y")])
    def train(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, m.w) + m.b - y))
        grads = tape.gradient(loss, [m.w, m.b])
        m.opt.apply_gradients(zip(grads, [m.w, m.b]))
        return {"loss": loss}
    m.train = train
    return m


def _xy(name):
    rng = rng_for(name + "/data")
    x = rng.uniform(-1, 1, (4, 3)).astype(F32)
    return {"x": x, "y": (x @ np.array([[0.5], [-1.0], [2.0]], F32) + 0.3).astype(F32)}


def train_adam_tfkeras(out):
    import tf_keras
    name = "State_train_adam_tfkeras"
    m = _linear_train_module(tf_keras.optimizers.legacy.Adam(learning_rate=0.05), name)
    m.train(**{k: tf.constant(v) for k, v in _xy(name + "/warmup").items()})   # creates the slots
    _tf2_case(out, name, _module_saver(m, {"train": m.train}), {"train": _xy(name)}, TRAIN,
              "a linear model trained by tf_keras.optimizers.legacy.Adam(0.05): ResourceApplyAdam with "
              "beta powers from the iteration counter (one warm-up step before saving)")


def train_keras3(out):
    import keras
    name = "State_train_keras3"
    keras.utils.set_random_seed(1234)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
    opt = keras.optimizers.Adam(learning_rate=0.05)
    opt.build(model.trainable_variables)
    m = tf.Module()
    m.model, m.opt = model, opt

    @tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32, name="x"),
                                  tf.TensorSpec([4, 1], tf.float32, name="y")])
    def train(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return {"loss": loss}
    m.train = train
    _tf2_case(out, name, _module_saver(m, {"train": train}), {"train": _xy(name)}, TRAIN,
              "Keras 3 Sequential(Dense(4, tanh), Dense(1)) trained by keras.optimizers.Adam(0.05) in a "
              "tf.function (the update is assign ops, not ResourceApplyAdam)")


class RawOptimizers(tf.Module):
    """Each signature takes the gradient as input and applies one raw optimizer op."""

    def __init__(self):
        super().__init__()
        rng = rng_for("State_raw_optimizers")
        for n in ("sgd", "mom", "nmom", "adam", "nadam"):
            setattr(self, "v_" + n, tf.Variable(rng.uniform(-1, 1, 4).astype(F32), name=n))
        self.mom_acc = tf.Variable(np.zeros(4, F32), name="mom_acc")
        self.nmom_acc = tf.Variable(np.full(4, 0.1, F32), name="nmom_acc")
        for n in ("adam", "nadam"):
            setattr(self, n + "_m", tf.Variable(np.zeros(4, F32), name=n + "_m"))
            setattr(self, n + "_v", tf.Variable(np.full(4, 0.01, F32), name=n + "_v"))
        self.step = tf.Variable(np.float32(1.0), name="step")

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="g")])
    def sgd(self, g):
        tf.raw_ops.ResourceApplyGradientDescent(var=self.v_sgd.handle, alpha=tf.constant(0.1), delta=g)
        return {"var": self.v_sgd.read_value()}

    def _momentum(self, var, acc, g, nesterov):
        tf.raw_ops.ResourceApplyMomentum(var=var.handle, accum=acc.handle, lr=tf.constant(0.05), grad=g,
                                         momentum=tf.constant(0.9), use_nesterov=nesterov)
        return {"var": var.read_value(), "accum": acc.read_value()}

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="g")])
    def momentum(self, g):
        return self._momentum(self.v_mom, self.mom_acc, g, False)

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="g")])
    def momentum_nesterov(self, g):
        return self._momentum(self.v_nmom, self.nmom_acc, g, True)

    def _adam(self, var, m, v, g, nesterov):
        self.step.assign_add(1.0)
        b1, b2 = tf.constant(0.9), tf.constant(0.999)
        tf.raw_ops.ResourceApplyAdam(var=var.handle, m=m.handle, v=v.handle, beta1_power=tf.pow(b1, self.step),
                                     beta2_power=tf.pow(b2, self.step), lr=tf.constant(0.01), beta1=b1, beta2=b2,
                                     epsilon=tf.constant(1e-7), grad=g, use_nesterov=nesterov)
        return {"var": var.read_value(), "m": m.read_value(), "v": v.read_value()}

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="g")])
    def adam(self, g):
        return self._adam(self.v_adam, self.adam_m, self.adam_v, g, False)

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32, name="g")])
    def adam_nesterov(self, g):
        return self._adam(self.v_nadam, self.nadam_m, self.nadam_v, g, True)


def raw_optimizers(out):
    m = RawOptimizers()
    sigs = {k: getattr(m, k) for k in ("sgd", "momentum", "momentum_nesterov", "adam", "adam_nesterov")}
    g = rng_for("State_raw_optimizers/g").uniform(-1, 1, 4).astype(F32)
    _tf2_case(out, "State_raw_optimizers", _module_saver(m, sigs), {k: {"g": g} for k in sigs}, TRAIN,
              "ResourceApplyGradientDescent, ResourceApplyMomentum and ResourceApplyAdam (each with and "
              "without use_nesterov) on a [4] variable; Adam's beta powers come from a step variable")


def tf1_assign(out):
    name = "State_tf1_assign"
    case = os.path.join(out, name)
    shutil.rmtree(case, ignore_errors=True)
    mdir = os.path.join(case, "model")
    v1 = tf.compat.v1
    rng = rng_for(name)
    x_val = rng.uniform(-1, 1, (4, 2)).astype(F32)
    y_val = rng.uniform(-1, 1, (4, 1)).astype(F32)
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [4, 2], name="x")
        y = v1.placeholder(tf.float32, [4, 1], name="y")
        w = v1.Variable(rng.uniform(-1, 1, (2, 1)).astype(F32), name="w", use_resource=False)
        acc = v1.Variable(np.zeros(2, F32), name="acc", use_resource=False)
        cnt = v1.Variable(np.float32(10.0), name="cnt", use_resource=False)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        train_op = v1.train.GradientDescentOptimizer(0.2).minimize(loss, var_list=[w])
        with tf.control_dependencies([train_op]):
            train_loss = tf.identity(loss, name="train_loss")
        acc_new = v1.assign_add(acc, tf.reduce_sum(x, axis=0))
        cnt_new = v1.assign_sub(cnt, 1.5)
        with tf.control_dependencies([acc_new, cnt_new]):
            reset = v1.assign(w, w * 0.5 + 0.25)
        sess = v1.Session(graph=g)
        sess.run(v1.global_variables_initializer())
        b = v1.saved_model.Builder(mdir)
        sigs = {
            "train": v1.saved_model.predict_signature_def({"x": x, "y": y}, {"loss": train_loss}),
            "accumulate": v1.saved_model.predict_signature_def({"x": x}, {"acc": acc_new, "cnt": cnt_new}),
            "shrink": v1.saved_model.predict_signature_def({"x": x}, {"w": reset}),
        }
        b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map=sigs)
        b.save()
        sess.close()
    before = _checkpoint_values(os.path.join(mdir, "variables", "variables"))
    feeds = {"train": {"x": x_val, "y": y_val}, "accumulate": {"x": x_val}, "shrink": {"x": x_val}}
    info = {"description": "a TF1 graph with ref variables (VariableV2): train runs GradientDescentOptimizer "
                           "(ApplyGradientDescent); accumulate is AssignAdd and AssignSub; shrink is an Assign "
                           "ordered after them by control dependencies",
            "tolerance": TRAIN, "tf_version": tf.__version__, "signatures": {}}
    for sig, inp in feeds.items():
        with tf.Graph().as_default() as g2, v1.Session(graph=g2) as s:
            meta = v1.saved_model.loader.load(s, ["serve"], mdir)
            sd = meta.signature_def[sig]
            feed = {sd.inputs[k].name: v for k, v in inp.items()}
            fetch = {k: t.name for k, t in sd.outputs.items()}
            calls = [s.run(fetch, feed) for _ in range(CALLS)]
            after = {}
            for var in v1.global_variables():
                after[var.op.name] = s.run(var)
        _record(case, sig, inp, calls, _changed(before, after), info)
    with open(os.path.join(case, "case.json"), "w") as f:
        f.write(json.dumps(info, indent=1) + "\n")
    print(name, ", ".join("%s (%d changed)" % (s_, len(info["signatures"][s_]["state"])) for s_ in sorted(feeds)))


class WriteInLoop(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(np.array([0.5, -1.0, 2.0], F32), name="v")
        self.count = tf.Variable(np.int32(0), name="count")

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32, name="x"), tf.TensorSpec([], tf.int32, name="n")])
    def accumulate(self, x, n):
        total = tf.constant(0.0)
        for i in tf.range(n):
            self.v.assign_add(x * tf.cast(i + 1, tf.float32))
            self.count.assign_add(1)
            total += tf.reduce_sum(self.v)      # a read after the write, carried to the next run
        return {"v": self.v.read_value(), "count": self.count.read_value(), "total": total}


def write_in_loop(out):
    m = WriteInLoop()
    x = rng_for("State_write_in_loop").uniform(-1, 1, 3).astype(F32)
    _tf2_case(out, "State_write_in_loop", _module_saver(m, {"accumulate": m.accumulate}),
              {"accumulate": {"x": x, "n": np.array(3, np.int32)}}, IEEE,
              "assign_add (float32 and int32) in a loop over tf.range(n), and a read after the write summed "
              "into a loop-carried value")


class WriteInCond(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(np.array([1.0, 2.0], F32), name="v")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="x")])
    def update(self, x):
        if tf.reduce_sum(x) > 0:
            self.v.assign(self.v * 0.5 + x)
        else:
            self.v.assign_sub(x)
        return {"v": self.v.read_value()}


def write_in_cond(out):
    m = WriteInCond()
    _tf2_case(out, "State_write_in_cond", _module_saver(m, {"update": m.update}),
              {"update": {"x": np.array([0.25, 0.5], F32)}}, IEEE,
              "an AutoGraph if whose then branch assigns and whose else branch assign_subs: the If has no "
              "used result, only side effects")
    m2 = WriteInCond()
    _tf2_case(out, "State_write_in_cond_else", _module_saver(m2, {"update": m2.update}),
              {"update": {"x": np.array([-0.75, 0.125], F32)}}, IEEE,
              "the same model with an input that takes the else branch (assign_sub)")


class TrainLoop(tf.Module):
    def __init__(self):
        super().__init__()
        rng = rng_for("State_train_loop/w")
        self.w = tf.Variable(rng.uniform(-1, 1, (3, 1)).astype(F32), name="w")
        self.b = tf.Variable(np.zeros(1, F32), name="b")

    @tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32, name="x"),
                                  tf.TensorSpec([4, 1], tf.float32, name="y"),
                                  tf.TensorSpec([], tf.int32, name="steps")])
    def train(self, x, y, steps):
        loss = tf.constant(0.0)
        for _ in tf.range(steps):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, self.w) + self.b - y))
            gw, gb = tape.gradient(loss, [self.w, self.b])
            self.w.assign_sub(0.1 * gw)
            self.b.assign_sub(0.1 * gb)
        return {"loss": loss}


def train_loop(out):
    m = TrainLoop()
    feeds = dict(_xy("State_train_loop"), steps=np.array(4, np.int32))
    _tf2_case(out, "State_train_loop", _module_saver(m, {"train": m.train}), {"train": feeds}, TRAIN,
              "four gradient steps (GradientTape, assign_sub) in a loop over tf.range inside one call")


DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool"]


class Dtypes(tf.Module):
    def __init__(self, rng):
        super().__init__()
        self.v = {}
        for d in DTYPES:
            init = rng.uniform(-4, 4, 3) if d not in ("bool",) else rng.uniform(0, 1, 3) > 0.5
            if d.startswith("uint"):
                init = np.abs(init)
            self.v[d] = tf.Variable(tf.cast(init, d), name="v_" + d)
        self.acc = {d: tf.Variable(tf.cast([1, -2, 3], d), name="acc_" + d) for d in ("float64", "int32", "int64")}

    @tf.function(input_signature=[tf.TensorSpec([3], d, name="x_" + d) for d in DTYPES if d != "bool"])
    def update(self, *xs):
        out = {}
        for d, x in zip([d for d in DTYPES if d != "bool"], xs):
            out["prev_" + d] = self.v[d].read_value()
            self.v[d].assign(x)
        out["prev_bool"] = self.v["bool"].read_value()
        self.v["bool"].assign(tf.logical_not(self.v["bool"]))
        for d, acc in self.acc.items():
            acc.assign_add(xs[DTYPES.index(d)])
            acc.assign_sub(tf.cast([1, 1, 1], d))
            out["acc_" + d] = acc.read_value()
        return out


def dtypes(out):
    rng = rng_for("State_dtypes")
    m = Dtypes(rng)
    feeds = {}
    for d in DTYPES:
        if d != "bool":
            x = rng.uniform(-9, 9, 3)
            feeds["x_" + d] = tf.cast(np.abs(x) if d.startswith("uint") else x, d).numpy()
    _tf2_case(out, "State_dtypes", _module_saver(m, {"update": m.update}), {"update": feeds}, IEEE,
              "a written variable of every numeric dtype and bool: AssignVariableOp after a read of the "
              "previous value, AssignAdd/AssignSub on float64, int32 and int64, a bool flipped by LogicalNot")


CASES = {"State_example_capture": example_capture, "State_assign_ops": assign_ops, "State_scatter": scatter,
         "State_three_signatures": three_signatures, "State_train_adam_tfkeras": train_adam_tfkeras,
         "State_train_keras3": train_keras3, "State_raw_optimizers": raw_optimizers,
         "State_tf1_assign": tf1_assign, "State_write_in_loop": write_in_loop,
         "State_write_in_cond": write_in_cond, "State_train_loop": train_loop, "State_dtypes": dtypes}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                             "..", "data", "ops")
    only = set(sys.argv[2:])
    for name, make in CASES.items():
        if not only or name in only:
            make(out)


if __name__ == "__main__":
    main()
