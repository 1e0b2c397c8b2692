/* SPDX-License-Identifier: MIT */
/*
 * arrow_read.c - a column of text or binary values from any object that
 * exports the Arrow PyCapsule interface (__arrow_c_array__ or
 * __arrow_c_stream__: pyarrow, Polars, DuckDB, nanoarrow, ...), read in
 * place through the Arrow C Data Interface: one wj_arg per row pointing into
 * the producer's buffers, which the capsules kept in column->keep hold
 * until wjpy_column_release.  Types: utf8 "u", large_utf8 "U", utf8_view
 * "vu", binary "z", large_binary "Z", binary_view "vz".
 */
#include "wjpy_arrow.h"

#include <stdlib.h>
#include <string.h>

int wjpy_is_arrow(PyObject *obj)
{
    return PyObject_HasAttrString(obj, "__arrow_c_array__") ||
           PyObject_HasAttrString(obj, "__arrow_c_stream__");
}

enum layout { OFFSETS32, OFFSETS64, VIEWS };

static int layout_of(const char *format, enum layout *out)
{
    if (!strcmp(format, "u") || !strcmp(format, "z"))
        *out = OFFSETS32;
    else if (!strcmp(format, "U") || !strcmp(format, "Z"))
        *out = OFFSETS64;
    else if (!strcmp(format, "vu") || !strcmp(format, "vz"))
        *out = VIEWS;
    else
        return -1;
    return 0;
}

static int grow(wjpy_column *c, size_t more)
{
    wj_arg *rows = wk_array_grow(c->rows, &c->cap, c->n + more, sizeof *rows);
    if (!rows) {
        PyErr_NoMemory();
        return -1;
    }
    c->rows = rows;
    return 0;
}

/* Appends the rows of one array of the schema's type. */
static int append(const char *func, const char *argument,
                  const struct ArrowSchema *schema,
                  const struct ArrowArray *a, wjpy_column *c)
{
    enum layout layout;
    const uint8_t *valid;
    int64_t i;

    if (layout_of(schema->format, &layout) < 0 || schema->dictionary) {
        PyErr_Format(PyExc_TypeError,
                     "%s: %s: Arrow type '%s' is not text or binary (utf8, "
                     "large_utf8, utf8_view, binary, large_binary)",
                     func, argument, schema->dictionary ? "dictionary"
                                                         : schema->format);
        return -1;
    }
    if (a->length < 0 || grow(c, (size_t)a->length) < 0)
        return -1;
    valid = a->null_count != 0 && a->n_buffers > 0 ? a->buffers[0] : NULL;
    for (i = 0; i < a->length; i++) {
        int64_t j = a->offset + i;
        wj_arg *row = &c->rows[c->n++];
        if (valid && !(valid[j >> 3] >> (j & 7) & 1)) {
            row->ptr = NULL;
            row->len = 0;
            continue;
        }
        if (layout == OFFSETS32) {
            const int32_t *off = a->buffers[1];
            const char *data = a->buffers[2];
            row->ptr = data ? data + off[j] : "";
            row->len = (size_t)(off[j + 1] - off[j]);
        } else if (layout == OFFSETS64) {
            const int64_t *off = a->buffers[1];
            const char *data = a->buffers[2];
            row->ptr = data ? data + off[j] : "";
            row->len = (size_t)(off[j + 1] - off[j]);
        } else {
            /* a view: length, then the bytes inline (<= 12) or a prefix,
             * the index of a data buffer and an offset into it */
            const uint8_t *v = (const uint8_t *)a->buffers[1] + 16 * j;
            int32_t len, buf, off;
            memcpy(&len, v, 4);
            row->len = (size_t)len;
            if (len <= 12) {
                row->ptr = (const char *)v + 4;
            } else {
                memcpy(&buf, v + 8, 4);
                memcpy(&off, v + 12, 4);
                row->ptr = (const char *)a->buffers[2 + buf] + off;
            }
        }
    }
    return 0;
}

