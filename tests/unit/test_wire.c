/* SPDX-License-Identifier: MIT */
/*
 * test_wire.c - the wire rendering (docs/contract.md §4), with expected bytes written by
 * hand from the contract's rules and examples.
 */
#include "check.h"
#include "wirejson.h"

#include <stdlib.h>

/* Renders json with the given data members and compares with expected. */
static void wire_is(int line, const char *json, const char *expected,
                    const char *const *members, size_t n_members)
{
    wj_name names[8] = {{NULL, 0}};
    char *out = NULL;
    size_t len = 0, k;
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;

    for (k = 0; k < n_members; k++) {
        names[k].ptr = members[k];
        names[k].len = strlen(members[k]);
    }
    rc = wj_wire_json(json, strlen(json), names, n_members, NULL, &out, &len,
                      &err);
    if (rc != WJ_OK)
        fprintf(stderr, "line %d: error %s at %zu\n", line, err.msg,
                err.offset);
    CHECK_BYTES(out, len, expected);
    wj_free(NULL, out);
}

static void sorted_is(const char *json, const char *expected)
{
    char *out = NULL;
    size_t len = 0;
    CHECK(wj_wire_json_sorted(json, strlen(json), NULL, &out, &len, NULL) ==
          WJ_OK);
    CHECK_BYTES(out, len, expected);
    wj_free(NULL, out);
}

#define WIRE(json, expected) wire_is(__LINE__, json, expected, NULL, 0)

static void test_spec_examples(void)
{
    /* docs/contract.md §4 / seed 000 */
    WIRE("{\"type\":\"object\",\"properties\":{\"change\":{\"type\":\"string\"},"
         "\"confidence\":{\"type\":\"number\"},\"evidence\":{\"type\":"
         "\"string\"},\"notes\":{\"type\":\"string\"}},\"required\":["
         "\"evidence\",\"change\",\"confidence\"]}",
         "{\"properties\":{\"evidence\":{\"type\":\"string\"},\"change\":{"
         "\"type\":\"string\"},\"confidence\":{\"type\":\"number\"},\"notes\":"
         "{\"type\":\"string\"}},\"required\":[\"evidence\",\"change\","
         "\"confidence\"],\"type\":\"object\"}");
    sorted_is("{\"b\":1,\"a\":{\"properties\":{\"z\":1,\"y\":2},\"required\":["
              "\"z\"]}}",
              "{\"a\":{\"properties\":{\"y\":2,\"z\":1},\"required\":[\"z\"]},"
              "\"b\":1}");
}

static void test_order(void)
{
    WIRE("[3,1,2]", "[3,1,2]");
    /* an array of numbers and literals: lexemes as written, no blanks */
    WIRE("[ 1.50 ,\n\t-0 ,\r 1E+2 , true,false , null ]",
         "[1.50,-0,1E+2,true,false,null]");
    WIRE("[[ 12345678901234567 ], [ ]]", "[[12345678901234567],[]]");
    WIRE("{\"b\":1,\"a\":2,\"B\":3,\"_\":4,\"1\":5}",
         "{\"1\":5,\"B\":3,\"_\":4,\"a\":2,\"b\":1}");
    /* a shorter prefix first; decoded names, by code point */
    WIRE("{\"ab\":1,\"a\":2}", "{\"a\":2,\"ab\":1}");
    WIRE("{\"\\u00e9\":1,\"z\":2,\"\\ud83d\\ude00\":3,\"\\uffff\":4}",
         "{\"z\":2,\"\xc3\xa9\":1,\"\xef\xbf\xbf\":4,\"\xf0\x9f\x98\x80\":3}");
    WIRE("  {\"a\" : [ 1 , {\"d\":1, \"c\":2} ] }\n",
         "{\"a\":[1,{\"c\":2,\"d\":1}]}");
    /* names that arrive in order, around containers and names out of it */
    WIRE("{\"a\":{\"z\":1,\"y\":[]},\"b\":[{\"k\":\"v\"},{}],\"c\":\"s\","
         "\"d\":{\"e\":{\"g\":1,\"f\":2},\"h\":null},\"i\":0}",
         "{\"a\":{\"y\":[],\"z\":1},\"b\":[{\"k\":\"v\"},{}],\"c\":\"s\","
         "\"d\":{\"e\":{\"f\":2,\"g\":1},\"h\":null},\"i\":0}");
    WIRE("{\"a\\u0062\":1,\"ac\":{\"\\u0078\":[1],\"y\":2}}",
         "{\"ab\":1,\"ac\":{\"x\":[1],\"y\":2}}");
    /* escaped names in several objects, each read back as its own */
    WIRE("{\"\\u0062\":1,\"a\":{\"\\u0063\":2,\"\\u0061\":3,\"b\\n\":[]},"
         "\"\\u0030\":{\"\\t\":4},\"c\":5}",
         "{\"0\":{\"\\t\":4},\"a\":{\"a\":3,\"b\\n\":[],\"c\":2},\"b\":1,"
         "\"c\":5}");
    /* a name longer than the 32 bytes one load sees */
    WIRE("{\"b\":1,\"a_name_that_is_longer_than_thirty_two_bytes\":2}",
         "{\"a_name_that_is_longer_than_thirty_two_bytes\":2,\"b\":1}");
}

