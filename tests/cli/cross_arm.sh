#!/usr/bin/env bash
# Cross compilation: objects for thumbv7em-none-eabihf (Cortex-M4F) are valid
# ARM ELF (checked with Debian's binutils-arm-none-eabi), and link with the
# runtime compiled by arm-none-eabi-gcc, leaving no sm2c symbol undefined.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
command -v arm-none-eabi-readelf >/dev/null || { echo "skip: no binutils-arm-none-eabi"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }
for case in mlp cnn bn_fold; do
  shapes=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['signatures']; k=sorted(s)[0]
print(k, ' '.join('--shape %s=%s' % (n, ','.join(map(str, v))) for n, v in s[k]['shapes'].items()))" \
    "$root/tests/data/e2e/$case/case.json")
  read -r sig shape_args <<<"$shapes"
  out=$tmp/$case
  # shellcheck disable=SC2086
  check "$case: compile for Cortex-M4F" "$sm2c" compile "$root/tests/data/e2e/$case/model" -o "$out" \
    --name "$case" --signature "$sig" $shape_args --emit obj --target thumbv7em-none-eabihf --cpu cortex-m4 \
    --features +vfp4d16sp 2>/dev/null
  hdr=$(arm-none-eabi-readelf -h "$out/$case.o" 2>/dev/null)
  attrs=$(arm-none-eabi-readelf -A "$out/$case.o" 2>/dev/null)
  check "$case: ELF for ARM, EABI5" grep -q "Machine: *ARM" <<<"$hdr"
  check "$case: Cortex-M4, Thumb-2" bash -c 'grep -q "Tag_CPU_name: \"cortex-m4\"" <<<"$1" &&
    grep -q "Tag_THUMB_ISA_use: Thumb-2" <<<"$1"' _ "$attrs"
  check "$case: hard-float calling convention" grep -q "Tag_ABI_VFP_args: VFP registers" <<<"$attrs"
  check "$case: the entry point is defined, Thumb" bash -c \
    "arm-none-eabi-nm '$out/$case.o' | grep -q ' T ${case}_${sig}\$'"
  if command -v arm-none-eabi-gcc >/dev/null; then
    for f in "$out"/*.c; do
      arm-none-eabi-gcc -std=c99 -O2 -Wall -Wextra -pedantic -Werror -mcpu=cortex-m4 -mthumb \
        -mfloat-abi=hard -mfpu=fpv4-sp-d16 -ffp-contract=off -I"$out" -c "$f" -o "$f.o" || fail=$((fail + 1))
    done
    check "$case: links with the runtime (partial link)" \
      arm-none-eabi-ld -r -o "$out/all.o" "$out/$case.o" "$out"/*.c.o 2>/dev/null
    check "$case: no sm2c symbol left undefined" bash -c \
      "! arm-none-eabi-nm -u '$out/all.o' | grep -q 'sm2c_rt_\|${case}_'"
  fi
done
# --opt Os: each function and weight in its own section, so --gc-sections
# drops the signature nothing calls and the weights only it reads.
os_out=$tmp/os
check "mlp: compile --opt Os for Cortex-M4F" "$sm2c" compile "$root/tests/data/e2e/mlp/model" -o "$os_out" \
  --name mlp --emit obj --opt Os --target thumbv7em-none-eabihf --cpu cortex-m4 --features +vfp4d16sp 2>/dev/null
check "mlp: one section per entry point and weight" bash -c \
  "arm-none-eabi-readelf -SW '$os_out/mlp.o' | grep -q ' \.text\.mlp_serve ' &&
   arm-none-eabi-readelf -SW '$os_out/mlp.o' | grep -q ' \.text\.mlp_serving_default ' &&
   arm-none-eabi-readelf -SW '$os_out/mlp.o' | grep -q ' \.rodata\.mlp\.w0 '"
check "mlp: --gc-sections keeps serving_default, drops serve" bash -c \
  "arm-none-eabi-ld --gc-sections --unresolved-symbols=ignore-all -e mlp_serving_default \
     -o '$os_out/gc.elf' '$os_out/mlp.o' && nm_out=\$(arm-none-eabi-nm '$os_out/gc.elf') &&
   grep -q ' T mlp_serving_default\$' <<<\"\$nm_out\" && ! grep -q ' T mlp_serve\$' <<<\"\$nm_out\""
check "--opt Og is refused" bash -c "! '$sm2c' compile '$root/tests/data/e2e/mlp/model' -o '$tmp/og' \
  --name mlp --emit obj --opt Og 2>/dev/null"

# And the host's own triple, spelled out, checked with binutils too.
check "x86_64-linux-gnu object" "$sm2c" compile "$root/tests/data/e2e/mlp/model" -o "$tmp/x86" --name mlp \
  --signature serving_default --emit obj --target x86_64-linux-gnu 2>/dev/null
check "x86_64 ELF" bash -c "readelf -h '$tmp/x86/mlp.o' | grep -q 'Machine: *Advanced Micro Devices X86-64'"
check "x86_64 entry point defined" bash -c "nm '$tmp/x86/mlp.o' | grep -q ' T mlp_serving_default\$'"

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
