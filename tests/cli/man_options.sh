#!/usr/bin/env bash
# The man page and --help cover every option (issue 31): man_options.py
# compares man/sm2c.1, `sm2c help CMD` and `sm2c help` with the option table
# in compiler/cli/main.c, and a man page lacking an option must fail it.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }

check "man page and help cover the option table" python3 "$root/tests/cli/man_options.py" "$sm2c" "$root"

# The check can fail: a copy of the sources whose man page lost --repeat.
mkdir -p "$tmp/src/compiler/cli" "$tmp/src/man"
cp "$root/compiler/cli/main.c" "$tmp/src/compiler/cli/"
sed '/^\.BI \\-\\-repeat /,/^\.TP$/d' "$root/man/sm2c.1" > "$tmp/src/man/sm2c.1"
python3 "$root/tests/cli/man_options.py" "$sm2c" "$tmp/src" > "$tmp/out" 2>&1
check "a man page without --repeat fails (exit 1)" test $? -eq 1
check "... naming it" grep -q "man: --repeat is an option of run but no OPTIONS item for run names it" "$tmp/out"
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
