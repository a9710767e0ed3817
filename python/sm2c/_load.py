"""sm2c.load: a compiled shared object (sm2c compile --emit so) as a Python
object, driven through the metadata tables the generated code carries:

  NAME_signatures[k]   key, inputs and outputs (key, dtype, rank, dims, bytes), run
  NAME_batches[k]      (--max-batch) max_batch, which arguments are batched, run_batch
  NAME_state_table     (written variables) state and workspace sizes, init,
                       and each entry's _r variant on a caller's state

Each Model has its own state (stateful models), so two loaded instances are
two independent models.  Calls are serialised per process: entry points of a
model without state share one static arena.
"""
import ctypes
import os
import threading

import numpy as np

from ._compile import Sm2cError

# TensorFlow DataType -> numpy.  float16 and bfloat16 are 16-bit patterns in
# sm2c's ABI: float16 is numpy's float16; bfloat16 is passed as uint16 bits.
_DTYPES = {
    1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
    9: np.int64, 10: np.bool_, 14: np.uint16, 17: np.uint16, 19: np.float16,
    22: np.uint32, 23: np.uint64,
}
_ALIGN = 64
_LOCK = threading.Lock()

_RUN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_RUN_BATCH = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p),
                              ctypes.POINTER(ctypes.c_void_p))
_RUN_R = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_INIT = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_RESET = ctypes.CFUNCTYPE(None)


class _TensorInfo(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("dtype", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64)), ("size_bytes", ctypes.c_int64),
                ("dynamic_dim", ctypes.c_int32), ("scale", ctypes.c_float), ("zero_point", ctypes.c_int32)]


class _SignatureInfo(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("n_inputs", ctypes.c_int32), ("n_outputs", ctypes.c_int32),
                ("inputs", ctypes.POINTER(_TensorInfo)), ("outputs", ctypes.POINTER(_TensorInfo)),
                ("run", _RUN)]


class _BatchInfo(ctypes.Structure):
    _fields_ = [("max_batch", ctypes.c_int32), ("inputs_batched", ctypes.POINTER(ctypes.c_int32)),
                ("outputs_batched", ctypes.POINTER(ctypes.c_int32)), ("run_batch", _RUN_BATCH)]


class _VariableInfo(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("dtype", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64)), ("size_bytes", ctypes.c_int64),
                ("offset", ctypes.c_int64)]


class _StateInfo(ctypes.Structure):
    _fields_ = [("state_size", ctypes.c_int64), ("workspace_size", ctypes.c_int64),
                ("n_variables", ctypes.c_int32), ("variables", ctypes.POINTER(_VariableInfo)),
                ("init", _INIT), ("reset", _RESET), ("writes_state", ctypes.POINTER(ctypes.c_int32)),
                ("run_r", ctypes.POINTER(_RUN_R))]


class Port:
    """One input or output: key, numpy dtype, shape (at max_batch rows for a
    batched port) and batched (0, or k when the leading dim is k * batch)."""

    def __init__(self, info, batched):
        self.key = info.key.decode()
        if info.dtype not in _DTYPES:
            raise Sm2cError("sm2c.load: %s: dtype %d has no numpy equivalent" % (self.key, info.dtype))
        self.tf_dtype = info.dtype
        self.dtype = np.dtype(_DTYPES[info.dtype])
        self.shape = tuple(info.dims[i] for i in range(info.rank))
        self.batched = batched
        # -1, or the dim whose size depends on the data: shape holds its bound, and
        # the entry writes the actual size to an int64 count output after the outputs.
        self.dynamic_dim = info.dynamic_dim

    def shape_at(self, batch):
        if not self.batched:
            return self.shape
        return (self.batched * batch,) + self.shape[1:]

    def __repr__(self):
        return "Port(%r, %s, %s%s)" % (self.key, self.dtype, self.shape, ", batched" if self.batched else "")


def _aligned(nbytes):
    """A zeroed numpy byte buffer of nbytes whose data is 64-byte aligned."""
    raw = np.zeros(max(int(nbytes), 1) + _ALIGN, dtype=np.uint8)
    start = (-raw.ctypes.data) % _ALIGN
    return raw[start:start + max(int(nbytes), 1)]


def _pointers(arrays):
    return (ctypes.c_void_p * max(len(arrays), 1))(*[a.ctypes.data for a in arrays])


