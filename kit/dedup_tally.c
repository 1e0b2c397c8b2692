/* SPDX-License-Identifier: MIT */
/*
 * dedup_tally.c - the dedup job's table of keys: one entry a distinct key
 * (its count, first line, and where that line's bytes are) over
 * wk_digest_table, in first-occurrence order, and the spill the Python
 * job's map stage writes of it.
 */
#include <string.h>

#include "wirejson_kit.h"

void wk_tally_init(wk_tally *t)
{
    memset(t, 0, sizeof *t);
    wk_digest_table_init(&t->keys, sizeof(wk_tally_entry));
}

int wk_tally_count(wk_tally *t, const unsigned char key[32], uint64_t line,
                   uint64_t off, uint64_t len, uint32_t source)
{
    int fresh = 0;
    wk_tally_entry *e = wk_digest_table_put(&t->keys, key, &fresh);
    if (!e)
        return -1;
    if (!fresh) {
        e->count++;
        return 0;
    }
    e->count = 1;
    e->line = line;
    e->off = off;
    e->len = len;
    e->source = source;
    return 1;
}

wk_tally_entry *wk_tally_at(const wk_tally *t, uint64_t i)
{
    return wk_digest_table_at(&t->keys, i);
}

static void put64(unsigned char *p, uint64_t v)
{
    int k;
    for (k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static size_t bucket_of(const unsigned char *key, size_t nbuckets)
{
    return ((size_t)key[0] << 8 | key[1]) % nbuckets;
}

void wk_tally_spill(const wk_tally *t, size_t nbuckets, unsigned char *out,
                    size_t *bounds)
{
    uint64_t i;
    size_t b;

    /* bounds[b + 1]: the records of bucket b; then bounds[b]: where b
     * starts, moved on as its records are placed, so it ends where b ends */
    memset(bounds, 0, (nbuckets + 1) * sizeof *bounds);
    for (i = 0; i < t->keys.n; i++)
        bounds[bucket_of(wk_tally_at(t, i)->key, nbuckets) + 1]++;
    for (b = 0; b < nbuckets; b++)
        bounds[b + 1] += bounds[b];
    for (i = 0; i < t->keys.n; i++) {
        const wk_tally_entry *e = wk_tally_at(t, i);
        unsigned char *rec =
            out + WK_SPILL_RECORD * bounds[bucket_of(e->key, nbuckets)]++;
        memcpy(rec, e->key, 32);
        put64(rec + 32, e->count);
        put64(rec + 40, e->line);
        put64(rec + 48, e->off);
        put64(rec + 56, e->len);
    }
    for (b = nbuckets; b > 0; b--)
        bounds[b] = WK_SPILL_RECORD * bounds[b - 1];
    bounds[0] = 0;
}

void wk_tally_free(wk_tally *t)
{
    wk_digest_table_free(&t->keys);
}
