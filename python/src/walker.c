/* SPDX-License-Identifier: MIT */
/*
 * walker.c - Python values as JSON text, through the core's wj_writer.
 *
 * dict (str keys) -> object, list and tuple -> array, str -> string (lone
 * surrogates as WTF-8, which the writer accepts and writes as \udxxx),
 * int -> number (exact at any size), float -> number as ECMAScript writes
 * it (the writer's rule; NaN and infinities are the writer's error), True,
 * False, None -> true, false, null, numpy's bool_, integer and floating
 * scalars -> the bool, int or float they hold, Fragment -> its text as it is,
 * once checked to be exactly one JSON value on its own (so that its text
 * cannot close the container it is placed in and open others).  The walk
 * keeps its own stack (no C recursion): nesting deeper than WJ_MAX_DEPTH is
 * the core's depth error, which is also where a cycle ends.  Commas, colons,
 * quoting and number spelling are the writer's business, not this file's.
 *
 * Also the Fragment type: JSON text placed inside a Python value as it is.
 */
#include "wjpy.h"

#include <structmember.h>

/* --------------------------------------------------------------- Fragment */

typedef struct fragment {
    PyObject_HEAD PyObject *contents; /* the str or bytes given */
    PyObject *bytes; /* its bytes (a str's UTF-8, surrogatepass) */
} fragment;

static PyObject *fragment_new(PyTypeObject *type, PyObject *args,
                              PyObject *kwds)
{
    static char *kwlist[] = {"contents", NULL};
    PyObject *contents, *bytes;
    fragment *self;

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Fragment", kwlist,
                                     &contents))
        return NULL;
    if (PyUnicode_Check(contents))
        bytes = PyUnicode_AsEncodedString(contents, "utf-8", "surrogatepass");
    else if (PyBytes_Check(contents))
        bytes = Py_NewRef(contents);
    else if (!(bytes = wjpy_byte_buffer_copy(contents)) && !PyErr_Occurred())
        return PyErr_Format(PyExc_TypeError,
                            "Fragment() takes str, bytes or a buffer of single "
                            "bytes, not %.100s",
                            Py_TYPE(contents)->tp_name);
    if (!bytes)
        return NULL;
    self = (fragment *)type->tp_alloc(type, 0);
    if (!self) {
        Py_DECREF(bytes);
        return NULL;
    }
    self->contents = Py_NewRef(contents);
    self->bytes = bytes;
    return (PyObject *)self;
}

static void fragment_dealloc(PyObject *op)
{
    fragment *self = (fragment *)op;
    PyTypeObject *type = Py_TYPE(op);
    Py_CLEAR(self->contents);
    Py_CLEAR(self->bytes);
    type->tp_free(op);
    Py_DECREF(type);
}

static PyObject *fragment_repr(PyObject *op)
{
    return PyUnicode_FromFormat("wirejson.Fragment(%R)",
                                ((fragment *)op)->contents);
}

static PyObject *fragment_reduce(PyObject *op, PyObject *unused)
{
    (void)unused;
    return Py_BuildValue("O(O)", (PyObject *)Py_TYPE(op),
                         ((fragment *)op)->contents);
}

void wjpy_fragment_text(PyObject *op, const char **ptr, size_t *len)
{
    fragment *self = (fragment *)op;
    *ptr = PyBytes_AS_STRING(self->bytes);
    *len = (size_t)PyBytes_GET_SIZE(self->bytes);
}

