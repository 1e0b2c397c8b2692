/* SPDX-License-Identifier: MIT */
/*
 * test_threads.c - the concurrency test (docs/contract.md §8, thread safety): eight
 * threads, each with its own connection to one shared database file, run
 * every case of thread_cases.txt (every wirejson SQL function, on inputs all
 * threads share) many times and check every result.  The threads start
 * together at a barrier, so first calls race too.  Linked with
 * wirejson_sqlite_static (SQLITE_CORE); ctest also runs it under helgrind.
 *
 *   usage: test_threads CASES_FILE DB_FILE [ITERATIONS]   (default 2000)
 *
 * Prints one line with the number of results checked and wrong; exits 1
 * when any result is wrong or anything fails to run.
 */
#define _POSIX_C_SOURCE 200809L

#include <sqlite3.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wirejson.h"

int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

#define N_THREADS 8
#define MAX_CASES 64
#define MAX_MESSAGES 64

enum want { WANT_TEXT, WANT_NULL, WANT_PREFIX, WANT_ERROR, WANT_VERSION };

struct tcase {
    int line;          /* of the "case:" line, for messages */
    const char *sql;   /* these point into the file buffer */
    const char *arg;   /* NULL: nothing to bind */
    enum want want;
    const char *value; /* expected text, prefix or error prefix */
};

struct cases {
    struct tcase cases[MAX_CASES];
    int n_cases;
    const char *messages[MAX_MESSAGES]; /* NULL: a NULL row */
    int n_messages;
};

struct worker {
    pthread_t thread;
    int id;
    const struct cases *cases;
    const char *db_path;
    long iterations;
    long checked;
    long wrong;
    char first_problem[600];
};

static pthread_barrier_t start_line;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long size;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0 || !(buf = malloc((size_t)size + 1))) {
        fclose(f);
        return NULL;
    }
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[size] = '\0';
    fclose(f);
    return buf;
}

/* The text after "key: " when line starts with it, else NULL. */
static const char *field(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) != 0 || line[n] != ':' || line[n + 1] != ' ')
        return NULL;
    return line + n + 2;
}

/* Splits buf (modified in place) into cases and messages.  Returns 0, or
 * -1 after printing what is wrong with the file. */
static int parse_cases(char *buf, struct cases *out)
{
    struct tcase *c = NULL;
    int line_no = 0;
    char *line = buf;
    memset(out, 0, sizeof *out);
    while (line && *line) {
        char *end = strchr(line, '\n');
        const char *v;
        if (end)
            *end = '\0';
        line_no++;
        if (line[0] == '#' || line[0] == '\0') {
            /* comment or separator */
        } else if ((v = field(line, "message")) || !strcmp(line, "message-null")) {
            if (out->n_messages == MAX_MESSAGES)
                goto bad;
            out->messages[out->n_messages++] = v;
        } else if ((v = field(line, "case"))) {
            if (out->n_cases == MAX_CASES)
                goto bad;
            c = &out->cases[out->n_cases++];
            c->line = line_no;
            c->sql = v;
            c->want = WANT_TEXT;
            c->value = NULL;
        } else if (!c) {
            goto bad;
        } else if ((v = field(line, "arg"))) {
            c->arg = v;
        } else if ((v = field(line, "want"))) {
            c->value = v;
        } else if ((v = field(line, "want-prefix"))) {
            c->want = WANT_PREFIX;
            c->value = v;
        } else if ((v = field(line, "want-error"))) {
            c->want = WANT_ERROR;
            c->value = v;
        } else if (!strcmp(line, "want-null")) {
            c->want = WANT_NULL;
            c->value = "";
        } else if (!strcmp(line, "want-version")) {
            c->want = WANT_VERSION;
            c->value = wj_version();
        } else if (!field(line, "source")) {
            goto bad;
        }
        line = end ? end + 1 : NULL;
    }
    for (int k = 0; k < out->n_cases; k++) {
        if (!out->cases[k].value) {
            fprintf(stderr, "cases line %d: no expectation\n", out->cases[k].line);
            return -1;
        }
    }
    if (out->n_cases == 0) {
        fprintf(stderr, "cases: no case\n");
        return -1;
    }
    return 0;
bad:
    fprintf(stderr, "cases line %d: cannot read \"%s\"\n", line_no, line);
    return -1;
}

