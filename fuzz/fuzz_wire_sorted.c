/* SPDX-License-Identifier: MIT */
/*
 * fuzz_wire_sorted.c - wj_wire_json_sorted (docs/contract.md §4, everything as data).
 * The checks are fuzz_rendering.c's; the order check wants every object
 * ascending by code point.
 */
#include "fuzz_rendering.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part in;
    fuzz_rng rng;

    fuzz_split(data, size, &in, 1);
    fuzz_rng_seed(&rng, data, size);
    fuzz_check_rendering(WJ_STYLE_WIRE_SORTED, in.ptr, in.len, NULL, 0, &rng);
    fuzz_parts_free(&in, 1);
    return 0;
}
