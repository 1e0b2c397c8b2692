/* SPDX-License-Identifier: MIT */
/*
 * test_canonical.c - the canonical rendering (docs/contract.md §5, RFC 8785) and the
 * digests (§6).  Expected bytes are written by hand; expected digests are
 * SHA-256 of hand-written canonical bytes (python3 hashlib, sha256sum).
 */
#include "check.h"
#include "wirejson.h"

static void canonical_is(int line, const char *json, const char *expected)
{
    char *out = NULL;
    size_t len = 0;
    wj_error err = WJ_ERROR_INIT;
    if (wj_canonical_json(json, strlen(json), NULL, &out, &len, &err) != WJ_OK)
        fprintf(stderr, "line %d: %s at %zu\n", line, err.msg, err.offset);
    CHECK_BYTES(out, len, expected);
    wj_free(NULL, out);
}

#define CANON(json, expected) canonical_is(__LINE__, json, expected)

static void test_canonical(void)
{
    CANON("{\"b\":2, \"a\":1.0}", "{\"a\":1,\"b\":2}");
    CANON("[1e21,1e-7,0.000001,-0,1E+2,1e20,5e-324,1e-400]",
          "[1e+21,1e-7,0.000001,0,100,100000000000000000000,5e-324,0]");
    CANON("\"\\b\\f\\n\\r\\t\\\"\\\\\\/\\u0001\\u007f\\u00e9\"",
          "\"\\b\\f\\n\\r\\t\\\"\\\\/\\u0001\x7f\xc3\xa9\"");
    CANON("\"\\uD800x\\uDC00\"", "\"\\ud800x\\udc00\"");
    /* no combining-mark rule here */
    CANON("\"\\n\xcc\x81\"", "\"\\n\xcc\x81\"");
    /* UTF-16 order: U+E000 sorts after U+1F600 (surrogates D83D...) */
    CANON("{\"\\ue000\":1,\"\\ud83d\\ude00\":2,\"z\":3}",
          "{\"z\":3,\"\xf0\x9f\x98\x80\":2,\"\xee\x80\x80\":1}");
    /* RFC 8785 §3.2.3's sorting example */
    CANON("{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\","
          "\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\",\"1\":\"One\","
          "\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":"
          "\"Control\",\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}",
          "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xc2\x80\":\"Control\","
          "\"\xc3\xb6\":\"Latin Small Letter O With Diaeresis\","
          "\"\xe2\x82\xac\":\"Euro Sign\",\"\xf0\x9f\x98\x80\":\"Emoji: "
          "Grinning Face\",\"\xef\xac\xb3\":\"Hebrew Letter Dalet With "
          "Dagesh\"}");
    /* schema rules do not apply */
    CANON("{\"properties\":{\"b\":1,\"a\":2},\"required\":[\"b\"]}",
          "{\"properties\":{\"a\":2,\"b\":1},\"required\":[\"b\"]}");
}

/* Long names whose UTF-16 order differs from their code point order only
 * by a \u escape at some offset from their first escape: U+1F600 (D83D
 * DE00) sorts before U+FFFF in UTF-16, wherever the parser's 32-byte
 * blocks end. */
static void test_utf16_names_at_every_offset(void)
{
    static const char pad[] = "pppppppppppppppppppppppppppppppppppppppp";
    char in[512], expected[512];
    int n;
    for (n = 0; n < 40; n++) {
        snprintf(in, sizeof in,
                 "{\"\\n%.*s\\uffff%s\":1,\"\\n%.*s\\ud83d\\ude00%s\":2}", n,
                 pad, pad, n, pad, pad);
        snprintf(expected, sizeof expected,
                 "{\"\\n%.*s\xf0\x9f\x98\x80%s\":2,\"\\n%.*s\xef\xbf\xbf%s\":1}",
                 n, pad, pad, n, pad, pad);
        CANON(in, expected);
    }
}

static void test_range(void)
{
    char *out = NULL;
    size_t len;
    wj_error err = WJ_ERROR_INIT;
    char msg[128];
    CHECK(wj_canonical_json("[1,1e400]", 9, NULL, &out, &len, &err) ==
          WJ_ERR_RANGE);
    CHECK(out == NULL);
    CHECK(err.offset == 3);
    wj_error_format(&err, "canonical_json", msg, sizeof msg);
    CHECK(strcmp(msg, "canonical_json: number out of range at byte 3: "
                      "rounds to infinity") == 0);
}

static void digest_is(int line, wj_code rc, const char *hex,
                      const char *expected)
{
    if (rc != WJ_OK)
        fprintf(stderr, "line %d: code %d\n", line, (int)rc);
    CHECK(rc == WJ_OK);
    CHECK_BYTES(hex, strlen(hex), expected);
}

