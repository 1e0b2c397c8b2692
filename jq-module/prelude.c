/* SPDX-License-Identifier: MIT */
/*
 * prelude.c - the wirejson definitions as the start of ~/.jq, and compile
 * errors mended to read as for the user's own ~/.jq.
 *
 * The definitions go after the leading `module` directive and
 * `import`/`include` directives of the user's ~/.jq, if it has any (jq
 * wants those first), found with a small scanner that knows just enough of
 * jq's lexer (blanks, `#` comments, strings with `\(...)` interpolation,
 * brackets) to step over them, each ending with a `;` outside any string or
 * bracket.  When a directive does not end, nothing is added: jq rejects
 * that ~/.jq anyway, with its own messages.  (jq 1.6 aborts on a ~/.jq
 * with directives; wirejq does the same, as it is the same libjq.)
 *
 * Only the read that libjq makes of $HOME/.jq while wirejq_compile runs is
 * changed; every other call of jv_load_file (modules, data files, -f,
 * --slurpfile, modulemeta) is libjq's own.
 */
#define _GNU_SOURCE
#include "prelude.h"

#include <dlfcn.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge.h"
#include "module_text.h"

extern char **environ;

/* How wirejson.jq spells the token variable before it gets its name. */
#define TOKEN_PLACEHOLDER "$__wirejson_call"

/* The ~/.jq that libjq was given: the user's text with the definitions
 * at `at`. */
typedef struct spliced {
    jv text;           /* as given to libjq; invalid when not (yet) read */
    size_t at;         /* offset of the definitions (same in the user's) */
    size_t added;      /* their length; 0 when nothing was spliced */
    unsigned line;     /* 1-based line holding them */
    size_t line_start; /* offset of that line in text */
    size_t line_len;   /* its length in text, without the newline */
} spliced;

/* What wirejq_compile arranges for the read of ~/.jq. */
static struct home_hook {
    int active;         /* inside wirejq_compile */
    char *path;         /* $HOME "/.jq", as libjq's builtins_bind builds it */
    int with_user_file; /* 0 when HOME is unset: jq reads no ~/.jq then */
    spliced home_jq;
} hook;

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

/* The definitions with the token variable's real name; built once. */
static const char *definitions(void)
{
    static char *defs;
    const char *name, *p, *hit;
    size_t n = 0, name_len;
    char *out;
    if (defs != NULL)
        return defs;
    name = wirejq_token_name();
    name_len = strlen(name);
    for (p = wirejq_module_text; (hit = strstr(p, TOKEN_PLACEHOLDER)) != NULL;
         p = hit + 1)
        n++;
    defs = malloc(strlen(wirejq_module_text) +
                  n * (name_len + 1 - (sizeof(TOKEN_PLACEHOLDER) - 1)) + 1);
    if (defs == NULL)
        return NULL;
    out = defs;
    for (p = wirejq_module_text; (hit = strstr(p, TOKEN_PLACEHOLDER)) != NULL;
         p = hit + sizeof(TOKEN_PLACEHOLDER) - 1) {
        memcpy(out, p, (size_t)(hit - p));
        out += hit - p;
        *out++ = '$';
        memcpy(out, name, name_len);
        out += name_len;
    }
    strcpy(out, p);
    return defs;
}

/*
 * user (consumed, a string) with the definitions spliced in, recorded in
 * *out for mending messages.  libjq reads ~/.jq as a C string, so the
 * scanner and the splice stop where it stops, at a NUL.
 */
static jv splice(jv user, const char *defs, spliced *out)
{
    const char *source = jv_string_value(user);
    size_t len = strlen(source);
    size_t i;
    int ok;
    jv text;
    memset(out, 0, sizeof(*out));
    out->at = splice_point(source, &ok);
    out->added = ok ? strlen(defs) : 0;
    text = jv_string_sized(source, (int)out->at);
    text = jv_string_append_buf(text, defs, (int)out->added);
    text = jv_string_append_buf(text, source + out->at, (int)(len - out->at));
    jv_free(user);

    source = jv_string_value(text);
    out->line = 1;
    for (i = 0; i < out->at; i++) {
        if (source[i] == '\n') {
            out->line++;
            out->line_start = i + 1;
        }
    }
    for (i = out->at + out->added; source[i] != '\0' && source[i] != '\n'; i++)
        ;
    out->line_len = i - out->line_start;
    out->text = jv_copy(text);
    return text;
}

typedef jv (*load_file_fn)(const char *, int);

/* libjq's own jv_load_file, the one this file's definition stands in for. */
static load_file_fn libjq_load_file(void)
{
    static load_file_fn real;
    if (real == NULL) {
        void *sym = dlsym(RTLD_NEXT, "jv_load_file");
        if (sym == NULL) {
            fprintf(stderr, "wirejq: error: libjq's jv_load_file not found\n");
            exit(2);
        }
        memcpy(&real, &sym, sizeof(real));
    }
    return real;
}

/*
 * jv_load_file as libjq has it, except for the read of $HOME/.jq during
 * wirejq_compile: that gives the wirejson definitions, then the user's
 * ~/.jq if it could be read (jq ignores one that cannot be).
 */
__attribute__((visibility("default"))) jv jv_load_file(const char *name,
                                                       int raw)
{
    jv user;
    const char *defs;
    if (!hook.active || !raw || hook.path == NULL ||
        strcmp(name, hook.path) != 0 || jv_is_valid(hook.home_jq.text))
        return libjq_load_file()(name, raw);
    defs = definitions();
    if (defs == NULL)
        return jv_invalid_with_msg(jv_string("out of memory"));
    user = hook.with_user_file ? libjq_load_file()(name, 1) : jv_invalid();
    if (jv_get_kind(user) != JV_KIND_STRING) {
        jv_free(user);
        user = jv_string("");
    }
    return splice(user, defs, &hook.home_jq);
}

