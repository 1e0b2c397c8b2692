/* SPDX-License-Identifier: MIT */
/*
 * wj_internal.h - the parsed tree and the pieces the renderers share.
 *
 * Internal to libwirejson (the unit tests may include it).  Data flows
 *   bytes --wj_doc_parse--> wj_doc (a tape of records pointing into the bytes)
 *         --wj_render-->    bytes (wire or canonical) --> SHA-256 for digests.
 */
#ifndef WJ_INTERNAL_H
#define WJ_INTERNAL_H

#include "wirejson.h"

#include <stdint.h>
#include <string.h>

#include <stdatomic.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * The SIMD path the core takes (cpu.c): the fastest the processor has, or
 * the one the environment variable WIREJSON_SIMD names when it has that
 * one, else the best it has below it.  Decided once, at the first call;
 * every SIMD dispatch in the core reads this one decision.
 */
enum {
    WJ_SIMD_SCALAR = 1,
    WJ_SIMD_SSE2 = 2,
    WJ_SIMD_AVX2 = 3,
    WJ_SIMD_AVX512 = 4 /* AVX2, and the parser's strings 64 bytes a step */
};
/* Hidden, so that the loops reach these directly, not through the GOT. */
#if defined(__GNUC__) || defined(__clang__)
#define WJ_HIDDEN __attribute__((visibility("hidden")))
#else
#define WJ_HIDDEN
#endif
extern WJ_HIDDEN _Atomic int wj_simd_chosen; /* 0 until decided */
int wj_simd_decide(void);
/* Makes the core take `path` from now on, whatever the processor has: for
 * the tests, which run each path in one process. */
void wj_simd_use(int path);
static inline int wj_simd(void)
{
    int path = atomic_load_explicit(&wj_simd_chosen, memory_order_relaxed);
    return path ? path : wj_simd_decide();
}
/*
 * The loops ask without deciding, in one compare: WJ_AVX2_ON is true once
 * AVX2 (or AVX-512) is chosen, WJ_AVX512_ON once AVX-512 is; WJ_BLOCK16 is 16 once SSE2 or AVX2 is, else SIZE_MAX, and
 * a 16-byte step tests the bytes left against it instead of against 16.
 * Until decided both say scalar, never a faster path; the entries that
 * reach those loops (wj_doc_parse, the text writers) decide first.
 */
extern WJ_HIDDEN _Atomic size_t wj_simd_block16;
#define WJ_AVX2_ON                                                             \
    (atomic_load_explicit(&wj_simd_chosen, memory_order_relaxed) >=            \
     WJ_SIMD_AVX2)
#define WJ_AVX512_ON                                                           \
    (atomic_load_explicit(&wj_simd_chosen, memory_order_relaxed) ==            \
     WJ_SIMD_AVX512)
#define WJ_BLOCK16 atomic_load_explicit(&wj_simd_block16, memory_order_relaxed)

/* ------------------------------------------------------------- allocation */

void *wj_malloc(const wj_alloc *alloc, size_t size);

/* Work between two questions to the interrupted hook: about a MiB of input
 * read or output written. */
#define WJ_POLL_BYTES ((size_t)1 << 20)

/* True when alloc has an interrupted hook. */
static inline int wj_pollable(const wj_alloc *alloc)
{
    return alloc && alloc->interrupted;
}

/* Asks alloc's interrupted hook (if any): non-zero when the call must stop. */
static inline int wj_interrupted(const wj_alloc *alloc)
{
    return wj_pollable(alloc) && alloc->interrupted(alloc->ctx) != 0;
}
void *wj_realloc(const wj_alloc *alloc, void *ptr, size_t size);

/*
 * Grows the block ptr (cap bytes; NULL and 0 for none yet, then `first` is
 * the size to start from) to hold at least need bytes, by the library's one
 * growth policy (alloc.c): doubling, but never past `most` (what the data
 * can need), nor to a block SQLite's allocator refuses while the need is
 * smaller, and after a large request is refused, half the increment and
 * half again, down to just need.  Returns the new block and sets *new_cap, or
 * NULL (ptr untouched).
 */
void *wj_grow(const wj_alloc *alloc, void *ptr, size_t cap, size_t need,
              size_t first, size_t most, size_t *new_cap);

/* The parser's working arrays and a digest's text, kept between calls that
 * use the default allocator (scratch.c).  Kinds given back together are
 * neighbours: the tape and names with the document, the member lists at
 * the parse's end. */
typedef enum wj_scratch_kind {
    WJ_SCRATCH_TAPE,
    WJ_SCRATCH_NAMES,
    WJ_SCRATCH_KEYS,
    WJ_SCRATCH_KEY_ENDS,
    WJ_SCRATCH_SORT,
    WJ_SCRATCH_TEXT, /* a digest's canonical text, held whole to be hashed */
    WJ_SCRATCH_KINDS
} wj_scratch_kind;

