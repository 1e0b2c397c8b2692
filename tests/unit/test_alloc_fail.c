/* SPDX-License-Identifier: MIT */
/*
 * test_alloc_fail.c - every public function of the core under allocation
 * failure: for each call below, the n-th allocation through the wj_alloc
 * hook fails, for every n up to the number of allocations the call makes.
 * Each such call must return WJ_ERR_NOMEM (with err->code set and no
 * result), leave no block allocated, and not crash; one more than the count
 * must give the ordinary result again.
 */
#include "check.h"
#include "test_heap.h"
#include "wirejson.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- the calls */

typedef struct call call;
typedef wj_code (*call_fn)(const call *c, char **out, size_t *out_len,
                           char hex[WJ_DIGEST_HEX_SIZE], wj_error *err);

struct call {
    const char *what;
    call_fn fn;
    const char *a, *b, *c; /* the JSON text and the other arguments */
};

static size_t len_of(const char *s)
{
    return s ? strlen(s) : 0;
}

static wj_code do_validate(const call *c, char **out, size_t *out_len,
                           char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)out, (void)out_len, (void)hex;
    return wj_validate(c->a, len_of(c->a), &heap, err);
}

static wj_code do_wire(const call *c, char **out, size_t *out_len,
                       char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_name data = {c->b, len_of(c->b)};
    (void)hex;
    return wj_wire_json(c->a, len_of(c->a), &data, c->b ? 1 : 0, &heap, out,
                        out_len, err);
}

static wj_code do_sorted(const call *c, char **out, size_t *out_len,
                         char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)hex;
    return wj_wire_json_sorted(c->a, len_of(c->a), &heap, out, out_len, err);
}

static wj_code do_canonical(const call *c, char **out, size_t *out_len,
                            char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)hex;
    return wj_canonical_json(c->a, len_of(c->a), &heap, out, out_len, err);
}

static wj_code do_arguments(const call *c, char **out, size_t *out_len,
                            char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)hex;
    return wj_canonical_arguments(c->a, len_of(c->a), &heap, out, out_len,
                                  err);
}

static wj_code do_data_digest(const call *c, char **out, size_t *out_len,
                              char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)out, (void)out_len;
    return wj_data_digest(c->a, len_of(c->a), &heap, hex, err);
}

static wj_code do_message_digest(const call *c, char **out, size_t *out_len,
                                 char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_name ignored[2] = {{c->b, len_of(c->b)}, {c->c, len_of(c->c)}};
    (void)out, (void)out_len;
    return wj_message_digest(c->a, len_of(c->a), ignored,
                             c->c ? 2 : c->b ? 1 : 0, &heap, hex, err);
}

static wj_code do_messages_digest(const call *c, char **out, size_t *out_len,
                                  char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)out, (void)out_len;
    return wj_messages_digest(c->a, len_of(c->a), &heap, hex, err);
}

static wj_code do_quote(const call *c, char **out, size_t *out_len,
                        char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)hex;
    return wj_quote_text(c->a, len_of(c->a), &heap, out, out_len, err);
}

static wj_code do_with_top_level(const call *c, char **out, size_t *out_len,
                                 char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)hex;
    return wj_with_top_level(c->a, len_of(c->a), c->b, len_of(c->b), c->c,
                             len_of(c->c), &heap, out, out_len, err);
}

static wj_code do_tool_schemas(const call *c, char **out, size_t *out_len,
                               char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_name path[2] = {{c->b, len_of(c->b)}, {c->c, len_of(c->c)}};
    (void)hex;
    return wj_tool_schemas(c->a, len_of(c->a), path,
                           c->c ? 2 : c->b ? 1 : 0, &heap, out, out_len, err);
}

static wj_code do_encode(const call *c, char **out, size_t *out_len,
                         char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    (void)hex;
    return wj_encode_with_schemas(c->a, len_of(c->a), c->b, len_of(c->b),
                                  &heap, out, out_len, err);
}