static void test_property_maps(void)
{
    /* required order, then the rest sorted */
    WIRE("{\"properties\":{\"c\":1,\"b\":2,\"a\":3,\"d\":4},\"required\":[\"d\","
         "\"b\"]}",
         "{\"properties\":{\"d\":4,\"b\":2,\"a\":3,\"c\":1},\"required\":[\"d\","
         "\"b\"]}");
    /* non-strings, unknown and repeated entries skipped */
    WIRE("{\"properties\":{\"a\":1,\"b\":2,\"c\":3},\"required\":[1,\"x\",\"c\","
         "null,\"c\",\"b\"]}",
         "{\"properties\":{\"c\":3,\"b\":2,\"a\":1},\"required\":[1,\"x\",\"c\","
         "null,\"c\",\"b\"]}");
    /* required entries are compared decoded */
    WIRE("{\"properties\":{\"a\":1,\"b\":2},\"required\":[\"\\u0062\"]}",
         "{\"properties\":{\"b\":2,\"a\":1},\"required\":[\"b\"]}");
    /* no required, or one that is not an array: all sorted */
    WIRE("{\"properties\":{\"b\":1,\"a\":2}}",
         "{\"properties\":{\"a\":2,\"b\":1}}");
    WIRE("{\"properties\":{\"b\":1,\"a\":2},\"required\":\"b\"}",
         "{\"properties\":{\"a\":2,\"b\":1},\"required\":\"b\"}");
    /* `properties` that is not an object is an ordinary member */
    WIRE("{\"properties\":[{\"b\":1,\"a\":2}],\"required\":[\"b\"]}",
         "{\"properties\":[{\"a\":2,\"b\":1}],\"required\":[\"b\"]}");
    /* at any depth: items, anyOf, $defs entries, additionalProperties */
    WIRE("{\"type\":\"array\",\"items\":{\"properties\":{\"x\":1,\"y\":2},"
         "\"required\":[\"y\"]}}",
         "{\"items\":{\"properties\":{\"y\":2,\"x\":1},\"required\":[\"y\"]},"
         "\"type\":\"array\"}");
    WIRE("{\"anyOf\":[{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]}"
         "]}",
         "{\"anyOf\":[{\"properties\":{\"y\":2,\"x\":1},\"required\":[\"y\"]}]"
         "}");
    WIRE("{\"$defs\":{\"b\":{\"properties\":{\"x\":1,\"y\":2},\"required\":["
         "\"y\"]},\"a\":{}}}",
         "{\"$defs\":{\"a\":{},\"b\":{\"properties\":{\"y\":2,\"x\":1},"
         "\"required\":[\"y\"]}}}");
    WIRE("{\"additionalProperties\":{\"properties\":{\"x\":1,\"y\":2},"
         "\"required\":[\"y\"]}}",
         "{\"additionalProperties\":{\"properties\":{\"y\":2,\"x\":1},"
         "\"required\":[\"y\"]}}");
}

static void test_names_are_not_keywords(void)
{
    /* A property called `properties` is a name; its value is a schema. */
    WIRE("{\"properties\":{\"properties\":{\"properties\":{\"q\":1,\"p\":2},"
         "\"required\":[\"q\"]},\"enum\":{\"b\":1,\"a\":2}},\"required\":["
         "\"properties\"]}",
         "{\"properties\":{\"properties\":{\"properties\":{\"q\":1,\"p\":2},"
         "\"required\":[\"q\"]},\"enum\":{\"a\":2,\"b\":1}},\"required\":["
         "\"properties\"]}");
    /* a property named `enum` holds a schema, not data */
    WIRE("{\"properties\":{\"enum\":{\"properties\":{\"x\":1,\"y\":2},"
         "\"required\":[\"y\"]}}}",
         "{\"properties\":{\"enum\":{\"properties\":{\"y\":2,\"x\":1},"
         "\"required\":[\"y\"]}}}");
    /* entries of $defs named `required` or `properties` are schemas */
    WIRE("{\"$defs\":{\"properties\":{\"properties\":{\"x\":1,\"y\":2},"
         "\"required\":[\"y\"]}}}",
         "{\"$defs\":{\"properties\":{\"properties\":{\"y\":2,\"x\":1},"
         "\"required\":[\"y\"]}}}");
}