/*
 * The line number that a libjq location message names in ~/.jq (which
 * libjq calls "<builtin>"): its first line ends " at <builtin>, line N:".
 * 0 if none.
 */
static unsigned home_jq_line(const char *m, size_t head_len)
{
    static const char marker[] = " at <builtin>, line ";
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
 * msg as it reads for the user's ~/.jq: a location message shows the line,
 * then one space per column up to the fault; on the spliced line both lose
 * the definitions.
 */
static jv mend_message(const spliced *p, jv msg)
{
    const char *m;
    const char *nl;
    const char *tail;
    const char *text;
    size_t len, head_len, tail_len, pad, col, k;
    jv fixed;
    if (p->added == 0 || jv_get_kind(msg) != JV_KIND_STRING)
        return msg;
    text = jv_string_value(p->text);
    m = jv_string_value(msg);
    len = (size_t)jv_string_length_bytes(jv_copy(msg));
    for (nl = m + len; nl > m && nl[-1] != '\n'; nl--)
        ;
    if (nl == m)
        return msg;
    head_len = (size_t)(nl - 1 - m);
    if (home_jq_line(m, head_len) != p->line)
        return msg;
    tail = nl;
    tail_len = len - (size_t)(nl - m);
    if (tail_len < p->line_len ||
        memcmp(tail, text + p->line_start, p->line_len) != 0)
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
    fixed = jv_string_append_buf(fixed, text + p->line_start, (int)col);
    fixed = jv_string_append_buf(fixed, text + p->at + p->added,
                                 (int)(p->line_len - col - p->added));
    for (k = 0; k < pad; k++)
        fixed = jv_string_append_buf(fixed, " ", 1);
    jv_free(msg);
    return fixed;
}

typedef struct compile_ctx {
    wirejq_report_fn report;
    void *data;
} compile_ctx;

static void on_compile_error(void *data, jv msg)
{
    compile_ctx *ctx = data;
    if (jv_is_valid(hook.home_jq.text))
        msg = mend_message(&hook.home_jq, msg);
    ctx->report(ctx->data, msg);
}

/*
 * With HOME unset, jq 1.6 reads no ~/.jq, so for libjq to read the
 * definitions HOME must be set while it compiles: environ becomes
 * "HOME=dir", the real entries, then "HOME".  getenv takes the first
 * HOME, and $ENV, which libjq builds from environ in order, deletes HOME
 * again at the entry without '=', as jq's $ENV lacks it.  dir is the home
 * directory that jq would put for "~" in search paths then (the password
 * database's).  Returns the array to free after restoring environ, or
 * NULL.
 */
static char **environ_with_home(char **saved, char **entry)
{
    struct passwd *pw = getpwuid(getuid());
    const char *dir = pw != NULL && pw->pw_dir != NULL ? pw->pw_dir : "";
    size_t n = 0, k;
    char **env;
    while (saved != NULL && saved[n] != NULL)
        n++;
    env = malloc((n + 3) * sizeof(*env));
    *entry = malloc(strlen(dir) + sizeof("HOME="));
    if (env == NULL || *entry == NULL) {
        free(env);
        free(*entry);
        *entry = NULL;
        return NULL;
    }
    strcpy(*entry, "HOME=");
    strcat(*entry, dir);
    env[0] = *entry;
    for (k = 0; k < n; k++)
        env[k + 1] = saved[k];
    env[n + 1] = (char *)"HOME";
    env[n + 2] = NULL;
    return env;
}

int wirejq_compile(jq_state *jq, const char *source, jv args,
                   wirejq_report_fn report, void *data)
{
    compile_ctx ctx;
    jq_msg_cb saved_cb;
    void *saved_data;
    char **saved_environ = environ, **env = NULL, *home_entry = NULL;
    const char *home = getenv("HOME");
    int compiled;

    if (definitions() == NULL) {
        jv_free(args);
        report(data, jv_string("jq: error: out of memory"));
        return 0;
    }
    if (home == NULL) {
        env = environ_with_home(saved_environ, &home_entry);
        if (env == NULL) {
            jv_free(args);
            report(data, jv_string("jq: error: out of memory"));
            return 0;
        }
        home = home_entry + sizeof("HOME=") - 1;
    }
    hook.path = malloc(strlen(home) + sizeof("/.jq"));
    if (hook.path == NULL) {
        free(env);
        free(home_entry);
        jv_free(args);
        report(data, jv_string("jq: error: out of memory"));
        return 0;
    }
    strcpy(hook.path, home);
    strcat(hook.path, "/.jq");
    hook.with_user_file = env == NULL;
    hook.home_jq.text = jv_invalid();
    hook.active = 1;
    if (env != NULL)
        environ = env;

    args = jv_object_set(args, jv_string(wirejq_token_name()), wirejq_token());
    ctx.report = report;
    ctx.data = data;
    jq_get_error_cb(jq, &saved_cb, &saved_data);
    jq_set_error_cb(jq, on_compile_error, &ctx);
    compiled = jq_compile_args(jq, source, args);
    jq_set_error_cb(jq, saved_cb, saved_data);

    environ = saved_environ;
    hook.active = 0;
    jv_free(hook.home_jq.text);
    hook.home_jq.text = jv_invalid();
    free(hook.path);
    hook.path = NULL;
    free(env);
    free(home_entry);
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
