/* SPDX-License-Identifier: MIT */
/*
 * limits.c - the core at the sizes docs/contract.md §3 and §10 promise to handle: ten
 * million nested '[' (a depth error at byte 1000, no recursion), a 100 MB
 * string in which every character needs escaping (and one with none, whose
 * rendering must fit the buffer it starts with), an object with a million
 * members and an array with a million elements, each through every public
 * function, and all of it again in a thread with a 256 KB stack.
 *
 * Expected bytes are built here from the inputs' own patterns, not taken
 * from the library.  Each call's time is printed; linearity is measured by
 * the benchmark, not asserted here.
 *
 *   usage: hardening_limits [deep|escapes|plain_string|members|elements|
 *                            small_stack|all [divisor]]
 *
 * A divisor divides the sizes (not the ten million '['): the sanitizer
 * build passes 10, since every byte and allocation costs it ten times
 * more; the ordinary build runs the full sizes.
 */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "wj_internal.h" /* wj_sha256_hex, for the expected digests */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* SHA-256 of the expected canonical bytes (libcrypto, through the core's
 * one wrapper of it). */
static wj_code sha256_hex(const void *data, size_t len,
                          char hex[WJ_DIGEST_HEX_SIZE])
{
    wj_sha256_hex(data, len, hex);
    return WJ_OK;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "limits: cannot allocate %zu bytes\n", n);
        exit(2);
    }
    return p;
}

/* A text built piece by piece. */
typedef struct text {
    char *ptr;
    size_t len;
} text;

static void put(text *t, const char *s, size_t n)
{
    memcpy(t->ptr + t->len, s, n);
    t->len += n;
}

/* A JSON text: repeat copies of piece between head and tail. */
static text repeated(const char *head, const char *piece, size_t repeat,
                     const char *tail)
{
    size_t hl = strlen(head), pl = strlen(piece), tl = strlen(tail), k;
    text t = {xmalloc(hl + pl * repeat + tl + 1), 0};
    put(&t, head, hl);
    for (k = 0; k < repeat; k++)
        put(&t, piece, pl);
    put(&t, tail, tl);
    t.ptr[t.len] = '\0';
    return t;
}

static int same(const char *got, size_t got_len, const text *want)
{
    return got && got_len == want->len &&
           memcmp(got, want->ptr, want->len) == 0;
}

#define TIMED(label, call)                                                   \
    do {                                                                     \
        double t0_ = seconds();                                              \
        call;                                                                \
        if (verbose)                                                         \
            printf("  %-40s %7.3f s\n", label, seconds() - t0_);            \
    } while (0)

static int verbose = 1;

/* The sizes, divided by the divisor given on the command line. */
static long million = 1000000;
static size_t string_bytes = 100000000;

/* ------------------------------------------------ ten million nested '[' */

static void check_depth_error(wj_code rc, const wj_error *err)
{
    CHECK(rc == WJ_ERR_DEPTH);
    CHECK(err->code == WJ_ERR_DEPTH && err->offset == WJ_MAX_DEPTH);
}

static void test_deep(void)
{
    const size_t n = 10000000;
    char *deep = xmalloc(n);
    char *out = NULL, hex[WJ_DIGEST_HEX_SIZE];
    size_t out_len;
    wj_error err;
    wj_name path = {"function", 8};
    wj_code rc;

    memset(deep, '[', n);
    if (verbose)
        printf("10,000,000 nested '[':\n");
    TIMED("validate", rc = wj_validate(deep, n, NULL, &err));
    check_depth_error(rc, &err);
    TIMED("wire_json", rc = wj_wire_json(deep, n, NULL, 0, NULL, &out,
                                         &out_len, &err));
    check_depth_error(rc, &err);
    CHECK(out == NULL);
    rc = wj_wire_json_sorted(deep, n, NULL, &out, &out_len, &err);
    check_depth_error(rc, &err);
    rc = wj_canonical_json(deep, n, NULL, &out, &out_len, &err);
    check_depth_error(rc, &err);
    rc = wj_data_digest(deep, n, NULL, hex, &err);
    check_depth_error(rc, &err);
    rc = wj_message_digest(deep, n, NULL, 0, NULL, hex, &err);
    check_depth_error(rc, &err);
    rc = wj_messages_digest(deep, n, NULL, hex, &err);
    check_depth_error(rc, &err);
    rc = wj_tool_schemas(deep, n, &path, 1, NULL, &out, &out_len, &err);
    check_depth_error(rc, &err);
    rc = wj_encode_with_schemas(deep, n, "[]", 2, NULL, &out, &out_len, &err);
    check_depth_error(rc, &err);
    rc = wj_encode_with_schemas("{}", 2, deep, n, NULL, &out, &out_len, &err);
    check_depth_error(rc, &err);
    /* the value is refused with its error; a body so deep has no result */
    rc = wj_with_top_level("{\"a\":1}", 7, "a", 1, deep, n, NULL, &out,
                           &out_len, &err);
    check_depth_error(rc, &err);
    deep[0] = '{';
    memcpy(deep + 1, "\"a\":", 4);
    rc = wj_with_top_level(deep, n, "a", 1, "1", 1, NULL, &out, &out_len,
                           &err);
    CHECK(rc == WJ_OK && out == NULL);
    /* not JSON: canonical_arguments gives the text back */
    TIMED("canonical_arguments", rc = wj_canonical_arguments(
                                     deep, n, NULL, &out, &out_len, &err));
    CHECK(rc == WJ_OK && out_len == n && memcmp(out, deep, n) == 0);
    wj_free(NULL, out);
    free(deep);
}

