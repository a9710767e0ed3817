#!/usr/bin/env python3
"""Write the .npy files that tests/unit/test_npy.c reads, with numpy itself.

Run with the project venv (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_npy.py [OUT_DIR]

OUT_DIR defaults to tests/data/npy.  Every file is written by np.save (format
1.0) except v2_*.npy and v3_*.npy, written with numpy.lib.format's
write_array(version=(2, 0)/(3, 0)).  Values are simple functions of the index
so that the C test can recompute them:

    <dtype>.npy     shape (2, 3), element i = i + 1 (bool: i % 2), for every dtype
                    sm2c reads (f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1)
    neg_i8.npy      int64 [-3, -2, ..., 2] (shape (6,))
    scalar.npy      float32 scalar 2.5, shape ()
    empty.npy       float32 shape (0,)
    empty_2d.npy    int32 shape (3, 0)
    cube.npy        float32 shape (2, 3, 4), element i = i * 0.5
    vec.npy         float32 shape (5,), element i = i - 2
    v2_cube.npy     cube.npy as format 2.0
    v3_vec.npy      vec.npy as format 3.0
    fortran.npy     float32 (2, 3) in Fortran order (refused)
    big_endian.npy  >f4 (2, 3) (refused)
    object.npy      an object array of an int, a str and None (refused)
    bytes_s.npy     bytes 'S4' shape (3,): b"ab", b"", b"wxyz" (numpy pads with NULs)
    object_bytes.npy     object array of bytes (2, 2): b"a", b"a\0", b"", b"a" (pickle
                    protocol 4, b"a" memoized: a memo reference)
    object_bytes_p3.npy  the same with pickle protocol 3 (older numpy)
    object_global.npy    a hand-made pickle naming os.system (refused, never run)
    record.npy      a structured dtype (refused)
"""
import os
import pickle
import sys

import numpy as np
from numpy.lib import format as npf

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "data", "npy")

DTYPES = ["f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "b1"]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        if old.endswith(".npy"):
            os.remove(os.path.join(out, old))

    def save(name, arr):
        np.save(os.path.join(out, name), arr, allow_pickle=True)

    for d in DTYPES:
        idx = np.arange(6)
        a = (idx % 2).astype(bool) if d == "b1" else (idx + 1).astype(d)
        save(d + ".npy", a.reshape(2, 3))
    save("neg_i8.npy", np.arange(-3, 3, dtype=np.int64))
    save("scalar.npy", np.array(2.5, dtype=np.float32))
    save("empty.npy", np.zeros((0,), dtype=np.float32))
    save("empty_2d.npy", np.zeros((3, 0), dtype=np.int32))
    cube = (np.arange(24, dtype=np.float32) * 0.5).reshape(2, 3, 4)
    save("cube.npy", cube)
    vec = np.arange(5, dtype=np.float32) - 2
    save("vec.npy", vec)
    with open(os.path.join(out, "v2_cube.npy"), "wb") as f:
        npf.write_array(f, cube, version=(2, 0))
    with open(os.path.join(out, "v3_vec.npy"), "wb") as f:
        npf.write_array(f, vec, version=(3, 0))
    save("fortran.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
    save("big_endian.npy", np.arange(6, dtype=">f4").reshape(2, 3))
    save("object.npy", np.array([1, "a", None], dtype=object))
    save("record.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
    save("bytes_s.npy", np.array([b"ab", b"", b"wxyz"], dtype="S4"))
    ob = np.array([b"a", b"a\0", b"", b"a"], dtype=object).reshape(2, 2)
    save("object_bytes.npy", ob)
    with open(os.path.join(out, "object_bytes_p3.npy"), "wb") as f:
        npf.write_array_header_1_0(f, npf.header_data_from_array_1_0(ob))
        pickle.dump(ob, f, protocol=3)
    with open(os.path.join(out, "object_global.npy"), "wb") as f:
        npf.write_array_header_1_0(f, npf.header_data_from_array_1_0(np.array([b"x"], dtype=object)))
        f.write(b"\x80\x03cos\nsystem\nq\x00X\x04\x00\x00\x00trueq\x01\x85q\x02Rq\x03.")

    # Check the claims above.
    for name, version in [("v2_cube.npy", (2, 0)), ("v3_vec.npy", (3, 0)), ("cube.npy", (1, 0))]:
        with open(os.path.join(out, name), "rb") as f:
            assert npf.read_magic(f) == version, name
    assert (np.load(os.path.join(out, "v2_cube.npy")) == cube).all()
    for name in ("object_bytes.npy", "object_bytes_p3.npy"):
        assert (np.load(os.path.join(out, name), allow_pickle=True) == ob).all(), name


if __name__ == "__main__":
    main()
