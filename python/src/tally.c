/* SPDX-License-Identifier: MIT */
/*
 * tally.c - wirejson._wirejson.Tally, the dedup job's map stage
 * (python/wirejson/dedup.py, map_partition): a CPython wrapper over the
 * kit's dedup engine, the one the command line's dedup runs.  It reads the
 * lines of a partition's blocks (wjpy_take_lines: split at \n, blank lines
 * skipped), keys them a group at a time by wk_dedup_key_lines as
 * Tally(key, member, member_quoted) says, and counts them in the kit's
 * table of keys (wk_tally), keeping the first errors, so the job spends no
 * Python per line or per key:
 *
 *   t = Tally("data_digest", None, None)              # the defaults
 *   end, cand = t.add(block, 0, final, base, False)   # again from end
 *   t.lines, t.nonblank, t.valid, t.errors, t.distinct
 *   data, bounds = t.spill(nbuckets)                   # the spill file
 *
 * member_quoted is the member's name as the messages show it (json.dumps of
 * it, ensure_ascii=False: the kit writes no JSON).
 *
 * add keys the lines of buffer[start:] (those after the last \n wait for
 * the next block unless final; at most WJPY_MAX_LINES a call) with the GIL
 * released.  Lines are numbered from 1 across calls, blank ones included.
 * A new key gets an entry (count 1, its line, where its bytes are, their
 * length); a known one count + 1.  Where: base + the line's start in
 * buffer (base is buffer's offset in the file), or with candidates true
 * the running offset in a candidates file, to which the caller writes cand,
 * the call's new lines each followed by \n (else cand is None).  The first
 * MAX_ERRORS errors are kept as (line, message).  MemoryError when memory
 * runs out, the tally as it was before the line that did not fit.
 *
 * spill(nbuckets) gives wk_tally_spill's records (dedup.py's SPILL) and the
 * bucket bounds in bytes.
 *
 * One tally is used by one thread; a call while another thread's call is
 * under way raises RuntimeError rather than race.
 */
#include "wjpy.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <structmember.h>

#define MAX_ERRORS 100

typedef struct tally {
    PyObject_HEAD wk_tally t;
    wk_dedup_keyer keyer; /* its member and member_quoted: copies, owned */
    wk_dedup_scratch scratch;
    uint64_t lines, nonblank, valid, cand_off;
    PyObject *errors; /* list of (line, message) */
    int busy;         /* a call is under way (GIL released) */
} tally;

static char *copy_of(const char *s)
{
    char *c = s ? PyMem_RawMalloc(strlen(s) + 1) : NULL;
    if (c)
        memcpy(c, s, strlen(s) + 1);
    return c;
}

