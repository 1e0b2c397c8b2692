/* SPDX-License-Identifier: MIT */
/*
 * core_bench.c - the C API over a corpus, without SQLite, next to simdjson
 * and SHA-256 of the same bytes in the same run (issue 14's core table).
 *
 *   core_bench [--rounds N] [--json] CORPUS.jsonl...
 *       Each file is JSON Lines, one body a line.  Every round runs every
 *       function over every body of the corpus (the order of the functions
 *       rotates from round to round); the report gives MB/s of input over
 *       the median round, and each function's ratio to simdjson's DOM parse:
 *       the median over rounds of simdjson's time over the function's time
 *       in the same round (paired, so steadier than a ratio of medians).
 *
 *   core_bench --only FUNCTION [--rounds N] CORPUS.jsonl
 *       Runs one function N times over the corpus and nothing else: for
 *       perf record or callgrind.
 *
 *   core_bench --hash [--rounds N]
 *       SHA-256 of many independent messages of 700 B, 4 KB and 64 KB
 *       (random bytes, about 16 MB of each size): libcrypto one at a time
 *       (SHA256_Init/Update/Final, and EVP_Digest) against the core's
 *       multi-message hasher (sha256_multi.c) with 1, 2 and 4 SHA-NI
 *       streams, 16 AVX-512 lanes and as the core chose it, paired in the
 *       same rounds; each row's GB/s over the median round and its ratio
 *       to SHA256_Init/Update/Final, the median of the rounds' ratios, by
 *       the wall clock and by the process's CPU time.
 *
 *   core_bench --mem FUNCTION FILE
 *       Reads FILE whole (one body), runs FUNCTION once on it and prints the
 *       process's peak RSS (VmHWM) in KB; FUNCTION "read" only reads, the
 *       baseline that bench/run subtracts.
 *
 * Built by bench/run --core (CMake option WIREJSON_BENCH); simdjson rows
 * are there only when the build found libsimdjson (HAVE_SIMDJSON).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "sha256_multi.h" /* the core's internal hasher, for --hash */
#include "wirejson.h"

#include <openssl/evp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_SIMDJSON
#include "simdjson_peer.h"
#endif

/* Room after the last byte read: simdjson reads up to 64 bytes past a body. */
#define PADDING 64

typedef struct body {
    const char *ptr;
    size_t len;
} body;

typedef struct corpus {
    char *bytes;
    size_t size;
    body *bodies;
    size_t n;
    size_t input;   /* bytes of all bodies, newlines left out */
    size_t dropped; /* bodies left out: simdjson rejects them */
} corpus;

static void *parser; /* simdjson's dom::parser, reused as its benchmarks do */
static volatile size_t sink;

static void die(const char *what)
{
    fprintf(stderr, "core_bench: %s\n", what);
    exit(2);
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *bytes;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0)
        die("cannot read the input file");
    bytes = calloc((size_t)n + PADDING, 1);
    if (!bytes || fread(bytes, 1, (size_t)n, f) != (size_t)n)
        die("cannot read the input file");
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

/* simdjson 3.0 rejects integers beyond 64 bits (which §3 accepts): such
 * bodies are left out for every function, so all measure the same bytes. */
static int peer_accepts(const char *json, size_t len)
{
#ifdef HAVE_SIMDJSON
    return sj_dom_parse(parser, json, len) == 0;
#else
    (void)json;
    (void)len;
    return 1;
#endif
}

static void load_corpus(const char *path, corpus *c)
{
    size_t i = 0, cap = 1024;
    c->bytes = read_file(path, &c->size);
    c->bodies = malloc(cap * sizeof *c->bodies);
    c->n = 0;
    c->input = 0;
    c->dropped = 0;
    while (i < c->size) {
        char *nl = memchr(c->bytes + i, '\n', c->size - i);
        size_t end = nl ? (size_t)(nl - c->bytes) : c->size;
        if (end > i && !peer_accepts(c->bytes + i, end - i)) {
            c->dropped++;
        } else if (end > i) {
            if (c->n == cap)
                c->bodies = realloc(c->bodies, (cap *= 2) * sizeof *c->bodies);
            if (!c->bodies)
                die("out of memory");
            c->bodies[c->n].ptr = c->bytes + i;
            c->bodies[c->n].len = end - i;
            c->input += end - i;
            c->n++;
        }
        i = end + 1;
    }
}

