/* SPDX-License-Identifier: MIT */
/*
 * py_errors.c - wirejson.Error, a ValueError whose message is the SQL message
 * word for word ("wire_json: malformed JSON at byte 17: expected ':' after
 * member name"), with .offset (the 0-based byte offset of an input error,
 * else None) and .code (the core's short name: "syntax", "utf8", "duplicate",
 * "depth", "range", "type", "argument", "toobig").  Out of memory is
 * MemoryError; a call stopped by a signal handler raises what the handler
 * raised (KeyboardInterrupt for Ctrl-C).  The message comes from
 * wj_error_format, nothing else.
 */
#include "wjpy.h"

#include <stdarg.h>

static const char error_doc[] =
    "Raised by wirejson functions for input they cannot take: the message is\n"
    "the one the SQL function gives, word for word.\n\n"
    ".offset: the 0-based byte offset of the fault in the JSON text, for\n"
    "         input errors (None otherwise)\n"
    ".code:   a short stable name: 'syntax', 'utf8', 'duplicate', 'depth',\n"
    "         'range', 'type', 'argument' or 'toobig'\n"
    ".row:    wirejson.arrow: the 0-based row at fault (None otherwise)";

PyObject *wjpy_error_type_new(void)
{
    PyObject *dict =
        Py_BuildValue("{sOsOsO}", "offset", Py_None, "code", Py_None,
                      "row", Py_None);
    PyObject *type;

    if (!dict)
        return NULL;
    type = PyErr_NewExceptionWithDoc("wirejson.Error", error_doc,
                                     PyExc_ValueError, dict);
    Py_DECREF(dict);
    return type;
}

/* Raises wirejson.Error with message msg (a reference taken), .code the
 * core's name for rc and .offset the offset when has_offset, else None. */
static PyObject *raise_message(wjpy_state *st, wj_code rc, int has_offset,
                               size_t offset, PyObject *msg)
{
    PyObject *exc, *off, *code;
    int bad;

    if (!msg)
        return NULL;
    exc = PyObject_CallOneArg(st->error, msg);
    Py_DECREF(msg);
    if (!exc)
        return NULL;
    off = has_offset ? PyLong_FromSize_t(offset) : Py_NewRef(Py_None);
    code = PyUnicode_FromString(wj_code_name(rc));
    bad = !off || !code || PyObject_SetAttrString(exc, "offset", off) < 0 ||
          PyObject_SetAttrString(exc, "code", code) < 0;
    Py_XDECREF(off);
    Py_XDECREF(code);
    if (!bad)
        PyErr_SetObject(st->error, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *wjpy_raise(wjpy_state *st, const char *func, wj_code rc,
                     const wj_error *err)
{
    wj_error e = *err;
    PyObject *msg;
    char *text;
    size_t len = 0;

    if (rc == WJ_ERR_NOMEM)
        return PyErr_NoMemory();
    if (rc == WJ_ERR_INTERRUPTED && PyErr_Occurred())
        return NULL; /* a signal handler's exception, raised as it is */
    e.code = rc;
    text = wj_error_message(&e, func, &wjpy_alloc, &len);
    if (!text)
        return PyErr_NoMemory();
    msg = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    wj_free(&wjpy_alloc, text);
    return raise_message(st, rc, wj_error_is_input(rc), e.offset, msg);
}

PyObject *wjpy_raise_format(wjpy_state *st, wj_code rc, const char *format, ...)
{
    va_list ap;
    PyObject *msg;

    va_start(ap, format);
    msg = PyUnicode_FromFormatV(format, ap);
    va_end(ap);
    return raise_message(st, rc, 0, 0, msg);
}