/* The parser's kinds: those before the text. */
#define WJ_SCRATCH_PARSER_KINDS WJ_SCRATCH_TEXT

/* A working array and its size in bytes. */
typedef struct wj_scratch_block {
    void *ptr;
    size_t size;
} wj_scratch_block;

/* The kept blocks of kinds first .. first + n - 1 for a call with alloc,
 * into blocks[0 .. n - 1]; NULL and 0 where there is none (always, for an
 * allocator of the caller's). */
void wj_scratch_take(const wj_alloc *alloc, wj_scratch_kind first, unsigned n,
                     wj_scratch_block *blocks);

/* Ends a call's use of blocks[0 .. n - 1] (of kinds first ..; NULL for
 * none): each kept for a later call, or freed; blocks are emptied. */
void wj_scratch_give(const wj_alloc *alloc, wj_scratch_kind first, unsigned n,
                     wj_scratch_block *blocks);

struct wj_sha256;

/* A growable byte buffer.  Writers reserve first, then write unchecked.
 * With `hash` set it is a window onto a stream instead: when room runs out,
 * the bytes held so far go into the hash and the window empties, so a
 * digest never holds the whole canonical text. */
typedef struct wj_buf {
    char *ptr;
    size_t len;
    size_t cap; /* room ends here: the block's size, or (with an
                   interrupted hook) where it is next due to be asked,
                   so that running out of room asks it */
    const wj_alloc *alloc;
    struct wj_sha256 *hash; /* NULL: an ordinary buffer */
    size_t size;            /* bytes allocated at ptr */
    size_t done;            /* bytes written and already hashed away */
    size_t poll_at;         /* done + len at which to ask the hook again */
    int stopped;            /* the hook said stop (growth failed for it) */
} wj_buf;

/* An empty buffer that will allocate with alloc. */
#define WJ_BUF_INIT(alloc)                                                     \
    {                                                                          \
        NULL, 0, 0, (alloc), NULL, 0, 0, 0, 0                                  \
    }

/* Makes room for `extra` more bytes (hashing and dropping what it holds
 * first, for a window), asking the interrupted hook first when there is
 * one; 0 on success, -1 when out of memory or interrupted (then `stopped`
 * is set: wj_buf_code tells the two apart). */
int wj_buf_grow(wj_buf *buf, size_t extra);

/* Allocates room for `extra` more bytes that will be written through later
 * reserves (a size hint, not a reservation: with an interrupted hook the
 * room stops a MiB on, so that writing goes on asking it). */
int wj_buf_presize(wj_buf *buf, size_t extra);

/* The code for a buffer's failed growth: WJ_ERR_INTERRUPTED when the hook
 * stopped it, else WJ_ERR_NOMEM; err is filled either way. */
wj_code wj_buf_fail(const wj_buf *buf, wj_error *err);

/* rc, unless it is the WJ_ERR_NOMEM of buf's stopped growth: then
 * WJ_ERR_INTERRUPTED (err filled). */
static inline wj_code wj_buf_code(const wj_buf *buf, wj_code rc, wj_error *err)
{
    return rc == WJ_ERR_NOMEM && buf->stopped ? wj_buf_fail(buf, err) : rc;
}

static inline int wj_buf_reserve(wj_buf *buf, size_t extra)
{
    return extra <= buf->cap - buf->len ? 0 : wj_buf_grow(buf, extra);
}

static inline void wj_buf_put(wj_buf *buf, const void *bytes, size_t n)
{
    if (n)
        memcpy(buf->ptr + buf->len, bytes, n);
    buf->len += n;
}

static inline void wj_buf_putc(wj_buf *buf, char c)
{
    buf->ptr[buf->len++] = c;
}

/* The room wj_copy_short wants past the bytes it copies, and reads past. */
#define WJ_SHORT_SLACK 32

/* Copies n bytes from src to dst (which do not overlap): up to 32 by two
 * unaligned 16-byte moves, with no call to memcpy; src has WJ_SHORT_SLACK
 * bytes readable and dst as much room, the bytes past n being overwritten
 * by what comes next.  Most lexemes, names and members are that short. */
static inline void wj_copy_short(char *dst, const char *src, size_t n)
{
#if defined(__SSE2__)
    if (n <= WJ_SHORT_SLACK) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)src);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + 16));
        _mm_storeu_si128((__m128i *)(void *)dst, a);
        _mm_storeu_si128((__m128i *)(void *)(dst + 16), b);
        return;
    }
#endif
    memcpy(dst, src, n);
}

/*
 * An output cursor over a wj_buf: where the next byte goes and where the
 * room reserved ends.  A writing loop keeps it in local variables
 * (registers) and hands it to the buffer only around calls that write
 * through the buffer (wj_cursor_pause, wj_cursor_resume): a store of a byte
 * may alias any memory, so a length kept in the buffer would be read again
 * after every byte.
 */
