/* SPDX-License-Identifier: MIT */
/*
 * wirejson_pg.h - what the files of the PostgreSQL extension share: the
 * allocator that puts the core's memory in PostgreSQL's memory contexts,
 * argument conversion (text, json and jsonb documents, VARIADIC names) and
 * error reporting.  No JSON logic lives here: the core has it.
 */
#ifndef WIREJSON_PG_H
#define WIREJSON_PG_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/memutils.h"

#include "wirejson.h"

/* The helpers below are the module's own, not exported. */
#pragma GCC visibility push(hidden)

/* ------------------------------------------------------------ pg_alloc.c */

/*
 * A wj_alloc over palloc/repalloc/pfree in the memory context ctx (NULL:
 * CurrentMemoryContext at the moment of each call).  Allocations use
 * MCXT_ALLOC_NO_OOM, so an allocation that fails makes the core see NULL and
 * return WJ_ERR_NOMEM: PostgreSQL never longjmps out of the middle of the
 * core.  An error raised afterwards leaks nothing, because the memory
 * belongs to a context PostgreSQL resets.
 */
void wjpg_alloc_init(wj_alloc *alloc, MemoryContext ctx);

/* The allocator of every call: CurrentMemoryContext. */
extern const wj_alloc wjpg_current_alloc;

/* ----------------------------------------------------------- pg_args.c */

/* What a call keeps between rows (in fn_extra): the declared argument types
 * of the SQL function and a JSON writer for each jsonb argument. */
#define WJPG_MAX_ARGS 3

typedef struct wjpg_call {
    int nargs;
    Oid argtypes[WJPG_MAX_ARGS];       /* from pg_proc: TEXTOID, JSONOID, ... */
    wj_writer *writers[WJPG_MAX_ARGS]; /* for jsonb arguments, made on use */
    wj_alloc alloc;                    /* in the FmgrInfo's context */
} wjpg_call;

/* The call's cached state, made on the first call of an FmgrInfo. */
wjpg_call *wjpg_call_get(FunctionCallInfo fcinfo);

/* JSON text of document argument argno (text, json: the bytes as they are;
 * jsonb: written by the core's wj_writer from PostgreSQL's jsonb iterator,
 * an error 54000 as soon as that text passes 1 GB).  The text stays valid
 * until the next call for the same argument. */
void wjpg_arg_doc(FunctionCallInfo fcinfo, int argno, const char *func,
                  const char **json, size_t *len);

/* How a jsonb document becomes text for a function. */
typedef enum wjpg_doc_mode {
    WJPG_DOC_AS_IS,   /* every number spelled as numeric_out spells it */
    WJPG_DOC_DOUBLES, /* for functions that read numbers as doubles: one
                         beyond a double's range is not spelled out (the
                         core's range error comes at the same offset) */
    WJPG_DOC_VERDICT  /* for wirejson_error(_position): a string that is
                         not UTF-8 (SQL_ASCII) gives the error a text
                         document would */
} wjpg_doc_mode;

/* wjpg_arg_doc in a mode; false only in WJPG_DOC_VERDICT mode, when the
 * conversion found the document's error itself (*verdict filled). */
bool wjpg_arg_doc_as(FunctionCallInfo fcinfo, int argno, const char *func,
                     wjpg_doc_mode mode, const char **json, size_t *len,
                     wj_error *verdict);

/* The non-NULL elements of the text[] argument argno as names (palloc'd in
 * CurrentMemoryContext; the names point into the array). */
void wjpg_arg_names(FunctionCallInfo fcinfo, int argno, wj_name **names,
                    size_t *n_names);

/* The JSON text with_top_level writes for its value argument argno: text
 * quoted as a string, json/jsonb spliced, numbers and booleans as JSON. */
void wjpg_arg_value(FunctionCallInfo fcinfo, int argno, const char *func,
                    const char **json, size_t *len);

/* A jsonb document that is one JSON string: its bytes (for
 * canonical_arguments, whose argument is the arguments text).  Returns false
 * when the value is not a string. */
bool wjpg_arg_jsonb_string(FunctionCallInfo fcinfo, int argno,
                           const char **text, size_t *len);

/* --------------------------------------------------------- pg_errors.c */

/* Raises rc (not WJ_OK) as an ERROR of the SQL function func: the message is
 * wj_error_format's, word for word the SQLite one, and the SQLSTATE says the
 * kind (22P02 not JSON, 22023 wrong kind or bad argument, 54000 beyond a
 * limit, 53200 out of memory). */
pg_attribute_noreturn() void wjpg_raise(wj_code rc, const wj_error *err,
                                        const char *func);

/* Raises rc with a reason of the extension's own (a core call that has no
 * wj_error, such as wj_writer_new, failed; or a result is over a limit). */
pg_attribute_noreturn() void wjpg_raise_reason(wj_code rc, const char *reason,
                                               const char *func);

/* A text datum of len bytes from the core's result buffer out, which is
 * released; a result over PostgreSQL's 1 GB limit is an error of func. */
text *wjpg_result_text(char *out, size_t len, const char *func);

#pragma GCC visibility pop

#endif /* WIREJSON_PG_H */
