/* SPDX-License-Identifier: MIT */
/*
 * parse.c - the strict, validating parser (docs/contract.md §3).
 *
 * One pass over the bytes builds the tape (wj_internal.h): a record per
 * value pointing into the input, a scalar's as small as its start offset.
 * Nesting is tracked on a fixed explicit stack, never on the C stack, so
 * depth costs no recursion.  When an object closes, its member names are
 * sorted (the renderers need that order; names that arrive in order need no
 * sort) and duplicates fall out of the sort.
 *
 * Every error names the first byte that cannot continue a valid document:
 * the end of input for truncation, a bad escape's backslash, an ill-formed
 * UTF-8 sequence's first byte, a repeated name's opening quote, the bracket
 * that makes depth 1001.
 */
#include "wj_internal.h"
#include "simd.h"
#include "utf8.h"

#include <stdlib.h>

#include "escape_policy.h"
#include "number.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct parser {
    const unsigned char *s;
    size_t len;
    size_t pos; /* where the steps out of line (parse_string_rest) start
                   and end: the loop keeps its position in a local */
    unsigned opts;
    wj_doc *doc;
    uint32_t *keys;     /* name records of the members of the open objects */
    uint32_t *key_ends; /* and the offsets one past their closing quotes */
    uint32_t n_keys;
    uint32_t key_room; /* entries both have room for */
    uint32_t cap_keys;
    uint32_t cap_key_ends;
    size_t names_len;
    uint32_t *tmp; /* merge-sort scratch */
    uint32_t cap_tmp;
    int records;    /* values get records (else only member names do) */
    wj_buf *out;    /* the one pass (wj_canonical_one_pass): the canonical
                       rendering is written here, and values get no records */
    size_t out_base; /* out's length before it: the one pass's offsets in
                        out count from here */
    size_t moved;   /* bytes the one pass's reorders have moved so far */
    uint32_t *starts; /* the one pass: where a long object's members start */
    uint32_t cap_starts;
    size_t poll_at; /* the offset at which to ask the interrupted hook next
                       (SIZE_MAX: there is none) */
    wj_error *err;
} parser;

/* Bytes that stop the fast scan of a string body: '"', '\\', controls and
 * every non-ASCII byte (which needs UTF-8 validation). */
/* clang-format off */
static const unsigned char string_stop[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10 */
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20 '"' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x30 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 0x50 '\\' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x60 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x70 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x80 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};
/* clang-format on */

/* The letters after a backslash that need nothing more: the short escapes
 * (escape_policy.h). */
#define SIMPLE_ESCAPE(cp, letter, kept) [letter] = 1,
static const unsigned char simple_escape[256] = {
    WJ_SHORT_ESCAPES(SIMPLE_ESCAPE)};
/* WJ_STR_REWRITE for the short escapes a rendering spells otherwise (\/ as
 * /, and the wire rendering's \u0008, \u000c for \b \f). */
#define REWRITTEN_ESCAPE(cp, letter, kept)                                     \
    [letter] = (kept) == (WJ_ESC_WIRE | WJ_ESC_CANONICAL) ? 0 : WJ_STR_REWRITE,
static const unsigned char rewritten_escape[256] = {
    WJ_SHORT_ESCAPES(REWRITTEN_ESCAPE)};

static wj_code fail(parser *p, wj_code code, size_t offset, const char *msg)
{
    return wj_fail(p->err, code, offset, msg);
}

/* Asks the interrupted hook, due once a MiB of input (p->poll_at), having
 * reached offset at. */
static __attribute__((noinline)) wj_code poll_hook(parser *p, size_t at)
{
    p->poll_at = at + WJ_POLL_BYTES;
    return wj_interrupted(p->doc->alloc) ? wj_fail_interrupted(p->err) : WJ_OK;
}

static wj_code fail_syntax(parser *p, size_t offset, const char *msg)
{
    if (offset >= p->len)
        return fail(p, WJ_ERR_SYNTAX, p->len, "unexpected end of input");
    return fail(p, WJ_ERR_SYNTAX, offset, msg);
}

/*
 * The one pass (wj_canonical_one_pass) writes the canonical rendering as it
 * parses.  What it leaves to the parse and the walk over the tape, it
 * declines (WJ_DECLINED), and its caller goes that way from the start.
 */

/* The one pass writes at a wj_cursor of the loop's own (wj_internal.h),
 * handed to p->out only around the steps out of line that write to it. */

/* Room for n more bytes at the cursor o. */
static inline wj_code put_room(parser *p, wj_cursor *o, size_t n)
{
    return wj_cursor_room(p->out, o, n) == 0 ? WJ_OK
                                             : wj_buf_fail(p->out, p->err);
}

/* Writes the n input bytes at start as they are. */
static inline wj_code put_input(parser *p, wj_cursor *o, size_t start, size_t n)
{
    wj_code rc = put_room(p, o, n + WJ_SHORT_SLACK);
    if (rc == WJ_OK)
        wj_cursor_put_input(o, (const char *)p->s, p->len, start, n);
    return rc;
}

static inline wj_code put_char(parser *p, wj_cursor *o, char c)
{
    wj_code rc = put_room(p, o, 1);
    if (rc == WJ_OK)
        *o->at++ = c;
    return rc;
}

/* Writes the string literal that opens at start again, re-escaping it (out
 * of line: most strings are copied as they are). */
static __attribute__((noinline)) wj_code put_rewritten(parser *p,
                                                       wj_cursor *o,
                                                       size_t start)
{
    size_t end;
    wj_cursor_pause(p->out, *o);
    end = wj_write_canonical_literal(p->out, (const char *)p->s, p->len, start);
    *o = wj_cursor_resume(p->out);
    return end ? WJ_OK : wj_buf_fail(p->out, p->err);
}

/* Writes the string literal s[start..end) as the canonical rendering does:
 * copied as it is, unless rewrite says an escape in it must change. */
static inline wj_code put_string(parser *p, wj_cursor *o, size_t start,
                                 size_t end, int rewrite)
{
    return rewrite ? put_rewritten(p, o, start)
                   : put_input(p, o, start, end - start);
}

/* Writes the number lexeme of n bytes at start as RFC 8785 writes its
 * double.  One that rounds to infinity is declined: its error comes after
 * any error later in the input. */
static wj_code put_number(parser *p, wj_cursor *o, size_t start, size_t n)
{
    size_t k;
    wj_code rc = put_room(p, o, WJ_NUMBER_MAX_CHARS);
    if (rc != WJ_OK)
        return rc;
    k = wj_number_canonical((const char *)p->s + start, n, o->at);
    if (!k)
        return WJ_DECLINED;
    o->at += k;
    return WJ_OK;
}

/* clang-format off */
static const unsigned char is_space[256] = {
    [' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1,
};
/* clang-format on */

/* Skips the run of whitespace that starts at i, 16 bytes at a time where
 * it is long (indentation); returns where it ends. */
static __attribute__((noinline)) size_t
skip_space_run(const unsigned char *s, size_t len, size_t i)
{
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');
    while (len - i >= WJ_BLOCK16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        unsigned other =
            ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, space)) & 0xFFFFu;
        if (other) {
            i += (size_t)__builtin_ctz(other);
            if (!is_space[s[i]])
                break;
            i++; /* a tab or a line break: go on */
        } else {
            i += 16;
        }
    }
#endif
    while (i < len && is_space[s[i]])
        i++;
    return i;
}

/* Where the whitespace at i ends.  Compact text has no whitespace between
 * tokens, and `, ` one blank: both inline; longer runs out of line. */
