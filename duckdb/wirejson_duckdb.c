/* SPDX-License-Identifier: MIT */
/*
 * wirejson_duckdb.c - the DuckDB extension: every row of the core's table
 * of functions the kit puts in DuckDB, registered in one loop, and the one
 * vectorised scalar callback they share (docs/contract.md §15).
 *
 *   LOAD 'build/wirejson.duckdb_extension';   -- allow_unsigned_extensions
 *   SELECT data_digest(json), count(*) FROM read_json_objects('logs/day-1.jsonl.gz')
 *   GROUP BY 1;
 *
 * Types: documents, texts and names are VARCHAR (DuckDB's JSON is a VARCHAR
 * and passes byte for byte); the trailing names are variadic VARCHAR;
 * with_top_level's VALUE is ANY and made JSON by its type at run time
 * (value_text).  JSON, BODY and lists of texts (tool_schemas) are JSON,
 * digests and texts VARCHAR, integers INTEGER (an error past its range),
 * lists of digests VARCHAR[].  NULL arguments reach the
 * callback (special handling), so that wj_function_call applies the one NULL
 * rule of every front end: NULL names skipped, a NULL VALUE is null, any
 * other NULL gives NULL.  An error stops the chunk with DuckDB's
 * invalid-input error and the message SQLite gives.
 *
 * The callbacks keep no state of their own: pure and thread-safe, so DuckDB
 * runs them on all its threads.
 */
#define DUCKDB_EXTENSION_NAME wirejson
#include "ext.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GCC's and Clang's 128-bit integers, for HUGEINT and wide DECIMALs. */
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

/* The entry point DUCKDB_EXTENSION_ENTRYPOINT defines, declared. */
bool wirejson_init_c_api(duckdb_extension_info info,
                         struct duckdb_extension_access *access);

void wirejson_raise(duckdb_function_info info, const char *func,
                    const wj_error *err,
                    void (*report)(duckdb_function_info, const char *))
{
    char *msg = wj_error_message(err, func, NULL, NULL);
    report(info, msg ? msg : "out of memory");
    wj_free(NULL, msg);
}

/* ------------------------------------------------ with_top_level's VALUE */

/* How a VALUE column's rows become JSON text: its type, read once a chunk. */
typedef struct value_column {
    duckdb_type type;     /* of the values (a DECIMAL's: its internal type) */
    int is_json;          /* VARCHAR with DuckDB's JSON alias: spliced */
    int is_decimal;
    unsigned scale;       /* a DECIMAL's */
} value_column;

static void value_column_init(value_column *vc, duckdb_vector vec)
{
    duckdb_logical_type t = duckdb_vector_get_column_type(vec);
    memset(vc, 0, sizeof *vc);
    vc->type = duckdb_get_type_id(t);
    if (vc->type == DUCKDB_TYPE_VARCHAR) {
        char *alias = duckdb_logical_type_get_alias(t);
        vc->is_json = alias && strcmp(alias, "JSON") == 0;
        if (alias)
            duckdb_free(alias);
    } else if (vc->type == DUCKDB_TYPE_DECIMAL) {
        vc->is_decimal = 1;
        vc->scale = duckdb_decimal_scale(t);
        vc->type = duckdb_decimal_internal_type(t);
    }
    duckdb_destroy_logical_type(&t);
}

/* The decimal digits of a 128-bit magnitude into the end of buf; returns
 * where they start. */
