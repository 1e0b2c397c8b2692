/* SPDX-License-Identifier: MIT */
/*
 * test_one_pass.c - the canonical rendering written in one pass
 * (wj_canonical_one_pass) against the parse and the walk over the tape
 * (wj_doc_parse, then wj_render in WJ_STYLE_CANONICAL), on every SIMD path
 * this processor has.  Either the one pass declines (WJ_DECLINED: its
 * buffer's length and bytes as they were, err clear, and the walk still
 * answers), or it answers as the walk does: the same code, the same error
 * (code, offset, reason) or the same bytes.  wj_canonical_json, which tries
 * the one pass first, must always answer as the walk does, and so must
 * wj_data_digest and the batch's wj_digest_text.
 *
 * The documents come from a seeded xorshift generator: objects of 0-40
 * members in random order, names equal after their escapes are decoded,
 * names sharing long prefixes or prefixes of one another, names that sort
 * differently in UTF-16 (U+E000 and up, supplementary characters, lone
 * surrogates), chains 20-40 deep of unsorted objects over a payload large
 * enough that the one pass's bound on moved bytes is passed, strings of
 * every escape and UTF-8 length (some over many 4 KiB chunks), numbers of
 * every shape (some rounding to infinity), whitespace between tokens; a
 * quarter of them then cut short or with a byte flipped, inserted or
 * deleted.
 *
 * WIREJSON_ONE_PASS_CASES sets the number of documents per path.
 */
#include "check.h"
#include "batch.h"
#include "test_heap.h"
#include "wj_internal.h"

#include <stdint.h>
#include <stdlib.h>

#define DEFAULT_CASES 12000

static uint64_t rng_state;

static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static uint32_t below(uint32_t n)
{
    return n ? next_random() % n : 0;
}

/* ------------------------------------------------------- the documents */

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n > t->cap) {
        t->cap = (t->len + n) * 2 + 256;
        t->p = realloc(t->p, t->cap);
        if (!t->p)
            abort();
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
}

static void puts_(text *t, const char *s)
{
    put(t, s, strlen(s));
}

static void putc_(text *t, char c)
{
    put(t, &c, 1);
}

/* Whitespace between tokens, one time in four. */
static void space(text *t)
{
    static const char ws[] = " \t\n\r";
    if (below(4) == 0) {
        uint32_t n = 1 + below(3);
        while (n--)
            putc_(t, ws[below(4)]);
    }
}

static const char *const pieces[] = {
    "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
    "\\u0022", "\\u005c", "\\u005C", "\\u001f", "\\u001F", "\\u0000",
    "\\u00e9", "\\u00E9", "\\u0041", "\\u007f", "\\u2028", "\\u4e2d",
    "\\ud83d\\ude00", "\\uD83D\\uDE00", "\\udbff\\udfff", "\\ud83d",
    "\\ude00", "\\ud800x", "\\ue000", "\\uffff", "\\ufeff",
    "\xc3\xa9", "\xc2\x80", "\xdf\xbf", "\xe4\xb8\xad", "\xe2\x80\xa8",
    "\xee\x80\x80", "\xef\xbd\xa1", "\xef\xbf\xbd", "\xef\xbf\xbf",
    "\xf0\x9f\x98\x80", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
    "e\xcc\x81", "/", "'", "~", " ",
};
#define N_PIECES (sizeof pieces / sizeof *pieces)

/* Plain ASCII without '"' or '\\' (printable, so nothing to escape). */
static void plain(text *t, uint32_t n)
{
    while (n--) {
        char c = (char)('!' + below(94));
        putc_(t, c == '"' || c == '\\' ? 'q' : c);
    }
}

/* A string body (no quotes): plain ASCII runs and pieces. */
static void string_body(text *t, uint32_t most)
{
    uint32_t n = below(most + 1);
    while (n--) {
        if (below(3) == 0) {
            puts_(t, pieces[below(N_PIECES)]);
        } else {
            plain(t, 1 + below(12));
        }
    }
}

/* A string of up to `most` bytes of pieces and plain runs: long ones run
 * over many 64-byte blocks and 4 KiB chunks, with their escapes and UTF-8
 * sequences at every offset in a block. */
