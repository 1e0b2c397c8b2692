/* SPDX-License-Identifier: MIT */
/*
 * escape.c - string literals: decoding escapes, and writing a string body
 * again with the wire rendering's escapes (§4) or RFC 8785's (§5).
 *
 * The parser has already validated every escape and every UTF-8 sequence,
 * so these loops only decode.  Raw bytes between escapes cannot hold
 * anything either rendering escapes: runs up to the next backslash or the
 * closing quote are found and copied in the same pass, 32 bytes at a time
 * where the processor has AVX2 (checked at run time), else 16.  Where it
 * has AVX-512 BW, one loop per rendering takes 64 bytes at a time and
 * writes the \u escapes that stand for a character as that character in
 * the same pass (literal_blocks64), leaving the rarer escapes to the
 * general loop.  The same loop also checks the string values of the
 * canonical one pass as it writes them, so that their bytes are read once
 * (wj_write_canonical_string); what it finds wrong, the parser reports.
 *
 * Raw text that is not JSON (the JSON writer's strings, a plain-text VALUE,
 * a schema's bytes) is checked and escaped by the same rules in one pass
 * (wj_write_text).
 */
#include "wj_internal.h"
#include "simd.h"
#include "escape_policy.h"
#include "unicode.h"
#include "utf8.h"
#include "string_checks.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The two-byte escapes a rendering writes exactly as it reads them: the
 * bytes that follow their backslash. */
typedef struct kept_escapes {
    const char *bytes;
    int n;
} kept_escapes;

#define KEPT(bytes) {bytes, (int)sizeof bytes - 1}
static const kept_escapes wire_kept = KEPT(WJ_ESC_WIRE_KEPT);
static const kept_escapes canonical_kept = KEPT(WJ_ESC_CANONICAL_KEPT);

static inline int is_kept(const kept_escapes *kept, char c)
{
    int k;
    for (k = 0; k < kept->n; k++)
        if (kept->bytes[k] == c)
            return 1;
    return 0;
}

/* Decodes the escape at raw[0] == '\\' into a code point (a lone surrogate
 * stays a surrogate) and returns its length in bytes. */
static size_t decode_escape(const char *raw, size_t avail, uint32_t *cp)
{
    uint32_t hi, lo;
    switch (raw[1]) {
#define DECODE_SHORT(code, letter, kept)                                       \
    case letter: *cp = code; return 2;
        WJ_SHORT_ESCAPES(DECODE_SHORT)
#undef DECODE_SHORT
    default: break; /* u */
    }
    hi = (uint32_t)wj_hex4((const unsigned char *)raw + 2);
    if (hi >= 0xD800 && hi <= 0xDBFF && avail >= 12 && raw[6] == '\\' &&
        raw[7] == 'u') {
        lo = (uint32_t)wj_hex4((const unsigned char *)raw + 8);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            *cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
            return 12;
        }
    }
    *cp = hi;
    return 6;
}

/* The code points below U+0300 have canonical combining class 0. */
static int is_combining(uint32_t cp)
{
    return cp >= 0x300 && wj_is_combining(cp);
}

/* The bytes a run of copied bytes stops at: '"' and '\\', and in raw text
 * (text) also the controls and every byte >= 0x80. */
static inline int stops_run(unsigned char c, int text)
{
    return c == '"' || c == '\\' || (text && (c < 0x20 || c >= 0x80));
}

#if WJ_HAVE_AVX2_PATH
/* copy_run 32 bytes at a time, for processors that have AVX2. */
__attribute__((target("avx2"))) static size_t
copy_run_avx2(char *out, const char *room_end, const char *s, size_t i,
              size_t limit, int text)
{
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i space = _mm256_set1_epi8(' ');
    while (limit - i >= 32 && room_end - out >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        __m256i stop = _mm256_or_si256(_mm256_cmpeq_epi8(v, quote),
                                       _mm256_cmpeq_epi8(v, backslash));
        unsigned mask;
        if (text) /* signed: the controls and every byte >= 0x80 */
            stop = _mm256_or_si256(stop, _mm256_cmpgt_epi8(space, v));
        mask = (unsigned)_mm256_movemask_epi8(stop);
        _mm256_storeu_si256((__m256i *)(void *)out, v);
        if (mask)
            return i + (size_t)__builtin_ctz(mask);
        i += 32;
        out += 32;
    }
    return i;
}
#endif

#if defined(__SSE2__)
/* Bit k set when byte k of v stops a run (stops_run). */
static inline unsigned run_stops16(__m128i v, int text)
{
    __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    if (text) /* signed: the controls and every byte >= 0x80 */
        stop = _mm_or_si128(stop, _mm_cmplt_epi8(v, _mm_set1_epi8(' ')));
    return (unsigned)_mm_movemask_epi8(stop);
}
#endif

#if defined(__SSE2__)
/* Copies the 16 bytes at s[*i] to the output (which has room for them) and
 * moves *i and the output's length to the first that stops a run, returning
 * 1, or past all 16, returning 0. */