/* ---------------------------------- 100 MB string, every character escaped */

/* Nine characters that all need escaping, as the input spells them and as
 * each rendering must write them. */
#define ESC_IN "\\n\\\"\\\\\\t\\r\\u0001\\b\\f\\u001F"
#define ESC_WIRE "\\n\\\"\\\\\\t\\r\\u0001\\u0008\\u000c\\u001f"
#define ESC_CANON "\\n\\\"\\\\\\t\\r\\u0001\\b\\f\\u001f"
#define ESC_RAW "\n\"\\\t\r\x01\b\f\x1f"

static void test_escapes(void)
{
    const size_t repeat = string_bytes / (sizeof ESC_IN - 1);
    text in = repeated("\"", ESC_IN, repeat, "\"");
    text wire = repeated("\"", ESC_WIRE, repeat, "\"");
    text canon = repeated("\"", ESC_CANON, repeat, "\"");
    char *out = NULL, hex[WJ_DIGEST_HEX_SIZE], want[WJ_DIGEST_HEX_SIZE];
    size_t out_len = 0;
    wj_error err;
    wj_code rc;

    if (verbose)
        printf("a %zu-byte string, every character escaped:\n", in.len);
    TIMED("validate", rc = wj_validate(in.ptr, in.len, NULL, &err));
    CHECK(rc == WJ_OK);
    TIMED("wire_json", rc = wj_wire_json(in.ptr, in.len, NULL, 0, NULL, &out,
                                         &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &wire));
    wj_free(NULL, out);
    TIMED("wire_json_sorted", rc = wj_wire_json_sorted(in.ptr, in.len, NULL,
                                                       &out, &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &wire));
    wj_free(NULL, out);
    free(wire.ptr);
    TIMED("canonical_json", rc = wj_canonical_json(in.ptr, in.len, NULL, &out,
                                                   &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &canon));
    wj_free(NULL, out);
    TIMED("data_digest",
          rc = wj_data_digest(in.ptr, in.len, NULL, hex, &err));
    CHECK(rc == WJ_OK);
    CHECK(sha256_hex(canon.ptr, canon.len, want) == WJ_OK &&
          strcmp(hex, want) == 0);
    free(canon.ptr);
    free(in.ptr);

    /* the same characters as raw text, quoted */
    in = repeated("", ESC_RAW, repeat, "");
    wire = repeated("\"", ESC_WIRE, repeat, "\"");
    TIMED("quote_text", rc = wj_quote_text(in.ptr, in.len, NULL, &out,
                                           &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &wire));
    free(in.ptr);
    /* and spliced into a body */
    {
        char *body = NULL;
        size_t body_len = 0;
        TIMED("with_top_level", rc = wj_with_top_level(
                                    "{\"a\":0}", 7, "a", 1, out, out_len,
                                    NULL, &body, &body_len, &err));
        CHECK(rc == WJ_OK && body && body_len == out_len + 6 &&
              memcmp(body + 5, wire.ptr, wire.len) == 0);
        wj_free(NULL, body);
    }
    wj_free(NULL, out);
    free(wire.ptr);
}

/* ------------------------------------------------- a million of anything */


