/* SPDX-License-Identifier: MIT */
/*
 * batch.c - a function of the table on many rows at once (wirejson.h,
 * "batches").
 *
 * Three functions take a path of their own, writing straight into the
 * caller's buffer instead of through a result that is then copied:
 * canonical_json renders into it; data_digest and message_digest render
 * the bytes to hash into it, a chunk of rows at a time, hash the chunk's
 * texts at once (wj_sha256_many: AVX-512 lanes or SHA-NI streams) and
 * write the 64 hex characters of each over them.  Every other function, and a row
 * too long to hold whole (the digests hash a long text through a window,
 * wj_data_digest), goes through wj_function_call and its result is
 * copied in.
 */
#include "batch.h"
#include "sha256_multi.h"
#include "wj_internal.h"

#include <stdint.h>
#include <string.h>

/* Rows whose texts are hashed together, and the bytes after which a chunk
 * is hashed early: enough to keep the streams busy (16 AVX-512 lanes want
 * 16 texts or more in flight, long ones too: at 256 KiB a chunk held 3 or
 * 4 bodies of 70 KB, and the lanes passed them to libcrypto), little
 * enough to stay in cache.  A chunk holding a long text grows on until it
 * holds 16 times that text, up to CHUNK_MAX: with less, the lanes would
 * hash the text nearly alone, or set it aside for the slower SHA-NI
 * streams. */
#define CHUNK_ROWS 256
#define CHUNK_BYTES (4u << 20)
#define CHUNK_MAX (16u << 20)
/* A document longer than this is digested on its own, through a window,
 * so a batch holds no long text whole. */
#define LONG_ROW (2u << 20)
/* Ignored names a message row holds on the stack; more take the plain
 * call. */
#define ROW_NAMES 16
/* The bytes of the next row's document asked into the cache while a row is
 * done (a host's rows lie in its own memory, mostly not in cache: the
 * first reads of each would wait on it); past them, the processor's own
 * prefetcher follows the parse. */
#define PREFETCH_BYTES 2048

typedef enum path { PLAIN, CANONICAL, DATA_DIGEST, MESSAGE_DIGEST } path;

static path path_of(const wj_function *fn)
{
    static const char *const names[] = {"canonical_json", "data_digest",
                                        "message_digest"};
    static const path paths[] = {CANONICAL, DATA_DIGEST, MESSAGE_DIGEST};
    size_t k;
    for (k = 0; k < sizeof names / sizeof *names; k++)
        if (fn == wj_function_find(names[k], strlen(names[k])))
            return paths[k];
    return PLAIN;
}

/* The state of one batch: the caller's buffer as a wj_buf, and the rows
 * of the chunk whose texts wait to be hashed. */
typedef struct batch {
    wj_buf buf;
    wj_batch_row *rows;
    size_t chunk_first;         /* the first row of the chunk */
    size_t chunk_start;         /* where its bytes begin in buf */
    size_t pending[CHUNK_ROWS]; /* its rows with a text to hash */
    size_t n_pending;
    size_t longest;             /* the length of the longest */
} batch;

/* Hashes the chunk's texts and writes the rows' results in their place:
 * each pending row's 64 hex characters, row after row; the chunk's other
 * rows (NULL, errors) hold no bytes.  -1 when out of memory. */
static int flush(batch *b, size_t end_row)
{
    const unsigned char *msg[CHUNK_ROWS];
    size_t len[CHUNK_ROWS], k, r, at = b->chunk_start, p = 0;
    unsigned char md[CHUNK_ROWS * 32];
    size_t need = b->chunk_start + 64 * b->n_pending;

    for (k = 0; k < b->n_pending; k++) {
        const wj_batch_row *row = &b->rows[b->pending[k]];
        msg[k] = (const unsigned char *)b->buf.ptr + row->offset;
        len[k] = row->len;
    }
    wj_sha256_many(msg, len, b->n_pending, md);
    if (need > b->buf.len && wj_buf_reserve(&b->buf, need - b->buf.len) != 0)
        return -1;
    for (r = b->chunk_first; r < end_row; r++) {
        wj_batch_row *row = &b->rows[r];
        row->offset = at;
        if (p < b->n_pending && b->pending[p] == r) {
            char hex[WJ_DIGEST_HEX_SIZE];
            wj_hex_encode(md + 32 * p, 32, hex);
            memcpy(b->buf.ptr + at, hex, 64);
            row->len = 64;
            at += 64;
            p++;
        }
    }
    b->buf.len = at;
    b->chunk_first = end_row;
    b->chunk_start = at;
    b->n_pending = 0;
    b->longest = 0;
    return 0;
}

/* Whether a chunk of `bytes` whose longest text is `longest` is hashed
 * now. */
static int chunk_full(size_t bytes, size_t longest)
{
    return bytes >= CHUNK_MAX ||
           (bytes >= CHUNK_BYTES && bytes >= 16 * longest);
}

/* Asks the first bytes of a document into the cache, ahead of its parse. */
static void prefetch_text(const char *text, size_t len)
{
    size_t at;
    if (len > PREFETCH_BYTES)
        len = PREFETCH_BYTES;
    for (at = 0; at < len; at += 64)
        __builtin_prefetch(text + at);
}

