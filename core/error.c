/* SPDX-License-Identifier: MIT */
/*
 * error.c - error codes and the one spelling of every error message, shared
 * by every front end (SQL, jq, Python, PostgreSQL).
 *
 *   func: [argument: ] malformed JSON at byte N: reason      input errors
 *   func: [argument: ] number out of range at byte N: reason
 *   func: [argument: ] element K reason                      an element's
 *   func: [argument: ] reason                                the rest
 */
#include "wj_internal.h"

#include <stdio.h>

int wj_error_is_input(wj_code code)
{
    return code == WJ_ERR_SYNTAX || code == WJ_ERR_UTF8 ||
           code == WJ_ERR_DUPLICATE || code == WJ_ERR_DEPTH ||
           code == WJ_ERR_RANGE;
}

const char *wj_code_name(wj_code code)
{
    switch (code) {
    case WJ_OK: return "ok";
    case WJ_ERR_SYNTAX: return "syntax";
    case WJ_ERR_UTF8: return "utf8";
    case WJ_ERR_DUPLICATE: return "duplicate";
    case WJ_ERR_DEPTH: return "depth";
    case WJ_ERR_RANGE: return "range";
    case WJ_ERR_TYPE: return "type";
    case WJ_ERR_ARGUMENT: return "argument";
    case WJ_ERR_NOMEM: return "nomem";
    case WJ_ERR_TOOBIG: return "toobig";
    case WJ_ERR_INTERRUPTED: return "interrupted";
    }
    return "unknown";
}

size_t wj_error_format(const wj_error *err, const char *func, char *buf,
                       size_t size)
{
    const char *msg = err->msg ? err->msg : "unknown error";
    const char *arg = err->argument ? err->argument : "";
    const char *arg_sep = err->argument ? ": " : "";
    const char *sep = func ? ": " : "";
    int n;

    if (!func)
        func = "";
    if (err->code == WJ_ERR_RANGE)
        n = snprintf(buf, size, "%s%s%s%snumber out of range at byte %zu: %s",
                     func, sep, arg, arg_sep, err->offset, msg);
    else if (wj_error_is_input(err->code))
        n = snprintf(buf, size, "%s%s%s%smalformed JSON at byte %zu: %s", func,
                     sep, arg, arg_sep, err->offset, msg);
    else if (err->element != WJ_NO_ELEMENT)
        n = snprintf(buf, size, "%s%s%s%selement %zu %s", func, sep, arg,
                     arg_sep, err->element, msg);
    else
        n = snprintf(buf, size, "%s%s%s%s%s", func, sep, arg, arg_sep, msg);
    return n < 0 ? 0 : (size_t)n;
}
