/* SPDX-License-Identifier: MIT */
/*
 * writer.c - JSON text from a host language's values, in one pass: each
 * call appends its bytes to one growable buffer, with the comma or colon
 * that the open containers ask for.  Names and strings are quoted by
 * quote.c with the wire rendering's escapes (WTF-8 surrogates allowed);
 * doubles are spelled by number.c as ECMAScript does.
 *
 * The open containers are a stack of one state byte each, in a second
 * buffer, so nesting costs no recursion and has no limit here (the text is
 * checked when a function parses it).  The first failure is kept and every
 * later call returns it.
 *
 * A canonical writer (wj_writer_new_canonical) writes RFC 8785's text as it
 * goes: the canonical escapes, numbers as their doubles, and it checks each
 * object's names against the one before, kept raw in a third buffer (one
 * region per open object, where `marks` says it starts).  A digest writer
 * (wj_writer_new_digest) is a canonical one whose text buffer is a window
 * onto SHA-256, as the digests' renderings are (wj_buf.hash).
 */
#include "wj_internal.h"
#include "number.h"

/* What the innermost open container expects next. */
enum {
    ARRAY_FIRST,  /* an element, no comma */
    ARRAY_NEXT,   /* an element after a comma */
    OBJECT_FIRST, /* a member name, no comma */
    OBJECT_NEXT,  /* a member name after a comma */
    OBJECT_VALUE  /* the value of the name just written */
};

struct wj_writer {
    wj_alloc alloc_copy;   /* the caller's allocator, if one was given */
    const wj_alloc *alloc; /* &alloc_copy, or NULL for malloc */
    wj_buf out;            /* the text; room for its NUL once it has bytes */
    wj_buf stack;          /* one state byte per open container */
    int root_done;         /* a top-level value has been begun */
    int canonical;         /* wj_writer_new_canonical's or _digest's */
    wj_sha256 sha;         /* digest writers: out is a window onto it */
    wj_buf last;           /* canonical: the last name of each open object */
    wj_buf marks;          /* canonical: where each one's starts in last */
    wj_error err;          /* the sticky failure (code WJ_OK while none) */
};

wj_code wj_writer_new(const wj_alloc *alloc, wj_writer **out)
{
    wj_writer *w = wj_malloc(alloc, sizeof *w);
    *out = NULL;
    if (!w)
        return WJ_ERR_NOMEM;
    memset(w, 0, sizeof *w);
    if (alloc) {
        w->alloc_copy = *alloc;
        w->alloc = &w->alloc_copy;
    }
    w->out.alloc = w->alloc;
    w->stack.alloc = w->alloc;
    w->last.alloc = w->alloc;
    w->marks.alloc = w->alloc;
    wj_error_clear(&w->err);
    *out = w;
    return WJ_OK;
}

wj_code wj_writer_new_canonical(const wj_alloc *alloc, wj_writer **out)
{
    wj_code rc = wj_writer_new(alloc, out);
    if (rc == WJ_OK)
        (*out)->canonical = 1;
    return rc;
}

/* A digest writer's window: as digest.c's, large enough that SHA-256 gets
 * long runs, small enough to stay in cache. */
#define DIGEST_WINDOW 65536

wj_code wj_writer_new_digest(const wj_alloc *alloc, wj_writer **out)
{
    wj_code rc = wj_writer_new_canonical(alloc, out);
    if (rc != WJ_OK)
        return rc;
    if (wj_buf_reserve(&(*out)->out, DIGEST_WINDOW) != 0) {
        rc = (*out)->out.stopped ? WJ_ERR_INTERRUPTED : WJ_ERR_NOMEM;
        wj_writer_free(*out);
        *out = NULL;
        return rc;
    }
    wj_sha256_init(&(*out)->sha);
    (*out)->out.hash = &(*out)->sha;
    return WJ_OK;
}

void wj_writer_free(wj_writer *w)
{
    wj_alloc copy;
    const wj_alloc *alloc;
    if (!w)
        return;
    copy = w->alloc_copy;
    alloc = w->alloc ? &copy : NULL;
    wj_free(alloc, w->out.ptr);
    wj_free(alloc, w->stack.ptr);
    wj_free(alloc, w->last.ptr);
    wj_free(alloc, w->marks.ptr);
    wj_free(alloc, w);
}

