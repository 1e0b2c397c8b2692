/* SPDX-License-Identifier: MIT */
/*
 * test_name_order.c - the order of member names by their decoded bytes
 * (docs/contract.md §4) and the earliest repeated name, for objects of up
 * to 16 members: names that share their first 8 bytes or differ only past
 * them, names shorter than 8 bytes and prefixes of each other, NUL in a
 * name, names whose escapes decode to another order than their spelling,
 * and short names at the very end of the input (read from a buffer of
 * exactly the input's length, so a sanitizer sees any read past it).
 * Expected renderings and offsets are written by hand.
 */
#include "check.h"
#include "wirejson.h"

#include <stdint.h>
#include <stdlib.h>

/* The input in a heap block of exactly its length (no terminating NUL). */
static char *exact_copy(const char *json, size_t len)
{
    char *copy = malloc(len ? len : 1);
    if (copy)
        memcpy(copy, json, len);
    return copy;
}

/* wj_wire_json_sorted (names by decoded bytes) of json is expected. */
static void sorted_is(int line, const char *json, const char *expected)
{
    size_t len = strlen(json), out_len = 0;
    char *in = exact_copy(json, len), *out = NULL;
    wj_error err = WJ_ERROR_INIT;
    if (wj_wire_json_sorted(in, len, NULL, &out, &out_len, &err) != WJ_OK)
        fprintf(stderr, "line %d: %s at %zu\n", line, err.msg ? err.msg : "",
                err.offset);
    CHECK_BYTES(out, out_len, expected);
    wj_free(NULL, out);
    free(in);
}

/* json repeats a member name first at offset (its opening quote), for a
 * rendering, which sorts the names, and for a validation. */
static void repeats_at(int line, const char *json, size_t offset)
{
    size_t len = strlen(json), out_len = 0;
    char *in = exact_copy(json, len), *out = NULL;
    wj_error err = WJ_ERROR_INIT, verr = WJ_ERROR_INIT;
    wj_code rc = wj_wire_json_sorted(in, len, NULL, &out, &out_len, &err);
    wj_code vrc = wj_validate(in, len, NULL, &verr);
    CHECK(rc == WJ_ERR_DUPLICATE && err.offset == offset);
    CHECK(vrc == WJ_ERR_DUPLICATE && verr.offset == offset);
    if (rc != WJ_ERR_DUPLICATE || err.offset != offset ||
        vrc != WJ_ERR_DUPLICATE || verr.offset != offset)
        fprintf(stderr, "  line %d: rendering %d at %zu, validation %d at %zu,"
                        " expected %zu\n",
                line, (int)rc, err.offset, (int)vrc, verr.offset, offset);
    wj_free(NULL, out);
    free(in);
}

#define SORTED(json, expected) sorted_is(__LINE__, json, expected)
#define REPEATS(json, offset) repeats_at(__LINE__, json, offset)

static void test_shared_prefixes(void)
{
    /* the first 8 bytes alike: the bytes after them decide */
    SORTED("{\"content_b\":1,\"content_a\":2,\"content\":3,\"contents\":4}",
           "{\"content\":3,\"content_a\":2,\"content_b\":1,\"contents\":4}");
    /* alike but for the 8th byte's low bits ('A' 0x41, 'B' 0x42) */
    SORTED("{\"abcdefgB\":1,\"abcdefgA\":2,\"abcdefg\":3}",
           "{\"abcdefg\":3,\"abcdefgA\":2,\"abcdefgB\":1}");
    SORTED("{\"abcdefgB\":1,\"x\":0,\"abcdefgA\":2,\"abcdefgC\":4,"
           "\"abcdefg\":3,\"a\":5}",
           "{\"a\":5,\"abcdefg\":3,\"abcdefgA\":2,\"abcdefgB\":1,"
           "\"abcdefgC\":4,\"x\":0}");
    /* long names that differ only at their end */
    SORTED("{\"function_call_2\":1,\"function_call_1\":2,\"function\":3,"
           "\"function_call\":4,\"function_call_10\":5}",
           "{\"function\":3,\"function_call\":4,\"function_call_1\":2,"
           "\"function_call_10\":5,\"function_call_2\":1}");
    /* already in order, with ties: rendered as they came */
    SORTED("{\"abcdefgA\":1,\"abcdefgB\":2,\"abcdefgC\":3}",
           "{\"abcdefgA\":1,\"abcdefgB\":2,\"abcdefgC\":3}");
}

static void test_short_names_and_prefixes(void)
{
    SORTED("{\"abc\":1,\"ab\":2,\"a\":3,\"\":4,\"abcd\":5}",
           "{\"\":4,\"a\":3,\"ab\":2,\"abc\":1,\"abcd\":5}");
    SORTED("{\"abcdefgh\":1,\"abcdefg\":2,\"abcdefghi\":3}",
           "{\"abcdefg\":2,\"abcdefgh\":1,\"abcdefghi\":3}");
    /* bytes above 0x7f sort after ASCII (unsigned bytes) */
    SORTED("{\"\xc3\xa9\":1,\"z\":2,\"e\":3}",
           "{\"e\":3,\"z\":2,\"\xc3\xa9\":1}");
    SORTED("{\"b\":1,\"a\":2,\"c\":3,\"e\":4,\"d\":5,\"g\":6,\"f\":7,"
           "\"i\":8,\"h\":9,\"k\":10,\"j\":11,\"m\":12,\"l\":13,\"o\":14,"
           "\"n\":15,\"p\":16}",
           "{\"a\":2,\"b\":1,\"c\":3,\"d\":5,\"e\":4,\"f\":7,\"g\":6,"
           "\"h\":9,\"i\":8,\"j\":11,\"k\":10,\"l\":13,\"m\":12,\"n\":15,"
           "\"o\":14,\"p\":16}");
}