static void long_string(text *t, size_t most)
{
    size_t end = t->len + below((uint32_t)most + 1);
    putc_(t, '"');
    while (t->len < end) {
        if (below(4) == 0)
            puts_(t, pieces[below(N_PIECES)]);
        else
            plain(t, 1 + below(80));
    }
    putc_(t, '"');
}

/* Member names: each with its spellings (equal once decoded). */
static const char *const stems[][3] = {
    {"a", "\\u0061", "\\u0061"},
    {"b", "\\u0062", "b"},
    {"c", "c", "c"},
    {"d", "d", "\\u0064"},
    {"z", "z", "z"},
    {"y", "y", "y"},
    {"ab", "a\\u0062", "ab"},
    {"abc", "abc", "ab\\u0063"},
    {"abcd", "abcd", "abcd"},
    {"abcdefghij", "abcdefghij", "abcdefghi\\u006a"},
    {"abcdefghijk", "abcdefghijk", "abcdefghijk"},
    {"A", "A", "\\u0041"},
    {"Z", "Z", "Z"},
    {"_", "_", "_"},
    {"0", "0", "0"},
    {"10", "10", "10"},
    {"9", "9", "9"},
    {"", "", ""},
    {" ", " ", "\\u0020"},
    {"prefix_common_a", "prefix_common_a", "prefix_common_\\u0061"},
    {"prefix_common_b", "prefix_common_b", "prefix_common_b"},
    {"prefix_common_ab", "prefix_common_ab", "prefix_common_ab"},
    {"prefix_common_name_long_y", "prefix_common_name_long_y",
     "prefix_common_name_long_y"},
    {"prefix_common_name_long_z", "prefix_common_name_long_z",
     "prefix_common_name_long_\\u007a"},
    {"prefix_common_name_long_", "prefix_common_name_long_",
     "prefix_common_name_long_"},
    {"prefix_common_name_long_zz", "prefix_common_name_long_zz",
     "prefix_common_name_long_zz"},
    {"\xc3\xa9", "\\u00e9", "\\u00E9"},
    {"e\xcc\x81", "e\\u0301", "e\xcc\x81"},
    {"\xe4\xb8\xad", "\\u4e2d", "\xe4\xb8\xad"},
    {"\xee\x80\x80", "\\ue000", "\\uE000"},
    {"\xef\xbd\xa1", "\\uff61", "\xef\xbd\xa1"},
    {"\xef\xbf\xbd", "\\ufffd", "\xef\xbf\xbd"},
    {"\xf0\x9f\x98\x80", "\\ud83d\\ude00", "\\uD83D\\uDE00"},
    {"\xf0\x90\x80\x80", "\\ud800\\udc00", "\xf0\x90\x80\x80"},
    {"x\xee\x80\x80", "x\\ue000", "x\xee\x80\x80"},
    {"x\xf0\x9f\x98\x80", "x\\ud83d\\ude00", "x\xf0\x9f\x98\x80"},
    {"\\ud800", "\\ud800", "\\uD800"},
    {"\\udfff", "\\udfff", "\\uDFFF"},
    {"\\u001f", "\\u001F", "\\u001f"},
    {"\\\"", "\\u0022", "\\\""},
    {"\\\\", "\\u005c", "\\\\"},
    {"\\n", "\\u000a", "\\n"},
    {"~", "~", "\\u007e"},
    {"\x7f", "\\u007f", "\x7f"},
    {"long_shared_prefix_0123456789_x", "long_shared_prefix_0123456789_x",
     "long_shared_prefix_0123456789_x"},
    {"long_shared_prefix_0123456789_w", "long_shared_prefix_0123456789_w",
     "long_shared_prefix_0123456789_w"},
    {"long_shared_prefix_0123456789", "long_shared_prefix_0123456789",
     "long_shared_prefix_0123456789"},
};
#define N_STEMS (sizeof stems / sizeof *stems)

/* Ordinary names use stems[0 .. N_PLAIN): no UTF-16 question. */
#define N_PLAIN 27