/* {"k0999999":999999,...,"k0000000":0} (descending), and the sorted one. */
static void test_members(void)
{
    text desc = {xmalloc(24 * (size_t)million + 16), 0};
    text asc = {xmalloc(24 * (size_t)million + 16), 0};
    char member[32], *out = NULL, hex[WJ_DIGEST_HEX_SIZE];
    char want[WJ_DIGEST_HEX_SIZE];
    size_t out_len = 0;
    wj_name path = {"parameters", 10};
    wj_error err;
    wj_code rc;
    long k;

    put(&desc, "{", 1);
    put(&asc, "{", 1);
    for (k = 0; k < million; k++) {
        int n = snprintf(member, sizeof member, "%s\"k%07ld\":%ld",
                         k ? "," : "", million - 1 - k, million - 1 - k);
        put(&desc, member, (size_t)n);
        n = snprintf(member, sizeof member, "%s\"k%07ld\":%ld", k ? "," : "",
                     k, k);
        put(&asc, member, (size_t)n);
    }
    put(&desc, "}", 1);
    put(&asc, "}", 1);

    if (verbose)
        printf("an object with %ld members (%zu bytes):\n", million,
               desc.len);
    TIMED("validate", rc = wj_validate(desc.ptr, desc.len, NULL, &err));
    CHECK(rc == WJ_OK);
    TIMED("wire_json", rc = wj_wire_json(desc.ptr, desc.len, NULL, 0, NULL,
                                         &out, &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &asc));
    wj_free(NULL, out);
    rc = wj_wire_json_sorted(desc.ptr, desc.len, NULL, &out, &out_len, &err);
    CHECK(rc == WJ_OK && same(out, out_len, &asc));
    wj_free(NULL, out);
    TIMED("canonical_json", rc = wj_canonical_json(desc.ptr, desc.len, NULL,
                                                   &out, &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &asc));
    wj_free(NULL, out);
    CHECK(sha256_hex(asc.ptr, asc.len, want) == WJ_OK);
    TIMED("data_digest",
          rc = wj_data_digest(desc.ptr, desc.len, NULL, hex, &err));
    CHECK(rc == WJ_OK && strcmp(hex, want) == 0);
    TIMED("message_digest", rc = wj_message_digest(desc.ptr, desc.len, NULL,
                                                   0, NULL, hex, &err));
    CHECK(rc == WJ_OK && strcmp(hex, want) == 0);
    rc = wj_canonical_arguments(desc.ptr, desc.len, NULL, &out, &out_len,
                                &err);
    CHECK(rc == WJ_OK && same(out, out_len, &asc));
    wj_free(NULL, out);
    /* the last member spelled: "k0000000":0 at the end of desc */
    TIMED("with_top_level", rc = wj_with_top_level(
                                desc.ptr, desc.len, "k0000000", 8, "\"z\"", 3,
                                NULL, &out, &out_len, &err));
    CHECK(rc == WJ_OK && out && out_len == desc.len + 2 &&
          memcmp(out, desc.ptr, desc.len - 2) == 0 &&
          memcmp(out + desc.len - 2, "\"z\"}", 4) == 0);
    wj_free(NULL, out);
    rc = wj_tool_schemas(desc.ptr, desc.len, &path, 1, NULL, &out, &out_len,
                         &err);
    CHECK(rc == WJ_OK && out == NULL);
    rc = wj_encode_with_schemas(desc.ptr, desc.len, "[]", 2, NULL, &out,
                                &out_len, &err);
    CHECK(rc == WJ_OK && out == NULL);
    free(desc.ptr);
    free(asc.ptr);
}

/* [{"b":1,"a":0},...] a million times as messages; a million tools. */
#define MESSAGE "{\"b\":1,\"a\":0}"
#define SORTED "{\"a\":0,\"b\":1}"
#define TOOL_IN "{\"function\":{\"parameters\":" MESSAGE "},\"type\":\"f\"}"
#define TOOL_OUT "{\"type\":\"f\",\"function\":{\"parameters\":" MESSAGE "}}"
#define SCHEMA "\"{\\\"b\\\":1,\\\"a\\\":0}\""

