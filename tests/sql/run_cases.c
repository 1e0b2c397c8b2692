/* SPDX-License-Identifier: MIT */
/*
 * run_cases.c - runs tests/sql/cases.txt against the wirejson functions
 * linked into the program (wirejson_sqlite_static, registered for every
 * connection with sqlite3_auto_extension), the way a C program embeds them.
 *
 *   usage: sql_run_cases PATH/TO/cases.txt
 *
 * The case format is described at the top of cases.txt; run_cases.py reads
 * the same file through the loadable extension.  Each case runs on a fresh
 * in-memory database.  The run fails on a wrong value, an unexpected NULL or
 * error, a case that cannot be read, a duplicate ID, a case count that does
 * not match the file's "== END n" line, and an expected failure that is not
 * listed in FINDINGS.md or that passes.  The last line printed is
 * "N passed, N failed, N skipped" (skipped: expected failures).
 */
#include <sqlite3.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sqlite3_wirejson_init(sqlite3 *db, char **pzErrMsg,
                          const sqlite3_api_routines *pApi);

enum expect {
    EXPECT_NONE,
    EXPECT_TEXT,
    EXPECT_INT,
    EXPECT_NULL,
    EXPECT_ERROR_PREFIX,
    EXPECT_ERROR_EXACT,
    EXPECT_ERROR_CONTAINS
};

struct sql_case {
    char id[32];
    const char *title;  /* points into the file buffer */
    int line;           /* line of the "== ID" header */
    char *sql;          /* the SQL lines joined with '\n' (malloc'd) */
    size_t sql_len;
    const char *xfail;  /* NULL, or the reason */
    const char *valgrind; /* NULL, or why the value is unchecked there */
    long limit_length;  /* -1: SQLite's default */
    enum expect kind;
    const char *value;  /* expected text or error message */
    long long int_value;
};

struct result {
    int is_error;     /* the statements failed: message holds the error */
    int type;         /* SQLITE_TEXT, SQLITE_INTEGER, ... of the single row */
    int n_rows;       /* rows of the last statement */
    char *bytes;      /* TEXT bytes, or the error message (malloc'd) */
    size_t len;
    long long int_value;
};

static int n_passed, n_failed, n_skipped, n_unchecked;

/* Set (WIREJSON_VALGRIND in the environment) when the run is under
 * valgrind, whose x87 emulation computes long double as double: SQLite
 * 3.40 reads REAL literals in long double, so a case marked "valgrind:"
 * runs (under memcheck) without its value being compared. */
