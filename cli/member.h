/* SPDX-License-Identifier: MIT */
/*
 * A member of a line's object (--member, --time-member), found with the
 * kit's wk_member_text: function mode's document and a member's quoting.
 */
#ifndef WIREJSON_CLI_MEMBER_H
#define WIREJSON_CLI_MEMBER_H

#include "cli.h"

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