typedef struct wj_cursor {
    char *at;
    char *end;
} wj_cursor;

static inline wj_cursor wj_cursor_resume(const wj_buf *buf)
{
    wj_cursor c;
    c.at = buf->ptr + buf->len;
    c.end = buf->ptr + buf->cap;
    return c;
}

static inline void wj_cursor_pause(wj_buf *buf, wj_cursor c)
{
    buf->len = (size_t)(c.at - buf->ptr);
}

/* Grows buf, whose output ends at `at`, to have room for n more bytes;
 * returns where the output now ends, or NULL when out of memory (out of
 * line: growth is rare). */
char *wj_buf_grow_at(wj_buf *buf, char *at, size_t n);

/* Makes room for n more bytes at c; 0, or -1 when out of memory. */
static inline int wj_cursor_room(wj_buf *buf, wj_cursor *c, size_t n)
{
    char *at;
    if ((size_t)(c->end - c->at) >= n)
        return 0;
    at = wj_buf_grow_at(buf, c->at, n);
    if (!at)
        return -1;
    c->at = at;
    c->end = buf->ptr + buf->cap;
    return 0;
}

/* Appends the n input bytes at json + at (json holds len bytes), where
 * wj_cursor_room(n + WJ_SHORT_SLACK) was made: without a call to memcpy
 * where the input has the bytes to spare that wj_copy_short reads. */
static inline void wj_cursor_put_input(wj_cursor *c, const char *json,
                                       size_t len, size_t at, size_t n)
{
    if (len - at >= WJ_SHORT_SLACK)
        wj_copy_short(c->at, json + at, n);
    else
        memcpy(c->at, json + at, n);
    c->at += n;
}

/* The room to reserve first for a rendering of len bytes of JSON text: its
 * length and a bounded slack (renderings are about as long as their input;
 * growth covers the rest). */
size_t wj_render_reserve(size_t len);

/* Hands the buffer over as a NUL-terminated result; WJ_ERR_NOMEM if the NUL
 * does not fit (the buffer is then released). */
wj_code wj_buf_finish(wj_buf *buf, char **out, size_t *out_len, wj_error *err);

/* -------------------------------------------------------------------- hex */

/* The lowercase hex digits: every \u escape and every digest uses them. */
extern const char wj_hex_digits[];

/* One more than the value of each hex digit (either case); 0 for every
 * other byte. */
extern const unsigned char wj_hex_value[256];

/* The value of the four hex digits at s, or -1 when one is not a hex
 * digit. */
static inline int32_t wj_hex4(const unsigned char *s)
{
    unsigned a = wj_hex_value[s[0]], b = wj_hex_value[s[1]],
             c = wj_hex_value[s[2]], d = wj_hex_value[s[3]];
    if (!a || !b || !c || !d)
        return -1;
    return (int32_t)((a - 1) << 12 | (b - 1) << 8 | (c - 1) << 4 | (d - 1));
}

/* ---------------------------------------------------------------- SHA-256 */

/*
 * A running SHA-256 whose state lives in the caller's memory (sha256.c, the
 * one place that calls libcrypto): libcrypto's SHA256_CTX, a plain struct,
 * so copying it copies the hash.  No call can fail.
 */
typedef struct wj_sha256 {
    union {
        uint64_t align;
        unsigned char bytes[128]; /* room for SHA256_CTX (checked there) */
    } state;
} wj_sha256;

void wj_sha256_init(wj_sha256 *h);
void wj_sha256_update(wj_sha256 *h, const void *data, size_t len);
/* The digest of what was fed so far, as hex with a NUL; h stays as it was,
 * ready for more. */
void wj_sha256_peek_hex(const wj_sha256 *h, char hex[WJ_DIGEST_HEX_SIZE]);
/* SHA-256 of data[0..len) as hex with a NUL. */
void wj_sha256_hex(const void *data, size_t len, char hex[WJ_DIGEST_HEX_SIZE]);

/* ------------------------------------------------------------------ tree */

typedef enum wj_type {
    WJ_NULL,
    WJ_FALSE,
    WJ_TRUE,
    WJ_NUMBER,
    WJ_STRING,
    WJ_ARRAY,
    WJ_OBJECT
} wj_type;

/* String flags, found while parsing a string. */
#define WJ_STR_ESCAPED 0x01 /* holds a backslash escape */
#define WJ_STR_UTF16                                                           \
    0x02 /* holds U+E000 or above, or a lone surrogate:                        \
            its UTF-16 order may differ from byte order */
#define WJ_STR_REWRITE                                                         \
    0x04 /* an escape a rendering may write otherwise: one other than          \
            \" \\ \n \r \t, or one a byte >= 0xCC (perhaps a combining mark)   \
            follows */

