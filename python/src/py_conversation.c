/* SPDX-License-Identifier: MIT */
/*
 * py_conversation.c - wirejson.Conversation, the incremental messages_digest
 * over the core's wj_conversation: append(message) is O(message), .digest
 * of the messages so far O(1), len() the number of messages.
 *
 *   c = wirejson.Conversation()
 *   for m in messages:
 *       c.append(m)
 *       print(c.digest)   # messages_digest of the messages so far
 *
 * It is the Python form of SQL's messages_digest_agg, and its errors read as
 * that function's.  One object may be used from several threads: a lock
 * orders the core calls, which run without the GIL.
 */
#include "wjpy.h"

#include <pythread.h>

/* The name errors are reported under: SQL's aggregate of the same. */
#define FUNC "messages_digest_agg"

typedef struct conversation {
    PyObject_HEAD wj_conversation *conv;
    PyThread_type_lock lock; /* held around every core call on conv */
} conversation;

static wjpy_state *state_of(PyObject *self)
{
    return wjpy_state_of_type(Py_TYPE(self));
}

static PyObject *conversation_new(PyTypeObject *type, PyObject *args,
                                  PyObject *kwds)
{
    conversation *self = (conversation *)type->tp_alloc(type, 0);

    (void)args;
    (void)kwds;
    if (!self)
        return NULL;
    self->lock = PyThread_allocate_lock();
    if (!self->lock || wj_conversation_new(&wjpy_alloc, &self->conv) != WJ_OK) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void conversation_dealloc(PyObject *op)
{
    conversation *self = (conversation *)op;
    PyTypeObject *type = Py_TYPE(op);
    wj_conversation_free(self->conv);
    if (self->lock)
        PyThread_free_lock(self->lock);
    type->tp_free(op);
    Py_DECREF(type);
}

/* Appends one message; 0 or -1 with an exception set. */
static int push(conversation *self, wjpy_state *st, PyObject *message)
{
    wjpy_text text;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;

    if (wjpy_text_from(st, FUNC, NULL, message, &text) < 0) {
        wjpy_text_release(st, &text);
        return -1;
    }
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    rc = wj_conversation_push(self->conv, text.ptr, text.len, &err);
    PyThread_release_lock(self->lock);
    Py_END_ALLOW_THREADS
    wjpy_text_release(st, &text);
    if (rc != WJ_OK) {
        wjpy_raise(st, FUNC, rc, &err);
        return -1;
    }
    return 0;
}

static int conversation_init(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"messages", NULL};
    PyObject *messages = NULL, *it, *m;
    wjpy_state *st = state_of(op);

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Conversation", kwlist,
                                     &messages))
        return -1;
    if (!messages)
        return 0;
    it = PyObject_GetIter(messages);
    if (!it)
        return -1;
    while ((m = PyIter_Next(it)) != NULL) {
        int r = push((conversation *)op, st, m);
        Py_DECREF(m);
        if (r < 0) {
            Py_DECREF(it);
            return -1;
        }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *conversation_append(PyObject *op, PyObject *message)
{
    if (push((conversation *)op, state_of(op), message) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *conversation_digest(PyObject *op, void *closure)
{
    conversation *self = (conversation *)op;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;

    (void)closure;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    rc = wj_conversation_digest(self->conv, hex, &err);
    PyThread_release_lock(self->lock);
    Py_END_ALLOW_THREADS
    if (rc != WJ_OK)
        return wjpy_raise(state_of(op), FUNC, rc, &err);
    return PyUnicode_FromStringAndSize(hex, WJ_DIGEST_HEX_SIZE - 1);
}

static Py_ssize_t conversation_len(PyObject *op)
{
    conversation *self = (conversation *)op;
    size_t n;

    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    n = wj_conversation_length(self->conv);
    PyThread_release_lock(self->lock);
    Py_END_ALLOW_THREADS
    return (Py_ssize_t)n;
}

static PyObject *conversation_repr(PyObject *op)
{
    return PyUnicode_FromFormat("<wirejson.Conversation of %zd messages>",
                                conversation_len(op));
}

static PyMethodDef conversation_methods[] = {
    {"append", conversation_append, METH_O,
     "append(message, /)\n--\n\n"
     "Appends a message (JSON text or a Python value; a JSON object): its\n"
     "message_digest joins the conversation.  Errors as message_digest's."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef conversation_getset[] = {
    {"digest", conversation_digest, NULL,
     "messages_digest of the messages appended so far (64 hex characters;\n"
     "of none: SHA-256 of the empty string)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static const char conversation_doc[] =
    "Conversation(messages=(), /)\n--\n\n"
    "The messages_digest of a growing conversation, one message at a time:\n"
    "append(m) costs O(m), .digest is the digest of the messages so far\n"
    "(the prefix digest), len() the number of messages.  Errors read as\n"
    "SQL's messages_digest_agg.";

static PyType_Slot conversation_slots[] = {
    {Py_tp_new, conversation_new},
    {Py_tp_init, conversation_init},
    {Py_tp_dealloc, conversation_dealloc},
    {Py_tp_repr, conversation_repr},
    {Py_tp_methods, conversation_methods},
    {Py_tp_getset, conversation_getset},
    {Py_sq_length, conversation_len},
    {Py_tp_doc, (void *)conversation_doc},
    {0, NULL},
};

PyType_Spec wjpy_conversation_spec = {
    "wirejson.Conversation",
    sizeof(conversation),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    conversation_slots,
};
