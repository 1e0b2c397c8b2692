/* SPDX-License-Identifier: MIT */
/*
 * test_writer.c - the JSON writer (wj_writer_*): every call's bytes,
 * commas and colons, the wire rendering's string escapes, WTF-8 surrogates,
 * doubles as ECMAScript writes them, structure errors, the sticky failure,
 * reset, and allocation failure at every allocation.
 *
 * Expected bytes are written by hand from docs/contract.md §4 (string escapes)
 * and §8 (numbers: ECMAScript's Number-to-String, as Node's String(x)).
 */
#include "check.h"
#include "test_heap.h"
#include "wirejson.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ----------------------------------------------------------------- helpers */

static wj_writer *new_writer(void)
{
    wj_writer *w = NULL;
    CHECK(wj_writer_new(&heap, &w) == WJ_OK && w != NULL);
    return w;
}

/* The writer's text equals expected. */
#define CHECK_TEXT(w, expected)                                                \
    do {                                                                       \
        size_t check_len_ = 0;                                                 \
        wj_error check_err_;                                                   \
        const char *check_t_ = wj_writer_text((w), &check_len_, &check_err_);  \
        CHECK(check_t_ &&check_err_.code == WJ_OK);                            \
        CHECK_BYTES(check_t_, check_len_, (expected));                         \
        CHECK(check_t_ &&check_t_[check_len_] == '\0');                        \
    } while (0)

/* The writer has failed with code and reason msg. */
static void check_failed(wj_writer *w, wj_code code, const char *msg)
{
    size_t len = 7;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_writer_text(w, &len, &err) == NULL);
    CHECK(err.code == code && len == 0);
    CHECK(err.msg && strcmp(err.msg, msg) == 0);
    if (!err.msg || strcmp(err.msg, msg) != 0)
        fprintf(stderr, "  expected \"%s\", got \"%s\"\n", msg,
                err.msg ? err.msg : "(null)");
}

static wj_code put_string(wj_writer *w, const char *s)
{
    return wj_writer_string(w, s, strlen(s));
}

static wj_code put_name(wj_writer *w, const char *s)
{
    return wj_writer_name(w, s, strlen(s));
}

/* ------------------------------------------------------------------ tests */

static void test_every_call(void)
{
    wj_writer *w = new_writer();
    CHECK_TEXT(w, "");
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(put_name(w, "b") == WJ_OK);
    CHECK(wj_writer_int64(w, 1) == WJ_OK);
    CHECK(put_name(w, "a") == WJ_OK);
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK_TEXT(w, "{\"b\":1,\"a\":["); /* the text so far */
    CHECK(put_string(w, "x") == WJ_OK);
    CHECK(wj_writer_null(w) == WJ_OK);
    CHECK(wj_writer_bool(w, 1) == WJ_OK);
    CHECK(wj_writer_bool(w, 0) == WJ_OK);
    CHECK(wj_writer_bool(w, -7) == WJ_OK);
    CHECK(wj_writer_double(w, 0.5) == WJ_OK);
    CHECK(wj_writer_number(w, "1.0E+2", 6) == WJ_OK);
    CHECK(wj_writer_raw(w, "{\"k\": [1, 2]}", 13) == WJ_OK);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(wj_writer_end_object(w) == WJ_OK);
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_end_array(w) == WJ_OK);
    CHECK(put_string(w, "") == WJ_OK);
    CHECK(wj_writer_end_array(w) == WJ_OK);
    CHECK(put_name(w, "") == WJ_OK);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(put_name(w, "n") == WJ_OK);
    CHECK(wj_writer_raw(w, "[]", 2) == WJ_OK);
    CHECK(wj_writer_end_object(w) == WJ_OK);
    CHECK(wj_writer_end_object(w) == WJ_OK);
    CHECK_TEXT(w, "{\"b\":1,\"a\":[\"x\",null,true,false,true,0.5,1.0E+2,"
                  "{\"k\": [1, 2]},{},[],\"\"],\"\":{\"n\":[]}}");
    wj_writer_free(w);

    /* scalars at the top level */
    w = new_writer();
    CHECK(wj_writer_int64(w, INT64_MIN) == WJ_OK);
    CHECK_TEXT(w, "-9223372036854775808");
    wj_writer_reset(w);
    CHECK(wj_writer_int64(w, INT64_MAX) == WJ_OK);
    CHECK_TEXT(w, "9223372036854775807");
    wj_writer_reset(w);
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_int64(w, 0) == WJ_OK);
    CHECK(wj_writer_int64(w, -1) == WJ_OK);
    CHECK(wj_writer_int64(w, 10) == WJ_OK);
    CHECK(wj_writer_end_array(w) == WJ_OK);
    CHECK_TEXT(w, "[0,-1,10]");
    wj_writer_reset(w);
    /* a lexeme is written as given, checked only when parsed */
    CHECK(wj_writer_number(w, "01", 2) == WJ_OK);
    CHECK_TEXT(w, "01");
    CHECK(wj_validate("01", 2, NULL, NULL) == WJ_ERR_SYNTAX);
    wj_writer_free(w);
    wj_writer_free(NULL); /* a no-op */
}