/*
 * The tape: one record per value, in document order, made of uint32 slots.
 * A record starts with the offset of a byte that tells the value's type:
 *
 *   number, true, false, null     1 slot   its first byte
 *   string                        2 slots  its '"', plain end
 *   member name                   1 slot   its '"' (no escape), or the
 *                                          byte after it (escapes)
 *   array of numbers and literals 2 slots  its '[', next (empty ones too)
 *   any other array               2 slots  its ']', next ... count
 *   object                        2 slots  its '{', next ... [sorted] count
 *   empty object                  2 slots  its '{', next
 *
 * Records are as small as their readers allow, so that a document dense in
 * small values (`[0,0,...]`, `[[0,0],...]`, `[[],...]`, arrays of small
 * objects) costs a small multiple of its size.  What the valid input gives
 * again cheaply is not kept: a number's end; an object's, or an array of
 * scalars', from its last child's end and the closing bracket after it
 * (wj_container_end); another array's start, from its first child's start
 * and the opening bracket before it; a member name's end, from the first
 * quote after its opening one (a name without escapes holds none).  A
 * string's `plain end` is the offset one past its closing quote when both
 * renderings write the literal exactly as it is (no escape, or only \" \\
 * \n \r \t with no combining mark after one: not WJ_STR_REWRITE), so its
 * bytes are copied as they are; else 0 (the writers find its end as they
 * re-escape it).
 *
 * A container's children follow its two slots, an object's as name, value,
 * name, value...; `next` is the record after its subtree, so a container is
 * empty exactly when next is two slots on.  An array of numbers and
 * literals has one slot a child, so next tells its count too; the subtree
 * of any other non-empty container ends with a slot holding its count (an
 * object's with the WJ_COUNT_ flags).  A parse that keeps member order
 * (neither WJ_PARSE_ALLOW_DUPLICATES nor WJ_PARSE_VERDICT_ONLY) sets
 * WJ_COUNT_IN_ORDER on an object whose names arrive sorted by decoded
 * bytes, and puts the name records of every other non-empty object, so
 * sorted, just before its count.  A parse for the verdict only
 * (WJ_PARSE_VERDICT_ONLY) records member names and nothing else.
 *
 * A member name that holds an escape has its decoded form in wj_doc.names
 * (a 4-byte length, then the bytes); its slot then points one past its
 * opening quote, at a byte that is never '"' (a name whose first byte after
 * the quote is its closing quote is empty, so holds no escape), which is
 * how the two kinds are told apart, and wj_doc.escaped pairs each such
 * slot with the offset of its decoded form, in document order (so by slot:
 * a binary search finds it).
 */
#define WJ_NAME_SLOTS 1
#define WJ_CONTAINER_SLOTS 2
#define WJ_COUNT_UTF16 0x80000000u    /* an object: a name has WJ_STR_UTF16 */
#define WJ_COUNT_IN_ORDER 0x40000000u /* an object: names arrive sorted */
#define WJ_COUNT_FLAGS (WJ_COUNT_UTF16 | WJ_COUNT_IN_ORDER)

typedef struct wj_doc {
    const char *json;
    size_t len;
    uint32_t *tape;
    uint32_t n_tape;
    uint32_t cap_tape;
    char *names; /* decoded member names that held escapes */
    size_t cap_names;
    uint32_t *escaped; /* (slot, offset in names) for each, by slot */
    uint32_t n_escaped;
    uint32_t cap_escaped;
    const wj_alloc *alloc;
} wj_doc;

/* Parse options. */
#define WJ_PARSE_ALLOW_DUPLICATES 0x01 /* no duplicate check, no order */
/* For a caller that reads nothing but the verdict: duplicates checked, and
 * only member names get records (which that check may read). */
#define WJ_PARSE_VERDICT_ONLY 0x02

/* Parses json into doc (which the caller releases with wj_doc_release). */
wj_code wj_doc_parse(wj_doc *doc, const char *json, size_t len, unsigned opts,
                     const wj_alloc *alloc, wj_error *err);
void wj_doc_release(wj_doc *doc);

/* What wj_canonical_one_pass returns for a document it leaves to the
 * parse and the walk over the tape (never a caller's code). */
#define WJ_DECLINED ((wj_code)0x7F)

/*
 * Appends the canonical rendering (§5) of json to out, written as the
 * parser goes, with no tape of the values and no walk over one; member
 * order comes from the parser's sort of each object's names, the members
 * moved into it in out.  Errors are the parse's own.  It declines (out as
 * it was, err clear) what the walk does better or alone: a number that
 * rounds to infinity (its error comes after any later syntax error), a name
 * whose UTF-16 order may differ, documents whose members would move more
 * than a few times their length, and inputs over 512 MiB.
 */
