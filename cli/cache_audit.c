/* SPDX-License-Identifier: MIT */
/*
 * wirejson cache-audit: the prompt-cache audit of docs/contract.md §16 over
 * JSON Lines logs.
 *
 *     wirejson cache-audit [--member NAME] [--time-member NAME --ttl SECONDS]
 *                          [-j N] [--progress|--no-progress] FILE...
 *
 * The -j threads of the block machinery (run.c) turn each line into its
 * prefix digests in the three modes and its elements' sent sizes
 * (wj_prompt_prefix); the writing thread applies them in input order to one
 * table a mode, digest -> the most recent request that produced it (its
 * file, line and time), so the output is the same for any -j and memory
 * grows with the distinct prefixes, not with the log.  The summary object
 * is written on stdout at the end, compact, keys in the contract's order;
 * invalid lines are named on stderr (the first 100) and never fatal.
 *
 * Times (--time-member) are held exactly as signed 128-bit counts of
 * 1e-18 s: digits past the 18th after the point are dropped, and a time
 * beyond 1e19 s from the epoch makes the line invalid.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "member.h"

#define MAX_NAMED 100 /* invalid lines named on stderr */
#define MAX_EXAMPLES 20
#define N_MODES WJ_PROMPT_MODES

__extension__ typedef __int128 attos; /* a time or a duration in units of 1e-18 s */

#define ATTOS_PER_S ((attos)1000000000000000000LL)
#define ATTOS_LIMIT (ATTOS_PER_S * 10000000000000000000ULL) /* 1e19 s */

static const char *const mode_names[N_MODES] = {"sent", "canonical",
                                                "tools_set"};

/* ------------------------------------------------------------------ times */

/*
 * The decimal number s[0..n) (an optional sign, digits with an optional
 * point, an optional exponent: JSON's numbers and a little more) in *out:
 * 0, -1 when it is no such number, -2 when it is 1e19 s or more.
 */
static int parse_decimal(const char *s, size_t n, attos *out)
{
    size_t i = 0, d0, d1, p = SIZE_MAX, digits = 0, k;
    long exp = 0, frac_digits = 0, shift;
    int neg = 0, lead = 1;
    attos v = 0;

    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    d0 = i;
    for (; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++) {
        if (s[i] == '.') {
            if (p != SIZE_MAX)
                return -1;
            p = i;
        } else
            digits++;
    }
    d1 = i;
    if (!digits)
        return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0, any = 0;
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            eneg = s[i++] == '-';
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, any = 1)
            if (exp < 100000)
                exp = exp * 10 + (s[i] - '0');
        if (!any)
            return -1;
        if (eneg)
            exp = -exp;
    }
    if (i != n)
        return -1;
    if (p != SIZE_MAX)
        frac_digits = (long)(d1 - p - 1);
    /* value = D * 10^(exp - frac_digits), D the digits without the point;
     * in units of 1e-18 s, D * 10^shift. */
    shift = exp - frac_digits + 18;
    /* significant digits of D, and how many of them to keep */
    {
        size_t sig = 0;
        long keep;
        for (k = d0; k < d1; k++)
            if (s[k] != '.' && (s[k] != '0' || !lead))
                lead = 0, sig++;
        keep = shift < 0 ? (long)sig + shift : (long)sig;
        if (keep > 0 && keep + (shift > 0 ? shift : 0) > 37)
            return -2;
        lead = 1;
        for (k = d0; k < d1 && keep > 0; k++) {
            if (s[k] == '.' || (s[k] == '0' && lead))
                continue;
            lead = 0;
            v = v * 10 + (s[k] - '0');
            keep--;
        }
        for (; shift > 0; shift--)
            v *= 10;
    }
    if (v >= ATTOS_LIMIT)
        return -2;
    *out = neg ? -v : v;
    return 0;
}

static int two(const char *s)
{
    if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
        return -1;
    return (s[0] - '0') * 10 + (s[1] - '0');
}