#define BODY                                                                 \
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a\\n"  \
    "\\u0301\",\"properties\":{\"b\":1,\"a\":2},\"required\":[\"b\"]}],"     \
    "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","        \
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"y\":{},\"x\":"    \
    "{\"$defs\":{\"q\":{}}}},\"required\":[\"y\"]}}},{\"function\":{}}],"    \
    "\"\\u00e9\":[1.0,2e3,\"\\ud800\",\"\\ud83d\\ude00\",\"\\ue000\"]}"

/* Objects whose members are past the 4 KiB a reorder holds aside on the
 * stack (filled in by main: C99 promises string literals of 4,095 bytes). */
#define LONG_TEXT 4608
static char long_reorder[LONG_TEXT + 32];
static char long_swap[2 * LONG_TEXT + 32];
static char long_aside[2 * LONG_TEXT + 32];

static const call calls[] = {
    {"validate", do_validate, BODY, NULL, NULL},
    {"validate dup late", do_validate, "[{\"a\":1,\"b\":[2],\"\\u0061\":3}]",
     NULL, NULL},
    {"wire", do_wire, BODY, NULL, NULL},
    {"wire data member", do_wire, BODY, "messages", NULL},
    {"wire error late", do_wire, "{\"a\":[1,2,{}],\"b\":\"x\\q\"}", NULL, NULL},
    {"wire sorted", do_sorted, BODY, NULL, NULL},
    {"canonical", do_canonical, BODY, NULL, NULL},
    {"canonical utf16", do_canonical,
     "{\"\\ue000\":1,\"\\ud83d\\ude00\":2,\"\\ud83d\":3,\"a\":{\"\\ue001\":1,"
     "\"\\ud800\\udc00\":2}}", NULL, NULL},
    {"canonical range", do_canonical, "{\"a\":\"x\",\"b\":[1,1e400]}", NULL,
     NULL},
    {"canonical numbers grow", do_canonical,
     "[1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20,1e20]", NULL,
     NULL},
    {"canonical long reorder", do_canonical, long_reorder, NULL, NULL},
    {"canonical long swap", do_canonical, long_swap, NULL, NULL},
    {"canonical long aside", do_canonical, long_aside, NULL, NULL},
    {"arguments", do_arguments, "{\"b\":1,\"a\":[true,null]}", NULL, NULL},
    {"arguments not json", do_arguments, "{\"a\":1,", NULL, NULL},
    {"arguments range", do_arguments, "[1e999]", NULL, NULL},
    {"data_digest", do_data_digest, BODY, NULL, NULL},
    {"message_digest", do_message_digest,
     "{\"role\":\"user\",\"content\":\"c\",\"name\":null,\"extra\":{},\"ts\":"
     "1,\"\\ue000\":2,\"\\ud83d\\ude00\":3}", "ts", NULL},
    {"message_digest not object", do_message_digest, "[{}]", NULL, NULL},
    {"messages_digest", do_messages_digest,
     "[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\","
     "\"content\":\"u\",\"x\":null},{\"\\ue000\":1,\"\\ud83d\\ude00\":2}]",
     NULL, NULL},
    {"messages_digest bad element", do_messages_digest, "[{},{},3]", NULL,
     NULL},
    {"quote_text", do_quote, "a\x01\"\\\n\xcc\x81\xf0\x9f\x98\x80", NULL,
     NULL},
    {"with_top_level", do_with_top_level,
     "{\"model\":\"a\",\"x\":{\"model\":1},\"mod\\u0065l\" : \"b\",\"k\":"
     "{\"d\":1,\"d\":2}}", "model", "{\"n\":[1,2]}"},
    {"with_top_level absent", do_with_top_level, "{\"a\":1}", "b", "2"},
    {"with_top_level not object", do_with_top_level, "[1]", "a", "2"},
    {"with_top_level bad value", do_with_top_level, "{\"a\":1}", "a",
     "[1,2"},
    {"tool_schemas", do_tool_schemas, BODY, "function", "parameters"},
    {"tool_schemas no path", do_tool_schemas, BODY, NULL, NULL},
    {"tool_schemas no tools", do_tool_schemas, "{\"tools\":{}}", NULL, NULL},
    {"encode_with_schemas", do_encode, BODY,
     "[\"{ \\\"type\\\": \\\"object\\\", \\\"required\\\": [\\\"y\\\"], "
     "\\\"properties\\\": {\\\"x\\\": {\\\"$defs\\\": {\\\"q\\\": {}}}, "
     "\\\"y\\\": {}} }\",null]", NULL},
    {"encode_with_schemas differs", do_encode, BODY, "[\"{}\",\"[]\"]",
     NULL},
    {"encode_with_schemas bad texts", do_encode, BODY, "[1,2]", NULL},
};