static inline size_t skip_space(const unsigned char *s, size_t len, size_t i)
{
    if (i < len && is_space[s[i]]) {
        ++i;
        if (i < len && is_space[s[i]])
            i = skip_space_run(s, len, i);
    }
    return i;
}

/* The most entries len bytes can need in the arrays of member names (keys,
 * order, sort scratch): a member takes 5 bytes at least (`"":0,`), so one
 * per two bytes is room to spare. */
static uint32_t max_entries(size_t len)
{
    size_t n = len / 2 + 2;
    return n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
}

/* The most tape slots len bytes can need: a container's 3 slots take its 2
 * brackets, a name's 1 and its entry in the object's sorted names take 3
 * bytes at least (`"":`), a string's 2 take 2, a number's 1 takes 1; 1.5 a
 * byte. */
static uint32_t max_slots(size_t len)
{
    size_t n = len + len / 2 + 16;
    return n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
}

/* Grows an array of n-byte elements to hold at least need of them, never
 * past `most` (wj_grow's policy). */
static int grow_to(parser *p, void **arr, uint32_t *cap, uint32_t need,
                   size_t elem, uint32_t most)
{
    size_t bytes;
    void *np =
        wj_grow(p->doc->alloc, *arr, (size_t)*cap * elem, (size_t)need * elem,
                16 * elem, (size_t)most * elem, &bytes);
    if (!np)
        return -1;
    *arr = np;
    *cap = bytes / elem < UINT32_MAX ? (uint32_t)(bytes / elem) : UINT32_MAX;
    return 0;
}

/* A kept block (scratch.c) as an array of uint32 and its capacity. */
static uint32_t *as_array(wj_scratch_block block, uint32_t *cap)
{
    size_t n = block.size / sizeof(uint32_t);
    *cap = n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
    return block.ptr;
}

/* An array of uint32 of cap entries as a block to give back. */
static wj_scratch_block array_block(uint32_t *array, uint32_t cap)
{
    return (wj_scratch_block){array, (size_t)cap * sizeof(uint32_t)};
}

/* grow_to for the arrays of member names. */
static int grow(parser *p, void **arr, uint32_t *cap, uint32_t need,
                size_t elem)
{
    return grow_to(p, arr, cap, need, elem, max_entries(p->len));
}

/* The entries p->keys and p->key_ends both have room for. */
static void note_key_room(parser *p)
{
    p->key_room = p->cap_keys < p->cap_key_ends ? p->cap_keys : p->cap_key_ends;
}

/* Makes room for one more entry in p->keys and p->key_ends (out of line:
 * they grow rarely). */
static __attribute__((noinline)) int grow_keys(parser *p)
{
    uint32_t need = p->n_keys + 1;
    if (p->cap_keys < need &&
        grow(p, (void **)&p->keys, &p->cap_keys, need, sizeof(uint32_t)) != 0)
        return -1;
    if (p->cap_key_ends < need &&
        grow(p, (void **)&p->key_ends, &p->cap_key_ends, need,
             sizeof(uint32_t)) != 0)
        return -1;
    note_key_room(p);
    return 0;
}

/* Out of line: the tape grows rarely. */
static __attribute__((noinline)) int grow_tape(parser *p, uint32_t slots)
{
    if (p->doc->n_tape > UINT32_MAX - slots)
        return -1;
    return grow_to(p, (void **)&p->doc->tape, &p->doc->cap_tape,
                   p->doc->n_tape + slots, sizeof(uint32_t), max_slots(p->len));
}

/* Appends a record of `slots` slots starting with start; returns its index,
 * or UINT32_MAX when out of memory.  The other slots are filled later. */
static inline uint32_t add_record(parser *p, uint32_t slots, size_t start)
{
    wj_doc *doc = p->doc;
    uint32_t at = doc->n_tape;
    if (doc->cap_tape - at < slots && grow_tape(p, slots) != 0)
        return UINT32_MAX;
    doc->tape[at] = (uint32_t)start;
    doc->n_tape = at + slots;
    return at;
}

/* Validates the escape at s[i] == '\\' and stores its length in *n.  Sets
 * WJ_STR_UTF16 in *flags for what sorts differently in UTF-16. */
static wj_code check_escape(parser *p, size_t i, uint8_t *flags, size_t *n)
{
    const unsigned char *s = p->s;
    size_t len = p->len, k;
    int32_t cp, lo;
    if (i + 1 >= len)
        return fail_syntax(p, len, NULL);
    if (simple_escape[s[i + 1]]) {
        *n = 2;
        return WJ_OK;
    }
    if (s[i + 1] != 'u')
        return fail(p, WJ_ERR_SYNTAX, i, "invalid escape sequence");
    cp = len - i >= 6 ? wj_hex4(s + i + 2) : -1;
    if (cp < 0) {
        /* A non-hex digit is the escape's fault even when the input ends. */
        for (k = 2; k < 6 && i + k < len; k++)
            if (!wj_hex_value[s[i + k]])
                return fail(p, WJ_ERR_SYNTAX, i, "invalid \\u escape");
        return fail_syntax(p, len, NULL);
    }
    if (cp >= 0xD800 && cp <= 0xDBFF && len - i >= 12 && s[i + 6] == '\\' &&
        s[i + 7] == 'u') {
        lo = wj_hex4(s + i + 8);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            *flags |= WJ_STR_UTF16;
            *n = 12;
            return WJ_OK;
        }
    }
    if (cp >= 0xD800)
        *flags |= WJ_STR_UTF16; /* a lone surrogate, or U+E000 and up */
    *n = 6;
    return WJ_OK;
}

#if WJ_HAVE_AVX2_PATH
/* scan_plain 32 bytes at a time, for processors that have AVX2. */
__attribute__((target("avx2"))) static size_t
scan_plain_avx2(const unsigned char *s, size_t i, size_t len)
{
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i bslash = _mm256_set1_epi8('\\');
    const __m256i space = _mm256_set1_epi8(' ');
    while (len - i >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        /* signed compare: controls and every byte >= 0x80 are "< ' '" */
        __m256i m =
            _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, quote),
                                            _mm256_cmpeq_epi8(v, bslash)),
                            _mm256_cmpgt_epi8(space, v));
        unsigned mask = (unsigned)_mm256_movemask_epi8(m);
        if (mask)
            return i + (size_t)__builtin_ctz(mask);
        i += 32;
    }
    while (i < len && !string_stop[s[i]])
        i++;
    return i;
}
#endif

#if defined(__SSE2__)
/* Bit k set when p[k] stops the scan of a string body (string_stop). */
static inline unsigned stop_mask16(const unsigned char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* signed compare: controls and every byte >= 0x80 are "< ' '" */
    __m128i m =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                  _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                     _mm_cmplt_epi8(v, _mm_set1_epi8(' ')));
    return (unsigned)_mm_movemask_epi8(m);
}

/* Moves *i to the first of the 16 bytes at s[*i] that string_stop flags and
 * returns 1, or past all 16 and returns 0. */
static inline int scan16(const unsigned char *s, size_t *i)
{
    unsigned mask = stop_mask16(s + *i);
    if (!mask) {
        *i += 16;
        return 0;
    }
    *i += (size_t)__builtin_ctz(mask);
    return 1;
}
#endif