static void test_data(void)
{
    static const char *const messages[] = {"messages"};
    static const char *const two[] = {"messages", "required"};
    /* const, default, enum, examples: data, sorted, never property maps */
    WIRE("{\"const\":{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]}}",
         "{\"const\":{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]}}");
    WIRE("{\"default\":{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]},"
         "\"enum\":[{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]}],"
         "\"examples\":[{\"b\":1,\"a\":2}]}",
         "{\"default\":{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]},"
         "\"enum\":[{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]}],"
         "\"examples\":[{\"a\":2,\"b\":1}]}");
    /* data members: only at the top level */
    wire_is(__LINE__,
            "{\"messages\":[{\"properties\":{\"x\":1,\"y\":2},\"required\":["
            "\"y\"]}],\"tools\":{\"properties\":{\"x\":1,\"y\":2},"
            "\"required\":[\"y\"]}}",
            "{\"messages\":[{\"properties\":{\"x\":1,\"y\":2},\"required\":["
            "\"y\"]}],\"tools\":{\"properties\":{\"y\":2,\"x\":1},"
            "\"required\":[\"y\"]}}",
            messages, 1);
    wire_is(__LINE__,
            "{\"a\":{\"messages\":{\"properties\":{\"x\":1,\"y\":2},"
            "\"required\":[\"y\"]}}}",
            "{\"a\":{\"messages\":{\"properties\":{\"y\":2,\"x\":1},"
            "\"required\":[\"y\"]}}}",
            messages, 1);
    /* a top-level `required` named as data still orders `properties` */
    wire_is(__LINE__,
            "{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]}",
            "{\"properties\":{\"y\":2,\"x\":1},\"required\":[\"y\"]}", two,
            2);
    wire_is(__LINE__, "[{\"properties\":{\"x\":1,\"y\":2},\"required\":[\"y\"]}]",
            "[{\"properties\":{\"y\":2,\"x\":1},\"required\":[\"y\"]}]",
            messages, 1);
}

static void test_bytes(void)
{
    WIRE("[1.0,1E+2,-0,0.5e-3,1234567890123456789012345678901234567890]",
         "[1.0,1E+2,-0,0.5e-3,1234567890123456789012345678901234567890]");
    WIRE("[true,false,null]", "[true,false,null]");
    WIRE("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 \\u001F \\u007f\"",
         "\"\\\" \\\\ / \\u0008 \\u000c \\n \\r \\t A \\u001f \x7f\"");
    WIRE("\"\\ud83d\\ude00 \xf0\x9f\x98\x80 \\u00e9\"",
         "\"\xf0\x9f\x98\x80 \xf0\x9f\x98\x80 \xc3\xa9\"");
    /* lone surrogates stay, lowercase */
    WIRE("[\"\\uD800\",\"\\uDFFFx\",\"\\ud800\\u0041\"]",
         "[\"\\ud800\",\"\\udfffx\",\"\\ud800A\"]");
}

static void test_combining_marks(void)
{
    /* U+0301 raw after an escape, escaped as \u0301 */
    WIRE("\"\\n\xcc\x81\"", "\"\\n\\u0301\"");
    /* the same mark spelled as an escape */
    WIRE("\"\\n\\u0301\"", "\"\\n\\u0301\"");
    /* two marks in a row after an escape: both */
    WIRE("\"\\t\xcc\x81\xcc\x80x\xcc\x81\"", "\"\\t\\u0301\\u0300x\xcc\x81\"");
    /* after a plain character: as itself */
    WIRE("\"e\xcc\x81\"", "\"e\xcc\x81\"");
    WIRE("\"\\u0065\xcc\x81\"", "\"e\xcc\x81\"");
    /* an astral combining mark (U+1D165, ccc 216) after an escape */
    WIRE("\"\\\"\xf0\x9d\x85\xa5\"", "\"\\\"\\ud834\\udd65\"");
    /* a control escape, then a mark */
    WIRE("\"\\u0001\\u0300\"", "\"\\u0001\\u0300\"");
    /* a mark after an escape in a member name too */
    WIRE("{\"\\n\xcc\x81\":1}", "{\"\\n\\u0301\":1}");
    /* kept escapes with no mark after them: the literal as it is; a
     * non-ASCII character after one that is no mark, as itself */
    WIRE("[\"a\\nb\\\"c\\\\d\\te\\r\"]", "[\"a\\nb\\\"c\\\\d\\te\\r\"]");
    WIRE("[\"\\n\xc3\xa9\\t\xe4\xb8\xad\"]", "[\"\\n\xc3\xa9\\t\xe4\xb8\xad\"]");
    /* the simple escapes the wire rendering spells otherwise */
    WIRE("[\"\\/\\b\\f\"]", "[\"/\\u0008\\u000c\"]");
}

