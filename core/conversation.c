/* SPDX-License-Identifier: MIT */
/*
 * conversation.c - messages_digest one message at a time (docs/contract.md §6,
 * §11): the core of every front end's messages_digest_agg and prefix digests.
 *
 * It hashes exactly what messages_digest hashes: the message_digest hex
 * strings of the messages, in order, concatenated.  It keeps those hex
 * strings (64 bytes a message, never the message) in one buffer, the oldest
 * at `head`, and a running SHA-256 over them.  A conversation that only
 * grows feeds each new digest to the running hash and reads a copy of it:
 * O(1) per digest.  Dropping the oldest message cannot be undone in a hash,
 * so it marks the running hash stale and the next digest hashes the held
 * strings again, which are contiguous: one SHA-256 call over 64 bytes per
 * message held.
 *
 * Memory: the object, its buffer and the SHA-256 state (sha256.c keeps it
 * in a plain struct) all come from the caller's allocator.
 */
#include "wj_internal.h"

#define HEX_LEN 64 /* one message digest, without its NUL */

struct wj_conversation {
    wj_alloc alloc_copy;   /* the caller's allocator, if one was given */
    const wj_alloc *alloc; /* &alloc_copy, or NULL for malloc */
    wj_buf held;           /* hex digests; the live ones from head on */
    size_t head;           /* offset of the oldest live digest in held */
    wj_sha256 hash;        /* over held[head..len) unless stale */
    int stale;             /* a message was dropped since the last rehash */
};

wj_code wj_conversation_new(const wj_alloc *alloc, wj_conversation **out)
{
    wj_conversation *c = wj_malloc(alloc, sizeof *c);
    *out = NULL;
    if (!c)
        return WJ_ERR_NOMEM;
    memset(c, 0, sizeof *c);
    if (alloc) {
        c->alloc_copy = *alloc;
        c->alloc = &c->alloc_copy;
    }
    c->held.alloc = c->alloc;
    wj_sha256_init(&c->hash);
    *out = c;
    return WJ_OK;
}

void wj_conversation_free(wj_conversation *conv)
{
    wj_alloc copy;
    const wj_alloc *alloc;
    if (!conv)
        return;
    copy = conv->alloc_copy;
    alloc = conv->alloc ? &copy : NULL;
    wj_free(alloc, conv->held.ptr);
    wj_free(alloc, conv);
}

wj_code wj_conversation_push(wj_conversation *conv, const char *json,
                             size_t len, wj_error *err)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_buf *held = &conv->held;
    wj_code rc = wj_message_digest(json, len, NULL, 0, conv->alloc, hex, err);
    if (rc != WJ_OK)
        return rc;
    /* Full, and at least half of it dropped messages: move the live part
     * down instead of growing. */
    if (held->size - held->len < HEX_LEN && conv->head >= held->len / 2 &&
        conv->head > 0) {
        memmove(held->ptr, held->ptr + conv->head, held->len - conv->head);
        held->len -= conv->head;
        conv->head = 0;
    }
    if (wj_buf_reserve(held, HEX_LEN) != 0)
        return wj_buf_fail(held, err);
    wj_buf_put(held, hex, HEX_LEN);
    if (!conv->stale)
        wj_sha256_update(&conv->hash, hex, HEX_LEN);
    return WJ_OK;
}

wj_code wj_conversation_drop(wj_conversation *conv, wj_error *err)
{
    wj_error_clear(err);
    if (conv->head == conv->held.len)
        return wj_fail(err, WJ_ERR_ARGUMENT, 0,
                       "the conversation holds no message to drop");
    conv->head += HEX_LEN;
    if (conv->head == conv->held.len) { /* empty: start afresh */
        conv->head = conv->held.len = 0;
        wj_sha256_init(&conv->hash);
        conv->stale = 0;
    } else {
        conv->stale = 1;
    }
    return WJ_OK;
}

size_t wj_conversation_length(const wj_conversation *conv)
{
    return (conv->held.len - conv->head) / HEX_LEN;
}

wj_code wj_conversation_digest(wj_conversation *conv,
                               char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_error_clear(err);
    if (conv->stale) {
        wj_sha256_init(&conv->hash);
        wj_sha256_update(&conv->hash, conv->held.ptr + conv->head,
                         conv->held.len - conv->head);
        conv->stale = 0;
    }
    wj_sha256_peek_hex(&conv->hash, hex);
    return WJ_OK;
}

/* ------------------------------------------------------ wj_digest_chain */

/* The chain is a wj_sha256 in a public wrapper of the same size. */
_Static_assert(sizeof(wj_digest_chain) == sizeof(wj_sha256),
               "wj_digest_chain holds a wj_sha256");

void wj_digest_chain_init(wj_digest_chain *chain)
{
    wj_sha256 h;
    memset(&h, 0, sizeof h); /* so equal chains compare equal byte for byte */
    wj_sha256_init(&h);
    memcpy(chain, &h, sizeof h);
}

void wj_digest_chain_add(wj_digest_chain *chain, const char *hex, size_t n)
{
    wj_sha256 h;
    memcpy(&h, chain, sizeof h);
    wj_sha256_update(&h, hex, n * HEX_LEN);
    memcpy(chain, &h, sizeof h);
}

void wj_digest_chain_hex(const wj_digest_chain *chain,
                         char hex[WJ_DIGEST_HEX_SIZE])
{
    wj_sha256 h;
    memcpy(&h, chain, sizeof h);
    wj_sha256_peek_hex(&h, hex);
}
