/* SPDX-License-Identifier: MIT */
/*
 * parse.c - the strict, validating parser (docs/contract.md §3).
 *
 * One pass over the bytes builds a flat array of nodes that point into the
 * input.  Nesting is tracked on a fixed explicit stack, never on the C stack,
 * so depth costs no recursion.  When an object closes, its member names are
 * sorted (the renderers need that order) and duplicates fall out of the sort.
 *
 * Every error names the first byte that cannot continue a valid document:
 * the end of input for truncation, a bad escape's backslash, an ill-formed
 * UTF-8 sequence's first byte, a repeated name's opening quote, the bracket
 * that makes depth 1001.
 */
#include "wj_internal.h"

#include <stdlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct parser {
    const unsigned char *s;
    size_t len;
    size_t pos;
    unsigned opts;
    wj_doc *doc;
    uint32_t cap_nodes;
    uint32_t *keys; /* name nodes of the members of the open objects */
    uint32_t n_keys;
    uint32_t cap_keys;
    uint32_t n_order;
    uint32_t cap_order;
    size_t names_len;
    size_t names_cap;
    uint32_t *tmp; /* merge-sort scratch */
    uint32_t cap_tmp;
    uint32_t most; /* no array needs more entries: see max_entries() */
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

/* The letters after a backslash that need nothing more: " \\ / b f n r t. */
/* clang-format off */
static const unsigned char simple_escape[256] = {
    ['"'] = 1, ['\\'] = 1, ['/'] = 1, ['b'] = 1, ['f'] = 1, ['n'] = 1,
    ['r'] = 1, ['t'] = 1,
};
/* clang-format on */

static wj_code fail(parser *p, wj_code code, size_t offset, const char *msg)
{
    return wj_fail(p->err, code, offset, msg);
}

static wj_code fail_syntax(parser *p, size_t offset, const char *msg)
{
    if (offset >= p->len)
        return fail(p, WJ_ERR_SYNTAX, p->len, "unexpected end of input");
    return fail(p, WJ_ERR_SYNTAX, offset, msg);
}

