/* SPDX-License-Identifier: MIT */
/*
 * sha256_avx512.c - SHA-256 of many messages in 16 AVX-512 lanes.
 *
 * Each 32-bit lane of a 512-bit vector is one message: the eight working
 * variables a..h and the sixteen message-schedule words are one vector
 * each, and every round of FIPS 180-4 §6.2.2 runs for the 16 messages at
 * once (rotations with vprord, Ch, Maj and the three-way XORs of the
 * sigma functions with vpternlogd); the lanes' blocks are loaded whole and
 * transposed, not gathered word by word (gathers are slow on processors
 * with the Downfall mitigation).  A lane whose message ends hands its
 * digest out and takes the next message; lanes with nothing left hash a
 * block of zeros whose result is dropped.  Between blocks the state lives
 * in memory, one row of 16 words a variable, so that a lane is read with
 * plain loads; a lane that starts a message gets the initial hash value by
 * a mask in the block's first loads.
 */
#include "sha256_lanes.h"
#include "sha256_multi.h"
#include "simd.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define LANES 16
#define WJ_AVX512_INLINE WJ_AVX512BW __attribute__((always_inline)) inline

/* vpternlogd truth tables (a, b, c the three operands in order). */
#define XOR3 0x96 /* a ^ b ^ c */
#define CH 0xCA   /* a ? b : c */
#define MAJ 0xE8  /* at least two of a, b, c */

#define ROR(x, n) _mm512_ror_epi32((x), (n))
#define TERN(a, b, c, imm) _mm512_ternarylogic_epi32((a), (b), (c), (imm))

/* The round constants (FIPS 180-4 §4.2.2), each in all 16 lanes, so that
 * the add takes one as its memory operand. */
#define X16(k) {k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k}
static const _Alignas(64) uint32_t k16[64][LANES] = {
    X16(0x428a2f98), X16(0x71374491), X16(0xb5c0fbcf), X16(0xe9b5dba5),
    X16(0x3956c25b), X16(0x59f111f1), X16(0x923f82a4), X16(0xab1c5ed5),
    X16(0xd807aa98), X16(0x12835b01), X16(0x243185be), X16(0x550c7dc3),
    X16(0x72be5d74), X16(0x80deb1fe), X16(0x9bdc06a7), X16(0xc19bf174),
    X16(0xe49b69c1), X16(0xefbe4786), X16(0x0fc19dc6), X16(0x240ca1cc),
    X16(0x2de92c6f), X16(0x4a7484aa), X16(0x5cb0a9dc), X16(0x76f988da),
    X16(0x983e5152), X16(0xa831c66d), X16(0xb00327c8), X16(0xbf597fc7),
    X16(0xc6e00bf3), X16(0xd5a79147), X16(0x06ca6351), X16(0x14292967),
    X16(0x27b70a85), X16(0x2e1b2138), X16(0x4d2c6dfc), X16(0x53380d13),
    X16(0x650a7354), X16(0x766a0abb), X16(0x81c2c92e), X16(0x92722c85),
    X16(0xa2bfe8a1), X16(0xa81a664b), X16(0xc24b8b70), X16(0xc76c51a3),
    X16(0xd192e819), X16(0xd6990624), X16(0xf40e3585), X16(0x106aa070),
    X16(0x19a4c116), X16(0x1e376c08), X16(0x2748774c), X16(0x34b0bcb5),
    X16(0x391c0cb3), X16(0x4ed8aa4a), X16(0x5b9cca4f), X16(0x682e6ff3),
    X16(0x748f82ee), X16(0x78a5636f), X16(0x84c87814), X16(0x8cc70208),
    X16(0x90befffa), X16(0xa4506ceb), X16(0xbef9a3f7), X16(0xc67178f2),
};
#undef X16

/*
 * The 16 blocks as 16 vectors of one word each: w[c] lane l = word c of
 * block l, byte-swapped (SHA-256's words are big-endian).  A 16 x 16
 * transpose: pairs of rows interleaved by words, then by pairs of words,
 * so that u[4i + m] holds, in its 128-bit part j, word 4j + m of blocks
 * 4i..4i+3; then the 128-bit parts are gathered across u[m], u[4 + m],
 * u[8 + m], u[12 + m].
 */
