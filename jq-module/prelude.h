/* SPDX-License-Identifier: MIT */
/*
 * prelude.h - compiling a jq program with the wirejson definitions in scope
 * of the program and of every module it brings in.
 *
 * libjq 1.6 has no way to add builtins.  What it does have is ~/.jq: while
 * compiling, libjq reads $HOME/.jq and binds its definitions to the whole
 * program, modules included, before jq's own builtins.  wirejq defines
 * jv_load_file (libjq calls its own public functions through the dynamic
 * linker, so this definition is the one it reaches) and, for that one read
 * during wirejq_compile, gives libjq the definitions of wirejson.jq
 * followed by the user's own ~/.jq, on its first line after any leading
 * directives, so no line is added; compile errors on that line are
 * rewritten to show it as the user wrote it.  The program text, $ENV,
 * $__loc__, the search path and every other file are left as they are.
 */
#ifndef WIREJQ_PRELUDE_H
#define WIREJQ_PRELUDE_H

#include <jq.h>

/* Where compile errors go: a libjq message ("jq: error: ..."), consumed. */
typedef void (*wirejq_report_fn)(void *data, jv msg);

/*
 * Compiles source (NUL-terminated) on jq as jq_compile_args(jq, source,
 * args) would, with the wirejson definitions visible to it and to its
 * modules, and passes each compile error message, as it reads for the
 * user's own files, to report.  args (an object) is consumed.  Returns what
 * jq_compile_args returns (non-zero on success); 0 also when memory runs
 * out, after reporting it.
 */
int wirejq_compile(jq_state *jq, const char *source, jv args,
                   wirejq_report_fn report, void *data);

/*
 * A wirejq_report_fn that prints msg to stderr as jq's default error
 * callback would, with "wirejq: " where the message starts "jq: ".
 */
void wirejq_print_error(void *data, jv msg);

#endif /* WIREJQ_PRELUDE_H */