static void skip_space(parser *p)
{
    const unsigned char *s = p->s;
    size_t i = p->pos, len = p->len;
    while (i < len &&
           (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
        i++;
    p->pos = i;
}

/* The most nodes len bytes can hold: every value takes a byte at least,
 * and a separator or a bracket stands between two, so about one node per
 * two bytes.  No array of the parser (nodes, keys, order, sort scratch)
 * ever holds more entries than there are nodes. */
static uint32_t max_entries(size_t len)
{
    size_t n = len / 2 + 2;
    return n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
}

/* Grows an array of n-byte elements to hold at least need of them, never
 * past what the input can need (wj_grow's policy). */
static int grow(parser *p, void **arr, uint32_t *cap, uint32_t need,
                size_t elem)
{
    size_t bytes;
    void *np =
        wj_grow(p->doc->alloc, *arr, (size_t)*cap * elem, (size_t)need * elem,
                16 * elem, (size_t)p->most * elem, &bytes);
    if (!np)
        return -1;
    *arr = np;
    *cap = bytes / elem < UINT32_MAX ? (uint32_t)(bytes / elem) : UINT32_MAX;
    return 0;
}

/* Out of line: the node array grows rarely. */
static __attribute__((noinline)) int grow_nodes(parser *p)
{
    return grow(p, (void **)&p->doc->nodes, &p->cap_nodes, p->doc->n_nodes + 1,
                sizeof(wj_node));
}

static inline uint32_t add_node(parser *p, wj_type type, size_t start)
{
    wj_doc *doc = p->doc;
    wj_node *n;
    if (doc->n_nodes == p->cap_nodes && grow_nodes(p) != 0)
        return UINT32_MAX;
    n = &doc->nodes[doc->n_nodes];
    n->start = (uint32_t)start;
    n->end = (uint32_t)start;
    n->next = doc->n_nodes + 1;
    n->count = 0;
    n->aux = 0;
    n->type = (uint8_t)type;
    n->flags = 0;
    return doc->n_nodes++;
}

/* Length of the well-formed UTF-8 sequence at s[i], or 0 (RFC 3629 table:
 * no overlongs, no surrogates, nothing above U+10FFFF, no truncation). */
static size_t utf8_length(const unsigned char *s, size_t i, size_t len)
{
    unsigned char c = s[i], lo = 0x80, hi = 0xBF;
    size_t n, k;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (len - i < n)
        return 0;
    if (s[i + 1] < lo || s[i + 1] > hi)
        return 0;
    for (k = 2; k < n; k++)
        if ((s[i + k] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* One more than the value of each hex digit; 0 for every other byte. */
/* clang-format off */
static const unsigned char hex_digit[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
    ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};
/* clang-format on */

/* The value of four hex digits at s, or -1 when one is not a hex digit. */
static int32_t hex4(const unsigned char *s)
{
    unsigned a = hex_digit[s[0]], b = hex_digit[s[1]], c = hex_digit[s[2]],
             d = hex_digit[s[3]];
    if (!a || !b || !c || !d)
        return -1;
    return (int32_t)((a - 1) << 12 | (b - 1) << 8 | (c - 1) << 4 | (d - 1));
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
    /* A non-hex digit is the escape's fault even when the input ends. */
    for (k = 2; k < 6 && i + k < len; k++)
        if (!hex_digit[s[i + k]])
            return fail(p, WJ_ERR_SYNTAX, i, "invalid \\u escape");
    if (len - i < 6)
        return fail_syntax(p, len, NULL);
    cp = hex4(s + i + 2);
    if (cp >= 0xD800 && cp <= 0xDBFF && len - i >= 12 && s[i + 6] == '\\' &&
        s[i + 7] == 'u') {
        lo = hex4(s + i + 8);
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

/* Index of the first byte at or after i that string_stop flags. */
static size_t scan_plain(const unsigned char *s, size_t i, size_t len)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i bslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(' ');
    while (len - i >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        /* signed compare: controls and every byte >= 0x80 are "< ' '" */
        __m128i m = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
            _mm_cmplt_epi8(v, space));
        unsigned mask = (unsigned)_mm_movemask_epi8(m);
        if (mask)
            return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
#endif
    while (i < len && !string_stop[s[i]])
        i++;
    return i;
}

/* Parses the string literal at p->pos; adds its node (decoding a member
 * name with escapes into doc->names). */
static wj_code parse_string(parser *p, int is_name, uint32_t *node_out)
{
    const unsigned char *s = p->s;
    size_t len = p->len, start = p->pos, i = start + 1;
    uint8_t flags = 0;
    uint32_t idx;
    wj_node *n;

    for (;;) {
        unsigned char c;
        i = scan_plain(s, i, len);
        if (i >= len)
            return fail_syntax(p, len, NULL);
        c = s[i];
        if (c == '"')
            break;
        if (c == '\\') {
            size_t k;
            wj_code rc;
            flags |= WJ_STR_ESCAPED;
            /* The common two-byte escapes, inline; \u goes the long way. */
            while (i + 1 < len && s[i] == '\\' && simple_escape[s[i + 1]])
                i += 2;
            if (i >= len || s[i] != '\\')
                continue;
            rc = check_escape(p, i, &flags, &k);
            if (rc != WJ_OK)
                return rc;
            i += k;
        } else if (c < 0x20) {
            return fail(p, WJ_ERR_SYNTAX, i,
                        "unescaped control character in string");
        } else {
            /* Non-ASCII text comes in runs: validate the whole run here. */
            do {
                size_t k = utf8_length(s, i, len);
                if (!k)
                    return fail(p, WJ_ERR_UTF8, i, "invalid UTF-8");
                if (s[i] >= 0xEE)
                    flags |= WJ_STR_UTF16;
                i += k;
            } while (i < len && s[i] >= 0x80);
        }
    }
    idx = add_node(p, WJ_STRING, start);
    if (idx == UINT32_MAX)
        return wj_fail_nomem(p->err);
    n = &p->doc->nodes[idx];
    n->end = (uint32_t)(i + 1);
    n->flags = flags;
    if (is_name && (flags & WJ_STR_ESCAPED)) {
        size_t raw_len = i - start - 1;
        if (p->names_cap - p->names_len < raw_len) {
            size_t cap;
            /* decoded names are never longer than the input */
            char *np = wj_grow(p->doc->alloc, p->doc->names, p->names_cap,
                               p->names_len + raw_len, 256, len, &cap);
            if (!np)
                return wj_fail_nomem(p->err);
            p->doc->names = np;
            p->names_cap = cap;
        }
        n->aux = (uint32_t)p->names_len;
        n->count = (uint32_t)wj_string_decode(
            (const char *)s + start + 1, raw_len, p->doc->names + p->names_len);
        p->names_len += n->count;
    }
    p->pos = i + 1;
    *node_out = idx;
    return WJ_OK;
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static wj_code parse_number(parser *p)
{
    const unsigned char *s = p->s;
    size_t len = p->len, start = p->pos, i = start;
    uint32_t idx;

    if (s[i] == '-')
        i++;
    if (i < len && s[i] == '0') {
        i++;
        if (i < len && is_digit(s[i]))
            return fail(p, WJ_ERR_SYNTAX, i, "leading zero in number");
    } else if (i < len && is_digit(s[i])) {
        while (i < len && is_digit(s[i]))
            i++;
    } else {
        return fail_syntax(p, i, "expected a digit");
    }
    if (i < len && s[i] == '.') {
        i++;
        if (i >= len || !is_digit(s[i]))
            return fail_syntax(p, i, "expected a digit after '.'");
        while (i < len && is_digit(s[i]))
            i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= len || !is_digit(s[i]))
            return fail_syntax(p, i, "expected a digit in the exponent");
        while (i < len && is_digit(s[i]))
            i++;
    }
    idx = add_node(p, WJ_NUMBER, start);
    if (idx == UINT32_MAX)
        return wj_fail_nomem(p->err);
    p->doc->nodes[idx].end = (uint32_t)i;
    p->pos = i;
    return WJ_OK;
}

static wj_code parse_literal(parser *p, const char *word, wj_type type)
{
    size_t start = p->pos, k;
    uint32_t idx;
    for (k = 0; word[k]; k++) {
        if (start + k >= p->len)
            return fail_syntax(p, p->len, NULL);
        if (p->s[start + k] != (unsigned char)word[k])
            return fail(p, WJ_ERR_SYNTAX, start + k, "invalid literal");
    }
    idx = add_node(p, type, start);
    if (idx == UINT32_MAX)
        return wj_fail_nomem(p->err);
    p->doc->nodes[idx].end = (uint32_t)(start + k);
    p->pos = start + k;
    return WJ_OK;
}

/* Sorts the names of the object that just closed, reports the earliest
 * repeated name, and files the order in doc->order. */
static wj_code close_object(parser *p, uint32_t obj, uint32_t key_base)
{
    wj_doc *doc = p->doc;
    uint32_t n = p->n_keys - key_base, k;
    uint32_t *names;
    size_t dup_at = SIZE_MAX;

    if (n == 0) { /* p->keys may still be NULL: no arithmetic on it */
        doc->nodes[obj].aux = p->n_order;
        return WJ_OK;
    }
    names = p->keys + key_base;
    if (n > p->cap_tmp &&
        grow(p, (void **)&p->tmp, &p->cap_tmp, n, sizeof(uint32_t)) != 0)
        return wj_fail_nomem(p->err);
    wj_sort_names(doc, names, n, p->tmp, wj_compare_bytes);
    for (k = 1; k < n; k++) {
        if (wj_compare_bytes(wj_doc_name(doc, names[k - 1]),
                             wj_doc_name(doc, names[k])) == 0) {
            uint32_t a = doc->nodes[names[k - 1]].start;
            uint32_t b = doc->nodes[names[k]].start;
            size_t later = a > b ? a : b;
            if (later < dup_at)
                dup_at = later;
        }
    }
    if (dup_at != SIZE_MAX)
        return fail(p, WJ_ERR_DUPLICATE, dup_at, "duplicate member name");
    if (p->n_order + n > p->cap_order &&
        grow(p, (void **)&doc->order, &p->cap_order, p->n_order + n,
             sizeof(uint32_t)) != 0)
        return wj_fail_nomem(p->err);
    if (n)
        memcpy(doc->order + p->n_order, names, n * sizeof(uint32_t));
    doc->nodes[obj].aux = p->n_order;
    p->n_order += n;
    p->n_keys = key_base;
    return WJ_OK;
}

static wj_code parse_tree(parser *p)
{
    uint32_t stack[WJ_MAX_DEPTH];    /* open containers */
    uint32_t key_base[WJ_MAX_DEPTH]; /* their first entry in p->keys */
    unsigned depth = 0;
    int track_names = !(p->opts & WJ_PARSE_ALLOW_DUPLICATES);
    wj_node *top;
    wj_code rc;
    uint32_t idx;

    if (p->len >= 3 && p->s[0] == 0xEF && p->s[1] == 0xBB && p->s[2] == 0xBF)
        return fail(p, WJ_ERR_SYNTAX, 0, "byte order mark is not allowed");
    skip_space(p);

value:
    if (p->pos >= p->len)
        return fail_syntax(p, p->len, NULL);
    switch (p->s[p->pos]) {
    case '{':
    case '[':
        if (depth == WJ_MAX_DEPTH)
            return fail(p, WJ_ERR_DEPTH, p->pos, "nesting deeper than 1000");
        idx = add_node(p, p->s[p->pos] == '{' ? WJ_OBJECT : WJ_ARRAY, p->pos);
        if (idx == UINT32_MAX)
            return wj_fail_nomem(p->err);
        stack[depth] = idx;
        key_base[depth] = p->n_keys;
        depth++;
        p->pos++;
        skip_space(p);
        if (p->pos < p->len && (p->s[p->pos] == '}' || p->s[p->pos] == ']') &&
            (p->s[p->pos] == '}') == (p->doc->nodes[idx].type == WJ_OBJECT))
            goto close;
        p->doc->nodes[idx].count = 1;
        if (p->doc->nodes[idx].type == WJ_OBJECT)
            goto member;
        goto value;
    case '"': rc = parse_string(p, 0, &idx); break;
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
    case '9': rc = parse_number(p); break;
    case 't': rc = parse_literal(p, "true", WJ_TRUE); break;
    case 'f': rc = parse_literal(p, "false", WJ_FALSE); break;
    case 'n': rc = parse_literal(p, "null", WJ_NULL); break;
    default: return fail(p, WJ_ERR_SYNTAX, p->pos, "expected a value");
    }
    if (rc != WJ_OK)
        return rc;

after_value:
    skip_space(p);
    if (depth == 0) {
        if (p->pos != p->len)
            return fail(p, WJ_ERR_SYNTAX, p->pos,
                        "trailing characters after the value");
        return WJ_OK;
    }
    if (p->pos >= p->len)
        return fail_syntax(p, p->len, NULL);
    top = &p->doc->nodes[stack[depth - 1]];
    if (p->s[p->pos] == ',') {
        p->pos++;
        skip_space(p);
        if (p->pos < p->len && (p->s[p->pos] == ']' || p->s[p->pos] == '}'))
            return fail(p, WJ_ERR_SYNTAX, p->pos, "trailing comma");
        top->count++;
        if (top->type == WJ_OBJECT)
            goto member;
        goto value;
    }
    if (top->type == WJ_ARRAY ? p->s[p->pos] != ']' : p->s[p->pos] != '}')
        return fail(p, WJ_ERR_SYNTAX, p->pos,
                    top->type == WJ_ARRAY
                        ? "expected ',' or ']' after array element"
                        : "expected ',' or '}' after object member");

close:
    depth--;
    top = &p->doc->nodes[stack[depth]];
    top->end = (uint32_t)(p->pos + 1);
    top->next = p->doc->n_nodes;
    p->pos++;
    if (top->type == WJ_OBJECT && track_names) {
        rc = close_object(p, stack[depth], key_base[depth]);
        if (rc != WJ_OK)
            return rc;
    }
    goto after_value;

member:
    if (p->pos >= p->len)
        return fail_syntax(p, p->len, NULL);
    if (p->s[p->pos] != '"')
        return fail(p, WJ_ERR_SYNTAX, p->pos,
                    "expected '\"' to begin a member name");
    rc = parse_string(p, track_names, &idx);
    if (rc != WJ_OK)
        return rc;
    if (track_names) {
        if (p->n_keys == p->cap_keys &&
            grow(p, (void **)&p->keys, &p->cap_keys, p->n_keys + 1,
                 sizeof(uint32_t)) != 0)
            return wj_fail_nomem(p->err);
        p->keys[p->n_keys++] = idx;
        if (p->doc->nodes[idx].flags & WJ_STR_UTF16)
            p->doc->nodes[stack[depth - 1]].flags |= WJ_OBJ_UTF16;
    }
    skip_space(p);
    if (p->pos >= p->len || p->s[p->pos] != ':')
        return fail_syntax(p, p->pos, "expected ':' after member name");
    p->pos++;
    skip_space(p);
    goto value;
}

wj_code wj_doc_parse(wj_doc *doc, const char *json, size_t len, unsigned opts,
                     const wj_alloc *alloc, wj_error *err)
{
    parser p;
    wj_code rc;

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
    p.doc = doc;
    p.err = err;
    p.most = max_entries(len);
    /* Typical documents hold a node per 16 bytes or fewer. */
    if (grow(&p, (void **)&doc->nodes, &p.cap_nodes,
             (uint32_t)(len / 16 < 1u << 20 ? len / 16 + 16 : 1u << 20),
             sizeof(wj_node)) != 0)
        rc = wj_fail_nomem(err);
    else
        rc = parse_tree(&p);
    wj_free(alloc, p.keys);
    wj_free(alloc, p.tmp);
    if (rc != WJ_OK)
        wj_doc_release(doc);
    return rc;
}

void wj_doc_release(wj_doc *doc)
{
    wj_free(doc->alloc, doc->nodes);
    wj_free(doc->alloc, doc->order);
    wj_free(doc->alloc, doc->names);
    doc->nodes = NULL;
    doc->order = NULL;
    doc->names = NULL;
    doc->n_nodes = 0;
}

uint32_t wj_doc_find(const wj_doc *doc, uint32_t obj, const char *name,
                     size_t name_len)
{
    const uint32_t *names = wj_doc_members(doc, obj);
    uint32_t lo = 0, hi = doc->nodes[obj].count;
    wj_span key = {name, name_len};
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = wj_compare_bytes(wj_doc_name(doc, names[mid]), key);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}
