/* SPDX-License-Identifier: MIT */
/*
 * functions.c - the table of functions: every function the library offers
 * by name, declared once, and wj_function_call, which checks a call against
 * its row and runs the core call behind it.  A function added here is in
 * every front end, or in those the kit's hosts.c names (ARCHITECTURE.md,
 * "Adding a function").
 */
#include "wj_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------ the core calls */

/* A rendering's result (out NULL: a NULL result).  Each caller stores the
 * core's code in a variable first: out and len are read after the call. */
static wj_code rendered(wj_code rc, wj_result *res, char *out, size_t len)
{
    if (rc != WJ_OK)
        return rc;
    res->is_null = out == NULL;
    res->text = out;
    res->len = out ? len : 0;
    return WJ_OK;
}

static wj_code digested(wj_code rc, wj_result *res)
{
    if (rc == WJ_OK) {
        res->text = res->digest;
        res->len = WJ_DIGEST_HEX_SIZE - 1;
    }
    return rc;
}

static wj_code call_wire_json(const wj_arg *a, const wj_name *names,
                              size_t n_names, const wj_alloc *alloc,
                              wj_result *res, wj_error *err)
{
    char *out = NULL;
    size_t len = 0;
    wj_code rc = wj_wire_json(a[0].ptr, a[0].len, names, n_names, alloc, &out,
                              &len, err);
    return rendered(rc, res, out, len);
}

/* A rendering of the document alone, and a digest of it: the core calls
 * that share one signature, each behind the table's. */
#define DOCUMENT_RENDERING(call, core)                                        \
    static wj_code call(const wj_arg *a, const wj_name *names,               \
                        size_t n_names, const wj_alloc *alloc,               \
                        wj_result *res, wj_error *err)                       \
    {                                                                        \
        char *out = NULL;                                                    \
        size_t len = 0;                                                      \
        wj_code rc = core(a[0].ptr, a[0].len, alloc, &out, &len, err);       \
        (void)names, (void)n_names;                                          \
        return rendered(rc, res, out, len);                                  \
    }
#define DOCUMENT_DIGEST(call, core)                                           \
    static wj_code call(const wj_arg *a, const wj_name *names,               \
                        size_t n_names, const wj_alloc *alloc,               \
                        wj_result *res, wj_error *err)                       \
    {                                                                        \
        (void)names, (void)n_names;                                          \
        return digested(core(a[0].ptr, a[0].len, alloc, res->digest, err),   \
                        res);                                                \
    }

DOCUMENT_RENDERING(call_wire_json_sorted, wj_wire_json_sorted)
DOCUMENT_RENDERING(call_canonical_json, wj_canonical_json)
DOCUMENT_RENDERING(call_canonical_arguments, wj_canonical_arguments)
DOCUMENT_DIGEST(call_data_digest, wj_data_digest)
DOCUMENT_DIGEST(call_messages_digest, wj_messages_digest)

static wj_code call_message_digest(const wj_arg *a, const wj_name *names,
                                   size_t n_names, const wj_alloc *alloc,
                                   wj_result *res, wj_error *err)
{
    return digested(wj_message_digest(a[0].ptr, a[0].len, names, n_names,
                                      alloc, res->digest, err),
                    res);
}

static wj_code call_with_top_level(const wj_arg *a, const wj_name *names,
                                   size_t n_names, const wj_alloc *alloc,
                                   wj_result *res, wj_error *err)
{
    char *out = NULL;
    size_t len = 0;
    wj_code rc;
    (void)names, (void)n_names;
    rc = wj_with_top_level(a[0].ptr, a[0].len, a[1].ptr, a[1].len, a[2].ptr,
                           a[2].len, alloc, &out, &len, err);
    return rendered(rc, res, out, len);
}

static wj_code call_tool_schemas(const wj_arg *a, const wj_name *names,
                                 size_t n_names, const wj_alloc *alloc,
                                 wj_result *res, wj_error *err)
{
    char *out = NULL;
    size_t len = 0;
    wj_code rc = wj_tool_schemas(a[0].ptr, a[0].len, names, n_names, alloc,
                                 &out, &len, err);
    return rendered(rc, res, out, len);
}

