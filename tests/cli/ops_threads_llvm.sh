#!/usr/bin/env bash
# Every op conformance case through the LLVM backend (--emit obj), each
# case's context entry point on 1, 2, 3 and 8 threads with every splittable
# step split (--task-work 1), checked bit for bit by `sm2c run` against the
# static entry point and against TensorFlow (issue 29; ops_conformance.sh does
# the same through the C backend).  Under the sanitizers it is left to the
# plain run: LLVM builds the model code uninstrumented.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
case "$CC" in *-fsanitize*) echo "ops_threads_llvm: skipped under the sanitizers"; exit 77 ;; esac
python3 "$root/tests/e2e/check_e2e.py" -j "$(nproc)" --emit obj --run-args "--threads 1,2,3,8 --task-work 1" \
  "$sm2c" "$root/tests/data/ops"