static void test_doubles(void)
{
    /* Node: String(x) */
    static const struct {
        double d;
        const char *text;
    } cases[] = {
        {0.1 + 0.2, "0.30000000000000004"},
        {1e21, "1e+21"},
        {1e20, "100000000000000000000"},
        {1e-7, "1e-7"},
        {-0.0, "0"},
        {5e-324, "5e-324"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
        {-2.5, "-2.5"},
        {100.0, "100"},
    };
    wj_writer *w = new_writer();
    size_t k;
    for (k = 0; k < sizeof cases / sizeof *cases; k++) {
        wj_writer_reset(w);
        CHECK(wj_writer_double(w, cases[k].d) == WJ_OK);
        CHECK_TEXT(w, cases[k].text);
    }
    wj_writer_reset(w);
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_double(w, 1.5) == WJ_OK);
    CHECK(wj_writer_double(w, HUGE_VAL) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "not a finite number");
    /* sticky: nothing more is written */
    CHECK(wj_writer_int64(w, 1) == WJ_ERR_ARGUMENT);
    CHECK(wj_writer_end_array(w) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "not a finite number");
    wj_writer_reset(w);
    CHECK(wj_writer_double(w, -HUGE_VAL) == WJ_ERR_ARGUMENT);
    wj_writer_reset(w);
    CHECK(wj_writer_double(w, NAN) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "not a finite number");
    /* reset forgets the failure */
    wj_writer_reset(w);
    CHECK(wj_writer_double(w, 2.0) == WJ_OK);
    CHECK_TEXT(w, "2");
    wj_writer_free(w);
}

/* One string through wj_writer_string, and as a name. */
static void check_string(const char *utf8, size_t len, const char *expected)
{
    wj_writer *w = new_writer();
    char member[256];
    CHECK(wj_writer_string(w, utf8, len) == WJ_OK);
    CHECK_TEXT(w, expected);
    wj_writer_reset(w);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(wj_writer_name(w, utf8, len) == WJ_OK);
    CHECK(wj_writer_int64(w, 1) == WJ_OK);
    CHECK(wj_writer_end_object(w) == WJ_OK);
    snprintf(member, sizeof member, "{%s:1}", expected);
    CHECK_TEXT(w, member);
    wj_writer_free(w);
}

#define STR(lit, expected) check_string(lit, sizeof lit - 1, expected)

