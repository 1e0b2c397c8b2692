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
 *   core_bench --mem FUNCTION FILE
 *       Reads FILE whole (one body), runs FUNCTION once on it and prints the
 *       process's peak RSS (VmHWM) in KB; FUNCTION "read" only reads, the
 *       baseline that bench/run subtracts.
 *
 * Built by bench/run --core (CMake option WIREJSON_BENCH); simdjson rows
 * are there only when the build found libsimdjson (HAVE_SIMDJSON).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "wirejson.h"

#include <openssl/evp.h>

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

static int run_read(const char *json, size_t len)
{
    (void)json;
    (void)len;
    return 0;
}

static const struct function {
    const char *name;
    bench_fn fn;
} functions[] = {
#ifdef HAVE_SIMDJSON
    {"simdjson DOM parse", run_sj_parse}, /* the baseline: first */
    {"simdjson parse + to_string", run_sj_minify},
#endif
    {"wj_validate", run_validate},
    {"wj_wire_json", run_wire},
    {"wj_wire_json_sorted", run_sorted},
    {"wj_canonical_json", run_canonical},
    {"wj_data_digest", run_digest},
    {"SHA-256 (libcrypto)", run_sha256},
};
#define N_FUNCTIONS (sizeof functions / sizeof *functions)

/* ---------------------------------------------------------------- timing */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double run_corpus(const corpus *c, bench_fn fn)
{
    double start = now();
    size_t k;
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
        run_corpus(&c, functions[f].fn);
    for (r = 0; r < (size_t)rounds; r++)
        for (f = 0; f < N_FUNCTIONS; f++) {
            size_t g = (f + r) % N_FUNCTIONS;
            secs[g * (size_t)rounds + r] = run_corpus(&c, functions[g].fn);
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

static bench_fn find_function(const char *name)
{
    size_t f;
    if (strcmp(name, "read") == 0)
        return run_read;
    for (f = 0; f < N_FUNCTIONS; f++)
        if (strcmp(functions[f].name, name) == 0)
            return functions[f].fn;
    die("unknown function (try wj_validate, wj_data_digest, read)");
    return NULL;
}

static int run_only(const char *name, const char *path, int rounds)
{
    bench_fn fn = find_function(name);
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
    bench_fn fn = find_function(name);

    while (size && (bytes[size - 1] == '\n' || bytes[size - 1] == '\r'))
        size--;
    if (fn(bytes, size) != 0)
        die("the function failed on the input");
    printf("%ld\n", peak_rss_kb());
    free(bytes);
    return 0;
}

int main(int argc, char **argv)
{
    int rounds = 9, as_json = 0, i = 1;
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
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--json") == 0)
            as_json = 1;
        else
            die("usage: core_bench [--rounds N] [--json] [--only F] "
                "CORPUS.jsonl... | "
                "--mem FUNCTION FILE");
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
