/* SPDX-License-Identifier: MIT */
/*
 * py_stage.c - the OutDir type: the dedup job's DIR, replaced as a whole in
 * one step by the kit (wk_dedup_dir, kit/dedup_dir.c), as wirejson dedup
 * replaces it.  Signals stay the job's (wirejson/dedup.py); the GIL is held
 * through each call, so no Python signal handler runs in the middle of one.
 */
#include "wjpy.h"

#include <errno.h>
#include <stddef.h>

#include "wirejson_kit.h"

typedef struct {
    PyObject_HEAD
    wk_dedup_dir dir;
    PyObject *error; /* the class set-up failures are raised as */
} out_dir;

/* d->error as an instance of error; NULL. */
static PyObject *raise_as(PyObject *error, const wk_dedup_dir *d)
{
    if (!d->error)
        return PyErr_NoMemory();
    PyErr_SetString(error, d->error);
    return NULL;
}

static PyObject *out_dir_new(PyTypeObject *type, PyObject *args,
                             PyObject *kwargs)
{
    static char *names[] = {"out", "error", NULL};
    PyObject *path = NULL, *error;
    out_dir *self;
    int bad;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&O:OutDir", names,
                                     PyUnicode_FSConverter, &path, &error))
        return NULL;
    if (!PyType_Check(error) ||
        !PyType_IsSubtype((PyTypeObject *)error,
                          (PyTypeObject *)PyExc_Exception)) {
        Py_DECREF(path);
        return PyErr_Format(PyExc_TypeError, "OutDir: argument 2 (error) "
                            "must be an exception class, not %.80s",
                            Py_TYPE(error)->tp_name);
    }
    if (!(self = (out_dir *)type->tp_alloc(type, 0))) {
        Py_DECREF(path);
        return NULL;
    }
    self->dir.lock_fd = -1;
    self->error = Py_NewRef(error);
    bad = wk_dedup_dir_open(&self->dir, PyBytes_AS_STRING(path));
    Py_DECREF(path);
    if (bad) {
        raise_as(self->error, &self->dir);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void out_dir_dealloc(PyObject *o)
{
    out_dir *self = (out_dir *)o;
    PyTypeObject *type = Py_TYPE(o);
    wk_dedup_dir_free(&self->dir);
    Py_XDECREF(self->error);
    type->tp_free(o);
    Py_DECREF(type);
}

static PyObject *out_dir_stage(PyObject *o, PyObject *unused)
{
    out_dir *self = (out_dir *)o;
    (void)unused;
    if (self->dir.stage)
        return PyErr_Format(PyExc_ValueError,
                            "OutDir.stage: --out %s is staged already",
                            self->dir.out);
    if (wk_dedup_dir_stage(&self->dir))
        return raise_as(self->error, &self->dir);
    Py_RETURN_NONE;
}

static PyObject *out_dir_install(PyObject *o, PyObject *unused)
{
    out_dir *self = (out_dir *)o;
    (void)unused;
    if (wk_dedup_dir_install(&self->dir)) {
        int e = errno;
        PyObject *err = self->dir.error
            ? Py_BuildValue("(is)", e, self->dir.error) : NULL;
        if (err) {
            PyErr_SetObject(PyExc_OSError, err);
            Py_DECREF(err);
        } else if (!PyErr_Occurred())
            PyErr_NoMemory();
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *out_dir_remove_stage(PyObject *o, PyObject *unused)
{
    (void)unused;
    wk_dedup_dir_remove_stage(&((out_dir *)o)->dir);
    Py_RETURN_NONE;
}

static PyObject *text_or_none(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(s);
}

static PyObject *get_path(PyObject *o, void *c)
{
    (void)c;
    return text_or_none(((out_dir *)o)->dir.stage);
}

static PyObject *get_target(PyObject *o, void *c)
{
    (void)c;
    return text_or_none(((out_dir *)o)->dir.target);
}

static PyObject *get_exists(PyObject *o, void *c)
{
    (void)c;
    return PyBool_FromLong(((out_dir *)o)->dir.exists);
}

static PyMethodDef out_dir_methods[] = {
    {"stage", out_dir_stage, METH_NOARGS,
     "Removes dead runs' staging folders beside DIR and makes this run's, "
     "locked (path); raises error when that cannot be done or DIR's file "
     "system cannot swap two folders in one step."},
    {"install", out_dir_install, METH_NOARGS,
     "Puts the staging folder in DIR's place in one step, with the old DIR's "
     "mode; path then names the old DIR.  OSError on failure."},
    {"remove_stage", out_dir_remove_stage, METH_NOARGS,
     "Removes the staging folder (after install: the old DIR), if any."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef out_dir_getset[] = {
    {"path", get_path, NULL, "the staging folder, or None", NULL},
    {"target", get_target, NULL, "DIR's folder, absolute, symlinks resolved",
     NULL},
    {"exists", get_exists, NULL, "whether there was a DIR", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static const char out_dir_doc[] =
    "OutDir(out, error): the dedup job's DIR out, replaced as a whole in one "
    "step (docs/python.md).  Raises error when out holds files the job did "
    "not write.";

static PyType_Slot out_dir_slots[] = {
    {Py_tp_new, out_dir_new},
    {Py_tp_dealloc, out_dir_dealloc},
    {Py_tp_methods, out_dir_methods},
    {Py_tp_getset, out_dir_getset},
    {Py_tp_doc, (void *)out_dir_doc},
    {0, NULL},
};

PyType_Spec wjpy_out_dir_spec = {
    "wirejson._wirejson.OutDir",
    sizeof(out_dir),
    0,
    Py_TPFLAGS_DEFAULT,
    out_dir_slots,
};
