/* SPDX-License-Identifier: MIT */
/*
 * wirejson FUNCTION: records are read into blocks of about 256 KiB by the
 * main thread, worked on by -j threads (one block each, no lock per record,
 * the results buffered per block), and written in input order by a writing
 * thread as soon as a block and every block before it are done, so reading
 * never waits on a slow output (a disk, a pipe) while there is room in the
 * ring of blocks.  When the input pauses (a read would wait), the records
 * already read are handed on before the read, so a caller that waits for
 * answers gets them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define BLOCK_BYTES (256 * 1024) /* a block is handed on past this */
#define READ_BYTES (512 * 1024)  /* at most this much a read */
/* A block's first room for its records and for their results: before a
 * read, a block holds less than BLOCK_BYTES of records and the start of one
 * more, so only a record of hundreds of KB makes it grow. */
#define IN_BYTES (1024 * 1024)
#define OUT_BYTES (512 * 1024)
#define MAX_FIELDS 256

typedef cli_block block;

typedef struct pool {
    const cli_options *o;
    block *blocks;
    size_t n_blocks;
    /* every block's first buffers, cut from one mapping of huge pages: a
     * fresh 4 KiB page costs microseconds on a virtual machine, and a run
     * would otherwise fault in the ring page by page */
    char *first_buffers;
    size_t first_size;
    uint64_t submitted, taken, written;
    int quit;
    /* the reading is over: the writing thread ends once all is written */
    int closing;
    /* the writing thread's status: nonzero once it stopped (a failed
     * record, an output error); nothing more is read or written */
    int status;
    pthread_mutex_t mu;
    pthread_cond_t work, done, room; /* room: a block was written */
    int nullable;
    /* lines and tsv (no chunk headers): the reader only cuts blocks at a
     * record's end, the threads split them into records */
    int split_by_workers;
    /* numbering at write time: the file of the last block written and the
     * line its next block starts at */
    size_t line_file;
    uint64_t next_line;
    const cli_block_hooks *hooks; /* NULL: the function of the options */
    /* --on-error fail: a block failed; the blocks taken after it (all later
     * in input order, since blocks are taken in order) are not worked on,
     * the run stops at the failed one */
    int stop;
    /* --on-error null: totals, and the first failure */
    uint64_t n_failed;
    char *first_fail;
} pool;

static block *slot(pool *p, uint64_t seq)
{
    return &p->blocks[seq % p->n_blocks];
}

static void fail_record(block *b, size_t r, char *msg, int keep_going)
{
    if (b->fail_at == SIZE_MAX) {
        b->fail_at = r;
        b->fail_msg = msg;
    } else
        free(msg);
    b->n_failed++;
    (void)keep_going;
}

