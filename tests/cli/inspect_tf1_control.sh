#!/usr/bin/env bash
# `sm2c inspect` counts TF1 control-flow ops (Switch, Merge, Enter, ...) as
# compilable only when functionalization accepts the model's shape of them
# (issue 17): a while frame whose loop variable skips NextIteration lists them
# as not compilable, with the reason, in text and JSON; a well-formed one does not.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if "$@"; then :; else echo "FAIL: $*"; fail=1; fi; }
fixture=$root/tests/data/catalog/tf1_control.pbtxt
mkdir "$tmp/good" "$tmp/bad"
cp "$fixture" "$tmp/good/saved_model.pbtxt"
sed 's|input: "while/NextIteration_1"|input: "x"|' "$fixture" >"$tmp/bad/saved_model.pbtxt"
check test "$(cmp -s "$fixture" "$tmp/bad/saved_model.pbtxt"; echo $?)" -eq 1

"$sm2c" inspect "$tmp/good" >"$tmp/good.txt" 2>&1
check grep -q "^Unsupported ops: 0 of" "$tmp/good.txt"
check test "$(grep -c "TF1 control flow not compilable" "$tmp/good.txt")" -eq 0

"$sm2c" inspect "$tmp/bad" >"$tmp/bad.txt" 2>&1
check grep -q "^Unsupported ops: 6 of 15: Enter, Exit, LoopCond, Merge, NextIteration, Switch$" "$tmp/bad.txt"
check grep -q "^  Enter .*(not compilable yet)" "$tmp/bad.txt"
check grep -q "^TF1 control flow not compilable: TF1 while frame 'while/while_context', node 'while/Enter_1' (Enter): is not a loop variable" "$tmp/bad.txt"
"$sm2c" inspect "$tmp/bad" --json >"$tmp/bad.json" 2>&1
check python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['unsupported_ops'] == ['Enter', 'Exit', 'LoopCond', 'Merge', 'NextIteration', 'Switch'], d['unsupported_ops']
assert 'is not a loop variable' in d['tf1_control_flow_refused']
" "$tmp/bad.json"
# compile agrees with inspect: refused, unsupported (exit 3).
"$sm2c" compile "$tmp/bad" -o "$tmp/out" 2>/dev/null
check test $? -eq 3
[ $fail -eq 0 ] && echo "inspect_tf1_control: all checks passed"
exit $fail