class Entry:
    """One signature or function of a loaded model; call it with numpy arrays
    by input key, get a dict of numpy arrays by output key."""

    def __init__(self, model, index, info, batch):
        self.model = model
        self.index = index
        self.key = info.key.decode()
        self.max_batch = batch.max_batch if batch else 0
        self.inputs = [Port(info.inputs[i], batch.inputs_batched[i] if self.max_batch else 0)
                       for i in range(info.n_inputs)]
        ports = [Port(info.outputs[i], batch.outputs_batched[i] if self.max_batch else 0)
                 for i in range(info.n_outputs)]
        # Outputs with a data-dependent dim have one int64 count each, after the outputs.
        n_counts = sum(1 for p in ports if p.dynamic_dim >= 0)
        self.outputs = ports[:len(ports) - n_counts]
        self._counts = ports[len(ports) - n_counts:]
        self._run = info.run
        self._run_batch = batch.run_batch if self.max_batch else None
        self._keys = [p.key for p in self.inputs]
        self._out_keys = [p.key for p in self.outputs]

    def __repr__(self):
        return "<sm2c entry %r: inputs %r, outputs %r%s>" % (
            self.key, self.inputs, self.outputs, ", max_batch %d" % self.max_batch if self.max_batch else "")

    def _where(self):
        return "%s.%s" % (self.model.name, self.key)

    def _batch_of(self, arrays):
        """The row count of the batched inputs, checked against max_batch."""
        batch = None
        for port, a in zip(self.inputs, arrays):
            if not port.batched:
                continue
            if a.ndim != len(port.shape) or a.shape[0] % port.batched:
                raise ValueError("%s: input '%s': shape %s, expected (batch%s, %s)" % (
                    self._where(), port.key, a.shape, " * %d" % port.batched if port.batched > 1 else "",
                    ", ".join(map(str, port.shape[1:]))))
            rows = a.shape[0] // port.batched
            if batch is not None and rows != batch:
                raise ValueError("%s: input '%s' has %d rows, another input %d" % (self._where(), port.key,
                                                                                   rows, batch))
            batch = rows
        if batch is None:
            return None
        if not 1 <= batch <= self.max_batch:
            raise ValueError("%s: batch of %d rows; this entry takes 1 to %d (sm2c --max-batch)" % (
                self._where(), batch, self.max_batch))
        return batch

    def _check(self, port, a, batch):
        if a.dtype != port.dtype:
            raise TypeError("%s: input '%s': dtype %s, expected %s" % (self._where(), port.key, a.dtype,
                                                                      port.dtype))
        want = port.shape_at(batch)
        if a.shape != want:
            raise ValueError("%s: input '%s': shape %s, expected %s" % (self._where(), port.key, a.shape,
                                                                       want))

    def _arrays(self, inputs):
        """The input arrays in port order, each C-contiguous (a copy only when needed)."""
        keys = self._keys
        if len(inputs) != len(keys) or not all(k in inputs for k in keys):
            missing = [k for k in keys if k not in inputs]
            unknown = [k for k in inputs if k not in keys]
            raise TypeError("%s: %s%s; inputs are %s" % (
                self._where(), "missing input(s) %s" % ", ".join(map(repr, missing)) if missing else "",
                "%sunknown input(s) %s" % ("; " if missing else "", ", ".join(map(repr, unknown)))
                if unknown else "", ", ".join(map(repr, keys)) or "none"))
        return [np.asarray(inputs[k], order="C") for k in keys]

    def _checked(self, arrays):
        """The batch (None when not batched) once every array fits its port."""
        batch = self._batch_of(arrays) if self.max_batch else None
        for port, a in zip(self.inputs, arrays):
            self._check(port, a, batch)
        return batch

    def _raise(self, rc):
        what = {-1: "an index input is out of range", -2: "an input value has no defined result",
                -3: "batch out of range", -4: "a loop ran more times than its cap",
                -5: "a NaN or an infinity reached CheckNumerics", -6: "an Assert failed",
                -7: "a serialized tf.Example is malformed"}.get(rc, "error")
        raise Sm2cError("%s: the entry point returned %d (%s)" % (self._where(), rc, what), rc)

    def _cut(self, outs, counts):
        """Outputs with a data-dependent dim, cut to their count."""
        counts = iter(counts)
        return [a[(slice(None),) * p.dynamic_dim + (slice(0, int(next(counts))),)] if p.dynamic_dim >= 0 else a
                for p, a in zip(self.outputs, outs)]

    def __call__(self, **inputs):
        arrays = self._arrays(inputs)
        batch = self._checked(arrays)
        outs = [np.empty(p.shape_at(batch), dtype=p.dtype) for p in self.outputs]
        counts = [np.zeros((), dtype=np.int64) for _ in self._counts]
        rc = self.model._call(self, batch, _pointers(arrays), _pointers(outs + counts))
        if rc != 0:
            self._raise(rc)
        if counts:
            outs = self._cut(outs, counts)
        return dict(zip(self._out_keys, outs))

    def bind(self, **inputs):
        """A zero-argument callable that runs this entry on these arrays and
        returns the same output dict every time: every check and allocation
        happens here, once.  The arrays are used in place, not copied: write
        new values into them between calls.  They must be C-contiguous with
        the port's exact dtype and shape.  Outputs with a data-dependent dim
        are cut to their count at each call."""
        for k, a in inputs.items():
            if not isinstance(a, np.ndarray) or not a.flags.c_contiguous:
                raise TypeError("%s.bind: input '%s' must be a C-contiguous numpy array (it is used in "
                                "place; np.ascontiguousarray makes one)" % (self._where(), k))
        arrays = self._arrays(inputs)
        batch = self._checked(arrays)
        return Bound(self, arrays, batch)


