/*
 * ext.h - what the SQL functions of the wirejson extension share: argument
 * conversion, result and error reporting, and the callbacks each file
 * defines for the registration table in wirejson_ext.c.
 */
#ifndef WIREJSON_EXT_H
#define WIREJSON_EXT_H

#include "sqlite3ext.h"
#include "wirejson.h"

SQLITE_EXTENSION_INIT3

/* The subtype SQLite's JSON functions give JSON text ('J'). */
#define WIREJSON_SUBTYPE 74

/* The core allocates through SQLite, so results are handed over as is
 * (with sqlite3_free as destructor) and SQLite's OOM testing reaches the core.
 */
extern const wj_alloc wirejson_sqlite_alloc;

/* JSON text of an argument (TEXT, BLOB, or a number as SQLite spells it).
 * Returns 0 and sets *json and *len, or 1 for SQL NULL, or -1 when out of
 * memory (the error is already reported). */
int wirejson_arg_json(sqlite3_context *ctx, sqlite3_value *arg,
                      const char **json, size_t *len);

/* The non-NULL arguments argv[0..argc) as names, in *names (release with
 * sqlite3_free).  Returns 0, or -1 when out of memory (reported). */
int wirejson_arg_names(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                       wj_name **names, size_t *n_names);

/* Reports rc (not WJ_OK) for the function named by the context's user data. */
void wirejson_result_error(sqlite3_context *ctx, wj_code rc,
                           const wj_error *err);

/* Hands a core result buffer to SQLite as text, with the JSON subtype when
 * is_json; out NULL is SQL NULL. */
void wirejson_result_text(sqlite3_context *ctx, char *out, size_t len,
                          int is_json);

/* The name the function was registered under (its user data). */
const char *wirejson_func_name(sqlite3_context *ctx);

/* The entry point SQLite derives from the file name wirejson.so. */
int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

/* messages_agg.c */
void messagesDigestAggStep(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv);
void messagesDigestAggFinal(sqlite3_context *ctx);
void messagesDigestAggValue(sqlite3_context *ctx);
void messagesDigestAggInverse(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv);

/* raw_body.c */
void withTopLevelFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void toolSchemasFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void encodeWithSchemasFunc(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv);

#endif /* WIREJSON_EXT_H */