/* ------------------------------------------------------------ functions */

/* One call on one body: 0 on success. */
typedef int (*bench_fn)(const char *json, size_t len);

static int run_validate(const char *json, size_t len)
{
    return wj_validate(json, len, NULL, NULL) != WJ_OK;
}

/* Called after the function returned (its out and length are read only
 * then: the order in which a call's arguments are evaluated is not
 * defined). */
static int finish(wj_code rc, char *out, size_t out_len)
{
    sink += out_len;
    wj_free(NULL, out);
    return rc != WJ_OK;
}

static int run_wire(const char *json, size_t len)
{
    char *out = NULL;
    size_t n = 0;
    wj_code rc = wj_wire_json(json, len, NULL, 0, NULL, &out, &n, NULL);
    return finish(rc, out, n);
}

static int run_sorted(const char *json, size_t len)
{
    char *out = NULL;
    size_t n = 0;
    wj_code rc = wj_wire_json_sorted(json, len, NULL, &out, &n, NULL);
    return finish(rc, out, n);
}

static int run_canonical(const char *json, size_t len)
{
    char *out = NULL;
    size_t n = 0;
    wj_code rc = wj_canonical_json(json, len, NULL, &out, &n, NULL);
    return finish(rc, out, n);
}

static int run_digest(const char *json, size_t len)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_code rc = wj_data_digest(json, len, NULL, hex, NULL);
    sink += (size_t)hex[0];
    return rc != WJ_OK;
}

static int run_sha256(const char *json, size_t len)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    int ok = EVP_Digest(json, len, md, NULL, EVP_sha256(), NULL);
    sink += md[0];
    return !ok;
}

#ifdef HAVE_SIMDJSON
static int run_sj_parse(const char *json, size_t len)
{
    return sj_dom_parse(parser, json, len);
}

static int run_sj_minify(const char *json, size_t len)
{
    long n = sj_dom_minify(parser, json, len);
    sink += (size_t)n;
    return n < 0;
}
#endif

/* The corpus in batches of BATCH rows, as a host holding a column or a
 * block calls the core. */
#define BATCH 1024
static wj_batch_out batch_out;
static wj_batch_row batch_rows[BATCH];

static int run_digest_batch(const corpus *c)
{
    const wj_function *fn = wj_function_find("data_digest", 11);
    wj_arg args[BATCH];
    size_t at, k, n;
    for (at = 0; at < c->n; at += n) {
        n = c->n - at < BATCH ? c->n - at : BATCH;
        for (k = 0; k < n; k++) {
            args[k].ptr = c->bodies[at + k].ptr;
            args[k].len = c->bodies[at + k].len;
        }
        batch_out.len = 0;
        if (wj_function_call_batch(fn, args, 1, n, NULL, &batch_out,
                                   batch_rows, NULL) != WJ_OK)
            return 1;
        for (k = 0; k < n; k++)
            if (batch_rows[k].code != WJ_OK)
                return 1;
        sink += (size_t)batch_out.ptr[0];
    }
    return 0;
}

static int run_sha256_batch(const corpus *c)
{
    const unsigned char *msg[BATCH];
    size_t len[BATCH], at, k, n;
    static unsigned char md[32 * BATCH];
    for (at = 0; at < c->n; at += n) {
        n = c->n - at < BATCH ? c->n - at : BATCH;
        for (k = 0; k < n; k++) {
            msg[k] = (const unsigned char *)c->bodies[at + k].ptr;
            len[k] = c->bodies[at + k].len;
        }
        wj_sha256_many(msg, len, n, md);
        sink += md[0];
    }
    return 0;
}

