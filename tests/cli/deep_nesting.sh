#!/usr/bin/env bash
# Raised limits never turn into a crash (issue 32, class 2; docs/reliability.md
# P2, U7): a 98,000-deep message with --limit nesting-depth=100000 and a
# 30,000-deep call chain with --limit call-depth=40000 compile (the walks run
# on a stack sized from the limit, base/deep.c); at the default limits they
# are limit errors (exit 4); a limit whose stack cannot be reserved is a limit
# error naming it; control flow past 120 levels is one.  Models from
# tests/models/gen_scale.py (no TensorFlow).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
gen() { python3 "$root/tests/models/gen_scale.py" "$tmp/$1" "$2" "$3"; }
# expect CODE PATTERN -- command...: the exit status, and one stderr line
# with `error:` matching PATTERN (no pattern: no error line).
expect() {
  local code=$1 pat=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" != "$code" ]; then
    echo "FAIL: exit $rc, want $code: $*"; head -c 600 "$tmp/err"; echo; fail=1; return
  fi
  if [ -n "$pat" ]; then
    local n
    n=$(grep -c "error:" "$tmp/err")
    if [ "$n" != 1 ] || ! grep -q -- "$pat" "$tmp/err"; then
      echo "FAIL: want one error line matching '$pat': $*"; head -c 600 "$tmp/err"; echo; fail=1
    fi
  fi
}

gen nest nesting 98000
gen calls calls 30000
gen ifs ifs 200

expect 0 "" -- "$sm2c" inspect "$tmp/nest" --limit nesting-depth=100000
expect 0 "" -- "$sm2c" compile "$tmp/nest" -o "$tmp/o1" --limit nesting-depth=100000
expect 4 "message nesting depth 101 exceeds limit 100" -- "$sm2c" inspect "$tmp/nest"
expect 4 "nesting-depth=1000000000000 needs a stack of .* MiB" -- \
  "$sm2c" compile "$tmp/nest" -o "$tmp/o2" --limit nesting-depth=1000000000000
test ! -e "$tmp/o2" || { echo "FAIL: output written after a limit error"; fail=1; }

expect 0 "" -- "$sm2c" compile "$tmp/calls" -o "$tmp/o3" --limit call-depth=40000
grep -q "serving_default" "$tmp/o3/calls.h" || { echo "FAIL: no header for the call chain"; fail=1; }
expect 4 "calls nest deeper than the limit (--limit call-depth=N) at 'f64'" -- \
  "$sm2c" compile "$tmp/calls" -o "$tmp/o4"
# Past 64 levels the call path in a message is cut, not thousands of names.
expect 4 "calls nest deeper than the limit (--limit call-depth=N) at 'f1000'" -- \
  "$sm2c" compile "$tmp/calls" -o "$tmp/o4" --limit call-depth=1000
grep -q "/f63/\.\.\./f999: 'c'" "$tmp/err" && [ "$(wc -c <"$tmp/err")" -lt 1000 ] ||
  { echo "FAIL: call path not shortened"; head -c 300 "$tmp/err"; fail=1; }
expect 4 "call-depth=100000000000000 needs a stack of .* MiB" -- \
  "$sm2c" compile "$tmp/calls" -o "$tmp/o5" --limit call-depth=100000000000000

expect 4 "control flow nests deeper than 120 levels" -- \
  "$sm2c" compile "$tmp/ifs" -o "$tmp/o6" --limit call-depth=100000
exit $fail
