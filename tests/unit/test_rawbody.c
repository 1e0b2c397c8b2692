/* SPDX-License-Identifier: MIT */
/*
 * test_rawbody.c - the raw request-body functions of docs/contract.md §7 through the C
 * API: wj_with_top_level, wj_tool_schemas, wj_encode_with_schemas.
 *
 * Every expected result below is written out by hand from §7 (and §4 for
 * the wire-rendered parts), one sentence of the spec at a time.
 */
#include "check.h"
#include "test_heap.h"
#include "wirejson.h"

#include <stdlib.h>

static char *out;
static size_t out_len;
static wj_error err;

static void reset(void)
{
    wj_free(NULL, out);
    out = NULL;
    out_len = 0;
    memset(&err, 0, sizeof err);
}

static wj_code wtl(const char *body, const char *name, const char *value)
{
    reset();
    return wj_with_top_level(body, strlen(body), name, strlen(name), value,
                             strlen(value), NULL, &out, &out_len, &err);
}

/* tool_schemas with up to two path names (NULL: fewer). */
static wj_code schemas(const char *body, const char *p1, const char *p2)
{
    wj_name path[2];
    size_t n = 0;
    reset();
    if (p1) {
        path[n].ptr = p1;
        path[n++].len = strlen(p1);
    }
    if (p2) {
        path[n].ptr = p2;
        path[n++].len = strlen(p2);
    }
    return wj_tool_schemas(body, strlen(body), path, n, NULL, &out, &out_len,
                           &err);
}

static wj_code encode(const char *body, const char *texts)
{
    reset();
    return wj_encode_with_schemas(body, strlen(body), texts, strlen(texts),
                                  NULL, &out, &out_len, &err);
}

#define WTL(body, name, value, expected)                                     \
    do {                                                                     \
        CHECK(wtl(body, name, value) == WJ_OK);                              \
        CHECK_BYTES(out, out_len, expected);                                 \
    } while (0)

#define WTL_NONE(body, name, value)                                          \
    do {                                                                     \
        CHECK(wtl(body, name, value) == WJ_OK);                              \
        CHECK(out == NULL);                                                  \
        CHECK(err.code == WJ_OK);                                            \
    } while (0)

#define SCHEMAS(body, p1, p2, expected)                                      \
    do {                                                                     \
        CHECK(schemas(body, p1, p2) == WJ_OK);                               \
        CHECK_BYTES(out, out_len, expected);                                 \
    } while (0)

#define ENCODE(body, texts, expected)                                        \
    do {                                                                     \
        CHECK(encode(body, texts) == WJ_OK);                                 \
        CHECK_BYTES(out, out_len, expected);                                 \
    } while (0)

#define ENCODE_NONE(body, texts)                                             \
    do {                                                                     \
        CHECK(encode(body, texts) == WJ_OK);                                 \
        CHECK(out == NULL);                                                  \
    } while (0)

/* §7 with_top_level: "the value of every top-level member called name
 * replaced by value, and not one other byte changed". */
static void test_with_top_level_replaces(void)
{
    WTL("{\"model\":\"gpt-4o\",\"messages\":[]}", "model", "\"local\"",
        "{\"model\":\"local\",\"messages\":[]}");
    /* whitespace, escapes and number spellings around it stay */
    WTL("  { \"a\" : \"\\u00e9\\/\" ,\n\t\"model\"\r\n:\t\"x\" , "
        "\"b\":1.0E+2 }\n",
        "model", "[1, 2]",
        "  { \"a\" : \"\\u00e9\\/\" ,\n\t\"model\"\r\n:\t[1, 2] , "
        "\"b\":1.0E+2 }\n");
    /* the value goes in as given, its own whitespace too */
    WTL("{\"model\":1}", "model", " {\"b\" :2} ", "{\"model\": {\"b\" :2} }");
    /* arrays, of scalars or not, found from their first bytes to their
     * last across blanks */
    WTL("{\"m\": [ [ {\"a\":1} ] , \"x\" ]\n,\"n\":[ \t[ 1 , 2 ] ]}", "m", "0",
        "{\"m\": 0\n,\"n\":[ \t[ 1 , 2 ] ]}");
    WTL("{\"n\":[ \t[ 1 , 2 ] ] , \"m\" :[ [] ,[ ]]}", "n", "0",
        "{\"n\":0 , \"m\" :[ [] ,[ ]]}");
    /* a container value is replaced whole */
    WTL("{\"model\":{\"name\":\"a\",\"model\":[1,{}]},\"z\":0}", "model",
        "null", "{\"model\":null,\"z\":0}");
    /* a longer and a shorter value */
    WTL("{\"m\":\"a\"}", "m", "\"a much longer value than before\"",
        "{\"m\":\"a much longer value than before\"}");
    WTL("{\"m\":\"a much longer value than before\",\"n\":1}", "m", "0",
        "{\"m\":0,\"n\":1}");
    /* a trailing space, a prefix, a longer name: other names */
    WTL("{\"model \":1,\"mode\":2,\"models\":3,\"model\":4}", "model",
        "9", "{\"model \":1,\"mode\":2,\"models\":3,\"model\":9}");
    /* non-ASCII names, written raw or escaped */
    WTL("{\"m\xc3\xb6" "del\":1,\"m\\u00f6del\":2,\"m\\u00F6del\":3}",
        "m\xc3\xb6" "del", "0",
        "{\"m\xc3\xb6" "del\":0,\"m\\u00f6del\":0,\"m\\u00F6del\":0}");
    /* an empty name is a name */
    WTL("{\"\":1,\"a\":2}", "", "true", "{\"\":true,\"a\":2}");
}