static void test_elements(void)
{
    text arr = repeated("[", MESSAGE ",", (size_t)million - 1, MESSAGE "]");
    text want_arr = repeated("[", SORTED ",", (size_t)million - 1, SORTED "]");
    text tools = repeated("{\"tools\":[", TOOL_IN ",", (size_t)million - 1,
                          TOOL_IN "]}");
    text schemas = repeated("[", SCHEMA ",", (size_t)million - 1, SCHEMA "]");
    text encoded = repeated("{\"tools\":[", TOOL_OUT ",", (size_t)million - 1,
                            TOOL_OUT "]}");
    text hexes = {xmalloc(64 * (size_t)million), 0};
    char *out = NULL, hex[WJ_DIGEST_HEX_SIZE], one[WJ_DIGEST_HEX_SIZE];
    char want[WJ_DIGEST_HEX_SIZE];
    wj_name path[2] = {{"function", 8}, {"parameters", 10}};
    size_t out_len = 0;
    wj_error err;
    wj_code rc;
    long k;

    if (verbose)
        printf("an array with %ld elements (%zu bytes):\n", million,
               arr.len);
    TIMED("wire_json", rc = wj_wire_json(arr.ptr, arr.len, NULL, 0, NULL, &out,
                                         &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &want_arr));
    wj_free(NULL, out);
    TIMED("canonical_json", rc = wj_canonical_json(arr.ptr, arr.len, NULL,
                                                   &out, &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &want_arr));
    wj_free(NULL, out);
    CHECK(sha256_hex(SORTED, strlen(SORTED), one) == WJ_OK);
    for (k = 0; k < million; k++)
        put(&hexes, one, 64);
    CHECK(sha256_hex(hexes.ptr, hexes.len, want) == WJ_OK);
    TIMED("messages_digest",
          rc = wj_messages_digest(arr.ptr, arr.len, NULL, hex, &err));
    CHECK(rc == WJ_OK && strcmp(hex, want) == 0);
    TIMED("tool_schemas", rc = wj_tool_schemas(tools.ptr, tools.len, path, 2,
                                               NULL, &out, &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &schemas));
    wj_free(NULL, out);
    /* each tool in function-calling order, its parameters as its text */
    TIMED("encode_with_schemas",
          rc = wj_encode_with_schemas(tools.ptr, tools.len, schemas.ptr,
                                      schemas.len, NULL, &out, &out_len, &err));
    CHECK(rc == WJ_OK && same(out, out_len, &encoded));
    wj_free(NULL, out);
    free(arr.ptr);
    free(want_arr.ptr);
    free(tools.ptr);
    free(schemas.ptr);
    free(encoded.ptr);
    free(hexes.ptr);
}

/* ------------------------------------------ memory for a plain string */

/* Counts the reallocations that grow a block already allocated. */
static size_t grown;

static void *m_malloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n ? n : 1);
}

static void *m_realloc(void *ctx, void *p, size_t n)
{
    (void)ctx;
    grown += p != NULL;
    return realloc(p, n ? n : 1);
}

static void m_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

/* A string without escapes is copied as it is, so its rendering fits the
 * buffer sized from the input at the start and never grows it (which for
 * a string of hundreds of megabytes means staying under SQLite's 2 GB
 * allocation cap). */
static void test_plain_string(void)
{
    const wj_alloc counting = {m_malloc, m_realloc, m_free, NULL, NULL};
    text in = repeated("\"", "abcdefghij", string_bytes / 10, "\"");
    char *out = NULL, hex[WJ_DIGEST_HEX_SIZE];
    size_t out_len = 0;
    wj_code rc;

    if (verbose)
        printf("a %zu-byte string without escapes:\n", in.len);
    grown = 0;
    TIMED("wire_json", rc = wj_wire_json(in.ptr, in.len, NULL, 0, &counting,
                                         &out, &out_len, NULL));
    CHECK(rc == WJ_OK && same(out, out_len, &in) && grown == 0);
    wj_free(&counting, out);
    grown = 0;
    TIMED("canonical_json", rc = wj_canonical_json(in.ptr, in.len, &counting,
                                                   &out, &out_len, NULL));
    CHECK(rc == WJ_OK && same(out, out_len, &in) && grown == 0);
    wj_free(&counting, out);
    grown = 0;
    rc = wj_data_digest(in.ptr, in.len, &counting, hex, NULL);
    CHECK(rc == WJ_OK);
    free(in.ptr);
}

/* ------------------------------------------------ a thread with 256 KB */

static void run_all(void)
{
    test_deep();
    test_members();
    test_elements();
}

/* {"a":[{"a":[ ... 1 ... ]}]} with pairs levels of {"a":[ */
static text nested(const char *head, size_t pairs, const char *tail)
{
    text open = repeated(head, "{\"a\":[", pairs, "1");
    text close = repeated("", "]}", pairs, tail);
    text t = {xmalloc(open.len + close.len + 1), 0};
    put(&t, open.ptr, open.len);
    put(&t, close.ptr, close.len);
    t.ptr[t.len] = '\0';
    free(open.ptr);
    free(close.ptr);
    return t;
}

/* Every function on input nested 1,000 deep (or nearly, where the function
 * adds a level of its own). */
