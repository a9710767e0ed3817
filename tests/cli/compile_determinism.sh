#!/usr/bin/env bash
# sm2c compile is deterministic (docs/design.md "Generated code contract",
# docs/reliability.md rule 14): the same command gives byte-identical files whatever
# the working directory, locale, time zone or SOURCE_DATE_EPOCH, and leaves no
# temporary files behind.
#
# The same argv runs twice into the same output path, once from the repo root
# and once from /tmp with a different environment, moving the first result
# aside in between.  A third run from the repo root names the model by a
# relative path and writes elsewhere: the banner records only the model's base
# name and the options that shape the code, so its files must be byte-identical
# too, and no output may mention a directory.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A locale other than the one the first run uses: one with a decimal comma if
# installed (it would expose printf("%f") under setlocale), else any UTF-8 one.
alt_locale=C.utf8
locales=$(locale -a 2>/dev/null || true)
for want in de_DE.utf8 fr_FR.utf8 ru_RU.utf8; do
  if grep -qx "$want" <<<"$locales"; then alt_locale=$want; break; fi
done
if [ "$alt_locale" = C.utf8 ]; then
  other=$(grep -vixE 'C|POSIX|C\.utf-?8' <<<"$locales" | head -n 1)
  [ -n "$other" ] && alt_locale=$other
fi
grep -qix "$alt_locale" <<<"$locales" || alt_locale=C.UTF-8
echo "alternate environment: LC_ALL=$alt_locale TZ=Pacific/Kiritimati SOURCE_DATE_EPOCH=86400, cwd /tmp"

# name, model dir relative to the root, then --shape flags (leading dims are
# unknown in all three; tf1_builder and cnn get a batch other than the default 1)
cases=(
  "digits samples/digits/model --shape pixels=1,64"
  "cnn tests/data/e2e/cnn/model --shape image=2,16,16,3"
  "tf1_builder tests/data/e2e/tf1_builder/model --shape x=3,6"
)

for c in "${cases[@]}"; do
  read -r name rel shapes <<<"$c"
  # shellcheck disable=SC2206
  shape_args=($shapes)
  out=$tmp/$name/out
  mkdir -p "$tmp/$name"
  argv=(compile "$root/$rel" -o "$out" --name "$name" "${shape_args[@]}")

  # run 1: repo root, C locale, UTC, no SOURCE_DATE_EPOCH
  if ! (cd "$root" && env -u SOURCE_DATE_EPOCH LC_ALL=C LANG=C TZ=UTC "$sm2c" "${argv[@]}" 2>"$tmp/$name/err1"); then
    echo "FAIL: $name: first compile"; cat "$tmp/$name/err1"; fail=$((fail + 1)); continue
  fi
  mv "$out" "$tmp/$name/one"
  # run 2: /tmp, another locale, another zone, SOURCE_DATE_EPOCH set
  if ! (cd /tmp && LC_ALL=$alt_locale LANG=$alt_locale TZ=Pacific/Kiritimati SOURCE_DATE_EPOCH=86400 \
        "$sm2c" "${argv[@]}" 2>"$tmp/$name/err2"); then
    echo "FAIL: $name: second compile"; cat "$tmp/$name/err2"; fail=$((fail + 1)); continue
  fi
  mv "$out" "$tmp/$name/two"
  check "$name: wrote $name.h, $name.c and runtime files" \
    test -s "$tmp/$name/one/$name.h" -a -s "$tmp/$name/one/$name.c" -a -s "$tmp/$name/one/sm2c_rt.h"
  check "$name: byte-identical across directory, locale, TZ, SOURCE_DATE_EPOCH" \
    diff -r "$tmp/$name/one" "$tmp/$name/two"
  check "$name: same stderr summary" cmp -s "$tmp/$name/err1" "$tmp/$name/err2"
  check "$name: no temporary files left beside the output" \
    test -z "$(find "$tmp/$name" -maxdepth 2 -name '.sm2c-tmp-*' -print -quit)"

  # run 3: repo root, relative model path, another output dir
  if ! (cd "$root" && "$sm2c" compile "$rel" -o "$tmp/$name/rel" --name "$name" "${shape_args[@]}" 2>/dev/null); then
    echo "FAIL: $name: relative compile"; fail=$((fail + 1)); continue
  fi
  check "$name: relative model path, other output dir: byte-identical" \
    diff -r "$tmp/$name/one" "$tmp/$name/rel"
  check "$name: output never mentions the working directory" \
    bash -c '! grep -rqF -- "$1" "$2"' _ "$root" "$tmp/$name/rel"
done

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
