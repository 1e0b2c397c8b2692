/* SPDX-License-Identifier: MIT */
/*
 * test_simd.c - every SIMD path writes the same bytes, and WIREJSON_SIMD
 * chooses the path.
 *
 *   test_simd              strings with an escape, a quote or a UTF-8
 *                          character at every offset of a 16-, a 32- and a
 *                          64-byte block, through the parser and each
 *                          writer, on every path this processor has (the
 *                          test sets the core's one decision, cpu.c,
 *                          itself): each path's bytes against the others'
 *                          and against the bytes the rule below writes.
 *   test_simd --path P     the path the core chose is P (scalar, sse2,
 *                          avx2; sha: avx2) capped by what the processor
 *                          has; any other P: the fastest it has.  Run with
 *                          WIREJSON_SIMD=P.
 */
#include "check.h"
#include "escape_policy.h"
#include "sha256_multi.h"
#include "simd.h"
#include "wj_internal.h"

#include <stdint.h>
#include <stdlib.h>

static int best_path(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (wj_cpu_has_avx512())
        return WJ_SIMD_AVX512;
    if (__builtin_cpu_supports("avx2"))
        return WJ_SIMD_AVX2;
    return __builtin_cpu_supports("sse2") ? WJ_SIMD_SSE2 : WJ_SIMD_SCALAR;
#else
    return WJ_SIMD_SCALAR;
#endif
}

static int path_named(const char *name)
{
    if (strcmp(name, "scalar") == 0)
        return WJ_SIMD_SCALAR;
    if (strcmp(name, "sse2") == 0)
        return WJ_SIMD_SSE2;
    if (strcmp(name, "avx2") == 0 || strcmp(name, "sha") == 0)
        return WJ_SIMD_AVX2;
    return WJ_SIMD_AVX512; /* avx512, and anything else: no cap */
}

/* A piece of a string: as a JSON literal's body has it, and the code
 * points it stands for (0-terminated). */
typedef struct piece {
    const char *json;
    uint32_t cps[4];
} piece;

static const piece pieces[] = {
    {"\\\"", {'"'}},
    {"\\\\", {'\\'}},
    {"\\/", {'/'}},
    {"/", {'/'}},
    {"\\b", {8}},
    {"\\f", {12}},
    {"\\n", {10}},
    {"\\r", {13}},
    {"\\t", {9}},
    {"\\u0001", {1}},
    {"\\u001f", {0x1F}},
    {"\\u0041", {'A'}},
    {"\\u007f", {0x7F}},
    {"\x7f", {0x7F}},
    {"\\u00e9", {0xE9}},
    {"\xc3\xa9", {0xE9}},
    {"\\u4e2d", {0x4E2D}},
    {"\xe4\xb8\xad", {0x4E2D}},
    {"\\ud83d\\ude00", {0x1F600}},
    {"\xf0\x9f\x98\x80", {0x1F600}},
    {"\\\\\\\"", {'\\', '"'}},
    {"\\\\\\\\\\\\", {'\\', '\\', '\\'}},
    {"\\n\xcc\x81", {10, 0x301}},
    {"\\t\\u0301\xcc\x82", {9, 0x301, 0x302}},
    {"\\\\\\n\xe4\xb8\xad", {'\\', 10, 0x4E2D}},
};

/* Room for one rendering of the longest string. */
#define MAX_OUT 512

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/*
 * The rule, written out here on its own: a string of code points in the
 * wire rendering (canonical 0) or the canonical one (RFC 8785).  '"' and
 * '\\' and \n \r \t take their short escapes in both, \b \f in the canonical
 * one only; other controls \u00xx; the rest as UTF-8 but, in the wire
 * rendering, a combining mark (those used here: U+0300-U+036F) that follows
 * an escape is escaped too.
 */
static size_t expected(const uint32_t *cps, size_t n, int canonical, char *o)
{
    static const char hex[] = "0123456789abcdef";
    size_t len = 0, k;
    int after_escape = 0;
    o[len++] = '"';
    for (k = 0; k < n; k++) {
        uint32_t cp = cps[k];
        const char *short_form = NULL;
        if (cp == '"')
            short_form = "\\\"";
        else if (cp == '\\')
            short_form = "\\\\";
        else if (cp == '\n')
            short_form = "\\n";
        else if (cp == '\r')
            short_form = "\\r";
        else if (cp == '\t')
            short_form = "\\t";
        else if (canonical && cp == '\b')
            short_form = "\\b";
        else if (canonical && cp == '\f')
            short_form = "\\f";
        if (short_form) {
            memcpy(o + len, short_form, 2);
            len += 2;
            after_escape = 1;
        } else if (cp < 0x20 ||
                   (!canonical && after_escape && cp >= 0x300 && cp <= 0x36F)) {
            o[len++] = '\\';
            o[len++] = 'u';
            o[len++] = hex[cp >> 12 & 15];
            o[len++] = hex[cp >> 8 & 15];
            o[len++] = hex[cp >> 4 & 15];
            o[len++] = hex[cp & 15];
            after_escape = 1;
        } else {
            len += put_utf8(o + len, cp);
            after_escape = 0;
        }
    }
    o[len++] = '"';
    return len;
}