static uint32_t name_serial;

/*
 * The names of an object of n members: distinct (stems drawn without
 * replacement, then names made unique by a serial number), or, one object
 * in forty, drawn from the first few stems with replacement in any
 * spelling (a duplicate, perhaps only once the escapes are decoded).
 * Names that sort differently in UTF-16 come one object in eight.
 */
static void member_name(text *t, uint32_t k, int pool, int wide, char *used)
{
    putc_(t, '"');
    if (pool) {
        puts_(t, stems[below(8)][below(3)]);
    } else if (k < 30 && below(5)) {
        uint32_t range = wide ? (uint32_t)N_STEMS : N_PLAIN, s;
        uint32_t tries = 8;
        do
            s = below(range);
        while (used[s] && --tries);
        if (!used[s]) {
            used[s] = 1;
            puts_(t, stems[s][below(3)]);
        } else {
            char num[32];
            snprintf(num, sizeof num, "n%u", (unsigned)name_serial++);
            puts_(t, num);
        }
    } else {
        /* a long shared prefix, the serial differing late */
        char num[64];
        snprintf(num, sizeof num, "%s%u",
                 below(2) ? "shared_prefix_of_twenty_" : "s",
                 (unsigned)name_serial++);
        puts_(t, num);
    }
    putc_(t, '"');
}

static const char *const numbers[] = {
    "0", "-0", "-0.0", "0.0", "0e0", "-0e-0", "0E+0", "1", "-1", "100",
    "1e2", "1E2", "1e+2", "0.1", "1.5", "-1.25e-7", "1e21", "1e20",
    "1e-7", "1e-6", "123456789012345678", "1234567890123456789",
    "12345678901234567890", "-9999999999999999999", "18446744073709551615",
    "18446744073709551616", "9007199254740993", "9007199254740992",
    "5e-324", "4.9e-324", "1e-400", "-1e-400", "2.2250738585072014e-308",
    "1.7976931348623157e308", "1.7976931348623159e308", "1e308",
    "1e400", "-1e400", "1E+400", "123e456", "0.000001", "1000000000000000000000",
    "3.141592653589793238462643383279", "2e-1", "-2.5E-3",
};
#define N_NUMBERS (sizeof numbers / sizeof *numbers)

static void digits(text *t, uint32_t n, int nonzero_first)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        putc_(t, (char)((i == 0 && nonzero_first ? '1' + below(9)
                                                 : '0' + below(10))));
}

static void number(text *t)
{
    if (below(6) == 0) {
        puts_(t, numbers[below(N_NUMBERS)]);
        return;
    }
    if (below(4) == 0)
        putc_(t, '-');
    if (below(5) == 0)
        putc_(t, '0');
    else
        digits(t, 1 + below(below(2) ? 3 : 20), 1);
    if (below(3) == 0) {
        putc_(t, '.');
        digits(t, 1 + below(below(2) ? 3 : 20), 0);
    }
    if (below(4) == 0) {
        putc_(t, below(2) ? 'e' : 'E');
        if (below(2))
            putc_(t, below(2) ? '+' : '-');
        digits(t, 1 + below(below(8) ? 2 : 3), 0);
    }
}

static void value(text *t, uint32_t depth, size_t budget, int wide);

static void object(text *t, uint32_t depth, size_t budget, int wide)
{
    char used[N_STEMS] = {0};
    uint32_t n = below(6) == 0 ? below(41) : below(6), k;
    int pool = below(40) == 0;
    putc_(t, '{');
    for (k = 0; k < n && t->len < budget; k++) {
        if (k)
            putc_(t, ',');
        space(t);
        member_name(t, k, pool, wide, used);
        space(t);
        putc_(t, ':');
        space(t);
        value(t, depth + 1, budget, wide);
        space(t);
    }
    putc_(t, '}');
}

static void array(text *t, uint32_t depth, size_t budget, int wide)
{
    uint32_t n = below(7), k;
    putc_(t, '[');
    for (k = 0; k < n && t->len < budget; k++) {
        if (k)
            putc_(t, ',');
        space(t);
        value(t, depth + 1, budget, wide);
        space(t);
    }
    putc_(t, ']');
}

