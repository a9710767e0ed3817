#!/usr/bin/env bash
# Every op conformance case in tests/data/ops (written by
# tests/models/gen_ops.py against TensorFlow) through `sm2c run`, which also
# runs each case's context entry point on 1, 2, 3 and 8 threads with every
# splittable step split and checks it bit for bit against the static entry
# point (issue 29; the LLVM backend's run is ops_threads_llvm.sh).
# The generated code is built with $SM2C_TEST_CC (scripts/test.sh sets gcc
# with -Werror, and clang with ASan and UBSan), by default warning-free cc.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
python3 "$root/tests/e2e/check_e2e.py" -j "$(nproc)" --run-args "--threads 1,2,3,8 --task-work 1" "$sm2c" "$root/tests/data/ops"