/* "Names are compared after decoding escapes, so "mod\u0065l" is replaced
 * too"; "a body may spell a key twice": every copy is replaced. */
static void test_with_top_level_escapes_and_duplicates(void)
{
    WTL("{\"mod\\u0065l\":\"a\"}", "model", "\"b\"",
        "{\"mod\\u0065l\":\"b\"}");
    WTL("{\"\\u006dodel\":1,\"model\":2}", "model", "3",
        "{\"\\u006dodel\":3,\"model\":3}");
    WTL("{\"model\":1,\"x\":{\"model\":2,\"model\":3},\"model\":4,"
        "\"m\\u006f\\u0064el\":5}",
        "model", "\"v\"",
        "{\"model\":\"v\",\"x\":{\"model\":2,\"model\":3},\"model\":\"v\","
        "\"m\\u006f\\u0064el\":\"v\"}");
    /* duplicates elsewhere, at any depth, do not stop it */
    WTL("{\"a\":1,\"a\":2,\"model\":0,\"b\":[{\"c\":1,\"c\":1}]}", "model",
        "1", "{\"a\":1,\"a\":2,\"model\":1,\"b\":[{\"c\":1,\"c\":1}]}");
    /* \/ and a surrogate pair in a name */
    WTL("{\"a\\/b\":1,\"\\ud83d\\ude00\":2}", "a/b", "0",
        "{\"a\\/b\":0,\"\\ud83d\\ude00\":2}");
    WTL("{\"a\\/b\":1,\"\\ud83d\\ude00\":2}", "\xf0\x9f\x98\x80", "0",
        "{\"a\\/b\":1,\"\\ud83d\\ude00\":0}");
}

/* "Names are compared ... under Unicode simple case folding (the C and S
 * lines of Unicode 15.0's CaseFolding.txt)": every spelling Go's
 * encoding/json would read as the name is replaced, and nothing else.
 * Non-ASCII characters are spelled as bytes (U+212A is a Kelvin sign, not
 * a K). */
