"""sm2c from Python: compile a TensorFlow SavedModel, load the compiled shared
object and call its signatures with numpy arrays, and check it against
TensorFlow.

    import sm2c
    so = sm2c.compile("model/", "out/", name="digits", shape={"pixels": (1, 64)})  # out/digits.so
    m = sm2c.load(so)
    probs = m.serving_default(pixels=x)["output_0"]

Pure Python and numpy: the shared object is opened with ctypes through the
metadata tables sm2c generates (NAME_signatures, NAME_batches,
NAME_state_table, NAME_ctx_table), so no header is parsed.  With
NAME_ctx_table each Python thread calls on a context of its own, at the same
time as the others; sm2c.load(so, threads=N) lets each call use N threads.
"""
from ._compile import Sm2cError, Sm2cWarning, compile, find_sm2c
from ._load import Model, load
from ._verify import verify

__all__ = ["Sm2cError", "Sm2cWarning", "Model", "compile", "find_sm2c", "load", "verify"]
__version__ = "0.1.0"