/* One rendering of every path, compared with the rule's bytes. */
typedef struct outputs {
    char bytes[WJ_SIMD_AVX512][MAX_OUT];
    size_t len[WJ_SIMD_AVX512];
} outputs;

static void compare(const char *what, const piece *pc, size_t at,
                    const outputs *got, int n_paths, const char *want,
                    size_t want_len)
{
    int k;
    for (k = 0; k < n_paths; k++) {
        check_count++;
        if (got->len[k] != want_len ||
            memcmp(got->bytes[k], want, want_len) != 0) {
            check_failures++;
            fprintf(stderr,
                    "%s, piece \"%s\" at %zu, path %d:\n  expected %.*s\n"
                    "  got      %.*s\n",
                    what, pc->json, at, k + 1, (int)want_len, want,
                    (int)got->len[k], got->bytes[k]);
        }
    }
}

static void put_string(outputs *o, int path, const char *text, size_t len,
                       int canonical)
{
    wj_buf buf = WJ_BUF_INIT(NULL);
    int rc = wj_write_text(&buf, text, len,
                           canonical ? WJ_QUOTE_CANONICAL : 0);
    CHECK(rc == 0 && buf.len <= MAX_OUT);
    if (rc == 0 && buf.len <= MAX_OUT) {
        memcpy(o->bytes[path - 1], buf.ptr, buf.len);
        o->len[path - 1] = buf.len;
    }
    free(buf.ptr);
}

static void put_units(outputs *o, int path, const uint32_t *cps, size_t n,
                      int width)
{
    uint16_t u16[MAX_OUT];
    size_t k, m = 0;
    wj_buf buf = WJ_BUF_INIT(NULL);
    int rc;
    for (k = 0; k < n; k++) {
        if (width == 2 && cps[k] >= 0x10000) {
            u16[m++] = (uint16_t)(0xD800 + ((cps[k] - 0x10000) >> 10));
            u16[m++] = (uint16_t)(0xDC00 + ((cps[k] - 0x10000) & 0x3FF));
        } else {
            u16[m++] = (uint16_t)cps[k];
        }
    }
    rc = width == 2 ? wj_write_units(&buf, u16, m, 2, 0)
                    : wj_write_units(&buf, cps, n, 4, 0);
    CHECK(rc == 0 && buf.len <= MAX_OUT);
    if (rc == 0 && buf.len <= MAX_OUT) {
        memcpy(o->bytes[path - 1], buf.ptr, buf.len);
        o->len[path - 1] = buf.len;
    }
    free(buf.ptr);
}

static void render(outputs *o, int path, const char *doc, size_t len,
                   int canonical)
{
    char *out = NULL;
    size_t out_len = 0;
    wj_code rc = canonical
                     ? wj_canonical_json(doc, len, NULL, &out, &out_len, NULL)
                     : wj_wire_json(doc, len, NULL, 0, NULL, &out, &out_len,
                                    NULL);
    CHECK(rc == WJ_OK && out_len <= MAX_OUT);
    if (rc == WJ_OK && out_len <= MAX_OUT) {
        memcpy(o->bytes[path - 1], out, out_len);
        o->len[path - 1] = out_len;
    }
    wj_free(NULL, out);
}

/* The piece at offset `at` of a string of filler (the filler's bytes
 * differ from block to block, so a block's bytes are never all alike).
 * With `lead`, the string opens with a \t: the parser's block scan then
 * starts right after it, and the piece falls at every offset of its
 * 64-byte blocks too, in a whole block or in the last one. */
