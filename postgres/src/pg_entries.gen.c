/* SPDX-License-Identifier: MIT */
/* Generated from the table of functions (core/functions.c) by tools/functions_gen.c;
 * do not edit.  Regenerate: cmake --build build --target regenerate-functions */
ENTRY(wirejson_wire_json, "wire_json")
ENTRY(wirejson_wire_json_sorted, "wire_json_sorted")
ENTRY(wirejson_canonical_json, "canonical_json")
ENTRY(wirejson_data_digest, "data_digest")
ENTRY(wirejson_message_digest, "message_digest")
ENTRY(wirejson_messages_digest, "messages_digest")
ENTRY(wirejson_canonical_arguments, "canonical_arguments")
ENTRY(wirejson_with_top_level, "with_top_level")
ENTRY(wirejson_tool_schemas, "tool_schemas")
ENTRY(wirejson_encode_with_schemas, "encode_with_schemas")
ENTRY(wirejson_error, "wirejson_error")
ENTRY(wirejson_error_position, "wirejson_error_position")
ENTRY(wirejson_version, "wirejson_version")
ENTRY(wirejson_prompt_prefix_digests, "prompt_prefix_digests")
ENTRY(wirejson_common_prefix_length, "common_prefix_length")
