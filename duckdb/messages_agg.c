/* SPDX-License-Identifier: MIT */
/*
 * messages_agg.c - messages_digest_agg(M) in DuckDB (docs/contract.md §6,
 * §15): over the non-NULL rows of a group, in the order the query gives
 * (messages_digest_agg(m ORDER BY i)), SHA-256 of the concatenated
 * message_digest hex strings; as a window function, that digest over each
 * row's frame, any frame.
 *
 * The state is the list of the rows' message digests, in order (64 hex
 * bytes each, never the message).  DuckDB aggregates in parallel and
 * combines the partial states in the order of the rows they hold, and a
 * window's segment tree combines its nodes so too: combine appends the
 * source's list to the target's, so the answer does not depend on the
 * split.  Finalize hashes the list.
 *
 * Two things DuckDB's C API does (up to 1.5 at least) that this file works
 * around:
 *  - DuckDB issues #21537 and #26109: for agg(x ORDER BY y) and for a window
 *    whose frame is the whole partition, DuckDB calls update with one state
 *    (a constant vector) but passes it as an array of one state per row, so
 *    only states[0] is real and reading far past it can fault.  Every state
 *    init makes is kept in a registry (a set of addresses); when the second
 *    entry is not in it, every row belongs to states[0].
 *  - an aggregate without a destructor is run as a streaming window, which
 *    gives wrong answers for running frames; this one has a destructor.
 */
#include "ext.h"
#include "wj_internal.h" /* wj_sha256_hex */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEX_LEN 64 /* one message digest, without its NUL */
#define STATE_MAGIC 0x776a6167u

typedef struct agg_state {
    uint32_t magic;
    char *hexes;    /* n * HEX_LEN bytes */
    size_t n, cap;  /* digests held, and room for */
} agg_state;

/* ------------------------------------------------------------ registry */

/* The addresses of the live states, an open-addressing hash set (linear
 * probing, tombstones) under one mutex. */
#define TOMBSTONE ((uintptr_t)1)

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *registry;
static size_t registry_cap, registry_used; /* used counts tombstones */

static size_t slot_of(uintptr_t p, size_t cap)
{
    uint64_t h = (uint64_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 17) & (cap - 1);
}

/* Inserts p (the lock held); 0, or -1 when out of memory. */
static int registry_insert(uintptr_t p)
{
    size_t k;
    if ((registry_used + 1) * 2 > registry_cap) {
        size_t cap = registry_cap ? registry_cap * 2 : 1024, j, live = 0;
        uintptr_t *fresh = calloc(cap, sizeof *fresh);
        if (!fresh)
            return -1;
        for (j = 0; j < registry_cap; j++)
            if (registry[j] > TOMBSTONE) {
                k = slot_of(registry[j], cap);
                while (fresh[k])
                    k = (k + 1) & (cap - 1);
                fresh[k] = registry[j];
                live++;
            }
        free(registry);
        registry = fresh;
        registry_cap = cap;
        registry_used = live;
    }
    k = slot_of(p, registry_cap);
    while (registry[k] > TOMBSTONE) {
        if (registry[k] == p)
            return 0;
        k = (k + 1) & (registry_cap - 1);
    }
    if (!registry[k])
        registry_used++;
    registry[k] = p;
    return 0;
}

/* The slot holding p, or SIZE_MAX (the lock held). */
static size_t registry_find(uintptr_t p)
{
    size_t k;
    if (!registry_cap)
        return SIZE_MAX;
    for (k = slot_of(p, registry_cap); registry[k];
         k = (k + 1) & (registry_cap - 1))
        if (registry[k] == p)
            return k;
    return SIZE_MAX;
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
    int failed;
    memset(s, 0, sizeof *s);
    s->magic = STATE_MAGIC;
    pthread_mutex_lock(&registry_lock);
    failed = registry_insert((uintptr_t)s);
    pthread_mutex_unlock(&registry_lock);
    if (failed)
        duckdb_aggregate_function_set_error(info, "out of memory");
}

