/* SPDX-License-Identifier: MIT */
/*
 * wjpy_arrow.h - wirejson.arrow (docs/contract.md §12): the functions of the
 * table over Arrow columns.  arrow_read.c reads a column in place,
 * arrow_run.c calls a function on its rows (over threads) into Arrow
 * buffers, arrow_out.c exports them (__arrow_c_array__), arrow.c is the
 * Python face.
 */
#ifndef WIREJSON_WJPY_ARROW_H
#define WIREJSON_WJPY_ARROW_H

#include "wjpy.h"
#include "arrow_abi.h"

#include <stdatomic.h>

/* ------------------------------------------------------ arrow_read.c */

/* One wj_arg a row (ptr NULL: a NULL), pointing into Arrow memory held by
 * keep. */
typedef struct wjpy_column {
    wj_arg *rows;
    size_t n, cap;
    PyObject *keep;
} wjpy_column;

/* True when obj exports the Arrow PyCapsule interface. */
int wjpy_is_arrow(PyObject *obj);

/* Reads obj (argument names it in errors); -1 with an exception set. */
int wjpy_column_read(const char *func, const char *argument, PyObject *obj,
                     wjpy_column *out);
void wjpy_column_release(wjpy_column *c);

/* ------------------------------------------------------- arrow_run.c */

/* What a function's result is in Arrow. */
typedef enum wjpy_arrow_kind {
    WJPY_ARROW_UTF8,  /* JSON, BODY, TEXT, DIGEST */
    WJPY_ARROW_INT64, /* INTEGER */
    WJPY_ARROW_LIST   /* DIGESTS: list<utf8> */
} wjpy_arrow_kind;

/* The kind of fn's results, or -1 when wirejson.arrow does not offer it. */
int wjpy_arrow_kind_of(const wj_function *fn);

/* An argument of every row: a column (step 1) or a scalar (step 0). */
typedef struct wjpy_arrow_arg {
    const wj_arg *src;
    size_t step;
} wjpy_arrow_arg;

/* The results, as Arrow buffers (malloc'd), shared by the exports: freed
 * when refs drops to 0 (wjpy_arrow_out_unref, from any thread). */
typedef struct wjpy_arrow_out {
    atomic_int refs;
    wjpy_arrow_kind kind;
    int64_t n, null_count;
    uint8_t *validity;  /* bitmap, NULL when no NULL */
    int64_t *ints;      /* INT64 */
    void *offsets;      /* UTF8: n + 1 string offsets; LIST: list offsets */
    int wide;           /* UTF8: offsets are int64 (large_utf8) */
    int64_t n_child;    /* LIST: the child strings */
    int32_t *child_offsets;
    uint8_t *child_validity; /* LIST: NULL when no child string is NULL */
    int64_t child_null_count;
    char *data;         /* the string bytes */
    size_t len;
} wjpy_arrow_out;

void wjpy_arrow_out_unref(wjpy_arrow_out *out);

/* A failing row: the first in row order. */
typedef struct wjpy_arrow_failure {
    size_t row; /* SIZE_MAX: none */
    wj_code rc;
    wj_error err;
} wjpy_arrow_failure;

/*
 * Calls fn on rows [0, n) of args[0..n_args) over n_threads threads (call
 * without the GIL): *out the results (NULL out of memory), or with
 * null_on_error 0 the first failing row in *fail (*out NULL).
 */
wjpy_arrow_out *wjpy_arrow_run(const wj_function *fn,
                               const wjpy_arrow_arg *args, size_t n_args,
                               size_t n, int null_on_error, int n_threads,
                               wjpy_arrow_failure *fail);

/* ------------------------------------------------------- arrow_out.c */

/* The type of results: __arrow_c_array__, __len__. */
extern PyType_Spec wjpy_arrow_result_spec;

/* A result object owning out (its reference taken). */
PyObject *wjpy_arrow_result_new(PyTypeObject *type, wjpy_arrow_out *out);

/* ----------------------------------------------------------- arrow.c */

/* Adds _arrow_functions (name -> function) and ArrowResult to module m. */
int wjpy_arrow_add(PyObject *m);

#endif /* WIREJSON_WJPY_ARROW_H */
