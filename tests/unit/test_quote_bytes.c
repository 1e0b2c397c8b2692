/* SPDX-License-Identifier: MIT */
/*
 * test_quote_bytes.c - wj_quote_bytes against what Python's json.dumps
 * writes for the str os.fsdecode makes of the same bytes (written out by
 * hand): ensure_ascii=False and True, strays as \udcxx or as they are.
 */
#include "check.h"
#include "wirejson.h"

#include <stdlib.h>
#include <string.h>

static void expect(const char *in, size_t len, unsigned flags,
                   const char *want)
{
    char *out = NULL;
    size_t n = 0;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_quote_bytes(in, len, flags, NULL, &out, &n, &err) == WJ_OK);
    CHECK_BYTES(out, n, want);
    CHECK(out && out[n] == '\0');
    free(out);
}

int main(void)
{
    /* the short escapes, other controls as \u00xx, DEL as it is */
    expect("a\"b\\\n\r\t\b\f\x01\x1f\x7f", 12, 0,
           "\"a\\\"b\\\\\\n\\r\\t\\b\\f\\u0001\\u001f\x7f\"");
    expect("", 0, 0, "\"\"");
    /* ensure_ascii: DEL, U+00E9 and U+1F600 (a pair) escaped */
    expect("\x7f\xc3\xa9\xf0\x9f\x98\x80", 7, WJ_QUOTE_ASCII,
           "\"\\u007f\\u00e9\\ud83d\\ude00\"");
    /* characters kept as they are without it */
    expect("\xc3\xa9\xf0\x9f\x98\x80", 6, 0, "\"\xc3\xa9\xf0\x9f\x98\x80\"");
    /* stray bytes: as they are, or as their lone surrogates; an encoded
     * surrogate and an overlong form are strays too */
    expect("a\xff", 2, 0, "\"a\xff\"");
    expect("a\xff", 2, WJ_QUOTE_STRAYS, "\"a\\udcff\"");
    expect("\xed\xa0\x80\xc0\xaf", 5, WJ_QUOTE_STRAYS,
           "\"\\udced\\udca0\\udc80\\udcc0\\udcaf\"");
    expect("\xc3", 1, WJ_QUOTE_STRAYS, "\"\\udcc3\"");
    /* ASCII_IF_STRAYS: only a name that holds a stray is written in ASCII */
    expect("\xc3\xa9", 2, WJ_QUOTE_ASCII_IF_STRAYS, "\"\xc3\xa9\"");
    expect("\xc3\xa9\xff", 3, WJ_QUOTE_ASCII_IF_STRAYS,
           "\"\\u00e9\\udcff\"");
    return check_report("test_quote_bytes");
}