static PyObject *tally_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"key", "member", "member_quoted", NULL};
    const char *key = NULL, *member = NULL, *quoted = NULL;
    int messages;
    tally *self;

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|szz:Tally", names, &key,
                                     &member, &quoted))
        return NULL;
    messages = key ? wk_dedup_key_find(key) : 0; /* data_digest */
    if (messages < 0) {
        PyErr_Format(PyExc_ValueError, "Tally: key is data_digest or "
                     "messages_digest, not '%s'", key);
        return NULL;
    }
    if (member && !quoted) {
        PyErr_SetString(PyExc_TypeError,
                        "Tally: a member needs its member_quoted");
        return NULL;
    }
    self = (tally *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    wk_tally_init(&self->t);
    self->keyer.messages = messages;
    self->errors = PyList_New(0);
    if (!self->errors) {
        Py_DECREF(self);
        return NULL;
    }
    if (member && (!(self->keyer.member = copy_of(member)) ||
                   !(self->keyer.member_quoted = copy_of(quoted)))) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void tally_dealloc(PyObject *op)
{
    tally *self = (tally *)op;
    PyTypeObject *type = Py_TYPE(op);
    wk_tally_free(&self->t);
    wk_dedup_scratch_free(&self->scratch);
    PyMem_RawFree((char *)self->keyer.member);
    PyMem_RawFree((char *)self->keyer.member_quoted);
    Py_XDECREF(self->errors);
    type->tp_free(op);
    Py_DECREF(type);
}

/* What one add call does without the GIL. */
typedef struct work {
    const unsigned char *p;
    size_t size, at;
    int final, candidates;
    uint64_t base;
    uint64_t first_new; /* entries from here are this call's */
    size_t kept;        /* errors kept before the call */
    size_t npending;    /* errors of this call to keep */
    char *pending[MAX_ERRORS];
    uint64_t pending_line[MAX_ERRORS];
    int nomem;
} work;

/* Lines taken and keyed at a time. */
#define CHUNK 256

static void add_lines(tally *self, work *w)
{
    wjpy_line recs[CHUNK];
    size_t taken = 0, end, n, k;

    while (taken < WJPY_MAX_LINES && !w->nomem) {
        n = wjpy_take_lines(w->p, w->size, w->at, w->final, recs,
                            WJPY_MAX_LINES - taken < CHUNK
                                ? WJPY_MAX_LINES - taken
                                : CHUNK,
                            &end);
        if (n == 0)
            break;
        if (wjpy_key_taken(w->p, recs, n, &self->keyer, &self->scratch) < 0) {
            w->nomem = 1;
            break;
        }
        for (k = 0; k < n; k++) {
            wjpy_line *r = &recs[k];
            if (w->nomem) {
                free(r->msg);
                continue;
            }
            if (r->kind == WJPY_LINE_KEYED) {
                /* with candidates: the line's start in the buffer until
                 * cand_bytes gives it its offset in the candidates file */
                if (wk_tally_count(&self->t, r->key, self->lines + 1,
                                   w->candidates ? r->start
                                                 : w->base + r->start,
                                   r->len, 0) < 0) {
                    w->nomem = 1;
                    continue;
                }
                self->nonblank++;
                self->valid++;
            } else if (r->kind == WJPY_LINE_ERROR) {
                if (w->kept + w->npending < MAX_ERRORS) {
                    w->pending[w->npending] = r->msg;
                    w->pending_line[w->npending] = self->lines + 1;
                    w->npending++;
                } else
                    free(r->msg);
                self->nonblank++;
            }
            self->lines++;
        }
        taken += n;
        w->at = end;
    }
}

/* This call's new lines each with \n, as bytes, the entries' offsets set
 * to where they are in the candidates file.  NULL on MemoryError (the
 * offsets set all the same). */
static PyObject *cand_bytes(tally *self, work *w)
{
    uint64_t k, n = self->t.keys.n;
    size_t total = 0;
    PyObject *out;
    char *dst = NULL;

    for (k = w->first_new; k < n; k++)
        total += (size_t)wk_tally_at(&self->t, k)->len + 1;
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (out)
        dst = PyBytes_AS_STRING(out);
    for (k = w->first_new; k < n; k++) {
        wk_tally_entry *e = wk_tally_at(&self->t, k);
        if (dst) {
            memcpy(dst, w->p + e->off, (size_t)e->len);
            dst[e->len] = '\n';
            dst += e->len + 1;
        }
        e->off = self->cand_off;
        self->cand_off += e->len + 1;
    }
    return out;
}

static int enter(tally *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Tally: used by two threads at once");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static PyObject *tally_add(PyObject *op, PyObject *const *a, Py_ssize_t nargs)
{
    tally *self = (tally *)op;
    Py_buffer view;
    size_t start;
    unsigned long long base;
    int final, candidates;
    work *w;
    size_t k;
    PyObject *cand = NULL, *result = NULL;

    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "add(buffer, start, final, base, candidates)");
        return NULL;
    }
    base = PyLong_AsUnsignedLongLong(a[3]);
    if (base == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    if ((final = PyObject_IsTrue(a[2])) < 0 ||
        (candidates = PyObject_IsTrue(a[4])) < 0 ||
        wjpy_block_args("Tally.add", a[0], a[1], &view, &start) < 0)
        return NULL;
    w = PyMem_RawMalloc(sizeof *w);
    if (!w) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    if (enter(self) < 0) {
        PyMem_RawFree(w);
        PyBuffer_Release(&view);
        return NULL;
    }
    w->p = view.buf;
    w->size = (size_t)view.len;
    w->at = start;
    w->final = final;
    w->candidates = candidates;
    w->base = base;
    w->first_new = self->t.keys.n;
    w->kept = (size_t)PyList_GET_SIZE(self->errors);
    w->npending = 0;
    w->nomem = 0;
    Py_BEGIN_ALLOW_THREADS
    add_lines(self, w);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (candidates) {
        cand = cand_bytes(self, w);
    } else {
        cand = Py_NewRef(Py_None);
    }
    for (k = 0; k < w->npending; k++) {
        wjpy_line r;
        PyObject *msg, *item;
        r.msg = w->pending[k];
        w->pending[k] = NULL;
        msg = wjpy_line_message(&r);
        item = msg ? Py_BuildValue("(KN)",
                                   (unsigned long long)w->pending_line[k], msg)
                   : NULL;
        if (!item || PyList_Append(self->errors, item) < 0) {
            Py_XDECREF(item);
            goto done;
        }
        Py_DECREF(item);
    }
    if (!cand)
        goto done;
    if (w->nomem) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_BuildValue("(nO)", (Py_ssize_t)w->at, cand);
done:
    for (k = 0; k < w->npending; k++)
        free(w->pending[k]); /* those not made into str */
    Py_XDECREF(cand);
    PyMem_RawFree(w);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *tally_spill(PyObject *op, PyObject *arg)
{
    tally *self = (tally *)op;
    Py_ssize_t nb = PyLong_AsSsize_t(arg);
    size_t *at, b;
    PyObject *data = NULL, *bounds = NULL, *result = NULL;
    unsigned char *out;

    if (nb == -1 && PyErr_Occurred())
        return NULL;
    if (nb < 1) {
        PyErr_SetString(PyExc_ValueError, "Tally.spill: nbuckets must be >= 1");
        return NULL;
    }
    if (self->t.keys.n > (uint64_t)PY_SSIZE_T_MAX / WK_SPILL_RECORD)
        return PyErr_NoMemory();
    at = PyMem_RawCalloc((size_t)nb + 1, sizeof *at);
    if (!at)
        return PyErr_NoMemory();
    data = PyBytes_FromStringAndSize(
        NULL, (Py_ssize_t)(self->t.keys.n * WK_SPILL_RECORD));
    bounds = PyList_New(nb + 1);
    if (!data || !bounds || enter(self) < 0)
        goto done;
    out = (unsigned char *)PyBytes_AS_STRING(data);
    Py_BEGIN_ALLOW_THREADS
    wk_tally_spill(&self->t, (size_t)nb, out, at);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    for (b = 0; b <= (size_t)nb; b++) {
        PyObject *v = PyLong_FromSize_t(at[b]);
        if (!v)
            goto done;
        PyList_SET_ITEM(bounds, (Py_ssize_t)b, v);
    }
    result = PyTuple_Pack(2, data, bounds);
done:
    Py_XDECREF(data);
    Py_XDECREF(bounds);
    PyMem_RawFree(at);
    return result;
}

static PyObject *get_distinct(PyObject *op, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLongLong(((tally *)op)->t.keys.n);
}

static PyObject *get_errors(PyObject *op, void *c)
{
    PyObject *errors = ((tally *)op)->errors;
    (void)c;
    return PyList_GetSlice(errors, 0, PyList_GET_SIZE(errors));
}

static PyObject *tally_repr(PyObject *op)
{
    tally *self = (tally *)op;
    return PyUnicode_FromFormat("<wirejson._wirejson.Tally of %llu lines, "
                                "%llu keys>",
                                (unsigned long long)self->lines,
                                (unsigned long long)self->t.keys.n);
}

static PyMethodDef tally_methods[] = {
    {"add", (PyCFunction)(void (*)(void))tally_add, METH_FASTCALL,
     "add(buffer, start, final, base, candidates, /)\n--\n\n"
     "Keys the lines of buffer from start as the Tally's key says and\n"
     "tallies them (blank lines skipped, as key_lines does): (end, cand).\n"
     "Lines after the last \\n wait for the next call\n"
     "unless final; at most 65536 lines a call; end is where the next call\n"
     "starts.  A new key's offset is base + the line's start, or with\n"
     "candidates the running offset in the candidates file, and cand the\n"
     "call's new lines each with \\n to append to it (else None)."},
    {"spill", tally_spill, METH_O,
     "spill(nbuckets, /)\n--\n\n"
     "(data, bounds): a 64-byte record <32sQQQQ (key, count, first line,\n"
     "offset, length) a key, grouped by bucket (key[0] << 8 | key[1]) %\n"
     "nbuckets, each in line order; bounds the nbuckets + 1 byte offsets\n"
     "of the buckets in data, from 0."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef tally_members[] = {
    {"lines", T_ULONGLONG, offsetof(tally, lines), READONLY,
     "lines read by add, blank ones included"},
    {"nonblank", T_ULONGLONG, offsetof(tally, nonblank), READONLY,
     "lines add read that are not blank"},
    {"valid", T_ULONGLONG, offsetof(tally, valid), READONLY,
     "lines add read that keyed"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef tally_getset[] = {
    {"distinct", get_distinct, NULL, "distinct keys", NULL},
    {"errors", get_errors, NULL,
     "the first 100 errors as (line, message), a new list", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static const char tally_doc[] =
    "Tally(key='data_digest', member=None, member_quoted=None)\n--\n\n"
    "The dedup job's map stage over a partition's blocks: add() keys\n"
    "lines by key (data_digest or messages_digest) of the line or of its\n"
    "member (member_quoted: json.dumps(member, ensure_ascii=False), as the\n"
    "messages show it) and counts them, keeping the first line of each key\n"
    "and the first 100 errors; spill() gives the records by bucket.  One\n"
    "thread at a time.";

static PyType_Slot tally_slots[] = {
    {Py_tp_new, tally_new},
    {Py_tp_dealloc, tally_dealloc},
    {Py_tp_repr, tally_repr},
    {Py_tp_methods, tally_methods},
    {Py_tp_members, tally_members},
    {Py_tp_getset, tally_getset},
    {Py_tp_doc, (void *)tally_doc},
    {0, NULL},
};

PyType_Spec wjpy_tally_spec = {
    "wirejson._wirejson.Tally",
    sizeof(tally),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    tally_slots,
};
