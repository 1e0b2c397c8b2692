/* SPDX-License-Identifier: MIT */
/*
 * run_tests.h - `wirejq --run-tests FILE`: jq's own test-file format, with
 * the wirejson builtins in scope.
 *
 * A test is a program line, an input line, then one line per expected
 * output, ended by a blank line; results are compared as values.  A test
 * after a "%%FAIL" line must fail to compile, and its next line is the
 * first line of the expected error ("%%FAIL IGNORE MSG" skips that check).
 * Lines starting with '#' are comments.  Prints what jq 1.6 prints, ending
 * with "N of M tests passed (K malformed)".
 */
#ifndef WIREJQ_RUN_TESTS_H
#define WIREJQ_RUN_TESTS_H

#include <jq.h>

/*
 * Runs the tests in path (NULL: standard input) with lib_dirs (consumed;
 * null for none) as the module search path.  Returns 0 when every test
 * passed, else 1.
 */
int wirejq_run_tests(const char *path, jv lib_dirs);

#endif /* WIREJQ_RUN_TESTS_H */