static void messagesDigestAggDestroy(duckdb_aggregate_state *states,
                                     idx_t count)
{
    idx_t k;
    pthread_mutex_lock(&registry_lock);
    for (k = 0; k < count; k++) {
        agg_state *s = (agg_state *)states[k];
        size_t slot = registry_find((uintptr_t)s);
        if (slot != SIZE_MAX)
            registry[slot] = TOMBSTONE;
        free(s->hexes);
        s->hexes = NULL;
        s->n = s->cap = 0;
    }
    pthread_mutex_unlock(&registry_lock);
}

/* Room for more digests in s; 0, or -1 when out of memory. */
static int reserve(agg_state *s, size_t more)
{
    size_t cap;
    char *p;
    if (s->n + more <= s->cap)
        return 0;
    cap = s->cap ? s->cap : 16;
    while (cap < s->n + more)
        cap *= 2;
    p = realloc(s->hexes, cap * HEX_LEN);
    if (!p)
        return -1;
    s->hexes = p;
    s->cap = cap;
    return 0;
}

static void messagesDigestAggUpdate(duckdb_function_info info,
                                    duckdb_data_chunk input,
                                    duckdb_aggregate_state *states)
{
    idx_t n = duckdb_data_chunk_get_size(input), k;
    duckdb_vector v = duckdb_data_chunk_get_vector(input, 0);
    const duckdb_string_t *data = duckdb_vector_get_data(v);
    uint64_t *valid = duckdb_vector_get_validity(v);
    agg_state *first = (agg_state *)states[0];
    int constant = 0;

    /* #21537: one state for every row (a constant vector) when the second
     * entry, one slot past that state, is no state this aggregate made; a
     * real array of states holds only states.  Nothing past that slot is
     * read then. */
    if (n > 1) {
        pthread_mutex_lock(&registry_lock);
        constant = registry_find((uintptr_t)states[1]) == SIZE_MAX;
        pthread_mutex_unlock(&registry_lock);
    }
    for (k = 0; k < n; k++) {
        agg_state *s = constant ? first : (agg_state *)states[k];
        wj_error err = WJ_ERROR_INIT;
        char hex[WJ_DIGEST_HEX_SIZE];

        if (valid && !duckdb_validity_row_is_valid(valid, k))
            continue; /* NULL rows are skipped */
        if (wj_message_digest(wirejson_string_ptr(&data[k]),
                              wirejson_string_len(&data[k]), NULL, 0, NULL,
                              hex, &err) != WJ_OK) {
            wirejson_raise(info, "messages_digest_agg", &err,
                           duckdb_aggregate_function_set_error);
            return;
        }
        if (reserve(s, 1) != 0) {
            duckdb_aggregate_function_set_error(info, "out of memory");
            return;
        }
        memcpy(s->hexes + s->n * HEX_LEN, hex, HEX_LEN);
        s->n++;
    }
}

static void messagesDigestAggCombine(duckdb_function_info info,
                                     duckdb_aggregate_state *source,
                                     duckdb_aggregate_state *target,
                                     idx_t count)
{
    idx_t k;
    for (k = 0; k < count; k++) {
        agg_state *src = (agg_state *)source[k], *dst = (agg_state *)target[k];
        if (!src->n)
            continue;
        if (reserve(dst, src->n) != 0) {
            duckdb_aggregate_function_set_error(info, "out of memory");
            return;
        }
        memcpy(dst->hexes + dst->n * HEX_LEN, src->hexes, src->n * HEX_LEN);
        dst->n += src->n;
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
        wj_sha256_hex(s->hexes ? s->hexes : "", s->n * HEX_LEN, hex);
        duckdb_vector_assign_string_element_len(result, offset + k, hex,
                                                HEX_LEN);
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
    duckdb_aggregate_function_set_destructor(f, messagesDigestAggDestroy);
    st = duckdb_register_aggregate_function(con, f);
    duckdb_destroy_aggregate_function(&f);
    return st;
}