static char *digits_u128(u128 v, char *end)
{
    *--end = '\0';
    do {
        *--end = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    return end;
}

/* A signed integer (of a DECIMAL with scale, or plain with scale 0) written
 * exactly, as JSON: "-2.5", "0.05", "17". */
static size_t exact_decimal(i128 v, unsigned scale, char out[64])
{
    char digits[48], *d;
    size_t n, len = 0;
    u128 mag = v < 0 ? (u128)0 - (u128)v
                                  : (u128)v;
    d = digits_u128(mag, digits + sizeof digits);
    n = strlen(d);
    if (v < 0)
        out[len++] = '-';
    if (scale == 0) {
        memcpy(out + len, d, n);
        return len + n;
    }
    if (n <= scale) { /* 0.0…digits */
        out[len++] = '0';
        out[len++] = '.';
        memset(out + len, '0', scale - n);
        len += scale - n;
        memcpy(out + len, d, n);
        return len + n;
    }
    memcpy(out + len, d, n - scale);
    len += n - scale;
    out[len++] = '.';
    memcpy(out + len, d + n - scale, scale);
    return len + scale;
}

/* The JSON text of row k of a VALUE column in *arg (*owned: a buffer to
 * free after the call).  0, or -1 with the error raised. */
static int value_text(duckdb_function_info info, const wj_function *fn,
                      const value_column *vc, const void *data, idx_t k,
                      char num[64], wj_arg *arg, char **owned)
{
    wj_error err = WJ_ERROR_INIT;
    i128 iv = 0;
    double dv;

    *owned = NULL;
    switch (vc->type) {
    case DUCKDB_TYPE_VARCHAR: {
        const duckdb_string_t *s = (const duckdb_string_t *)data + k;
        size_t len;
        arg->ptr = wirejson_string_ptr(s);
        arg->len = wirejson_string_len(s);
        if (vc->is_json)
            return 0;
        if (wj_quote_text(arg->ptr, arg->len, NULL, owned, &len, &err) !=
            WJ_OK) {
            wirejson_raise(info, fn->name, &err,
                           duckdb_scalar_function_set_error);
            return -1;
        }
        arg->ptr = *owned;
        arg->len = len;
        return 0;
    }
    case DUCKDB_TYPE_BOOLEAN:
        arg->ptr = ((const bool *)data)[k] ? "true" : "false";
        arg->len = strlen(arg->ptr);
        return 0;
    case DUCKDB_TYPE_FLOAT:
    case DUCKDB_TYPE_DOUBLE: {
        size_t len;
        dv = vc->type == DUCKDB_TYPE_FLOAT ? (double)((const float *)data)[k]
                                           : ((const double *)data)[k];
        if (wj_number_from_double(dv, num, &len, &err) != WJ_OK) {
            char msg[128];
            snprintf(msg, sizeof msg, "%s: value is %s", fn->name, err.msg);
            duckdb_scalar_function_set_error(info, msg);
            return -1;
        }
        arg->ptr = num;
        arg->len = len;
        return 0;
    }
    case DUCKDB_TYPE_TINYINT: iv = ((const int8_t *)data)[k]; break;
    case DUCKDB_TYPE_SMALLINT: iv = ((const int16_t *)data)[k]; break;
    case DUCKDB_TYPE_INTEGER: iv = ((const int32_t *)data)[k]; break;
    case DUCKDB_TYPE_BIGINT: iv = ((const int64_t *)data)[k]; break;
    case DUCKDB_TYPE_UTINYINT: iv = ((const uint8_t *)data)[k]; break;
    case DUCKDB_TYPE_USMALLINT: iv = ((const uint16_t *)data)[k]; break;
    case DUCKDB_TYPE_UINTEGER: iv = ((const uint32_t *)data)[k]; break;
    case DUCKDB_TYPE_UBIGINT: iv = ((const uint64_t *)data)[k]; break;
    case DUCKDB_TYPE_HUGEINT: {
        duckdb_hugeint h = ((const duckdb_hugeint *)data)[k];
        iv = (i128)(((u128)(uint64_t)h.upper << 64) |
                        h.lower);
        break;
    }
    case DUCKDB_TYPE_UHUGEINT: {
        duckdb_uhugeint h = ((const duckdb_uhugeint *)data)[k];
        u128 u = ((u128)h.upper << 64) | h.lower;
        char *d = digits_u128(u, num + 64);
        arg->len = strlen(d);
        memmove(num, d, arg->len + 1);
        arg->ptr = num;
        return 0;
    }
    default: {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "%s: value must be text, JSON, a number, a boolean or NULL",
                 fn->name);
        duckdb_scalar_function_set_error(info, msg);
        return -1;
    }
    }
    arg->len = exact_decimal(iv, vc->is_decimal ? vc->scale : 0, num);
    arg->ptr = num;
    return 0;
}

/* ------------------------------------------------------------ the callback */

/* The most arguments a call keeps on the stack; more are allocated. */
#define ARGS_ON_STACK 16

/* Where column c is among the list columns list_col[0..n), or n. */
static size_t list_index(const size_t *list_col, size_t n, size_t c)
{
    size_t l;
    for (l = 0; l < n && list_col[l] != c; l++)
        ;
    return l;
}

/* A DIGESTS result as row k of a VARCHAR[] vector.  0, or -1 when out of
 * memory. */