static long long days_from_civil(long long y, int m, int d)
{
    long long era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* RFC 3339 date-time text s[0..n) (YYYY-MM-DD, T, t or a space,
 * hh:mm:ss, an optional fraction, Z, z or +hh:mm / -hh:mm) in *out; a
 * second 60 is the next minute's 00.  0, or -1 when it is no such time. */
static int parse_rfc3339(const char *s, size_t n, attos *out)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
    int y, mo, d, h, mi, sec, leap, k;
    size_t i = 19;
    attos t, frac = 0;

    if (n < 20 || s[4] != '-' || s[7] != '-' || s[13] != ':' ||
        s[16] != ':' || (s[10] != 'T' && s[10] != 't' && s[10] != ' '))
        return -1;
    if (two(s) < 0 || two(s + 2) < 0)
        return -1;
    y = two(s) * 100 + two(s + 2);
    mo = two(s + 5), d = two(s + 8), h = two(s + 11), mi = two(s + 14),
    sec = two(s + 17);
    if (mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
        sec < 0 || sec > 60)
        return -1;
    leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    if (d > mdays[mo - 1] + (mo == 2 && leap))
        return -1;
    if (s[i] == '.') {
        attos unit = ATTOS_PER_S;
        i++;
        if (i >= n || s[i] < '0' || s[i] > '9')
            return -1;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            unit /= 10; /* digits past the 18th add nothing */
            frac += unit * (s[i] - '0');
        }
    }
    t = (attos)(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) *
            ATTOS_PER_S + frac;
    if (i + 1 == n && (s[i] == 'Z' || s[i] == 'z')) {
        *out = t;
        return 0;
    }
    if (i + 6 != n || (s[i] != '+' && s[i] != '-') || s[i + 3] != ':')
        return -1;
    h = two(s + i + 1), k = two(s + i + 4);
    if (h < 0 || h > 23 || k < 0 || k > 59)
        return -1;
    t -= (s[i] == '+' ? 1 : -1) * (attos)(h * 3600 + k * 60) * ATTOS_PER_S;
    *out = t;
    return 0;
}

/* ------------------------------------------------------------- the work */

typedef struct job {
    const cli_options *o;
    int timed;
    attos ttl;
} job;

/* What a worker makes of a line, in the block's out: a tag, then for 'k'
 * the time (when timed), the element count n (4 bytes), n sent sizes (8
 * bytes each) and n digests of 32 bytes a mode; for 'e' the message's
 * length (4 bytes) and the message. */
enum { TAG_BLANK = 'b', TAG_BODY = 'k', TAG_ERROR = 'e' };

typedef struct scratch {
    wk_buf wrap, body, text, time;
} scratch;

static char *error_text(const wj_error *err, const char *prefix)
{
    char small[256];
    wj_error_format(err, NULL, small, sizeof small);
    return wk_message("%s%s", prefix, small);
}

/* The member name of the line into out (its bytes), or a message. */
static char *line_member(const char *line, size_t len, const char *name,
                         const char *what, scratch *s, wk_buf *out)
{
    wj_error err = WJ_ERROR_INIT;
    int st = wk_member_text(line, len, name, &s->wrap, out, &err);
    if (st < 0)
        return err.code == WJ_ERR_DEPTH
                   ? wk_message("the line is nested too deep to take its %s "
                                "\"%s\"", what, name)
                   : error_text(&err, "");
    if (st == 0)
        return wk_message("no %s \"%s\" (or it is null, or the line is not "
                          "a JSON object)", what, name);
    return NULL;
}

/* The body's prefixes (and time) of one line (no terminator) into *pp, or a
 * message (malloc'd) saying why the line is invalid. */
static char *audit_line(const job *j, const char *line, size_t len,
                        const wj_alloc *mem, wj_prompt_prefixes *pp,
                        attos *time, scratch *s)
{
    const char *body = line, *member = j->o->member;
    size_t blen = len;
    wj_error err = WJ_ERROR_INIT;
    char *msg;
    char prefix[64];

    prefix[0] = 0;
    if (member || j->timed) {
        if (wj_validate(line, len, mem, &err) != WJ_OK)
            return error_text(&err, "");
    }
    if (member) {
        if ((msg = line_member(line, len, member, "member", s, &s->body)))
            return msg;
        body = s->body.ptr ? s->body.ptr : "";
        blen = s->body.len;
        if (blen && body[0] == '"') {
            if (wk_string_bytes(&s->text, body, blen))
                return strdup("out of memory");
            body = s->text.ptr ? s->text.ptr : "";
            blen = s->text.len;
            snprintf(prefix, sizeof prefix, "member \"%.40s\": ", member);
        }
    }
    if (j->timed) {
        const char *tm = j->o->time_member;
        int st;
        if ((msg = line_member(line, len, tm, "time member", s, &s->time)))
            return msg;
        if (s->time.len && s->time.ptr[0] == '"') {
            if (wk_string_bytes(&s->wrap, s->time.ptr, s->time.len))
                return strdup("out of memory");
            st = parse_rfc3339(s->wrap.ptr ? s->wrap.ptr : "", s->wrap.len,
                               time);
        } else
            st = parse_decimal(s->time.ptr, s->time.len, time);
        if (st == -2)
            return wk_message("time member \"%s\" is out of range (1e19 s)%s",
                              tm, "");
        if (st)
            return wk_message("time member \"%s\" is not a number or RFC 3339 "
                              "text%s", tm, "");
    }
    if (wj_prompt_prefix(body, blen, WJ_PROMPT_ALL, mem, pp, &err) != WJ_OK)
        return error_text(&err, prefix);
    return NULL;
}

