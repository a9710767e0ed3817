"""The runtime compiled once per compiler command into a static library, kept
between runs under a digest of its sources and the command.

usage: rtlib.py SM2C OUTDIR [-j N]     (the compiler command is $CC)
prints the library's path.  check_e2e.py links it into every case (`sm2c run
--runtime-lib`); tests/e2e/runtime_lib.sh gives it to the shell tests that
build generated code themselves.  Standard library only.
"""
import fcntl
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def rtlib_cache_dir():
    """Where built runtime libraries are kept between runs: $SM2C_E2E_CACHE,
    else the cache directory `sm2c run` uses ($XDG_CACHE_HOME/sm2c or
    ~/.cache/sm2c), under e2e-rtlib/.  None: no cache."""
    root = os.environ.get("SM2C_E2E_CACHE")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or (
            os.path.join(os.environ["HOME"], ".cache") if os.environ.get("HOME") else None)
        root = base and os.path.join(base, "sm2c", "e2e-rtlib")
    return root if root and os.path.isabs(root) else None


def rtlib_key(cc, flags, src):
    """A digest of everything the library is built from: the compiler
    command, its flags and every runtime file, so a changed runtime or
    compiler command gets a new entry."""
    h = hashlib.sha256()
    h.update(("\0".join(cc + flags) + "\0").encode())
    for f in sorted(os.listdir(src)):
        h.update(f.encode() + b"\0")
        with open(os.path.join(src, f), "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def compile_runtime(cc, flags, src, files, lib, jobs):
    def compile_one(f):
        subprocess.run(cc + flags + ["-I", src, "-c", os.path.join(src, f),
                                     "-o", os.path.join(src, f[:-2] + ".o")], check=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(compile_one, files))
    subprocess.run(["ar", "rcs", lib] + [os.path.join(src, f[:-2] + ".o") for f in files], check=True)


def build_runtime_lib(sm2c, tmp, jobs):
    """The runtime compiled once with $CC into a static library that every
    `sm2c run` links (--runtime-lib) instead of compiling it per case.  The
    library is kept in rtlib_cache_dir() under a digest of its sources and
    compiler command: the test scripts call this file several times with the
    same $CC (a minute each under the sanitizers).  A lock makes a second
    caller wait for the first one's build; entries are written under a
    temporary name and renamed into place; entries unused for a week go."""
    cc = shlex.split(os.environ.get("CC", "cc"))
    flags = ["-std=c99", "-O2"]
    src = os.path.join(tmp, "rt")
    subprocess.run([sm2c, "runtime", "-o", src], check=True)
    files = sorted(f for f in os.listdir(src) if f.endswith(".c"))
    lib = os.path.join(tmp, "libsm2c_rt.a")
    cache = rtlib_cache_dir()
    key = rtlib_key(cc, flags, src)
    try:
        os.makedirs(cache, exist_ok=True)
        lock = open(os.path.join(cache, key + ".lock"), "w")
    except (OSError, TypeError):   # no cache directory, or one we cannot write: build without
        compile_runtime(cc, flags, src, files, lib, jobs)
        return lib
    entry = os.path.join(cache, key + ".a")
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(entry):
            compile_runtime(cc, flags, src, files, lib, jobs)
            part = "%s.%d.part" % (entry, os.getpid())
            shutil.copyfile(lib, part)
            os.replace(part, entry)
    os.utime(entry)
    prune_cache(cache)
    return entry


def prune_cache(cache, max_age=7 * 86400):
    now = time.time()
    for f in os.listdir(cache):
        path = os.path.join(cache, f)
        try:
            if now - os.stat(path).st_mtime > max_age:
                os.remove(path)
        except OSError:
            pass


def main():
    args = sys.argv[1:]
    jobs = os.cpu_count() or 2
    if "-j" in args:
        i = args.index("-j")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    os.makedirs(args[1], exist_ok=True)
    print(build_runtime_lib(args[0], args[1], jobs))


if __name__ == "__main__":
    main()
