/* SPDX-License-Identifier: MIT */
/*
 * lines.c - wirejson._wirejson.key_lines, how the dedup job
 * (python/wirejson/dedup.py) reads JSON Lines: a block of bytes is split at
 * \n only (a \r before it stays in the line, where JSON reads it as
 * whitespace), a blank line is skipped, and each other line is keyed by
 * data_digest, by the kit's dedup engine (wk_next_line, wk_line_is_blank,
 * wk_dedup_key_line: the command line's dedup runs the same), a block at a
 * time with the GIL released, so the job spends no Python per byte:
 *
 *   >>> from wirejson._wirejson import key_lines
 *   >>> end, items, spans = key_lines(b'{"a":1}\n \n[\n{"b"', 0, False, True)
 *   >>> end, [type(x).__name__ for x in items]
 *   (12, ['bytes', 'NoneType', 'str'])
 *
 * The lines after the last \n are left for the next block unless final.
 * items has one element per line: None for a blank line, the 32 bytes of
 * the digest, or the error message (str) as wirejson.Error would spell it;
 * with digest false, the line's bytes instead of a digest.  spans holds two
 * native uint64 a line, its start in the buffer and its length without the
 * \n.  No JSON is read here: the kit's engine keys each line.
 *
 * wjpy_take_lines, wjpy_key_taken and wjpy_line_message (wjpy.h) are
 * these rules for the other reader of lines, the dedup job's Tally
 * (tally.c).
 */
#include "wjpy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t wjpy_take_lines(const unsigned char *p, size_t size, size_t at,
                       int final, wjpy_line *recs, size_t max, size_t *end)
{
    const char *text = (const char *)p;
    size_t n = 0, len, next;

    while (n < max && wk_next_line(text, size, at, final, &len, &next)) {
        wjpy_line *r = &recs[n++];
        r->start = at;
        r->len = len;
        r->msg = NULL;
        r->kind = wk_line_is_blank(text + at, len) ? WJPY_LINE_BLANK
                                                   : WJPY_LINE_TEXT;
        at = next;
    }
    *end = at;
    return n;
}

/* Lines handed to the kit's engine at a time. */
#define KEY_GROUP 256

int wjpy_key_taken(const unsigned char *p, wjpy_line *recs, size_t n,
                   const wk_dedup_keyer *k, wk_dedup_scratch *s)
{
    wj_arg lines[KEY_GROUP];
    size_t which[KEY_GROUP], i = 0;
    unsigned char keys[32 * KEY_GROUP];
    char *msgs[KEY_GROUP];

    while (i < n) {
        size_t g = 0, j;
        for (; i < n && g < KEY_GROUP; i++)
            if (recs[i].kind == WJPY_LINE_TEXT) {
                lines[g].ptr = (const char *)p + recs[i].start;
                lines[g].len = recs[i].len;
                which[g++] = i;
            }
        if (g && wk_dedup_key_lines(k, lines, g, &wjpy_alloc, s, keys,
                                    msgs) < 0)
            return -1;
        for (j = 0; j < g; j++) {
            wjpy_line *r = &recs[which[j]];
            r->msg = msgs[j];
            r->kind = msgs[j] ? WJPY_LINE_ERROR : WJPY_LINE_KEYED;
            if (!msgs[j])
                memcpy(r->key, keys + 32 * j, 32);
        }
    }
    return 0;
}

int wjpy_block_args(const char *func, PyObject *buffer, PyObject *start,
                    Py_buffer *view, size_t *at)
{
    Py_ssize_t n = PyLong_AsSsize_t(start);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (PyObject_GetBuffer(buffer, view, PyBUF_SIMPLE) < 0)
        return -1;
    if (n < 0 || n > view->len) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: start out of range", func);
        return -1;
    }
    *at = (size_t)n;
    return 0;
}

/* Splits and keys the lines of p[at..size) (see the file's comment);
 * returns how many, *end the offset after the last one taken; *nomem set
 * when a line could not be keyed for want of memory. */
