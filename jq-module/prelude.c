/*
 * prelude.c - splicing wirejson.jq into a program and mending its errors.
 *
 * The splice point is found with a small scanner that knows just enough of
 * jq's lexer (blanks, `#` comments, strings with `\(...)` interpolation,
 * brackets) to step over the program's leading directives, each of which
 * ends with a `;` outside any string or bracket.  When a directive does not
 * end, nothing is spliced: jq will reject the program before any builtin
 * matters, with its own messages.
 */
#include "prelude.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_text.h"

/* The program as compiled: the source with the definitions at `at`. */
typedef struct spliced {
    char *text;        /* NUL-terminated program handed to libjq */
    size_t at;         /* offset of the definitions (same in the source) */
    size_t added;      /* their length; 0 when nothing was spliced */
    unsigned line;     /* 1-based line holding them */
    size_t line_start; /* offset of that line in text */
    size_t line_len;   /* its length in text, without the newline */
} spliced;

/* Deepest bracket/string nesting the scanner follows inside a directive. */
#define MAX_NESTING 256

static int is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Skips what jq's lexer skips: spaces, tabs, newlines and comments. */
static size_t skip_blank(const char *s, size_t i)
{
    for (;;) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
            i++;
        } else if (s[i] == '#') {
            while (s[i] != '\0' && s[i] != '\n' && s[i] != '\r')
                i++;
        } else {
            return i;
        }
    }
}

/* Whether the keyword kw starts at s + i as a token of its own. */
static int at_keyword(const char *s, size_t i, const char *kw)
{
    size_t n = strlen(kw);
    if (strncmp(s + i, kw, n) != 0 || is_ident_char(s[i + n]))
        return 0;
    /* "import::x" is one identifier to jq's lexer */
    return !(s[i + n] == ':' && s[i + n + 1] == ':' &&
             is_ident_char(s[i + n + 2]) &&
             !(s[i + n + 2] >= '0' && s[i + n + 2] <= '9'));
}

/*
 * The offset just past the `;` that ends the directive whose body starts
 * at i, or 0 when the text ends (or nests too deep) before one.  The stack
 * holds the closer each open bracket expects, 'S' for an open string and
 * 'I' for an interpolation, which a ')' closes back into its string.
 */
static size_t skip_directive(const char *s, size_t i)
{
    char stack[MAX_NESTING];
    size_t depth = 0;
    for (;;) {
        char c = s[i];
        if (c == '\0')
            return 0;
        if (depth > 0 && stack[depth - 1] == 'S') {
            if (c == '"') {
                depth--;
            } else if (c == '\\') {
                if (s[i + 1] == '\0')
                    return 0;
                if (s[i + 1] == '(') {
                    if (depth == MAX_NESTING)
                        return 0;
                    stack[depth++] = 'I';
                }
                i++;
            }
            i++;
            continue;
        }
        switch (c) {
        case '#': i = skip_blank(s, i); continue;
        case '"':
        case '(':
        case '[':
        case '{':
            if (depth == MAX_NESTING)
                return 0;
            stack[depth++] = c == '"'   ? 'S'
                             : c == '(' ? ')'
                             : c == '[' ? ']'
                                        : '}';
            break;
        case ')':
        case ']':
        case '}': {
            char want;
            if (depth == 0)
                return 0;
            want = stack[depth - 1] == 'I' ? ')' : stack[depth - 1];
            if (c != want)
                return 0;
            depth--;
            break;
        }
        case ';':
            if (depth == 0)
                return i + 1;
            break;
        default: break;
        }
        i++;
    }
}

/*
 * Where the definitions go: after the leading `module` directive and
 * `import`/`include` directives, or at 0 when there are none.  Returns 0
 * (and sets *ok to 0) when a directive does not end.
 */
static size_t splice_point(const char *s, int *ok)
{
    size_t pos = 0;
    size_t j = skip_blank(s, 0);
    int first = 1;
    *ok = 1;
    for (;;) {
        size_t kw;
        size_t end;
        if (first && at_keyword(s, j, "module"))
            kw = 6;
        else if (at_keyword(s, j, "import"))
            kw = 6;
        else if (at_keyword(s, j, "include"))
            kw = 7;
        else
            return pos;
        end = skip_directive(s, j + kw);
        if (end == 0) {
            *ok = 0;
            return 0;
        }
        pos = end;
        j = skip_blank(s, end);
        first = 0;
    }
}

