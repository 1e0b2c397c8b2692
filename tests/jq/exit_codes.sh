#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Exit statuses and error output of wirejq where its builtins are involved,
# and of the options only wirejq has (--version, --help, --run-tests).
#   usage: exit_codes.sh WIREJQ
set -u
wirejq=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# expect STATUS STDERR-PATTERN STDIN ARGS... : runs wirejq, checks the
# status and that stderr matches the extended regex (empty: no stderr).
expect() {
  local want=$1 pattern=$2 input=$3
  shift 3
  local got err
  printf '%s' "$input" | "$wirejq" "$@" >"$work/out" 2>"$work/err"
  got=$?
  err=$(cat "$work/err")
  if [ "$got" != "$want" ]; then
    echo "FAIL: wirejq $* -> status $got, want $want (stderr: $err)"
    failed=$((failed + 1))
  elif [ -z "$pattern" ] && [ -n "$err" ]; then
    echo "FAIL: wirejq $* -> unexpected stderr: $err"
    failed=$((failed + 1))
  elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$work/err"; then
    echo "FAIL: wirejq $* -> stderr does not match /$pattern/: $err"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}

# expect_out WANT-STDOUT STDIN ARGS... : status 0 and exactly this stdout.
expect_out() {
  local want=$1 input=$2
  shift 2
  local got
  got=$(printf '%s' "$input" | "$wirejq" "$@" 2>&1)
  if [ "$got" != "$want" ]; then
    echo "FAIL: wirejq $* -> $got, want $want"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}

# a builtin's error is a runtime error: status 5, jq's error line
expect 5 '^wirejq: error \(at <stdin>:0\): message_digest: a message must be a JSON object$' \
  '[1]' message_digest
expect 5 'error \(at <stdin>:0\): tool_schemas: malformed JSON at byte 1' '"{,}"' 'tool_schemas([])'
# caught, it is no error
expect 0 '' '[1]' 'try message_digest catch "caught"'
# the last input decides, as in jq 1.6
expect 0 'a message must be a JSON object' '[1] {}' message_digest
expect 5 'a message must be a JSON object' '{} [1]' message_digest
# wrong arity is a compile error, status 3, named as jq names it
expect 3 '^wirejq: error: wire_json/2 is not defined at <top-level>, line 1:' 'null' 'wire_json(1;2)'
expect 3 'wirejq: 1 compile error' 'null' 'data_digest(1)'
# -e over builtin results: null from with_top_level gives 1, no output 4
expect 1 '' '"{}"' -e 'with_top_level("model"; 1)'
expect 0 '' '"{\"model\":0}"' -e 'with_top_level("model"; 1)'
expect 4 '' '{}' -e 'data_digest | empty'
expect 5 'must be a JSON object' '1' -e message_digest
# invalid input, missing file, usage
expect 4 '^parse error: ' '{"a":' data_digest
expect 2 'Could not open file' '' data_digest "$work/missing.json"
expect 2 'Unknown option' '' --no-such-option data_digest
expect 2 'takes two parameters' '' -n --arg x
# halt_error keeps its status
expect 7 '^stop$' 'null' 'data_digest | "stop\n" | halt_error(7)'
# debug output is untouched by the builtins' traffic through debug
expect 0 '^\["DEBUG:",\{"a":1\}\]$' '{"a":1}' 'debug | data_digest'
# --version and --help
expect 0 '' '' --version
# "wirejq-" and the library's version (install.version checks it is
# wirejson.h's)
"$wirejq" --version | grep -Eqx 'wirejq-[0-9]+\.[0-9]+\.[0-9]+' \
  && passed=$((passed + 1)) || { echo "FAIL: --version format"; failed=$((failed + 1)); }
for b in 'with_top_level(\$name; \$value)' 'wire_json_text(\$data_members)' wirejson_error prefix_digests; do
  "$wirejq" --help | grep -q "$b" \
    && passed=$((passed + 1)) || { echo "FAIL: --help does not list $b"; failed=$((failed + 1)); }
done
expect 0 '' '' -h
# --run-tests: 0 when all pass, 1 when one fails
printf 'data_digest | length\nnull\n64\n' >"$work/ok.test"
printf 'data_digest | length\nnull\n63\n' >"$work/bad.test"
expect 0 '' '' --run-tests "$work/ok.test"
expect 1 '' '' --run-tests "$work/bad.test"
expect_out 64 '{"a":1}' -r 'data_digest | length'
# input and inputs still read real inputs around builtin calls
expect_out '[2,3]' '1 2 3' -c '[data_digest | length | input, input]'
expect_out '["a","b"]' '"a" "b"' -c -n '[inputs | canonical_arguments]'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
