/* SPDX-License-Identifier: MIT */
/*
 * test_parse.c - input rules (docs/contract.md §3): what is rejected, at which byte and
 * why; depth limits without C-stack recursion, in a thread with a small
 * stack.
 */
#include "check.h"
#include "wirejson.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

static void rejects(int line, const char *json, size_t len, wj_code code,
                    size_t offset, const char *msg)
{
    wj_error err = WJ_ERROR_INIT;
    wj_code rc = wj_validate(json, len, NULL, &err);
    CHECK(rc == code);
    CHECK(err.code == code);
    CHECK(err.offset == offset);
    CHECK(msg == NULL || (err.msg && strcmp(err.msg, msg) == 0));
    if (rc != code || err.offset != offset)
        fprintf(stderr, "  line %d: got code %d at %zu: %s\n", line, (int)rc,
                err.offset, err.msg ? err.msg : "");
}

#define REJECT(json, code, offset, msg) \
    rejects(__LINE__, json, sizeof(json) - 1, code, offset, msg)
#define ACCEPT(json) CHECK(wj_validate(json, sizeof(json) - 1, NULL, NULL) == WJ_OK)

static void test_grammar(void)
{
    ACCEPT(" \t\r\n{\"a\":[1,-0.5e+3,true,false,null,\"x\"]} \n");
    ACCEPT("\"\\ud800\"");
    ACCEPT("\"\x7f\"");
    REJECT("", WJ_ERR_SYNTAX, 0, "unexpected end of input");
    REJECT("  ", WJ_ERR_SYNTAX, 2, "unexpected end of input");
    REJECT("[1,]", WJ_ERR_SYNTAX, 3, "trailing comma");
    REJECT("{\"a\":1,}", WJ_ERR_SYNTAX, 7, "trailing comma");
    REJECT("{\"a\" 1}", WJ_ERR_SYNTAX, 5, "expected ':' after member name");
    REJECT("{a:1}", WJ_ERR_SYNTAX, 1, "expected '\"' to begin a member name");
    REJECT("[1 2]", WJ_ERR_SYNTAX, 3, "expected ',' or ']' after array element");
    REJECT("{\"a\":1 \"b\":2}", WJ_ERR_SYNTAX, 7,
           "expected ',' or '}' after object member");
    REJECT("[1}", WJ_ERR_SYNTAX, 2, NULL);
    REJECT("1 2", WJ_ERR_SYNTAX, 2, "trailing characters after the value");
    REJECT("[1] x", WJ_ERR_SYNTAX, 4, "trailing characters after the value");
    REJECT("// c\n1", WJ_ERR_SYNTAX, 0, "expected a value");
    REJECT("['a']", WJ_ERR_SYNTAX, 1, "expected a value");
    REJECT("NaN", WJ_ERR_SYNTAX, 0, "expected a value");
    REJECT("nul", WJ_ERR_SYNTAX, 3, "unexpected end of input");
    REJECT("trUe", WJ_ERR_SYNTAX, 2, "invalid literal");
    REJECT("\xef\xbb\xbf{}", WJ_ERR_SYNTAX, 0, "byte order mark is not allowed");
    REJECT("\f1", WJ_ERR_SYNTAX, 0, "expected a value");
}

