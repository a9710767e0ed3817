#!/usr/bin/env bash
# sm2c_add_model for a project that sets nothing (issue 31), against the
# installed package, configure-only where it can be:
#  - no CMAKE_BUILD_TYPE: the runtime and the model compile at -O2; with a
#    build type (Debug) the project's flags are left alone;
#  - a model error fails the build before any runtime object is compiled,
#    and names the keyword the project wrote (SHAPES, not --shape);
#  - a warning (SKIP_FAILING) is passed on in the same terms.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
build=$(dirname "$sm2c")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }
quiet() { "$@" >"$tmp/log" 2>&1 || { tail -30 "$tmp/log"; return 1; }; }

prefix=$tmp/prefix
check "cmake --install" quiet cmake --install "$build" --prefix "$prefix"
check "sm2c_compile.cmake installed" test -f "$prefix/lib/cmake/sm2c/sm2c_compile.cmake"
mkdir -p "$tmp/proj"
cat >"$tmp/proj/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES C)
find_package(sm2c REQUIRED)
sm2c_add_model(digits MODEL \${MODEL} SHAPES \${SHAPES} \${EXTRA})
add_executable(predict $root/samples/digits/predict.c)
target_link_libraries(predict PRIVATE digits)
CM
configure() { # build dir, then -D options
  local b=$1; shift
  cmake -S "$tmp/proj" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@"
}
# The flags of one compile command: the entry whose file ends in $2.
flags_of() { python3 -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    if e["file"].endswith(sys.argv[2]):
        print(e["command"]); break' "$1/compile_commands.json" "$2"; }

# 1. No build type: -O2 on the runtime and the model; Debug: none added.
check "configure without a build type" quiet configure "$tmp/plain" -DMODEL="$root/samples/digits/model" \
  -DSHAPES=pixels=1,64
r=$(flags_of "$tmp/plain" /runtime/matvec_f32.c) m=$(flags_of "$tmp/plain" /digits.c)
check "a runtime file compiles with -O2 ($r)" grep -q -- " -O2 " <<<"$r "
check "the model compiles with -O2 ($m)" grep -q -- " -O2 " <<<"$m "
check "configure with CMAKE_BUILD_TYPE=Debug" quiet configure "$tmp/debug" -DMODEL="$root/samples/digits/model" \
  -DSHAPES=pixels=1,64 -DCMAKE_BUILD_TYPE=Debug
r=$(flags_of "$tmp/debug" /runtime/matvec_f32.c)
check "Debug: the project's flags only ($r)" bash -c "grep -q -- ' -g ' <<<'$r ' && ! grep -q -- ' -O2 ' <<<'$r '"
check "CMAKE_C_FLAGS=-O1: no -O2 added" quiet configure "$tmp/o1" -DMODEL="$root/samples/digits/model" \
  -DSHAPES=pixels=1,64 -DCMAKE_C_FLAGS=-O1
r=$(flags_of "$tmp/o1" /runtime/matvec_f32.c)
check "... ($r)" bash -c "! grep -q -- ' -O2 ' <<<'$r '"

# 2. A misspelt SHAPES key: the build stops at the model, in CMake's terms.
check "configure with SHAPES nosuch=4,1" quiet configure "$tmp/bad" -DMODEL="$root/samples/digits/model" \
  -DSHAPES=nosuch=4,1
cmake --build "$tmp/bad" -j2 >"$tmp/bad.log" 2>&1
check "the build fails" test $? -ne 0
check "the error names sm2c_add_model(digits) and SHAPES nosuch=" \
  grep -q "sm2c_add_model(digits): .*error: .*SHAPES nosuch=" "$tmp/bad.log"
check "... and the valid keys" grep -q "(the keys: pixels" "$tmp/bad.log"
check "... in one unwrapped line" grep -qx "sm2c_add_model(digits): sm2c: error: SHAPES nosuch=...: no selected signature has an input 'nosuch' (the keys: pixels, or per signature serve.pixels, serving_default.pixels)" "$tmp/bad.log"
check "... never --shape" bash -c "! grep -q -- '--shape' '$tmp/bad.log'"
n=$(find "$tmp/bad" -name '*.o' | wc -l)
check "no object was compiled before the error ($n)" test "$n" -eq 0
# and a warning in the same terms (SKIP_FAILING leaves a signature out)
strict=$root/tests/data/strict/model
check "configure SKIP_FAILING" quiet configure "$tmp/skip" -DMODEL="$strict" \
  "-DSHAPES=two_unknown.u=1,2,3;two_unknown.v=2,2" -DEXTRA=SKIP_FAILING
cmake --build "$tmp/skip" -j2 --target digits_sm2c >"$tmp/skip.log" 2>&1
check "the generation succeeds" test $? -eq 0
check "its warning is passed on, prefixed" grep -q "sm2c_add_model(digits): .*warning: not compiled" "$tmp/skip.log"
# SECTIONS and FAST_ARENA reach sm2c compile, and its errors name the keywords
check "configure SECTIONS arena=.sram1 FAST_ARENA 512" quiet configure "$tmp/sec" \
  -DMODEL="$root/samples/digits/model" -DSHAPES=pixels=1,64 "-DEXTRA=SECTIONS;arena=.sram1;FAST_ARENA;512"
cmake --build "$tmp/sec" -j2 --target digits_sm2c >"$tmp/sec.log" 2>&1
check "the generation succeeds" test $? -eq 0
check "... with the arena placed" bash -c "grep -rq 'SM2C_SECTION(\".sram1\") SM2C_ALIGN uint8_t digits_arena' '$tmp/sec'"
check "... and a fast arena" bash -c "grep -rq '^#define DIGITS_FAST_ARENA_SIZE' '$tmp/sec'"
check "configure SECTIONS arena=.sram-1" quiet configure "$tmp/bad_sec" \
  -DMODEL="$root/samples/digits/model" -DSHAPES=pixels=1,64 "-DEXTRA=SECTIONS;arena=.sram-1"
cmake --build "$tmp/bad_sec" -j2 --target digits_sm2c >"$tmp/bad_sec.log" 2>&1
check "a bad section name fails the generation" test $? -ne 0
check "... in the keyword's terms" grep -q "sm2c_add_model(digits): sm2c: error: compile: SECTIONS: a section name takes only" \
  "$tmp/bad_sec.log"
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
