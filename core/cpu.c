/* SPDX-License-Identifier: MIT */
/*
 * cpu.c - which SIMD path the core takes, decided once.
 *
 * Two decisions, made together: the scanning path (the fastest of scalar,
 * SSE2, AVX2 and AVX-512 that the processor has; AVX-512 is AVX2 with the
 * parser's long strings taken 64 bytes at a time, string_skip.c) and the
 * hashing path for many messages at once (16 AVX-512 lanes, else
 * interleaved SHA-NI streams where the processor has the SHA extensions,
 * else libcrypto; sha256_multi.c, sha256_avx512.c).  The environment
 * variable WIREJSON_SIMD caps both, slowest first: "scalar", "sse2",
 * "avx2" (libcrypto hashing for all three), "sha" (SHA-NI hashing, AVX2
 * scanning), "avx512": that one and no faster, the best the processor has
 * at or below it.  Any other value is ignored.  The variable is read once,
 * at the first call; every SIMD dispatch in the core reads the one
 * decision (wj_simd, wj_hash_path).  Deciding twice at once decides the
 * same, so a relaxed atomic is enough.
 */
#include "sha256_multi.h"
#include "wj_internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

/* A feature's answer, asked once: CPUID can trap to a hypervisor, far
 * slower than hashing a block.  *known: 1 yes, -1 no, 0 not asked yet. */
static int ask_once(_Atomic int *known, int (*ask)(void))
{
    int k = atomic_load_explicit(known, memory_order_relaxed);
    if (!k) {
        k = ask() ? 1 : -1;
        atomic_store_explicit(known, k, memory_order_relaxed);
    }
    return k > 0;
}

/* CPUID, as not every compiler's __builtin_cpu_supports knows "sha":
 * SSE4.1 is leaf 1 ECX bit 19, the SHA extensions leaf 7 EBX bit 29. */
static int ask_sha(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)))
        return 0;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}

int wj_cpu_has_sha(void)
{
    static _Atomic int known;
    return ask_once(&known, ask_sha);
}

/* AVX-512F and BW and the operating system saving the 512-bit registers (XCR0
 * bits 1, 2, 5, 6, 7). */
static int ask_avx512(void)
{
    unsigned a, b, c, d, lo, hi;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") ||
        !__builtin_cpu_supports("avx512bw"))
        return 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) /* OSXSAVE */
        return 0;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return (lo & 0xE6) == 0xE6;
}

int wj_cpu_has_avx512(void)
{
    static _Atomic int known;
    return ask_once(&known, ask_avx512);
}

/* CPUID leaf 0's vendor string, "AuthenticAMD" spelled in EBX, EDX, ECX. */
static int ask_amd(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(0, &a, &b, &c, &d) && b == 0x68747541u &&
           d == 0x69746e65u && c == 0x444d4163u;
}

/* SHA-NI's sha256rnds2 takes a few cycles and issues every other one, so
 * one stream leaves the unit idle.  On AMD processors 4 streams fill it
 * best (Zen 5, many messages of 700 B / 4 KB / 64 KB: 2 streams 2.13 / 2.33
 * / 2.48 GB/s, 4 streams 2.50 / 2.97 / 3.10); on the Xeon of
 * bench/RESULTS.md 4 were no faster than 2, so elsewhere it is 2. */
int wj_sha_ni_streams(void)
{
    static _Atomic int known;
    return ask_once(&known, ask_amd) ? 4 : 2;
}
#else
int wj_cpu_has_sha(void)
{
    return 0;
}

int wj_cpu_has_avx512(void)
{
    return 0;
}

int wj_sha_ni_streams(void)
{
    return 2;
}
#endif

_Atomic int wj_simd_chosen;
_Atomic size_t wj_simd_block16 = SIZE_MAX;
static _Atomic int hash_chosen;

/* The caps WIREJSON_SIMD names, slowest first. */
enum { CAP_SCALAR, CAP_SSE2, CAP_AVX2, CAP_SHA, CAP_AVX512 };

void wj_simd_use(int path)
{
    atomic_store_explicit(&wj_simd_block16,
                          path >= WJ_SIMD_SSE2 ? 16 : SIZE_MAX,
                          memory_order_relaxed);
    atomic_store_explicit(&wj_simd_chosen, path, memory_order_relaxed);
}

static int cap_named(const char *want)
{
    static const char *const names[] = {"scalar", "sse2", "avx2", "sha",
                                        "avx512"};
    int k;
    for (k = 0; want && k < (int)(sizeof names / sizeof *names); k++)
        if (strcmp(want, names[k]) == 0)
            return k;
    return CAP_AVX512;
}

int wj_simd_decide(void)
{
    int best = WJ_SIMD_SCALAR, hash = WJ_HASH_LIBCRYPTO;
    int cap = cap_named(getenv("WIREJSON_SIMD"));
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2") && cap >= CAP_SSE2)
        best = WJ_SIMD_SSE2;
    if (__builtin_cpu_supports("avx2") && cap >= CAP_AVX2)
        best = WJ_SIMD_AVX2;
    if (wj_cpu_has_sha() && cap >= CAP_SHA)
        hash = WJ_HASH_SHA_NI;
    if (wj_cpu_has_avx512() && cap >= CAP_AVX512) {
        best = WJ_SIMD_AVX512;
        hash = WJ_HASH_AVX512;
    }
#elif defined(__SSE2__)
    if (cap >= CAP_SSE2)
        best = WJ_SIMD_SSE2;
#endif
    atomic_store_explicit(&hash_chosen, hash, memory_order_relaxed);
    wj_simd_use(best);
    return best;
}

int wj_hash_path(void)
{
    int path = atomic_load_explicit(&hash_chosen, memory_order_relaxed);
    if (path)
        return path;
    wj_simd_decide();
    return atomic_load_explicit(&hash_chosen, memory_order_relaxed);
}