static void test_numbers(void)
{
    ACCEPT("[0,-0,1.5,1e5,1E+5,1e-5,123456789012345678901234567890]");
    REJECT("01", WJ_ERR_SYNTAX, 1, "leading zero in number");
    REJECT("-01", WJ_ERR_SYNTAX, 2, "leading zero in number");
    REJECT("+1", WJ_ERR_SYNTAX, 0, "expected a value");
    REJECT(".5", WJ_ERR_SYNTAX, 0, "expected a value");
    REJECT("1.", WJ_ERR_SYNTAX, 2, "unexpected end of input");
    REJECT("[1.]", WJ_ERR_SYNTAX, 3, "expected a digit after '.'");
    REJECT("1e", WJ_ERR_SYNTAX, 2, "unexpected end of input");
    REJECT("[1e+]", WJ_ERR_SYNTAX, 4, "expected a digit in the exponent");
    REJECT("[-]", WJ_ERR_SYNTAX, 2, "expected a digit");
    REJECT("-", WJ_ERR_SYNTAX, 1, "unexpected end of input");
    /* digit runs longer than eight bytes end at the right byte, whatever
     * follows: a letter, a '.', a byte >= 0x80, the end */
    ACCEPT("[1234567890123456.12345678901234567e12345678]");
    REJECT("[123456789012x]", WJ_ERR_SYNTAX, 13,
           "expected ',' or ']' after array element");
    REJECT("[0.123456789012345678.]", WJ_ERR_SYNTAX, 21,
           "expected ',' or ']' after array element");
    REJECT("[12345678\xc3\xa9]", WJ_ERR_SYNTAX, 9,
           "expected ',' or ']' after array element");
    REJECT("123456789012345678.", WJ_ERR_SYNTAX, 19, "unexpected end of input");
    REJECT("[1234567890123456789:]", WJ_ERR_SYNTAX, 20,
           "expected ',' or ']' after array element");
}

static void test_strings(void)
{
    REJECT("\"abc", WJ_ERR_SYNTAX, 4, "unexpected end of input");
    REJECT("\"a\x01\"", WJ_ERR_SYNTAX, 2,
           "unescaped control character in string");
    REJECT("\"a\nb\"", WJ_ERR_SYNTAX, 2,
           "unescaped control character in string");
    REJECT("\"\\x\"", WJ_ERR_SYNTAX, 1, "invalid escape sequence");
    REJECT("\"ab\\u12G4\"", WJ_ERR_SYNTAX, 3, "invalid \\u escape");
    {
        static const char nul[] = "\"a\0b\"";
        rejects(__LINE__, nul, 5, WJ_ERR_SYNTAX, 2,
                "unescaped control character in string");
    }
}

/* Every byte after a backslash, in a long string whose 32-byte blocks the
 * parser takes whole (after its first non-ASCII letter), the escape at
 * several offsets of a block: only " \\ / b f n r t make an escape, \\u
 * wants four hex digits, and the error is at the backslash. */
static void test_escape_letters_in_blocks(void)
{
    static const size_t lead[] = {0, 7, 28, 29, 30, 31, 32, 33};
    char doc[128];
    size_t k, n, len;
    unsigned b;
    for (k = 0; k < sizeof lead / sizeof lead[0]; k++) {
        for (b = 0; b < 256; b++) {
            wj_error err = WJ_ERROR_INIT;
            wj_code rc;
            const char *why = b == 'u' ? "invalid \\u escape"
                                       : "invalid escape sequence";
            len = 0;
            doc[len++] = '"';
            doc[len++] = (char)0xC3; /* U+00E9 */
            doc[len++] = (char)0xA9;
            for (n = 0; n < lead[k]; n++)
                doc[len++] = 'x';
            doc[len++] = '\\';
            doc[len++] = (char)b;
            for (n = 0; n < 70; n++)
                doc[len++] = 'y';
            doc[len++] = '"';
            rc = wj_validate(doc, len, NULL, &err);
            if (strchr("\"\\/bfnrt", (int)b) && b) {
                CHECK(rc == WJ_OK);
            } else {
                CHECK(rc == WJ_ERR_SYNTAX && err.offset == 3 + lead[k] &&
                      strcmp(err.msg, why) == 0);
            }
        }
    }
}

/* A \u escape at every offset of a 32-byte block (its digits in the block
 * or past its end), after a first escape that starts the block scan: valid
 * with four hex digits of either case, else an error at its backslash,
 * whichever digit is wrong. */
