/* SPDX-License-Identifier: MIT */
/*
 * string_checks.h - what a string's bytes must be, 32 bytes at a time
 * (AVX2) or 64 (AVX-512 BW): UTF-8, by comparing each byte with the one,
 * two and three before it (three 16-entry tables over nibbles, as in
 * Keiser and Lemire, "Validating UTF-8 in less than one instruction per
 * byte", 2021), and the letters an escape may have after its backslash.
 * For the parser's string skip (string_skip.c) and the canonical string
 * written as it is checked (escape.c).
 */
#ifndef WJ_STRING_CHECKS_H
#define WJ_STRING_CHECKS_H

#include "simd.h"

#if WJ_HAVE_AVX2_PATH

/* Error classes of a pair of bytes (the byte before, this byte). */
enum {
    TOO_SHORT = 0x01,  /* a lead byte, then no continuation byte */
    TOO_LONG = 0x02,   /* an ASCII byte, then a continuation byte */
    OVERLONG_3 = 0x04, /* E0, then 80-9F */
    TOO_LARGE = 0x08,  /* F4 and up, then 90-BF */
    SURROGATE = 0x10,  /* ED, then A0-BF */
    OVERLONG_2 = 0x20, /* C0 or C1, then a continuation byte */
    F0_OR_F5 = 0x40,   /* F0, then 80-8F (overlong); F5 and up, then 80-8F */
    TWO_CONTS = 0x80   /* two continuation bytes: right only as the third
                          or fourth byte of a sequence */
};
#define ANY_LOW (TOO_SHORT | TOO_LONG | TWO_CONTS)

/* The high nibble of the byte before: which classes it can start. */
#define BEFORE_HIGH                                                            \
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,      \
        TOO_LONG, TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,                  \
        TOO_SHORT | OVERLONG_2, TOO_SHORT,                                     \
        TOO_SHORT | OVERLONG_3 | SURROGATE,                                    \
        TOO_SHORT | TOO_LARGE | F0_OR_F5
/* Its low nibble: which of those it can be (C0 C1, E0, ED, F0, F4, F5...). */
#define BEFORE_LOW                                                             \
    ANY_LOW | OVERLONG_2 | OVERLONG_3 | F0_OR_F5, ANY_LOW | OVERLONG_2,        \
        ANY_LOW, ANY_LOW, ANY_LOW | TOO_LARGE,                                 \
        ANY_LOW | TOO_LARGE | F0_OR_F5, ANY_LOW | TOO_LARGE | F0_OR_F5,        \
        ANY_LOW | TOO_LARGE | F0_OR_F5, ANY_LOW | TOO_LARGE | F0_OR_F5,        \
        ANY_LOW | TOO_LARGE | F0_OR_F5, ANY_LOW | TOO_LARGE | F0_OR_F5,        \
        ANY_LOW | TOO_LARGE | F0_OR_F5, ANY_LOW | TOO_LARGE | F0_OR_F5,        \
        ANY_LOW | TOO_LARGE | F0_OR_F5 | SURROGATE,                            \
        ANY_LOW | TOO_LARGE | F0_OR_F5, ANY_LOW | TOO_LARGE | F0_OR_F5
/* The high nibble of this byte: which classes it completes. */
#define CONTINUES (TOO_LONG | TWO_CONTS | OVERLONG_2)
#define THIS_HIGH                                                              \
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,          \
        TOO_SHORT, TOO_SHORT, CONTINUES | OVERLONG_3 | F0_OR_F5,               \
        CONTINUES | OVERLONG_3 | TOO_LARGE, CONTINUES | SURROGATE | TOO_LARGE, \
        CONTINUES | SURROGATE | TOO_LARGE, TOO_SHORT, TOO_SHORT, TOO_SHORT,    \
        TOO_SHORT

/* Each table twice over, for the two lanes of a 32-byte shuffle. */
static const unsigned char before_high_table[32] = {BEFORE_HIGH, BEFORE_HIGH};
static const unsigned char before_low_table[32] = {BEFORE_LOW, BEFORE_LOW};
static const unsigned char this_high_table[32] = {THIS_HIGH, THIS_HIGH};

WJ_AVX2 static inline __m256i load32(const void *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

/*
 * The letters a simple escape may have after its backslash (parse.c's
 * simple_escape and rewritten_escape, for 32 bytes at once), by nibbles
 * (a letter's bits are in the entries of both its nibbles): bits 0-3 for
 * all of " \ / b f n r t, one per high nibble 2, 5, 6, 7; bits 4 and 6
 * for / b f, which the wire rendering writes otherwise (WJ_STR_REWRITE).
 */
#define LETTER_SIMPLE 0x0F
#define LETTER_REWRITTEN 0xF0
static const unsigned char escape_low_table[32] = {
    [0x2] = 0x01 | 0x04 | 0x08 | 0x40, /* " b r */
    [0x4] = 0x08,                      /* t */
    [0x6] = 0x04 | 0x40,               /* f */
    [0xC] = 0x02,                      /* \ */
    [0xE] = 0x04,                      /* n */
    [0xF] = 0x01 | 0x10,               /* / */
    [0x12] = 0x01 | 0x04 | 0x08 | 0x40,
    [0x14] = 0x08,
    [0x16] = 0x04 | 0x40,
    [0x1C] = 0x02,
    [0x1E] = 0x04,
    [0x1F] = 0x01 | 0x10,
};
static const unsigned char escape_high_table[32] = {
    [0x2] = 0x01 | 0x10, [0x5] = 0x02, [0x6] = 0x04 | 0x40, [0x7] = 0x08,
    [0x12] = 0x01 | 0x10, [0x15] = 0x02, [0x16] = 0x04 | 0x40, [0x17] = 0x08,
};

/* Bit k set in *simple (*rewritten) when byte k of v is in the letter
 * class LETTER_SIMPLE (LETTER_REWRITTEN) of the tables above. */
WJ_AVX2 static inline void escape_letters(__m256i v, uint32_t *simple,
                                          uint32_t *rewritten)
{
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i zero = _mm256_setzero_si256();
    __m256i cls = _mm256_and_si256(
        _mm256_shuffle_epi8(load32(escape_low_table),
                            _mm256_and_si256(v, nibble)),
        _mm256_shuffle_epi8(load32(escape_high_table),
                            _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
    *simple = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
        _mm256_and_si256(cls, _mm256_set1_epi8(LETTER_SIMPLE)), zero));
    *rewritten = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
        _mm256_and_si256(cls, _mm256_set1_epi8((char)LETTER_REWRITTEN)), zero));
}

