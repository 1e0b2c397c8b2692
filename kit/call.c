/* SPDX-License-Identifier: MIT */
/*
 * call.c - what every host does around wj_function_call: room for the
 * arguments, the arity and NULL rule before any argument is converted,
 * list results read without a parse, and a row's error message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "wirejson_kit.h"

char *wk_message(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *m;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(m = malloc((size_t)n + 1)))
        return NULL;
    va_start(ap, fmt);
    vsnprintf(m, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return m;
}

wj_arg *wk_args_room(wk_args *a, size_t n)
{
    a->v = n <= WK_ARGS_ON_STACK ? a->stack : malloc(n * sizeof *a->v);
    return a->v;
}

void wk_args_free(wk_args *a)
{
    if (a->v != a->stack)
        free(a->v);
    a->v = NULL;
}

wk_call_plan wk_call_check(const wj_function *fn, size_t n_args,
                           int (*is_null)(const void *host, size_t k),
                           const void *host, wj_error *err)
{
    size_t fixed = wj_function_min_args(fn), k;
    if (n_args < fixed || n_args > wj_function_max_args(fn) ||
        (fn->flags & WJ_FN_AGGREGATE)) {
        err->code = WJ_ERR_ARGUMENT;
        err->msg = "wrong number of arguments";
        return WK_CALL_ARITY;
    }
    for (k = 0; is_null && k < fixed; k++)
        if (fn->params[k].kind != WJ_ARG_VALUE && is_null(host, k))
            return WK_CALL_NULL;
    return WK_CALL_RUN;
}

const char *wk_digests(const char *text, size_t len, size_t *n)
{
    *n = len > 2 ? (len - 1) / WK_DIGEST_STRIDE : 0;
    return text + 2;
}