static int splice(const char *source, spliced *out)
{
    size_t len = strlen(source);
    size_t i;
    int ok;
    memset(out, 0, sizeof(*out));
    out->at = splice_point(source, &ok);
    out->added = ok ? strlen(wirejq_module_text) : 0;
    out->text = malloc(len + out->added + 1);
    if (out->text == NULL)
        return -1;
    memcpy(out->text, source, out->at);
    memcpy(out->text + out->at, wirejq_module_text, out->added);
    memcpy(out->text + out->at + out->added, source + out->at,
           len - out->at + 1);

    out->line = 1;
    for (i = 0; i < out->at; i++) {
        if (source[i] == '\n') {
            out->line++;
            out->line_start = i + 1;
        }
    }
    for (i = out->at; source[i] != '\0' && source[i] != '\n'; i++)
        ;
    out->line_len = i - out->line_start + out->added;
    return 0;
}

/*
 * The line number that a libjq location message names for the top-level
 * program: its first line ends " at <top-level>, line N:".  0 if none.
 */
static unsigned top_level_line(const char *m, size_t head_len)
{
    static const char marker[] = " at <top-level>, line ";
    size_t end = head_len;
    size_t digits;
    unsigned long n = 0;
    size_t k;
    if (end == 0 || m[end - 1] != ':')
        return 0;
    end--;
    for (digits = 0; digits < end && m[end - 1 - digits] >= '0' &&
                     m[end - 1 - digits] <= '9';
         digits++)
        ;
    if (digits == 0 || digits > 9 || end - digits < sizeof(marker) - 1)
        return 0;
    if (memcmp(m + end - digits - (sizeof(marker) - 1), marker,
               sizeof(marker) - 1) != 0)
        return 0;
    for (k = end - digits; k < end; k++)
        n = n * 10 + (unsigned long)(m[k] - '0');
    return (unsigned)n;
}

/*
 * msg as it reads for the source: a location message shows the program
 * line, then one space per column up to the fault; on the spliced line
 * both lose the definitions.
 */
static jv mend_message(const spliced *p, jv msg)
{
    const char *m;
    const char *nl;
    const char *tail;
    size_t len, head_len, tail_len, pad, col, k;
    jv fixed;
    if (p->added == 0 || jv_get_kind(msg) != JV_KIND_STRING)
        return msg;
    m = jv_string_value(msg);
    len = (size_t)jv_string_length_bytes(jv_copy(msg));
    for (nl = m + len; nl > m && nl[-1] != '\n'; nl--)
        ;
    if (nl == m)
        return msg;
    head_len = (size_t)(nl - 1 - m);
    if (top_level_line(m, head_len) != p->line)
        return msg;
    tail = nl;
    tail_len = len - (size_t)(nl - m);
    if (tail_len < p->line_len ||
        memcmp(tail, p->text + p->line_start, p->line_len) != 0)
        return msg;
    pad = tail_len - p->line_len;
    for (k = 0; k < pad; k++) {
        if (tail[p->line_len + k] != ' ')
            return msg;
    }
    col = p->at - p->line_start;
    if (pad >= col + p->added)
        pad -= p->added;
    else if (pad > col)
        pad = col;

    fixed = jv_string_sized(m, (int)(head_len + 1));
    fixed = jv_string_append_buf(fixed, p->text + p->line_start, (int)col);
    fixed = jv_string_append_buf(fixed, p->text + p->at + p->added,
                                 (int)(p->line_len - col - p->added));
    for (k = 0; k < pad; k++)
        fixed = jv_string_append_buf(fixed, " ", 1);
    jv_free(msg);
    return fixed;
}

typedef struct compile_ctx {
    const spliced *program;
    wirejq_report_fn report;
    void *data;
} compile_ctx;

static void on_compile_error(void *data, jv msg)
{
    compile_ctx *ctx = data;
    ctx->report(ctx->data, mend_message(ctx->program, msg));
}

int wirejq_compile(jq_state *jq, const char *source, jv args,
                   wirejq_report_fn report, void *data)
{
    spliced program;
    compile_ctx ctx;
    jq_msg_cb saved_cb;
    void *saved_data;
    int compiled;
    if (splice(source, &program) != 0) {
        jv_free(args);
        report(data, jv_string("jq: error: out of memory"));
        return 0;
    }
    ctx.program = &program;
    ctx.report = report;
    ctx.data = data;
    jq_get_error_cb(jq, &saved_cb, &saved_data);
    jq_set_error_cb(jq, on_compile_error, &ctx);
    compiled = jq_compile_args(jq, program.text, args);
    jq_set_error_cb(jq, saved_cb, saved_data);
    free(program.text);
    return compiled;
}

/* Prints a libjq message (consumed), naming wirejq where jq names itself. */
void wirejq_print_error(void *data, jv msg)
{
    const char *text;
    (void)data;
    msg = jq_format_error(msg);
    if (jv_get_kind(msg) != JV_KIND_STRING) {
        jv_free(msg);
        return;
    }
    text = jv_string_value(msg);
    if (strncmp(text, "jq: ", 4) == 0)
        fprintf(stderr, "wirejq: %s\n", text + 4);
    else
        fprintf(stderr, "%s\n", text);
    jv_free(msg);
}