static int under_valgrind;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;

    if (!f)
        return NULL;
    for (;;) {
        size_t got;
        if (n + 4096 + 1 > cap) {
            char *grown;
            cap = cap ? cap * 2 : 65536;
            grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, 4096, f);
        n += got;
        if (got < 4096)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void fail_file(const char *what, int line)
{
    printf("FAIL cases file: line %d: %s\n", line, what);
    n_failed++;
}

static void append_sql(struct sql_case *c, const char *line)
{
    size_t n = strlen(line);
    char *grown = realloc(c->sql, c->sql_len + n + 2);
    if (!grown) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    c->sql = grown;
    memcpy(c->sql + c->sql_len, line, n);
    c->sql_len += n;
    c->sql[c->sql_len++] = '\n';
    c->sql[c->sql_len] = '\0';
}

/* Reads one expectation or directive line into c.  Returns 1 for an
 * expectation (the case is complete), 0 for a directive, -1 for SQL. */
static int read_expectation(struct sql_case *c, const char *line)
{
    if (starts_with(line, "xfail:")) {
        c->xfail = line + 6;
        while (*c->xfail == ' ')
            c->xfail++;
        return 0;
    }
    if (starts_with(line, "valgrind:")) {
        c->valgrind = line + 9;
        while (*c->valgrind == ' ')
            c->valgrind++;
        return 0;
    }
    if (starts_with(line, "limit_length: ")) {
        c->limit_length = strtol(line + 14, NULL, 10);
        return 0;
    }
    if (starts_with(line, "text: ") || strcmp(line, "text:") == 0) {
        c->kind = EXPECT_TEXT;
        c->value = line[5] ? line + 6 : "";
    } else if (starts_with(line, "int: ")) {
        c->kind = EXPECT_INT;
        c->int_value = strtoll(line + 5, NULL, 10);
    } else if (strcmp(line, "null") == 0) {
        c->kind = EXPECT_NULL;
    } else if (starts_with(line, "error: ")) {
        c->kind = EXPECT_ERROR_PREFIX;
        c->value = line + 7;
    } else if (starts_with(line, "error= ")) {
        c->kind = EXPECT_ERROR_EXACT;
        c->value = line + 7;
    } else if (starts_with(line, "error~ ")) {
        c->kind = EXPECT_ERROR_CONTAINS;
        c->value = line + 7;
    } else {
        return -1;
    }
    return 1;
}

/* Splits the file (modified in place: lines are NUL-terminated) into cases.
 * Returns the number read; *declared is the "== END n" count or -1. */
static size_t parse_cases(char *text, struct sql_case **out, long *declared)
{
    struct sql_case *cases = NULL, *c = NULL;
    size_t n = 0, cap = 0;
    int line_no = 0;
    char *p = text;

    *declared = -1;
    while (*p) {
        char *line = p, *nl = strchr(p, '\n');
        if (nl) {
            *nl = '\0';
            p = nl + 1;
        } else {
            p += strlen(p);
        }
        line_no++;
        if (!c) {
            char *id_end;
            size_t id_len;
            if (line[0] == '\0' || line[0] == '#')
                continue;
            if (starts_with(line, "== END ")) {
                *declared = strtol(line + 7, NULL, 10);
                break;
            }
            if (!starts_with(line, "== ") || line[3] == '\0' || line[3] == ' ') {
                fail_file("expected '== ID'", line_no);
                continue;
            }
            if (n == cap) {
                struct sql_case *grown;
                cap = cap ? cap * 2 : 256;
                grown = realloc(cases, cap * sizeof *cases);
                if (!grown) {
                    fprintf(stderr, "out of memory\n");
                    exit(2);
                }
                cases = grown;
            }
            c = &cases[n];
            memset(c, 0, sizeof *c);
            c->limit_length = -1;
            c->line = line_no;
            id_end = strchr(line + 3, ' ');
            id_len = id_end ? (size_t)(id_end - (line + 3)) : strlen(line + 3);
            if (id_len >= sizeof c->id)
                id_len = sizeof c->id - 1;
            memcpy(c->id, line + 3, id_len);
            c->title = id_end ? id_end + 1 : "";
            continue;
        }
        if (starts_with(line, "== ")) {
            fail_file("a case has no expectation", line_no);
            free(c->sql);
            c = NULL;
            continue;
        }
        switch (read_expectation(c, line)) {
        case -1:
            append_sql(c, line);
            break;
        case 1:
            if (!c->sql)
                fail_file("a case has no SQL", line_no);
            n++;
            c = NULL;
            break;
        default:
            break;
        }
    }
    if (c) {
        fail_file("the last case is cut off", line_no);
        free(c->sql);
    }
    *out = cases;
    return n;
}

static void set_error(struct result *r, const char *msg)
{
    size_t n = strlen(msg);
    free(r->bytes);
    r->is_error = 1;
    r->bytes = malloc(n + 1);
    if (!r->bytes) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(r->bytes, msg, n + 1);
    r->len = n;
}

/* Runs every statement of the case on a fresh database; the result is the
 * last statement's rows (the first row's first column kept). */
static void run_case(const struct sql_case *c, struct result *r)
{
    sqlite3 *db = NULL;
    const char *tail = c->sql;

    memset(r, 0, sizeof *r);
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        set_error(r, db ? sqlite3_errmsg(db) : "cannot open a database");
        sqlite3_close(db);
        return;
    }
    if (c->limit_length >= 0)
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, (int)c->limit_length);
    while (tail && *tail) {
        sqlite3_stmt *stmt = NULL;
        int rc = sqlite3_prepare_v2(db, tail, -1, &stmt, &tail);
        if (rc != SQLITE_OK) {
            set_error(r, sqlite3_errmsg(db));
            break;
        }
        if (!stmt)
            break; /* only whitespace or comments left */
        r->n_rows = 0;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            if (r->n_rows++ == 0) {
                r->type = sqlite3_column_type(stmt, 0);
                free(r->bytes);
                r->bytes = NULL;
                r->len = 0;
                if (r->type == SQLITE_INTEGER) {
                    r->int_value = sqlite3_column_int64(stmt, 0);
                } else if (r->type == SQLITE_TEXT || r->type == SQLITE_BLOB) {
                    const void *p = r->type == SQLITE_TEXT
                                        ? (const void *)sqlite3_column_text(stmt, 0)
                                        : sqlite3_column_blob(stmt, 0);
                    r->len = (size_t)sqlite3_column_bytes(stmt, 0);
                    r->bytes = malloc(r->len + 1);
                    if (!r->bytes) {
                        fprintf(stderr, "out of memory\n");
                        exit(2);
                    }
                    if (r->len)
                        memcpy(r->bytes, p, r->len);
                    r->bytes[r->len] = '\0';
                }
            }
        }
        if (rc != SQLITE_DONE) {
            set_error(r, sqlite3_errmsg(db));
            sqlite3_finalize(stmt);
            break;
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
}