static void value(text *t, uint32_t depth, size_t budget, int wide)
{
    uint32_t kind = below(depth < 6 && t->len < budget ? 10 : 6);
    switch (kind) {
    case 0:
    case 1: putc_(t, '"'); string_body(t, 6); putc_(t, '"'); break;
    case 2:
    case 3: number(t); break;
    case 4: puts_(t, below(3) == 0 ? "true" : below(2) ? "false" : "null"); break;
    case 5: putc_(t, '"'); plain(t, below(20)); putc_(t, '"'); break;
    case 6:
    case 7:
    case 8: object(t, depth, budget, wide); break;
    default: array(t, depth, budget, wide); break;
    }
}

/*
 * A chain 20-40 deep of unsorted objects: at each level the next level is
 * the first member in the input and the last in order, so every close
 * moves all that is below it.  Over a payload of a few hundred bytes and
 * more, the moves pass the one pass's bound (MOVES_PER_BYTE in parse.c).
 */
static void chain(text *t, uint32_t depth, size_t payload)
{
    uint32_t level;
    for (level = 0; level < depth; level++) {
        space(t);
        puts_(t, below(4) ? "{\"zz\":" : "{\"z\\u007a\":");
    }
    space(t);
    putc_(t, '"');
    plain(t, (uint32_t)payload);
    putc_(t, '"');
    for (level = 0; level < depth; level++) {
        uint32_t more = below(4), k; /* 0: a single member */
        for (k = 0; k < more; k++) {
            putc_(t, ',');
            space(t);
            putc_(t, '"');
            putc_(t, (char)('a' + k));
            puts_(t, "\":");
            number(t);
        }
        space(t);
        putc_(t, '}');
    }
}

static const char interesting[] = "\"\\,:{}[]\x80\xff\x00 e-0.u";

/* One time in four: cut, or a byte flipped, inserted or deleted. */
static void mutate(text *t)
{
    size_t at;
    if (below(4) != 0 || t->len == 0)
        return;
    at = below((uint32_t)t->len);
    switch (below(4)) {
    case 0: t->len = at; break;
    case 1:
        t->p[at] = below(2) ? interesting[below(sizeof interesting - 1)]
                            : (char)below(256);
        break;
    case 2:
        putc_(t, 0);
        memmove(t->p + at + 1, t->p + at, t->len - 1 - at);
        t->p[at] = below(2) ? interesting[below(sizeof interesting - 1)]
                            : (char)below(256);
        break;
    default:
        memmove(t->p + at, t->p + at + 1, t->len - at - 1);
        t->len--;
        break;
    }
}

/* A random document; *is_chain says whether it is a deep chain. */
static void document(text *t, int *is_chain)
{
    uint32_t shape = below(8);
    t->len = 0;
    *is_chain = shape == 0;
    space(t);
    if (shape == 0) {
        size_t payload = below(2) ? below(200) : 300 + below(3000);
        chain(t, 20 + below(21), payload);
    } else if (shape == 1 && below(2)) {
        puts_(t, "{\"b\":");
        long_string(t, below(4) ? 300 : 12000);
        puts_(t, ",\"a\":[");
        long_string(t, 200);
        putc_(t, ']');
        putc_(t, '}');
    } else if (shape == 1) {
        array(t, 0, 4096, below(8) == 0);
    } else if (shape == 2) {
        value(t, 5, 4096, 0); /* mostly a scalar */
    } else {
        object(t, 0, 4096, below(8) == 0);
    }
    space(t);
    mutate(t);
}

/* ------------------------------------------------------ the comparison */

typedef struct tally {
    long cases, ok, declined, errors, duplicates, chains, chains_declined;
} tally;

static int same_error(const wj_error *a, const wj_error *b)
{
    return a->code == b->code && a->offset == b->offset &&
           (a->msg == b->msg ||
            (a->msg && b->msg && strcmp(a->msg, b->msg) == 0)) &&
           a->argument == b->argument && a->element == b->element;
}

