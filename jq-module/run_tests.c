/* SPDX-License-Identifier: MIT */
/*
 * run_tests.c - the --run-tests runner.
 */
#include "run_tests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bridge.h"
#include "prelude.h"

typedef struct runner {
    wirejq_bridge *bridge;
    FILE *in;
    char *line; /* the line just read, without its newline */
    size_t cap;
    unsigned lineno;
    jq_state *jq;
    int tests, passed, malformed;
    char error[4096]; /* first line of the last "jq: error" message */
} runner;

/* Reads the next line into r->line; 0 at the end of the file. */
static int next_line(runner *r)
{
    ssize_t n = getline(&r->line, &r->cap, r->in);
    if (n < 0)
        return 0;
    r->lineno++;
    if (n > 0 && r->line[n - 1] == '\n')
        r->line[n - 1] = '\0';
    return 1;
}

/* Blank lines and comments separate tests. */
static int is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '#' || *s == '\0' || (*s == '\r' && s[1] == '\0');
}

/* Keeps the first line of the last error that libjq calls a jq error. */
static void capture_error(void *data, jv msg)
{
    runner *r = data;
    msg = jq_format_error(msg);
    if (jv_get_kind(msg) == JV_KIND_STRING &&
        strncmp(jv_string_value(msg), "jq: error", 9) == 0) {
        const char *text = jv_string_value(msg);
        size_t len = strcspn(text, "\n");
        if (len >= sizeof(r->error))
            len = sizeof(r->error) - 1;
        memcpy(r->error, text, len);
        r->error[len] = '\0';
    }
    jv_free(msg);
}

/* A %%FAIL test: the program on the current line must not compile. */
static void fail_test(runner *r, int check_message)
{
    char *program = strdup(r->line);
    int compiled;
    r->error[0] = '\0';
    compiled = wirejq_compile(r->jq, program, jv_object(), capture_error, r);
    if (!next_line(r)) {
        r->malformed++;
    } else if (compiled) {
        printf(
            "*** Test program compiled that should not have at line %u: %s\n",
            r->lineno, program);
        r->malformed++;
    } else if (check_message && strcmp(r->line, r->error) != 0) {
        printf("*** Erroneous test program failed with wrong message (%s) at "
               "line %u: %s\n",
               r->error, r->lineno, program);
        r->malformed++;
    } else {
        r->passed++;
    }
    free(program);
}

/* Compares the program's outputs with the expected lines; 1 if all match. */
static int compare_outputs(runner *r, const char *program)
{
    int pass = 1;
    jv extra;
    while (next_line(r) && !is_blank(r->line)) {
        jv expected = jv_parse(r->line);
        jv actual;
        if (!jv_is_valid(expected)) {
            jv_free(expected);
            printf("*** Expected result is invalid on line %u: %s\n", r->lineno,
                   r->line);
            r->malformed++;
            continue;
        }
        actual = jq_next(r->jq);
        if (!jv_is_valid(actual)) {
            jv_free(actual);
            jv_free(expected);
            printf("*** Insufficient results for test at line number %u: %s\n",
                   r->lineno, program);
            return 0;
        }
        if (!jv_equal(jv_copy(expected), jv_copy(actual))) {
            printf("*** Expected ");
            jv_dump(jv_copy(expected), 0);
            printf(", but got ");
            jv_dump(jv_copy(actual), 0);
            printf(" for test at line number %u: %s\n", r->lineno, program);
            pass = 0;
        }
        jv_free(expected);
        jv_free(actual);
    }
    if (!pass)
        return 0;
    extra = jq_next(r->jq);
    if (jv_is_valid(extra)) {
        printf("*** Superfluous result: ");
        jv_dump(extra, 0);
        printf(" for test at line number %u, %s\n", r->lineno, program);
        return 0;
    }
    jv_free(extra);
    return 1;
}

static void run_test(runner *r)
{
    char *program = strdup(r->line);
    jv input;
    printf("Testing '%s' at line number %u\n", program, r->lineno);
    r->tests++;
    if (!wirejq_compile(r->jq, program, jv_object(), wirejq_print_error,
                        NULL)) {
        printf("*** Test program failed to compile at line %u: %s\n", r->lineno,
               program);
        r->malformed++;
        while (next_line(r) && r->line[0] != '\0' && strcmp(r->line, "\r") != 0)
            ;
        free(program);
        return;
    }
    if (!next_line(r)) {
        r->malformed++;
        free(program);
        return;
    }
    input = jv_parse(r->line);
    if (!jv_is_valid(input)) {
        jv_free(input);
        printf("*** Input is invalid on line %u: %s\n", r->lineno, r->line);
        r->malformed++;
        free(program);
        return;
    }
    jq_start(r->jq, input, 0);
    r->passed += compare_outputs(r, program);
    wirejq_bridge_settle(r->bridge);
    free(program);
}

int wirejq_run_tests(const char *path, jv lib_dirs)
{
    runner r;
    wirejq_bridge bridge;
    memset(&r, 0, sizeof(r));
    r.in = path == NULL ? stdin : fopen(path, "r");
    if (r.in == NULL) {
        perror("fopen");
        jv_free(lib_dirs);
        return 1;
    }
    r.jq = jq_init();
    if (r.jq == NULL) {
        perror("malloc");
        jv_free(lib_dirs);
        return 1;
    }
    if (jv_get_kind(lib_dirs) == JV_KIND_NULL) {
        jv_free(lib_dirs);
        lib_dirs = jv_array();
    }
    jq_set_attr(r.jq, jv_string("JQ_LIBRARY_PATH"), lib_dirs);
    wirejq_bridge_install(&bridge, r.jq, NULL);
    r.bridge = &bridge;

    while (next_line(&r)) {
        if (is_blank(r.line))
            continue;
        if (strcmp(r.line, "%%FAIL") == 0 ||
            strcmp(r.line, "%%FAIL IGNORE MSG") == 0) {
            int check_message = strcmp(r.line, "%%FAIL") == 0;
            if (!next_line(&r))
                break;
            printf("Testing '%s' at line number %u\n", r.line, r.lineno);
            r.tests++;
            fail_test(&r, check_message);
            continue;
        }
        run_test(&r);
    }
    wirejq_bridge_clear(&bridge);
    jq_teardown(&r.jq);
    free(r.line);
    if (r.in != stdin)
        fclose(r.in);
    printf("%d of %d tests passed (%d malformed)\n", r.passed, r.tests,
           r.malformed);
    return r.passed == r.tests ? 0 : 1;
}
