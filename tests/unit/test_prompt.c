/* SPDX-License-Identifier: MIT */
/*
 * test_prompt.c - wj_prompt_prefix, the prompt-cache audit's call
 * (docs/contract.md §16): every mode's prefix digests from one parse, as
 * the bytes the hex of prompt_prefix_digests spells, and each element's
 * sent length.  The
 * digests were computed with Python's hashlib over renderings written by
 * hand (tests/cache_audit/test_functions.py, body H2):
 *
 *   sent       {"model":"m","tools":null,"response_format":null}   49 bytes
 *              {"system":"be brief"}                               21
 *              {"role":"user","content":"q"}                        29
 *   canonical  {"model":"m","response_format":null,"tools":null}
 *              {"system":"be brief"}
 *              {"content":"q","role":"user"}
 */
#include "check.h"
#include "wirejson.h"
#include "wirejson_kit.h"

#include <string.h>

static const char body[] = "{\"input\":[{\"role\":\"user\",\"content\":\"q\"}],"
                           "\"instructions\":\"be brief\",\"model\":\"m\"}";

static const char *const sent[] = {
    "27bff8bbb169438dd5c8201898cf32d4d515b5bbf034366ebd3a4073b2b0eb41",
    "e946e75760e5189d34efe0d842589410c48ea645cb961f017a1692ba1eaec668",
    "539b8af14598b2894e16b74ee2f8f4b0ab94529292b0c76316a444bacd295e59"};
static const char *const canonical[] = {
    "80e45315ba4a3965bad15e0173e5769d6810ed354481f4e26af0117665d95608",
    "9d469dc5cfdd1900c23154754ccb9588ef8c15122f7a91d99126b83305efbc99",
    "b18437ca64791946d1dfff40ece409dc43a2f4382c3c2eb97a9cb1d9dceced75"};

static int same_digest(const unsigned char *got, const char *hex)
{
    unsigned char want[32];
    wj_hex_decode(hex, 32, want);
    return memcmp(got, want, 32) == 0;
}

static void test_all_modes(void)
{
    wj_prompt_prefixes p;
    wj_error err;
    size_t k;
    CHECK(wj_prompt_prefix(body, strlen(body), WJ_PROMPT_ALL, NULL, &p,
                           &err) == WJ_OK);
    CHECK(p.n == 3);
    CHECK(p.sent_bytes[0] == 49 && p.sent_bytes[1] == 21 &&
          p.sent_bytes[2] == 29);
    for (k = 0; k < 3; k++) {
        CHECK(same_digest(p.digests[WJ_PROMPT_SENT] + 32 * k, sent[k]));
        CHECK(same_digest(p.digests[WJ_PROMPT_CANONICAL] + 32 * k,
                          canonical[k]));
        /* no tools to sort: as canonical */
        CHECK(same_digest(p.digests[WJ_PROMPT_TOOLS_SET] + 32 * k,
                          canonical[k]));
    }
    wj_prompt_prefix_free(NULL, &p);
    CHECK(p.n == 0 && p.sent_bytes == NULL);
}

/* One mode asked for: the others are NULL, the lengths 0 without sent. */
static void test_one_mode(void)
{
    wj_prompt_prefixes p;
    CHECK(wj_prompt_prefix(body, strlen(body), 1u << WJ_PROMPT_CANONICAL, NULL,
                           &p, NULL) == WJ_OK);
    CHECK(p.digests[WJ_PROMPT_SENT] == NULL &&
          p.digests[WJ_PROMPT_TOOLS_SET] == NULL);
    CHECK(same_digest(p.digests[WJ_PROMPT_CANONICAL] + 64, canonical[2]));
    CHECK(p.sent_bytes[0] == 0 && p.sent_bytes[2] == 0);
    wj_prompt_prefix_free(NULL, &p);
}

static void test_errors_and_modes(void)
{
    wj_prompt_prefixes p;
    wj_error err;
    CHECK(wj_prompt_prefix("[]", 2, WJ_PROMPT_ALL, NULL, &p, &err) ==
          WJ_ERR_TYPE);
    CHECK(p.n == 0 && p.sent_bytes == NULL);
    CHECK(wj_prompt_prefix("{\"messages\":3}", 14, WJ_PROMPT_ALL, NULL, &p,
                           &err) == WJ_ERR_TYPE);
    CHECK(err.offset == 12);
    CHECK(wj_prompt_prefix("{\"a\":", 5, WJ_PROMPT_ALL, NULL, &p, &err) ==
          WJ_ERR_SYNTAX);
    CHECK(wj_prompt_mode_find("sent", 4) == WJ_PROMPT_SENT);
    CHECK(wj_prompt_mode_find("canonical", 9) == WJ_PROMPT_CANONICAL);
    CHECK(wj_prompt_mode_find("tools_set", 9) == WJ_PROMPT_TOOLS_SET);
    CHECK(wj_prompt_mode_find("tools_se", 8) == -1);
    CHECK(wj_prompt_mode_find("Sent", 4) == -1);
}

int main(void)
{
    test_all_modes();
    test_one_mode();
    test_errors_and_modes();
    return check_report("test_prompt");
}