static int error_clear(const wj_error *e)
{
    return e->code == WJ_OK && e->offset == 0 && e->msg == NULL &&
           e->argument == NULL && e->element == WJ_NO_ELEMENT;
}

/* The established way: the parse, then the walk over its tape. */
static wj_code established(const char *json, size_t len, wj_buf *buf,
                           wj_error *err)
{
    wj_render_opts opts = {WJ_STYLE_CANONICAL, NULL, 0};
    wj_doc doc;
    wj_code rc = wj_doc_parse(&doc, json, len, 0, &heap, err);
    if (rc != WJ_OK)
        return rc;
    rc = wj_buf_code(buf, wj_render(&doc, 0, &opts, buf, err), err);
    wj_doc_release(&doc);
    return rc;
}

static void show(const char *what, const char *json, size_t len)
{
    if (check_failures <= 10)
        fprintf(stderr, "%s: path %d, document (%zu bytes): %.*s\n", what,
                wj_simd(), len, (int)len, json);
}

/* The digests that try the one pass first: wj_data_digest (SHA-256 of
 * the walk's bytes) and the batch's wj_digest_text (the walk's bytes). */
static void also_digests(const char *json, size_t len, wj_code want_rc,
                         const wj_buf *want, const wj_error *want_err)
{
    char hex[WJ_DIGEST_HEX_SIZE], want_hex[WJ_DIGEST_HEX_SIZE];
    wj_buf canon = WJ_BUF_INIT(&heap);
    wj_error err = WJ_ERROR_INIT;
    wj_code rc = wj_data_digest(json, len, &heap, hex, &err);
    int same = rc == want_rc;
    if (same && rc == WJ_OK) {
        wj_sha256_hex(want->ptr, want->len, want_hex);
        same = memcmp(hex, want_hex, WJ_DIGEST_HEX_SIZE) == 0;
    } else if (same) {
        same = same_error(&err, want_err);
    }
    CHECK(same);
    if (!same)
        show("wj_data_digest differs from the walk", json, len);

    wj_error_clear(&err);
    rc = wj_digest_text(json, len, 0, NULL, 0, &canon, &err);
    same = rc == want_rc &&
           (rc == WJ_OK ? canon.len == want->len &&
                              memcmp(canon.ptr, want->ptr, want->len) == 0
                        : same_error(&err, want_err));
    CHECK(same);
    if (!same)
        show("wj_digest_text differs from the walk", json, len);
    wj_free(&heap, canon.ptr);
}

/* One document all ways: the walk, the one pass (into a fresh buffer, or
 * every other time one holding `prefix`, which it must keep), then the
 * functions that try the one pass first. */