wj_code wj_canonical_one_pass(const char *json, size_t len,
                              const wj_alloc *alloc, wj_buf *out,
                              wj_error *err);

/* The type of each byte that can start a value. */
extern const unsigned char wj_value_type[256];

static inline wj_type wj_node_type(const wj_doc *doc, uint32_t node)
{
    return (wj_type)wj_value_type[(unsigned char)doc->json[doc->tape[node]]];
}

/* True for the byte a container's record starts with: '[', ']' or '{'
 * (which alone of the bytes a record starts with have 0x59 outside the
 * bits 0x26). */
static inline int wj_opens_container(char c)
{
    return ((unsigned char)c & ~0x26u) == 0x59;
}

static inline int wj_node_is_container(const wj_doc *doc, uint32_t node)
{
    return wj_opens_container(doc->json[doc->tape[node]]);
}

/* Offset of a value's first byte (found again for an array whose record
 * starts at its ']'). */
uint32_t wj_array_start(const wj_doc *doc, uint32_t node);

static inline uint32_t wj_node_start(const wj_doc *doc, uint32_t node)
{
    uint32_t at = doc->tape[node];
    return doc->json[at] == ']' ? wj_array_start(doc, node) : at;
}

/* Offset one past a value's last byte (a scalar's or a container's is found
 * again). */
uint32_t wj_node_end(const wj_doc *doc, uint32_t node);

/* wj_node_end of an array or an object. */
uint32_t wj_container_end(const wj_doc *doc, uint32_t node);

/* The record after the subtree of a value. */
static inline uint32_t wj_node_next(const wj_doc *doc, uint32_t node)
{
    char c = doc->json[doc->tape[node]];
    if (wj_opens_container(c))
        return doc->tape[node + 1];
    return c == '"' ? node + 2 : node + 1;
}

/* True for an array or object without elements or members. */
static inline int wj_container_empty(const wj_doc *doc, uint32_t node)
{
    return doc->tape[node + 1] == node + WJ_CONTAINER_SLOTS;
}

/* True for an array whose elements are all numbers and literals (each a
 * record of one slot), empty ones included. */
static inline int wj_array_of_scalars(const wj_doc *doc, uint32_t node)
{
    return doc->json[doc->tape[node]] == '[';
}

/* The slot holding the count (and flags) of a non-empty container that is
 * not an array of scalars. */
static inline uint32_t wj_count_slot(const wj_doc *doc, uint32_t node)
{
    return doc->tape[doc->tape[node + 1] - 1];
}

/* A container's elements or members. */
static inline uint32_t wj_node_count(const wj_doc *doc, uint32_t node)
{
    if (wj_array_of_scalars(doc, node))
        return doc->tape[node + 1] - node - WJ_CONTAINER_SLOTS;
    return wj_container_empty(doc, node)
               ? 0
               : wj_count_slot(doc, node) & ~WJ_COUNT_FLAGS;
}

/* A non-empty container's first element, or an object's first name. */
static inline uint32_t wj_node_first(uint32_t node)
{
    return node + WJ_CONTAINER_SLOTS;
}

/* The value of the member whose name is the record name. */
static inline uint32_t wj_member_value(uint32_t name)
{
    return name + WJ_NAME_SLOTS;
}

/* The name after the member whose name is the record name. */
static inline uint32_t wj_member_next(const wj_doc *doc, uint32_t name)
{
    return wj_node_next(doc, wj_member_value(name));
}

/* True when a member name holds an escape. */
static inline int wj_name_escaped(const wj_doc *doc, uint32_t name)
{
    return doc->json[doc->tape[name]] != '"';
}

/* Offset one past the valid string literal that opens at s[at]. */
size_t wj_string_end(const char *s, size_t len, size_t at);

/* Offset one past the closing quote of the string literal without escapes
 * that opens at json[at] (json holds len bytes): the first quote after it.
 * Names are short: most end within the 16 bytes one load sees. */
static inline uint32_t wj_plain_end(const char *json, size_t len, uint32_t at)
{
    const char *quote;
#if defined(__SSE2__)
    if (len - at > WJ_BLOCK16) {
        __m128i v =
            _mm_loadu_si128((const __m128i *)(const void *)(json + at + 1));
        unsigned m =
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
        if (m)
            return at + 2 + (uint32_t)__builtin_ctz(m);
    }
#endif
    quote = memchr(json + at + 1, '"', len - at - 1);
    return (uint32_t)(quote - json) + 1;
}

/* Offset of a member name's opening quote. */
static inline uint32_t wj_name_start(const wj_doc *doc, uint32_t name)
{
    return doc->tape[name] - (uint32_t)wj_name_escaped(doc, name);
}

/* Offset one past a member name's closing quote (found again for a name
 * with escapes). */
