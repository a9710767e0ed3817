# Sourced by tests/cli scripts: build the runtime once per compiler instead of
# once per generated program (compiling it dominates those tests' time).  The
# library comes from rtlib.py's cache, which check_e2e.py fills too: a test
# with the same compiler command as another reuses its build.
#
#   lib=$(runtime_lib SM2C "CC AND FLAGS" OUTDIR)   a libsm2c_rt.a
runtime_lib() {
  CC=$2 python3 "$(dirname "${BASH_SOURCE[0]}")/rtlib.py" "$1" "$3"
}
