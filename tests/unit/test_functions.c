/* SPDX-License-Identifier: MIT */
/*
 * test_functions.c - the table of functions and the front-end kit: each row
 * called through wj_function_call gives the bytes written here by hand (the
 * digests by Python's hashlib), NULL and arity rules, the error message
 * policy, array elements and prefix digests.
 */
#include "check.h"
#include "wirejson.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Messages in canonical form already, and their conversation digests
 * (hashlib: sha256 of each message, then of the hex strings joined). */
static const char m1[] = "{\"content\":\"hi\",\"role\":\"user\"}";
static const char m2[] = "{\"content\":\"yo\",\"role\":\"assistant\"}";
static const char after_m1[] =
    "9990699f0badbefda87aff0edb70a63313437d46b9b51df43191caacc00001a4";
static const char after_m2[] =
    "e520a5596ba3d049c23cb190b3c3a25ce21a7899f2ba3dc53484d36f08c2f1cd";
static const char m1_sha256[] =
    "9017285104d1b249960a30732b8e92f6e2fb3acf8d8e4b2a16c116ad0c1ed211";
static const char empty_sha256[] =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

static wj_arg arg(const char *text)
{
    wj_arg a = {text, text ? strlen(text) : 0};
    return a;
}

static const wj_function *row(const char *name)
{
    const wj_function *fn = wj_function_find(name, strlen(name));
    CHECK(fn != NULL);
    return fn;
}

/* Calls name with up to four arguments and checks the text result. */
static void gives(const char *name, size_t n, const char *a0, const char *a1,
                  const char *a2, const char *expected)
{
    wj_arg args[3] = {arg(a0), arg(a1), arg(a2)};
    wj_result res;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_function_call(row(name), args, n, NULL, &res, &err) == WJ_OK);
    if (expected) {
        CHECK(!res.is_null);
        CHECK_BYTES(res.text, res.len, expected);
    } else {
        CHECK(res.is_null);
    }
    wj_result_free(NULL, &res);
}

static void test_rows(void)
{
    gives("wire_json", 1,
          "{\"properties\":{\"b\":1,\"a\":2},\"required\":[\"b\"]}", NULL, NULL,
          "{\"properties\":{\"b\":1,\"a\":2},\"required\":[\"b\"]}");
    gives("wire_json", 2,
          "{\"properties\":{\"b\":1,\"a\":2},\"required\":[\"b\"]}",
          "properties", NULL,
          "{\"properties\":{\"a\":2,\"b\":1},\"required\":[\"b\"]}");
    gives("wire_json_sorted", 1, "{\"b\":1,\"a\":[1.0]}", NULL, NULL,
          "{\"a\":[1.0],\"b\":1}");
    gives("canonical_json", 1, "{\"b\":1,\"a\":[1.0]}", NULL, NULL,
          "{\"a\":[1],\"b\":1}");
    gives("data_digest", 1, "{ }", NULL, NULL,
          "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
    gives("canonical_arguments", 1, "{\"b\":1, \"a\":2", NULL, NULL,
          "{\"b\":1, \"a\":2");
    gives("with_top_level", 3, "{\"Model\": \"a\" , \"n\":1}", "model",
          "\"b\"", "{\"Model\": \"b\" , \"n\":1}");
    gives("with_top_level", 3, "{\"n\":1}", "model", "\"b\"", NULL);
    gives("with_top_level", 3, "{\"model\":1}", "model", NULL,
          "{\"model\":null}");
    gives("tool_schemas", 2, "{\"tools\":[{\"p\": [1 ]},{}]}", "p", NULL,
          "[\"[1 ]\",null]");
    gives("tool_schemas", 1, "{\"tool\":[]}", NULL, NULL, NULL);
    gives("wirejson_error", 1, "[1,]", NULL, NULL,
          "malformed JSON at byte 3: trailing comma");
    gives("wirejson_error", 1, "[1]", NULL, NULL, NULL);
    gives("wirejson_version", 0, NULL, NULL, NULL, WJ_VERSION_STRING);
    gives("messages_digest", 1, "[]", NULL, NULL, empty_sha256);
    gives("prefix_digests", 1, "[]", NULL, NULL, "[]");
}

/* The message digest drops null members, extra and the names given. */
static void test_message_digest_row(void)
{
    wj_arg args[3] = {
        arg("{\"role\":\"user\",\"content\":\"hi\",\"extra\":1,\"x\":null,"
            "\"id\":7}"),
        arg(NULL), arg("id")};
    wj_result res;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_function_call(row("message_digest"), args, 3, NULL, &res, &err) ==
          WJ_OK);
    CHECK_BYTES(res.text, res.len, m1_sha256);
    wj_result_free(NULL, &res);
}