static void compare(const char *src, size_t len, tally *tl, int is_chain)
{
    static const char prefix[] = "<kept>";
    size_t pre = (tl->cases & 1) ? sizeof prefix - 1 : 0;
    char *json = malloc(len ? len : 1); /* exactly len: reads past it show */
    wj_buf want = WJ_BUF_INIT(&heap), got = WJ_BUF_INIT(&heap);
    wj_error want_err = WJ_ERROR_INIT;
    wj_error got_err = {WJ_ERR_TYPE, 77, "left over", "arg", 5};
    wj_error pub_err = WJ_ERROR_INIT;
    wj_code want_rc, got_rc, pub_rc;
    char *pub = NULL;
    size_t pub_len = 0;

    if (!json)
        abort();
    memcpy(json, src, len);
    tl->cases++;
    tl->chains += is_chain;
    want_rc = established(json, len, &want, &want_err);

    if (pre) {
        CHECK(wj_buf_reserve(&got, pre) == 0);
        wj_buf_put(&got, prefix, pre);
    }
    got_rc = wj_canonical_one_pass(json, len, &heap, &got, &got_err);
    if (got_rc == WJ_DECLINED) {
        int kept = got.len == pre && memcmp(got.ptr, prefix, pre) == 0 &&
                   error_clear(&got_err);
        tl->declined++;
        tl->chains_declined += is_chain;
        CHECK(kept);
        CHECK(want_rc != WJ_ERR_NOMEM); /* the walk still answers */
        if (!kept)
            show("declined, but not as it was", json, len);
    } else {
        int same = got_rc == want_rc;
        if (same && got_rc == WJ_OK)
            same = got.len == pre + want.len &&
                   memcmp(got.ptr, prefix, pre) == 0 &&
                   memcmp(got.ptr + pre, want.ptr, want.len) == 0;
        else if (same)
            same = same_error(&got_err, &want_err) && got.len == pre;
        CHECK(same);
        if (!same) {
            show("one pass differs", json, len);
            if (check_failures <= 10)
                fprintf(stderr,
                        "  one pass %d at %zu (%s): %.*s\n"
                        "  walk     %d at %zu (%s): %.*s\n",
                        got_rc, got_err.offset, got_err.msg,
                        (int)(got.len - pre), got.ptr + pre, want_rc,
                        want_err.offset, want_err.msg, (int)want.len,
                        want.ptr);
        }
        if (got_rc == WJ_OK)
            tl->ok++;
        else
            tl->errors++;
        tl->duplicates += got_rc == WJ_ERR_DUPLICATE;
    }

    /* the public entry point, with the default allocator every other time */
    pub_rc = wj_canonical_json(json, len, (tl->cases & 2) ? NULL : &heap,
                               &pub, &pub_len, &pub_err);
    {
        int same = pub_rc == want_rc &&
                   (pub_rc == WJ_OK
                        ? pub_len == want.len &&
                              memcmp(pub, want.ptr, want.len) == 0
                        : same_error(&pub_err, &want_err) && pub == NULL);
        CHECK(same);
        if (!same)
            show("wj_canonical_json differs from the walk", json, len);
    }
    if (pub_rc == WJ_OK)
        wj_free((tl->cases & 2) ? NULL : &heap, pub);
    also_digests(json, len, want_rc, &want, &want_err);
    wj_free(&heap, want.ptr);
    wj_free(&heap, got.ptr);
    free(json);
    CHECK(heap_live == 0);
}

/* ------------------------------------------------ cases written by hand */

/* The one pass declines or gives `expected`; the public function gives
 * `expected`. */
static void expect_text(const char *json, const char *expected,
                        int must_decline)
{
    wj_buf got = WJ_BUF_INIT(&heap);
    wj_error err = WJ_ERROR_INIT;
    wj_code rc = wj_canonical_one_pass(json, strlen(json), &heap, &got, &err);
    char *pub = NULL;
    size_t pub_len = 0;

    if (must_decline)
        CHECK(rc == WJ_DECLINED);
    if (rc == WJ_OK)
        CHECK_BYTES(got.ptr, got.len, expected);
    else
        CHECK(rc == WJ_DECLINED && got.len == 0 && error_clear(&err));
    wj_free(&heap, got.ptr);
    CHECK(wj_canonical_json(json, strlen(json), &heap, &pub, &pub_len, &err) ==
          WJ_OK);
    CHECK_BYTES(pub, pub_len, expected);
    wj_free(&heap, pub);
    CHECK(heap_live == 0);
}

/* Both ways fail with code at offset (the one pass may decline). */
static void expect_error(const char *json, wj_code code, size_t offset,
                         int one_pass_declines)
{
    wj_buf got = WJ_BUF_INIT(&heap);
    wj_error err = WJ_ERROR_INIT;
    wj_code rc = wj_canonical_one_pass(json, strlen(json), &heap, &got, &err);
    char *pub = NULL;
    size_t pub_len = 0;

    if (one_pass_declines)
        CHECK(rc == WJ_DECLINED && got.len == 0 && error_clear(&err));
    else
        CHECK(rc == code && err.code == code && err.offset == offset &&
              err.msg != NULL);
    wj_free(&heap, got.ptr);
    CHECK(wj_canonical_json(json, strlen(json), &heap, &pub, &pub_len, &err) ==
          code);
    CHECK(err.code == code && err.offset == offset && pub == NULL);
    CHECK(heap_live == 0);
}

