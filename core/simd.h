/* SPDX-License-Identifier: MIT */
/*
 * simd.h - the AVX2 pieces the string scanners share: the escaped bytes
 * of a block and the bytes at or above a UTF-8 lead (the parser's
 * string_skip.c and the writers' escape.c), and the parser's entry to
 * string_skip.c.
 *
 * Internal to libwirejson.  Every function here is compiled for AVX2 (the
 * one named so, AVX-512); call it only where wj_simd() (cpu.c) chose
 * WJ_SIMD_AVX2 or above (WJ_SIMD_AVX512).
 */
#ifndef WJ_SIMD_H
#define WJ_SIMD_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WJ_HAVE_AVX2_PATH 1
#define WJ_AVX2 __attribute__((target("avx2")))
#define WJ_AVX512BW __attribute__((target("avx512f,avx512bw")))

/*
 * The bytes of a 64-byte block that a backslash escapes, given the
 * backslashes in it; *carry says whether its first byte is escaped (a
 * backslash ended the block before) and is set for the next block.  A run
 * of backslashes escapes every other byte from its start: adding the runs
 * that start on odd bits to the backslashes carries through each run, which
 * tells the runs of odd length from the even ones without a loop.
 */
static inline uint64_t wj_escaped_bytes64(uint64_t backslash, uint64_t *carry)
{
    const uint64_t even = 0x5555555555555555u;
    uint64_t follows, odd_starts, sum;
    backslash &= ~*carry; /* an escaped backslash escapes nothing */
    follows = backslash << 1 | *carry;
    odd_starts = backslash & ~even & ~follows;
    sum = odd_starts + backslash;
    *carry = sum < backslash; /* the last run reaches the next block */
    return (even ^ sum << 1) & follows;
}

/* The same for a 32-byte block: the 64-bit rule, whose bit 32 says
 * whether the next block's first byte is escaped. */
static inline uint32_t wj_escaped_bytes(uint32_t backslash, uint32_t *carry)
{
    uint64_t c = *carry, e = wj_escaped_bytes64(backslash, &c);
    *carry = (uint32_t)(e >> 32);
    return (uint32_t)e;
}

/* Bit k set when byte k of v is at least `least` (unsigned): a UTF-8
 * lead byte from which on a character may be a combining mark or sort
 * differently in UTF-16 (utf8.h). */
WJ_AVX2 static inline uint32_t wj_bytes_at_least(__m256i v, unsigned char least)
{
    __m256i floor = _mm256_set1_epi8((char)least);
    return (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_max_epu8(v, floor), v));
}

/*
 * The parser's way through the string body from s[i] (string_skip.c): i
 * at least 3 and past the opening quote, at a byte the parser's loop may
 * start at.  Passes 32-byte blocks of text, valid UTF-8 and simple escapes
 * (ORing the string flags of what it passed into *flags) and returns where
 * the parser's loop goes on: at the first closing quote, \u escape or error
 * of the blocks, or where a UTF-8 sequence or an escape that the last
 * blocks left unfinished begins.
 */
size_t wj_string_skip_avx2(const unsigned char *s, size_t i, size_t len,
                           uint8_t *flags);

/* The same, 64-byte blocks at a time: for processors with AVX-512 BW
 * (where wj_simd() chose WJ_SIMD_AVX512). */
size_t wj_string_skip_avx512(const unsigned char *s, size_t i, size_t len,
                             uint8_t *flags);

/* The escape-letter class string_skip.c's nibble tables give byte b: 0x0F
 * bits for a short escape's letter, 0xF0 bits for one the wire rendering
 * writes otherwise. */
unsigned wj_escape_letter_class(unsigned char b);
#endif

#endif /* WJ_SIMD_H */