/* Nonzero bytes where the 32 bytes at s (s[-3] readable) are not UTF-8
 * given the three before them.  A pair's class is in all three tables; a
 * continuation after a continuation must be a sequence's third or fourth
 * byte (a lead of three bytes or more two back, of four three back). */
WJ_AVX2 static inline __m256i utf8_errors(const unsigned char *s, __m256i v)
{
    const __m256i before_high = load32(before_high_table);
    const __m256i before_low = load32(before_low_table);
    const __m256i this_high = load32(this_high_table);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i prev1 = load32(s - 1), prev2 = load32(s - 2), prev3 = load32(s - 3);
    __m256i pairs = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(before_high, _mm256_and_si256(
                                                 _mm256_srli_epi16(prev1, 4),
                                                 nibble)),
            _mm256_shuffle_epi8(before_low, _mm256_and_si256(prev1, nibble))),
        _mm256_shuffle_epi8(this_high,
                            _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
    /* 0x80 set where two back is E0 or more, or three back F0 or more */
    __m256i third_or_fourth = _mm256_and_si256(
        _mm256_or_si256(_mm256_subs_epu8(prev2, _mm256_set1_epi8(0x60)),
                        _mm256_subs_epu8(prev3, _mm256_set1_epi8(0x70))),
        _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(pairs, third_or_fourth);
}

/* A 16-byte table (the first half of one above) in each of the four
 * lanes of a 64-byte shuffle. */
WJ_AVX512BW static inline __m512i table64(const unsigned char *table)
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)table));
}

WJ_AVX512BW static inline __m512i nibbles(__m512i v, int high)
{
    return _mm512_and_si512(high ? _mm512_srli_epi16(v, 4) : v,
                            _mm512_set1_epi8(0x0F));
}

/* escape_letters for 64 bytes. */
WJ_AVX512BW static inline void escape_letters64(__m512i v, uint64_t *simple,
                                                uint64_t *rewritten)
{
    __m512i cls = _mm512_and_si512(
        _mm512_shuffle_epi8(table64(escape_low_table), nibbles(v, 0)),
        _mm512_shuffle_epi8(table64(escape_high_table), nibbles(v, 1)));
    *simple = _mm512_test_epi8_mask(cls, _mm512_set1_epi8(LETTER_SIMPLE));
    *rewritten =
        _mm512_test_epi8_mask(cls, _mm512_set1_epi8((char)LETTER_REWRITTEN));
}

/* The first n bits (all 64 from 64 on). */
static inline uint64_t first_bits(size_t n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* utf8_errors for the 64 bytes at s, of which the first n are there (the
 * rest read as zeros, never touched): nonzero bits where they are not
 * UTF-8 given the three before them. */
WJ_AVX512BW static inline uint64_t utf8_errors64(const unsigned char *s,
                                                 size_t n, __m512i v)
{
    __m512i prev1 = _mm512_maskz_loadu_epi8(first_bits(n + 1), s - 1);
    __m512i prev2 = _mm512_maskz_loadu_epi8(first_bits(n + 2), s - 2);
    __m512i prev3 = _mm512_maskz_loadu_epi8(first_bits(n + 3), s - 3);
    __m512i pairs = _mm512_ternarylogic_epi32(
        _mm512_shuffle_epi8(table64(before_high_table), nibbles(prev1, 1)),
        _mm512_shuffle_epi8(table64(before_low_table), nibbles(prev1, 0)),
        _mm512_shuffle_epi8(table64(this_high_table), nibbles(v, 1)),
        0x80); /* a & b & c */
    /* 0x80 where two back is E0 or more, or three back F0 or more */
    __m512i third_or_fourth = _mm512_and_si512(
        _mm512_or_si512(_mm512_subs_epu8(prev2, _mm512_set1_epi8(0x60)),
                        _mm512_subs_epu8(prev3, _mm512_set1_epi8(0x70))),
        _mm512_set1_epi8((char)0x80));
    __m512i errors = _mm512_xor_si512(pairs, third_or_fourth);
    return _mm512_test_epi8_mask(errors, errors);
}

#endif /* WJ_HAVE_AVX2_PATH */
#endif /* WJ_STRING_CHECKS_H */