static void test_strings(void)
{
    /* §4: only \" \\ \n \r \t short; \u00xx below U+0020; the rest raw */
    STR("plain", "\"plain\"");
    STR("", "\"\"");
    STR("q\"b\\", "\"q\\\"b\\\\\"");
    STR("\n\r\t", "\"\\n\\r\\t\"");
    STR("\b\f\x01\x1f", "\"\\u0008\\u000c\\u0001\\u001f\"");
    STR("nul\0x", "\"nul\\u0000x\"");
    STR("/\x7f", "\"/\x7f\"");
    STR("caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x80\xa8",
        "\"caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x80\xa8\"");
    /* a combining mark right after an escape is escaped too (U+0301,
     * U+0308 after it; U+1D165 as a surrogate pair); after a plain
     * character it stays raw */
    STR("\n\xcc\x81\xcc\x88x", "\"\\n\\u0301\\u0308x\"");
    STR("\t\xf0\x9d\x85\xa5", "\"\\t\\ud834\\udd65\"");
    STR("e\xcc\x81", "\"e\xcc\x81\"");

    /* WTF-8: encoded surrogates are lowercase \udxxx escapes */
    STR("\xed\xa0\x80", "\"\\ud800\"");
    STR("\xed\xbf\xbf", "\"\\udfff\"");
    STR("a\xed\xb2\x80"
        "b",
        "\"a\\udc80b\"");
    STR("\xed\xaf\xbf\xed\xa0\x80", "\"\\udbff\\ud800\""); /* two highs */
    STR("\xed\xb0\x80\xed\xa0\x80", "\"\\udc00\\ud800\""); /* low, high */
    /* after a surrogate escape, a combining mark is escaped as well */
    STR("\xed\xa0\x80\xcc\x81", "\"\\ud800\\u0301\"");
    /* a high then a low surrogate are one pair in JSON: the character */
    STR("\xed\xa0\xbd\xed\xb8\x80", "\"\xf0\x9f\x98\x80\"");
}

static void check_bad_utf8(const char *bytes, size_t len)
{
    wj_writer *w = new_writer();
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_string(w, bytes, len) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "a string is not valid UTF-8");
    CHECK(wj_writer_string(w, "ok", 2) == WJ_ERR_ARGUMENT); /* sticky */
    wj_writer_reset(w);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(wj_writer_name(w, bytes, len) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "a member name is not valid UTF-8");
    wj_writer_free(w);
}

#define BAD(lit) check_bad_utf8(lit, sizeof lit - 1)

static void test_bad_utf8(void)
{
    BAD("\xff");
    BAD("a\x80");
    BAD("\xc0\x80");         /* overlong NUL */
    BAD("\xe0\x80\xaf");     /* overlong '/' */
    BAD("\xc3");             /* truncated */
    BAD("\xed\xa0");         /* a truncated surrogate */
    BAD("\xf4\x90\x80\x80"); /* above U+10FFFF */
    BAD("\xf8\x88\x80\x80\x80");
}

static void check_misuse(const char *what, wj_code (*steps)(wj_writer *),
                         const char *msg)
{
    wj_writer *w = new_writer();
    CHECK(steps(w) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, msg);
    if (wj_writer_null(w) != WJ_ERR_ARGUMENT)
        fprintf(stderr, "  %s: not sticky\n", what);
    wj_writer_free(w);
}

static wj_code two_roots(wj_writer *w)
{
    wj_writer_int64(w, 1);
    return wj_writer_int64(w, 2);
}

static wj_code value_without_name(wj_writer *w)
{
    wj_writer_begin_object(w);
    return wj_writer_int64(w, 1);
}

static wj_code value_after_member(wj_writer *w)
{
    wj_writer_begin_object(w);
    put_name(w, "a");
    wj_writer_int64(w, 1);
    return wj_writer_begin_array(w);
}

static wj_code name_at_top(wj_writer *w)
{
    return put_name(w, "a");
}

static wj_code name_in_array(wj_writer *w)
{
    wj_writer_begin_array(w);
    return put_name(w, "a");
}

static wj_code two_names(wj_writer *w)
{
    wj_writer_begin_object(w);
    put_name(w, "a");
    return put_name(w, "b");
}

static wj_code end_array_in_object(wj_writer *w)
{
    wj_writer_begin_object(w);
    return wj_writer_end_array(w);
}

static wj_code end_object_in_array(wj_writer *w)
{
    wj_writer_begin_array(w);
    return wj_writer_end_object(w);
}

static wj_code end_at_top(wj_writer *w)
{
    return wj_writer_end_array(w);
}

static wj_code end_twice(wj_writer *w)
{
    wj_writer_begin_object(w);
    wj_writer_end_object(w);
    return wj_writer_end_object(w);
}

static wj_code name_without_value(wj_writer *w)
{
    wj_writer_begin_object(w);
    put_name(w, "a");
    return wj_writer_end_object(w);
}

