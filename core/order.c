/*
 * order.c - member-name order: by code point (the wire rendering, §4) and
 * by UTF-16 code unit (RFC 8785, §5), and a stable sort of name nodes.
 *
 * Decoded names are UTF-8 (lone surrogates in their 3-byte form), so memcmp
 * orders them by code point.  UTF-16 order differs only where a character
 * at U+E000 or above meets a supplementary character or a lone surrogate;
 * the UTF-16 comparison resolves that at the first differing character.
 */
#include "wj_internal.h"

int wj_compare_bytes(wj_span a, wj_span b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c)
        return c;
    return a.len < b.len ? -1 : a.len > b.len;
}

/* The first UTF-16 code unit of the character starting at s (s[0] is a
 * lead byte), scaled so that the second unit breaks ties. */
static uint32_t utf16_key(const unsigned char *s, size_t avail)
{
    uint32_t cp;
    if (s[0] < 0x80 || avail < 2)
        return (uint32_t)s[0] << 10;
    if (s[0] < 0xE0)
        cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3Fu);
    else if (s[0] < 0xF0 || avail < 4)
        cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
             (avail > 2 ? s[2] & 0x3Fu : 0);
    else {
        cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
             (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3Fu);
        cp -= 0x10000;
        return (0xD800 + (cp >> 10)) << 10 | (cp & 0x3FF);
    }
    return cp << 10;
}

int wj_compare_utf16(wj_span a, wj_span b)
{
    const unsigned char *x = (const unsigned char *)a.ptr;
    const unsigned char *y = (const unsigned char *)b.ptr;
    size_t n = a.len < b.len ? a.len : b.len, i = 0;
    uint32_t kx, ky;

    while (i < n && x[i] == y[i])
        i++;
    if (i == n)
        return a.len < b.len ? -1 : a.len > b.len;
    /* Back up to the start of the character where they differ. */
    while (i > 0 && (x[i] & 0xC0) == 0x80)
        i--;
    kx = utf16_key(x + i, a.len - i);
    ky = utf16_key(y + i, b.len - i);
    return kx < ky ? -1 : kx > ky;
}

static void insertion_sort(const wj_doc *doc, uint32_t *v, uint32_t n,
                           int (*cmp)(wj_span, wj_span))
{
    uint32_t i, j;
    for (i = 1; i < n; i++) {
        uint32_t item = v[i];
        wj_span key = wj_doc_name(doc, item);
        for (j = i; j > 0 && cmp(wj_doc_name(doc, v[j - 1]), key) > 0; j--)
            v[j] = v[j - 1];
        v[j] = item;
    }
}

void wj_sort_names(const wj_doc *doc, uint32_t *names, uint32_t n,
                   uint32_t *tmp, int (*cmp)(wj_span, wj_span))
{
    uint32_t width, i;
    const uint32_t run = 16;

    /* Bottom-up merge sort over insertion-sorted runs; stable, n log n. */
    for (i = 0; i < n; i += run)
        insertion_sort(doc, names + i, n - i < run ? n - i : run, cmp);
    for (width = run; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            uint32_t mid = i + width, hi, a, b, k;
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
