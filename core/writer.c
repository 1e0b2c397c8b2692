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
 */
#include "wj_internal.h"

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
    wj_error_clear(&w->err);
    *out = w;
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
    wj_free(alloc, w);
}

void wj_writer_reset(wj_writer *w)
{
    w->out.len = 0;
    w->stack.len = 0;
    w->root_done = 0;
    wj_error_clear(&w->err);
}

/* Makes the failure sticky and returns it. */
static wj_code fail(wj_writer *w, wj_code code, const char *msg)
{
    return wj_fail(&w->err, code, 0, msg);
}

static wj_code nomem(wj_writer *w)
{
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
    wj_code rc =
        wj_buf_put_text(&w->out, utf8, len, WJ_QUOTE_WTF8, invalid, &w->err);
    if (rc != WJ_OK)
        return rc;
    if (wj_buf_reserve(&w->out, 1) != 0)
        return nomem(w);
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
    return rc == WJ_OK ? put(w, ":", 1) : rc;
}

wj_code wj_writer_string(wj_writer *w, const char *utf8, size_t len)
{
    wj_code rc = before_value(w);
    return rc == WJ_OK ? put_text(w, utf8, len, "a string is not valid UTF-8")
                       : rc;
}

wj_code wj_writer_number(wj_writer *w, const char *lexeme, size_t len)
{
    wj_code rc = before_value(w);
    return rc == WJ_OK ? put(w, lexeme, len) : rc;
}

wj_code wj_writer_raw(wj_writer *w, const char *json, size_t len)
{
    return wj_writer_number(w, json, len);
}

wj_code wj_writer_int64(wj_writer *w, int64_t value)
{
    char digits[24], *p = digits + sizeof digits;
    /* the magnitude as unsigned, so INT64_MIN needs no special case */
    uint64_t m = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    do {
        *--p = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (value < 0)
        *--p = '-';
    return wj_writer_number(w, p, (size_t)(digits + sizeof digits - p));
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
    return wj_writer_number(w, text, len);
}

wj_code wj_writer_bool(wj_writer *w, int value)
{
    return value ? wj_writer_number(w, "true", 4)
                 : wj_writer_number(w, "false", 5);
}

wj_code wj_writer_null(wj_writer *w)
{
    return wj_writer_number(w, "null", 4);
}

const char *wj_writer_text(const wj_writer *w, size_t *len, wj_error *err)
{
    if (w->err.code != WJ_OK) {
        if (err)
            *err = w->err;
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
