/* SPDX-License-Identifier: MIT */
/*
 * Input sources: a file or standard input, read with read(2) so that a pause
 * in a pipe can be seen (cli_source_ready), and gunzipped with zlib's
 * inflate when the first bytes are gzip's magic (1f 8b), whatever the name.
 * Several gzip members one after another are one stream; a stream that ends
 * early is an error naming the file.  A plain regular file named on the
 * command line is mapped instead (cli_source_map): its blocks are windows
 * of the page cache, not copies of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define RAW_SIZE (256 * 1024)

static const char *shown(const cli_source *s)
{
    return strcmp(s->name, "-") == 0 ? "standard input" : s->name;
}

int cli_source_open(cli_source *s, const char *name, uint64_t *progress)
{
    struct stat st;
    memset(s, 0, sizeof *s);
    s->name = name;
    s->progress_bytes = progress;
    if (strcmp(name, "-") == 0)
        s->fd = 0;
    else if ((s->fd = open(name, O_RDONLY)) < 0) {
        cli_error("%s: %s", name, strerror(errno));
        return -1;
    }
    if (fstat(s->fd, &st) != 0)
        st.st_mode = 0;
    if (S_ISDIR(st.st_mode)) {
        cli_error("%s: is a directory", name);
        cli_source_close(s);
        return -1;
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0)
        s->size = (uint64_t)st.st_size;
    return 0;
}

void cli_source_advance(cli_source *s, size_t n)
{
    s->offset += n;
    if (s->progress_bytes)
        __atomic_fetch_add(s->progress_bytes, (uint64_t)n, __ATOMIC_RELAXED);
}

/* Reads up to cap bytes of the file into buf, counting them for the
 * progress bar: > 0, 0 at the end, -1 error (reported). */
static long read_file(cli_source *s, char *buf, size_t cap, int *status)
{
    for (;;) {
        ssize_t n = read(s->fd, buf, cap);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            cli_error("%s: %s", shown(s), strerror(errno));
            *status = EXIT_USAGE;
            return -1;
        }
        if (n > 0)
            cli_source_advance(s, (size_t)n);
        return (long)n;
    }
}

/* Reads more raw bytes after raw[raw_len]: > 0, 0 at the end, -1 error. */
static long fill(cli_source *s, int *status)
{
    long n = read_file(s, (char *)s->raw + s->raw_len, s->raw_cap - s->raw_len,
                       status);
    if (n > 0)
        s->raw_len += (size_t)n;
    return n;
}

static long read_gzip(cli_source *s, char *buf, size_t cap, int *status);

/* The first read, straight into buf (a plain input is not staged): at
 * least 2 bytes unless the input is shorter, and when they start with
 * gzip's magic they move to raw (so at most RAW_SIZE are read here) to be
 * inflated into buf. */
