/* SPDX-License-Identifier: MIT */
/*
 * wirejson FUNCTION: records are read into blocks of about 256 KiB by the
 * main thread (a plain file's blocks are windows of its mapping, not
 * copies), worked on by -j threads (one block each, no lock per record,
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "member.h"

#define BLOCK_BYTES (256 * 1024) /* a block is handed on past this */
#define READ_BYTES (512 * 1024)  /* at most this much a read */
/* Each worker's first block is short, read this much at a time, so that
 * all of them start soon after the first bytes come in; so are the blocks
 * of a file's last TAIL_BYTES, so that the workers end together. */
#define FIRST_BLOCK_BYTES (64 * 1024)
#define TAIL_BYTES (1024 * 1024)
/* A block's first room for its records and for their results: before a
 * read, a block holds less than BLOCK_BYTES of records and the start of one
 * more, so only a record of hundreds of KB makes it grow. */
#define IN_BYTES (1024 * 1024)
#define OUT_BYTES (512 * 1024)

typedef cli_block block;

/* A mapped input file, unmapped once the blocks before seq_after (the
 * last one viewing it, and all before) are written. */
typedef struct mapping {
    char *base;
    size_t size;
    uint64_t seq_after;
} mapping;

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
    char *quoted_member; /* --member NAME as a JSON string, for messages */
    /* --format lines, a batched function of JSON results: long records
     * are rendered straight into their block's output (render_direct) */
    int direct;
    /* the mapped files whose blocks may not all be written yet */
    mapping *maps;
    size_t n_maps, maps_cap;
    /* the writing thread's: the pages of the mapped file of index
     * released_file before released_to are given back (release_viewed) */
    size_t released_file;
    char *released_to;
    size_t page_size;
} pool;

int cli_result_one_line(const wj_function *fn)
{
    switch (fn->result) {
    case WJ_RESULT_JSON:
    case WJ_RESULT_DIGEST:
    case WJ_RESULT_INTEGER:
    case WJ_RESULT_DIGESTS:
    case WJ_RESULT_TEXTS: return 1;
    case WJ_RESULT_BODY:
    case WJ_RESULT_TEXT: break;
    }
    return 0;
}

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

/* A worker's room for one record's arguments, grown as records need. */
typedef struct arg_room {
    cli_field *fields;
    wj_arg *args;
    size_t n_fields, n_args; /* their capacities */
    wk_buf tmp, doc; /* --member */
} arg_room;

static int room_for(arg_room *a, size_t fields, size_t args)
{
    if (fields > a->n_fields) {
        cli_field *n = realloc(a->fields, fields * sizeof *n);
        if (!n)
            return -1;
        a->fields = n, a->n_fields = fields;
    }
    if (args > a->n_args) {
        wj_arg *n = realloc(a->args, args * sizeof *n);
        if (!n)
            return -1;
        a->args = n, a->n_args = args;
    }
    return 0;
}

static void room_free(arg_room *a)
{
    free(a->fields);
    free(a->args);
    wk_buf_free(&a->tmp);
    wk_buf_free(&a->doc);
}

/* The arguments of the record p[0..n) into a->args (*na of them); NULL, or
 * the message of the record's failure (malloc'd). */
static char *record_args(pool *p, arg_room *a, char *rec, size_t n,
                         size_t *na)
{
    const cli_options *o = p->o;
    const wj_function *fn = o->fn;
    size_t nf = 0, k, most = 0;
    if (fn->n_params) {
        most = cli_record_fields_max(o->format, rec, n, o->columns);
        if (room_for(a, most, most + o->n_args))
            return NULL;
        nf = cli_record_fields(o->format, rec, n, o->columns, a->fields, most);
        if (nf == CLI_FIELDS_BAD_ESCAPE)
            return wk_message("%s: the row ends in a backslash that escapes "
                              "nothing (a TSV escape cut off)",
                              fn->name);
        if (nf == CLI_FIELDS_TOO_MANY)
            return wk_message("%s: wrong number of arguments", fn->name);
    } else if (room_for(a, 0, o->n_args ? o->n_args : 1))
        return NULL;
    for (k = 0; k < nf; k++) {
        a->args[k].ptr = a->fields[k].ptr;
        a->args[k].len = a->fields[k].len;
    }
    if (o->member && nf > 0 && a->args[0].ptr) {
        const char *doc = "";
        size_t doc_len = 0;
        char *msg = cli_member_document(a->args[0].ptr, a->args[0].len,
                                        o->member, p->quoted_member, fn->name,
                                        &a->tmp, &a->doc, &doc, &doc_len);
        if (msg)
            return msg;
        a->args[0].ptr = doc ? doc : "";
        a->args[0].len = doc_len;
    }
    for (k = 0; k < o->n_args; k++) {
        a->args[nf + k].ptr = o->args[k];
        a->args[nf + k].len = strlen(o->args[k]);
    }
    *na = nf + o->n_args;
    return NULL;
}