static void work_function(pool *p, block *b, cli_arena *arena)
{
    const cli_options *o = p->o;
    const wj_function *fn = o->fn;
    cli_field fields[MAX_FIELDS];
    wj_arg args[MAX_FIELDS + 64];
    size_t r, start, end, n_fixed = fn->n_params ? MAX_FIELDS : 0;
    char num[32];
    wj_alloc mem = cli_arena_alloc(arena);

    b->out.len = 0;
    for (r = 0; cli_block_record(b, r, &start, &end); r++) {
        size_t nf = 0, na = 0, k;
        wj_result res;
        wj_error err;
        wj_code rc;
        char *msg = NULL;
        const char *text = NULL;
        size_t len = 0;

        cli_arena_reset(arena); /* the record before is written out */

        if (n_fixed)
            nf = cli_record_fields(o->format, b->in.ptr + start, end - start,
                                   o->columns, fields, MAX_FIELDS);
        if (nf == (size_t)-1) {
            size_t ml = strlen(fn->name) + 40;
            msg = malloc(ml);
            if (msg)
                snprintf(msg, ml, "%s: wrong number of arguments", fn->name);
        } else {
            for (k = 0; k < nf; k++) {
                args[na].ptr = fields[k].ptr;
                args[na++].len = fields[k].len;
            }
            for (k = 0; k < o->n_args && na < sizeof args / sizeof *args; k++) {
                args[na].ptr = o->args[k];
                args[na++].len = strlen(o->args[k]);
            }
            rc = wj_function_call(fn, args, na, &mem, &res, &err);
            if (rc != WJ_OK)
                msg = wj_error_message(&err, fn->name, NULL, NULL);
            else if (!res.is_null) {
                if (fn->result == WJ_RESULT_INTEGER) {
                    len = (size_t)snprintf(num, sizeof num, "%" PRId64,
                                           res.integer);
                    text = num;
                } else if (fn->result == WJ_RESULT_DIGEST) {
                    text = res.digest;
                    len = WJ_DIGEST_HEX_SIZE - 1;
                } else {
                    text = res.text;
                    len = res.len;
                }
                if (o->format == FORMAT_LINES &&
                    !(fn->flags & WJ_FN_COMPACT) && memchr(text, '\n', len)) {
                    size_t ml = strlen(fn->name) + 80;
                    msg = malloc(ml);
                    if (msg)
                        snprintf(msg, ml,
                                 "%s: the result holds a line break; use "
                                 "--format tsv or rowbinary",
                                 fn->name);
                    wj_result_free(&mem, &res);
                }
            }
            if (!msg && rc == WJ_OK) {
                if (cli_write_result(&b->out, o->format, text, len,
                                     res.is_null, p->nullable, o->null_text))
                    msg = NULL, rc = WJ_ERR_NOMEM;
                wj_result_free(&mem, &res);
                if (rc == WJ_OK)
                    continue;
            }
        }
        if (!msg) {
            msg = strdup("out of memory");
        }
        fail_record(b, r, msg, o->on_error_null);
        if (!o->on_error_null)
            return;
        cli_write_result(&b->out, o->format, NULL, 0, 1, p->nullable,
                         o->null_text);
    }
}

static void work_block(pool *p, block *b, cli_arena *arena)
{
    if (p->hooks) {
        p->hooks->work(p->hooks->ctx, b, arena);
        return;
    }
    work_function(p, b, arena);
}

static int add_end(block *b, size_t end)
{
    if (b->n_rec == b->ends_cap) {
        size_t c = b->ends_cap ? b->ends_cap * 2 : 4096;
        size_t *n = realloc(b->ends, c * sizeof *n);
        if (!n)
            return -1;
        b->ends = n;
        b->ends_cap = c;
    }
    b->ends[b->n_rec++] = end;
    return 0;
}

int cli_block_record(block *b, size_t r, size_t *start, size_t *end)
{
    if (r == b->n_rec && b->unsplit) {
        size_t at = r ? b->ends[r - 1] : 0, len;
        int bad;
        if (at == b->in.len) {
            b->unsplit = 0;
            return 0;
        }
        len = cli_record_end(b->format, b->in.ptr + at, b->in.len - at, 0,
                             &bad);
        if (len == 0) /* the end of the file, without a line break */
            len = b->in.len - at;
        if (add_end(b, at + len)) {
            b->no_memory = 1;
            return 0;
        }
    }
    if (r >= b->n_rec)
        return 0;
    *start = r ? b->ends[r - 1] : 0;
    *end = b->ends[r];
    return 1;
}

static void *worker(void *arg)
{
    pool *p = arg;
    cli_arena arena = {0};
    pthread_setname_np(pthread_self(), "wj-work");
    pthread_mutex_lock(&p->mu);
    for (;;) {
        block *b;
        while (!p->quit && p->taken == p->submitted)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->taken == p->submitted)
            break;
        b = slot(p, p->taken++);
        if (p->stop) {
            b->out.len = 0;
            b->done = 1;
            pthread_cond_broadcast(&p->done);
            continue;
        }
        pthread_mutex_unlock(&p->mu);
        work_block(p, b, &arena);
        pthread_mutex_lock(&p->mu);
        if (!p->hooks && !p->o->on_error_null && b->fail_at != SIZE_MAX)
            p->stop = 1;
        b->done = 1;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    cli_arena_release(&arena);
    return NULL;
}

/* Writes block seq, which is done: 0, or the exit status to stop with.
 * The writing thread's alone. */
