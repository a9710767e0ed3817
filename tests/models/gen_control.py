#!/usr/bin/env python3
"""Writes tests/data/ops/Control_*: control flow as TensorFlow 2.21 saves it
(issue 5), each case in the tests/data/e2e layout (opcase.write_case).

  Control_cond_*         tf.cond / AutoGraph if: StatelessIf, and If when a branch
                         reads a variable; a signature per branch taken
  Control_switch_case*   tf.switch_case: StatelessCase / Case, including an index
                         out of range (TF runs the last branch)
  Control_next_collatz   the Collatz step count: a while loop with an if inside
  Control_while_tanh     the tf.function guide's `while tf.reduce_sum(x) > 1: x = tanh(x)`
  Control_while_maxiter  tf.while_loop with a constant maximum_iterations
  Control_nested_loops   a loop inside a loop
  Control_fizzbuzz       the guide's fizzbuzz if/elif chain in a loop over tf.range,
                         with numeric outputs (counts) instead of tf.print
  Control_tensorarray_*  loops accumulating into a TensorArray (TensorList ops):
                         the guide's dynamic_rnn, unstack/read, dynamic_size
  Control_rnn_*          Keras recurrent layers: LSTM, GRU, SimpleRNN and
                         Bidirectional(LSTM) through tf_keras tf.saved_model.save
                         (api_implements variants) and Keras 3 model.export()

Run with the project venv: .venv/bin/python tests/models/gen_control.py [OUT_DIR] [NAME...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opcase import EXACT, IEEE, TRANS, np, rng_for, tf, write_case  # noqa: E402

E2E = {"rtol": 1e-4, "atol": 1e-4}   # whole-model policy, docs/reliability.md section 9
I32 = np.int32
F32 = np.float32


def _f32(name, *shape, lo=-2.0, hi=2.0):
    return rng_for(name).uniform(lo, hi, shape).astype(F32)


# ---- conditionals -----------------------------------------------------------------------

def cond_stateless():
    """tf.cond on a data-dependent scalar predicate: StatelessIf."""
    def fn(x):
        return {"y": tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0 + 1.0, lambda: tf.tanh(x) - 3.0)}
    x = _f32("cond_stateless", 4, 3)
    feeds = {"then_taken": {"x": np.abs(x)}, "else_taken": {"x": -np.abs(x)}}
    return ("Control_cond_stateless", fn, feeds, TRANS,
            "tf.cond(reduce_sum(x) > 0, x*2+1, tanh(x)-3): StatelessIf, one signature per branch", {})


def cond_autograph():
    """An AutoGraph if/elif/else on a tensor predicate, several outputs."""
    def fn(x, k):
        if k > 10:
            y, z = x * x, tf.reduce_sum(x)
        elif k > 0:
            y, z = x + 1.0, tf.reduce_max(x)
        else:
            y, z = -x, tf.reduce_min(x)
        return {"y": y, "z": z}
    x = _f32("cond_autograph", 5)
    feeds = {"k20": {"x": x, "k": np.array(20, I32)}, "k5": {"x": x, "k": np.array(5, I32)},
             "kneg": {"x": x, "k": np.array(-3, I32)}}
    return ("Control_cond_autograph", fn, feeds, IEEE,
            "AutoGraph if/elif/else on an int32 scalar (nested StatelessIf), two outputs", {})


def cond_variable():
    """A branch that reads a variable makes the conditional stateful: If."""
    v = tf.Variable(np.arange(6, dtype=F32).reshape(2, 3) * 0.5)

    def fn(x):
        return {"y": tf.cond(tf.reduce_mean(x) > 0.0, lambda: x + v, lambda: x * v)}
    x = _f32("cond_variable", 2, 3)
    feeds = {"then_taken": {"x": np.abs(x) + 0.1}, "else_taken": {"x": -np.abs(x) - 0.1}}
    return ("Control_cond_variable", fn, feeds, IEEE,
            "tf.cond whose branches read a variable (If, not StatelessIf)", {"track": [v]})


def switch_case():
    def fn(i, x):
        return {"y": tf.switch_case(i, [lambda: x * 2.0, lambda: x - 5.0, lambda: tf.square(x)])}
    x = _f32("switch_case", 3, 2)
    feeds = {"b%s" % ("m1" if k < 0 else k): {"i": np.array(k, I32), "x": x} for k in (0, 1, 2, 7, -1)}
    return ("Control_switch_case", fn, feeds, IEEE,
            "tf.switch_case over three branches (StatelessCase); indices 7 and -1 run the last "
            "branch, as TensorFlow does", {})


def switch_case_variable():
    v = tf.Variable(np.array([1.5, -2.0, 0.25], F32))

    def fn(i, x):
        return {"y": tf.switch_case(i, [lambda: x + v, lambda: x * v])}
    x = _f32("switch_case_variable", 3)
    feeds = {"b0": {"i": np.array(0, I32), "x": x}, "b1": {"i": np.array(1, I32), "x": x}}
    return ("Control_switch_case_variable", fn, feeds, IEEE,
            "tf.switch_case whose branches read a variable (Case)", {"track": [v]})


# ---- loops ------------------------------------------------------------------------------

def next_collatz():
    """Steps of the Collatz sequence down to 1: a while loop with an if inside."""
    def fn(n):
        steps = tf.constant(0)
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return {"steps": steps, "last": n}
    feeds = {"n%d" % k: {"n": np.array(k, I32)} for k in (1, 6, 27, 97)}
    return ("Control_next_collatz", fn, feeds, EXACT,
            "Collatz step count: AutoGraph while n > 1 with an if/else on n % 2 inside (int32)", {})


def while_tanh():
    """The tf.function guide's loop, without its tf.print."""
    def fn(x):
        while tf.reduce_sum(x) > 1:
            x = tf.tanh(x)
        return {"y": x}
    feeds = {"serving_default": {"x": _f32("while_tanh", 5, lo=0.5, hi=3.0)}}
    return ("Control_while_tanh", fn, feeds, TRANS,
            "the tf.function guide's `while tf.reduce_sum(x) > 1: x = tf.tanh(x)` on float32[5]", {})


