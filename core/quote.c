/*
 * quote.c - raw text as a JSON string literal with the wire rendering's
 * escapes (§4): how tool_schemas carries a schema's bytes, and how the SQL
 * with_top_level quotes a plain-text VALUE.
 *
 * The text is first spelled as a string literal with JSON's short escapes
 * (and \u00xx for the other control characters), checked by the parser (so
 * invalid UTF-8 is refused), then written again by escape.c's wire writer,
 * which owns every escape rule, the combining-mark rule included.
 */
#include "wj_internal.h"

static const char hex_digits[] = "0123456789abcdef";

/* Bytes of the literal spelling of c, including itself. */
static size_t literal_width(unsigned char c)
{
    if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t')
        return 2;
    return c < 0x20 ? 6 : 1;
}

/* Spells text as a string literal (quotes included) into lit. */
static void spell_literal(wj_buf *lit, const char *text, size_t len)
{
    size_t i;
    wj_buf_putc(lit, '"');
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        char *o = lit->ptr + lit->len;
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
            memcpy(o, "\\u00", 4);
            o[4] = hex_digits[c >> 4];
            o[5] = hex_digits[c & 0xF];
            lit->len += 6;
            break;
        }
    }
    wj_buf_putc(lit, '"');
}

wj_code wj_buf_put_quoted(wj_buf *buf, const char *text, size_t len,
                          wj_error *err)
{
    wj_buf lit = {NULL, 0, 0, buf->alloc};
    size_t need = 2, i, body;
    wj_code rc;

    if (len > WJ_MAX_INPUT)
        return wj_fail(err, WJ_ERR_TOOBIG, 0, "input too large");
    for (i = 0; i < len; i++)
        need += literal_width((unsigned char)text[i]);
    if (wj_buf_reserve(&lit, need) != 0)
        return wj_fail_nomem(err);
    spell_literal(&lit, text, len);
    rc = wj_validate(lit.ptr, lit.len, buf->alloc, err);
    if (wj_error_is_input(rc))
        rc = wj_fail(err, WJ_ERR_ARGUMENT, 0, "value is not valid UTF-8");
    body = lit.len - 2;
    if (rc == WJ_OK &&
        wj_write_wire_string(buf, lit.ptr + 1, body, body != len) != 0)
        rc = wj_fail_nomem(err);
    wj_free(buf->alloc, lit.ptr);
    return rc;
}

wj_code wj_quote_text(const char *text, size_t len, const wj_alloc *alloc,
                      char **out, size_t *out_len, wj_error *err)
{
    wj_buf buf = {NULL, 0, 0, alloc};
    wj_code rc;

    *out = NULL;
    if (err)
        err->code = WJ_OK;
    rc = wj_buf_put_quoted(&buf, text, len, err);
    if (rc == WJ_OK)
        return wj_buf_finish(&buf, out, out_len, err);
    wj_free(alloc, buf.ptr);
    return rc;
}
