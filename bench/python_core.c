/* SPDX-License-Identifier: MIT */
/*
 * python_core.c - the C core's own speed for bench/python_bench.py:
 * wj_data_digest over every line of a JSON Lines file, as the Python loops
 * there call it, without Python.
 *
 *   python_core FILE ROUNDS
 *       one warm-up round, then ROUNDS rounds; prints the median round's
 *       seconds and the bytes of the lines (newlines left out)
 *
 * Built by bench/python_bench.py against the static library of its build.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "wirejson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    FILE *f;
    char *bytes, hex[WJ_DIGEST_HEX_SIZE];
    size_t size, n = 0, cap = 1024, k, total = 0;
    const char **starts;
    size_t *lens;
    double *secs;
    long pos;
    int rounds, r;

    if (argc != 3 || (rounds = atoi(argv[2])) < 1) {
        fprintf(stderr, "usage: python_core FILE ROUNDS\n");
        return 2;
    }
    f = fopen(argv[1], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0 || (pos = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        perror(argv[1]);
        return 2;
    }
    size = (size_t)pos;
    bytes = malloc(size + 1);
    starts = malloc(cap * sizeof *starts);
    lens = malloc(cap * sizeof *lens);
    secs = malloc((size_t)rounds * sizeof *secs);
    if (!bytes || !starts || !lens || !secs ||
        fread(bytes, 1, size, f) != size) {
        fprintf(stderr, "python_core: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    for (k = 0; k < size;) {
        char *nl = memchr(bytes + k, '\n', size - k);
        size_t end = nl ? (size_t)(nl - bytes) : size;
        if (n == cap) {
            cap *= 2;
            starts = realloc(starts, cap * sizeof *starts);
            lens = realloc(lens, cap * sizeof *lens);
            if (!starts || !lens)
                return 2;
        }
        starts[n] = bytes + k;
        lens[n++] = end - k;
        total += end - k;
        k = end + 1;
    }
    for (r = -1; r < rounds; r++) {
        double t0 = now();
        for (k = 0; k < n; k++)
            if (wj_data_digest(starts[k], lens[k], NULL, hex, NULL) != WJ_OK) {
                fprintf(stderr, "python_core: line %zu does not digest\n",
                        k + 1);
                return 1;
            }
        if (r >= 0)
            secs[r] = now() - t0;
    }
    qsort(secs, (size_t)rounds, sizeof *secs, compare);
    printf("%.6f %zu\n", secs[rounds / 2], total);
    return 0;
}
