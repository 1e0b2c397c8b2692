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
int cli_unquote(cli_buf *out, const char *s, size_t n);

/*
 * The exact bytes of member name of the JSON text[0..len) (valid JSON, as
 * wj_validate says) into out: 1 when found; 0 when text is not an object or
 * has no such member, or it is null; -1 with *err set (the object nested so
 * deep that the member cannot be reached, out of memory).  wrap is scratch.
 */
int cli_member_text(const char *text, size_t len, const char *name,
                    cli_buf *wrap, cli_buf *out, wj_error *err);

#endif