static inline uint32_t wj_name_end(const wj_doc *doc, uint32_t name)
{
    if (wj_name_escaped(doc, name))
        return (uint32_t)wj_string_end(doc->json, doc->len,
                                       wj_name_start(doc, name));
    return wj_plain_end(doc->json, doc->len, doc->tape[name]);
}

/* A member name's decoded bytes. */
typedef struct wj_span {
    const char *ptr;
    size_t len;
} wj_span;

/* True when s is one of names[0..n) (an entry with a NULL ptr is none). */
static inline int wj_name_in(wj_span s, const wj_name *names, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (names[k].ptr && s.len == names[k].len &&
            memcmp(s.ptr, names[k].ptr, s.len) == 0)
            return 1;
    return 0;
}

/* The decoded form, in doc->names, of the escaped name whose slot holds
 * first (a 4-byte length, then the bytes). */
const char *wj_escaped_name(const wj_doc *doc, uint32_t first);

/* wj_doc_name of a name whose end (one past its closing quote) the caller
 * already has; end is not read for a name with escapes. */
static inline wj_span wj_doc_name_ending(const wj_doc *doc, uint32_t name,
                                         uint32_t end)
{
    uint32_t at = doc->tape[name];
    wj_span s;
    if (doc->json[at] != '"') { /* wj_name_escaped */
        const char *entry = wj_escaped_name(doc, at);
        uint32_t len;
        memcpy(&len, entry, sizeof len);
        s.ptr = entry + sizeof len;
        s.len = len;
    } else {
        s.ptr = doc->json + at + 1;
        s.len = end - at - 2;
    }
    return s;
}

static inline wj_span wj_doc_name(const wj_doc *doc, uint32_t name)
{
    uint32_t at = doc->tape[name];
    return wj_doc_name_ending(
        doc, name,
        doc->json[at] == '"' ? wj_plain_end(doc->json, doc->len, at) : 0);
}

/* The name records of an object sorted by decoded bytes (wj_node_count of
 * them), when the tape holds them (a parse that tracks names); NULL when
 * its names arrive in that order, or it has none. */
static inline const uint32_t *wj_doc_sorted(const wj_doc *doc, uint32_t obj)
{
    uint32_t slot;
    if (wj_container_empty(doc, obj))
        return NULL;
    slot = wj_count_slot(doc, obj);
    if (slot & WJ_COUNT_IN_ORDER)
        return NULL;
    return doc->tape + doc->tape[obj + 1] - 1 - (slot & ~WJ_COUNT_FLAGS);
}

/* An object's members in the order of their decoded names, one at a time:
 *   wj_members it = wj_members_of(doc, obj);
 *   for (k = 0; k < wj_node_count(doc, obj); k++) name = wj_members_take(&it);
 */
typedef struct wj_members {
    const wj_doc *doc;
    const uint32_t *sorted; /* NULL: the names arrive in order */
    uint32_t name;          /* then the next one's record */
} wj_members;

static inline wj_members wj_members_of(const wj_doc *doc, uint32_t obj)
{
    wj_members it;
    it.doc = doc;
    it.sorted = wj_doc_sorted(doc, obj);
    it.name = wj_node_first(obj);
    return it;
}

static inline uint32_t wj_members_take(wj_members *it)
{
    uint32_t name;
    if (it->sorted)
        return *it->sorted++;
    name = it->name;
    it->name = wj_member_next(it->doc, name);
    return name;
}

/* Fills names (room for wj_node_count) with obj's name records in the
 * order of their decoded names. */
static inline void wj_members_list(const wj_doc *doc, uint32_t obj,
                                   uint32_t *names)
{
    wj_members it = wj_members_of(doc, obj);
    uint32_t k, count = wj_node_count(doc, obj);
    for (k = 0; k < count; k++)
        names[k] = wj_members_take(&it);
}

/* Finds the name record called name among sorted[0..n) (in the order of
 * their decoded names); returns its position, or UINT32_MAX. */
uint32_t wj_doc_find(const wj_doc *doc, const uint32_t *sorted, uint32_t n,
                     const char *name, size_t name_len);

/* The name record of obj's member called name, or 0 when it has none. */
uint32_t wj_doc_member(const wj_doc *doc, uint32_t obj, const char *name,
                       size_t name_len);

/* The value node of the member called name in obj, or 0 when obj is not an
 * object or has no such member. */
static inline uint32_t wj_doc_value(const wj_doc *doc, uint32_t obj,
                                    const char *name, size_t name_len)
{
    uint32_t member;
    if (wj_node_type(doc, obj) != WJ_OBJECT)
        return 0;
    member = wj_doc_member(doc, obj, name, name_len);
    return member ? wj_member_value(member) : 0;
}

/* The root's `tools` member when it is an array, else 0 (rawbody.c). */
uint32_t wj_doc_tools(const wj_doc *doc);