static void test_with_top_level_case_folding(void)
{
    /* case-equal copies are all replaced, the NAME folded too */
    WTL("{\"Model\":1,\"model\":2,\"MODEL\":3,\"mOdEl\":4}", "model", "9",
        "{\"Model\":9,\"model\":9,\"MODEL\":9,\"mOdEl\":9}");
    WTL("{\"model\":1,\"x\":2}", "MODEL", "9", "{\"model\":9,\"x\":2}");
    /* a body whose only spelling is "Model" */
    WTL("{\"Model\":\"routed\",\"messages\":[]}", "model", "\"gpt-x\"",
        "{\"Model\":\"gpt-x\",\"messages\":[]}");
    /* the body: no second value survives */
    WTL("{\"model\":\"routed\",\"Model\":\"smuggled\"}", "model", "\"gpt-x\"",
        "{\"model\":\"gpt-x\",\"Model\":\"gpt-x\"}");
    /* escapes decoded first, then folded; the escapes stay as they were */
    WTL("{\"mod\\u0065l\":1,\"MOD\\u0045L\":2,\"\\u004Dodel\":3}", "model", "0",
        "{\"mod\\u0065l\":0,\"MOD\\u0045L\":0,\"\\u004Dodel\":0}");
    /* U+017F LATIN SMALL LETTER LONG S folds to s: escaped, raw, in NAME */
    WTL("{\"\\u017ftream\":true,\"\xc5\xbftream\":true,\"STREAM\":true}",
        "stream", "false",
        "{\"\\u017ftream\":false,\"\xc5\xbftream\":false,"
        "\"STREAM\":false}");
    WTL("{\"stream\":1}", "\xc5\xbfTREAM", "2", "{\"stream\":2}");
    /* U+212A KELVIN SIGN folds to k (3 bytes against 1) */
    WTL("{\"max_to\\u212aens\":1,\"max_to\xe2\x84\xaa\x65ns\":2,"
        "\"MAX_TOKENS\":3,\"max_tokens\":4}",
        "max_tokens", "8",
        "{\"max_to\\u212aens\":8,\"max_to\xe2\x84\xaa\x65ns\":8,"
        "\"MAX_TOKENS\":8,\"max_tokens\":8}");
    WTL("{\"max_tokens\":1}", "MAX_TO\xe2\x84\xaa\x45NS", "2",
        "{\"max_tokens\":2}");
    /* U+212B ANGSTROM SIGN, U+00C5 and U+00E5 are one letter */
    WTL("{\"\xe2\x84\xab\":1,\"\xc3\x85\":2,\"\\u00e5\":3,\"a\":4}", "\xc3\xa5",
        "0", "{\"\xe2\x84\xab\":0,\"\xc3\x85\":0,\"\\u00e5\":0,\"a\":4}");
    /* U+00DF has no simple fold (its F line to "ss" is left out); U+1E9E
     * CAPITAL SHARP S folds to it (S line) */
    WTL("{\"ma\xc3\x9f\":1,\"mass\":2,\"MASS\":3,\"ma\\u1e9e\":4}", "mass", "0",
        "{\"ma\xc3\x9f\":1,\"mass\":0,\"MASS\":0,\"ma\\u1e9e\":4}");
    WTL("{\"ma\xc3\x9f\":1,\"mass\":2,\"MASS\":3,\"ma\\u1e9e\":4}",
        "MA\xc3\x9f", "0",
        "{\"ma\xc3\x9f\":0,\"mass\":2,\"MASS\":3,\"ma\\u1e9e\":0}");
    WTL_NONE("{\"ma\xc3\x9f\":1}", "mass", "0");
    /* Greek sigma: capital, small and final all fold to small sigma */
    WTL("{\"\xcf\x83\":1,\"\xcf\x82\":2,\"\xce\xa3\":3,\"\\u03a3\":4,"
        "\"s\":5}",
        "\xcf\x82", "0",
        "{\"\xcf\x83\":0,\"\xcf\x82\":0,\"\xce\xa3\":0,\"\\u03a3\":0,"
        "\"s\":5}");
    /* U+00B5 MICRO SIGN folds to Greek small mu, as capital mu does */
    WTL("{\"\xc2\xb5s\":1,\"\xce\xbcs\":2,\"\xce\x9cS\":3,\"us\":4}",
        "\xc2\xb5S", "0",
        "{\"\xc2\xb5s\":0,\"\xce\xbcs\":0,\"\xce\x9cS\":0,\"us\":4}");
    /* Cherokee folds to its capitals in 15.0: U+AB70 to U+13A0, U+AB71 to
     * U+13A1, U+13F8 to U+13F0 */
    WTL("{\"\xea\xad\xb0\xea\xad\xb1\":1,\"\xe1\x8e\xa0\xe1\x8e\xa1\":2,"
        "\"\\uab70\\u13a1\":3,\"\xe1\x8e\xa0\":4}",
        "\xe1\x8e\xa0\xea\xad\xb1", "0",
        "{\"\xea\xad\xb0\xea\xad\xb1\":0,\"\xe1\x8e\xa0\xe1\x8e\xa1\":0,"
        "\"\\uab70\\u13a1\":0,\"\xe1\x8e\xa0\":4}");
    WTL("{\"\\u13f8\":1}", "\xe1\x8f\xb0", "0", "{\"\\u13f8\":0}");
    /* the DZ digraph: capital, title case and small */
    WTL("{\"\xc7\x84\":1,\"\xc7\x85\":2,\"\\u01c6\":3,\"dz\":4}", "\xc7\x86",
        "0", "{\"\xc7\x84\":0,\"\xc7\x85\":0,\"\\u01c6\":0,\"dz\":4}");
    /* above the BMP: U+10400 DESERET CAPITAL LONG I, as a surrogate pair,
     * folds to U+10428 */
    WTL("{\"\\ud801\\udc00\":1,\"\xf0\x90\x90\xa8\":2}", "\xf0\x90\x90\xa8",
        "0", "{\"\\ud801\\udc00\":0,\"\xf0\x90\x90\xa8\":0}");
    /* names equal only under full folding are different names: U+FB00
     * (ff), U+0130 (i + U+0307), U+0149 (U+02BC n) */
    WTL_NONE("{\"\xef\xac\x80\":1,\"\\ufb00\":2}", "ff", "0");
    WTL_NONE("{\"ff\":1,\"FF\":2}", "\xef\xac\x80", "0");
    WTL_NONE("{\"\xc4\xb0\":1}", "i\xcc\x87", "0");
    WTL_NONE("{\"\\u0149\":1}", "\xca\xbcn", "0");
    /* nor the Turkic lines: dotless i and capital I with dot are not i */
    WTL("{\"\xc4\xb1\x64\":1,\"\xc4\xb0\x44\":2,\"ID\":3}", "id", "0",
        "{\"\xc4\xb1\x64\":1,\"\xc4\xb0\x44\":2,\"ID\":0}");
    /* nested members and array elements stay, whatever their case */
    WTL("{\"n\":{\"MODEL\":1,\"Model\":2},\"a\":[\"Model\"],\"mODEL\":3}",
        "model", "0",
        "{\"n\":{\"MODEL\":1,\"Model\":2},\"a\":[\"Model\"],\"mODEL\":0}");
    /* every other byte stays: whitespace, escapes, other members */
    WTL(" {\n \"MODEL\" :\t\"a\\u00e9\" ,\"b\":\"\\/\",\r\n\"Mod\\u0065l\""
        ":1.0E+2 }\n",
        "model", "[ 1 ]",
        " {\n \"MODEL\" :\t[ 1 ] ,\"b\":\"\\/\",\r\n\"Mod\\u0065l\""
        ":[ 1 ] }\n");
    /* a NAME byte that is not UTF-8 matches nothing, a surrogate's 3-byte
     * form too; a lone surrogate escape is matched by no NAME */
    WTL_NONE("{\"mod\\u00ffl\":1,\"mod\xc3\xbfl\":2,\"modl\":3}",
             "mod\xffl", "0");
    WTL_NONE("{\"\xc5\xbf\":1}", "\xc5", "0");
    WTL_NONE("{\"\\ud800\":1,\"\\uD800\":2,\"\\udc00\":3}", "\xed\xa0\x80",
             "0");
    WTL_NONE("{\"\\ud800x\":1}", "\xed\xa0\x80x", "0");
    WTL("{\"\\ud800x\":1,\"\\ufffdx\":2,\"X\":3}", "\xef\xbf\xbdX", "0",
        "{\"\\ud800x\":1,\"\\ufffdx\":0,\"X\":3}");
}


