"""sm2c.load: a compiled shared object (sm2c compile --emit so) as a Python
object, driven through the metadata tables the generated code carries:

  NAME_signatures[k]   key, inputs and outputs (key, dtype, rank, dims, bytes), run
  NAME_batches[k]      (--max-batch) max_batch, which arguments are batched, run_batch
  NAME_state_table     (written variables) state and workspace sizes, init,
                       and each entry's _r variant on a caller's state
  NAME_ctx_table       (issue 29) the context: its size, the workspace's size
                       and alignment, where sm2c_rt_par sits, init, reset, and
                       each entry's _ctx variant (run, run_batch)

With NAME_ctx_table, every Python thread calls a stateless model on a context
of its own (its own workspace, and its own pthread pool when threads > 1), so
calls from different threads run at once: ctypes releases the GIL during the
foreign call.  A stateful model has one set of variables, as in TensorFlow:
one context per Model, its calls serialised by a lock.  A Bound (Entry.bind)
of a stateless model has a context of its own.  Without NAME_ctx_table (an
older shared object), stateless calls share the static arena and are
serialised per process, as before.

Each Model has its own state (stateful models), so two loaded instances are
two independent models.
"""
import ctypes
import numbers
import os
import threading
import weakref

import numpy as np

from ._compile import Sm2cError

# TensorFlow DataType -> numpy.  float16 and bfloat16 are 16-bit patterns in
# sm2c's ABI: float16 is numpy's float16; bfloat16 is passed as uint16 bits.
_DTYPES = {
    1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
    9: np.int64, 10: np.bool_, 14: np.uint16, 17: np.uint16, 19: np.float16,
    22: np.uint32, 23: np.uint64,
}
_STRING = 7   # DT_STRING: sm2c_string {const uint8_t *data; int64_t len;} elements
_ALIGN = 64
_LOCK = threading.Lock()

_RUN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_RUN_BATCH = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p),
                              ctypes.POINTER(ctypes.c_void_p))
_RUN_R = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))
_INIT = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_RESET = ctypes.CFUNCTYPE(None)
# NAME_ctx_info's functions: the context comes first, as a void *.
_CTX_INIT = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
_CTX_RESET = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_CTX_RUN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                            ctypes.POINTER(ctypes.c_void_p))
_CTX_RUN_BATCH = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32,
                                  ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))


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


class _CtxInfo(ctypes.Structure):
    """NAME_ctx_info (docs: the context ABI of issue 29)."""
    _fields_ = [("ctx_size", ctypes.c_int64), ("workspace_size", ctypes.c_int64),
                ("workspace_align", ctypes.c_int64), ("par_offset", ctypes.c_int64),
                ("state_offset", ctypes.c_int64), ("init", _CTX_INIT), ("reset", _CTX_RESET),
                ("run", ctypes.POINTER(_CTX_RUN)), ("run_batch", ctypes.POINTER(_CTX_RUN_BATCH))]


class _Par(ctypes.Structure):
    """sm2c_rt_par, inside a context at par_offset."""
    _fields_ = [("parallel_for", ctypes.c_void_p), ("pool", ctypes.c_void_p), ("threads", ctypes.c_int32)]


class Port:
    """One input or output: key, numpy dtype, shape (at max_batch rows for a
    batched port) and batched (0, or k when the leading dim is k * batch)."""

    def __init__(self, info, batched):
        self.key = info.key.decode()
        if info.dtype not in _DTYPES and info.dtype != _STRING:
            raise Sm2cError("sm2c.load: %s: dtype %d has no numpy equivalent" % (self.key, info.dtype))
        self.tf_dtype = info.dtype
        # strings: numpy bytes ('S') arrays, passed as sm2c_string elements
        self.dtype = np.dtype("S") if info.dtype == _STRING else np.dtype(_DTYPES[info.dtype])
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


def _aligned(nbytes, align=_ALIGN):
    """A zeroed numpy byte buffer of nbytes whose data is align-byte aligned
    (the slice keeps the over-allocated array alive)."""
    align = max(int(align), _ALIGN)
    raw = np.zeros(max(int(nbytes), 1) + align, dtype=np.uint8)
    start = (-raw.ctypes.data) % align
    return raw[start:start + max(int(nbytes), 1)]


