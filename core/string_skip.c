/* SPDX-License-Identifier: MIT */
/*
 * string_skip.c - the parser's way through a long string, 32 bytes at a
 * time (processors with AVX2) or 64 (with AVX-512 BW).
 *
 * Message texts are long strings full of `\n`, `\"` and non-ASCII text:
 * taken a stop at a time, each escape and each run of non-ASCII bytes costs
 * the parser a scan that ends where no predictor can guess.  Here a block
 * goes by whole when everything in it is checked at once:
 *
 *   - the escapes, by the escaped bytes' mask (simd.h): each must be one of
 *     " \ / b f n r t, or a \u whose four hex digits are in the block and
 *     whose first is below 'd' (a code unit below U+D000: no surrogate,
 *     nothing that sorts otherwise in UTF-16); any other stops the block
 *     for the parser;
 *   - UTF-8, by comparing each byte with the one, two and three before it
 *     (three 16-entry tables over nibbles, as in Keiser and Lemire,
 *     "Validating UTF-8 in less than one instruction per byte", 2021);
 *   - no control byte, and no closing quote.
 *
 * The parser's own loop (parse.c) takes over at the first thing a block
 * cannot pass; it never starts inside a UTF-8 sequence or right after a
 * backslash, so it finds every error exactly where it would have without
 * this file, at the first byte of what is wrong.
 */
#include "wj_internal.h"
#include "simd.h"
#include "utf8.h"
/* How far ahead of a block its string is asked into the cache.  Message
 * texts run over many pages, and the processor's own prefetcher stops at
 * each page's end: a large body's canonical rendering spent a sixth of its
 * time in this file's first load of each block (bench/RESULTS.md). */
#define STRING_PREFETCH 1024

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
#define SIMPLE 0x0F
#define REWRITTEN 0xF0
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

/* The class the two tables give byte b (SIMPLE and REWRITTEN bits), as
 * escape_letters computes it for 32 bytes: for the test that checks the
 * tables against the one escape policy (escape_policy.h). */
unsigned wj_escape_letter_class(unsigned char b)
{
    return escape_low_table[b & 0x0F] & escape_high_table[b >> 4];
}

/* Bit k set in *simple (*rewritten) when byte k of v is in the letter
 * class SIMPLE (REWRITTEN) of the tables above. */
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
        _mm256_and_si256(cls, _mm256_set1_epi8(SIMPLE)), zero));
    *rewritten = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
        _mm256_and_si256(cls, _mm256_set1_epi8((char)REWRITTEN)), zero));
}

/* Bit k set when byte k of v is in lo..hi (unsigned). */
WJ_AVX2 static inline uint32_t bytes_in_range(__m256i v, unsigned char lo,
                                              unsigned char hi)
{
    __m256i in = _mm256_and_si256(
        _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8((char)lo)), v),
        _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8((char)hi)), v));
    return (uint32_t)_mm256_movemask_epi8(in);
}

/* The \u escapes of a block that it checks whole (see the top): bit k set
 * when byte k is the escaped 'u' (escaped: the escaped bytes) of four hex
 * digits in the block, the first 0-9 or a-c in either case. */
