/* SPDX-License-Identifier: MIT */
/*
 * tally.c - wirejson._wirejson.Tally, the dedup job's map stage in C
 * (python/wirejson/dedup.py, map_partition with --key data_digest and no
 * --member): it reads the lines of a partition's blocks by lines.c's rules
 * (wjpy_next_line: split at \n, blank lines, keys by wj_data_digest), and
 * counts them, keeps the first errors and keeps one entry per distinct key,
 * so the job spends no Python per line or per key:
 *
 *   t = Tally()
 *   end, cand = t.add(block, 0, final, base, False)   # again from end
 *   t.lines, t.nonblank, t.valid, t.errors, t.distinct
 *   data, bounds = t.spill(nbuckets)                   # the spill file
 *
 * (With --member or --key messages_digest the job keys lines in Python and
 * gives each key to add_key instead: the table and the spill stay here.)
 *
 * add keys the lines of buffer[start:] (those after the last \n wait for
 * the next block unless final; at most WJPY_MAX_LINES a call) with the GIL
 * released while it splits, digests and updates its table.  Lines are
 * numbered from 1 across calls, blank ones included.  A new key gets an
 * entry (count 1, its line, where its bytes are, their length); a known one
 * count + 1.  Where: base + the line's start in buffer (base is buffer's
 * offset in the file), or with candidates true the running offset in a
 * candidates file, to which the caller writes cand, the call's new lines
 * each followed by \n (else cand is None).  The first MAX_ERRORS errors
 * are kept as (line, message), the message as key_lines gives it.
 *
 * The table: the entries in first-occurrence order (64 bytes each, grown by
 * doubling) and an open-addressing index of uint32 entry numbers over them
 * (linear probing on 8 bytes of the digest, which are uniform already; at
 * most half full, doubled when it would be more): 72-80 bytes a key, plus
 * the entries' spare capacity.  Memory comes from PyMem_Raw* (no GIL
 * needed); MemoryError when it fails, the tally as it was before the line
 * that did not fit.
 *
 * spill(nbuckets) gives the spill: one 64-byte record a key, little-endian
 * (key[32], count, line, offset, length as uint64: dedup.py's SPILL), grouped
 * by bucket (key[0] << 8 | key[1]) % nbuckets, each bucket in line order, and
 * the bucket bounds in bytes (nbuckets + 1 of them, from 0).
 *
 * One tally is used by one thread; a call while another thread's call is
 * under way raises RuntimeError rather than race.
 */
#include "wjpy.h"

#include <stddef.h>
#include <string.h>

#include <structmember.h>

#define MAX_ERRORS 100

typedef struct entry {
    unsigned char key[32];
    uint64_t count, line, off, len;
} entry;

typedef struct tally {
    PyObject_HEAD entry *entries;
    size_t n, cap;   /* entries used, allocated */
    uint32_t *index; /* entry number + 1 a slot, 0 empty */
    size_t mask;     /* slots - 1 (slots a power of 2), 0 before any */
    uint64_t lines, nonblank, valid, cand_off;
    PyObject *errors; /* list of (line, message) */
    int busy;         /* a call is under way (GIL released) */
} tally;

