/* SPDX-License-Identifier: MIT */
/*
 * test_interrupted.c - the allocator's interrupted hook: every public
 * function that takes a wj_alloc asks it about once a MiB of input read or
 * output written, and stops with WJ_ERR_INTERRUPTED, holding nothing, when
 * it says so.  The hook here counts its calls and answers "stop" at the
 * third; the inputs are about 20 MB, so every call gets that far.
 */
#include "check.h"
#include "test_heap.h"
#include "wirejson.h"

#include <stdlib.h>
#include <string.h>

static size_t hook_calls, hook_stop_at; /* stop_at 0: never */

static int count_hook(void *ctx)
{
    (void)ctx;
    return ++hook_calls == hook_stop_at;
}

static const wj_alloc hooked = {heap_malloc, heap_realloc, heap_free, NULL,
                                count_hook};

#define MiB ((size_t)1 << 20)
#define SIZE (20 * MiB)

static char *messages; /* [{"role":"user","content":"..."},...] */
static size_t messages_len;
static char *message; /* {"role":"user","content":"<one long string>"} */
static size_t message_len;
static char *tools_body; /* {"tools":[{"parameters":{...}},...]} */
static size_t tools_body_len;
static char *texts; /* what wj_tool_schemas gives for tools_body */
static size_t texts_len;

/* Appends s to the growing text at *buf. */
static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
}

static void make_inputs(void)
{
    size_t cap = 0, k;
    /* escapes, non-ASCII and numbers, so that every path of the parser
     * and the renderers is in the way */
    static const char element[] =
        "{\"role\":\"user\",\"content\":\"caf\xc3\xa9 \\n \\u00e9 line\","
        "\"n\":[1.5,2e3,-0,true,null],\"z\":\"\xe4\xb8\xad\xe6\x96\x87\"}";
    static const char tool[] =
        "{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":"
        "{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"string\"},"
        "\"a\":{\"type\":\"number\"}},\"required\":[\"b\",\"a\"]}}}";

    append(&messages, &messages_len, &cap, "[");
    for (k = 0; messages_len < SIZE; k++) {
        if (k)
            append(&messages, &messages_len, &cap, ",");
        append(&messages, &messages_len, &cap, element);
    }
    append(&messages, &messages_len, &cap, "]");

    message_len = SIZE;
    message = malloc(message_len + 1);
    memcpy(message, "{\"role\":\"user\",\"content\":\"", 26);
    for (k = 26; k < message_len - 2; k++) /* ASCII and a 2-byte character */
        message[k] = k % 64 == 0 ? '\xc3' : k % 64 == 1 ? '\xa9' : 'x';
    memcpy(message + message_len - 2, "\"}", 3);

    cap = 0;
    append(&tools_body, &tools_body_len, &cap, "{\"tools\":[");
    for (k = 0; tools_body_len < SIZE; k++) {
        if (k)
            append(&tools_body, &tools_body_len, &cap, ",");
        append(&tools_body, &tools_body_len, &cap, tool);
    }
    append(&tools_body, &tools_body_len, &cap, "],\"messages\":[]}");
}

/* Arms the hook to stop at its third call and resets the heap's count. */
static void arm(void)
{
    hook_calls = 0;
    hook_stop_at = 3;
    heap_calls = 0;
    heap_fail_at = 0;
}

/* Checks that a call stopped at the hook's third answer, cleanly. */
static void check_stopped(int line, const char *func, wj_code rc,
                          const wj_error *err, const void *out)
{
    char msg[128];
    check_count++;
    if (rc != WJ_ERR_INTERRUPTED || hook_calls != 3 || heap_live != 0 ||
        out != NULL || err->code != WJ_ERR_INTERRUPTED) {
        check_failures++;
        fprintf(stderr,
                "%s:%d: %s: rc %d, %zu hook calls, %ld blocks held, out %s\n",
                __FILE__, line, func, (int)rc, hook_calls, heap_live,
                out ? "set" : "NULL");
    }
    wj_error_format(err, func, msg, sizeof msg);
    CHECK(strcmp(msg, func) == 0 || strstr(msg, ": interrupted") != NULL);
}

#define STOPPED(func, rc, out) check_stopped(__LINE__, func, rc, &err, out)