/* Only members of the top-level object count: not names inside strings,
 * not nested members, not array elements. */
static void test_with_top_level_only_top_level(void)
{
    WTL("{\"note\":\"\\\"model\\\":1\",\"model\":2}", "model", "3",
        "{\"note\":\"\\\"model\\\":1\",\"model\":3}");
    WTL_NONE("{\"note\":\"\\\"model\\\":1\"}", "model", "3");
    WTL_NONE("{\"x\":[\"model\",\"model\"],\"y\":{\"model\":1}}", "model",
             "3");
    WTL_NONE("{\"model\\u0000\":1,\"mode\":2,\"models\":3}", "model", "0");
    /* a value spliced next to comment-like strings leaves them alone */
    WTL("{\"a\":\"/* x */\",\"model\":\"m\",\"b\":\"// y\"}", "model",
        "\"/* z */\"",
        "{\"a\":\"/* x */\",\"model\":\"/* z */\",\"b\":\"// y\"}");
}

/* "NULL when body is not a JSON object this scanner can follow (any input
 * error of §3 except duplicate names) or holds no such member". */
static void test_with_top_level_no_result(void)
{
    static char deep[2100];
    size_t k;

    WTL_NONE("[{\"model\":1}]", "model", "2");
    WTL_NONE("\"model\"", "model", "2");
    WTL_NONE("42", "model", "2");
    WTL_NONE("", "model", "2");
    WTL_NONE("{}", "model", "2");
    WTL_NONE("{\"model\":1,}", "model", "2");              /* trailing comma */
    WTL_NONE("{\"model\":1} x", "model", "2");             /* garbage */
    WTL_NONE("{\"model\":1 /* c */}", "model", "2");       /* comment */
    WTL_NONE("{'model':1}", "model", "2");                 /* single quotes */
    WTL_NONE("{\"model\":NaN}", "model", "2");
    WTL_NONE("{\"model\":01}", "model", "2");
    WTL_NONE("\xef\xbb\xbf{\"model\":1}", "model", "2");   /* BOM */
    WTL_NONE("{\"model\":\"\xc0\xaf\"}", "model", "2");     /* overlong */
    WTL_NONE("{\"model\":\"\xed\xa0\x80\"}", "model", "2"); /* surrogate */
    WTL_NONE("{\"model\":\"a\tb\"}", "model", "2");        /* raw tab */
    WTL_NONE("{\"model\":1", "model", "2");                /* truncated */
    /* 1,001 containers deep is not followed; 1,000 is */
    deep[0] = '{';
    memcpy(deep + 1, "\"model\":", 8);
    for (k = 0; k < 999; k++)
        deep[9 + k] = '[';
    for (k = 0; k < 999; k++)
        deep[1008 + k] = ']';
    deep[2007] = '}';
    deep[2008] = '\0';
    CHECK(wtl(deep, "model", "1") == WJ_OK);
    CHECK_BYTES(out, out_len, "{\"model\":1}");
    memmove(deep + 10, deep + 9, 2000);
    deep[9] = '[';
    memmove(deep + 1010, deep + 1009, 1001);
    deep[1009] = ']';
    WTL_NONE(deep, "model", "1");
}

