/* SPDX-License-Identifier: MIT */
/*
 * sql_limits.c - the SQL functions at SQLite's length limit and beyond the
 * C stack a thread usually has (docs/contract.md §3, §8):
 *
 *   - every function on an input of exactly SQLITE_LIMIT_LENGTH bytes works;
 *     one byte more is refused by SQLite itself (SQLITE_TOOBIG);
 *   - a result one byte over the limit is SQLITE_TOOBIG, at the limit fine;
 *   - with_top_level quotes a 100 MB plain-text VALUE in which every
 *     character needs escaping (at SQLite's default limit);
 *   - every function, on nesting 1,000 deep and on 10,000,000 '[', in a
 *     thread with a 256 KB stack.
 *
 * The limit is lowered to 1,000,000 bytes for the first two, so that the
 * test stays small; the behaviour does not depend on the number.
 *
 *   usage: hardening_sql_limits [divisor]
 *
 * A divisor divides the 100 MB (the sanitizer build passes 10).
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

#define LIMIT 1000000

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "sql_limits: cannot allocate %zu bytes\n", n);
        exit(2);
    }
    return p;
}

static sqlite3 *open_db(int limit)
{
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "sql_limits: cannot open a database\n");
        exit(2);
    }
    if (limit)
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limit);
    return db;
}

/* Runs sql with ?1 bound to json[0..len); returns the step's result code
 * and, for a row, the first column's length in *out_len (and its bytes in
 * *out, malloc'd, when out is not NULL). */
static int run(sqlite3 *db, const char *sql, const char *json, size_t len,
               char **out, size_t *out_len)
{
    sqlite3_stmt *stmt;
    int rc;

    if (out)
        *out = NULL;
    *out_len = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        fprintf(stderr, "cannot prepare %s: %s\n", sql, sqlite3_errmsg(db));
        return SQLITE_ERROR;
    }
    rc = sqlite3_bind_text64(stmt, 1, json, len, SQLITE_STATIC, SQLITE_UTF8);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        const void *v = sqlite3_column_text(stmt, 0);
        *out_len = (size_t)sqlite3_column_bytes(stmt, 0);
        if (out && v) {
            *out = xmalloc(*out_len + 1);
            memcpy(*out, v, *out_len);
        }
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* A JSON object of exactly len bytes: {"content":"aaa...","role":"user"}. */
static char *padded_object(size_t len, const char *open, const char *close)
{
    static const char head[] = "{\"content\":\"", tail[] = "\",\"role\":\"user\"}";
    size_t ol = strlen(open), cl = strlen(close);
    size_t fill = len - ol - cl - (sizeof head - 1) - (sizeof tail - 1);
    char *s = xmalloc(len + 1), *p = s;
    memcpy(p, open, ol);
    p += ol;
    memcpy(p, head, sizeof head - 1);
    p += sizeof head - 1;
    memset(p, 'a', fill);
    p += fill;
    memcpy(p, tail, sizeof tail - 1);
    p += sizeof tail - 1;
    memcpy(p, close, cl);
    s[len] = '\0';
    return s;
}

/* ------------------------------------------------- at the length limit */

static const struct at_limit {
    const char *sql;
    int array;       /* the input is [object] instead of object */
    long result_len; /* -1: the input's length; -2: NULL */
} at_limit[] = {
    {"SELECT wire_json(?1)", 0, -1},
    {"SELECT wire_json(?1, 'messages')", 0, -1},
    {"SELECT wire_json_sorted(?1)", 0, -1},
    {"SELECT canonical_json(?1)", 0, -1},
    {"SELECT canonical_arguments(?1)", 0, -1},
    {"SELECT data_digest(?1)", 0, 64},
    {"SELECT message_digest(?1, 'x')", 0, 64},
    {"SELECT messages_digest(?1)", 1, 64},
    {"SELECT wirejson_error(?1)", 0, -2},
    {"SELECT with_top_level(?1, 'role', 'x')", 0, -3},
    {"SELECT tool_schemas(?1, 'function')", 0, -2},
    {"SELECT encode_with_schemas(?1, '[]')", 0, -2},
};