static PyMemberDef fragment_members[] = {
    {"contents", T_OBJECT_EX, offsetof(fragment, contents), READONLY,
     "the JSON text given (str or bytes)"},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef fragment_methods[] = {
    {"__reduce__", fragment_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const char fragment_doc[] =
    "Fragment(contents)\n--\n\n"
    "JSON text (str or bytes) placed inside a Python value as it is, like\n"
    "orjson.Fragment: wire_json({'a': Fragment('[1.0]')}) is '{\"a\":[1.0]}'.\n"
    "The text must be exactly one JSON value (docs/contract.md §3), checked\n"
    "on its own where it is placed: anything else is a wirejson.Error that\n"
    "names the fragment.";

static PyType_Slot fragment_slots[] = {
    {Py_tp_new, fragment_new},
    {Py_tp_dealloc, fragment_dealloc},
    {Py_tp_repr, fragment_repr},
    {Py_tp_members, fragment_members},
    {Py_tp_methods, fragment_methods},
    {Py_tp_doc, (void *)fragment_doc},
    {0, NULL},
};

PyType_Spec wjpy_fragment_spec = {
    "wirejson.Fragment",
    sizeof(fragment),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    fragment_slots,
};

int wjpy_fragment_check(wjpy_state *st, const char *func, const char *argument,
                        const char *ptr, size_t len, int release_gil)
{
    wj_error err = WJ_ERROR_INIT;
    char name[128];
    wj_code rc;

    if (release_gil) { /* a Fragment's bytes cannot change */
        Py_BEGIN_ALLOW_THREADS
        rc = wj_validate(ptr, len, &wjpy_alloc, &err);
        Py_END_ALLOW_THREADS
    } else {
        rc = wj_validate(ptr, len, &wjpy_alloc, &err);
    }
    if (rc == WJ_OK)
        return 0;
    if (argument) {
        PyOS_snprintf(name, sizeof name, "%s: fragment", argument);
        err.argument = name;
    } else {
        err.argument = "fragment";
    }
    wjpy_raise(st, func, rc, &err);
    return -1;
}

/* ------------------------------------------------------------ the walker */

const char *wjpy_utf8(PyObject *str, Py_ssize_t *len, PyObject **tmp)
{
    *tmp = NULL;
    if (PyUnicode_IS_COMPACT_ASCII(str)) {
        *len = PyUnicode_GET_LENGTH(str);
        return (const char *)PyUnicode_DATA(str);
    }
    /* Not cached in the str: a value's strings live as long as the value,
     * and keeping a UTF-8 copy in each would double their memory. */
    *tmp = PyUnicode_AsUTF8String(str);
    if (!*tmp) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return NULL;
        PyErr_Clear();
        *tmp = PyUnicode_AsEncodedString(str, "utf-8", "surrogatepass");
        if (!*tmp)
            return NULL;
    }
    *len = PyBytes_GET_SIZE(*tmp);
    return PyBytes_AS_STRING(*tmp);
}

/* What a walk needs at hand. */
typedef struct walk {
    wjpy_state *st;
    const char *func, *argument;
    wj_writer *w;
    int canonical; /* dict items in the canonical order of their keys */
} walk;

/* Raises the writer's error (sticky: the text tells why). */
static int writer_failed(const walk *k, wj_code rc)
{
    wj_error err = WJ_ERROR_INIT;
    size_t len;

    if (wj_writer_text(k->w, &len, &err) == NULL && err.code != WJ_OK)
        rc = err.code;
    else
        err.code = rc;
    err.argument = k->argument;
    wjpy_raise(k->st, k->func, rc, &err);
    return rc == WJ_ERR_INTERRUPTED ? WJPY_WALK_INTERRUPTED : -1;
}

/* A float the writer refuses (NaN, an infinity): the SQL glue's words for
 * a REAL argument that is one ("data_digest: argument 1 is not a finite
 * number"), with the core's reason; inside a container, where SQL has no
 * such argument, the argument "holds" it. */
static int not_finite(const walk *k, int at_top)
{
    wj_error err = WJ_ERROR_INIT;
    size_t len;

    wj_writer_text(k->w, &len, &err);
    wjpy_raise_format(k->st, WJ_ERR_ARGUMENT, "%s: %s %s %s", k->func,
                      k->argument ? k->argument : WJPY_DOC_ARGUMENT,
                      at_top ? "is" : "holds a float that is",
                      err.msg ? err.msg : "not a finite number");
    return -1;
}

/* TypeError for a value the walker cannot write (what: NULL) or a dict
 * key that is not a str. */
static int type_error(const walk *k, PyObject *obj, int is_key)
{
    const char *arg = k->argument ? k->argument : "";
    const char *sep = k->argument ? ": " : "";
    if (is_key)
        PyErr_Format(PyExc_TypeError,
                     "%s: %s%sa dict key must be str, not %.100s", k->func, arg,
                     sep, Py_TYPE(obj)->tp_name);
    else
        PyErr_Format(PyExc_TypeError,
                     "%s: %s%sa value of type %.100s is not JSON (dict, list, "
                     "tuple, str, int, float, bool, None, numpy's bool_, "
                     "integer and floating scalars and wirejson.Fragment are)",
                     k->func, arg, sep, Py_TYPE(obj)->tp_name);
    return -1;
}

static int write_str(const walk *k, PyObject *s, int as_name)
{
    Py_ssize_t n;
    PyObject *tmp;
    const char *p;
    wj_code rc;

    if (!as_name && !PyUnicode_IS_COMPACT_ASCII(s)) {
        /* its code units as CPython keeps them: no UTF-8 copy */
        rc = wj_writer_string_units(k->w, PyUnicode_DATA(s),
                                    (size_t)PyUnicode_GET_LENGTH(s),
                                    PyUnicode_KIND(s));
        return rc == WJ_OK ? 0 : writer_failed(k, rc);
    }
    p = wjpy_utf8(s, &n, &tmp);
    if (!p)
        return -1;
    rc = as_name ? wj_writer_name(k->w, p, (size_t)n)
                 : wj_writer_string(k->w, p, (size_t)n);
    Py_XDECREF(tmp);
    return rc == WJ_OK ? 0 : writer_failed(k, rc);
}

/* Decimal digits of an int too large for int64, also beyond CPython's limit
 * on int-to-str conversion (sys.get_int_max_str_digits): chunks of
 * CHUNK_DIGITS digits, each within that limit. */
#define CHUNK_DIGITS 4000

static PyObject *long_decimal(PyObject *v)
{
    PyObject *s = PyNumber_ToBase(v, 10), *n = NULL, *base = NULL;
    PyObject *parts = NULL, *ten = NULL, *exp = NULL, *empty = NULL;
    int neg;

    if (s || !PyErr_ExceptionMatches(PyExc_ValueError))
        return s;
    PyErr_Clear();
    ten = PyLong_FromLong(10);
    empty = PyLong_FromLong(0);
    neg = ten && empty ? PyObject_RichCompareBool(v, empty, Py_LT) : -1;
    Py_CLEAR(empty);
    if (neg < 0) {
        Py_XDECREF(ten);
        return NULL;
    }
    n = PyNumber_Absolute(v);
    exp = PyLong_FromLong(CHUNK_DIGITS);
    base = n && ten && exp ? PyNumber_Power(ten, exp, Py_None) : NULL;
    parts = base ? PyList_New(0) : NULL;
    while (parts) {
        PyObject *qr, *digits, *padded;
        int more = PyObject_RichCompareBool(n, base, Py_GE);
        if (more <= 0) {
            if (more < 0)
                Py_CLEAR(parts);
            break;
        }
        qr = PyNumber_Divmod(n, base);
        if (!qr) {
            Py_CLEAR(parts);
            break;
        }
        Py_SETREF(n, Py_NewRef(PyTuple_GET_ITEM(qr, 0)));
        digits = PyNumber_ToBase(PyTuple_GET_ITEM(qr, 1), 10);
        Py_DECREF(qr);
        padded = digits
                     ? PyObject_CallMethod(digits, "zfill", "i", CHUNK_DIGITS)
                     : NULL;
        Py_XDECREF(digits);
        if (!padded || PyList_Append(parts, padded) < 0)
            Py_CLEAR(parts);
        Py_XDECREF(padded);
    }
    if (parts) {
        PyObject *head = PyNumber_ToBase(n, 10);
        if (!head || PyList_Append(parts, head) < 0 ||
            PyList_Reverse(parts) < 0)
            Py_CLEAR(parts);
        Py_XDECREF(head);
    }
    if (parts && neg) {
        PyObject *minus = PyUnicode_FromString("-");
        if (!minus || PyList_Insert(parts, 0, minus) < 0)
            Py_CLEAR(parts);
        Py_XDECREF(minus);
    }
    empty = parts ? PyUnicode_FromString("") : NULL;
    s = empty ? PyUnicode_Join(empty, parts) : NULL;
    Py_XDECREF(empty);
    Py_XDECREF(parts);
    Py_XDECREF(base);
    Py_XDECREF(exp);
    Py_XDECREF(ten);
    Py_XDECREF(n);
    return s;
}

static int write_long(const walk *k, PyObject *obj)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    PyObject *digits;
    Py_ssize_t n;
    const char *p;
    wj_code rc;

    if (!overflow) {
        if (v == -1 && PyErr_Occurred())
            return -1;
        rc = wj_writer_int64(k->w, (int64_t)v);
        return rc == WJ_OK ? 0 : writer_failed(k, rc);
    }
    digits = long_decimal(obj);
    if (!digits)
        return -1;
    p = PyUnicode_AsUTF8AndSize(digits, &n);
    rc = p ? wj_writer_number(k->w, p, (size_t)n) : WJ_OK;
    Py_DECREF(digits);
    if (!p)
        return -1;
    return rc == WJ_OK ? 0 : writer_failed(k, rc);
}

/* A dict item with its key's UTF-8, for writing in canonical order. */
typedef struct sorted_item {
    PyObject *key, *value; /* strong references */
    const char *utf8;      /* the key's UTF-8, in the str or in tmp */
    Py_ssize_t len;
    PyObject *tmp;
} sorted_item;

/* A container being written. */
typedef struct frame {
    PyObject *obj;  /* strong reference */
    Py_ssize_t pos; /* next item (list, tuple, items) or PyDict_Next position */
    int is_dict;
    sorted_item
        *items; /* canonical walks: the dict's items, sorted; else NULL */
    Py_ssize_t n_items;
} frame;

static void free_items(sorted_item *items, Py_ssize_t n)
{
    Py_ssize_t j;
    for (j = 0; j < n; j++) {
        Py_DECREF(items[j].key);
        Py_DECREF(items[j].value);
        Py_XDECREF(items[j].tmp);
    }
    PyMem_Free(items);
}

static int compare_items(const void *a, const void *b)
{
    const sorted_item *x = a, *y = b;
    return wj_name_compare(x->utf8, (size_t)x->len, y->utf8, (size_t)y->len);
}

/* The items of dict d sorted by wj_name_compare of their keys, in
 * f->items.  Returns 0, or -1 with an exception set. */
static int sort_items(const walk *k, PyObject *d, frame *f)
{
    Py_ssize_t pos = 0, n = 0;
    PyObject *key, *value;
    sorted_item *items =
        PyMem_Malloc((size_t)(PyDict_GET_SIZE(d) + 1) * sizeof *items);

    if (!items) {
        PyErr_NoMemory();
        return -1;
    }
    while (PyDict_Next(d, &pos, &key, &value)) {
        sorted_item *it = &items[n];
        if (!PyUnicode_Check(key)) {
            free_items(items, n);
            return type_error(k, key, 1);
        }
        it->utf8 = wjpy_utf8(key, &it->len, &it->tmp);
        if (!it->utf8) {
            free_items(items, n);
            return -1;
        }
        it->key = Py_NewRef(key);
        it->value = Py_NewRef(value);
        n++;
    }
    if (n <= 8) { /* most dicts: an insertion sort, no call to qsort */
        Py_ssize_t j, m;
        for (j = 1; j < n; j++) {
            sorted_item it = items[j];
            for (m = j; m > 0 && compare_items(&items[m - 1], &it) > 0; m--)
                items[m] = items[m - 1];
            items[m] = it;
        }
    } else {
        qsort(items, (size_t)n, sizeof *items, compare_items);
    }
    f->items = items;
    f->n_items = n;
    return 0;
}

typedef struct stack {
    frame *v;
    size_t n, cap;
    frame small[32];
} stack;

/* Writes a scalar, or opens a container and pushes it.  Returns 0 or -1. */
static int put_value(const walk *k, stack *s, PyObject *obj)
{
    wj_code rc;
    int is_dict, numpy;

    if (PyUnicode_Check(obj))
        return write_str(k, obj, 0);
    if (obj == Py_None)
        rc = wj_writer_null(k->w);
    else if (obj == Py_True || obj == Py_False)
        rc = wj_writer_bool(k->w, obj == Py_True);
    else if (PyLong_Check(obj))
        return write_long(k, obj);
    else if (PyFloat_Check(obj)) {
        rc = wj_writer_double(k->w, PyFloat_AS_DOUBLE(obj));
        if (rc == WJ_ERR_ARGUMENT)
            return not_finite(k, s->n == 0);
    } else if (Py_IS_TYPE(obj, k->st->fragment_type)) {
        const char *p;
        size_t n;
        wjpy_fragment_text(obj, &p, &n);
        /* a canonical writer refuses raw text (the caller then takes the
         * text route), so only text that is kept is checked */
        rc = wj_writer_raw(k->w, p, n);
        if (rc == WJ_OK &&
            wjpy_fragment_check(k->st, k->func, k->argument, p, n, 0) < 0)
            return -1;
    } else if ((is_dict = PyDict_Check(obj)) || PyList_Check(obj) ||
               PyTuple_Check(obj)) {
        rc = is_dict ? wj_writer_begin_object(k->w)
                     : wj_writer_begin_array(k->w);
        if (rc != WJ_OK)
            return writer_failed(k, rc);
        if (s->n == WJ_MAX_DEPTH) {
            /* One container more than the core takes: its error, at the
             * byte where this container opens in the text written. */
            size_t len = 0;
            wj_error err = WJ_ERROR_INIT;
            wj_writer_text(k->w, &len, &err);
            err.code = WJ_ERR_DEPTH;
            err.offset = len ? len - 1 : 0;
            err.msg = k->st->depth_msg;
            err.argument = k->argument;
            wjpy_raise(k->st, k->func, WJ_ERR_DEPTH, &err);
            return -1;
        }
        if (s->n == s->cap) {
            size_t cap = s->cap * 2;
            frame *v = s->v == s->small ? PyMem_Malloc(cap * sizeof *v)
                                        : PyMem_Realloc(s->v, cap * sizeof *v);
            if (!v) {
                PyErr_NoMemory();
                return -1;
            }
            if (s->v == s->small)
                memcpy(v, s->small, sizeof s->small);
            s->v = v;
            s->cap = cap;
        }
        s->v[s->n].obj = Py_NewRef(obj);
        s->v[s->n].pos = 0;
        s->v[s->n].is_dict = is_dict;
        s->v[s->n].items = NULL;
        s->v[s->n].n_items = 0;
        s->n++;
        if (is_dict && k->canonical)
            return sort_items(k, obj, &s->v[s->n - 1]);
        return 0;
    } else if ((numpy = wjpy_numpy_kind(obj)) != WJPY_NUMPY_NONE) {
        /* the Python value it holds (a float16 or float32 exactly, a
         * longdouble rounded to the nearest double), written as that */
        PyObject *v;
        int r;
        if (numpy == WJPY_NUMPY_BOOL) {
            int truth = PyObject_IsTrue(obj);
            if (truth < 0)
                return -1;
            v = Py_NewRef(truth ? Py_True : Py_False);
        } else {
            v = numpy == WJPY_NUMPY_INT ? PyNumber_Index(obj)
                                        : PyNumber_Float(obj);
            if (!v)
                return -1;
        }
        r = put_value(k, s, v);
        Py_DECREF(v);
        return r;
    } else
        return type_error(k, obj, 0);
    return rc == WJ_OK ? 0 : writer_failed(k, rc);
}

static void pop(stack *s)
{
    frame *f = &s->v[--s->n];
    Py_DECREF(f->obj);
    if (f->items)
        free_items(f->items, f->n_items);
}

/* Writes the next member or element of the top container, or closes it.
 * Returns 0 or -1. */
static int step(const walk *k, stack *s)
{
    frame *f = &s->v[s->n - 1];
    PyObject *item = NULL;
    wj_code rc;
    int r;

    if (f->items || (f->is_dict && k->canonical)) {
        if (f->pos < f->n_items) {
            sorted_item *it = &f->items[f->pos++];
            rc = wj_writer_name(k->w, it->utf8, (size_t)it->len);
            if (rc != WJ_OK)
                return writer_failed(k, rc);
            return put_value(k, s, it->value);
        }
        rc = wj_writer_end_object(k->w);
    } else if (f->is_dict) {
        PyObject *key, *value;
        if (PyDict_Next(f->obj, &f->pos, &key, &value)) {
            if (!PyUnicode_Check(key))
                return type_error(k, key, 1);
            Py_INCREF(key);
            Py_INCREF(value);
            r = write_str(k, key, 1);
            Py_DECREF(key);
            if (r == 0)
                r = put_value(k, s, value);
            Py_DECREF(value);
            return r;
        }
        rc = wj_writer_end_object(k->w);
    } else {
        Py_ssize_t size = PyList_Check(f->obj) ? PyList_GET_SIZE(f->obj)
                                               : PyTuple_GET_SIZE(f->obj);
        if (f->pos < size) {
            item = PyList_Check(f->obj) ? PyList_GET_ITEM(f->obj, f->pos)
                                        : PyTuple_GET_ITEM(f->obj, f->pos);
            f->pos++;
            Py_INCREF(item);
            r = put_value(k, s, item);
            Py_DECREF(item);
            return r;
        }
        rc = wj_writer_end_array(k->w);
    }
    pop(s);
    return rc == WJ_OK ? 0 : writer_failed(k, rc);
}

int wjpy_walk(wjpy_state *st, const char *func, const char *argument,
              PyObject *obj, wj_writer *w, int canonical)
{
    walk k = {st, func, argument, w, canonical};
    stack s;
    int r;

    s.v = s.small;
    s.n = 0;
    s.cap = sizeof s.small / sizeof *s.small;
    r = put_value(&k, &s, obj);
    while (r == 0 && s.n > 0)
        r = step(&k, &s);
    while (s.n > 0)
        pop(&s);
    if (s.v != s.small)
        PyMem_Free(s.v);
    return r;
}
