#!/usr/bin/env bash
# The embedded benchmark of issue 15: the models of tests/data/firmware
# compiled by sm2c, built for a Cortex-M4F at -Os on the firmware test's
# harness (tests/firmware), run under QEMU mps2-an386 with the
# instruction-counting plugin; writes bench/embedded/RESULTS.md with code
# (.text, weights excluded), constants (.rodata, weights included), data, bss,
# painted stack, the header's stack bound and instructions per inference.
#   bench/embedded/run.sh [BUILD_DIR]     (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
fw=$root/tests/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -std=c99 -O2 -Wall -Wextra -shared -fPIC -o "$tmp/insn_count.so" "$fw/insn_count.c"
rows=""
for dir in "$root"/tests/data/firmware/*/; do
  case=$(basename "$dir")
  out=$tmp/$case
  read -r model input shape <<<"$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))
print(c['model'], c['input'], ','.join(map(str, c['shape'])))" "$dir/case.json")"
  "$build/sm2c" compile "$root/$model" -o "$out" --name "$case" --signature serving_default \
    --shape "$input=$shape" 2>/dev/null
  python3 "$fw/fw.py" header "$dir" "$case" serving_default >"$out/fw_case.h"
  "$fw/build_fw.sh" "$out/fw.elf" "$out" "$out"/*.c
  addr() { arm-none-eabi-nm "$out/fw.elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
  "$fw/run_fw.sh" "$out/fw.elf" -plugin "$tmp/insn_count.so,begin=$(addr fw_mark_begin),end=$(addr fw_mark_end)" \
    -d plugin >"$out/run.log" 2>&1
  python3 "$fw/fw.py" check "$dir" "$out/run.log" >/dev/null
  sec() { arm-none-eabi-size -A "$out/fw.elf" | awk -v s="$1" '$1 == s { print $2 }'; }
  stack=$(sed -n 's/^stack //p' "$out/run.log") bound=$(sed -n 's/^bound //p' "$out/run.log")
  insns=$(sed -n 's/^insns //p' "$out/run.log")
  rows+="| $case | $(sec .text) | $(sec .rodata) | $(sec .data) | $(sec .bss) | $stack | $bound | $insns |"$'\n'
done
# The harness alone (no model): what every row's .text includes.
cat >"$tmp/empty.h" <<'H'
#define FW_IN_ELEMENTS 1
#define FW_OUT_ELEMENTS 1
#define FW_STACK_BOUND 0
static const unsigned fw_input_bits[1] = { 0 };
static int fw_empty(const float *x, float *y) { y[0] = x[0]; return 0; }
#define FW_ENTRY fw_empty
H
mkdir -p "$tmp/empty" && cp "$tmp/empty.h" "$tmp/empty/fw_case.h"
"$fw/build_fw.sh" "$tmp/empty/fw.elf" "$tmp/empty"
harness=$(arm-none-eabi-size -A "$tmp/empty/fw.elf" | awk '$1 == ".text" { print $2 }')
load=$(cut -d' ' -f1-3 /proc/loadavg)
cat >"$root/bench/embedded/RESULTS.md" <<EOF2
# Embedded benchmark (issue 15)

Written by \`bench/embedded/run.sh\` on $(date -u +%Y-%m-%d) (load average $load; instruction
counts do not depend on load). Cortex-M4F under QEMU $(qemu-system-arm --version | head -1 | sed 's/.*version //')
(\`-M mps2-an386\`), $(arm-none-eabi-gcc --version | head -1), \`-mcpu=cortex-m4 -mthumb -mfloat-abi=hard
-mfpu=fpv4-sp-d16 -Os -ffp-contract=off -ffunction-sections -fdata-sections -Wl,--gc-sections\`,
newlib-nano, one inference of batch 1, outputs checked against TensorFlow's (tests/data/firmware).

Bytes. \`.text\` is code only (weights are in \`.rodata\`) and includes the harness, $harness B
on its own (startup, semihosting, harness.c). Stack is painted, for the call to the entry point;
the bound is the generated header's \`_STACK_SIZE\`. Instructions are guest instructions between
the harness's two markers (tests/firmware/insn_count.c, a TCG plugin).

| model | .text | .rodata | .data | .bss | stack | stack bound | instructions |
|---|---|---|---|---|---|---|---|
$rows
EOF2
cat "$root/bench/embedded/RESULTS.md"
