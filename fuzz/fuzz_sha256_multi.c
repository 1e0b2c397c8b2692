/* SPDX-License-Identifier: MIT */
/*
 * fuzz_sha256_multi.c - SHA-256 of many messages at once (sha256_multi.c)
 * against libcrypto, and wj_function_call_batch's data_digest against
 * wj_data_digest row by row.  Input: messages separated by NUL bytes; the
 * first byte, when there is one, also stretches the messages (each is
 * repeated 1 + byte % 8 times), so lanes of very different lengths meet.
 *
 * Invariants: on every hashing path and lane count the processor has, each
 * digest is EVP_Digest's; a batch of data_digest rows gives each row the
 * digest, or the code and error, of wj_data_digest on it alone.
 */
#include "fuzz_util.h"
#include "sha256_multi.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int paths[] = {WJ_HASH_LIBCRYPTO, WJ_HASH_SHA_NI,
                                WJ_HASH_AVX512};
    static const int lanes[] = {1, 2, 4};
    fuzz_part parts[MAX_PARTS];
    size_t n = fuzz_split(data, size, parts, MAX_PARTS), k, p, l;
    size_t repeat = size ? 1 + data[0] % 8 : 1;
    const unsigned char *msg[MAX_PARTS];
    size_t len[MAX_PARTS];
    unsigned char *stretched[MAX_PARTS], want[32 * MAX_PARTS],
        got[32 * MAX_PARTS];
    const wj_function *fn = wj_function_find("data_digest", 11);
    wj_arg args[MAX_PARTS];
    wj_batch_row rows[MAX_PARTS];
    wj_batch_out out = {NULL, 0, 0};
    wj_error err;

    for (k = 0; k < n; k++) {
        unsigned int md_len = 0;
        size_t r;
        len[k] = parts[k].len * repeat;
        stretched[k] = fuzz_xmalloc(len[k] ? len[k] : 1);
        for (r = 0; r < repeat; r++)
            if (parts[k].len)
                memcpy(stretched[k] + r * parts[k].len, parts[k].ptr,
                       parts[k].len);
        msg[k] = stretched[k];
        FUZZ_CHECK(EVP_Digest(msg[k], len[k], want + 32 * k, &md_len,
                              EVP_sha256(), NULL) == 1);
    }
    for (p = 0; p < sizeof paths / sizeof *paths; p++)
        for (l = 0; l < sizeof lanes / sizeof *lanes; l++)
            if (wj_sha256_many_on(paths[p], lanes[l], msg, len, n, got) == 0)
                FUZZ_CHECK(memcmp(got, want, 32 * n) == 0);
    wj_sha256_many(msg, len, n, got);
    FUZZ_CHECK(memcmp(got, want, 32 * n) == 0);

    /* The parts as documents: the batch against one call a row. */
    for (k = 0; k < n; k++) {
        args[k].ptr = parts[k].ptr;
        args[k].len = parts[k].len;
    }
    FUZZ_CHECK(wj_function_call_batch(fn, args, 1, n, NULL, &out, rows,
                                      &err) == WJ_OK);
    for (k = 0; k < n; k++) {
        char hex[WJ_DIGEST_HEX_SIZE];
        wj_error one;
        wj_code rc = wj_data_digest(parts[k].ptr, parts[k].len, NULL, hex,
                                    &one);
        FUZZ_CHECK(rows[k].code == rc);
        if (rc == WJ_OK)
            FUZZ_CHECK(rows[k].len == 64 &&
                       memcmp(out.ptr + rows[k].offset, hex, 64) == 0);
        else
            FUZZ_CHECK(rows[k].len == 0 && rows[k].error.offset == one.offset &&
                       rows[k].error.msg == one.msg);
    }
    wj_batch_out_free(NULL, &out);
    for (k = 0; k < n; k++)
        free(stretched[k]);
    fuzz_parts_free(parts, n);
    return 0;
}
