/* SPDX-License-Identifier: MIT */
/*
 * fuzz_wire.c - wj_wire_json (docs/contract.md §4).  Input: the JSON text, then
 * optionally NUL and the data member names, NUL-separated.  The checks are
 * fuzz_rendering.c's: form, §4 order, same value, idempotence, respelling,
 * allocation failure.
 */
#include "fuzz_rendering.h"

#define MAX_PARTS 5

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[MAX_PARTS];
    wj_name names[MAX_PARTS];
    fuzz_rng rng;
    size_t n = fuzz_split(data, size, parts, MAX_PARTS);

    fuzz_rng_seed(&rng, data, size);
    fuzz_check_rendering(WJ_STYLE_WIRE, parts[0].ptr, parts[0].len, names,
                         fuzz_names(parts + 1, n - 1, names), &rng);
    fuzz_parts_free(parts, n);
    return 0;
}