static void test_at_limit(void)
{
    sqlite3 *db = open_db(LIMIT);
    size_t k, len;
    int rc;

    for (k = 0; k < sizeof at_limit / sizeof *at_limit; k++) {
        const struct at_limit *c = &at_limit[k];
        char *json = c->array ? padded_object(LIMIT, "[", "]")
                              : padded_object(LIMIT, "", "");
        char *over = c->array ? padded_object(LIMIT + 1, "[", "]")
                              : padded_object(LIMIT + 1, "", "");
        rc = run(db, c->sql, json, LIMIT, NULL, &len);
        CHECK(rc == SQLITE_ROW);
        if (c->result_len == -1)
            CHECK(len == LIMIT);
        else if (c->result_len == -3) /* "user" became "x": 3 bytes less */
            CHECK(len == LIMIT - 3);
        else if (c->result_len == -2)
            CHECK(len == 0);
        else
            CHECK(len == (size_t)c->result_len);
        if (rc != SQLITE_ROW)
            fprintf(stderr, "  %s at the limit: %s\n", c->sql,
                    sqlite3_errmsg(db));
        /* one byte more cannot even be bound */
        rc = run(db, c->sql, over, LIMIT + 1, NULL, &len);
        CHECK(rc == SQLITE_TOOBIG);
        free(json);
        free(over);
    }
    sqlite3_close(db);
}

/* {"b":1e3,"c":"aaa..."} of len bytes: its canonical JSON is one longer. */
static char *canonical_grows(size_t len)
{
    static const char head[] = "{\"b\":1e3,\"c\":\"";
    char *s = xmalloc(len + 1);
    memcpy(s, head, sizeof head - 1);
    memset(s + sizeof head - 1, 'a', len - (sizeof head - 1) - 2);
    memcpy(s + len - 2, "\"}", 3);
    return s;
}

/* Results at and one byte over the limit, from inputs within it. */
static void test_result_over_limit(void)
{
    sqlite3 *db = open_db(LIMIT);
    char *json;
    size_t len;
    int rc;

    json = canonical_grows(LIMIT - 1);
    rc = run(db, "SELECT canonical_json(?1)", json, LIMIT - 1, NULL, &len);
    CHECK(rc == SQLITE_ROW && len == LIMIT);
    free(json);
    json = canonical_grows(LIMIT);
    rc = run(db, "SELECT canonical_json(?1)", json, LIMIT, NULL, &len);
    CHECK(rc == SQLITE_TOOBIG);
    CHECK(strcmp(sqlite3_errmsg(db), "string or blob too big") == 0);
    free(json);

    /* "user" (6 bytes with its quotes) replaced by 6 and by 7 digits */
    json = padded_object(LIMIT, "", "");
    rc = run(db, "SELECT with_top_level(?1, 'role', 123456)", json, LIMIT,
             NULL, &len);
    CHECK(rc == SQLITE_ROW && len == LIMIT);
    rc = run(db, "SELECT with_top_level(?1, 'role', 1234567)", json, LIMIT,
             NULL, &len);
    CHECK(rc == SQLITE_TOOBIG);
    free(json);

    /* the tools' texts quoted: each of their '"' gains a backslash */
    json = padded_object(LIMIT, "{\"tools\":[{\"x\":\"y\"},", "]}");
    rc = run(db, "SELECT tool_schemas(?1)", json, LIMIT, NULL, &len);
    CHECK(rc == SQLITE_TOOBIG);
    free(json);
    sqlite3_close(db);
}

/* ---------------------------------------- 100 MB of text to be escaped */

#define ESC_RAW "\n\"\\\t\r\x01\b\f\x1f"
#define ESC_WIRE "\\n\\\"\\\\\\t\\r\\u0001\\u0008\\u000c\\u001f"

/* The size of the text to quote, divided by the command line's divisor. */
static size_t quote_bytes = 100000000;

static void test_quote_100mb(void)
{
    const size_t repeat = quote_bytes / (sizeof ESC_RAW - 1);
    const size_t raw_len = repeat * (sizeof ESC_RAW - 1);
    const size_t piece = sizeof ESC_WIRE - 1;
    sqlite3 *db = open_db(0);
    char *raw = xmalloc(raw_len), *out;
    size_t k, len;
    int rc, ok;

    for (k = 0; k < repeat; k++)
        memcpy(raw + k * (sizeof ESC_RAW - 1), ESC_RAW, sizeof ESC_RAW - 1);
    rc = run(db, "SELECT with_top_level('{\"a\":0}', 'a', ?1)", raw, raw_len,
             &out, &len);
    CHECK(rc == SQLITE_ROW);
    if (rc != SQLITE_ROW)
        fprintf(stderr, "  with_top_level of 100 MB: %s\n", sqlite3_errmsg(db));
    ok = out && len == repeat * piece + 8 && memcmp(out, "{\"a\":\"", 6) == 0 &&
         memcmp(out + len - 2, "\"}", 2) == 0;
    for (k = 0; ok && k < repeat; k++)
        ok = memcmp(out + 6 + k * piece, ESC_WIRE, piece) == 0;
    CHECK(ok);
    free(out);
    free(raw);
    sqlite3_close(db);
}