static void test_renderings(void)
{
    static const wj_name data = {"messages", 8};
    wj_error err;
    char *out = NULL;
    size_t len;

    arm();
    STOPPED("wj_validate", wj_validate(messages, messages_len, &hooked, &err),
            NULL);
    arm();
    STOPPED("wj_validate", wj_validate(message, message_len, &hooked, &err),
            NULL);
    arm();
    STOPPED("wj_wire_json",
            wj_wire_json(messages, messages_len, &data, 1, &hooked, &out, &len,
                         &err),
            out);
    arm();
    STOPPED(
        "wj_wire_json_sorted",
        wj_wire_json_sorted(message, message_len, &hooked, &out, &len, &err),
        out);
    arm();
    STOPPED(
        "wj_canonical_json",
        wj_canonical_json(messages, messages_len, &hooked, &out, &len, &err),
        out);
    arm();
    STOPPED("wj_canonical_arguments",
            wj_canonical_arguments(messages, messages_len, &hooked, &out, &len,
                                   &err),
            out);
    arm();
    STOPPED("wj_quote_text",
            wj_quote_text(messages, messages_len, &hooked, &out, &len, &err),
            out);
    arm();
    STOPPED("wj_with_top_level",
            wj_with_top_level(tools_body, tools_body_len, "tools", 5, "1", 1,
                              &hooked, &out, &len, &err),
            out);
    arm();
    STOPPED("wj_with_top_level",
            wj_with_top_level("{\"a\":1}", 7, "a", 1, messages, messages_len,
                              &hooked, &out, &len, &err),
            out);
    arm();
    STOPPED("wj_tool_schemas",
            wj_tool_schemas(tools_body, tools_body_len, NULL, 0, &hooked, &out,
                            &len, &err),
            out);
    arm();
    STOPPED("wj_encode_with_schemas",
            wj_encode_with_schemas(tools_body, tools_body_len, texts, texts_len,
                                   &hooked, &out, &len, &err),
            out);
}

static void test_digests(void)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;

    arm();
    STOPPED("wj_data_digest",
            wj_data_digest(messages, messages_len, &hooked, hex, &err), NULL);
    arm();
    STOPPED(
        "wj_message_digest",
        wj_message_digest(message, message_len, NULL, 0, &hooked, hex, &err),
        NULL);
    arm();
    STOPPED("wj_messages_digest",
            wj_messages_digest(messages, messages_len, &hooked, hex, &err),
            NULL);
}

/* The rows of the table of functions that take one document, through
 * wj_function_call: each stops too, its result released. */
static void test_table(void)
{
    size_t n, k;
    const wj_function *fns = wj_functions(&n);
    wj_error err;

    for (k = 0; k < n; k++) {
        const wj_function *fn = &fns[k];
        wj_result res;
        wj_arg arg;
        if (!fn->call || wj_function_min_args(fn) != 1)
            continue;
        arg.ptr = strcmp(fn->name, "message_digest") == 0 ? message
                  : strcmp(fn->name, "tool_schemas") == 0 ? tools_body
                                                          : messages;
        arg.len = arg.ptr == message      ? message_len
                  : arg.ptr == tools_body ? tools_body_len
                                          : messages_len;
        arm();
        STOPPED(fn->name,
                wj_function_call(fn, &arg, 1, &hooked, &res, &err), res.text);
    }
}