WJ_AVX2 static inline uint32_t passing_u_escapes(__m256i v, uint32_t escaped)
{
    __m256i lower = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
    uint32_t u = escaped & (uint32_t)_mm256_movemask_epi8(
                               _mm256_cmpeq_epi8(v, _mm256_set1_epi8('u')));
    uint32_t digit, hex, low_hex;
    if (!u)
        return 0;
    digit = bytes_in_range(v, '0', '9');
    hex = digit | bytes_in_range(lower, 'a', 'f');
    low_hex = digit | bytes_in_range(lower, 'a', 'c');
    /* the digits at k+1..k+4, all within the block (k below 27) */
    return u & low_hex >> 1 & hex >> 2 & hex >> 3 & hex >> 4 & 0x07FFFFFFu;
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

/* Where the parser's loop takes over when the blocks passed s[from..i)
 * (where it left off, when they passed nothing): at the
 * backslash of an escape that s[i] or s[i - 1] is the escaped byte of (so
 * the loop sees what follows the escape: a combining mark after one is the
 * loop's to tell), or at the first byte of the UTF-8 sequence s[i - 1]
 * belongs to (which s[i] may go on, or which may end unfinished there), so
 * the loop checks that sequence whole. */
static size_t loop_start(const unsigned char *s, size_t from, size_t i,
                         uint32_t escaped, uint32_t last_escaped)
{
    size_t k = i;
    if (i == from)
        return i;
    if (escaped)
        return i - 1;
    if (last_escaped)
        return i - 2;
    while (k > i - 3 && (s[k - 1] & 0xC0) == 0x80)
        k--;
    return s[k - 1] >= 0xC0 ? k - 1 : k;
}

WJ_AVX2 size_t wj_string_skip_avx2(const unsigned char *s, size_t i,
                                   size_t len, uint8_t *flags)
{
    const size_t from = i;
    uint32_t carry = 0;      /* s[i] is escaped */
    uint32_t escaped = 0;    /* the escaped bytes of the block before */
    uint32_t high_tail = 0;  /* the block before ended with bytes >= 0x80 */
    uint8_t f = 0;

    while (len - i >= 32) {
        __m256i v = load32(s + i);
        __builtin_prefetch(s + i + STRING_PREFETCH);
        uint32_t quotes = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
        uint32_t backslashes = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')));
        uint32_t high = (uint32_t)_mm256_movemask_epi8(v);
        /* signed compare: below 0x20, or 0x80 and up */
        uint32_t controls = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(
                                _mm256_set1_epi8(0x20), v)) &
                            ~high;
        uint32_t first_escaped = carry;
        uint32_t e =
            backslashes | carry ? wj_escaped_bytes(backslashes, &carry) : 0;
        uint32_t stops = (quotes & ~e) | controls, rewritten = 0, take;
        if (e) {
            /* an escape other than the simple ones and the \u escapes the
             * block checks stops at its backslash; every \u may be written
             * otherwise */
            uint32_t simple, bad, u;
            escape_letters(v, &simple, &rewritten);
            u = passing_u_escapes(v, e & ~first_escaped);
            bad = e & ~simple & ~u;
            if (bad & first_escaped)
                return i - 1;
            stops |= bad >> 1;
            rewritten = (rewritten & e) | u;
        }
        if (high | high_tail) {
            __m256i errors = utf8_errors(s + i, v);
            if (!_mm256_testz_si256(errors, errors))
                return loop_start(s, from, i, first_escaped, escaped >> 31);
        }
        /* the bytes before the first stop go by; their flags count */
        take = stops ? ((uint32_t)1 << __builtin_ctz(stops)) - 1 : ~0u;
        if (backslashes & take)
            f |= WJ_STR_ESCAPED;
        if (rewritten & take)
            f |= WJ_STR_REWRITE;
        if (high & take) {
            if ((e << 1 | escaped >> 31) & take & wj_bytes_at_least(v, WJ_UTF8_MARK_LEAD))
                f |= WJ_STR_REWRITE;
            if (wj_bytes_at_least(v, WJ_UTF8_UTF16_ORDER_LEAD) & take)
                f |= WJ_STR_UTF16;
        }
        if (stops) {
            *flags |= f;
            return i + (size_t)__builtin_ctz(stops);
        }
        escaped = e;
        high_tail = high >> 29;
        i += 32;
    }
    *flags |= f;
    return loop_start(s, from, i, carry, escaped >> 31);
}


/* ------------------------------------------------- 64 bytes at a time */

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
    *simple = _mm512_test_epi8_mask(cls, _mm512_set1_epi8(SIMPLE));
    *rewritten = _mm512_test_epi8_mask(cls, _mm512_set1_epi8((char)REWRITTEN));
}

