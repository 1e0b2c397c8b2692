/* SPDX-License-Identifier: MIT */
/*
 * fuzz_rendering.h - the checks shared by the rendering fuzz targets
 * (fuzz_rendering.c).
 */
#ifndef FUZZ_RENDERING_H
#define FUZZ_RENDERING_H

#include "fuzz_util.h"

/* The public rendering of style (data members for the wire one only),
 * allocating through fuzz_heap. */
wj_code fuzz_render(wj_style style, const char *json, size_t len,
                    const wj_name *data, size_t n_data, char **out,
                    size_t *out_len, wj_error *err);

/* Renders json and checks every invariant of a rendering (see the .c). */
void fuzz_check_rendering(wj_style style, const char *json, size_t len,
                          const wj_name *data, size_t n_data, fuzz_rng *rng);

/* The parts as names (pointing into them); returns n. */
size_t fuzz_names(const fuzz_part *parts, size_t n, wj_name *names);

#endif /* FUZZ_RENDERING_H */