static inline int copy16(wj_buf *buf, const char *s, size_t *i, int text)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + *i));
    unsigned mask = run_stops16(v, text);
    size_t n = mask ? (size_t)__builtin_ctz(mask) : 16;
    _mm_storeu_si128((__m128i *)(void *)(buf->ptr + buf->len), v);
    buf->len += n;
    *i += n;
    return mask != 0;
}
#endif

/* copy_run for a run that goes on past its first 16 bytes, out of line. */
static __attribute__((noinline)) size_t
copy_run_long(wj_buf *buf, const char *s, size_t i, size_t limit, int text)
{
#if WJ_HAVE_AVX2_PATH
    if (WJ_AVX2_ON) {
        size_t from = i;
        i = copy_run_avx2(buf->ptr + buf->len, buf->ptr + buf->cap, s, i, limit,
                          text);
        buf->len += i - from;
        if (i < limit && stops_run((unsigned char)s[i], text))
            return i;
    }
#endif
#if defined(__SSE2__)
    while (limit - i >= WJ_BLOCK16 && buf->cap - buf->len >= 16)
        if (copy16(buf, s, &i, text))
            return i;
#endif
    while (i < limit && !stops_run((unsigned char)s[i], text))
        buf->ptr[buf->len++] = s[i++];
    return i;
}

/*
 * Copies s[i..limit) to the output up to the next byte that stops_run and
 * returns its index (limit when there is none).  Where the buffer has room
 * it moves 16 or 32 bytes at a time, storing a whole block before it knows
 * where the run ends; the first 16 inline, since the runs between escapes
 * are mostly short.  (Inside a valid literal a '"' is its closing quote.)
 */
static inline size_t copy_run(wj_buf *buf, const char *s, size_t i,
                              size_t limit, int text)
{
#if defined(__SSE2__)
    if (limit - i >= WJ_BLOCK16 && buf->cap - buf->len >= 16 &&
        copy16(buf, s, &i, text))
        return i;
#endif
    return copy_run_long(buf, s, i, limit, text);
}

#if WJ_HAVE_AVX2_PATH
/* Bit k set when byte k of v is one of the n bytes of set. */
WJ_AVX2 static inline uint32_t bytes_in(__m256i v, const char *set, int n)
{
    __m256i m = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(set[0]));
    int k;
    for (k = 1; k < n; k++)
        m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(set[k])));
    return (uint32_t)_mm256_movemask_epi8(m);
}

/*
 * copy_run for a literal's body, 32 bytes at a time, for processors that
 * have AVX2: the two-byte escapes the rendering keeps (kept: \n and its
 * kin) are copied with the text around them.  A run ends
 * at the closing quote or at the backslash of another escape, and (so that
 * the writer knows when an escape was the last thing written, for the
 * combining-mark rule) at a kept escape that another escape, a byte >= 0xCC
 * (wire: perhaps a combining mark) or the end of the blocks follows.
 * Every byte before where it stops is written as it is; returns that index.
 * Inlined into one function per rendering, so that its kept bytes are
 * constants there.
 */
WJ_AVX2 static inline __attribute__((always_inline)) size_t
copy_body_blocks(wj_buf *buf, const char *s, size_t i, size_t limit,
                 const kept_escapes *kept, int wire)
{
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i bslash = _mm256_set1_epi8('\\');
    const size_t from = i;
    char *out = buf->ptr + buf->len;
    size_t room = buf->cap - buf->len; /* the buffer's, read once */
    size_t blocks = (limit - i < room ? limit - i : room) / 32;
    uint32_t carry = 0, e = 0; /* the block's first byte is escaped; the
                                  escaped bytes of the block before */

    for (; blocks > 0; blocks--) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        uint32_t q =
            (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote));
        uint32_t b =
            (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, bslash));
        uint32_t before = e; /* the previous block's */
        uint64_t stops;      /* bit k + 3: stop at byte k (k >= -3) */
        _mm256_storeu_si256((__m256i *)(void *)out, v);
        e = b | carry ? wj_escaped_bytes(b, &carry) : 0;
        stops = (uint64_t)(q & ~e) << 3;
        if (e) {
            uint32_t other = e & ~bytes_in(v, kept->bytes, kept->n);
            uint32_t escaped_two_back = e << 2 | before >> 30;
            stops |= (uint64_t)(other & ~escaped_two_back) << 2 |
                     (other & escaped_two_back);
        }
        if (wire && (e | before >> 31)) {
            uint32_t marks = wj_bytes_at_least(v, WJ_UTF8_MARK_LEAD);
            stops |= (uint64_t)(marks & (e << 1 | before >> 31)) << 1;
        }
        if (stops) {
            i += (size_t)__builtin_ctzll(stops) - 3;
            buf->len += i - from;
            return i;
        }
        i += 32;
        out += 32;
    }
    if (carry) /* an escape the blocks end inside, perhaps after another */
        i -= e >> 30 & 1 ? 3 : 1;
    else if (e >> 31) /* a kept escape: what follows it is not known yet */
        i -= 2;
    buf->len += i - from;
    return i;
}

WJ_AVX2 static size_t copy_wire_body_avx2(wj_buf *buf, const char *s,
                                          size_t i, size_t limit)
{
    return copy_body_blocks(buf, s, i, limit, &wire_kept, 1);
}