static void test_integer_and_nulls(void)
{
    wj_arg args[2] = {arg("{\"a\":1,\"a\":2}"), arg(NULL)};
    wj_result res;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_function_call(row("wirejson_error_position"), args, 1, NULL, &res,
                           &err) == WJ_OK);
    CHECK(!res.is_null && res.integer == 7);
    wj_result_free(NULL, &res);

    /* a NULL document is a NULL result, whatever the function */
    args[0] = arg(NULL);
    CHECK(wj_function_call(row("data_digest"), args, 1, NULL, &res, &err) ==
          WJ_OK);
    CHECK(res.is_null && res.text == NULL);

    /* arity: too many, too few, an aggregate */
    args[0] = arg("{}");
    CHECK(wj_function_call(row("data_digest"), args, 2, NULL, &res, &err) ==
          WJ_ERR_ARGUMENT);
    CHECK(err.msg && strcmp(err.msg, "wrong number of arguments") == 0);
    CHECK(wj_function_call(row("wire_json"), args, 0, NULL, &res, &err) ==
          WJ_ERR_ARGUMENT);
    CHECK(wj_function_call(row("messages_digest_agg"), args, 1, NULL, &res,
                           &err) == WJ_ERR_ARGUMENT);

    /* an input error is the core call's, offset and all */
    args[0] = arg("{\"a\" 1}");
    CHECK(wj_function_call(row("canonical_json"), args, 1, NULL, &res, &err) ==
          WJ_ERR_SYNTAX);
    CHECK(err.offset == 5);
}

/* 40 names: more than the call keeps on the stack. */
static void test_many_names(void)
{
    static char names[40][8];
    wj_arg args[41];
    wj_result res;
    wj_error err = WJ_ERROR_INIT;
    int k;
    args[0] = arg("{\"n39\":{\"b\":1,\"a\":2},\"m\":{\"properties\":{\"b\":1,"
                  "\"a\":2},\"required\":[\"b\"]}}");
    for (k = 0; k < 40; k++) {
        snprintf(names[k], sizeof names[k], "n%d", k);
        args[k + 1] = arg(k % 7 ? names[k] : NULL);
    }
    CHECK(wj_function_call(row("wire_json"), args, 41, NULL, &res, &err) ==
          WJ_OK);
    CHECK_BYTES(res.text, res.len,
                "{\"m\":{\"properties\":{\"b\":1,\"a\":2},\"required\":[\"b\"]},"
                "\"n39\":{\"a\":2,\"b\":1}}");
    wj_result_free(NULL, &res);
}

static void test_table_shape(void)
{
    size_t n, k, j;
    const wj_function *t = wj_functions(&n);
    CHECK(n >= 16);
    for (k = 0; k < n; k++) {
        CHECK(wj_function_find(t[k].name, strlen(t[k].name)) == &t[k]);
        CHECK((t[k].call == NULL) == ((t[k].flags & WJ_FN_AGGREGATE) != 0));
        CHECK(t[k].summary && *t[k].summary);
        for (j = 0; j + 1 < t[k].n_params; j++)
            CHECK(t[k].params[j].kind != WJ_ARG_NAMES &&
                  t[k].params[j].kind != WJ_ARG_WORD);
    }
    CHECK(wj_function_find("data_diges", 10) == NULL);
    CHECK(wj_function_max_args(row("wire_json")) == SIZE_MAX);
    CHECK(wj_function_min_args(row("with_top_level")) == 3);
    CHECK(wj_function_max_args(row("wirejson_version")) == 0);
    /* an optional word: one argument more, not any number */
    CHECK(wj_function_min_args(row("prompt_prefix_digests")) == 1);
    CHECK(wj_function_max_args(row("prompt_prefix_digests")) == 2);
    CHECK(wj_function_max_args(row("common_prefix_length")) == 2);
}