static wj_code call_encode_with_schemas(const wj_arg *a, const wj_name *names,
                                        size_t n_names, const wj_alloc *alloc,
                                        wj_result *res, wj_error *err)
{
    char *out = NULL;
    size_t len = 0;
    wj_code rc;
    (void)names, (void)n_names;
    rc = wj_encode_with_schemas(a[0].ptr, a[0].len, a[1].ptr, a[1].len, alloc,
                                &out, &len, err);
    return rendered(rc, res, out, len);
}

/* Looks for the document's input error, for the two functions that report
 * it: WJ_OK with res->is_null set when there is none, else with the error in
 * *found; the failure itself (in err) when the check could not run (out of
 * memory). */
static wj_code find_error(const wj_arg *a, const wj_alloc *alloc,
                          wj_result *res, wj_error *found, wj_error *err)
{
    wj_code rc = wj_validate(a[0].ptr, a[0].len, alloc, found);
    if (rc != WJ_OK && !wj_error_is_input(rc)) {
        if (err)
            *err = *found;
        return rc;
    }
    res->is_null = rc == WJ_OK;
    return WJ_OK;
}

static wj_code call_wirejson_error(const wj_arg *a, const wj_name *names,
                                   size_t n_names, const wj_alloc *alloc,
                                   wj_result *res, wj_error *err)
{
    wj_error found = WJ_ERROR_INIT;
    wj_code rc = find_error(a, alloc, res, &found, err);
    (void)names, (void)n_names;
    if (rc != WJ_OK || res->is_null)
        return rc;
    res->text = wj_error_message(&found, NULL, alloc, &res->len);
    return res->text ? WJ_OK : wj_fail_nomem(err);
}

static wj_code call_wirejson_error_position(const wj_arg *a,
                                            const wj_name *names,
                                            size_t n_names,
                                            const wj_alloc *alloc,
                                            wj_result *res, wj_error *err)
{
    wj_error found = WJ_ERROR_INIT;
    wj_code rc = find_error(a, alloc, res, &found, err);
    (void)names, (void)n_names;
    if (rc == WJ_OK && !res->is_null)
        res->integer = (int64_t)found.offset;
    return rc;
}

static wj_code call_version(const wj_arg *a, const wj_name *names,
                            size_t n_names, const wj_alloc *alloc,
                            wj_result *res, wj_error *err)
{
    const char *v = wj_version();
    size_t len = strlen(v);
    char *out = wj_malloc(alloc, len + 1);
    (void)a, (void)names, (void)n_names;
    if (!out)
        return wj_fail_nomem(err);
    memcpy(out, v, len + 1);
    return rendered(WJ_OK, res, out, len);
}

/* The prefix digests as a JSON array of strings. */
/* A DIGESTS result of n digests, laid out as wirejson.h says: [, then
 * "64 hex" per digest with a comma between, then ]; digest k's 64
 * characters, left for the caller to write, at text + 2 + 67 * k.  NULL
 * when out of memory. */
static char *digests_result(size_t n, const wj_alloc *alloc, wj_result *res)
{
    size_t len = n ? 1 + 67 * n : 2, k;
    char *out = wj_malloc(alloc, len + 1);
    if (!out)
        return NULL;
    out[0] = '[';
    for (k = 0; k < n; k++) {
        out[1 + 67 * k] = '"';
        out[66 + 67 * k] = '"';
        out[67 + 67 * k] = ',';
    }
    out[len - 1] = ']';
    out[len] = '\0';
    rendered(WJ_OK, res, out, len);
    return out;
}

static wj_code call_prefix_digests(const wj_arg *a, const wj_name *names,
                                   size_t n_names, const wj_alloc *alloc,
                                   wj_result *res, wj_error *err)
{
    char *hexes = NULL, *out;
    size_t n = 0, k;
    wj_code rc = wj_prefix_digests(a[0].ptr, a[0].len, alloc, &hexes, &n, err);
    (void)names, (void)n_names;
    if (rc != WJ_OK)
        return rc;
    out = digests_result(n, alloc, res);
    for (k = 0; out && k < n; k++)
        memcpy(out + 2 + 67 * k, hexes + 64 * k, 64);
    wj_free(alloc, hexes);
    return out ? WJ_OK : wj_fail_nomem(err);
}