def _release(par, destroy, pool):
    """A context's pool, destroyed once: its par first goes back to one thread,
    so a context that outlives its pool (Model.close) runs single-threaded."""
    par.parallel_for = None
    par.pool = None
    par.threads = 0
    destroy(pool)


class _Context:
    """One NAME_ctx: its bytes, its workspace, its pool (threads > 1 when the
    shared object has the runtime's pthread pool) and, per entry, the pointer
    arrays of the ordinary call."""

    __slots__ = ("buf", "workspace", "ptr", "finalizer", "args", "__weakref__")

    def __init__(self, model):
        info = model._ctx_info
        self.buf = _aligned(info.ctx_size)
        self.workspace = _aligned(info.workspace_size, info.workspace_align)
        addr = self.buf.ctypes.data
        self.ptr = ctypes.c_void_p(addr)
        self.args = {}
        self.finalizer = None
        info.init(addr, self.workspace.ctypes.data)
        if model.threads > 1 and model._pool is not None:
            create, parallel_for, destroy = model._pool
            pool = create(model.threads)
            if not pool:
                raise Sm2cError("%s: cannot start a pool of %d threads (sm2c_rt_pool_create)" % (
                    model.name, model.threads))
            par = _Par.from_buffer(self.buf, int(info.par_offset))
            par.parallel_for = parallel_for
            par.pool = pool
            par.threads = model.threads
            self.finalizer = model._track(weakref.finalize(self, _release, par, destroy, pool))

    def pointers(self, entry):
        """This context's input and output pointer arrays for entry."""
        p = self.args.get(entry.index)
        if p is None:
            p = self.args[entry.index] = (
                (ctypes.c_void_p * max(len(entry.inputs), 1))(),
                (ctypes.c_void_p * max(len(entry.outputs) + len(entry._counts), 1))())
        return p


_char_at = ctypes.c_char.from_buffer
_addressof = ctypes.addressof


def _address(a):
    """The address of a C-contiguous array's data: through the buffer
    protocol (a fifth of a.ctypes.data's cost), or a.ctypes.data for what
    cannot export a writable buffer (read-only arrays, no elements)."""
    try:
        return _addressof(_char_at(a))
    except (TypeError, ValueError, BufferError):
        return a.ctypes.data


def _string_table(a):
    """A numpy bytes array as sm2c_string elements: an int64 [n, 2] table of
    (address, length) into one bytes buffer, returned with it (keep both alive
    for the call).  'S' arrays drop trailing NUL bytes, as numpy stores them."""
    items = [bytes(x) for x in a.reshape(-1)]
    blob = np.frombuffer(b"".join(items) + b"\0", dtype=np.uint8)
    table = np.zeros((len(items), 2), dtype=np.int64)
    base, at = blob.ctypes.data, 0
    for i, item in enumerate(items):
        table[i] = (base + at, len(item))
        at += len(item)
    return table, blob


def _strings_out(table, shape):
    """An entry's sm2c_string output table as a numpy bytes array (copied now:
    the elements point into the model's memory until its next call)."""
    flat = table.reshape(-1, 2)
    items = [ctypes.string_at(int(p), int(n)) if n > 0 else b"" for p, n in flat]
    return np.array(items, dtype="S").reshape(shape) if items else np.zeros(shape, dtype="S1")


