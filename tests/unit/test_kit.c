/* SPDX-License-Identifier: MIT */
/*
 * test_kit.c - the kit (kit/wirejson_kit.h): where each function exists,
 * wirejq's shapes, buffers whose failure sticks, the digest table, and the
 * dedup job's line rules.  Expected values are written by hand from
 * docs/functions.md and docs/cli.md.
 */
#include "check.h"
#include "jq_shapes.h"
#include "wirejson.h"
#include "wirejson_kit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const wj_function *row(const char *name)
{
    const wj_function *fn = wj_function_find(name, strlen(name));
    if (!fn) {
        fprintf(stderr, "no row %s\n", name);
        exit(1);
    }
    return fn;
}

/* docs/functions.md's "where" column, by hand. */
static void test_hosts(void)
{
    size_t n, k;
    const wj_function *t = wj_functions(&n);
    CHECK(wk_function_hosts(row("wire_json")) == WK_HOST_ALL);
    CHECK(wk_function_hosts(row("prompt_prefix_digests")) == WK_HOST_ALL);
    CHECK(wk_function_hosts(row("messages_digest_agg")) == WK_HOST_SQL);
    CHECK(wk_function_hosts(row("wirejson_error_position")) ==
          (WK_HOST_SQL | WK_HOST_PYTHON | WK_HOST_CLI));
    CHECK(wk_function_hosts(row("wirejson_version")) ==
          (WK_HOST_SQL | WK_HOST_CLI));
    CHECK(wk_function_hosts(row("prefix_digests")) ==
          (WK_HOST_DUCKDB | WK_HOST_PYTHON | WK_HOST_JQ | WK_HOST_CLI));
    CHECK(wk_function_hosts(row("version")) == WK_HOST_PYTHON);
    for (k = 0; k < n; k++)
        CHECK(wk_function_hosts(&t[k]) != 0);
}

/* tool_schemas is a list of texts whose path wirejq always takes; raw
 * bodies take a string's own bytes in wirejq; wirejson_error takes only a
 * string there; every NAME_text form is of a function wirejq has. */
static void test_jq_shapes(void)
{
    size_t n, k;
    const wj_function *t = wj_functions(&n);
    CHECK(jq_shape(row("tool_schemas")) & JQ_SHAPE_NAMES_GIVEN);
    CHECK(jq_shape(row("with_top_level")) & JQ_SHAPE_RAW_INPUT);
    CHECK(jq_shape(row("canonical_arguments")) & JQ_SHAPE_RAW_INPUT);
    CHECK(jq_shape(row("wirejson_error")) & JQ_SHAPE_STRING_INPUT);
    CHECK(jq_shape(row("wire_json")) == JQ_SHAPE_TEXT);
    CHECK(jq_shape(row("common_prefix_length")) == 0);
    CHECK(jq_shape(row("prefix_digests")) == 0);
    CHECK(jq_shape(row("encode_with_schemas")) == JQ_SHAPE_RAW_INPUT);
    for (k = 0; k < n; k++) {
        if (jq_shape(&t[k]) & JQ_SHAPE_TEXT)
            CHECK(wk_function_hosts(&t[k]) & WK_HOST_JQ);
        if (jq_shape(&t[k]) & JQ_SHAPE_NAMES_GIVEN)
            CHECK(t[k].n_params > 0 &&
                  t[k].params[t[k].n_params - 1].kind == WJ_ARG_NAMES);
    }
}

/* Every row's fixed arguments fit the hosts' arrays. */
static void test_max_fixed(void)
{
    size_t n, k;
    const wj_function *t = wj_functions(&n);
    int reached = 0;
    for (k = 0; k < n; k++) {
        CHECK(wj_function_min_args(&t[k]) <= WK_MAX_FIXED);
        reached |= wj_function_min_args(&t[k]) == WK_MAX_FIXED;
    }
    CHECK(reached); /* no larger than it needs to be */
}

static int null_args(const void *host, size_t k)
{
    return ((const char *)host)[k] == 'N';
}

/* The arity and NULL rule: with_top_level(BODY, NAME, VALUE) is NULL when
 * BODY or NAME is, not when VALUE is; wire_json takes any number of names;
 * an aggregate is never called. */
static void test_call_check(void)
{
    wj_error err = WJ_ERROR_INIT;
    CHECK(wk_call_check(row("with_top_level"), 3, null_args, "xxx", &err) ==
          WK_CALL_RUN);
    CHECK(wk_call_check(row("with_top_level"), 3, null_args, "xxN", &err) ==
          WK_CALL_RUN);
    CHECK(wk_call_check(row("with_top_level"), 3, null_args, "xNx", &err) ==
          WK_CALL_NULL);
    CHECK(wk_call_check(row("with_top_level"), 3, null_args, "Nxx", &err) ==
          WK_CALL_NULL);
    CHECK(wk_call_check(row("with_top_level"), 2, null_args, "Nx", &err) ==
          WK_CALL_ARITY);
    CHECK(err.code == WJ_ERR_ARGUMENT &&
          strcmp(err.msg, "wrong number of arguments") == 0);
    CHECK(wk_call_check(row("wire_json"), 9, null_args, "xNNNNNNNN", &err) ==
          WK_CALL_RUN);
    CHECK(wk_call_check(row("wire_json"), 0, NULL, NULL, &err) ==
          WK_CALL_ARITY);
    CHECK(wk_call_check(row("prompt_prefix_digests"), 3, NULL, NULL, &err) ==
          WK_CALL_ARITY);
    CHECK(wk_call_check(row("messages_digest_agg"), 1, NULL, NULL, &err) ==
          WK_CALL_ARITY);
}

