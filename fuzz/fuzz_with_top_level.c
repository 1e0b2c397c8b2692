/* SPDX-License-Identifier: MIT */
/*
 * fuzz_with_top_level.c - wj_with_top_level (docs/contract.md §7).  Input: body, NUL,
 * name, NUL, value.
 *
 * Invariants: a value that is not JSON is an input error inside the value;
 * a body that is not an object the scanner follows, or without the member,
 * gives no result and no error; otherwise the result is the body with each
 * matching top-level value replaced by the value and every other byte
 * unchanged, where a member matches when its name, escapes decoded, and
 * the name argument are the same code points under simple case folding
 * (wj_case_fold, the C+S table that tests/unit/test_casefold.c and
 * tests/raw/casefold.py check on their own); replacing again with the same
 * value (without surrounding whitespace) changes nothing; a failed n-th
 * allocation is out of memory and leaks nothing.
 *
 * The expected splice is computed here apart from rawbody.c: names decoded
 * to code point arrays by fuzz_decode, the name argument by its own decoder
 * below, both folded whole and compared as arrays.
 */
#include "fuzz_util.h"
#include "unicode.h"

#include <stdlib.h>
#include <string.h>

/* The code points of the name argument (any bytes) into cps (room for len):
 * each well-formed UTF-8 sequence is its code point; any other byte (a
 * surrogate's 3-byte form included) stands alone for 0x110000 + the byte,
 * which no decoded name holds.  Read by value range (no overlong form, no
 * surrogate, nothing above U+10FFFF), not by rawbody.c's table of lead and
 * second bytes. */
static size_t name_cps(const unsigned char *s, size_t len, uint32_t *cps)
{
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    size_t i = 0, n = 0;
    while (i < len) {
        size_t need = s[i] < 0x80   ? 1
                      : s[i] < 0xC0 ? 0
                      : s[i] < 0xE0 ? 2
                      : s[i] < 0xF0 ? 3
                      : s[i] < 0xF8 ? 4
                                    : 0;
        uint32_t cp = need == 1 ? s[i] : s[i] & (0x7Fu >> need);
        size_t k;
        for (k = 1; need > 1 && k < need; k++) {
            if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
                break;
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        if (need == 0 || k < need || cp < least[need] || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF)) {
            cps[n++] = 0x110000u + s[i++];
            continue;
        }
        cps[n++] = cp;
        i += need;
    }
    return n;
}

static void fold_all(uint32_t *cps, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        cps[k] = wj_case_fold(cps[k]);
}

/* The body with name's top-level values replaced, or 0 when there is none
 * (the body then not being an object, or without the member). */
static int expected(const fuzz_part *body, const fuzz_part *name,
                    const fuzz_part *value, fuzz_buf *out)
{
    wj_doc doc;
    uint32_t k, member = wj_node_first(0);
    size_t at = 0, want_n;
    int hits = 0;
    uint32_t *want, *cps;

    if (wj_doc_parse(&doc, body->ptr, body->len, WJ_PARSE_ALLOW_DUPLICATES,
                     NULL, NULL) != WJ_OK)
        return 0;
    want = fuzz_xmalloc((name->len + 1) * sizeof *want);
    want_n = name_cps((const unsigned char *)name->ptr, name->len, want);
    fold_all(want, want_n);
    cps = fuzz_xmalloc((body->len + 1) * sizeof *cps);
    if (wj_node_type(&doc, 0) == WJ_OBJECT) {
        for (k = 0; k < wj_node_count(&doc, 0);
             k++, member = wj_member_next(&doc, member)) {
            fuzz_node n_at = fuzz_name_at(&doc, member), *n = &n_at;
            fuzz_node v_at = fuzz_node_at(&doc, wj_member_value(member)),
                      *v = &v_at;
            size_t len = fuzz_decode(body->ptr + n->start + 1,
                                     n->end - n->start - 2, cps);
            fold_all(cps, len);
            if (len != want_n || memcmp(cps, want, len * sizeof *cps) != 0)
                continue;
            fuzz_buf_put(out, body->ptr + at, v->start - at);
            fuzz_buf_put(out, value->ptr, value->len);
            at = v->end;
            hits++;
        }
        fuzz_buf_put(out, body->ptr + at, body->len - at);
    }
    free(cps);
    free(want);
    wj_doc_release(&doc);
    return hits > 0;
}