/* ---------------------------------------------------------------- strings */

/*
 * Decodes the body of a string literal (between its quotes; escapes already
 * validated) into out, which has room for raw_len bytes.  Lone surrogates
 * become their 3-byte generalized UTF-8 form, so that decoded names compare
 * by code point with memcmp.  Returns the decoded length.
 */
size_t wj_string_decode(const char *raw, size_t raw_len, char *out);

/*
 * Write the valid string literal that opens at s[at] (a '"'; s holds len
 * bytes) again, reserving room as they go: its end is found as it is
 * copied.  Return the offset one past its closing quote, or 0 when out of
 * memory.
 */
size_t wj_write_wire_literal(wj_buf *buf, const char *s, size_t len, size_t at);
size_t wj_write_canonical_literal(wj_buf *buf, const char *s, size_t len,
                                  size_t at);

/*
 * wj_write_canonical_literal for a literal not yet checked, where the
 * processor has AVX-512 BW: the checks of the parser's string skip made as
 * it is written.  Returns the offset one past its closing quote; 0 where it
 * is not a valid string or goes on past stop (where the interrupted hook
 * is due: it gives up within 4 KiB of it), for the parser's own loop to
 * read it and report what is wrong; SIZE_MAX when the buffer cannot grow
 * (wj_buf_fail says why).  Either way the buffer's length is as it was.
 */
size_t wj_write_canonical_string(wj_buf *buf, const char *s, size_t len,
                                 size_t at, size_t stop);

/* wj_write_text and wj_buf_put_text flags: text may hold encoded
 * surrogates (ED A0 80 .. ED BF BF, "WTF-8"), written as \udxxx escapes
 * (a high and a low one in a row as the character they pair to); the
 * canonical rendering's escapes instead of the wire rendering's. */
#define WJ_QUOTE_WTF8 0x01
#define WJ_QUOTE_CANONICAL 0x02

/*
 * Appends raw text (UTF-8 bytes, not JSON) as a string literal with the wire
 * rendering's escapes, or the canonical one's with WJ_QUOTE_CANONICAL,
 * checking it as it goes.  Returns 0; 1 when text is not valid UTF-8 (buf
 * as it was); -1 when out of memory.
 */
int wj_write_text(wj_buf *buf, const char *text, size_t len, unsigned flags);

/* The same from n fixed-width code units (width 1: Latin-1, 2: UTF-16,
 * 4: code points), surrogates always allowed: 1 for a unit above
 * U+10FFFF. */
int wj_write_units(wj_buf *buf, const void *units, size_t n, int width,
                   unsigned flags);

static inline int wj_is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* The bytes a number's lexeme is made of (parse.c). */
extern const unsigned char wj_number_byte[256];

/* Offset one past the valid number whose lexeme starts at s[at]: in valid
 * input the byte after a number is never one of its bytes. */
static inline size_t wj_number_end(const char *s, size_t len, size_t at)
{
    while (at < len && wj_number_byte[(unsigned char)s[at]])
        at++;
    return at;
}
/* The length of the number lexeme at json[at] by RFC 8259's grammar (the
 * parser's rule), or 0 with the offset of the byte that breaks it in *bad
 * (len at the end of input) and the reason in *why. */
size_t wj_number_scan(const char *json, size_t len, size_t at, size_t *bad,
                      const char **why);

/*
 * Appends text (raw UTF-8 bytes, not JSON) as a string literal with the wire
 * rendering's escapes, the combining-mark rule included, or the canonical
 * rendering's (flags, as wj_write_text's; quote.c).
 * WJ_ERR_ARGUMENT with the reason `invalid` when text is not valid UTF-8.
 */
wj_code wj_buf_put_text(wj_buf *buf, const char *text, size_t len,
                        unsigned flags, const char *invalid, wj_error *err);

/* wj_buf_put_text without surrogates, for a VALUE ("value is not valid
 * UTF-8") or a schema's bytes. */
wj_code wj_buf_put_quoted(wj_buf *buf, const char *text, size_t len,
                          wj_error *err);

/* ------------------------------------------------------------------ order */

/* Compares decoded names: by bytes (code points), or by UTF-16 code units. */
int wj_compare_bytes(wj_span a, wj_span b);
int wj_compare_utf16(wj_span a, wj_span b);

/* wj_compare_bytes, settling inline what the first bytes settle (most
 * names differ there). */
static inline int wj_compare_bytes_quick(wj_span a, wj_span b)
{
    if (a.len && b.len && a.ptr[0] != b.ptr[0])
        return (unsigned char)a.ptr[0] - (unsigned char)b.ptr[0];
    return wj_compare_bytes(a, b);
}

/* Sorts the name records in names[0..n) by cmp, stably, using tmp (room for n).
 */