/* Prints bytes with non-printable ones as \xNN. */
static void print_bytes(const char *p, size_t n)
{
    size_t k;
    putchar('\'');
    for (k = 0; k < n; k++) {
        unsigned char ch = (unsigned char)p[k];
        if (ch < 0x20 || ch == 0x7F)
            printf("\\x%02x", ch);
        else
            putchar(ch);
    }
    putchar('\'');
}

static void print_result(const struct result *r)
{
    if (r->is_error) {
        printf("error ");
        print_bytes(r->bytes, r->len);
    } else if (r->n_rows != 1) {
        printf("%d rows, not 1", r->n_rows);
    } else if (r->type == SQLITE_NULL) {
        printf("NULL");
    } else if (r->type == SQLITE_INTEGER) {
        printf("integer %lld", r->int_value);
    } else if (r->type == SQLITE_TEXT) {
        printf("text ");
        print_bytes(r->bytes, r->len);
    } else if (r->type == SQLITE_BLOB) {
        printf("blob ");
        print_bytes(r->bytes, r->len);
    } else {
        printf("a REAL");
    }
}

/* 1 when the result is what the case expects. */
static int result_matches(const struct sql_case *c, const struct result *r)
{
    size_t n;
    switch (c->kind) {
    case EXPECT_ERROR_PREFIX:
        n = strlen(c->value);
        return r->is_error && r->len >= n && memcmp(r->bytes, c->value, n) == 0;
    case EXPECT_ERROR_EXACT:
        return r->is_error && r->len == strlen(c->value) &&
               memcmp(r->bytes, c->value, r->len) == 0;
    case EXPECT_ERROR_CONTAINS:
        return r->is_error && strstr(r->bytes, c->value) != NULL;
    default:
        break;
    }
    if (r->is_error || r->n_rows != 1)
        return 0;
    switch (c->kind) {
    case EXPECT_NULL:
        return r->type == SQLITE_NULL;
    case EXPECT_INT:
        return r->type == SQLITE_INTEGER && r->int_value == c->int_value;
    case EXPECT_TEXT:
        return r->type == SQLITE_TEXT && r->len == strlen(c->value) &&
               memcmp(r->bytes, c->value, r->len) == 0;
    default:
        return 0;
    }
}

static void print_expected(const struct sql_case *c)
{
    switch (c->kind) {
    case EXPECT_TEXT:
        printf("text ");
        print_bytes(c->value, strlen(c->value));
        break;
    case EXPECT_INT:
        printf("integer %lld", c->int_value);
        break;
    case EXPECT_NULL:
        printf("NULL");
        break;
    case EXPECT_ERROR_PREFIX:
        printf("an error starting ");
        print_bytes(c->value, strlen(c->value));
        break;
    case EXPECT_ERROR_CONTAINS:
        printf("an error containing ");
        print_bytes(c->value, strlen(c->value));
        break;
    default:
        printf("error ");
        print_bytes(c->value, strlen(c->value));
        break;
    }
}

