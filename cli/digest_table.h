/* SPDX-License-Identifier: MIT */
/*
 * digest_table.h - a table of entries keyed by a 32-byte digest, in the
 * order they were first put: dedup's distinct keys, cache-audit's prefix
 * digests.  An entry is the caller's struct whose first member is
 * `unsigned char key[32]`; entries live in chunks that never move, so a
 * pointer to one stays good until digest_table_free.
 */
#ifndef WIREJSON_CLI_DIGEST_TABLE_H
#define WIREJSON_CLI_DIGEST_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct digest_table {
    unsigned char **chunks;
    size_t n_chunks, chunks_cap;
    size_t entry_size;
    uint64_t n;      /* entries, numbered from 0 in the order put */
    uint32_t *slots; /* entry number + 1; 0: empty */
    size_t mask;
} digest_table;

/* An empty table of entries of entry_size bytes (at least 32). */
void digest_table_init(digest_table *t, size_t entry_size);

/* Entry i (i < t->n). */
void *digest_table_at(const digest_table *t, uint64_t i);

/* The entry of key, or NULL. */
void *digest_table_find(const digest_table *t, const unsigned char *key);

/* The entry of key, a new one (its key set, the rest zero; *fresh = 1)
 * when there is none; NULL when out of memory or past 2^32 - 2 entries. */
void *digest_table_put(digest_table *t, const unsigned char *key, int *fresh);

void digest_table_free(digest_table *t);

#endif
