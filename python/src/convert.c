/* SPDX-License-Identifier: MIT */
/*
 * convert.c - arguments in, results out.
 *
 * A document is JSON text when it is a str (its UTF-8; a str holding a lone
 * surrogate is encoded with surrogatepass, so the core sees the same bytes an
 * SQL client would and reports the same UTF-8 error), bytes, or a buffer of
 * single bytes (format 'B', 'b' or 'c': a bytearray, a memoryview, an
 * array('B'), all its bytes, NULs included); a Fragment is its text; anything
 * else is a Python value, written as JSON text by the core's writer
 * (walker.c).  No other object is read through the buffer protocol: an
 * array('i') or a numpy array of int16 is a value, and so a TypeError, and a
 * numpy scalar (which exports its memory too) is the number it holds.
 *
 * The core reads its text more than once (it validates, then renders), with
 * the GIL released, so the text must not change during the call: a str's
 * UTF-8 and a bytes object cannot; any other buffer (a bytearray, a
 * memoryview, an array: another thread may write to it, or to the object
 * under a read-only view of it) is copied into a bytes object first, under
 * the GIL.
 */
#include "wjpy.h"

static void *raw_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return PyMem_RawMalloc(size);
}

static void *raw_realloc(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    return PyMem_RawRealloc(ptr, size);
}

static void raw_free(void *ctx, void *ptr)
{
    (void)ctx;
    PyMem_RawFree(ptr);
}

/* Asked by the core about once a MiB: runs the pending signal handlers (in
 * the main thread; elsewhere PyErr_CheckSignals does nothing), and stops the
 * call when one raised, KeyboardInterrupt for Ctrl-C.  The exception stays
 * set in the thread, and wjpy_raise leaves it to be raised instead of a
 * wirejson.Error.  Called with or without the GIL: PyGILState_Ensure takes
 * it when this thread does not hold it. */
static int raw_interrupted(void *ctx)
{
    PyGILState_STATE gil;
    int stop;

    (void)ctx;
    gil = PyGILState_Ensure();
    stop = PyErr_Occurred() != NULL || PyErr_CheckSignals() < 0;
    PyGILState_Release(gil);
    return stop;
}

const wj_alloc wjpy_alloc = {raw_malloc, raw_realloc, raw_free, NULL,
                             raw_interrupted};

/* A writer whose text grew beyond this is freed rather than kept spare. */
#define SPARE_WRITER_MAX ((size_t)1 << 20)

wj_writer *wjpy_writer_take(wjpy_state *st, wjpy_writer_kind kind)
{
    wj_writer *w = st->spare[kind];
    wj_code rc;
    if (w) {
        st->spare[kind] = NULL;
        return w;
    }
    switch (kind) {
    case WJPY_CANONICAL: rc = wj_writer_new_canonical(&wjpy_alloc, &w); break;
    case WJPY_DIGEST: rc = wj_writer_new_digest(&wjpy_alloc, &w); break;
    default: rc = wj_writer_new(&wjpy_alloc, &w); break;
    }
    if (rc != WJ_OK) {
        PyErr_NoMemory();
        return NULL;
    }
    return w;
}

void wjpy_writer_give(wjpy_state *st, wj_writer *w, wjpy_writer_kind kind)
{
    size_t len = 0;

    if (!w)
        return;
    /* a digest writer's memory is its fixed window */
    if (!st->spare[kind] &&
        (kind == WJPY_DIGEST ||
         (wj_writer_text(w, &len, NULL) && len <= SPARE_WRITER_MAX))) {
        wj_writer_reset(w);
        st->spare[kind] = w;
        return;
    }
    wj_writer_free(w);
}

/* The UTF-8 of a str document: cached in the str by CPython, or (lone
 * surrogates) a new bytes object in *owned. */
static int str_text(PyObject *obj, wjpy_text *out)
{
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(obj, &n);

    if (!p) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return -1;
        PyErr_Clear();
        out->owned = PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass");
        if (!out->owned)
            return -1;
        p = PyBytes_AS_STRING(out->owned);
        n = PyBytes_GET_SIZE(out->owned);
    }
    out->ptr = p;
    out->len = (size_t)n;
    return 0;
}

/* numpy's scalars are recognised without importing numpy (the module need
 * not depend on it, nor pay for its import): numpy's own types are static
 * types whose tp_name is "numpy.<name>" (their __module__ is "numpy"), and
 * the abstract classes every scalar derives from are numpy.bool_ (numpy.bool
 * from numpy 2), numpy.integer and numpy.floating.  A class of another module
 * (a subclass defined elsewhere) is not taken.  numpy.timedelta64 derives
 * from numpy.integer but is a duration, not a number: it is not taken
 * either.  numpy.float64, a float subclass, is a float already. */