/* A list of digests read by position: the layout written by hand. */
static void test_digests(void)
{
    static const char two[] =
        "[\"0000000000000000000000000000000000000000000000000000000000000001\","
        "\"abababababababababababababababababababababababababababababababab\"]";
    size_t n = 99;
    const char *hex = wk_digests("[]", 2, &n);
    CHECK(n == 0);
    hex = wk_digests(two, strlen(two), &n);
    CHECK(n == 2);
    CHECK(hex && strncmp(hex, "00000000000000000000000000000000"
                              "00000000000000000000000000000001", 64) == 0);
    CHECK(hex && strncmp(hex + WK_DIGEST_STRIDE, "abababababababababababab"
                                                 "abababababababababababab"
                                                 "abababababababab", 64) == 0);
}

/* Appends land in order; a failed reserve sticks, and later appends do
 * nothing. */
static void test_buffer(void)
{
    wk_buf b = {0};
    size_t k;
    CHECK(wk_buf_append(&b, "ab", 2) == 0);
    for (k = 0; k < 5000; k++)
        CHECK(wk_buf_append(&b, "c", 1) == 0);
    CHECK(b.len == 5002 && memcmp(b.ptr, "abc", 3) == 0 && b.ptr[5001] == 'c');
    CHECK(!wk_buf_failed(&b));
    CHECK(wk_buf_reserve(&b, SIZE_MAX - 10) == -1);
    CHECK(wk_buf_failed(&b));
    CHECK(wk_buf_append(&b, "d", 1) == -1);
    CHECK(b.len == 5002);
    wk_buf_free(&b);
    CHECK(b.ptr == NULL && b.len == 0 && !wk_buf_failed(&b));
}

/* An array grows by doubling from 1024 and keeps what it held; an empty
 * one is still an array. */
static void test_array(void)
{
    size_t cap = 0, k;
    int *v = wk_array_grow(NULL, &cap, 0, sizeof *v);
    CHECK(v != NULL && cap == 1024);
    for (k = 0; k < 1024; k++)
        v[k] = (int)k;
    CHECK(wk_array_grow(v, &cap, 1024, sizeof *v) == v && cap == 1024);
    v = wk_array_grow(v, &cap, 3000, sizeof *v);
    CHECK(v != NULL && cap == 4096 && v[1023] == 1023 && v[7] == 7);
    CHECK(wk_array_grow(v, &cap, SIZE_MAX / 2, sizeof *v) == NULL);
    CHECK(cap == 4096);
    free(v);
}

typedef struct counted {
    unsigned char key[32];
    uint64_t count;
} counted;

/* Keys come back in the order first put, each once, across growth. */
static void test_digest_table(void)
{
    wk_digest_table t;
    unsigned char key[32];
    size_t k;
    int fresh;
    wk_digest_table_init(&t, sizeof(counted));
    for (k = 0; k < 300000; k++) {
        counted *e;
        memset(key, 0, sizeof key);
        memcpy(key, &k, sizeof k); /* distinct keys, 100000 of them twice */
        if (k >= 200000)
            memcpy(key, &(size_t){k - 200000}, sizeof k);
        e = wk_digest_table_put(&t, key, &fresh);
        CHECK(e != NULL);
        CHECK(fresh == (k < 200000));
        e->count++;
    }
    CHECK(t.n == 200000);
    for (k = 0; k < 200000; k += 9999) {
        const counted *e = wk_digest_table_at(&t, k);
        size_t got;
        memcpy(&got, e->key, sizeof got);
        CHECK(got == k);
        CHECK(e->count == (k < 100000 ? 2u : 1u));
        CHECK(wk_digest_table_find(&t, e->key) == e);
    }
    memset(key, 0xEE, sizeof key);
    CHECK(wk_digest_table_find(&t, key) == NULL);
    wk_digest_table_free(&t);
}

/* The dedup job's line rules: blank is spaces, tabs and \r only (a form
 * feed, a NUL or a \n is not); the 32 bytes of a digest, written by hand. */
static void test_line_rules(void)
{
    static const char hex[] =
        "00ff10a5c3e7d9b2000000000000000000000000000000000000000123456789";
    static const unsigned char want[32] = {
        0x00, 0xff, 0x10, 0xa5, 0xc3, 0xe7, 0xd9, 0xb2, 0, 0, 0, 0,
        0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0,
        0,    0,    0,    0x01, 0x23, 0x45, 0x67, 0x89};
    unsigned char got[32];
    CHECK(wk_line_is_blank("", 0));
    CHECK(wk_line_is_blank(" \t\r \r", 5));
    CHECK(!wk_line_is_blank(" \f", 2));
    CHECK(!wk_line_is_blank(" \n", 2));
    CHECK(!wk_line_is_blank("\0", 1));
    CHECK(!wk_line_is_blank("  {}", 4));
    CHECK(wk_line_is_blank("  {}", 2));
    memset(got, 0xAA, sizeof got);
    CHECK(wj_hex_decode(hex, 32, got) == 0);
    CHECK(memcmp(got, want, 32) == 0);
}

int main(void)
{
    test_hosts();
    test_jq_shapes();
    test_max_fixed();
    test_call_check();
    test_digests();
    test_buffer();
    test_array();
    test_digest_table();
    test_line_rules();
    return check_report("test_kit");
}
