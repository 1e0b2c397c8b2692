/* SPDX-License-Identifier: MIT */
/* test_hex.c - the public hex pair (wj_hex_encode, wj_hex_decode), with
 * bytes and digits written by hand, and every byte value at every length
 * up to 300 against the C library's "%02x". */
#include "check.h"
#include "wirejson.h"

#include <stdio.h>
#include <string.h>

/* wj_hex_encode of the n bytes at src against snprintf, and nothing
 * written past its 2n characters. */
static void check_against_printf(const unsigned char *src, size_t n)
{
    char got[2 * 300 + 1], want[2 * 300 + 1];
    size_t k;
    memset(got, '#', sizeof got);
    wj_hex_encode(src, n, got);
    for (k = 0; k < n; k++)
        snprintf(want + 2 * k, 3, "%02x", src[k]);
    CHECK(memcmp(got, want, 2 * n) == 0);
    CHECK(got[2 * n] == '#');
}

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
    {
        unsigned char all[300];
        size_t k, n;
        for (k = 0; k < sizeof all; k++)
            all[k] = (unsigned char)(k * 157 + 11); /* every value */
        for (n = 0; n <= sizeof all; n++)
            check_against_printf(all + (sizeof all - n), n);
    }
    return check_report("test_hex");
}
