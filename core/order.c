/* SPDX-License-Identifier: MIT */
/*
 * order.c - member-name order: by code point (the wire rendering, §4) and
 * by UTF-16 code unit (RFC 8785, §5), and a stable sort of name nodes.
 *
 * Decoded names are UTF-8 (lone surrogates in their 3-byte form), so memcmp
 * orders them by code point.  UTF-16 order differs only where a character
 * at U+E000 or above meets a supplementary character or a lone surrogate;
 * the UTF-16 comparison reads code units from the first differing character
 * on (a lone high surrogate and a pair may share their first unit).
 */
#include "wj_internal.h"
#include "simd.h"
#include "utf8.h"

int wj_compare_bytes(wj_span a, wj_span b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c)
        return c;
    return a.len < b.len ? -1 : a.len > b.len;
}

/* Reads a decoded name as a stream of UTF-16 code units. */
typedef struct units {
    const unsigned char *s;
    size_t len;
    size_t i;
    uint32_t low; /* the pending low surrogate of a pair, or 0 */
} units;

/* The next code unit plus one, or 0 at the end (so that a prefix sorts
 * first).  Characters are well-formed (generalized) UTF-8: a lone surrogate
 * is its own 3-byte unit. */
static uint32_t next_unit(units *u)
{
    uint32_t cp;
    size_t n;
    if (u->low) {
        cp = u->low;
        u->low = 0;
        return cp + 1;
    }
    if (u->i >= u->len)
        return 0;
    cp = wj_utf8_decode(u->s + u->i, &n);
    u->i += n;
    if (cp < 0x10000)
        return cp + 1;
    cp -= 0x10000;
    u->low = 0xDC00 + (cp & 0x3FF);
    return 0xD800 + (cp >> 10) + 1;
}

int wj_compare_utf16(wj_span a, wj_span b)
{
    const unsigned char *x = (const unsigned char *)a.ptr;
    const unsigned char *y = (const unsigned char *)b.ptr;
    size_t n = a.len < b.len ? a.len : b.len, i = 0;
    units ua, ub;
    uint32_t kx, ky;

    while (i < n && x[i] == y[i])
        i++;
    if (i == n)
        return a.len < b.len ? -1 : a.len > b.len;
    /* Back up to the start of the character where they differ, then
     * compare unit by unit: a lone high surrogate and a pair can share
     * their first unit, and the units after decide. */
    while (i > 0 && (x[i] & 0xC0) == 0x80)
        i--;
    ua.s = x;
    ua.len = a.len;
    ua.i = i;
    ua.low = 0;
    ub.s = y;
    ub.len = b.len;
    ub.i = i;
    ub.low = 0;
    do {
        kx = next_unit(&ua);
        ky = next_unit(&ub);
    } while (kx == ky && kx != 0);
    return kx < ky ? -1 : kx > ky;
}

/* Names sorted by insertion before the merges begin. */
#define RUN 16

/* The sort, written once; inlined with each comparison it is called with. */
static inline void merge_sort(const wj_doc *doc, uint32_t *names, uint32_t n,
                              uint32_t *tmp, int (*cmp)(wj_span, wj_span))
{
    uint32_t width, i, j, k;

    /* Bottom-up merge sort over insertion-sorted runs; stable, n log n. */
    for (i = 0; i < n; i += RUN) {
        uint32_t *v = names + i, m = n - i < RUN ? n - i : RUN;
        for (j = 1; j < m; j++) {
            uint32_t item = v[j];
            wj_span key = wj_doc_name(doc, item);
            for (k = j; k > 0 && cmp(wj_doc_name(doc, v[k - 1]), key) > 0; k--)
                v[k] = v[k - 1];
            v[k] = item;
        }
    }
    for (width = RUN; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            uint32_t mid = i + width, hi, a, b;
            if (mid >= n)
                break;
            hi = n - mid < width ? n : mid + width;
            if (cmp(wj_doc_name(doc, names[mid - 1]),
                    wj_doc_name(doc, names[mid])) <= 0)
                continue; /* already in order */
            a = i;
            b = mid;
            k = i;
            while (a < mid && b < hi)
                tmp[k++] = cmp(wj_doc_name(doc, names[b]),
                               wj_doc_name(doc, names[a])) < 0
                               ? names[b++]
                               : names[a++];
            while (a < mid)
                tmp[k++] = names[a++];
            while (b < hi)
                tmp[k++] = names[b++];
            memcpy(names + i, tmp + i, (hi - i) * sizeof(uint32_t));
        }
    }
}