def while_maxiter():
    def fn(x):
        i0 = tf.constant(0)
        _, y = tf.while_loop(lambda i, y: tf.reduce_max(y) < 1e6, lambda i, y: (i + 1, y * 1.5 + 0.25),
                             (i0, x), maximum_iterations=7)
        return {"y": y}
    feeds = {"capped": {"x": _f32("while_maxiter", 4, lo=0.0, hi=1.0)},
             "early": {"x": _f32("while_maxiter2", 4, lo=2e5, hi=4e5)}}
    return ("Control_while_maxiter", fn, feeds, IEEE,
            "tf.while_loop with maximum_iterations=7: one input stops at the cap, one at the condition", {})


def nested_loops():
    def fn(a, n):
        acc = tf.zeros_like(a)
        for i in tf.range(n):
            p = a
            for _ in tf.range(i):
                p = tf.matmul(p, a)
            acc += p
        return {"y": acc}
    a = _f32("nested_loops", 3, 3, lo=-0.5, hi=0.5)
    feeds = {"n4": {"a": a, "n": np.array(4, I32)}, "n0": {"a": a, "n": np.array(0, I32)}}
    return ("Control_nested_loops", fn, feeds, {"rtol": 1e-5, "atol": 1e-6},
            "sum of the powers a^1..a^n of a 3x3 matrix: a loop over tf.range inside a loop over tf.range", {})


def fizzbuzz():
    """The guide's fizzbuzz with counts in place of tf.print."""
    def fn(n):
        fb = f = b = other = tf.constant(0)
        total = tf.constant(0)
        for i in tf.range(1, n + 1):
            if i % 15 == 0:
                fb += 1
            elif i % 3 == 0:
                f += 1
            elif i % 5 == 0:
                b += 1
            else:
                other += 1
                total += i
        return {"fizzbuzz": fb, "fizz": f, "buzz": b, "other": other, "other_sum": total}
    feeds = {"n%d" % k: {"n": np.array(k, I32)} for k in (0, 15, 100)}
    return ("Control_fizzbuzz", fn, feeds, EXACT,
            "the tf.function guide's fizzbuzz: an if/elif/elif/else chain in a loop over tf.range(1, n+1), "
            "counting each branch", {})


# ---- TensorArray / TensorList -------------------------------------------------------------

