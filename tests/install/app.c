/* SPDX-License-Identifier: MIT */
/*
 * app.c - a user's program against an installed wirejson (tests/install):
 * the data digest of a body, the message for a malformed one, and whether
 * the library it runs with is the version of the header it was built with.
 * Built with pkg-config, with pkg-config --static, and by a CMake project
 * with find_package; each build must print expected.txt.
 */
#include <stdio.h>
#include <string.h>

#include <wirejson.h>

int main(void)
{
    static const char body[] = "{\"b\":2, \"a\":1.0}";
    static const char bad[] = "{\"a\" 1}";
    char hex[WJ_DIGEST_HEX_SIZE];
    char msg[256];
    char *out = NULL;
    size_t out_len = 0;
    wj_error err;

    if (wj_data_digest(body, sizeof body - 1, NULL, hex, &err) != WJ_OK) {
        wj_error_format(&err, "data_digest", msg, sizeof msg);
        fprintf(stderr, "app: %s\n", msg);
        return 1;
    }
    printf("data_digest %s\n", hex);

    if (wj_wire_json(bad, sizeof bad - 1, NULL, 0, NULL, &out, &out_len,
                     &err) == WJ_OK) {
        fprintf(stderr, "app: wire_json accepted %s\n", bad);
        wj_free(NULL, out);
        return 1;
    }
    wj_error_format(&err, "wire_json", msg, sizeof msg);
    printf("%s\n", msg);

    if (strcmp(wj_version(), WJ_VERSION_STRING) == 0)
        printf("library version = header version\n");
    else
        printf("library %s, header %s\n", wj_version(), WJ_VERSION_STRING);
    return 0;
}
