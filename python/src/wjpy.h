/* SPDX-License-Identifier: MIT */
/*
 * wjpy.h - what the files of the CPython extension wirejson._wirejson share:
 * the module state, documents and names as the core wants them, the value
 * walker, and error reporting.  No JSON logic lives here: texts go to the
 * core as they are, Python values are written through the core's wj_writer.
 *
 *   convert.c       arguments in (documents, names), results out
 *   walker.c        Python values -> wj_writer calls; the Fragment type
 *   py_errors.c     wirejson.Error, and core errors raised as it
 *   py_conversation.c the Conversation type (wj_conversation)
 *   lines.c         key_lines, the dedup job's reading of JSON Lines
 *   tally.c         the Tally type, the dedup job's map stage in C
 *   py_memory.c     keep_freed_memory, the dedup job's tasks' reuse of memory
 *   py_stage.c      the OutDir type, the dedup job's DIR replaced in one step
 *   module.c        the functions, their table, the module
 */
#ifndef WIREJSON_WJPY_H
#define WIREJSON_WJPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

/* What CPython 3.9 and 3.10 lack of the API the module uses. */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *wjpy_new_ref(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
#define Py_NewRef(o) wjpy_new_ref((PyObject *)(o))
static inline int wjpy_add_object_ref(PyObject *m, const char *name,
                                      PyObject *v)
{
    if (!v)
        return -1;
    Py_INCREF(v);
    if (PyModule_AddObject(m, name, v) < 0) {
        Py_DECREF(v);
        return -1;
    }
    return 0;
}
#define PyModule_AddObjectRef wjpy_add_object_ref
#define Py_TPFLAGS_IMMUTABLETYPE 0 /* a type attribute can be set there */
#endif
#if PY_VERSION_HEX < 0x030B0000
/* The module of the first heap type of type's MRO made from def's module. */
static inline PyObject *wjpy_module_by_def(PyTypeObject *type, PyModuleDef *def)
{
    PyObject *mro = type->tp_mro;
    Py_ssize_t k;
    for (k = 0; mro && k < PyTuple_GET_SIZE(mro); k++) {
        PyTypeObject *t = (PyTypeObject *)PyTuple_GET_ITEM(mro, k);
        PyObject *m;
        if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE))
            continue;
        m = ((PyHeapTypeObject *)t)->ht_module;
        if (m && PyModule_GetDef(m) == def)
            return m;
    }
    PyErr_Format(PyExc_TypeError, "PyType_GetModuleByDef: no superclass of "
                 "'%s' has the given module", type->tp_name);
    return NULL;
}
#define PyType_GetModuleByDef wjpy_module_by_def
#endif

#include "wirejson.h"
#include "wirejson_kit.h"

/* The writers the module uses: plain (JSON text of a value), canonical
 * (wj_writer_new_canonical's) and digest (wj_writer_new_digest's). */
typedef enum wjpy_writer_kind {
    WJPY_PLAIN,
    WJPY_CANONICAL,
    WJPY_DIGEST,
    WJPY_WRITER_KINDS
} wjpy_writer_kind;

/* Per-module state (PEP 573): the exception, the types, spare writers. */
typedef struct wjpy_state {
    PyObject *error;                 /* wirejson.Error */
    PyTypeObject *fragment_type;     /* wirejson.Fragment */
    PyTypeObject *conversation_type; /* wirejson.Conversation */
    PyObject *json_loads;            /* json.loads, imported on first use */
    /* one idle writer of each kind, taken and given under the GIL */
    wj_writer *spare[WJPY_WRITER_KINDS];
    const char *depth_msg; /* the core's reason for nesting too deep */
} wjpy_state;

/* The module definition, for PyType_GetModuleByDef. */
extern PyModuleDef wjpy_module_def;

/* The module state from the module object or from one of its types'
 * instances. */
wjpy_state *wjpy_state_of_module(PyObject *module);
wjpy_state *wjpy_state_of_type(PyTypeObject *type);

/* The core allocates through PyMem_Raw*: usable without the GIL, and seen by
 * tracemalloc. */
extern const wj_alloc wjpy_alloc;

/* ------------------------------------------------------------- convert.c */

/* A document as JSON text for the core: a str's UTF-8, a bytes-like
 * object's bytes (its buffer held), a Fragment's text, or a Python value
 * written as JSON by a writer. */
typedef struct wjpy_text {
    const char *ptr;
    size_t len;
    Py_buffer view; /* held when has_view */
    int has_view;
    PyObject *owned;   /* a bytes object ptr points into, or NULL */
    wj_writer *writer; /* the writer ptr points into, or NULL */
} wjpy_text;