/* scan_plain past the first 16 bytes: long strings, out of line. */
static __attribute__((noinline)) size_t scan_plain_long(const unsigned char *s,
                                                        size_t i, size_t len)
{
#if WJ_HAVE_AVX2_PATH
    if (WJ_AVX2_ON)
        return scan_plain_avx2(s, i, len);
#endif
#if defined(__SSE2__)
    while (len - i >= WJ_BLOCK16)
        if (scan16(s, &i))
            return i;
#endif
    while (i < len && !string_stop[s[i]])
        i++;
    return i;
}

/* Index of the first byte at or after i that string_stop flags.  Most
 * names and many values end within 16 bytes: those are found inline. */
static inline size_t scan_plain(const unsigned char *s, size_t i, size_t len)
{
#if defined(__SSE2__)
    if (len - i >= WJ_BLOCK16 && scan16(s, &i))
        return i;
#endif
    return scan_plain_long(s, i, len);
}

/* Files the decoded form of the escaped name at tape record idx (raw body
 * s[start + 1 .. end - 1)) in doc->names, a 4-byte length, then the bytes,
 * points the record one past its quote and pairs the two in doc->escaped
 * (wj_internal.h). */
static wj_code decode_name(parser *p, uint32_t idx, size_t start, size_t end)
{
    wj_doc *doc = p->doc;
    size_t raw_len = end - start - 2;
    uint32_t decoded;
    if (doc->cap_escaped - 2 * doc->n_escaped < 2 &&
        grow(p, (void **)&doc->escaped, &doc->cap_escaped,
             2 * doc->n_escaped + 2, sizeof(uint32_t)) != 0)
        return wj_fail_nomem(p->err);
    if (p->doc->cap_names - p->names_len < raw_len + sizeof decoded) {
        size_t cap;
        /* decoded names and their lengths fit in the input's length */
        char *np = wj_grow(p->doc->alloc, p->doc->names, p->doc->cap_names,
                           p->names_len + raw_len + sizeof decoded, 256,
                           p->len + sizeof decoded, &cap);
        if (!np)
            return wj_fail_nomem(p->err);
        p->doc->names = np;
        p->doc->cap_names = cap;
    }
    decoded = (uint32_t)wj_string_decode(
        (const char *)p->s + start + 1, raw_len,
        p->doc->names + p->names_len + sizeof decoded);
    memcpy(p->doc->names + p->names_len, &decoded, sizeof decoded);
    /* The names fit in the input's length, so their offsets in 32 bits. */
    p->doc->tape[idx] = (uint32_t)start + 1;
    doc->escaped[2 * doc->n_escaped] = (uint32_t)start + 1;
    doc->escaped[2 * doc->n_escaped + 1] = (uint32_t)p->names_len;
    doc->n_escaped++;
    p->names_len += sizeof decoded + decoded;
    return WJ_OK;
}

const char *wj_escaped_name(const wj_doc *doc, uint32_t first)
{
    uint32_t lo = 0, hi = doc->n_escaped;
    while (lo < hi) { /* the first pair whose slot is not below first */
        uint32_t mid = lo + (hi - lo) / 2;
        if (doc->escaped[2 * mid] < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    return doc->names + doc->escaped[2 * lo + 1];
}

/* What a string literal is to the parser. */
typedef enum string_kind {
    STRING_VALUE, /* a value, with a record */
    STRING_NAME,  /* a member name, with a record */
    STRING_UNKEPT, /* a value that gets no record (p->records is 0) */
    STRING_WRITTEN, /* the one pass: a value, written to p->out */
    STRING_NAME_WRITTEN /* the one pass: a member name, with a record whose
                           second slot is where its member starts in p->out */
} string_kind;

/* Whether the one pass writes a string of this kind to its output. */
static inline int writes(string_kind kind)
{
    return kind == STRING_WRITTEN || kind == STRING_NAME_WRITTEN;
}

/* Adds the record of the string literal s[start..end) (end one past its
 * closing quote) found with flags, a value or a member name (whose flags go
 * to *name_flags; a name with escapes is decoded into doc->names). */
static inline __attribute__((always_inline)) wj_code
add_string(parser *p, wj_cursor *o, string_kind kind, size_t start, size_t end,
           uint8_t flags, uint8_t *name_flags)
{
    int is_name = kind == STRING_NAME || kind == STRING_NAME_WRITTEN;
    uint32_t idx;
    wj_code rc;
    if (kind == STRING_UNKEPT || kind == STRING_WRITTEN)
        return kind == STRING_UNKEPT
                   ? WJ_OK
                   : put_string(p, o, start, end, flags & WJ_STR_REWRITE);
    idx = add_record(p, kind == STRING_NAME ? WJ_NAME_SLOTS : 2, start);
    if (idx == UINT32_MAX)
        return wj_fail_nomem(p->err);
    if (!is_name) {
        p->doc->tape[idx + 1] = flags & WJ_STR_REWRITE ? 0 : (uint32_t)end;
        return WJ_OK;
    }
    *name_flags = flags;
    if (kind == STRING_NAME_WRITTEN) {
        p->doc->tape[idx + 1] =
            (uint32_t)((size_t)(o->at - p->out->ptr) - p->out_base);
        rc = put_string(p, o, start, end, flags & WJ_STR_ESCAPED);
        if (rc != WJ_OK)
            return rc;
    }
    return flags & WJ_STR_ESCAPED ? decode_name(p, idx, start, end) : WJ_OK;
}

/* The rest of parse_string, out of line: the string that opens at p->pos
 * goes on past s[i], an escape, a control or a non-ASCII byte (or the end
 * of input).  Leaves p->pos one past its closing quote. */
static __attribute__((noinline)) wj_code
parse_string_rest(parser *p, string_kind kind, uint8_t *name_flags, size_t i)
{
    const unsigned char *s = p->s;
    size_t len = p->len, start;
    uint8_t flags = 0;
    wj_cursor o;
    wj_code rc;
#if WJ_HAVE_AVX2_PATH
    int path = wj_simd();
    /* A value the one pass writes: checked as it is written, in one pass
     * over its bytes rather than a skip and then a copy. */
    if (kind == STRING_WRITTEN && path == WJ_SIMD_AVX512) {
        size_t end = wj_write_canonical_string(p->out, (const char *)s, len,
                                               p->pos, p->poll_at);
        if (end == SIZE_MAX)
            return wj_buf_fail(p->out, p->err);
        if (end) {
            p->pos = end;
            return WJ_OK;
        }
    }
#endif

    for (;;) {
        unsigned char c;
        if (i >= p->poll_at && poll_hook(p, i) != WJ_OK)
            return WJ_ERR_INTERRUPTED;
        if (i >= len)
            return fail_syntax(p, len, NULL);
        c = s[i];
        if (c == '"')
            break;
        if (c == '\\') {
            size_t k;
            flags |= WJ_STR_ESCAPED;
            /* The common two-byte escapes, inline; \u goes the long way. */
            while (i + 1 < len && s[i] == '\\' && simple_escape[s[i + 1]]) {
                flags |= rewritten_escape[s[i + 1]];
                i += 2;
            }
            if (i < len && s[i] >= WJ_UTF8_MARK_LEAD)
                flags |= WJ_STR_REWRITE;
            if (i < len && s[i] == '\\') {
                flags |= WJ_STR_REWRITE;
                rc = check_escape(p, i, &flags, &k);
                if (rc != WJ_OK)
                    return rc;
                i += k;
            }
        } else if (c < 0x20) {
            return fail(p, WJ_ERR_SYNTAX, i,
                        "unescaped control character in string");
        } else {
            /* Non-ASCII text comes in runs: validate the whole run here. */
            do {
                size_t k = wj_utf8_length(s + i, len - i, 0);
                if (!k)
                    return fail(p, WJ_ERR_UTF8, i, "invalid UTF-8");
                if (s[i] >= WJ_UTF8_UTF16_ORDER_LEAD)
                    flags |= WJ_STR_UTF16;
                i += k;
            } while (i < len && s[i] >= 0x80 && i < p->poll_at);
            if (i < len && s[i] >= 0x80)
                continue; /* stopped at p->poll_at: the hook is due */
        }
#if WJ_HAVE_AVX2_PATH
        if (path >= WJ_SIMD_AVX2 && i >= 3) {
            /* its blocks stop where the hook is due */
            size_t end = len < p->poll_at ? len
                         : i > p->poll_at ? i
                                          : p->poll_at;
            i = path == WJ_SIMD_AVX512
                    ? wj_string_skip_avx512(s, i, end, &flags)
                    : wj_string_skip_avx2(s, i, end, &flags);
        }
#endif
        i = scan_plain(s, i, len);
    }
    start = p->pos;
    p->pos = i + 1;
    if (!writes(kind))
        return add_string(p, NULL, kind, start, i + 1, flags, name_flags);
    o = wj_cursor_resume(p->out);
    rc = add_string(p, &o, kind, start, i + 1, flags, name_flags);
    wj_cursor_pause(p->out, o);
    return rc;
}

/* Parses the string literal at *pos in s (p->s, len bytes), adds its
 * record (add_string; the one pass writes it at the cursor o) and moves
 * *pos past it.  Most strings hold nothing but plain ASCII: those stay
 * inline, in the parser's loop itself (as a call, its entry and exit cost
 * about as much as a short name's scan). */
static inline __attribute__((always_inline)) wj_code
parse_string(parser *p, wj_cursor *o, const unsigned char *s, size_t len,
             string_kind kind, uint8_t *name_flags, size_t *pos)
{
    size_t start = *pos, i = scan_plain(s, start + 1, len);
    wj_code rc;
    if (i < len && s[i] == '"') {
        *pos = i + 1;
        return add_string(p, o, kind, start, i + 1, 0, name_flags);
    }
    p->pos = start;
    if (writes(kind))
        wj_cursor_pause(p->out, *o);
    rc = parse_string_rest(p, kind, name_flags, i);
    if (writes(kind))
        *o = wj_cursor_resume(p->out);
    *pos = p->pos;
    return rc;
}

/* The index of the first byte from s[i] on that is not a digit (len when
 * there is none), eight bytes at a time: x = byte ^ '0' is 0..9 for a digit
 * and sets its high bit, or gets it set by adding 0x76, for anything else
 * (a carry out of one byte only reaches later bytes). */
static size_t skip_digits(const unsigned char *s, size_t i, size_t len)
{
    while (len - i >= 8) {
        uint64_t v, x, stop;
        memcpy(&v, s + i, 8);
        x = v ^ 0x3030303030303030u;
        stop = ((x + 0x7676767676767676u) | x) & 0x8080808080808080u;
        if (stop) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            return i + (size_t)__builtin_ctzll(stop) / 8;
#else
            break;
#endif
        }
        i += 8;
    }
    while (i < len && wj_is_digit(s[i]))
        i++;
    return i;
}

/* The number grammar, once: wj_number_scan for the writers, inlined into
 * the parser's loop. */
static inline size_t scan_number(const char *json, size_t len, size_t at,
                                 size_t *int_end, size_t *bad,
                                 const char **why)
{
    const unsigned char *s = (const unsigned char *)json;
    size_t i = at;

    if (s[i] == '-')
        i++;
    if (i < len && s[i] == '0') {
        i++;
        if (i < len && wj_is_digit(s[i])) {
            *why = "leading zero in number";
            goto broken;
        }
    } else if (i < len && wj_is_digit(s[i])) {
        i = skip_digits(s, i + 1, len);
    } else {
        *why = "expected a digit";
        goto broken;
    }
    *int_end = i;
    if (i < len && s[i] == '.') {
        i++;
        if (i >= len || !wj_is_digit(s[i])) {
            *why = "expected a digit after '.'";
            goto broken;
        }
        i = skip_digits(s, i + 1, len);
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= len || !wj_is_digit(s[i])) {
            *why = "expected a digit in the exponent";
            goto broken;
        }
        i = skip_digits(s, i + 1, len);
    }
    return i - at;
broken:
    *bad = i;
    return 0;
}