/* A long string of n copies of in_piece, which the wire rendering writes
 * as out_piece: every chunk boundary of the writer falls somewhere inside
 * a piece, escapes and combining marks included. */
static void long_escaped_is(const char *in_piece, const char *out_piece)
{
    size_t n = 20000, k, in_len = strlen(in_piece), out_len = strlen(out_piece);
    char *in = malloc(n * in_len + 3), *expected = malloc(n * out_len + 3);
    char *out = NULL;
    size_t len = 0;

    in[0] = expected[0] = '"';
    for (k = 0; k < n; k++) {
        memcpy(in + 1 + k * in_len, in_piece, in_len);
        memcpy(expected + 1 + k * out_len, out_piece, out_len);
    }
    memcpy(in + 1 + n * in_len, "\"", 2);
    memcpy(expected + 1 + n * out_len, "\"", 2);
    CHECK(wj_wire_json(in, n * in_len + 2, NULL, 0, NULL, &out, &len, NULL) ==
          WJ_OK);
    CHECK(len == n * out_len + 2 && memcmp(out, expected, len) == 0);
    wj_free(NULL, out);
    free(in);
    free(expected);
}

static void test_long_escaped(void)
{
    long_escaped_is("x\\n\xcc\x81\\ud83d\\ude00\\u0041\\/",
                    "x\\n\\u0301\xf0\x9f\x98\x80" "A/");
    /* Only what grows: \b three times over, marks after an escape more
     * than twice. */
    long_escaped_is("\\b", "\\u0008");
    long_escaped_is("\\f\xcc\x81\xcc\x80", "\\u000c\\u0301\\u0300");
    /* Kept escapes copied with the text around them: a mark spelled as an
     * escape right after them stays an escape, one after text does not. */
    long_escaped_is("ab\\n\\n\\u0301cd\\\\\\u0300e\\u0301\\\"",
                    "ab\\n\\n\\u0301cd\\\\\\u0300e\xcc\x81\\\"");
}

/* A kept escape and a combining mark at the end of a long string, at every
 * offset from the string's first escape, so that the parser's 32-byte
 * blocks end between them (or the input does, within a block) somewhere:
 * the mark is escaped every time. */
static void test_mark_after_escape_at_every_offset(void)
{
    char in[160], expected[160];
    size_t n;
    for (n = 0; n < 100; n++) {
        snprintf(in, sizeof in, "[\"\\r%.*s\\n\xcc\x81)\"]", (int)n,
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM"
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM");
        snprintf(expected, sizeof expected, "[\"\\r%.*s\\n\\u0301)\"]",
                 (int)n,
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM"
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM");
        WIRE(in, expected);
    }
}

/* \u escapes at every offset from a string's first escape: each written
 * as the wire rendering writes its character, wherever the parser's
 * 32-byte blocks end. */
static void test_u_escapes_at_every_offset(void)
{
    char in[256], expected[256];
    size_t n;
    for (n = 0; n < 70; n++) {
        snprintf(in, sizeof in,
                 "[\"\\r%.*s\\u00e9\\u0041\\u00C9\\uD83D\\uDE00\\ucafe"
                 "\\u000a\\u0022\\u002F|\"]",
                 (int)n,
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM"
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM");
        snprintf(expected, sizeof expected,
                 "[\"\\r%.*s\xc3\xa9" "A\xc3\x89\xf0\x9f\x98\x80\xec\xab\xbe"
                 "\\n\\\"/|\"]",
                 (int)n,
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM"
                 "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM");
        WIRE(in, expected);
    }
}

static void test_errors(void)
{
    char *out = (char *)1;
    size_t len = 0;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_wire_json("{\"a\" 1}", 7, NULL, 0, NULL, &out, &len, &err) ==
          WJ_ERR_SYNTAX);
    CHECK(out == NULL);
    CHECK(err.offset == 5);
    CHECK(strcmp(err.msg, "expected ':' after member name") == 0);
}

int main(void)
{
    test_spec_examples();
    test_order();
    test_property_maps();
    test_names_are_not_keywords();
    test_data();
    test_bytes();
    test_combining_marks();
    test_long_escaped();
    test_mark_after_escape_at_every_offset();
    test_u_escapes_at_every_offset();
    test_errors();
    return check_report("test_wire");
}
