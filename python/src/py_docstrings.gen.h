/* SPDX-License-Identifier: MIT */
/* Generated from the table of functions (core/functions.c) by tools/functions_gen.c;
 * do not edit.  Regenerate: cmake --build build --target regenerate-functions */
static const struct wjpy_docstring {
    const char *name, *doc;
} wjpy_docstrings[] = {
    {"wire_json",
     "wire_json(doc, /, *data_members)\n"
     "--\n"
     "\n"
     "The wire rendering: compact, members sorted by code point, a\n"
     "JSON Schema's properties in the order of its required; the\n"
     "top-level members named as data members are data (sorted,\n"
     "never read as schema)." WJPY_DOC_NOTE},
    {"wire_json_sorted",
     "wire_json_sorted(doc, /)\n"
     "--\n"
     "\n"
     "The wire rendering with every object sorted (no property-map\n"
     "rule)." WJPY_DOC_NOTE},
    {"canonical_json",
     "canonical_json(doc, /)\n"
     "--\n"
     "\n"
     "The canonical rendering, RFC 8785 (JCS): the identity key." WJPY_DOC_NOTE},
    {"data_digest",
     "data_digest(doc, /)\n"
     "--\n"
     "\n"
     "SHA-256 of canonical_json(doc), 64 lowercase hex characters." WJPY_DOC_NOTE},
    {"message_digest",
     "message_digest(doc, /, *ignored)\n"
     "--\n"
     "\n"
     "The digest of a chat message (a JSON object) without its null\n"
     "members, without extra and without the members named." WJPY_DOC_NOTE},
    {"messages_digest",
     "messages_digest(doc, /)\n"
     "--\n"
     "\n"
     "SHA-256 of the message_digest hex strings of the array's\n"
     "messages, in order." WJPY_DOC_NOTE},
    {"canonical_arguments",
     "canonical_arguments(text, /)\n"
     "--\n"
     "\n"
     "canonical_json(text) when it succeeds, else text unchanged (a\n"
     "tool call's arguments as models emit them)."},
    {"with_top_level",
     "with_top_level(body, name, value, /)\n"
     "--\n"
     "\n"
     "body with the value of every top-level member called name\n"
     "(after decoding escapes, under simple case folding) replaced\n"
     "by value, every other byte unchanged; None when body is not an\n"
     "object or holds no such member (or name is None).  value is a\n"
     "Python value: a str becomes a JSON string, a Fragment is\n"
     "spliced as it is, None is null."},
    {"tool_schemas",
     "tool_schemas(body, /, *path)\n"
     "--\n"
     "\n"
     "For each element of body's top-level tools array, the exact\n"
     "text found by following the member names of path (None for a\n"
     "tool without one), as a list; None when body has no top-level\n"
     "tools array."},
    {"encode_with_schemas",
     "encode_with_schemas(body, texts, /)\n"
     "--\n"
     "\n"
     "body in the wire rendering (data member messages) with its\n"
     "tools spelled the way function-calling models have seen them,\n"
     "each parameters written as the text in texts when it still\n"
     "says the same.  texts is JSON text or a list of str/None, as\n"
     "tool_schemas gives; None when the tools cannot be spelled."},
    {"wirejson_error",
     "wirejson_error(doc, /)\n"
     "--\n"
     "\n"
     "None when doc is valid input, else the error message (without\n"
     "a function name)." WJPY_DOC_NOTE},
    {"wirejson_error_position",
     "wirejson_error_position(doc, /)\n"
     "--\n"
     "\n"
     "None when doc is valid input, else the 0-based byte offset of\n"
     "the error." WJPY_DOC_NOTE},
    {"prefix_digests",
     "prefix_digests(doc, /)\n"
     "--\n"
     "\n"
     "A list of the messages_digest of each prefix of the array of\n"
     "messages doc (element k: of the first k+1 messages), in linear\n"
     "time." WJPY_DOC_NOTE},
    {"prompt_prefix_digests",
     "prompt_prefix_digests(body, /, mode='sent')\n"
     "--\n"
     "\n"
     "A list of the prompt-cache prefix digests of the request body:\n"
     "one per element (model, tools and response format; system; each\n"
     "message), in mode sent (the default), canonical or tools_set."},
    {"common_prefix_length",
     "common_prefix_length(a, b, /)\n"
     "--\n"
     "\n"
     "The number of leading entries the arrays of prefix digests a\n"
     "and b share (a list or JSON text each)."},
    {"version",
     "version()\n"
     "--\n"
     "\n"
     "The version of the wirejson library."},
};
