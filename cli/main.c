/* SPDX-License-Identifier: MIT */
/*
 * wirejson: the library's functions over a stream of records, and dedup.
 *
 *     wirejson FUNCTION [--arg VALUE]... [OPTION]... [FILE]...
 *     wirejson dedup [--key data_digest|messages_digest] [--member NAME]
 *                    [-j N] --out DIR FILE...
 *     wirejson cache-audit [--member NAME] [--time-member NAME --ttl SECONDS]
 *                          [-j N] FILE...
 *
 * A table of options and a loop; the function list comes from the core's
 * table of functions.
 */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum opt_id {
    OPT_ARG, OPT_FORMAT, OPT_NULL, OPT_ON_ERROR, OPT_CHUNK_HEADER,
    OPT_COLUMNS, OPT_JOBS, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_KEY,
    OPT_MEMBER, OPT_OUT, OPT_HELP, OPT_VERSION,
    OPT_TIME_MEMBER, OPT_TTL
};

static const struct {
    char short_name;
    const char *name;
    int takes_value;
    enum opt_id id;
} options[] = {
    {0, "arg", 1, OPT_ARG},
    {0, "format", 1, OPT_FORMAT},
    {0, "null", 1, OPT_NULL},
    {0, "on-error", 1, OPT_ON_ERROR},
    {0, "chunk-header", 0, OPT_CHUNK_HEADER},
    {0, "columns", 1, OPT_COLUMNS},
    {'j', "jobs", 1, OPT_JOBS},
    {0, "progress", 0, OPT_PROGRESS},
    {0, "no-progress", 0, OPT_NO_PROGRESS},
    {0, "key", 1, OPT_KEY},
    {0, "member", 1, OPT_MEMBER},
    {0, "out", 1, OPT_OUT},
    {'h', "help", 0, OPT_HELP},
    {0, "version", 0, OPT_VERSION},
    {0, "time-member", 1, OPT_TIME_MEMBER},
    {0, "ttl", 1, OPT_TTL},
};

static void usage(FILE *f)
{
    size_t n, k;
    const wj_function *fns = wj_functions(&n);
    fputs("usage: wirejson FUNCTION [--arg VALUE]... [OPTION]... [FILE]...\n"
          "       wirejson dedup [--key data_digest|messages_digest] "
          "[--member NAME]\n"
          "                      [-j N] --out DIR FILE...\n"
          "       wirejson cache-audit [--member NAME] "
          "[--time-member NAME --ttl SECONDS]\n"
          "                            [-j N] FILE...\n\n"
          "Runs FUNCTION on each record of the FILEs (- or none: standard "
          "input;\ngzip is read whatever the name) and writes one result a "
          "record, in order.\n\nFunctions:\n",
          f);
    for (k = 0; k < n; k++) {
        size_t p;
        if (!(wk_function_hosts(&fns[k]) & WK_HOST_CLI) || (fns[k].flags & WJ_FN_AGGREGATE))
            continue;
        fprintf(f, "  %s(", fns[k].name);
        for (p = 0; p < fns[k].n_params; p++) {
            int word = fns[k].params[p].kind == WJ_ARG_WORD;
            fprintf(f, "%s%s%s%s", p ? (word ? " [, " : ", ") : "",
                    fns[k].params[p].name,
                    fns[k].params[p].kind == WJ_ARG_NAMES ? " ..." : "",
                    word ? "]" : "");
        }
        fprintf(f, ")\n      %s\n", fns[k].summary);
    }
    fputs("\nOptions:\n"
          "  --arg VALUE          one more argument after the record's, in "
          "order\n"
          "  --format F           lines (default), tsv (ClickHouse "
          "TabSeparated)\n"
          "                       or rowbinary (ClickHouse RowBinary)\n"
          "  --null TEXT          lines: what a NULL result is written as "
          "(default: empty)\n"
          "  --on-error fail|null fail: stop at the first failed record "
          "(default);\n"
          "                       null: a failed record gives NULL\n"
          "  --chunk-header       tsv: read ClickHouse's "
          "send_chunk_header lines\n"
          "                       (each chunk's row count before it)\n"
          "  --columns K          rowbinary: String fields a row (default 1)\n"
          "  -j, --jobs N         threads (default: the number of cores)\n"
          "  --progress           a progress bar on stderr (default on a "
          "terminal)\n"
          "  --no-progress        no progress bar\n"
          "  --member NAME        each record is a JSON object; the "
          "function reads its\n"
          "                       member NAME (a string's text, or the value "
          "itself)\n"
          "  --key, --out         dedup's, see wirejson(1)\n"
          "  --time-member, --ttl cache-audit's, see wirejson(1)\n"
          "  -h, --help           this text\n"
          "  --version            the library version\n\n"
          "Exit status: 0 done, 1 a record failed or a gzip stream ended "
          "early,\n2 usage or I/O error.\n",
          f);
}

