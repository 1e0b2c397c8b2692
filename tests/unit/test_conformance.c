/* SPDX-License-Identifier: MIT */
/*
 * test_conformance.c - wj_validate() against every case in data/parse/.
 *
 * y_<what>.json must be accepted; n_<what>.json rejected with an input error
 * whose offset is at most the input length; n_<what>@<offset>.json rejected
 * at exactly that byte offset (tests/data/parse/README.md has the rules).
 * Runs with the tests/ folder as working directory.  Each input is handed
 * over in a buffer of exactly its length, so a sanitizer build catches a
 * read past the end.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "wirejson.h"

#define CASE_DIR "data/parse"
#define MIN_CASES 300 /* fewer means the folder was not found or emptied */

/* Reads the whole file into a malloc'd buffer of exactly *len bytes. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long size;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0) {
        *len = (size_t)size;
        buf = malloc(*len ? *len : 1);
        if (buf && fread(buf, 1, *len, f) != *len) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

/* The offset after '@' in an n_ name, or -1 when the name gives none. */
static long expected_offset(const char *name)
{
    const char *at = strchr(name, '@');
    char *end;
    long offset;

    if (!at)
        return -1;
    errno = 0;
    offset = strtol(at + 1, &end, 10);
    if (errno || end == at + 1 || strcmp(end, ".json") != 0)
        return -2;
    return offset;
}

static void report(const char *name, const char *what, const wj_error *err)
{
    char msg[256];
    wj_error_format(err, NULL, msg, sizeof msg);
    fprintf(stderr, "  %s: %s; got code %d offset %zu: %s\n", name, what,
            (int)err->code, err->offset, msg);
}

static void run_case(const char *name)
{
    char path[512];
    size_t len = 0;
    char *json;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc, rc_quiet;
    int must_accept = name[0] == 'y';
    long offset = expected_offset(name);

    snprintf(path, sizeof path, "%s/%s", CASE_DIR, name);
    json = read_file(path, &len);
    CHECK(json != NULL);
    if (!json) {
        fprintf(stderr, "  %s: cannot read\n", path);
        return;
    }

    rc = wj_validate(json, len, NULL, &err);
    rc_quiet = wj_validate(json, len, NULL, NULL);
    CHECK(rc_quiet == rc);
    CHECK(err.code == rc);

    if (must_accept) {
        CHECK(rc == WJ_OK);
        if (rc != WJ_OK)
            report(name, "expected accepted", &err);
    } else {
        CHECK(offset != -2);
        CHECK(rc != WJ_OK && wj_error_is_input(rc));
        CHECK(err.msg != NULL);
        CHECK(err.offset <= len);
        if (rc == WJ_OK)
            fprintf(stderr, "  %s: expected rejected, got accepted\n", name);
        else if (!wj_error_is_input(rc) || err.offset > len)
            report(name, "expected an input error within the input", &err);
        if (rc != WJ_OK && offset >= 0) {
            CHECK(err.offset == (size_t)offset);
            if (err.offset != (size_t)offset) {
                char what[64];
                snprintf(what, sizeof what, "expected offset %ld", offset);
                report(name, what, &err);
            }
        }
    }
    free(json);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    DIR *dir = opendir(CASE_DIR);
    struct dirent *ent;
    char **names = NULL;
    size_t n = 0, cap = 0, i, n_y = 0, n_n = 0;

    CHECK(dir != NULL);
    if (!dir) {
        fprintf(stderr, "cannot open %s (run from tests/)\n", CASE_DIR);
        return check_report("test_conformance");
    }
    while ((ent = readdir(dir)) != NULL) {
        const char *name = ent->d_name;
        size_t nl = strlen(name);
        if (name[0] == '.' || strcmp(name, "README.md") == 0)
            continue;
        /* Anything else must be a case: a stray file is a mistake. */
        CHECK((name[0] == 'y' || name[0] == 'n') && name[1] == '_' &&
              nl > 5 && strcmp(name + nl - 5, ".json") == 0);
        if (n == cap) {
            char **grown;
            cap = cap ? cap * 2 : 512;
            grown = realloc(names, cap * sizeof *names);
            if (!grown)
                return 2;
            names = grown;
        }
        names[n] = malloc(nl + 1);
        if (!names[n])
            return 2;
        memcpy(names[n], name, nl + 1);
        n++;
    }
    closedir(dir);
    if (n)
        qsort(names, n, sizeof *names, compare_names);

    for (i = 0; i < n; i++) {
        if (names[i][0] == 'y')
            n_y++;
        else
            n_n++;
        run_case(names[i]);
        free(names[i]);
    }
    free(names);
    printf("test_conformance: %zu cases (%zu y_, %zu n_)\n", n, n_y, n_n);
    CHECK(n >= MIN_CASES);
    return check_report("test_conformance");
}
