#!/usr/bin/env python3
"""Writes compiler/ops/unicode_lower.c: the tables of StringLower with
encoding "utf-8", measured from the pinned TensorFlow (run it with the venv of
tests/models: TensorFlow's kernel is ICU's UnicodeString::toLower, whose
Unicode version is TensorFlow's, not Python's).

usage: gen_unicode_lower.py [OUT.c]

What it measures, over every code point but the surrogates and NUL:
  - the lowercase of each code point alone: runs of code points whose
    lowercase is the code point plus a constant, every code point or every
    other one (first, last, delta, stride);  one code point lowers to two
    (U+0130 to U+0069 U+0307), which the kernel writes itself (checked here);
  - for ICU's Final_Sigma (U+03A3 lowers to U+03C2 when a cased letter comes
    before it and none after it, case-ignorable code points skipped): which
    code points are case-ignorable and which are cased, from lower(c + "Σ")
    (final exactly when c is cased) and lower("Α" + c + "Σ") (final when c is
    cased or case-ignorable).
Then it checks a Python model of runtime/string_lower_utf8.c (the tables, NUL
ending the string as TensorFlow's c_str() does, and invalid UTF-8 replaced by
U+FFFD per maximal subpart) against TensorFlow on random strings of letters,
sigmas, marks and bytes, and fails if one differs.
"""
import os
import random
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

SIGMA, FINAL = 0x3A3, 0x3C2
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "compiler", "ops", "unicode_lower.c")


def tf_lower(strings):
    out = []
    for k in range(0, len(strings), 200000):
        out += list(tf.strings.lower(tf.constant(strings[k:k + 200000]), encoding="utf-8").numpy())
    return out


def measure():
    cps = [c for c in range(1, 0x110000) if not 0xD800 <= c < 0xE000]
    lower = dict(zip(cps, (o.decode() for o in tf_lower([chr(c).encode() for c in cps]))))
    cased_end = tf_lower([(chr(c) + "\u03a3").encode() for c in cps])
    after_alpha = tf_lower([("\u0391" + chr(c) + "\u03a3").encode() for c in cps])
    final = chr(FINAL).encode()
    cased = {c for c, o in zip(cps, cased_end) if o.endswith(final)}
    ignorable = {c for c, o in zip(cps, after_alpha) if o.endswith(final)} - cased
    return lower, cased, ignorable


def runs_of_map(lower):
    """(first, last, delta, stride) runs over the single code point mappings."""
    pairs = sorted((c, ord(s) - c) for c, s in lower.items() if len(s) == 1 and ord(s) != c)
    runs = []
    for c, d in pairs:
        if runs:
            f, l, dd, st = runs[-1]
            if dd == d and ((st in (0, 1) and c == l + 1) or (st in (0, 2) and c == l + 2)):
                runs[-1] = (f, c, d, st or c - l)
                continue
        runs.append((c, c, d, 0))
    return [(f, l, d, st or 1) for f, l, d, st in runs]


def ranges_of(cps):
    out = []
    for c in sorted(cps):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


# ---- the Python model of the kernel ---------------------------------------------------

def decode(b):
    """Code points of b up to its first NUL; invalid UTF-8 to U+FFFD per maximal subpart."""
    b = b.split(b"\0", 1)[0]
    out, i = [], 0
    while i < len(b):
        c = b[i]
        if c < 0x80:
            out.append(c)
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            need, lo, hi, v = 1, 0x80, 0xBF, c & 0x1F
        elif 0xE0 <= c <= 0xEF:
            need, v = 2, c & 0x0F
            lo, hi = (0xA0, 0xBF) if c == 0xE0 else (0x80, 0x9F) if c == 0xED else (0x80, 0xBF)
        elif 0xF0 <= c <= 0xF4:
            need, v = 3, c & 0x07
            lo, hi = (0x90, 0xBF) if c == 0xF0 else (0x80, 0x8F) if c == 0xF4 else (0x80, 0xBF)
        else:
            out.append(0xFFFD)
            i += 1
            continue
        k = 1
        while k <= need and i + k < len(b) and lo <= b[i + k] <= hi:
            v = v << 6 | (b[i + k] & 0x3F)
            lo, hi = 0x80, 0xBF
            k += 1
        out.append(v if k > need else 0xFFFD)
        i += k
    return out


