/* SPDX-License-Identifier: MIT */
/*
 * builtins.h - the wirejson builtins as libjq values in, libjq values out.
 *
 * A call arrives as the array that wirejson.jq builds, once the bridge has
 * seen its token: [token, name, input, arguments...].  Each builtin turns
 * its values into JSON text with jv_dump_string (so numbers read as jq
 * prints them), or takes a string's own bytes where it wants text, calls
 * the core library, and turns the answer back into a value, or into an
 * error carrying the core's message for the SQL function of that name.
 */
#ifndef WIREJQ_BUILTINS_H
#define WIREJQ_BUILTINS_H

#include <jq.h>

/*
 * Runs the call (consumed) and returns its result, or an invalid value
 * with the error message ("data_digest: ...") that jq raises as an error.
 */
jv wirejq_run_call(jv call);

#endif /* WIREJQ_BUILTINS_H */
