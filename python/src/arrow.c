/* SPDX-License-Identifier: MIT */
/*
 * arrow.c - wirejson.arrow.FUNCTION(column, *names, on_error="raise",
 * threads=1) for the rows of the table of functions that carry
 * WK_HOST_PYTHON (made at module init, as the module's own functions are):
 *
 *   >>> import pyarrow as pa, wirejson.arrow
 *   >>> pa.array(wirejson.arrow.data_digest(pa.array(['{"a":1}', None])))
 *
 * column: an Arrow column of text or binary (arrow_read.c).  An argument
 * after it that the row's parameters say is a document, text, value or
 * texts (with_top_level's value, encode_with_schemas' texts) is another
 * Arrow column of the same length (JSON text a row) or one Python object
 * for every row, taken as the module's function takes it; names (member
 * names, path) are str or None.  The GIL is released while the rows run.
 */
#include "wjpy_arrow.h"

#include <stdint.h>
#include <string.h>

#define MAX_ARROW_FUNCTIONS 64
#define MAX_ARGS 64

static PyMethodDef arrow_defs[MAX_ARROW_FUNCTIONS];
static char arrow_docs[MAX_ARROW_FUNCTIONS][512];

static const char *const kind_names[] = {"utf8", "int64", "list<utf8>"};

/* The argument k of a row: a column or a scalar, and what holds it. */
typedef struct held {
    wjpy_column column;
    wjpy_text text;
    PyObject *owned;
    wj_arg scalar;
} held;

static int parse_keywords(const char *func, PyObject *kwnames,
                          PyObject *const *kw, int *null_on_error,
                          int *threads)
{
    Py_ssize_t k, n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (k = 0; k < n; k++) {
        const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        if (!key)
            return -1;
        if (!strcmp(key, "on_error")) {
            const char *v = PyUnicode_Check(kw[k]) ? PyUnicode_AsUTF8(kw[k])
                                                   : NULL;
            if (v && !strcmp(v, "raise"))
                *null_on_error = 0;
            else if (v && !strcmp(v, "null"))
                *null_on_error = 1;
            else {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "%s: on_error must be "
                             "'raise' or 'null'", func);
                return -1;
            }
        } else if (!strcmp(key, "threads")) {
            long t = PyLong_Check(kw[k]) ? PyLong_AsLong(kw[k]) : -1;
            if (t < 1 || t > 1024) {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "%s: threads must be an int "
                             "from 1 to 1024", func);
                return -1;
            }
            *threads = (int)t;
        } else {
            PyErr_Format(PyExc_TypeError, "%s: unexpected keyword argument "
                         "'%s'", func, key);
            return -1;
        }
    }
    return 0;
}

/* Argument k (parameter param) as a column or a scalar in *h and *arg. */
static int take_argument(wjpy_state *st, const wj_function *fn, size_t k,
                         wj_arg_kind kind, PyObject *obj, size_t n_rows,
                         held *h, wjpy_arrow_arg *arg)
{
    const char *func = fn->name;
    const char *name = k < fn->n_params ? fn->params[k].name
                                        : fn->params[fn->n_params - 1].name;
    int r = 0;

    int scalar_word = kind == WJ_ARG_NAME || kind == WJ_ARG_NAMES ||
                      kind == WJ_ARG_WORD;

    if (!scalar_word && wjpy_is_arrow(obj)) {
        if (wjpy_column_read(func, name, obj, &h->column) < 0)
            return -1;
        if (h->column.n != n_rows) {
            PyErr_Format(PyExc_ValueError, "%s: %s has %zu rows, the column "
                         "%zu", func, name, h->column.n, n_rows);
            return -1;
        }
        arg->src = h->column.rows;
        arg->step = 1;
        return 0;
    }
    switch (kind) {
    case WJ_ARG_NAME:
    case WJ_ARG_NAMES:
    case WJ_ARG_WORD: {
        wj_name nm;
        if (obj == Py_None) { /* a NULL name */
            h->scalar.ptr = NULL;
            break;
        }
        r = wjpy_name_from(func, obj, &nm, &h->owned);
        h->scalar.ptr = nm.ptr;
        h->scalar.len = nm.len;
        break;
    }
    case WJ_ARG_DOCUMENT:
    case WJ_ARG_TEXT:
        r = wjpy_text_from(st, func, name, obj, &h->text);
        break;
    case WJ_ARG_VALUE:
        r = wjpy_value_text(st, func, "value", obj, &h->text);
        break;
    case WJ_ARG_TEXTS:
        r = wjpy_texts_text(st, func, "texts", 1, obj, &h->text);
        break;
    case WJ_ARG_DIGESTS: /* a list of str, or its JSON text, for every row */
        r = wjpy_texts_text(st, func, name, 0, obj, &h->text);
        break;
    }
    if (r < 0)
        return -1;
    if (!scalar_word) {
        h->scalar.ptr = h->text.ptr ? h->text.ptr : "";
        h->scalar.len = h->text.len;
    }
    arg->src = &h->scalar;
    arg->step = 0;
    return 0;
}