/* The value must be JSON text (front ends quote plain text themselves). */
static void test_with_top_level_bad_value(void)
{
    CHECK(wtl("{\"model\":1}", "model", "abc") == WJ_ERR_SYNTAX);
    CHECK(out == NULL);
    CHECK(err.code == WJ_ERR_SYNTAX && err.offset == 0);
    CHECK(wtl("{\"model\":1}", "model", "") == WJ_ERR_SYNTAX);
    CHECK(wtl("{\"model\":1}", "model", "[1,]") == WJ_ERR_SYNTAX);
    CHECK(err.offset == 3);
    /* duplicate names are tolerated in the value as in the body */
    WTL("{\"model\":1}", "model", "{\"a\":1,\"a\":2}",
        "{\"model\":{\"a\":1,\"a\":2}}");
}

/* §7 tool_schemas: "the value found by following the member names in path,
 * as the exact bytes the client sent", as a wire-rendered array of
 * strings, null for a tool without one. */
static void test_tool_schemas(void)
{
    SCHEMAS("{\"tools\":[{\"name\":\"a\",\"input_schema\":{\n  \"type\": "
            "\"object\"\n}}]}",
            "input_schema", NULL,
            "[\"{\\n  \\\"type\\\": \\\"object\\\"\\n}\"]");
    SCHEMAS("{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
            "\"parameters\":{ \"required\" : [\"b\"],\t\"properties\":{} }}},"
            "{\"type\":\"function\",\"function\":{\"name\":\"g\"}}]}",
            "function", "parameters",
            "[\"{ \\\"required\\\" : [\\\"b\\\"],\\t\\\"properties\\\":{} }\","
            "null]");
    SCHEMAS("{\"tools\":[ [ \"a\" ] , [1 ,2] ,[ ] ]}", NULL, NULL,
            "[\"[ \\\"a\\\" ]\",\"[1 ,2]\",\"[ ]\"]");
    /* no path: each tool's own bytes */
    SCHEMAS("{\"tools\":[ {\"b\":1, \"a\":2} , 7 ]}", NULL, NULL,
            "[\"{\\\"b\\\":1, \\\"a\\\":2}\",\"7\"]");
    /* missing step, a step on a non-object, a null value: none */
    SCHEMAS("{\"tools\":[{\"x\":1},{\"function\":\"f\"},{\"function\":null},"
            "{\"function\":{\"parameters\":null}},null,"
            "{\"function\":{\"parameters\":\"s\"}}]}",
            "function", "parameters",
            "[null,null,null,null,null,\"\\\"s\\\"\"]");
    /* escapes in the schema are kept as the client wrote them */
    SCHEMAS("{\"tools\":[{\"s\":{\"d\":\"caf\\u00e9 \\\"x\\\" \\/\"}}]}", "s",
            NULL,
            "[\"{\\\"d\\\":\\\"caf\\\\u00e9 \\\\\\\"x\\\\\\\" \\\\/\\\"}\"]");
    /* raw UTF-8 stays raw; a combining mark right after an escape (here
     * the escaped quote) is escaped (§4) */
    SCHEMAS("{\"tools\":[{\"s\":{\"\xcc\x81\":\"\xc3\xa9\"}}]}", "s", NULL,
            "[\"{\\\"\\u0301\\\":\\\"\xc3\xa9\\\"}\"]");
    SCHEMAS("{\"tools\":[]}", "s", NULL, "[]");
    /* the tools of the top level only */
    SCHEMAS("{\"x\":{\"tools\":[1]},\"tools\":[2]}", NULL, NULL, "[\"2\"]");
}

