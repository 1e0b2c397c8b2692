# wirejson.jq - the jq side of wirejq's builtins.
#
# wirejq splices these definitions into every program it compiles, right
# after the program's own `module` directive and `import`/`include` lines,
# so programs call them as if jq had them.  Each one hands
# [tag, name, input, arguments...] to wirejq through `debug`; wirejq sees the
# tag, runs the C function and passes the result back as the next `input`
# (or an error, which `try` catches).  Untagged `debug` values print as jq
# prints them and `input` reads real inputs as before.
#
# The build joins these lines into one and drops the comment lines, so the
# definitions add no line to the program: line numbers in error messages
# and in $__loc__ stay the user's.  Keep every comment on a line of its own.

def wire_json: ["\u0000wirejson", "wire_json", .] | debug | input;
def wire_json($data_members): ["\u0000wirejson", "wire_json", ., $data_members] | debug | input;
def wire_json_sorted: ["\u0000wirejson", "wire_json_sorted", .] | debug | input;
def canonical_json: ["\u0000wirejson", "canonical_json", .] | debug | input;
def data_digest: ["\u0000wirejson", "data_digest", .] | debug | input;
def message_digest: ["\u0000wirejson", "message_digest", .] | debug | input;
def message_digest($ignored): ["\u0000wirejson", "message_digest", ., $ignored] | debug | input;
def messages_digest: ["\u0000wirejson", "messages_digest", .] | debug | input;
def canonical_arguments: ["\u0000wirejson", "canonical_arguments", .] | debug | input;
def with_top_level($name; $value): ["\u0000wirejson", "with_top_level", ., $name, $value] | debug | input;
def tool_schemas($path): ["\u0000wirejson", "tool_schemas", ., $path] | debug | input;
def encode_with_schemas($texts): ["\u0000wirejson", "encode_with_schemas", ., $texts] | debug | input;
