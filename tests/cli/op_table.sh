#!/usr/bin/env bash
# `sm2c ops` lists each op's dtypes; every one of them must be lowered by some
# TF-referenced case in tests/data/ops (tests/conformance/check_op_table.py).
set -u
# A check of the table, not of memory safety: the plain build runs it.
case "${SM2C_TEST_CC:-}" in *sanitize*) echo "sanitizer build: skipped"; exit 77 ;; esac
sm2c=$(realpath "$1") root=$(realpath "$2")
python3 "$root/tests/conformance/check_op_table.py" "$sm2c" "$root/tests/data/ops"
rc=$?
# The README states how many ops `sm2c ops` lists.
n=$("$sm2c" ops | grep -c .)
if ! grep -q "listed by \`sm2c ops\` ($n," "$root/README.md"; then
  echo "FAIL: README.md does not give sm2c ops' count ($n)"; rc=1
fi
exit $rc
