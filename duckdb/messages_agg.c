/* SPDX-License-Identifier: MIT */
/*
 * messages_agg.c - messages_digest_agg(M) in DuckDB (docs/contract.md §6,
 * §15): over the non-NULL rows of a group, in the order the query gives
 * (messages_digest_agg(m ORDER BY i)), SHA-256 of the concatenated
 * message_digest hex strings; as a window function, that digest over each
 * row's frame, any frame.
 *
 * A state is a sequence of message digests (32 bytes each, never the
 * message) and the running hash of their hex strings (wj_digest_chain), kept
 * up to date, so finalize is O(1).  DuckDB combines partial states in the
 * order of their rows, and a window's segment tree builds each frame by
 * combining its nodes left to right into a fresh state: combine extends the
 * target's hash by the source's digests and appends a reference to the
 * source's digests (shared, reference-counted, never copied into the
 * target).  Extending a hash costs the source's size, so a source keeps the
 * last extension it computed (the hash before, the hash after): a running
 * window asks for the same extension of the same tree node row after row,
 * and gets it in O(1).  A running window over n rows is then O(n log n)
 * hashing (each tree node's digests hashed about once) and its states hold
 * a few references each.
 *
 * Sources are shared between the threads that evaluate a window, so what a
 * combine changes in its source (folding its digests into one block, the
 * cached extension) is done under a lock; a target and an updated state
 * belong to the calling thread.
 *
 * DuckDB's C API (up to 1.5 at least, issues #21537 and #26109) hands update
 * one state as a constant vector where the callback sees an array: for
 * agg(x ORDER BY y) and for a window whose frame is the whole partition,
 * states holds one entry, states[0], for all the rows, and nothing past it
 * may be read.  Those callers initialize that state on the same thread just
 * before they update it, and update nothing else in between; so a state
 * initialized on this thread and updated since by nothing but itself takes
 * every row of the chunk, and anything else is a per-row array.  (An
 * ungrouped aggregate, whose array repeats one state, is right either way.)
 */
#include "ext.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEX_LEN 64    /* one message digest in hex, without its NUL */
#define RAW_LEN 32    /* the same, as bytes */
#define REPLAY_BATCH 64 /* digests turned back into hex at a time */

/* An immutable run of digests, shared by the states that hold it. */
typedef struct block {
    atomic_size_t refs;
    size_t n;
    unsigned char raw[]; /* n * RAW_LEN */
} block;

typedef struct agg_state {
    block **parts;        /* the digests, in order: parts, then tail */
    size_t n_parts, cap_parts;
    unsigned char *tail;  /* digests this state was updated with, owned */
    size_t n_tail, cap_tail;
    size_t n;             /* digests in all */
    wj_digest_chain chain; /* over all of them */
    int cached;            /* extending cache_from by this state gives */
    wj_digest_chain cache_from, cache_to; /* cache_to */
} agg_state;

/* The state this thread initialized last and has updated nothing but
 * since: DuckDB's constant state vector (see the top of the file). */
static _Thread_local agg_state *solo_state;

/* Locks for sources, picked by address. */
#define LOCKS 16
#define L4 PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, \
           PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER
static pthread_mutex_t locks[LOCKS] = {L4, L4, L4, L4};

static pthread_mutex_t *lock_of(const agg_state *s)
{
    return &locks[((uintptr_t)s >> 6) % LOCKS];
}

/* ------------------------------------------------------------ digests */

/* The message digests this thread computed last, by the message's exact
 * bytes: a window's segment tree updates fresh states with the same few
 * rows at a frame's edge for row after row, and parsing them again would
 * cost more than all the rest. */
#define MEMO_SLOTS 32
#define MEMO_TEXT 1024 /* longer messages are not kept */

typedef struct memo_slot {
    size_t len; /* 0: empty (no message is empty text) */
    char hex[HEX_LEN];
    char text[MEMO_TEXT];
} memo_slot;

static _Thread_local memo_slot memo[MEMO_SLOTS];

/* The message_digest of text[0..len) into hex; WJ_OK, or the core's error. */
static wj_code message_digest(const char *text, size_t len,
                              char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    memo_slot *slot = NULL;
    wj_code rc;
    if (len && len <= MEMO_TEXT) {
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        size_t i;
        for (i = 0; i < len; i++)
            h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
        slot = &memo[h % MEMO_SLOTS];
        if (slot->len == len && memcmp(slot->text, text, len) == 0) {
            memcpy(hex, slot->hex, HEX_LEN);
            return WJ_OK;
        }
    }
    rc = wj_message_digest(text, len, NULL, 0, NULL, hex, err);
    if (rc == WJ_OK && slot) {
        slot->len = len;
        memcpy(slot->hex, hex, HEX_LEN);
        memcpy(slot->text, text, len);
    }
    return rc;
}