static int write_digests(duckdb_vector out, idx_t k, const char *text,
                         size_t len)
{
    duckdb_list_entry *entries = duckdb_vector_get_data(out);
    duckdb_vector child;
    idx_t base = duckdb_list_vector_get_size(out);
    size_t n, i;
    const char *hex = wk_digests(text, len, &n);

    if (duckdb_list_vector_reserve(out, base + n) != DuckDBSuccess)
        return -1;
    child = duckdb_list_vector_get_child(out);
    for (i = 0; i < n; i++)
        wirejson_assign(child, base + i, hex + i * WK_DIGEST_STRIDE, 64);
    if (duckdb_list_vector_set_size(out, base + n) != DuckDBSuccess)
        return -1;
    entries[k].offset = base;
    entries[k].length = n;
    return 0;
}

/* Most columns that may be lists (VARCHAR[] for a WJ_ARG_DIGESTS). */
#define MAX_LISTS 4

/* Row k of the VARCHAR[] vector v as JSON text (an array of strings and
 * nulls) in w, into *arg.  0, or -1 when out of memory. */
static int list_text(duckdb_vector v, idx_t k, wj_writer *w, wj_arg *arg)
{
    const duckdb_list_entry *e =
        (const duckdb_list_entry *)duckdb_vector_get_data(v) + k;
    duckdb_vector child = duckdb_list_vector_get_child(v);
    const duckdb_string_t *strings = duckdb_vector_get_data(child);
    uint64_t *valid = duckdb_vector_get_validity(child);
    idx_t i;

    wj_writer_reset(w);
    wj_writer_begin_array(w);
    for (i = e->offset; i < e->offset + e->length; i++)
        if (valid && !duckdb_validity_row_is_valid(valid, i))
            wj_writer_null(w);
        else
            wj_writer_string(w, wirejson_string_ptr(strings + i),
                             wirejson_string_len(strings + i));
    wj_writer_end_array(w);
    arg->ptr = wj_writer_text(w, &arg->len, NULL);
    return arg->ptr ? 0 : -1;
}

/* One result of a chunk into row k of output: NULL, an INTEGER (an offset
 * past its range is an error, never a wrapped number: the PostgreSQL
 * extension's rule, §15), a list of digests or a string.  0, or -1 with
 * the error raised. */
static int put_result(duckdb_function_info info, const wj_function *fn,
                      duckdb_vector output, uint64_t **out_valid, idx_t k,
                      int is_null, int64_t integer, const char *text,
                      size_t len)
{
    if (is_null) {
        if (!*out_valid) {
            duckdb_vector_ensure_validity_writable(output);
            *out_valid = duckdb_vector_get_validity(output);
        }
        duckdb_validity_set_row_invalid(*out_valid, k);
    } else if (fn->result == WJ_RESULT_INTEGER) {
        if (integer > INT32_MAX || integer < INT32_MIN) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "%s: error position out of integer range", fn->name);
            duckdb_scalar_function_set_error(info, msg);
            return -1;
        }
        ((int32_t *)duckdb_vector_get_data(output))[k] = (int32_t)integer;
    } else if (fn->result == WJ_RESULT_DIGESTS) {
        if (write_digests(output, k, text, len) != 0) {
            duckdb_scalar_function_set_error(info, "out of memory");
            return -1;
        }
    } else
        wirejson_assign(output, k, text, len);
    return 0;
}

/* A chunk row by row: with_top_level's VALUE and lists of digests, whose
 * arguments are made for one row at a time. */