size_t wj_number_scan(const char *json, size_t len, size_t at, size_t *bad,
                      const char **why)
{
    size_t int_end;
    return scan_number(json, len, at, &int_end, bad, why);
}

/* Parses the number at *pos and moves *pos past it. */
static inline wj_code parse_number(parser *p, wj_cursor *o, int records,
                                   int emit, size_t *pos)
{
    size_t start = *pos, bad = 0, int_end = 0;
    const char *why = NULL;
    size_t n =
        scan_number((const char *)p->s, p->len, start, &int_end, &bad, &why);

    if (!n)
        return fail_syntax(p, bad, why);
    if (records && add_record(p, 1, start) == UINT32_MAX)
        return wj_fail_nomem(p->err);
    *pos = start + n;
    if (!emit)
        return WJ_OK;
    /* most integers (max_tokens, n, an index) are written as they are
     * read: no call to read them again */
    if (int_end == start + n &&
        wj_integer_as_written((const char *)p->s + start, n))
        return put_input(p, o, start, n);
    return put_number(p, o, start, n);
}

/* The error of a literal at start that is not word: at its first wrong
 * byte, or the end of input. */
static __attribute__((noinline)) wj_code bad_literal(parser *p, size_t start,
                                                     const char *word)
{
    size_t k;
    for (k = 0; word[k]; k++) {
        if (start + k >= p->len)
            return fail_syntax(p, p->len, NULL);
        if (p->s[start + k] != (unsigned char)word[k])
            break;
    }
    return fail(p, WJ_ERR_SYNTAX, start + k, "invalid literal");
}

/* Parses the literal word (n bytes) at *pos, inline (a compare of constant
 * length), and moves *pos past it. */
static inline wj_code parse_literal(parser *p, wj_cursor *o, const char *word,
                                    size_t n, int records, int emit,
                                    size_t *pos)
{
    size_t start = *pos;
    if (p->len - start < n || memcmp(p->s + start, word, n) != 0)
        return bad_literal(p, start, word);
    if (records && add_record(p, 1, start) == UINT32_MAX)
        return wj_fail_nomem(p->err);
    *pos = start + n;
    return emit ? put_input(p, o, start, n) : WJ_OK;
}

/*
 * A parse for the verdict only (WJ_PARSE_VERDICT_ONLY) keeps, for each
 * open object, a filter of the names it has seen: a bit a name, which
 * equal names share.  A name whose bit is set already fills the filter, and
 * so does a name with escapes (its decoded form is what counts), so an
 * object whose filter is not full at its close holds no repeat and needs no
 * comparison of names at all; one whose filter is full goes the exact way.
 */
#define NAMES_SUSPECT (~(uint64_t)0)

/* The bits of the first n (below 8) of 8 bytes loaded as one number. */
static inline uint64_t first_bytes_mask(size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return ~(~(uint64_t)0 >> (8 * n));
#else
    return ((uint64_t)1 << (8 * n)) - 1;
#endif
}