static wj_code call(const fuzz_part *body, const fuzz_part *name,
                    const fuzz_part *value, char **out, size_t *out_len,
                    wj_error *err)
{
    return wj_with_top_level(body->ptr, body->len, name->ptr, name->len,
                             value->ptr, value->len, &fuzz_heap, out, out_len,
                             err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[3] = {{NULL, 0}, {NULL, 0}, {NULL, 0}};
    size_t n = fuzz_split(data, size, parts, 3), out_len = 0, again_len = 0;
    fuzz_part *body = &parts[0], *name = &parts[1], *value = &parts[2];
    fuzz_buf want = {NULL, 0, 0};
    char *out = NULL, *again = NULL;
    wj_error err, verr;
    wj_code rc, vrc;
    size_t calls;
    fuzz_rng rng;
    wj_doc vdoc;

    fuzz_rng_seed(&rng, data, size);
    for (; n < 3; n++)
        parts[n].ptr = fuzz_xmalloc(0);

    fuzz_heap_begin(0);
    rc = call(body, name, value, &out, &out_len, &err);
    calls = fuzz_heap_calls();
    vrc = wj_doc_parse(&vdoc, value->ptr, value->len, WJ_PARSE_ALLOW_DUPLICATES,
                       NULL, &verr);
    if (vrc != WJ_OK) {
        fuzz_check_error(rc, &err, value->len);
        FUZZ_CHECK(rc == vrc && err.offset == verr.offset && out == NULL);
    } else {
        /* the value goes in as given, surrounding whitespace too: only a
         * value without any gives the same text when replaced again */
        int bare =
            wj_node_start(&vdoc, 0) == 0 && wj_node_end(&vdoc, 0) == value->len;
        wj_doc_release(&vdoc);
        fuzz_check_error(rc, &err, body->len);
        FUZZ_CHECK(rc == WJ_OK);
        if (!expected(body, name, value, &want)) {
            FUZZ_CHECK(out == NULL);
        } else {
            fuzz_check_result(out, out_len);
            fuzz_check_same_bytes("with_top_level and the splice", want.ptr,
                                  want.len, out, out_len);
            FUZZ_CHECK(wj_doc_parse(&vdoc, out, out_len,
                                    WJ_PARSE_ALLOW_DUPLICATES, NULL,
                                    NULL) == WJ_OK);
            wj_doc_release(&vdoc);
            rc = wj_with_top_level(out, out_len, name->ptr, name->len,
                                   value->ptr, value->len, &fuzz_heap, &again,
                                   &again_len, &err);
            FUZZ_CHECK(rc == WJ_OK && again != NULL);
            if (bare)
                fuzz_check_same_bytes("replacing twice and once", out, out_len,
                                      again, again_len);
        }
    }
    wj_free(&fuzz_heap, out);
    wj_free(&fuzz_heap, again);
    FUZZ_CHECK(fuzz_heap_live() == 0);

    if (calls > 0) {
        fuzz_heap_begin(1 + fuzz_rng_below(&rng, (uint32_t)calls));
        out = NULL;
        rc = call(body, name, value, &out, &out_len, &err);
        fuzz_heap_begin(0);
        FUZZ_CHECK(rc == WJ_ERR_NOMEM && out == NULL);
        FUZZ_CHECK(fuzz_heap_live() == 0);
    }
    fuzz_buf_free(&want);
    fuzz_parts_free(parts, 3);
    return 0;
}
