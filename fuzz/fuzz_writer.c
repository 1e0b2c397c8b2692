/* SPDX-License-Identifier: MIT */
/*
 * fuzz_writer.c - the JSON writer (wj_writer_*).  Input: a program of
 * writer calls, one byte of opcode each, names and strings followed by a
 * length byte and that many bytes, int64 and double by 8 bytes.
 *
 * Invariants, against a model written here: each call succeeds exactly
 * when the structure has room for it and, for names and strings, when the
 * bytes are WTF-8 (UTF-8 with encoded surrogates allowed; an own
 * validator), and a double when it is finite; the first failure is
 * returned by every later call.  A complete text the writer gives is valid
 * JSON (a repeated name or nesting past 1,000 aside), in the wire form
 * (fuzz_check_form), and each of its strings decodes, by the harness's own
 * decoder, to the bytes written (an encoded high and low surrogate side by
 * side being the one character they pair to).  The n-th allocation failing
 * makes every call from there return WJ_ERR_NOMEM and leaks nothing.
 */
#include "fuzz_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_BEGIN_ARRAY,
    OP_END_ARRAY,
    OP_BEGIN_OBJECT,
    OP_END_OBJECT,
    OP_NAME,
    OP_STRING,
    OP_INT64,
    OP_DOUBLE,
    OP_BOOL,
    OP_NULL,
    OP_RAW,
    OP_COUNT
};

/* ------------------------------------------------------ the harness's own */

/* Length of the WTF-8 sequence at s[i], or 0: RFC 3629's table with ED
 * A0..BF (the surrogates) allowed. */
static size_t wtf8_length(const unsigned char *s, size_t i, size_t len)
{
    unsigned char c = s[i], lo = 0x80, hi = 0xBF;
    size_t n, k;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (len - i < n || s[i + 1] < lo || s[i + 1] > hi)
        return 0;
    for (k = 2; k < n; k++)
        if ((s[i + k] & 0xC0) != 0x80)
            return 0;
    return n;
}

static int is_wtf8(const char *text, size_t len)
{
    size_t i = 0, n;
    while (i < len) {
        n = wtf8_length((const unsigned char *)text, i, len);
        if (!n)
            return 0;
        i += n;
    }
    return 1;
}

/* The surrogate encoded at s (ED A0..BF xx), or 0. */
static uint32_t surrogate(const unsigned char *s, size_t avail)
{
    if (avail < 3 || s[0] != 0xED || s[1] < 0xA0)
        return 0;
    return 0xD000u | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3Fu);
}

/* What the JSON text says for valid WTF-8 text: the same bytes, but an
 * encoded high surrogate followed by an encoded low one is the character
 * they pair to, as UTF-8. */
static void expected_string(const char *text, size_t len, fuzz_buf *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        uint32_t hi = surrogate(s + i, len - i), lo;
        if (hi >= 0xD800 && hi <= 0xDBFF &&
            (lo = surrogate(s + i + 3, len - i - 3)) >= 0xDC00) {
            uint32_t cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
            char u[4] = {
                (char)(0xF0 | cp >> 18), (char)(0x80 | (cp >> 12 & 0x3F)),
                (char)(0x80 | (cp >> 6 & 0x3F)), (char)(0x80 | (cp & 0x3F))};
            fuzz_buf_put(out, u, 4);
            i += 6;
        } else {
            fuzz_buf_putc(out, text[i]);
            i++;
        }
    }
}

/* --------------------------------------------------------------- a program */

typedef struct op {
    int code;
    const char *bytes; /* names and strings */
    size_t len;
    int64_t i;
    double d;
} op;

/* Decodes the input into ops (at most max); returns how many. */
static size_t read_program(const uint8_t *data, size_t size, op *ops,
                           size_t max)
{
    size_t n = 0, i = 0;
    while (i < size && n < max) {
        op *o = &ops[n++];
        memset(o, 0, sizeof *o);
        o->code = data[i++] % OP_COUNT;
        if (o->code == OP_NAME || o->code == OP_STRING) {
            size_t len = i < size ? data[i++] : 0;
            if (len > size - i)
                len = size - i;
            o->bytes = (const char *)data + i;
            o->len = len;
            i += len;
        } else if (o->code == OP_INT64 || o->code == OP_DOUBLE ||
                   o->code == OP_BOOL) {
            uint8_t b[8] = {0};
            size_t take = size - i < 8 ? size - i : 8;
            memcpy(b, data + i, take);
            i += take;
            memcpy(&o->i, b, 8);
            memcpy(&o->d, b, 8);
        }
    }
    return n;
}

/* The model: the open containers (0 array, 1 object wanting a name, 2
 * object wanting a value), whether a top-level value was begun. */
typedef struct model {
    unsigned char stack[4096];
    size_t depth;
    int root_done;
    int failed;
} model;

/* Whether the writer must accept o, and the model after it. */
static int model_step(model *m, const op *o)
{
    unsigned char *top = m->depth ? &m->stack[m->depth - 1] : NULL;
    int value = o->code != OP_END_ARRAY && o->code != OP_END_OBJECT &&
                o->code != OP_NAME;
    if (m->failed)
        return 0;
    if (o->code == OP_NAME) {
        if (!top || *top != 1 || !is_wtf8(o->bytes, o->len))
            return m->failed = 1, 0;
        *top = 2;
        return 1;
    }
    if (o->code == OP_END_ARRAY || o->code == OP_END_OBJECT) {
        if (!top || *top != (o->code == OP_END_ARRAY ? 0 : 1))
            return m->failed = 1, 0;
        m->depth--;
        return 1;
    }
    if (value) {
        if (!top ? m->root_done : *top == 1)
            return m->failed = 1, 0;
        if (o->code == OP_STRING && !is_wtf8(o->bytes, o->len))
            return m->failed = 1, 0;
        if (o->code == OP_DOUBLE && !isfinite(o->d))
            return m->failed = 1, 0;
        if (!top)
            m->root_done = 1;
        else if (*top == 2)
            *top = 1;
        if (o->code == OP_BEGIN_ARRAY || o->code == OP_BEGIN_OBJECT) {
            if (m->depth == sizeof m->stack)
                return m->failed = 1, 0; /* not reached: ops are fewer */
            m->stack[m->depth++] = o->code == OP_BEGIN_ARRAY ? 0 : 1;
        }
    }
    return 1;
}

