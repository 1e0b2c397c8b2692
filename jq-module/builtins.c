/*
 * builtins.c - glue between libjq values and the wirejson core.
 *
 * Values become JSON text through jv_dump_string(v, 0), jq's own printer;
 * a string given as a raw body (with_top_level, tool_schemas,
 * encode_with_schemas, canonical_arguments) is passed as its own bytes
 * instead, and any other value there as its JSON text, as the SQL functions
 * take a JSON value.  No JSON logic lives here.
 */
#include "builtins.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "wirejson.h"

/* Most arguments a builtin takes after its input. */
#define MAX_ARGS 2
/* Names held without allocating; longer lists are allocated. */
#define LOCAL_NAMES 8

typedef jv (*builtin_fn)(const char *name, jv input, jv *args);

static size_t text_len(jv s)
{
    return (size_t)jv_string_length_bytes(jv_copy(s));
}

/* The error jq raises for function `name`: the core's text for err. */
static jv fail(const char *name, const wj_error *err)
{
    char local[256];
    size_t need = wj_error_format(err, name, local, sizeof(local));
    jv msg;
    if (need < sizeof(local))
        return jv_invalid_with_msg(jv_string(local));
    {
        char *big = malloc(need + 1);
        if (big == NULL)
            return jv_invalid_with_msg(jv_string(local));
        wj_error_format(err, name, big, need + 1);
        msg = jv_string(big);
        free(big);
    }
    return jv_invalid_with_msg(msg);
}

static jv fail_argument(const char *name, const char *reason)
{
    wj_error err = WJ_ERROR_INIT;
    err.code = WJ_ERR_ARGUMENT;
    err.msg = reason;
    return fail(name, &err);
}

/* JSON text of v (consumed), as jq prints it compactly. */
static jv json_text(jv v)
{
    return jv_dump_string(v, 0);
}

/* A raw body: a string's own bytes, any other value's JSON text. */
static jv body_text(jv v)
{
    return jv_get_kind(v) == JV_KIND_STRING ? v : json_text(v);
}

/* A result buffer of the core as a jq string (null when there is none). */
static jv text_result(const char *name, wj_code rc, char *out, size_t len,
                      const wj_error *err)
{
    jv result;
    if (rc != WJ_OK)
        return fail(name, err);
    if (out == NULL)
        return jv_null();
    if (len > INT_MAX) {
        wj_error big = WJ_ERROR_INIT;
        big.code = WJ_ERR_TOOBIG;
        big.msg = "result too large for jq";
        wj_free(NULL, out);
        return fail(name, &big);
    }
    result = jv_string_sized(out, (int)len);
    wj_free(NULL, out);
    return result;
}

static jv digest_result(const char *name, wj_code rc,
                        const char hex[WJ_DIGEST_HEX_SIZE], const wj_error *err)
{
    if (rc != WJ_OK)
        return fail(name, err);
    return jv_string_sized(hex, WJ_DIGEST_HEX_SIZE - 1);
}

/*
 * A list of names: a string, or an array of strings in which nulls are
 * skipped (as the SQL functions skip NULL names).  On success *held keeps
 * the strings alive while *names points into them; release with
 * names_free.  On failure returns 0 and leaves nothing to release.
 */
typedef struct name_list {
    jv held;        /* the strings, as an array */
    wj_name *names; /* names[0..n) */
    size_t n;
    wj_name local[LOCAL_NAMES]; /* storage for short lists */
} name_list;

static int names_init(name_list *list, jv v)
{
    int len, i;
    list->n = 0;
    list->names = list->local;
    if (jv_get_kind(v) == JV_KIND_STRING) {
        list->held = JV_ARRAY(v);
    } else if (jv_get_kind(v) == JV_KIND_ARRAY) {
        list->held = jv_array();
        jv_array_foreach(v, k, elem)
        {
            if (jv_get_kind(elem) == JV_KIND_STRING) {
                list->held = jv_array_append(list->held, elem);
            } else if (jv_get_kind(elem) == JV_KIND_NULL) {
                jv_free(elem);
            } else {
                jv_free(elem);
                jv_free(v);
                jv_free(list->held);
                return 0;
            }
        }
        jv_free(v);
    } else {
        jv_free(v);
        return 0;
    }
    len = jv_array_length(jv_copy(list->held));
    if (len > LOCAL_NAMES) {
        list->names = malloc((size_t)len * sizeof(wj_name));
        if (list->names == NULL) {
            jv_free(list->held);
            return 0;
        }
    }
    for (i = 0; i < len; i++) {
        jv s = jv_array_get(jv_copy(list->held), i);
        list->names[i].ptr = jv_string_value(s);
        list->names[i].len = text_len(s);
        jv_free(s); /* list->held still holds it */
    }
    list->n = (size_t)len;
    return 1;
}

