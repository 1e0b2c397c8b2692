/*
 * error.c - error codes and the one spelling of every error message, shared
 * by the SQLite functions and the jq builtins.
 */
#include "wj_internal.h"

#include <stdio.h>

int wj_error_is_input(wj_code code)
{
    return code == WJ_ERR_SYNTAX || code == WJ_ERR_UTF8 ||
           code == WJ_ERR_DUPLICATE || code == WJ_ERR_DEPTH ||
           code == WJ_ERR_RANGE;
}

size_t wj_error_format(const wj_error *err, const char *func, char *buf,
                       size_t size)
{
    const char *sep = func ? ": " : "";
    const char *msg = err->msg ? err->msg : "unknown error";
    int n;

    if (!func)
        func = "";
    if (err->code == WJ_ERR_RANGE)
        n = snprintf(buf, size, "%s%snumber out of range at byte %zu: %s", func,
                     sep, err->offset, msg);
    else if (wj_error_is_input(err->code))
        n = snprintf(buf, size, "%s%smalformed JSON at byte %zu: %s", func, sep,
                     err->offset, msg);
    else
        n = snprintf(buf, size, "%s%s%s", func, sep, msg);
    return n < 0 ? 0 : (size_t)n;
}
