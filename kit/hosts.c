/* SPDX-License-Identifier: MIT */
/*
 * hosts.c - where each function of the core's table exists.  Every
 * function exists in every host but those listed here: an aggregate needs
 * rows (the SQL hosts), and a few functions are a host's own choice.
 */
#include <string.h>

#include "wirejson_kit.h"

static const struct {
    const char *name;
    unsigned hosts;
} exceptions[] = {
    /* wirejq reports an error's position in its message */
    {"wirejson_error_position", WK_HOST_ALL & ~WK_HOST_JQ},
    /* a list result: the hosts with lists, and the command line's JSON */
    {"prefix_digests",
     WK_HOST_DUCKDB | WK_HOST_PYTHON | WK_HOST_JQ | WK_HOST_CLI},
    /* Python calls it version(); wirejq has --version */
    {"wirejson_version", WK_HOST_SQL | WK_HOST_CLI},
    {"version", WK_HOST_PYTHON},
};

unsigned wk_function_hosts(const wj_function *fn)
{
    size_t k;
    if (fn->flags & WJ_FN_AGGREGATE)
        return WK_HOST_SQL;
    for (k = 0; k < sizeof exceptions / sizeof *exceptions; k++)
        if (strcmp(exceptions[k].name, fn->name) == 0)
            return exceptions[k].hosts;
    return WK_HOST_ALL;
}