static void by_hand(void)
{
    static char deep[8192];
    size_t n = 0;
    int level;

    expect_text("{\"b\":[{\"z\":1,\"y\":2}],\"a\":{\"d\":\"\\u00e9\",\"c\":1e2}}",
                "{\"a\":{\"c\":100,\"d\":\"\xc3\xa9\"},\"b\":[{\"y\":2,\"z\":1}]}",
                0);
    expect_text("{\"b\":1,\"a\":2}", "{\"a\":2,\"b\":1}", 0);
    expect_text(" [ -0 , 1E21, 1e-7, 0.000001, 12345678901234567890 ] ",
                "[0,1e+21,1e-7,0.000001,12345678901234567000]", 0);
    expect_text("{\"ab\":1,\"abc\":2,\"a\":3,\"\":4}",
                "{\"\":4,\"a\":3,\"ab\":1,\"abc\":2}", 0);
    expect_text("{\"prefix_common_name_long_z\":1,"
                "\"prefix_common_name_long_y\":2}",
                "{\"prefix_common_name_long_y\":2,"
                "\"prefix_common_name_long_z\":1}",
                0);
    expect_text("[\"\\u0022\\u005c\\u001f\\/\\b\\f\\n\\r\\t\\u00e9\"]",
                "[\"\\\"\\\\\\u001f/\\b\\f\\n\\r\\t\xc3\xa9\"]", 0);
    /* U+FF61 before U+1F600 in code points, after it in UTF-16 */
    expect_text("{\"\xef\xbd\xa1\":1,\"\xf0\x9f\x98\x80\":2}",
                "{\"\xf0\x9f\x98\x80\":2,\"\xef\xbd\xa1\":1}", 0);
    expect_text("{\"\\ue000\":1,\"\\ud83d\\ude00\":2}",
                "{\"\xf0\x9f\x98\x80\":2,\"\xee\x80\x80\":1}", 0);

    /* {"a":1,"\u0061":2}: the second name's quote is byte 7 */
    expect_error("{\"a\":1,\"\\u0061\":2}", WJ_ERR_DUPLICATE, 7, 0);
    /* [1e400, }: the syntax error at '}' (byte 8), not the range error */
    expect_error("[1e400, }", WJ_ERR_SYNTAX, 8, 1);
    expect_error("[1e400]", WJ_ERR_RANGE, 1, 1);
    expect_error("{\"b\":-1e400}", WJ_ERR_RANGE, 5, 1);
    expect_error("{\"b\":1,\"a\":2", WJ_ERR_SYNTAX, 12, 0);

    /* 40 levels of {"z":{...},"a":0} over 2000 bytes: each close moves
     * all below it, 40 x 2000 bytes, past 8 x the length + 4096 */
    for (level = 0; level < 40; level++)
        n += (size_t)sprintf(deep + n, "{\"z\":");
    deep[n++] = '"';
    memset(deep + n, 'p', 2000);
    n += 2000;
    deep[n++] = '"';
    for (level = 0; level < 40; level++)
        n += (size_t)sprintf(deep + n, ",\"a\":0}");
    deep[n] = 0;
    {
        static char want[8192];
        size_t w = 0;
        for (level = 0; level < 40; level++)
            w += (size_t)sprintf(want + w, "{\"a\":0,\"z\":");
        want[w++] = '"';
        memset(want + w, 'p', 2000);
        w += 2000;
        want[w++] = '"';
        for (level = 0; level < 40; level++)
            want[w++] = '}';
        want[w] = 0;
        expect_text(deep, want, 1);
    }
}

/*
 * Objects of four members whose values are strings of a letter each, too
 * long together for the stack the one pass reorders on: every order of
 * the names in the input, with the longest value under each name in turn,
 * the others short enough to wait aside on the stack or not.  The expected
 * text is the members in name order, written here.
 */