static int run_read(const char *json, size_t len)
{
    (void)json;
    (void)len;
    return 0;
}

typedef int (*corpus_fn)(const corpus *c);

static const struct function {
    const char *name;
    bench_fn fn;
    corpus_fn whole; /* instead of fn: the corpus at once */
} functions[] = {
#ifdef HAVE_SIMDJSON
    {"simdjson DOM parse", run_sj_parse, NULL}, /* the baseline: first */
    {"simdjson parse + to_string", run_sj_minify, NULL},
#endif
    {"wj_validate", run_validate, NULL},
    {"wj_wire_json", run_wire, NULL},
    {"wj_wire_json_sorted", run_sorted, NULL},
    {"wj_canonical_json", run_canonical, NULL},
    {"wj_data_digest", run_digest, NULL},
    {"wj_data_digest, batches of 1024", NULL, run_digest_batch},
    {"SHA-256 (libcrypto)", run_sha256, NULL},
    {"SHA-256, batches of 1024", NULL, run_sha256_batch},
};
#define N_FUNCTIONS (sizeof functions / sizeof *functions)

/* ---------------------------------------------------------------- timing */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double run_corpus(const corpus *c, const struct function *f)
{
    double start = now();
    bench_fn fn = f->fn;
    size_t k;
    if (f->whole) {
        if (f->whole(c) != 0)
            die("a function failed on a body of the corpus");
        return now() - start;
    }
    for (k = 0; k < c->n; k++)
        if (fn(c->bodies[k].ptr, c->bodies[k].len) != 0)
            die("a function failed on a body of the corpus");
    return now() - start;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void bench_corpus(const char *path, int rounds, int as_json, int last)
{
    corpus c;
    double *secs = malloc(N_FUNCTIONS * (size_t)rounds * sizeof *secs);
    double *ratio = malloc((size_t)rounds * sizeof *ratio);
    size_t f, r;

    if (!secs || !ratio)
        die("out of memory");
    load_corpus(path, &c);
    for (f = 0; f < N_FUNCTIONS; f++) /* warm-up: caches, page faults */
        run_corpus(&c, &functions[f]);
    for (r = 0; r < (size_t)rounds; r++)
        for (f = 0; f < N_FUNCTIONS; f++) {
            size_t g = (f + r) % N_FUNCTIONS;
            secs[g * (size_t)rounds + r] = run_corpus(&c, &functions[g]);
        }
    if (as_json)
        printf("{\"corpus\": \"%s\", \"bodies\": %zu, \"bytes\": %zu, "
               "\"dropped\": %zu, \"rounds\": %d, \"functions\": [",
               path, c.n, c.input, c.dropped, rounds);
    else
        printf("%s: %zu bodies (%zu left out: simdjson rejects them), %.1f MB, "
               "%d rounds\n\n"
               "| function | MB/s | x simdjson DOM parse |\n|---|---:|---:|\n",
               path, c.n, c.dropped, (double)c.input / 1e6, rounds);
    for (f = 0; f < N_FUNCTIONS; f++) {
        double *mine = secs + f * (size_t)rounds, mbs, x = 0;
        for (r = 0; r < (size_t)rounds; r++)
            ratio[r] = secs[r] / mine[r]; /* functions[0] is the baseline */
#ifdef HAVE_SIMDJSON
        x = median(ratio, (size_t)rounds);
#endif
        mbs = (double)c.input / 1e6 / median(mine, (size_t)rounds);
        if (as_json)
            printf("%s{\"name\": \"%s\", \"mb_s\": %.1f, \"x_simdjson\": %.3f}",
                   f ? ", " : "", functions[f].name, mbs, x);
        else
            printf("| %s | %.0f | %.2f |\n", functions[f].name, mbs, x);
    }
    printf(as_json ? "]}%s\n" : "\n", as_json && !last ? "," : "");
    free(secs);
    free(ratio);
    free(c.bodies);
    free(c.bytes);
}

/* ---------------------------------------------------------------- hashing */

/* The process's CPU time: on a loaded machine, steadier than the wall
 * clock (time waiting for a core is left out). */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One way of hashing n messages (in batches of BATCH), for --hash. */
typedef struct hasher {
    const char *name;
    int path, lanes; /* wj_sha256_many_on's; path 0: the core's choice,
                        -1: EVP_Digest one message at a time */
} hasher;

static const hasher hashers[] = {
    {"libcrypto SHA256_Init/Update/Final, one at a time", WJ_HASH_LIBCRYPTO, 1},
    {"libcrypto EVP_Digest, one at a time", -1, 1},
    {"SHA-NI, 1 stream", WJ_HASH_SHA_NI, 1},
    {"SHA-NI, 2 streams", WJ_HASH_SHA_NI, 2},
    {"SHA-NI, 4 streams", WJ_HASH_SHA_NI, 4},
    {"AVX-512, 16 lanes", WJ_HASH_AVX512, 16},
    {"wj_sha256_many (the core's path), batches of 1024", 0, 0},
};
#define N_HASHERS (sizeof hashers / sizeof *hashers)

static int hash_all(const hasher *h, const unsigned char **msg,
                    const size_t *len, size_t n, unsigned char *md)
{
    size_t at, k, b;
    for (at = 0; at < n; at += b) {
        b = n - at < BATCH ? n - at : BATCH;
        if (h->path == 0)
            wj_sha256_many(msg + at, len + at, b, md + 32 * at);
        else if (h->path < 0) {
            for (k = at; k < at + b; k++)
                if (!EVP_Digest(msg[k], len[k], md + 32 * k, NULL,
                                EVP_sha256(), NULL))
                    return -1;
        } else if (wj_sha256_many_on(h->path, h->lanes, msg + at, len + at, b,
                                     md + 32 * at) != 0)
            return -1;
    }
    return 0;
}

static void bench_hash(size_t size, int rounds)
{
    size_t n = (16u << 20) / size, k, f, r;
    unsigned char *pool = malloc(n * size), *md = malloc(32 * n),
                  *want = malloc(32 * n);
    const unsigned char **msg = malloc(n * sizeof *msg);
    size_t *len = malloc(n * sizeof *len);
    double *secs = malloc(N_HASHERS * (size_t)rounds * sizeof *secs);
    double *cpu = malloc(N_HASHERS * (size_t)rounds * sizeof *cpu);
    double *ratio = malloc((size_t)rounds * sizeof *ratio);
    int have[N_HASHERS];
    uint32_t x = 2463534242u;

    if (!pool || !md || !want || !msg || !len || !secs || !cpu || !ratio)
        die("out of memory");
    for (k = 0; k < n * size; k++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        pool[k] = (unsigned char)x;
    }
    for (k = 0; k < n; k++)
        msg[k] = pool + k * size, len[k] = size;
    hash_all(&hashers[0], msg, len, n, want);
    for (f = 0; f < N_HASHERS; f++) { /* warm-up, and every digest checked */
        have[f] = hash_all(&hashers[f], msg, len, n, md) == 0;
        if (have[f] && memcmp(md, want, 32 * n) != 0)
            die("a hashing path differs from libcrypto");
    }
    for (r = 0; r < (size_t)rounds; r++)
        for (f = 0; f < N_HASHERS; f++) {
            size_t g = (f + r) % N_HASHERS;
            double start = now(), start_cpu = cpu_now();
            if (have[g])
                hash_all(&hashers[g], msg, len, n, md);
            secs[g * (size_t)rounds + r] = now() - start;
            cpu[g * (size_t)rounds + r] = cpu_now() - start_cpu;
        }
    printf("%zu messages of %zu bytes, %d rounds\n\n"
           "| hashing | GB/s | x libcrypto one at a time | GB/s of CPU time "
           "| x libcrypto (CPU time) |\n|---|---:|---:|---:|---:|\n",
           n, size, rounds);
    for (f = 0; f < N_HASHERS; f++) {
        double *mine = secs + f * (size_t)rounds, x_wall, x_cpu, gbs;
        double *mine_cpu = cpu + f * (size_t)rounds;
        if (!have[f]) {
            printf("| %s | (not on this processor) | | | |\n",
                   hashers[f].name);
            continue;
        }
        for (r = 0; r < (size_t)rounds; r++)
            ratio[r] = secs[r] / mine[r];
        x_wall = median(ratio, (size_t)rounds);
        for (r = 0; r < (size_t)rounds; r++)
            ratio[r] = cpu[r] / mine_cpu[r];
        x_cpu = median(ratio, (size_t)rounds);
        gbs = (double)(n * size) / 1e9 / median(mine, (size_t)rounds);
        printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", hashers[f].name, gbs,
               x_wall, (double)(n * size) / 1e9 / median(mine_cpu, (size_t)rounds),
               x_cpu);
    }
    printf("\n");
    free(pool), free(md), free(want), free(msg), free(len), free(secs),
        free(cpu), free(ratio);
}