/* obj written by the walker as JSON text into out (zeroed by the caller):
 * 0, or -1 with the error raised. */
int wjpy_walked_text(wjpy_state *st, const char *func, const char *argument,
                     PyObject *obj, wjpy_text *out);

/* Fills *out with the text of obj for the function func; argument names the
 * argument when it is not the document (e.g. "value"), else NULL.  Returns 0,
 * or -1 with an exception set (TypeError, wirejson.Error, MemoryError).
 * Release with wjpy_text_release in every case. */
int wjpy_text_from(wjpy_state *st, const char *func, const char *argument,
                   PyObject *obj, wjpy_text *out);
void wjpy_text_release(wjpy_state *st, wjpy_text *text);

/* Names given as trailing arguments (data members, ignored members, a
 * path): str or bytes, None skipped. */
typedef struct wjpy_names {
    wj_name *v;
    size_t n;
    wj_name small[8];
    PyObject *owned; /* a list of the bytes objects names point into */
} wjpy_names;

int wjpy_names_from(const char *func, PyObject *const *args, Py_ssize_t nargs,
                    wjpy_names *out);
void wjpy_names_release(wjpy_names *names);

/* One name (with_top_level's NAME): 0, 1 when obj is None, -1 on error.
 * *owned is a reference to release. */
int wjpy_name_from(const char *func, PyObject *obj, wj_name *out,
                   PyObject **owned);

/* A core result buffer (allocated with wjpy_alloc) as str, freed either
 * way; NULL gives None. */
PyObject *wjpy_result_text(char *out, size_t len);

/* A writer of that kind from its spare slot or a new one; given back
 * afterwards. */
wj_writer *wjpy_writer_take(wjpy_state *st, wjpy_writer_kind kind);
void wjpy_writer_give(wjpy_state *st, wj_writer *w, wjpy_writer_kind kind);

/* True when obj is a Python value to walk rather than JSON text (a str,
 * bytes, a Fragment or a buffer of single bytes); wjpy_is_text the
 * opposite. */
int wjpy_is_value(wjpy_state *st, PyObject *obj);

/* with_top_level's value and encode_with_schemas' texts as JSON text, as the
 * module's functions take them (module.c); -1 with an exception set. */
int wjpy_value_text(wjpy_state *st, const char *func, const char *argument,
                    PyObject *obj, wjpy_text *out);
/* A list of str (and None when none_too) or JSON text, as the argument
 * named argument takes it. */
int wjpy_texts_text(wjpy_state *st, const char *func, const char *argument,
                    int none_too, PyObject *obj, wjpy_text *out);
int wjpy_is_text(wjpy_state *st, PyObject *obj);

/* A new bytes object holding the bytes of obj when it is a buffer of single
 * bytes; NULL with an exception set on error, NULL without one when obj is
 * not such a buffer. */
PyObject *wjpy_byte_buffer_copy(PyObject *obj);

/* What a numpy scalar stands for, found without importing numpy. */
enum {
    WJPY_NUMPY_NONE, /* not a numpy scalar the module takes */
    WJPY_NUMPY_BOOL, /* numpy.bool_: a bool */
    WJPY_NUMPY_INT,  /* numpy.integer: an int */
    WJPY_NUMPY_FLOAT /* numpy.floating: a float */
};
int wjpy_numpy_kind(PyObject *obj);

/* The Python value obj written by a writer of kind (canonical or digest),
 * which the caller gives back when done; NULL, no exception set, when obj
 * needs the text route instead (a Fragment in it, or an error, which the
 * text route then reports in its own words). */
wj_writer *wjpy_canonical_writer(wjpy_state *st, const char *func,
                                 PyObject *obj, wjpy_writer_kind kind);

/* -------------------------------------------------------------- walker.c */

/* Writes the Python value obj into w.  Returns 0, or -1 with an exception
 * set: TypeError for a type that is no JSON value or a dict key that is not
 * a str, wirejson.Error for a float that is not finite or nesting deeper
 * than WJ_MAX_DEPTH (which is also how a cycle ends), MemoryError.  With
 * canonical, each dict's items are written in the canonical order of their
 * keys (wj_name_compare), as a canonical writer needs them. */
int wjpy_walk(wjpy_state *st, const char *func, const char *argument,
              PyObject *obj, wj_writer *w, int canonical);

/* What wjpy_walk returns, with the exception set, when the writer was
 * stopped by the interrupted hook (a signal handler raised). */
#define WJPY_WALK_INTERRUPTED (-2)

/* Checks that the text of a Fragment is exactly one JSON value by §3, on its
 * own (wj_validate), without the GIL when release_gil.  Returns 0, or -1 with
 * wirejson.Error raised naming it ("wire_json: fragment: malformed JSON at
 * byte 2: ...", "with_top_level: value: fragment: ..."). */
