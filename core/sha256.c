/* SPDX-License-Identifier: MIT */
/*
 * sha256.c - the one place that calls libcrypto: a running SHA-256 in the
 * caller's memory, and SHA-256 of a buffer, as lowercase hex (hex.c) or as
 * bytes (the one-message path of sha256_multi.c).
 *
 * libcrypto's SHA256_CTX is a plain struct that SHA256_Init/Update/Final
 * work on in place (the same block function, SHA-NI included, that EVP
 * uses), so the state can sit inside a wj_conversation allocated through
 * the caller's wj_alloc, and reading a digest without ending the hash is a
 * copy of the struct.  An EVP_MD_CTX would be memory libcrypto owns, which
 * an arena that is thrown away without a free (PostgreSQL's memory
 * contexts) would leak.  OpenSSL 3.0 deprecates these functions in favour
 * of EVP; they are not going away in 3.x, and this file is the only one
 * that needs the deprecated declarations.
 */
#define OPENSSL_SUPPRESS_DEPRECATED

#include "sha256_multi.h"
#include "wj_internal.h"

#include <openssl/sha.h>

_Static_assert(sizeof(SHA256_CTX) <= sizeof(((wj_sha256 *)0)->state.bytes),
               "wj_sha256 has room for SHA256_CTX");
_Static_assert(_Alignof(SHA256_CTX) <= _Alignof(wj_sha256),
               "wj_sha256 is aligned for SHA256_CTX");

static SHA256_CTX *ctx_of(wj_sha256 *h)
{
    return (SHA256_CTX *)(void *)h->state.bytes;
}

/* SHA256_Init/Update/Final only ever return 1 for the built-in code. */
void wj_sha256_init(wj_sha256 *h)
{
    SHA256_Init(ctx_of(h));
}

void wj_sha256_update(wj_sha256 *h, const void *data, size_t len)
{
    SHA256_Update(ctx_of(h), data, len);
}

static void final_hex(wj_sha256 *h, char hex[WJ_DIGEST_HEX_SIZE])
{
    unsigned char md[SHA256_DIGEST_LENGTH];
    SHA256_Final(md, ctx_of(h));
    wj_hex_encode(md, sizeof md, hex);
    hex[2 * SHA256_DIGEST_LENGTH] = '\0';
}

void wj_sha256_peek_hex(const wj_sha256 *h, char hex[WJ_DIGEST_HEX_SIZE])
{
    wj_sha256 copy = *h;
    final_hex(&copy, hex);
}

void wj_sha256_hex(const void *data, size_t len, char hex[WJ_DIGEST_HEX_SIZE])
{
    wj_sha256 h;
    wj_sha256_init(&h);
    wj_sha256_update(&h, data, len);
    final_hex(&h, hex);
}

void wj_sha256_bytes(const void *data, size_t len, unsigned char md[32])
{
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, data, len);
    SHA256_Final(md, &c);
}