static void names_free(name_list *list)
{
    if (list->names != list->local)
        free(list->names);
    jv_free(list->held);
}

/* ------------------------------------------------------------ renderings */

typedef jv (*named_fn)(const char *name, jv input, const wj_name *names,
                       size_t n_names);

/* fn with the names that arg holds (a string or an array of strings). */
static jv with_names(const char *name, jv input, jv arg, const char *what,
                     named_fn fn)
{
    name_list names;
    jv result;
    if (!names_init(&names, arg)) {
        jv_free(input);
        return fail_argument(name, what);
    }
    result = fn(name, input, names.names, names.n);
    names_free(&names);
    return result;
}

static jv wire_json_with(const char *name, jv input, const wj_name *members,
                         size_t n_members)
{
    jv text = json_text(input);
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc = wj_wire_json(jv_string_value(text), text_len(text), members,
                              n_members, NULL, &out, &len, &err);
    jv_free(text);
    return text_result(name, rc, out, len, &err);
}

static jv wire_json0(const char *name, jv input, jv *args)
{
    (void)args;
    return wire_json_with(name, input, NULL, 0);
}

static jv wire_json1(const char *name, jv input, jv *args)
{
    return with_names(name, input, args[0],
                      "data members must be a string or an array of strings",
                      wire_json_with);
}

typedef wj_code (*render_fn)(const char *, size_t, const wj_alloc *, char **,
                             size_t *, wj_error *);

/* fn over the JSON text of input, or over a string's own bytes if raw. */
static jv render(const char *name, jv input, render_fn fn, int raw)
{
    jv text = raw ? input : json_text(input);
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc =
        fn(jv_string_value(text), text_len(text), NULL, &out, &len, &err);
    jv_free(text);
    return text_result(name, rc, out, len, &err);
}

static jv wire_json_sorted0(const char *name, jv input, jv *args)
{
    (void)args;
    return render(name, input, wj_wire_json_sorted, 0);
}

static jv canonical_json0(const char *name, jv input, jv *args)
{
    (void)args;
    return render(name, input, wj_canonical_json, 0);
}

/* A string is a tool call's arguments text; any other value, JSON. */
static jv canonical_arguments0(const char *name, jv input, jv *args)
{
    (void)args;
    if (jv_get_kind(input) == JV_KIND_STRING)
        return render(name, input, wj_canonical_arguments, 1);
    return render(name, input, wj_canonical_json, 0);
}

/* --------------------------------------------------------------- digests */

typedef wj_code (*digest_fn)(const char *, size_t, const wj_alloc *,
                             char[WJ_DIGEST_HEX_SIZE], wj_error *);

/* fn over the JSON text of input. */
static jv digest(const char *name, jv input, digest_fn fn)
{
    jv text = json_text(input);
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc = fn(jv_string_value(text), text_len(text), NULL, hex, &err);
    jv_free(text);
    return digest_result(name, rc, hex, &err);
}

static jv data_digest0(const char *name, jv input, jv *args)
{
    (void)args;
    return digest(name, input, wj_data_digest);
}

static jv message_digest_with(const char *name, jv input,
                              const wj_name *ignored, size_t n_ignored)
{
    jv text = json_text(input);
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc = wj_message_digest(jv_string_value(text), text_len(text),
                                   ignored, n_ignored, NULL, hex, &err);
    jv_free(text);
    return digest_result(name, rc, hex, &err);
}

static jv message_digest0(const char *name, jv input, jv *args)
{
    (void)args;
    return message_digest_with(name, input, NULL, 0);
}

static jv message_digest1(const char *name, jv input, jv *args)
{
    return with_names(name, input, args[0],
                      "ignored members must be a string or an array of strings",
                      message_digest_with);
}

static jv messages_digest0(const char *name, jv input, jv *args)
{
    (void)args;
    return digest(name, input, wj_messages_digest);
}

/* ---------------------------------------------------- raw request bodies */