int wjpy_numpy_kind(PyObject *obj)
{
    PyTypeObject *type = Py_TYPE(obj);
    PyObject *mro = type->tp_mro;
    Py_ssize_t k;

    if (strncmp(type->tp_name, "numpy.", 6) != 0 || !mro ||
        !PyTuple_Check(mro) || strcmp(type->tp_name, "numpy.timedelta64") == 0)
        return WJPY_NUMPY_NONE;
    for (k = 0; k < PyTuple_GET_SIZE(mro); k++) {
        const char *name = ((PyTypeObject *)PyTuple_GET_ITEM(mro, k))->tp_name;
        if (strcmp(name, "numpy.bool_") == 0 || strcmp(name, "numpy.bool") == 0)
            return WJPY_NUMPY_BOOL;
        if (strcmp(name, "numpy.integer") == 0)
            return WJPY_NUMPY_INT;
        if (strcmp(name, "numpy.floating") == 0)
            return WJPY_NUMPY_FLOAT;
    }
    return WJPY_NUMPY_NONE;
}

/* True when view holds single bytes: format 'B', 'b' or 'c' (NULL is 'B'),
 * with or without a byte-order prefix. */
static int single_bytes(const Py_buffer *view)
{
    const char *f = view->format;

    if (view->itemsize != 1)
        return 0;
    if (!f)
        return 1;
    if (*f == '@' || *f == '=' || *f == '<' || *f == '>' || *f == '!')
        f++;
    return (f[0] == 'B' || f[0] == 'b' || f[0] == 'c') && f[1] == '\0';
}

static int buffer_text(PyObject *obj, wjpy_text *out);

/* 1 when obj is a buffer of single bytes to take as JSON text (a numpy
 * scalar never is), with the buffer in *view when view is not NULL (else
 * released); 0 when it is not, -1 with an exception set. */
static int byte_buffer(PyObject *obj, Py_buffer *view)
{
    Py_buffer local;

    if (!PyObject_CheckBuffer(obj) || wjpy_numpy_kind(obj) != WJPY_NUMPY_NONE)
        return 0;
    if (!view)
        view = &local;
    if (PyObject_GetBuffer(obj, view, PyBUF_FULL_RO) < 0)
        return -1;
    if (!single_bytes(view)) {
        PyBuffer_Release(view);
        return 0;
    }
    if (view == &local)
        PyBuffer_Release(view);
    return 1;
}

PyObject *wjpy_byte_buffer_copy(PyObject *obj)
{
    wjpy_text text;
    PyObject *copy;

    memset(&text, 0, sizeof text);
    if (buffer_text(obj, &text) != 0)
        return NULL;
    copy = text.owned
               ? Py_NewRef(text.owned)
               : PyBytes_FromStringAndSize(text.ptr, (Py_ssize_t)text.len);
    if (text.has_view)
        PyBuffer_Release(&text.view);
    Py_CLEAR(text.owned);
    return copy;
}

int wjpy_is_value(wjpy_state *st, PyObject *obj)
{
    int r;

    if (PyUnicode_Check(obj) || PyBytes_Check(obj) ||
        Py_IS_TYPE(obj, st->fragment_type))
        return 0;
    r = byte_buffer(obj, NULL);
    if (r < 0) /* the text route asks again and reports it */
        PyErr_Clear();
    return r == 0;
}

int wjpy_is_text(wjpy_state *st, PyObject *obj)
{
    return !wjpy_is_value(st, obj);
}

/* True when the exporter behind view cannot change: a bytes object, or a
 * memoryview whose own exporter is one. */
static int immutable_buffer(const Py_buffer *view)
{
    PyObject *o = view->obj;

    if (!view->readonly || !o)
        return 0;
    if (PyMemoryView_Check(o))
        o = PyMemoryView_GET_BUFFER(o)->obj;
    return o && PyBytes_CheckExact(o);
}

/* The text of a buffer of single bytes: in place when nothing can change
 * it, else a copy (C order) in out->owned. */
static int buffer_text(PyObject *obj, wjpy_text *out)
{
    int r = byte_buffer(obj, &out->view);

    if (r <= 0)
        return r < 0 ? -1 : 1;
    if (immutable_buffer(&out->view) &&
        PyBuffer_IsContiguous(&out->view, 'C')) {
        out->has_view = 1;
        out->ptr = out->view.buf ? (const char *)out->view.buf : "";
        out->len = (size_t)out->view.len;
        return 0;
    }
    out->owned = PyBytes_FromStringAndSize(NULL, out->view.len);
    if (!out->owned ||
        PyBuffer_ToContiguous(PyBytes_AS_STRING(out->owned), &out->view,
                              out->view.len, 'C') < 0) {
        PyBuffer_Release(&out->view);
        return -1;
    }
    PyBuffer_Release(&out->view);
    out->ptr = PyBytes_AS_STRING(out->owned);
    out->len = (size_t)PyBytes_GET_SIZE(out->owned);
    return 0;
}

wj_writer *wjpy_canonical_writer(wjpy_state *st, const char *func,
                                 PyObject *obj, wjpy_writer_kind kind)
{
    wj_writer *w = wjpy_writer_take(st, kind);
    int r = w ? wjpy_walk(st, func, NULL, obj, w, 1) : -1;

    if (r == 0)
        return w;
    if (r != WJPY_WALK_INTERRUPTED)
        PyErr_Clear();
    wjpy_writer_give(st, w, kind);
    return NULL;
}

