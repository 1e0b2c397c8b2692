/* SPDX-License-Identifier: MIT */
/* test_hex.c - the public hex pair (wj_hex_encode, wj_hex_decode), with
 * bytes and digits written by hand. */
#include "check.h"
#include "wirejson.h"

#include <string.h>

int main(void)
{
    static const unsigned char bytes[5] = {0x00, 0xff, 0x10, 0xa5, 0x3c};
    unsigned char got[5];
    char hex[11];

    memset(hex, '#', sizeof hex);
    wj_hex_encode(bytes, 5, hex);
    CHECK(memcmp(hex, "00ff10a53c", 10) == 0);
    CHECK(hex[10] == '#'); /* no NUL written */

    memset(got, 0xAA, sizeof got);
    CHECK(wj_hex_decode("00FF10a53C", 5, got) == 0);
    CHECK(memcmp(got, bytes, 5) == 0);
    CHECK(wj_hex_decode("0g", 1, got) == -1);
    CHECK(wj_hex_decode("g0", 1, got) == -1);
    CHECK(wj_hex_decode(" 0", 1, got) == -1);
    CHECK(wj_hex_decode("", 0, got) == 0);
    return check_report("test_hex");
}
