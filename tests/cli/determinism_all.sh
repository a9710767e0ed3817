#!/usr/bin/env bash
# Every model sm2c compiles today compiles byte-identically twice (issue 7,
# docs/reliability.md rule 14): all test models (tests/data, samples) and, when
# ../shared/models is present, every real model there.  Run 1 from the source
# root in the C locale and UTC; run 2 from /tmp with another locale, time zone
# and SOURCE_DATE_EPOCH, into another directory.  Models that do not compile
# must fail the same way both times.  The per-case tests already cover the
# explicit --shape forms; this uses each model's defaults, with --skip-failing
# (a model whose other signatures compile is compared on those).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
alt=$(locale -a 2>/dev/null | grep -vixE 'C|POSIX|C\.utf-?8' | head -n 1)
alt=${alt:-C.UTF-8}
models=()
for d in "$root"/samples/*/model "$root"/samples/half_plus_two "$root"/tests/data/models/*/ \
         "$root"/tests/data/e2e/*/model "$root"/tests/data/ops/*/model "$root"/../shared/models/*/; do
    [ -f "$d/saved_model.pb" ] || [ -f "$d/saved_model.pbtxt" ] && models+=("${d%/}")
done
same=0 failed_same=0 fail=0
for m in "${models[@]}"; do
    i=$((same + failed_same + fail))
    (cd "$root" && env -u SOURCE_DATE_EPOCH LC_ALL=C LANG=C TZ=UTC "$sm2c" compile "$m" -o "$tmp/a$i" --name m --skip-failing \
        >/dev/null 2>"$tmp/e1")
    rc1=$?
    (cd /tmp && LC_ALL=$alt LANG=$alt TZ=Pacific/Kiritimati SOURCE_DATE_EPOCH=86400 \
        "$sm2c" compile "$m" -o "$tmp/b$i" --name m --skip-failing >/dev/null 2>"$tmp/e2")
    rc2=$?
    if [ $rc1 -ne $rc2 ]; then
        echo "FAIL ${m#"$root"/}: exit $rc1 then $rc2"; fail=$((fail + 1))
    elif [ $rc1 -ne 0 ]; then
        failed_same=$((failed_same + 1))
    elif diff -r -q "$tmp/a$i" "$tmp/b$i" >/dev/null; then
        same=$((same + 1))
    else
        echo "FAIL ${m#"$root"/}: outputs differ"; diff -r -q "$tmp/a$i" "$tmp/b$i" | head -3; fail=$((fail + 1))
    fi
    rm -rf "$tmp/a$i" "$tmp/b$i"
done
echo "${#models[@]} models: $same byte-identical twice, $failed_same fail to compile both times, $fail differ"
exit $((fail > 0))
