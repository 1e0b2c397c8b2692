/* SPDX-License-Identifier: MIT */
/*
 * test_dispatch.c - wj_rendering_text and wj_digest_hex: each kind gives
 * what its named function gives (expected bytes by hand, the digest by
 * hashlib over them), and a kind that does not exist is an argument error.
 */
#include "check.h"
#include "wirejson.h"

#include <string.h>

static const char body[] = "{\"b\":1,\"a\":2}";
static const char sorted[] = "{\"a\":2,\"b\":1}";
/* sha256 of sorted, by Python's hashlib */
static const char sorted_sha256[] =
    "d3626ac30a87e6f7a6428233b3c68299976865fa5508e4267c5415c76af7a772";

static void rendering_is(wj_rendering kind, const char *expected)
{
    char *out = NULL;
    size_t len = 0;
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_rendering_text(kind, body, strlen(body), NULL, 0, NULL, &out, &len,
                            &err) == WJ_OK);
    CHECK_BYTES(out, len, expected);
    wj_free(NULL, out);
}

static void test_renderings(void)
{
    rendering_is(WJ_RENDERING_WIRE, sorted);
    rendering_is(WJ_RENDERING_WIRE_SORTED, sorted);
    rendering_is(WJ_RENDERING_CANONICAL, sorted);
    rendering_is(WJ_RENDERING_CANONICAL_ARGUMENTS, sorted);
}

static void test_digests(void)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_digest_hex(WJ_DIGEST_DATA, body, strlen(body), NULL, 0, NULL, hex,
                        &err) == WJ_OK);
    CHECK_BYTES(hex, strlen(hex), sorted_sha256);
    /* messages_digest of [] is SHA-256 of no bytes */
    CHECK(wj_digest_hex(WJ_DIGEST_MESSAGES, "[]", 2, NULL, 0, NULL, hex,
                        &err) == WJ_OK);
    CHECK_BYTES(
        hex, strlen(hex),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(wj_digest_hex(WJ_DIGEST_MESSAGE, "[]", 2, NULL, 0, NULL, hex, &err) ==
          WJ_ERR_TYPE);
}

static void test_unknown_kind(void)
{
    char *out = (char *)1;
    size_t len = 7;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err = WJ_ERROR_INIT;
    CHECK(wj_rendering_text((wj_rendering)99, body, strlen(body), NULL, 0, NULL,
                            &out, &len, &err) == WJ_ERR_ARGUMENT);
    CHECK(out == NULL);
    CHECK(strcmp(err.msg, "unknown rendering") == 0);
    CHECK(wj_digest_hex((wj_digest_kind)99, body, strlen(body), NULL, 0, NULL,
                        hex, &err) == WJ_ERR_ARGUMENT);
    CHECK(strcmp(err.msg, "unknown digest") == 0);
}

int main(void)
{
    test_renderings();
    test_digests();
    test_unknown_kind();
    return check_report("test_dispatch");
}