static void test_objects(void)
{
    static const char piece[] = "caf\xc3\xa9 and a line\nthat goes on ";
    wj_conversation *conv = NULL;
    wj_writer *w = NULL;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc = WJ_OK;
    size_t written = 0;

    arm();
    CHECK(wj_conversation_new(&hooked, &conv) == WJ_OK);
    rc = wj_conversation_push(conv, message, message_len, &err);
    CHECK(wj_conversation_length(conv) == 0);
    wj_conversation_free(conv);
    STOPPED("wj_conversation_push", rc, NULL);

    /* The writer asks once a MiB written; its failure is sticky. */
    arm();
    CHECK(wj_writer_new(&hooked, &w) == WJ_OK);
    rc = wj_writer_begin_array(w);
    while (rc == WJ_OK && written < SIZE) {
        rc = wj_writer_string(w, piece, sizeof piece - 1);
        written += sizeof piece + 2;
    }
    CHECK(wj_writer_text(w, NULL, &err) == NULL);
    CHECK(wj_writer_null(w) == WJ_ERR_INTERRUPTED);
    wj_writer_free(w);
    STOPPED("wj_writer_string", rc, NULL);

    arm();
    CHECK(wj_writer_new_digest(&hooked, &w) == WJ_OK);
    rc = wj_writer_begin_array(w);
    while (rc == WJ_OK && written < 2 * SIZE) {
        rc = wj_writer_string(w, piece, sizeof piece - 1);
        written += sizeof piece + 2;
    }
    CHECK(wj_writer_digest(w, hex, &err) == WJ_ERR_INTERRUPTED);
    wj_writer_free(w);
    STOPPED("wj_writer_string (digest writer)", rc, NULL);

    /* SHA-256 of a long text asks too: write it all, then stop in the
     * digest. */
    hook_calls = 0;
    hook_stop_at = 0;
    CHECK(wj_writer_new(&hooked, &w) == WJ_OK);
    CHECK(wj_writer_raw(w, messages, messages_len) == WJ_OK);
    hook_calls = 0;
    hook_stop_at = 3;
    rc = wj_writer_digest(w, hex, &err);
    wj_writer_free(w);
    STOPPED("wj_writer_digest", rc, NULL);
}

/* A hook that never says stop changes nothing, and is asked about once a
 * MiB: as many times as there are MiB in the input, give or take a few. */
static void test_same_results(void)
{
    char *a = NULL, *b = NULL;
    size_t a_len = 0, b_len = 0;
    char h1[WJ_DIGEST_HEX_SIZE], h2[WJ_DIGEST_HEX_SIZE];
    wj_error err;

    hook_calls = 0;
    hook_stop_at = 0;
    CHECK(wj_validate(messages, messages_len, &hooked, &err) == WJ_OK);
    CHECK(hook_calls >= SIZE / MiB - 1 && hook_calls <= SIZE / MiB + 2);

    CHECK(wj_canonical_json(messages, messages_len, NULL, &a, &a_len, &err) ==
          WJ_OK);
    hook_calls = 0;
    CHECK(wj_canonical_json(messages, messages_len, &hooked, &b, &b_len,
                            &err) == WJ_OK);
    /* the parse's 20 and the output's (about as long) */
    CHECK(hook_calls >= 2 * (SIZE / MiB) - 4 &&
          hook_calls <= 2 * (SIZE / MiB) + 4);
    CHECK(a && b && a_len == b_len && memcmp(a, b, a_len) == 0);
    wj_free(NULL, a);
    wj_free(&hooked, b);
    CHECK(wj_wire_json(message, message_len, NULL, 0, NULL, &a, &a_len, &err) ==
          WJ_OK);
    hook_calls = 0;
    CHECK(wj_wire_json(message, message_len, NULL, 0, &hooked, &b, &b_len,
                       &err) == WJ_OK);
    /* the parse's 20 (a string copied as it is goes in one memcpy) */
    CHECK(hook_calls >= SIZE / MiB - 1 && hook_calls <= 2 * (SIZE / MiB) + 4);
    CHECK(a && b && a_len == b_len && memcmp(a, b, a_len) == 0);
    wj_free(NULL, a);
    wj_free(&hooked, b);
    CHECK(wj_messages_digest(messages, messages_len, NULL, h1, &err) == WJ_OK);
    CHECK(wj_messages_digest(messages, messages_len, &hooked, h2, &err) ==
          WJ_OK);
    CHECK(strcmp(h1, h2) == 0);
    CHECK(heap_live == 0);
}

int main(void)
{
    wj_error err = WJ_ERROR_INIT;
    char msg[64];

    make_inputs();
    CHECK(wj_tool_schemas(tools_body, tools_body_len, NULL, 0, NULL, &texts,
                          &texts_len, NULL) == WJ_OK);
    err.code = WJ_ERR_INTERRUPTED;
    err.msg = "interrupted";
    wj_error_format(&err, "wire_json", msg, sizeof msg);
    CHECK(strcmp(msg, "wire_json: interrupted") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_INTERRUPTED), "interrupted") == 0);

    test_renderings();
    test_digests();
    test_table();
    test_objects();
    test_same_results();

    wj_free(NULL, texts);
    free(messages);
    free(message);
    free(tools_body);
    return check_report("test_interrupted");
}
