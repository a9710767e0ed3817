#!/usr/bin/env bash
# Runs one firmware image under QEMU's MPS2 AN386 (Cortex-M4F), semihosting
# on; extra arguments go to QEMU (the instruction-counting plugin).
#   run_fw.sh FW.elf [qemu args...]
set -eu
elf=$1
shift
exec timeout 60 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -nographic -monitor none \
    -serial none -semihosting-config enable=on,target=native -kernel "$elf" "$@"
