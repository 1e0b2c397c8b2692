/* SPDX-License-Identifier: MIT */
/*
 * test_sha256_multi.c - SHA-256 of many messages at once (sha256_multi.c)
 * gives libcrypto's digest on every path and every number of streams:
 * every length 0..4,200 (each padding case and block count), random
 * lengths up to 1 MiB, batches of mixed lengths in which lanes finish
 * at different steps and take the next message, and batches of long
 * messages that the lanes keep or set aside.  The reference is
 * OpenSSL's EVP_Digest, called here directly.  Also: the path the core
 * chose follows WIREJSON_SIMD (cpu.c), and the number of SHA-NI streams
 * the processor's vendor.
 */
#include "check.h"
#include "sha256_multi.h"
#include "wj_internal.h"

#include <openssl/evp.h>
#include <stdint.h>
#include <stdlib.h>

#define LONGEST_SMALL 4200
#define BIG_COUNT 24
#define BIG_MAX (1u << 20)
#define LONG_BATCH 300

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t next_random(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static void reference(const unsigned char *msg, size_t len,
                      unsigned char md[32])
{
    unsigned int n = 0;
    if (!EVP_Digest(msg, len, md, &n, EVP_sha256(), NULL) || n != 32)
        abort();
}

/* Whether the kernel names the processor's vendor AuthenticAMD. */
static int cpu_vendor_is_amd(void)
{
    char line[256];
    int amd = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "vendor_id", 9) == 0) {
            amd = strstr(line, "AuthenticAMD") != NULL;
            break;
        }
    fclose(f);
    return amd;
}

typedef struct batch {
    const unsigned char **msg;
    size_t *len;
    size_t n;
    unsigned char *expected; /* 32 bytes a message */
} batch;

static void batch_expect(batch *b)
{
    size_t k;
    b->expected = malloc(32 * (b->n ? b->n : 1));
    for (k = 0; k < b->n; k++)
        reference(b->msg[k], b->len[k], b->expected + 32 * k);
}

/* The batch on every path and lane count this processor has; each digest
 * against the reference, reporting the first few that differ. */
static void check_batch(const batch *b, const char *what)
{
    static const int paths[] = {WJ_HASH_LIBCRYPTO, WJ_HASH_SHA_NI,
                                WJ_HASH_AVX512};
    static const int lanes[] = {1, 2, 4};
    unsigned char *got = malloc(32 * (b->n ? b->n : 1));
    size_t p, l, k;
    for (p = 0; p < sizeof paths / sizeof *paths; p++)
        for (l = 0; l < sizeof lanes / sizeof *lanes; l++) {
            int bad = 0;
            memset(got, 0, 32 * b->n);
            if (wj_sha256_many_on(paths[p], lanes[l], b->msg, b->len, b->n,
                                  got) != 0)
                continue; /* the processor lacks the path */
            for (k = 0; k < b->n; k++)
                if (memcmp(got + 32 * k, b->expected + 32 * k, 32) != 0 &&
                    bad++ < 3)
                    fprintf(stderr, "%s: path %d, %d lanes: message %zu (%zu "
                            "bytes) differs\n", what, paths[p], lanes[l], k,
                            b->len[k]);
            check_count++;
            if (bad)
                check_failures++;
        }
    /* And through the chosen path. */
    memset(got, 0, 32 * b->n);
    wj_sha256_many(b->msg, b->len, b->n, got);
    CHECK(b->n == 0 || memcmp(got, b->expected, 32 * b->n) == 0);
    free(got);
}

/* A batch of long messages against the reference, freeing what it
 * expected. */
static void check_long_batch(batch *b, const char *what)
{
    batch_expect(b);
    check_batch(b, what);
    free(b->expected);
}