WJ_AVX2 static size_t copy_canonical_body_avx2(wj_buf *buf, const char *s,
                                               size_t i, size_t limit)
{
    return copy_body_blocks(buf, s, i, limit, &canonical_kept, 0);
}

/*
 * The \u escape at esc (avail bytes there) written as the character it
 * stands for, when a rendering writes it so whatever came before: not a
 * control, '"', '\\' or a lone surrogate, and (marks_escaped: the wire
 * rendering right after an escape) below U+0300, where no combining mark
 * is.  Returns the bytes written at out, with the escape's length in
 * *used, or 0 when the writer's general path must take the escape.
 */
static inline __attribute__((always_inline)) size_t
put_u_as_char(char *out, const char *esc, size_t avail, int marks_escaped,
              size_t *used)
{
    /* the parser checked the digits: wj_hex4 is never -1 here */
    uint32_t cp = (uint32_t)wj_hex4((const unsigned char *)esc + 2), lo;
    *used = 6;
    if (cp - 0xD800 < 0x800) { /* a surrogate: a pair, or left alone */
        if (cp > 0xDBFF || avail < 12 || esc[6] != '\\' || esc[7] != 'u')
            return 0;
        lo = (uint32_t)wj_hex4((const unsigned char *)esc + 8);
        if (lo - 0xDC00 >= 0x400)
            return 0;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        *used = 12;
    }
    if (WJ_ESC_MUST(cp) || (marks_escaped && cp >= 0x300))
        return 0;
    return wj_utf8_encode(out, cp);
}

/*
 * The vectors literal_block64 compares with, made once per call and held
 * in registers (the compiler would otherwise broadcast each constant again
 * in every block).  letters: at index b & 15, the letter b of each escape
 * the rendering writes otherwise ('u' and the short ones it does not keep,
 * escape_policy.h; their low nibbles differ), at the others a byte no
 * escape letter is, so one shuffle and one compare tell these letters
 * among the escapes' letters.
 */
typedef struct literal_consts {
    __m512i quote, bslash, mark_lead, letters, space;
} literal_consts;

WJ_AVX512BW static inline __attribute__((always_inline)) literal_consts
make_literal_consts(int wire)
{
    literal_consts c;
    char t[16];
    int k;
    for (k = 0; k < 16; k++)
        t[k] = (char)(0xF0 | k);
    t['u' & 15] = 'u';
#define REWRITTEN(code, letter, kept)                                          \
    if (!((kept) & (wire ? WJ_ESC_WIRE : WJ_ESC_CANONICAL)))                   \
        t[(letter) & 15] = (letter);
    WJ_SHORT_ESCAPES(REWRITTEN)
#undef REWRITTEN
    c.quote = _mm512_set1_epi8('"');
    c.bslash = _mm512_set1_epi8('\\');
    c.mark_lead = _mm512_set1_epi8((char)WJ_UTF8_MARK_LEAD);
    c.letters = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t));
    c.space = _mm512_set1_epi8(' ');
    __asm__("" : "+v"(c.quote), "+v"(c.bslash), "+v"(c.mark_lead),
            "+v"(c.letters), "+v"(c.space));
    return c;
}

/* Whether a block's backslashes escape the next block's first byte (the
 * carry of wj_escaped_bytes64), found from this block's backslashes alone
 * where a byte other than a backslash ends the run that reaches its end,
 * so that the carry into the next block does not wait for the one into
 * this (a chain that would cost every block of text with an escape its
 * latency). */
static inline uint64_t carry_out64(uint64_t backslash, uint64_t carry_in)
{
    uint64_t none_in = 0;
    if (backslash == ~(uint64_t)0)
        return carry_in; /* a run over the whole block: as it came */
    (void)wj_escaped_bytes64(backslash, &none_in);
    return none_in;
}

/* Where literal_blocks64 is: the next byte to read and write, whether a
 * backslash ended the block before (carry) and the kept escapes' letters
 * there (before), and (wire) whether an escape was the last thing written
 * before the byte at `in` (after). */
typedef struct literal_at {
    size_t in;
    char *out;
    uint64_t carry, before, after;
} literal_at;

/*
 * Whether the bytes of a block (v, n of them at in) that literal_block64
 * writes as they are (the mask upto) are a string's text, and so the
 * UTF-8 sequence that the stop after them (at_stop) may cut: no control
 * byte, no escape letter but a short escape's among the escaped bytes it
 * keeps (kept; a \u stops the block and is checked there), and UTF-8
 * given the three bytes before the block.  The UTF-8 check runs on every
 * block, ASCII or not: whether a block of text holds a non-ASCII byte is
 * a coin toss to a branch predictor, and a wrong guess costs more than
 * the check.
 */
WJ_AVX512BW static inline __attribute__((always_inline)) int
text_is_valid(const unsigned char *in, size_t n, __m512i v,
              const literal_consts *c, uint64_t kept, uint64_t upto,
              uint64_t at_stop)
{
    uint64_t simple, rewritten;
    escape_letters64(v, &simple, &rewritten);
    return !(((_mm512_cmplt_epu8_mask(v, c->space) | (kept & ~simple)) &
              upto) |
             (utf8_errors64(in, n, v) & (upto | at_stop)));
}