int wjpy_fragment_check(wjpy_state *st, const char *func, const char *argument,
                        const char *ptr, size_t len, int release_gil);

/* The UTF-8 of a str for the writer, lone surrogates as WTF-8
 * (surrogatepass).  *tmp receives a bytes object to release, or NULL.
 * Returns NULL with an exception set on failure. */
const char *wjpy_utf8(PyObject *str, Py_ssize_t *len, PyObject **tmp);

extern PyType_Spec wjpy_fragment_spec;

/* The JSON text of a Fragment (borrowed from it). */
void wjpy_fragment_text(PyObject *fragment, const char **ptr, size_t *len);

/* ----------------------------------------------------------- py_errors.c */

/* Creates wirejson.Error (a ValueError with .offset and .code). */
PyObject *wjpy_error_type_new(void);

/* Raises the core error rc from function func: MemoryError for
 * WJ_ERR_NOMEM, else wirejson.Error with the SQL message word for word,
 * .offset (input errors) and .code (wj_code_name).  WJ_ERR_INTERRUPTED
 * with an exception pending (the interrupted hook's signal handler raised
 * it, KeyboardInterrupt for Ctrl-C) leaves that exception.  Returns NULL. */
PyObject *wjpy_raise(wjpy_state *st, const char *func, wj_code rc,
                     const wj_error *err);

/* Raises wirejson.Error with code rc, no offset, and the message the format
 * (PyUnicode_FromFormat's) gives, for errors spelled by the glue as the
 * SQL glue spells them ("data_digest: argument 1 is not a finite number").
 * Returns NULL. */
PyObject *wjpy_raise_format(wjpy_state *st, wj_code rc, const char *format,
                            ...);

/* The name the SQL functions give the document argument in messages. */
#define WJPY_DOC_ARGUMENT "argument 1"

/* ----------------------------------------------------- py_conversation.c */

extern PyType_Spec wjpy_conversation_spec;

/* --------------------------------------------------------------- lines.c */

/* _wirejson.key_lines, added to the module by module.c. */
extern PyMethodDef wjpy_key_lines_def;

/* ---------------------------------------------------- lines.c, tally.c */

/* At most this many lines a call of key_lines or Tally.add, so a block of
 * tiny lines holds bounded memory; the caller calls again from the end it
 * is given. */
#define WJPY_MAX_LINES 65536

enum { WJPY_LINE_BLANK, WJPY_LINE_KEYED, WJPY_LINE_ERROR, WJPY_LINE_TEXT };

/* One line: where it is (its length without the \n), what it is, and its
 * key (KEYED: the 32 bytes the kit's dedup engine gives) or its error
 * (ERROR: the message, malloc'd, given to wjpy_line_message). */
typedef struct wjpy_line {
    uint64_t start, len;
    unsigned char kind;
    unsigned char key[32];
    char *msg;
} wjpy_line;

/* Takes up to max lines of p[at..size) by the kit's rules (wk_next_line,
 * wk_line_is_blank) into recs, each BLANK or TEXT; returns how many, and
 * in *end the offset after the last.  No GIL needed. */
size_t wjpy_take_lines(const unsigned char *p, size_t size, size_t at,
                       int final, wjpy_line *recs, size_t max, size_t *end);

/* Keys the TEXT lines of recs[0..n) (lines of p) by the kit's dedup engine
 * as k says, a group at a time (wk_dedup_key_lines): each becomes KEYED or
 * ERROR.  0, or -1 when out of memory.  No GIL needed. */
int wjpy_key_taken(const unsigned char *p, wjpy_line *recs, size_t n,
                   const wk_dedup_keyer *k, wk_dedup_scratch *s);

/* An ERROR line's message as str, its msg released (NULL with an
 * exception when out of memory).  Needs the GIL. */
PyObject *wjpy_line_message(wjpy_line *r);

/* The (buffer, start) arguments of a call over a block, for func's
 * messages: the buffer held in *view (release it) and start, checked to be
 * within it, in *at; or -1 with an exception set and nothing held. */
int wjpy_block_args(const char *func, PyObject *buffer, PyObject *start,
                    Py_buffer *view, size_t *at);

/* The Tally type (tally.c), added to the module by module.c. */
extern PyType_Spec wjpy_tally_spec;

/* The OutDir type (py_stage.c), added to the module by module.c. */
extern PyType_Spec wjpy_out_dir_spec;

/* _wirejson.keep_freed_memory (py_memory.c), added like key_lines. */
extern PyMethodDef wjpy_keep_freed_memory_def;

#endif /* WIREJSON_WJPY_H */