static void test_structure(void)
{
    wj_writer *w;
    int k;

    check_misuse("two roots", two_roots, "a second value at the top level");
    check_misuse("value without name", value_without_name,
                 "a value in an object needs a member name first");
    check_misuse("value after member", value_after_member,
                 "a value in an object needs a member name first");
    check_misuse("name at top", name_at_top, "a member name outside an object");
    check_misuse("name in array", name_in_array,
                 "a member name outside an object");
    check_misuse("two names", two_names, "two member names in a row");
    check_misuse("end array in object", end_array_in_object, "no array to end");
    check_misuse("end object in array", end_object_in_array,
                 "no object to end");
    check_misuse("end at top", end_at_top, "no array to end");
    check_misuse("end twice", end_twice, "no object to end");
    check_misuse("name without value", name_without_value,
                 "a member name without its value");

    /* no depth limit in the writer: the text is checked when parsed */
    w = new_writer();
    for (k = 0; k < 1001; k++)
        CHECK(wj_writer_begin_array(w) == WJ_OK);
    for (k = 0; k < 1001; k++)
        CHECK(wj_writer_end_array(w) == WJ_OK);
    {
        size_t len;
        const char *t = wj_writer_text(w, &len, NULL);
        wj_error err;
        CHECK(t && len == 2002 && t[0] == '[' && t[1001] == ']');
        CHECK(wj_validate(t, len, NULL, &err) == WJ_ERR_DEPTH &&
              err.offset == 1000);
    }
    wj_writer_free(w);
}

/* The writer's text is input for the other functions. */
static void test_round_trip(void)
{
    wj_writer *w = new_writer();
    char *out = NULL, hex[WJ_DIGEST_HEX_SIZE];
    size_t out_len, len;
    const char *t;

    wj_writer_begin_object(w);
    put_name(w, "role");
    put_string(w, "user");
    put_name(w, "content");
    wj_writer_string(w, "hi\xed\xa0\x80", 5);
    put_name(w, "n");
    wj_writer_double(w, 1e21);
    wj_writer_end_object(w);
    t = wj_writer_text(w, &len, NULL);
    CHECK_BYTES(t, len,
                "{\"role\":\"user\",\"content\":\"hi\\ud800\",\"n\":1e+21}");
    CHECK(wj_wire_json(t, len, NULL, 0, NULL, &out, &out_len, NULL) == WJ_OK);
    CHECK_BYTES(out, out_len,
                "{\"content\":\"hi\\ud800\",\"n\":1e+21,\"role\":\"user\"}");
    wj_free(NULL, out);
    /* hashlib: sha256('{"content":"hi\\ud800","n":1e+21,"role":"user"}') */
    CHECK(wj_message_digest(t, len, NULL, 0, NULL, hex, NULL) == WJ_OK);
    CHECK(strcmp(hex, "31afe0ffe59767289e9e9031d6f51491"
                      "f1bf0d29586d1121fef7ecccec090cdf") == 0);
    wj_writer_free(w);
}

/* reset keeps the memory: writing the same again allocates nothing */
static void test_reset_keeps_memory(void)
{
    wj_writer *w = new_writer();
    size_t calls;
    int k;
    for (k = 0; k < 100; k++)
        put_string(w, k ? "" : "x"), wj_writer_reset(w);
    wj_writer_begin_array(w);
    for (k = 0; k < 1000; k++)
        put_string(w, "abcdefgh");
    wj_writer_end_array(w);
    wj_writer_reset(w);
    calls = heap_calls;
    wj_writer_begin_array(w);
    for (k = 0; k < 1000; k++)
        put_string(w, "abcdefgh");
    wj_writer_end_array(w);
    CHECK(heap_calls == calls);
    wj_writer_free(w);
    CHECK(heap_live == 0);
}

/* A sequence that allocates often: a long string, deep nesting, a slow-path
 * (non-ASCII) string, a double.  Returns the first failure, or WJ_OK. */