/* "NULL when the body has no top-level tools array"; input errors are
 * errors here. */
static void test_tool_schemas_no_result_and_errors(void)
{
    CHECK(schemas("{\"model\":\"m\"}", "s", NULL) == WJ_OK && out == NULL);
    CHECK(schemas("{\"tools\":{}}", "s", NULL) == WJ_OK && out == NULL);
    CHECK(schemas("{\"tools\":null}", "s", NULL) == WJ_OK && out == NULL);
    CHECK(schemas("[{\"tools\":[]}]", "s", NULL) == WJ_OK && out == NULL);
    CHECK(schemas("\"tools\"", NULL, NULL) == WJ_OK && out == NULL);
    CHECK(schemas("{\"tools\":[],\"tools\":[]}", NULL, NULL) ==
          WJ_ERR_DUPLICATE);
    CHECK(err.offset == 12 && out == NULL);
    CHECK(schemas("{\"tools\":[{\"a\":1,\"\\u0061\":2}]}", NULL, NULL) ==
          WJ_ERR_DUPLICATE);
    CHECK(schemas("{\"tools\":[1,]}", NULL, NULL) == WJ_ERR_SYNTAX);
    CHECK(err.offset == 12);
    CHECK(schemas("{\"tools\":[\"\xff\"]}", NULL, NULL) == WJ_ERR_UTF8);
    CHECK(err.offset == 11);
}

/* §7 encode_with_schemas: function-calling order, parameters from the
 * text when its canonical JSON still equals the body's. */
static void test_encode_splices_matching_texts(void)
{
    /* the text is written verbatim, whitespace and key order and all */
    ENCODE("{\"tools\":[{\"function\":{\"parameters\":{\"type\":\"object\","
           "\"properties\":{}},\"name\":\"f\",\"description\":\"d\"},"
           "\"type\":\"function\"}],\"model\":\"m\",\"messages\":[{\"role\":"
           "\"user\",\"content\":\"hi\"}]}",
           "[\"{\\\"properties\\\": {},\\n \\\"type\\\": \\\"object\\\"}\"]",
           "{\"messages\":[{\"content\":\"hi\",\"role\":\"user\"}],"
           "\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"function\":"
           "{\"name\":\"f\",\"description\":\"d\",\"parameters\":"
           "{\"properties\": {},\n \"type\": \"object\"}}}]}");
    /* equal canonical JSON: 1.0 and 1, escapes and raw characters */
    ENCODE("{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
           "\"parameters\":{\"maximum\":1,\"d\":\"\xc3\xa9\"}}}]}",
           "[\"{ \\\"d\\\": \\\"\\\\u00e9\\\", \\\"maximum\\\": 1.0 }\"]",
           "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
           "\"parameters\":{ \"d\": \"\\u00e9\", \"maximum\": 1.0 }}}]}");
}

static void test_encode_renders_other_texts(void)
{
    static const char body[] =
        "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
        "\"parameters\":{\"type\":\"object\",\"properties\":{\"b\":{},"
        "\"a\":{}},\"required\":[\"b\"]}}}]}";
    static const char rendered[] =
        "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
        "\"parameters\":{\"properties\":{\"b\":{},\"a\":{}},"
        "\"required\":[\"b\"],\"type\":\"object\"}}}]}";

    /* a schema the translation changed (a property dropped) */
    ENCODE(body,
           "[\"{\\\"type\\\":\\\"object\\\",\\\"properties\\\":{\\\"b\\\":{}},"
           "\\\"required\\\":[\\\"b\\\"]}\"]",
           rendered);
    /* no text */
    ENCODE(body, "[null]", rendered);
    /* a text that does not parse, or is not valid input (§3) */
    ENCODE(body, "[\"{\\\"type\\\":\"]", rendered);
    ENCODE(body, "[\"{\\\"type\\\":1,\\\"type\\\":1}\"]", rendered);
    /* a text whose numbers have no canonical form */
    ENCODE("{\"tools\":[{\"function\":{\"parameters\":{\"m\":1e400}}}]}",
           "[\"{\\\"m\\\": 1e400}\"]",
           "{\"tools\":[{\"function\":{\"parameters\":{\"m\":1e400}}}]}");
    /* the same text matches one tool and not the other */
    ENCODE("{\"tools\":[{\"function\":{\"parameters\":{\"a\":1}}},"
           "{\"function\":{\"parameters\":{\"a\":2}}}]}",
           "[\"{ \\\"a\\\":1 }\",\"{ \\\"a\\\":1 }\"]",
           "{\"tools\":[{\"function\":{\"parameters\":{ \"a\":1 }}},"
           "{\"function\":{\"parameters\":{\"a\":2}}}]}");
}