def _pointers(arrays):
    return (ctypes.c_void_p * max(len(arrays), 1))(*[_address(a) for a in arrays])


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
        ctx = model._ctx_info
        self._ctx_run = ctx.run[index] if ctx is not None else None
        self._ctx_run_batch = ctx.run_batch[index] if ctx is not None and ctx.run_batch else None
        if self._ctx_run_batch is not None and not self._ctx_run_batch:
            self._ctx_run_batch = None      # a NULL entry: an unbatched signature
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
        if port.tf_dtype == _STRING:
            if a.dtype.kind not in "SO":
                raise TypeError("%s: input '%s': dtype %s, expected numpy bytes (dtype 'S')" % (
                    self._where(), port.key, a.dtype))
        elif a.dtype != port.dtype:
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
                -7: "a serialized tf.Example is malformed",
                -8: "a string is longer than --limit string-bytes"}.get(rc, "error")
        raise Sm2cError("%s: the entry point returned %d (%s)" % (self._where(), rc, what), rc)

    def _cut(self, outs, counts):
        """Outputs with a data-dependent dim, cut to their count."""
        counts = iter(counts)
        return [a[(slice(None),) * p.dynamic_dim + (slice(0, int(next(counts))),)] if p.dynamic_dim >= 0 else a
                for p, a in zip(self.outputs, outs)]

    def __call__(self, **inputs):
        arrays = self._arrays(inputs)
        batch = self._checked(arrays)
        if self._strings:
            return self._call_strings(arrays, batch)
        outs = [np.empty(p.shape_at(batch), dtype=p.dtype) for p in self.outputs]
        if self._counts:
            counts = [np.zeros((), dtype=np.int64) for _ in self._counts]
            rc = self.model._call(self, batch, arrays, outs + counts)
            if rc != 0:
                self._raise(rc)
            outs = self._cut(outs, counts)
        else:
            rc = self.model._call(self, batch, arrays, outs)
            if rc != 0:
                self._raise(rc)
        return dict(zip(self._out_keys, outs))

    @property
    def _strings(self):
        return any(p.tf_dtype == _STRING for p in self.inputs + self.outputs)

    def _call_strings(self, arrays, batch):
        """__call__ of an entry with string inputs or outputs: each as a table
        of sm2c_string elements, the outputs back as numpy bytes arrays."""
        keep = []
        ins = []
        for p, a in zip(self.inputs, arrays):
            if p.tf_dtype == _STRING:
                table, blob = _string_table(a)
                keep.append(blob)
                a = table
            ins.append(a)
        outs = [np.zeros(p.shape_at(batch) + (2,), dtype=np.int64) if p.tf_dtype == _STRING
                else np.empty(p.shape_at(batch), dtype=p.dtype) for p in self.outputs]
        counts = [np.zeros((), dtype=np.int64) for _ in self._counts]
        rc = self.model._call(self, batch, ins, outs + counts)
        if rc != 0:
            self._raise(rc)
        outs = [_strings_out(o, p.shape_at(batch)) if p.tf_dtype == _STRING else o
                for p, o in zip(self.outputs, outs)]
        if counts:
            outs = self._cut(outs, counts)
        return dict(zip(self._out_keys, outs))

    def bind(self, **inputs):
        """A zero-argument callable that runs this entry on these arrays and
        returns the same output dict every time: every check and allocation
        happens here, once.  The arrays are used in place, not copied: write
        new values into them between calls.  They must be C-contiguous with
        the port's exact dtype and shape.  Outputs with a data-dependent dim
        are cut to their count at each call.

        A Bound of a stateless model has a context of its own (workspace, and
        pool when the model was loaded with threads > 1), so it may be called
        from any thread, at the same time as other calls of the model; not at
        the same time as itself (one Bound per thread).  A Bound of a stateful
        model runs on the model's one state, under its lock."""
        if self._strings:
            raise TypeError("%s.bind: an entry with string inputs or outputs is not bound (its strings are "
                            "copied at each call): call it instead" % self._where())
        for k, a in inputs.items():
            if not isinstance(a, np.ndarray) or not a.flags.c_contiguous:
                raise TypeError("%s.bind: input '%s' must be a C-contiguous numpy array (it is used in "
                                "place; np.ascontiguousarray makes one)" % (self._where(), k))
        arrays = self._arrays(inputs)
        batch = self._checked(arrays)
        self.model._check_open()
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
        self._model = entry.model
        # the arrays (and the context) stay referenced here, so their pointers stay valid
        self._keep = (arrays, outs, self._counts)
        self._fn, self._args, self._lock, self._ctx = entry.model._caller(
            entry, batch, _pointers(arrays), _pointers(outs + self._counts))

    def __call__(self):
        if self._model._closed:
            self._model._check_open()
        lock = self._lock
        if lock is None:
            rc = self._fn(*self._args)
        else:
            with lock:
                rc = self._fn(*self._args)
        if rc != 0:
            self.entry._raise(rc)
        if self._counts:
            return dict(zip(self.entry._out_keys, self.entry._cut(self._outs, self._counts)))
        return self.outputs


def _threads(threads):
    if threads is None:
        return 1
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError("sm2c.load: threads must be an int >= 1 (or None for 1), not %r" % (threads,))
    if threads < 1:
        raise ValueError("sm2c.load: threads must be an int >= 1 (or None for 1), not %d" % threads)
    return int(threads)


