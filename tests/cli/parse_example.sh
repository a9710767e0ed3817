#!/usr/bin/env bash
# tf.Example signatures end to end (tests/data/ops/ParseExampleV2_open_batch, made
# by tests/models/ops_parse.py with TensorFlow): with --max-batch through both
# backends the outputs equal TensorFlow's byte for byte; an object array of
# bytes reads like the 'S' array; a truncated proto, a required feature
# missing and a feature of the wrong kind make the entry point return -7
# (SM2C_RT_ERR_EXAMPLE), which sm2c run reports.  Sparse features
# (tests/data/ops/ParseExampleV2_sparse): at --limit sparse-values=4 (the most
# values an example there has) the outputs equal TensorFlow's; at 3, or with a
# sparse feature of the wrong kind or a truncated proto, the entry returns -7.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
case=$root/tests/data/ops/ParseExampleV2_open_batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

for emit in c obj; do
  out=$tmp/out_$emit
  if ! "$sm2c" run "$case/model" --signature serving_default --max-batch 8 --emit $emit \
       --input ex="$case/inputs/serving_default/ex.npy" --outdir "$out" 2>"$tmp/err"; then
    cat "$tmp/err"; no "--max-batch 8 --emit $emit"
    continue
  fi
  for k in k r y; do
    cmp -s "$out/$k.npy" "$case/expected/serving_default/$k.npy" || no "--emit $emit: $k.npy differs from TensorFlow's"
  done
done

# Bad protos (python3 standard library: .npy 'S' arrays and a pickled object array).
python3 - "$tmp" <<'EOF'
import pickle, struct, sys
tmp = sys.argv[1]
def varint(v):
    o = b""
    while True:
        b, v = v & 0x7F, v >> 7
        if v:
            o += bytes([b | 0x80])
        else:
            return o + bytes([b])
def ld(f, p):
    return varint(f << 3 | 2) + varint(len(p)) + p
def floats(*v):
    return ld(2, ld(1, b"".join(struct.pack("<f", x) for x in v)))
def ints(*v):
    return ld(3, ld(1, b"".join(varint(x) for x in v)))
def example(**feats):
    return ld(1, b"".join(ld(1, ld(1, k.encode()) + ld(2, f)) for k, f in sorted(feats.items())))
def npy(name, values, dtype="S"):
    if dtype == "S":
        w = max(len(v) for v in values)
        descr, data = "|S%d" % w, b"".join(v.ljust(w, b"\0") for v in values)
    else:
        descr = "|O"
        # what np.save writes for np.array(values, dtype=object), protocol 3
        data = (b"\x80\x03cnumpy.core.multiarray\n_reconstruct\nq\x00cnumpy\nndarray\nq\x01K\x00\x85q\x02"
                b"C\x01bq\x03\x87q\x04Rq\x05(K\x01K%c\x85q\x06cnumpy\ndtype\nq\x07X\x02\x00\x00\x00O8q\x08"
                b"\x89\x88\x87q\tRq\n(K\x03X\x01\x00\x00\x00|q\x0bNNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK?tq\x0c"
                b"b\x89]q\r(" % len(values))
        for i, v in enumerate(values):
            data += b"C" + bytes([len(v)]) + v + b"q" + bytes([14 + i])
        data += b"etq%cb." % (14 + len(values))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(values))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open("%s/%s.npy" % (tmp, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)
good = example(x=floats(1.5, 2.5), r=ints(3))
npy("good_obj", [good, good + b""], dtype="O")
npy("truncated", [good, good[:-3]])
npy("missing", [example(r=ints(3))])
npy("wrong_kind", [example(x=ints(1, 2))])
# ParseExampleV2_sparse declares 5 examples (sm2c run refuses another count):
# four good ones, then the bad one.
sparse_good = [example(x=floats(1.0), t=ints(1, 2))] * 4
npy("sparse_wrong_kind", sparse_good + [example(x=floats(1.0), t=floats(2.0))])
npy("sparse_truncated", sparse_good + [example(x=floats(1.0), t=ints(1, 2))[:-1]])
EOF

for emit in c obj; do
  if ! "$sm2c" run "$case/model" --signature serving_default --emit $emit --input ex="$tmp/good_obj.npy" \
       --outdir "$tmp/obj_$emit" 2>"$tmp/err"; then
    cat "$tmp/err"; no "object array --emit $emit"
  fi
  for bad in truncated missing wrong_kind; do
    if "$sm2c" run "$case/model" --signature serving_default --emit $emit --input ex="$tmp/$bad.npy" \
         --outdir "$tmp/bad" 2>"$tmp/err"; then
      no "$bad --emit $emit: ran"
    elif ! grep -q "entry returned -7" "$tmp/err"; then
      cat "$tmp/err"; no "$bad --emit $emit: not -7"
    fi
  done
done
sparse=$root/tests/data/ops/ParseExampleV2_sparse
for emit in c obj; do
  out=$tmp/sparse_$emit
  if ! "$sm2c" run "$sparse/model" --signature serving_default --limit sparse-values=4 --emit $emit \
       --input ex="$sparse/inputs/serving_default/ex.npy" --outdir "$out" 2>"$tmp/err"; then
    cat "$tmp/err"; no "sparse --emit $emit"
  else
    for f in "$sparse"/expected/serving_default/*.npy; do
      cmp -s "$out/$(basename "$f")" "$f" || no "sparse --emit $emit: $(basename "$f") differs from TensorFlow's"
    done
  fi
  for bad in over_bound sparse_wrong_kind sparse_truncated; do
    input=$tmp/$bad.npy limit=4
    [ $bad = over_bound ] && input=$sparse/inputs/serving_default/ex.npy limit=3
    if "$sm2c" run "$sparse/model" --signature serving_default --limit sparse-values=$limit --emit $emit \
         --input ex="$input" --outdir "$tmp/bad" 2>"$tmp/err"; then
      no "$bad --emit $emit: ran"
    elif ! grep -q "entry returned -7" "$tmp/err"; then
      cat "$tmp/err"; no "$bad --emit $emit: not -7"
    fi
  done
done
[ $fail = 0 ] && echo "parse_example: ok"
exit $fail
