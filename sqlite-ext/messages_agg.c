/*
 * messages_agg.c - messages_digest_agg(M), the aggregate and window form of
 * messages_digest (SPEC §6, §8): over the rows of a group or of a window
 * frame, in order, SHA-256 of the concatenated message_digest hex strings of
 * the non-NULL rows.  No rows, or an empty frame, give SHA-256 of "".
 *
 *   SELECT messages_digest_agg(m) OVER (ORDER BY pos) FROM t;  -- prefixes
 *
 * The state keeps the 32-byte digest of each message in the frame (never the
 * message) in a queue, and a running SHA-256 over their hex strings.  A
 * frame that only grows appends to both and reads a copy of the running
 * hash: O(1) per row.  xInverse drops the oldest digest, which a hash cannot
 * forget, so it marks the running hash stale and the next value hashes the
 * frame again: a sliding frame of w rows costs O(w) per row.
 */
#include "ext.h"

#include <string.h>

#define DIGEST_BYTES 32

typedef struct agg_state {
    wj_sha256 *hash; /* over digests[head..tail) unless stale */
    unsigned char (*digests)[DIGEST_BYTES]; /* the frame's message digests */
    size_t head, tail, cap;                 /* queue bounds, in digests */
    int stale; /* hash no longer matches the queue */
} agg_state;

static int hex_value(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

static void hex_to_bytes(const char hex[WJ_DIGEST_HEX_SIZE],
                         unsigned char out[DIGEST_BYTES])
{
    int k;
    for (k = 0; k < DIGEST_BYTES; k++)
        out[k] = (unsigned char)(hex_value(hex[2 * k]) << 4 |
                                 hex_value(hex[2 * k + 1]));
}

static void bytes_to_hex(const unsigned char in[DIGEST_BYTES], char hex[64])
{
    static const char digits[] = "0123456789abcdef";
    int k;
    for (k = 0; k < DIGEST_BYTES; k++) {
        hex[2 * k] = digits[in[k] >> 4];
        hex[2 * k + 1] = digits[in[k] & 0xF];
    }
}

/* Appends one digest to the queue, moving the live part down or growing the
 * buffer when it is full.  Returns 0, or -1 when out of memory. */
static int queue_push(agg_state *s, const unsigned char digest[DIGEST_BYTES])
{
    if (s->tail == s->cap) {
        if (s->head > 0 && s->head * 2 >= s->cap) {
            memmove(s->digests, s->digests + s->head,
                    (s->tail - s->head) * DIGEST_BYTES);
            s->tail -= s->head;
            s->head = 0;
        } else {
            size_t cap = s->cap ? s->cap * 2 : 16;
            void *grown = sqlite3_realloc64(s->digests,
                                            (sqlite3_uint64)cap * DIGEST_BYTES);
            if (!grown)
                return -1;
            s->digests = grown;
            s->cap = cap;
        }
    }
    memcpy(s->digests[s->tail++], digest, DIGEST_BYTES);
    return 0;
}

/* Makes the running hash cover exactly the queue again. */
static wj_code rehash(agg_state *s)
{
    char hex[64];
    size_t k;
    wj_code rc = wj_sha256_reset(s->hash);
    for (k = s->head; rc == WJ_OK && k < s->tail; k++) {
        bytes_to_hex(s->digests[k], hex);
        rc = wj_sha256_update(s->hash, hex, sizeof hex);
    }
    if (rc == WJ_OK)
        s->stale = 0;
    return rc;
}

/* The digest of the frame as the function's result; s may be NULL (no row
 * was ever stepped). */
static void result_digest(sqlite3_context *ctx, agg_state *s)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_code rc;

    if (!s || !s->hash)
        rc = wj_sha256_hex("", 0, hex);
    else if (s->stale && rehash(s) != WJ_OK)
        rc = WJ_ERR_NOMEM;
    else
        rc = wj_sha256_peek_hex(s->hash, hex);
    if (rc != WJ_OK) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, hex, 64, SQLITE_TRANSIENT);
}

void messagesDigestAggStep(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *json;
    size_t len;
    char hex[WJ_DIGEST_HEX_SIZE];
    unsigned char digest[DIGEST_BYTES];
    wj_error err = {WJ_OK, 0, NULL};
    agg_state *s;
    wj_code rc;

    (void)argc;
    if (wirejson_arg_json(ctx, argv[0], &json, &len) != 0)
        return; /* NULL rows are skipped; out of memory is reported */
    s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s || (!s->hash && wj_sha256_new(&s->hash) != WJ_OK)) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    rc = wj_message_digest(json, len, NULL, 0, &wirejson_sqlite_alloc, hex,
                           &err);
    if (rc != WJ_OK) {
        wirejson_result_error(ctx, rc, &err);
        return;
    }
    hex_to_bytes(hex, digest);
    if (queue_push(s, digest) != 0 ||
        (!s->stale && wj_sha256_update(s->hash, hex, 64) != WJ_OK)) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
}

void messagesDigestAggInverse(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    agg_state *s;

    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return; /* it was skipped on the way in */
    s = sqlite3_aggregate_context(ctx, 0);
    if (!s || s->head == s->tail)
        return; /* not reached: SQLite removes only rows it added */
    s->head++;
    if (s->head == s->tail)
        s->head = s->tail = 0;
    s->stale = 1;
}

void messagesDigestAggValue(sqlite3_context *ctx)
{
    result_digest(ctx, sqlite3_aggregate_context(ctx, 0));
}

void messagesDigestAggFinal(sqlite3_context *ctx)
{
    agg_state *s = sqlite3_aggregate_context(ctx, 0);
    result_digest(ctx, s);
    if (s) {
        wj_sha256_free(s->hash);
        sqlite3_free(s->digests);
        s->hash = NULL;
        s->digests = NULL;
    }
}