static void boundaries(const piece *pc, size_t at, int n_paths, int lead)
{
    char body[256], doc[600], raw[256], want[MAX_OUT], want_doc[MAX_OUT];
    uint32_t cps[256];
    size_t body_len = 0, raw_len = 0, n_cps = 0, k, want_len, doc_len;
    size_t filler_after = lead ? 100 : 40;
    outputs got;
    int path, canonical, width;

    if (lead) {
        memcpy(body, "\\t", 2);
        body_len = 2;
        raw[raw_len++] = '\t';
        cps[n_cps++] = '\t';
    }
    for (k = 0; k < at; k++)
        body[body_len++] = raw[raw_len++] = (char)(cps[n_cps++] = (uint32_t)('a' + k % 26));
    memcpy(body + body_len, pc->json, strlen(pc->json));
    body_len += strlen(pc->json);
    for (k = 0; pc->cps[k]; k++) {
        cps[n_cps++] = pc->cps[k];
        raw_len += put_utf8(raw + raw_len, pc->cps[k]);
    }
    for (k = 0; k < filler_after; k++)
        body[body_len++] = raw[raw_len++] = (char)(cps[n_cps++] = (uint32_t)('A' + k % 26));

    for (canonical = 0; canonical <= 1; canonical++) {
        want_len = expected(cps, n_cps, canonical, want);
        /* a member name and a value: {"<s>":["<s>"]} */
        doc_len = 0;
        doc[doc_len++] = '{';
        doc[doc_len++] = '"';
        memcpy(doc + doc_len, body, body_len);
        doc_len += body_len;
        memcpy(doc + doc_len, "\":[\"", 4);
        doc_len += 4;
        memcpy(doc + doc_len, body, body_len);
        doc_len += body_len;
        memcpy(doc + doc_len, "\"]}", 3);
        doc_len += 3;
        memcpy(want_doc, "{", 1);
        memcpy(want_doc + 1, want, want_len);
        memcpy(want_doc + 1 + want_len, ":[", 2);
        memcpy(want_doc + 3 + want_len, want, want_len);
        memcpy(want_doc + 3 + 2 * want_len, "]}", 2);

        for (path = 1; path <= n_paths; path++) {
            wj_simd_use(path);
            CHECK(wj_validate(doc, doc_len, NULL, NULL) == WJ_OK);
            render(&got, path, doc, doc_len, canonical);
        }
        compare(canonical ? "canonical_json" : "wire_json", pc, at, &got,
                n_paths, want_doc, 5 + 2 * want_len);

        for (path = 1; path <= n_paths; path++) {
            wj_simd_use(path);
            put_string(&got, path, raw, raw_len, canonical);
        }
        compare(canonical ? "text, canonical" : "text", pc, at, &got, n_paths,
                want, want_len);
    }
    want_len = expected(cps, n_cps, 0, want);
    for (width = 2; width <= 4; width += 2) {
        for (path = 1; path <= n_paths; path++) {
            wj_simd_use(path);
            put_units(&got, path, cps, n_cps, width);
        }
        compare(width == 2 ? "UTF-16 units" : "code points", pc, at, &got,
                n_paths, want, want_len);
    }
}

/* The kept sets the SIMD compares take are the short-escape list's. */
static void kept_sets_agree(void)
{
    char wire[16] = "", canonical[16] = "";
    size_t nw = 0, nc = 0;
#define COLLECT(code, letter, kept)                                            \
    if ((kept)&WJ_ESC_WIRE)                                                    \
        wire[nw++] = letter;                                                   \
    if ((kept)&WJ_ESC_CANONICAL)                                               \
        canonical[nc++] = letter;
    WJ_SHORT_ESCAPES(COLLECT)
#undef COLLECT
    CHECK_BYTES(wire, nw, WJ_ESC_WIRE_KEPT);
    CHECK_BYTES(canonical, nc, WJ_ESC_CANONICAL_KEPT);
}

#if WJ_HAVE_AVX2_PATH
/* string_skip.c's nibble tables class each byte as the short-escape list
 * says: a letter of it (SIMPLE), and one the wire rendering does not keep
 * (REWRITTEN); no other byte. */
static void nibble_tables_agree(void)
{
    unsigned b;
    for (b = 0; b < 256; b++) {
        int letter = 0, rewritten = 0;
        unsigned cls = wj_escape_letter_class((unsigned char)b);
#define FIND(code, l, kept)                                                    \
    if ((unsigned char)(l) == b) {                                             \
        letter = 1;                                                            \
        rewritten = !((kept)&WJ_ESC_WIRE);                                     \
    }
        WJ_SHORT_ESCAPES(FIND)
#undef FIND
        CHECK(((cls & 0x0F) != 0) == letter);
        CHECK(((cls & 0xF0) != 0) == rewritten);
    }
}
#endif

int main(int argc, char **argv)
{
    int best = best_path();
    size_t p, at;

    if (argc == 3 && strcmp(argv[1], "--path") == 0) {
        int want = path_named(argv[2]);
        const char *env = getenv("WIREJSON_SIMD");
        CHECK(env && strcmp(env, argv[2]) == 0);
        CHECK(wj_simd() == (want < best ? want : best));
        CHECK(wj_simd() == wj_simd()); /* decided once */
        printf("WIREJSON_SIMD=%s: path %d of %d\n", argv[2], wj_simd(), best);
        return check_report("test_simd --path");
    }
    kept_sets_agree();
#if WJ_HAVE_AVX2_PATH
    nibble_tables_agree();
#endif
    for (p = 0; p < sizeof pieces / sizeof *pieces; p++)
        for (at = 0; at < 70; at++) {
            boundaries(&pieces[p], at, best, 0);
            boundaries(&pieces[p], at, best, 1);
        }
    return check_report("test_simd");
}