static void work(void *ctx, cli_block *b, wk_arena *arena)
{
    const job *j = ctx;
    scratch s;
    size_t r, start, end;
    wj_alloc mem = wk_arena_alloc(arena);

    memset(&s, 0, sizeof s);
    b->out.len = 0;
    for (r = 0; cli_block_record(b, r, &start, &end); r++) {
        size_t len = end - start;
        const char *line = b->in.ptr + start;
        wj_prompt_prefixes pp;
        attos time = 0;
        char tag;
        char *msg;
        if (len && line[len - 1] == '\n')
            len--;
        if (wk_line_is_blank(line, len)) {
            tag = TAG_BLANK;
            if (wk_buf_append(&b->out, &tag, 1))
                goto nomem;
            continue;
        }
        wk_arena_reset(arena);
        memset(&pp, 0, sizeof pp);
        msg = audit_line(j, line, len, &mem, &pp, &time, &s);
        if (!msg) {
            uint32_t n = (uint32_t)pp.n;
            size_t k;
            int m, bad = 0;
            tag = TAG_BODY;
            bad |= wk_buf_append(&b->out, &tag, 1);
            if (j->timed)
                bad |= wk_buf_append(&b->out, &time, sizeof time);
            bad |= wk_buf_append(&b->out, &n, 4);
            for (k = 0; k < pp.n; k++) {
                uint64_t size = pp.sent_bytes[k];
                bad |= wk_buf_append(&b->out, &size, 8);
            }
            for (m = 0; m < N_MODES; m++)
                bad |= wk_buf_append(&b->out, pp.digests[m], 32 * pp.n);
            wj_prompt_prefix_free(&mem, &pp);
            if (bad)
                goto nomem;
        } else {
            uint32_t ml = (uint32_t)strlen(msg);
            tag = TAG_ERROR;
            if (wk_buf_append(&b->out, &tag, 1) ||
                wk_buf_append(&b->out, &ml, 4) ||
                wk_buf_append(&b->out, msg, ml)) {
                free(msg);
                goto nomem;
            }
            free(msg);
        }
    }
    goto out;
nomem:
    b->out.len = 0;
    b->fail_at = 0;
out:
    wk_buf_free(&s.wrap);
    wk_buf_free(&s.body);
    wk_buf_free(&s.text);
    wk_buf_free(&s.time);
}

/* ------------------------------------------------------ the tables */

/* The most recent request that produced a prefix digest. */
typedef struct entry {
    unsigned char key[32];
    attos time;
    uint64_t line;
    uint32_t file;
} entry;


/* ------------------------------------------------------- applying lines */

typedef struct example {
    uint32_t file, earlier_file;
    uint64_t line, earlier_line;
    int member_order;
    uint64_t len[N_MODES];
} example;

typedef struct audit {
    job j;
    const char **files;
    wk_digest_table t[N_MODES];
    uint64_t requests, invalid;
    uint64_t elements[1 + N_MODES], bytes[1 + N_MODES]; /* total, modes */
    uint64_t member_order, tool_order;
    example ex[MAX_EXAMPLES];
    size_t n_ex;
    entry **hits; /* a request's entries found, a mode after another */
    size_t hits_cap;
} audit;

