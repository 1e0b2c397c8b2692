/* SPDX-License-Identifier: MIT */
/*
 * fuzz_records.c - the command line's record readers and writers
 * (cli/records.c, docs/contract.md §14). Input: one byte choosing the format
 * (lines, tsv, rowbinary) and rowbinary's column count, then the bytes of a
 * stream.
 *
 * Invariants: splitting the stream record by record covers it exactly (the
 * records, then an incomplete tail), and a record's end does not depend on
 * what follows it: on any shorter prefix the reader says "not complete",
 * never another end; a lines record holds its one \n at its end only; the
 * fields of a record, written back with the writer of the same format
 * (tsv's escaping, rowbinary's String or Nullable(String)) and read again,
 * are the same fields; tsv's \N is NULL both ways.  lines and tsv: the
 * last record end after any byte (cli_records_end, where the reader cuts
 * blocks) is the one the record-by-record walk finds.  Nothing is read past
 * the bytes given (AddressSanitizer).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_FIELDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_fields(cli_format f, const char *rec, size_t len,
                         size_t columns)
{
    cli_field a[MAX_FIELDS], b[MAX_FIELDS];
    char *copy = malloc(len ? len : 1), *again;
    cli_buf out = {0};
    size_t na, nb, k;
    int bad;
    if (!copy)
        abort();
    memcpy(copy, rec, len);
    na = cli_record_fields(f, copy, len, columns, a, MAX_FIELDS);
    if (na == (size_t)-1) {
        free(copy);
        return;
    }
    if (f == FORMAT_ROWBINARY && na != columns)
        abort();
    if (f == FORMAT_LINES && (na != 1 || memchr(a[0].ptr, '\n', a[0].len)))
        abort();
    /* written back as one record of the same fields */
    for (k = 0; k < na; k++) {
        if (f == FORMAT_TSV && k && cli_buf_append(&out, "\t", 1))
            abort();
        if (f == FORMAT_LINES)
            cli_buf_append(&out, a[k].ptr, a[k].len);
        else if (cli_write_result(&out, f, a[k].ptr, a[k].len, a[k].ptr == NULL,
                                  0, "") &&
                 f != FORMAT_TSV)
            abort();
        if (f == FORMAT_TSV && out.len && out.ptr[out.len - 1] == '\n')
            out.len--; /* the writer ends a row; fields go on */
    }
    if (f != FORMAT_ROWBINARY && cli_buf_append(&out, "\n", 1))
        abort();
    if (cli_record_end(f, out.ptr, out.len, columns, &bad) != out.len || bad)
        abort();
    again = out.ptr;
    nb = cli_record_fields(f, again, out.len, columns, b, MAX_FIELDS);
    if (nb != na)
        abort();
    for (k = 0; k < na; k++) {
        if ((a[k].ptr == NULL) != (b[k].ptr == NULL) || a[k].len != b[k].len ||
            (a[k].len && memcmp(a[k].ptr, b[k].ptr, a[k].len)))
            abort();
    }
    cli_buf_free(&out);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cli_format f;
    size_t columns, at = 0;
    const char *p;
    if (size < 1)
        return 0;
    f = (cli_format)(data[0] % 3);
    columns = 1 + (data[0] >> 2) % 4;
    p = (const char *)data + 1;
    size--;
    {
        size_t from = size ? data[size] % (size + 1) : 0, last = 0;
        while (at < size) { /* the walk again, keeping the last end */
            int bad;
            size_t len = cli_record_end(f, p + at, size - at, columns, &bad);
            if (bad || len == 0)
                break;
            at += len;
            if (at > from)
                last = at;
        }
        if (f != FORMAT_ROWBINARY && cli_records_end(f, p, size, from) != last)
            abort();
        at = 0;
    }
    while (at < size) {
        int bad;
        size_t len = cli_record_end(f, p + at, size - at, columns, &bad), k;
        if (bad)
            break;
        if (len == 0)
            break; /* the incomplete tail */
        if (len > size - at)
            abort();
        /* the end does not depend on what follows */
        for (k = len > 64 ? len - 64 : 0; k < len; k++) {
            int b2;
            if (cli_record_end(f, p + at, k, columns, &b2) != 0)
                abort();
        }
        if (f == FORMAT_LINES &&
            (p[at + len - 1] != '\n' || memchr(p + at, '\n', len - 1)))
            abort();
        check_fields(f, p + at, len, columns);
        at += len;
    }
    return 0;
}