static void call_rows(duckdb_function_info info, const wj_function *fn,
                      duckdb_data_chunk input, duckdb_vector output,
                      idx_t n_rows, size_t n_cols)
{
    size_t value_col = SIZE_MAX, c;
    const void *stack_data[ARGS_ON_STACK];
    uint64_t *stack_valid[ARGS_ON_STACK];
    wj_arg stack_args[ARGS_ON_STACK];
    const void **data = stack_data;
    uint64_t **valid = stack_valid;
    wj_arg *args = stack_args;
    uint64_t *out_valid = NULL;
    value_column vc;
    duckdb_vector list_vec[MAX_LISTS];
    wj_writer *list_w[MAX_LISTS] = {NULL};
    size_t list_col[MAX_LISTS], n_lists = 0, l;
    idx_t k;

    if (n_cols > ARGS_ON_STACK) {
        data = malloc(n_cols * sizeof *data);
        valid = malloc(n_cols * sizeof *valid);
        args = malloc(n_cols * sizeof *args);
        if (!data || !valid || !args) {
            duckdb_scalar_function_set_error(info, "out of memory");
            goto done;
        }
    }
    for (c = 0; c < n_cols; c++) {
        duckdb_vector v = duckdb_data_chunk_get_vector(input, c);
        data[c] = duckdb_vector_get_data(v);
        valid[c] = duckdb_vector_get_validity(v);
        if (c < fn->n_params && fn->params[c].kind == WJ_ARG_VALUE) {
            value_col = c;
            value_column_init(&vc, v);
        }
        if (c < fn->n_params && fn->params[c].kind == WJ_ARG_DIGESTS &&
            n_lists < MAX_LISTS) {
            duckdb_logical_type t = duckdb_vector_get_column_type(v);
            int is_list = duckdb_get_type_id(t) == DUCKDB_TYPE_LIST;
            duckdb_destroy_logical_type(&t);
            if (is_list) {
                if (wj_writer_new(NULL, &list_w[n_lists]) != WJ_OK) {
                    duckdb_scalar_function_set_error(info, "out of memory");
                    goto done;
                }
                list_vec[n_lists] = v;
                list_col[n_lists++] = c;
            }
        }
    }
    for (k = 0; k < n_rows; k++) {
        wj_result res;
        wj_error err = WJ_ERROR_INIT;
        char num[64], *owned = NULL;
        wj_code rc;

        for (c = 0; c < n_cols; c++) {
            if (valid[c] && !duckdb_validity_row_is_valid(valid[c], k)) {
                args[c].ptr = NULL;
                args[c].len = 0;
            } else if (c == value_col) {
                if (value_text(info, fn, &vc, data[c], k, num, &args[c],
                               &owned) != 0)
                    goto done;
            } else if (n_lists && (l = list_index(list_col, n_lists, c)) <
                                      n_lists) {
                if (list_text(list_vec[l], k, list_w[l], &args[c]) != 0) {
                    free(owned);
                    duckdb_scalar_function_set_error(info, "out of memory");
                    goto done;
                }
            } else {
                const duckdb_string_t *s = (const duckdb_string_t *)data[c] + k;
                args[c].ptr = wirejson_string_ptr(s);
                args[c].len = wirejson_string_len(s);
            }
        }
        rc = wj_function_call(fn, args, n_cols, NULL, &res, &err);
        free(owned);
        if (rc != WJ_OK) {
            wirejson_raise(info, fn->name, &err,
                           duckdb_scalar_function_set_error);
            goto done;
        }
        if (put_result(info, fn, output, &out_valid, k, res.is_null,
                       res.integer, res.text, res.len) != 0) {
            wj_result_free(NULL, &res);
            goto done;
        }
        wj_result_free(NULL, &res);
    }
done:
    for (l = 0; l < n_lists; l++)
        wj_writer_free(list_w[l]);
    if (data != stack_data) {
        free((void *)data);
        free(valid);
        free(args);
    }
}


/* A thread's room for its chunks through wj_function_call_batch, kept
 * from chunk to chunk (no allocation per row, nor per chunk once grown),
 * freed when the thread ends. */
typedef struct batch_room {
    wj_batch_out out;
    wj_batch_row *rows;
    wj_arg *args;
    size_t rows_cap, args_cap;
} batch_room;

static pthread_key_t room_key;
static pthread_once_t room_once = PTHREAD_ONCE_INIT;
static int room_key_ok;

static void room_release(void *arg)
{
    batch_room *room = arg;
    wj_batch_out_free(NULL, &room->out);
    free(room->rows);
    free(room->args);
    free(room);
}

static void room_key_make(void)
{
    room_key_ok = pthread_key_create(&room_key, room_release) == 0;
}

/* The calling thread's room, with space for n_rows rows of n_args
 * arguments; NULL when out of memory. */
static batch_room *thread_room(size_t n_rows, size_t n_args)
{
    batch_room *room;
    pthread_once(&room_once, room_key_make);
    if (!room_key_ok)
        return NULL;
    room = pthread_getspecific(room_key);
    if (!room) {
        room = calloc(1, sizeof *room);
        if (!room || pthread_setspecific(room_key, room) != 0) {
            free(room);
            return NULL;
        }
    }
    if (n_rows > room->rows_cap) {
        wj_batch_row *r = realloc(room->rows, n_rows * sizeof *r);
        if (!r)
            return NULL;
        room->rows = r;
        room->rows_cap = n_rows;
    }
    if (n_rows * n_args + 1 > room->args_cap) {
        wj_arg *a = realloc(room->args, (n_rows * n_args + 1) * sizeof *a);
        if (!a)
            return NULL;
        room->args = a;
        room->args_cap = n_rows * n_args + 1;
    }
    room->out.len = 0;
    return room;
}