class Bound:
    """An entry bound to its input arrays (Entry.bind): call it with no
    arguments; `outputs` is the dict it returns, its arrays reused."""

    def __init__(self, entry, arrays, batch):
        self.entry = entry
        self.inputs = dict(zip(entry._keys, arrays))
        outs = [np.empty(p.shape_at(batch), dtype=p.dtype) for p in entry.outputs]
        self._counts = [np.zeros((), dtype=np.int64) for _ in entry._counts]
        self._outs = outs
        self.outputs = dict(zip(entry._out_keys, outs))
        # the arrays stay referenced here, so their pointers stay valid
        self._keep = (arrays, outs, self._counts)
        self._fn, self._args = entry.model._caller(entry, batch, _pointers(arrays),
                                                   _pointers(outs + self._counts))

    def __call__(self):
        with _LOCK:
            rc = self._fn(*self._args)
        if rc != 0:
            self.entry._raise(rc)
        if self._counts:
            return dict(zip(self.entry._out_keys, self.entry._cut(self._outs, self._counts)))
        return self.outputs


class Model:
    """A compiled model loaded from its shared object.  One attribute per
    signature or function key that is a Python identifier (all of them through
    model[key] and model.entries); for models with state, init()/reset() put
    this instance's variables back to the checkpoint values."""

    def __init__(self, path, name=None):
        self.path = os.path.abspath(os.fspath(path))
        self.name = name or os.path.splitext(os.path.basename(self.path))[0]
        try:
            self._lib = ctypes.CDLL(self.path)
        except OSError as e:
            raise Sm2cError("sm2c.load: %s: cannot open: %s" % (path, e)) from None
        try:
            n = ctypes.c_int32.in_dll(self._lib, self.name + "_n_signatures").value
            sigs = (_SignatureInfo * n).in_dll(self._lib, self.name + "_signatures")
        except ValueError:
            raise Sm2cError("sm2c.load: %s: no %s_signatures table: not an sm2c shared object, or its "
                            "--name differs (pass name=)" % (path, self.name)) from None
        batches = self._optional(_BatchInfo * n, "_batches")
        self._state_info = self._optional(_StateInfo, "_state_table")
        self.entries = {}
        for k in range(n):
            entry = Entry(self, k, sigs[k], batches[k] if batches is not None else None)
            self.entries[entry.key] = entry
        self._state = self._workspace = None
        if self._state_info is not None:
            self._state = _aligned(self._state_info.state_size)
            self._workspace = _aligned(self._state_info.workspace_size)
            self.init()

    def _optional(self, ctype, suffix):
        try:
            return ctype.in_dll(self._lib, self.name + suffix)
        except ValueError:
            return None

    def __getattr__(self, key):
        entries = self.__dict__.get("entries", {})
        if key in entries:
            return entries[key]
        raise AttributeError("%s has no signature or function %r (it has %s)" % (
            self.__dict__.get("name", "model"), key, ", ".join(map(repr, entries))))

    def __getitem__(self, key):
        try:
            return self.entries[key]
        except KeyError:
            raise KeyError("%s has no signature or function %r (it has %s)" % (
                self.name, key, ", ".join(map(repr, self.entries)))) from None

    def __dir__(self):
        return list(super().__dir__()) + [k for k in self.entries if k.isidentifier()]

    def __repr__(self):
        return "<sm2c model %s from %s: %s>" % (self.name, self.path, ", ".join(self.entries))

    @property
    def stateful(self):
        return self._state_info is not None

    def variables(self):
        """This instance's written variables: checkpoint key -> a copy of the value."""
        if not self.stateful:
            return {}
        out = {}
        si = self._state_info
        for i in range(si.n_variables):
            v = si.variables[i]
            dims = tuple(v.dims[j] for j in range(v.rank))
            raw = self._state[v.offset:v.offset + v.size_bytes]
            out[v.key.decode()] = raw.view(_DTYPES[v.dtype]).reshape(dims).copy()
        return out

    def init(self):
        """Puts this instance's state at the checkpoint values."""
        if not self.stateful:
            raise Sm2cError("%s: the model has no state (no signature writes a variable)" % self.name)
        self._state_info.init(self._state.ctypes.data)

    reset = init

    def _caller(self, entry, batch, ins, outs):
        """The C function that runs entry, and its arguments."""
        if self.stateful:
            return self._state_info.run_r[entry.index], (self._state.ctypes.data, self._workspace.ctypes.data,
                                                         ins, outs)
        if batch is not None:
            return entry._run_batch, (batch, ins, outs)
        return entry._run, (ins, outs)

    def _call(self, entry, batch, ins, outs):
        fn, args = self._caller(entry, batch, ins, outs)
        with _LOCK:
            return fn(*args)


def load(path, name=None):
    """Opens a shared object written by `sm2c compile --emit so` (or
    sm2c.compile(..., emit='so')).  name is the --name it was compiled with;
    by default the file's base name."""
    return Model(path, name)
