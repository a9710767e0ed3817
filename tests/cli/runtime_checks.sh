#!/usr/bin/env bash
# CheckNumerics and Assert as run-time error codes (issue 17): on the inputs
# in tests/data/ops/Check_*/raises/<name>/ TensorFlow raises
# InvalidArgumentError (tests/models/gen_checks.py asserts it); the generated
# entry point must return the code in raises/<name>/code (-5 numerics, -6
# assert) through both backends.  The passing inputs are an ordinary
# conformance case (ops_conformance.sh).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
export CC="${SM2C_TEST_CC:-cc -Wall -Wextra -pedantic -Werror}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for case in "$root"/tests/data/ops/Check_*; do
  for r in "$case"/raises/*/; do
    [ -d "$r" ] || continue
    code=$(cat "$r/code")
    args=()
    for f in "$r"*.npy; do
      k=$(basename "$f" .npy)
      args+=(--input "$k=$f")
    done
    for emit in c obj; do
      n=$((n + 1))
      if "$sm2c" run "$case/model" --signature serving_default "${args[@]}" --emit "$emit" \
          --outdir "$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: $(basename "$case")/$(basename "$r") --emit $emit: ran without error"; fail=1
      elif ! grep -qF "entry returned $code (" "$tmp/err"; then
        echo "FAIL: $(basename "$case")/$(basename "$r") --emit $emit: want code $code, got:"; cat "$tmp/err"; fail=1
      fi
    done
  done
done
[ $fail -eq 0 ] && echo "runtime_checks: $n runs returned TensorFlow's error as its code"
exit $fail
