/* SPDX-License-Identifier: MIT */
/*
 * cpu.c - which SIMD path the core takes, decided once.
 *
 * The fastest of scalar, SSE2 and AVX2 that the processor has, or, when the
 * environment variable WIREJSON_SIMD names one of them ("scalar", "sse2",
 * "avx2"), that one and no faster: the best the processor has at or below
 * it.  Any other value is ignored.  The variable is read once, at the first
 * call; every SIMD dispatch in the core reads the one decision (wj_simd).
 * Deciding twice at once decides the same, so a relaxed atomic is enough.
 */
#include "wj_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

_Atomic int wj_simd_chosen;
_Atomic size_t wj_simd_block16 = SIZE_MAX;

void wj_simd_use(int path)
{
    atomic_store_explicit(&wj_simd_block16,
                          path >= WJ_SIMD_SSE2 ? 16 : SIZE_MAX,
                          memory_order_relaxed);
    atomic_store_explicit(&wj_simd_chosen, path, memory_order_relaxed);
}

int wj_simd_decide(void)
{
    int best = WJ_SIMD_SCALAR, cap = WJ_SIMD_AVX2;
    const char *want = getenv("WIREJSON_SIMD");
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2"))
        best = WJ_SIMD_SSE2;
    if (__builtin_cpu_supports("avx2"))
        best = WJ_SIMD_AVX2;
#elif defined(__SSE2__)
    best = WJ_SIMD_SSE2;
#endif
    if (want) {
        if (strcmp(want, "scalar") == 0)
            cap = WJ_SIMD_SCALAR;
        else if (strcmp(want, "sse2") == 0)
            cap = WJ_SIMD_SSE2;
    }
    if (best > cap)
        best = cap;
    wj_simd_use(best);
    return best;
}