/* ------------------------------------------------ a thread with 256 KB */

/* Every function; array: the input must be an array of messages. */
static const struct {
    const char *sql;
    int array;
    int row_when_too_deep; /* gives a value, not an error, for bad JSON */
} every_function[] = {
    {"SELECT wire_json(?1, 'messages')", 0, 0},
    {"SELECT wire_json_sorted(?1)", 0, 0},
    {"SELECT canonical_json(?1)", 0, 0},
    {"SELECT canonical_arguments(?1)", 0, 1},
    {"SELECT data_digest(?1)", 0, 0},
    {"SELECT message_digest(?1, 'x')", 0, 0},
    {"SELECT messages_digest(?1)", 1, 0},
    {"SELECT wirejson_error(?1)", 0, 1},
    {"SELECT with_top_level('{\"a\":0}', 'a', ?1)", 0, 1}, /* quoted */
    {"SELECT with_top_level(?1, 'a', 1)", 0, 1},
    {"SELECT tool_schemas(?1, 'a')", 0, 0},
    {"SELECT encode_with_schemas(?1, '[]')", 0, 0},
    {"WITH t(m) AS (VALUES (?1), (?1)) SELECT messages_digest_agg(m) FROM t",
     0, 0},
};

/* 1,000 containers deep: {"a":[{"a":[ ... 1 ... ]}]} as an object, or
 * [{"a":[ ... {} ... ]}] as an array of messages; *len set. */
static char *nested(int array, size_t *len)
{
    const size_t pairs = 499;
    char *s = xmalloc(pairs * 8 + 16), *p = s;
    size_t k;
    memcpy(p, array ? "[" : "{\"a\":[", array ? 1 : 6);
    p += array ? 1 : 6;
    for (k = 0; k < pairs; k++, p += 6)
        memcpy(p, "{\"a\":[", 6);
    memcpy(p, array ? "{}" : "1", array ? 2 : 1);
    p += array ? 2 : 1;
    for (k = 0; k < pairs; k++, p += 2)
        memcpy(p, "]}", 2);
    memcpy(p, array ? "]" : "]}", array ? 1 : 2);
    p += array ? 1 : 2;
    *len = (size_t)(p - s);
    return s;
}

static void *small_stack_thread(void *arg)
{
    const size_t deep_len = 10000000;
    sqlite3 *db = open_db(0);
    size_t k, len[2], out_len;
    char *json[2], *deep = xmalloc(deep_len);
    int rc;

    (void)arg;
    json[0] = nested(0, &len[0]);
    json[1] = nested(1, &len[1]);
    memset(deep, '[', deep_len);
    for (k = 0; k < sizeof every_function / sizeof *every_function; k++) {
        int a = every_function[k].array;
        rc = run(db, every_function[k].sql, json[a], len[a], NULL, &out_len);
        CHECK(rc == SQLITE_ROW);
        if (rc != SQLITE_ROW)
            fprintf(stderr, "  %s, 1000 deep: %s\n", every_function[k].sql,
                    sqlite3_errmsg(db));
        rc = run(db, every_function[k].sql, deep, deep_len, NULL, &out_len);
        CHECK(rc == (every_function[k].row_when_too_deep ? SQLITE_ROW
                                                          : SQLITE_ERROR));
        if (rc != (every_function[k].row_when_too_deep ? SQLITE_ROW
                                                        : SQLITE_ERROR))
            fprintf(stderr, "  %s, 10,000,000 '[': %s\n",
                    every_function[k].sql, sqlite3_errmsg(db));
    }
    free(deep);
    free(json[0]);
    free(json[1]);
    sqlite3_close(db);
    return NULL;
}

static void test_small_stack(void)
{
    pthread_attr_t attr;
    pthread_t thread;

    CHECK(pthread_attr_init(&attr) == 0);
    CHECK(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
    CHECK(pthread_create(&thread, &attr, small_stack_thread, NULL) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    pthread_attr_destroy(&attr);
}

int main(int argc, char **argv)
{
    long divisor = argc > 1 ? atol(argv[1]) : 1;
    if (divisor > 1)
        quote_bytes /= (size_t)divisor;
    if (sqlite3_auto_extension((void (*)(void))sqlite3_wirejson_init) !=
        SQLITE_OK) {
        fprintf(stderr, "sql_limits: cannot register the functions\n");
        return 2;
    }
    test_at_limit();
    test_result_over_limit();
    test_quote_100mb();
    test_small_stack();
    return check_report("sql_limits");
}