void wj_writer_reset(wj_writer *w)
{
    w->out.len = 0;
    w->stack.len = 0;
    w->last.len = 0;
    w->marks.len = 0;
    w->root_done = 0;
    wj_error_clear(&w->err);
    if (w->out.hash)
        wj_sha256_init(&w->sha);
}

/* Makes the failure sticky and returns it. */
static wj_code fail(wj_writer *w, wj_code code, const char *msg)
{
    return wj_fail(&w->err, code, 0, msg);
}

/* Out of memory, or interrupted when the hook stopped a buffer's growth. */
static wj_code nomem(wj_writer *w)
{
    if (w->out.stopped || w->stack.stopped || w->last.stopped ||
        w->marks.stopped)
        return wj_fail_interrupted(&w->err);
    return wj_fail_nomem(&w->err);
}

/* Appends n bytes (keeping room for the NUL). */
static wj_code put(wj_writer *w, const char *bytes, size_t n)
{
    if (wj_buf_reserve(&w->out, n + 1) != 0)
        return nomem(w);
    wj_buf_put(&w->out, bytes, n);
    return WJ_OK;
}

/* The state of the innermost open container, or -1 at the top level. */
static int top(const wj_writer *w)
{
    return w->stack.len ? (unsigned char)w->stack.ptr[w->stack.len - 1] : -1;
}

static void set_top(wj_writer *w, int state)
{
    w->stack.ptr[w->stack.len - 1] = (char)state;
}

/* Checks that a value may come now and writes the comma before it. */
static wj_code before_value(wj_writer *w)
{
    if (w->err.code != WJ_OK)
        return w->err.code;
    switch (top(w)) {
    case -1:
        if (w->root_done)
            return fail(w, WJ_ERR_ARGUMENT, "a second value at the top level");
        w->root_done = 1;
        return WJ_OK;
    case ARRAY_FIRST: set_top(w, ARRAY_NEXT); return WJ_OK;
    case ARRAY_NEXT: return put(w, ",", 1);
    case OBJECT_VALUE: set_top(w, OBJECT_NEXT); return WJ_OK;
    default:
        return fail(w, WJ_ERR_ARGUMENT,
                    "a value in an object needs a member name first");
    }
}

static wj_code begin(wj_writer *w, int state, char bracket)
{
    char s = (char)state;
    wj_code rc = before_value(w);
    if (rc != WJ_OK)
        return rc;
    if (wj_buf_reserve(&w->stack, 1) != 0)
        return nomem(w);
    wj_buf_put(&w->stack, &s, 1);
    if (w->canonical && state == OBJECT_FIRST) {
        size_t mark = w->last.len;
        if (wj_buf_reserve(&w->marks, sizeof mark) != 0)
            return nomem(w);
        wj_buf_put(&w->marks, (const char *)&mark, sizeof mark);
    }
    return put(w, &bracket, 1);
}

static wj_code end(wj_writer *w, int is_object)
{
    int state;
    if (w->err.code != WJ_OK)
        return w->err.code;
    state = top(w);
    if (is_object && state == OBJECT_VALUE)
        return fail(w, WJ_ERR_ARGUMENT, "a member name without its value");
    if (is_object ? state != OBJECT_FIRST && state != OBJECT_NEXT
                  : state != ARRAY_FIRST && state != ARRAY_NEXT)
        return fail(w, WJ_ERR_ARGUMENT,
                    is_object ? "no object to end" : "no array to end");
    w->stack.len--;
    if (w->canonical && is_object) {
        w->marks.len -= sizeof(size_t);
        memcpy(&w->last.len, w->marks.ptr + w->marks.len, sizeof(size_t));
    }
    return put(w, is_object ? "}" : "]", 1);
}

wj_code wj_writer_begin_array(wj_writer *w)
{
    return begin(w, ARRAY_FIRST, '[');
}

wj_code wj_writer_end_array(wj_writer *w)
{
    return end(w, 0);
}

wj_code wj_writer_begin_object(wj_writer *w)
{
    return begin(w, OBJECT_FIRST, '{');
}

