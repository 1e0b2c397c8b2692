/* SPDX-License-Identifier: MIT */
/*
 * check.h - the few assertions the unit tests use.  A failed check prints
 * file:line and what differed, and the test exits non-zero at the end.
 */
#ifndef WJ_CHECK_H
#define WJ_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                          \
    do {                                                                     \
        check_count++;                                                       \
        if (!(cond)) {                                                       \
            check_failures++;                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
        }                                                                    \
    } while (0)

/* Compares got (length got_len) with the NUL-terminated expected bytes. */
#define CHECK_BYTES(got, got_len, expected)                                  \
    do {                                                                     \
        const char *check_g_ = (got);                                        \
        const char *check_e_ = (expected);                                   \
        size_t check_gl_ = (got_len), check_el_ = strlen(check_e_);          \
        check_count++;                                                       \
        if (check_g_ == NULL || check_gl_ != check_el_ ||                    \
            memcmp(check_g_, check_e_, check_el_) != 0) {                    \
            check_failures++;                                                \
            fprintf(stderr, "%s:%d: expected \"%s\"\n%*sgot      \"%.*s\"\n", \
                    __FILE__, __LINE__, check_e_, (int)strlen(__FILE__) + 8, \
                    "", check_g_ ? (int)check_gl_ : 6,                       \
                    check_g_ ? check_g_ : "(null)");                         \
        }                                                                    \
    } while (0)

/* Prints the tally in the plain closing form and gives main's exit code. */
static inline int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_count - check_failures,
           check_failures);
    return check_failures ? 1 : 0;
}

#endif /* WJ_CHECK_H */
