/* SPDX-License-Identifier: MIT */
/*
 * wirejson dedup: the dedup job of the Python module (python3 -m
 * wirejson.dedup) on one machine, writing byte for byte the same DIR:
 *
 *   unique/part-NNNNN.jsonl  the first line of each key, in the order of
 *                            first occurrence; part k holds the keys first
 *                            seen in the k-th input file
 *   counts/part-NNNNN.jsonl  {"key": K, "count": N, "first": {"file": F,
 *                            "line": L}} for the same keys, in the same order
 *   summary.json             the totals and the first 100 errors
 *
 * The lines are keyed on the -j threads of the block machinery (run.c), and
 * applied on the main thread in input order: a key seen for the first time
 * has its line written to the staging unique part at once, so memory holds
 * only the table of distinct keys (the 32-byte digest, the count and where
 * it was first seen).  Everything is built in a staging folder beside DIR
 * and swapped with DIR in one step at the end (see "staging, install"): a
 * run that fails or dies leaves DIR as it was.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define MAX_ERRORS 100

/* s[0..n) as a JSON string literal appended to b (wj_quote_bytes): 0, or
 * -1 when out of memory. */
static int quote(wk_buf *b, const char *s, size_t n, unsigned flags)
{
    char *text = NULL;
    size_t len = 0;
    wj_error err = WJ_ERROR_INIT;
    int st;
    if (wj_quote_bytes(s, n, flags, NULL, &text, &len, &err) != WJ_OK)
        return -1;
    st = wk_buf_append(b, text, len);
    wj_free(NULL, text);
    return st;
}

/* ------------------------------------------------------------ the keying */

/* What a worker makes of a line, in the block's out: a tag, then for 'k'
 * the 32-byte key, for 'e' the message's length (4 bytes) and the message.
 * The key is the kit's dedup engine's (wk_dedup_key_lines). */
enum { TAG_BLANK = 'b', TAG_KEY = 'k', TAG_ERROR = 'e' };

/* Lines keyed at a time (a group ends early past GROUP_BYTES): enough for
 * the core to hash their digests side by side, little enough to keep the
 * arena small. */
#define GROUP 256
#define GROUP_BYTES (1u << 20)

/* A group of records in order: each blank, or one of the lines keyed. */
typedef struct group {
    size_t n_records, n_lines;
    unsigned char blank[GROUP];
    wj_arg lines[GROUP];
    unsigned char keys[32 * GROUP];
    char *msgs[GROUP];
} group;

/* Keys the group's lines and writes its records' tags to out: 0, or -1
 * when out of memory. */
static int key_group(const wk_dedup_keyer *k, group *g, wk_arena *arena,
                     wk_dedup_scratch *s, wk_buf *out)
{
    wj_alloc mem = wk_arena_alloc(arena);
    size_t r, line = 0;
    int st = g->n_lines ? wk_dedup_key_lines(k, g->lines, g->n_lines, &mem, s,
                                             g->keys, g->msgs)
                        : 0;
    wk_arena_reset(arena);
    if (st < 0)
        return -1;
    for (r = 0; r < g->n_records; r++) {
        unsigned char tag = TAG_BLANK;
        char *msg;
        uint32_t ml;
        if (g->blank[r]) {
            wk_buf_append(out, &tag, 1);
            continue;
        }
        msg = g->msgs[line];
        tag = msg ? TAG_ERROR : TAG_KEY;
        wk_buf_append(out, &tag, 1);
        if (msg) {
            ml = (uint32_t)strlen(msg);
            wk_buf_append(out, &ml, 4);
            wk_buf_append(out, msg, ml);
            free(msg);
        } else
            wk_buf_append(out, g->keys + 32 * line, 32);
        line++;
    }
    g->n_records = g->n_lines = 0;
    return 0;
}

