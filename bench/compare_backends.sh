#!/usr/bin/env bash
# Compare the C path and the LLVM path on one model, side by side in one run:
# compile + build time, code size (model object and runtime objects), and
# inference time (median of repeated runs, bench_run.c).
# usage: bench/compare_backends.sh SM2C MODEL_DIR [sm2c compile options...]
set -eu
sm2c=$(realpath "$1") model=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
runtime_objs() { # compile every runtime .c in $1, print total text size of the objects
  for f in "$1"/*.c; do [ "$(basename "$f")" = "m.c" ] && continue
    $cc -std=c99 -O2 -ffp-contract=off -I"$1" -c "$f" -o "$f.o"; done
}
for path in c obj; do
  out=$tmp/$path
  t_compile=$(secs "$sm2c" compile "$model" -o "$out" --name m --emit "$path" "$@")
  t0=$(date +%s.%N)
  runtime_objs "$out"
  [ "$path" = c ] && $cc -std=c99 -O2 -ffp-contract=off -I"$out" -c "$out/m.c" -o "$out/m.o"
  t1=$(date +%s.%N)
  model_text=$(size -A "$out/m.o" | awk '$1 ~ /^\.text/ {s += $2} END {print s}')
  model_total=$(stat -c %s "$out/m.o")
  rt_text=$(for o in "$out"/*.c.o; do size -A "$o"; done | awk '$1 ~ /^\.text/ {s += $2} END {print s}')
  $cc -std=c99 -O2 -I"$out" -DMODEL=m "$here/bench_run.c" "$out/m.o" "$out"/*.c.o -lm -o "$out/bench"
  printf '%-4s compile %.2fs + build %.2fs; m.o %d bytes (.text %d), runtime .text %d bytes; ' \
    "$path" "$t_compile" "$(echo "$t1 - $t0" | bc)" "$model_total" "$model_text" "$rt_text"
  "$out/bench" 21
  if command -v valgrind >/dev/null; then
    # Instructions for 10 calls (setup included, the same for both paths): timing
    # on a shared machine is noisy, instruction counts are not.
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$out/bench" 1 10 2>&1 |
      awk '/Collected/ {print "     instructions (setup + 10 calls): " $4}'
  fi
done