static void deep_everywhere(void)
{
    text obj = nested("", 500, "");            /* 1,000 deep */
    text arr = nested("[", 499, "]");          /* 999 deep, an array */
    text body = nested("{\"tools\":[", 498, "]}");
    char *out = NULL, *texts = NULL, hex[WJ_DIGEST_HEX_SIZE];
    char want[WJ_DIGEST_HEX_SIZE];
    size_t out_len = 0, texts_len = 0;
    wj_code rc;

    CHECK(wj_validate(obj.ptr, obj.len, NULL, NULL) == WJ_OK);
    rc = wj_wire_json(obj.ptr, obj.len, NULL, 0, NULL, &out, &out_len, NULL);
    CHECK(rc == WJ_OK && same(out, out_len, &obj));
    wj_free(NULL, out);
    rc = wj_wire_json_sorted(obj.ptr, obj.len, NULL, &out, &out_len, NULL);
    CHECK(rc == WJ_OK && same(out, out_len, &obj));
    wj_free(NULL, out);
    rc = wj_canonical_json(obj.ptr, obj.len, NULL, &out, &out_len, NULL);
    CHECK(rc == WJ_OK && same(out, out_len, &obj));
    wj_free(NULL, out);
    rc = wj_canonical_arguments(obj.ptr, obj.len, NULL, &out, &out_len, NULL);
    CHECK(rc == WJ_OK && same(out, out_len, &obj));
    wj_free(NULL, out);
    CHECK(sha256_hex(obj.ptr, obj.len, want) == WJ_OK);
    CHECK(wj_data_digest(obj.ptr, obj.len, NULL, hex, NULL) == WJ_OK &&
          strcmp(hex, want) == 0);
    CHECK(wj_message_digest(obj.ptr, obj.len, NULL, 0, NULL, hex, NULL) ==
              WJ_OK &&
          strcmp(hex, want) == 0);
    CHECK(wj_messages_digest(arr.ptr, arr.len, NULL, hex, NULL) == WJ_OK);
    rc = wj_with_top_level(obj.ptr, obj.len, "a", 1, "2", 1, NULL, &out,
                           &out_len, NULL);
    CHECK(rc == WJ_OK && out && strcmp(out, "{\"a\":2}") == 0);
    wj_free(NULL, out);
    rc = wj_quote_text(obj.ptr, obj.len, NULL, &out, &out_len, NULL);
    CHECK(rc == WJ_OK && out_len > obj.len);
    wj_free(NULL, out);
    rc = wj_tool_schemas(body.ptr, body.len, NULL, 0, NULL, &texts,
                         &texts_len, NULL);
    CHECK(rc == WJ_OK && texts != NULL);
    rc = wj_encode_with_schemas(body.ptr, body.len, texts, texts_len, NULL,
                                &out, &out_len, NULL);
    CHECK(rc == WJ_OK && same(out, out_len, &body));
    wj_free(NULL, out);
    wj_free(NULL, texts);
    free(obj.ptr);
    free(arr.ptr);
    free(body.ptr);
}

static void *small_stack_thread(void *arg)
{
    (void)arg;
    run_all();
    deep_everywhere();
    return NULL;
}

static void test_small_stack(void)
{
    pthread_attr_t attr;
    pthread_t thread;

    if (verbose)
        printf("again in a thread with a 256 KB stack\n");
    verbose = 0;
    CHECK(pthread_attr_init(&attr) == 0);
    CHECK(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
    CHECK(pthread_create(&thread, &attr, small_stack_thread, NULL) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    pthread_attr_destroy(&attr);
    verbose = 1;
}

/* The parts, each its own ctest so that each stays a few seconds. */
static const struct part {
    const char *name;
    void (*run)(void);
} parts[] = {
    {"deep", test_deep},         {"escapes", test_escapes},
    {"plain_string", test_plain_string},
    {"members", test_members},   {"elements", test_elements},
    {"small_stack", test_small_stack},
};

int main(int argc, char **argv)
{
    long divisor = argc > 2 ? atol(argv[2]) : 1;
    size_t k, ran = 0;
    if (divisor > 1) {
        million /= divisor;
        string_bytes /= (size_t)divisor;
    }
    for (k = 0; k < sizeof parts / sizeof *parts; k++) {
        if (argc > 1 && strcmp(argv[1], "all") != 0 &&
            strcmp(argv[1], parts[k].name) != 0)
            continue;
        parts[k].run();
        ran++;
    }
    CHECK(ran > 0);
    return check_report("limits");
}
