"""build_cache.py: keeps what runtime_map.py and rt_stack.py make from the
runtime, under a digest of everything it is made from, in the folder
$SM2C_RUNTIME_MAP_CACHE names (nothing is kept without it).  Both take a
minute of two cores; scripts/test.sh's two builds, and the test that builds
the tree again, make them once.  Also their one way of writing an output.
Standard library only."""
import hashlib
import os
import shlex
import shutil
import subprocess


def path(kind, scripts, files, compilers):
    """The cache file for a KIND of output made by SCRIPTS from FILES with
    COMPILERS (command lines; their --version is part of the key), or None
    when no cache folder is set."""
    folder = os.environ.get("SM2C_RUNTIME_MAP_CACHE")
    if not folder:
        return None
    h = hashlib.sha256()
    def part(data):
        h.update(len(data).to_bytes(8, "little") + data)
    part(kind.encode())
    for cc in compilers:
        part(cc.encode())
        if cc:
            part(subprocess.run(shlex.split(cc) + ["--version"], capture_output=True).stdout)
    for f in list(scripts) + [__file__] + sorted(files):
        part(os.path.basename(f).encode())
        part(open(f, "rb").read())
    return os.path.join(os.path.realpath(folder), f"{kind}-{h.hexdigest()}.c")


def write_if_changed(out, text):
    """TEXT into OUT unless OUT holds it already (an unchanged table does not
    rebuild sm2c), through a temporary file, so OUT is never half written."""
    if not os.path.exists(out) or open(out).read() != text:
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)


def install(cache, out, started):
    """OUT from the cache when it holds it (dated STARTED, as a fresh one
    would be); False when it does not."""
    if not cache or not os.path.exists(cache):
        return False
    write_if_changed(out, open(cache).read())
    os.utime(out, (started, started))
    return True


def store(cache, out):
    """OUT into the cache (atomically: two builds may write it at once)."""
    if not cache:
        return
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    tmp = f"{cache}.tmp{os.getpid()}"
    shutil.copy(out, tmp)
    os.replace(tmp, cache)
