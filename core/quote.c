/* SPDX-License-Identifier: MIT */
/*
 * quote.c - raw text as a JSON string literal with the wire rendering's
 * escapes (§4): how tool_schemas carries a schema's bytes, how the SQL
 * with_top_level quotes a plain-text VALUE, and how the JSON writer
 * (writer.c) writes names and strings.
 *
 * Text that needs no escape and is ASCII is copied between quotes.  Other
 * text is first spelled as a string literal with JSON's short escapes (and
 * \u00xx for the other control characters, \udxxx for an encoded surrogate
 * where the caller allows them), checked by the parser (so invalid UTF-8 is
 * refused), then written again by escape.c's wire writer, which owns every
 * escape rule, the combining-mark rule included.
 */
#include "wj_internal.h"

/* Bytes of the literal spelling of c, including itself. */
static size_t literal_width(unsigned char c)
{
    if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t')
        return 2;
    return c < 0x20 ? 6 : 1;
}

/* The surrogate code unit encoded at text[i] (ED A0 80 .. ED BF BF) when
 * the caller allows them, else 0. */
static uint32_t surrogate_at(const char *text, size_t i, size_t len,
                             unsigned flags)
{
    const unsigned char *s = (const unsigned char *)text + i;
    if (!(flags & WJ_QUOTE_WTF8) || s[0] != 0xED || len - i < 3 ||
        s[1] < 0xA0 || s[1] > 0xBF || (s[2] & 0xC0) != 0x80)
        return 0;
    return 0xD000u | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3Fu);
}

/* Writes \uxxxx (lowercase) at o. */
static void put_u(char *o, uint32_t unit)
{
    o[0] = '\\';
    o[1] = 'u';
    o[2] = wj_hex_digits[unit >> 12 & 0xF];
    o[3] = wj_hex_digits[unit >> 8 & 0xF];
    o[4] = wj_hex_digits[unit >> 4 & 0xF];
    o[5] = wj_hex_digits[unit & 0xF];
}

/* Spells text as a string literal (quotes included) into lit, which has
 * room for it. */
static void spell_literal(wj_buf *lit, const char *text, size_t len,
                          unsigned flags)
{
    size_t i;
    wj_buf_putc(lit, '"');
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        char *o = lit->ptr + lit->len;
        uint32_t unit;
        if (c == 0xED && (unit = surrogate_at(text, i, len, flags)) != 0) {
            put_u(o, unit);
            lit->len += 6;
            i += 2;
            continue;
        }
        switch (literal_width(c)) {
        case 1:
            o[0] = (char)c;
            lit->len += 1;
            break;
        case 2:
            o[0] = '\\';
            o[1] = c == '\n'   ? 'n'
                   : c == '\r' ? 'r'
                   : c == '\t' ? 't'
                               : (char)c;
            lit->len += 2;
            break;
        default:
            put_u(o, c);
            lit->len += 6;
            break;
        }
    }
    wj_buf_putc(lit, '"');
}

/* True when text is printable ASCII without '"' and '\\': its literal is
 * the text between quotes. */
static int is_plain_ascii(const char *text, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c > 0x7E || c == '"' || c == '\\')
            return 0;
    }
    return 1;
}

wj_code wj_buf_put_text(wj_buf *buf, const char *text, size_t len,
                        unsigned flags, const char *invalid, wj_error *err)
{
    wj_buf lit = {NULL, 0, 0, buf->alloc, NULL};
    size_t need = 2, i, body;
    wj_code rc;

    if (len > WJ_MAX_INPUT)
        return wj_fail(err, WJ_ERR_TOOBIG, 0, "input too large");
    if (is_plain_ascii(text, len)) {
        if (wj_buf_reserve(buf, len + 2) != 0)
            return wj_fail_nomem(err);
        wj_buf_putc(buf, '"');
        wj_buf_put(buf, text, len);
        wj_buf_putc(buf, '"');
        return WJ_OK;
    }
    for (i = 0; i < len; i++) {
        if (surrogate_at(text, i, len, flags)) {
            need += 6;
            i += 2;
        } else {
            need += literal_width((unsigned char)text[i]);
        }
    }
    if (wj_buf_reserve(&lit, need) != 0)
        return wj_fail_nomem(err);
    spell_literal(&lit, text, len, flags);
    rc = wj_validate(lit.ptr, lit.len, buf->alloc, err);
    if (wj_error_is_input(rc))
        rc = wj_fail(err, WJ_ERR_ARGUMENT, 0, invalid);
    body = lit.len - 2;
    if (rc == WJ_OK &&
        wj_write_wire_string(buf, lit.ptr + 1, body, body != len) != 0)
        rc = wj_fail_nomem(err);
    wj_free(buf->alloc, lit.ptr);
    return rc;
}

wj_code wj_buf_put_quoted(wj_buf *buf, const char *text, size_t len,
                          wj_error *err)
{
    return wj_buf_put_text(buf, text, len, 0, "value is not valid UTF-8", err);
}

wj_code wj_quote_text(const char *text, size_t len, const wj_alloc *alloc,
                      char **out, size_t *out_len, wj_error *err)
{
    wj_buf buf = {NULL, 0, 0, alloc, NULL};
    wj_code rc;

    *out = NULL;
    wj_error_clear(err);
    rc = wj_buf_put_quoted(&buf, text, len, err);
    if (rc == WJ_OK)
        return wj_buf_finish(&buf, out, out_len, err);
    wj_free(alloc, buf.ptr);
    return rc;
}