wj_code wj_writer_end_object(wj_writer *w)
{
    return end(w, 1);
}

/* Appends text as a string literal (quote.c) and keeps room for the NUL. */
static wj_code put_text(wj_writer *w, const char *utf8, size_t len,
                        const char *invalid)
{
    unsigned flags = WJ_QUOTE_WTF8 | (w->canonical ? WJ_QUOTE_CANONICAL : 0);
    wj_code rc = wj_buf_put_text(&w->out, utf8, len, flags, invalid, &w->err);
    if (rc != WJ_OK)
        return rc;
    if (wj_buf_reserve(&w->out, 1) != 0)
        return nomem(w);
    return WJ_OK;
}

/* Canonical: the valid name just written must sort after the one before
 * it in its object (docs/contract.md §5), and becomes that one. */
static wj_code follow_last_name(wj_writer *w, const char *utf8, size_t len)
{
    size_t mark;
    memcpy(&mark, w->marks.ptr + w->marks.len - sizeof mark, sizeof mark);
    if (w->last.len > mark) {
        wj_span before = {w->last.ptr + mark, w->last.len - mark};
        wj_span name = {utf8, len};
        if (wj_compare_utf16(before, name) >= 0)
            return fail(w, WJ_ERR_ARGUMENT,
                        "member names out of canonical order, or repeated");
    }
    w->last.len = mark;
    if (wj_buf_reserve(&w->last, len) != 0)
        return nomem(w);
    wj_buf_put(&w->last, utf8, len);
    return WJ_OK;
}

wj_code wj_writer_name(wj_writer *w, const char *utf8, size_t len)
{
    wj_code rc;
    if (w->err.code != WJ_OK)
        return w->err.code;
    switch (top(w)) {
    case OBJECT_FIRST: rc = WJ_OK; break;
    case OBJECT_NEXT: rc = put(w, ",", 1); break;
    case OBJECT_VALUE:
        return fail(w, WJ_ERR_ARGUMENT, "two member names in a row");
    default: return fail(w, WJ_ERR_ARGUMENT, "a member name outside an object");
    }
    if (rc != WJ_OK)
        return rc;
    set_top(w, OBJECT_VALUE);
    rc = put_text(w, utf8, len, "a member name is not valid UTF-8");
    if (rc == WJ_OK && w->canonical)
        rc = follow_last_name(w, utf8, len);
    return rc == WJ_OK ? put(w, ":", 1) : rc;
}

wj_code wj_writer_string_units(wj_writer *w, const void *units, size_t n,
                               int width)
{
    wj_code rc = before_value(w);
    if (rc != WJ_OK)
        return rc;
    if (width != 1 && width != 2 && width != 4)
        return fail(w, WJ_ERR_ARGUMENT, "a code unit width other than 1, 2, 4");
    if (n > WJ_MAX_INPUT / 4)
        return fail(w, WJ_ERR_TOOBIG, "input too large");
    switch (wj_write_units(&w->out, units, n, width,
                           w->canonical ? WJ_QUOTE_CANONICAL : 0)) {
    case 0: break;
    case 1: return fail(w, WJ_ERR_ARGUMENT, "a code point above U+10FFFF");
    default: return nomem(w);
    }
    return wj_buf_reserve(&w->out, 1) == 0 ? WJ_OK : nomem(w);
}

wj_code wj_writer_string(wj_writer *w, const char *utf8, size_t len)
{
    wj_code rc = before_value(w);
    return rc == WJ_OK ? put_text(w, utf8, len, "a string is not valid UTF-8")
                       : rc;
}

/* A lexeme written as given. */
static wj_code put_lexeme(wj_writer *w, const char *lexeme, size_t len)
{
    wj_code rc = before_value(w);
    return rc == WJ_OK ? put(w, lexeme, len) : rc;
}