/* A chunk of VARCHAR (and JSON) arguments in one call of the batch entry
 * point: the arguments row by row (an invalid row's NULL), then each row's
 * outcome in order; the first row in error raises it, as row by row. */
static void call_batch(duckdb_function_info info, const wj_function *fn,
                       duckdb_data_chunk input, duckdb_vector output,
                       idx_t n_rows, size_t n_cols)
{
    batch_room *room = thread_room((size_t)n_rows, n_cols);
    uint64_t *out_valid = NULL;
    wj_error err = WJ_ERROR_INIT;
    size_t c;
    idx_t k;

    if (!room) {
        duckdb_scalar_function_set_error(info, "out of memory");
        return;
    }
    for (c = 0; c < n_cols; c++) {
        duckdb_vector v = duckdb_data_chunk_get_vector(input, c);
        const duckdb_string_t *s = duckdb_vector_get_data(v);
        uint64_t *valid = duckdb_vector_get_validity(v);
        wj_arg *a = room->args + c;
        for (k = 0; k < n_rows; k++, a += n_cols)
            if (valid && !duckdb_validity_row_is_valid(valid, k)) {
                a->ptr = NULL;
                a->len = 0;
            } else {
                a->ptr = wirejson_string_ptr(s + k);
                a->len = wirejson_string_len(s + k);
            }
    }
    if (wj_function_call_batch(fn, room->args, n_cols, (size_t)n_rows, NULL,
                               &room->out, room->rows, &err) != WJ_OK) {
        wirejson_raise(info, fn->name, &err, duckdb_scalar_function_set_error);
        return;
    }
    for (k = 0; k < n_rows; k++) {
        const wj_batch_row *row = &room->rows[k];
        if (row->code != WJ_OK) {
            wirejson_raise(info, fn->name, &row->error,
                           duckdb_scalar_function_set_error);
            return;
        }
        if (put_result(info, fn, output, &out_valid, k, row->is_null,
                       row->integer, room->out.ptr + row->offset,
                       row->len) != 0)
            return;
    }
}

static void wirejsonScalarFunc(duckdb_function_info info,
                               duckdb_data_chunk input, duckdb_vector output)
{
    const wj_function *fn = duckdb_scalar_function_get_extra_info(info);
    idx_t n_rows = duckdb_data_chunk_get_size(input);
    size_t n_cols = (size_t)duckdb_data_chunk_get_column_count(input);
    size_t c;

    if (n_rows == 0)
        return;
    /* VALUE and list columns are made into JSON a row at a time. */
    for (c = 0; c < n_cols; c++) {
        duckdb_logical_type t;
        int is_list;
        if (c >= fn->n_params)
            break; /* variadic names: VARCHAR */
        if (fn->params[c].kind == WJ_ARG_VALUE) {
            call_rows(info, fn, input, output, n_rows, n_cols);
            return;
        }
        if (fn->params[c].kind != WJ_ARG_DIGESTS)
            continue;
        t = duckdb_vector_get_column_type(
            duckdb_data_chunk_get_vector(input, c));
        is_list = duckdb_get_type_id(t) == DUCKDB_TYPE_LIST;
        duckdb_destroy_logical_type(&t);
        if (is_list) {
            call_rows(info, fn, input, output, n_rows, n_cols);
            return;
        }
    }
    call_batch(info, fn, input, output, n_rows, n_cols);
}

/* --------------------------------------------------------- registration */

/* DuckDB's type for a parameter or a result kind; release with
 * duckdb_destroy_logical_type. */
static duckdb_logical_type json_type(void)
{
    duckdb_logical_type t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type_set_alias(t, "JSON");
    return t;
}

