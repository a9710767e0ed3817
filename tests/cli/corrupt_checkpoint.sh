#!/usr/bin/env bash
# A checkpoint value that fails its checksum is corrupt input (issue 17): exit 1
# whether the signatures are chosen or not (never a warning that skips a
# signature), with the checksum error and no follow-up noise, nothing written.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if "$@"; then :; else echo "FAIL: $*"; fail=1; fi; }
cp -r "$root/tests/data/models/tf2_module" "$tmp/model"
data=$tmp/model/variables/variables.data-00000-of-00001
# Flip the first byte of the shard: the first variable's value.
python3 - "$data" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[0] ^= 0x5a
open(p, "wb").write(bytes(b))
PY
for args in "" "--signature scale" "--signature ints --signature scale"; do
  # shellcheck disable=SC2086
  "$sm2c" compile "$tmp/model" -o "$tmp/out" $args 2>"$tmp/err"
  rc=$?
  check test "$rc" -eq 1
  check grep -q "error: checksum mismatch" "$tmp/err"
  if grep -q "warning\|names an output" "$tmp/err"; then
    echo "FAIL ($args): follow-up noise:"; cat "$tmp/err"; fail=1
  fi
  check test ! -e "$tmp/out"
done
[ $fail -eq 0 ] && echo "corrupt_checkpoint: all checks passed"
exit $fail