static void test_error_message(void)
{
    wj_error err = WJ_ERROR_INIT;
    size_t len = 0;
    char *msg;
    static char longname[600];
    memset(longname, 'f', sizeof longname - 1);
    CHECK(wj_validate("[1,]", 4, NULL, &err) == WJ_ERR_SYNTAX);
    msg = wj_error_message(&err, "wire_json", NULL, &len);
    CHECK_BYTES(msg, len, "wire_json: malformed JSON at byte 3: trailing comma");
    free(msg);
    /* never cut, however long the function's name */
    msg = wj_error_message(&err, longname, NULL, &len);
    CHECK(msg && len == 599 + strlen(": malformed JSON at byte 3: trailing comma"));
    CHECK(msg && strlen(msg) == len);
    free(msg);
}

static void test_elements(void)
{
    static const char text[] = " [ 1 , {\"a\" : [2]} ,\"x\" ,[ ] ] ";
    wj_name *e = NULL;
    size_t n = 0;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_array_elements(text, strlen(text), NULL, &e, &n, &err) == WJ_OK);
    CHECK(n == 4);
    if (n == 4) {
        CHECK_BYTES(e[0].ptr, e[0].len, "1");
        CHECK_BYTES(e[1].ptr, e[1].len, "{\"a\" : [2]}");
        CHECK_BYTES(e[2].ptr, e[2].len, "\"x\"");
        CHECK_BYTES(e[3].ptr, e[3].len, "[ ]");
    }
    wj_free(NULL, e);
    CHECK(wj_array_elements("[]", 2, NULL, &e, &n, &err) == WJ_OK);
    CHECK(n == 0 && e == NULL);
    CHECK(wj_array_elements("{}", 2, NULL, &e, &n, &err) == WJ_ERR_TYPE);
    CHECK(wj_array_elements("[1", 2, NULL, &e, &n, &err) == WJ_ERR_SYNTAX);
    CHECK(err.offset == 2);
}

/* The bytes a JSON string stands for: escapes decoded, a surrogate pair one
 * code point (4 bytes of UTF-8), a lone surrogate its 3-byte form. */
static void test_string_value(void)
{
    static const char text[] = " \"a\\\"b\\\\\\/\\n\\u00e9\\ud83d\\ude00\" ";
    char *v = NULL;
    size_t n = 0;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_string_value(text, strlen(text), NULL, &v, &n, &err) == WJ_OK);
    CHECK_BYTES(v, n, "a\"b\\/\n\xc3\xa9\xf0\x9f\x98\x80");
    wj_free(NULL, v);
    CHECK(wj_string_value("\"\\ud800\"", 8, NULL, &v, &n, &err) == WJ_OK);
    CHECK_BYTES(v, n, "\xed\xa0\x80");
    wj_free(NULL, v);
    CHECK(wj_string_value("\"\"", 2, NULL, &v, &n, &err) == WJ_OK);
    CHECK(n == 0);
    wj_free(NULL, v);
    CHECK(wj_string_value("[\"x\"]", 5, NULL, &v, &n, &err) == WJ_ERR_TYPE);
    CHECK(v == NULL && n == 0);
    CHECK(wj_string_value("\"x", 2, NULL, &v, &n, &err) == WJ_ERR_SYNTAX);
}

static void test_prefix_digests(void)
{
    char text[256], *hexes = NULL, expected[256];
    size_t n = 0;
    wj_error err = WJ_ERROR_INIT;
    snprintf(text, sizeof text, "[%s, %s]", m1, m2);
    CHECK(wj_prefix_digests(text, strlen(text), NULL, &hexes, &n, &err) ==
          WJ_OK);
    CHECK(n == 2);
    snprintf(expected, sizeof expected, "%s%s", after_m1, after_m2);
    CHECK_BYTES(hexes, hexes ? strlen(hexes) : 0, expected);
    wj_free(NULL, hexes);
    snprintf(expected, sizeof expected, "[\"%s\",\"%s\"]", after_m1,
             after_m2);
    gives("prefix_digests", 1, text, NULL, NULL, expected);
}

int main(void)
{
    test_rows();
    test_message_digest_row();
    test_integer_and_nulls();
    test_many_names();
    test_table_shape();
    test_error_message();
    test_elements();
    test_string_value();
    test_prefix_digests();
    return check_report("test_functions");
}
