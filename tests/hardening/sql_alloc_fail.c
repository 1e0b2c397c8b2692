/* SPDX-License-Identifier: MIT */
/*
 * sql_alloc_fail.c - the SQL functions under allocation failure.  SQLite's
 * allocator is replaced (SQLITE_CONFIG_MALLOC, before sqlite3_initialize,
 * lookaside off) by one that counts the allocations made while a statement
 * steps and can fail the n-th; SQLite's benign allocations, which it
 * survives by design, are left alone.  For each statement below: it is
 * prepared, then stepped to the end with the n-th allocation failing, for
 * every n up to the number it makes.  Each such run must stop with
 * SQLITE_NOMEM and, once finalized, leave exactly the allocations it found;
 * one allocation more must give the ordinary rows (or error) again.
 *
 * The functions are linked in (wirejson_sqlite_static) and registered with
 * sqlite3_auto_extension, so that every allocation they make goes through
 * SQLite's allocator.
 */
#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

/* ---------------------------------------------------- a failing allocator */

static sqlite3_mem_methods system_mem;
static int armed;            /* count (and maybe fail) allocations */
static int benign;           /* inside one of SQLite's benign-malloc spans */
static size_t calls, fail_at;
static long live;            /* blocks allocated and not yet freed */

/* SQLite survives a failure of the allocations it marks benign (caches,
 * the copy of an error message): those are neither counted nor failed. */
static void benign_begin(void)
{
    benign++;
}

static void benign_end(void)
{
    benign--;
}

static int refuse(void)
{
    return armed && !benign && ++calls == fail_at;
}

static void *m_malloc(int n)
{
    void *p;
    if (refuse())
        return NULL;
    p = system_mem.xMalloc(n);
    live += p != NULL;
    return p;
}

static void m_free(void *p)
{
    if (p)
        live--;
    system_mem.xFree(p);
}

static void *m_realloc(void *p, int n)
{
    if (refuse())
        return NULL;
    return system_mem.xRealloc(p, n);
}

static int m_size(void *p)
{
    return system_mem.xSize(p);
}

static int m_roundup(int n)
{
    return system_mem.xRoundup(n);
}

static int m_init(void *app)
{
    return system_mem.xInit(app);
}

static void m_shutdown(void *app)
{
    system_mem.xShutdown(app);
}

static const sqlite3_mem_methods failing_mem = {
    m_malloc, m_free, m_realloc, m_size, m_roundup, m_init, m_shutdown, NULL};

/* ------------------------------------------------------------- statements */

#define BODY                                                                 \
    "'{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a\\n"  \
    "\\u0301\"}],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":"  \
    "\"f\",\"parameters\":{ \"type\":\"object\",\"properties\":{\"y\":{},"   \
    "\"x\":{}},\"required\":[\"y\"]}}}],\"\\u00e9\":[1.0,\"\\ud800\"]}'"

static const char *const statements[] = {
    "SELECT wire_json(" BODY ", 'messages', NULL)",
    "SELECT wire_json_sorted(" BODY ")",
    "SELECT canonical_json(" BODY ")",
    "SELECT canonical_json(x'7b2262223a5b315d2c2261223a7b7d7d')",
    "SELECT wire_json(12.5), canonical_json(-0.0), wire_json(42)",
    "SELECT data_digest(" BODY ")",
    "SELECT message_digest('{\"role\":\"user\",\"content\":\"c\",\"name\":"
    "null,\"extra\":{},\"ts\":1}', 'ts')",
    "SELECT messages_digest('[{\"role\":\"system\",\"content\":\"s\"},"
    "{\"role\":\"user\",\"content\":\"u\"}]')",
    "SELECT canonical_arguments('{\"b\":1,\"a\":2}'), "
    "canonical_arguments('{\"a\":')",
    "SELECT with_top_level(" BODY ", 'model', 'plain \"text\"\n\xcc\x81')",
    "SELECT with_top_level(" BODY ", 'model', json('{\"n\":[1,2]}'))",
    "SELECT with_top_level(" BODY ", 'model', 7), "
    "with_top_level(" BODY ", 'model', NULL)",
    "SELECT tool_schemas(" BODY ", 'function', 'parameters')",
    "SELECT encode_with_schemas(" BODY ", tool_schemas(" BODY
    ", 'function', 'parameters'))",
    "SELECT wirejson_error('[1,2'), wirejson_error('{}')",
    "SELECT wirejson_version()",
    "SELECT wire_json('{\"a\":1,\"a\":2}')",
    "SELECT message_digest('[1]')",
    "WITH t(m) AS (VALUES ('{\"role\":\"user\"}'), (NULL), "
    "('{\"role\":\"assistant\",\"content\":\"x\"}')) "
    "SELECT messages_digest_agg(m) FROM t",
    "WITH t(k, m) AS (VALUES (1, '{\"role\":\"user\"}'), (2, '{\"b\":2}'), "
    "(3, '{\"a\":1}')) SELECT messages_digest_agg(m) OVER (ORDER BY k) FROM t",
    "WITH t(k, m) AS (VALUES (1, '{\"a\":1}'), (2, '{\"b\":2}'), "
    "(3, '{\"c\":3}')) SELECT messages_digest_agg(m) OVER (ORDER BY k ROWS "
    "BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
    "WITH t(k, m) AS (VALUES (1, '{\"a\":1}'), (2, '[2]')) "
    "SELECT messages_digest_agg(m) OVER (ORDER BY k) FROM t",
};