/* type, function, the rest sorted; inside function: name, description,
 * parameters, the rest sorted.  Everything else is §4's wire rendering
 * with data member messages. */
static void test_encode_order(void)
{
    ENCODE("{\"tools\":[{\"id\":\"x\",\"function\":{\"strict\":true,"
           "\"parameters\":{},\"description\":\"d\",\"name\":\"n\","
           "\"a\":1},\"cache_control\":{\"z\":1,\"y\":2},\"type\":"
           "\"function\"}]}",
           "[null]",
           "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"n\","
           "\"description\":\"d\",\"parameters\":{},\"a\":1,\"strict\":true},"
           "\"cache_control\":{\"y\":2,\"z\":1},\"id\":\"x\"}]}");
    /* missing leaders are skipped; a function that is not an object and a
     * tool that is not an object are rendered as they are */
    ENCODE("{\"tools\":[{\"z\":1,\"function\":{\"parameters\":{\"b\":1,"
           "\"a\":2}}},{\"type\":\"t\",\"function\":[2,1]},\"s\"]}",
           "[null,\"[1]\",\"[]\"]",
           "{\"tools\":[{\"function\":{\"parameters\":{\"a\":2,\"b\":1}},"
           "\"z\":1},{\"type\":\"t\",\"function\":[2,1]},\"s\"]}");
    /* messages are data; other members follow the schema rule; a nested
     * tools array or a function elsewhere is not re-spelled */
    ENCODE("{\"tools\":[{\"type\":\"function\"}],\"messages\":[{\"properties\":"
           "{\"b\":1,\"a\":2},\"required\":[\"b\"]}],\"response_format\":"
           "{\"type\":\"json_schema\",\"json_schema\":{\"schema\":"
           "{\"properties\":{\"y\":1,\"x\":2},\"required\":[\"y\"]}}},"
           "\"x\":{\"tools\":"
           "[{\"type\":1,\"function\":2}],\"function\":{\"name\":1,\"a\":2}}}",
           "[null]",
           "{\"messages\":[{\"properties\":{\"a\":2,\"b\":1},\"required\":"
           "[\"b\"]}],\"response_format\":{\"json_schema\":{\"schema\":"
           "{\"properties\":{\"y\":1,\"x\":2},\"required\":[\"y\"]}},\"type\":"
           "\"json_schema\"},\"tools\":[{\"type\":\"function\"}],\"x\":"
           "{\"function\":{\"a\":2,\"name\":1},\"tools\":[{\"function\":2,"
           "\"type\":1}]}}");
}

/* "NULL when the body has no tools to spell or their number differs from
 * the number of texts; an error when texts is not an array of strings and
 * nulls"; every input error of §3 is an error. */
static void test_encode_no_result_and_errors(void)
{
    ENCODE_NONE("{\"model\":\"m\"}", "[]");
    ENCODE_NONE("{\"tools\":[]}", "[]");
    ENCODE_NONE("{\"tools\":{\"a\":1}}", "[null]");
    ENCODE_NONE("{\"tools\":\"x\"}", "[null]");
    ENCODE_NONE("[1]", "[null]");
    ENCODE_NONE("{\"tools\":[{},{}]}", "[null]");
    ENCODE_NONE("{\"tools\":[{}]}", "[null,null]");
    CHECK(encode("{\"tools\":[{}]}", "[1]") == WJ_ERR_ARGUMENT);
    CHECK(out == NULL && strcmp(err.msg, "texts must be a JSON array of "
                                         "strings and nulls") == 0);
    CHECK(encode("{\"tools\":[{}]}", "{\"a\":\"x\"}") == WJ_ERR_ARGUMENT);
    CHECK(encode("{\"tools\":[{}]}", "\"[null]\"") == WJ_ERR_ARGUMENT);
    CHECK(encode("{\"tools\":[{}]}", "[null,[\"x\"]]") == WJ_ERR_ARGUMENT);
    /* checked even when there is nothing to spell */
    CHECK(encode("{}", "[true]") == WJ_ERR_ARGUMENT);
    CHECK(encode("{\"tools\":[{}]}", "[null") == WJ_ERR_SYNTAX);
    CHECK(err.offset == 5);
    CHECK(encode("{\"tools\":[{}],\"tools\":[{}]}", "[null]") ==
          WJ_ERR_DUPLICATE);
    CHECK(err.offset == 14);
    CHECK(encode("{\"tools\":[{}]} x", "[null]") == WJ_ERR_SYNTAX);
}