static int write_block(pool *p, uint64_t seq)
{
    block *b = slot(p, seq);
    if (b->no_memory) {
        cli_error("out of memory");
        return EXIT_USAGE;
    }
    if (b->file_index != p->line_file) {
        p->line_file = b->file_index;
        p->next_line = 1;
    }
    b->first_line = p->next_line;
    p->next_line += b->n_rec;
    if (p->hooks)
        return p->hooks->consume(p->hooks->ctx, b);
    if (b->out.len && cli_write_all(1, b->out.ptr, b->out.len)) {
        cli_error("standard output: %s", strerror(errno));
        return EXIT_USAGE;
    }
    if (b->fail_at != SIZE_MAX) {
        const char *file = b->file;
        uint64_t line = b->first_line + b->fail_at;
        if (!p->o->on_error_null) {
            cli_error("%s:%" PRIu64 ": %s", file, line, b->fail_msg);
            return EXIT_FAILED;
        }
        if (!p->first_fail) {
            size_t ml = strlen(file) + strlen(b->fail_msg) + 32;
            p->first_fail = malloc(ml);
            if (p->first_fail)
                snprintf(p->first_fail, ml, "%s:%" PRIu64 ": %s", file, line,
                         b->fail_msg);
        }
        p->n_failed += b->n_failed;
    }
    return 0;
}

/* The writing thread: each block in order, as soon as it is done, until
 * the reading is over and all is written, or a block stops the run. */