/*
 * One block of literal_blocks64: the n bytes at `at` (64, or fewer before
 * limit: those by masked loads and stores, which touch nothing past them)
 * are copied, and at a stop the \u escape there is written as put_u_as_char
 * writes it.  Returns 0 where the general path must go on; with checked,
 * -1 where the text is not a string's (text_is_valid), which the parser's
 * loop is left to report.  Inlined with n a constant for whole blocks.
 */
WJ_AVX512BW static inline __attribute__((always_inline)) int
literal_block64(literal_at *at, const literal_consts *c, const char *s,
                size_t len, size_t n, int wire, int checked)
{
    const char *in = s + at->in;
    uint64_t past = 0, carry, e, other, kept_e, early, stops;
    size_t p, used, put;
    __m512i v;

    if (n == 64) {
        v = _mm512_loadu_si512(in);
        _mm512_storeu_si512(at->out, v);
    } else { /* the bytes past limit read as 0 and stop nothing */
        past = ~(uint64_t)0 << n;
        v = _mm512_maskz_loadu_epi8(~past, in);
        _mm512_mask_storeu_epi8(at->out, ~past, v);
    }
    e = _mm512_cmpeq_epi8_mask(v, c->bslash);
    stops = _mm512_cmpeq_epi8_mask(v, c->quote);
    /* without branches: a block of text most often holds an escape, but
     * which one does is not foreseen */
    carry = at->carry;
    at->carry = carry_out64(e, carry);
    e = wj_escaped_bytes64(e, &carry);
    other = e & (_mm512_cmpeq_epi8_mask(
                     v, _mm512_shuffle_epi8(c->letters, v)) |
                 past); /* past: an escape that goes on */
    kept_e = e & ~other;
    stops = (stops & ~e) | other >> 1;
    early = other & 1; /* its backslash ended the block before */
    if (wire)
        stops |= _mm512_cmpge_epu8_mask(v, c->mark_lead) &
                 (kept_e << 1 | at->after);
    if (checked) {
        uint64_t first_stop = stops & (0 - stops);
        uint64_t upto = early ? 0 : first_stop ? first_stop - 1 : ~past;
        if (!text_is_valid((const unsigned char *)in, n, v, c, kept_e, upto,
                           early ? 0 : first_stop))
            return -1;
    }
    if (!(stops | early)) {
        at->in += n;
        at->out += n;
        at->after = wire && kept_e >> (n - 1) & 1;
        at->before = kept_e;
        return 1;
    }
    if (early) {
        at->in--;
        at->out--;
        at->after = wire && at->before >> 62 & 1;
    } else {
        p = (size_t)__builtin_ctzll(stops);
        at->after = p ? wire && kept_e >> (p - 1) & 1 : at->after;
        at->in += p;
        at->out += p;
    }
    at->carry = 0;
    in = s + at->in;
    if (checked && len - at->in < 6)
        return 0; /* near the end: the general path checks what is there */
    if (checked && in[0] == '\\' && in[1] == 'u' &&
        wj_hex4((const unsigned char *)in + 2) < 0)
        return -1;
    if (in[0] != '\\' || in[1] != 'u' ||
        !(put = put_u_as_char(at->out, in, len - at->in, (int)at->after,
                              &used)))
        return 0;
    at->in += used;
    at->out += put;
    at->after = 0;
    return 1;
}

/*
 * The body of a literal from s[i] up to limit, 64 bytes at a time (AVX-512
 * BW): the bytes and the escapes the rendering keeps are copied, the \u
 * escapes that put_u_as_char takes are written as their characters in the
 * same loop.  Returns where the writer's general path goes on: at or past
 * limit, at the closing quote, at an escape written otherwise, or (wire) at
 * a byte >= 0xCC that an escape precedes, perhaps a combining mark.
 * *after_escape: the last thing written was an escape (wire: read and set).
 * The output has room for limit - i bytes, and no escape taken here grows.
 * With checked, SIZE_MAX where the text is not a string's.
 */
WJ_AVX512BW static inline __attribute__((always_inline)) size_t
literal_blocks64(wj_buf *buf, const char *s, size_t i, size_t limit,
                 size_t len, int wire, int *after_escape, int checked)
{
    const literal_consts c = make_literal_consts(wire);
    literal_at at = {i, buf->ptr + buf->len, 0, 0, 0};
    int step = 1;
    at.after = wire && *after_escape;
    while (at.in < limit &&
           (step = limit - at.in >= 64
                       ? literal_block64(&at, &c, s, len, 64, wire, checked)
                       : literal_block64(&at, &c, s, len, limit - at.in,
                                         wire, checked)) > 0)
        ;
    if (step < 0)
        return SIZE_MAX;
    if (at.carry) { /* leave the escape the blocks end inside to the caller */
        at.in--;
        at.out--;
        at.after = wire && at.before >> 62 & 1;
    }
    buf->len = (size_t)(at.out - buf->ptr);
    *after_escape = (int)at.after;
    return at.in;
}

