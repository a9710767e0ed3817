#!/usr/bin/env bash
# `sm2c run`'s defaults (issue 31): the model's only signature; no --outdir
# needed (nothing written then); each output printed (key, dtype, shape,
# values; -q silences); --input_exprs literals typed by the signature, a
# wrong shape or rank an error naming the input and the declared shape; a
# build cache (XDG_CACHE_HOME/sm2c) that a second run uses without calling
# $CC, that finds a corrupt entry and rebuilds it, and that --no-cache
# bypasses; the runtime's objects kept in the cache too, so a build that
# differs only in its link compiles nothing again, and a corrupt object is
# found and compiled again; an entry's error code reported in words, never by
# a temp path.
# Values: tests/data/inspect_run/single/expected_y.npy, made by TensorFlow.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
single=$root/tests/data/inspect_run/single multi=$root/tests/data/inspect_run/multi
export XDG_CACHE_HOME=$tmp/cache TMPDIR=$tmp/t
mkdir -p "$TMPDIR"
# $CC that logs each call, to see whether a run built (linked a program) and
# how many objects it compiled.
cat >"$tmp/cc" <<SH
#!/bin/sh
case " \$* " in *" -c "*) echo compile >>"$tmp/cc.log" ;; *) echo build >>"$tmp/cc.log" ;; esac
exec ${SM2C_TEST_CC:-cc} "\$@"
SH
chmod +x "$tmp/cc"
export CC=$tmp/cc
count() { if [ -f "$tmp/cc.log" ]; then grep -c "^$1" "$tmp/cc.log"; else echo 0; fi; }
builds() { count build; }
compiles() { count compile; }
expect() {   # EXIT TEXT out|err CMD...
  local want=$1 text=$2 where=$3 rc; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/$where"; then
    passed=$((passed + 1))
  else
    echo "FAIL (exit $rc, wanted $want and '$text' on std$where): $*"
    sed 's/^/  /' "$tmp/out" "$tmp/err" | head -20
    fail=1
  fi
}
cd "$tmp" || exit 1

# The only signature, no --outdir: the output printed, nothing written.
expect 0 "y: float32 [1,3] = [[3, 5, 7]]" out "$sm2c" run "$single" --input_exprs 'x=[[1, 2, 3]]'
[ "$(builds)" = 1 ] || { echo "FAIL: the first run built $(builds) times"; fail=1; }
[ -z "$(ls -A "$TMPDIR")" ] || { echo "FAIL: left in TMPDIR: $(ls -A "$TMPDIR")"; fail=1; }
[ "$(ls -A "$tmp" | grep -v -e '^cc' -e '^cache$' -e '^t$' -e '^out$' -e '^err$')" = "" ] \
  || { echo "FAIL: run without --outdir wrote into the working directory"; fail=1; }
# With --outdir: the same values as TensorFlow's, in y.npy.
expect 0 "y: float32 [1,3]" out "$sm2c" run "$single" --input_exprs 'x=[[1,2,3]]' --outdir "$tmp/o"
cmp -s "$tmp/o/y.npy" "$single/expected_y.npy" || { echo "FAIL: y.npy differs from TensorFlow's"; fail=1; }
# The second and third runs came from the cache.
[ "$(builds)" = 1 ] || { echo "FAIL: a run of the same model built again ($(builds) builds)"; fail=1; }
[ "$(compiles)" -gt 0 ] || { echo "FAIL: the runtime was not compiled as objects"; fail=1; }
# -q prints nothing.
"$sm2c" run "$single" --input_exprs 'x=[[1,2,3]]' -q >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ ! -s "$tmp/out" ] && passed=$((passed + 1)) || { echo "FAIL: -q printed: $(cat "$tmp/out")"; fail=1; }
# --no-cache builds; other inputs reuse the build.
expect 0 "y: float32 [1,3] = [[1, 1, 1]]" out "$sm2c" run "$single" --input_exprs 'x=[[0,0,0]]'
[ "$(builds)" = 1 ] || { echo "FAIL: other input values rebuilt"; fail=1; }
expect 0 "y: float32 [1,3]" out "$sm2c" run "$single" --input_exprs 'x=[[1,2,3]]' --no-cache
[ "$(builds)" = 2 ] || { echo "FAIL: --no-cache did not build"; fail=1; }
# A run on threads links another program (-pthread) from the same runtime
# sources: it compiles only objects the cache does not hold.
entries() { ls "$XDG_CACHE_HOME"/sm2c/obj | wc -l; }
had=$(entries) objects=$(compiles)
expect 0 "y: float32 [1,3] = [[3, 5, 7]]" out "$sm2c" run "$single" --input_exprs 'x=[[1,2,3]]' --threads 1,2
new=$(($(compiles) - objects))
[ "$(builds)" = 3 ] && [ "$new" = $(($(entries) - had)) ] && [ "$had" -gt 0 ] \
  || { echo "FAIL: a run on threads built $(builds) times (want 3) and compiled $new objects" \
    "($(($(entries) - had)) new to the cache, $had there before)"; fail=1; }
