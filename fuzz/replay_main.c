/* SPDX-License-Identifier: MIT */
/*
 * replay_main.c - runs a fuzz target without libFuzzer: each file named on
 * the command line, and each file in each directory named (in name order),
 * is passed once to LLVMFuzzerTestOneInput.  A broken invariant aborts, so
 * the seed corpora and the regression inputs of fuzz/corpus/ run as plain
 * ctests in every build (sanitizer builds included).
 */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, n;

    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    do {
        if (cap - size < 4096) {
            cap = cap ? 2 * cap : 65536;
            data = realloc(data, cap);
            if (!data) {
                fclose(f);
                fprintf(stderr, "out of memory reading %s\n", path);
                return 1;
            }
        }
        n = fread(data + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    fclose(f);
    /* libFuzzer hands over an exact-size block: so does this driver */
    {
        uint8_t *exact = fuzz_xmalloc(size);
        if (size)
            memcpy(exact, data, size);
        free(data);
        LLVMFuzzerTestOneInput(exact, size);
        free(exact);
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, k;
    int failed = 0;

    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                return 1;
        }
        names[n] = fuzz_xmalloc(strlen(dir) + strlen(e->d_name) + 2);
        sprintf(names[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (k = 0; k < n; k++) {
        failed |= run_file(names[k]);
        free(names[k]);
    }
    free(names);
    *count += n;
    return failed;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int k, failed = 0;
    struct stat st;

    for (k = 1; k < argc; k++) {
        if (stat(argv[k], &st) != 0) {
            fprintf(stderr, "cannot find %s\n", argv[k]);
            failed = 1;
        } else if (S_ISDIR(st.st_mode)) {
            failed |= run_dir(argv[k], &count);
        } else {
            failed |= run_file(argv[k]);
            count++;
        }
    }
    printf("%s: %zu inputs replayed\n", argc > 0 ? argv[0] : "replay", count);
    return failed || count == 0;
}