WJ_AVX512BW static size_t wire_literal_avx512(wj_buf *buf, const char *s,
                                              size_t i, size_t limit,
                                              size_t len, int *after_escape)
{
    return literal_blocks64(buf, s, i, limit, len, 1, after_escape, 0);
}

WJ_AVX512BW static size_t canonical_literal_avx512(wj_buf *buf, const char *s,
                                                   size_t i, size_t limit,
                                                   size_t len)
{
    int after_escape = 0;
    return literal_blocks64(buf, s, i, limit, len, 0, &after_escape, 0);
}

WJ_AVX512BW static size_t checked_literal_avx512(wj_buf *buf, const char *s,
                                                 size_t i, size_t limit,
                                                 size_t len)
{
    int after_escape = 0;
    return literal_blocks64(buf, s, i, limit, len, 0, &after_escape, 1);
}
#endif

/* copy_run for the body of a literal that the writers re-escape (wire: the
 * wire rendering's, else the canonical one's): past the escapes that the
 * rendering keeps, too, where the processor has AVX2. */
static size_t copy_body(wj_buf *buf, const char *s, size_t i, size_t limit,
                        int wire)
{
#if WJ_HAVE_AVX2_PATH
    if (limit - i >= 32 && WJ_AVX2_ON) {
        i = wire ? copy_wire_body_avx2(buf, s, i, limit)
                 : copy_canonical_body_avx2(buf, s, i, limit);
        if (i < limit && (s[i] == '\\' || s[i] == '"'))
            return i;
    }
#else
    (void)wire;
#endif
    return copy_run(buf, s, i, limit, 0);
}

size_t wj_string_decode(const char *raw, size_t raw_len, char *out)
{
    size_t i = 0, o = 0;
    while (i < raw_len) {
        const char *bs = memchr(raw + i, '\\', raw_len - i);
        size_t run = bs ? (size_t)(bs - raw) - i : raw_len - i;
        uint32_t cp;
        memcpy(out + o, raw + i, run);
        o += run;
        i += run;
        if (i == raw_len)
            break;
        i += decode_escape(raw + i, raw_len - i, &cp);
        o += wj_utf8_encode(out + o, cp);
    }
    return o;
}

/* Writes \uxxxx with lowercase hex. */
static void put_u_escape(wj_buf *buf, uint32_t unit)
{
    char *o = buf->ptr + buf->len;
    o[0] = '\\';
    o[1] = 'u';
    o[2] = wj_hex_digits[unit >> 12 & 0xF];
    o[3] = wj_hex_digits[unit >> 8 & 0xF];
    o[4] = wj_hex_digits[unit >> 4 & 0xF];
    o[5] = wj_hex_digits[unit & 0xF];
    buf->len += 6;
}

