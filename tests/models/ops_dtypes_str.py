"""Conformance cases for issue 33's dtype audit on strings
(tests/conformance/DTYPE_AUDIT.md): the movement, selection and indexing ops
on string tensors, string concatenation (Add), Unique and StringLower with
encoding "utf-8".

- Str_movement: Transpose, ConcatV2 (with a constant), Pack, Unpack, Split,
  SplitV, Slice, StridedSlice (reversed and shrinking), ReverseV2,
  ReverseSequence, BroadcastTo, Tile, MirrorPad (REFLECT, SYMMETRIC), Pad,
  PadV2 (a constant and a run-time pad value), Fill (a run-time value and a
  constant), ZerosLike, DepthToSpace, SpaceToDepth, Rank, Shape and Size of
  strings (empty ones, UTF-8 and a high byte among them).
- Str_select_gather: Select (a vector condition picking rows, and
  elementwise), SelectV2 (broadcast), GatherV2 (an axis and batch_dims),
  GatherNd and OneHot with string on/off values.
- Str_add_unique: Add (concatenation, with a broadcast operand, a constant and
  empty strings), Unique and UniqueV2 (int32 and int64 idx), AsString of a
  string (the identity) and SparseFillEmptyRows of string values.
- StringLower_utf8: StringLower with encoding "utf-8" (and "" beside it) on
  ASCII, Latin-1, Greek (final and non-final sigma, around punctuation and
  combining marks), Cyrillic, Turkish dotted I, Georgian, CJK, emoji, invalid
  UTF-8 (truncated, overlong, surrogate, past U+10FFFF, lone continuation
  bytes) and an inner NUL; and every code point whose lowercase differs from
  it (all planes) plus every 61st code point of the BMP, in strings of 64.
- Str_resource_gather: ResourceGather of a string variable.
- Str_bool_scatter_cast: ScatterNd of strings (repeated indices concatenate
  in order, empty and UTF-8 updates, rows of a matrix, int32 and int64
  indices) and of bool (repeated indices or), OneHot with bool on/off values
  (an index out of range, axis 0), and Cast of a string to a string.

Every output is bit-exact (the ops move bytes or compare them).
"""
from opcase import EXACT, np, tf

R = tf.raw_ops


def strings(words, shape):
    """numpy bytes ('S') of str (UTF-8) or bytes words, none ending in a NUL."""
    return np.array([w.encode() if isinstance(w, str) else w for w in words]).reshape(shape)


WORDS = ["a", "", "Bc", "d\u00e9f", "g", "\u4e2d\u6587", "", "hi j", b"\xffk", "l", "mn", "o",
         "p", "Q", "", "rs", "t", "\u00fc", "vw", "x", "y", "", "z!", "0"]


def movement_case():
    feeds = {"x": strings(WORDS, [2, 3, 4]), "s": np.array(b"fill"), "p": np.array(b"<>"),
             "q": np.array([1, 4, 3], np.int64)}

    def body(x, s, p, q):
        d = tf.reshape(x, [1, 2, 3, 4])[:, :, :2, :]          # [1, 2, 2, 4]
        c = tf.constant([[[b"C0", b"", b"C2", b"c3"]], [[b"c4", b"c5", b"", b"C7"]]])
        u = tf.unstack(x, axis=1)
        sp = tf.split(x, 2, axis=2)
        sv = tf.split(x, [1, 2], axis=1)
        return {
            "Transpose": tf.transpose(x, [2, 0, 1]),
            "ConcatV2": tf.concat([x, c, x[:, :1]], axis=1),
            "Pack": tf.stack([x[0], x[1]], axis=1),
            "Unpack_0": u[0], "Unpack_2": u[2],
            "Split_0": sp[0], "Split_1": sp[1],
            "SplitV_0": sv[0], "SplitV_1": sv[1],
            "Slice": tf.slice(x, [0, 1, 1], [2, 2, -1]),
            "StridedSlice": x[:, ::-1, 1:4:2],
            "StridedSlice_shrink": x[1, :, -1],
            "ReverseV2": tf.reverse(x, [0, 2]),
            "ReverseSequence": tf.reverse_sequence(x[0], q, seq_axis=1, batch_axis=0),
            "BroadcastTo": tf.broadcast_to(x[:, :1, :], [2, 3, 4]),
            "Tile": tf.tile(x[0], [2, 1]),
            "MirrorPad_reflect": tf.pad(x[0], [[1, 2], [2, 1]], mode="REFLECT"),
            "MirrorPad_symmetric": tf.pad(x[1], [[3, 0], [0, 2]], mode="SYMMETRIC"),
            "Pad": tf.pad(x[0], [[1, 0], [0, 2]]),
            "PadV2_const": tf.pad(x[1], [[0, 1], [1, 1]], constant_values="pad"),
            "PadV2_value": R.PadV2(input=x[0], paddings=[[1, 1], [0, 1]], constant_values=p),
            "Fill_value": tf.fill([2, 4], s),
            "Fill_const": tf.fill([3, 2], tf.constant(b"\xc3\xa9t\xc3\xa9")),
            "ZerosLike": R.ZerosLike(x=x[0]),
            "DepthToSpace": tf.nn.depth_to_space(d, 2),
            "SpaceToDepth": tf.nn.space_to_depth(tf.reshape(x, [1, 4, 6, 1])[:, :, :4, :], 2),
            "Rank": tf.rank(x), "Shape": tf.shape(x), "Size": tf.size(x),
        }
    yield ("Str_movement", body, {"serving_default": feeds}, EXACT,
           "string Transpose, ConcatV2, Pack, Unpack, Split, SplitV, Slice, StridedSlice, ReverseV2, "
           "ReverseSequence, BroadcastTo, Tile, MirrorPad, Pad, PadV2, Fill, ZerosLike, DepthToSpace, "
           "SpaceToDepth, Rank, Shape, Size")