static void long_reorders(void)
{
    static const size_t sizes[2][4] = {{6000, 3000, 2500, 10},
                                       {6000, 100, 200, 10}};
    static const int orders[24][4] = {
        {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2},
        {0, 3, 2, 1}, {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0},
        {1, 3, 0, 2}, {1, 3, 2, 0}, {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3},
        {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0}, {3, 0, 1, 2}, {3, 0, 2, 1},
        {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
    text in = {NULL, 0, 0}, want = {NULL, 0, 0};
    int set, turn, order, k;
    for (set = 0; set < 2; set++)
        for (turn = 0; turn < 4; turn++)
            for (order = 0; order < 24; order++) {
                text *t[2] = {&in, &want};
                int which;
                for (which = 0; which < 2; which++) {
                    t[which]->len = 0;
                    putc_(t[which], '{');
                    for (k = 0; k < 4; k++) {
                        int name = which ? k : orders[order][k];
                        size_t n = sizes[set][(name + turn) % 4];
                        char member[5] = {'"', (char)('a' + name), '"', ':',
                                          '"'};
                        if (k)
                            putc_(t[which], ',');
                        put(t[which], member, 5);
                        while (n--)
                            putc_(t[which], (char)('a' + name));
                        putc_(t[which], '"');
                    }
                    putc_(t[which], '}');
                    putc_(t[which], 0);
                }
                expect_text(in.p, want.p, 0);
            }
    free(in.p);
    free(want.p);
}

/*
 * Escapes and UTF-8 sequences across the edges a long string is checked
 * and written in (64-byte blocks, 4 KiB chunks, the input's end): each at
 * every offset around them, valid or not, against the walk.
 */
static void edges(void)
{
    static const char *const cuts[] = {
        "\\x", "\\n", "\\/", "\\u00e9", "\\u00g9", "\\u12",
        "\\ud83d\\ude00", "\\ud83d\\u12", "\\ud83d", "\xc3\xa9",
        "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xe4\xb8", "\xc3\x28",
        "\x01", "\\",
    };
    static const size_t edge[] = {64, 128, 4096, 8192};
    tally tl = {0, 0, 0, 0, 0, 0, 0};
    text t = {NULL, 0, 0};
    size_t c, e, off;
    int end;
    for (c = 0; c < sizeof cuts / sizeof *cuts; c++)
        for (e = 0; e < sizeof edge / sizeof *edge; e++)
            for (off = edge[e] - 13; off <= edge[e] + 2; off++)
                for (end = 0; end < 2; end++) {
                    /* the string's first byte is at offset 6 */
                    t.len = 0;
                    puts_(&t, "{\"a\":\"");
                    while (t.len < 6 + off)
                        putc_(&t, 'p');
                    puts_(&t, cuts[c]);
                    if (!end)
                        puts_(&t, "pp\"}");
                    compare(t.p, t.len, &tl, 0);
                }
    CHECK(tl.ok > 0 && tl.errors > 0);
    free(t.p);
}

static long cases_wanted(void)
{
    const char *env = getenv("WIREJSON_ONE_PASS_CASES");
    long n = env ? strtol(env, NULL, 10) : DEFAULT_CASES;
    return n > 0 ? n : DEFAULT_CASES;
}

int main(void)
{
    int best = wj_simd(), path;
    long cases = cases_wanted(), i;
    text t = {NULL, 0, 0};

    by_hand();
    long_reorders();
    edges();
    for (path = WJ_SIMD_SCALAR; path <= best; path++) {
        tally tl = {0, 0, 0, 0, 0, 0, 0};
        wj_simd_use(path);
        rng_state = 0x9E3779B97F4A7C15u; /* the same documents on each path */
        name_serial = 0;
        for (i = 0; i < cases; i++) {
            int is_chain;
            document(&t, &is_chain);
            compare(t.p, t.len, &tl, is_chain);
        }
        printf("test_one_pass: path %d: %ld documents, %ld rendered in one "
               "pass, %ld errors (%ld duplicates), %ld declined (%ld of %ld deep "
               "chains)\n",
               path, tl.cases, tl.ok, tl.errors, tl.duplicates, tl.declined,
               tl.chains_declined, tl.chains);
        /* no vacuous pass: each outcome occurred */
        CHECK(tl.ok > cases / 10);
        CHECK(tl.errors > 0);
        CHECK(tl.duplicates > 0);
        CHECK(tl.declined > 0);
        CHECK(tl.chains_declined > 0);
    }
    wj_simd_use(best);
    free(t.p);
    return check_report("test_one_pass");
}