static inline uint64_t add_to_filter(const parser *p, uint64_t filter,
                                     size_t start, size_t end, uint8_t flags)
{
    const unsigned char *s = p->s;
    size_t n = end - start - 2, first = start + 1;
    uint64_t head, tail, keep, bit;

    if ((flags & WJ_STR_ESCAPED) || p->len - first < 8)
        return NAMES_SUSPECT;
    /* The first 8 bytes of the name and its last 8 (only those it has, for
     * a name of fewer), and its length. */
    memcpy(&head, s + first, 8);
    memcpy(&tail, s + (n >= 8 ? end - 9 : first), 8);
    keep = n >= 8 ? ~(uint64_t)0 : first_bytes_mask(n);
    bit = (uint64_t)1 << ((((head & keep) ^ ((tail & keep) >> 3) ^ n) *
                           0x9E3779B97F4A7C15u) >>
                          58);
    return filter & bit ? NAMES_SUSPECT : filter | bit;
}

/* The one pass moves at most this many bytes a byte of input to put
 * members in order: deep nests of unsorted objects would move theirs once a
 * level, and past the bound the tape's way, linear at any depth, takes
 * over. */
#define MOVES_PER_BYTE 8
#define MOVES_SLACK 4096

/* Counts n more bytes moved: 0 once past the bound. */
static inline int may_move(parser *p, size_t n)
{
    p->moved += n;
    return p->moved <= p->len * MOVES_PER_BYTE + MOVES_SLACK;
}

/* Objects of up to this many members keep their names' input order for
 * reorder_members on the stack. */
#define RUN_ON_STACK 32

/* The one pass, at an object's close: where its members start in p->out
 * into starts[0..n] (starts[n] one past the output's end, as if a ','
 * followed), and each member's k into its name record's second slot in
 * place of that. */
static void note_starts(parser *p, const uint32_t *names, uint32_t n,
                        uint32_t *starts)
{
    uint32_t *tape = p->doc->tape, k;
    for (k = 0; k < n; k++) {
        starts[k] = tape[names[k] + 1];
        tape[names[k] + 1] = k;
    }
    starts[n] = (uint32_t)(p->out->len - p->out_base) + 1;
}

/* Bytes the one pass holds aside while it reorders members: up to this
 * many (with wj_copy_short's room after them) on the stack, more past the
 * output's end.  A small document's buffer then needs no room for its
 * root's reorder: it stays small enough for the C library's fastest
 * blocks (glibc's per-thread cache takes up to 1,032 bytes). */
#define ASIDE_ON_STACK 4096

/* Where to hold n bytes aside: on_stack (ASIDE_ON_STACK bytes) when they
 * fit, else past the output's end; either way the output gets room for
 * wj_copy_short's writes past its end.  NULL when out of memory. */
static char *room_aside(parser *p, size_t n, char *on_stack)
{
    wj_buf *out = p->out;
    if (n + WJ_SHORT_SLACK <= ASIDE_ON_STACK)
        return wj_buf_reserve(out, WJ_SHORT_SLACK) == 0 ? on_stack : NULL;
    if (wj_buf_reserve(out, n + 3 * WJ_SHORT_SLACK) != 0)
        return NULL;
    return out->ptr + out->len + WJ_SHORT_SLACK;
}

/* reorder_members for a span too long for the stack: the longest member
 * (a body's messages, a message's content) moves once, straight to where
 * it goes, rather than out and back; the others are copied aside first
 * (those before it, then those after it) and written back around it.
 * Members k.. are the ones out of place, from `first` on; on_stack as
 * room_aside's. */
static __attribute__((noinline)) wj_code
reorder_long(parser *p, const uint32_t *starts, const uint32_t *sorted,
             uint32_t n, uint32_t k, size_t first, size_t end, char *on_stack)
{
    const uint32_t *tape = p->doc->tape;
    size_t big_len = 0, big_from, big_at, before, at;
    char *base, *copy;
    uint32_t j, i, big = k;

    for (i = k; i < n; i++)
        if (starts[i + 1] - 1 - starts[i] > big_len)
            big = i, big_len = starts[i + 1] - 1 - starts[i];
    big_from = starts[big];
    before = big_from - first;
    copy = room_aside(p, end - first - big_len, on_stack);
    if (!copy)
        return wj_buf_fail(p->out, p->err);
    base = p->out->ptr + p->out_base;
    memcpy(copy, base + first, before);
    memcpy(copy + before, base + big_from + big_len, end - big_from - big_len);
    for (big_at = first, j = k; tape[sorted[j] + 1] != big; j++) {
        i = tape[sorted[j] + 1];
        big_at += starts[i + 1] - starts[i];
    }
    memmove(base + big_at, base + big_from, big_len);
    for (at = first, j = k; j < n; j++) {
        size_t from, n_bytes;
        i = tape[sorted[j] + 1];
        from = starts[i], n_bytes = starts[i + 1] - 1 - from;
        if (i != big) /* exactly: what follows may be in place already */
            memcpy(base + at,
                   copy + (from < big_from ? from - first
                                           : from - big_len - first),
                   n_bytes);
        at += n_bytes;
        if (j + 1 < n)
            base[at++] = ',';
    }
    return WJ_OK;
}

/* The one pass: the members of the object that just closed stand in
 * p->out in input order, member k from starts[k] up to the ',' before
 * starts[k + 1] (starts[n] is one past the output's end); sorted[0..n) are
 * their names in order, each name record's second slot holding its
 * member's k.  Writes them again in that order. */
static wj_code reorder_members(parser *p, const uint32_t *starts,
                               const uint32_t *sorted, uint32_t n)
{
    wj_buf *out = p->out;
    const uint32_t *tape = p->doc->tape;
    size_t first, end = out->len - p->out_base, span, at;
    char *base, *copy, on_stack[ASIDE_ON_STACK];
    uint32_t k = 0;

    while (k < n && tape[sorted[k] + 1] == k) /* members in place stay */
        k++;
    if (k == n)
        return WJ_OK;
    first = starts[k];
    span = end - first;
    if (!may_move(p, span))
        return WJ_DECLINED;
    if (span + WJ_SHORT_SLACK > ASIDE_ON_STACK)
        return reorder_long(p, starts, sorted, n, k, first, end, on_stack);
    /* the members, copied aside, then back in order */
    copy = room_aside(p, span, on_stack);
    if (!copy)
        return wj_buf_fail(out, p->err);
    base = out->ptr + p->out_base;
    memcpy(copy, base + first, span);
    for (at = first; k < n; k++) {
        uint32_t i = tape[sorted[k] + 1];
        size_t from = starts[i], n_bytes = starts[i + 1] - 1 - from;
        wj_copy_short(base + at, copy + (from - first), n_bytes);
        at += n_bytes;
        if (k + 1 < n)
            base[at++] = ',';
    }
    return WJ_OK;
}

/* The one pass: the two members of the object that just closed stand in
 * p->out in input order, from a and from b (after a's ',') to the output's
 * end; swaps them.  The shorter waits aside while the longer moves over. */
static wj_code swap_members(parser *p, size_t a, size_t b)
{
    wj_buf *out = p->out;
    size_t end = out->len - p->out_base, len_a = b - 1 - a, len_b = end - b;
    char *base, *stash, on_stack[ASIDE_ON_STACK];

    if (!may_move(p, end - a))
        return WJ_DECLINED;
    stash = room_aside(p, len_a < len_b ? len_a : len_b, on_stack);
    if (!stash)
        return wj_buf_fail(out, p->err);
    base = out->ptr + p->out_base;
    if (len_a <= len_b) {
        wj_copy_short(stash, base + a, len_a);
        memmove(base + a, base + b, len_b);
        base[a + len_b] = ',';
        wj_copy_short(base + a + len_b + 1, stash, len_a);
    } else {
        wj_copy_short(stash, base + b, len_b);
        memmove(base + a + len_b + 1, base + a, len_a);
        memcpy(base + a, stash, len_b); /* exactly: a's bytes follow */
        base[a + len_b] = ',';
    }
    return WJ_OK;
}

