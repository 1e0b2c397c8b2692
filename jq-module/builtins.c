/* SPDX-License-Identifier: MIT */
/*
 * builtins.c - glue between libjq values and the wirejson core: every row
 * of the table of functions (wj_functions) that the kit puts in wirejq
 * (wk_function_hosts) is a builtin, and NAME_text too for rows whose shape
 * has JQ_SHAPE_TEXT (jq_shapes.c; wirejson.jq, generated from
 * the same table, defines them).  A call is checked against its row,
 * its values converted by the row's parameter kinds, wj_function_call run,
 * and its result converted back by the row's result kind.
 *
 * The input is the first parameter: its JSON text, as jv_dump_string(v, 0)
 * prints it; for a text form (and JQ_SHAPE_STRING_INPUT) a string's own
 * bytes, any other value an error; for JQ_SHAPE_RAW_INPUT (raw bodies, a
 * tool call's arguments) a string's own bytes, any other value its JSON
 * text.  Names are a string or an array of strings in which nulls are
 * skipped; a VALUE is written by the wire rule.  Errors name the SQL
 * function whose answer the builtin gives, with the core's message
 * (wj_error_message).  No JSON logic lives here.
 */
#include "builtins.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "jq_shapes.h"
#include "wirejson.h"
#include "wirejson_kit.h"

/* Most parameters a row has; the names are one jq argument. */
#define MAX_PARAMS 4

static size_t text_len(jv s)
{
    return (size_t)jv_string_length_bytes(jv_copy(s));
}

/* The error jq raises for function func: the core's message for err. */
static jv fail(const char *func, const wj_error *err)
{
    size_t len = 0;
    char *msg = wj_error_message(err, func, NULL, &len);
    jv out;
    if (msg == NULL || len > INT_MAX) {
        free(msg);
        return jv_invalid_with_msg(jv_string("out of memory"));
    }
    out = jv_string_sized(msg, (int)len);
    wj_free(NULL, msg);
    return jv_invalid_with_msg(out);
}

static jv fail_argument(const char *func, const char *reason)
{
    wj_error err = WJ_ERROR_INIT;
    err.code = WJ_ERR_ARGUMENT;
    err.msg = reason;
    return fail(func, &err);
}

/* JSON text of v (consumed), as jq prints it compactly. */
static jv json_text(jv v)
{
    return jv_dump_string(v, 0);
}

/* The jq arities of fn: the input is its first parameter; trailing names
 * are an optional argument unless the row says they are always given. */
static void arities(const wj_function *fn, int *lo, int *hi)
{
    int rest = fn->n_params > 0 ? (int)fn->n_params - 1 : 0;
    int last = fn->n_params > 0 ? (int)fn->params[fn->n_params - 1].kind : -1;
    int names = last == WJ_ARG_NAMES;
    *hi = rest;
    *lo = (names && !(jq_shape(fn) & JQ_SHAPE_NAMES_GIVEN)) || last == WJ_ARG_WORD
              ? rest - 1
              : rest;
}

/* What a call holds while it runs: the jq values whose bytes the wj_args
 * point into, the names, and the VALUE's wire text. */
typedef struct held {
    jv values[MAX_PARAMS]; /* strings, released by held_free */
    int n_values;
    jv names;           /* the names, as an array of strings */
    char *value_text;   /* the VALUE's wire text (wj_free) */
} held;

static void held_free(held *h)
{
    int k;
    for (k = 0; k < h->n_values; k++)
        jv_free(h->values[k]);
    jv_free(h->names);
    wj_free(NULL, h->value_text);
}

/* Keeps s (a string, consumed) and points a at its bytes. */
static void hold(held *h, jv s, wj_arg *a)
{
    h->values[h->n_values++] = s;
    a->ptr = jv_string_value(s);
    a->len = text_len(s);
}

/* The names v holds (consumed): a string, or an array of strings and
 * nulls (skipped), appended to h->names.  0 when v is neither. */
