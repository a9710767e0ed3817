#!/usr/bin/env bash
# Links one Cortex-M4F firmware image: the harness (startup, semihosting,
# harness.c with the fw_case.h found in INCLUDE_DIR) plus the given model
# sources, with the flags of issue 15's table.  Also used by bench/embedded.
#   build_fw.sh OUT.elf INCLUDE_DIR SOURCE.c...
set -eu
out=$1 inc=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
flags=(-std=c99 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -Os -ffp-contract=off
       -ffunction-sections -fdata-sections -Wall -Wextra)
arm-none-eabi-gcc "${flags[@]}" -I"$inc" -I"$here" "$here/startup.c" "$here/semihost.c" \
    "$here/harness.c" "$@" -nostartfiles --specs=nano.specs -T "$here/link.ld" \
    -Wl,--gc-sections -lm -o "$out"
