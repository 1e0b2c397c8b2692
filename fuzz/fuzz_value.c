/* SPDX-License-Identifier: MIT */
/*
 * fuzz_value.c - the value-level invariants of fuzz_util.h, written from
 * docs/contract.md §3-§5 without the renderer's code: an own string decoder,
 * value equality over two trees, a respelling of a value as other JSON text,
 * and checks of a rendering's bytes and member order.
 */
#include "fuzz_util.h"
#include "number.h"
#include "unicode.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- strings */

static uint32_t hex4(const char *s)
{
    uint32_t v = 0;
    int k;
    for (k = 0; k < 4; k++) {
        char c = s[k];
        uint32_t d = c >= '0' && c <= '9'   ? (uint32_t)(c - '0')
                     : c >= 'a' && c <= 'f' ? (uint32_t)(c - 'a' + 10)
                                            : (uint32_t)(c - 'A' + 10);
        v = v << 4 | d;
    }
    return v;
}

static int is_high(uint32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}

static int is_low(uint32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

/* The code point of the UTF-8 sequence at s (valid), and its length. */
static uint32_t utf8_at(const unsigned char *s, size_t *n)
{
    if (s[0] < 0x80) {
        *n = 1;
        return s[0];
    }
    if (s[0] < 0xE0) {
        *n = 2;
        return (uint32_t)(s[0] & 0x1F) << 6 | (uint32_t)(s[1] & 0x3F);
    }
    if (s[0] < 0xF0) {
        *n = 3;
        return (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
               (uint32_t)(s[2] & 0x3F);
    }
    *n = 4;
    return (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
           (uint32_t)(s[2] & 0x3F) << 6 | (uint32_t)(s[3] & 0x3F);
}

/* The character a two-byte escape \c stands for (" \\ / stand for
 * themselves). */
static uint32_t short_escape(unsigned char c)
{
    switch (c) {
    case 'b': return 0x08;
    case 'f': return 0x0C;
    case 'n': return 0x0A;
    case 'r': return 0x0D;
    case 't': return 0x09;
    default: return c;
    }
}

size_t fuzz_decode(const char *raw, size_t raw_len, uint32_t *cps)
{
    size_t i = 0, n = 0, k;
    while (i < raw_len) {
        if (raw[i] != '\\') {
            cps[n++] = utf8_at((const unsigned char *)raw + i, &k);
            i += k;
            continue;
        }
        if (raw[i + 1] != 'u') {
            cps[n++] = short_escape((unsigned char)raw[i + 1]);
            i += 2;
            continue;
        }
        cps[n] = hex4(raw + i + 2);
        i += 6;
        if (is_high(cps[n]) && raw_len - i >= 6 && raw[i] == '\\' &&
            raw[i + 1] == 'u' && is_low(hex4(raw + i + 2))) {
            cps[n] = 0x10000 + ((cps[n] - 0xD800) << 10) +
                     (hex4(raw + i + 2) - 0xDC00);
            i += 6;
        }
        n++;
    }
    return n;
}

size_t fuzz_decode_utf8(const char *raw, size_t raw_len, char *out)
{
    uint32_t *cps = fuzz_xmalloc((raw_len + 1) * sizeof *cps);
    size_t n = fuzz_decode(raw, raw_len, cps), k, o = 0;
    for (k = 0; k < n; k++) {
        uint32_t cp = cps[k];
        if (cp < 0x80) {
            out[o++] = (char)cp;
        } else if (cp < 0x800) {
            out[o++] = (char)(0xC0 | cp >> 6);
            out[o++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[o++] = (char)(0xE0 | cp >> 12);
            out[o++] = (char)(0x80 | (cp >> 6 & 0x3F));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        } else {
            out[o++] = (char)(0xF0 | cp >> 18);
            out[o++] = (char)(0x80 | (cp >> 12 & 0x3F));
            out[o++] = (char)(0x80 | (cp >> 6 & 0x3F));
            out[o++] = (char)(0x80 | (cp & 0x3F));
        }
    }
    free(cps);
    return o;
}

/* A string literal's code points (malloc'd, *n of them). */
static uint32_t *literal_cps(const wj_doc *doc, fuzz_node s, size_t *n)
{
    size_t raw_len = s.end - s.start - 2;
    uint32_t *cps = fuzz_xmalloc((raw_len + 1) * sizeof *cps);
    *n = fuzz_decode(doc->json + s.start + 1, raw_len, cps);
    return cps;
}

/* True when the string literals x of a and y of b decode the same. */
static int same_literal(const wj_doc *a, fuzz_node x, const wj_doc *b,
                        fuzz_node y)
{
    size_t la, lb;
    uint32_t *ca = literal_cps(a, x, &la), *cb = literal_cps(b, y, &lb);
    int same = la == lb && memcmp(ca, cb, la * sizeof *ca) == 0;
    free(ca);
    free(cb);
    return same;
}

/* Writes cps[0..n) as UTF-16 code units (room for 2n); returns how many. */
static size_t to_utf16(const uint32_t *cps, size_t n, uint32_t *units)
{
    size_t i, u = 0;
    for (i = 0; i < n; i++) {
        if (cps[i] >= 0x10000) {
            units[u++] = 0xD800 + ((cps[i] - 0x10000) >> 10);
            units[u++] = 0xDC00 + ((cps[i] - 0x10000) & 0x3FF);
        } else {
            units[u++] = cps[i];
        }
    }
    return u;
}

static int compare_units(const uint32_t *a, size_t la, const uint32_t *b,
                         size_t lb)
{
    size_t i;
    for (i = 0; i < la && i < lb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return la < lb ? -1 : la > lb;
}

/* Compares by code point, or by UTF-16 code unit. */
static int compare_cps(const uint32_t *a, size_t la, const uint32_t *b,
                       size_t lb, int utf16)
{
    uint32_t *ua, *ub;
    size_t na, nb;
    int c;
    if (!utf16)
        return compare_units(a, la, b, lb);
    ua = fuzz_xmalloc((2 * la + 1) * sizeof *ua);
    ub = fuzz_xmalloc((2 * lb + 1) * sizeof *ub);
    na = to_utf16(a, la, ua);
    nb = to_utf16(b, lb, ub);
    c = compare_units(ua, na, ub, nb);
    free(ua);
    free(ub);
    return c;
}

/* ---------------------------------------------------------------- values */

int fuzz_same_value(const wj_doc *a, uint32_t na, const wj_doc *b, uint32_t nb,
                    int canonical_numbers)
{
    fuzz_node x_at = fuzz_node_at(a, na), *x = &x_at;
    fuzz_node y_at = fuzz_node_at(b, nb), *y = &y_at;
    uint32_t k;

    if (x->type != y->type)
        return 0;
    switch (x->type) {
    case WJ_NUMBER: {
        char spelled[WJ_NUMBER_MAX_CHARS];
        const char *want = a->json + x->start;
        size_t want_len = x->end - x->start;
        if (canonical_numbers) {
            want_len = wj_number_canonical(want, want_len, spelled);
            want = spelled;
            if (!want_len)
                return 0;
        }
        return want_len == y->end - y->start &&
               memcmp(want, b->json + y->start, want_len) == 0;
    }
    case WJ_STRING: return same_literal(a, *x, b, *y);
    case WJ_ARRAY: {
        uint32_t ea = wj_node_first(na), eb = wj_node_first(nb);
        if (x->count != y->count)
            return 0;
        for (k = 0; k < x->count; k++) {
            if (!fuzz_same_value(a, ea, b, eb, canonical_numbers))
                return 0;
            ea = wj_node_next(a, ea);
            eb = wj_node_next(b, eb);
        }
        return 1;
    }
    case WJ_OBJECT: {
        /* both taken in the order of their decoded names */
        wj_members ma = wj_members_of(a, na), mb = wj_members_of(b, nb);
        if (x->count != y->count)
            return 0;
        for (k = 0; k < x->count; k++) {
            uint32_t name_a = wj_members_take(&ma),
                     name_b = wj_members_take(&mb);
            if (!same_literal(a, fuzz_name_at(a, name_a), b,
                              fuzz_name_at(b, name_b)) ||
                !fuzz_same_value(a, wj_member_value(name_a), b,
                                 wj_member_value(name_b), canonical_numbers))
                return 0;
        }
        return 1;
    }
    default: return 1;
    }
}

/* ------------------------------------------------------------ respelling */

static void put_space(fuzz_rng *rng, fuzz_buf *out)
{
    static const char ws[] = " \t\n\r";
    while (fuzz_rng_below(rng, 4) == 0)
        fuzz_buf_putc(out, ws[fuzz_rng_below(rng, 4)]);
}

static void put_u_escape(fuzz_rng *rng, fuzz_buf *out, uint32_t unit)
{
    const char *digits =
        fuzz_rng_below(rng, 2) ? "0123456789abcdef" : "0123456789ABCDEF";
    char e[6] = {'\\',
                 'u',
                 digits[unit >> 12 & 0xF],
                 digits[unit >> 8 & 0xF],
                 digits[unit >> 4 & 0xF],
                 digits[unit & 0xF]};
    fuzz_buf_put(out, e, 6);
}

/* The string literal s again, some ASCII characters and short escapes as
 * \u. */
static void respell_string(const wj_doc *doc, fuzz_node s_at, fuzz_rng *rng,
                           fuzz_buf *out)
{
    const fuzz_node *s = &s_at;
    const char *raw = doc->json + s->start + 1;
    size_t len = s->end - s->start - 2, i = 0;

    fuzz_buf_putc(out, '"');
    while (i < len) {
        unsigned char c = (unsigned char)raw[i];
        if (c == '\\') {
            size_t n = raw[i + 1] == 'u' ? 6 : 2;
            if (n == 2 && fuzz_rng_below(rng, 4) == 0) {
                uint32_t cp;
                fuzz_decode(raw + i, 2, &cp);
                put_u_escape(rng, out, cp);
            } else {
                fuzz_buf_put(out, raw + i, n);
            }
            i += n;
        } else if (c < 0x80 && fuzz_rng_below(rng, 8) == 0) {
            put_u_escape(rng, out, c);
            i++;
        } else {
            fuzz_buf_putc(out, (char)c);
            i++;
        }
    }
    fuzz_buf_putc(out, '"');
}

void fuzz_respell(const wj_doc *doc, uint32_t node, fuzz_rng *rng,
                  fuzz_buf *out)
{
    fuzz_node n_at = fuzz_node_at(doc, node), *n = &n_at;
    uint32_t k, child;

    put_space(rng, out);
    if (n->type == WJ_STRING) {
        respell_string(doc, *n, rng, out);
    } else if (n->type == WJ_ARRAY) {
        fuzz_buf_putc(out, '[');
        put_space(rng, out);
        for (k = 0, child = wj_node_first(node); k < n->count;
             k++, child = wj_node_next(doc, child)) {
            if (k)
                fuzz_buf_putc(out, ',');
            fuzz_respell(doc, child, rng, out);
        }
        fuzz_buf_putc(out, ']');
    } else if (n->type == WJ_OBJECT) {
        uint32_t *names = fuzz_xmalloc((n->count + 1) * sizeof *names);
        for (k = 0, child = wj_node_first(node); k < n->count;
             k++, child = wj_node_next(doc, wj_member_value(child)))
            names[k] = child;
        for (k = n->count; k > 1; k--) { /* Fisher-Yates */
            uint32_t j = fuzz_rng_below(rng, k), t = names[k - 1];
            names[k - 1] = names[j];
            names[j] = t;
        }
        fuzz_buf_putc(out, '{');
        put_space(rng, out);
        for (k = 0; k < n->count; k++) {
            if (k)
                fuzz_buf_putc(out, ',');
            put_space(rng, out);
            respell_string(doc, fuzz_name_at(doc, names[k]), rng, out);
            put_space(rng, out);
            fuzz_buf_putc(out, ':');
            fuzz_respell(doc, wj_member_value(names[k]), rng, out);
        }
        fuzz_buf_putc(out, '}');
        free(names);
    } else {
        fuzz_buf_put(out, doc->json + n->start, n->end - n->start);
    }
    put_space(rng, out);
}

/* ------------------------------------------------------------------ form */

static int lower_hex4(const char *s)
{
    int k;
    for (k = 0; k < 4; k++)
        if (!((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f')))
            return 0;
    return 1;
}

/* Checks one string literal starting at out[i] == '"'; returns the index
 * after its closing quote. */
static size_t check_string_form(const char *out, size_t len, size_t i,
                                int canonical)
{
    int after_escape = 0, prev_escape;
    for (i++; i < len && out[i] != '"';) {
        unsigned char c = (unsigned char)out[i];
        size_t n;
        uint32_t cp;
        FUZZ_CHECK(c >= 0x20);
        if (c != '\\') {
            cp = utf8_at((const unsigned char *)out + i, &n);
            if (!canonical)
                FUZZ_CHECK(!(after_escape && wj_is_combining(cp)));
            after_escape = 0;
            i += n;
            continue;
        }
        FUZZ_CHECK(i + 1 < len);
        c = (unsigned char)out[i + 1];
        prev_escape = after_escape;
        after_escape = 1;
        if (c == '"' || c == '\\' || c == 'n' || c == 'r' || c == 't' ||
            (canonical && (c == 'b' || c == 'f'))) {
            i += 2;
            continue;
        }
        FUZZ_CHECK(c == 'u' && i + 6 <= len && lower_hex4(out + i + 2));
        cp = hex4(out + i + 2);
        i += 6;
        if (is_high(cp) && i + 6 <= len && out[i] == '\\' &&
            out[i + 1] == 'u' && is_low(hex4(out + i + 2))) {
            /* a pair: only a supplementary combining mark after an escape */
            FUZZ_CHECK(!canonical && lower_hex4(out + i + 2));
            cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(out + i + 2) - 0xDC00);
            i += 6;
            FUZZ_CHECK(prev_escape && wj_is_combining(cp));
            continue;
        }
        if (cp < 0x20) {
            FUZZ_CHECK(cp != '\n' && cp != '\r' && cp != '\t');
            if (canonical)
                FUZZ_CHECK(cp != '\b' && cp != '\f');
            continue;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        /* anything else escaped: a combining mark right after an escape */
        FUZZ_CHECK(!canonical && prev_escape && wj_is_combining(cp));
    }
    FUZZ_CHECK(i < len);
    return i + 1;
}

void fuzz_check_form(const char *out, size_t len, wj_style style)
{
    size_t i = 0;
    while (i < len) {
        char c = out[i];
        FUZZ_CHECK(c != ' ' && c != '\t' && c != '\n' && c != '\r');
        if (c == '"')
            i = check_string_form(out, len, i, style == WJ_STYLE_CANONICAL);
        else
            i++;
    }
}

/* ----------------------------------------------------------------- order */

typedef enum mode { SCHEMA, PROPMAP, NAMEMAP, DATA } mode;

typedef struct name_cps {
    uint32_t node; /* the name's string node */
    uint32_t *cps;
    size_t n;
} name_cps;

typedef struct order_ctx {
    const wj_doc *doc;
    wj_style style;
    const wj_name *data;
    size_t n_data;
} order_ctx;

static int cps_is(const name_cps *s, const char *word)
{
    size_t k, n = strlen(word);
    if (s->n != n)
        return 0;
    for (k = 0; k < n; k++)
        if (s->cps[k] != (unsigned char)word[k])
            return 0;
    return 1;
}

/* A top-level member named as data: the caller's names are bytes, compared
 * with the name's decoded UTF-8. */
static int is_data_member(const order_ctx *c, const name_cps *s)
{
    fuzz_node n_at = fuzz_name_at(c->doc, s->node), *n = &n_at;
    char *decoded = fuzz_xmalloc(n->end - n->start);
    size_t len = fuzz_decode_utf8(c->doc->json + n->start + 1,
                                  n->end - n->start - 2, decoded),
           k;
    int found = 0;
    for (k = 0; k < c->n_data && !found; k++)
        found = c->data[k].ptr && c->data[k].len == len &&
                memcmp(c->data[k].ptr, decoded, len) == 0;
    free(decoded);
    return found;
}

/* The members of obj in document order, names decoded. */
static name_cps *members_of(const wj_doc *doc, uint32_t obj)
{
    uint32_t count = wj_node_count(doc, obj), k, name = wj_node_first(obj);
    name_cps *m = fuzz_xmalloc((count + 1) * sizeof *m);
    for (k = 0; k < count;
         k++, name = wj_node_next(doc, wj_member_value(name))) {
        m[k].node = name;
        m[k].cps = literal_cps(doc, fuzz_name_at(doc, name), &m[k].n);
    }
    return m;
}

static void members_free(name_cps *m, uint32_t count)
{
    uint32_t k;
    for (k = 0; k < count; k++)
        free(m[k].cps);
    free(m);
}

/* §4's property map order: `required`'s names (string, present, first
 * time), then the rest ascending. */
static void check_propmap(const order_ctx *c, const name_cps *m, uint32_t count,
                          uint32_t parent)
{
    const wj_doc *doc = c->doc;
    name_cps *pm = members_of(doc, parent);
    uint32_t pcount = wj_node_count(doc, parent), k, j, listed = 0,
             required = 0;
    char *taken = calloc(count + 1, 1);

    FUZZ_CHECK(taken != NULL);
    for (k = 0; k < pcount; k++)
        if (cps_is(&pm[k], "required"))
            required = wj_member_value(pm[k].node);
    if (required && wj_node_type(doc, required) == WJ_ARRAY) {
        uint32_t e = wj_node_first(required);
        for (k = 0; k < wj_node_count(doc, required);
             k++, e = wj_node_next(doc, e)) {
            size_t n;
            uint32_t *cps;
            if (wj_node_type(doc, e) != WJ_STRING)
                continue;
            cps = literal_cps(doc, fuzz_node_at(doc, e), &n);
            for (j = 0; j < count; j++)
                if (!taken[j] && compare_cps(m[j].cps, m[j].n, cps, n, 0) == 0)
                    break;
            free(cps);
            if (j == count)
                continue; /* absent or repeated */
            /* the listed names come first, in this order */
            FUZZ_CHECK(j == listed);
            taken[j] = 1;
            listed++;
        }
    }
    for (k = listed + 1; k < count; k++)
        FUZZ_CHECK(compare_cps(m[k - 1].cps, m[k - 1].n, m[k].cps, m[k].n, 0) <
                   0);
    free(taken);
    members_free(pm, pcount);
}

static mode member_mode(const order_ctx *c, mode m, const name_cps *name,
                        int in_root)
{
    int is_object =
        wj_node_type(c->doc, wj_member_value(name->node)) == WJ_OBJECT;
    if (m == DATA)
        return DATA;
    if (m != SCHEMA)
        return SCHEMA; /* names are names; their values are schemas */
    if (in_root && is_data_member(c, name))
        return DATA;
    if (is_object && cps_is(name, "properties"))
        return PROPMAP;
    if (cps_is(name, "const") || cps_is(name, "default") ||
        cps_is(name, "enum") || cps_is(name, "examples"))
        return DATA;
    if (is_object &&
        (cps_is(name, "$defs") || cps_is(name, "definitions") ||
         cps_is(name, "patternProperties") || cps_is(name, "dependentSchemas")))
        return NAMEMAP;
    return SCHEMA;
}

static void order_walk(const order_ctx *c, uint32_t node, mode m,
                       uint32_t parent, int is_root)
{
    const wj_doc *doc = c->doc;
    uint32_t count, k, child;
    name_cps *members;

    if (wj_node_type(doc, node) != WJ_ARRAY &&
        wj_node_type(doc, node) != WJ_OBJECT)
        return; /* a scalar's record has no count */
    count = wj_node_count(doc, node);
    if (wj_node_type(doc, node) == WJ_ARRAY) {
        for (k = 0, child = wj_node_first(node); k < count;
             k++, child = wj_node_next(doc, child))
            order_walk(c, child, m, 0, 0);
        return;
    }
    if (wj_node_type(doc, node) != WJ_OBJECT)
        return;
    members = members_of(doc, node);
    if (m == PROPMAP) {
        check_propmap(c, members, count, parent);
    } else {
        for (k = 1; k < count; k++)
            FUZZ_CHECK(compare_cps(members[k - 1].cps, members[k - 1].n,
                                   members[k].cps, members[k].n,
                                   c->style == WJ_STYLE_CANONICAL) < 0);
    }
    for (k = 0; k < count; k++)
        order_walk(c, wj_member_value(members[k].node),
                   member_mode(c, m, &members[k], is_root), node, 0);
    members_free(members, count);
}

void fuzz_check_order(const wj_doc *doc, wj_style style, const wj_name *data,
                      size_t n_data)
{
    order_ctx c = {doc, style, data, n_data};
    order_walk(&c, 0, style == WJ_STYLE_WIRE ? SCHEMA : DATA, 0, 1);
}