int main(void)
{
    unsigned char *pool = malloc(BIG_MAX), md[32];
    const unsigned char *msg[LONGEST_SMALL + 1];
    size_t len[LONGEST_SMALL + 1], k;
    batch b = {msg, len, 0, NULL};
    const char *want = getenv("WIREJSON_SIMD");

    for (k = 0; k < BIG_MAX; k++)
        pool[k] = (unsigned char)next_random();

    /* FIPS 180-4's example: SHA-256("abc"), written here by hand. */
    {
        static const unsigned char abc_md[32] = {
            0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
            0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
            0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
        const unsigned char *abc = (const unsigned char *)"abc";
        size_t three = 3;
        b.msg[0] = abc, b.len[0] = three, b.n = 1;
        batch_expect(&b);
        CHECK(memcmp(b.expected, abc_md, 32) == 0);
        check_batch(&b, "abc");
        free(b.expected);
    }

    /* Every length 0..4,200, in one batch (mixed lengths, ascending) and
     * in reverse, each message from its own place in the pool. */
    for (k = 0; k <= LONGEST_SMALL; k++) {
        msg[k] = pool + (k * 7919) % (BIG_MAX - LONGEST_SMALL);
        len[k] = k;
    }
    b.n = LONGEST_SMALL + 1;
    batch_expect(&b);
    check_batch(&b, "lengths 0..4200");
    free(b.expected);
    for (k = 0; k <= LONGEST_SMALL; k++) {
        msg[k] = pool + k;
        len[k] = LONGEST_SMALL - k;
    }
    batch_expect(&b);
    check_batch(&b, "lengths 4200..0");
    free(b.expected);

    /* Each length alone and in small batches (1, 2, 3, 5 messages: every
     * way a step narrows). */
    for (k = 0; k + 5 <= 300; k += 5) {
        size_t j;
        for (j = 0; j < 5; j++) {
            msg[j] = pool + k + j;
            len[j] = (next_random() % 3) ? k + j : next_random() % 1000;
        }
        for (b.n = 1; b.n <= 5; b.n++) {
            batch_expect(&b);
            check_batch(&b, "small batch");
            free(b.expected);
        }
    }

    /* Random lengths up to 1 MiB, with small ones among them. */
    for (k = 0; k < BIG_COUNT; k++) {
        len[k] = k % 3 == 2 ? next_random() % 700 : next_random() % BIG_MAX;
        msg[k] = pool + (BIG_MAX - len[k]) * (k % 2);
    }
    b.n = BIG_COUNT;
    batch_expect(&b);
    check_batch(&b, "random lengths to 1 MiB");
    free(b.expected);

    /* Batches of long messages: the 16 lanes keep them while there are
     * enough to keep the lanes busy, and set aside any longer than a 16th
     * of what the lanes would hash (sha256_multi.c, many_lanes). */
    for (k = 0; k < LONG_BATCH; k++) { /* 0..300 KB, two groups */
        len[k] = k % 5 == 0 ? next_random() % 1000
                            : next_random() % (300 * 1024 + 1);
        msg[k] = pool + next_random() % (BIG_MAX - len[k] + 1);
    }
    b.n = LONG_BATCH;
    check_long_batch(&b, "mixed lengths to 300 KB");
    for (k = 0; k < 256; k++) { /* one huge among small ones */
        len[k] = k == 100 ? BIG_MAX - 1 : next_random() % 4097;
        msg[k] = pool + (k == 100 ? 1 : next_random() % (BIG_MAX - 4096));
    }
    b.n = 256;
    check_long_batch(&b, "one of 1 MiB among small ones");
    /* 512 KB, 256 KB, ... 1 KB among 200 of 1 KB, shortest first: each
     * set aside lowers the share, so that the next is set aside too. */
    for (k = 0; k < 200; k++)
        len[k] = 1024, msg[k] = pool + 1024 * k;
    for (k = 200; k < 210; k++) {
        len[k] = (size_t)1024 << (k - 200);
        msg[k] = pool + (k % 3);
    }
    b.n = 210;
    check_long_batch(&b, "halving lengths among small ones");
    for (k = 0; k < 33; k++) /* equal long messages: all in the lanes */
        len[k] = 70000, msg[k] = pool + 30000 * k;
    b.n = 33;
    check_long_batch(&b, "33 of 70,000 bytes");
    /* 14 of 512 KB to 1 MiB among 200 of 1 KB: long ones of similar
     * lengths, ordered exactly (sha256_multi.c, order_with_long). */
    for (k = 0; k < 214; k++) {
        len[k] = k < 200 ? 1024 : BIG_MAX / 2 + next_random() % (BIG_MAX / 2);
        msg[k] = pool + (k < 200 ? 1024 * k : BIG_MAX - len[k]);
    }
    b.n = 214;
    check_long_batch(&b, "14 of 500 KB to 1 MiB among small ones");
    for (k = 0; k < 263; k++) { /* a last group of 7, 20..100 KB */
        len[k] = 20 * 1024 + next_random() % (80 * 1024 + 1);
        msg[k] = pool + next_random() % (BIG_MAX - len[k] + 1);
    }
    b.n = 263;
    check_long_batch(&b, "263 of 20..100 KB");

    /* One message goes through libcrypto whatever the path. */
    wj_sha256_bytes(pool, 1000, md);
    {
        unsigned char ref[32];
        reference(pool, 1000, ref);
        CHECK(memcmp(md, ref, 32) == 0);
    }

    /* The path chosen follows WIREJSON_SIMD: "scalar", "sse2" and "avx2"
     * hash with libcrypto, "sha" with SHA-NI at most; otherwise the fastest
     * the processor has. */
    {
        int sha = wj_sha256_many_on(WJ_HASH_SHA_NI, 1, NULL, NULL, 0, NULL) == 0;
        int avx512 =
            wj_sha256_many_on(WJ_HASH_AVX512, 16, NULL, NULL, 0, NULL) == 0;
        int best = avx512 ? WJ_HASH_AVX512
                          : sha ? WJ_HASH_SHA_NI : WJ_HASH_LIBCRYPTO;
        if (want && (strcmp(want, "scalar") == 0 ||
                     strcmp(want, "sse2") == 0 || strcmp(want, "avx2") == 0))
            CHECK(wj_hash_path() == WJ_HASH_LIBCRYPTO);
        else if (want && strcmp(want, "sha") == 0)
            CHECK(wj_hash_path() == (sha ? WJ_HASH_SHA_NI : WJ_HASH_LIBCRYPTO));
        else
            CHECK(wj_hash_path() == best);
    }

    /* The SHA-NI streams: 4 on AMD processors, 2 elsewhere, the vendor
     * read here from the kernel's /proc/cpuinfo, not from CPUID. */
    CHECK(wj_sha_ni_streams() == (cpu_vendor_is_amd() ? 4 : 2));

    free(pool);
    return check_report("test_sha256_multi");
}