static void *writer(void *arg)
{
    pool *p = arg;
    pthread_setname_np(pthread_self(), "wj-write");
    pthread_mutex_lock(&p->mu);
    for (;;) {
        uint64_t seq = p->written;
        int st;
        while (!(seq < p->submitted && slot(p, seq)->done) &&
               !(p->closing && seq == p->submitted))
            pthread_cond_wait(&p->done, &p->mu);
        if (seq == p->submitted)
            break;
        pthread_mutex_unlock(&p->mu);
        st = write_block(p, seq);
        pthread_mutex_lock(&p->mu);
        p->written = seq + 1;
        p->status = st;
        pthread_cond_broadcast(&p->room);
        if (st)
            break;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Waits until every block handed on is written: 0, or the writing
 * thread's status. */
static int write_all_blocks(pool *p)
{
    int st;
    pthread_mutex_lock(&p->mu);
    while (!p->status && p->written < p->submitted)
        pthread_cond_wait(&p->room, &p->mu);
    st = p->status;
    pthread_mutex_unlock(&p->mu);
    return st;
}

/* The block to fill next, once its slot is written out; 0 or a status. */
static int take_slot(pool *p, block **out)
{
    block *b;
    int st;
    pthread_mutex_lock(&p->mu);
    while (!p->status && p->submitted >= p->n_blocks &&
           p->written <= p->submitted - p->n_blocks)
        pthread_cond_wait(&p->room, &p->mu);
    st = p->status;
    pthread_mutex_unlock(&p->mu);
    if (st)
        return st;
    b = slot(p, p->submitted);
    b->in.len = b->n_rec = 0;
    b->unsplit = p->split_by_workers;
    b->format = p->o->format;
    b->done = 0;
    b->fail_at = SIZE_MAX;
    free(b->fail_msg);
    b->fail_msg = NULL;
    b->n_failed = 0;
    b->no_memory = 0;
    *out = b;
    return 0;
}

static void submit(pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->submitted++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

/* Submits *b's records (before parsed) and takes the next block, which
 * starts with the partial record after them; 0 or the exit status. */
static int pass_on(pool *p, block **b, size_t parsed)
{
    char *tail = (*b)->in.ptr + parsed;
    size_t tail_len = (*b)->in.len - parsed;
    const char *file = (*b)->file;
    size_t index = (*b)->file_index;
    block *nb;
    int st;
    (*b)->in.len = parsed;
    submit(p);
    if ((st = take_slot(p, &nb)))
        return st;
    if (cli_buf_reserve(&nb->in, tail_len + READ_BYTES)) {
        cli_error("out of memory");
        return EXIT_USAGE;
    }
    memcpy(nb->in.ptr, tail, tail_len);
    nb->in.len = tail_len;
    nb->file = file;
    nb->file_index = index;
    *b = nb;
    return 0;
}

/* One input file through the pool; 0 or the exit status to stop with. */
static int run_file(pool *p, const char *name, size_t index,
                    uint64_t *line_no, uint64_t *progress)
{
    const cli_options *o = p->o;
    cli_source src;
    block *b;
    size_t parsed = 0;   /* bytes of b->in split into records */
    size_t no_end = 0;   /* lines: bytes after parsed known to hold no \n,
                            so a long line is not searched again each read */
    uint64_t chunk_left = 0;
    int st = 0, at_end = 0;
    const char *shown = name;

    if (cli_source_open(&src, name, progress))
        return EXIT_USAGE;
    if ((st = take_slot(p, &b)))
        goto out;
    b->file = shown;
    b->file_index = index;
    while (!at_end) {
        long n;
        if (!cli_source_ready(&src)) {
            /* The input pauses: hand on what was read, to be written as
             * soon as it is done. */
            if (parsed) {
                if ((st = pass_on(p, &b, parsed)))
                    goto out;
                parsed = 0;
            }
        }
        if (cli_buf_reserve(&b->in, READ_BYTES)) {
            st = EXIT_USAGE;
            cli_error("out of memory");
            goto out;
        }
        n = cli_source_read(&src, b->in.ptr + b->in.len, READ_BYTES, &st);
        if (n < 0)
            goto out;
        if (n == 0)
            at_end = 1;
        b->in.len += (size_t)n;
        if (p->split_by_workers) {
            /* Cut after the last record's end: the threads split. */
            size_t end = at_end
                             ? b->in.len
                             : cli_records_end(o->format, b->in.ptr, b->in.len,
                                               b->in.len - (size_t)n);
            if (end)
                parsed = end;
        }
        /* Split what was read into records. */
        for (;;) {
            size_t len, avail = b->in.len - parsed;
            int bad = 0;
            if (avail == 0 || p->split_by_workers)
                break;
            if (o->format == FORMAT_LINES) {
                len = cli_record_end_lines(b->in.ptr + parsed + no_end,
                                           avail - no_end);
                if (len)
                    len += no_end, no_end = 0;
                else
                    no_end = avail;
            }
            else
                len = cli_record_end(o->format, b->in.ptr + parsed, avail,
                                     o->columns, &bad);
            if (bad) {
                write_all_blocks(p);
                cli_error("%s:%" PRIu64 ": not RowBinary: a String length "
                          "that is not a LEB128 number up to 2 GiB",
                          strcmp(name, "-") ? name : "-", *line_no);
                st = EXIT_FAILED;
                goto out;
            }
            if (len == 0) {
                if (!at_end)
                    break;
                if (o->format == FORMAT_ROWBINARY) {
                    if ((st = write_all_blocks(p)) == 0) {
                        cli_error("%s:%" PRIu64 ": the row ends early: a "
                                  "String's length goes past the end of the "
                                  "input",
                                  name, *line_no);
                        st = EXIT_FAILED;
                    }
                    goto out;
                }
                len = avail; /* a last line without \n */
                no_end = 0;
            }
            if (o->chunk_header && o->format != FORMAT_ROWBINARY &&
                chunk_left == 0) {
                /* ClickHouse's send_chunk_header: the rows that follow. */
                size_t k;
                uint64_t v = 0;
                for (k = 0; k < len && b->in.ptr[parsed + k] >= '0' &&
                            b->in.ptr[parsed + k] <= '9';
                     k++)
                    v = v * 10 + (uint64_t)(b->in.ptr[parsed + k] - '0');
                if (k == 0 || (k < len && b->in.ptr[parsed + k] != '\n' &&
                               b->in.ptr[parsed + k] != '\r')) {
                    write_all_blocks(p);
                    cli_error("%s:%" PRIu64 ": expected a chunk header (a row "
                              "count on a line of its own)",
                              name, *line_no);
                    st = EXIT_FAILED;
                    goto out;
                }
                chunk_left = v;
                /* drop the header line from the block */
                memmove(b->in.ptr + parsed, b->in.ptr + parsed + len,
                        b->in.len - parsed - len);
                b->in.len -= len;
                continue;
            }
            if (chunk_left)
                chunk_left--;
            if (add_end(b, parsed + len)) {
                st = EXIT_USAGE;
                cli_error("out of memory");
                goto out;
            }
            parsed += len;
            ++*line_no;
        }
        if (parsed >= BLOCK_BYTES || (at_end && parsed)) {
            if ((st = pass_on(p, &b, parsed)))
                goto out;
            parsed = 0;
        }
    }
out:
    cli_source_close(&src);
    return st;
}

/* Lends each block its first buffers, cut from one mapping; -1 when out
 * of memory. */
static int lend_first_buffers(pool *p)
{
    size_t each = IN_BYTES + OUT_BYTES, k;
    p->first_size = p->n_blocks * each;
    p->first_buffers = cli_big_realloc(NULL, 0, &p->first_size);
    if (!p->first_buffers)
        return -1;
    for (k = 0; k < p->n_blocks; k++) {
        block *b = &p->blocks[k];
        b->in.ptr = p->first_buffers + k * each;
        b->in.cap = IN_BYTES;
        b->in.lent = 1;
        b->out.ptr = b->in.ptr + b->in.cap;
        b->out.cap = OUT_BYTES;
        b->out.lent = 1;
    }
    return 0;
}

int cli_run_function(const cli_options *o)
{
    return cli_run_blocks(o, NULL);
}

int cli_run_blocks(const cli_options *o, const cli_block_hooks *hooks)
{
    pool p;
    pthread_t *threads, writing;
    size_t k, nfiles = o->n_files;
    static const char *stdin_only[] = {"-"};
    const char **files = nfiles ? o->files : stdin_only;
    int st = 0;
    uint64_t progress_bytes = 0, total = 0;
    cli_progress *bar = NULL;
    int show = o->progress;

    if (!nfiles)
        nfiles = 1;
    memset(&p, 0, sizeof p);
    p.o = o;
    p.hooks = hooks;
    p.nullable = !hooks && (o->on_error_null ||
                            (o->fn->flags & WJ_FN_MAY_BE_NULL));
    p.split_by_workers = o->format != FORMAT_ROWBINARY && !o->chunk_header;
    p.line_file = SIZE_MAX;
    p.n_blocks = 2 * (size_t)o->jobs + 2;
    p.blocks = calloc(p.n_blocks, sizeof *p.blocks);
    threads = calloc(o->jobs, sizeof *threads);
    if (!p.blocks || !threads || lend_first_buffers(&p)) {
        cli_error("out of memory");
        free(p.blocks);
        free(threads);
        return EXIT_USAGE;
    }
    for (k = 0; k < p.n_blocks; k++)
        p.blocks[k].fail_at = SIZE_MAX;
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.done, NULL);
    pthread_cond_init(&p.room, NULL);
    for (k = 0; k < o->jobs; k++)
        pthread_create(&threads[k], NULL, worker, &p);
    pthread_create(&writing, NULL, writer, &p);

    if (show < 0)
        show = isatty(2);
    if (show) {
        int known = 1;
        for (k = 0; k < nfiles; k++) {
            struct stat sb;
            if (strcmp(files[k], "-") == 0 || stat(files[k], &sb) ||
                !S_ISREG(sb.st_mode))
                known = 0;
            else
                total += (uint64_t)sb.st_size;
        }
        bar = cli_progress_start(known ? total : 0, &progress_bytes);
    }
    for (k = 0; k < nfiles && !st; k++) {
        uint64_t line = 1;
        st = run_file(&p, files[k], k, &line, &progress_bytes);
    }
    /* What was handed on is written, even after a reading error: nothing
     * before an error is lost. */
    pthread_mutex_lock(&p.mu);
    p.closing = 1;
    pthread_cond_broadcast(&p.done);
    pthread_mutex_unlock(&p.mu);
    pthread_join(writing, NULL);
    if (!st)
        st = p.status;
    pthread_mutex_lock(&p.mu);
    p.quit = 1;
    p.submitted = p.taken; /* nothing more to take */
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.mu);
    for (k = 0; k < o->jobs; k++)
        pthread_join(threads[k], NULL);
    cli_progress_stop(bar);
    if (!st && p.n_failed) {
        cli_error("%" PRIu64 " %s failed; the first: %s", p.n_failed,
                  cli_plural(p.n_failed, "record", "records"),
                  p.first_fail ? p.first_fail : "(out of memory)");
    }
    for (k = 0; k < p.n_blocks; k++) {
        cli_buf_free(&p.blocks[k].in);
        free(p.blocks[k].ends);
        free(p.blocks[k].fail_msg);
        cli_buf_free(&p.blocks[k].out);
    }
    cli_big_free(p.first_buffers, p.first_size);
    free(p.blocks);
    free(threads);
    free(p.first_fail);
    return st;
}