/* Writes cp as \u escapes (a surrogate pair above U+FFFF). */
static void put_cp_escape(wj_buf *buf, uint32_t cp)
{
    if (cp >= 0x10000) {
        put_u_escape(buf, 0xD800 + ((cp - 0x10000) >> 10));
        put_u_escape(buf, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
        put_u_escape(buf, cp);
    }
}

/* The escape a rendering must write for cp, if any: 1 when written. */
static int put_mandatory_escape(wj_buf *buf, uint32_t cp, int canonical)
{
    char c;
    switch (cp) {
#define MANDATORY_SHORT(code, letter, kept)                                    \
    case code:                                                                 \
        c = (kept) & (canonical ? WJ_ESC_CANONICAL : WJ_ESC_WIRE) ? letter : 0; \
        break;
        WJ_SHORT_ESCAPES(MANDATORY_SHORT)
#undef MANDATORY_SHORT
    default: c = 0; break;
    }
    if (c) {
        buf->ptr[buf->len++] = '\\';
        buf->ptr[buf->len++] = c;
        return 1;
    }
    if (cp < 0x20 || (cp >= 0xD800 && cp <= 0xDFFF)) {
        put_u_escape(buf, cp);
        return 1;
    }
    return 0;
}

/* Writes the two-byte escape at esc as it is when the rendering keeps it
 * (never a \u escape, the one most often decoded instead: told first).
 * Inlined, so that each rendering's kept letters are constants. */
static inline __attribute__((always_inline)) int
keep_escape(wj_buf *buf, const char *esc, const kept_escapes *kept)
{
    if (esc[1] == 'u' || !is_kept(kept, esc[1]))
        return 0;
    buf->ptr[buf->len++] = '\\';
    buf->ptr[buf->len++] = esc[1];
    return 1;
}

/* Input bytes written per reservation of output room, so that a long
 * string needs room for its output plus one chunk, not its whole length
 * times the most one byte can grow. */
#define CHUNK 4096

/* The most bytes one escape reads or writes: a surrogate pair's two \u
 * escapes. */
#define ESCAPE_MAX 12

/* Reserves room for s[i..limit) at `growth` output bytes per input byte and
 * moves *limit; 0, or -1 when out of memory.  The slack covers an escape
 * that starts before the limit and ends after it and the closing quote. */
static int reserve_chunk(wj_buf *buf, size_t i, size_t len, size_t growth,
                         size_t *limit)
{
    size_t step = len - i < CHUNK ? len - i : CHUNK;
    if (wj_buf_reserve(buf, growth * step + ESCAPE_MAX + 4) != 0)
        return -1;
    *limit = i + step;
    return 0;
}

/* A literal written again is never longer than it was, but for the wire
 * rendering's \b and \f (\u0008, \u000c) and combining marks after an
 * escape: so its chunks reserve room byte for byte, and before an escape
 * or mark that may grow, this makes room for what it writes and for the
 * rest of the chunk (from s[i], i < limit). */
static int room_to_grow(wj_buf *buf, size_t i, size_t limit)
{
    return wj_buf_reserve(buf, limit - i + 2 * ESCAPE_MAX + 4);
}

static int put_quote(wj_buf *buf)
{
    if (wj_buf_reserve(buf, 1) != 0)
        return -1;
    wj_buf_putc(buf, '"');
    return 0;
}

size_t wj_write_wire_literal(wj_buf *buf, const char *s, size_t len, size_t at)
{
    size_t i = at + 1, limit = i;
    int after_escape = 0; /* the last thing written was an escape */

    if (put_quote(buf) != 0)
        return 0;
    for (;;) {
        uint32_t cp;
        if (i >= limit && reserve_chunk(buf, i, len, 1, &limit) != 0)
            return 0;
        /* Combining marks right after an escape are escaped too. */
        while (after_escape && i < limit &&
               (unsigned char)s[i] >= WJ_UTF8_MARK_LEAD) {
            size_t n;
            cp = wj_utf8_decode((const unsigned char *)s + i, &n);
            if (!is_combining(cp))
                break;
            if (room_to_grow(buf, i, limit) != 0)
                return 0;
            put_cp_escape(buf, cp);
            i += n;
        }
#if WJ_HAVE_AVX2_PATH
        if (i < limit && WJ_AVX512_ON) {
            /* a byte the loop above kept as it is clears the state */
            after_escape &= (unsigned char)s[i] < WJ_UTF8_MARK_LEAD;
            i = wire_literal_avx512(buf, s, i, limit, len, &after_escape);
        } else
#endif
        if (i < limit && s[i] != '\\' && s[i] != '"') {
            i = copy_body(buf, s, i, limit, 1);
            after_escape = 0;
        }
        if (i >= limit)
            continue; /* the end of the chunk */
        if (s[i] == '"')
            break;
        if (s[i] != '\\')
            continue; /* a byte >= 0xCC after an escape: the loop above */
        if (keep_escape(buf, s + i, &wire_kept)) {
            i += 2;
            after_escape = 1;
            continue;
        }
        if (room_to_grow(buf, i, limit) != 0)
            return 0;
        i += decode_escape(s + i, len - i, &cp);
        if (put_mandatory_escape(buf, cp, 0)) {
            after_escape = 1;
        } else if (after_escape && is_combining(cp)) {
            put_cp_escape(buf, cp);
        } else {
            buf->len += wj_utf8_encode(buf->ptr + buf->len, cp);
            after_escape = 0;
        }
    }
    return put_quote(buf) == 0 ? i + 1 : 0;
}

/* Writes the escape at s[i] as the canonical rendering does (kept, a
 * mandatory escape, or the character); returns the index past it. */
static size_t put_canonical_escape(wj_buf *buf, const char *s, size_t len,
                                   size_t i)
{
    uint32_t cp;
    if (keep_escape(buf, s + i, &canonical_kept))
        return i + 2;
    i += decode_escape(s + i, len - i, &cp);
    if (!put_mandatory_escape(buf, cp, 1))
        buf->len += wj_utf8_encode(buf->ptr + buf->len, cp);
    return i;
}

size_t wj_write_canonical_literal(wj_buf *buf, const char *s, size_t len,
                                  size_t at)
{
    size_t i = at + 1, limit = i;

    if (put_quote(buf) != 0)
        return 0;
    for (;;) {
        if (i >= limit && reserve_chunk(buf, i, len, 1, &limit) != 0)
            return 0;
#if WJ_HAVE_AVX2_PATH
        if (WJ_AVX512_ON)
            i = canonical_literal_avx512(buf, s, i, limit, len);
        else
#endif
            i = copy_body(buf, s, i, limit, 0);
        if (i >= limit)
            continue;
        if (s[i] == '"')
            break;
        i = put_canonical_escape(buf, s, len, i);
    }
    return put_quote(buf) == 0 ? i + 1 : 0;
}

/* Whether the escape at esc (avail bytes there) is one JSON has. */
static int escape_is_valid(const char *esc, size_t avail)
{
    if (avail < 2)
        return 0;
    switch (esc[1]) {
#define VALID_SHORT(code, letter, kept) case letter: return 1;
        WJ_SHORT_ESCAPES(VALID_SHORT)
#undef VALID_SHORT
    case 'u':
        return avail >= 6 && wj_hex4((const unsigned char *)esc + 2) >= 0;
    default: return 0;
    }
}

size_t wj_write_canonical_string(wj_buf *buf, const char *s, size_t len,
                                 size_t at, size_t stop)
{
#if WJ_HAVE_AVX2_PATH
    size_t i = at + 1, limit = i, was = buf->len, end = 0;

    if (!WJ_AVX512_ON || at < 2)
        return 0;
    if (put_quote(buf) != 0)
        return SIZE_MAX;
    for (;;) {
        if (i >= limit && (i >= len || i >= stop))
            break; /* no closing quote, or the hook is due */
        if (i >= limit && reserve_chunk(buf, i, len, 1, &limit) != 0) {
            end = SIZE_MAX;
            break;
        }
        i = checked_literal_avx512(buf, s, i, limit, len);
        if (i == SIZE_MAX)
            break;
        if (i >= limit)
            continue;
        if (s[i] == '"') {
            if (put_quote(buf) == 0)
                return i + 1;
            end = SIZE_MAX;
            break;
        }
        if (s[i] != '\\' || !escape_is_valid(s + i, len - i))
            break;
        i = put_canonical_escape(buf, s, len, i);
    }
    buf->len = was;
    return end;
#else
    (void)buf, (void)s, (void)len, (void)at, (void)stop;
    return 0;
#endif
}

/* Raw text: a control character becomes a 6-byte \u00xx escape. */
#define TEXT_GROWTH 6

/* True for the bytes raw text can copy as they are: printable ASCII (and
 * DEL) other than '"' and '\\'. */
static inline int is_plain_text_byte(unsigned char c)
{
    return !stops_run(c, 1);
}

/* The code point of the character at s (avail bytes there), its length in
 * *n, or 0 in *n when it is not well-formed.  With surrogates, a high and a
 * low surrogate in a row read as the one character of the pair, as their
 * \u escapes would. */
static uint32_t next_text_char(const unsigned char *s, size_t avail,
                               int surrogates, size_t *n)
{
    uint32_t cp, lo;
    size_t lo_n;
    if (!wj_utf8_length(s, avail, surrogates)) {
        *n = 0;
        return 0;
    }
    cp = wj_utf8_decode(s, n);
    if (cp < 0xD800 || cp > 0xDBFF || avail < 6 ||
        !wj_utf8_length(s + 3, avail - 3, 1))
        return cp;
    lo = wj_utf8_decode(s + 3, &lo_n);
    if (lo < 0xDC00 || lo > 0xDFFF)
        return cp;
    *n = 6;
    return 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
}

/* Writes code point cp of raw text, which is not plain ASCII, by the
 * escape rules; returns whether an escape that a combining mark after it
 * must follow (wire) was the last thing written. */
static int put_text_char(wj_buf *buf, uint32_t cp, int canonical,
                         int after_escape)
{
    if (put_mandatory_escape(buf, cp, canonical))
        return !canonical;
    if (after_escape && is_combining(cp)) {
        put_cp_escape(buf, cp);
        return 1;
    }
    buf->len += wj_utf8_encode(buf->ptr + buf->len, cp);
    return 0;
}

int wj_write_text(wj_buf *buf, const char *text, size_t len, unsigned flags)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, limit = 0, mark = buf->len;
    int surrogates = (flags & WJ_QUOTE_WTF8) != 0;
    int canonical = (flags & WJ_QUOTE_CANONICAL) != 0;
    int after_escape = 0; /* the last thing written was an escape (wire) */

    (void)wj_simd(); /* decided before copy_run reads WJ_BLOCK16 */
    if (put_quote(buf) != 0)
        return -1;
    while (i < len) {
        uint32_t cp;
        size_t n;
        if (i >= limit && reserve_chunk(buf, i, len, TEXT_GROWTH, &limit) != 0)
            return -1;
        if (is_plain_text_byte(s[i])) {
            i = copy_run(buf, text, i, limit, 1);
            after_escape = 0;
            if (i >= limit)
                continue;
        }
        if (s[i] < 0x80) { /* '"', '\\' or a control character */
            after_escape = put_text_char(buf, s[i++], canonical, after_escape);
            continue;
        }
        cp = next_text_char(s + i, len - i, surrogates, &n);
        if (!n) {
            buf->len = mark;
            return 1;
        }
        after_escape = put_text_char(buf, cp, canonical, after_escape);
        i += n;
    }
    return put_quote(buf);
}