static void test_digests(void)
{
    char hex[WJ_DIGEST_HEX_SIZE] = "";
    const char *hi = "{\"role\":\"user\",\"content\":\"hi\"}";
    const char *hi_more =
        "{\"content\":\"hi\",\"name\":null,\"extra\":{\"usage\":1},"
        "\"role\":\"user\",\"id\":7}";
    wj_name id = {"id", 2};
    wj_error err = WJ_ERROR_INIT;
    char msg[128];

    /* sha256('{"a":1,"b":2}') */
    digest_is(__LINE__, wj_data_digest("{\"b\":2,\"a\":1.0}", 15, NULL, hex, NULL),
              hex, "43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777");
    /* sha256('{"content":"hi","role":"user"}') */
    digest_is(__LINE__, wj_message_digest(hi, strlen(hi), NULL, 0, NULL, hex, NULL),
              hex, "9017285104d1b249960a30732b8e92f6e2fb3acf8d8e4b2a16c116ad0c1ed211");
    /* null members, `extra` and ignored names are not the message */
    digest_is(__LINE__,
              wj_message_digest(hi_more, strlen(hi_more), &id, 1, NULL, hex, NULL),
              hex, "9017285104d1b249960a30732b8e92f6e2fb3acf8d8e4b2a16c116ad0c1ed211");
    /* ...but a tool call is */
    CHECK(wj_message_digest("{\"role\":\"user\",\"content\":\"hi\",\"tool_calls\":[]}",
                            46, NULL, 0, NULL, hex, NULL) == WJ_OK);
    CHECK(strcmp(hex, "9017285104d1b249960a30732b8e92f6e2fb3acf8d8e4b2a16c116ad0c1ed211") != 0);
    /* sha256 of the two message digests' hex, concatenated */
    {
        const char *conv = "[{\"role\":\"user\",\"content\":\"hi\"},"
                           "{\"content\":\"yo\",\"role\":\"assistant\"}]";
        digest_is(__LINE__, wj_messages_digest(conv, strlen(conv), NULL, hex, NULL),
                  hex, "e520a5596ba3d049c23cb190b3c3a25ce21a7899f2ba3dc53484d36f08c2f1cd");
    }
    digest_is(__LINE__, wj_messages_digest(" [ ] ", 5, NULL, hex, NULL), hex,
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");

    CHECK(wj_message_digest("[1]", 3, NULL, 0, NULL, hex, &err) == WJ_ERR_TYPE);
    wj_error_format(&err, "message_digest", msg, sizeof msg);
    CHECK(strcmp(msg, "message_digest: a message must be a JSON object") == 0);
    CHECK(wj_messages_digest("[{},1]", 6, NULL, hex, &err) == WJ_ERR_TYPE);
    CHECK(wj_messages_digest("{}", 2, NULL, hex, &err) == WJ_ERR_TYPE);
}

static void test_arguments(void)
{
    char *out = NULL;
    size_t len = 0;
    CHECK(wj_canonical_arguments("{\"b\":2, \"a\":1}", 14, NULL, &out, &len,
                                 NULL) == WJ_OK);
    CHECK_BYTES(out, len, "{\"a\":1,\"b\":2}");
    wj_free(NULL, out);
    CHECK(wj_canonical_arguments("{\"b\":2, \"a\":", 12, NULL, &out, &len,
                                 NULL) == WJ_OK);
    CHECK_BYTES(out, len, "{\"b\":2, \"a\":");
    wj_free(NULL, out);
    CHECK(wj_canonical_arguments("1e400", 5, NULL, &out, &len, NULL) == WJ_OK);
    CHECK_BYTES(out, len, "1e400");
    wj_free(NULL, out);
    CHECK(wj_canonical_arguments("", 0, NULL, &out, &len, NULL) == WJ_OK);
    CHECK_BYTES(out, len, "");
    wj_free(NULL, out);
}

/* Arrays of numbers and literals, which may be written whole: whitespace
 * of every kind goes, integers of up to 15 digits stay, and anything RFC
 * 8785 writes otherwise (a fraction, an exponent, -0, 16 digits or more)
 * is written as its double, wherever it falls in the text's 16-byte
 * blocks.  "[1,1,1,1,1,1,1," is 15 bytes. */
static void test_scalar_arrays(void)
{
    CANON("[ 10 ,\n\t-20 ,\r 0 , true,false , null ]",
          "[10,-20,0,true,false,null]");
    CANON("[ ]", "[]");
    CANON("[[1, 2], [\n], 3]", "[[1,2],[],3]");
    CANON("[1,2.50,3]", "[1,2.5,3]");
    CANON("[-0]", "[0]");
    CANON("[1,-0,2]", "[1,0,2]");
    CANON("[1,1,1,1,1,1,1,-0]", "[1,1,1,1,1,1,1,0]");   /* '-' | '0' */
    CANON("[1,1,1,1,1,1,1,1e2]", "[1,1,1,1,1,1,1,100]"); /* '1' | 'e' */
    CANON("[1,1,1,1,1,1,1,1E2]", "[1,1,1,1,1,1,1,100]");
    CANON("[true,1e2]", "[true,100]");
    CANON("[123456789012345,-123456789012345]",
          "[123456789012345,-123456789012345]");
    CANON("[12345678901234567]", "[12345678901234568]");
    CANON("[1,1,1,1,1,12345678901234567]", /* 17 digits over a block end */
          "[1,1,1,1,1,12345678901234568]");
    CANON("[1,1,1,1,1,1,1,99999999999999999999]", /* 16 digits in a block */
          "[1,1,1,1,1,1,1,100000000000000000000]");
    CANON("[9007199254740993]", "[9007199254740992]");
}

int main(void)
{
    test_canonical();
    test_utf16_names_at_every_offset();
    test_range();
    test_scalar_arrays();
    test_digests();
    test_arguments();
    return check_report("test_canonical");
}