static duckdb_logical_type result_type(wj_result_kind kind)
{
    duckdb_logical_type t, list;
    switch (kind) {
    case WJ_RESULT_JSON:
    case WJ_RESULT_BODY:
    case WJ_RESULT_TEXTS: /* tool_schemas: a JSON array of texts and nulls */
        return json_type();
    case WJ_RESULT_INTEGER:
        return duckdb_create_logical_type(DUCKDB_TYPE_INTEGER);
    case WJ_RESULT_DIGESTS:
        t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
        list = duckdb_create_list_type(t);
        duckdb_destroy_logical_type(&t);
        return list;
    default:
        return duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    }
}

/* A parameter's type: a VARCHAR[] for a list of digests given as one
 * (as_list), ANY for a VALUE, else VARCHAR. */
static duckdb_logical_type param_type(wj_arg_kind kind, int as_list)
{
    duckdb_logical_type t, list;
    if (kind == WJ_ARG_VALUE)
        return duckdb_create_logical_type(DUCKDB_TYPE_ANY);
    t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    if (!as_list)
        return t;
    list = duckdb_create_list_type(t);
    duckdb_destroy_logical_type(&t);
    return list;
}

/* One overload of fn: its first n_params parameters, the k-th list of
 * digests a VARCHAR[] when bit k of lists is set, else JSON text. */
static duckdb_scalar_function overload(const wj_function *fn, size_t n_params,
                                       unsigned lists)
{
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_logical_type t;
    unsigned bit = 1;
    size_t p;

    duckdb_scalar_function_set_name(f, fn->name);
    for (p = 0; p < n_params; p++) {
        wj_arg_kind kind = fn->params[p].kind;
        int as_list = 0;
        if (kind == WJ_ARG_DIGESTS) {
            as_list = (lists & bit) != 0;
            bit <<= 1;
        }
        t = param_type(kind, as_list);
        if (kind == WJ_ARG_NAMES)
            duckdb_scalar_function_set_varargs(f, t);
        else
            duckdb_scalar_function_add_parameter(f, t);
        duckdb_destroy_logical_type(&t);
    }
    t = result_type(fn->result);
    duckdb_scalar_function_set_return_type(f, t);
    duckdb_destroy_logical_type(&t);
    duckdb_scalar_function_set_special_handling(f);
    duckdb_scalar_function_set_extra_info(f, (void *)(size_t)fn, NULL);
    duckdb_scalar_function_set_function(f, wirejsonScalarFunc);
    return f;
}

/* Registers fn as a set of overloads: with and without an optional word,
 * and each list of digests as a VARCHAR[] or as JSON text. */
static duckdb_state register_scalar(duckdb_connection con,
                                    const wj_function *fn)
{
    duckdb_scalar_function_set set =
        duckdb_create_scalar_function_set(fn->name);
    size_t least = wj_function_min_args(fn), n, p;
    unsigned n_lists = 0, lists;
    duckdb_state st = DuckDBSuccess;

    for (p = 0; p < fn->n_params; p++)
        n_lists += fn->params[p].kind == WJ_ARG_DIGESTS;
    if (fn->n_params == 0 || fn->params[fn->n_params - 1].kind != WJ_ARG_WORD)
        least = fn->n_params;
    for (n = least; n <= fn->n_params && st == DuckDBSuccess; n++)
        for (lists = 0; lists < 1u << n_lists && st == DuckDBSuccess;
             lists++) {
            duckdb_scalar_function f = overload(fn, n, lists);
            st = duckdb_add_scalar_function_to_set(set, f);
            duckdb_destroy_scalar_function(&f);
        }
    if (st == DuckDBSuccess)
        st = duckdb_register_scalar_function_set(con, set);
    duckdb_destroy_scalar_function_set(&set);
    return st;
}

DUCKDB_EXTENSION_ENTRYPOINT(duckdb_connection connection,
                            duckdb_extension_info info,
                            struct duckdb_extension_access *access)
{
    size_t n, k;
    const wj_function *table = wj_functions(&n);

    if (!wirejson_choose_assign(info, access))
        return false;
    for (k = 0; k < n; k++) {
        const wj_function *fn = &table[k];
        duckdb_state st;
        if (!(wk_function_hosts(fn) & WK_HOST_DUCKDB))
            continue;
        st = fn->flags & WJ_FN_AGGREGATE
                 ? wirejson_register_messages_agg(connection, fn)
                 : register_scalar(connection, fn);
        if (st != DuckDBSuccess) {
            char msg[128];
            snprintf(msg, sizeof msg, "wirejson: cannot register %s",
                     fn->name);
            access->set_error(info, msg);
            return false;
        }
    }
    return true;
}