/* Row r by wj_function_call, its result copied into the buffer. */
static wj_code plain_row(batch *b, const wj_function *fn, const wj_arg *a,
                         size_t n_args, const wj_alloc *alloc,
                         wj_batch_row *row)
{
    wj_result res;
    row->code = wj_function_call(fn, a, n_args, alloc, &res, &row->error);
    if (row->code != WJ_OK)
        return WJ_OK;
    row->is_null = res.is_null;
    row->integer = res.integer;
    if (!res.is_null && fn->result != WJ_RESULT_INTEGER) {
        if (wj_buf_reserve(&b->buf, res.len) != 0) {
            wj_result_free(alloc, &res);
            return WJ_ERR_NOMEM;
        }
        wj_buf_put(&b->buf, res.text, res.len);
        row->len = res.len;
    }
    wj_result_free(alloc, &res);
    return WJ_OK;
}

/* Row r on a path of its own: its canonical text (to keep, or to hash
 * later) appended to the buffer. */
static void text_row(batch *b, path kind, const wj_arg *a, size_t n_args,
                     wj_batch_row *row)
{
    wj_name names[ROW_NAMES];
    size_t n_names = 0, k;
    for (k = 1; k < n_args; k++)
        if (a[k].ptr) {
            names[n_names].ptr = a[k].ptr;
            names[n_names++].len = a[k].len;
        }
    row->code = wj_digest_text(a[0].ptr, a[0].len, kind == MESSAGE_DIGEST,
                               names, n_names, &b->buf, &row->error);
    if (row->code != WJ_OK) {
        b->buf.len = row->offset;
        return;
    }
    row->len = b->buf.len - row->offset;
}

wj_code wj_function_call_batch(const wj_function *fn, const wj_arg *args,
                               size_t n_args, size_t n_rows,
                               const wj_alloc *alloc, wj_batch_out *out,
                               wj_batch_row *rows, wj_error *err)
{
    path kind = path_of(fn);
    int digest = kind == DATA_DIGEST || kind == MESSAGE_DIGEST;
    wj_code rc = WJ_OK;
    batch b;
    size_t r;

    wj_error_clear(err);
    if (!fn->call || n_args < wj_function_min_args(fn) ||
        n_args > wj_function_max_args(fn))
        return wj_fail(err, WJ_ERR_ARGUMENT, 0, "wrong number of arguments");
    memset(&b, 0, sizeof b);
    b.buf.alloc = alloc;
    b.buf.ptr = out->ptr;
    b.buf.len = out->len;
    b.buf.size = out->cap;
    b.buf.cap = out->len; /* no room yet: the first reserve asks wj_buf_grow */
    b.rows = rows;
    b.chunk_start = out->len;

    for (r = 0; r < n_rows && rc == WJ_OK; r++) {
        const wj_arg *a = args + r * n_args;
        wj_batch_row *row = &rows[r];
        if (r + 1 < n_rows && a[n_args].ptr)
            prefetch_text(a[n_args].ptr, a[n_args].len);
        memset(row, 0, sizeof *row);
        wj_error_clear(&row->error);
        row->offset = b.buf.len;
        if (kind == PLAIN || n_args > ROW_NAMES + 1 ||
            (digest && a[0].ptr && a[0].len > LONG_ROW)) {
            if (digest && flush(&b, r) != 0) {
                rc = WJ_ERR_NOMEM;
                break;
            }
            row->offset = b.buf.len;
            rc = plain_row(&b, fn, a, n_args, alloc, row);
            b.chunk_first = r + 1;
            b.chunk_start = b.buf.len;
        } else if (!a[0].ptr) {
            row->is_null = 1;
        } else {
            text_row(&b, kind, a, n_args, row);
            if (digest && row->code == WJ_OK) {
                b.pending[b.n_pending++] = r;
                if (row->len > b.longest)
                    b.longest = row->len;
            }
        }
        if (row->code == WJ_ERR_INTERRUPTED)
            rc = WJ_ERR_INTERRUPTED;
        else if (digest && (b.n_pending == CHUNK_ROWS ||
                            chunk_full(b.buf.len - b.chunk_start, b.longest)) &&
                 flush(&b, r + 1) != 0)
            rc = WJ_ERR_NOMEM;
    }
    if (rc == WJ_OK && digest && flush(&b, n_rows) != 0)
        rc = WJ_ERR_NOMEM;
    out->ptr = b.buf.ptr;
    out->len = b.buf.len;
    out->cap = b.buf.size;
    if (rc == WJ_ERR_NOMEM)
        return wj_fail_nomem(err);
    if (rc == WJ_ERR_INTERRUPTED)
        return wj_fail_interrupted(err);
    return rc;
}

int wj_function_batched(const wj_function *fn)
{
    return path_of(fn) != PLAIN;
}

void wj_batch_out_free(const wj_alloc *alloc, wj_batch_out *out)
{
    wj_free(alloc, out->ptr);
    out->ptr = NULL;
    out->len = out->cap = 0;
}