/* Sorts the names of the non-empty object that just closed, reports the
 * earliest repeated name, and puts them on the tape unless they arrived in
 * order (then WJ_COUNT_IN_ORDER goes into *count); the one pass moves its
 * members into that order in p->out instead.  A parse for the verdict
 * only (WJ_PARSE_VERDICT_ONLY) just looks for the repeat (where the
 * object's filter says one may be), and a short list needs no sort for
 * that. */
static wj_code close_object(parser *p, uint32_t key_base, uint32_t *count)
{
    wj_doc *doc = p->doc;
    uint32_t n = p->n_keys - key_base, at;
    uint32_t *names = p->keys + key_base;
    uint32_t starts_here[RUN_ON_STACK + 1], *starts = starts_here;
    size_t repeat;
    int in_order = 0, keep_order = p->records || p->out;

    if (n == 1) { /* one name: in order, and nothing to repeat */
        p->n_keys = key_base;
        if (keep_order)
            *count |= WJ_COUNT_IN_ORDER;
        return WJ_OK;
    }
    if (n == 2 && keep_order) {
        /* the commonest object of all: one comparison, here */
        uint32_t *ends = p->key_ends + key_base;
        int c = wj_compare_bytes_quick(
            wj_doc_name_ending(doc, names[0], ends[0]),
            wj_doc_name_ending(doc, names[1], ends[1]));
        p->n_keys = key_base;
        if (c == 0)
            return fail(p, WJ_ERR_DUPLICATE, wj_name_start(doc, names[1]),
                        "duplicate member name");
        if (c < 0) {
            *count |= WJ_COUNT_IN_ORDER;
            return WJ_OK;
        }
        if (p->out)
            return swap_members(p, doc->tape[names[0] + 1],
                                doc->tape[names[1] + 1]);
        at = add_record(p, 2, names[1]);
        if (at == UINT32_MAX)
            return wj_fail_nomem(p->err);
        doc->tape[at + 1] = names[0];
        return WJ_OK;
    }
    if (p->out) { /* where the members start, for reorder_members */
        if (n > RUN_ON_STACK) {
            if (n >= p->cap_starts &&
                grow(p, (void **)&p->starts, &p->cap_starts, n + 1,
                     sizeof(uint32_t)) != 0)
                return wj_fail_nomem(p->err);
            starts = p->starts;
        }
        note_starts(p, names, n, starts);
    }
    if (!keep_order && n <= WJ_REPEAT_PAIRWISE) {
        repeat = wj_names_repeat(doc, names, p->key_ends + key_base, n);
    } else {
        if (n > p->cap_tmp &&
            grow(p, (void **)&p->tmp, &p->cap_tmp, n, sizeof(uint32_t)) != 0)
            return wj_fail_nomem(p->err);
        repeat = wj_sort_names_unique(doc, names, p->key_ends + key_base, n,
                                      p->tmp, &in_order);
    }
    if (repeat != SIZE_MAX)
        return fail(p, WJ_ERR_DUPLICATE, repeat, "duplicate member name");
    p->n_keys = key_base;
    if (!keep_order)
        return WJ_OK;
    if (in_order) {
        *count |= WJ_COUNT_IN_ORDER;
        return WJ_OK;
    }
    if (p->out)
        return reorder_members(p, starts, names, n);
    at = add_record(p, n, names[0]);
    if (at == UINT32_MAX)
        return wj_fail_nomem(p->err);
    memcpy(doc->tape + at, names, n * sizeof(uint32_t));
    return WJ_OK;
}

/* The parser's loop, written once and compiled three times: with records
 * for every value; (records 0) with records for member names only; and
 * (emit 1, records 0) as the one pass, with records for member names and
 * the canonical rendering written to p->out. */