static wj_code busy(wj_writer *w, const char *big, size_t big_len)
{
    wj_code rc = WJ_OK, r;
    int k;
#define STEP(call)                                                             \
    do {                                                                       \
        r = (call);                                                            \
        if (rc == WJ_OK)                                                       \
            rc = r;                                                            \
        else                                                                   \
            CHECK(r == rc); /* sticky */                                       \
    } while (0)
    STEP(wj_writer_begin_object(w));
    STEP(put_name(w, "caf\xc3\xa9"));
    STEP(wj_writer_string(w, big, big_len));
    STEP(put_name(w, "deep"));
    for (k = 0; k < 600; k++)
        STEP(wj_writer_begin_array(w));
    STEP(wj_writer_string(w, "\n\xcc\x81\xed\xa0\x80", 6));
    STEP(wj_writer_double(w, 0.1));
    for (k = 0; k < 600; k++)
        STEP(wj_writer_end_array(w));
    STEP(wj_writer_end_object(w));
#undef STEP
    return rc;
}

static void test_alloc_fail(void)
{
    size_t big_len = 5000, n, total;
    char *big = malloc(big_len);
    wj_writer *w;
    size_t k;
    const char *t;
    wj_error err;

    for (k = 0; k < big_len; k++)
        big[k] = "ab\"\n"[k % 4];
    /* count the allocations of the whole run */
    heap_fail_at = 0;
    heap_calls = 0;
    w = new_writer();
    CHECK(busy(w, big, big_len) == WJ_OK);
    t = wj_writer_text(w, &n, NULL);
    CHECK(t && n > big_len);
    wj_writer_free(w);
    total = heap_calls;
    CHECK(total >= 5);
    CHECK(heap_live == 0);

    for (k = 1; k <= total; k++) {
        wj_code rc;
        heap_calls = 0;
        heap_fail_at = k;
        w = NULL;
        rc = wj_writer_new(&heap, &w);
        if (rc != WJ_OK) {
            CHECK(rc == WJ_ERR_NOMEM && w == NULL && k == 1);
            CHECK(heap_live == 0);
            continue;
        }
        rc = busy(w, big, big_len);
        CHECK(rc == WJ_ERR_NOMEM);
        CHECK(wj_writer_text(w, &n, &err) == NULL && err.code == WJ_ERR_NOMEM);
        /* reset gives a working writer again */
        wj_writer_reset(w);
        heap_fail_at = 0;
        CHECK(wj_writer_int64(w, 7) == WJ_OK);
        CHECK_TEXT(w, "7");
        wj_writer_free(w);
        CHECK(heap_live == 0);
    }
    heap_fail_at = 0;
    free(big);
}

/* A canonical writer (docs/contract.md §5): RFC 8785's escapes, numbers as
 * their doubles, names in UTF-16 order; expected bytes by hand, the digest
 * by Python's hashlib over them. */
