#!/usr/bin/env bash
# Memory placement on a Cortex-M4F (issue "Memory placement for firmware"):
# the model that writes variables of tests/data/ops/State_three_signatures
# (train: a gradient step on w and b, counting calls) compiled for
# thumbv7em-none-eabihf with its weights, arena, fast arena and state each in
# a section of its own (--section, --fast-arena), linked by
# tests/firmware/link_placement.ld into four regions of the mps2-an386 map
# (weights in the PSRAM at 0x21000000 standing in for QSPI, the arena in
# SSRAM2/3, the fast arena in the block RAM at 0x01000000, the state in a
# "retained" part of SSRAM2/3), and run under QEMU.  Through the C backend and
# the LLVM object alike:
#   * each placed section and symbol lies in its region (objdump -h, nm; the
#     LLVM object's weights are private, so their section is checked);
#   * the two static calls' losses are TensorFlow's first and second call's
#     within the case's tolerance (the second reads the state the first
#     wrote), and a context call with the caller's two workspaces, on a fresh
#     state, gives the first call's bits;
#   * the losses are those of the same program built without the options.
# Skips (77) without arm-none-eabi-gcc or qemu-system-arm.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
for tool in arm-none-eabi-gcc arm-none-eabi-nm qemu-system-arm; do
  command -v $tool >/dev/null || { echo "skip: no $tool"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fw=$root/tests/firmware
case_dir=$root/tests/data/ops/State_three_signatures
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
common=(--name m --signature train --shape x=4,3 --shape y=4,2 --opt Os --target thumbv7em-none-eabihf -q)
placed=(--section weights=.qspi_weights --section arena=.sram_arena --section fast-arena=.dtcm_arena
        --section state=.retained_state --fast-arena 64)
flags=(-std=c99 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -Os -ffp-contract=off
       -ffunction-sections -fdata-sections -Wall -Wextra -Werror)

# The inputs of TensorFlow's reference as float bit patterns.
python3 - "$case_dir/inputs/train" > "$tmp/fw_case.h" <<'PY'
import struct, sys
def floats(path):   # a little-endian float32 .npy
    data = open(path, "rb").read()
    n = struct.unpack("<H", data[8:10])[0]
    body = data[10 + n:]
    return struct.unpack("<%dI" % (len(body) // 4), body)
for k in ("x", "y"):
    bits = floats("%s/%s.npy" % (sys.argv[1], k))
    print("static const uint32_t fw_%s_bits[%d] = { %s };" % (k, len(bits), ", ".join("0x%08xu" % b for b in bits)))
PY

# build DIR LD OUT.elf SOURCES...: the firmware with the harness of tests/firmware.
build() {
  local dir=$1 ld=$2 elf=$3; shift 3
  arm-none-eabi-gcc "${flags[@]}" -I"$dir" -I"$tmp" -I"$fw" "$fw/startup.c" "$fw/semihost.c" \
    "$fw/placement_main.c" "$@" -nostartfiles --specs=nano.specs -T "$ld" -Wl,--gc-sections -lm -o "$elf"
}
# in ELF SYMBOL LO HI: the symbol's address is in [LO, HI).
in_region() {
  local a
  a=$(arm-none-eabi-nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
  [ -n "$a" ] && (( 16#$a >= $3 && 16#$a < $4 )) || { echo "  $2 at 0x${a:-?}, not in [$3, $4)"; false; }
}
# section_in ELF SECTION LO HI: the section is not empty and lies in [LO, HI).
section_in() {
  local a n
  read -r a n <<<"$(arm-none-eabi-objdump -h "$1" | awk -v s="$2" '$2 == s { print $4, $3; exit }')"
  [ -n "$a" ] && (( 16#$n > 0 && 16#$a >= $3 && 16#$a + 16#$n <= $4 )) ||
    { echo "  $2 at 0x${a:-?} (0x${n:-?} bytes), not in [$3, $4)"; false; }
}
value() { sed -n "s/^$2 //p" "$1"; }

for emit in c obj; do
  out=$tmp/$emit
  if ! "$sm2c" compile "$case_dir/model" -o "$out/placed" --emit "$emit" "${common[@]}" "${placed[@]}" 2>"$tmp/log" ||
     ! "$sm2c" compile "$case_dir/model" -o "$out/plain" --emit "$emit" "${common[@]}" --fast-arena 64 2>"$tmp/log"; then
    echo "FAIL: $emit: compile"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  check "$emit: the model has an arena, a fast arena and state" \
    grep -q '^#define M_FAST_ARENA_SIZE [1-9]' "$out/placed/m.h"
  srcs() { ls "$1"/*.c; [ "$emit" = obj ] && echo "$1/m.o"; }
  if ! build "$out/placed" "$fw/link_placement.ld" "$out/placed.elf" $(srcs "$out/placed") 2>"$tmp/log" ||
     ! build "$out/plain" "$fw/link.ld" "$out/plain.elf" $(srcs "$out/plain") 2>"$tmp/log"; then
    echo "FAIL: $emit: firmware build"; cat "$tmp/log"; fail=$((fail + 1)); continue
  fi
  dot=_; [ "$emit" = obj ] && dot=.
  elf=$out/placed.elf
  check "$emit: the weights' section, not empty, in QSPI" section_in "$elf" .qspi_weights 0x21000000 0x22000000
  [ "$emit" = c ] && check "c: m_w0 in QSPI" in_region "$elf" m_w0 0x21000000 0x22000000
  check "$emit: the arena in SRAM1" in_region "$elf" "m${dot}arena" 0x20200000 0x20300000
  check "$emit: the fast arena in DTCM" in_region "$elf" "m${dot}fast_arena" 0x01000000 0x01004000
  check "$emit: the default state in RETAINED" in_region "$elf" "m${dot}default_state" 0x20300000 0x20310000
  "$fw/run_fw.sh" "$elf" >"$out/placed.log" 2>&1
  "$fw/run_fw.sh" "$out/plain.elf" >"$out/plain.log" 2>&1
  check "$emit: every call returns 0" bash -c "[ \$(grep -c '^status 00000000$' '$out/placed.log') -eq 3 ]"
  check "$emit: the losses are those without the sections" \
    diff <(grep -v '^status' "$out/placed.log") <(grep -v '^status' "$out/plain.log")
  check "$emit: the context call gives the first call's bits" \
    test "$(value "$out/placed.log" loss1)" = "$(value "$out/placed.log" ctx1)"
  check "$emit: the losses are TensorFlow's first and second calls'" python3 - "$case_dir" \
    "$(value "$out/placed.log" loss1)" "$(value "$out/placed.log" loss2)" <<'PY'
import json, struct, sys
case = sys.argv[1]
tol = json.load(open(case + "/case.json"))["tolerance"]
def npy_float(path):
    data = open(path, "rb").read()
    n = struct.unpack("<H", data[8:10])[0]
    return struct.unpack("<f", data[10 + n:10 + n + 4])[0]
ok = True
for call, bits in ((1, sys.argv[2]), (2, sys.argv[3])):
    got = struct.unpack("<f", struct.pack("<I", int(bits, 16)))[0]
    want = npy_float("%s/expected/train/call_%d/loss.npy" % (case, call))
    good = abs(got - want) <= tol["atol"] + tol["rtol"] * abs(want)
    print("call %d: loss %.9g, TensorFlow %.9g%s" % (call, got, want, "" if good else "  <- too far"))
    ok &= good
sys.exit(0 if ok else 1)
PY
done
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
