/* SPDX-License-Identifier: MIT */
/*
 * test_conversation.c - the conversation digest (wj_conversation_*): push,
 * drop and digest against wj_messages_digest of the same arrays, for a
 * growing conversation, a sliding window and one emptied and refilled; the
 * digests of hand-written messages against hashlib; errors; allocation
 * failure; and the error API (wj_error's argument and element fields,
 * wj_error_format, wj_code_name).
 */
#include "check.h"
#include "test_heap.h"
#include "wirejson.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- helpers */

#define EMPTY "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/* Message k of a long conversation: distinct, with escapes and numbers. */
static const char *message(size_t k, char *buf, size_t size)
{
    static const char *roles[] = {"user", "assistant", "tool", "system"};
    snprintf(buf, size,
             "{\"role\":\"%s\",\"content\":\"m\\u0065ssage %zu\","
             "\"n\":%zu.0,\"extra\":{\"k\":%zu},\"name\":null}",
             roles[k % 4], k, k, k);
    return buf;
}

/* The JSON array of messages [from, to) in the growing buffer *arr. */
static size_t array_of(size_t from, size_t to, char **arr, size_t *cap)
{
    char one[256];
    size_t len = 0, k;
    for (k = from; k < to + (from == to); k++) {
        size_t need;
        const char *m = from == to ? "" : message(k, one, sizeof one);
        need = len + strlen(m) + 3;
        if (need > *cap) {
            *cap = need * 2;
            *arr = realloc(*arr, *cap);
        }
        (*arr)[len++] = k == from ? '[' : ',';
        memcpy(*arr + len, m, strlen(m));
        len += strlen(m);
    }
    (*arr)[len++] = ']';
    (*arr)[len] = '\0';
    return len;
}

/* The conversation's digest equals messages_digest of messages [from, to). */
static void check_same(wj_conversation *c, size_t from, size_t to)
{
    static char *arr;
    static size_t cap;
    char got[WJ_DIGEST_HEX_SIZE], want[WJ_DIGEST_HEX_SIZE];
    size_t len;
    wj_error err;

    if (!c) { /* release the buffer */
        free(arr);
        arr = NULL;
        cap = 0;
        return;
    }
    len = array_of(from, to, &arr, &cap);
    CHECK(wj_conversation_length(c) == to - from);
    CHECK(wj_conversation_digest(c, got, &err) == WJ_OK && err.code == WJ_OK);
    CHECK(wj_messages_digest(arr, len, NULL, want, NULL) == WJ_OK);
    CHECK(strcmp(got, want) == 0);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "  messages [%zu, %zu)\n", from, to);
}

static wj_code push_message(wj_conversation *c, size_t k)
{
    char one[256];
    const char *m = message(k, one, sizeof one);
    return wj_conversation_push(c, m, strlen(m), NULL);
}

/* ------------------------------------------------------------------ tests */

static void test_hand_written(void)
{
    wj_conversation *c = NULL;
    char hex[WJ_DIGEST_HEX_SIZE];
    const char *m1 = "{\"role\":\"user\",\"content\":\"hi\"}";
    const char *m2 =
        "{\"content\":\"yo\",\"role\":\"assistant\",\"extra\":1,\"name\":null}";

    CHECK(wj_conversation_new(NULL, &c) == WJ_OK && c);
    CHECK(wj_conversation_length(c) == 0);
    CHECK(wj_conversation_digest(c, hex, NULL) == WJ_OK);
    CHECK(strcmp(hex, EMPTY) == 0);
    CHECK(wj_conversation_push(c, m1, strlen(m1), NULL) == WJ_OK);
    /* hashlib: sha256(sha256('{"content":"hi","role":"user"}').hexdigest()) */
    CHECK(wj_conversation_digest(c, hex, NULL) == WJ_OK);
    CHECK(strcmp(hex, "9990699f0badbefda87aff0edb70a633"
                      "13437d46b9b51df43191caacc00001a4") == 0);
    CHECK(wj_conversation_push(c, m2, strlen(m2), NULL) == WJ_OK);
    /* hashlib: sha256(h1 + h2), h2 =
     * sha256('{"content":"yo","role":"assistant"}') */
    CHECK(wj_conversation_digest(c, hex, NULL) == WJ_OK);
    CHECK(strcmp(hex, "e520a5596ba3d049c23cb190b3c3a25c"
                      "e21a7899f2ba3dc53484d36f08c2f1cd") == 0);
    /* reading twice changes nothing */
    CHECK(wj_conversation_digest(c, hex, NULL) == WJ_OK);
    CHECK(strcmp(hex, "e520a5596ba3d049c23cb190b3c3a25c"
                      "e21a7899f2ba3dc53484d36f08c2f1cd") == 0);
    /* dropping the first leaves sha256(h2) */
    CHECK(wj_conversation_drop(c, NULL) == WJ_OK);
    CHECK(wj_conversation_length(c) == 1);
    CHECK(wj_conversation_digest(c, hex, NULL) == WJ_OK);
    /* hashlib:
     * sha256(sha256('{"content":"yo","role":"assistant"}').hexdigest()) */
    CHECK(strcmp(hex, "01251cdc9fad8dc59a300ee7e7b77e0f"
                      "23f4088419e47bc50d159a5ba15e892d") == 0);
    CHECK(wj_conversation_drop(c, NULL) == WJ_OK);
    CHECK(wj_conversation_digest(c, hex, NULL) == WJ_OK);
    CHECK(strcmp(hex, EMPTY) == 0);
    wj_conversation_free(c);
    wj_conversation_free(NULL); /* a no-op */
}

