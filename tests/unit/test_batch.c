/* SPDX-License-Identifier: MIT */
/*
 * test_batch.c - wj_function_call_batch (wirejson.h, "batches").
 *
 * For every function of the table, on every case file of tests/data/parse
 * (valid and invalid documents) and a few chat bodies and messages, with
 * NULL rows among them: each row's result bytes, NULL, integer, code and
 * error are those of wj_function_call on the same arguments, and the
 * results lie back to back in the buffer in row order.  Also: a digest
 * batch against SHA-256 computed here with EVP_Digest, a row longer than
 * a batch holds whole, a buffer reused with bytes already in it, and the
 * arity check.
 */
#include "check.h"
#include "wj_internal.h"

#include <dirent.h>
#include <openssl/evp.h>
#include <stdlib.h>

#define CASE_DIR "data/parse"
#define MAX_DOCS 512

static const char *const bodies[] = {
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
    "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
    "\"parameters\":{\"type\":\"object\",\"required\":[\"b\",\"a\"],"
    "\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{}}}}}]}",
    "{\"role\":\"assistant\",\"content\":null,\"extra\":{\"u\":1},"
    "\"tool_calls\":[{\"id\":\"c\",\"function\":{\"arguments\":\"{}\"}}]}",
    "[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"user\",\"b\":2}]",
    "{\"b\":2,\"a\":1.0,\"role\":\"user\",\"name\":null}",
    "[1,2,{\"x\":1e2}]",
    "{}",
};

static char *docs[MAX_DOCS];
static size_t doc_len[MAX_DOCS], n_docs;

