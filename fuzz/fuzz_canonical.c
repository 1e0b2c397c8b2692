/* SPDX-License-Identifier: MIT */
/*
 * fuzz_canonical.c - wj_canonical_json (docs/contract.md §5), and the two functions
 * defined by it: wj_data_digest is SHA-256 of the canonical bytes, and
 * wj_canonical_arguments is the canonical JSON when there is one, else the
 * text itself.  The rendering checks are fuzz_rendering.c's (numbers are
 * compared in their RFC 8785 spelling, objects must be in UTF-16 order).
 */
#include "fuzz_rendering.h"

#include <string.h>

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
