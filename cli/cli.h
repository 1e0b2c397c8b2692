/* SPDX-License-Identifier: MIT */
/*
 * The command line's parts: options, input sources (plain or gzip), record
 * readers and writers for the three formats, the thread pool that keeps
 * output in input order, the progress bar and dedup.
 */
#ifndef WIREJSON_CLI_H
#define WIREJSON_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "wirejson.h"
#include "wirejson_kit.h"

/* Exit statuses, named in one place. */
enum {
    EXIT_OK = 0,
    EXIT_FAILED = 1, /* a record failed, a gzip stream ended early */
    EXIT_USAGE = 2   /* usage and I/O errors */
};

typedef enum { FORMAT_LINES, FORMAT_TSV, FORMAT_ROWBINARY } cli_format;

typedef struct cli_options {
    const wj_function *fn;
    int one_line; /* fn's results never hold a line break */
    const char **args; /* --arg values, in order */
    size_t n_args;
    cli_format format;
    const char *null_text; /* lines: what a NULL result is written as */
    int on_error_null;
    int chunk_header;
    size_t columns; /* rowbinary: String fields a row */
    unsigned jobs;
    int progress; /* -1: when stderr is a terminal */
    const char **files;
    size_t n_files;
    /* dedup */
    const char *key;
    const char *member;
    const char *out;
    /* cache-audit */
    const char *time_member;
    const char *ttl;
} cli_options;

/* ---------------------------------------------------------------- output */

/* True when fn's results never hold a line break (compact JSON, whose
 * strings escape theirs; digests; integers), so --format lines need not
 * look for one (run.c): only raw bodies and plain texts may. */
int cli_result_one_line(const wj_function *fn);

/* Prints "wirejson: " and the message on stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Writes all of p to fd; 0 or -1 with errno. */
int cli_write_all(int fd, const void *p, size_t n);

/* "1 record" / "2 records" */
const char *cli_plural(uint64_t n, const char *one, const char *many);

/* ---------------------------------------------------------------- input */

/* A file or standard input, gunzipped when it starts with gzip's magic. */
typedef struct cli_source {
    const char *name; /* as given; "-" for standard input */
    int fd;
    int gzip, gz_done_member, eof;
    int gz_pending; /* the last inflate filled its output: it may hold more */
    int gz_padding; /* zero bytes were seen after a member */
    z_stream z;
    unsigned char *raw; /* gzip: compressed bytes read, not yet inflated */
    size_t raw_cap, raw_len;
    int started; /* the first bytes were looked at */
    uint64_t size, offset; /* a regular file's size when opened (0: not a
                              regular file) and the bytes read from it */
    uint64_t *progress_bytes; /* bytes read from the file, added as read */
} cli_source;

/* Opens name ("-": standard input); -1 with a message printed. */
int cli_source_open(cli_source *s, const char *name, uint64_t *progress);

/* Up to cap bytes into buf: > 0 bytes, 0 at the end, -1 on an error (printed;
 * *status is the exit status). */
long cli_source_read(cli_source *s, char *buf, size_t cap, int *status);

/*
 * A plain regular file named on the command line (not standard input, not
 * empty, not gzip), mapped whole before any read: its s->size bytes, or
 * NULL when it is to be read.  The mapping is private and writable (TSV
 * unescapes in place: the pages written are copies, the file is not);
 * the caller unmaps it once nothing views it.  A page that cannot be read
 * later (the file was cut short) ends the run with a message naming the
 * file cli_reading gave on that thread.
 */
char *cli_source_map(cli_source *s);

/* Names the mapped file this thread reads now (NULL: none). */
void cli_reading(const char *name);

/* Counts n more bytes of s as read, for the progress bar. */
void cli_source_advance(cli_source *s, size_t n);

/* The bytes of a plain regular file not read yet (by its size when
 * opened: a hint), UINT64_MAX when unknown (a pipe, gzip). */
uint64_t cli_source_left(const cli_source *s);

/* 1 when a read would not wait (bytes are there, or the end). */
int cli_source_ready(cli_source *s);

void cli_source_close(cli_source *s);

/* --------------------------------------------------------------- records */

/* A field of a record; ptr NULL is NULL (tsv's \N). */
typedef struct cli_field {
    const char *ptr;
    size_t len;
} cli_field;

/*
 * Finds the end of the record at p[0..n): its length (including the
 * separator), 0 when the record is not complete in p, or (size_t)-1 when the
 * bytes cannot start a record (rowbinary: never, a short row waits for more).
 */
size_t cli_record_end_lines(const char *p, size_t n);
size_t cli_record_end_tsv(const char *p, size_t n);
size_t cli_record_end_rowbinary(const char *p, size_t n, size_t columns,
                                int *bad);

/* The reader of format f: one of the three above (columns and bad for
 * rowbinary; *bad is 0 for the others). */
size_t cli_record_end(cli_format f, const char *p, size_t n, size_t columns,
                      int *bad);