static void read_cases(void)
{
    DIR *dir = opendir(CASE_DIR);
    struct dirent *e;
    size_t k;
    for (k = 0; k < sizeof bodies / sizeof *bodies; k++) {
        doc_len[n_docs] = strlen(bodies[k]);
        docs[n_docs] = malloc(doc_len[n_docs] + 1);
        memcpy(docs[n_docs], bodies[k], doc_len[n_docs] + 1);
        n_docs++;
    }
    while (dir && (e = readdir(dir)) && n_docs < MAX_DOCS) {
        char path[512];
        FILE *f;
        long n;
        if (e->d_name[0] == '.' || !strstr(e->d_name, ".json"))
            continue;
        snprintf(path, sizeof path, "%s/%s", CASE_DIR, e->d_name);
        f = fopen(path, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        rewind(f);
        docs[n_docs] = malloc((size_t)n + 1);
        doc_len[n_docs] = fread(docs[n_docs], 1, (size_t)n, f);
        n_docs++;
        fclose(f);
    }
    if (dir)
        closedir(dir);
    CHECK(n_docs > 300); /* the case files were found */
}

/* An argument of kind for row r beyond the first: a few of each, NULL
 * among them. */
static wj_arg extra_arg(wj_arg_kind kind, size_t r)
{
    static const char *const names[] = {"role", "tools", "a", NULL};
    static const char *const values[] = {"{\"x\":[1,2]}", "\"v\"", NULL};
    static const char *const texts[] = {"[\"{\\\"q\\\":1}\",null]", "[]",
                                        "{", NULL};
    const char *s;
    wj_arg a;
    switch (kind) {
    case WJ_ARG_VALUE:
        s = values[r % 3];
        break;
    case WJ_ARG_TEXTS:
        s = texts[r % 4];
        break;
    default:
        s = names[r % 4];
    }
    a.ptr = s;
    a.len = s ? strlen(s) : 0;
    return a;
}

static int same_error(const wj_error *a, const wj_error *b)
{
    return a->code == b->code && a->offset == b->offset &&
           a->element == b->element &&
           (a->msg == b->msg || (a->msg && b->msg && !strcmp(a->msg, b->msg))) &&
           (a->argument == b->argument ||
            (a->argument && b->argument && !strcmp(a->argument, b->argument)));
}

/* fn on every document (every 7th row NULL) with n_args arguments a row,
 * appending to out (which may hold bytes already), each row against
 * wj_function_call. */
static void check_function(const wj_function *fn, size_t n_args,
                           wj_batch_out *out)
{
    size_t n_rows = n_docs, r, k, at = out->len;
    wj_arg *args = calloc(n_rows * n_args + 1, sizeof *args);
    wj_batch_row *rows = calloc(n_rows, sizeof *rows);
    wj_error err;
    int bad = 0;

    for (r = 0; r < n_rows; r++) {
        wj_arg *a = args + r * n_args;
        if (n_args && r % 7 != 3) {
            a[0].ptr = docs[r];
            a[0].len = doc_len[r];
        }
        for (k = 1; k < n_args; k++)
            a[k] = extra_arg(fn->params[k < fn->n_params ? k : fn->n_params - 1]
                                 .kind,
                             r + k);
    }
    CHECK(wj_function_call_batch(fn, args, n_args, n_rows, NULL, out, rows,
                                 &err) == WJ_OK);
    for (r = 0; r < n_rows && bad < 3; r++) {
        wj_result res;
        wj_error one;
        wj_code rc = wj_function_call(fn, args + r * n_args, n_args, NULL,
                                      &res, &one);
        int same = rows[r].code == rc && same_error(&rows[r].error, &one) &&
                   rows[r].offset == at;
        if (rc == WJ_OK) {
            size_t want = res.is_null || fn->result == WJ_RESULT_INTEGER
                              ? 0
                              : res.len;
            same = same && rows[r].is_null == res.is_null &&
                   rows[r].integer == res.integer && rows[r].len == want &&
                   (want == 0 || memcmp(out->ptr + at, res.text, want) == 0);
        } else
            same = same && rows[r].len == 0;
        at += rows[r].len;
        check_count++;
        if (!same) {
            check_failures++;
            bad++;
            fprintf(stderr, "%s, %zu arguments: row %zu (code %d, batch %d) "
                    "differs from wj_function_call\n", fn->name, n_args, r,
                    (int)rc, (int)rows[r].code);
        }
        wj_result_free(NULL, &res);
    }
    CHECK(out->len == at);
    free(args);
    free(rows);
}

static void sha256_hex(const char *s, size_t n, char hex[65])
{
    unsigned char md[32];
    unsigned int len = 0, k;
    EVP_Digest(s, n, md, &len, EVP_sha256(), NULL);
    for (k = 0; k < 32; k++)
        snprintf(hex + 2 * k, 3, "%02x", md[k]);
}

/* "[1,1,...,1]" of n bytes (n odd): its own canonical text. */
static char *ones(size_t n)
{
    char *a = malloc(n);
    size_t k;
    a[0] = '[';
    for (k = 1; k + 1 < n; k += 2)
        a[k] = '1', a[k + 1] = ',';
    a[n - 2] = '1';
    a[n - 1] = ']';
    return a;
}

/* data_digest rows hashed across the batch: SHA-256 of canonical texts
 * written here by hand, a row longer than a batch holds whole (2 MiB), and
 * rows of 600 KB, which a chunk of texts to hash grows to hold 16 of. */
static void check_digests(void)
{
    static const char *const in[] = {"{\"b\":2,\"a\":1.0}", "[]", "\"x\"",
                                      "{\"z\":[true,null,1e2]}"};
    static const char *const canon[] = {"{\"a\":1,\"b\":2}", "[]", "\"x\"",
                                        "{\"z\":[true,null,100]}"};
    const wj_function *fn = wj_function_find("data_digest", 11);
    size_t big_n = (5u << 20) / 2 + 1, mid_n = 600001, r, n_rows = 200;
    char *big = ones(big_n), *mid = ones(mid_n), hex[65];
    wj_arg *args = calloc(n_rows, sizeof *args);
    wj_batch_row *rows = calloc(n_rows, sizeof *rows);
    wj_batch_out out = {NULL, 0, 0};
    wj_error err;

    for (r = 0; r < n_rows; r++) {
        int is_mid = r % 9 == 5;
        args[r].ptr = r == 77 ? big : is_mid ? mid : in[r % 4];
        args[r].len = r == 77 ? big_n : is_mid ? mid_n : strlen(in[r % 4]);
    }
    CHECK(wj_function_call_batch(fn, args, 1, n_rows, NULL, &out, rows, &err) ==
          WJ_OK);
    for (r = 0; r < n_rows; r++) {
        if (args[r].ptr == big || args[r].ptr == mid)
            sha256_hex(args[r].ptr, args[r].len, hex);
        else
            sha256_hex(canon[r % 4], strlen(canon[r % 4]), hex);
        CHECK(rows[r].code == WJ_OK && rows[r].len == 64 &&
              rows[r].offset == 64 * r &&
              memcmp(out.ptr + rows[r].offset, hex, 64) == 0);
    }
    /* Arity and aggregates are refused before any row. */
    CHECK(wj_function_call_batch(fn, args, 2, 1, NULL, &out, rows, &err) ==
              WJ_ERR_ARGUMENT &&
          err.code == WJ_ERR_ARGUMENT);
    CHECK(wj_function_call_batch(wj_function_find("messages_digest_agg", 19),
                                 args, 1, 1, NULL, &out, rows,
                                 &err) == WJ_ERR_ARGUMENT);
    wj_batch_out_free(NULL, &out);
    CHECK(out.ptr == NULL && out.len == 0 && out.cap == 0);
    free(big);
    free(mid);
    free(args);
    free(rows);
}

/* An allocator that fails from its fail_at-th call on, counting the
 * blocks it holds. */
static size_t heap_calls, heap_fail_at;
static long heap_live;

static void *heap_malloc(void *ctx, size_t size)
{
    (void)ctx;
    if (++heap_calls >= heap_fail_at)
        return NULL;
    heap_live++;
    return malloc(size);
}

static void *heap_realloc(void *ctx, void *ptr, size_t size)
{
    void *p;
    (void)ctx;
    if (++heap_calls >= heap_fail_at)
        return NULL;
    p = realloc(ptr, size);
    if (p && !ptr)
        heap_live++;
    return p;
}

static void heap_free(void *ctx, void *ptr)
{
    (void)ctx;
    if (ptr)
        heap_live--;
    free(ptr);
}

/* Every allocation of a batch failing in turn: the batch fails with
 * WJ_ERR_NOMEM (the buffer could not grow) or each row has its result or
 * WJ_ERR_NOMEM, and nothing is left allocated but the buffer. */
static void check_allocation_failures(const char *name)
{
    const wj_alloc heap = {heap_malloc, heap_realloc, heap_free, NULL, NULL};
    const wj_function *fn = wj_function_find(name, strlen(name));
    wj_arg args[40];
    wj_batch_row rows[40];
    size_t r, fail_at;
    int finished = 0;

    for (r = 0; r < 40; r++) {
        args[r].ptr = bodies[r % (sizeof bodies / sizeof *bodies)];
        args[r].len = strlen(args[r].ptr);
    }
    for (fail_at = 1; !finished && fail_at < 2000; fail_at++) {
        wj_batch_out out = {NULL, 0, 0};
        wj_error err;
        wj_code rc;
        int all_ok = 1;
        heap_calls = 0, heap_fail_at = fail_at, heap_live = 0;
        rc = wj_function_call_batch(fn, args, 1, 40, &heap, &out, rows, &err);
        CHECK(rc == WJ_OK || (rc == WJ_ERR_NOMEM && err.code == WJ_ERR_NOMEM));
        for (r = 0; rc == WJ_OK && r < 40; r++) {
            CHECK(rows[r].code == WJ_OK || rows[r].code == WJ_ERR_NOMEM ||
                  wj_error_is_input(rows[r].code) ||
                  rows[r].code == WJ_ERR_TYPE);
            all_ok &= rows[r].code != WJ_ERR_NOMEM;
        }
        CHECK(heap_live == (out.ptr ? 1 : 0));
        wj_batch_out_free(&heap, &out);
        CHECK(heap_live == 0);
        finished = rc == WJ_OK && all_ok;
    }
    CHECK(finished);
}

int main(void)
{
    size_t n, k;
    const wj_function *table = wj_functions(&n);
    wj_batch_out out = {NULL, 0, 0};

    read_cases();
    for (k = 0; k < n; k++) {
        const wj_function *fn = &table[k];
        size_t least = wj_function_min_args(fn);
        if (fn->flags & WJ_FN_AGGREGATE)
            continue;
        out.len = 0;
        check_function(fn, least, &out);
        /* Again after the first batch's bytes, and with names given. */
        check_function(fn, least, &out);
        if (wj_function_max_args(fn) == SIZE_MAX)
            check_function(fn, least + 3, &out);
    }
    wj_batch_out_free(NULL, &out);
    check_digests();
    check_allocation_failures("data_digest");
    check_allocation_failures("message_digest");
    check_allocation_failures("canonical_json");
    check_allocation_failures("wire_json");
    for (k = 0; k < n_docs; k++)
        free(docs[k]);
    return check_report("test_batch");
}
