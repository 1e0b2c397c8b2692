/* SPDX-License-Identifier: MIT */
/*
 * Record readers and writers of the three formats.
 *
 * lines: a record is one line, split at \n (a \r before it stays: it is
 * JSON whitespace).  tsv: ClickHouse's TabSeparated; fields split at tabs,
 * unescaped as ClickHouse reads them (\b \f \n \r \t \0 \a \v \e, \xHH,
 * a backslash before any other byte is that byte; a field that is exactly
 * \N is NULL).  rowbinary: ClickHouse's RowBinary, K Strings a row, each a
 * LEB128 length and its bytes.  Nothing here reads past the bytes given.
 */
#define _GNU_SOURCE /* memrchr */
#include <string.h>

#include "cli.h"

/* The longest String a RowBinary row may declare: a 1 GiB record and some. */
#define ROWBINARY_MAX_STRING ((uint64_t)1 << 31)

size_t cli_record_end_lines(const char *p, size_t n)
{
    const char *nl = memchr(p, '\n', n);
    return nl ? (size_t)(nl - p) + 1 : 0;
}

/* A line break ends a row unless an odd run of backslashes escapes it;
 * that run is counted back from the break, and p[0] starts the row. */
static size_t record_end_tsv_from(const char *p, size_t n, size_t from)
{
    for (;;) {
        const char *nl = memchr(p + from, '\n', n - from);
        size_t at, k;
        if (!nl)
            return 0;
        at = (size_t)(nl - p);
        for (k = at; k > 0 && p[k - 1] == '\\'; k--)
            ;
        if ((at - k) % 2 == 0)
            return at + 1;
        from = at + 1; /* an escaped line break: part of the field */
    }
}

size_t cli_record_end_tsv(const char *p, size_t n)
{
    return record_end_tsv_from(p, n, 0);
}

size_t cli_record_end(cli_format f, const char *p, size_t n, size_t columns,
                      int *bad)
{
    *bad = 0;
    if (f == FORMAT_LINES)
        return cli_record_end_lines(p, n);
    if (f == FORMAT_TSV)
        return cli_record_end_tsv(p, n);
    return cli_record_end_rowbinary(p, n, columns, bad);
}

size_t cli_record_end_from(cli_format f, const char *p, size_t n,
                           size_t from)
{
    size_t len;
    if (f == FORMAT_TSV)
        return record_end_tsv_from(p, n, from);
    len = cli_record_end_lines(p + from, n - from);
    return len ? from + len : 0;
}

size_t cli_records_end(cli_format f, const char *p, size_t n, size_t from)
{
    while (from < n) {
        const char *nl = memrchr(p + from, '\n', n - from);
        size_t at, k;
        if (!nl)
            return 0;
        at = (size_t)(nl - p);
        if (f == FORMAT_LINES)
            return at + 1;
        for (k = at; k > 0 && p[k - 1] == '\\'; k--)
            ;
        if ((at - k) % 2 == 0)
            return at + 1;
        n = at; /* an escaped line break: look before it */
    }
    return 0;
}

/* A LEB128 number at p[0..n): bytes used, 0 when cut short, -1 when bad. */
static int leb128(const unsigned char *p, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    size_t k;
    for (k = 0; k < n && k < 10; k++) {
        x |= (uint64_t)(p[k] & 0x7f) << (7 * k);
        if (!(p[k] & 0x80)) {
            *v = x;
            return (int)k + 1;
        }
    }
    return k == 10 ? -1 : 0;
}