static int take_names(held *h, jv v, int array_only)
{
    int ok = 1;
    if (jv_get_kind(v) == JV_KIND_STRING && !array_only) {
        h->names = jv_array_append(h->names, v);
        return 1;
    }
    if (jv_get_kind(v) != JV_KIND_ARRAY) {
        jv_free(v);
        return 0;
    }
    jv_array_foreach(v, k, elem)
    {
        if (jv_get_kind(elem) == JV_KIND_STRING)
            h->names = jv_array_append(h->names, elem);
        else {
            ok = ok && jv_get_kind(elem) == JV_KIND_NULL;
            jv_free(elem);
        }
    }
    jv_free(v);
    return ok;
}

/* How an error calls a list of names: "data members" for data_member. */
static void names_reason(const wj_function *fn, const wj_param *p, char *buf,
                         size_t size)
{
    size_t i, n = 0;
    char words[64];
    for (i = 0; p->name[i] && n + 1 < sizeof words; i++) {
        char c = p->name[i];
        words[n++] = c == '_' ? ' ' : (c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
    }
    words[n] = '\0';
    if (jq_shape(fn) & JQ_SHAPE_NAMES_GIVEN)
        snprintf(buf, size, "the %s must be an array of member names", words);
    else
        snprintf(buf, size, "%ss must be a string or an array of strings",
                 words);
}

/* Converts jq argument v (consumed) for parameter k of fn into *a.  Returns
 * a valid jv (null) on success, else the error to raise. */
static jv convert(const wj_function *fn, size_t k, jv v, held *h, wj_arg *a)
{
    const wj_param *p = &fn->params[k];
    char reason[128];
    wj_error err = WJ_ERROR_INIT;
    jv text;
    size_t len = 0;

    switch (p->kind) {
    case WJ_ARG_NAMES:
        names_reason(fn, p, reason, sizeof reason);
        if (!take_names(h, v, (jq_shape(fn) & JQ_SHAPE_NAMES_GIVEN) != 0))
            return fail_argument(fn->name, reason);
        return jv_null();
    case WJ_ARG_NAME:
        if (jv_get_kind(v) != JV_KIND_STRING) {
            jv_free(v);
            return fail_argument(fn->name, "the member name must be a string");
        }
        hold(h, v, a);
        return jv_null();
    case WJ_ARG_VALUE:
        text = json_text(v);
        if (wj_wire_json(jv_string_value(text), text_len(text), NULL, 0, NULL,
                         &h->value_text, &len, &err) != WJ_OK) {
            jv_free(text);
            err.argument = "value";
            return fail(fn->name, &err);
        }
        jv_free(text);
        a->ptr = h->value_text;
        a->len = len;
        return jv_null();
    case WJ_ARG_WORD:
        if (jv_get_kind(v) != JV_KIND_STRING) {
            jv_free(v);
            return fail_argument(fn->name, "the mode must be a string");
        }
        hold(h, v, a);
        return jv_null();
    case WJ_ARG_DOCUMENT:
    case WJ_ARG_TEXT:
    case WJ_ARG_TEXTS:
    case WJ_ARG_DIGESTS:
        hold(h, json_text(v), a);
        return jv_null();
    }
    jv_free(v);
    return fail_argument(fn->name, "unknown parameter");
}

/* The result of a call as a jq value. */
static jv result_value(const wj_function *fn, wj_result *res)
{
    jv out;
    if (res->is_null) {
        wj_result_free(NULL, res);
        return jv_null();
    }
    if (fn->result == WJ_RESULT_INTEGER)
        return jv_number((double)res->integer);
    if (res->len > INT_MAX) {
        wj_error big = WJ_ERROR_INIT;
        big.code = WJ_ERR_TOOBIG;
        big.msg = "result too large for jq";
        wj_result_free(NULL, res);
        return fail(fn->name, &big);
    }
    if (fn->result == WJ_RESULT_TEXTS || fn->result == WJ_RESULT_DIGESTS)
        out = jv_parse_sized(res->text, (int)res->len);
    else
        out = jv_string_sized(res->text, (int)res->len);
    wj_result_free(NULL, res);
    return out;
}

/* Runs row fn on input and the jq arguments of call (all consumed). */
static jv run(const wj_function *fn, const char *builtin, int text_form,
              jv input, jv call, int nargs)
{
    wj_arg args[MAX_PARAMS + 64];
    size_t n_args = 0, k;
    held h = {.n_values = 0, .names = jv_array(), .value_text = NULL};
    wj_result res;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;
    jv out;
    int i;

    if (text_form || (jq_shape(fn) & JQ_SHAPE_STRING_INPUT)) {
        if (jv_get_kind(input) != JV_KIND_STRING) {
            jv_free(input);
            jv_free(call);
            held_free(&h);
            return fail_argument(builtin,
                                 "the input must be a string of JSON text");
        }
        hold(&h, input, &args[n_args++]);
    } else if ((jq_shape(fn) & JQ_SHAPE_RAW_INPUT) &&
               jv_get_kind(input) == JV_KIND_STRING) {
        hold(&h, input, &args[n_args++]);
    } else {
        hold(&h, json_text(input), &args[n_args++]);
    }
    for (i = 0; i < nargs; i++) {
        jv bad = convert(fn, (size_t)i + 1, jv_array_get(jv_copy(call), 3 + i),
                         &h, &args[n_args]);
        if (!jv_is_valid(bad)) {
            jv_free(call);
            held_free(&h);
            return bad;
        }
        if (fn->params[i + 1].kind != WJ_ARG_NAMES)
            n_args++;
    }
    jv_free(call);
    {
        /* the names, after the fixed arguments */
        size_t n_names = (size_t)jv_array_length(jv_copy(h.names));
        wj_arg *all = args;
        if (n_args + n_names > sizeof args / sizeof *args) {
            all = malloc((n_args + n_names) * sizeof *all);
            if (!all) {
                held_free(&h);
                return jv_invalid_with_msg(jv_string("out of memory"));
            }
            memcpy(all, args, n_args * sizeof *all);
        }
        for (k = 0; k < n_names; k++) {
            jv s = jv_array_get(jv_copy(h.names), (int)k);
            all[n_args + k].ptr = jv_string_value(s);
            all[n_args + k].len = text_len(s);
            jv_free(s); /* h.names still holds it */
        }
        rc = wj_function_call(fn, all, n_args + n_names, NULL, &res, &err);
        if (all != args)
            free(all);
    }
    out = rc == WJ_OK ? result_value(fn, &res) : fail(fn->name, &err);
    held_free(&h);
    return out;
}

jv wirejq_run_call(jv call)
{
    jv name = jv_array_get(jv_copy(call), 1);
    int nargs = jv_array_length(jv_copy(call)) - 3;
    const wj_function *fn = NULL;
    int text_form = 0, lo, hi;
    char builtin[64];

    if (jv_get_kind(name) == JV_KIND_STRING) {
        const char *s = jv_string_value(name);
        size_t len = text_len(name);
        static const char suffix[] = "_text";
        size_t n_suffix = sizeof suffix - 1;
        snprintf(builtin, sizeof builtin, "%s", s);
        fn = wj_function_find(s, len);
        if (!fn && len > n_suffix &&
            memcmp(s + len - n_suffix, suffix, n_suffix) == 0) {
            fn = wj_function_find(s, len - n_suffix);
            text_form = 1;
            if (fn && !(jq_shape(fn) & JQ_SHAPE_TEXT))
                fn = NULL;
        }
        if (fn && !(wk_function_hosts(fn) & WK_HOST_JQ))
            fn = NULL;
    }
    jv_free(name);
    if (fn)
        arities(fn, &lo, &hi);
    if (!fn || nargs < lo || nargs > hi) {
        jv_free(call);
        return jv_invalid_with_msg(jv_string("wirejson: no such builtin"));
    }
    return run(fn, builtin, text_form, jv_array_get(jv_copy(call), 2), call,
               nargs);
}