/* Code units: a supplementary character escaped as a pair is 12 bytes. */
#define UNIT_GROWTH 12

static inline uint32_t unit_at(const void *units, size_t i, int width)
{
    switch (width) {
    case 1: return ((const uint8_t *)units)[i];
    case 2: return ((const uint16_t *)units)[i];
    default: return ((const uint32_t *)units)[i];
    }
}

#if defined(__SSE2__)
/* Which of the eight UTF-16 units in v are not plain text. */
static inline unsigned not_plain_units16(__m128i v)
{
    __m128i bad =
        _mm_or_si128(_mm_or_si128(_mm_cmplt_epi16(v, _mm_set1_epi16(' ')),
                                  _mm_cmpgt_epi16(v, _mm_set1_epi16(0x7F))),
                     _mm_or_si128(_mm_cmpeq_epi16(v, _mm_set1_epi16('"')),
                                  _mm_cmpeq_epi16(v, _mm_set1_epi16('\\'))));
    return (unsigned)_mm_movemask_epi8(bad);
}
#endif

#if WJ_HAVE_AVX2_PATH
/* copy_plain_units for UTF-16 and code points, 16 units at a time, for
 * processors that have AVX2. */
__attribute__((target("avx2"))) static size_t
copy_plain_units_avx2(wj_buf *buf, const void *units, size_t i, size_t limit,
                      int width)
{
    const __m256i space = _mm256_set1_epi16(' ');
    const __m256i del = _mm256_set1_epi16(0x7F);
    const __m256i quote = _mm256_set1_epi16('"');
    const __m256i backslash = _mm256_set1_epi16('\\');
    while (limit - i >= 16 && buf->cap - buf->len >= 32) {
        __m256i v, bad;
        unsigned mask;
        if (width == 2) {
            v = _mm256_loadu_si256(
                (const __m256i *)(const void *)((const uint16_t *)units + i));
        } else {
            const uint32_t *p = (const uint32_t *)units + i;
            __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
            __m256i b =
                _mm256_loadu_si256((const __m256i *)(const void *)(p + 8));
            /* packs works within 128-bit lanes: put the quarters in order */
            v = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8);
        }
        bad =
            _mm256_or_si256(_mm256_or_si256(_mm256_cmpgt_epi16(space, v),
                                            _mm256_cmpgt_epi16(v, del)),
                            _mm256_or_si256(_mm256_cmpeq_epi16(v, quote),
                                            _mm256_cmpeq_epi16(v, backslash)));
        mask = (unsigned)_mm256_movemask_epi8(bad);
        _mm_storeu_si128((__m128i *)(void *)(buf->ptr + buf->len),
                         _mm256_castsi256_si128(_mm256_permute4x64_epi64(
                             _mm256_packus_epi16(v, v), 0x08)));
        if (mask) {
            size_t k = (size_t)__builtin_ctz(mask) / 2;
            buf->len += k;
            return i + k;
        }
        buf->len += 16;
        i += 16;
    }
    return i;
}
#endif