static wj_code apply(wj_writer *w, const op *o)
{
    switch (o->code) {
    case OP_BEGIN_ARRAY: return wj_writer_begin_array(w);
    case OP_END_ARRAY: return wj_writer_end_array(w);
    case OP_BEGIN_OBJECT: return wj_writer_begin_object(w);
    case OP_END_OBJECT: return wj_writer_end_object(w);
    case OP_NAME: return wj_writer_name(w, o->bytes, o->len);
    case OP_STRING: return wj_writer_string(w, o->bytes, o->len);
    case OP_INT64: return wj_writer_int64(w, o->i);
    case OP_DOUBLE: return wj_writer_double(w, o->d);
    case OP_BOOL: return wj_writer_bool(w, (int)(o->i & 1));
    case OP_NULL: return wj_writer_null(w);
    default: return wj_writer_raw(w, "[1]", 3);
    }
}

/* Checks the strings of the complete text against what was written. */
static void check_strings(const char *text, size_t len, const op *ops, size_t n)
{
    wj_doc doc;
    size_t at = 0, k;
    wj_code rc =
        wj_doc_parse(&doc, text, len, WJ_PARSE_ALLOW_DUPLICATES, NULL, NULL);
    if (rc == WJ_ERR_DEPTH)
        return;
    FUZZ_CHECK(rc == WJ_OK);
    wj_doc_release(&doc);
    /* The text is valid, so every '"' outside a string starts one: the
     * strings and names in document order, one per name or string op. */
    for (k = 0; k < n; k++) {
        fuzz_buf want = {NULL, 0, 0};
        size_t end;
        char *got;
        size_t got_len;
        if (ops[k].code != OP_NAME && ops[k].code != OP_STRING)
            continue;
        while (at < len && text[at] != '"')
            at++;
        FUZZ_CHECK(at < len);
        end = wj_string_end(text, len, at);
        got = fuzz_xmalloc(end - at);
        got_len = fuzz_decode_utf8(text + at + 1, end - at - 2, got);
        expected_string(ops[k].bytes, ops[k].len, &want);
        fuzz_check_same_bytes("string", want.ptr ? want.ptr : "", want.len, got,
                              got_len);
        free(got);
        fuzz_buf_free(&want);
        at = end;
    }
}

#define MAX_OPS 2048

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static op ops[MAX_OPS];
    size_t n = read_program(data, size, ops, MAX_OPS), k, calls, len;
    model m;
    wj_writer *w = NULL;
    wj_code first = WJ_OK;
    const char *text;
    wj_error err;
    fuzz_rng rng;

    memset(&m, 0, sizeof m);
    fuzz_heap_begin(0);
    FUZZ_CHECK(wj_writer_new(&fuzz_heap, &w) == WJ_OK);
    for (k = 0; k < n; k++) {
        int ok = model_step(&m, &ops[k]);
        wj_code rc = apply(w, &ops[k]);
        if (first != WJ_OK) {
            FUZZ_CHECK(rc == first); /* sticky */
            continue;
        }
        FUZZ_CHECK(ok ? rc == WJ_OK : rc == WJ_ERR_ARGUMENT);
        first = rc;
    }
    text = wj_writer_text(w, &len, &err);
    if (first != WJ_OK) {
        FUZZ_CHECK(text == NULL && err.code == first && err.msg != NULL);
    } else {
        FUZZ_CHECK(text != NULL && err.code == WJ_OK && text[len] == '\0');
        if (m.root_done && m.depth == 0) { /* a complete text */
            wj_code vrc = wj_validate(text, len, NULL, &err);
            FUZZ_CHECK(vrc == WJ_OK || vrc == WJ_ERR_DUPLICATE ||
                       vrc == WJ_ERR_DEPTH);
            if (vrc != WJ_ERR_DEPTH)
                fuzz_check_form(text, len, WJ_STYLE_WIRE);
            check_strings(text, len, ops, n);
        }
    }
    /* reset: empty and working again */
    wj_writer_reset(w);
    text = wj_writer_text(w, &len, NULL);
    FUZZ_CHECK(text && len == 0);
    calls = fuzz_heap_calls();
    wj_writer_free(w);
    FUZZ_CHECK(fuzz_heap_live() == 0);

    /* the same program with one allocation failing */
    fuzz_rng_seed(&rng, data, size);
    if (calls > 1) {
        fuzz_heap_begin(2 + fuzz_rng_below(&rng, (uint32_t)(calls - 1)));
        FUZZ_CHECK(wj_writer_new(&fuzz_heap, &w) == WJ_OK);
        first = WJ_OK;
        for (k = 0; k < n; k++) {
            wj_code rc = apply(w, &ops[k]);
            if (first != WJ_OK)
                FUZZ_CHECK(rc == first);
            else
                first = rc;
        }
        if (wj_writer_text(w, &len, &err) == NULL)
            FUZZ_CHECK(err.code == first &&
                       (first == WJ_ERR_NOMEM || first == WJ_ERR_ARGUMENT));
        wj_writer_free(w);
        FUZZ_CHECK(fuzz_heap_live() == 0);
    }
    fuzz_heap_begin(0);
    return 0;
}