/* The mode a call's optional word names: sent when there is none; -1 and
 * err filled when the word names none (the message quotes the word). */
static int prompt_mode(const wj_name *word, size_t n_word, wj_error *err)
{
    /* The message names the word, so it cannot be static: it lives here
     * until this thread's next bad word, long enough for the front end to
     * format it. */
    static _Thread_local char message[96];
    size_t shown;
    int m;
    if (n_word == 0)
        return WJ_PROMPT_SENT;
    m = wj_prompt_mode_find(word->ptr, word->len);
    if (m >= 0)
        return m;
    shown = word->len > 40 ? 40 : word->len;
    while (shown < word->len && shown > 0 &&
           ((unsigned char)word->ptr[shown] & 0xC0) == 0x80)
        shown--; /* not into a character */
    snprintf(message, sizeof message,
             "unknown mode \"%.*s\" (sent, canonical or tools_set)",
             (int)shown, word->ptr);
    wj_fail(err, WJ_ERR_ARGUMENT, 0, message);
    wj_fail_in(err, WJ_ERR_ARGUMENT, "mode");
    return -1;
}

/* The prefix digests of a request body in one mode, as a JSON array of
 * strings. */
static wj_code call_prompt_prefix_digests(const wj_arg *a,
                                          const wj_name *names, size_t n_names,
                                          const wj_alloc *alloc,
                                          wj_result *res, wj_error *err)
{
    wj_prompt_prefixes pp;
    char *out;
    size_t k;
    int m = prompt_mode(names, n_names, err);
    wj_code rc;
    if (m < 0)
        return WJ_ERR_ARGUMENT;
    rc = wj_prompt_prefix(a[0].ptr, a[0].len, 1u << m, alloc, &pp, err);
    if (rc != WJ_OK)
        return rc;
    out = digests_result(pp.n, alloc, res);
    for (k = 0; out && k < pp.n; k++)
        wj_hex_encode(pp.digests[m] + 32 * k, 32, out + 2 + 67 * k);
    wj_prompt_prefix_free(alloc, &pp);
    return out ? WJ_OK : wj_fail_nomem(err);
}

/* True when two entries of such arrays are the same value: the same text,
 * or the same canonical JSON (a digest spelled with an escape). */
static wj_code same_entry(wj_name x, wj_name y, const wj_alloc *alloc,
                          int *same, wj_error *err)
{
    char *cx = NULL, *cy = NULL;
    size_t lx = 0, ly = 0;
    wj_code rc;
    *same = x.len == y.len && memcmp(x.ptr, y.ptr, x.len) == 0;
    if (*same || (!memchr(x.ptr, '\\', x.len) && !memchr(y.ptr, '\\', y.len)))
        return WJ_OK;
    rc = wj_canonical_json(x.ptr, x.len, alloc, &cx, &lx, err);
    if (rc == WJ_OK)
        rc = wj_canonical_json(y.ptr, y.len, alloc, &cy, &ly, err);
    if (rc == WJ_OK)
        *same = lx == ly && memcmp(cx, cy, lx) == 0;
    wj_free(alloc, cx);
    wj_free(alloc, cy);
    return rc;
}

/* How many leading entries two arrays (of prefix digests) share. */
static wj_code call_common_prefix_length(const wj_arg *a,
                                         const wj_name *names, size_t n_names,
                                         const wj_alloc *alloc, wj_result *res,
                                         wj_error *err)
{
    wj_name *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0, k = 0;
    int same = 1;
    wj_code rc;
    (void)names, (void)n_names;
    rc = wj_array_elements(a[0].ptr, a[0].len, alloc, &x, &nx, err);
    if (rc != WJ_OK)
        return wj_fail_in(err, rc, "a");
    rc = wj_array_elements(a[1].ptr, a[1].len, alloc, &y, &ny, err);
    if (rc != WJ_OK) {
        wj_free(alloc, x);
        return wj_fail_in(err, rc, "b");
    }
    while (k < nx && k < ny && rc == WJ_OK) {
        rc = same_entry(x[k], y[k], alloc, &same, err);
        if (rc != WJ_OK || !same)
            break;
        k++;
    }
    wj_free(alloc, x);
    wj_free(alloc, y);
    res->integer = (int64_t)k;
    return rc;
}