static int bad_usage(const char *fmt, const char *what)
{
    fputs("wirejson: ", stderr);
    fprintf(stderr, fmt, what);
    fputs("\nTry 'wirejson --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

static int parse_count(const char *s, size_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v == 0 || v > 4096 || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

/* Reads the command line into *o and runs what it says. */
static int run(int argc, char **argv, cli_options *o)
{
    const char *fname;
    int k, dedup, audit, only_files = 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t jobs = cores > 0 ? (size_t)cores : 1;

    signal(SIGPIPE, SIG_IGN);
#ifdef M_MMAP_THRESHOLD
    /* A large record's result buffers come and go once a record: kept in
     * the heap, not mapped and unmapped (a page fault a page) each time. */
    mallopt(M_MMAP_THRESHOLD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
    if (argc < 2)
        return bad_usage("%s", "no FUNCTION given");
    fname = argv[1];
    if (strcmp(fname, "--help") == 0 || strcmp(fname, "-h") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(fname, "--version") == 0) {
        printf("wirejson %s\n", wj_version());
        return EXIT_OK;
    }
    dedup = strcmp(fname, "dedup") == 0;
    audit = strcmp(fname, "cache-audit") == 0;
    if (!dedup && !audit) {
        o->fn = wj_function_find(fname, strlen(fname));
        if (!o->fn || !(wk_function_hosts(o->fn) & WK_HOST_CLI) ||
            (o->fn->flags & WJ_FN_AGGREGATE))
            return bad_usage("unknown function '%s'", fname);
        o->one_line = cli_result_one_line(o->fn);
    }
    o->args = calloc((size_t)argc, sizeof *o->args);
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->args || !o->files)
        return EXIT_USAGE;
    for (k = 2; k < argc; k++) {
        const char *a = argv[k], *value = NULL, *eq;
        size_t i, nlen;
        if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
            o->files[o->n_files++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = 1;
            continue;
        }
        eq = a[1] == '-' ? strchr(a, '=') : NULL;
        nlen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        for (i = 0; i < sizeof options / sizeof *options; i++) {
            if (a[1] == '-' ? strlen(options[i].name) == nlen &&
                                  memcmp(options[i].name, a + 2, nlen) == 0
                            : a[1] == options[i].short_name && a[1] &&
                                  (a[2] == 0 || options[i].takes_value))
                break;
        }
        if (i == sizeof options / sizeof *options)
            return bad_usage("unknown option '%s'", a);
        if (options[i].takes_value) {
            if (eq)
                value = eq + 1;
            else if (a[1] != '-' && a[2])
                value = a + 2;
            else if (k + 1 < argc)
                value = argv[++k];
            else
                return bad_usage("option '%s' needs a value", a);
        } else if (eq)
            return bad_usage("option '%s' takes no value", a);
        switch (options[i].id) {
        case OPT_ARG: o->args[o->n_args++] = value; break;
        case OPT_FORMAT:
            if (strcmp(value, "lines") == 0) o->format = FORMAT_LINES;
            else if (strcmp(value, "tsv") == 0) o->format = FORMAT_TSV;
            else if (strcmp(value, "rowbinary") == 0) o->format = FORMAT_ROWBINARY;
            else return bad_usage("unknown format '%s' (lines, tsv, rowbinary)", value);
            break;
        case OPT_NULL: o->null_text = value; break;
        case OPT_ON_ERROR:
            if (strcmp(value, "fail") == 0) o->on_error_null = 0;
            else if (strcmp(value, "null") == 0) o->on_error_null = 1;
            else return bad_usage("--on-error takes fail or null, not '%s'", value);
            break;
        case OPT_CHUNK_HEADER: o->chunk_header = 1; break;
        case OPT_COLUMNS:
            if (parse_count(value, &o->columns))
                return bad_usage("--columns takes a number from 1 to 4096, not '%s'", value);
            break;
        case OPT_JOBS:
            if (parse_count(value, &jobs))
                return bad_usage("-j takes a number from 1 to 4096, not '%s'", value);
            break;
        case OPT_PROGRESS: o->progress = 1; break;
        case OPT_NO_PROGRESS: o->progress = 0; break;
        case OPT_KEY: o->key = value; break;
        case OPT_MEMBER: o->member = value; break;
        case OPT_OUT: o->out = value; break;
        case OPT_HELP: usage(stdout); return EXIT_OK;
        case OPT_VERSION: printf("wirejson %s\n", wj_version()); return EXIT_OK;
        case OPT_TIME_MEMBER: o->time_member = value; break;
        case OPT_TTL: o->ttl = value; break;
        }
    }
    o->jobs = (unsigned)jobs;
    if (strchr(o->null_text, '\n'))
        return bad_usage("%s", "--null TEXT must not hold a line break (a "
                               "result is one line)");
    if (o->chunk_header && o->format != FORMAT_TSV && !dedup)
        return bad_usage("%s", "--chunk-header needs --format tsv");
    if (dedup)
        return cli_run_dedup(o);
    if (audit)
        return cli_run_cache_audit(o);
    {
        size_t fixed = wj_function_min_args(o->fn), max = wj_function_max_args(o->fn);
        size_t from_record = o->fn->n_params == 0 ? 0
                             : o->format == FORMAT_ROWBINARY ? o->columns
                             : o->format == FORMAT_LINES ? 1 : 0;
        if (o->format != FORMAT_TSV &&
            (from_record + o->n_args < fixed || from_record + o->n_args > max))
            return bad_usage("wrong number of arguments for '%s' (see --help)",
                             o->fn->name);
    }
    return cli_run_function(o);
}

int main(int argc, char **argv)
{
    cli_options o = {.format = FORMAT_LINES, .null_text = "", .columns = 1,
                     .progress = -1, .key = "data_digest"};
    int rc = run(argc, argv, &o);
    free(o.args);
    free(o.files);
    return rc;
}
