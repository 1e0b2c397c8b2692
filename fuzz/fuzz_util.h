/* SPDX-License-Identifier: MIT */
/*
 * fuzz_util.h - what the fuzz targets share: invariant checks that abort
 * with file:line, a counting allocator for the core's hook, the splitting
 * of an input into NUL-separated parts, a small deterministic PRNG, and the
 * value-level checks every rendering must pass (fuzz_value.c).
 *
 * The targets are built twice: with libFuzzer (fuzz/CMakeLists.txt) and
 * with replay_main.c, which runs the seed corpora and the regression
 * inputs as ordinary ctests in every build.
 */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include "wj_internal.h"

#include <stddef.h>
#include <stdint.h>

/* The entry point of every target (libFuzzer's, or replay_main.c's). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints where and what, then aborts: a finding. */
void fuzz_fail(const char *file, int line, const char *what);

#define FUZZ_CHECK(cond)                                                       \
    do {                                                                       \
        if (!(cond))                                                           \
            fuzz_fail(__FILE__, __LINE__, #cond);                              \
    } while (0)

/* ------------------------------------------------------------- allocation */

/*
 * The allocator handed to the core: counts the allocations made since
 * fuzz_heap_begin and the blocks still live, and fails the fail_at-th
 * allocation (1-based; 0 never fails).
 */
extern const wj_alloc fuzz_heap;
void fuzz_heap_begin(size_t fail_at);
size_t fuzz_heap_calls(void); /* allocations attempted since begin */
long fuzz_heap_live(void);    /* blocks allocated and not yet freed */

/* malloc that aborts instead of returning NULL (for the harness itself). */
void *fuzz_xmalloc(size_t size);

/* ------------------------------------------------------------------ input */

/* One part of an input, copied into a block of exactly its size so that a
 * read past its end is a sanitizer finding. */
typedef struct fuzz_part {
    char *ptr;
    size_t len;
} fuzz_part;

/* Splits data at NUL bytes into at most max parts (the last takes the rest,
 * NULs included); returns how many.  Release with fuzz_parts_free. */
size_t fuzz_split(const uint8_t *data, size_t size, fuzz_part *parts,
                  size_t max);
void fuzz_parts_free(fuzz_part *parts, size_t n);

/* xorshift64*, seeded from the input so every run of an input is the same. */
typedef struct fuzz_rng {
    uint64_t state;
} fuzz_rng;

void fuzz_rng_seed(fuzz_rng *rng, const uint8_t *data, size_t size);
uint32_t fuzz_rng_below(fuzz_rng *rng, uint32_t n); /* 0 when n is 0 */

/* A growable byte buffer that aborts when memory runs out. */
typedef struct fuzz_buf {
    char *ptr;
    size_t len;
    size_t cap;
} fuzz_buf;

void fuzz_buf_put(fuzz_buf *b, const void *bytes, size_t n);
void fuzz_buf_putc(fuzz_buf *b, char c);
void fuzz_buf_free(fuzz_buf *b);

/* ----------------------------------------------------------------- checks */

/*
 * The error contract: err->code equals rc and a reason is set; an input
 * error's offset lies inside the input (offset len only for "unexpected end
 * of input").
 */
void fuzz_check_error(wj_code rc, const wj_error *err, size_t len);

/* A successful result: NUL-terminated, out_len bytes. */
void fuzz_check_result(const char *out, size_t out_len);

/* Parses text strictly (it must be valid) into doc; release with
 * wj_doc_release. */
void fuzz_parse_valid(wj_doc *doc, const char *text, size_t len);

/* A tape record's fields, as the checks read them (a member name's `next`
 * means nothing; its value is wj_member_value). */
typedef struct fuzz_node {
    uint32_t start, end, next, count;
    wj_type type;
} fuzz_node;

fuzz_node fuzz_node_at(const wj_doc *doc, uint32_t node);

/* The same for a member name's record: its quotes' span, type WJ_STRING,
 * `next` its value. */
fuzz_node fuzz_name_at(const wj_doc *doc, uint32_t name);

/* Same bytes, or abort printing both. */
void fuzz_check_same_bytes(const char *what, const char *a, size_t a_len,
                           const char *b, size_t b_len);

/* ------------------------------------------------------- value invariants */

/*
 * True when the values at a (an input tree) and b (a rendering's tree) are
 * the same JSON value: same types, same decoded strings and names, same
 * elements in order, same members in any order.  Numbers: the same lexeme,
 * or with canonical_numbers b's lexeme is the RFC 8785 spelling of a's.
 */
int fuzz_same_value(const wj_doc *a, uint32_t na, const wj_doc *b, uint32_t nb,
                    int canonical_numbers);

/*
 * Writes the value at node again as other JSON text for the same value:
 * members shuffled, whitespace between tokens, and some characters of
 * strings and names spelled as \u escapes (hex case at random).
 */
void fuzz_respell(const wj_doc *doc, uint32_t node, fuzz_rng *rng,
                  fuzz_buf *out);

/*
 * Checks the bytes of a rendering against §4 (wire: only the mandatory
 * escapes, \u00xx for other controls, lone surrogates as \udxxx, combining
 * marks right after an escape escaped, nothing else) or §5 (canonical: the
 * RFC 8785 escapes), lowercase hex, and no whitespace between tokens.
 */
void fuzz_check_form(const char *out, size_t len, wj_style style);

/*
 * Checks the member order of every object of a rendering (doc parsed from
 * it): wire sorted and canonical objects ascending (code points; UTF-16
 * code units), wire objects by §4's schema rules with the top-level data
 * members data[0..n_data).
 */
void fuzz_check_order(const wj_doc *doc, wj_style style, const wj_name *data,
                      size_t n_data);

/* The code points of a string literal's body (raw, escapes valid), lone
 * surrogates kept as such; returns the count written to cps (room for
 * raw_len). */
size_t fuzz_decode(const char *raw, size_t raw_len, uint32_t *cps);

/* The same decoded as UTF-8 bytes (a lone surrogate in its 3-byte form)
 * into out (room for raw_len bytes); returns the length. */
size_t fuzz_decode_utf8(const char *raw, size_t raw_len, char *out);

#endif /* FUZZ_UTIL_H */
