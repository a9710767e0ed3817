"""sm2c.compile: run the installed sm2c compiler."""
import os
import shutil
import subprocess
import warnings


class Sm2cError(Exception):
    """sm2c failed: the message is its one-line error; .status its exit code
    (1 invalid input, 2 usage, 3 unsupported, 4 resource limit, 5 internal)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


def find_sm2c():
    """The sm2c executable: $SM2C, else the first sm2c on $PATH."""
    path = os.environ.get("SM2C") or shutil.which("sm2c")
    if not path:
        raise Sm2cError("sm2c: the compiler was not found: install it, or set SM2C to its path")
    return path


def _dims(value):
    if isinstance(value, str):
        return value
    return ",".join(str(int(d)) for d in value)


def _listed(value):
    return [value] if isinstance(value, str) else list(value)


def _flags(options):
    """Keyword options to command-line flags: name='x' -> --name x; shape (a
    dict key -> dims, key an input key or 'signature.key') -> --shape key=d0,d1;
    skip_failing=True -> --skip-failing; signature/function/quantize_skip (str
    or list) repeat their flag; limit (dict) -> --limit NAME=VALUE; section (dict
    class -> name) -> --section CLASS=NAME; True -> a bare flag."""
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if key == "tag_set":
            flag = "--tag_set"
        if key == "shape":
            for k, dims in value.items():
                args += ["--shape", "%s=%s" % (k, _dims(dims))]
        elif key == "limit":
            for k, v in value.items():
                args += ["--limit", "%s=%s" % (k, v)]
        elif key == "section":
            for k, v in value.items():
                args += ["--section", "%s=%s" % (k, v)]
        elif key in ("signature", "function", "quantize_skip"):
            for v in _listed(value):
                args += [flag, v]
        elif value is True:
            args.append(flag)
        else:
            args += [flag, str(value)]
    return args


def compile(model_dir, out_dir, emit="so", **options):
    """Runs `sm2c compile model_dir -o out_dir --emit so` with options as flags
    (see _flags), e.g. name='digits', shape={'pixels': (1, 64)}, max_batch=8,
    signature=['serving_default'].  emit is 'so' by default, unlike the
    command line's c: the result is what sm2c.load opens; emit='c' (with
    target='thumbv7em-none-eabihf', ...) writes C for a firmware build.
    Returns the path of the main output (out_dir/NAME.so, .c, .o, .ll or .bc).
    Raises Sm2cError with sm2c's message when it fails: a shape key that names
    no input, a shape that contradicts the signature, or a signature that
    cannot be compiled (unless skip_failing=True, which leaves it out).  sm2c's
    warnings (a signature left out, ...) are passed on with warnings.warn."""
    argv = [find_sm2c(), "compile", os.fspath(model_dir), "-o", os.fspath(out_dir), "--emit", emit]
    argv += _flags(options)
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _warn(proc.stderr)
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        raise Sm2cError(lines[-1] if lines else "sm2c exited with %d" % proc.returncode, proc.returncode)
    name = options.get("name") or _default_name(model_dir)
    ext = {"c": "c", "so": "so", "obj": "o", "llvm-ir": "ll", "llvm-bc": "bc"}[emit]
    return os.path.join(os.fspath(out_dir), "%s.%s" % (name, ext))


class Sm2cWarning(UserWarning):
    """A warning sm2c printed (its one line), e.g. a signature left out under
    skip_failing=True."""


def _warn(stderr):
    """sm2c's 'warning:' lines, each as a warnings.warn (Sm2cWarning)."""
    for line in stderr.splitlines():
        if ": warning: " in line or line.startswith("warning: "):
            warnings.warn(line.strip(), Sm2cWarning, stacklevel=3)


def _model_base(model_dir):
    """The directory name sm2c's default --name comes from (sm2c_model_base):
    the last component of the absolute path, or for a version number (TF
    Serving's export/1) the parent's."""
    path = os.path.abspath(os.fspath(model_dir))
    base = os.path.basename(path)
    parent = os.path.dirname(path)
    if base.isascii() and base.isdigit() and parent != os.path.dirname(parent):
        base = os.path.basename(parent)
    return base or path


def _default_name(model_dir):
    """sm2c's default --name (sm2c_c_ident, lower-cased): the model's
    directory name (_model_base), at most 64 characters, other than ASCII
    letters and digits as '_' (never "__"), prefixed by 'x' unless it starts
    with a letter."""
    base = _model_base(model_dir)[:64]
    out = "" if base[:1].isascii() and base[:1].isalpha() else "x"
    for ch in base:
        ch = ch if ch.isascii() and ch.isalnum() else "_"
        if not (ch == "_" and out.endswith("_")):
            out += ch
    return out.lower()