static WJ_AVX512_INLINE void transpose(const unsigned char *const *block,
                                        __m512i w[16])
{
    const __m512i bswap = _mm512_broadcast_i32x4(
        _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
    __m512i r[16], t[16], u[16];
    int i, m;

    for (i = 0; i < 16; i++)
        r[i] = _mm512_shuffle_epi8(_mm512_loadu_si512(block[i]), bswap);
    for (i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    for (i = 0; i < 4; i++) {
        u[4 * i] = _mm512_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 1] = _mm512_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 2] = _mm512_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
        u[4 * i + 3] = _mm512_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
    }
    for (m = 0; m < 4; m++) {
        __m512i v0 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0x44);
        __m512i v1 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0xEE);
        __m512i v2 = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0x44);
        __m512i v3 = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0xEE);
        w[m] = _mm512_shuffle_i32x4(v0, v2, 0x88);
        w[4 + m] = _mm512_shuffle_i32x4(v0, v2, 0xDD);
        w[8 + m] = _mm512_shuffle_i32x4(v1, v3, 0x88);
        w[12 + m] = _mm512_shuffle_i32x4(v1, v3, 0xDD);
    }
}

/* The lanes in fresh start a message: their state the initial hash value
 * (FIPS 180-4 §5.3.3), a row at a time. */
static WJ_AVX512BW void state_start(uint32_t state[8][LANES], __mmask16 fresh)
{
    int v;
    for (v = 0; v < 8; v++)
        _mm512_storeu_si512(
            state[v],
            _mm512_mask_blend_epi32(fresh, _mm512_loadu_si512(state[v]),
                                    _mm512_set1_epi32((int)wj_sha256_h0[v])));
}

/* One block of each lane: state[v][lane] the working variable v, block[l]
 * lane l's 64 bytes. */
static WJ_AVX512BW void blocks16(uint32_t state[8][LANES],
                                 const unsigned char *const *block)
{
    __m512i w[16], a, b, c, d, e, f, g, h;
    int t;

    transpose(block, w);
    /* The state is read again at the end rather than kept: the schedule's
     * sixteen vectors and the eight variables already fill most of the 32
     * registers. */
    a = _mm512_loadu_si512(state[0]), b = _mm512_loadu_si512(state[1]);
    c = _mm512_loadu_si512(state[2]), d = _mm512_loadu_si512(state[3]);
    e = _mm512_loadu_si512(state[4]), f = _mm512_loadu_si512(state[5]);
    g = _mm512_loadu_si512(state[6]), h = _mm512_loadu_si512(state[7]);
    WJ_UNROLL(64)
    for (t = 0; t < 64; t++) {
        __m512i wt, t1, t2;
        if (t < 16)
            wt = w[t];
        else {
            __m512i w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
            __m512i s0 = TERN(ROR(w15, 7), ROR(w15, 18),
                              _mm512_srli_epi32(w15, 3), XOR3);
            __m512i s1 = TERN(ROR(w2, 17), ROR(w2, 19),
                              _mm512_srli_epi32(w2, 10), XOR3);
            wt = _mm512_add_epi32(_mm512_add_epi32(w[t & 15], s0),
                                  _mm512_add_epi32(w[(t - 7) & 15], s1));
            w[t & 15] = wt;
        }
        t1 = _mm512_add_epi32(
            _mm512_add_epi32(h, TERN(ROR(e, 6), ROR(e, 11), ROR(e, 25), XOR3)),
            _mm512_add_epi32(
                TERN(e, f, g, CH),
                _mm512_add_epi32(wt, _mm512_load_si512(k16[t]))));
        t2 = _mm512_add_epi32(TERN(ROR(a, 2), ROR(a, 13), ROR(a, 22), XOR3),
                              TERN(a, b, c, MAJ));
        h = g, g = f, f = e;
        e = _mm512_add_epi32(d, t1);
        d = c, c = b, b = a;
        a = _mm512_add_epi32(t1, t2);
    }
#define ADD_BACK(v, x)                                                         \
    _mm512_storeu_si512(state[v],                                              \
                        _mm512_add_epi32(_mm512_loadu_si512(state[v]), x))
    ADD_BACK(0, a), ADD_BACK(1, b), ADD_BACK(2, c), ADD_BACK(3, d);
    ADD_BACK(4, e), ADD_BACK(5, f), ADD_BACK(6, g), ADD_BACK(7, h);
#undef ADD_BACK
}

/* Asks the cache line `bytes` past p into the cache: a hint, which may
 * point past the end of p's message (the address is formed as an integer,
 * not a pointer into it) and reads nothing from it. */
static inline void ask_cache(const unsigned char *p, size_t bytes)
{
    __builtin_prefetch((const void *)((uintptr_t)p + bytes));
}

/* A message's padded tail (FIPS 180-4 §5.1.1) into tail, one block or two:
 * its last partial block, at src, by a masked load (which reads no byte
 * past the message), 0x80, zeros and the bit length, big-endian. */
