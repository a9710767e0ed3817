#!/usr/bin/env python3
"""Seed inputs for the fuzz targets, cut from SavedModel directories.

usage: fuzz_seeds.py OUT_DIR MODEL_DIR|FILE.pbtxt...

Writes OUT_DIR/<target>/<model>-<n> in each target's input format (see the
comment at the top of fuzz/<target>.c).  Standard library only: protobuf
messages are cut out of the files with a tiny wire-format walker.
"""
import os
import struct
import sys


def fields(buf):
    """(field number, wire type, value) of one message; value is bytes for
    length-delimited fields.  Stops quietly at anything malformed."""
    i, n = 0, len(buf)
    while i < n:
        key, i = varint(buf, i)
        if key is None:
            return
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
            if v is None:
                return
        elif wt == 1:
            v, i = buf[i:i + 8], i + 8
        elif wt == 5:
            v, i = buf[i:i + 4], i + 4
        elif wt == 2:
            ln, i = varint(buf, i)
            if ln is None or i + ln > n:
                return
            v, i = buf[i:i + ln], i + ln
        else:
            return
        yield num, wt, v


def varint(buf, i):
    v = shift = 0
    while i < len(buf) and shift < 70:
        b = buf[i]
        i += 1
        v |= (b & 0x7f) << shift
        if not b & 0x80:
            return v, i
        shift += 7
    return None, i


def sub(buf, num):
    return [v for f, wt, v in fields(buf) if f == num and wt == 2]


def u32(n):
    return struct.pack('<I', n)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def tensors(graph):
    """TensorProtos of node attrs, in the graph and its library functions."""
    nodes = sub(graph, 1)
    for lib in sub(graph, 2):
        for fn in sub(lib, 1):
            nodes += sub(fn, 3)
    for node in nodes:
        for entry in sub(node, 5):
            for value in sub(entry, 2):
                yield from sub(value, 8)


def archive(model_dir):
    names = ['saved_model.pb', 'variables/variables.index',
             'variables/variables.data-00000-of-00001', 'saved_model.pbtxt',
             'variables/variables.data-00000-of-00002',
             'variables/variables.data-00001-of-00002', 'assets/vocab.txt', 'fingerprint.pb']
    out = b''
    for i, name in enumerate(names):
        path = os.path.join(model_dir, name)
        if os.path.isfile(path):
            data = read(path)
            out += bytes([i]) + u32(len(data)) + data
    return out


# fuzz_run_inputs' dtype bytes (the order of its table).
RUN_DTYPES = {'<f4': 0, '<f8': 1, '<i4': 2, '<i8': 3, '|u1': 4, '|i1': 5, '|b1': 6, '<i2': 7, '<u2': 8,
              '<u4': 9, '<u8': 10, '<f2': 11}


def npy_run_input(npy):
    """A fuzz_run_inputs input: one entry input "a" of the array's dtype and
    shape (when its header says them plainly), given as that .npy file."""
    head = npy[10:10 + (npy[8] | npy[9] << 8)].decode('latin-1') if len(npy) > 10 else ''
    dtype, shape = 0, []
    for d, k in RUN_DTYPES.items():
        if "'%s'" % d in head:
            dtype = k
    if "'shape': (" in head:
        dims = head.split("'shape': (")[1].split(')')[0]
        shape = [int(x) for x in dims.replace(' ', '').split(',') if x.isdigit()]
    if len(shape) > 3 or any(x > 4 for x in shape):
        shape = shape[:3]
    port = bytes([dtype, len(shape)] + [x % 5 for x in shape])
    return bytes([0]) + port + bytes([1, 0]) + u32(len(npy)) + npy


def run_input_literals():
    """fuzz_run_inputs inputs given as literals: (dtype byte, dims, text)."""
    cases = [(0, [2, 2], b'[[1, 2.5], [-3e-3, 4]]'), (3, [3], b'[1, -9223372036854775808, 7]'),
             (6, [2], b'[True, False]'), (10, [1], b'[18446744073709551615]'), (1, [], b'-0.0'),
             (0, [2, 0], b'[[], []]'), (2, [1, 3], b'[[1, 2, 3,]]'), (0, [1], b'[nan]')]
    for dtype, dims, text in cases:
        yield bytes([0, dtype, len(dims)] + dims + [1, 4]) + u32(len(text)) + text
    # two inputs, --max-batch 2, both batched and given 1 row
    text = b'[1]'
    yield bytes([1 + (2 << 2) + 1, 0, 1 | 4, 2, 0, 1 | 4, 2, 2]) + \
        bytes([4]) + u32(len(text)) + text + bytes([5]) + u32(len(text)) + text


def seeds(model_dir):
    """(target, bytes) pairs for one model directory (or one .pbtxt file)."""
    if os.path.isfile(model_dir):
        if model_dir.endswith('.pbtxt'):
            yield 'fuzz_pbtext', b'\0' + read(model_dir)
        if model_dir.endswith('.npy'):
            yield 'fuzz_npy', read(model_dir)
            yield 'fuzz_run_inputs', npy_run_input(read(model_dir))
        return
    pb = os.path.join(model_dir, 'saved_model.pb')
    pbtxt = os.path.join(model_dir, 'saved_model.pbtxt')
    index = os.path.join(model_dir, 'variables', 'variables.index')
    shard = os.path.join(model_dir, 'variables', 'variables.data-00000-of-00001')
    if os.path.isfile(index):
        yield 'fuzz_sstable', read(index)
        if os.path.isfile(shard):
            yield 'fuzz_checkpoint_pair', u32(os.path.getsize(index)) + read(index) + read(shard)
    if os.path.isfile(pbtxt):
        yield 'fuzz_pbtext', b'\0' + read(pbtxt)
    yield 'fuzz_dir_e2e', archive(model_dir)
    if not os.path.isfile(pb):
        return
    sm = read(pb)
    yield 'fuzz_savedmodel_raw', sm
    for mg in sub(sm, 2):
        for og in sub(mg, 7):
            yield 'fuzz_object_graph', u32(len(og)) + og
        for graph in sub(mg, 2):
            for t in tensors(graph):
                yield 'fuzz_tensorproto_decode', t
            for entry in sub(mg, 5):
                for sig in sub(entry, 2):
                    yield 'fuzz_function_library', u32(len(graph)) + graph + sig


def main():
    out, dirs = sys.argv[1], sys.argv[2:]
    count = {}
    os.makedirs(os.path.join(out, 'fuzz_run_inputs'), exist_ok=True)
    for n, data in enumerate(run_input_literals()):
        with open(os.path.join(out, 'fuzz_run_inputs', 'literal-%d' % n), 'wb') as f:
            f.write(data)
    for d in dirs:
        parts = os.path.normpath(d).split(os.sep)
        name = parts[-2] if parts[-1] == 'model' and len(parts) > 1 else parts[-1]
        name = name.replace('.pbtxt', '')
        seen = set()
        for target, data in seeds(d):
            if (target, data) in seen:
                continue
            seen.add((target, data))
            os.makedirs(os.path.join(out, target), exist_ok=True)
            n = count.get((target, name), 0)
            count[(target, name)] = n + 1
            with open(os.path.join(out, target, '%s-%d' % (name, n)), 'wb') as f:
                f.write(data)
    for target in sorted({t for t, _ in count}):
        print('%s: %d seeds' % (target, sum(v for (t, _), v in count.items() if t == target)))


if __name__ == '__main__':
    main()