void wj_sort_names(const wj_doc *doc, uint32_t *names, uint32_t n,
                   uint32_t *tmp, int (*cmp)(wj_span, wj_span))
{
    if (cmp == wj_compare_bytes)
        merge_sort(doc, names, n, tmp, wj_compare_bytes_quick);
    else
        merge_sort(doc, names, n, tmp, cmp);
}

/* The earlier of two repeat offsets (SIZE_MAX for none). */
static size_t earlier(size_t a, size_t b)
{
    return a < b ? a : b;
}

/*
 * A short list is sorted as integers: each name's first 8 bytes read as a
 * big-endian number, zero padded (a prefix sorts first, as in
 * wj_compare_bytes), with its place in the list in the low 4 bits (so the
 * key keeps the first 7.5 bytes).  Two names whose keys differ are ordered
 * by them; names whose keys tie (a long shared prefix, or a repeat) are
 * compared in full, by insertion from document order.
 */
#define PLACE_MASK ((uint64_t)RUN - 1)
_Static_assert(RUN <= 16 && (RUN & (RUN - 1)) == 0,
               "a short list's places fit the key's low 4 bits");

/* The bits of a key that a name of n bytes fills: its first min(n, 8)
 * bytes (a table, not a branch: names end before and after 8 bytes at no
 * pattern a predictor could learn). */
static const uint64_t key_bytes[9] = {
    0,
    0xFF00000000000000u,
    0xFFFF000000000000u,
    0xFFFFFF0000000000u,
    0xFFFFFFFF00000000u,
    0xFFFFFFFFFF000000u,
    0xFFFFFFFFFFFF0000u,
    0xFFFFFFFFFFFFFF00u,
    0xFFFFFFFFFFFFFFFFu,
};

/* The sort key of a name of len bytes at s, of which readable bytes may be
 * read (at least len). */
static inline uint64_t name_key(const char *s, size_t len, size_t readable)
{
    uint64_t key = 0;
    size_t i;
    if (readable >= 8) {
        memcpy(&key, s, 8);
        /* the bytes past the name become zeros */
        key = __builtin_bswap64(key) & key_bytes[len < 8 ? len : 8];
    } else {
        for (i = 0; i < len; i++)
            key |= (uint64_t)(unsigned char)s[i] << (56 - 8 * i);
    }
    return key & ~PLACE_MASK;
}

/* An integer compare-exchange, with no branch. */
static inline void order_items(uint64_t *v, int a, int b)
{
    uint64_t x = v[a], y = v[b];
    v[a] = x < y ? x : y;
    v[b] = x < y ? y : x;
}

/* out[rank of v[j]] = v[j] for the n items of v[0..width), those past n
 * larger than all of them (width a constant: the count unrolls). */
static inline __attribute__((always_inline)) void
rank_items(const uint64_t *v, uint32_t n, uint32_t width, uint64_t *out)
{
    uint32_t j, k;
    for (j = 0; j < n; j++) {
        uint32_t rank = 0;
        for (k = 0; k < width; k++)
            rank += v[k] < v[j];
        out[rank] = v[j];
    }
}

#if WJ_HAVE_AVX2_PATH
/* rank_items over RUN items, 8 compares in one instruction: an item's
 * rank is the count of the mask that compares it with the others; the
 * items past n are loaded as larger than all. */
__attribute__((target("avx512f"))) static void
rank_items_avx512(const uint64_t *v, uint32_t n, uint64_t *out)
{
    const __m512i none = _mm512_set1_epi64(-1);
    const unsigned in_v = (1u << n) - 1;
    const __m512i low = _mm512_mask_loadu_epi64(none, (__mmask8)in_v, v),
                  high = _mm512_mask_loadu_epi64(none, (__mmask8)(in_v >> 8),
                                                 v + 8);
    uint32_t j;
    for (j = 0; j < n; j++) {
        __m512i item = _mm512_set1_epi64((long long)v[j]);
        unsigned rank =
            (unsigned)__builtin_popcount(_mm512_cmplt_epu64_mask(low, item)) +
            (unsigned)__builtin_popcount(_mm512_cmplt_epu64_mask(high, item));
        out[rank] = v[j];
    }
}
#endif