static void test_u_escapes_in_blocks(void)
{
    static const char *const good[] = {"00e9", "CAFE", "cafe", "0041",
                                       "d83d", "DFFF", "ffff", "0000"};
    char doc[128];
    size_t lead, g, bad, len;
    for (lead = 0; lead < 40; lead++) {
        len = 0;
        doc[len++] = '"';
        doc[len++] = '\\';
        doc[len++] = 'n';
        memset(doc + len, 'x', lead);
        len += lead;
        doc[len++] = '\\';
        doc[len++] = 'u';
        for (g = 0; g < sizeof good / sizeof good[0]; g++) {
            size_t n = len;
            wj_error err = WJ_ERROR_INIT;
            memcpy(doc + n, good[g], 4);
            memset(doc + n + 4, 'y', 40);
            doc[n + 44] = '"';
            CHECK(wj_validate(doc, n + 45, NULL, &err) == WJ_OK);
            for (bad = 0; bad < 4; bad++) {
                char keep = doc[n + bad];
                doc[n + bad] = bad % 2 ? 'g' : '"';
                CHECK(wj_validate(doc, n + 45, NULL, &err) == WJ_ERR_SYNTAX &&
                      err.offset == len - 2 &&
                      strcmp(err.msg, "invalid \\u escape") == 0);
                doc[n + bad] = keep;
            }
        }
    }
}