static void test_canonical(void)
{
    wj_writer *w = NULL;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err = WJ_ERROR_INIT;

    CHECK(wj_writer_new_canonical(&heap, &w) == WJ_OK);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(put_name(w, "a") == WJ_OK);
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_number(w, "1.50", 4) == WJ_OK);
    CHECK(wj_writer_number(w, "-0", 2) == WJ_OK);
    CHECK(wj_writer_number(w, "1E21", 4) == WJ_OK);
    CHECK(wj_writer_int64(w, 9007199254740993) == WJ_OK); /* 2^53 + 1 */
    CHECK(wj_writer_int64(w, -9007199254740992) == WJ_OK);
    CHECK(wj_writer_double(w, 1e-7) == WJ_OK);
    CHECK(put_string(w, "\b\f\x01\n\xcc\x81") == WJ_OK);
    CHECK(wj_writer_string(w, "\xed\xa0\xbd\xed\xb8\x80", 6) == WJ_OK);
    CHECK(wj_writer_end_array(w) == WJ_OK);
    CHECK(put_name(w, "\xf0\x9f\x98\x80") == WJ_OK); /* U+1F600: D83D */
    CHECK(wj_writer_null(w) == WJ_OK);
    CHECK(put_name(w, "\xee\x80\x80") == WJ_OK); /* U+E000 after it */
    CHECK(wj_writer_bool(w, 1) == WJ_OK);
    CHECK(wj_writer_end_object(w) == WJ_OK);
    CHECK_TEXT(w, "{\"a\":[1.5,0,1e+21,9007199254740992,-9007199254740992,"
                  "1e-7,\"\\b\\f\\u0001\\n\xcc\x81\",\"\xf0\x9f\x98\x80\"],"
                  "\"\xf0\x9f\x98\x80\":null,\"\xee\x80\x80\":true}");
    CHECK(wj_writer_digest(w, hex, &err) == WJ_OK);
    CHECK_BYTES(
        hex, strlen(hex),
        "62f002e09487d226d8e0ca4c7c973dc10e76538237ff299b1388bd31a14cec77");

    /* names out of order or repeated, at any depth; an inner object has
     * its own order */
    wj_writer_reset(w);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(put_name(w, "b") == WJ_OK);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(put_name(w, "z") == WJ_OK && wj_writer_null(w) == WJ_OK);
    CHECK(wj_writer_end_object(w) == WJ_OK);
    CHECK(put_name(w, "c") == WJ_OK && wj_writer_null(w) == WJ_OK);
    CHECK(put_name(w, "c") == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT,
                 "member names out of canonical order, or repeated");
    wj_writer_reset(w);
    CHECK(wj_writer_begin_object(w) == WJ_OK);
    CHECK(put_name(w, "\xee\x80\x80") == WJ_OK && wj_writer_null(w) == WJ_OK);
    CHECK(put_name(w, "\xf0\x9f\x98\x80") == WJ_ERR_ARGUMENT);

    /* numbers it cannot write, and fragments */
    wj_writer_reset(w);
    CHECK(wj_writer_number(w, "1e400", 5) == WJ_ERR_RANGE);
    check_failed(w, WJ_ERR_RANGE, "rounds to infinity");
    wj_writer_reset(w);
    CHECK(wj_writer_number(w, "1 ", 2) == WJ_ERR_ARGUMENT);
    wj_writer_reset(w);
    CHECK(wj_writer_number(w, "true", 4) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "not a JSON number");
    wj_writer_reset(w);
    CHECK(wj_writer_raw(w, "[1]", 3) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "a fragment in a canonical writer");
    CHECK(wj_writer_digest(w, hex, &err) == WJ_ERR_ARGUMENT);
    wj_writer_free(w);
}

/* Strings as fixed-width code units, as hosts keep them. */
static void test_units(void)
{
    static const uint8_t latin1[] = {'c', 'a', 'f', 0xE9};
    static const uint16_t utf16[] = {'A', 0xD83D, 0xDE00, 0xD800, '\n', 0x301};
    static const uint32_t big[] = {'a', 0x110000};
    uint16_t run[100];
    char expected[160];
    size_t k;
    wj_writer *w = new_writer(), *c = NULL;

    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_string_units(w, latin1, 4, 1) == WJ_OK);
    CHECK(wj_writer_string_units(w, utf16, 6, 2) == WJ_OK);
    CHECK(wj_writer_string_units(w, utf16, 0, 2) == WJ_OK);
    CHECK(wj_writer_end_array(w) == WJ_OK);
    /* wire: a combining mark after an escape is escaped too */
    CHECK_TEXT(w, "[\"caf\xc3\xa9\",\"A\xf0\x9f\x98\x80\\ud800\\n\\u0301\","
                  "\"\"]");
    CHECK(wj_writer_new_canonical(&heap, &c) == WJ_OK);
    CHECK(wj_writer_string_units(c, utf16, 6, 2) == WJ_OK);
    CHECK_TEXT(c, "\"A\xf0\x9f\x98\x80\\ud800\\n\xcc\x81\"");

    /* long runs of plain units, a quote in the middle, in each width */
    for (k = 0; k < 100; k++)
        run[k] = k == 50 ? '"' : (uint16_t)('a' + k % 26);
    k = 0;
    expected[k++] = '"';
    for (size_t j = 0; j < 100; j++) {
        if (j == 50)
            expected[k++] = '\\';
        expected[k++] = (char)run[j];
    }
    expected[k++] = '"';
    expected[k] = '\0';
    wj_writer_reset(w);
    CHECK(wj_writer_string_units(w, run, 100, 2) == WJ_OK);
    CHECK_TEXT(w, expected);
    {
        uint32_t run32[100];
        for (k = 0; k < 100; k++)
            run32[k] = run[k];
        wj_writer_reset(w);
        CHECK(wj_writer_string_units(w, run32, 100, 4) == WJ_OK);
        CHECK_TEXT(w, expected);
    }

    wj_writer_reset(w);
    CHECK(wj_writer_string_units(w, big, 2, 4) == WJ_ERR_ARGUMENT);
    check_failed(w, WJ_ERR_ARGUMENT, "a code point above U+10FFFF");
    wj_writer_reset(w);
    CHECK(wj_writer_string_units(w, big, 1, 3) == WJ_ERR_ARGUMENT);
    wj_writer_free(w);
    wj_writer_free(c);
}