/*
 * lines and tsv, p[0] starting a record: the end of the first record in
 * p[0..n) whose line break is at or after from, or 0.  Where p[0..from)
 * holds no record's end, that is cli_record_end's answer without searching
 * those bytes again (a long record read in pieces); otherwise it is the
 * end of the record that reaches from (a block cut after at least from
 * bytes).
 */
size_t cli_record_end_from(cli_format f, const char *p, size_t n,
                           size_t from);

/*
 * lines and tsv: the end of the last complete record in p[0..n) whose line
 * break is at or after from (the bytes before from hold none), or 0.  The
 * threads split a block so cut with cli_record_end_*.
 */
size_t cli_records_end(cli_format f, const char *p, size_t n, size_t from);

/*
 * The fields of the complete record p[0..n) (as cli_record_end gave it) in
 * fields (room for max); tsv unescapes in place.  The number of fields, or
 * CLI_FIELDS_TOO_MANY (more than max; rowbinary: a row that does not hold
 * its columns), or CLI_FIELDS_BAD_ESCAPE (tsv: the row ends in a backslash
 * that escapes nothing; nothing is unescaped).
 */
#define CLI_FIELDS_TOO_MANY ((size_t)-1)
#define CLI_FIELDS_BAD_ESCAPE ((size_t)-2)
size_t cli_record_fields(cli_format f, char *p, size_t n, size_t columns,
                         cli_field *fields, size_t max);

/* At least the number of fields cli_record_fields finds in p[0..n): the
 * room to give it. */
size_t cli_record_fields_max(cli_format f, const char *p, size_t n,
                             size_t columns);

/* ClickHouse's send_chunk_header line p[0..n) (its \n included when there
 * is one): the row count in *count and 0; -1 when it is not digits on a
 * line of their own, -2 when the count passes 2^64 - 1. */
int cli_chunk_header(const char *p, size_t n, uint64_t *count);

/* Appends one result (NULL: res NULL) in the format; nullable: rowbinary's
 * Nullable(String). */
int cli_write_result(wk_buf *out, cli_format f, const char *text, size_t len,
                     int is_null, int nullable, const char *null_text);

/* TSV's unescaping of p[0..n) in place; the new length. */
size_t cli_tsv_unescape(char *p, size_t n);

/* ---------------------------------------------------------------- the run */

/* A block of records read from one file: in.ptr[0..in.len), record r
 * ending at ends[r] (its separator included), the first one at line (or
 * row) first_line of files[file_index]. */
typedef struct cli_block {
    wk_buf in; /* complete records, then (while filling) a partial one */
    /* non-NULL: in views a window of the file mapped at view_base (lent),
     * and own_in keeps the block's own buffer meanwhile */
    char *view_base;
    wk_buf own_in;
    size_t *ends; /* each record's end in in */
    size_t n_rec, ends_cap;
    const char *file;
    size_t file_index;
    uint64_t first_line; /* the first record's line or row number, known
                            when the block is written */
    wk_buf out;
    int done;
    /* the first failed record: its index (SIZE_MAX: none) and message */
    size_t fail_at;
    char *fail_msg;
    uint64_t n_failed;
    int no_memory; /* its records could not be listed */
    /* lines and tsv: the reader only cut the block after a record's end;
     * cli_block_record lists its records as the work reaches them */
    int unsplit;
    cli_format format;
} cli_block;

/* Record r of b (taken in order, from 0): b->in.ptr[*start..*end), its
 * separator included; 0 when b has no record r.  A block the reader only cut
 * is split here, one record at a time as the work reaches it, so each
 * record's bytes are read while they are in cache. */
int cli_block_record(cli_block *b, size_t r, size_t *start, size_t *end);

/* What a run does with its blocks, instead of calling the options' function:
 * work on any thread (results into b->out; the thread's arena for the
 * core's calls, reset as work sees fit), consume on the writing thread in
 * input order (0, or the exit status to stop with). */
typedef struct cli_block_hooks {
    void (*work)(void *ctx, cli_block *b, wk_arena *arena);
    int (*consume)(void *ctx, cli_block *b);
    void *ctx;
} cli_block_hooks;

/* The files of o (standard input when none) in blocks of records in o's
 * format, on o->jobs threads; hooks NULL: o's function, results on standard
 * output. */
int cli_run_blocks(const cli_options *o, const cli_block_hooks *hooks);
int cli_run_function(const cli_options *o);
int cli_run_dedup(const cli_options *o);
int cli_run_cache_audit(const cli_options *o);

/* ------------------------------------------------------------- progress */

typedef struct cli_progress cli_progress;
cli_progress *cli_progress_start(uint64_t total, const uint64_t *done);
void cli_progress_stop(cli_progress *p);

/* A message on stderr takes the bar's line: hold erases the bar and keeps
 * it from being drawn until release (main thread). */
void cli_progress_hold(void);
void cli_progress_release(void);

#endif
