/* SPDX-License-Identifier: MIT */
/*
 * fuzz_canonical.c - wj_canonical_json (docs/contract.md §5), and the two functions
 * defined by it: wj_data_digest is SHA-256 of the canonical bytes, and
 * wj_canonical_arguments is the canonical JSON when there is one, else the
 * text itself.  The rendering checks are fuzz_rendering.c's (numbers are
 * compared in their RFC 8785 spelling, objects must be in UTF-16 order).
 * The one pass that wj_canonical_json tries first answers as the parse and
 * the walk do, or declines.
 */
#include "fuzz_rendering.h"

#include <string.h>

/*
 * The one pass (wj_canonical_one_pass) against the parse and the walk over
 * its tape: it declines (its buffer's length as it was, here empty, and
 * its error clear), or answers as the walk does: the same code, the same
 * error (code, offset, reason) or the same bytes.
 */
static void check_one_pass(const char *json, size_t len)
{
    wj_render_opts opts = {WJ_STYLE_CANONICAL, NULL, 0};
    wj_buf want = WJ_BUF_INIT(&fuzz_heap), got = WJ_BUF_INIT(&fuzz_heap);
    wj_error want_err = WJ_ERROR_INIT;
    wj_error got_err = {WJ_ERR_TYPE, 1, "left over", NULL, WJ_NO_ELEMENT};
    wj_doc doc;
    wj_code want_rc, got_rc;

    want_rc = wj_doc_parse(&doc, json, len, 0, &fuzz_heap, &want_err);
    if (want_rc == WJ_OK) {
        want_rc = wj_buf_code(
            &want, wj_render(&doc, 0, &opts, &want, &want_err), &want_err);
        wj_doc_release(&doc);
    }
    got_rc = wj_canonical_one_pass(json, len, &fuzz_heap, &got, &got_err);
    if (got_rc == WJ_DECLINED) {
        FUZZ_CHECK(got.len == 0 && got_err.code == WJ_OK &&
                   got_err.offset == 0 && got_err.msg == NULL);
    } else {
        FUZZ_CHECK(got_rc == want_rc);
        if (got_rc == WJ_OK) {
            fuzz_check_same_bytes("one pass and the walk", got.ptr, got.len,
                                  want.ptr, want.len);
        } else {
            FUZZ_CHECK(got_err.code == want_err.code &&
                       got_err.offset == want_err.offset &&
                       strcmp(got_err.msg, want_err.msg) == 0);
            FUZZ_CHECK(got.len == 0);
        }
    }
    wj_free(&fuzz_heap, want.ptr);
    wj_free(&fuzz_heap, got.ptr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part in;
    fuzz_rng rng;
    char *canon = NULL, *args = NULL;
    char hex[WJ_DIGEST_HEX_SIZE], want[WJ_DIGEST_HEX_SIZE];
    size_t canon_len = 0, args_len = 0;
    wj_error err;
    wj_code rc, drc;

    fuzz_split(data, size, &in, 1);
    fuzz_rng_seed(&rng, data, size);
    fuzz_check_rendering(WJ_STYLE_CANONICAL, in.ptr, in.len, NULL, 0, &rng);
    check_one_pass(in.ptr, in.len);

    rc = wj_canonical_json(in.ptr, in.len, &fuzz_heap, &canon, &canon_len,
                           &err);
    drc = wj_data_digest(in.ptr, in.len, &fuzz_heap, hex, &err);
    fuzz_check_error(drc, &err, in.len);
    FUZZ_CHECK(drc == rc);
    if (rc == WJ_OK) {
        wj_sha256_hex(canon, canon_len, want);
        FUZZ_CHECK(strlen(hex) == 64 && memcmp(hex, want, 65) == 0);
    }

    drc = wj_canonical_arguments(in.ptr, in.len, &fuzz_heap, &args, &args_len,
                                 &err);
    fuzz_check_error(drc, &err, in.len);
    FUZZ_CHECK(drc == WJ_OK);
    fuzz_check_result(args, args_len);
    if (rc == WJ_OK)
        fuzz_check_same_bytes("canonical_arguments and canonical_json", canon,
                              canon_len, args, args_len);
    else
        fuzz_check_same_bytes("canonical_arguments and its text", in.ptr,
                              in.len, args, args_len);
    wj_free(&fuzz_heap, canon);
    wj_free(&fuzz_heap, args);
    FUZZ_CHECK(fuzz_heap_live() == 0);
    fuzz_parts_free(&in, 1);
    return 0;
}
