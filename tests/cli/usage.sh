#!/usr/bin/env bash
# The command line: help, version, usage errors, exit codes, one-line errors,
# and inspect on the sample (text and valid JSON).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
status() { "$sm2c" "$@" >/dev/null 2>&1; echo $?; }
one_line_error() { # the command fails with exactly one stderr line containing $1
  local want=$1; shift
  local err
  err=$("$sm2c" "$@" 2>&1 >/dev/null) && return 1
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [[ $err == *"$want"* ]] || { echo "got: $err"; return 1; }
}
sample=$root/samples/half_plus_two

check "--help exits 0" test "$(status --help)" -eq 0
check "--help mentions inspect" bash -c "'$sm2c' --help | grep -q 'inspect DIR'"
check "--version: version, commit, build type" bash -c "'$sm2c' --version | grep -Eq '^sm2c [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]+|unknown), [^)]+ build\)$'"
check "--help-limits" bash -c "'$sm2c' --help-limits | grep -q nesting-depth"
check "no command: usage exit 2" test "$(status)" -eq 2
check "unknown command exit 2" test "$(status frobnicate x)" -eq 2
check "unknown option exit 2" test "$(status inspect "$sample" --bogus)" -eq 2
check "bad limit exit 2" test "$(status inspect "$sample" --limit nope=3)" -eq 2
check "missing dir exit 1" test "$(status inspect /nonexistent/dir)" -eq 1
check "missing dir one-line error" one_line_error "/nonexistent/dir: error: cannot open" inspect /nonexistent/dir
check "limit exceeded exit 4" test "$(status inspect "$sample" --limit model-bytes=10)" -eq 4
check "wrong tag set exit 1" one_line_error "tag sets present: [serve]" inspect "$sample" --tag_set train

out=$("$sm2c" inspect "$sample") || { echo "FAIL: inspect sample"; fail=$((fail + 1)); }
check "text names the signature" grep -q "'serving_default'" <<<"$out"
check "text shows a variable key" grep -q "a/.ATTRIBUTES/VARIABLE_VALUE" <<<"$out"
check "text shows values" grep -q "= \[0.5\]" <<<"$out"
check "text lists unsupported ops" grep -q "^Unsupported ops:" <<<"$out"
json=$("$sm2c" inspect --json "$sample")
check "json is valid" python3 -c 'import json,sys; json.loads(sys.stdin.read())' <<<"$json"
check "json has the variable" python3 -c '
import json,sys; d=json.loads(sys.stdin.read())
v={x["checkpoint_key"]: x for x in d["variables"]}
assert v["b/.ATTRIBUTES/VARIABLE_VALUE"]["dtype"] == "DT_FLOAT"
e={x["key"]: x for x in d["checkpoint"]["entries"]}
assert e["a/.ATTRIBUTES/VARIABLE_VALUE"]["values"] == [0.5]
s=d["signatures"][1] if d["signatures"][0]["key"].startswith("__") else d["signatures"][0]
assert s["inputs"][0]["shape"] == [-1, 1], s' <<<"$json"
check "deterministic" test "$("$sm2c" inspect --json "$sample")" = "$json"
check "same output from another directory" test "$(cd / && "$sm2c" inspect --json "$sample")" = "$json"

# Output inside the SavedModel directory is refused and leaves nothing behind.
check "compile into the model dir exit 1" test "$(status compile "$sample" -o "$sample/out")" -eq 1
check "compile into the model dir leaves nothing" test ! -e "$sample/out"
# A signature that cannot compile does not stop the others; an explicit one fails.
tmp=$(mktemp -d)
check "compile sample" "$sm2c" compile "$sample" -o "$tmp/a"
check "header and source written" test -s "$tmp/a/half_plus_two.h" -a -s "$tmp/a/half_plus_two.c"
check "unknown signature exit 1" test "$(status compile "$sample" -o "$tmp/b" --signature nope)" -eq 1
check "failed compile writes nothing" test ! -e "$tmp/b"
rm -rf "$tmp"

# LLVM forms: a bad target is one clean line; a shared object exports only NAME_*.
check "bad --target is a clean one-line error" one_line_error "--target: error: unknown target triple 'not-a-triple'" \
  compile "$sample" -o "$(mktemp -u)" --emit obj --target not-a-triple --shape x=1,1
tmp=$(mktemp -d)
check "--emit so" "$sm2c" compile "$sample" -o "$tmp" --emit so --name hp
check "--emit so writes the header and the .so only" test "$(cd "$tmp" && ls)" = "$(printf 'hp.h\nhp.so')"
exports=$(nm -D --defined-only "$tmp/hp.so" | awk '{print $3}' | sort | tr '\n' ' ')
check "the .so exports only the ABI symbols ($exports)" \
  test "$exports" = "hp_ctx_init hp_ctx_reset hp_ctx_table hp_n_signatures hp_serving_default hp_serving_default_ctx hp_signatures "
check "--emit llvm-ir" "$sm2c" compile "$sample" -o "$tmp/ir" --emit llvm-ir --name hp
check "the .ll defines the entry point" grep -q "define.*@hp_serving_default" "$tmp/ir/hp.ll"
check "--emit llvm-bc starts with the bitcode magic" bash -c \
  "'$sm2c' compile '$sample' -o '$tmp/bc' --emit llvm-bc --name hp 2>/dev/null && head -c 2 '$tmp/bc/hp.bc' | grep -q BC"
rm -rf "$tmp"

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