/* Extends chain by n raw digests. */
static void chain_add_raw(wj_digest_chain *chain, const unsigned char *raw,
                          size_t n)
{
    char hex[REPLAY_BATCH * HEX_LEN];
    while (n) {
        size_t k, m = n < REPLAY_BATCH ? n : REPLAY_BATCH;
        for (k = 0; k < m; k++)
            wj_hex_encode(raw + k * RAW_LEN, RAW_LEN, hex + k * HEX_LEN);
        wj_digest_chain_add(chain, hex, m);
        raw += m * RAW_LEN;
        n -= m;
    }
}

/* Extends chain by every digest of s, in order. */
static void chain_add_state(wj_digest_chain *chain, const agg_state *s)
{
    size_t p;
    for (p = 0; p < s->n_parts; p++)
        chain_add_raw(chain, s->parts[p]->raw, s->parts[p]->n);
    chain_add_raw(chain, s->tail, s->n_tail);
}

static void block_release(block *b)
{
    if (atomic_fetch_sub(&b->refs, 1) == 1)
        free(b);
}

/* Room for one more part in s; 0, or -1 when out of memory. */
static int reserve_part(agg_state *s)
{
    size_t cap;
    block **p;
    if (s->n_parts < s->cap_parts)
        return 0;
    cap = s->cap_parts ? s->cap_parts * 2 : 4;
    p = realloc(s->parts, cap * sizeof *p);
    if (!p)
        return -1;
    s->parts = p;
    s->cap_parts = cap;
    return 0;
}

/* Makes the digests of s one block (parts[0]), so that a target can share
 * them with one reference; done once for a source, since it stays so.  0, or -1 when out of
 * memory (s unchanged). */
static int fold(agg_state *s)
{
    block *b;
    size_t p, at = 0;
    if (s->n_parts <= 1 && !s->n_tail)
        return 0;
    if (reserve_part(s) != 0)
        return -1;
    b = malloc(sizeof *b + s->n * RAW_LEN);
    if (!b)
        return -1;
    atomic_init(&b->refs, 1);
    b->n = s->n;
    for (p = 0; p < s->n_parts; p++) {
        memcpy(b->raw + at, s->parts[p]->raw, s->parts[p]->n * RAW_LEN);
        at += s->parts[p]->n * RAW_LEN;
        block_release(s->parts[p]);
    }
    if (s->n_tail)
        memcpy(b->raw + at, s->tail, s->n_tail * RAW_LEN);
    free(s->tail);
    s->tail = NULL;
    s->n_tail = s->cap_tail = 0;
    s->parts[0] = b;
    s->n_parts = 1;
    return 0;
}

/* Moves the tail of s (owned by the caller) into a block of its own at the
 * end of its parts; 0, or -1 when out of memory. */
static int seal_tail(agg_state *s)
{
    block *b;
    if (!s->n_tail)
        return 0;
    if (reserve_part(s) != 0)
        return -1;
    b = malloc(sizeof *b + s->n_tail * RAW_LEN);
    if (!b)
        return -1;
    atomic_init(&b->refs, 1);
    b->n = s->n_tail;
    memcpy(b->raw, s->tail, s->n_tail * RAW_LEN);
    s->parts[s->n_parts++] = b;
    s->n_tail = 0;
    return 0;
}

/* Appends one digest to s's tail; 0, or -1 when out of memory. */
static int append(agg_state *s, const char hex[HEX_LEN])
{
    if (s->n_tail == s->cap_tail) {
        size_t cap = s->cap_tail ? s->cap_tail * 2 : 16;
        unsigned char *t = realloc(s->tail, cap * RAW_LEN);
        if (!t)
            return -1;
        s->tail = t;
        s->cap_tail = cap;
    }
    wj_hex_decode(hex, RAW_LEN, s->tail + s->n_tail * RAW_LEN);
    s->n_tail++;
    s->n++;
    wj_digest_chain_add(&s->chain, hex, 1);
    s->cached = 0;
    return 0;
}

/* ------------------------------------------------------------ callbacks */

static idx_t messagesDigestAggSize(duckdb_function_info info)
{
    (void)info;
    return sizeof(agg_state);
}

static void messagesDigestAggInit(duckdb_function_info info,
                                  duckdb_aggregate_state state)
{
    agg_state *s = (agg_state *)state;
    (void)info;
    memset(s, 0, sizeof *s);
    wj_digest_chain_init(&s->chain);
    solo_state = s;
}