static void test_growing(void)
{
    wj_conversation *c = NULL;
    size_t k;
    CHECK(wj_conversation_new(NULL, &c) == WJ_OK);
    check_same(c, 0, 0);
    for (k = 0; k < 300; k++) {
        CHECK(push_message(c, k) == WJ_OK);
        check_same(c, 0, k + 1);
    }
    wj_conversation_free(c);
}

/* A window of w messages sliding over n: push one, drop the oldest. */
static void test_sliding(size_t w, size_t n)
{
    wj_conversation *c = NULL;
    size_t k;
    CHECK(wj_conversation_new(NULL, &c) == WJ_OK);
    for (k = 0; k < n; k++) {
        CHECK(push_message(c, k) == WJ_OK);
        if (k >= w)
            CHECK(wj_conversation_drop(c, NULL) == WJ_OK);
        check_same(c, k >= w ? k + 1 - w : 0, k + 1);
    }
    /* drain it, digest after each drop */
    for (k = n > w ? n - w : 0; k < n; k++) {
        CHECK(wj_conversation_drop(c, NULL) == WJ_OK);
        check_same(c, k + 1, n);
    }
    check_same(c, n, n);
    /* and refill */
    CHECK(push_message(c, 7) == WJ_OK);
    check_same(c, 7, 8);
    wj_conversation_free(c);
}

/* Several drops between digests, pushes while stale. */
static void test_stale(void)
{
    wj_conversation *c = NULL;
    size_t k;
    CHECK(wj_conversation_new(NULL, &c) == WJ_OK);
    for (k = 0; k < 50; k++)
        CHECK(push_message(c, k) == WJ_OK);
    for (k = 0; k < 10; k++)
        CHECK(wj_conversation_drop(c, NULL) == WJ_OK);
    for (k = 50; k < 60; k++)
        CHECK(push_message(c, k) == WJ_OK);
    check_same(c, 10, 60);
    for (k = 60; k < 70; k++)
        CHECK(push_message(c, k) == WJ_OK);
    check_same(c, 10, 70);
    wj_conversation_free(c);
}

static void test_errors(void)
{
    wj_conversation *c = NULL;
    wj_error err;
    CHECK(wj_conversation_new(NULL, &c) == WJ_OK);
    CHECK(wj_conversation_drop(c, &err) == WJ_ERR_ARGUMENT);
    CHECK(err.code == WJ_ERR_ARGUMENT && err.msg &&
          strcmp(err.msg, "the conversation holds no message to drop") == 0);
    /* a push's errors are message_digest's, and nothing is appended */
    CHECK(wj_conversation_push(c, "[1]", 3, &err) == WJ_ERR_TYPE);
    CHECK(strcmp(err.msg, "a message must be a JSON object") == 0);
    CHECK(wj_conversation_push(c, "{\"a\":", 5, &err) == WJ_ERR_SYNTAX);
    CHECK(err.offset == 5);
    CHECK(wj_conversation_push(c, "{\"a\":1e400}", 11, &err) == WJ_ERR_RANGE);
    CHECK(wj_conversation_push(c, "{\"a\":1,\"a\":2}", 13, &err) ==
          WJ_ERR_DUPLICATE);
    check_same(c, 0, 0);
    CHECK(push_message(c, 3) == WJ_OK);
    CHECK(wj_conversation_push(c, "7", 1, &err) == WJ_ERR_TYPE);
    check_same(c, 3, 4);
    wj_conversation_free(c);
}

static void test_alloc_fail(void)
{
    size_t total, k, j;
    wj_conversation *c;

    /* count the allocations of a run */
    heap_fail_at = 0;
    heap_calls = 0;
    CHECK(wj_conversation_new(&heap, &c) == WJ_OK);
    for (j = 0; j < 40; j++)
        CHECK(push_message(c, j) == WJ_OK);
    wj_conversation_free(c);
    total = heap_calls;
    CHECK(heap_live == 0);

    for (k = 1; k <= total; k++) {
        wj_code rc = WJ_OK;
        heap_calls = 0;
        heap_fail_at = k;
        c = NULL;
        if (wj_conversation_new(&heap, &c) != WJ_OK) {
            CHECK(c == NULL && k == 1 && heap_live == 0);
            continue;
        }
        for (j = 0; j < 40 && rc == WJ_OK; j++) {
            wj_error err;
            char one[256];
            const char *m = message(j, one, sizeof one);
            rc = wj_conversation_push(c, m, strlen(m), &err);
            if (rc != WJ_OK)
                CHECK(rc == WJ_ERR_NOMEM && err.code == WJ_ERR_NOMEM);
        }
        CHECK(rc == WJ_ERR_NOMEM);
        /* what was pushed before the failure is held, and right */
        heap_fail_at = 0;
        check_same(c, 0, j - 1);
        wj_conversation_free(c);
        CHECK(heap_live == 0);
    }
    heap_fail_at = 0;
}

