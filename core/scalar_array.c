/* SPDX-License-Identifier: MIT */
/*
 * scalar_array.c - an array of numbers and literals only (a vector of
 * integers, an embedding, a token's bytes), written whole.
 *
 * Its text holds nothing but its lexemes, commas and whitespace, and every
 * rendering writes such an array as its lexemes with commas: so the text
 * with its whitespace taken out is the wire rendering, and the canonical
 * one too when each number is already written as RFC 8785 writes its
 * double.  One copy of the bytes instead of a step of the walk per element.
 */
#include "wj_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The whitespace of JSON, and nothing else an array of scalars holds, is
 * at or below ' '. */
static inline int is_space_byte(unsigned char c)
{
    return c <= ' ';
}

/* Copies text[from..to) to out + o without its whitespace, with no branch
 * on the bytes; returns the new o. */
static inline size_t drop_space(char *out, size_t o, const char *text,
                                size_t from, size_t to)
{
    size_t k;
    for (k = from; k < to; k++) {
        out[o] = text[k];
        o += !is_space_byte((unsigned char)text[k]);
    }
    return o;
}

size_t wj_copy_without_space(char *out, const char *text, size_t n)
{
    size_t i = 0, o = 0;
#if defined(__SSE2__)
    const __m128i above_space = _mm_set1_epi8(' ' + 1);
    for (; n - i >= WJ_BLOCK16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
        /* signed: the text holds no byte >= 0x80 */
        if (_mm_movemask_epi8(_mm_cmplt_epi8(v, above_space))) {
            o = drop_space(out, o, text, i, i + 16);
        } else {
            _mm_storeu_si128((__m128i *)(void *)(out + o), v);
            o += 16;
        }
    }
#endif
    return drop_space(out, o, text, i, n);
}

/* The bytes of a 16-byte block that the canonical check looks at, one bit
 * each. */
typedef struct block_masks {
    unsigned digits;
    unsigned minus;    /* '-' */
    unsigned zero;     /* '0' */
    unsigned lower_e;  /* 'e': an exponent after a digit, else in a literal */
    unsigned fraction; /* '.', 'E': a number that is not an integer */
} block_masks;

static void block_masks_of(const unsigned char *b, block_masks *m)
{
    int k;
#if defined(__SSE2__)
    if (WJ_BLOCK16 == 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)b);
#define BYTES_EQUAL(c)                                                         \
    (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)))
    /* signed compares: the text holds no byte >= 0x80 */
    m->digits = (unsigned)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                      _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1))));
    m->minus = BYTES_EQUAL('-');
    m->zero = BYTES_EQUAL('0');
    m->lower_e = BYTES_EQUAL('e');
    m->fraction = BYTES_EQUAL('.') | BYTES_EQUAL('E');
#undef BYTES_EQUAL
    return;
    }
#endif
    memset(m, 0, sizeof *m);
    for (k = 0; k < 16; k++) {
        unsigned bit = 1u << k;
        m->digits |= wj_is_digit(b[k]) ? bit : 0;
        m->minus |= b[k] == '-' ? bit : 0;
        m->zero |= b[k] == '0' ? bit : 0;
        m->lower_e |= b[k] == 'e' ? bit : 0;
        m->fraction |= b[k] == '.' || b[k] == 'E' ? bit : 0;
    }
}

/* The most digits an integer may have and still be written as it is: any
 * two of at most 15 digits are different doubles (DBL_DIG), and the
 * shortest decimal of such a double is the integer itself. */
#define MAX_PLAIN_DIGITS 15

int wj_scalar_array_is_canonical(const char *text, size_t n)
{
    unsigned char tail[16];
    unsigned after_digit = 0, after_minus = 0; /* the block before's last */
    unsigned run = 0; /* the digits in a row that end the blocks so far */
    size_t i;

    for (i = 0; i < n; i += 16) {
        const unsigned char *b = (const unsigned char *)text + i;
        block_masks m;
        if (n - i < 16) { /* the rest, padded with bytes none of the masks
                             has */
            memset(tail, ' ', sizeof tail);
            memcpy(tail, b, n - i);
            b = tail;
        }
        block_masks_of(b, &m);
        /* a fraction or an exponent, or -0 */
        if (m.fraction | (m.lower_e & (m.digits << 1 | after_digit)) |
            (m.zero & (m.minus << 1 | after_minus)))
            return 0;
        /* the digits in a row that the block begins with go on the run
         * (all 16 of them: too many), and the block's last ones start the
         * next; a run inside a block is shorter than the block */
        if (run + (unsigned)__builtin_ctz(~m.digits) > MAX_PLAIN_DIGITS)
            return 0;
        run = (unsigned)__builtin_clz(~m.digits << 16);
        after_digit = m.digits >> 15;
        after_minus = m.minus >> 15 & 1;
    }
    return 1;
}
