/* SPDX-License-Identifier: MIT */
/*
 * api_v1_5_6.c - the one file compiled against DuckDB's C extension API
 * v1.5.6 rather than v1.2.0: it reads the unchecked string assign out of the
 * function struct DuckDB hands the extension.  That function sits in the
 * struct's v1.5.6 band, which DuckDB declared stable in 1.5.6 (before, it
 * was in the unstable tail, at an offset that moved from release to
 * release), so its offset is the same in every DuckDB from 1.5.6 on.
 * assign.c calls this only after DuckDB has granted v1.5.6 (docs/duckdb.md).
 */
#define DUCKDB_EXTENSION_API_VERSION_MAJOR 1
#define DUCKDB_EXTENSION_API_VERSION_MINOR 5
#define DUCKDB_EXTENSION_API_VERSION_PATCH 6
#include "duckdb_extension.h"
#include "api_v1_5_6.h"

/* duckdb_extension.h maps each name to the extension's global struct;
 * here the name is the member of the struct given. */
#undef duckdb_unsafe_vector_assign_string_element_len

wirejson_assign_fn wirejson_unchecked_assign(const void *api_v1_5_6)
{
    const duckdb_ext_api_v1 *api = api_v1_5_6;
    return api->duckdb_unsafe_vector_assign_string_element_len;
}