static void test_nul_in_names(void)
{
    /* "a" < "a\0" < "a\0b" < "a\1": the zero padding of a short key
     * must not make "a" and "a\0" the same name */
    SORTED("{\"a\\u0001\":1,\"a\\u0000b\":2,\"a\":3,\"a\\u0000\":4}",
           "{\"a\":3,\"a\\u0000\":4,\"a\\u0000b\":2,\"a\\u0001\":1}");
    SORTED("{\"\\u0000\":1,\"\":2}", "{\"\":2,\"\\u0000\":1}");
    SORTED("{\"\\u0000\\u0000\":1,\"\\u0000\":2,\"\":3}",
           "{\"\":3,\"\\u0000\":2,\"\\u0000\\u0000\":1}");
    REPEATS("{\"a\\u0000\":1,\"a\":2,\"a\\u0000\":3}", 19);
}

static void test_escaped_names(void)
{
    /* spelled, "\u0062" sorts first ('\' 0x5c < 'a'); decoded it is "b" */
    SORTED("{\"\\u0062\":1,\"a\":2,\"c\":3}", "{\"a\":2,\"b\":1,\"c\":3}");
    /* "\u00e9" is e-acute (c3 a9), after "z" */
    SORTED("{\"\\u00e9\":1,\"z\":2,\"y\":3}",
           "{\"y\":3,\"z\":2,\"\xc3\xa9\":1}");
    /* a decoded name of 8 bytes or more */
    SORTED("{\"\\u0063ontent_b\":1,\"content_a\":2,\"\\u0063ontent\":3}",
           "{\"content\":3,\"content_a\":2,\"content_b\":1}");
    REPEATS("{\"content_a\":1,\"x\":2,\"\\u0063ontent_a\":3}", 21);
    REPEATS("{\"b\":1,\"\\u0062\":2,\"c\":3}", 7);
}

static void test_repeats_at_several_places(void)
{
    /* offsets: each name's opening quote */
    REPEATS("{\"a\":1,\"b\":2,\"a\":3}", 13);
    REPEATS("{\"b\":1,\"a\":2,\"c\":3,\"a\":4,\"b\":5}", 19);
    REPEATS("{\"x\":1,\"y\":2,\"x\":3,\"y\":4}", 13);
    REPEATS("{\"y\":1,\"x\":2,\"x\":3,\"y\":4}", 13);
    REPEATS("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,"
            "\"h\":8,\"i\":9,\"j\":10,\"k\":11,\"l\":12,\"m\":13,\"n\":14,"
            "\"o\":15,\"a\":16}",
            97);
    REPEATS("{\"p\":1,\"o\":2,\"n\":3,\"m\":4,\"l\":5,\"k\":6,\"j\":7,"
            "\"i\":8,\"h\":9,\"i\":10}",
            55);
    /* repeats among names that share their first 8 bytes */
    REPEATS("{\"abcdefgB\":1,\"abcdefgA\":2,\"abcdefgB\":3}", 27);
    REPEATS("{\"abcdefgh1\":1,\"abcdefgh2\":2,\"abcdefgh3\":3,\"abcdefgh2\":4,"
            "\"abcdefgh1\":5}",
            43);
}

static void test_names_at_the_end(void)
{
    /* the last names sit within 8 bytes of the input's end */
    SORTED("{\"b\":1,\"a\":2}", "{\"a\":2,\"b\":1}");
    SORTED("{\"c\":1,\"b\":2,\"a\":3}", "{\"a\":3,\"b\":2,\"c\":1}");
    SORTED("{\"c\":1,\"\":2,\"b\":[],\"a\":{}}",
           "{\"\":2,\"a\":{},\"b\":[],\"c\":1}");
    SORTED("{\"x\":{\"c\":1,\"b\":2,\"a\":3}}",
           "{\"x\":{\"a\":3,\"b\":2,\"c\":1}}");
    SORTED("{\"zz\":1,\"y\":2,\"\\u0061\":3}",
           "{\"a\":3,\"y\":2,\"zz\":1}");
    REPEATS("{\"b\":1,\"a\":2,\"b\":3}", 13);
    REPEATS("{\"c\":0,\"b\":1,\"c\":2,\"b\":3}", 13);
}

int main(void)
{
    test_shared_prefixes();
    test_short_names_and_prefixes();
    test_nul_in_names();
    test_escaped_names();
    test_repeats_at_several_places();
    test_names_at_the_end();
    return check_report("test_name_order");
}