/* ------------------------------------------------------------------- runs */

typedef struct outcome {
    int rc;     /* how stepping ended: SQLITE_DONE or an error */
    char *rows; /* every value of every row, as text, '|'-separated */
    size_t len;
} outcome;

static int failures;

static void append(outcome *o, const void *bytes, size_t n)
{
    char *p = realloc(o->rows, o->len + n + 1);
    if (!p) {
        fprintf(stderr, "out of memory in the test itself\n");
        exit(2);
    }
    o->rows = p;
    memcpy(o->rows + o->len, bytes, n);
    o->len += n;
}

/* Prepares sql, steps it to the end with the fail_at-th allocation during
 * stepping failing (0: none), finalizes it.  Returns the allocations that
 * stepping made; *leaked the blocks left over. */
static size_t run(sqlite3 *db, const char *sql, size_t fail, outcome *o,
                  long *leaked)
{
    sqlite3_stmt *stmt = NULL;
    long before = live;
    size_t made;
    int rc, k;

    o->rows = NULL;
    o->len = 0;
    *leaked = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        o->rc = -1;
        return 0;
    }
    calls = 0;
    fail_at = fail;
    armed = 1;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        for (k = 0; k < sqlite3_column_count(stmt); k++) {
            const unsigned char *v = sqlite3_column_text(stmt, k);
            armed = 0; /* the test's own bookkeeping is not counted */
            if (v)
                append(o, v, (size_t)sqlite3_column_bytes(stmt, k));
            append(o, "|", 1);
            armed = 1;
        }
    }
    armed = 0;
    made = calls;
    o->rc = rc;
    if (rc != SQLITE_DONE) {
        const char *msg = sqlite3_errmsg(db);
        append(o, msg, strlen(msg));
    }
    sqlite3_finalize(stmt);
    *leaked = live - before;
    return made;
}

static void check_statement(sqlite3 *db, const char *sql)
{
    outcome base, o;
    long leaked;
    size_t total = run(db, sql, 0, &base, &leaked), n, bad = 0;

    if (base.rc == -1) {
        fprintf(stderr, "%s\n  cannot be prepared: %s\n", sql,
                sqlite3_errmsg(db));
        failures++;
        return;
    }
    if (leaked != 0) {
        fprintf(stderr, "%s\n  leaks %ld blocks without any failure\n", sql,
                leaked);
        bad++;
    }
    for (n = 1; n <= total; n++) {
        run(db, sql, n, &o, &leaked);
        if (o.rc != SQLITE_NOMEM || leaked != 0) {
            if (bad++ < 3)
                fprintf(stderr,
                        "%s\n  allocation %zu of %zu failed: step gave %d "
                        "(%.*s), %ld blocks leaked\n",
                        sql, n, total, o.rc, (int)o.len,
                        o.rows ? o.rows : "", leaked);
        }
        free(o.rows);
    }
    run(db, sql, total + 1, &o, &leaked);
    if (o.rc != base.rc || o.len != base.len ||
        (o.len && memcmp(o.rows, base.rows, o.len) != 0) || leaked != 0) {
        fprintf(stderr, "%s\n  differs once every allocation succeeds\n", sql);
        bad++;
    }
    printf("%4zu allocations, each failing in turn: %s  %.60s\n", total,
           bad ? "FAILED" : "ok", sql);
    failures += bad != 0;
    free(o.rows);
    free(base.rows);
}

int main(void)
{
    sqlite3 *db;
    size_t k;

    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &system_mem) != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_MALLOC, &failing_mem) != SQLITE_OK ||
        sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0) != SQLITE_OK ||
        sqlite3_initialize() != SQLITE_OK ||
        sqlite3_test_control(SQLITE_TESTCTRL_BENIGN_MALLOC_HOOKS,
                             benign_begin, benign_end) != SQLITE_OK ||
        sqlite3_auto_extension((void (*)(void))sqlite3_wirejson_init) !=
            SQLITE_OK ||
        sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "cannot set up SQLite (it must allow "
                        "SQLITE_CONFIG_MALLOC and sqlite3_test_control)\n");
        return 2;
    }
    /* SQLite keeps the connection's last error message in a value it
     * allocates on the first error and reuses after; make it now, large
     * enough for any message below, so that it is not counted as a leak. */
    sqlite3_exec(db, "SELECT wirejson_no_such_function_"
                     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx()",
                 NULL, NULL, NULL);
    for (k = 0; k < sizeof statements / sizeof *statements; k++)
        check_statement(db, statements[k]);
    sqlite3_close(db);
    sqlite3_shutdown();
    printf("sql_alloc_fail: %zu statements, %d failed\n",
           sizeof statements / sizeof *statements, failures);
    return failures != 0;
}