static void messagesDigestAggDestroy(duckdb_aggregate_state *states,
                                     idx_t count)
{
    idx_t k;
    for (k = 0; k < count; k++) {
        agg_state *s = (agg_state *)states[k];
        size_t p;
        for (p = 0; p < s->n_parts; p++)
            block_release(s->parts[p]);
        free(s->parts);
        free(s->tail);
        memset(s, 0, sizeof *s);
        if (solo_state == s)
            solo_state = NULL;
    }
}

static void messagesDigestAggUpdate(duckdb_function_info info,
                                    duckdb_data_chunk input,
                                    duckdb_aggregate_state *states)
{
    idx_t n = duckdb_data_chunk_get_size(input), k;
    duckdb_vector v = duckdb_data_chunk_get_vector(input, 0);
    const duckdb_string_t *data = duckdb_vector_get_data(v);
    uint64_t *valid = duckdb_vector_get_validity(v);
    agg_state *solo;

    if (!n)
        return;
    /* states[0] is always there; states[k] only in a per-row array. */
    solo = (agg_state *)states[0] == solo_state ? solo_state : NULL;
    if (!solo)
        solo_state = NULL;
    for (k = 0; k < n; k++) {
        agg_state *s;
        wj_error err = WJ_ERROR_INIT;
        char hex[WJ_DIGEST_HEX_SIZE];

        if (valid && !duckdb_validity_row_is_valid(valid, k))
            continue; /* NULL rows are skipped */
        s = solo ? solo : (agg_state *)states[k];
        if (message_digest(wirejson_string_ptr(&data[k]),
                           wirejson_string_len(&data[k]), hex, &err) != WJ_OK) {
            wirejson_raise(info, "messages_digest_agg", &err,
                           duckdb_aggregate_function_set_error);
            return;
        }
        if (append(s, hex) != 0) {
            duckdb_aggregate_function_set_error(info, "out of memory");
            return;
        }
    }
}

/* Appends src to dst (src locked by the caller); 0, or -1 when out of
 * memory. */
static int combine_one(agg_state *src, agg_state *dst)
{
    if (fold(src) != 0 || seal_tail(dst) != 0 || reserve_part(dst) != 0)
        return -1;
    if (!dst->n) {
        dst->chain = src->chain;
    } else if (src->cached &&
               memcmp(&src->cache_from, &dst->chain, sizeof dst->chain) == 0) {
        dst->chain = src->cache_to;
    } else {
        src->cache_from = dst->chain;
        chain_add_state(&dst->chain, src);
        src->cache_to = dst->chain;
        src->cached = 1;
    }
    atomic_fetch_add(&src->parts[0]->refs, 1);
    dst->parts[dst->n_parts++] = src->parts[0];
    dst->n += src->n;
    dst->cached = 0;
    return 0;
}

static void messagesDigestAggCombine(duckdb_function_info info,
                                     duckdb_aggregate_state *source,
                                     duckdb_aggregate_state *target,
                                     idx_t count)
{
    idx_t k;
    for (k = 0; k < count; k++) {
        agg_state *src = (agg_state *)source[k], *dst = (agg_state *)target[k];
        int failed;
        if (!src->n || src == dst)
            continue;
        pthread_mutex_lock(lock_of(src));
        failed = combine_one(src, dst);
        pthread_mutex_unlock(lock_of(src));
        if (failed) {
            duckdb_aggregate_function_set_error(info, "out of memory");
            return;
        }
    }
}

static void messagesDigestAggFinal(duckdb_function_info info,
                                   duckdb_aggregate_state *source,
                                   duckdb_vector result, idx_t count,
                                   idx_t offset)
{
    idx_t k;
    (void)info;
    for (k = 0; k < count; k++) {
        const agg_state *s = (const agg_state *)source[k];
        char hex[WJ_DIGEST_HEX_SIZE];
        wj_digest_chain_hex(&s->chain, hex);
        wirejson_assign(result, offset + k, hex, HEX_LEN);
    }
}

duckdb_state wirejson_register_messages_agg(duckdb_connection con,
                                            const wj_function *fn)
{
    duckdb_aggregate_function f = duckdb_create_aggregate_function();
    duckdb_logical_type t = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_state st;

    duckdb_aggregate_function_set_name(f, fn->name);
    duckdb_aggregate_function_add_parameter(f, t);
    duckdb_aggregate_function_set_return_type(f, t);
    duckdb_destroy_logical_type(&t);
    duckdb_aggregate_function_set_functions(
        f, messagesDigestAggSize, messagesDigestAggInit,
        messagesDigestAggUpdate, messagesDigestAggCombine,
        messagesDigestAggFinal);
    /* Without a destructor DuckDB runs the aggregate as a streaming window,
     * which answers running frames wrongly. */
    duckdb_aggregate_function_set_destructor(f, messagesDigestAggDestroy);
    st = duckdb_register_aggregate_function(con, f);
    duckdb_destroy_aggregate_function(&f);
    return st;
}
