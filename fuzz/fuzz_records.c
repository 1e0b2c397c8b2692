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
 * blocks) and the first (cli_record_end_from, where a mapped file's
 * blocks end) are the ones the record-by-record walk finds.  A record has no
 * more fields than cli_record_fields_max says; a tsv record (its line break
 * aside) that ends in an odd run of backslashes is a bad escape, and only
 * such a record.  RowBinary's framing: where a bad length is reported, no
 * shorter prefix holds a record.  Chunk headers: each line read as
 * ClickHouse's send_chunk_header gives the count its digits spell, past
 * 2^64 - 1 (compared as decimal strings) an overflow, and anything but
 * digits, an optional \r and the line break is refused.
 * Nothing is read past the bytes given (AddressSanitizer).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* tsv: the record (its line break aside) ends in an odd run of
 * backslashes. */
static int ends_in_lone_backslash(const char *rec, size_t len)
{
    size_t run = 0;
    if (len && rec[len - 1] == '\n') {
        size_t j = len - 1, b = 0;
        while (j > 0 && rec[j - 1] == '\\')
            j--, b++;
        if (b % 2 == 0)
            len--;
    }
    while (run < len && rec[len - 1 - run] == '\\')
        run++;
    return run % 2 == 1;
}

static void check_chunk_header(const char *p, size_t n)
{
    static const char max[] = "18446744073709551615"; /* 2^64 - 1 */
    size_t k = 0, z = 0, end = n, digits;
    uint64_t got = 0, v = 0;
    int want, rc = cli_chunk_header(p, n, &got), over;
    while (k < n && p[k] >= '0' && p[k] <= '9')
        k++;
    while (z + 1 < k && p[z] == '0')
        z++; /* leading zeros */
    digits = k - z;
    /* past 2^64 - 1: compared as decimal strings, no arithmetic */
    over = digits > sizeof max - 1 ||
           (digits == sizeof max - 1 && memcmp(p + z, max, digits) > 0);
    if (end && p[end - 1] == '\n')
        end--;
    if (end && p[end - 1] == '\r')
        end--;
    want = over ? -2 : k == 0 || k != end ? -1 : 0;
    if (rc != want)
        abort();
    if (rc == 0) {
        size_t j;
        for (j = z; j < k; j++)
            v = v * 10 + (uint64_t)(p[j] - '0');
        if (got != v)
            abort();
    }
}

static void check_fields(cli_format f, const char *rec, size_t len,
                         size_t columns)
{
    size_t max = cli_record_fields_max(f, rec, len, columns);
    cli_field *a = malloc(max * sizeof *a), *b = malloc(max * sizeof *b);
    char *copy = malloc(len ? len : 1), *again;
    wk_buf out = {0};
    size_t na, nb, k;
    int bad;
    if (!copy || !a || !b)
        abort();
    memcpy(copy, rec, len);
    na = cli_record_fields(f, copy, len, columns, a, max);
    if (f == FORMAT_TSV &&
        (na == CLI_FIELDS_BAD_ESCAPE) != ends_in_lone_backslash(rec, len))
        abort();
    if (f == FORMAT_TSV && na == CLI_FIELDS_TOO_MANY)
        abort(); /* max is enough */
    if (na == CLI_FIELDS_TOO_MANY || na == CLI_FIELDS_BAD_ESCAPE) {
        free(copy);
        free(a);
        free(b);
        return;
    }
    if (na > max)
        abort();
    if (f == FORMAT_ROWBINARY && na != columns)
        abort();
    if (f == FORMAT_LINES && (na != 1 || memchr(a[0].ptr, '\n', a[0].len)))
        abort();
    /* written back as one record of the same fields */
    for (k = 0; k < na; k++) {
        if (f == FORMAT_TSV && k && wk_buf_append(&out, "\t", 1))
            abort();
        if (f == FORMAT_LINES)
            wk_buf_append(&out, a[k].ptr, a[k].len);
        else if (cli_write_result(&out, f, a[k].ptr, a[k].len, a[k].ptr == NULL,
                                  0, "") &&
                 f != FORMAT_TSV)
            abort();
        if (f == FORMAT_TSV && out.len && out.ptr[out.len - 1] == '\n')
            out.len--; /* the writer ends a row; fields go on */
    }
    if (f != FORMAT_ROWBINARY && wk_buf_append(&out, "\n", 1))
        abort();
    if (cli_record_end(f, out.ptr, out.len, columns, &bad) != out.len || bad)
        abort();
    again = out.ptr;
    nb = cli_record_fields(f, again, out.len, columns, b, max);
    if (nb != na)
        abort();
    for (k = 0; k < na; k++) {
        if ((a[k].ptr == NULL) != (b[k].ptr == NULL) || a[k].len != b[k].len ||
            (a[k].len && memcmp(a[k].ptr, b[k].ptr, a[k].len)))
            abort();
    }
    wk_buf_free(&out);
    free(copy);
    free(a);
    free(b);
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
        size_t from = size ? data[size] % (size + 1) : 0, last = 0, first = 0;
        while (at < size) { /* the walk again, keeping the last end */
            int bad;
            size_t len = cli_record_end(f, p + at, size - at, columns, &bad);
            if (bad || len == 0)
                break;
            at += len;
            if (at > from && !first)
                first = at;
            if (at > from)
                last = at;
        }
        if (f != FORMAT_ROWBINARY &&
            (cli_records_end(f, p, size, from) != last ||
             cli_record_end_from(f, p, size, from) != first))
            abort();
        at = 0;
    }
    while (at < size) {
        int bad;
        size_t len = cli_record_end(f, p + at, size - at, columns, &bad), k;
        if (bad) {
            /* RowBinary's framing: no shorter prefix holds a record */
            for (k = size - at > 64 ? size - at - 64 : 0; k < size - at; k++) {
                int b2;
                if (f != FORMAT_ROWBINARY ||
                    cli_record_end(f, p + at, k, columns, &b2) != 0)
                    abort();
            }
            break;
        }
        if (f == FORMAT_LINES)
            check_chunk_header(p + at, len ? len : size - at);
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
