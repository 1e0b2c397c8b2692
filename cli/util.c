/* SPDX-License-Identifier: MIT */
/* Small helpers of the command line: a growable buffer, messages, writes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_buf_reserve(cli_buf *b, size_t more)
{
    return cli_buf_reserve_upto(b, more, SIZE_MAX);
}

int cli_buf_reserve_upto(cli_buf *b, size_t more, size_t limit)
{
    size_t cap;
    char *p;
    if (b->cap - b->len >= more)
        return 0;
    if (more > SIZE_MAX / 2 - b->len)
        return -1;
    cap = b->cap ? b->cap : 4096;
    while (cap - b->len < more)
        cap *= 2;
    if (cap > limit && limit >= b->len + more)
        cap = limit;
    p = cli_big_grow(b->ptr, b->len, b->cap, &cap, &b->lent);
    if (!p)
        return -1;
    b->ptr = p;
    b->cap = cap;
    return 0;
}

int cli_buf_append(cli_buf *b, const void *p, size_t n)
{
    if (cli_buf_reserve(b, n))
        return -1;
    if (n)
        memcpy(b->ptr + b->len, p, n);
    b->len += n;
    return 0;
}

void cli_buf_free(cli_buf *b)
{
    if (!b->lent)
        cli_big_free(b->ptr, b->cap);
    b->ptr = NULL;
    b->len = b->cap = 0;
    b->lent = 0;
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    cli_progress_hold();
    fputs("wirejson: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    cli_progress_release();
}

int cli_write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

const char *cli_plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}