static inline __attribute__((always_inline)) wj_code
parse_tree_as(parser *p, const int records, const int emit)
{
    uint32_t stack[WJ_MAX_DEPTH];    /* open containers' records (with no
                                        records: their offsets) */
    uint32_t count[WJ_MAX_DEPTH];    /* their children so far (| flags) */
    uint32_t key_base[WJ_MAX_DEPTH]; /* their first entry in p->keys */
    uint64_t filter[WJ_MAX_DEPTH];   /* their names so far (verdict only) */
    unsigned depth = 0;
    int in_object = 0; /* the innermost open container is an object */
    int track_names = !(p->opts & WJ_PARSE_ALLOW_DUPLICATES);
    int use_filter = track_names && !records && !emit; /* verdict only */
    wj_code rc;
    uint32_t idx;
    uint8_t name_flags;
    size_t name_start;
    /* The input and where the parse is, in registers: the one pass's
     * writes through char pointers would have them read from *p again
     * after every byte written. */
    const unsigned char *const s = p->s;
    const size_t len = p->len;
    size_t pos = p->pos;
    wj_cursor o = {NULL, NULL}; /* the one pass's output */

    if (emit)
        o = wj_cursor_resume(p->out);
    if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        return fail(p, WJ_ERR_SYNTAX, 0, "byte order mark is not allowed");
    pos = skip_space(s, len, pos);

value:
    if (pos >= len)
        return fail_syntax(p, len, NULL);
    switch (s[pos]) {
    case '{':
    case '[': {
        int is_object = s[pos] == '{';
        if (depth == WJ_MAX_DEPTH)
            return fail(p, WJ_ERR_DEPTH, pos, "nesting deeper than 1000");
        idx = records ? add_record(p, WJ_CONTAINER_SLOTS, pos)
                      : (uint32_t)pos;
        if (idx == UINT32_MAX)
            return wj_fail_nomem(p->err);
        if (emit && (rc = put_char(p, &o, (char)s[pos])) != WJ_OK)
            return rc;
        stack[depth] = idx;
        count[depth] = 0;
        key_base[depth] = p->n_keys;
        filter[depth] = 0;
        depth++;
        in_object = is_object;
        pos = skip_space(s, len, pos + 1);
        if (pos < len && s[pos] == (is_object ? '}' : ']'))
            goto close;
        count[depth - 1] = 1;
        if (is_object)
            goto member;
        goto value;
    }
    case '"':
        rc = parse_string(p, &o, s, len,
                          records ? STRING_VALUE
                          : emit  ? STRING_WRITTEN
                                  : STRING_UNKEPT,
                          &name_flags, &pos);
        break;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': rc = parse_number(p, &o, records, emit, &pos); break;
    case 't': rc = parse_literal(p, &o, "true", 4, records, emit, &pos); break;
    case 'f': rc = parse_literal(p, &o, "false", 5, records, emit, &pos); break;
    case 'n': rc = parse_literal(p, &o, "null", 4, records, emit, &pos); break;
    default: return fail(p, WJ_ERR_SYNTAX, pos, "expected a value");
    }
    if (rc != WJ_OK)
        return rc;

after_value:
    if (pos >= p->poll_at && (rc = poll_hook(p, pos)) != WJ_OK)
        return rc;
    pos = skip_space(s, len, pos);
    if (depth == 0) {
        if (pos != len)
            return fail(p, WJ_ERR_SYNTAX, pos,
                        "trailing characters after the value");
        if (emit)
            wj_cursor_pause(p->out, o);
        return WJ_OK;
    }
    if (pos >= len)
        return fail_syntax(p, len, NULL);
    if (s[pos] == ',') {
        if (emit && (rc = put_char(p, &o, ',')) != WJ_OK)
            return rc;
        pos = skip_space(s, len, pos + 1);
        if (pos < len && (s[pos] == ']' || s[pos] == '}'))
            return fail(p, WJ_ERR_SYNTAX, pos, "trailing comma");
        count[depth - 1]++;
        if (in_object)
            goto member;
        goto value;
    }
    if (s[pos] != (in_object ? '}' : ']'))
        return fail(p, WJ_ERR_SYNTAX, pos,
                    in_object ? "expected ',' or '}' after object member"
                              : "expected ',' or ']' after array element");

close:
    depth--;
    idx = stack[depth];
    if (!count[depth]) {
        /* empty: the two slots say it all */
    } else if (in_object) {
        if (use_filter && filter[depth] != NAMES_SUSPECT) {
            p->n_keys = key_base[depth]; /* no repeat: nothing to compare */
        } else if (track_names) {
            if (emit)
                wj_cursor_pause(p->out, o);
            rc = close_object(p, key_base[depth], &count[depth]);
            if (rc != WJ_OK)
                return rc;
            if (emit)
                o = wj_cursor_resume(p->out);
        }
        if (records && add_record(p, 1, count[depth]) == UINT32_MAX)
            return wj_fail_nomem(p->err);
    } else if (!records) {
        /* no record to finish */
    } else if (p->doc->n_tape - idx - WJ_CONTAINER_SLOTS != count[depth]) {
        /* not all numbers and literals: at its ']', with its count */
        p->doc->tape[idx] = (uint32_t)pos;
        if (add_record(p, 1, count[depth]) == UINT32_MAX)
            return wj_fail_nomem(p->err);
    }
    if (records)
        p->doc->tape[idx + 1] = p->doc->n_tape; /* next */
    if (emit && (rc = put_char(p, &o, (char)s[pos])) != WJ_OK)
        return rc;
    pos++;
    if (depth > 0) { /* the parent's record still starts at its opening byte */
        uint32_t open =
            records ? p->doc->tape[stack[depth - 1]] : stack[depth - 1];
        in_object = s[open] == '{';
    }
    goto after_value;

member:
    if (pos >= len)
        return fail_syntax(p, len, NULL);
    if (s[pos] != '"')
        return fail(p, WJ_ERR_SYNTAX, pos,
                    "expected '\"' to begin a member name");
    idx = p->doc->n_tape;
    name_start = pos;
    rc = parse_string(p, &o, s, len, emit ? STRING_NAME_WRITTEN : STRING_NAME,
                      &name_flags, &pos);
    if (rc != WJ_OK)
        return rc;
    /* UTF-16 order (§5) is the walk's to make */
    if (emit && (name_flags & WJ_STR_UTF16))
        return WJ_DECLINED;
    if (use_filter)
        filter[depth - 1] =
            add_to_filter(p, filter[depth - 1], name_start, pos, name_flags);
    if (track_names) {
        if (p->n_keys == p->key_room && grow_keys(p) != 0)
            return wj_fail_nomem(p->err);
        p->key_ends[p->n_keys] = (uint32_t)pos;
        p->keys[p->n_keys++] = idx;
        if (name_flags & WJ_STR_UTF16)
            count[depth - 1] |= WJ_COUNT_UTF16;
    }
    pos = skip_space(s, len, pos);
    if (pos >= len || s[pos] != ':')
        return fail_syntax(p, pos, "expected ':' after member name");
    if (emit && (rc = put_char(p, &o, ':')) != WJ_OK)
        return rc;
    pos = skip_space(s, len, pos + 1);
    goto value;
}

static __attribute__((noinline)) wj_code parse_with_records(parser *p)
{
    return parse_tree_as(p, 1, 0);
}

static __attribute__((noinline)) wj_code parse_names_only(parser *p)
{
    return parse_tree_as(p, 0, 0);
}

static __attribute__((noinline)) wj_code parse_canonical(parser *p)
{
    return parse_tree_as(p, 0, 1);
}

/* wj_doc_parse, or the one pass when out is not NULL (then doc is only
 * the parse's working state, released before the return). */
static wj_code parse_into(wj_doc *doc, const char *json, size_t len,
                          unsigned opts, const wj_alloc *alloc, wj_buf *out,
                          wj_error *err)
{
    parser p;
    wj_scratch_block kept[WJ_SCRATCH_PARSER_KINDS];
    uint32_t first;
    wj_code rc;

    (void)wj_simd(); /* decided before the inline steps read WJ_BLOCK16 */
    memset(doc, 0, sizeof *doc);
    doc->json = json;
    doc->len = len;
    doc->alloc = alloc;
    wj_error_clear(err);
    if (len > WJ_MAX_INPUT)
        return wj_fail(err, WJ_ERR_TOOBIG, 0, "input too large");

    memset(&p, 0, sizeof p);
    p.s = (const unsigned char *)json;
    p.len = len;
    p.opts = opts;
    p.records = !out && !(opts & WJ_PARSE_VERDICT_ONLY);
    p.out = out;
    p.out_base = out ? out->len : 0;
    p.doc = doc;
    p.err = err;
    p.poll_at = wj_pollable(alloc) ? WJ_POLL_BYTES : SIZE_MAX;
    wj_scratch_take(alloc, WJ_SCRATCH_TAPE, WJ_SCRATCH_PARSER_KINDS, kept);
    doc->tape = as_array(kept[WJ_SCRATCH_TAPE], &doc->cap_tape);
    doc->names = kept[WJ_SCRATCH_NAMES].ptr;
    doc->cap_names = kept[WJ_SCRATCH_NAMES].size;
    p.keys = as_array(kept[WJ_SCRATCH_KEYS], &p.cap_keys);
    p.key_ends = as_array(kept[WJ_SCRATCH_KEY_ENDS], &p.cap_key_ends);
    p.tmp = as_array(kept[WJ_SCRATCH_SORT], &p.cap_tmp);
    note_key_room(&p); /* kept blocks: no growth at the first name */
    /* Request bodies need a slot per 5 to 16 bytes, number-dense ones up
     * to one per 3: a slot per 4 bytes spares most of them a copy as the
     * tape grows (by doubling), and the pages of a slot never used are
     * never touched. */
    first = (uint32_t)(len / 4 < 1u << 22 ? len / 4 + 16 : 1u << 22);
    if (doc->cap_tape < first &&
        grow_to(&p, (void **)&doc->tape, &doc->cap_tape, first,
                sizeof(uint32_t), max_slots(len)) != 0)
        rc = wj_fail_nomem(err);
    else
        rc = out         ? parse_canonical(&p)
             : p.records ? parse_with_records(&p)
                         : parse_names_only(&p);
    wj_free(alloc, p.starts);
    kept[WJ_SCRATCH_KEYS] = array_block(p.keys, p.cap_keys);
    kept[WJ_SCRATCH_KEY_ENDS] = array_block(p.key_ends, p.cap_key_ends);
    kept[WJ_SCRATCH_SORT] = array_block(p.tmp, p.cap_tmp);
    if (out) { /* the one pass keeps no document: all goes back at once */
        kept[WJ_SCRATCH_TAPE] = array_block(doc->tape, doc->cap_tape);
        kept[WJ_SCRATCH_NAMES] = (wj_scratch_block){doc->names, doc->cap_names};
        wj_scratch_give(alloc, WJ_SCRATCH_TAPE, WJ_SCRATCH_PARSER_KINDS, kept);
        wj_free(alloc, doc->escaped);
        return rc;
    }
    wj_scratch_give(alloc, WJ_SCRATCH_KEYS, 3, kept + WJ_SCRATCH_KEYS);
    if (rc != WJ_OK)
        wj_doc_release(doc);
    return rc;
}

