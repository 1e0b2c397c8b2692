#!/bin/bash
# SPDX-License-Identifier: MIT
# Two builds give the same bytes: every function of the command line, and
# dedup's DIR, over one corpus (bench/corpus.py), compared by SHA-256.  For
# a change that must not change any output (a refactoring):
#
#     bench/same_outputs.sh OLD_BUILD NEW_BUILD [SIZE_MB]
#
# Prints a line per command, "same" or "DIFF"; exits 1 on any DIFF.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
old=$(cd "$1" && pwd)/wirejson
new=$(cd "$2" && pwd)/wirejson
size=${3:-100}
work=$(mktemp -d /tmp/wirejson-same.XXXXXX)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/corpus.py" corpus --seed 1 --size "${size}MB" -o "$work/c.jsonl"
status=0

same() { # label, then the two digests
  if [ "$2" = "$3" ]; then echo "same  ${2:0:16}  $1"
  else echo "DIFF  ${2:0:16} ${3:0:16}  $1"; status=1; fi
}
run() { # function and its --arg values
  local a b
  a=$("$old" "$@" --on-error null "$work/c.jsonl" 2>&1 | sha256sum)
  b=$("$new" "$@" --on-error null "$work/c.jsonl" 2>&1 | sha256sum)
  same "$*" "$a" "$b"
}
run wire_json; run wire_json --arg messages; run wire_json_sorted
run canonical_json; run data_digest; run message_digest
run message_digest --arg content; run messages_digest --member messages
run canonical_arguments
run with_top_level --arg model --arg '"x"'
run tool_schemas --arg function --arg parameters
run encode_with_schemas --arg '[]'; run wirejson_error
run wirejson_error_position; run prefix_digests --member messages
run prompt_prefix_digests
run prompt_prefix_digests --arg canonical
run prompt_prefix_digests --arg tools_set
"$old" dedup -j 2 --out "$work/old" "$work/c.jsonl" "$work/c.jsonl" >/dev/null
"$new" dedup -j 2 --out "$work/new" "$work/c.jsonl" "$work/c.jsonl" >/dev/null
same "dedup (DIR)" "$(cd "$work/old" && find . -type f | sort | xargs sha256sum | sha256sum)" \
                   "$(cd "$work/new" && find . -type f | sort | xargs sha256sum | sha256sum)"
exit $status