def tensorarray_rnn():
    """The tf.function guide's dynamic_rnn with rnn_step(inp, state) = inp + state."""
    def fn(input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = input_data[i] + state
            states = states.write(i, state)
        return {"y": tf.transpose(states.stack(), [1, 0, 2])}
    feeds = {"serving_default": {"input_data": _f32("ta_rnn", 2, 3, 4), "initial_state": _f32("ta_rnn0", 2, 4)}}
    return ("Control_tensorarray_rnn", fn, feeds, IEEE,
            "the tf.function guide's dynamic_rnn: TensorArray(size=3) written in a loop over tf.range, "
            "then stacked (TensorListReserve, SetItem, Stack)", {})


def tensorarray_unstack():
    def fn(x):
        ta = tf.TensorArray(tf.float32, size=x.shape[0]).unstack(x)
        acc = tf.zeros(x.shape[1:])
        for i in tf.range(ta.size()):
            acc = acc * 0.5 + ta.read(i)
        return {"y": acc, "n": ta.size()}
    feeds = {"serving_default": {"x": _f32("ta_unstack", 6, 2, 3)}}
    return ("Control_tensorarray_unstack", fn, feeds, IEEE,
            "TensorArray.unstack then read(i) in a loop over its size (TensorListFromTensor, GetItem, "
            "Length)", {})


def tensorarray_dynamic():
    def fn(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        v = x
        for i in tf.range(5):
            v = v * 0.5 + tf.cast(i, tf.float32)
            ta = ta.write(i, v)
        return {"y": ta.stack()}
    feeds = {"serving_default": {"x": _f32("ta_dynamic", 3)}}
    return ("Control_tensorarray_dynamic", fn, feeds, IEEE,
            "a dynamic_size TensorArray written for i in tf.range(5) (a constant trip count), then stacked",
            {})


def tensorarray_two():
    """Two TensorArrays in one loop, one of int32, and an early stop."""
    def fn(x, limit):
        vals = tf.TensorArray(tf.float32, size=8)
        idx = tf.TensorArray(tf.int32, size=8)
        s = tf.constant(0.0)
        for i in tf.range(8):
            s = s + x[i]
            vals = vals.write(i, s)
            idx = idx.write(i, i * i)
            if s > limit:
                break
        return {"sums": vals.stack(), "squares": idx.stack()}
    x = _f32("ta_two", 8, lo=0.0, hi=1.0)
    feeds = {"full": {"x": x, "limit": np.array(100.0, F32)}, "stopped": {"x": x, "limit": np.array(1.5, F32)}}
    return ("Control_tensorarray_two", fn, feeds, IEEE,
            "two TensorArrays (float32 and int32, size 8) written in one loop with a data-dependent break; "
            "unwritten elements stack as zeros", {})


# ---- Keras recurrent layers ---------------------------------------------------------------

def _rnn_case(name, lib, make, desc):
    from ops_keras import _build
    K = __import__(lib)
    inputs = [("x", (5, 3), "float32")]

    def export(mdir):
        model = _build(K, name, inputs, lambda K_, x: make(K_.layers)(x))
        if lib == "keras":
            model.export(mdir, verbose=False)
        elif "stacked" in name:   # without the layers' traced training functions (1.2 MB each)
            serve = tf.function(lambda x: {"y": model(x, training=False)})
            model.save(mdir, save_format="tf", include_optimizer=False, save_traces=False,
                       signatures=serve.get_concrete_function(tf.TensorSpec([None, 5, 3], tf.float32, name="x")))
        else:
            tf.saved_model.save(model, mdir)
    x = rng_for(name + "/inputs").standard_normal((2, 5, 3)).astype(F32)
    return (name, None, {"serving_default": {"x": x}}, E2E, desc, {"export": export})


RNNS = {
    "LSTM": lambda L: L.LSTM(4),
    "LSTM_sequences": lambda L: L.LSTM(4, return_sequences=True),
    "GRU": lambda L: L.GRU(4),
    "SimpleRNN": lambda L: L.SimpleRNN(4, return_sequences=True),
    "Bidirectional": lambda L: L.Bidirectional(L.LSTM(3)),
    # a recurrent layer on a return_sequences=True one: the lower layer's
    # TensorList is read by the upper layer's loop
    "LSTM_stacked": lambda L: (lambda x: L.LSTM(4)(L.LSTM(5, return_sequences=True)(x))),
    "GRU_stacked": lambda L: (lambda x: L.GRU(4)(L.GRU(5, return_sequences=True)(x))),
}


def rnn_cases():
    for layer, make in RNNS.items():
        if layer != "LSTM_sequences":   # 600 KB of tf_keras training functions; Keras 3 covers it
            yield _rnn_case("Control_rnn_%s_tfkeras" % layer, "tf_keras", make,
                            "tf_keras %s(units 4 or 3) on [2, 5, 3], tf.saved_model.save(model)" % layer)
        yield _rnn_case("Control_rnn_%s_keras3" % layer, "keras", make,
                        "Keras 3 %s(units 4 or 3) on [2, 5, 3], model.export()" % layer)


CASES = [cond_stateless, cond_autograph, cond_variable, switch_case, switch_case_variable, next_collatz,
         while_tanh, while_maxiter, nested_loops, fizzbuzz, tensorarray_rnn, tensorarray_unstack,
         tensorarray_dynamic, tensorarray_two]


def all_cases():
    for make in CASES:
        yield make()
    yield from rnn_cases()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                             "..", "data", "ops")
    only = set(sys.argv[2:])
    for name, fn, feeds, tol, desc, extra in all_cases():
        if only and name not in only:
            continue
        write_case(out, name, fn, feeds, tol, desc, **extra)
        print(name, ", ".join(sorted(feeds)))


if __name__ == "__main__":
    main()