wj_code wj_doc_parse(wj_doc *doc, const char *json, size_t len, unsigned opts,
                     const wj_alloc *alloc, wj_error *err)
{
    return parse_into(doc, json, len, opts, alloc, NULL, err);
}

/* The longest input the one pass takes: its offsets in the output are 32
 * bits, and a rendering is at most about 5.25 times as long as its input
 * (`1E20` is written `100000000000000000000`). */
#define ONE_PASS_MOST ((size_t)UINT32_MAX / 8)

wj_code wj_canonical_one_pass(const char *json, size_t len,
                              const wj_alloc *alloc, wj_buf *out,
                              wj_error *err)
{
    wj_doc doc;
    size_t mark = out->len;
    wj_code rc;

    wj_error_clear(err);
    if (len > ONE_PASS_MOST)
        return WJ_DECLINED;
    if (wj_buf_presize(out, wj_render_reserve(len)) != 0)
        return wj_buf_fail(out, err);
    rc = parse_into(&doc, json, len, 0, alloc, out, err);
    if (rc == WJ_OK)
        return WJ_OK;
    out->len = mark;
    if (rc == WJ_DECLINED)
        wj_error_clear(err);
    return rc;
}

void wj_doc_release(wj_doc *doc)
{
    const wj_alloc *alloc = doc->alloc;
    wj_scratch_block kept[2] = {array_block(doc->tape, doc->cap_tape),
                                {doc->names, doc->cap_names}};
    wj_scratch_give(alloc, WJ_SCRATCH_TAPE, 2, kept);
    wj_free(alloc, doc->escaped);
    doc->tape = NULL;
    doc->names = NULL;
    doc->escaped = NULL;
    doc->n_escaped = 0;
    doc->cap_escaped = 0;
    doc->n_tape = 0;
    doc->cap_tape = 0;
    doc->cap_names = 0;
}

/* Only bytes that start a value are ever looked up. */
/* clang-format off */
const unsigned char wj_value_type[256] = {
    ['{'] = WJ_OBJECT, ['['] = WJ_ARRAY, [']'] = WJ_ARRAY, ['"'] = WJ_STRING,
    ['-'] = WJ_NUMBER, ['0'] = WJ_NUMBER, ['1'] = WJ_NUMBER, ['2'] = WJ_NUMBER,
    ['3'] = WJ_NUMBER, ['4'] = WJ_NUMBER, ['5'] = WJ_NUMBER, ['6'] = WJ_NUMBER,
    ['7'] = WJ_NUMBER, ['8'] = WJ_NUMBER, ['9'] = WJ_NUMBER,
    ['t'] = WJ_TRUE, ['f'] = WJ_FALSE, ['n'] = WJ_NULL,
};
/* clang-format on */

/* clang-format off */
const unsigned char wj_number_byte[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
    ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['-'] = 1, ['+'] = 1,
    ['.'] = 1, ['e'] = 1, ['E'] = 1,
};
/* clang-format on */

size_t wj_string_end(const char *s, size_t len, size_t at)
{
    const unsigned char *u = (const unsigned char *)s;
    at++;
    for (;;) {
        at = scan_plain(u, at, len);
        if (u[at] == '"')
            return at + 1;
        /* a backslash skips the byte after it; anything else is text */
        at += u[at] == '\\' ? 2 : 1;
    }
}

/* The value of the last member of a non-empty object. */
static uint32_t last_value(const wj_doc *doc, uint32_t obj)
{
    uint32_t name = wj_node_first(obj), k, count = wj_node_count(doc, obj);
    for (k = 1; k < count; k++)
        name = wj_member_next(doc, name);
    return wj_member_value(name);
}

/* Records keep no end for an object or an array of scalars (wj_internal.h):
 * down the last children to a scalar, an empty container or an array that
 * keeps its end, then over the whitespace and the closing bracket of each
 * container on the way back up. */
uint32_t wj_container_end(const wj_doc *doc, uint32_t node)
{
    const unsigned char *s = (const unsigned char *)doc->json;
    unsigned open = 0; /* containers whose closing bracket is still ahead */
    size_t at;

    for (;;) {
        char c = doc->json[doc->tape[node]];
        if (c == ']') { /* an array kept at its closing bracket */
            at = doc->tape[node] + 1;
            break;
        }
        if (!wj_opens_container(c)) {
            at = wj_node_end(doc, node);
            break;
        }
        open++;
        if (wj_container_empty(doc, node)) {
            at = doc->tape[node] + 1;
            break;
        }
        node = c == '[' ? doc->tape[node + 1] - 1 : last_value(doc, node);
    }
    for (; open > 0; open--) {
        while (is_space[s[at]])
            at++;
        at++; /* the closing bracket */
    }
    return (uint32_t)at;
}

/* The same the other way: down the first children of arrays kept at their
 * closing bracket, then back over the whitespace and the opening brackets
 * before them. */
uint32_t wj_array_start(const wj_doc *doc, uint32_t node)
{
    const unsigned char *s = (const unsigned char *)doc->json;
    unsigned open = 0;
    size_t at;

    while (s[doc->tape[node]] == ']') { /* never empty: an empty is '[' */
        node = wj_node_first(node);
        open++;
    }
    at = doc->tape[node];
    for (; open > 0; open--) {
        at--;
        while (is_space[s[at]])
            at--;
        /* at the opening bracket */
    }
    return (uint32_t)at;
}

uint32_t wj_node_end(const wj_doc *doc, uint32_t node)
{
    size_t at = doc->tape[node];
    switch (doc->json[at]) {
    case '{':
    case '[':
    case ']': return wj_container_end(doc, node);
    case '"':
        if (doc->tape[node + 1])
            return doc->tape[node + 1];
        return (uint32_t)wj_string_end(doc->json, doc->len, at);
    case 't':
    case 'n': return (uint32_t)at + 4;
    case 'f': return (uint32_t)at + 5;
    default: return (uint32_t)wj_number_end(doc->json, doc->len, at);
    }
}

uint32_t wj_doc_find(const wj_doc *doc, const uint32_t *sorted, uint32_t n,
                     const char *name, size_t name_len)
{
    uint32_t lo = 0, hi = n;
    wj_span key = {name, name_len};
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = wj_compare_bytes_quick(wj_doc_name(doc, sorted[mid]), key);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}

uint32_t wj_doc_member(const wj_doc *doc, uint32_t obj, const char *name,
                       size_t name_len)
{
    const uint32_t *sorted = wj_doc_sorted(doc, obj);
    uint32_t k, count = wj_node_count(doc, obj), member;
    wj_span key = {name, name_len};

    if (sorted) {
        k = wj_doc_find(doc, sorted, count, name, name_len);
        return k == UINT32_MAX ? 0 : sorted[k];
    }
    /* names in document order are sorted: a walk that stops past it */
    for (k = 0, member = wj_node_first(obj); k < count;
         k++, member = wj_member_next(doc, member)) {
        int c = wj_compare_bytes(wj_doc_name(doc, member), key);
        if (c == 0)
            return member;
        if (c > 0)
            break;
    }
    return 0;
}
