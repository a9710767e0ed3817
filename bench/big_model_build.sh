#!/usr/bin/env bash
# How long a big model takes to build, by --weights form: `sm2c compile`, then
# `cc -O2 -c` of every .c it writes, one at a time, each under /usr/bin/time -v
# (CPU seconds and peak resident memory).  Writes a table; nothing is asserted.
#   bench/big_model_build.sh SM2C MODEL_DIR [FORM...]    (FORM: inline c obj; default all)
# The ResNet50 of issue 18 is made by
#   /work/main/.venv/bin/python -c "import tensorflow as tf; \
#     tf.keras.applications.ResNet50(weights=None).export('/tmp/resnet50')"
set -euo pipefail
sm2c=$(realpath "$1") model=$(realpath "$2"); shift 2
forms=("$@")
[ ${#forms[@]} -gt 0 ] || forms=(inline c obj)
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/^[[:space:]]*$1: //p" "$2"; }
cpu() { awk -v u="$(field 'User time (seconds)' "$1")" -v s="$(field 'System time (seconds)' "$1")" \
  'BEGIN { print u + s }'; }
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $("$cc" --version | head -1)"
printf '%-7s %10s %9s %10s %12s %10s %9s %12s\n' weights "C bytes" "sm2c s" "sm2c MB" "largest .c" "cc s" "cc MB" "largest cc s"
for form in "${forms[@]}"; do
  out=$tmp/$form
  /usr/bin/time -v "$sm2c" compile "$model" -o "$out" --name m --weights "$form" >/dev/null 2>"$tmp/sm2c.time"
  total=0 peak=0 worst=0 worst_file=
  for f in "$out"/*.c; do
    /usr/bin/time -v "$cc" -std=c99 -O2 -ffp-contract=off -I "$out" -c "$f" -o "$f.o" 2>"$tmp/cc.time"
    s=$(cpu "$tmp/cc.time") kb=$(field 'Maximum resident set size (kbytes)' "$tmp/cc.time")
    total=$(awk -v a="$total" -v b="$s" 'BEGIN { print a + b }')
    [ "$kb" -gt "$peak" ] && peak=$kb
    if awk -v a="$s" -v b="$worst" 'BEGIN { exit !(a > b) }'; then worst=$s worst_file=$(basename "$f"); fi
  done
  printf '%-7s %10d %9.1f %10d %12s %10.1f %9d %12.1f\n' "$form" "$(cat "$out"/*.c | wc -c)" \
    "$(cpu "$tmp/sm2c.time")" "$(( $(field 'Maximum resident set size (kbytes)' "$tmp/sm2c.time") / 1024 ))" \
    "$worst_file" "$total" "$((peak / 1024))" "$worst"
  rm -rf "$out"
done
