/* SPDX-License-Identifier: MIT */
/*
 * test_simd_random.c - the SIMD paths against the scalar one on random
 * strings: every path this processor has gives the scalar path's verdict
 * (code, reason and byte offset) and, for a valid document, its wire and
 * canonical bytes.  The scalar path reads a byte at a time and shares no
 * code with the block scans (string_skip.c), so it is their oracle.
 *
 * A string is pieces drawn at random: plain text in runs long enough to
 * fill blocks of 16, 32 and 64 bytes, every short escape, \u escapes
 * (surrogate pairs, lone surrogates, bad hex), UTF-8 of every length, and
 * the faults a block must stop at: a control byte, a stray backslash, a
 * cut or overlong sequence, a surrogate in UTF-8.  It stands as a value
 * and as a member name, with the document cut short at a random byte one
 * time in eight; and, after a plain run, where a writer's 4096-byte piece
 * of input ends.
 */
#include "check.h"
#include "wj_internal.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static const char *const pieces[] = {
    "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
    "\\u0041", "\\u00e9", "\\u4E2D", "\\ud83d\\ude00", "\\ud83d", "\\ude00x",
    "\\u0301", "\\uD7FF", "\\uE000", "\\uzzzz", "\\u12", "\\x", "\\",
    "\\u0022", "\\u005C", "\\u001F", "\\u0008", "\\u02ff", "\\u0300",
    "\\uDBFF\\uDFFF", "\\uFFFF", "\\u007f",
    "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xcc\x81", "\xef\xbf\xbf",
    "\xc3", "\xe4\xb8", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x80",
    "\x01", "\x1f", "\x7f", "/", "'", "\"",
};
#define N_PIECES (sizeof pieces / sizeof *pieces)

/* Appends a random string body (no quotes) of about `room` bytes at most. */
static size_t random_body(char *out, size_t room)
{
    size_t len = 0;
    while (len + 16 < room && next_random() % 8) {
        if (next_random() % 3) { /* a run of plain text */
            size_t run = next_random() % 70, k;
            for (k = 0; k < run && len < room - 16; k++)
                out[len++] = (char)('a' + next_random() % 26);
        } else {
            const char *pc = pieces[next_random() % N_PIECES];
            size_t n = strlen(pc);
            /* a stray quote is rare: it ends most strings early */
            if (pc[0] == '"' && next_random() % 4)
                continue;
            memcpy(out + len, pc, n);
            len += n;
        }
    }
    return len;
}

/* What one path made of a document. */
typedef struct outcome {
    wj_code validate, wire, canonical;
    size_t offset;
    const char *msg;
    char *wire_text, *canonical_text;
    size_t wire_len, canonical_len;
} outcome;

static void run_path(int path, const char *doc, size_t len, outcome *o)
{
    wj_error err = WJ_ERROR_INIT;
    wj_simd_use(path);
    o->validate = wj_validate(doc, len, NULL, &err);
    o->offset = err.offset;
    o->msg = err.msg;
    o->wire = wj_wire_json(doc, len, NULL, 0, NULL, &o->wire_text,
                           &o->wire_len, NULL);
    o->canonical = wj_canonical_json(doc, len, NULL, &o->canonical_text,
                                     &o->canonical_len, NULL);
}

static void release(outcome *o)
{
    if (o->wire == WJ_OK)
        wj_free(NULL, o->wire_text);
    if (o->canonical == WJ_OK)
        wj_free(NULL, o->canonical_text);
}

static int same_text(wj_code code, const char *a, size_t a_len, const char *b,
                     size_t b_len)
{
    return code != WJ_OK || (a_len == b_len && memcmp(a, b, a_len) == 0);
}

static void compare(const char *doc, size_t len, int best)
{
    outcome want, got;
    int path;
    run_path(WJ_SIMD_SCALAR, doc, len, &want);
    for (path = WJ_SIMD_SSE2; path <= best; path++) {
        int same;
        run_path(path, doc, len, &got);
        same = got.validate == want.validate && got.offset == want.offset &&
               got.msg == want.msg && got.wire == want.wire &&
               got.canonical == want.canonical &&
               same_text(want.wire, got.wire_text, got.wire_len,
                         want.wire_text, want.wire_len) &&
               same_text(want.canonical, got.canonical_text,
                         got.canonical_len, want.canonical_text,
                         want.canonical_len);
        CHECK(same);
        if (!same && check_failures <= 10) /* the first few, whole */
            fprintf(stderr,
                    "path %d: code %d at %zu (%s), scalar %d at %zu (%s): "
                    "%.*s\n",
                    path, got.validate, got.offset, got.msg, want.validate,
                    want.offset, want.msg, (int)len, doc);
        release(&got);
    }
    release(&want);
}

/*
 * Strings longer than the writers' piece of input per reservation (4096
 * bytes), their pieces where one ends and the next begins: a \u escape
 * first (so that the writers re-escape the string), plain text to 0-80
 * bytes before the 4096th byte, then random pieces; 3000 valid ones.
 */
static void long_strings(int best)
{
    static char doc[4096 + 700];
    int valid = 0;
    while (valid < 3000) { /* the valid ones: the writers' cases */
        size_t len, plain = 2 + 4096 - next_random() % 81;
        memcpy(doc, "[\"\\u00e9", 8);
        len = 8;
        while (len < plain)
            doc[len++] = (char)('a' + next_random() % 26);
        len += random_body(doc + len, 600);
        memcpy(doc + len, "\"]", 2);
        wj_simd_use(WJ_SIMD_SCALAR);
        if (wj_validate(doc, len + 2, NULL, NULL) != WJ_OK)
            continue;
        valid++;
        compare(doc, len + 2, best);
    }
}

int main(void)
{
    int best = wj_simd(), round;
    char body[600], doc[1400];

    for (round = 0; round < 100000; round++) {
        size_t n = random_body(body, sizeof body), len = 0;
        /* {"<body>":["<body>",1]}: the body as a name and as a value */
        doc[len++] = '{';
        doc[len++] = '"';
        memcpy(doc + len, body, n);
        len += n;
        memcpy(doc + len, "\":[\"", 4);
        len += 4;
        memcpy(doc + len, body, n);
        len += n;
        memcpy(doc + len, "\",1]}", 5);
        len += 5;
        if (next_random() % 8 == 0)
            len = next_random() % len;
        compare(doc, len, best);
    }
    long_strings(best);
    printf("test_simd_random: paths up to %d against the scalar one\n", best);
    return check_report("test_simd_random");
}
