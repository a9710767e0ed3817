#!/usr/bin/env bash
# What a compile writes, and where (issue 31):
#  - a model directory named by a version number (TF Serving's export/1)
#    takes its parent's name by default;
#  - compiling into a directory that holds an earlier output replaces it
#    whole (the files the earlier manifest, OUT/.sm2c-output, lists and the
#    new output lacks are removed), a file the user added there stays, and a
#    directory with other files and no manifest gets the output beside them;
#  - --emit so for a bare-metal target is refused up front with one line;
#  - the header says how to build the output, and doing what it says works.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }
digits=$root/samples/digits/model cnn=$root/tests/data/e2e/cnn/model
run() { "$sm2c" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { test "$(cat "$tmp/rc")" -eq "$1"; }
one_line() { test "$(wc -l <"$tmp/err")" -eq 1 && grep -qF -- "$1" "$tmp/err"; }

# 1. export/1 -> "export", by path and from inside the directory.
mkdir -p "$tmp/My-Export"
cp -r "$digits" "$tmp/My-Export/1"
run compile "$tmp/My-Export/1" -o "$tmp/v1" --shape pixels=1,64
check "export/1 compiles (exit 0)" rc 0
check "export/1 is named my_export" test -f "$tmp/v1/my_export.h" -a -f "$tmp/v1/my_export.c"
(cd "$tmp/My-Export/1" && "$sm2c" compile . -o "$tmp/v2" --shape pixels=1,64 2>/dev/null)
check "'.' inside export/1 is named my_export too" test -f "$tmp/v2/my_export.h"
mkdir -p "$tmp/m2"; cp -r "$digits" "$tmp/m2/v2"
run compile "$tmp/m2/v2" -o "$tmp/v3" --shape pixels=1,64
check "a name that is not a number keeps its own name (v2)" test -f "$tmp/v3/v2.h"

# 2. Replace whole, by the manifest: the CNN's output, then digits' (which
# needs fewer runtime files) over it.
o=$tmp/o
run compile "$cnn" -o "$o" --name cnn
check "first compile (exit 0)" rc 0
check "the output holds a manifest naming it" grep -qx "name cnn" "$o/.sm2c-output"
check "the manifest lists every file written" test \
  "$(sed -n 's/^file //p' "$o/.sm2c-output" | sort | tr '\n' ' ')" = "$(cd "$o" && ls | sort | tr '\n' ' ')"
ls "$o" | sort >"$tmp/cnn.files"
echo "my notes" >"$o/NOTES.txt"
run compile "$digits" -o "$o" --name digits --shape pixels=1,64
check "compiling another model into it (exit 0)" rc 0
check "the manifest names the new output" grep -qx "name digits" "$o/.sm2c-output"
check "no file of the old output is left but the shared ones" test \
  "$(cd "$o" && ls | grep -vx NOTES.txt | sort | tr '\n' ' ')" = \
  "$(sed -n 's/^file //p' "$o/.sm2c-output" | sort | tr '\n' ' ')"
check "cnn.h, cnn.c and the convolution's runtime file are gone" \
  test ! -e "$o/cnn.h" -a ! -e "$o/cnn.c" -a ! -e "$o/sm2c_rt_conv2d_f32.c"
stale=$(comm -23 "$tmp/cnn.files" <(sed -n 's/^file //p' "$o/.sm2c-output" | sort) | wc -l)
check "the old output had files the new one lacks ($stale removed)" test "$stale" -ge 5
check "a file the user added is kept" grep -qx "my notes" "$o/NOTES.txt"
run compile "$digits" -o "$o" --name digits --emit so --shape pixels=1,64
check "an --emit so output replaces the C one (exit 0)" rc 0
check "... leaving the header, the .so and the user's file" test \
  "$(cd "$o" && ls | tr '\n' ' ')" = "NOTES.txt digits.h digits.so "
check "the .so's header says to link the .so" grep -qF "link your program with digits.so" "$o/digits.h"

u=$tmp/user
mkdir -p "$u"; echo 'int main(void) { return 0; }' >"$u/main.c"
run compile "$digits" -o "$u" --name digits --shape pixels=1,64
check "a directory with files and no manifest takes the output beside them (exit 0)" rc 0
check "... removing nothing" test -f "$u/main.c"
check "... and now holds a manifest" grep -qx "name digits" "$u/.sm2c-output"
rm -f "$u/.sm2c-output"
mkdir -p "$tmp/empty"
run compile "$digits" -o "$tmp/empty" --name digits --shape pixels=1,64
check "an empty existing directory is fine (exit 0)" rc 0
printf 'something else\nfile main.c\n' >"$u/.sm2c-output"
run compile "$digits" -o "$u" --name digits --shape pixels=1,64
check "a manifest sm2c did not write is refused (exit 2)" rc 2
check "... naming it" one_line "$u/.sm2c-output: error: not a manifest sm2c wrote; refusing to replace this directory"
check "... main.c untouched" test -f "$u/main.c"

# 3. --emit so for a bare-metal target: one refusal, before the model is read.
run compile /nonexistent/model -o "$tmp/so" --emit so --target thumbv7em-none-eabihf
check "--emit so --target thumbv7em-none-eabihf exit 2" rc 2
check "... one line" one_line \
  "error: compile: --emit so: a bare-metal target (thumbv7em-none-eabihf) has no shared objects (use --emit obj, or c)"
run compile "$digits" -o "$tmp/so" --emit so --target riscv32-unknown-elf --shape pixels=1,64
check "--emit so --target riscv32-unknown-elf exit 2" rc 2
run compile "$digits" -o "$tmp/so" --emit so --cpu cortex-m4 --shape pixels=1,64
check "--emit so --cpu cortex-m4 exit 2, one line" bash -c "test $(cat "$tmp/rc") -eq 2 && test $(wc -l <"$tmp/err") -eq 1"
check "nothing written" test ! -e "$tmp/so"

# 4. The header's build note, and the build it describes.
h=$tmp/v1/my_export.h
check "the header says to compile every .c" grep -q "Build: compile every .c file of this directory" "$h"
check "... with -lm" grep -qF "cc -std=c99 -O2 -I. *.c ../main.c -lm" "$h"
sed 's/digits\.h/my_export.h/; s/digits_/my_export_/g; s/DIGITS_/MY_EXPORT_/g' "$root/samples/digits/predict.c" >"$tmp/main.c"
check "building as the note says works (warning-free)" bash -c \
  "cd '$tmp/v1' && $cc -std=c99 -O2 -Wall -Wextra -Werror -I. *.c ../main.c -lm -o ../predict"
check "... and classifies the digits" bash -c \
  "'$tmp/predict' '$root/samples/digits/images.npy' '$root/samples/digits/labels.npy' | grep -qx '10/10 correct'"
run compile "$digits" -o "$tmp/obj" --name d --emit obj --shape pixels=1,64
check "the object's header names d.o" grep -qF "*.c d.o ../main.c -lm" "$tmp/obj/d.h"
run compile "$digits" -o "$tmp/wo" --name d --weights obj --shape pixels=1,64
check "--weights obj's header names d_weights.o" grep -qF "*.c d_weights.o ../main.c -lm" "$tmp/wo/d.h"
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
