/* SPDX-License-Identifier: MIT */
/*
 * api_v1_5_6.h - what the extension's v1.2.0 files need of the v1.5.6
 * struct layout (api_v1_5_6.c), in types of duckdb.h only, so that both
 * sides can include it.
 */
#ifndef WIREJSON_DUCKDB_API_V1_5_6_H
#define WIREJSON_DUCKDB_API_V1_5_6_H

#include "duckdb.h"

/* How a string result is put in row index of a VARCHAR vector. */
typedef void (*wirejson_assign_fn)(duckdb_vector vector, idx_t index,
                                   const char *str, idx_t str_len);

/* duckdb_unsafe_vector_assign_string_element_len out of the struct that
 * DuckDB's get_api returned for "v1.5.6": it copies the bytes without
 * checking that they are UTF-8. */
wirejson_assign_fn wirejson_unchecked_assign(const void *api_v1_5_6);

#endif