/* 1 when text holds id as a word of its own (not part of a longer ID). */
static int mentions_id(const char *text, const char *id)
{
    size_t n = strlen(id);
    const char *p = text;
    while ((p = strstr(p, id)) != NULL) {
        int before = p == text || !isalnum((unsigned char)p[-1]);
        int after = !isalnum((unsigned char)p[n]);
        if (before && after)
            return 1;
        p += n;
    }
    return 0;
}

static void check_case(const struct sql_case *c, const char *findings,
                       const char *file_name)
{
    struct result r;
    int ok;

    run_case(c, &r);
    ok = result_matches(c, &r);
    if (c->valgrind && under_valgrind) {
        n_unchecked++;
    } else if (c->xfail) {
        if (!mentions_id(findings, c->id)) {
            printf("FAIL %s: marked xfail but not listed in FINDINGS.md\n", c->id);
            n_failed++;
        } else if (ok) {
            printf("FAIL %s: marked xfail but passes: remove the mark\n", c->id);
            n_failed++;
        } else {
            printf("XFAIL %s (%s): got ", c->id, c->xfail);
            print_result(&r);
            putchar('\n');
            n_skipped++;
        }
    } else if (ok) {
        n_passed++;
    } else {
        printf("FAIL %s %s (%s:%d): expected ", c->id, c->title, file_name,
               c->line);
        print_expected(c);
        printf(", got ");
        print_result(&r);
        putchar('\n');
        n_failed++;
    }
    free(r.bytes);
}

/* FINDINGS.md beside the cases file. */
static char *read_findings(const char *cases_path)
{
    const char *slash = strrchr(cases_path, '/');
    size_t dir = slash ? (size_t)(slash - cases_path) + 1 : 0, len;
    char *path = malloc(dir + sizeof "FINDINGS.md"), *text;
    if (!path)
        return NULL;
    memcpy(path, cases_path, dir);
    memcpy(path + dir, "FINDINGS.md", sizeof "FINDINGS.md");
    text = read_file(path, &len);
    free(path);
    return text;
}

int main(int argc, char **argv)
{
    struct sql_case *cases;
    size_t n, k, j;
    long declared;
    char *text, *findings;
    const char *file_name;
    size_t len;

    under_valgrind = getenv("WIREJSON_VALGRIND") != NULL;
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/TO/cases.txt\n", argv[0]);
        return 2;
    }
    file_name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
    text = read_file(argv[1], &len);
    findings = read_findings(argv[1]);
    if (!text || !findings) {
        fprintf(stderr, "%s: cannot read %s or the FINDINGS.md beside it\n",
                argv[0], argv[1]);
        return 2;
    }
    if (sqlite3_auto_extension((void (*)(void))sqlite3_wirejson_init) !=
        SQLITE_OK) {
        fprintf(stderr, "%s: cannot register the wirejson functions\n", argv[0]);
        return 2;
    }
    n = parse_cases(text, &cases, &declared);
    if (declared < 0) {
        printf("FAIL cases file: no '== END n' line: the file is cut off\n");
        n_failed++;
    } else if ((size_t)declared != n) {
        printf("FAIL cases file: '== END %ld' but %zu cases read\n", declared, n);
        n_failed++;
    }
    for (k = 0; k < n; k++)
        for (j = 0; j < k; j++)
            if (strcmp(cases[j].id, cases[k].id) == 0) {
                printf("FAIL cases file: duplicate case ID %s\n", cases[k].id);
                n_failed++;
            }
    for (k = 0; k < n; k++) {
        check_case(&cases[k], findings, file_name);
        free(cases[k].sql);
    }
    if (n_skipped)
        printf("%d expected failures, listed in FINDINGS.md\n", n_skipped);
    if (n_unchecked)
        printf("%d cases run under valgrind without checking their value "
               "(marked valgrind:)\n",
               n_unchecked);
    printf("%d passed, %d failed, %d skipped\n", n_passed, n_failed, n_skipped);
    free(cases);
    free(text);
    free(findings);
    return n_failed ? 1 : 0;
}
