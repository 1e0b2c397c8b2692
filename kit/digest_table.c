/* SPDX-License-Identifier: MIT */
/*
 * digest_table.c - open addressing over 32-bit entry numbers; a digest is
 * already uniform, so its first 8 bytes are the hash.
 */
#include <stdlib.h>
#include <string.h>

#include "wirejson_kit.h"

#define CHUNK_ENTRIES 65536

void wk_digest_table_init(wk_digest_table *t, size_t entry_size)
{
    memset(t, 0, sizeof *t);
    t->entry_size = entry_size;
}

void *wk_digest_table_at(const wk_digest_table *t, uint64_t i)
{
    return t->chunks[i / CHUNK_ENTRIES] + (i % CHUNK_ENTRIES) * t->entry_size;
}

static size_t hash_of(const unsigned char *k)
{
    uint64_t h;
    memcpy(&h, k, 8);
    return (size_t)h;
}

static int grow_slots(wk_digest_table *t)
{
    size_t size = t->slots ? 2 * (t->mask + 1) : 1 << 12, i;
    uint32_t *s = calloc(size, sizeof *s);
    if (!s)
        return -1;
    for (i = 0; t->slots && i <= t->mask; i++)
        if (t->slots[i]) {
            const unsigned char *key = wk_digest_table_at(t, t->slots[i] - 1);
            size_t h = hash_of(key) & (size - 1);
            while (s[h])
                h = (h + 1) & (size - 1);
            s[h] = t->slots[i];
        }
    free(t->slots);
    t->slots = s;
    t->mask = size - 1;
    return 0;
}

void *wk_digest_table_find(const wk_digest_table *t, const unsigned char *key)
{
    size_t h;
    if (!t->slots)
        return NULL;
    for (h = hash_of(key) & t->mask; t->slots[h]; h = (h + 1) & t->mask) {
        unsigned char *e = wk_digest_table_at(t, t->slots[h] - 1);
        if (memcmp(e, key, 32) == 0)
            return e;
    }
    return NULL;
}

void *wk_digest_table_put(wk_digest_table *t, const unsigned char *key,
                          int *fresh)
{
    size_t h;
    unsigned char *e = wk_digest_table_find(t, key);

    *fresh = 0;
    if (e)
        return e;
    if (!t->slots || (t->n + 1) * 2 > t->mask + 1)
        if (t->n >= 0xFFFFFFFEu || grow_slots(t))
            return NULL;
    if (t->n == (uint64_t)t->n_chunks * CHUNK_ENTRIES) {
        if (t->n_chunks == t->chunks_cap) {
            size_t cap = t->chunks_cap ? 2 * t->chunks_cap : 64;
            unsigned char **c = realloc(t->chunks, cap * sizeof *c);
            if (!c)
                return NULL;
            t->chunks = c;
            t->chunks_cap = cap;
        }
        if (!(t->chunks[t->n_chunks] = malloc(CHUNK_ENTRIES * t->entry_size)))
            return NULL;
        t->n_chunks++;
    }
    for (h = hash_of(key) & t->mask; t->slots[h]; h = (h + 1) & t->mask)
        ;
    t->slots[h] = (uint32_t)(t->n + 1);
    e = wk_digest_table_at(t, t->n++);
    memset(e, 0, t->entry_size);
    memcpy(e, key, 32);
    *fresh = 1;
    return e;
}

void wk_digest_table_free(wk_digest_table *t)
{
    size_t k;
    for (k = 0; k < t->n_chunks; k++)
        free(t->chunks[k]);
    free(t->chunks);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