static size_t scan(const unsigned char *p, size_t size, size_t at, int final,
                   int digest, wjpy_line *recs, size_t *end, int *nomem)
{
    static const wk_dedup_keyer data_digest = {0, NULL, NULL};
    wk_dedup_scratch s = {0};
    size_t n = wjpy_take_lines(p, size, at, final, recs, WJPY_MAX_LINES, end);

    *nomem = digest && wjpy_key_taken(p, recs, n, &data_digest, &s) < 0;
    wk_dedup_scratch_free(&s);
    return n;
}

PyObject *wjpy_line_message(wjpy_line *r)
{
    PyObject *m = PyUnicode_DecodeUTF8(r->msg, (Py_ssize_t)strlen(r->msg),
                                       "replace");
    free(r->msg);
    r->msg = NULL;
    return m;
}

static PyObject *key_lines(PyObject *self, PyObject *const *a,
                           Py_ssize_t nargs)
{
    Py_buffer view;
    size_t start;
    int final, digest, nomem = 0;
    wjpy_line *recs;
    size_t n, k, end = 0;
    PyObject *items = NULL, *spans = NULL, *result = NULL;

    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError,
                        "key_lines(buffer, start, final, digest)");
        return NULL;
    }
    if ((final = PyObject_IsTrue(a[2])) < 0 ||
        (digest = PyObject_IsTrue(a[3])) < 0 ||
        wjpy_block_args("key_lines", a[0], a[1], &view, &start) < 0)
        return NULL;
    recs = PyMem_RawMalloc(WJPY_MAX_LINES * sizeof *recs);
    if (!recs) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    n = scan(view.buf, (size_t)view.len, start, final, digest, recs,
             &end, &nomem);
    Py_END_ALLOW_THREADS
    if (nomem) {
        PyErr_NoMemory();
        goto done;
    }
    items = PyList_New((Py_ssize_t)n);
    spans = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * 16));
    if (!items || !spans)
        goto done;
    for (k = 0; k < n; k++) {
        wjpy_line *r = &recs[k];
        PyObject *item;
        uint64_t span[2] = {r->start, r->len};
        memcpy(PyBytes_AS_STRING(spans) + 16 * k, span, sizeof span);
        switch (r->kind) {
        case WJPY_LINE_BLANK:
            item = Py_NewRef(Py_None);
            break;
        case WJPY_LINE_KEYED:
            item = PyBytes_FromStringAndSize((const char *)r->key, 32);
            break;
        case WJPY_LINE_TEXT:
            item = PyBytes_FromStringAndSize((const char *)view.buf + r->start,
                                             (Py_ssize_t)r->len);
            break;
        default:
            item = wjpy_line_message(r);
            break;
        }
        if (!item)
            goto done;
        PyList_SET_ITEM(items, (Py_ssize_t)k, item);
    }
    result = Py_BuildValue("(nOO)", (Py_ssize_t)end, items, spans);
done:
    for (k = 0; k < n; k++)
        free(recs[k].msg); /* those not made into str */
    Py_XDECREF(items);
    Py_XDECREF(spans);
    PyMem_RawFree(recs);
    PyBuffer_Release(&view);
    return result;
}

PyMethodDef wjpy_key_lines_def = {
    "key_lines", (PyCFunction)(void (*)(void))key_lines, METH_FASTCALL,
    "key_lines(buffer, start, final, digest, /)\n--\n\n"
    "The dedup job's lines of buffer from start: (end, items, spans).\n"
    "Lines are split at \\n; those after the last \\n wait for the next\n"
    "block unless final.  items: None for a blank line (spaces, tabs,\n"
    "\\r), else the 32-byte data_digest of the line or its error message\n"
    "(str), or with digest false the line's bytes.  spans: two native\n"
    "uint64 a line, its start and its length without the \\n.  At most\n"
    "65536 lines a call; end is where the next call starts.",
};
