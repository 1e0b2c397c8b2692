/* SPDX-License-Identifier: MIT */
/*
 * sha256_multi.h - SHA-256 of many messages at once (sha256_multi.c).
 *
 * Internal to libwirejson (the unit tests, fuzz targets and bench may
 * include it).  Every path gives libcrypto's digest, byte for byte.
 */
#ifndef WJ_SHA256_MULTI_H
#define WJ_SHA256_MULTI_H

#include <stddef.h>

/* The hashing paths: libcrypto one message at a time, interleaved SHA-NI
 * streams, 16 AVX-512 lanes.  cpu.c picks one with the SIMD path. */
enum { WJ_HASH_LIBCRYPTO = 1, WJ_HASH_SHA_NI = 2, WJ_HASH_AVX512 = 3 };

/* The hashing path chosen (deciding first if need be). */
int wj_hash_path(void);

/* SHA-256 of msg[k][0..len[k]) into out + 32 * k, for k < n, on the chosen
 * path: 16 AVX-512 lanes for a batch of 16 messages or more, interleaved
 * SHA-NI streams for a smaller one (or all, on the SHA-NI path), where the
 * processor has them; a single message, and every message elsewhere,
 * through libcrypto. */
void wj_sha256_many(const unsigned char *const *msg, const size_t *len,
                    size_t n, unsigned char *out);

/* The same on `path` with `lanes` streams (1, 2 or 4; ignored for
 * libcrypto): for the tests and the bench, which try every path.  -1 when
 * the processor lacks the path, else 0. */
int wj_sha256_many_on(int path, int lanes, const unsigned char *const *msg,
                      const size_t *len, size_t n, unsigned char *out);

/* Whether the processor has the SHA extensions and SSE4.1, and AVX-512F
 * and BW with the operating system's support (cpu.c; asked once). */
int wj_cpu_has_sha(void);
int wj_cpu_has_avx512(void);

/* How many SHA-NI streams to interleave: 4 on AMD processors, else 2
 * (cpu.c; asked once). */
int wj_sha_ni_streams(void);

/* The 16 AVX-512 lanes (sha256_avx512.c): only where wj_cpu_has_avx512.
 * Message k's digest goes to out + 32 * slot[k] (slot NULL: to
 * out + 32 * k). */
void wj_sha256_many_avx512(const unsigned char *const *msg, const size_t *len,
                           const size_t *slot, size_t n, unsigned char *out);

/* SHA-256 of one message with libcrypto (sha256.c). */
void wj_sha256_bytes(const void *data, size_t len, unsigned char md[32]);

#endif /* WJ_SHA256_MULTI_H */