int wjpy_walked_text(wjpy_state *st, const char *func, const char *argument,
                     PyObject *obj, wjpy_text *out)
{
    size_t len = 0;
    wj_error err = WJ_ERROR_INIT;

    out->writer = wjpy_writer_take(st, WJPY_PLAIN);
    if (!out->writer || wjpy_walk(st, func, argument, obj, out->writer, 0) < 0)
        return -1;
    out->ptr = wj_writer_text(out->writer, &len, &err);
    if (!out->ptr) {
        err.argument = argument;
        wjpy_raise(st, func, err.code, &err);
        return -1;
    }
    out->len = len;
    return 0;
}

int wjpy_text_from(wjpy_state *st, const char *func, const char *argument,
                   PyObject *obj, wjpy_text *out)
{
    int r;

    memset(out, 0, sizeof *out);
    if (PyUnicode_Check(obj))
        return str_text(obj, out);
    if (PyBytes_Check(obj)) {
        out->ptr = PyBytes_AS_STRING(obj);
        out->len = (size_t)PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (Py_IS_TYPE(obj, st->fragment_type)) {
        wjpy_fragment_text(obj, &out->ptr, &out->len);
        return wjpy_fragment_check(st, func, argument, out->ptr, out->len, 1);
    }
    r = buffer_text(obj, out);
    if (r <= 0)
        return r;
    return wjpy_walked_text(st, func, argument, obj, out);
}

void wjpy_text_release(wjpy_state *st, wjpy_text *text)
{
    if (text->has_view)
        PyBuffer_Release(&text->view);
    Py_CLEAR(text->owned);
    wjpy_writer_give(st, text->writer, WJPY_PLAIN);
    memset(text, 0, sizeof *text);
}

/* The bytes of one name: str (surrogatepass for lone surrogates, the bytes
 * object kept in *owned) or bytes. */
static int name_bytes(const char *func, PyObject *obj, wj_name *out,
                      PyObject **owned)
{
    Py_ssize_t n;
    const char *p;

    *owned = NULL;
    if (PyBytes_Check(obj)) {
        out->ptr = PyBytes_AS_STRING(obj);
        out->len = (size_t)PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: a name must be str, not %.100s",
                     func, Py_TYPE(obj)->tp_name);
        return -1;
    }
    p = wjpy_utf8(obj, &n, owned);
    if (!p)
        return -1;
    out->ptr = p;
    out->len = (size_t)n;
    return 0;
}

int wjpy_name_from(const char *func, PyObject *obj, wj_name *out,
                   PyObject **owned)
{
    *owned = NULL;
    if (obj == Py_None)
        return 1;
    return name_bytes(func, obj, out, owned);
}

int wjpy_names_from(const char *func, PyObject *const *args, Py_ssize_t nargs,
                    wjpy_names *out)
{
    Py_ssize_t k;

    memset(out, 0, sizeof *out);
    out->v = out->small;
    if (nargs > (Py_ssize_t)(sizeof out->small / sizeof *out->small)) {
        out->v = PyMem_Malloc((size_t)nargs * sizeof *out->v);
        if (!out->v) {
            PyErr_NoMemory();
            return -1;
        }
    }
    for (k = 0; k < nargs; k++) {
        PyObject *tmp;
        if (args[k] == Py_None)
            continue; /* skipped, as SQL skips a NULL name */
        if (name_bytes(func, args[k], &out->v[out->n], &tmp) < 0)
            return -1;
        if (tmp) {
            if (!out->owned && !(out->owned = PyList_New(0))) {
                Py_DECREF(tmp);
                return -1;
            }
            if (PyList_Append(out->owned, tmp) < 0) {
                Py_DECREF(tmp);
                return -1;
            }
            Py_DECREF(tmp);
        }
        out->n++;
    }
    return 0;
}

void wjpy_names_release(wjpy_names *names)
{
    if (names->v && names->v != names->small)
        PyMem_Free(names->v);
    Py_CLEAR(names->owned);
    names->v = NULL;
    names->n = 0;
}

PyObject *wjpy_result_text(char *out, size_t len)
{
    PyObject *s;

    if (!out)
        Py_RETURN_NONE;
    s = PyUnicode_DecodeUTF8(out, (Py_ssize_t)len, NULL);
    if (!s && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        /* canonical_arguments gives text it cannot read back unchanged:
         * a str's lone surrogates come back as they went in, other bytes
         * as surrogateescape writes them. */
        PyErr_Clear();
        s = PyUnicode_DecodeUTF8(out, (Py_ssize_t)len, "surrogatepass");
        if (!s && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
            PyErr_Clear();
            s = PyUnicode_DecodeUTF8(out, (Py_ssize_t)len, "surrogateescape");
        }
    }
    wj_free(&wjpy_alloc, out);
    return s;
}