static void work(void *ctx, cli_block *b, wk_arena *arena)
{
    const wk_dedup_keyer *k = ctx;
    wk_dedup_scratch s = {0};
    size_t r, start, end, bytes = 0;
    int st = 0;
    group *g = calloc(1, sizeof *g);
    b->out.len = 0;
    for (r = 0; g && cli_block_record(b, r, &start, &end); r++) {
        size_t len = end - start;
        const char *line = b->in.ptr + start;
        if (len && line[len - 1] == '\n')
            len--;
        g->blank[g->n_records] = (unsigned char)wk_line_is_blank(line, len);
        if (!g->blank[g->n_records]) {
            g->lines[g->n_lines].ptr = line;
            g->lines[g->n_lines++].len = len;
            bytes += len;
        }
        if (++g->n_records == GROUP || bytes >= GROUP_BYTES) {
            if ((st = key_group(k, g, arena, &s, &b->out)) < 0)
                break;
            bytes = 0;
        }
    }
    if (g && st == 0 && g->n_records)
        st = key_group(k, g, arena, &s, &b->out);
    wk_dedup_scratch_free(&s);
    free(g);
    if (!g || st < 0 || cli_block_record(b, r, &start, &end) ||
        wk_buf_failed(&b->out)) {
        /* out of memory */
        b->out.len = 0;
        b->fail_at = 0;
    }
}

/* ------------------------------------------------------------ the run */

typedef struct err_rec {
    size_t file;
    uint64_t line;
    char *msg;
} err_rec;

typedef struct run {
    wk_dedup_keyer keyer; /* first: work() is given the run as its keyer */
    const cli_options *o;
    const char **files;
    size_t n_files;
    char *unique_dir, *counts_dir;
    char name_fmt[48];
    wk_tally t;
    uint64_t nonblank, valid;
    err_rec errors[MAX_ERRORS];
    size_t n_errors;
    FILE *unique;
    size_t unique_index;
} run;

static char *path_join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *p = malloc(la + lb + 2);
    if (!p)
        return NULL;
    memcpy(p, a, la);
    if (la && a[la - 1] != '/')
        p[la++] = '/';
    memcpy(p + la, b, lb + 1);
    return p;
}

static char *part_path(const run *r, const char *dir, size_t k)
{
    char name[64];
    snprintf(name, sizeof name, r->name_fmt, (unsigned long long)k);
    return path_join(dir, name);
}

static int open_unique(run *r, size_t k)
{
    char *path = part_path(r, r->unique_dir, k);
    if (r->unique && fclose(r->unique)) {
        r->unique = NULL;
        free(path);
        cli_error("%s: %s", r->unique_dir, strerror(errno));
        return EXIT_USAGE;
    }
    r->unique = path ? fopen(path, "wb") : NULL;
    if (!r->unique) {
        cli_error("%s: %s", path ? path : "out of memory", strerror(errno));
        free(path);
        return EXIT_USAGE;
    }
    setvbuf(r->unique, NULL, _IOFBF, 1 << 20);
    free(path);
    r->unique_index = k;
    return 0;
}

static int consume(void *ctx, cli_block *b)
{
    run *r = ctx;
    const char *o = b->out.ptr;
    size_t i, start = 0, pos = 0;
    int st;
    if (b->fail_at != SIZE_MAX) {
        cli_error("out of memory");
        return EXIT_USAGE;
    }
    if (!r->unique || r->unique_index != b->file_index)
        if ((st = open_unique(r, b->file_index)))
            return st;
    for (i = 0; i < b->n_rec; i++) {
        size_t end = b->ends[i], len = end - start;
        const char *line = b->in.ptr + start;
        char tag = o[pos++];
        start = end;
        if (tag == TAG_BLANK)
            continue;
        r->nonblank++;
        if (tag == TAG_ERROR) {
            uint32_t ml;
            memcpy(&ml, o + pos, 4);
            pos += 4;
            if (r->n_errors < MAX_ERRORS) {
                err_rec *e = &r->errors[r->n_errors++];
                e->file = b->file_index;
                e->line = b->first_line + i;
                e->msg = malloc(ml + 1);
                if (!e->msg) {
                    cli_error("out of memory");
                    return EXIT_USAGE;
                }
                memcpy(e->msg, o + pos, ml);
                e->msg[ml] = 0;
            }
            pos += ml;
            continue;
        }
        {
            int fresh = wk_tally_count(&r->t, (const unsigned char *)o + pos,
                                       b->first_line + i, 0, 0,
                                       (uint32_t)b->file_index);
            pos += 32;
            r->valid++;
            if (fresh < 0) {
                cli_error("out of memory");
                return EXIT_USAGE;
            }
            if (!fresh)
                continue;
            if (len && line[len - 1] == '\n')
                len--;
            if (fwrite(line, 1, len, r->unique) != len ||
                putc('\n', r->unique) == EOF) {
                cli_error("%s: %s", r->unique_dir, strerror(errno));
                return EXIT_USAGE;
            }
        }
    }
    return 0;
}

