/*
 * prelude.h - compiling a jq program with the wirejson definitions in scope.
 *
 * libjq 1.6 has no way to add builtins, so wirejq splices the one-line
 * definitions of wirejson.jq into the program text, right after its
 * `module` directive and `import`/`include` lines (jq wants those first),
 * on the line where they end.  Line numbers therefore stay the user's, and
 * compile errors on that one line are rewritten to show the line as the
 * user wrote it, so every message reads exactly as the stock jq's.
 */
#ifndef WIREJQ_PRELUDE_H
#define WIREJQ_PRELUDE_H

#include <jq.h>

/* Where compile errors go: a libjq message ("jq: error: ..."), consumed. */
typedef void (*wirejq_report_fn)(void *data, jv msg);

/*
 * Compiles source (NUL-terminated) on jq as jq_compile_args(jq, source,
 * args) would, with the wirejson definitions visible to it, and passes each
 * compile error message, as it reads for source itself, to report.  args is
 * consumed.  Returns what jq_compile_args returns (non-zero on success); 0
 * also when memory runs out, after reporting it.
 */
int wirejq_compile(jq_state *jq, const char *source, jv args,
                   wirejq_report_fn report, void *data);

/*
 * A wirejq_report_fn that prints msg to stderr as jq's default error
 * callback would, with "wirejq: " where the message starts "jq: ".
 */
void wirejq_print_error(void *data, jv msg);

#endif /* WIREJQ_PRELUDE_H */