/* Copies the plain units from units[i] on (before limit) as bytes and
 * returns the index of the first other one: Latin-1 as text is, 16 bytes
 * at a time; UTF-16 and code points 16 (AVX2) or eight units at a time,
 * narrowed. */
static size_t copy_plain_units(wj_buf *buf, const void *units, size_t i,
                               size_t limit, int width)
{
    if (width == 1)
        return copy_run(buf, units, i, limit, 1);
#if WJ_HAVE_AVX2_PATH
    if (WJ_AVX2_ON) {
        size_t j = copy_plain_units_avx2(buf, units, i, limit, width);
        if (j < limit && limit - j >= 16)
            return j; /* stopped at a unit that is not plain */
        i = j;
    }
#endif
#if defined(__SSE2__)
    while (limit - i >= 8 && WJ_BLOCK16 == 16 && buf->cap - buf->len >= 16) {
        __m128i v;
        unsigned mask;
        if (width == 2) {
            v = _mm_loadu_si128(
                (const __m128i *)(const void *)((const uint16_t *)units + i));
        } else {
            const uint32_t *p = (const uint32_t *)units + i;
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 4));
            /* code points are below 2^31: a signed narrowing keeps each
             * plain one, and any above 0x7FFF stays above 0x7F */
            v = _mm_packs_epi32(a, b);
        }
        mask = not_plain_units16(v);
        _mm_storel_epi64((__m128i *)(void *)(buf->ptr + buf->len),
                         _mm_packus_epi16(v, v));
        if (mask) {
            size_t k = (size_t)__builtin_ctz(mask) / 2;
            buf->len += k;
            return i + k;
        }
        buf->len += 8;
        i += 8;
    }
#endif
    while (i < limit) {
        uint32_t u = unit_at(units, i, width);
        if (u >= 0x80 || !is_plain_text_byte((unsigned char)u))
            break;
        buf->ptr[buf->len++] = (char)u;
        i++;
    }
    return i;
}

int wj_write_units(wj_buf *buf, const void *units, size_t n, int width,
                   unsigned flags)
{
    size_t i = 0, limit = 0, mark = buf->len;
    int canonical = (flags & WJ_QUOTE_CANONICAL) != 0;
    int after_escape = 0;

    (void)wj_simd(); /* decided before copy_run reads WJ_BLOCK16 */
    if (put_quote(buf) != 0)
        return -1;
    while (i < n) {
        uint32_t u, lo;
        size_t plain_end;
        if (i >= limit && reserve_chunk(buf, i, n, UNIT_GROWTH, &limit) != 0)
            return -1;
        plain_end = copy_plain_units(buf, units, i, limit, width);
        if (plain_end > i)
            after_escape = 0;
        i = plain_end;
        if (i >= limit)
            continue;
        u = unit_at(units, i++, width);
        if (u > 0x10FFFF) {
            buf->len = mark;
            return 1;
        }
        if (u >= 0xD800 && u <= 0xDBFF && i < n &&
            (lo = unit_at(units, i, width)) >= 0xDC00 && lo <= 0xDFFF) {
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            i++;
        }
        after_escape = put_text_char(buf, u, canonical, after_escape);
    }
    return put_quote(buf);
}