/* The counts parts, from the table in first-occurrence order. */
static int write_counts(run *r)
{
    wk_buf line = {0}, name = {0};
    FILE *f = NULL;
    size_t cur = 0, k;
    uint64_t i;
    int st = 0;
    char hex[64], num[64];

    for (k = 0; k <= r->n_files; k++) {
        /* every part, the ones with no key too */
        if (k == r->n_files)
            break;
        {
            char *p = part_path(r, r->counts_dir, k);
            FILE *g = p ? fopen(p, "wb") : NULL;
            free(p);
            if (!g || fclose(g)) {
                cli_error("%s: %s", r->counts_dir, strerror(errno));
                return EXIT_USAGE;
            }
        }
    }
    for (i = 0; i < r->t.keys.n && !st; i++) {
        const wk_tally_entry *e = wk_tally_at(&r->t, i);
        if (!f || e->source != cur) {
            char *p;
            if (f && fclose(f))
                st = EXIT_USAGE;
            cur = e->source;
            p = part_path(r, r->counts_dir, cur);
            f = p ? fopen(p, "wb") : NULL;
            free(p);
            if (!f) {
                st = EXIT_USAGE;
                break;
            }
            setvbuf(f, NULL, _IOFBF, 1 << 20);
            name.len = 0;
            if (quote(&name, r->files[cur], strlen(r->files[cur]),
                      WJ_QUOTE_ASCII_IF_STRAYS)) {
                st = EXIT_USAGE;
                break;
            }
        }
        wj_hex_encode(e->key, 32, hex);
        line.len = 0;
        snprintf(num, sizeof num, "\", \"count\": %" PRIu64, e->count);
        if (wk_buf_append(&line, "{\"key\": \"", 9) ||
            wk_buf_append(&line, hex, 64) ||
            wk_buf_append(&line, num, strlen(num)) ||
            wk_buf_append(&line, ", \"first\": {\"file\": ", 20) ||
            wk_buf_append(&line, name.ptr, name.len)) {
            st = EXIT_USAGE;
            break;
        }
        snprintf(num, sizeof num, ", \"line\": %" PRIu64 "}}\n", e->line);
        if (wk_buf_append(&line, num, strlen(num)) ||
            fwrite(line.ptr, 1, line.len, f) != line.len)
            st = EXIT_USAGE;
    }
    if (f && fclose(f))
        st = EXIT_USAGE;
    if (st)
        cli_error("%s: %s", r->counts_dir, strerror(errno));
    wk_buf_free(&line);
    wk_buf_free(&name);
    return st;
}

