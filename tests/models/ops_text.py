"""Conformance cases for text preprocessing in generated C (issue 33): the Keras
TextVectorization layer of the text-classification tutorial and the string ops
its graph holds (StringLower, StaticRegexReplace, StringSplitV2, StringSplit,
RaggedTensorToTensor, Equal on strings), each against TensorFlow 2.21.

  text_classifier_int      the tutorial's model: TextVectorization (default
                           lower_and_strip_punctuation, whitespace split, a
                           fixed vocabulary, output_mode "int",
                           output_sequence_length 6) + Embedding +
                           GlobalAveragePooling1D + Dense, through Keras 3
                           model.export(); outputs the tokens and the score
  text_vectorize_multi_hot TextVectorization output_mode "multi_hot"
  text_vectorize_tf_idf    TextVectorization output_mode "tf_idf"
  text_StringLower, text_StaticRegexReplace_*, text_StringSplitV2_*,
  text_StringSplit_*,
  text_Equal, text_NotEqual,
  text_ReduceJoin          the ops alone on edge cases

Inputs mix ASCII and UTF-8 (uppercase non-ASCII letters, which TensorFlow's
StringLower with no encoding keeps), punctuation, runs of spaces, tabs and
newlines, empty strings, strings with more tokens than output_sequence_length
and out-of-vocabulary words.  No string ends in a NUL byte ('S' arrays drop
them).
"""
import os

from opcase import EXACT, np, tf

os.environ.setdefault("TF_USE_LEGACY_KERAS", "0")

VOCAB = ["the", "cat", "sat", "on", "mat", "dog", "café", "über", "a"]
TEXTS = ["The CAT sat on the mat!", "", "ÜBER café, über-cat; dog?", "a  b   the\tcat\nsat on mat mat dog dog",
         "   ", "Hello, World... (the) [cat] {dog} <mat> 'on' \"a\"", "ÉCOLE école naïve CAFÉ Café",
         "the-cat_sat/on\\mat@dog#a$b%c^d&e*f+g=h|i~j`k", "\u00a0the\u00a0cat\u00a0", "x" * 40,
         "THE The tHe the", "1 2 3 the 4 5 6 7 8 9"]
SCORE = {"rtol": 1e-5, "atol": 1e-6}


def _texts(texts):
    return np.array([t.encode("utf-8") for t in texts], dtype="S")


def _vectorizer(keras, mode, **kw):
    if mode == "tf_idf":
        kw["idf_weights"] = np.linspace(0.5, 2.0, len(VOCAB) + 1)[1:].astype(np.float32)
    return keras.layers.TextVectorization(output_mode=mode, vocabulary=VOCAB, **kw)


def _classifier_export(mdir):
    import keras
    keras.utils.set_random_seed(33)
    tv = _vectorizer(keras, "int", output_sequence_length=6)
    x = keras.Input(shape=(), dtype="string", name="text")
    tokens = tv(x)
    h = keras.layers.Embedding(len(VOCAB) + 2, 4)(tokens)
    h = keras.layers.GlobalAveragePooling1D()(h)
    score = keras.layers.Dense(1)(h)
    model = keras.Model(x, {"tokens": tokens, "score": score})
    model.export(mdir, verbose=False)


def _vectorize_export(mode):
    def export(mdir):
        import keras
        tv = _vectorizer(keras, mode)
        m = tf.Module()
        m.tv = tv
        fn = tf.function(lambda text: {"y": tv(text)},
                         input_signature=[tf.TensorSpec([len(TEXTS)], tf.string, name="text")])
        tf.saved_model.save(m, mdir, signatures={"serving_default": fn})
    return export


def _lower_strings():
    out = [bytes(range(1, 128)), bytes(range(128, 256)), "ÀÉÎÕÜ àéîõü ĀŁŒ ΑΒΓ АБВ".encode(), b""]
    return np.array(out, dtype="S")