class Model:
    """A compiled model loaded from its shared object.  One attribute per
    signature or function key that is a Python identifier (all of them through
    model[key] and model.entries); for models with state, init()/reset() put
    this instance's variables back to the checkpoint values.

    threads: the most threads one call uses (None: 1).  With threads > 1 each
    context gets a pthread pool of that many threads (the caller's included)
    when the shared object has the runtime's pool, that is when the compiler
    split some step; otherwise calls run on the calling thread.  Results are
    bit-identical for every thread count.  close() (or the end of a with
    block, or garbage collection) stops the pools."""

    def __init__(self, path, name=None, threads=None):
        self.threads = _threads(threads)
        self.path = os.path.abspath(os.fspath(path))
        self.name = name or os.path.splitext(os.path.basename(self.path))[0]
        self._closed = False
        self._finalizers = set()
        self._guard = threading.Lock()     # the finalizer registry
        _check_shared_object(path, self.path)
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
        self._ctx_info = self._optional(_CtxInfo, "_ctx_table")
        if self._ctx_info is None and self.threads > 1:
            raise Sm2cError("sm2c.load: %s: threads=%d needs contexts (no %s_ctx_table: the shared "
                            "object predates them; compile it again)" % (path, self.threads, self.name))
        self._pool = self._pool_functions() if self.threads > 1 else None
        self.entries = {}
        for k in range(n):
            entry = Entry(self, k, sigs[k], batches[k] if batches is not None else None)
            self.entries[entry.key] = entry
        self._state = self._workspace = self._shared = self._state_offset = None
        self._tls = threading.local()
        if self._ctx_info is not None:
            # Stateless: a context per thread (and per Bound), made on first use.
            # Stateful: one context, the model's variables, behind one lock.
            self._lock = None
            if self.stateful:
                self._lock = threading.Lock()
                self._shared = _Context(self)
                self._state_offset = self._find_state()
        else:
            self._lock = _LOCK
            if self.stateful:
                self._state = _aligned(self._state_info.state_size)
                self._workspace = _aligned(self._state_info.workspace_size)
                self.init()

    def _optional(self, ctype, suffix):
        try:
            return ctype.in_dll(self._lib, self.name + suffix)
        except ValueError:
            return None

    def _pool_functions(self):
        """(create, parallel_for's address, destroy) of the runtime's pthread
        pool, or None: the compiler split no step, so one thread does it all."""
        try:
            create = self._lib.sm2c_rt_pool_create
            parallel_for = self._lib.sm2c_rt_pool_parallel_for
            destroy = self._lib.sm2c_rt_pool_destroy
        except AttributeError:
            return None
        create.argtypes, create.restype = [ctypes.c_int32], ctypes.c_void_p
        destroy.argtypes, destroy.restype = [ctypes.c_void_p], None
        return create, ctypes.cast(parallel_for, ctypes.c_void_p).value, destroy

    def _find_state(self):
        """Where NAME_state sits in NAME_ctx (the table's state_offset)."""
        offset = int(self._ctx_info.state_offset)
        if offset < 0 or offset + int(self._state_info.state_size) > int(self._ctx_info.ctx_size):
            raise Sm2cError("%s: %s_ctx_table has no state where the model has one (internal error)" % (
                self.name, self.name))
        return offset

    def _track(self, finalizer):
        finalizer.atexit = False   # at exit a daemon thread may still be running on the pool
        with self._guard:
            self._finalizers = {f for f in self._finalizers if f.alive}
            self._finalizers.add(finalizer)
        return finalizer

    def close(self):
        """Stops this model's pools (threads > 1); later calls raise Sm2cError.
        No call may be running.  Garbage collection does the same."""
        self._closed = True
        with self._guard:
            finalizers, self._finalizers = self._finalizers, set()
        for f in finalizers:
            f()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check_open(self):
        if self._closed:
            raise Sm2cError("%s: the model was closed" % self.name)

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
        return "<sm2c model %s from %s: %s%s>" % (self.name, self.path, ", ".join(self.entries),
                                                 ", %d threads" % self.threads if self.threads > 1 else "")

    @property
    def stateful(self):
        return self._state_info is not None

    @property
    def concurrent(self):
        """True when calls from different Python threads run at the same time
        (a stateless model with contexts); otherwise they take turns."""
        return self._ctx_info is not None and not self.stateful

    @property
    def pooled(self):
        """True when calls use a pool of self.threads threads."""
        return self._pool is not None

    def variables(self):
        """This instance's written variables: checkpoint key -> a copy of the value."""
        if not self.stateful:
            return {}
        si = self._state_info
        if self._shared is not None:
            with self._lock:
                state = self._shared.buf[self._state_offset:self._state_offset + int(si.state_size)].copy()
        else:
            state = self._state
        out = {}
        for i in range(si.n_variables):
            v = si.variables[i]
            dims = tuple(v.dims[j] for j in range(v.rank))
            raw = state[v.offset:v.offset + v.size_bytes]
            out[v.key.decode()] = raw.view(_DTYPES[v.dtype]).reshape(dims).copy()
        return out

    def init(self):
        """Puts this instance's state at the checkpoint values."""
        if not self.stateful:
            raise Sm2cError("%s: the model has no state (no signature writes a variable)" % self.name)
        if self._shared is not None:
            with self._lock:
                self._ctx_info.reset(self._shared.ptr)
        else:
            self._state_info.init(self._state.ctypes.data)

    reset = init

    def _context(self):
        """The calling thread's context (stateless models), made on first use."""
        try:
            return self._tls.ctx
        except AttributeError:
            self._check_open()
            ctx = self._tls.ctx = _Context(self)
            return ctx

    def _caller(self, entry, batch, ins, outs):
        """The C function that runs entry on these pointer arrays, its
        arguments, the lock to hold (None: none) and the context it uses: a
        new one for a stateless model with contexts (a Bound's own)."""
        if self._ctx_info is not None:
            ctx = self._shared if self._shared is not None else _Context(self)
            if batch is not None:
                return entry._ctx_run_batch, (ctx.ptr, batch, ins, outs), self._lock, ctx
            return entry._ctx_run, (ctx.ptr, ins, outs), self._lock, ctx
        if self.stateful:
            return self._state_info.run_r[entry.index], (self._state.ctypes.data, self._workspace.ctypes.data,
                                                         ins, outs), self._lock, None
        if batch is not None:
            return entry._run_batch, (batch, ins, outs), self._lock, None
        return entry._run, (ins, outs), self._lock, None

    def _call(self, entry, batch, arrays, outs):
        if self._closed:
            self._check_open()
        if self._ctx_info is None:
            fn, args, lock, _ = self._caller(entry, batch, _pointers(arrays), _pointers(outs))
            with lock:
                return fn(*args)
        if self._shared is None:
            try:
                ctx = self._tls.ctx
            except AttributeError:
                ctx = self._context()
            return self._run_on(ctx, entry, batch, arrays, outs)
        with self._lock:
            return self._run_on(self._shared, entry, batch, arrays, outs)

    @staticmethod
    def _run_on(ctx, entry, batch, arrays, outs):
        ins, outp = ctx.pointers(entry)
        i = 0
        for a in arrays:
            ins[i] = _address(a)
            i += 1
        i = 0
        for a in outs:
            outp[i] = _address(a)
            i += 1
        if batch is not None:
            return entry._ctx_run_batch(ctx.ptr, batch, ins, outp)
        return entry._ctx_run(ctx.ptr, ins, outp)


_NOT_SO = {".c": "C source", ".h": "a C header", ".o": "an object file", ".ll": "LLVM IR",
           ".bc": "LLVM bitcode"}


def _check_shared_object(path, full):
    """What load cannot open, said before dlopen's 'invalid ELF header'."""
    if os.path.isdir(full):
        raise Sm2cError("sm2c.load: %s is a directory: pass the shared object in it (OUT/NAME.so, what "
                        "sm2c.compile returns)" % path)
    kind = _NOT_SO.get(os.path.splitext(full)[1])
    if kind:
        raise Sm2cError("sm2c.load: %s is %s, not a shared object: compile with emit='so' (sm2c.compile's "
                        "default; sm2c compile --emit so)" % (path, kind))


def load(path, name=None, threads=None):
    """Opens a shared object written by `sm2c compile --emit so` (or
    sm2c.compile, whose default it is).  name is the --name it was compiled with;
    by default the file's base name.  threads (an int >= 1; None is 1): the
    most threads one call uses, see Model."""
    return Model(path, name, threads)