void wj_sort_names(const wj_doc *doc, uint32_t *names, uint32_t n,
                   uint32_t *tmp, int (*cmp)(wj_span, wj_span));

/* Sorts the name records in names[0..n) by decoded bytes, stably (tmp has
 * room for n), and returns the offset of the earliest repeated name: of all
 * the pairs of equal names the sorted list puts side by side, the least
 * offset of the later one; SIZE_MAX when no name repeats.  *in_order tells
 * whether no name repeats and the names were already so sorted.  ends[k]
 * is the offset one past names[k]'s closing quote (the parser has it, and a
 * short list's names are read once through it). */
size_t wj_sort_names_unique(const wj_doc *doc, uint32_t *names,
                            const uint32_t *ends, uint32_t n, uint32_t *tmp,
                            int *in_order);

/* The most names wj_names_repeat takes. */
#define WJ_REPEAT_PAIRWISE 8

/* The earliest repeated name of names[0..n) (n at most WJ_REPEAT_PAIRWISE,
 * ends as for wj_sort_names_unique), as wj_sort_names_unique reports it,
 * found by comparing every pair, with no sort: for a parse for the verdict
 * only. */
size_t wj_names_repeat(const wj_doc *doc, const uint32_t *names,
                       const uint32_t *ends, uint32_t n);

/* ------------------------------------------------------------- renderings */

typedef enum wj_style {
    WJ_STYLE_WIRE,        /* §4 with the property-map rule */
    WJ_STYLE_WIRE_SORTED, /* §4, everything as data */
    WJ_STYLE_CANONICAL,   /* §5, RFC 8785 */
    WJ_STYLE_SENT         /* §16's `sent`: members in input order, numbers as
                             their lexemes, strings as §4 writes them */
} wj_style;

typedef struct wj_render_opts {
    wj_style style;
    const wj_name *data_members; /* WIRE: top-level members that are data */
    size_t n_data_members;
} wj_render_opts;

/* Appends the rendering of the subtree at node to buf. */
wj_code wj_render(const wj_doc *doc, uint32_t node, const wj_render_opts *opts,
                  wj_buf *buf, wj_error *err);

/* Lets a caller take over parts of a rendering: which members of chosen
 * objects are written and in what order, and the bytes of chosen values.
 * Either callback may be NULL. */
typedef struct wj_render_hook {
    /* May fill order[0..*n) with the name records of the members of object
     * obj (*n of them on entry) to write, in the order to write them, and
     * set *n to how many it wrote: returns 1 when it did, else 0.  The
     * canonical rendering writes the chosen members in its own order. */
    int (*order)(void *ctx, uint32_t obj, uint32_t *order, uint32_t *n);
    /* May write the value at node into buf itself (reserving first):
     * returns 1 when it did, 0 to let the renderer, -1 when out of memory. */
    int (*value)(void *ctx, uint32_t node, wj_buf *buf);
    void *ctx;
} wj_render_hook;

/* wj_render, asking hook (which may be NULL) at every value and object. */
wj_code wj_render_hooked(const wj_doc *doc, uint32_t node,
                         const wj_render_opts *opts, const wj_render_hook *hook,
                         wj_buf *buf, wj_error *err);

/* Copies the n bytes of text, a JSON text without strings, to out (room
 * for n bytes) without its whitespace; returns the bytes written. */
size_t wj_copy_without_space(char *out, const char *text, size_t n);

/* True when every number in the n bytes of text, a JSON text without
 * strings, is the canonical rendering's spelling of its double: an integer
 * of at most 15 digits, not -0. */
int wj_scalar_array_is_canonical(const char *text, size_t n);

/* ------------------------------------------------------------------ errors */

static inline wj_code wj_fail(wj_error *err, wj_code code, size_t offset,
                              const char *msg)
{
    if (err) {
        err->code = code;
        err->offset = offset;
        err->msg = msg;
    }
    return code;
}

static inline wj_code wj_fail_nomem(wj_error *err)
{
    return wj_fail(err, WJ_ERR_NOMEM, 0, "out of memory");
}

static inline wj_code wj_fail_interrupted(wj_error *err)
{
    return wj_fail(err, WJ_ERR_INTERRUPTED, 0, "interrupted");
}

/* Resets err (when not NULL) to "nothing went wrong", as every public
 * function does on entry. */
static inline void wj_error_clear(wj_error *err)
{
    if (err) {
        err->code = WJ_OK;
        err->offset = 0;
        err->msg = NULL;
        err->argument = NULL;
        err->element = WJ_NO_ELEMENT;
    }
}

/* Names the argument at fault in err (when not NULL) and returns code. */
static inline wj_code wj_fail_in(wj_error *err, wj_code code,
                                 const char *argument)
{
    if (err)
        err->argument = argument;
    return code;
}

#endif /* WJ_INTERNAL_H */
