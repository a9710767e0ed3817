#!/usr/bin/env bash
# Every TensorFlow-referenced case in tests/data/e2e through `sm2c run`, with
# the context entry point on 1, 2, 3 and 8 threads checked bit for bit
# against the static one (every splittable step split).
# The generated code is built with $SM2C_TEST_CC (scripts/test.sh sets gcc
# with -Werror, and clang with ASan and UBSan), by default warning-free cc.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
python3 "$root/tests/e2e/check_e2e.py" --run-args "--threads 1,2,3,8 --task-work 1" "$sm2c" "$root/tests/data/e2e"