static jv with_top_level2(const char *name, jv input, jv *args)
{
    jv body, value;
    char *value_text = NULL, *out = NULL;
    size_t value_len = 0, len = 0;
    wj_error err;
    wj_code rc;
    if (jv_get_kind(args[0]) != JV_KIND_STRING) {
        jv_free(input);
        jv_free(args[0]);
        jv_free(args[1]);
        return fail_argument(name, "the member name must be a string");
    }
    value = json_text(args[1]);
    rc = wj_wire_json(jv_string_value(value), text_len(value), NULL, 0, NULL,
                      &value_text, &value_len, &err);
    jv_free(value);
    if (rc != WJ_OK) {
        jv_free(input);
        jv_free(args[0]);
        return fail(name, &err);
    }
    body = body_text(input);
    rc = wj_with_top_level(jv_string_value(body), text_len(body),
                           jv_string_value(args[0]), text_len(args[0]),
                           value_text, value_len, NULL, &out, &len, &err);
    wj_free(NULL, value_text);
    jv_free(body);
    jv_free(args[0]);
    return text_result(name, rc, out, len, &err);
}

static jv tool_schemas1(const char *name, jv input, jv *args)
{
    name_list path;
    jv body, texts, result;
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc;
    if (!names_init(&path, args[0])) {
        jv_free(input);
        return fail_argument(name, "the path must be an array of member names");
    }
    body = body_text(input);
    rc = wj_tool_schemas(jv_string_value(body), text_len(body), path.names,
                         path.n, NULL, &out, &len, &err);
    jv_free(body);
    names_free(&path);
    texts = text_result(name, rc, out, len, &err);
    if (jv_get_kind(texts) != JV_KIND_STRING)
        return texts;
    result = jv_parse_sized(jv_string_value(texts), (int)text_len(texts));
    jv_free(texts);
    return result;
}

static jv encode_with_schemas1(const char *name, jv input, jv *args)
{
    jv body = body_text(input);
    jv texts = json_text(args[0]);
    char *out = NULL;
    size_t len = 0;
    wj_error err;
    wj_code rc = wj_encode_with_schemas(jv_string_value(body), text_len(body),
                                        jv_string_value(texts), text_len(texts),
                                        NULL, &out, &len, &err);
    jv_free(body);
    jv_free(texts);
    return text_result(name, rc, out, len, &err);
}

/* ------------------------------------------------------------- dispatch */

static const struct builtin {
    const char *name;
    int nargs; /* arguments after the input */
    builtin_fn run;
} builtins[] = {
    {"wire_json", 0, wire_json0},
    {"wire_json", 1, wire_json1},
    {"wire_json_sorted", 0, wire_json_sorted0},
    {"canonical_json", 0, canonical_json0},
    {"data_digest", 0, data_digest0},
    {"message_digest", 0, message_digest0},
    {"message_digest", 1, message_digest1},
    {"messages_digest", 0, messages_digest0},
    {"canonical_arguments", 0, canonical_arguments0},
    {"with_top_level", 2, with_top_level2},
    {"tool_schemas", 1, tool_schemas1},
    {"encode_with_schemas", 1, encode_with_schemas1},
};

int wirejq_is_call(jv v)
{
    jv tag;
    int is_call;
    if (jv_get_kind(v) != JV_KIND_ARRAY || jv_array_length(jv_copy(v)) < 3)
        return 0;
    tag = jv_array_get(jv_copy(v), 0);
    is_call =
        jv_get_kind(tag) == JV_KIND_STRING &&
        text_len(tag) == WIREJQ_CALL_TAG_LEN &&
        memcmp(jv_string_value(tag), WIREJQ_CALL_TAG, WIREJQ_CALL_TAG_LEN) == 0;
    jv_free(tag);
    return is_call;
}

jv wirejq_run_call(jv call)
{
    jv name = jv_array_get(jv_copy(call), 1);
    int nargs = jv_array_length(jv_copy(call)) - 3;
    size_t i;
    for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
        const struct builtin *b = &builtins[i];
        jv args[MAX_ARGS];
        int k;
        if (b->nargs != nargs || jv_get_kind(name) != JV_KIND_STRING ||
            strcmp(b->name, jv_string_value(name)) != 0)
            continue;
        for (k = 0; k < nargs; k++)
            args[k] = jv_array_get(jv_copy(call), 3 + k);
        {
            jv input = jv_array_get(call, 2);
            jv_free(name);
            return b->run(b->name, input, args);
        }
    }
    jv_free(name);
    jv_free(call);
    return jv_invalid_with_msg(jv_string("wirejson: no such builtin"));
}