static WJ_AVX512_INLINE void put_tail(unsigned char *tail,
                                      const unsigned char *src, size_t len)
{
    size_t rest = len % 64;
    long long bits = (long long)__builtin_bswap64((uint64_t)len * 8);
    __m512i b = _mm512_maskz_loadu_epi8(((__mmask64)1 << rest) - 1, src);
    b = _mm512_mask_mov_epi8(b, (__mmask64)1 << rest,
                             _mm512_set1_epi8((char)0x80));
    if (tail_blocks(len) == 1) {
        _mm512_store_si512(tail, _mm512_mask_set1_epi64(b, 0x80, bits));
        return;
    }
    _mm512_store_si512(tail, b);
    _mm512_store_si512(tail + 64, _mm512_maskz_set1_epi64(0x80, bits));
}

/*
 * The lanes' bookkeeping: block[l], the block lane l hashes next, and
 * last[l], where its current run of blocks ends: the end of the message's
 * whole blocks, then the end of its padded tail (in_tail).  A step moves
 * every busy lane's block on by 64 and compares it with last, two vector
 * operations of 8 pointers each; only the lanes that reach last are
 * visited, to build their tail or, at the tail's end, to hand their digest
 * out and take the next message.  Lanes left without one at the end of the
 * batch (not busy) stay on a block of zeros, whose result is dropped.
 */
void WJ_AVX512BW wj_sha256_many_avx512(const unsigned char *const *msg,
                                       const size_t *len, const size_t *slot,
                                       size_t n, unsigned char *out)
{
    static const unsigned char zeros[64];
    _Alignas(64) unsigned char tail[LANES][128];
    _Alignas(64) const unsigned char *block[LANES];
    _Alignas(64) const unsigned char *last[LANES];
    size_t len_of[LANES], which[LANES];
    uint32_t state[8][LANES] = {{0}}; /* idle lanes' rows are read too */
    /* At the start every lane is at the end of a tail with no message; the
     * first 16 messages are taken before any is asked into the cache. */
    unsigned busy = 0, in_tail = 0xFFFF, hit = 0xFFFF;
    size_t taken = 0, ahead = LANES;
    const __m512i step = _mm512_set1_epi64(64);
    int l, v;

    for (l = 0; l < LANES; l++)
        block[l] = last[l] = zeros;
    for (;;) {
        unsigned fresh = 0;
        __m512i lo, hi;
        for (; hit; hit &= hit - 1) {
            const unsigned char *src;
            unsigned bit;
            l = __builtin_ctz(hit), bit = 1u << l;
            if (in_tail & bit) {
                if (busy & bit) {
                    uint32_t st[8];
                    for (v = 0; v < 8; v++)
                        st[v] = state[v][l];
                    put_digest(st, out + 32 * which[l]);
                }
                if (taken == n) {
                    busy &= ~bit;
                    block[l] = zeros;
                    continue;
                }
                busy |= bit, fresh |= bit, in_tail &= ~bit;
                src = msg[taken], len_of[l] = len[taken];
                which[l] = slot ? slot[taken] : taken;
                taken++;
                if (len_of[l] >= 64) {
                    block[l] = src, last[l] = src + len_of[l] / 64 * 64;
                    continue;
                }
            } else
                src = block[l];
            put_tail(tail[l], src, len_of[l]);
            block[l] = tail[l];
            last[l] = tail[l] + 64 * tail_blocks(len_of[l]);
            in_tail |= bit;
            /* The lanes end their messages in the order (give or take a
             * step) they enter their tails: the message a lane will take
             * is asked into the cache now, a step or two ahead, since a
             * lane's first block is the one no prefetcher sees coming. */
            if (ahead < n) {
                ask_cache(msg[ahead], 0);
                ask_cache(msg[ahead], 64);
            }
            ahead++;
        }
        if (!busy)
            return;
        if (fresh)
            state_start(state, (__mmask16)fresh);
        blocks16(state, block);
        lo = _mm512_mask_add_epi64(_mm512_load_si512(block), (__mmask8)busy,
                                   _mm512_load_si512(block), step);
        hi = _mm512_mask_add_epi64(_mm512_load_si512(block + 8),
                                   (__mmask8)(busy >> 8),
                                   _mm512_load_si512(block + 8), step);
        _mm512_store_si512(block, lo);
        _mm512_store_si512(block + 8, hi);
        /* 16 streams are more than the hardware prefetcher follows well:
         * each lane's block after next is asked for now. */
        for (l = 0; l < LANES; l++)
            ask_cache(block[l], 128);
        hit = _mm512_mask_cmpeq_epi64_mask((__mmask8)busy, lo,
                                           _mm512_load_si512(last)) |
              (unsigned)_mm512_mask_cmpeq_epi64_mask(
                  (__mmask8)(busy >> 8), hi, _mm512_load_si512(last + 8))
                  << 8;
    }
}

#else
void wj_sha256_many_avx512(const unsigned char *const *msg, const size_t *len,
                           const size_t *slot, size_t n, unsigned char *out)
{
    (void)msg, (void)len, (void)slot, (void)n, (void)out;
}
#endif