static void test_utf8(void)
{
    ACCEPT("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"");
    REJECT("\"\xc0\xaf\"", WJ_ERR_UTF8, 1, "invalid UTF-8");         /* overlong */
    REJECT("\"\xe0\x80\xaf\"", WJ_ERR_UTF8, 1, "invalid UTF-8");     /* overlong */
    REJECT("\"\xf0\x80\x80\xaf\"", WJ_ERR_UTF8, 1, "invalid UTF-8"); /* overlong */
    REJECT("\"x\xed\xa0\x80\"", WJ_ERR_UTF8, 2, "invalid UTF-8");    /* surrogate */
    REJECT("\"\xf4\x90\x80\x80\"", WJ_ERR_UTF8, 1, "invalid UTF-8"); /* > 10FFFF */
    REJECT("\"\xf5\x80\x80\x80\"", WJ_ERR_UTF8, 1, "invalid UTF-8");
    REJECT("\"\x80\"", WJ_ERR_UTF8, 1, "invalid UTF-8");
    REJECT("\"\xe2\x82\"", WJ_ERR_UTF8, 1, "invalid UTF-8");         /* truncated */
    REJECT("\"\xe2\x82", WJ_ERR_UTF8, 1, "invalid UTF-8");           /* at the end */
}

static void test_duplicates(void)
{
    ACCEPT("{\"a\":{\"a\":1},\"b\":{\"a\":1}}");
    REJECT("{\"a\":1,\"a\":2}", WJ_ERR_DUPLICATE, 7, "duplicate member name");
    REJECT("{\"a\":1,\"\\u0061\":2}", WJ_ERR_DUPLICATE, 7, NULL);
    REJECT("{\"b\":1,\"x\":{\"y\":1,\"y\":2},\"b\":3}", WJ_ERR_DUPLICATE, 18,
           NULL);
    REJECT("{\"\\ud83d\\ude00\":1,\"\xf0\x9f\x98\x80\":2}", WJ_ERR_DUPLICATE, 18,
           NULL);
    /* The first name that repeats an earlier one, in document order, even
     * when it sorts after another repeat; a third spelling is not it. */
    REJECT("{\"b\":1,\"a\":2,\"b\":3,\"a\":4}", WJ_ERR_DUPLICATE, 13, NULL);
    REJECT("{\"a\":1,\"a\":2,\"a\":3}", WJ_ERR_DUPLICATE, 7, NULL);
    /* More members than a short sort takes: k19..k00, then k07 and k03. */
    REJECT("{\"k19\":0,\"k18\":0,\"k17\":0,\"k16\":0,\"k15\":0,\"k14\":0,"
           "\"k13\":0,\"k12\":0,\"k11\":0,\"k10\":0,\"k09\":0,\"k08\":0,"
           "\"k07\":0,\"k06\":0,\"k05\":0,\"k04\":0,\"k03\":0,\"k02\":0,"
           "\"k01\":0,\"k00\":0,\"k07\":1,\"k03\":1}",
           WJ_ERR_DUPLICATE, 161, NULL);
}

/*
 * Objects of 1 to 12 members (past both the pairwise check of wj_validate
 * and the short sort of the renderings), whose names are drawn from a few
 * with repeats at chosen places, some spelled with an escape: every
 * function reports the same first repeat, found here by the plain rule (the
 * first name, in document order, equal to one before it).
 */
static void test_duplicates_every_size(void)
{
    static const char *const spelled[] = {"ab", "a\\u0062", "b", "ba", "c"};
    static const int decoded[] = {0, 0, 1, 2, 3}; /* "ab" twice */
    unsigned pattern, n, k, j;

    for (n = 1; n <= 12; n++) {
        for (pattern = 0; pattern < 40; pattern++) {
            char json[512];
            size_t len = 0, at[12], expected = 0;
            int id[12], found = 0;
            wj_error err = WJ_ERROR_INIT;
            char *out = NULL;
            size_t out_len;
            json[len++] = '{';
            for (k = 0; k < n; k++) {
                /* mostly distinct names; a pattern's repeats come back */
                unsigned pick = (pattern * 7 + k * (pattern % 5 + 1)) % 9;
                char name[16];
                if (pick < 5) {
                    snprintf(name, sizeof name, "%s", spelled[pick]);
                    id[k] = decoded[pick];
                } else {
                    snprintf(name, sizeof name, "n%u", k);
                    id[k] = 100 + (int)k;
                }
                if (k)
                    json[len++] = ',';
                at[k] = len;
                len += (size_t)snprintf(json + len, sizeof json - len,
                                        "\"%s\":%u", name, k);
            }
            json[len++] = '}';
            json[len] = '\0';
            for (k = 1; k < n && !found; k++)
                for (j = 0; j < k && !found; j++)
                    if (id[j] == id[k]) {
                        expected = at[k];
                        found = 1;
                    }
            if (!found) {
                CHECK(wj_validate(json, len, NULL, NULL) == WJ_OK);
                continue;
            }
            rejects(__LINE__, json, len, WJ_ERR_DUPLICATE, expected,
                    "duplicate member name");
            CHECK(wj_wire_json_sorted(json, len, NULL, &out, &out_len, &err) ==
                  WJ_ERR_DUPLICATE);
            CHECK(err.offset == expected);
            if (err.offset != expected)
                fprintf(stderr, "  %s: rendering says %zu, not %zu\n", json,
                        err.offset, expected);
        }
    }
}

/* The same verdict and offset from a validation and a rendering, which
 * find repeats in different ways. */
static void repeat_at(int line, const char *json, size_t expected)
{
    wj_error err = WJ_ERROR_INIT;
    char *out = NULL;
    size_t out_len, len = strlen(json);
    wj_code rc = wj_wire_json_sorted(json, len, NULL, &out, &out_len, &err);
    if (expected == SIZE_MAX) {
        CHECK(wj_validate(json, len, NULL, NULL) == WJ_OK);
        CHECK(rc == WJ_OK);
        free(out);
        return;
    }
    rejects(line, json, len, WJ_ERR_DUPLICATE, expected,
            "duplicate member name");
    CHECK(rc == WJ_ERR_DUPLICATE && err.offset == expected);
}

/* Names that a quick look at their first and last bytes and their length
 * cannot tell apart, short names near the end of the input, names spelled
 * with escapes, an outer object's names around an inner one's, and more
 * names than a 64-bit filter has bits. */
static void test_repeats_of_look_alike_names(void)
{
    char json[2048];
    size_t len, at_repeat = 0;
    unsigned k;

    repeat_at(__LINE__, "{\"abcdefghXabcdefgh\":1,\"abcdefghYabcdefgh\":2}",
              SIZE_MAX);
    repeat_at(__LINE__, "{\"abcdefghXabcdefgh\":1,\"abcdefghXabcdefgh\":2}",
              23);
    repeat_at(__LINE__, "{\"abcdefgh\":1,\"abcdefgi\":2,\"abcdefgh\":3}", 27);
    repeat_at(__LINE__, "{\"ab\":1,\"ab\":2,\"zzzzzzzzzzzz\":3}", 8);
    repeat_at(__LINE__, "{\"\":1,\"\":2,\"zzzzzzzzzzzz\":3}", 6);
    repeat_at(__LINE__, "{\"x\":0,\"ab\":1}", SIZE_MAX);
    repeat_at(__LINE__, "{\"ab\":0,\"ab\":1}", 8);
    repeat_at(__LINE__, "{\"\\u0061\":1,\"a\":2,\"zzzzzzzzzzzz\":3}", 12);
    repeat_at(__LINE__, "{\"a\":1,\"\\u0061\":2,\"zzzzzzzzzzzz\":3}", 7);
    repeat_at(__LINE__, "{\"abc\":{\"abc\":1},\"abc\":2,\"zzzzzzzzzzzz\":3}",
              17);
    repeat_at(__LINE__, "{\"abc\":{\"x\":1},\"abd\":2,\"zzzzzzzzzzzz\":3}",
              SIZE_MAX);

    /* 100 names, distinct; then with the first one again at the end */
    for (int repeat = 0; repeat < 2; repeat++) {
        len = 0;
        json[len++] = '{';
        for (k = 0; k < 100; k++) {
            if (k)
                json[len++] = ',';
            len += (size_t)snprintf(json + len, sizeof json - len,
                                    "\"name%u\":%u", k, k);
        }
        if (repeat) {
            at_repeat = len + 1;
            len +=
                (size_t)snprintf(json + len, sizeof json - len, ",\"name0\":0");
        }
        json[len++] = '}';
        json[len] = '\0';
        repeat_at(__LINE__, json, repeat ? at_repeat : SIZE_MAX);
    }
}

/* n opening brackets, then n closing ones (or none when open_only). */
static char *nested(size_t n, int open_only, size_t *len)
{
    char *s = malloc(2 * n + 1);
    size_t k;
    for (k = 0; k < n; k++)
        s[k] = '[';
    *len = n;
    if (!open_only) {
        for (k = 0; k < n; k++)
            s[n + k] = ']';
        *len = 2 * n;
    }
    s[*len] = '\0';
    return s;
}

static void test_depth(void)
{
    size_t len;
    char *s = nested(1000, 0, &len);
    char *out = NULL;
    size_t out_len;
    wj_error err;
    CHECK(wj_validate(s, len, NULL, NULL) == WJ_OK);
    CHECK(wj_wire_json(s, len, NULL, 0, NULL, &out, &out_len, NULL) == WJ_OK);
    CHECK(out_len == len && memcmp(out, s, len) == 0);
    wj_free(NULL, out);
    CHECK(wj_canonical_json(s, len, NULL, &out, &out_len, NULL) == WJ_OK);
    wj_free(NULL, out);
    free(s);

    s = nested(1001, 0, &len);
    rejects(__LINE__, s, len, WJ_ERR_DEPTH, 1000, "nesting deeper than 1000");
    free(s);

    /* 1000 objects deep with a scalar inside */
    {
        size_t n = 1000, k, at = 0;
        s = malloc(n * 6 + 8);
        for (k = 0; k < n; k++) {
            memcpy(s + at, "{\"a\":", 5);
            at += 5;
        }
        s[at++] = '1';
        for (k = 0; k < n; k++)
            s[at++] = '}';
        CHECK(wj_validate(s, at, NULL, &err) == WJ_OK);
        free(s);
    }

    /* ten million '[': a clean error, no recursion */
    s = nested(10000000, 1, &len);
    rejects(__LINE__, s, len, WJ_ERR_DEPTH, 1000, NULL);
    free(s);
}

static void *depth_in_thread(void *arg)
{
    (void)arg;
    test_depth();
    return NULL;
}

int main(void)
{
    pthread_attr_t attr;
    pthread_t t;

    test_grammar();
    test_numbers();
    test_strings();
    test_escape_letters_in_blocks();
    test_u_escapes_in_blocks();
    test_utf8();
    test_duplicates();
    test_duplicates_every_size();
    test_repeats_of_look_alike_names();
    test_depth();

    /* the same depth work with a 256 KB stack */
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    CHECK(pthread_create(&t, &attr, depth_in_thread, NULL) == 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    return check_report("test_parse");
}