static long first_read(cli_source *s, char *buf, size_t cap, int *status)
{
    size_t got = 0, want = cap < RAW_SIZE ? cap : RAW_SIZE;
    s->started = 1;
    while (got < 2 && got < want) {
        long n = read_file(s, buf + got, want - got, status);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    if (got < 2 || (unsigned char)buf[0] != 0x1f ||
        (unsigned char)buf[1] != 0x8b)
        return (long)got;
    s->raw = malloc(RAW_SIZE);
    if (!s->raw || inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
        cli_error("out of memory");
        *status = EXIT_USAGE;
        return -1;
    }
    s->gzip = 1;
    s->raw_cap = RAW_SIZE;
    memcpy(s->raw, buf, got);
    s->raw_len = got;
    s->z.next_in = s->raw;
    s->z.avail_in = (uInt)s->raw_len;
    return read_gzip(s, buf, cap, status);
}

static long read_gzip(cli_source *s, char *buf, size_t cap, int *status)
{
    if (cap > (1u << 30))
        cap = 1u << 30;
    for (;;) {
        int rc;
        if (s->z.avail_in == 0 && !s->eof && !s->gz_pending) {
            long n;
            s->raw_len = 0;
            n = fill(s, status);
            if (n < 0)
                return -1;
            if (n == 0)
                s->eof = 1;
            s->z.next_in = s->raw;
            s->z.avail_in = (uInt)s->raw_len;
        }
        if (s->gz_done_member) {
            /* Between members: another one, or the end.  Zero bytes after
             * the last member are padding (tape blocks), which gzip(1)
             * also accepts. */
            while (s->z.avail_in && *s->z.next_in == 0)
                s->z.next_in++, s->z.avail_in--, s->gz_padding = 1;
            if (s->z.avail_in == 0 && s->eof)
                return 0;
            if (s->z.avail_in == 0)
                continue;
            if (s->gz_padding) {
                cli_error("%s: not a valid gzip stream: bytes after the "
                          "zero padding that ends it",
                          shown(s));
                *status = EXIT_FAILED;
                return -1;
            }
            inflateReset(&s->z);
            s->gz_done_member = 0;
        }
        if (s->z.avail_in == 0 && s->eof && !s->gz_pending) {
            cli_error("%s: the gzip stream ends early", shown(s));
            *status = EXIT_FAILED;
            return -1;
        }
        s->z.next_out = (Bytef *)buf;
        s->z.avail_out = (uInt)cap;
        rc = inflate(&s->z, Z_NO_FLUSH);
        s->gz_pending = s->z.avail_out == 0;
        if (rc == Z_STREAM_END)
            s->gz_done_member = 1;
        else if (rc == Z_BUF_ERROR && s->z.avail_in == 0)
            s->gz_pending = 0; /* wants more input */
        else if (rc != Z_OK) {
            cli_error("%s: not a valid gzip stream: %s", shown(s),
                      s->z.msg ? s->z.msg : "inflate failed");
            *status = EXIT_FAILED;
            return -1;
        }
        if (cap - s->z.avail_out > 0)
            return (long)(cap - s->z.avail_out);
    }
}

long cli_source_read(cli_source *s, char *buf, size_t cap, int *status)
{
    if (!s->started)
        return first_read(s, buf, cap, status);
    if (s->gzip)
        return read_gzip(s, buf, cap, status);
    if (cap > (1u << 30))
        cap = 1u << 30;
    return read_file(s, buf, cap, status);
}

/* The file this thread reads through a mapping, for on_sigbus. */
static __thread const char *mapped_name;

void cli_reading(const char *name)
{
    mapped_name = name;
}

/* A page of a mapped file that cannot be read (the file was cut short
 * under the run, or the disk failed) raises SIGBUS on the thread that
 * touched it: the run ends with a message naming the file, as a read
 * error would, and not with the signal. */
static void on_sigbus(int sig)
{
    static const char head[] = "wirejson: ",
                      tail[] = ": the file was cut short (or a read "
                               "failed) while it was being read\n";
    const char *name = mapped_name ? mapped_name : "an input file";
    ssize_t ignored;
    (void)sig;
    ignored = write(2, head, sizeof head - 1);
    ignored = write(2, name, strlen(name));
    ignored = write(2, tail, sizeof tail - 1);
    (void)ignored;
    _exit(EXIT_USAGE);
}

char *cli_source_map(cli_source *s)
{
    static int handled;
    char *p;
    if (strcmp(s->name, "-") == 0 || !s->size || s->started ||
        s->size > SIZE_MAX / 2)
        return NULL;
    p = mmap(NULL, (size_t)s->size, PROT_READ | PROT_WRITE, MAP_PRIVATE,
             s->fd, 0);
    if (p == MAP_FAILED)
        return NULL; /* no room for it: read it */
    if (s->size >= 2 && (unsigned char)p[0] == 0x1f &&
        (unsigned char)p[1] == 0x8b) {
        munmap(p, (size_t)s->size);
        return NULL; /* gzip: inflated as it is read */
    }
    if (!handled) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigbus;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
        handled = 1;
    }
    posix_madvise(p, (size_t)s->size, POSIX_MADV_SEQUENTIAL);
    s->started = 1;
    return p;
}

uint64_t cli_source_left(const cli_source *s)
{
    if (!s->size || s->gzip)
        return UINT64_MAX;
    return s->size > s->offset ? s->size - s->offset : 0;
}

int cli_source_ready(cli_source *s)
{
    struct pollfd pfd;
    if (!s->started || s->eof)
        return 1;
    if (s->gzip && (s->z.avail_in > 0 || s->gz_pending))
        return 1;
    pfd.fd = s->fd;
    pfd.events = POLLIN;
    pfd.revents = 0;
    return poll(&pfd, 1, 0) != 0;
}

void cli_source_close(cli_source *s)
{
    if (s->gzip)
        inflateEnd(&s->z);
    if (s->fd > 0)
        close(s->fd);
    free(s->raw);
    s->raw = NULL;
    s->fd = -1;
}
