/* SPDX-License-Identifier: MIT */
/*
 * number_driver.c - feeds lines to the number code for number_diff.js.
 *
 * Each input line is a request, each output line its answer:
 *   "f <16 hex digits>"  the double with those bits -> wj_number_format text
 *   "p <lexeme>"         -> "<bits of wj_number_parse, or inf> <canonical
 *                            text, or ! when wj_number_canonical gives 0>"
 * With WJ_TEST_LOCALE set, the driver first switches the process to that
 * locale and exits 2 if it cannot or if the locale's decimal separator is
 * not a comma (the point of running under it).
 */
#define _POSIX_C_SOURCE 200809L

#include "number.h"

#include <inttypes.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void answer_format(const char *hex)
{
    uint64_t bits = strtoull(hex, NULL, 16);
    double d;
    memcpy(&d, &bits, sizeof d);
    char buf[WJ_NUMBER_MAX_CHARS];
    size_t n = wj_number_format(d, buf);
    printf("%.*s\n", (int)n, buf);
}

static void answer_parse(const char *lexeme, size_t len)
{
    double d;
    if (wj_number_parse(lexeme, len, &d) == 0) {
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        printf("%016" PRIx64, bits);
    } else {
        fputs("inf", stdout);
    }
    char buf[WJ_NUMBER_MAX_CHARS];
    size_t n = wj_number_canonical(lexeme, len, buf);
    if (n)
        printf(" %.*s\n", (int)n, buf);
    else
        fputs(" !\n", stdout);
}

int main(void)
{
    const char *want = getenv("WJ_TEST_LOCALE");
    if (want && *want) {
        if (!setlocale(LC_ALL, want)) {
            fprintf(stderr, "number_driver: cannot switch to locale %s\n",
                    want);
            return 2;
        }
        if (strcmp(localeconv()->decimal_point, ".") == 0) {
            fprintf(stderr, "number_driver: locale %s has a decimal point, "
                            "expected a decimal comma\n", want);
            return 2;
        }
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) > 0) {
        size_t len = (size_t)got;
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        if (len > 2 && line[0] == 'f' && line[1] == ' ')
            answer_format(line + 2);
        else if (len > 2 && line[0] == 'p' && line[1] == ' ')
            answer_parse(line + 2, len - 2);
        else
            printf("?\n");
    }
    free(line);
    return ferror(stdin) ? 2 : 0;
}