/* ------------------------------------------------------------ the table */

/* Each parameter: its name in the docs, its kind, its name in PostgreSQL's
 * install script and its name in Python's stub and wirejq's arguments. */
static const wj_param p_doc[] = {{"X", WJ_ARG_DOCUMENT, "doc", "doc"}};
static const wj_param p_wire[] = {
    {"X", WJ_ARG_DOCUMENT, "doc", "doc"},
    {"data_member", WJ_ARG_NAMES, "data_members", "data_members"}};
static const wj_param p_message[] = {
    {"M", WJ_ARG_DOCUMENT, "message", "doc"},
    {"ignored_member", WJ_ARG_NAMES, "ignored_members", "ignored"}};
static const wj_param p_messages[] = {
    {"A", WJ_ARG_DOCUMENT, "messages", "doc"}};
static const wj_param p_agg[] = {{"M", WJ_ARG_DOCUMENT, "message", "doc"}};
static const wj_param p_arguments[] = {
    {"T", WJ_ARG_TEXT, "arguments", "text"}};
static const wj_param p_top_level[] = {
    {"BODY", WJ_ARG_DOCUMENT, "body", "body"},
    {"NAME", WJ_ARG_NAME, "name", "name"},
    {"VALUE", WJ_ARG_VALUE, "value", "value"}};
static const wj_param p_tool_schemas[] = {
    {"BODY", WJ_ARG_DOCUMENT, "body", "body"},
    {"PATH", WJ_ARG_NAMES, "path", "path"}};
static const wj_param p_prompt[] = {
    {"BODY", WJ_ARG_DOCUMENT, "body", "body"},
    {"mode", WJ_ARG_WORD, "mode", "mode"}};
static const wj_param p_common[] = {{"a", WJ_ARG_DIGESTS, "a", "a"},
                                    {"b", WJ_ARG_DIGESTS, "b", "b"}};
static const wj_param p_encode[] = {
    {"BODY", WJ_ARG_DOCUMENT, "body", "body"},
    {"TEXTS", WJ_ARG_TEXTS, "texts", "texts"}};

#define PARAMS(p) p, sizeof p / sizeof *p
#define NO_PARAMS NULL, 0