def select_gather_case():
    feeds = {"x": strings(WORDS[:12], [3, 4]), "y": strings(WORDS[12:], [3, 4]),
             "c": np.array([True, False, True]), "m": np.array([[True, False, False, True]] * 3),
             "i": np.array([2, 0, 2, 1], np.int32), "j": np.array([[1, 3], [0, 0], [2, 1]], np.int64),
             "h": np.array([0, 2, -1, 3, 1], np.int32)}

    def body(x, y, c, m, i, j, h):
        return {
            "Select_rows": R.Select(condition=c, x=x, y=y),
            "Select": R.Select(condition=m, x=x, y=y),
            "SelectV2": tf.where(m[:1], x, y[:, :1]),
            "SelectV2_const": tf.where(m, x, tf.constant(b"-")),
            "GatherV2": tf.gather(x, i),
            "GatherV2_axis1": tf.gather(x, i[:3], axis=1),
            "GatherV2_batch": tf.gather(x, tf.reshape(i[:3], [3, 1]) + 0 * tf.ones([3, 2], tf.int32),
                                        axis=1, batch_dims=1),
            "GatherNd": tf.gather_nd(x, j),
            "GatherNd_rows": tf.gather_nd(y, j[:, :1]),
            "OneHot": tf.one_hot(h, 4, on_value="on", off_value=""),
            "OneHot_axis0": tf.one_hot(h[:3], 3, on_value=b"\xe2\x9c\x93", off_value="off", axis=0),
        }
    yield ("Str_select_gather", body, {"serving_default": feeds}, EXACT,
           "string Select, SelectV2, GatherV2, GatherNd, OneHot")


def add_unique_case():
    feeds = {"x": strings(["ab", "", "c\u00e9", "ab", "", "d", "ab", "e"], [2, 4]),
             "y": strings(["1", "22", "", "\u4e2d"], [4]), "u": strings(["b", "a", "b", "", "c", "a", ""], [7]),
             "vals": strings(["v0", "", "v2"], [3]),
             "ind": np.array([[0, 1], [2, 0], [2, 3]], np.int64), "dflt": np.array(b"dflt")}

    def body(x, y, u, vals, ind, dflt):
        uq = tf.unique(u)
        uq64 = R.UniqueV2(x=u, axis=tf.constant([0], tf.int64), out_idx=tf.int64)
        sf = R.SparseFillEmptyRows(indices=ind, values=vals, dense_shape=tf.constant([4, 5], tf.int64),
                                   default_value=dflt)
        return {
            "Add": R.Add(x=x, y=y),
            "Add_const": R.Add(x=tf.constant(b"<"), y=R.Add(x=x, y=tf.constant(b">"))),
            "Add_self": R.Add(x=y, y=y),
            "Unique_y": uq.y, "Unique_idx": uq.idx,
            "UniqueV2_y": uq64.y, "UniqueV2_idx": uq64.idx,
            "AsString": tf.strings.as_string(x),
            "SparseFillEmptyRows_indices": sf.output_indices,
            "SparseFillEmptyRows_values": sf.output_values,
            "SparseFillEmptyRows_empty": sf.empty_row_indicator,
            "SparseFillEmptyRows_map": sf.reverse_index_map,
        }
    yield ("Str_add_unique", body, {"serving_default": feeds}, EXACT,
           "string Add (concatenation), Unique, UniqueV2, AsString, SparseFillEmptyRows")


