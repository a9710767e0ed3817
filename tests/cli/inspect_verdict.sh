#!/usr/bin/env bash
# `sm2c inspect` agrees with `sm2c compile` (issue 31): for every signature of
# the models below, inspect's verdict ("compiles" or "does not compile: WHY")
# equals whether `sm2c compile DIR --signature KEY` exits 0, and a refused
# signature's reason is compile's first error.  tests/data/inspect_run/multi
# compiles whole (its string Add too, since issue 33);
# tests/data/bad/control_unbounded_list is refused (an unbounded TensorList);
# the models of ../shared/models are checked too when present.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 checked=0
no() { echo "FAIL: $*"; fail=1; }

# The models whose verdicts are known: their text forms.
multi=$root/tests/data/inspect_run/multi
"$sm2c" inspect "$multi" >"$tmp/text" 2>"$tmp/err" || no "inspect multi exits $?: $(cat "$tmp/err")"
grep -qF "Signatures that do not compile: 0 of 5" "$tmp/text" || no "the summary line: $(grep Signatures "$tmp/text")"
grep -qF "the model's init op, not an entry point" "$tmp/text" || no "the init op is not named as such"
refused=$root/tests/data/bad/control_unbounded_list
"$sm2c" inspect "$refused" >"$tmp/text" 2>"$tmp/err" || no "inspect control_unbounded_list exits $?: $(cat "$tmp/err")"
grep -qF "does not compile: __inference_signature_wrapper_call_68/__inference_call_61: 'TensorArrayV2' (TensorListReserve): the TensorList length is not bounded" "$tmp/text" \
  || no "inspect does not say why control_unbounded_list does not compile"
grep -qF "Signatures that do not compile: 1 of 1: serving_default" "$tmp/text" || no "the summary line: $(grep Signatures "$tmp/text")"

check_model() {
  local dir=$1 name
  name=$(basename "$dir")
  if ! "$sm2c" inspect "$dir" --json >"$tmp/j.json" 2>"$tmp/err"; then
    no "$name: inspect exits $?: $(head -1 "$tmp/err")"
    return
  fi
  python3 - "$tmp/j.json" >"$tmp/verdicts" <<'PY' || { no "$name: bad JSON"; return; }
import json, sys
for s in json.load(open(sys.argv[1]))["signatures"]:
    if s["key"] != "__saved_model_init_op":
        print("%s\t%d\t%s" % (s["key"], s["compiles"], s.get("why", "")))
PY
  while IFS=$'\t' read -r key compiles why; do
    rm -rf "$tmp/o"
    "$sm2c" compile "$dir" -o "$tmp/o" --signature "$key" -q >/dev/null 2>"$tmp/cerr"
    local rc=$? got=0
    [ $rc -eq 0 ] && got=1
    checked=$((checked + 1))
    if [ "$got" != "$compiles" ]; then
      no "$name '$key': inspect says compiles=$compiles, compile exits $rc: $(head -1 "$tmp/cerr")"
    elif [ "$got" = 0 ] && ! grep -q "error: " "$tmp/cerr"; then
      no "$name '$key': compile failed without an error line"
    elif [ "$got" = 0 ] && ! grep -qF -- "${why##*: }" "$tmp/cerr"; then
      no "$name '$key': inspect's reason '$why' is not compile's first error: $(grep -m1 'error: ' "$tmp/cerr")"
    fi
  done <"$tmp/verdicts"
}

check_model "$multi"
for d in "$root"/tests/data/models/* "$root"/samples/half_plus_two; do
  [ -f "$d/saved_model.pb" ] || [ -f "$d/saved_model.pbtxt" ] || continue
  check_model "$d"
done
models=$root/../shared/models
if [ -f "$models/INVENTORY.txt" ]; then
  for d in "$models"/*/; do
    [ -f "$d/saved_model.pb" ] || [ -f "$d/saved_model.pbtxt" ] || continue
    check_model "${d%/}"
  done
else
  echo "note: $models absent; checked tests/data only"
fi
[ $fail -eq 0 ] && echo "inspect_verdict: $checked signatures, inspect and compile agree"
exit $fail
