#!/usr/bin/env bash
# The CMake package: `cmake --install` into a temporary prefix, then
# samples/cmake (find_package(sm2c), sm2c_add_model) built for the host, where
# the digits sample must classify its 10 images right through both the C and
# the LLVM object form, and for a Cortex-M4F through arm-none-eabi.cmake, where
# both firmware images must link.  A changed model file regenerates the code;
# an unchanged model does not.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
build=$(dirname "$sm2c")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }
quiet() { "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log"; return 1; }; }

prefix=$tmp/prefix
check "cmake --install" quiet cmake --install "$build" --prefix "$prefix"
for f in bin/sm2c share/man/man1/sm2c.1 share/sm2c/runtime/sm2c_rt.h lib/cmake/sm2c/sm2cConfig.cmake \
         lib/cmake/sm2c/sm2cConfigVersion.cmake lib/cmake/sm2c/sm2cFunctions.cmake; do
  check "installed $f" test -f "$prefix/$f"
done
check "installed runtime sources" bash -c "ls '$prefix/share/sm2c/runtime/'*.c >/dev/null"

# The model is copied so that the regeneration check can touch it.
cp -r "$root/samples/digits/model" "$tmp/model"
host=$tmp/host
check "host: configure" quiet cmake -S "$root/samples/cmake" -B "$host" -DCMAKE_PREFIX_PATH="$prefix" \
  -DDIGITS_MODEL="$tmp/model"
check "host: build" quiet cmake --build "$host" -j2
for exe in predict predict_inline predict_llvm; do
  check "host: $exe classifies 10/10" bash -c \
    "'$host/$exe' '$root/samples/digits/images.npy' '$root/samples/digits/labels.npy' | grep -qx '10/10 correct'"
done
cmake --build "$host" -j2 >"$tmp/again.log" 2>&1
check "host: an unchanged model is not recompiled" bash -c "! grep -q 'sm2c: compiling' '$tmp/again.log'"
sleep 1
touch "$tmp/model/variables/variables.index"
cmake --build "$host" -j2 >"$tmp/touched.log" 2>&1
check "host: a changed model file is recompiled" grep -q "sm2c: compiling" "$tmp/touched.log"

if command -v arm-none-eabi-gcc >/dev/null; then
  arm=$tmp/arm
  check "Cortex-M4F: configure" quiet cmake -S "$root/samples/cmake" -B "$arm" \
    -DCMAKE_TOOLCHAIN_FILE="$root/samples/cmake/arm-none-eabi.cmake" -Dsm2c_DIR="$prefix/lib/cmake/sm2c" \
    -DDIGITS_MODEL="$tmp/model"
  check "Cortex-M4F: build" quiet cmake --build "$arm" -j2
  for exe in firmware firmware_llvm; do
    check "Cortex-M4F: $exe is an ARM executable" bash -c \
      "arm-none-eabi-readelf -h '$arm/$exe' | grep -q 'Machine: *ARM' && \
       arm-none-eabi-readelf -h '$arm/$exe' | grep -q 'Type: *EXEC'"
    check "Cortex-M4F: $exe holds the model" bash -c \
      "arm-none-eabi-nm '$arm/$exe' | grep -q ' T digits_serving_default\$'"
  done
else
  echo "note: no gcc-arm-none-eabi; the Cortex-M4F build is not checked"
fi

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
