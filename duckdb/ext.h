/* SPDX-License-Identifier: MIT */
/*
 * ext.h - what the files of the DuckDB extension share (docs/contract.md §15).
 * The extension is built on DuckDB's stable C extension API, version 1.2.0,
 * so one build loads in DuckDB 1.2 and every later 1.x.
 */
#ifndef WIREJSON_DUCKDB_EXT_H
#define WIREJSON_DUCKDB_EXT_H

#include "duckdb_extension.h"
#include "wirejson.h"
#include "wirejson_kit.h"

#include <stddef.h>

DUCKDB_EXTENSION_EXTERN

/* The bytes of a DuckDB string (inlined up to 12 bytes, else a pointer). */
static inline const char *wirejson_string_ptr(const duckdb_string_t *s)
{
    return s->value.inlined.length <= 12 ? s->value.inlined.inlined
                                         : s->value.pointer.ptr;
}

static inline size_t wirejson_string_len(const duckdb_string_t *s)
{
    return s->value.inlined.length;
}

/* Raises the SQL message of err for function func (invalid-input error);
 * report is the scalar's or the aggregate's set_error. */
void wirejson_raise(duckdb_function_info info, const char *func,
                    const wj_error *err,
                    void (*report)(duckdb_function_info, const char *));

/* Registers messages_digest_agg; DuckDBError when DuckDB refuses it. */
duckdb_state wirejson_register_messages_agg(duckdb_connection con,
                                            const wj_function *fn);

#endif
