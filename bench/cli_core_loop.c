/* SPDX-License-Identifier: MIT */
/*
 * The core's single-thread speed over JSON Lines, the yardstick of the
 * command line's benchmark (bench/cli_bench.sh): reads FILE into memory,
 * then calls data_digest or canonical_json on each non-blank line, best of
 * N rounds, and prints the input MB/s.
 *
 *     cli_core_loop data_digest|canonical_json FILE [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wirejson.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    FILE *f;
    char *buf;
    long size;
    int rounds = argc > 3 ? atoi(argv[3]) : 3, r, canonical;
    double best = 1e30;
    if (argc < 3)
        return 2;
    canonical = strcmp(argv[1], "canonical_json") == 0;
    f = fopen(argv[2], "rb");
    if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0)
        return 2;
    rewind(f);
    buf = malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size)
        return 2;
    fclose(f);
    for (r = 0; r < rounds; r++) {
        double t0 = now(), t;
        char *p = buf, *end = buf + size;
        unsigned long sink = 0;
        while (p < end) {
            char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
            wj_error err = WJ_ERROR_INIT;
            if (canonical) {
                char *out = NULL;
                size_t out_len = 0;
                if (wj_canonical_json(p, len, NULL, &out, &out_len, &err) ==
                    WJ_OK)
                    sink += out_len;
                wj_free(NULL, out);
            } else {
                char hex[WJ_DIGEST_HEX_SIZE];
                if (wj_data_digest(p, len, NULL, hex, &err) == WJ_OK)
                    sink += (unsigned char)hex[0];
            }
            p += len + 1;
        }
        t = now() - t0;
        if (t < best)
            best = t;
        if (sink == 1)
            puts("");
    }
    printf("%.1f\n", (double)size / 1e6 / best);
    free(buf);
    return 0;
}