size_t cli_record_end_rowbinary(const char *p, size_t n, size_t columns,
                                int *bad)
{
    size_t at = 0, c;
    *bad = 0;
    for (c = 0; c < columns; c++) {
        uint64_t len;
        int used = leb128((const unsigned char *)p + at, n - at, &len);
        if (used < 0 || (used > 0 && len > ROWBINARY_MAX_STRING)) {
            *bad = 1;
            return 0;
        }
        if (used == 0)
            return 0;
        at += (size_t)used;
        if (len > n - at)
            return 0;
        at += (size_t)len;
    }
    return at;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

size_t cli_tsv_unescape(char *p, size_t n)
{
    size_t r, w = 0;
    for (r = 0; r < n; r++) {
        char c = p[r];
        if (c != '\\' || r + 1 == n) {
            p[w++] = c;
            continue;
        }
        c = p[++r];
        switch (c) {
        case 'b': p[w++] = '\b'; break;
        case 'f': p[w++] = '\f'; break;
        case 'n': p[w++] = '\n'; break;
        case 'r': p[w++] = '\r'; break;
        case 't': p[w++] = '\t'; break;
        case '0': p[w++] = '\0'; break;
        case 'a': p[w++] = '\a'; break;
        case 'v': p[w++] = '\v'; break;
        case 'e': p[w++] = '\x1b'; break;
        case 'x':
            if (r + 2 < n && hexval(p[r + 1]) >= 0 && hexval(p[r + 2]) >= 0) {
                p[w++] = (char)(hexval(p[r + 1]) * 16 + hexval(p[r + 2]));
                r += 2;
            } else
                p[w++] = 'x';
            break;
        default: p[w++] = c; break; /* \\ \' \" \/ and the rest */
        }
    }
    return w;
}

size_t cli_record_fields(cli_format f, char *p, size_t n, size_t columns,
                         cli_field *fields, size_t max)
{
    size_t count = 0;
    if (f == FORMAT_LINES) {
        if (n && p[n - 1] == '\n')
            n--;
        if (max < 1)
            return CLI_FIELDS_TOO_MANY;
        fields[0].ptr = p;
        fields[0].len = n;
        return 1;
    }
    if (f == FORMAT_TSV) {
        size_t start = 0, k;
        if (n && p[n - 1] == '\n') {
            size_t j = n - 1, b = 0;
            while (j > 0 && p[j - 1] == '\\')
                j--, b++;
            if (b % 2 == 0)
                n--;
        }
        if (n && p[n - 1] == '\\') {
            size_t j = n - 1, b = 1;
            while (j > 0 && p[j - 1] == '\\')
                j--, b++;
            if (b % 2)
                return CLI_FIELDS_BAD_ESCAPE; /* a backslash escapes nothing */
        }
        for (k = 0; k <= n; k++) {
            if (k < n && p[k] == '\\') {
                k++;
                continue;
            }
            if (k < n && p[k] != '\t')
                continue;
            if (count == max)
                return CLI_FIELDS_TOO_MANY;
            if (k - start == 2 && p[start] == '\\' && p[start + 1] == 'N')
                fields[count].ptr = NULL, fields[count].len = 0;
            else {
                fields[count].ptr = p + start;
                fields[count].len = cli_tsv_unescape(p + start, k - start);
            }
            count++;
            start = k + 1;
        }
        return count;
    }
    {
        size_t at = 0, c;
        for (c = 0; c < columns; c++) {
            uint64_t len = 0;
            int used = leb128((unsigned char *)p + at, n - at, &len);
            if (used <= 0 || len > n - at - (size_t)used || count == max)
                return CLI_FIELDS_TOO_MANY;
            at += (size_t)used;
            fields[count].ptr = p + at;
            fields[count++].len = (size_t)len;
            at += (size_t)len;
        }
        return count;
    }
}

size_t cli_record_fields_max(cli_format f, const char *p, size_t n,
                             size_t columns)
{
    size_t count = 1;
    const char *t = p, *end = p + n;
    if (f == FORMAT_LINES)
        return 1;
    if (f == FORMAT_ROWBINARY)
        return columns;
    while ((t = memchr(t, '\t', (size_t)(end - t))) != NULL)
        count++, t++;
    return count;
}

int cli_chunk_header(const char *p, size_t n, uint64_t *count)
{
    size_t k;
    uint64_t v = 0;
    for (k = 0; k < n && p[k] >= '0' && p[k] <= '9'; k++) {
        unsigned d = (unsigned)(p[k] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    if (k < n && p[k] == '\r')
        k++;
    if (k < n && p[k] == '\n')
        k++;
    if (k == 0 || !(p[0] >= '0' && p[0] <= '9') || k != n)
        return -1;
    *count = v;
    return 0;
}

static int tsv_escaped(wk_buf *out, const char *s, size_t n)
{
    size_t k, from = 0;
    if (wk_buf_reserve(out, n + 1))
        return -1;
    for (k = 0; k < n; k++) {
        char e;
        switch (s[k]) {
        case '\\': e = '\\'; break;
        case '\t': e = 't'; break;
        case '\n': e = 'n'; break;
        case '\r': e = 'r'; break;
        case '\0': e = '0'; break;
        case '\b': e = 'b'; break;
        case '\f': e = 'f'; break;
        default: continue;
        }
        if (wk_buf_append(out, s + from, k - from) ||
            wk_buf_append(out, "\\", 1) || wk_buf_append(out, &e, 1))
            return -1;
        from = k + 1;
    }
    return wk_buf_append(out, s + from, n - from);
}

int cli_write_result(wk_buf *out, cli_format f, const char *text, size_t len,
                     int is_null, int nullable, const char *null_text)
{
    if (f == FORMAT_LINES) {
        if (is_null) {
            text = null_text;
            len = strlen(null_text);
        }
        return wk_buf_append(out, text, len) || wk_buf_append(out, "\n", 1);
    }
    if (f == FORMAT_TSV) {
        if (is_null)
            return wk_buf_append(out, "\\N\n", 3);
        return tsv_escaped(out, text, len) || wk_buf_append(out, "\n", 1);
    }
    {
        unsigned char v[11];
        size_t k = 0;
        uint64_t x = len;
        if (nullable) {
            unsigned char b = is_null ? 1 : 0;
            if (wk_buf_append(out, &b, 1))
                return -1;
            if (is_null)
                return 0;
        } else if (is_null) {
            len = 0, x = 0; /* not reached: the caller makes it nullable */
        }
        do {
            v[k++] = (unsigned char)((x & 0x7f) | (x > 0x7f ? 0x80 : 0));
            x >>= 7;
        } while (x);
        return wk_buf_append(out, v, k) || wk_buf_append(out, text, len);
    }
}
