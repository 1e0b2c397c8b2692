/* SPDX-License-Identifier: MIT */
/*
 * sha256_multi.c - SHA-256 of many independent messages at once.
 *
 * One message at a time, the SHA-NI round instruction (sha256rnds2, two
 * rounds) waits on the one before it: a latency of several cycles against
 * an issue every one or two, so a lone stream leaves the unit mostly idle.
 * Here 2 or 4 messages are hashed side by side, one 64-byte block of each
 * per step, so the rounds of one stream fill the gaps of the others.  A
 * lane whose message ends takes the next message; when fewer messages are
 * left than lanes, the step narrows.
 *
 * The compression function follows FIPS 180-4 §6.2 with Intel's SHA
 * extensions: the state is held as two vectors, {a,b,e,f} and {c,d,g,h};
 * sha256rnds2 does two rounds given W[t] + K[t] for them; sha256msg1 and
 * sha256msg2 compute the message schedule four words at a time:
 *   W[t..t+3] = msg2( msg1(W[t-16..], W[t-12..]) + W[t-7..t-4], W[t-4..] ).
 * The padding (§5.1.1) is built per lane in a tail of one or two blocks.
 *
 * Where the processor has no SHA extensions, or WIREJSON_SIMD caps the
 * path below "sha", every message goes through libcrypto (sha256.c).
 */
#include "sha256_multi.h"
#include "wj_internal.h"

#include <stdint.h>
#include <string.h>

/* FIPS 180-4 §4.2.2 */
static const uint32_t K[64] = {
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
static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                               0xa54ff53a, 0x510e527f, 0x9b05688c,
                               0x1f83d9ab, 0x5be0cd19};

#define MAX_LANES 4

/* One message in a lane: its whole blocks still to hash, then the padded
 * tail (the last partial block, 0x80, zeros, the bit length). */
typedef struct lane {
    const unsigned char *next; /* the next whole block of the message */
    size_t whole;              /* whole blocks left at next */
    unsigned tail_left;        /* tail blocks left (1 or 2, then 0) */
    unsigned tail_at;          /* the next tail block's offset in tail */
    size_t msg;                /* which message (its digest's slot) */
    unsigned char tail[128];
} lane;

static void lane_start(lane *l, const unsigned char *msg, size_t len,
                       size_t which)
{
    size_t rest = len % 64, bits = len * 8, k;
    unsigned blocks = rest < 56 ? 1 : 2;
    l->next = msg;
    l->whole = len / 64;
    l->msg = which;
    l->tail_left = blocks;
    l->tail_at = 0;
    memset(l->tail, 0, sizeof l->tail);
    if (rest)
        memcpy(l->tail, msg + len - rest, rest);
    l->tail[rest] = 0x80;
    for (k = 0; k < 8; k++)
        l->tail[64 * blocks - 1 - k] = (unsigned char)(bits >> (8 * k));
}

/* The lane's next block, or NULL when its message is done. */
static const unsigned char *lane_block(lane *l)
{
    const unsigned char *b;
    if (l->whole) {
        b = l->next;
        l->next += 64;
        l->whole--;
        return b;
    }
    if (!l->tail_left)
        return NULL;
    b = l->tail + l->tail_at;
    l->tail_at += 64;
    l->tail_left--;
    return b;
}

static void put_digest(const uint32_t st[8], unsigned char *out)
{
    int k;
    for (k = 0; k < 8; k++) {
        out[4 * k] = (unsigned char)(st[k] >> 24);
        out[4 * k + 1] = (unsigned char)(st[k] >> 16);
        out[4 * k + 2] = (unsigned char)(st[k] >> 8);
        out[4 * k + 3] = (unsigned char)st[k];
    }
}

static void many_libcrypto(const unsigned char *const *msg, const size_t *len,
                           size_t n, unsigned char *out)
{
    size_t k;
    for (k = 0; k < n; k++)
        wj_sha256_bytes(msg[k], len[k], out + 32 * k);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WJ_HAVE_SHA_PATH 1
#define WJ_SHA __attribute__((target("sha,sse4.1")))
#define WJ_SHA_INLINE __attribute__((target("sha,sse4.1"), always_inline))
#define WJ_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define WJ_UNROLL(n) WJ_PRAGMA(unroll n)
#else
#define WJ_UNROLL(n) WJ_PRAGMA(GCC unroll n)
#endif

/*
 * One block of each of n streams (n a constant after inlining): abef and
 * cdgh are the streams' states, block their 64 bytes.  The streams' steps
 * are written one after the other in each group of four rounds, so the
 * compiler keeps n independent chains in flight.
 */
static inline WJ_SHA_INLINE void blocks(int n, __m128i *abef, __m128i *cdgh,
                                        const unsigned char *const *block)
{
    const __m128i bswap =
        _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i w[MAX_LANES][4], save_abef[MAX_LANES], save_cdgh[MAX_LANES];
    int g, s;

    for (s = 0; s < n; s++) {
        save_abef[s] = abef[s];
        save_cdgh[s] = cdgh[s];
    }
    /* Unrolled whole, so that the schedule's ring of four vectors a stream
     * stays in registers. */
    WJ_UNROLL(16)
    for (g = 0; g < 16; g++) {
        const __m128i k = _mm_loadu_si128((const __m128i *)(K + 4 * g));
        WJ_UNROLL(4)
        for (s = 0; s < n; s++) {
            __m128i *ws = w[s], m;
            if (g < 4) {
                ws[g] = _mm_shuffle_epi8(
                    _mm_loadu_si128((const __m128i *)(block[s] + 16 * g)),
                    bswap);
            } else {
                /* W[t-16..] is ws[g&3]; W[t-12..], W[t-8..], W[t-4..]
                 * follow it round the ring. */
                __m128i t = _mm_sha256msg1_epu32(ws[g & 3], ws[(g + 1) & 3]);
                t = _mm_add_epi32(
                    t, _mm_alignr_epi8(ws[(g + 3) & 3], ws[(g + 2) & 3], 4));
                ws[g & 3] = _mm_sha256msg2_epu32(t, ws[(g + 3) & 3]);
            }
            m = _mm_add_epi32(ws[g & 3], k);
            cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], m);
            abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s],
                                            _mm_shuffle_epi32(m, 0x0E));
        }
    }
    for (s = 0; s < n; s++) {
        abef[s] = _mm_add_epi32(abef[s], save_abef[s]);
        cdgh[s] = _mm_add_epi32(cdgh[s], save_cdgh[s]);
    }
}

