#!/usr/bin/env bash
# The check of the Cortex-M4 cycle model (tests/firmware/m4_timing.c, used by
# insn_count.c) against a published figure: EEMBC CoreMark built for the
# Cortex-M4F on the firmware harness, run under QEMU mps2-an386 with the
# plugin; its estimated CoreMark/MHz (iterations x 10^6 / cycles) beside
# Arm's published 3.40 CoreMark/MHz for the Cortex-M4.
#
#   bench/embedded/coremark.sh CORE_SRC [ITERATIONS]
#
# CORE_SRC is a checkout of github.com/eembc/coremark (never committed; only
# its core_*.c and coremark.h are compiled, with our port in
# bench/embedded/coremark/).  Prints one Markdown row per optimisation level;
# each run must pass CoreMark's own CRC checks of its performance run.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$(realpath "$1") iterations=${2:-20}
fw=$root/tests/firmware port=$root/bench/embedded/coremark
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -std=c99 -O2 -Wall -Wextra -shared -fPIC -o "$tmp/insn_count.so" "$fw/insn_count.c" "$fw/m4_timing.c"
published=3.40
echo "| flags | iterations | instructions | cycles (P=2) | cycles (P=1 .. 3) | CoreMark/MHz (P=2) | range (P=3 .. 1) | vs Arm's $published |"
echo "|---|---|---|---|---|---|---|---|"
for opt in -Os -O2 -O3; do
  elf=$tmp/coremark$opt.elf
  arm-none-eabi-gcc -std=gnu99 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 $opt \
    -DITERATIONS="$iterations" -DPERFORMANCE_RUN=1 -DCOMPILER_FLAGS="\"$opt\"" -I"$port" -I"$src" -I"$fw" \
    "$src"/core_list_join.c "$src"/core_main.c "$src"/core_matrix.c "$src"/core_state.c "$src"/core_util.c \
    "$port/core_portme.c" "$fw/startup.c" "$fw/semihost.c" "$fw/newlib_sys.c" -nostartfiles --specs=nano.specs -T "$fw/link.ld" \
    -Wl,--gc-sections -o "$elf"
  addr() { arm-none-eabi-nm "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
  "$fw/run_fw.sh" "$elf" -plugin "$tmp/insn_count.so,begin=$(addr fw_mark_begin),end=$(addr fw_mark_end)" \
    -d plugin >"$tmp/run$opt.log" 2>&1 || true
  # The performance run's seed CRC and no CRC error: its list, matrix and state
  # CRCs are checked by CoreMark against the known ones.  (Its "Must execute
  # for at least 10 secs" error is about wall time, which there is none of.)
  if ! grep -q "seedcrc *: 0xe9f5" "$tmp/run$opt.log" || grep -q "ERROR!.*crc" "$tmp/run$opt.log"; then
    echo "error: CoreMark $opt did not validate:" >&2
    cat "$tmp/run$opt.log" >&2
    exit 1
  fi
  python3 - "$tmp/run$opt.log" "$opt" "$iterations" "$published" <<'PY'
import sys
log, opt, it, pub = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
v = {}
for line in open(log):
    w = line.split()
    if len(w) == 2 and w[0] in ('insns', 'cycles', 'cycles_base', 'refills', 'divides'):
        v[w[0]] = int(w[1])
lo, hi = v['cycles_base'] + v['refills'], v['cycles_base'] + 3 * v['refills']
cm = lambda c: it * 1e6 / c
print('| %s | %d | %d | %d | %d .. %d | %.2f | %.2f .. %.2f | %+.0f%% |' % (
    opt, it, v['insns'], v['cycles'], lo, hi, cm(v['cycles']), cm(hi), cm(lo), (cm(v['cycles']) / pub - 1) * 100))
PY
done