static void array_capsule_free(PyObject *capsule)
{
    struct ArrowArray *a = PyCapsule_GetPointer(capsule, "arrow_array");
    if (a && a->release)
        a->release(a);
    free(a);
}

static int keep(wjpy_column *c, PyObject *obj)
{
    int r;
    if (!obj)
        return -1;
    r = PyList_Append(c->keep, obj);
    Py_DECREF(obj);
    return r;
}

static int read_array(const char *func, const char *argument, PyObject *obj,
                      wjpy_column *c)
{
    PyObject *pair = PyObject_CallMethod(obj, "__arrow_c_array__", NULL);
    struct ArrowSchema *schema;
    struct ArrowArray *array;
    int r = -1;

    if (!pair)
        return -1;
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_Format(PyExc_TypeError, "%s: %s: __arrow_c_array__ did not give "
                     "(schema, array)", func, argument);
        goto done;
    }
    schema = PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 0), "arrow_schema");
    array = PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 1), "arrow_array");
    if (!schema || !array)
        goto done;
    if (append(func, argument, schema, array, c) < 0)
        goto done;
    r = PyList_Append(c->keep, pair);
done:
    Py_DECREF(pair);
    return r;
}

static int stream_error(const char *func, const char *argument,
                        struct ArrowArrayStream *s, int code)
{
    const char *why = s->get_last_error ? s->get_last_error(s) : NULL;
    PyErr_Format(PyExc_RuntimeError, "%s: %s: reading the Arrow stream: %s",
                 func, argument, why ? why : strerror(code));
    return -1;
}

static int read_stream(const char *func, const char *argument, PyObject *obj,
                       wjpy_column *c)
{
    PyObject *capsule = PyObject_CallMethod(obj, "__arrow_c_stream__", NULL);
    struct ArrowArrayStream *s;
    struct ArrowSchema schema;
    int r = -1, code;

    if (!capsule)
        return -1;
    s = PyCapsule_GetPointer(capsule, "arrow_array_stream");
    if (!s || keep(c, Py_NewRef(capsule)) < 0)
        goto done;
    memset(&schema, 0, sizeof schema);
    if ((code = s->get_schema(s, &schema)) != 0) {
        stream_error(func, argument, s, code);
        goto done;
    }
    for (;;) {
        struct ArrowArray *a = calloc(1, sizeof *a);
        if (!a) {
            PyErr_NoMemory();
            break;
        }
        if ((code = s->get_next(s, a)) != 0) {
            free(a);
            stream_error(func, argument, s, code);
            break;
        }
        if (!a->release) { /* the end */
            free(a);
            r = 0;
            break;
        }
        if (keep(c, PyCapsule_New(a, "arrow_array", array_capsule_free)) < 0) {
            if (a->release)
                a->release(a);
            free(a);
            break;
        }
        if (append(func, argument, &schema, a, c) < 0)
            break;
    }
    if (schema.release)
        schema.release(&schema);
done:
    Py_DECREF(capsule);
    return r;
}

int wjpy_column_read(const char *func, const char *argument, PyObject *obj,
                     wjpy_column *out)
{
    int r;
    memset(out, 0, sizeof *out);
    out->keep = PyList_New(0);
    if (!out->keep)
        return -1;
    if (PyObject_HasAttrString(obj, "__arrow_c_array__"))
        r = read_array(func, argument, obj, out);
    else if (PyObject_HasAttrString(obj, "__arrow_c_stream__"))
        r = read_stream(func, argument, obj, out);
    else {
        PyErr_Format(PyExc_TypeError,
                     "%s: %s must export the Arrow PyCapsule interface "
                     "(__arrow_c_array__ or __arrow_c_stream__), not %.100s",
                     func, argument, Py_TYPE(obj)->tp_name);
        r = -1;
    }
    if (r < 0)
        wjpy_column_release(out);
    return r;
}

void wjpy_column_release(wjpy_column *c)
{
    free(c->rows);
    Py_CLEAR(c->keep);
    c->rows = NULL;
    c->n = c->cap = 0;
}