/* Sorts up to RUN items of v; returns them in order, in v or in out (the
 * caller's, RUN items).  Up to four by a sorting network (most objects are
 * that short, and whether two names are in order is a coin toss to a
 * branch predictor). */
static __attribute__((noinline)) const uint64_t *
sort_items(uint64_t *v, uint32_t n, uint64_t *out)
{
    uint32_t k;
    switch (n) {
    case 2: order_items(v, 0, 1); return v;
    case 3:
        order_items(v, 0, 1);
        order_items(v, 1, 2);
        order_items(v, 0, 1);
        return v;
    case 4:
        order_items(v, 0, 1);
        order_items(v, 2, 3);
        order_items(v, 0, 2);
        order_items(v, 1, 3);
        order_items(v, 1, 2);
        return v;
    default: break;
    }
    /* Longer ones by rank: each item's place is the count of smaller ones
     * (the items all differ).  The counts run over a fixed width, the items
     * past n made larger than any key (no name's first byte is 0xFF), so
     * that no branch depends on the names or on n. */
#if WJ_HAVE_AVX2_PATH
    if (WJ_AVX512_ON) {
        rank_items_avx512(v, n, out);
        return out;
    }
#endif
    for (k = n; k < RUN; k++)
        v[k] = ~(uint64_t)0;
    if (n <= RUN / 2)
        rank_items(v, n, RUN / 2, out);
    else
        rank_items(v, n, RUN, out);
    return out;
}

/*
 * The short list again with ties: sorted by insertion from document order,
 * noting repeats as it goes: a name equal to one already placed stops its
 * insertion right after the last of them, so every pair of equal names the
 * sorted list puts side by side is compared once.  Names are placed in
 * document order, so the one being placed is the later of such a pair.
 * names[] holds the name records in document order.
 */
static size_t insertion_sort_unique(const wj_doc *doc, const uint32_t *names,
                                    const wj_span *name, uint64_t *v,
                                    uint32_t m, int *in_order)
{
    size_t repeat = SIZE_MAX;
    uint32_t j, k, moved = 0;
    for (j = 1; j < m; j++) {
        uint64_t item = v[j];
        int c = 1;
        for (k = j; k > 0; k--) {
            uint64_t before = v[k - 1];
            if ((before ^ item) & ~PLACE_MASK)
                c = before < item ? -1 : 1;
            else
                c = wj_compare_bytes(name[before & PLACE_MASK],
                                     name[item & PLACE_MASK]);
            if (c <= 0)
                break;
            v[k] = before;
        }
        if (k > 0 && c == 0)
            repeat = earlier(repeat,
                             wj_name_start(doc, names[item & PLACE_MASK]));
        moved |= k != j;
        v[k] = item;
    }
    *in_order = !moved;
    return repeat;
}

/* sort_short_unique's way when keys tie (rare: out of line, so that the
 * common way keeps a small frame): v[0..n) sorted, given[] the name
 * records in document order. */
static __attribute__((noinline)) size_t
sort_ties(const wj_doc *doc, uint32_t *names, const uint32_t *given,
          const uint32_t *ends, const uint64_t *v, uint32_t n, int *in_order)
{
    wj_span name[RUN];
    uint64_t in_doc[RUN];
    uint32_t k;
    size_t repeat;
    for (k = 0; k < n; k++) {
        in_doc[v[k] & PLACE_MASK] = v[k];
        name[k] = wj_doc_name_ending(doc, given[k], ends[k]);
    }
    repeat = insertion_sort_unique(doc, given, name, in_doc, n, in_order);
    for (k = 0; k < n; k++)
        names[k] = given[in_doc[k] & PLACE_MASK];
    return repeat;
}

