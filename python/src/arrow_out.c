/* SPDX-License-Identifier: MIT */
/*
 * arrow_out.c - wirejson.arrow's results: objects that export their Arrow
 * buffers through __arrow_c_array__ (the PyCapsules "arrow_schema" and
 * "arrow_array"), without a copy, any number of times.  Each exported
 * array holds a reference to the buffers (wjpy_arrow_out), dropped by its
 * release callback from whatever thread the consumer releases it on.
 */
#include "wjpy_arrow.h"

#include <stdlib.h>
#include <string.h>

typedef struct result {
    PyObject_HEAD
    wjpy_arrow_out *out;
} result;

/* ------------------------------------------------------------ schema */

static void schema_release(struct ArrowSchema *s)
{
    int64_t k;
    for (k = 0; k < s->n_children; k++) {
        if (s->children[k]->release)
            s->children[k]->release(s->children[k]);
        free(s->children[k]);
    }
    free(s->children);
    s->release = NULL;
}

static int schema_fill(struct ArrowSchema *s, const wjpy_arrow_out *out)
{
    memset(s, 0, sizeof *s);
    s->name = "";
    s->flags = ARROW_FLAG_NULLABLE;
    s->release = schema_release;
    switch (out->kind) {
    case WJPY_ARROW_INT64:
        s->format = "l";
        return 0;
    case WJPY_ARROW_UTF8:
        s->format = out->wide ? "U" : "u";
        return 0;
    case WJPY_ARROW_LIST:
        s->format = "+l";
        s->children = calloc(1, sizeof *s->children);
        if (!s->children || !(s->children[0] = calloc(1, sizeof **s->children)))
            return -1;
        s->n_children = 1;
        s->children[0]->format = "u";
        s->children[0]->name = "item";
        s->children[0]->flags = ARROW_FLAG_NULLABLE;
        s->children[0]->release = schema_release;
        return 0;
    }
    return -1;
}

/* ------------------------------------------------------------- array */

static void array_release(struct ArrowArray *a)
{
    int64_t k;
    for (k = 0; k < a->n_children; k++) {
        a->children[k]->release(a->children[k]);
        free(a->children[k]);
    }
    free(a->children);
    free(a->buffers);
    wjpy_arrow_out_unref(a->private_data);
    a->release = NULL;
}

static int array_fill(struct ArrowArray *a, wjpy_arrow_out *out)
{
    memset(a, 0, sizeof *a);
    a->length = out->n;
    a->null_count = out->null_count;
    a->private_data = out;
    atomic_fetch_add(&out->refs, 1);
    a->release = array_release;
    a->n_buffers = out->kind == WJPY_ARROW_UTF8 ? 3 : 2;
    if (!(a->buffers = calloc(3, sizeof *a->buffers)))
        return -1;
    a->buffers[0] = out->validity;
    if (out->kind == WJPY_ARROW_INT64) {
        a->buffers[1] = out->ints;
        return 0;
    }
    a->buffers[1] = out->offsets;
    if (out->kind == WJPY_ARROW_UTF8) {
        a->buffers[2] = out->data;
        return 0;
    }
    /* list<utf8>: the child holds the strings (NULL ones: tool_schemas) */
    if (!(a->children = calloc(1, sizeof *a->children)) ||
        !(a->children[0] = calloc(1, sizeof **a->children)))
        return -1;
    a->n_children = 1;
    {
        struct ArrowArray *c = a->children[0];
        c->length = out->n_child;
        c->n_buffers = 3;
        c->private_data = out;
        atomic_fetch_add(&out->refs, 1);
        c->release = array_release;
        if (!(c->buffers = calloc(3, sizeof *c->buffers)))
            return -1;
        c->buffers[0] = out->child_validity;
        c->null_count = out->child_null_count;
        c->buffers[1] = out->child_offsets;
        c->buffers[2] = out->data;
    }
    return 0;
}

/* ---------------------------------------------------------- capsules */

static void schema_capsule_free(PyObject *capsule)
{
    struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
    if (s && s->release)
        s->release(s);
    free(s);
}

static void array_capsule_free(PyObject *capsule)
{
    struct ArrowArray *a = PyCapsule_GetPointer(capsule, "arrow_array");
    if (a && a->release)
        a->release(a);
    free(a);
}

static PyObject *arrow_c_array(PyObject *self, PyObject *const *args,
                               Py_ssize_t nargs)
{
    wjpy_arrow_out *out = ((result *)self)->out;
    struct ArrowSchema *s = calloc(1, sizeof *s);
    struct ArrowArray *a = calloc(1, sizeof *a);
    PyObject *sc = NULL, *ac = NULL;

    (void)args;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError,
                        "__arrow_c_array__ takes one argument at most");
        goto fail;
    }
    /* requested_schema is a request, not a demand: the type stays ours */
    if (!s || !a) {
        PyErr_NoMemory();
        goto fail;
    }
    if (schema_fill(s, out) < 0 || array_fill(a, out) < 0) {
        if (s->release)
            s->release(s);
        if (a->release)
            a->release(a);
        PyErr_NoMemory();
        goto fail;
    }
    sc = PyCapsule_New(s, "arrow_schema", schema_capsule_free);
    if (!sc) {
        s->release(s);
        goto fail;
    }
    s = NULL;
    ac = PyCapsule_New(a, "arrow_array", array_capsule_free);
    if (!ac) {
        a->release(a);
        goto fail;
    }
    return Py_BuildValue("(NN)", sc, ac);
fail:
    free(s);
    if (!ac)
        free(a);
    Py_XDECREF(sc);
    return NULL;
}

static Py_ssize_t result_len(PyObject *self)
{
    return (Py_ssize_t)((result *)self)->out->n;
}

static void result_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    wjpy_arrow_out_unref(((result *)self)->out);
    type->tp_free(self);
    Py_DECREF(type);
}

static PyObject *result_repr(PyObject *self)
{
    const wjpy_arrow_out *out = ((result *)self)->out;
    static const char *types[] = {"utf8", "int64", "list<utf8>"};
    return PyUnicode_FromFormat("<wirejson.arrow result: %lld rows of %s, "
                                "%lld null>", (long long)out->n,
                                out->kind == WJPY_ARROW_UTF8 && out->wide
                                    ? "large_utf8" : types[out->kind],
                                (long long)out->null_count);
}

PyObject *wjpy_arrow_result_new(PyTypeObject *type, wjpy_arrow_out *out)
{
    result *r = PyObject_New(result, type);
    if (!r) {
        wjpy_arrow_out_unref(out);
        return NULL;
    }
    r->out = out;
    return (PyObject *)r;
}

static PyMethodDef result_methods[] = {
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))arrow_c_array,
     METH_FASTCALL,
     "__arrow_c_array__(requested_schema=None)\n--\n\n"
     "The results as the PyCapsules (\"arrow_schema\", \"arrow_array\") of\n"
     "the Arrow C Data Interface, sharing this object's buffers."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot result_slots[] = {
    {Py_tp_doc, "The results of a wirejson.arrow function: an Arrow array\n"
                "(utf8, int64 or list<utf8>) for pyarrow.array(r),\n"
                "polars.Series(r), DuckDB or any Arrow consumer."},
    {Py_tp_methods, result_methods},
    {Py_tp_dealloc, result_dealloc},
    {Py_tp_repr, result_repr},
    {Py_sq_length, result_len},
    {0, NULL}};

PyType_Spec wjpy_arrow_result_spec = {
    "wirejson.arrow.Result", sizeof(result), 0,
    Py_TPFLAGS_DEFAULT, result_slots};
