# SPDX-License-Identifier: MIT
# wirejson.jq - the jq side of wirejq's builtins.
#
# wirejq puts these definitions in scope of every program, and of every
# module it brings in, the way jq puts ~/.jq there: libjq reads them as the
# start of $HOME/.jq (see prelude.c), so they are bound to jq's own `debug`
# and `input` before any program or module could define its own.
#
# Each definition hands [$__wirejson_call, name, input, arguments...] to
# wirejq through `debug`; wirejq sees its call token as the first element,
# runs the C function and passes the result back as the next `input` (or
# an error, which `try` catches).  $__wirejson_call is renamed, when wirejq
# starts, to a name holding 128 random bits, and bound to a string object
# that only wirejq made: a value that data spells is never a call (see
# bridge.h).  Other `debug` values print as jq prints them, and `input`
# reads real inputs as before.
#
# The build joins these lines into one and drops the comment lines, so the
# definitions add no line to ~/.jq: its line numbers in error messages and
# in $__loc__ stay the user's.  Keep every comment on a line of its own.

def wire_json: [$__wirejson_call, "wire_json", .] | debug | input;
def wire_json($data_members): [$__wirejson_call, "wire_json", ., $data_members] | debug | input;
def wire_json_sorted: [$__wirejson_call, "wire_json_sorted", .] | debug | input;
def canonical_json: [$__wirejson_call, "canonical_json", .] | debug | input;
def data_digest: [$__wirejson_call, "data_digest", .] | debug | input;
def message_digest: [$__wirejson_call, "message_digest", .] | debug | input;
def message_digest($ignored): [$__wirejson_call, "message_digest", ., $ignored] | debug | input;
def messages_digest: [$__wirejson_call, "messages_digest", .] | debug | input;
def canonical_arguments: [$__wirejson_call, "canonical_arguments", .] | debug | input;
def with_top_level($name; $value): [$__wirejson_call, "with_top_level", ., $name, $value] | debug | input;
def tool_schemas($path): [$__wirejson_call, "tool_schemas", ., $path] | debug | input;
def encode_with_schemas($texts): [$__wirejson_call, "encode_with_schemas", ., $texts] | debug | input;
def wire_json_text: [$__wirejson_call, "wire_json_text", .] | debug | input;
def wire_json_text($data_members): [$__wirejson_call, "wire_json_text", ., $data_members] | debug | input;
def wire_json_sorted_text: [$__wirejson_call, "wire_json_sorted_text", .] | debug | input;
def canonical_json_text: [$__wirejson_call, "canonical_json_text", .] | debug | input;
def data_digest_text: [$__wirejson_call, "data_digest_text", .] | debug | input;
def message_digest_text: [$__wirejson_call, "message_digest_text", .] | debug | input;
def message_digest_text($ignored): [$__wirejson_call, "message_digest_text", ., $ignored] | debug | input;
def messages_digest_text: [$__wirejson_call, "messages_digest_text", .] | debug | input;
def wirejson_error: [$__wirejson_call, "wirejson_error", .] | debug | input;
def prefix_digests: [$__wirejson_call, "prefix_digests", .] | debug | input;