/* wj_sort_names_unique of a list of 2 to RUN names. */
static size_t sort_short_unique(const wj_doc *doc, uint32_t *names,
                                const uint32_t *ends, uint32_t n,
                                int *in_order)
{
    /* the name records in document order (zeroed past n only for the
     * compiler, which cannot see that every place sorted holds is < n) */
    uint32_t given[RUN] = {0};
    uint64_t v[RUN], out[RUN];
    const uint64_t *sorted;
    uint32_t k, tie = 0, moved;

    for (k = 0; k < n; k++) {
        uint32_t at = doc->tape[names[k]];
        given[k] = names[k];
        if (doc->json[at] == '"') { /* no escape: the name is in the input */
            v[k] = name_key(doc->json + at + 1, ends[k] - at - 2,
                            doc->len - at - 1);
        } else {
            wj_span s = wj_doc_name_ending(doc, names[k], ends[k]);
            v[k] = name_key(s.ptr, s.len, s.len);
        }
        v[k] |= k;
    }
    sorted = sort_items(v, n, out);
    /* Names whose keys tie end up side by side. */
    names[0] = given[sorted[0] & PLACE_MASK];
    moved = (uint32_t)(sorted[0] & PLACE_MASK);
    for (k = 1; k < n; k++) {
        tie |= !((sorted[k - 1] ^ sorted[k]) & ~PLACE_MASK);
        moved |= (uint32_t)(sorted[k] & PLACE_MASK) ^ k;
        names[k] = given[sorted[k] & PLACE_MASK];
    }
    if (tie)
        return sort_ties(doc, names, given, ends, sorted, n, in_order);
    *in_order = !moved;
    return SIZE_MAX;
}

size_t wj_sort_names_unique(const wj_doc *doc, uint32_t *names,
                            const uint32_t *ends, uint32_t n, uint32_t *tmp,
                            int *in_order)
{
    size_t repeat = SIZE_MAX;
    uint32_t k;

    *in_order = 0;
    if (n < 2) {
        *in_order = 1;
        return SIZE_MAX;
    }
    if (n <= RUN)
        return sort_short_unique(doc, names, ends, n, in_order);
    for (k = 1; k < n; k++) /* in order: nothing to sort, nothing repeats */
        if (wj_compare_bytes_quick(wj_doc_name(doc, names[k - 1]),
                                   wj_doc_name(doc, names[k])) >= 0)
            break;
    if (k == n) {
        *in_order = 1;
        return SIZE_MAX;
    }
    merge_sort(doc, names, n, tmp, wj_compare_bytes_quick);
    for (k = 1; k < n; k++) {
        wj_span x = wj_doc_name(doc, names[k - 1]),
                y = wj_doc_name(doc, names[k]);
        if (x.len == y.len && wj_compare_bytes_quick(x, y) == 0) {
            uint32_t a = wj_name_start(doc, names[k - 1]),
                     b = wj_name_start(doc, names[k]);
            repeat = earlier(repeat, a > b ? a : b);
        }
    }
    return repeat;
}

/*
 * Of a group of equal names, the sorted list puts each beside the next in
 * document order, so the least offset of a later one of those pairs is
 * that of the group's second; comparing every pair finds the same one.
 * Names mostly differ in length or first byte, so the branches here are
 * nearly always taken the same way.
 */
size_t wj_names_repeat(const wj_doc *doc, const uint32_t *names,
                       const uint32_t *ends, uint32_t n)
{
    wj_span name[WJ_REPEAT_PAIRWISE];
    size_t repeat = SIZE_MAX;
    uint32_t j, k;

    for (k = 0; k < n; k++)
        name[k] = wj_doc_name_ending(doc, names[k], ends[k]);
    for (j = 1; j < n; j++)
        for (k = 0; k < j; k++)
            if (name[k].len == name[j].len &&
                wj_compare_bytes_quick(name[k], name[j]) == 0)
                repeat = earlier(repeat, wj_name_start(doc, names[j]));
    return repeat;
}

/* True when s[0..len) is generalized UTF-8 (WTF-8). */
static int is_wtf8(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, n;
    while (i < len) {
        n = wj_utf8_length(u + i, len - i, 1);
        if (!n)
            return 0;
        i += n;
    }
    return 1;
}

int wj_name_compare(const char *a, size_t a_len, const char *b, size_t b_len)
{
    wj_span x = {a, a_len}, y = {b, b_len};
    size_t n = a_len < b_len ? a_len : b_len, i = 0;
    while (i < n && a[i] == b[i])
        i++;
    /* A prefix, or a first difference between two ASCII characters: the
     * bytes say what the code units say. */
    if (i == n || ((unsigned char)a[i] < 0x80 && (unsigned char)b[i] < 0x80))
        return wj_compare_bytes(x, y);
    if (!is_wtf8(a, a_len) || !is_wtf8(b, b_len))
        return wj_compare_bytes(x, y);
    return wj_compare_utf16(x, y);
}