/* The error fields and their one spelling (wj_error_format). */
static void test_error_api(void)
{
    char buf[200];
    const char *text = buf; /* CHECK_BYTES tests its pointer for NULL */
    char hex[WJ_DIGEST_HEX_SIZE];
    char *out = NULL;
    size_t n;
    wj_error err = {WJ_ERR_SYNTAX, 9, "stale", "stale", 4};

    /* every function resets the fields on entry */
    CHECK(wj_validate("[1]", 3, NULL, &err) == WJ_OK);
    CHECK(err.code == WJ_OK && err.argument == NULL &&
          err.element == WJ_NO_ELEMENT);

    /* an element's error names its 0-based index */
    CHECK(wj_messages_digest("[{},{\"role\":\"user\"},3]", 22, NULL, hex,
                             &err) == WJ_ERR_TYPE);
    CHECK(err.element == 2 && err.argument == NULL);
    n = wj_error_format(&err, "messages_digest", buf, sizeof buf);
    CHECK_BYTES(text, n, "messages_digest: element 2 is not a JSON object");
    CHECK(wj_messages_digest("[[]]", 4, NULL, hex, &err) == WJ_ERR_TYPE);
    n = wj_error_format(&err, NULL, buf, sizeof buf);
    CHECK_BYTES(text, n, "element 0 is not a JSON object");
    /* the array itself of the wrong kind: no element */
    CHECK(wj_messages_digest("{}", 2, NULL, hex, &err) == WJ_ERR_TYPE);
    CHECK(err.element == WJ_NO_ELEMENT);

    /* an argument's error names it */
    CHECK(wj_encode_with_schemas("{\"tools\":[{}]}", 14, "nope", 4, NULL, &out,
                                 &n, &err) == WJ_ERR_SYNTAX);
    CHECK(out == NULL && err.argument && strcmp(err.argument, "texts") == 0);
    n = wj_error_format(&err, "encode_with_schemas", buf, sizeof buf);
    CHECK_BYTES(text, n,
                "encode_with_schemas: texts: malformed JSON at byte 1: "
                "invalid literal");
    /* ... but not for the body */
    CHECK(wj_encode_with_schemas("{", 1, "[]", 2, NULL, &out, &n, &err) ==
          WJ_ERR_SYNTAX);
    CHECK(err.argument == NULL);

    /* the spellings, by hand */
    {
        wj_error e = WJ_ERROR_INIT;
        e.code = WJ_ERR_RANGE;
        e.offset = 5;
        e.msg = "rounds to infinity";
        e.argument = "value";
        n = wj_error_format(&e, "with_top_level", buf, sizeof buf);
        CHECK_BYTES(text, n,
                    "with_top_level: value: number out of range at byte 5: "
                    "rounds to infinity");
        e.code = WJ_ERR_ARGUMENT;
        e.msg = "not a finite number";
        n = wj_error_format(&e, NULL, buf, sizeof buf);
        CHECK_BYTES(text, n, "value: not a finite number");
        e.argument = NULL;
        e.element = 12;
        e.code = WJ_ERR_TYPE;
        e.msg = "is not a JSON object";
        n = wj_error_format(&e, "f", buf, sizeof buf);
        CHECK_BYTES(text, n, "f: element 12 is not a JSON object");
        /* the length needed, as snprintf */
        CHECK(wj_error_format(&e, "f", buf, 4) == n && strcmp(buf, "f: ") == 0);
    }

    CHECK(strcmp(wj_code_name(WJ_OK), "ok") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_SYNTAX), "syntax") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_UTF8), "utf8") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_DUPLICATE), "duplicate") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_DEPTH), "depth") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_RANGE), "range") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_TYPE), "type") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_ARGUMENT), "argument") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_NOMEM), "nomem") == 0);
    CHECK(strcmp(wj_code_name(WJ_ERR_TOOBIG), "toobig") == 0);
    CHECK(strcmp(wj_code_name((wj_code)99), "unknown") == 0);
}

int main(void)
{
    test_hand_written();
    test_growing();
    test_sliding(1, 20);
    test_sliding(3, 100);
    test_sliding(40, 400);
    test_stale();
    test_errors();
    test_alloc_fail();
    test_error_api();
    check_same(NULL, 0, 0);
    return check_report("test_conversation");
}