static int write_summary(run *r, const char *path)
{
    wk_buf s = {0};
    char num[200];
    size_t k;
    uint64_t distinct = r->t.keys.n;
    int st = 0;
    FILE *f;
    snprintf(num, sizeof num,
             "{\n  \"lines\": %" PRIu64 ",\n  \"valid\": %" PRIu64
             ",\n  \"invalid\": %" PRIu64 ",\n  \"distinct\": %" PRIu64
             ",\n  \"duplicates\": %" PRIu64 ",\n  \"errors\": [",
             r->nonblank, r->valid, r->nonblank - r->valid, distinct,
             r->valid - distinct);
    st |= wk_buf_append(&s, num, strlen(num));
    for (k = 0; k < r->n_errors; k++) {
        const err_rec *e = &r->errors[k];
        const char *fname = r->files[e->file];
        const char *head = ",\n    {\n      \"file\": " + (k ? 0 : 1);
        st |= wk_buf_append(&s, head, strlen(head));
        st |= quote(&s, fname, strlen(fname), WJ_QUOTE_STRAYS);
        snprintf(num, sizeof num, ",\n      \"line\": %" PRIu64
                                  ",\n      \"error\": ", e->line);
        st |= wk_buf_append(&s, num, strlen(num));
        st |= quote(&s, e->msg, strlen(e->msg), WJ_QUOTE_STRAYS);
        st |= wk_buf_append(&s, "\n    }", 6);
    }
    st |= wk_buf_append(&s, r->n_errors ? "\n  ]\n}\n" : "]\n}\n",
                         r->n_errors ? 7 : 4);
    f = st ? NULL : fopen(path, "wb");
    if (!f || fwrite(s.ptr, 1, s.len, f) != s.len || fclose(f)) {
        cli_error("%s: %s", path, strerror(errno));
        st = EXIT_USAGE;
    }
    wk_buf_free(&s);
    return st ? EXIT_USAGE : 0;
}

/* ------------------------------------------------------------ the inputs */

typedef struct list {
    char **v;
    size_t n, cap;
} list;

static int list_add(list *l, char *s)
{
    if (!s)
        return -1;
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 16;
        char **n = realloc(l->v, c * sizeof *n);
        if (!n)
            return -1;
        l->v = n;
        l->cap = c;
    }
    l->v[l->n++] = s;
    return 0;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int setup_error(const char *fmt, const char *a, const char *b)
{
    fputs("wirejson: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

static int walk(list *out, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    list names = {0};
    size_t k;
    int st = 0;
    if (!d)
        return setup_error("cannot read %s: %s", dir, strerror(errno));
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
            list_add(&names, strdup(de->d_name)))
            st = setup_error("%s%s", "out of memory", "");
    closedir(d);
    if (names.n)
        qsort(names.v, names.n, sizeof *names.v, by_bytes);
    for (k = 0; k < names.n; k++) {
        char *sub = st ? NULL : path_join(dir, names.v[k]);
        struct stat sb;
        if (sub && stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            st = walk(out, sub);
            free(sub);
        } else if (sub && stat(sub, &sb) == 0 && S_ISREG(sb.st_mode)) {
            if (list_add(out, sub))
                st = setup_error("%s%s", "out of memory", "");
        } else
            free(sub);
        free(names.v[k]);
    }
    free(names.v);
    return st;
}

static int one(list *out, const char *arg)
{
    struct stat sb;
    if (stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode))
        return walk(out, arg);
    if (stat(arg, &sb) == 0 && S_ISREG(sb.st_mode))
        return list_add(out, strdup(arg)) ? setup_error("%s%s", "out of memory", "") : 0;
    if (lstat(arg, &sb) == 0)
        return setup_error("not a regular file: %s%s", arg, "");
    return setup_error("no such file: %s%s", arg, "");
}

static int expand(list *out, const char **args, size_t n)
{
    size_t k, m;
    for (k = 0; k < n; k++) {
        struct stat sb;
        int st;
        if (lstat(args[k], &sb) != 0 && strpbrk(args[k], "*?[")) {
            glob_t g;
            char **v;
            if (glob(args[k], 0, NULL, &g) != 0 || g.gl_pathc == 0) {
                globfree(&g);
                return setup_error("no such file: %s%s", args[k], "");
            }
            v = g.gl_pathv;
            qsort(v, g.gl_pathc, sizeof *v, by_bytes);
            for (m = 0, st = 0; m < g.gl_pathc && !st; m++)
                st = one(out, v[m]);
            globfree(&g);
            if (st)
                return st;
        } else if ((st = one(out, args[k])))
            return st;
    }
    for (k = 0; k < out->n; k++) {
        int fd = open(out->v[k], O_RDONLY);
        char magic[2];
        if (fd < 0 || read(fd, magic, 2) < 0) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            return setup_error("cannot read %s: %s", out->v[k], strerror(e));
        }
        close(fd);
    }
    return 0;
}

