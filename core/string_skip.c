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
 *     (string_checks.h);
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
#include "string_checks.h"

/* How far ahead of a block its string is asked into the cache.  Message
 * texts run over many pages, and the processor's own prefetcher stops at
 * each page's end: a large body's canonical rendering spent a sixth of its
 * time in this file's first load of each block (bench/RESULTS.md). */
#define STRING_PREFETCH 1024

#if WJ_HAVE_AVX2_PATH

/* The class the two tables of string_checks.h give byte b (LETTER_SIMPLE
 * and LETTER_REWRITTEN bits), as escape_letters computes it for 32 bytes:
 * for the test that checks the tables against the one escape policy
 * (escape_policy.h). */
unsigned wj_escape_letter_class(unsigned char b)
{
    return escape_low_table[b & 0x0F] & escape_high_table[b >> 4];
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