/* clang-format off */
static const wj_function table[] = {
    {"wire_json", PARAMS(p_wire), WJ_RESULT_JSON,
     0,
     "the wire rendering: compact, sorted, a schema's properties in the "
     "order of its required array", call_wire_json,
     "The wire rendering: compact, members sorted by code point, a\n"
     "JSON Schema's properties in the order of its required; the\n"
     "top-level members named as data members are data (sorted,\n"
     "never read as schema)."},
    {"wire_json_sorted", PARAMS(p_doc), WJ_RESULT_JSON,
     0,
     "the wire rendering with every object sorted, no schema rule",
     call_wire_json_sorted,
     "The wire rendering with every object sorted (no property-map\n"
     "rule)."},
    {"canonical_json", PARAMS(p_doc), WJ_RESULT_JSON,
     WJ_FN_DOUBLES,
     "RFC 8785 canonical JSON, the identity key", call_canonical_json,
     "The canonical rendering, RFC 8785 (JCS): the identity key."},
    {"data_digest", PARAMS(p_doc), WJ_RESULT_DIGEST,
     WJ_FN_DOUBLES,
     "SHA-256 of the canonical JSON, 64 hex characters", call_data_digest,
     "SHA-256 of canonical_json(doc), 64 lowercase hex characters."},
    {"message_digest", PARAMS(p_message), WJ_RESULT_DIGEST,
     WJ_FN_DOUBLES,
     "digest of a chat message without its null members, extra and the "
     "members named", call_message_digest,
     "The digest of a chat message (a JSON object) without its null\n"
     "members, without extra and without the members named."},
    {"messages_digest", PARAMS(p_messages), WJ_RESULT_DIGEST,
     WJ_FN_DOUBLES,
     "digest of a conversation: SHA-256 of its messages' digests in order",
     call_messages_digest,
     "SHA-256 of the message_digest hex strings of the array's\n"
     "messages, in order."},
    {"messages_digest_agg", PARAMS(p_agg), WJ_RESULT_DIGEST,
     WJ_FN_AGGREGATE | WJ_FN_DOUBLES,
     "messages_digest of the rows' messages in order; as a window function, "
     "the prefix digest", NULL,
     "messages_digest of the rows' messages in order; as a window\n"
     "function, the digest of each prefix."},
    {"canonical_arguments", PARAMS(p_arguments), WJ_RESULT_TEXT,
     WJ_FN_RAW_TEXT,
     "a tool call's arguments as canonical JSON, or unchanged when they do "
     "not parse", call_canonical_arguments,
     "canonical_json(text) when it succeeds, else text unchanged (a\n"
     "tool call's arguments as models emit them)."},
    {"with_top_level", PARAMS(p_top_level), WJ_RESULT_BODY,
     WJ_FN_MAY_BE_NULL | WJ_FN_RAW_TEXT,
     "the body with every top-level member NAME set to VALUE, no other byte "
     "changed", call_with_top_level,
     "body with the value of every top-level member called name\n"
     "(after decoding escapes, under simple case folding) replaced\n"
     "by value, every other byte unchanged; None when body is not an\n"
     "object or holds no such member (or name is None).  value is a\n"
     "Python value: a str becomes a JSON string, a Fragment is\n"
     "spliced as it is, None is null."},
    {"tool_schemas", PARAMS(p_tool_schemas), WJ_RESULT_TEXTS,
     WJ_FN_MAY_BE_NULL | WJ_FN_RAW_TEXT | WJ_FN_PATH,
     "each tool's value at PATH, as the exact text the client sent",
     call_tool_schemas,
     "For each element of body's top-level tools array, the exact\n"
     "text found by following the member names of path (None for a\n"
     "tool without one), as a list; None when body has no top-level\n"
     "tools array."},
    {"encode_with_schemas", PARAMS(p_encode), WJ_RESULT_JSON,
     WJ_FN_MAY_BE_NULL | WJ_FN_RAW_TEXT,
     "the body in the wire rendering, tools spelled as models saw them",
     call_encode_with_schemas,
     "body in the wire rendering (data member messages) with its\n"
     "tools spelled the way function-calling models have seen them,\n"
     "each parameters written as the text in texts when it still\n"
     "says the same.  texts is JSON text or a list of str/None, as\n"
     "tool_schemas gives; None when the tools cannot be spelled."},
    {"wirejson_error", PARAMS(p_doc), WJ_RESULT_TEXT,
     WJ_FN_MAY_BE_NULL | WJ_FN_VERDICT,
     "NULL for valid input, else the error message", call_wirejson_error,
     "None when doc is valid input, else the error message (without\n"
     "a function name)."},
    {"wirejson_error_position", PARAMS(p_doc), WJ_RESULT_INTEGER,
     WJ_FN_MAY_BE_NULL | WJ_FN_VERDICT,
     "NULL for valid input, else the 0-based byte offset of the error",
     call_wirejson_error_position,
     "None when doc is valid input, else the 0-based byte offset of\n"
     "the error."},
    {"wirejson_version", NO_PARAMS, WJ_RESULT_TEXT,
     WJ_FN_STABLE,
     "the library version", call_version,
     "The version of the wirejson library."},
    {"prefix_digests", PARAMS(p_messages), WJ_RESULT_DIGESTS,
     0,
     "the messages_digest of every prefix of a conversation",
     call_prefix_digests,
     "A list of the messages_digest of each prefix of the array of\n"
     "messages doc (element k: of the first k+1 messages), in linear\n"
     "time."},
    {"prompt_prefix_digests", PARAMS(p_prompt), WJ_RESULT_DIGESTS,
     WJ_FN_RAW_TEXT,
     "the prompt-cache prefix digests of a request body: one per element, "
     "in mode sent, canonical or tools_set", call_prompt_prefix_digests,
     "A list of the prompt-cache prefix digests of the request body:\n"
     "one per element (model, tools and response format; system; each\n"
     "message), in mode sent (the default), canonical or tools_set."},
    {"common_prefix_length", PARAMS(p_common), WJ_RESULT_INTEGER,
     0,
     "the number of leading entries two arrays of prefix digests share",
     call_common_prefix_length,
     "The number of leading entries the arrays of prefix digests a\n"
     "and b share (a list or JSON text each)."},
    {"version", NO_PARAMS, WJ_RESULT_TEXT, WJ_FN_STABLE,
     "the library version", call_version,
     "The version of the wirejson library."},
};
/* clang-format on */