/* ----------------------------------------------------- staging, install */

/*
 * DIR is replaced as a whole, in one step, by the kit (wk_dedup_dir: a
 * locked staging folder beside DIR's target, swapped with DIR at the end).
 * SIGINT, SIGTERM and SIGHUP are taken by a thread of their own, which
 * removes the staging folder and then dies of the signal.
 */

static struct {
    pthread_mutex_t mu;
    wk_dedup_dir *dir; /* while its staging folder may exist, or NULL */
    sigset_t set;
} stage_live = {PTHREAD_MUTEX_INITIALIZER, NULL, {{0}}};

static void *signal_thread(void *arg)
{
    int sig = 0;
    (void)arg;
    while (sigwait(&stage_live.set, &sig))
        ;
    pthread_mutex_lock(&stage_live.mu);
    if (stage_live.dir)
        wk_dedup_dir_remove_stage(stage_live.dir);
    stage_live.dir = NULL;
    /* Die of the signal itself, as if there were no handler. */
    signal(sig, SIG_DFL);
    pthread_sigmask(SIG_UNBLOCK, &stage_live.set, NULL);
    raise(sig);
    _exit(128 + sig);
}

/* Takes SIGINT, SIGTERM and SIGHUP away from every thread started after
 * this (the workers inherit the mask) and gives them to signal_thread. */
static int watch_signals(void)
{
    pthread_t t;
    sigemptyset(&stage_live.set);
    sigaddset(&stage_live.set, SIGINT);
    sigaddset(&stage_live.set, SIGTERM);
    sigaddset(&stage_live.set, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &stage_live.set, NULL) ||
        pthread_create(&t, NULL, signal_thread, NULL))
        return -1;
    pthread_detach(t);
    return 0;
}

/* The staging folder removed (after an install: the old DIR) and no longer
 * the signal thread's to remove. */
static void stage_done(wk_dedup_dir *dir)
{
    pthread_mutex_lock(&stage_live.mu);
    wk_dedup_dir_remove_stage(dir);
    stage_live.dir = NULL;
    pthread_mutex_unlock(&stage_live.mu);
}