/* A digest writer: the canonical writer's digest, no text, however long. */
static void test_digest_writer(void)
{
    size_t big_len = 200000;
    char *big = malloc(big_len), hex[WJ_DIGEST_HEX_SIZE];
    wj_writer *w = NULL;
    wj_error err = WJ_ERROR_INIT;
    size_t len = 7;

    memset(big, 'a', big_len);
    CHECK(wj_writer_new_digest(&heap, &w) == WJ_OK);
    CHECK(wj_writer_digest(w, hex, &err) == WJ_OK); /* of no bytes */
    CHECK_BYTES(hex, strlen(hex),
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4"
                "649b934ca495991b7852b855");
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_string(w, big, big_len) == WJ_OK);
    CHECK(wj_writer_number(w, "1.0", 3) == WJ_OK);
    CHECK(wj_writer_end_array(w) == WJ_OK);
    CHECK(wj_writer_text(w, &len, &err) == NULL && len == 0);
    CHECK(err.code == WJ_ERR_ARGUMENT);
    CHECK(wj_writer_digest(w, hex, &err) == WJ_OK);
    /* Python: sha256(b'["' + b'a' * 200000 + b'",1]') */
    CHECK_BYTES(hex, strlen(hex),
                "2f1ae13bbea6f96bb96414538eff175511301765"
                "d6fcdcacb78a6b195b3131b3");
    wj_writer_reset(w); /* and again, after a reset */
    CHECK(wj_writer_begin_array(w) == WJ_OK);
    CHECK(wj_writer_string(w, big, big_len) == WJ_OK);
    CHECK(wj_writer_int64(w, 1) == WJ_OK);
    CHECK(wj_writer_end_array(w) == WJ_OK);
    CHECK(wj_writer_digest(w, hex, &err) == WJ_OK);
    CHECK_BYTES(hex, strlen(hex),
                "2f1ae13bbea6f96bb96414538eff175511301765"
                "d6fcdcacb78a6b195b3131b3");
    wj_writer_free(w);
    free(big);
}

/* wj_name_compare: UTF-16 code units; bytes that are not WTF-8 by bytes. */
static void test_name_compare(void)
{
    CHECK(wj_name_compare("a", 1, "b", 1) < 0);
    CHECK(wj_name_compare("ab", 2, "a", 1) > 0);
    CHECK(wj_name_compare("", 0, "", 0) == 0);
    CHECK(wj_name_compare("\xee\x80\x80", 3, "\xf0\x9f\x98\x80", 4) > 0);
    CHECK(wj_name_compare("\xed\xa0\xbd", 3, "\xf0\x9f\x98\x80", 4) < 0);
    CHECK(wj_name_compare("\xed\xa0\xbd\xed\xb8\x80", 6, "\xf0\x9f\x98\x80",
                          4) == 0);
    CHECK(wj_name_compare("\xff", 1, "\xf0", 1) > 0);
}

int main(void)
{
    test_every_call();
    test_doubles();
    test_strings();
    test_bad_utf8();
    test_structure();
    test_round_trip();
    test_reset_keeps_memory();
    test_alloc_fail();
    test_canonical();
    test_name_compare();
    test_units();
    test_digest_writer();
    CHECK(heap_live == 0);
    return check_report("test_writer");
}
