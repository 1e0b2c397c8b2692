/* SPDX-License-Identifier: MIT */
/*
 * ext.h - what the files of the DuckDB extension share (docs/contract.md §15).
 * The extension is built on DuckDB's stable C extension API, version 1.2.0,
 * so one build loads in DuckDB 1.2 and every later 1.x (api_v1_5_6.c alone
 * reads the v1.5.6 layout, where DuckDB grants it).
 */
#ifndef WIREJSON_DUCKDB_EXT_H
#define WIREJSON_DUCKDB_EXT_H

#define DUCKDB_EXTENSION_API_VERSION_MAJOR 1
#define DUCKDB_EXTENSION_API_VERSION_MINOR 2
#define DUCKDB_EXTENSION_API_VERSION_PATCH 0
#include "duckdb_extension.h"
#include "api_v1_5_6.h"
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

/* Puts a string result in a VARCHAR vector: DuckDB's checked assign, or
 * its unchecked one where the running DuckDB offers it (assign.c). */
extern wirejson_assign_fn wirejson_assign;

/* Sets wirejson_assign, once at load; false with the load's error set when
 * WIREJSON_DUCKDB_API asks for what this DuckDB cannot give. */
bool wirejson_choose_assign(duckdb_extension_info info,
                            struct duckdb_extension_access *access);

/* Raises the SQL message of err for function func (invalid-input error);
 * report is the scalar's or the aggregate's set_error. */
void wirejson_raise(duckdb_function_info info, const char *func,
                    const wj_error *err,
                    void (*report)(duckdb_function_info, const char *));

/* Registers messages_digest_agg; DuckDBError when DuckDB refuses it. */
duckdb_state wirejson_register_messages_agg(duckdb_connection con,
                                            const wj_function *fn);

#endif