# A corrupt object entry is found, removed and compiled again.
rm -f "$XDG_CACHE_HOME"/sm2c/run/*
entry=$(ls "$XDG_CACHE_HOME"/sm2c/obj/* | head -1)
printf 'X' | dd of="$entry" bs=1 seek=300 conv=notrunc 2>/dev/null
objects=$(compiles)
expect 0 "y: float32 [1,3] = [[3, 5, 7]]" out "$sm2c" run "$single" --input_exprs 'x=[[1,2,3]]'
grep -qF "corrupt build cache entry: removed, building again" "$tmp/err" \
  || { echo "FAIL: no warning for a corrupt object"; fail=1; }
[ "$(compiles)" = $((objects + 1)) ] || { echo "FAIL: the corrupt object was not compiled again"; fail=1; }
# A corrupt entry (one byte changed, or cut short) is found, removed and rebuilt.
for how in flip cut; do
  entry=$(ls "$XDG_CACHE_HOME"/sm2c/run/* | head -1)
  before=$(builds)
  if [ $how = flip ]; then printf 'X' | dd of="$entry" bs=1 seek=300 conv=notrunc 2>/dev/null
  else head -c 500 "$entry" >"$entry.c" && mv "$entry.c" "$entry"; fi
  expect 0 "y: float32 [1,3] = [[3, 5, 7]]" out "$sm2c" run "$single" --input_exprs 'x=[[1,2,3]]'
  grep -qF "corrupt build cache entry: removed, building again" "$tmp/err" \
    || { echo "FAIL ($how): no warning for a corrupt entry"; fail=1; }
  [ "$(builds)" = $((before + 1)) ] || { echo "FAIL ($how): a corrupt entry was not rebuilt"; fail=1; }
done

# A model with several signatures needs --signature: the error lists them.
expect 2 "error: the model has 5 signatures (add_one, concat_str, gather, parse, ragged): run one with --signature KEY" \
  err "$sm2c" run "$multi" --input_exprs 'x=[[1,2,3]]'

# --input_exprs: shape, rank, key, nesting and dtype errors name the input.
expect 1 "signature 'serving_default' input 'x': error: --input x holds shape [2,3], but the signature declares [1,3]" \
  err "$sm2c" run "$single" --input_exprs 'x=[[1,2,3],[4,5,6]]'
expect 1 "--input x holds shape [3], but the signature declares [1,3]" err "$sm2c" run "$single" --input_exprs 'x=[1,2,3]'
expect 2 "error: --input_exprs zzz: signature 'serving_default' has no input 'zzz'; its inputs are x" \
  err "$sm2c" run "$single" --input_exprs 'zzz=[[1,2,3]]'
expect 2 "--input_exprs x: error: lists of different lengths (the lists are not rectangular)" \
  err "$sm2c" run "$single" --input_exprs 'x=[[1,2],[3]]'
expect 2 "--input_exprs x: error: expected ',' or ']' at offset 4" err "$sm2c" run "$single" --input_exprs 'x=[[1 2]]'
expect 2 "--input_exprs idx: error: value 0 (1.5) does not fit the input's dtype int32" \
  err "$sm2c" run "$multi" --signature gather --input_exprs 'idx=[1.5,0]'
expect 2 "--input_exprs idx: error: only decimal numbers are accepted at offset 1" \
  err "$sm2c" run "$multi" --signature gather --input_exprs 'idx=[0x1,0]'
expect 2 "error: missing --input x=FILE.npy (or --input_exprs x=LITERAL)" err "$sm2c" run "$single"
expect 2 "--input_exprs expects KEY=LITERAL" err "$sm2c" run "$single" --input_exprs 'x'
# int32 input, float output.
expect 0 "g: float32 [2] = [40, 10]" out "$sm2c" run "$multi" --signature gather --input_exprs 'idx=[3, 0]'

# An entry's error code in words, no path of the (deleted) build directory.
expect 1 "signature 'gather': error: the generated entry returned -1 (an index input is out of range)" \
  err "$sm2c" run "$multi" --signature gather --input_exprs 'idx=[4,0]'
grep -q "$TMPDIR\|/tmp/" "$tmp/err" && { echo "FAIL: the error names a path: $(cat "$tmp/err")"; fail=1; }
[ -s "$tmp/out" ] && { echo "FAIL: outputs printed for a failed run"; fail=1; }

[ $fail -eq 0 ] && echo "run_defaults: $passed checks passed"
exit $fail
