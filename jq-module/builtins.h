/*
 * builtins.h - the wirejson builtins as libjq values in, libjq values out.
 *
 * A call arrives as the array that wirejson.jq builds:
 * [WIREJQ_CALL_TAG, name, input, arguments...].  Each builtin turns its
 * values into JSON text with jv_dump_string (so numbers read as jq prints
 * them), calls the core library, and turns the answer back into a value,
 * or into an error carrying the core's message for that function name.
 */
#ifndef WIREJQ_BUILTINS_H
#define WIREJQ_BUILTINS_H

#include <jq.h>

/* First element of a call; wirejson.jq spells it "\u0000wirejson". */
#define WIREJQ_CALL_TAG "\0wirejson"
#define WIREJQ_CALL_TAG_LEN 9

/* Whether v (borrowed) is a call built by wirejson.jq. */
int wirejq_is_call(jv v);

/*
 * Runs the call (consumed) and returns its result, or an invalid value
 * with the error message ("data_digest: ...") that jq raises as an error.
 */
jv wirejq_run_call(jv call);

#endif /* WIREJQ_BUILTINS_H */