/* One valid request: its prefixes against the tables, then into them. */
static int apply(audit *a, uint32_t file, uint64_t line, attos time,
                 uint32_t n, const unsigned char *sizes,
                 const unsigned char *digests)
{
    uint64_t len[N_MODES], size, sum = 0, at_len[N_MODES];
    const entry *last[N_MODES];
    uint32_t last_file[N_MODES];
    uint64_t last_line[N_MODES];
    uint32_t k;
    int m;

    if ((size_t)N_MODES * n > a->hits_cap) {
        entry **h = realloc(a->hits, (size_t)N_MODES * n * sizeof *h);
        if (!h)
            return -1;
        a->hits = h;
        a->hits_cap = (size_t)N_MODES * n;
    }
    for (m = 0; m < N_MODES; m++) {
        const unsigned char *d = digests + (size_t)m * 32 * n;
        entry **hits = a->hits + (size_t)m * n;
        len[m] = 0;
        last[m] = NULL;
        for (k = 0; k < n; k++) {
            entry *e = wk_digest_table_find(&a->t[m], d + 32 * (size_t)k);
            hits[k] = e;
            if (!e)
                break;
            if (a->j.timed && !(e->time <= time && time - e->time <= a->j.ttl))
                break;
            last[m] = e;
            len[m]++;
        }
        last_file[m] = last[m] ? last[m]->file : 0;
        last_line[m] = last[m] ? last[m]->line : 0;
        at_len[m] = 0;
    }
    for (k = 0; k < n; k++) {
        memcpy(&size, sizes + 8 * (size_t)k, 8);
        sum += size;
        for (m = 0; m < N_MODES; m++)
            if (k < len[m])
                at_len[m] += size;
    }
    a->elements[0] += n;
    a->bytes[0] += sum;
    for (m = 0; m < N_MODES; m++) {
        a->elements[1 + m] += len[m];
        a->bytes[1 + m] += at_len[m];
    }
    {
        int tool = len[WJ_PROMPT_TOOLS_SET] > len[WJ_PROMPT_CANONICAL];
        int member = len[WJ_PROMPT_CANONICAL] > len[WJ_PROMPT_SENT];
        a->tool_order += (uint64_t)(tool != 0);
        a->member_order += (uint64_t)(member != 0);
        if ((tool || member) && a->n_ex < MAX_EXAMPLES) {
            example *x = &a->ex[a->n_ex++];
            int cm = member ? WJ_PROMPT_CANONICAL : WJ_PROMPT_TOOLS_SET;
            x->file = file;
            x->line = line;
            x->member_order = member;
            memcpy(x->len, len, sizeof len);
            x->earlier_file = last_file[cm];
            x->earlier_line = last_line[cm];
        }
    }
    /* then this request is the most recent producer of each of its
     * digests; the ones found above need no second look-up */
    for (m = 0; m < N_MODES; m++) {
        const unsigned char *d = digests + (size_t)m * 32 * n;
        entry **hits = a->hits + (size_t)m * n;
        for (k = 0; k < n; k++) {
            int fresh;
            entry *e = k <= len[m] && hits[k]
                           ? hits[k]
                           : wk_digest_table_put(&a->t[m], d + 32 * (size_t)k,
                                              &fresh);
            if (!e)
                return -1;
            e->file = file;
            e->line = line;
            e->time = time;
        }
    }
    return 0;
}

static int consume(void *ctx, cli_block *b)
{
    audit *a = ctx;
    const unsigned char *o = (const unsigned char *)b->out.ptr;
    size_t i, pos = 0;

    if (b->fail_at != SIZE_MAX) {
        cli_error("cache-audit: out of memory");
        return EXIT_USAGE;
    }
    for (i = 0; i < b->n_rec; i++) {
        unsigned char tag = o[pos++];
        uint64_t line = b->first_line + i;
        uint32_t n, ml;
        attos time = 0;
        if (tag == TAG_BLANK)
            continue;
        a->requests++;
        if (tag == TAG_ERROR) {
            memcpy(&ml, o + pos, 4);
            pos += 4;
            if (a->invalid++ < MAX_NAMED)
                cli_error("%s:%" PRIu64 ": %.*s", b->file, line, (int)ml,
                          (const char *)o + pos);
            pos += ml;
            continue;
        }
        if (a->j.timed) {
            memcpy(&time, o + pos, sizeof time);
            pos += sizeof time;
        }
        memcpy(&n, o + pos, 4);
        pos += 4;
        if (apply(a, (uint32_t)b->file_index, line, time, n, o + pos,
                  o + pos + 8 * (size_t)n)) {
            cli_error("cache-audit: out of memory");
            return EXIT_USAGE;
        }
        pos += 8 * (size_t)n + (size_t)N_MODES * 32 * n;
    }
    return 0;
}

/* ------------------------------------------------------------ the output */

static int put(wk_buf *b, const char *s)
{
    return wk_buf_append(b, s, strlen(s));
}

static int put_count(wk_buf *b, const char *name, uint64_t v, int comma)
{
    char num[64];
    snprintf(num, sizeof num, "%s\"%s\":%" PRIu64, comma ? "," : "", name, v);
    return put(b, num);
}

static int put_file(wk_buf *b, const char *name)
{
    char *q = NULL;
    size_t qlen = 0;
    int st;
    if (wj_quote_text(name, strlen(name), NULL, &q, &qlen, NULL) != WJ_OK)
        return -1; /* names were checked before the run */
    st = wk_buf_append(b, q, qlen);
    wj_free(NULL, q);
    return st;
}