/* Runs function `which` (0 with_top_level, 1 tool_schemas, 2
 * encode_with_schemas) with the n-th allocation failing, n = 1, 2, ...
 * until it succeeds: every failure must be WJ_ERR_NOMEM with no result
 * and nothing left allocated; the success must give expected. */
static void check_out_of_memory(int which, const char *expected)
{
    static const wj_name path[] = {{"function", 8}, {"parameters", 10}};
    static const char body[] =
        "{\"m\\u006fdel\":\"a\",\"messages\":[{\"role\":\"u\"}],"
        "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
        "\"parameters\":{\"type\":\"object\",\"properties\":{\"b\":{},"
        "\"a\":{}},\"required\":[\"b\"]}}},{\"function\":{\"parameters\":"
        "{\"x\":1}}}]}";
    static const char texts[] =
        "[\"{\\\"required\\\":[\\\"b\\\"],\\\"type\\\":\\\"object\\\","
        "\\\"properties\\\":{\\\"a\\\":{},\\\"b\\\":{}}}\",\"{}\"]";
    for (heap_fail_at = 1;; heap_fail_at++) {
        wj_code rc;
        reset();
        heap_calls = 0;
        heap_live = 0;
        if (which == 0)
            rc = wj_with_top_level(body, strlen(body), "model", 5, "\"b\"", 3,
                                   &heap, &out, &out_len, &err);
        else if (which == 1)
            rc = wj_tool_schemas(body, strlen(body), path, 2, &heap, &out,
                                 &out_len, &err);
        else
            rc = wj_encode_with_schemas(body, strlen(body), texts,
                                        strlen(texts), &heap, &out,
                                        &out_len, &err);
        if (rc == WJ_OK && heap_calls < heap_fail_at) {
            CHECK_BYTES(out, out_len, expected);
            heap_free(NULL, out);
            out = NULL;
            CHECK(heap_live == 0);
            return;
        }
        CHECK(rc == WJ_ERR_NOMEM && err.code == WJ_ERR_NOMEM);
        CHECK(out == NULL);
        CHECK(heap_live == 0);
        if (rc != WJ_ERR_NOMEM || heap_live != 0)
            return;
    }
}

static void test_out_of_memory(void)
{
    check_out_of_memory(
        0, "{\"m\\u006fdel\":\"b\",\"messages\":[{\"role\":"
           "\"u\"}],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":"
           "\"f\",\"parameters\":{\"type\":\"object\",\"properties\":{\"b\":{},"
           "\"a\":{}},\"required\":[\"b\"]}}},{\"function\":{\"parameters\":"
           "{\"x\":1}}}]}");
    check_out_of_memory(
        1, "[\"{\\\"type\\\":\\\"object\\\",\\\"properties\\\":{\\\"b\\\":{},"
           "\\\"a\\\":{}},\\\"required\\\":[\\\"b\\\"]}\",\"{\\\"x\\\":1}\"]");
    check_out_of_memory(
        2, "{\"messages\":[{\"role\":\"u\"}],\"model\":\"a\","
           "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\","
           "\"parameters\":{\"required\":[\"b\"],\"type\":\"object\","
           "\"properties\":{\"a\":{},\"b\":{}}}}},"
           "{\"function\":{\"parameters\":"
           "{\"x\":1}}}]}");
}

int main(void)
{
    test_with_top_level_replaces();
    test_with_top_level_escapes_and_duplicates();
    test_with_top_level_case_folding();
    test_with_top_level_only_top_level();
    test_with_top_level_no_result();
    test_with_top_level_bad_value();
    test_tool_schemas();
    test_tool_schemas_no_result_and_errors();
    test_encode_splices_matching_texts();
    test_encode_renders_other_texts();
    test_encode_order();
    test_encode_no_result_and_errors();
    test_out_of_memory();
    reset();
    return check_report("test_rawbody");
}