def expand(runs):
    """The runs as a dict code point -> lowercase code point."""
    return {c: c + d for f, l, d, st in runs for c in range(f, l + 1, st)}


def model(b, lmap, cased, ignorable):
    cps = decode(b)
    out, prev_cased = [], False
    for i, c in enumerate(cps):
        if c == SIGMA:
            j = i + 1
            while j < len(cps) and cps[j] in ignorable:
                j += 1
            out.append(FINAL if prev_cased and not (j < len(cps) and cps[j] in cased) else 0x3C3)
        elif c == 0x130:
            out += [0x69, 0x307]
        else:
            out.append(lmap.get(c, c))
        if c not in ignorable:
            prev_cased = c in cased
    return "".join(map(chr, out)).encode()


def check(runs, cased, ignorable):
    rnd = random.Random(33)
    pool = ["A", "z", "\u03a3", "\u03a3", "\u0391", " ", ".", "'", "\u0301", "\u00ad", "\u0130", "I",
            "\u10a0", "\u4e2d", "\U0001f600", "\u1e9e", "\u212a", "\u023a", "\u2c2f", "\u01c5", "\u0345"]
    raw = [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98",
           b"\x80", b"\0", b"\xe0\x80", b"\xef\xbf\xbf", b"\xf8\x88\x80\x80\x80"]
    tests = []
    for _ in range(20000):
        parts = [rnd.choice(pool).encode() if rnd.random() < 0.85 else rnd.choice(raw)
                 for _ in range(rnd.randint(0, 8))]
        tests.append(b"".join(parts))
    tests += [bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 12))) for _ in range(20000)]
    got, lmap = tf_lower(tests), expand(runs)
    bad = [(t, g, m) for t, g, m in ((t, g, model(t, lmap, cased, ignorable)) for t, g in zip(tests, got)) if g != m]
    for t, g, m in bad[:10]:
        print("differs: %r TF %r model %r" % (t, g, m), file=sys.stderr)
    return not bad


def c_array(name, rows, per_line):
    flat = [v for r in rows for v in r]
    lines = []
    for k in range(0, len(flat), per_line):
        lines.append("    " + ", ".join("0x%x" % v if v >= 0 else "-0x%x" % -v for v in flat[k:k + per_line]) + ",")
    return "const int32_t %s[] = {\n%s\n};\nconst int32_t %s_len = %d;\n" % (name, "\n".join(lines), name, len(flat))


def main():
    lower, cased, ignorable = measure()
    multi = {c: s for c, s in lower.items() if len(s) != 1}
    assert multi == {0x130: "i\u0307"}, multi
    runs = runs_of_map(lower)
    assert expand(runs) == {c: ord(s) for c, s in lower.items() if len(s) == 1 and ord(s) != c}
    if not check(runs, cased, ignorable):
        sys.exit("gen_unicode_lower: the model differs from TensorFlow")
    with open(OUT, "w") as f:
        f.write("/*\n** unicode_lower.c: StringLower's tables for encoding \"utf-8\" (TensorFlow %s's ICU),\n"
                "** written by scripts/gen_unicode_lower.py from TensorFlow's own results; do not edit.\n"
                "** sm2c_unicode_lower_map: runs (first, last, delta, stride): every stride-th code\n"
                "** point of [first, last] lowers to itself plus delta (U+0130, which lowers to two, is\n"
                "** the kernel's).  sm2c_unicode_cased, sm2c_unicode_case_ignorable: ranges (first,\n"
                "** last) of ICU's cased and case-ignorable code points (Final_Sigma's context).\n"
                "*/\n#include \"unicode_lower.h\"\n\n" % tf.__version__)
        f.write(c_array("sm2c_unicode_lower_map", runs, 8) + "\n")
        f.write(c_array("sm2c_unicode_cased", ranges_of(cased), 8) + "\n")
        f.write(c_array("sm2c_unicode_case_ignorable", ranges_of(ignorable), 8))
    print("%d runs, %d cased ranges, %d case-ignorable ranges" % (len(runs), len(ranges_of(cased)),
                                                                 len(ranges_of(ignorable))))


if __name__ == "__main__":
    main()