/* The state of a new message, as {a,b,e,f} and {c,d,g,h} (words from the
 * high lane down, as sha256rnds2 takes them). */
static WJ_SHA void state_start(__m128i *abef, __m128i *cdgh)
{
    *abef = _mm_set_epi32((int)H0[0], (int)H0[1], (int)H0[4], (int)H0[5]);
    *cdgh = _mm_set_epi32((int)H0[2], (int)H0[3], (int)H0[6], (int)H0[7]);
}

static WJ_SHA void state_digest(__m128i abef, __m128i cdgh, unsigned char *out)
{
    uint32_t x[4], y[4], st[8];
    _mm_storeu_si128((__m128i *)x, abef); /* f e b a */
    _mm_storeu_si128((__m128i *)y, cdgh); /* h g d c */
    st[0] = x[3], st[1] = x[2], st[4] = x[1], st[5] = x[0];
    st[2] = y[3], st[3] = y[2], st[6] = y[1], st[7] = y[0];
    put_digest(st, out);
}

static WJ_SHA void blocks1(__m128i *a, __m128i *c, const unsigned char **b)
{
    blocks(1, a, c, b);
}
static WJ_SHA void blocks2(__m128i *a, __m128i *c, const unsigned char **b)
{
    blocks(2, a, c, b);
}
static WJ_SHA void blocks4(__m128i *a, __m128i *c, const unsigned char **b)
{
    blocks(4, a, c, b);
}

/* Hashes the messages with up to `lanes` streams: each step takes one block
 * from every busy lane, with the widest step that many lanes fill. */
static WJ_SHA void many_sha_ni(int lanes, const unsigned char *const *msg,
                               const size_t *len, size_t n,
                               unsigned char *out)
{
    lane lane_of[MAX_LANES];
    __m128i abef[MAX_LANES], cdgh[MAX_LANES];
    size_t taken = 0;
    int busy = 0, s;

    for (;;) {
        /* Fill the free lanes, then take a block from each. */
        const unsigned char *block[MAX_LANES];
        while (busy < lanes && taken < n) {
            lane_start(&lane_of[busy], msg[taken], len[taken], taken);
            state_start(&abef[busy], &cdgh[busy]);
            busy++, taken++;
        }
        if (busy == 0)
            return;
        for (s = 0; s < busy; s++)
            block[s] = lane_block(&lane_of[s]);
        if (busy == 4)
            blocks4(abef, cdgh, block);
        else if (busy >= 2) {
            blocks2(abef, cdgh, block);
            if (busy == 3)
                blocks1(abef + 2, cdgh + 2, block + 2);
        } else
            blocks1(abef, cdgh, block);
        /* Retire the lanes whose message ended, moving the last busy lane
         * into the slot. */
        for (s = busy - 1; s >= 0; s--) {
            lane *l = &lane_of[s];
            if (l->whole || l->tail_left)
                continue;
            state_digest(abef[s], cdgh[s], out + 32 * l->msg);
            busy--;
            if (s != busy) {
                lane_of[s] = lane_of[busy]; /* its tail moves with it */
                abef[s] = abef[busy];
                cdgh[s] = cdgh[busy];
            }
        }
    }
}
#endif

int wj_sha256_many_on(int path, int lanes, const unsigned char *const *msg,
                      const size_t *len, size_t n, unsigned char *out)
{
    if (path == WJ_HASH_LIBCRYPTO) {
        many_libcrypto(msg, len, n, out);
        return 0;
    }
#ifdef WJ_HAVE_SHA_PATH
    if (path == WJ_HASH_SHA_NI && wj_cpu_has_sha() &&
        (lanes == 1 || lanes == 2 || lanes == 4)) {
        many_sha_ni(lanes, msg, len, n, out);
        return 0;
    }
#endif
    (void)lanes;
    return -1;
}

/* Lanes the SHA-NI path runs: measured in bench/core_bench (the "hash"
 * rows), 4 streams against 2. */
#define SHA_NI_LANES 4

void wj_sha256_many(const unsigned char *const *msg, const size_t *len,
                    size_t n, unsigned char *out)
{
#ifdef WJ_HAVE_SHA_PATH
    if (n > 1 && wj_hash_path() == WJ_HASH_SHA_NI) {
        many_sha_ni(SHA_NI_LANES, msg, len, n, out);
        return;
    }
#endif
    many_libcrypto(msg, len, n, out);
}
