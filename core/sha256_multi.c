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
 * Where the processor has AVX-512, 16 lanes of it hash batches of 16
 * messages or more (sha256_avx512.c), faster again, long messages too
 * when there are enough of them to keep the lanes busy (many_lanes).
 * Where it has neither,
 * for a single message, or when WIREJSON_SIMD caps the path below "sha",
 * every message goes through libcrypto (sha256.c).
 */
#include "sha256_lanes.h"
#include "sha256_multi.h"
#include "wj_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LANES 4 /* SHA-NI streams at most */

/* How many bits x takes: 0 for 0, at most 32 here (x < 2^32 blocks). */
static size_t bit_length(size_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? 8 * sizeof(unsigned long long) - (size_t)__builtin_clzll(x) : 0;
#else
    size_t bits = 0;
    while (x)
        bits++, x >>= 1;
    return bits;
#endif
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

/*
 * One block of each of n streams (n a constant after inlining): abef and
 * cdgh are the streams' states, block their 64 bytes.  The streams' steps
 * are written one after the other in each group of four rounds, so the
 * compiler keeps n independent chains in flight.
 */
static inline WJ_SHA_INLINE void blocks(int n, __m128i *state_abef,
                                        __m128i *state_cdgh,
                                        const unsigned char *const *blocks_in)
{
    const __m128i bswap =
        _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i w[MAX_LANES][4], save_abef[MAX_LANES], save_cdgh[MAX_LANES];
    /* The states and block addresses in locals: through the pointers, the
     * compiler must assume a store to a state may change a block address,
     * and it stores and reloads the state around every round, which puts a
     * store-to-load forward on the rounds' chain. */
    __m128i abef[MAX_LANES], cdgh[MAX_LANES];
    const unsigned char *block[MAX_LANES];
    int g, s;

    for (s = 0; s < n; s++) {
        save_abef[s] = abef[s] = state_abef[s];
        save_cdgh[s] = cdgh[s] = state_cdgh[s];
        block[s] = blocks_in[s];
    }
    /* Unrolled whole, so that the schedule's ring of four vectors a stream
     * stays in registers. */
    WJ_UNROLL(16)
    for (g = 0; g < 16; g++) {
        const __m128i k = _mm_loadu_si128((const __m128i *)(wj_sha256_k + 4 * g));
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
        state_abef[s] = _mm_add_epi32(abef[s], save_abef[s]);
        state_cdgh[s] = _mm_add_epi32(cdgh[s], save_cdgh[s]);
    }
}

/* The state of a new message, as {a,b,e,f} and {c,d,g,h} (words from the
 * high lane down, as sha256rnds2 takes them). */
static WJ_SHA void state_start(__m128i *abef, __m128i *cdgh)
{
    *abef = _mm_set_epi32((int)wj_sha256_h0[0], (int)wj_sha256_h0[1], (int)wj_sha256_h0[4], (int)wj_sha256_h0[5]);
    *cdgh = _mm_set_epi32((int)wj_sha256_h0[2], (int)wj_sha256_h0[3], (int)wj_sha256_h0[6], (int)wj_sha256_h0[7]);
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
            if (l->left)
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
    if (path == WJ_HASH_AVX512 && wj_cpu_has_avx512()) {
        wj_sha256_many_avx512(msg, len, NULL, n, out);
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

/* Messages from which on the 16 AVX-512 lanes take a batch; a smaller
 * one goes to the SHA-NI streams.  Fewer leave lanes hashing zeros: from
 * the full lanes' and the streams' rates (bench/RESULTS.md), the streams
 * are the faster below about 10 messages on a Xeon and 12 on Zen 5. */
#define AVX512_LEAST 16
/* Messages ordered and handed to the lanes at a time: about 16 a lane, so
 * that the last ones to finish leave little idle; the group's arrays
 * (about 57 bytes a message, the messages themselves are not copied) stay
 * on the stack. */
#define LANE_GROUP 256

/* Interleaved SHA-NI streams (wj_sha_ni_streams) where `path` allows them
 * and the processor has them, an odd one out through libcrypto, whose lone
 * stream is faster than the core's (bench/RESULTS.md); otherwise libcrypto
 * one at a time. */
static void sha_ni_streams(int path, const unsigned char *const *msg,
                           const size_t *len, size_t n, unsigned char *out)
{
#ifdef WJ_HAVE_SHA_PATH
    if (n > 1 && path >= WJ_HASH_SHA_NI && wj_cpu_has_sha()) {
        many_sha_ni(wj_sha_ni_streams(), msg, len, n & ~(size_t)1, out);
        if (n & 1)
            wj_sha256_bytes(msg[n - 1], len[n - 1], out + 32 * (n - 1));
        return;
    }
#endif
    (void)path;
    many_libcrypto(msg, len, n, out);
}

/* The 64-byte blocks a message takes, its padding (§5.1.1) included. */
static size_t blocks_of(size_t len)
{
    return len / 64 + tail_blocks(len);
}

/* What one 16-lane step costs in blocks of the SHA-NI streams: the lanes
 * hash 2.8 GB/s and two streams 1.7 on a Xeon (bench/RESULTS.md), 4.2 and
 * 3.1 with four streams on Zen 5. */
#define LANE_STEP_BLOCKS 10

/* A message's blocks and where it came from, for the exact order. */
typedef struct sized {
    size_t blocks, k;
} sized;

static int longer_first(const void *a, const void *b)
{
    size_t x = ((const sized *)a)->blocks, y = ((const sized *)b)->blocks;
    return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * A group with a message longer than a 16th of all its blocks: the lanes
 * would hash it alone after the others ran out, each of its blocks a whole
 * 16-lane step.  Taken longest first, the lanes' steps are about the
 * larger of the longest message left and a 16th of the blocks left; the
 * messages set aside cost a tenth of a step a block.  So the k longest go
 * to the SHA-NI streams, for the k that makes the sum least: one huge
 * message among small ones goes, many of similar length stay.  The others
 * go to the lanes in exact order, longest first.  Returns k; the arrays
 * hold the lanes' messages first, then those set aside.
 */
static size_t order_with_long(const unsigned char *const *msg,
                              const size_t *len, size_t n,
                              const unsigned char **m, size_t *l,
                              size_t *which, size_t rest)
{
    sized by[LANE_GROUP];
    size_t k, best = 0, aside = 0, cost, best_cost = (size_t)-1;
    for (k = 0; k < n; k++)
        by[k].blocks = blocks_of(len[k]), by[k].k = k;
    qsort(by, n, sizeof *by, longer_first);
    for (k = 0; k <= n; k++) {
        size_t longest = k < n ? by[k].blocks : 0;
        size_t steps = (rest + 15) / 16 > longest ? (rest + 15) / 16 : longest;
        cost = LANE_STEP_BLOCKS * steps + aside;
        if (cost < best_cost)
            best_cost = cost, best = k;
        if (k < n)
            rest -= by[k].blocks, aside += by[k].blocks;
    }
    for (k = 0; k < n; k++) { /* the lanes' from index 0, the aside after */
        size_t at = k < best ? n - best + k : k - best, from = by[k].k;
        m[at] = msg[from], l[at] = len[from], which[at] = from;
    }
    return best;
}

/*
 * The group's messages longest first, by the bit length of their block
 * count (a counting sort), into m, l and which: a lane that finishes takes
 * the next message, so the lanes run out nearly together (longest-
 * processing-time scheduling).  Returns 0, and orders nothing, when all
 * are of one class: the group's own order is then as good.
 */
static int order_by_class(const unsigned char *const *msg, const size_t *len,
                          size_t n, size_t longest, const unsigned char **m,
                          size_t *l, size_t *which)
{
    size_t start[34] = {0}, k, cls;
    for (k = 0; k < n; k++)
        start[33 - bit_length(len[k] / 64)]++;
    if (start[33 - bit_length(longest / 64)] == n)
        return 0;
    for (cls = 1; cls < 34; cls++) /* where each class starts */
        start[cls] += start[cls - 1];
    for (cls = 33; cls > 0; cls--)
        start[cls] = start[cls - 1];
    start[0] = 0;
    for (k = 0; k < n; k++) {
        size_t at = start[33 - bit_length(len[k] / 64)]++;
        m[at] = msg[k], l[at] = len[k], which[at] = k;
    }
    return 1;
}

/*
 * The group's messages into the 16 lanes: ordered by order_by_class, or by
 * order_with_long when one is longer than a 16th of all the lanes would
 * hash, the messages it sets aside going to the SHA-NI streams.
 */
static void many_lanes(int path, const unsigned char *const *msg,
                       const size_t *len, size_t n, unsigned char *out)
{
    const unsigned char *m[LANE_GROUP];
    size_t l[LANE_GROUP], which[LANE_GROUP], k;
    unsigned char md[32 * LANE_GROUP];
    size_t rest = 0, longest = 0, n_aside, n_lanes;

    for (k = 0; k < n; k++) {
        rest += blocks_of(len[k]);
        longest = len[k] > longest ? len[k] : longest;
    }
    if (16 * blocks_of(longest) <= rest) {
        if (order_by_class(msg, len, n, longest, m, l, which))
            wj_sha256_many_avx512(m, l, which, n, out);
        else
            wj_sha256_many_avx512(msg, len, NULL, n, out);
        return;
    }
    n_aside = order_with_long(msg, len, n, m, l, which, rest);
    n_lanes = n - n_aside;
    wj_sha256_many_avx512(m, l, which, n_lanes, out);
    sha_ni_streams(path, m + n_lanes, l + n_lanes, n_aside, md);
    for (k = 0; k < n_aside; k++)
        memcpy(out + 32 * which[n_lanes + k], md + 32 * k, 32);
}

void wj_sha256_many(const unsigned char *const *msg, const size_t *len,
                    size_t n, unsigned char *out)
{
    int path = wj_hash_path();
    if (path == WJ_HASH_AVX512 && n >= AVX512_LEAST) {
        size_t at, b;
        for (at = 0; at < n; at += b) {
            b = n - at < LANE_GROUP ? n - at : LANE_GROUP;
            many_lanes(path, msg + at, len + at, b, out + 32 * at);
        }
        return;
    }
    sha_ni_streams(path, msg, len, n, out);
}
