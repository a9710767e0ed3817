"""Conformance cases for ops on string tensors (issue 17): StringToHashBucketFast
(tf.strings.to_hash_bucket_fast, farmhash Fingerprint64 modulo num_buckets, as
TFX and Estimator categorical columns hash), on a string input: lengths 0 to
200 (every farmhash branch: 0, 1-3, 4-7, 8-16, 17-32, 33-64 and the 64-byte
loop with each tail), bytes 0x01-0xff, and a bucket count of 2**62 so the
hash's high bits show.  No string ends in a NUL byte ('S' arrays drop them).
"""
from opcase import EXACT, np, rng_for, tf


def strings(rng):
    out = []
    for n in list(range(0, 70)) + [127, 128, 129, 130, 191, 192, 193, 200]:
        s = bytes(int(v) for v in rng.integers(1, 256, n))
        out.append(s)
    return np.array(out, dtype="S")


def cases():
    name = "StringToHashBucketFast"
    x = strings(rng_for(name))
    feeds = {"serving_default": {"x": x}, "wide": {"x": x[::-1].copy()}}
    fns = {"serving_default": lambda x: tf.strings.to_hash_bucket_fast(x, 1000),
           "wide": lambda x: tf.strings.to_hash_bucket_fast(x, 2 ** 62)}
    yield (name, None, feeds, EXACT,
           "StringToHashBucketFast of strings of 0 to 200 random bytes (every farmhash "
           "Fingerprint64 branch), into 1000 and 2**62 buckets", {"fns": fns})