static PyObject *tally_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    tally *self;

    if (PyTuple_GET_SIZE(args) || (kwds && PyDict_GET_SIZE(kwds))) {
        PyErr_SetString(PyExc_TypeError, "Tally() takes no arguments");
        return NULL;
    }
    self = (tally *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->errors = PyList_New(0);
    if (!self->errors) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void tally_dealloc(PyObject *op)
{
    tally *self = (tally *)op;
    PyTypeObject *type = Py_TYPE(op);
    PyMem_RawFree(self->entries);
    PyMem_RawFree(self->index);
    Py_XDECREF(self->errors);
    type->tp_free(op);
    Py_DECREF(type);
}

static size_t slot_of(const unsigned char *key, size_t mask)
{
    uint64_t h;
    memcpy(&h, key + 8, sizeof h);
    return (size_t)h & mask;
}

/* Room for one more entry and its slot: 0, 1 when the index was rebuilt
 * (its slots moved), or -1 (the tally unchanged). */
static int reserve(tally *self)
{
    if (self->n == self->cap) {
        size_t cap = self->cap ? 2 * self->cap : 1024;
        entry *e;
        if (cap > UINT32_MAX - 1 || cap > SIZE_MAX / sizeof *e)
            return -1;
        e = PyMem_RawRealloc(self->entries, cap * sizeof *e);
        if (!e)
            return -1;
        self->entries = e;
        self->cap = cap;
    }
    if (2 * (self->n + 1) > self->mask + 1 || !self->index) {
        size_t slots = self->index ? 2 * (self->mask + 1) : 2048, k;
        uint32_t *index;
        if (slots > SIZE_MAX / sizeof *index)
            return -1;
        index = PyMem_RawCalloc(slots, sizeof *index);
        if (!index)
            return -1;
        for (k = 0; k < self->n; k++) {
            size_t s = slot_of(self->entries[k].key, slots - 1);
            while (index[s])
                s = (s + 1) & (slots - 1);
            index[s] = (uint32_t)(k + 1);
        }
        PyMem_RawFree(self->index);
        self->index = index;
        self->mask = slots - 1;
        return 1;
    }
    return 0;
}

/* The entry of key, or the slot where it would go (*slot) and NULL. */
static entry *find(tally *self, const unsigned char *key, size_t *slot)
{
    size_t s = slot_of(key, self->mask);
    uint32_t i;

    while ((i = self->index[s]) != 0) {
        entry *e = &self->entries[i - 1];
        if (memcmp(e->key, key, 32) == 0)
            return e;
        s = (s + 1) & self->mask;
    }
    *slot = s;
    return NULL;
}

/* Counts key once more: a new key gets an entry (count 1, its line, off,
 * len).  1 for a new key, 0 for a known one, -1 when out of memory (the
 * tally unchanged). */
static int count_key(tally *self, const unsigned char *key, uint64_t line,
                     uint64_t off, uint64_t len)
{
    size_t slot = 0;
    entry *e = self->index ? find(self, key, &slot) : NULL;
    int grown;
    if (e) {
        e->count++;
        return 0;
    }
    if ((grown = reserve(self)) < 0)
        return -1;
    if (grown)
        find(self, key, &slot);
    e = &self->entries[self->n];
    memcpy(e->key, key, 32);
    e->count = 1;
    e->line = line;
    e->off = off;
    e->len = len;
    self->index[slot] = (uint32_t)(++self->n);
    return 1;
}

/* What one add call does without the GIL. */
typedef struct work {
    const unsigned char *p;
    size_t size, at;
    int final, candidates;
    uint64_t base;
    size_t first_new; /* entries from here are this call's */
    size_t kept;      /* errors kept before the call */
    size_t npending;  /* errors of this call to keep */
    wjpy_line pending[MAX_ERRORS];
    uint64_t pending_line[MAX_ERRORS];
    int nomem;
} work;

static void add_lines(tally *self, work *w)
{
    size_t taken = 0, next = 0;
    wjpy_line r;

    while (taken < WJPY_MAX_LINES &&
           wjpy_next_line(w->p, w->size, w->at, w->final, 1, &r, &next)) {
        if (r.kind == WJPY_LINE_KEYED) {
            /* with candidates: the line's start in the buffer until
             * cand_bytes gives it its offset in the candidates file */
            if (count_key(self, r.key, self->lines + 1,
                          w->candidates ? r.start : w->base + r.start,
                          r.len) < 0) {
                w->nomem = 1;
                break;
            }
            self->nonblank++;
            self->valid++;
        } else if (r.kind == WJPY_LINE_ERROR) {
            if (r.rc == WJ_ERR_NOMEM) {
                w->nomem = 1;
                break;
            }
            if (w->kept + w->npending < MAX_ERRORS) {
                w->pending[w->npending] = r;
                w->pending_line[w->npending] = self->lines + 1;
                w->npending++;
            }
            self->nonblank++;
        }
        self->lines++;
        taken++;
        w->at = next;
    }
}

/* This call's new lines each with \n, as bytes, the entries' offsets set
 * to where they are in the candidates file.  NULL on MemoryError (the
 * offsets set all the same). */
static PyObject *cand_bytes(tally *self, work *w)
{
    size_t k, total = 0;
    PyObject *out;
    char *dst = NULL;

    for (k = w->first_new; k < self->n; k++)
        total += (size_t)self->entries[k].len + 1;
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (out)
        dst = PyBytes_AS_STRING(out);
    for (k = w->first_new; k < self->n; k++) {
        entry *e = &self->entries[k];
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
    w->first_new = self->n;
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
        PyObject *msg = wjpy_line_message(&w->pending[k]);
        PyObject *item =
            msg ? Py_BuildValue("(KN)", (unsigned long long)w->pending_line[k],
                                msg)
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
    Py_XDECREF(cand);
    PyMem_RawFree(w);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *tally_add_key(PyObject *op, PyObject *const *a,
                               Py_ssize_t nargs)
{
    tally *self = (tally *)op;
    unsigned long long v[3];
    int k, fresh;

    if (nargs != 4 || !PyBytes_Check(a[0]) || PyBytes_GET_SIZE(a[0]) != 32) {
        PyErr_SetString(PyExc_TypeError,
                        "add_key(key: 32 bytes, line, offset, length)");
        return NULL;
    }
    for (k = 0; k < 3; k++) {
        v[k] = PyLong_AsUnsignedLongLong(a[k + 1]);
        if (v[k] == (unsigned long long)-1 && PyErr_Occurred())
            return NULL;
    }
    if (enter(self) < 0)
        return NULL;
    fresh = count_key(self, (const unsigned char *)PyBytes_AS_STRING(a[0]),
                      v[0], v[1], v[2]);
    self->busy = 0;
    if (fresh < 0)
        return PyErr_NoMemory();
    return PyBool_FromLong(fresh);
}

static void put64(unsigned char *p, uint64_t v)
{
    int k;
    for (k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static PyObject *tally_spill(PyObject *op, PyObject *arg)
{
    tally *self = (tally *)op;
    Py_ssize_t nb = PyLong_AsSsize_t(arg);
    size_t *at, k, b;
    PyObject *data = NULL, *bounds = NULL, *result = NULL;
    unsigned char *out;

    if (nb == -1 && PyErr_Occurred())
        return NULL;
    if (nb < 1) {
        PyErr_SetString(PyExc_ValueError, "Tally.spill: nbuckets must be >= 1");
        return NULL;
    }
    if (self->n > (size_t)PY_SSIZE_T_MAX / 64)
        return PyErr_NoMemory();
    at = PyMem_RawCalloc((size_t)nb + 1, sizeof *at);
    if (!at)
        return PyErr_NoMemory();
    data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(self->n * 64));
    bounds = PyList_New(nb + 1);
    if (!data || !bounds || enter(self) < 0)
        goto done;
    out = (unsigned char *)PyBytes_AS_STRING(data);
    Py_BEGIN_ALLOW_THREADS
    /* at[b + 1]: the records of bucket b; then at[b]: where b starts */
    for (k = 0; k < self->n; k++) {
        const unsigned char *key = self->entries[k].key;
        at[((size_t)key[0] << 8 | key[1]) % (size_t)nb + 1]++;
    }
    for (b = 0; b < (size_t)nb; b++)
        at[b + 1] += at[b];
    for (k = 0; k < self->n; k++) {
        const entry *e = &self->entries[k];
        size_t *to = &at[((size_t)e->key[0] << 8 | e->key[1]) % (size_t)nb];
        unsigned char *rec = out + 64 * (*to)++;
        memcpy(rec, e->key, 32);
        put64(rec + 32, e->count);
        put64(rec + 40, e->line);
        put64(rec + 48, e->off);
        put64(rec + 56, e->len);
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    /* at[b] is now where bucket b ends */
    for (b = 0; b <= (size_t)nb; b++) {
        PyObject *v = PyLong_FromSize_t(b ? 64 * at[b - 1] : 0);
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
    return PyLong_FromSize_t(((tally *)op)->n);
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
                                "%zu keys>",
                                (unsigned long long)self->lines, self->n);
}

static PyMethodDef tally_methods[] = {
    {"add", (PyCFunction)(void (*)(void))tally_add, METH_FASTCALL,
     "add(buffer, start, final, base, candidates, /)\n--\n\n"
     "Keys the lines of buffer from start as key_lines does and tallies\n"
     "them: (end, cand).  Lines after the last \\n wait for the next call\n"
     "unless final; at most 65536 lines a call; end is where the next call\n"
     "starts.  A new key's offset is base + the line's start, or with\n"
     "candidates the running offset in the candidates file, and cand the\n"
     "call's new lines each with \\n to append to it (else None)."},
    {"add_key", (PyCFunction)(void (*)(void))tally_add_key, METH_FASTCALL,
     "add_key(key, line, offset, length, /)\n--\n\n"
     "Counts a key found outside add (a line keyed in Python): a new key\n"
     "gets an entry with that first line, offset and length.  True when the\n"
     "key is new.  The line counts are add's alone."},
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
    "Tally()\n--\n\n"
    "The dedup job's map stage over a partition's blocks: add() keys\n"
    "lines by data_digest as key_lines does and counts them, keeping the\n"
    "first line of each key and the first 100 errors; spill() gives the\n"
    "records by bucket.  One thread at a time.";

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
