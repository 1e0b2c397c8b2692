/* SPDX-License-Identifier: MIT */
/*
 * sql_huge.c - valid inputs near SQLite's length limit work in the SQL
 * functions when the machine has the memory (docs/contract.md §8), and a result that
 * would be too long is SQLITE_TOOBIG, never SQLITE_NOMEM:
 *
 *   zeros     an array of 75,000,000 zeros (150 MB, which SQLite's json()
 *             takes) through data_digest and wire_json: the parser's node
 *             array must not double past what the input can need, nor ask
 *             sqlite3_malloc64 for 0x7fffff00 bytes or more, which it
 *             refuses whatever memory is free;
 *   string    a string of 960,000,000 bytes through wire_json,
 *             canonical_json and data_digest: the output buffer must not be
 *             reserved or doubled past what the allocator serves;
 *   toobig    tool_schemas whose result is longer than a lowered
 *             SQLITE_LIMIT_LENGTH, at the limit and one byte over it;
 *   toobig2g  tool_schemas on a body at SQLite's default limit whose result
 *             would need more than the 2 GiB sqlite3_malloc64 serves.
 *
 * Expected digests are libcrypto's SHA256() of the bytes the canonical
 * rendering must be (for these inputs, the input itself); expected lengths
 * and bytes are built from the inputs' patterns.
 *
 *   usage: hardening_sql_huge zeros|string|toobig|toobig2g
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"

#include <openssl/sha.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "sql_huge: cannot allocate %zu bytes\n", n);
        exit(2);
    }
    return p;
}

static sqlite3 *open_db(int limit)
{
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "sql_huge: cannot open a database\n");
        exit(2);
    }
    if (limit)
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limit);
    return db;
}

static void sha256_hex(const void *data, size_t len, char hex[65])
{
    unsigned char md[SHA256_DIGEST_LENGTH];
    int k;
    SHA256(data, len, md);
    for (k = 0; k < SHA256_DIGEST_LENGTH; k++)
        snprintf(hex + 2 * k, 3, "%02x", md[k]);
}

/* Runs sql with ?1 bound to text[0..len); returns the step's result code.
 * For a row, checks the first column: its length is want_len, and it
 * starts with head and ends with tail (both may be NULL). */
static int run(sqlite3 *db, const char *sql, const char *text, size_t len,
               size_t want_len, const char *head, const char *tail)
{
    sqlite3_stmt *stmt;
    double t = seconds();
    int rc;

    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        fprintf(stderr, "cannot prepare %s: %s\n", sql, sqlite3_errmsg(db));
        return SQLITE_ERROR;
    }
    rc = sqlite3_bind_text64(stmt, 1, text, len, SQLITE_STATIC, SQLITE_UTF8);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(stmt, 0);
        size_t n = (size_t)sqlite3_column_bytes(stmt, 0);
        CHECK(v != NULL && n == want_len);
        if (v && head)
            CHECK(n >= strlen(head) && memcmp(v, head, strlen(head)) == 0);
        if (v && tail)
            CHECK(n >= strlen(tail) &&
                  memcmp(v + n - strlen(tail), tail, strlen(tail)) == 0);
    } else {
        fprintf(stderr, "  %s: %s (%d)\n", sql, sqlite3_errmsg(db), rc);
    }
    sqlite3_finalize(stmt);
    printf("  %-44s %6.2f s\n", sql, seconds() - t);
    return rc;
}

/* ------------------------------------------------ 75 million zeros */

static void test_zeros(void)
{
    const size_t n = 75000000, len = 2 * n + 1; /* "[0,0,...,0]" */
    char *json = xmalloc(len + 1), hex[65];
    sqlite3 *db = open_db(0);
    size_t k;

    json[0] = '[';
    for (k = 0; k < n; k++) {
        json[1 + 2 * k] = '0';
        json[2 + 2 * k] = ',';
    }
    json[len - 1] = ']';
    json[len] = '\0';
    /* the canonical JSON of the array is the array itself */
    sha256_hex(json, len, hex);
    CHECK(run(db, "SELECT data_digest(?1)", json, len, 64, hex, NULL) ==
          SQLITE_ROW);
    CHECK(run(db, "SELECT wire_json(?1)", json, len, len, "[0,0,", ",0,0]") ==
          SQLITE_ROW);
    sqlite3_close(db);
    free(json);
}

