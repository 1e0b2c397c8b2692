/* SPDX-License-Identifier: MIT */
/*
 * sha256_lanes.h - what the multi-message SHA-256 paths share
 * (sha256_multi.c's SHA-NI streams, sha256_avx512.c's 16 lanes): the
 * constants of FIPS 180-4, the padding's block count and the digest's
 * bytes; and, for the SHA-NI streams, a lane, one message fed a 64-byte
 * block at a time with its padding (§5.1.1) built in a tail of one or two
 * blocks (the 16 lanes keep theirs as arrays, sha256_avx512.c).
 *
 * Internal to libwirejson.
 */
#ifndef WJ_SHA256_LANES_H
#define WJ_SHA256_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* FIPS 180-4 §4.2.2 */
static const uint32_t wj_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/* FIPS 180-4 §5.3.3 */
static const uint32_t wj_sha256_h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                               0xa54ff53a, 0x510e527f, 0x9b05688c,
                               0x1f83d9ab, 0x5be0cd19};

/* One message in a lane: its whole blocks, then its padded tail (the last
 * partial block, 0x80, zeros, the bit length).  The tail is built when the
 * whole blocks are done: reading the message's last bytes at the start
 * would miss the cache that hashing it in order warms.  Lanes end their
 * messages at no pattern a predictor could learn, so a step takes a lane's
 * block by selects, with one branch a message (building the tail). */
typedef struct lane {
    const unsigned char *next; /* the next whole block of the message */
    size_t whole;              /* whole blocks left at next */
    size_t len;                /* the message's length */
    size_t left;               /* blocks left, the tail's too (0: done) */
    size_t tail_at;            /* the next tail block's offset in tail */
    size_t msg;                /* which message (its digest's slot) */
    unsigned char tail[128];
} lane;

/* The blocks a message's padded tail takes (§5.1.1): its last partial
 * block, 0x80 and the 8-byte length, in one block or two. */
static inline unsigned tail_blocks(size_t len)
{
    return len % 64 < 56 ? 1 : 2;
}

static inline void lane_start(lane *l, const unsigned char *msg, size_t len,
                              size_t which)
{
    l->next = msg;
    l->whole = len / 64;
    l->len = len;
    l->left = l->whole + tail_blocks(len);
    l->tail_at = 0;
    l->msg = which;
}

/* Writes the padded tail; l->next is at the message's last partial block. */
static inline void lane_tail(lane *l)
{
    size_t rest = l->len % 64, bits = l->len * 8, k;
    size_t end = 64 * (size_t)tail_blocks(l->len);
    /* a block at a time: a constant size is stored inline */
    memset(l->tail, 0, 64);
    if (end > 64)
        memset(l->tail + 64, 0, 64);
    if (rest)
        memcpy(l->tail, l->next, rest);
    l->tail[rest] = 0x80;
    for (k = 0; k < 8; k++)
        l->tail[end - 1 - k] = (unsigned char)(bits >> (8 * k));
}

/* The lane's next block; its message is done when l->left is 0 after it. */
static inline const unsigned char *lane_block(lane *l)
{
    size_t in_tail = l->whole == 0;
    const unsigned char *b;
    if (in_tail && l->tail_at == 0)
        lane_tail(l);
    b = in_tail ? l->tail + l->tail_at : l->next;
    l->next += 64 * !in_tail;
    l->tail_at += 64 * in_tail;
    l->whole -= !in_tail;
    l->left--;
    return b;
}

/* The digest's bytes: the state's words, big-endian.  A word at a time
 * where the machine is little-endian: byte by byte, the compiler built the
 * digest on the stack and read it back whole, a stalled store forward for
 * every message. */
static inline void put_digest(const uint32_t st[8], unsigned char *out)
{
    int k;
    for (k = 0; k < 8; k++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint32_t word = __builtin_bswap32(st[k]);
        memcpy(out + 4 * k, &word, 4);
#else
        out[4 * k] = (unsigned char)(st[k] >> 24);
        out[4 * k + 1] = (unsigned char)(st[k] >> 16);
        out[4 * k + 2] = (unsigned char)(st[k] >> 8);
        out[4 * k + 3] = (unsigned char)st[k];
#endif
    }
}

/* A loop unrolled n times, whichever compiler: the hashing paths keep a
 * block's rounds and their message schedule in registers this way. */
#define WJ_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define WJ_UNROLL(n) WJ_PRAGMA(unroll n)
#else
#define WJ_UNROLL(n) WJ_PRAGMA(GCC unroll n)
#endif

#endif /* WJ_SHA256_LANES_H */