/* ---------------------------------------------------------------- memory */

static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb;
}

static const struct function *find_function(const char *name)
{
    static const struct function read = {"read", run_read, NULL};
    size_t f;
    if (strcmp(name, "read") == 0)
        return &read;
    for (f = 0; f < N_FUNCTIONS; f++)
        if (strcmp(functions[f].name, name) == 0)
            return &functions[f];
    die("unknown function (try wj_validate, wj_data_digest, read)");
    return NULL;
}

static int run_only(const char *name, const char *path, int rounds)
{
    const struct function *fn = find_function(name);
    corpus c;
    int r;
    load_corpus(path, &c);
    for (r = 0; r < rounds; r++)
        run_corpus(&c, fn);
    free(c.bodies);
    free(c.bytes);
    return 0;
}

static int memory_probe(const char *name, const char *path)
{
    size_t size;
    char *bytes = read_file(path, &size);
    const struct function *f = find_function(name);

    if (!f->fn)
        die("--mem takes a function of one body");
    while (size && (bytes[size - 1] == '\n' || bytes[size - 1] == '\r'))
        size--;
    if (f->fn(bytes, size) != 0)
        die("the function failed on the input");
    printf("%ld\n", peak_rss_kb());
    free(bytes);
    return 0;
}

int main(int argc, char **argv)
{
    int rounds = 9, as_json = 0, i = 1, hash = 0;
    const char *only = NULL;

#ifdef HAVE_SIMDJSON
    parser = sj_parser_new();
    if (!parser)
        die("out of memory");
    if (sj_padding() > PADDING)
        die("simdjson wants more padding than the benchmark gives");
#endif
    if (argc == 4 && strcmp(argv[1], "--mem") == 0)
        return memory_probe(argv[2], argv[3]);
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--hash") == 0)
            hash = 1;
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--json") == 0)
            as_json = 1;
        else
            die("usage: core_bench [--rounds N] [--json] [--only F] "
                "CORPUS.jsonl... | --hash [--rounds N] | "
                "--mem FUNCTION FILE");
    }
    if (hash && rounds >= 1) {
        bench_hash(700, rounds);
        bench_hash(4096, rounds);
        bench_hash(65536, rounds);
        return 0;
    }
    if (i == argc || rounds < 1)
        die("usage: core_bench [--rounds N] [--json] [--only F] "
            "CORPUS.jsonl... | "
            "--mem FUNCTION FILE");
    if (only)
        return run_only(only, argv[i], rounds);
    if (as_json)
        printf("[\n");
    for (; i < argc; i++)
        bench_corpus(argv[i], rounds, as_json, i == argc - 1);
    if (as_json)
        printf("]\n");
#ifdef HAVE_SIMDJSON
    sj_parser_free(parser);
#endif
    return 0;
}