/* Bit k set when byte k of v is in lo..hi (unsigned). */
WJ_AVX512BW static inline uint64_t bytes_in_range64(__m512i v, unsigned char lo,
                                                    unsigned char hi)
{
    return _mm512_cmple_epu8_mask(
        _mm512_sub_epi8(v, _mm512_set1_epi8((char)lo)),
        _mm512_set1_epi8((char)(hi - lo)));
}

/* passing_u_escapes for 64 bytes (k below 59). */
WJ_AVX512BW static inline uint64_t passing_u_escapes64(__m512i v,
                                                       uint64_t escaped)
{
    __m512i lower = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
    uint64_t u = escaped & _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('u'));
    uint64_t digit, hex, low_hex;
    if (!u)
        return 0;
    digit = bytes_in_range64(v, '0', '9');
    hex = digit | bytes_in_range64(lower, 'a', 'f');
    low_hex = digit | bytes_in_range64(lower, 'a', 'c');
    return u & low_hex >> 1 & hex >> 2 & hex >> 3 & hex >> 4 &
           0x07FFFFFFFFFFFFFFu;
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

/*
 * wj_string_skip_avx2's loop, 64 bytes a block, and the last bytes too:
 * the block past them reads as zeros, which are controls, so it stops
 * there at the latest; an escape or a UTF-8 sequence that the zeros cut
 * short fails its check and stops where it begins, for the parser's loop.
 */
WJ_AVX512BW size_t wj_string_skip_avx512(const unsigned char *s, size_t i,
                                         size_t len, uint8_t *flags)
{
    const size_t from = i;
    uint64_t carry = 0;     /* s[i] is escaped */
    uint64_t escaped = 0;   /* the escaped bytes of the block before */
    uint64_t high_tail = 0; /* the block before ended with bytes >= 0x80 */
    uint8_t f = 0;

    while (i < len) {
        size_t n = len - i;
        __m512i v = _mm512_maskz_loadu_epi8(first_bits(n), s + i);
        __builtin_prefetch(s + i + STRING_PREFETCH);
        uint64_t quotes = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
        uint64_t backslashes =
            _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
        uint64_t high = _mm512_movepi8_mask(v);
        uint64_t controls = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
        uint64_t first_escaped = carry;
        uint64_t e = backslashes | carry
                         ? wj_escaped_bytes64(backslashes, &carry)
                         : 0;
        uint64_t stops = (quotes & ~e) | controls, rewritten = 0, take;
        if (e) {
            uint64_t simple, bad, u;
            escape_letters64(v, &simple, &rewritten);
            u = passing_u_escapes64(v, e & ~first_escaped);
            bad = e & ~simple & ~u;
            if (bad & first_escaped)
                return i - 1;
            stops |= bad >> 1;
            rewritten = (rewritten & e) | u;
        }
        if ((high | high_tail) && utf8_errors64(s + i, n, v))
            return loop_start(s, from, i, first_escaped != 0,
                              (uint32_t)(escaped >> 63));
        /* the bytes before the first stop go by; their flags count */
        take = stops ? ((uint64_t)1 << __builtin_ctzll(stops)) - 1 : ~0ull;
        if (backslashes & take)
            f |= WJ_STR_ESCAPED;
        if (rewritten & take)
            f |= WJ_STR_REWRITE;
        if (high & take) {
            uint64_t after_escape = e << 1 | escaped >> 63;
            if (after_escape & take &
                _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(
                                              (char)WJ_UTF8_MARK_LEAD)))
                f |= WJ_STR_REWRITE;
            if (_mm512_cmpge_epu8_mask(
                    v, _mm512_set1_epi8((char)WJ_UTF8_UTF16_ORDER_LEAD)) &
                take)
                f |= WJ_STR_UTF16;
        }
        if (stops) {
            *flags |= f;
            return i + (size_t)__builtin_ctzll(stops);
        }
        escaped = e;
        high_tail = high >> 61;
        i += 64;
    }
    *flags |= f;
    return loop_start(s, from, i, carry != 0, (uint32_t)(escaped >> 63));
}

#endif
