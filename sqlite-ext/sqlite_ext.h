/* SPDX-License-Identifier: MIT */
/*
 * sqlite_ext.h - what the SQL functions of the wirejson extension share: argument
 * conversion, result and error reporting, and the aggregate's callbacks
 * that wirejson_ext.c registers from the table of functions.
 */
#ifndef WIREJSON_SQLITE_EXT_H
#define WIREJSON_SQLITE_EXT_H

#include "sqlite3ext.h"
#include "wirejson.h"
#include "wirejson_kit.h"

SQLITE_EXTENSION_INIT3

/* The subtype SQLite's JSON functions give JSON text ('J'). */
#define WIREJSON_SUBTYPE 74

/* The core allocates through SQLite, so results are handed over as is
 * (with sqlite3_free as destructor) and SQLite's OOM testing reaches the core.
 * This one, without a call to report to, is for state that outlives a call
 * (the aggregate's conversation). */
extern const wj_alloc wirejson_sqlite_alloc;

/*
 * One call of a wirejson SQL function: its context and the allocator the
 * core uses during it, SQLite's, which notes whether the last request SQLite
 * refused was one it refuses by size alone (sqlite3_malloc64 serves less
 * than 0x7fffff00 bytes): a result or a tree that big is SQLITE_TOOBIG,
 * not SQLITE_NOMEM.
 */
typedef struct wirejson_call {
    sqlite3_context *ctx;
    wj_alloc alloc;      /* SQLite's, with this call as its context */
    int refused_by_size; /* the last refused request was too big to serve */
} wirejson_call;

void wirejson_call_init(wirejson_call *call, sqlite3_context *ctx);

/* A JSON text argument: its bytes, and room for a REAL's spelling. */
typedef struct wirejson_json {
    const char *ptr;
    size_t len;
    char number[WJ_NUMBER_BUF_SIZE];
} wirejson_json;

/*
 * The JSON text of an argument (docs/contract.md §8): TEXT and BLOB taken whole, an
 * INTEGER in decimal as SQLite spells it, a REAL as ECMAScript spells the
 * double (wj_number_from_double).  Returns 0 and fills *out, or 1 for SQL
 * NULL, or -1 when the error is already reported: out of memory, or a REAL
 * that is not finite ("canonical_json: argument 1 is not a finite number",
 * `name` being how the message calls the argument).
 */
int wirejson_arg_json(wirejson_call *call, sqlite3_value *arg, const char *name,
                      wirejson_json *out);

/* Reports rc (not WJ_OK) for the function named by the context's user data:
 * SQLITE_NOMEM, SQLITE_TOOBIG, or the message of wj_error_message (whole,
 * however long). */
void wirejson_result_error(wirejson_call *call, wj_code rc,
                           const wj_error *err);

/* A digest (64 hex characters) as the result. */
void wirejson_result_digest(sqlite3_context *ctx,
                            const char hex[WJ_DIGEST_HEX_SIZE]);

/* Hands a core result buffer to SQLite as text, with the JSON subtype when
 * is_json; out NULL is SQL NULL. */
void wirejson_result_text(wirejson_call *call, char *out, size_t len,
                          int is_json);

/* The name of the function called: its row of the table (the user data). */
const char *wirejson_func_name(sqlite3_context *ctx);

/* The entry point SQLite derives from the file name wirejson.so. */
int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

/* sqlite_aggregate.c */
void messagesDigestAggStep(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv);
void messagesDigestAggFinal(sqlite3_context *ctx);
void messagesDigestAggValue(sqlite3_context *ctx);
void messagesDigestAggInverse(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv);

#endif /* WIREJSON_SQLITE_EXT_H */
