/* SPDX-License-Identifier: MIT */
/* Small helpers of the command line: messages, writes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

char *cli_message(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *m;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(m = malloc((size_t)n + 1)))
        return NULL;
    va_start(ap, fmt);
    vsnprintf(m, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return m;
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