def _op_cases():
    t = _texts(TEXTS)
    yield ("text_StringLower", lambda x: tf.strings.lower(x), {"serving_default": {"x": _lower_strings()}},
           "StringLower (no encoding) of every byte 1-255 and UTF-8 capitals: ASCII letters only")
    regex = {
        "punct": (r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']', "", True),
        "spaces": (r"\s+", " ", True),
        "first_vowel": (r"[aeiou]", "<>", False),
        "digits": (r"\d+", "#", True),
        "literal": (r"\.", "!!", True),
    }
    for name, (pat, rw, glob) in regex.items():
        yield ("text_StaticRegexReplace_" + name,
               lambda x, p=pat, r=rw, g=glob: tf.strings.regex_replace(x, p, r, replace_global=g),
               {"serving_default": {"x": t}},
               "StaticRegexReplace %r -> %r%s" % (pat, rw, "" if glob else " (first match only)"))
    splits = _texts(["a b  c", "", "  lead and trail  ", "a<>b<><>c<>", "<>", "tab\tnew\nline\vvt\fff\rcr",
                     "x,y,,z,", ",", "one"])
    for name, sep in (("ws", None), ("sep", "<>"), ("comma", ",")):
        yield ("text_StringSplitV2_" + name,
               lambda x, s=sep: _raw_split(tf.raw_ops.StringSplitV2(input=x, sep=s or "")),
               {"serving_default": {"x": splits}}, "StringSplitV2 (sep %r) of edge cases" % (sep,))
    for name, (delim, skip) in (("skip", (",<", True)), ("keep", (",<", False)), ("bytes", ("", True))):
        yield ("text_StringSplit_" + name,
               lambda x, d=delim, s=skip: _sparse(tf.compat.v1.string_split(x, d, skip_empty=s)),
               {"serving_default": {"x": splits}},
               "StringSplit (delimiter %r, skip_empty %s) of edge cases" % (delim, skip))


def _compare_cases():
    a = _texts(["", "a", "ab", "a\u00e9", "b", "ab"])
    b = _texts(["", "a", "a", "a\u00e9", "", "ab "])
    for name, fn in (("Equal", tf.math.equal), ("NotEqual", tf.math.not_equal)):
        yield ("text_%s" % name, lambda x, y, f=fn: {"same": f(x, y), "scalar": f(x, tf.constant(b"ab"))},
               {"serving_default": {"x": a, "y": b}},
               "%s of strings: element by element and against a scalar (lengths, bytes, prefixes)" % name)


def _join_cases():
    m = np.array([[b"a", b"", "\u00e9".encode()], [b"bc", b"d", b""]], dtype="S")
    yield ("text_ReduceJoin",
           lambda x: {"all": tf.raw_ops.ReduceJoin(inputs=x, reduction_indices=[-1, 0], separator="<>"),
                      "kept": tf.raw_ops.ReduceJoin(inputs=x, reduction_indices=[1, 0], keep_dims=True),
                      "tokens": tf.raw_ops.ReduceJoin(
                          inputs=tf.raw_ops.StringSplit(input=tf.reshape(x, [-1]), delimiter="").values,
                          reduction_indices=[0], separator=" ")},
           {"serving_default": {"x": m}},
           "ReduceJoin over every dim (a matrix, keep_dims, and the data-dependent tokens of a split)")


def _raw_split(r):
    return {"indices": r.indices, "values": r.values, "shape": r.shape}


def _sparse(sp):
    return {"indices": sp.indices, "values": sp.values, "shape": sp.dense_shape}


def cases():
    t = _texts(TEXTS)
    yield ("text_classifier_int", None, {"serving_default": {"text": t}}, SCORE,
           "the text-classification tutorial's model (TextVectorization int, output_sequence_length 6, "
           "Embedding, GlobalAveragePooling1D, Dense) through model.export()", {"export": _classifier_export})
    for mode in ("multi_hot", "tf_idf"):
        yield ("text_vectorize_" + mode, None, {"serving_default": {"text": t}}, SCORE,
               "TextVectorization output_mode %s, a fixed vocabulary" % mode, {"export": _vectorize_export(mode)})
    for name, fn, feeds, desc in list(_op_cases()) + list(_compare_cases()) + list(_join_cases()):
        yield (name, fn, feeds, EXACT, desc)
