#!/usr/bin/env bash
# Generated C compiles warning-free (docs/design.md "Generated code contract"): every
# model under tests/data/e2e, each signature compiled on its own with the
# --shape flags of its case.json "shapes", then every output .c file built with
# cc and (if installed) clang, -std=c99 -Wall -Wextra -pedantic -Werror -c, at
# -O0 and -O2 (some warnings only appear with optimisation).  One line per case.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "python3 not installed: skipped"; exit 77; }

compilers=(cc)
if command -v clang >/dev/null; then compilers+=(clang); else echo "clang not installed: cc only"; fi
levels=(-O0 -O2)
flags=(-std=c99 -Wall -Wextra -pedantic -Werror -c)

# Phase 1: sm2c compile every signature of every case.  Each model file is
# built on its own; the runtime files, identical across models of one sm2c
# version (checked here), are collected into one directory and built once.
rt=$tmp/runtime
mkdir -p "$rt"
jobs=$tmp/jobs
: >"$jobs"
declare -A case_problems case_nsig
cases=()
for case_dir in "$root"/tests/data/e2e/*/; do
  case_dir=${case_dir%/}
  case=${case_dir##*/}
  [ -f "$case_dir/case.json" ] && [ -d "$case_dir/model" ] || continue
  cases+=("$case")
  case_problems[$case]="" case_nsig[$case]=0
  # one line per signature: KEY then --shape KEY=D0,D1,... for each input
  if ! sigs=$(python3 - "$case_dir/case.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for key in sorted(d["signatures"]):
    shapes = d["signatures"][key].get("shapes", {})
    print(" ".join([key] + ["--shape %s=%s" % (k, ",".join(str(x) for x in v))
                            for k, v in sorted(shapes.items())]))
EOF
  ); then
    case_problems[$case]+="cannot read case.json"$'\n'; continue
  fi
  name=$(tr -c 'A-Za-z0-9_\n' _ <<<"$case")
  mkdir -p "$tmp/$case"
  while read -r sig shape_args; do
    [ -n "$sig" ] || continue
    case_nsig[$case]=$((case_nsig[$case] + 1))
    out=$tmp/$case/$sig
    # shellcheck disable=SC2086
    if ! "$sm2c" compile "$case_dir/model" -o "$out" --name "$name" --signature "$sig" $shape_args \
         >/dev/null 2>"$tmp/$case/$sig.err"; then
      case_problems[$case]+="$sig: sm2c compile failed: $(head -n 1 "$tmp/$case/$sig.err")"$'\n'
      continue
    fi
    for f in "$out"/*; do
      b=${f##*/}
      case $b in
        "$name.c") for cc in "${compilers[@]}"; do for lv in "${levels[@]}"; do
                     echo "$case $cc $lv $out $b $sig"; done; done >>"$jobs" ;;
        "$name.h") ;;
        *) if [ ! -e "$rt/$b" ]; then
             cp "$f" "$rt/$b"
             [[ $b == *.c ]] && for cc in "${compilers[@]}"; do for lv in "${levels[@]}"; do
                                  echo "runtime $cc $lv $rt $b -"; done; done >>"$jobs"
           elif ! cmp -s "$f" "$rt/$b"; then
             case_problems[$case]+="$sig: runtime file $b differs from another model's copy"$'\n'
           fi ;;
      esac
    done
  done <<<"$sigs"
done

# Phase 2: every compilation, in parallel; a failure leaves LOG.fail.
build_one() { # case cc level dir file sig
  local log=$tmp/logs/$1-$6-$2$3-$5 label="$6: "
  [ "$6" = - ] && label=""
  (cd "$tmp/logs" && "$2" "${flags[@]}" "$3" -I "$4" "$4/$5" -o "$log.o" >"$log.log" 2>&1) ||
    echo "$label$2 $3 $5: $(grep -m 1 -E 'error|warning' "$log.log")" >"$log.fail"
}
export -f build_one
export tmp
export FLAGS="${flags[*]}"
mkdir -p "$tmp/logs"
xargs -P "$(nproc)" -L 1 bash -c 'flags=($FLAGS); build_one "$@"' _ <"$jobs"

report() { # label, problems (newline-separated), what was built
  if [ -z "$2" ]; then
    echo "ok   $1: $3"; passed=$((passed + 1))
  else
    echo "FAIL $1: $3"; sed 's/^/       /' <<<"${2%$'\n'}"; fail=$((fail + 1))
  fi
}
n_rt=$(find "$rt" -name '*.c' | wc -l)
report runtime "$(cat "$tmp"/logs/runtime-*.fail 2>/dev/null)" \
  "$n_rt files, each under ${compilers[*]} x ${levels[*]}"
for case in "${cases[@]}"; do
  p=${case_problems[$case]}$(cat "$tmp/logs/$case"-*.fail 2>/dev/null)
  [ "${case_nsig[$case]}" -gt 0 ] || p+="no signatures in case.json"
  report "$case" "$p" "${case_nsig[$case]} signature(s), model .c under ${compilers[*]} x ${levels[*]}"
done

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