static int put_counts(wk_buf *b, const char *name, const uint64_t *v)
{
    int m, bad = put(b, ",\"") || put(b, name) || put(b, "\":{") ||
                 put_count(b, "total", v[0], 0);
    for (m = 0; m < N_MODES; m++)
        bad |= put_count(b, mode_names[m], v[1 + m], 1);
    return bad || put(b, "}");
}

/* The summary object of §16, compact, keys in its order, and a newline. */
static int summary(const audit *a, wk_buf *b)
{
    size_t k;
    int m, bad = put(b, "{") || put_count(b, "requests", a->requests, 0) ||
                 put_count(b, "invalid", a->invalid, 1) ||
                 put_counts(b, "elements", a->elements) ||
                 put_counts(b, "bytes", a->bytes) ||
                 put(b, ",\"lost\":{") ||
                 put_count(b, "member_order", a->member_order, 0) ||
                 put_count(b, "tool_order", a->tool_order, 1) ||
                 put(b, "},\"examples\":[");
    for (k = 0; k < a->n_ex && !bad; k++) {
        const example *x = &a->ex[k];
        bad |= put(b, k ? ",{\"file\":" : "{\"file\":") ||
               put_file(b, a->files[x->file]) ||
               put_count(b, "line", x->line, 1) ||
               put(b, x->member_order ? ",\"cause\":\"member_order\""
                                      : ",\"cause\":\"tool_order\"");
        for (m = 0; m < N_MODES; m++)
            bad |= put_count(b, mode_names[m], x->len[m], 1);
        bad |= put(b, ",\"earlier\":{\"file\":") ||
               put_file(b, a->files[x->earlier_file]) ||
               put_count(b, "line", x->earlier_line, 1) || put(b, "}}");
    }
    return bad || put(b, "]}\n");
}

/* ------------------------------------------------------------- the run */

static int setup_error(const char *fmt, const char *what)
{
    fputs("wirejson: cache-audit: ", stderr);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

int cli_run_cache_audit(const cli_options *o)
{
    static const char *stdin_only[] = {"-"};
    audit *a;
    cli_options ro = *o;
    cli_block_hooks hooks;
    wk_buf out = {0};
    size_t k;
    int st, m;

    if (!o->time_member != !o->ttl)
        return setup_error("%s", o->ttl ? "--ttl needs --time-member"
                                        : "--time-member needs --ttl");
    if (!o->n_files) {
        ro.files = stdin_only;
        ro.n_files = 1;
    }
    for (k = 0; k < ro.n_files; k++) {
        struct stat sb;
        char *q = NULL;
        size_t qlen;
        if (wj_quote_text(ro.files[k], strlen(ro.files[k]), NULL, &q, &qlen,
                          NULL) != WJ_OK)
            return setup_error("file name '%s' is not UTF-8", ro.files[k]);
        wj_free(NULL, q);
        if (strcmp(ro.files[k], "-") == 0)
            continue;
        if (stat(ro.files[k], &sb)) {
            fprintf(stderr, "wirejson: cache-audit: %s: %s\n", ro.files[k],
                    strerror(errno));
            return EXIT_USAGE;
        }
        if (S_ISDIR(sb.st_mode))
            return setup_error("%s: is a directory", ro.files[k]);
    }
    if (!(a = calloc(1, sizeof *a)))
        return setup_error("%s", "out of memory");
    for (m = 0; m < N_MODES; m++)
        wk_digest_table_init(&a->t[m], sizeof(entry));
    a->j.o = o;
    a->files = ro.files;
    if (o->ttl) {
        a->j.timed = 1;
        st = parse_decimal(o->ttl, strlen(o->ttl), &a->j.ttl);
        if (st || a->j.ttl < 0) {
            free(a);
            return setup_error(st == -2 ? "--ttl '%s' is too large"
                               : st     ? "--ttl '%s' is not a number of "
                                          "seconds"
                                        : "--ttl '%s' is negative",
                               o->ttl);
        }
    }
    ro.format = FORMAT_LINES;
    ro.chunk_header = 0;
    hooks.work = work;
    hooks.consume = consume;
    hooks.ctx = a;
    st = cli_run_blocks(&ro, &hooks);
    if (!st) {
        if (summary(a, &out)) {
            cli_error("cache-audit: out of memory");
            st = EXIT_USAGE;
        } else if (cli_write_all(1, out.ptr, out.len) && errno != EPIPE) {
            cli_error("cache-audit: standard output: %s", strerror(errno));
            st = EXIT_USAGE;
        }
    }
    wk_buf_free(&out);
    for (m = 0; m < N_MODES; m++)
        wk_digest_table_free(&a->t[m]);
    free(a->hits);
    free(a);
    return st;
}
