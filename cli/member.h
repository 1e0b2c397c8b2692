/* SPDX-License-Identifier: MIT */
/*
 * A member of a line's object (--member, --time-member), found with the
 * core's wj_tool_schemas: shared by dedup and cache-audit.
 */
#ifndef WIREJSON_CLI_MEMBER_H
#define WIREJSON_CLI_MEMBER_H

#include "cli.h"

/* Decodes the JSON string at s[0..n) (quotes included, valid JSON as the
 * core writes it) into out; 0, or -1 when out of memory. */
int cli_unquote(wk_buf *out, const char *s, size_t n);

/*
 * The exact bytes of member name of the JSON text[0..len) (valid JSON, as
 * wj_validate says) into out: 1 when found; 0 when text is not an object or
 * has no such member, or it is null; -1 with *err set (the object nested so
 * deep that the member cannot be reached, out of memory).  wrap is scratch.
 */
int cli_member_text(const char *text, size_t len, const char *name,
                    wk_buf *wrap, wk_buf *out, wj_error *err);

/* The JSON document a record gives under --member NAME (member.c): the
 * record text[0..len) must be a JSON object with member NAME (quoted: NAME
 * as a JSON string, for messages); its value's text, or when that is a
 * JSON string, the string's bytes.  *doc points into one of the buffers
 * (tmp, out) or NULL (an empty document); NULL returned, or a message
 * (malloc'd) naming fn. */
char *cli_member_document(const char *text, size_t len, const char *name,
                          const char *quoted, const char *fn, wk_buf *tmp,
                          wk_buf *out, const char **doc, size_t *doc_len);

/* Appends s[0..n) as a JSON string (quotes, \" \\ and control characters
 * escaped, other bytes as they are): how messages show a member name. */
int cli_json_quote(wk_buf *b, const char *s, size_t n);

#endif
