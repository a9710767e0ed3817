#!/usr/bin/env bash
# Golden-text tests of the rewriting passes: each case dumps an entry's IR
# (--dump-after) just before a pass and just after it, and compares both with
# tests/cli/golden/<case>.ir, so the golden file shows what the pass did.
# The two dumps must differ (the pass did something on that model).
# UPDATE=1 rewrites the golden files from this compiler; review the diff.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
golden=$root/tests/cli/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
# case name, model, the pass before, the pass, then extra options
case_() { local name=$1 model=$2 before=$3 pass=$4; shift 4
  if ! "$sm2c" compile "$root/$model" -o "$tmp/$name" --dump-after "$before,$pass" "$@" \
       >/dev/null 2>"$tmp/$name.err"; then
    echo "FAIL: $name: compile failed"; cat "$tmp/$name.err"; fail=$((fail + 1)); return
  fi
  # only the dumps, not the compiler's notes
  awk '/^; after /{on=1} on{print} /^}$/{on=0}' "$tmp/$name.err" >"$tmp/$name.ir"
  [ "${UPDATE:-0}" = 1 ] && cp "$tmp/$name.ir" "$golden/$name.ir"
  awk -v p="; after $before:" 'index($0, p) == 1{on=1} /^; after /&&index($0, p) != 1{on=0} on' \
      "$tmp/$name.ir" | tail -n +2 >"$tmp/before"
  awk -v p="; after $pass:" 'index($0, p) == 1{on=1} /^; after /&&index($0, p) != 1{on=0} on' \
      "$tmp/$name.ir" | tail -n +2 >"$tmp/after"
  if [ ! -s "$tmp/after" ] || cmp -s "$tmp/before" "$tmp/after"; then
    echo "FAIL: $name: $pass changed nothing"; fail=$((fail + 1))
  elif ! diff -u "$golden/$name.ir" "$tmp/$name.ir"; then
    echo "FAIL: $name: the IR differs from tests/cli/golden/$name.ir (UPDATE=1 rewrites it)"
    fail=$((fail + 1))
  else
    passed=$((passed + 1))
  fi
}
case_ fuse_cnn tests/data/e2e/cnn/model padfold fuse --signature serving_default
case_ bnfold tests/data/e2e/bn_fold/model hoist bnfold --signature serving_default
case_ affinefold_keras3 tests/data/e2e/keras3_fold/model bnfold affinefold --signature serving_default
case_ lstm tests/data/ops/Control_rnn_LSTM_keras3/model lnorm lstm --signature serving_default
case_ hoist_lstm tests/data/ops/Control_rnn_LSTM_keras3/model lstm hoist --signature serving_default
case_ dce_cnn tests/data/e2e/cnn/model fuse dce --signature serving_default

# An unknown pass is a usage error naming the passes.
"$sm2c" compile "$root/tests/data/e2e/cnn/model" -o "$tmp/bad" --dump-after fusion 2>"$tmp/bad.err"
st=$?
if [ "$st" -eq 2 ] && grep -q "unknown pass 'fusion'.*fuse" "$tmp/bad.err"; then
  passed=$((passed + 1))
else
  echo "FAIL: --dump-after fusion: exit $st, want 2 and the pass names"; cat "$tmp/bad.err"; fail=$((fail + 1))
fi
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
