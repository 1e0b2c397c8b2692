/* SPDX-License-Identifier: MIT */
/*
 * append_metadata.c - writes OUT: the shared library LIB followed by the
 * footer DuckDB reads when it loads an extension file.  A build step, in C
 * so that building the extension needs nothing but the C compiler.
 *
 *   append_metadata LIB OUT PLATFORM API_VERSION EXTENSION_VERSION
 *
 * The footer: a WebAssembly custom-section header named "duckdb_signature"
 * (22 bytes, so that Wasm builds stay valid), then eight 32-byte fields
 * NUL-padded, last field first (three unused, the ABI type, the extension's
 * version, the C API version, the platform, and "4", which marks a DuckDB
 * extension), then 256 bytes of room for a signature (zero: unsigned).
 */
#include <stdio.h>
#include <string.h>

#define FIELD 32
#define SIGNATURE 256

static int fail(const char *what, const char *name)
{
    fprintf(stderr, "append_metadata: %s: %s\n", what, name);
    return 1;
}

int main(int argc, char **argv)
{
    static const unsigned char header[22] = {
        0x00, 0x93, 0x04, 16,  'd', 'u', 'c', 'k', 'd', 'b', '_',
        's',  'i',  'g',  'n', 'a', 't', 'u', 'r', 'e', 0x80, 0x04};
    static const unsigned char zeros[SIGNATURE];
    const char *fields[8];
    char buf[1 << 16];
    FILE *in, *out;
    size_t n, k;

    if (argc != 6) {
        fprintf(stderr, "usage: append_metadata LIB OUT PLATFORM "
                        "API_VERSION EXTENSION_VERSION\n");
        return 2;
    }
    fields[0] = fields[1] = fields[2] = "";
    fields[3] = "C_STRUCT";
    fields[4] = argv[5];
    fields[5] = argv[4];
    fields[6] = argv[3];
    fields[7] = "4";
    for (k = 0; k < 8; k++)
        if (strlen(fields[k]) > FIELD)
            return fail("longer than 32 bytes", fields[k]);
    if (!(in = fopen(argv[1], "rb")))
        return fail("cannot read", argv[1]);
    if (!(out = fopen(argv[2], "wb"))) {
        fclose(in);
        return fail("cannot write", argv[2]);
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fwrite(header, 1, sizeof header, out);
    for (k = 0; k < 8; k++) {
        size_t len = strlen(fields[k]);
        fwrite(fields[k], 1, len, out);
        fwrite(zeros, 1, FIELD - len, out);
    }
    fwrite(zeros, 1, SIGNATURE, out);
    if (ferror(in) | fclose(in) | ferror(out) | fclose(out))
        return fail("cannot write", argv[2]);
    return 0;
}