static void work_function(pool *p, block *b, wk_arena *arena)
{
    const cli_options *o = p->o;
    const wj_function *fn = o->fn;
    arg_room room = {0};
    size_t r, start, end;
    char num[32];
    wj_alloc mem = wk_arena_alloc(arena);

    b->out.len = 0;
    for (r = 0; cli_block_record(b, r, &start, &end); r++) {
        size_t na = 0;
        wj_result res;
        wj_error err;
        wj_code rc = WJ_ERR_NOMEM;
        char *msg;
        const char *text = NULL;
        size_t len = 0;

        wk_arena_reset(arena); /* the record before is written out */

        msg = record_args(p, &room, b->in.ptr + start, end - start, &na);
        if (!msg && room.args) {
            rc = wj_function_call(fn, room.args, na, &mem, &res, &err);
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
                    !o->one_line && memchr(text, '\n', len)) {
                    msg = wk_message("%s: the result holds a line break; use "
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
        if (!msg)
            msg = strdup("out of memory");
        fail_record(b, r, msg, o->on_error_null);
        if (!o->on_error_null)
            break;
        cli_write_result(&b->out, o->format, NULL, 0, 1, p->nullable,
                         o->null_text);
    }
    room_free(&room);
}

/* Records a call of the batch entry point takes at most: enough for the
 * digests' streams, few enough that their texts stay in cache. */
#define BATCH_ROWS 1024

/* A worker's room for a run of records through wj_function_call_batch,
 * kept from block to block. */
typedef struct batch_room {
    wj_batch_out out;
    wj_batch_row rows[BATCH_ROWS];
    wj_arg *args; /* BATCH_ROWS rows of n_args */
    size_t n_args;
    size_t n_rows;   /* rows waiting in args */
    size_t first;    /* the block's record of the first of them */
} batch_room;

static void batch_room_free(batch_room *br)
{
    if (!br)
        return;
    wj_batch_out_free(NULL, &br->out);
    free(br->args);
    free(br);
}

/* The functions whose batch has a path of its own (the core renders and
 * hashes many rows at once); the others gain nothing from it. */
static int batch_pays(const cli_options *o)
{
    /* with --member, each record's document lives in a buffer of its own */
    return !o->member && wj_function_batched(o->fn);
}

/* Writes one record's outcome: its result, or its failure (msg, malloc'd;
 * NULL: out of memory).  0, or -1 when the block stops (--on-error fail). */
static int put_record(pool *p, block *b, size_t r, const char *text,
                      size_t len, int is_null, char *msg, int failed)
{
    const cli_options *o = p->o;
    if (!failed && !is_null && o->format == FORMAT_LINES &&
        !o->one_line && memchr(text, '\n', len)) {
        msg = wk_message("%s: the result holds a line break; use --format tsv "
                         "or rowbinary",
                         o->fn->name);
        failed = 1;
    }
    if (!failed) {
        if (cli_write_result(&b->out, o->format, text, len, is_null,
                             p->nullable, o->null_text) == 0)
            return 0;
        msg = NULL;
    }
    if (!msg)
        msg = strdup("out of memory");
    fail_record(b, r, msg, o->on_error_null);
    if (!o->on_error_null)
        return -1;
    cli_write_result(&b->out, o->format, NULL, 0, 1, p->nullable,
                     o->null_text);
    return 0;
}

/* The records waiting in br through one call of the batch entry point,
 * their outcomes written in order.  0, or -1 when the block stops. */
static int flush_batch(pool *p, block *b, batch_room *br)
{
    const wj_function *fn = p->o->fn;
    size_t n = br->n_rows, k;
    wj_error err;
    br->n_rows = 0;
    if (n == 0)
        return 0;
    br->out.len = 0;
    if (wj_function_call_batch(fn, br->args, br->n_args, n, NULL, &br->out,
                               br->rows, &err) != WJ_OK) {
        char *msg = wj_error_message(&err, fn->name, NULL, NULL);
        return put_record(p, b, br->first, NULL, 0, 1, msg, 1);
    }
    for (k = 0; k < n; k++) {
        const wj_batch_row *row = &br->rows[k];
        char num[32];
        const char *text = br->out.ptr + row->offset;
        size_t len = row->len;
        if (row->code != WJ_OK) {
            if (put_record(p, b, br->first + k, NULL, 0, 1,
                           wj_error_message(&row->error, fn->name, NULL,
                                            NULL),
                           1))
                return -1;
            continue;
        }
        if (fn->result == WJ_RESULT_INTEGER && !row->is_null) {
            len = (size_t)snprintf(num, sizeof num, "%" PRId64, row->integer);
            text = num;
        }
        if (put_record(p, b, br->first + k, text, len, row->is_null, NULL, 0))
            return -1;
    }
    return 0;
}

/* Records at least this long are rendered straight into the block's output
 * when the pool's direct is set: one call of the batch entry point each
 * costs less than the copy of so long a text; shorter ones go many to a
 * call and are copied. */
#define DIRECT_BYTES 4096

/* The allocator of a call rendering into a block's output (ctx: its
 * wk_buf): a realloc of the output's bytes grows the wk_buf, all of its
 * room kept (the call's bytes may reach its end); the call's other memory
 * is the C library's. */
static void *direct_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void direct_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static void *direct_realloc(void *ctx, void *ptr, size_t size)
{
    wk_buf *out = ctx;
    size_t len = out->len;
    if (!ptr || ptr != out->ptr)
        return realloc(ptr, size);
    if (size <= out->cap)
        return out->ptr;
    out->len = out->cap;
    if (wk_buf_reserve(out, size - out->cap)) {
        out->len = len;
        return NULL;
    }
    out->len = len;
    return out->ptr;
}

/* Record r (its na arguments in args) through the batch entry point,
 * rendered at the end of b->out, then its line break: the text is not
 * copied.  0, or -1 when the block stops. */
static int render_direct(pool *p, block *b, size_t r, const wj_arg *args,
                         size_t na)
{
    const wj_function *fn = p->o->fn;
    wj_alloc mem = {direct_malloc, direct_realloc, direct_free, &b->out,
                    NULL};
    wj_batch_out out;
    wj_batch_row row;
    wj_error err;
    size_t at = b->out.len;
    /* the output's pointer is never NULL, so no other realloc is taken
     * for the output's */
    if (wk_buf_reserve(&b->out, 1))
        return put_record(p, b, r, NULL, 0, 1, NULL, 1);
    out.ptr = b->out.ptr;
    out.len = at;
    out.cap = b->out.cap;
    if (wj_function_call_batch(fn, args, na, 1, &mem, &out, &row, &err) !=
        WJ_OK)
        return put_record(p, b, r, NULL, 0, 1,
                          wj_error_message(&err, fn->name, NULL, NULL), 1);
    if (row.code != WJ_OK)
        return put_record(p, b, r, NULL, 0, 1,
                          wj_error_message(&row.error, fn->name, NULL, NULL),
                          1);
    if (row.is_null)
        return put_record(p, b, r, NULL, 0, 1, NULL, 0);
    b->out.len = out.len;
    if (wk_buf_append(&b->out, "\n", 1)) {
        b->out.len = at;
        return put_record(p, b, r, NULL, 0, 1, NULL, 1);
    }
    return 0;
}

/* work_function for the functions batch_pays: records gathered BATCH_ROWS
 * at a time (a run of records with as many arguments each), a record whose
 * arguments fail answered in its place after the ones before it. */
static void work_batched(pool *p, block *b, batch_room *br)
{
    arg_room room = {0};
    size_t r, start, end;

    b->out.len = 0;
    br->n_rows = 0;
    for (r = 0; cli_block_record(b, r, &start, &end); r++) {
        size_t na = 0;
        char *msg = record_args(p, &room, b->in.ptr + start, end - start, &na);
        if (msg || !room.args) {
            if (flush_batch(p, b, br) ||
                put_record(p, b, r, NULL, 0, 1, msg, 1))
                break;
            continue;
        }
        if (p->direct && end - start >= DIRECT_BYTES) {
            if (flush_batch(p, b, br) ||
                render_direct(p, b, r, room.args, na))
                break;
            continue;
        }
        if (br->n_rows && (na != br->n_args || br->n_rows == BATCH_ROWS) &&
            flush_batch(p, b, br))
            break;
        if (br->n_rows == 0) {
            if (na > br->n_args || !br->args) {
                wj_arg *a = realloc(br->args,
                                    BATCH_ROWS * (na ? na : 1) * sizeof *a);
                if (!a) {
                    put_record(p, b, r, NULL, 0, 1, NULL, 1);
                    if (!p->o->on_error_null)
                        break;
                    continue;
                }
                br->args = a;
            }
            br->n_args = na;
            br->first = r;
        }
        memcpy(br->args + br->n_rows * na, room.args, na * sizeof *room.args);
        br->n_rows++;
    }
    /* A record past the last one failing stops before its batch. */
    if (b->fail_at == SIZE_MAX || p->o->on_error_null)
        flush_batch(p, b, br);
    room_free(&room);
}

static void work_block(pool *p, block *b, wk_arena *arena, batch_room *br)
{
    if (p->hooks) {
        p->hooks->work(p->hooks->ctx, b, arena);
        return;
    }
    if (br)
        work_batched(p, b, br);
    else
        work_function(p, b, arena);
}

static int add_end(block *b, size_t end)
{
    size_t *ends = wk_array_grow(b->ends, &b->ends_cap, b->n_rec + 1,
                                 sizeof *ends);
    if (!ends)
        return -1;
    b->ends = ends;
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
    wk_arena arena = {0};
    batch_room *br = NULL;
    pthread_setname_np(pthread_self(), "wj-work");
    if (!p->hooks && batch_pays(p->o))
        br = calloc(1, sizeof *br); /* NULL: record by record */
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
        cli_reading(b->file);
        work_block(p, b, &arena, br);
        pthread_mutex_lock(&p->mu);
        if (!p->hooks && !p->o->on_error_null && b->fail_at != SIZE_MAX)
            p->stop = 1;
        b->done = 1;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    wk_arena_release(&arena);
    batch_room_free(br);
    return NULL;
}

/* Pages of a mapped file are given back this many bytes at a time. */
#define RELEASE_BYTES (8 * 1024 * 1024)

/* Gives back the pages of a mapped file that block b, written, and the
 * blocks before it viewed, up to the page where the next block starts: the
 * file's pages stay in the page cache, but the run's memory stays a few
 * blocks, whatever the file's size.  The writing thread's, before b counts
 * as written (so the file is still mapped), after b's records are
 * consumed (TSV unescapes in place: only the mapping holds that). */
static void release_viewed(pool *p, const block *b)
{
    char *end;
    size_t viewed;
    if (!b->view_base)
        return;
    if (b->file_index != p->released_file || !p->released_to) {
        p->released_file = b->file_index;
        p->released_to = b->view_base;
    }
    viewed = (size_t)(b->in.ptr + b->in.len - b->view_base);
    end = b->view_base + (viewed & ~(p->page_size - 1));
    if ((size_t)(end - p->released_to) >= RELEASE_BYTES) {
        madvise(p->released_to, (size_t)(end - p->released_to),
                MADV_DONTNEED);
        p->released_to = end;
    }
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
    if (p->hooks) {
        cli_reading(b->file);
        return p->hooks->consume(p->hooks->ctx, b);
    }
    if (b->out.len && cli_write_all(1, b->out.ptr, b->out.len)) {
        if (errno == EPIPE) {
            /* The reader is gone (| head): end as grep and gzip do, by
             * SIGPIPE's default action, without a message. */
            signal(SIGPIPE, SIG_DFL);
            raise(SIGPIPE);
        }
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
        release_viewed(p, slot(p, seq));
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
    if (b->view_base) {
        b->in = b->own_in;
        b->view_base = NULL;
    }
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
    if (wk_buf_reserve_upto(&nb->in, tail_len + READ_BYTES,
                             WJ_MAX_INPUT + READ_BYTES)) {
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

/* The input breaks its format, or holds a record past the core's limit:
 * the records before it (b's first parsed bytes) are answered, then
 * "FILE:ROW: what" is reported with the row the writing thread would
 * number next; the exit status. */
static int stop_reading(pool *p, block *b, size_t parsed, const char *name,
                        size_t index, const char *what, const char *fn)
{
    uint64_t row;
    int st;
    b->in.len = parsed;
    if (parsed || b->n_rec)
        submit(p);
    if ((st = write_all_blocks(p)))
        return st;
    pthread_mutex_lock(&p->mu);
    row = p->line_file == index ? p->next_line : 1;
    pthread_mutex_unlock(&p->mu);
    if (fn)
        cli_error("%s:%" PRIu64 ": %s: %s", name, row, fn, what);
    else
        cli_error("%s:%" PRIu64 ": %s", name, row, what);
    return EXIT_FAILED;
}

/* The name of what reads the records, for "input too large". */
static const char *reader_name(const pool *p)
{
    return p->o->fn ? p->o->fn->name : "dedup";
}

/* Records (empty ones) a block takes at most from one chunk header. */
#define EMPTY_RECORDS_A_BLOCK 65536

/* n empty records at *parsed of *b, for a chunk header of a function of no
 * arguments; the header lines cut so far (*hole) are closed up first, and
 * a block holding many is handed on.  0 or the exit status. */
static int empty_records(pool *p, block **b, size_t *parsed, size_t *hole,
                         uint64_t n)
{
    int st;
    memmove((*b)->in.ptr + *parsed, (*b)->in.ptr + *parsed + *hole,
            (*b)->in.len - *parsed - *hole);
    (*b)->in.len -= *hole;
    *hole = 0;
    for (; n; n--) {
        if ((*b)->n_rec >= EMPTY_RECORDS_A_BLOCK) {
            if ((st = pass_on(p, b, *parsed)))
                return st;
            *parsed = 0;
        }
        if (add_end(*b, *parsed)) {
            cli_error("out of memory");
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Unmaps the mapped files whose blocks are all among the first `written`
 * (UINT64_MAX: every one, once the threads are gone). */
static void unmap_through(pool *p, uint64_t written)
{
    size_t k, kept = 0;
    for (k = 0; k < p->n_maps; k++) {
        if (p->maps[k].seq_after <= written)
            munmap(p->maps[k].base, p->maps[k].size);
        else
            p->maps[kept++] = p->maps[k];
    }
    p->n_maps = kept;
}

/* Unmaps the mapped files whose blocks are all written. */
static void unmap_written(pool *p)
{
    uint64_t written;
    pthread_mutex_lock(&p->mu);
    written = p->written;
    pthread_mutex_unlock(&p->mu);
    unmap_through(p, written);
}

/* A block's view of base[at..end) of a mapped file, handed on. */
static void submit_view(pool *p, block *b, char *base, size_t at, size_t end)
{
    b->own_in = b->in;
    b->view_base = base;
    b->in.ptr = base + at;
    b->in.len = b->in.cap = end - at;
    b->in.lent = 1;
    b->in.failed = 0;
    submit(p);
}

/* Where the block at base[0..rest) of a mapped file ends: after the first
 * record that reaches want bytes (all of rest when it is shorter), so that
 * the bytes before want are not searched.  0 when that record passes the
 * core's input limit; *start is then where it starts. */
static size_t window_end(cli_format f, const char *base, size_t rest,
                         size_t want, size_t *start)
{
    size_t most, len, broken;
    if (rest <= want)
        return rest;
    most = rest - want < WJ_MAX_INPUT ? rest : want + WJ_MAX_INPUT;
    len = cli_record_end_from(f, base, most, want - 1);
    broken = len != 0; /* the record ends in a line break */
    if (len == 0 && most == rest)
        len = rest; /* the last record, without a line break */
    if (len != 0 && len - broken < WJ_MAX_INPUT)
        return len; /* the block's records are all shorter */
    /* A block past the limit (which only a record of GBs makes): the
     * record that reaches want is measured. */
    *start = cli_records_end(f, base, want - 1, 0);
    if (len == 0 || len - broken - *start >= WJ_MAX_INPUT)
        return 0;
    return len;
}

/*
 * A mapped file through the pool: each block is a window of the mapping cut
 * after the record that reaches the block's size, so the records are not
 * copied, and the workers split them.  Only for formats whose records the
 * workers split (split_by_workers).  The mapping is the pool's from here
 * on.  0 or the exit status to stop with.
 */
static int run_mapped(pool *p, cli_source *src, char *base, size_t index)
{
    const cli_options *o = p->o;
    size_t size = (size_t)src->size, at = 0;
    int st = 0;
    mapping *m = wk_array_grow(p->maps, &p->maps_cap, p->n_maps + 1,
                               sizeof *m);
    if (!m) {
        munmap(base, size);
        cli_error("out of memory");
        return EXIT_USAGE;
    }
    p->maps = m;
    m += p->n_maps++;
    m->base = base;
    m->size = size;
    m->seq_after = UINT64_MAX; /* until its last block is known */
    cli_reading(src->name);
    while (at < size) {
        block *b;
        /* handed on past as many bytes as a block read is */
        size_t want = p->submitted < o->jobs || size - at <= TAIL_BYTES
                          ? FIRST_BLOCK_BYTES / 2
                          : BLOCK_BYTES;
        size_t start = 0, len;
        if ((st = take_slot(p, &b)))
            break;
        b->file = src->name;
        b->file_index = index;
        len = window_end(o->format, base + at, size - at, want, &start);
        if (len == 0) {
            /* the records before the one too long are answered */
            if (start) {
                submit_view(p, b, base, at, at + start);
                if ((st = take_slot(p, &b)))
                    break;
            }
            st = stop_reading(p, b, 0, src->name, index, "input too large",
                              reader_name(p));
            break;
        }
        submit_view(p, b, base, at, at + len);
        cli_source_advance(src, len);
        at += len;
    }
    m->seq_after = p->submitted;
    cli_reading(NULL);
    return st;
}

/* One input file through the pool; 0 or the exit status to stop with. */
static int run_file(pool *p, const char *name, size_t index,
                    uint64_t *progress)
{
    const cli_options *o = p->o;
    cli_source src;
    block *b;
    size_t parsed = 0;   /* bytes of b->in split into records */
    size_t no_end = 0;   /* lines, tsv: bytes after parsed known to hold no
                            record's end, so a long record is not searched
                            again from its start on each read */
    uint64_t chunk_left = 0;
    int st = 0, at_end = 0;
    char *base;

    if (cli_source_open(&src, name, progress))
        return EXIT_USAGE;
    unmap_written(p);
    if (p->split_by_workers && (base = cli_source_map(&src))) {
        st = run_mapped(p, &src, base, index);
        goto out;
    }
    if ((st = take_slot(p, &b)))
        goto out;
    b->file = name;
    b->file_index = index;
    while (!at_end) {
        long n;
        int short_blocks = p->submitted < p->o->jobs || /* (only this
                                                        thread changes it) */
                           cli_source_left(&src) <= TAIL_BYTES;
        size_t want = short_blocks ? FIRST_BLOCK_BYTES : READ_BYTES;
        size_t hole = 0;
        if (!cli_source_ready(&src)) {
            /* The input pauses: hand on what was read, to be written as
             * soon as it is done. */
            if (parsed || b->n_rec) {
                if ((st = pass_on(p, &b, parsed)))
                    goto out;
                parsed = 0;
            }
        }
        /* The record being read may reach the core's input limit, not
         * more: past it, it is an error, and nothing more is buffered. */
        if (b->in.len - parsed >= WJ_MAX_INPUT) {
            st = stop_reading(p, b, parsed, name, index, "input too large",
                              reader_name(p));
            goto out;
        }
        if (want > WJ_MAX_INPUT - (b->in.len - parsed))
            want = WJ_MAX_INPUT - (b->in.len - parsed);
        if (wk_buf_reserve_upto(&b->in, want,
                                 parsed + WJ_MAX_INPUT + READ_BYTES)) {
            st = EXIT_USAGE;
            cli_error("out of memory");
            goto out;
        }
        n = cli_source_read(&src, b->in.ptr + b->in.len, want, &st);
        if (n < 0) {
            /* The source broke (reported): the records read before it are
             * still answered. */
            b->in.len = parsed;
            if (parsed || b->n_rec)
                submit(p);
            goto out;
        }
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
        /* Split what was read into records.  Chunk header lines are cut
         * out as they come: the records after one move down over it
         * (hole: the bytes of header lines cut so far this pass). */
        for (;;) {
            char *at = b->in.ptr + parsed + hole;
            size_t len, avail = b->in.len - parsed - hole;
            int bad = 0;
            if (avail == 0 || p->split_by_workers)
                break;
            if (o->format != FORMAT_ROWBINARY)
                len = cli_record_end_from(o->format, at, avail, no_end);
            else
                len = cli_record_end(o->format, at, avail, o->columns, &bad);
            if (bad) {
                st = stop_reading(p, b, parsed, name, index,
                                  "not RowBinary: a String length that is "
                                  "not a LEB128 number up to 2 GiB",
                                  NULL);
                goto out;
            }
            if (len == 0) {
                if (!at_end) {
                    no_end = avail;
                    break;
                }
                if (o->format == FORMAT_ROWBINARY) {
                    st = stop_reading(p, b, parsed, name, index,
                                      "the row ends early: a String's "
                                      "length goes past the end of the "
                                      "input",
                                      NULL);
                    goto out;
                }
                len = avail; /* a last line without \n */
            }
            no_end = 0;
            if (o->chunk_header && chunk_left == 0) {
                /* ClickHouse's send_chunk_header: the rows that follow. */
                int h = cli_chunk_header(at, len, &chunk_left);
                if (h) {
                    st = stop_reading(
                        p, b, parsed, name, index,
                        h == -2 ? "a chunk header's row count past 2^64 - 1"
                                : "expected a chunk header (a row count on "
                                  "a line of its own)",
                        NULL);
                    goto out;
                }
                hole += len;
                if (o->fn && o->fn->n_params == 0 && !p->hooks) {
                    /* A function of no arguments: ClickHouse sends no
                     * bytes for its rows, the header's count is all. */
                    if ((st = empty_records(p, &b, &parsed, &hole,
                                            chunk_left)))
                        goto out;
                    chunk_left = 0;
                }
                continue;
            }
            if (chunk_left)
                chunk_left--;
            if (hole)
                memmove(b->in.ptr + parsed, at, len);
            if (add_end(b, parsed + len)) {
                st = EXIT_USAGE;
                cli_error("out of memory");
                goto out;
            }
            parsed += len;
        }
        if (hole) {
            memmove(b->in.ptr + parsed, b->in.ptr + parsed + hole,
                    b->in.len - parsed - hole);
            b->in.len -= hole;
        }
        if (at_end && chunk_left) {
            char what[96];
            snprintf(what, sizeof what,
                     "the input ends %" PRIu64 " %s short of its chunk "
                     "header's count",
                     chunk_left, cli_plural(chunk_left, "row", "rows"));
            st = stop_reading(p, b, parsed, name, index, what, NULL);
            goto out;
        }
        if (parsed >= (short_blocks ? FIRST_BLOCK_BYTES / 2 : BLOCK_BYTES) ||
            (at_end && (parsed || b->n_rec))) {
            if ((st = pass_on(p, &b, parsed)))
                goto out;
            parsed = 0;
        }
    }
out:
    cli_source_close(&src);
    return st;
}

/* Lends each block its first buffers, cut from one mapping: all the
 * outputs, then all the inputs, so that a run over mapped files (whose
 * blocks view the file, never their input buffers) faults in, and the
 * kernel zeroes, the outputs' huge pages alone.  -1 when out of memory. */
static int lend_first_buffers(pool *p)
{
    size_t k;
    char *ins;
    p->first_size = p->n_blocks * (OUT_BYTES + IN_BYTES);
    p->first_buffers = wk_big_realloc(NULL, 0, &p->first_size);
    if (!p->first_buffers)
        return -1;
    ins = p->first_buffers + p->n_blocks * OUT_BYTES;
    for (k = 0; k < p->n_blocks; k++) {
        block *b = &p->blocks[k];
        b->out.ptr = p->first_buffers + k * OUT_BYTES;
        b->out.cap = OUT_BYTES;
        b->out.lent = 1;
        b->in.ptr = ins + k * IN_BYTES;
        b->in.cap = IN_BYTES;
        b->in.lent = 1;
    }
    return 0;
}

static void free_pool(pool *p)
{
    size_t k;
    for (k = 0; k < p->n_blocks; k++) {
        block *b = &p->blocks[k];
        wk_buf_free(b->view_base ? &b->own_in : &b->in);
        free(b->ends);
        free(b->fail_msg);
        wk_buf_free(&b->out);
    }
    unmap_through(p, UINT64_MAX);
    free(p->maps);
    wk_big_free(p->first_buffers, p->first_size);
    free(p->blocks);
    free(p->first_fail);
    free(p->quoted_member);
}

int cli_run_function(const cli_options *o)
{
    return cli_run_blocks(o, NULL);
}

int cli_run_blocks(const cli_options *o, const cli_block_hooks *hooks)
{
    pool p;
    pthread_t *threads, writing;
    size_t k, n_threads, nfiles = o->n_files;
    int err = 0;
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
    p.direct = !hooks && batch_pays(o) && o->format == FORMAT_LINES &&
               o->fn->result == WJ_RESULT_JSON;
    p.line_file = SIZE_MAX;
    p.page_size = (size_t)sysconf(_SC_PAGESIZE);
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
    if (!hooks && o->member) {
        wk_buf q = {0};
        if (cli_json_quote(&q, o->member, strlen(o->member)) ||
            wk_buf_append(&q, "", 1)) {
            cli_error("out of memory");
            free_pool(&p);
            free(threads);
            return EXIT_USAGE;
        }
        p.quoted_member = q.ptr;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.done, NULL);
    pthread_cond_init(&p.room, NULL);
    /* Fewer threads than asked for when the system has no more to give;
     * none at all is an error. */
    for (n_threads = 0; n_threads < o->jobs; n_threads++)
        if ((err = pthread_create(&threads[n_threads], NULL, worker, &p)))
            break;
    if (n_threads == 0 ||
        (err = pthread_create(&writing, NULL, writer, &p)) != 0) {
        cli_error("cannot start a thread: %s", strerror(err));
        pthread_mutex_lock(&p.mu);
        p.quit = 1;
        pthread_cond_broadcast(&p.work);
        pthread_mutex_unlock(&p.mu);
        for (k = 0; k < n_threads; k++)
            pthread_join(threads[k], NULL);
        free_pool(&p);
        free(threads);
        return EXIT_USAGE;
    }

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
        st = run_file(&p, files[k], k, &progress_bytes);
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
    for (k = 0; k < n_threads; k++)
        pthread_join(threads[k], NULL);
    cli_progress_stop(bar);
    if (!st && p.n_failed) {
        cli_error("%" PRIu64 " %s failed; the first: %s", p.n_failed,
                  cli_plural(p.n_failed, "record", "records"),
                  p.first_fail ? p.first_fail : "(out of memory)");
    }
    free_pool(&p);
    free(threads);
    return st;
}