/* ----------------------------------------------------------------- checks */

typedef struct outcome {
    wj_code rc;
    char *out; /* malloc'd copy of the result, or NULL */
    size_t len;
    char hex[WJ_DIGEST_HEX_SIZE];
} outcome;

/* Runs c with the fail_at-th allocation failing (0: none). */
static void run(const call *c, size_t fail_at, outcome *o)
{
    char *out = NULL;
    size_t out_len = 0;
    wj_error err = WJ_ERROR_INIT;

    heap_calls = 0;
    heap_fail_at = fail_at;
    memset(o->hex, 0, sizeof o->hex);
    o->rc = c->fn(c, &out, &out_len, o->hex, &err);
    CHECK(err.code == o->rc);
    o->out = NULL;
    o->len = out_len;
    if (out) {
        o->out = malloc(out_len + 1);
        memcpy(o->out, out, out_len + 1);
        heap_free(NULL, out);
    }
}

static int same_outcome(const outcome *a, const outcome *b)
{
    return a->rc == b->rc && (a->out == NULL) == (b->out == NULL) &&
           (!a->out || (a->len == b->len &&
                        memcmp(a->out, b->out, a->len) == 0)) &&
           memcmp(a->hex, b->hex, sizeof a->hex) == 0;
}

static void check_call(const call *c)
{
    outcome base, o;
    size_t total, n, failures = 0;

    run(c, 0, &base);
    total = heap_calls;
    CHECK(heap_live == 0);
    CHECK(total > 0);
    for (n = 1; n <= total; n++) {
        run(c, n, &o);
        if (o.rc != WJ_ERR_NOMEM || o.out != NULL || heap_live != 0) {
            if (failures++ < 3)
                fprintf(stderr,
                        "  %s: allocation %zu of %zu failed: code %d, "
                        "result %s, %ld blocks left\n",
                        c->what, n, total, (int)o.rc,
                        o.out ? "set" : "none", heap_live);
            heap_live = 0;
        }
        free(o.out);
    }
    CHECK(failures == 0);
    run(c, total + 1, &o);
    CHECK(same_outcome(&base, &o));
    free(o.out);
    free(base.out);
    printf("%-28s %3zu allocations, each failing in turn: %s\n", c->what,
           total, failures ? "FAILED" : "ok");
}

/* {"c":"xx…","b":1,"a":2}, {"b":"xx…","a":"xx…"} and
 * {"c":"xx…!","b":"xx…","a":2}. */
static void make_long_objects(void)
{
    char text[LONG_TEXT + 1];
    memset(text, 'x', LONG_TEXT);
    text[LONG_TEXT] = '\0';
    snprintf(long_reorder, sizeof long_reorder,
             "{\"c\":\"%s\",\"b\":1,\"a\":2}", text);
    snprintf(long_swap, sizeof long_swap, "{\"b\":\"%s\",\"a\":\"%s\"}",
             text, text);
    /* the longest member moves in place, the other long one waits aside */
    snprintf(long_aside, sizeof long_aside,
             "{\"c\":\"%s!\",\"b\":\"%s\",\"a\":2}", text, text);
}

int main(void)
{
    size_t k;
    make_long_objects();
    for (k = 0; k < sizeof calls / sizeof *calls; k++)
        check_call(&calls[k]);
    return check_report("test_alloc_fail");
}