/* ---------------------------------------- a string of 960,000,000 bytes */

static void test_string(void)
{
    const size_t len = 960000000;
    char *json = xmalloc(len + 1), hex[65];
    sqlite3 *db = open_db(0);

    /* "ab/...ab/" with a raw 'é' in the middle: no escape, one UTF-8 run */
    memset(json, 'a', len);
    json[0] = '"';
    memcpy(json + len / 2, "\xc3\xa9/", 3);
    json[len - 1] = '"';
    json[len] = '\0';
    sha256_hex(json, len, hex);
    CHECK(run(db, "SELECT wire_json(?1)", json, len, len, "\"aaa", "aaa\"") ==
          SQLITE_ROW);
    CHECK(run(db, "SELECT canonical_json(?1)", json, len, len, "\"aaa",
              "aaa\"") == SQLITE_ROW);
    CHECK(run(db, "SELECT data_digest(?1)", json, len, 64, hex, NULL) ==
          SQLITE_ROW);
    sqlite3_close(db);
    free(json);
}

/* ------------------------------------------ tool_schemas over the limit */

/* {"tools":[{"p":"\"\"...\""}]} with q escaped quotes in the string: its
 * tool_schemas(body, 'p') is ["\"\\\"...\""], each \" becoming \\\". */
static char *quoted_quotes(size_t q, const char *mark, size_t *len)
{
    static const char head[] = "{\"tools\":[{\"p\":\"", tail[] = "\"}]}";
    size_t unit = 2 + strlen(mark);
    char *s = xmalloc(sizeof head + q * unit + sizeof tail), *p = s;
    size_t k;
    memcpy(p, head, sizeof head - 1);
    p += sizeof head - 1;
    for (k = 0; k < q; k++, p += unit) {
        memcpy(p, "\\\"", 2);
        memcpy(p + 2, mark, strlen(mark));
    }
    memcpy(p, tail, sizeof tail);
    *len = (size_t)(p - s) + sizeof tail - 1;
    return s;
}

static void test_toobig(void)
{
    /* the result is ["\"" + q * \\\" + "\""]: 8 + 4q bytes */
    const int limit = 1000000;
    const size_t q = (limit - 8) / 4;
    size_t len;
    char *body = quoted_quotes(q, "", &len);
    sqlite3 *db = open_db(limit);

    CHECK(len < (size_t)limit);
    CHECK(run(db, "SELECT tool_schemas(?1, 'p')", body, len, 8 + 4 * q,
              "[\"\\\"\\\\\\\"", "\\\\\\\"\\\"\"]") == SQLITE_ROW);
    free(body);
    body = quoted_quotes(q + 1, "", &len);
    CHECK(run(db, "SELECT tool_schemas(?1, 'p')", body, len, 0, NULL, NULL) ==
          SQLITE_TOOBIG);
    CHECK(strcmp(sqlite3_errmsg(db), "string or blob too big") == 0);
    free(body);
    sqlite3_close(db);
}

/* At SQLite's default limit, a result past what sqlite3_malloc64 serves:
 * each \" followed by U+0301 (4 bytes) becomes \\\"\u0301 (10 bytes), so a
 * body of 900 MB would give 2.25 GB. */
static void test_toobig_2g(void)
{
    const size_t q = 225000000;
    size_t len;
    char *body = quoted_quotes(q, "\xcc\x81", &len);
    sqlite3 *db = open_db(0);

    CHECK(run(db, "SELECT tool_schemas(?1, 'p')", body, len, 0, NULL, NULL) ==
          SQLITE_TOOBIG);
    CHECK(strcmp(sqlite3_errmsg(db), "string or blob too big") == 0);
    free(body);
    sqlite3_close(db);
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "";
    if (sqlite3_auto_extension((void (*)(void))sqlite3_wirejson_init) !=
        SQLITE_OK) {
        fprintf(stderr, "sql_huge: cannot register the functions\n");
        return 2;
    }
    if (strcmp(part, "zeros") == 0)
        test_zeros();
    else if (strcmp(part, "string") == 0)
        test_string();
    else if (strcmp(part, "toobig") == 0)
        test_toobig();
    else if (strcmp(part, "toobig2g") == 0)
        test_toobig_2g();
    else {
        fprintf(stderr, "usage: %s zeros|string|toobig|toobig2g\n", argv[0]);
        return 2;
    }
    return check_report("sql_huge");
}
