/* SPDX-License-Identifier: MIT */
/*
 * pg_functions.c - the scalar SQL functions of the extension (docs/contract.md
 * §8, §13), made from the core's table of functions: each C symbol the
 * install script names is a thin entry point (pg_entries.gen.c, generated
 * from the table) that hands its row to call_row, which converts the
 * arguments by the kinds of the row's parameters (pg_args.c), calls
 * wj_function_call and returns its result or raises its error
 * (pg_errors.c).
 *
 *   CREATE EXTENSION wirejson;
 *   SELECT wire_json('{"b":1,"a":2}');                        -- {"a":2,"b":1}
 *   SELECT data_digest('{"a":1.0}') = data_digest('{"a":1}'::jsonb);  -- t
 */
#include "wirejson_pg.h"

#include "utils/builtins.h"

PG_MODULE_MAGIC;

/* The most fixed (not VARIADIC) arguments a row has. */
#define MAX_FIXED WJPG_MAX_ARGS

/* How a jsonb document becomes text for fn: the functions that read numbers
 * as doubles (the canonical rendering and the digests) take
 * WJPG_DOC_DOUBLES, the validation functions WJPG_DOC_VERDICT. */
static wjpg_doc_mode doc_mode(const wj_function *fn)
{
    if (fn->flags & WJ_FN_VERDICT)
        return WJPG_DOC_VERDICT;
    if (fn->flags & WJ_FN_DOUBLES)
        return WJPG_DOC_DOUBLES;
    return WJPG_DOC_AS_IS;
}

/* An INTEGER result as an integer datum.  Documents are at most 1 GB here
 * (jsonb's text is stopped there too), but a value that did not fit an
 * integer would be an error, never a wrapped number. */
static Datum integer_datum(int64_t value, const char *func)
{
    if (value > PG_INT32_MAX || value < PG_INT32_MIN)
        wjpg_raise_reason(WJ_ERR_TOOBIG, "error position out of integer range",
                          func);
    return Int32GetDatum((int32)value);
}

/* The result of the validation function fn for a document whose error the
 * conversion found itself (a jsonb string that is not UTF-8): its message
 * without a function name, or its offset. */
static Datum verdict_datum(const wj_function *fn, const wj_error *verdict)
{
    char *msg;
    size_t len = 0;

    if (fn->result == WJ_RESULT_INTEGER)
        return integer_datum((int64_t)verdict->offset, fn->name);
    msg = wj_error_message(verdict, NULL, &wjpg_current_alloc, &len);
    if (!msg)
        wjpg_raise_reason(WJ_ERR_NOMEM, "out of memory", fn->name);
    return PointerGetDatum(wjpg_result_text(msg, len, fn->name));
}

/* Calls the row fn on the arguments of fcinfo. */
static Datum call_row(FunctionCallInfo fcinfo, const wj_function *fn)
{
    const char *func = fn->name;
    size_t fixed = wj_function_min_args(fn), n_names = 0, k;
    wj_arg fixed_args[MAX_FIXED], *args = fixed_args;
    wj_name *names = NULL;
    wj_result res;
    wj_error err;
    wj_code rc;

    if (fixed > MAX_FIXED)
        elog(ERROR, "%s: too many arguments", func);
    for (k = 0; k < fixed; k++) {
        wj_arg *a = &fixed_args[k];
        int argno = (int)k;
        switch (fn->params[k].kind) {
        case WJ_ARG_DOCUMENT:
            if (!wjpg_arg_doc_as(fcinfo, argno, func,
                                 k == 0 ? doc_mode(fn) : WJPG_DOC_AS_IS,
                                 &a->ptr, &a->len, &err))
                return verdict_datum(fn, &err);
            break;
        case WJ_ARG_TEXT:
            /* a tool call's arguments: a jsonb string is its content (as
             * ->> gives it); any other value its JSON text */
            if (!wjpg_arg_jsonb_string(fcinfo, argno, &a->ptr, &a->len))
                wjpg_arg_doc(fcinfo, argno, func, &a->ptr, &a->len);
            break;
        case WJ_ARG_NAME: {
            text *t = PG_GETARG_TEXT_PP(argno);
            a->ptr = VARDATA_ANY(t);
            a->len = VARSIZE_ANY_EXHDR(t);
            break;
        }
        case WJ_ARG_VALUE:
            wjpg_arg_value(fcinfo, argno, func, &a->ptr, &a->len);
            break;
        case WJ_ARG_TEXTS:
        case WJ_ARG_DIGESTS:
            wjpg_arg_doc(fcinfo, argno, func, &a->ptr, &a->len);
            break;
        case WJ_ARG_NAMES:
        case WJ_ARG_WORD:
            break;
        }
    }
    if (fixed < fn->n_params &&
        fn->params[fixed].kind == WJ_ARG_WORD) { /* text DEFAULT 'sent' */
        text *t = PG_GETARG_TEXT_PP((int)fixed);
        fixed_args[fixed].ptr = VARDATA_ANY(t);
        fixed_args[fixed].len = VARSIZE_ANY_EXHDR(t);
        n_names = 1;
    } else if (fixed < fn->n_params) { /* the VARIADIC text[] of names */
        wjpg_arg_names(fcinfo, (int)fixed, &names, &n_names);
        if (n_names) {
            args = palloc((fixed + n_names) * sizeof *args);
            memcpy(args, fixed_args, fixed * sizeof *args);
            for (k = 0; k < n_names; k++) {
                args[fixed + k].ptr = names[k].ptr;
                args[fixed + k].len = names[k].len;
            }
        }
    }
    rc = wj_function_call(fn, args, fixed + n_names, &wjpg_current_alloc,
                          &res, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    if (res.is_null)
        PG_RETURN_NULL();
    switch (fn->result) {
    case WJ_RESULT_DIGEST:
        PG_RETURN_TEXT_P(
            cstring_to_text_with_len(res.digest, WJ_DIGEST_HEX_SIZE - 1));
    case WJ_RESULT_INTEGER:
        return integer_datum(res.integer, func);
    default: /* JSON text, a body, text, a json array */
        PG_RETURN_TEXT_P(wjpg_result_text(res.text, res.len, func));
    }
}

/* The row called name, found on the first call of its entry point. */
static const wj_function *row(const wj_function **cached, const char *name)
{
    if (!*cached) {
        *cached = wj_function_find(name, strlen(name));
        if (!*cached)
            elog(ERROR, "wirejson: no function %s in the library", name);
    }
    return *cached;
}

/* The C symbol the install script names for the row called name. */
#define ENTRY(symbol, name)                                                    \
    PG_FUNCTION_INFO_V1(symbol);                                               \
    Datum symbol(PG_FUNCTION_ARGS)                                             \
    {                                                                          \
        static const wj_function *fn;                                          \
        return call_row(fcinfo, row(&fn, name));                               \
    }

#include "pg_entries.gen.c"