int cli_run_dedup(const cli_options *o)
{
    run r;
    list inputs = {0};
    struct stat sb;
    char *summary = NULL;
    const char *stage;
    wk_dedup_dir place = {0};
    cli_options ro = *o;
    cli_block_hooks hooks;
    wk_buf q = {0};
    size_t k, digits;
    int st;
    char num[32];

    if (wk_dedup_key_find(o->key) < 0) {
        cli_error("dedup: --key takes data_digest or messages_digest, not "
                  "'%s'", o->key);
        return EXIT_USAGE;
    }
    if (!o->out) {
        cli_error("dedup: --out DIR is required");
        return EXIT_USAGE;
    }
    if (!o->n_files) {
        cli_error("dedup: no FILE given");
        return EXIT_USAGE;
    }
    if ((st = expand(&inputs, o->files, o->n_files)))
        return st;
    if (lstat(o->out, &sb) == 0 && !(stat(o->out, &sb) == 0 &&
                                     S_ISDIR(sb.st_mode)))
        return setup_error("--out %s exists and is not a directory%s", o->out,
                           "");

    memset(&r, 0, sizeof r);
    wk_tally_init(&r.t);
    if (wk_dedup_dir_open(&place, o->out)) {
        st = setup_error("%s%s", place.error ? place.error : "out of memory",
                         "");
        goto out;
    }
    r.o = o;
    r.keyer.messages = wk_dedup_key_find(o->key);
    r.keyer.member = o->member;
    if (o->member) {
        if (quote(&q, o->member, strlen(o->member), 0) ||
            wk_buf_append(&q, "", 1))
            return EXIT_USAGE;
        r.keyer.member_quoted = q.ptr;
    }
    r.files = (const char **)inputs.v;
    r.n_files = inputs.n;
    snprintf(num, sizeof num, "%zu", inputs.n ? inputs.n - 1 : 0);
    digits = strlen(num) > 5 ? strlen(num) : 5;
    snprintf(r.name_fmt, sizeof r.name_fmt, "part-%%0%zullu.jsonl", digits);

    st = EXIT_USAGE;
    if (watch_signals()) {
        cli_error("dedup: cannot watch for signals: %s", strerror(errno));
        goto out;
    }
    /* The signal thread's to remove from before it is made. */
    pthread_mutex_lock(&stage_live.mu);
    stage_live.dir = &place;
    if (wk_dedup_dir_stage(&place))
        setup_error("%s%s", place.error ? place.error : "out of memory", "");
    pthread_mutex_unlock(&stage_live.mu);
    if (!(stage = place.stage))
        goto out;
    r.unique_dir = path_join(stage, "unique");
    r.counts_dir = path_join(stage, "counts");
    summary = path_join(stage, "summary.json");
    if (!summary || !r.unique_dir || !r.counts_dir ||
        mkdir(r.unique_dir, 0777) || mkdir(r.counts_dir, 0777)) {
        cli_error("%s: %s", stage, strerror(errno));
        goto out;
    }
    for (k = 0; k < inputs.n; k++) {
        char *p = part_path(&r, r.unique_dir, k);
        FILE *g = p ? fopen(p, "wb") : NULL;
        free(p);
        if (!g || fclose(g)) {
            cli_error("%s: %s", r.unique_dir, strerror(errno));
            goto out;
        }
    }

    ro.format = FORMAT_LINES;
    ro.chunk_header = 0;
    ro.files = (const char **)inputs.v;
    ro.n_files = inputs.n;
    hooks.work = work;
    hooks.consume = consume;
    hooks.ctx = &r;
    st = cli_run_blocks(&ro, &hooks);
    if (r.unique && fclose(r.unique) && !st) {
        cli_error("%s: %s", r.unique_dir, strerror(errno));
        st = EXIT_USAGE;
    }
    r.unique = NULL;
    if (!st)
        st = write_counts(&r);
    if (!st)
        st = write_summary(&r, summary);
    pthread_mutex_lock(&stage_live.mu);
    if (!st && wk_dedup_dir_install(&place)) {
        cli_error("%s", place.error ? place.error : strerror(errno));
        st = EXIT_USAGE;
    }
    pthread_mutex_unlock(&stage_live.mu);
    stage_done(&place); /* the old DIR, or the unfinished new one */
    if (!st) {
        uint64_t d = r.valid - r.t.keys.n;
        printf("%" PRIu64 " %s: %" PRIu64 " valid, %" PRIu64 " invalid, %" PRIu64
               " distinct, %" PRIu64 " %s -> %s\n",
               r.nonblank, cli_plural(r.nonblank, "line", "lines"), r.valid,
               r.nonblank - r.valid, (uint64_t)r.t.keys.n, d,
               cli_plural(d, "duplicate", "duplicates"), o->out);
        fflush(stdout);
    }
out:
    if (r.unique)
        fclose(r.unique);
    stage_done(&place);
    for (k = 0; k < r.n_errors; k++)
        free(r.errors[k].msg);
    for (k = 0; k < inputs.n; k++)
        free(inputs.v[k]);
    free(inputs.v);
    wk_tally_free(&r.t);
    free(summary);
    free(r.unique_dir);
    free(r.counts_dir);
    wk_buf_free(&q);
    wk_dedup_dir_free(&place);
    return st;
}