const wj_function *wj_functions(size_t *n)
{
    *n = sizeof table / sizeof *table;
    return table;
}

const wj_function *wj_function_find(const char *name, size_t len)
{
    size_t k;
    for (k = 0; k < sizeof table / sizeof *table; k++)
        if (strlen(table[k].name) == len && memcmp(table[k].name, name, len) == 0)
            return &table[k];
    return NULL;
}

/* The kind of fn's last parameter, or -1 when it has none. */
static int last_kind(const wj_function *fn)
{
    return fn->n_params > 0 ? (int)fn->params[fn->n_params - 1].kind : -1;
}

/* True when the last parameter may be left out (names or a word). */
static int takes_names(const wj_function *fn)
{
    return last_kind(fn) == WJ_ARG_NAMES || last_kind(fn) == WJ_ARG_WORD;
}

size_t wj_function_min_args(const wj_function *fn)
{
    return fn->n_params - (size_t)takes_names(fn);
}

size_t wj_function_max_args(const wj_function *fn)
{
    return last_kind(fn) == WJ_ARG_NAMES ? SIZE_MAX : fn->n_params;
}

/* The names a call holds on the stack; more are allocated. */
#define NAMES_ON_STACK 16

wj_code wj_function_call(const wj_function *fn, const wj_arg *args,
                         size_t n_args, const wj_alloc *alloc, wj_result *res,
                         wj_error *err)
{
    static const wj_arg json_null = {"null", 4};
    size_t fixed = wj_function_min_args(fn), n_names = 0, k;
    wj_name stack[NAMES_ON_STACK], *names = stack;
    wj_arg fixed_args[4];
    wj_code rc;

    memset(res, 0, sizeof *res);
    wj_error_clear(err);
    if (!fn->call || n_args < fixed || n_args > wj_function_max_args(fn) ||
        fixed > sizeof fixed_args / sizeof *fixed_args)
        return wj_fail(err, WJ_ERR_ARGUMENT, 0, "wrong number of arguments");
    for (k = 0; k < fixed; k++) {
        fixed_args[k] = args[k];
        if (args[k].ptr)
            continue;
        if (fn->params[k].kind != WJ_ARG_VALUE) {
            res->is_null = 1;
            return WJ_OK;
        }
        fixed_args[k] = json_null;
    }
    if (n_args - fixed > NAMES_ON_STACK) {
        names = wj_malloc(alloc, (n_args - fixed) * sizeof *names);
        if (!names)
            return wj_fail_nomem(err);
    }
    for (k = fixed; k < n_args; k++)
        if (args[k].ptr) {
            names[n_names].ptr = args[k].ptr;
            names[n_names++].len = args[k].len;
        }
    rc = fn->call(fixed_args, n_names ? names : NULL, n_names, alloc, res,
                  err);
    if (names != stack)
        wj_free(alloc, names);
    if (rc != WJ_OK)
        wj_result_free(alloc, res);
    return rc;
}

void wj_result_free(const wj_alloc *alloc, wj_result *res)
{
    if (res->text && res->text != res->digest)
        wj_free(alloc, res->text);
    res->text = NULL;
    res->len = 0;
}
