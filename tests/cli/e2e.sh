#!/usr/bin/env bash
# Every TensorFlow-referenced case in tests/data/e2e through `sm2c run`.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
python3 "$root/tests/e2e/check_e2e.py" "$sm2c" "$root/tests/data/e2e"