/* Writes the shared table msgs(p, m) that the aggregate cases read. */
static int make_database(const char *path, const struct cases *cs)
{
    sqlite3 *db;
    sqlite3_stmt *insert = NULL;
    int rc;
    remove(path);
    rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "CREATE TABLE msgs (p INTEGER PRIMARY KEY, m TEXT)",
                          NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "INSERT INTO msgs VALUES (?1, ?2)", -1,
                                &insert, NULL);
    for (int k = 0; rc == SQLITE_OK && k < cs->n_messages; k++) {
        sqlite3_bind_int(insert, 1, k);
        if (cs->messages[k])
            sqlite3_bind_text(insert, 2, cs->messages[k], -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(insert, 2);
        rc = sqlite3_step(insert) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        sqlite3_reset(insert);
    }
    if (rc != SQLITE_OK)
        fprintf(stderr, "%s: %s\n", path, sqlite3_errmsg(db));
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

/* Runs one case on a prepared statement; returns NULL when the result is
 * what the case wants, else a description (in buf) of what came back. */
static const char *run_case(sqlite3 *db, sqlite3_stmt *stmt,
                            const struct tcase *c, char *buf, size_t size)
{
    const char *got = NULL;
    int rc, type = SQLITE_NULL, ok;

    if (c->arg)
        sqlite3_bind_text(stmt, 1, c->arg, -1, SQLITE_STATIC);
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        type = sqlite3_column_type(stmt, 0);
        got = (const char *)sqlite3_column_text(stmt, 0);
    } else {
        got = sqlite3_errmsg(db);
    }
    switch (c->want) {
    case WANT_TEXT:
    case WANT_VERSION:
        ok = rc == SQLITE_ROW && type == SQLITE_TEXT && !strcmp(got, c->value);
        break;
    case WANT_PREFIX:
        ok = rc == SQLITE_ROW && type == SQLITE_TEXT &&
             !strncmp(got, c->value, strlen(c->value));
        break;
    case WANT_NULL:
        ok = rc == SQLITE_ROW && type == SQLITE_NULL;
        break;
    default: /* WANT_ERROR */
        ok = rc != SQLITE_ROW && rc != SQLITE_DONE &&
             !strncmp(got, c->value, strlen(c->value));
        break;
    }
    if (!ok)
        snprintf(buf, size, "case line %d: %s %s", c->line,
                 rc == SQLITE_ROW ? "got" : "failed:",
                 got ? got : type == SQLITE_NULL ? "NULL" : "(no text)");
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return ok ? NULL : buf;
}

static void note_problem(struct worker *w, const char *what)
{
    if (!w->first_problem[0])
        snprintf(w->first_problem, sizeof w->first_problem, "thread %d: %s",
                 w->id, what);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    const struct cases *cs = w->cases;
    sqlite3_stmt *stmts[MAX_CASES] = {NULL};
    sqlite3 *db = NULL;
    char *err = NULL;
    char buf[512];
    int k;

    if (sqlite3_open_v2(w->db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_wirejson_init(db, &err, NULL) != SQLITE_OK) {
        note_problem(w, err ? err : sqlite3_errmsg(db));
        w->wrong++;
    }
    for (k = 0; !w->wrong && k < cs->n_cases; k++) {
        if (sqlite3_prepare_v2(db, cs->cases[k].sql, -1, &stmts[k], NULL) != SQLITE_OK) {
            snprintf(buf, sizeof buf, "case line %d: %s", cs->cases[k].line,
                     sqlite3_errmsg(db));
            note_problem(w, buf);
            w->wrong++;
        }
    }
    pthread_barrier_wait(&start_line);
    for (long i = 0; !w->wrong && i < w->iterations; i++) {
        for (k = 0; k < cs->n_cases; k++) {
            /* Each thread walks the cases from its own starting point, so
             * different functions run side by side. */
            int which = (k + w->id * 3) % cs->n_cases;
            const char *problem = run_case(db, stmts[which], &cs->cases[which],
                                           buf, sizeof buf);
            w->checked++;
            if (problem) {
                note_problem(w, problem);
                w->wrong++;
            }
        }
    }
    for (k = 0; k < cs->n_cases; k++)
        sqlite3_finalize(stmts[k]);
    sqlite3_free(err);
    sqlite3_close(db);
    return NULL;
}

int main(int argc, char **argv)
{
    struct cases *cs = malloc(sizeof *cs);
    struct worker workers[N_THREADS];
    long iterations = argc > 3 ? strtol(argv[3], NULL, 10) : 2000;
    long checked = 0, wrong = 0, expected;
    char *text;
    int k;

    if (argc < 3 || argc > 4 || iterations <= 0 || !cs) {
        fprintf(stderr, "usage: test_threads CASES_FILE DB_FILE [ITERATIONS]\n");
        return 2;
    }
    /* Without memory statistics sqlite3_malloc takes no global mutex, whose
     * lock/unlock pairs would otherwise order every two threads' work and
     * hide races from a happens-before detector such as ThreadSanitizer. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    text = read_file(argv[1]);
    if (!text) {
        perror(argv[1]);
        return 1;
    }
    if (parse_cases(text, cs) != 0 || make_database(argv[2], cs) != 0)
        return 1;
    if (pthread_barrier_init(&start_line, NULL, N_THREADS) != 0)
        return 1;
    for (k = 0; k < N_THREADS; k++) {
        workers[k] = (struct worker){.id = k, .cases = cs, .db_path = argv[2],
                                     .iterations = iterations};
        if (pthread_create(&workers[k].thread, NULL, work, &workers[k]) != 0) {
            fprintf(stderr, "test_threads: cannot start thread %d\n", k);
            return 1;
        }
    }
    for (k = 0; k < N_THREADS; k++) {
        pthread_join(workers[k].thread, NULL);
        checked += workers[k].checked;
        wrong += workers[k].wrong;
        if (workers[k].first_problem[0])
            fprintf(stderr, "%s\n", workers[k].first_problem);
    }
    pthread_barrier_destroy(&start_line);
    printf("test_threads: %d threads x %ld iterations x %d cases: "
           "%ld results checked, %ld wrong\n",
           N_THREADS, iterations, cs->n_cases, checked, wrong);
    expected = (long)N_THREADS * iterations * cs->n_cases;
    free(text);
    free(cs);
    return wrong || checked != expected;
}