LOWER_EDGES = ["Hello, World! 123", "\u00c0\u00c9\u00ce\u00d5\u00dc\u00dd\u00de \u00df\u00ff",
               "\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3", "\u03a3", "\u03a3\u0391\u03a3.",
               "\u0391\u03a3'\u0392 \u0391\u03a3\u0301 \u0391.\u03a3 \u03a3\u0391", "\u041f\u0420\u0418\u0412\u0415\u0422 \u0401\u0416",
               "\u0130stanbul I\u0131", "\u10a0\u10c5 \u1c90\u1cbf \u10d0", "\u4e2d\u6587\u5b57 \u3042",
               "\U0001f600 \U0001f468\u200d\U0001f469 \U00010400", "\u212a\u2126\u023a\u1e9e\u01c5\u2c2f",
               b"a\xffB\xc3(\xe2\x82Z\xed\xa0\x80\xc0\x80\xf4\x90\x80\x80\x80\xf0\x9f\x98", b"Ab\x00CD", ""]


def lower_all():
    """Every code point whose lowercase (TensorFlow's) differs, and every 61st
    of the BMP, in strings of 64 code points."""
    cps = [c for c in range(1, 0x110000) if not 0xD800 <= c < 0xE000]
    low = tf.strings.lower(tf.constant([chr(c).encode() for c in cps]), encoding="utf-8").numpy()
    pick = [c for c, o in zip(cps, low) if o != chr(c).encode() or (c < 0x10000 and c % 61 == 0)]
    return ["".join(map(chr, pick[k:k + 64])) for k in range(0, len(pick), 64)]


def lower_case():
    feeds = {"x": strings(LOWER_EDGES, [len(LOWER_EDGES)]), "all": strings(lower_all(), [-1])}

    def body(x, all):
        return {"utf8": tf.strings.lower(x, encoding="utf-8"), "ascii": tf.strings.lower(x),
                "utf8_all": tf.strings.lower(all, encoding="utf-8")}
    yield ("StringLower_utf8", body, {"serving_default": feeds}, EXACT,
           "StringLower utf-8 (and ASCII) on Latin-1, Greek final sigma, Cyrillic, Turkish, Georgian, CJK, emoji, "
           "invalid UTF-8, an inner NUL, and every code point whose lowercase differs")


def variable_case():
    """ResourceGather of a string variable (never written: its checkpoint value)."""
    v = tf.Variable(strings(["v0", "", "\u00e9v2", "v3", "v4"], [5]))
    feeds = {"i": np.array([[3, 0], [2, 2]], np.int32)}
    yield ("Str_resource_gather", lambda i: {"ResourceGather": tf.gather(v, i)}, {"serving_default": feeds}, EXACT,
           "string ResourceGather of a variable", {"track": v})


def scatter_cast_case():
    feeds = {"u": strings(["a", "bc", "", "d\u00e9", "\u4e2d", "f", b"\xff", "gh"], [8]),
             "i": np.array([[2], [0], [2], [4], [2], [0], [1], [4]], np.int32),
             "rows": strings(["r0", "", "s1", "t", "u2", "v"], [3, 2]),
             "ri": np.array([[1], [1], [0]], np.int64),
             "bu": np.array([True, False, False, True, False, False]),
             "bi": np.array([[0, 1], [0, 1], [1, 2], [1, 2], [2, 0], [0, 1]], np.int32),
             "oh": np.array([[0, 3, -1], [2, 1, 2]], np.int64),
             "on": np.array(True), "off": np.array(False)}

    def body(u, i, rows, ri, bu, bi, oh, on, off):
        return {
            "ScatterNd_str": tf.scatter_nd(i, u, [6]),
            "ScatterNd_str_rows": tf.scatter_nd(ri, rows, tf.constant([3, 2], tf.int64)),
            "ScatterNd_bool": tf.scatter_nd(bi, bu, [3, 3]),
            "OneHot_bool": tf.one_hot(oh, 4, on_value=on, off_value=off),
            "OneHot_bool_axis0": tf.one_hot(oh, 3, on_value=True, off_value=False, axis=0),
            "Cast_str": R.Cast(x=rows, DstT=tf.string),
        }
    yield ("Str_bool_scatter_cast", body, {"serving_default": feeds}, EXACT,
           "ScatterNd of strings (concatenation) and bool (or), OneHot of bool, Cast string to string")


def cases():
    yield from movement_case()
    yield from select_gather_case()
    yield from add_unique_case()
    yield from lower_case()
    yield from variable_case()
    yield from scatter_cast_case()