/* Canonical: a number lexeme as its double.  It must be one JSON number. */
static wj_code put_canonical_number(wj_writer *w, const char *lexeme,
                                    size_t len)
{
    char text[WJ_NUMBER_MAX_CHARS];
    size_t bad;
    const char *why;
    if (!len || wj_number_scan(lexeme, len, 0, &bad, &why) != len)
        return fail(w, WJ_ERR_ARGUMENT, "not a JSON number");
    len = wj_number_canonical(lexeme, len, text);
    if (!len)
        return fail(w, WJ_ERR_RANGE, "rounds to infinity");
    return put_lexeme(w, text, len);
}

wj_code wj_writer_number(wj_writer *w, const char *lexeme, size_t len)
{
    if (w->canonical && w->err.code == WJ_OK)
        return put_canonical_number(w, lexeme, len);
    return put_lexeme(w, lexeme, len);
}

wj_code wj_writer_raw(wj_writer *w, const char *json, size_t len)
{
    if (w->canonical && w->err.code == WJ_OK)
        return fail(w, WJ_ERR_ARGUMENT, "a fragment in a canonical writer");
    return put_lexeme(w, json, len);
}

/* Integers beyond this magnitude are not all doubles: the canonical form
 * writes the double they round to. */
#define EXACT_INTEGER_LIMIT 9007199254740992u /* 2^53 */

wj_code wj_writer_int64(wj_writer *w, int64_t value)
{
    char digits[24], *p = digits + sizeof digits;
    /* the magnitude as unsigned, so INT64_MIN needs no special case */
    uint64_t m = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    if (w->canonical && m > EXACT_INTEGER_LIMIT)
        return wj_writer_double(w, (double)value);
    do {
        *--p = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (value < 0)
        *--p = '-';
    return put_lexeme(w, p, (size_t)(digits + sizeof digits - p));
}

wj_code wj_writer_double(wj_writer *w, double value)
{
    char text[WJ_NUMBER_BUF_SIZE];
    size_t len;
    wj_error e;
    if (w->err.code != WJ_OK)
        return w->err.code;
    if (wj_number_from_double(value, text, &len, &e) != WJ_OK)
        return fail(w, e.code, e.msg);
    return put_lexeme(w, text, len);
}

wj_code wj_writer_bool(wj_writer *w, int value)
{
    return value ? put_lexeme(w, "true", 4) : put_lexeme(w, "false", 5);
}

wj_code wj_writer_null(wj_writer *w)
{
    return put_lexeme(w, "null", 4);
}

const char *wj_writer_text(const wj_writer *w, size_t *len, wj_error *err)
{
    static const wj_error no_text = {WJ_ERR_ARGUMENT, 0,
                                     "a digest writer keeps no text", NULL,
                                     WJ_NO_ELEMENT};
    if (w->err.code != WJ_OK || w->out.hash) {
        if (err)
            *err = w->err.code != WJ_OK ? w->err : no_text;
        if (len)
            *len = 0;
        return NULL;
    }
    wj_error_clear(err);
    if (len)
        *len = w->out.len;
    if (!w->out.ptr)
        return "";
    w->out.ptr[w->out.len] = '\0'; /* every write kept room for it */
    return w->out.ptr;
}

wj_code wj_writer_digest(const wj_writer *w, char hex[WJ_DIGEST_HEX_SIZE],
                         wj_error *err)
{
    wj_sha256 sha;
    if (w->err.code != WJ_OK) {
        if (err)
            *err = w->err;
        return w->err.code;
    }
    wj_error_clear(err);
    if (!w->out.hash) {
        /* The text may be long: hash it a MiB at a time, asking the hook
         * between. */
        size_t at = 0, n;
        wj_sha256_init(&sha);
        while (w->out.len - at > WJ_POLL_BYTES) {
            wj_sha256_update(&sha, w->out.ptr + at, WJ_POLL_BYTES);
            at += WJ_POLL_BYTES;
            if (wj_interrupted(w->alloc))
                return wj_fail_interrupted(err);
        }
        n = w->out.len - at;
        if (n)
            wj_sha256_update(&sha, w->out.ptr + at, n);
        wj_sha256_peek_hex(&sha, hex);
        return WJ_OK;
    }
    sha = w->sha; /* what the window holds is not in it yet */
    wj_sha256_update(&sha, w->out.ptr, w->out.len);
    wj_sha256_peek_hex(&sha, hex);
    return WJ_OK;
}