static PyObject *raise_row(wjpy_state *st, const char *func,
                           const wjpy_arrow_failure *f)
{
    PyObject *type, *value, *tb, *msg, *row;
    if (wjpy_raise(st, func, f->rc, &f->err) != NULL || !PyErr_Occurred())
        return NULL;
    if (!PyErr_ExceptionMatches(st->error))
        return NULL;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    msg = PyUnicode_FromFormat("row %zu: %S", f->row, value);
    row = PyLong_FromSize_t(f->row);
    if (msg && row) {
        PyObject *args = PyTuple_Pack(1, msg);
        if (args && PyObject_SetAttrString(value, "args", args) == 0 &&
            PyObject_SetAttrString(value, "row", row) == 0)
            PyErr_Restore(type, value, tb), type = value = tb = NULL;
        Py_XDECREF(args);
    }
    Py_XDECREF(msg);
    Py_XDECREF(row);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return NULL;
}

static PyObject *arrow_call(PyObject *self, PyObject *const *a,
                            size_t nargsf, PyObject *kwnames)
{
    PyObject *module = PyTuple_GET_ITEM(self, 0);
    const wj_function *fn = PyCapsule_GetPointer(PyTuple_GET_ITEM(self, 1),
                                                 NULL);
    const char *func = fn->name;
    wjpy_state *st = wjpy_state_of_module(module);
    size_t n = (size_t)PyVectorcall_NARGS(nargsf), k, fixed, rows;
    int null_on_error = 0, threads = 1;
    held h[MAX_ARGS];
    wjpy_arrow_arg args[MAX_ARGS];
    wjpy_arrow_failure fail;
    wjpy_arrow_out *out;
    PyObject *result = NULL;
    PyObject *type = PyObject_GetAttrString(module, "_ArrowResult");

    if (!type)
        return NULL;
    memset(h, 0, sizeof h);
    fixed = wj_function_min_args(fn);
    if (n < fixed || n > wj_function_max_args(fn) || n > MAX_ARGS) {
        PyErr_Format(PyExc_TypeError, "%s: wrong number of arguments", func);
        goto done;
    }
    if (parse_keywords(func, kwnames, a + n, &null_on_error, &threads) < 0 ||
        wjpy_column_read(func, "column", a[0], &h[0].column) < 0)
        goto done;
    rows = h[0].column.n;
    args[0].src = h[0].column.rows;
    args[0].step = 1;
    for (k = 1; k < n; k++) {
        wj_arg_kind kind = k < fn->n_params ? fn->params[k].kind
                                            : WJ_ARG_NAMES;
        if (take_argument(st, fn, k, kind, a[k], rows, &h[k], &args[k]) < 0)
            goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    out = wjpy_arrow_run(fn, args, n, rows, null_on_error, threads, &fail);
    Py_END_ALLOW_THREADS
    if (out)
        result = wjpy_arrow_result_new((PyTypeObject *)type, out);
    else if (fail.row != SIZE_MAX)
        raise_row(st, func, &fail);
    else
        PyErr_NoMemory();
done:
    for (k = 0; k < n && k < MAX_ARGS; k++) {
        wjpy_column_release(&h[k].column);
        wjpy_text_release(st, &h[k].text);
        Py_XDECREF(h[k].owned);
    }
    Py_DECREF(type);
    return result;
}

/* The signature line and docstring of fn's Arrow function. */
static const char *doc_of(const wj_function *fn, int kind, char *doc,
                          size_t size)
{
    size_t k, at;
    at = (size_t)snprintf(doc, size, "%s(column", fn->name);
    for (k = 1; k < fn->n_params && at < size; k++)
        at += (size_t)snprintf(doc + at, size - at, ", %s%s",
                               fn->params[k].kind == WJ_ARG_NAMES ? "*" : "",
                               fn->params[k].name);
    if (at < size)
        snprintf(doc + at, size - at,
                 ", on_error='raise', threads=1)\n--\n\n%s\n\n"
                 "Over an Arrow column of text or binary (any object with\n"
                 "__arrow_c_array__ or __arrow_c_stream__); gives an Arrow\n"
                 "array of %s (NULL for NULL).  A failing row raises\n"
                 "wirejson.Error 'row N: ...' with .row, or with\n"
                 "on_error='null' gives NULL.",
                 fn->summary, kind_names[kind]);
    return doc;
}

int wjpy_arrow_add(PyObject *m)
{
    size_t n_rows, k, n_defs = 0;
    const wj_function *rows = wj_functions(&n_rows);
    PyObject *table = PyDict_New(), *type;
    int bad;

    if (!table)
        return -1;
    type = PyType_FromModuleAndSpec(m, &wjpy_arrow_result_spec, NULL);
    bad = !type || PyModule_AddObjectRef(m, "_ArrowResult", type) < 0;
    Py_XDECREF(type);
    for (k = 0; k < n_rows && !bad; k++) {
        const wj_function *fn = &rows[k];
        int kind = wjpy_arrow_kind_of(fn);
        PyObject *self, *f;
        if (!(wk_function_hosts(fn) & WK_HOST_PYTHON) || kind < 0 || fn->n_params == 0 ||
            (fn->params[0].kind != WJ_ARG_DOCUMENT &&
             fn->params[0].kind != WJ_ARG_TEXT &&
             fn->params[0].kind != WJ_ARG_DIGESTS))
            continue;
        if (n_defs == MAX_ARROW_FUNCTIONS) {
            PyErr_SetString(PyExc_SystemError, "wirejson.arrow: too many "
                            "functions");
            bad = 1;
            break;
        }
        arrow_defs[n_defs].ml_name = fn->name;
        arrow_defs[n_defs].ml_meth =
            (PyCFunction)(void (*)(void))arrow_call;
        arrow_defs[n_defs].ml_flags = METH_FASTCALL | METH_KEYWORDS;
        arrow_defs[n_defs].ml_doc = doc_of(fn, kind, arrow_docs[n_defs],
                                           sizeof arrow_docs[n_defs]);
        self = Py_BuildValue("(ON)", m, PyCapsule_New((void *)fn, NULL, NULL));
        f = self ? PyCFunction_NewEx(&arrow_defs[n_defs], self, NULL) : NULL;
        bad = !f || PyDict_SetItemString(table, fn->name, f) < 0;
        Py_XDECREF(self);
        Py_XDECREF(f);
        n_defs++;
    }
    if (!bad)
        bad = PyModule_AddObjectRef(m, "_arrow_functions", table) < 0;
    Py_DECREF(table);
    return bad ? -1 : 0;
}
