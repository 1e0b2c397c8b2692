/* SPDX-License-Identifier: MIT */
/*
 * functions_gen.c - the lists made from the table of functions
 * (wj_functions): the docs' function list, the man pages' lists, the
 * Python stub's functions, the PostgreSQL install script's functions and
 * tests/surface/functions.txt.  Files that are generated whole are written
 * whole; in the others only the lines between a BEGIN and an END marker
 * are replaced.
 *
 *   functions_gen SRC OUT   reads each file under SRC, writes it with its
 *                           generated part made again under OUT (OUT may be
 *                           SRC), and prints the files' paths
 *
 * The surface test writes them into the build folder and compares;
 * `cmake --build build --target regenerate-functions` writes them into the
 * tree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wirejson.h"

/* ------------------------------------------------------------ a buffer */

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static void put(buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* --------------------------------------------------------- the table */

static const wj_function *table;
static size_t n_table;

static int has_names(const wj_function *fn)
{
    return fn->n_params > 0 &&
           fn->params[fn->n_params - 1].kind == WJ_ARG_NAMES;
}

/* True when the last parameter is an optional word (a mode). */
static int has_word(const wj_function *fn)
{
    return fn->n_params > 0 &&
           fn->params[fn->n_params - 1].kind == WJ_ARG_WORD;
}

/* The SQL argument count of the surface list: N, N+ (and any more) or
 * N-M (an optional word). */
static void arg_count(char *out, size_t size, const wj_function *fn)
{
    size_t least = wj_function_min_args(fn);
    if (has_word(fn))
        snprintf(out, size, "%zu-%zu", least, least + 1);
    else
        snprintf(out, size, "%zu%s", least, has_names(fn) ? "+" : "");
}

static const char *result_name(const wj_function *fn)
{
    switch (fn->result) {
    case WJ_RESULT_JSON: return "JSON text";
    case WJ_RESULT_BODY: return "raw body";
    case WJ_RESULT_TEXT: return "text";
    case WJ_RESULT_DIGEST: return "digest (64 hex)";
    case WJ_RESULT_INTEGER: return "integer";
    case WJ_RESULT_DIGESTS: return "array of digests";
    case WJ_RESULT_TEXTS: return "array of texts";
    }
    return "?";
}

/* The SQL signature: wire_json(X [, data_member ...]). */
static void signature(buf *b, const wj_function *fn)
{
    size_t k;
    put(b, "%s(", fn->name);
    for (k = 0; k < fn->n_params; k++) {
        if (fn->params[k].kind == WJ_ARG_NAMES)
            put(b, "%s%s …]", k ? " [, " : "[", fn->params[k].name);
        else if (fn->params[k].kind == WJ_ARG_WORD)
            put(b, " [, %s]", fn->params[k].name);
        else
            put(b, "%s%s", k ? ", " : "", fn->params[k].name);
    }
    put(b, ")");
}

/* The jq arities: the input takes the first parameter; the names are an
 * optional argument unless the row says they are always given. */
static void jq_arities(const wj_function *fn, int *lo, int *hi)
{
    int rest = fn->n_params > 0 ? (int)fn->n_params - 1 : 0;
    *hi = rest;
    *lo = (has_names(fn) && !(fn->flags & WJ_FN_JQ_NAMES_GIVEN)) ||
                  has_word(fn)
              ? rest - 1
              : rest;
}

/* How jq programs and the Python stub name a parameter after the first. */
static const char *jq_arg_name_of(const wj_param *param)
{
    const char *p = param->name;
    if (strcmp(p, "data_member") == 0)
        return "data_members";
    if (strcmp(p, "ignored_member") == 0)
        return "ignored";
    if (strcmp(p, "PATH") == 0)
        return "path";
    if (strcmp(p, "NAME") == 0)
        return "name";
    if (strcmp(p, "VALUE") == 0)
        return "value";
    if (strcmp(p, "TEXTS") == 0)
        return "texts";
    return p;
}

static const char *jq_arg_name(const wj_function *fn, size_t k)
{
    return jq_arg_name_of(&fn->params[k]);
}

static void jq_form(buf *b, const wj_function *fn, const char *suffix,
                    int arity)
{
    int k;
    put(b, "%s%s", fn->name, suffix);
    for (k = 0; k < arity; k++)
        put(b, "%s$%s", k ? "; " : "(", jq_arg_name(fn, (size_t)k + 1));
    if (arity)
        put(b, ")");
}

/* ----------------------------------------------------------- the lists */

static void fronts(buf *b, const wj_function *fn)
{
    static const struct {
        unsigned flag;
        const char *name;
    } all[] = {{WJ_FN_SQLITE, "SQLite"},   {WJ_FN_POSTGRES, "PostgreSQL"},
               {WJ_FN_DUCKDB, "DuckDB"},   {WJ_FN_PYTHON, "Python"},
               {WJ_FN_JQ, "wirejq"},       {WJ_FN_CLI, "command line"}};
    size_t k;
    int first = 1;
    for (k = 0; k < sizeof all / sizeof *all; k++)
        if (fn->flags & all[k].flag) {
            put(b, "%s%s", first ? "" : ", ", all[k].name);
            first = 0;
        }
}

static void docs_md(buf *b)
{
    size_t k;
    put(b, "<!-- Generated from the table of functions (core/functions.c) by "
           "tools/functions_gen.c; do not edit.  Regenerate: cmake --build "
           "build --target regenerate-functions -->\n");
    put(b, "# Functions\n\n"
           "Every function of every front end, from the one table in "
           "`core/functions.c`.\n\n"
           "| function | result | what | where |\n|---|---|---|---|\n");
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        put(b, "| `");
        signature(b, fn);
        put(b, "`%s | %s%s | %s | ",
            fn->flags & WJ_FN_AGGREGATE ? " — aggregate and window" : "",
            result_name(fn), fn->flags & WJ_FN_MAY_BE_NULL ? " or NULL" : "",
            fn->summary);
        fronts(b, fn);
        put(b, " |\n");
    }
    put(b, "\nIn wirejq a function takes its first argument as its input "
           "(`.`) and the others as jq arguments; a `NAME_text` form takes the "
           "raw JSON text of a document, a string, as its input:\n\n");
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        int lo, hi, a;
        if (!(fn->flags & WJ_FN_JQ))
            continue;
        jq_arities(fn, &lo, &hi);
        put(b, "- ");
        for (a = lo; a <= hi; a++) {
            put(b, "%s`", a > lo ? ", " : "");
            jq_form(b, fn, "", a);
            put(b, "`");
        }
        if (fn->flags & WJ_FN_JQ_TEXT)
            for (a = lo; a <= hi; a++) {
                put(b, ", `");
                jq_form(b, fn, "_text", a);
                put(b, "`");
            }
        put(b, "\n");
    }
}

/* roff: a function list for a man page (flag: WJ_FN_JQ or WJ_FN_CLI). */
static void man_list(buf *b, unsigned flag)
{
    size_t k;
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        int lo, hi, a;
        if (!(fn->flags & flag))
            continue;
        put(b, ".TP\n.B \"");
        if (flag == WJ_FN_JQ) {
            jq_arities(fn, &lo, &hi);
            for (a = lo; a <= hi; a++) {
                if (a > lo)
                    put(b, ", ");
                jq_form(b, fn, "", a);
            }
            if (fn->flags & WJ_FN_JQ_TEXT)
                for (a = lo; a <= hi; a++) {
                    put(b, ", ");
                    jq_form(b, fn, "_text", a);
                }
        } else {
            signature(b, fn);
        }
        put(b, "\"\n%s\n", fn->summary);
    }
}

static void jq_module(buf *b)
{
    buf listed = {NULL, 0, 0}; /* "name/arity" of each form, for builtins */
    size_t k;
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        int lo, hi, a, text;
        if (!(fn->flags & WJ_FN_JQ))
            continue;
        jq_arities(fn, &lo, &hi);
        for (text = 0; text <= !!(fn->flags & WJ_FN_JQ_TEXT); text++)
            for (a = lo; a <= hi; a++) {
                const char *suffix = text ? "_text" : "";
                int i;
                put(b, "def ");
                jq_form(b, fn, suffix, a);
                put(b, ": [$__wirejson_call, \"%s%s\", .", fn->name, suffix);
                for (i = 0; i < a; i++)
                    put(b, ", $%s", jq_arg_name(fn, (size_t)i + 1));
                put(b, "] | debug | input;\n");
                put(&listed, "%s\"%s%s/%d\"", listed.len ? ", " : "",
                    fn->name, suffix, a);
            }
    }
    /* jq's `builtins` lists these too: they are builtins to a program */
    put(b, "def __wirejson_builtins: builtins; "
           "def builtins: __wirejson_builtins + [%s];\n",
        listed.len ? listed.p : "");
    free(listed.p);
}

/* Python: how the stub names a parameter, and its type. */
static void py_param(buf *b, const wj_param *p, size_t k)
{
    switch (p->kind) {
    case WJ_ARG_DOCUMENT:
        put(b, "%s: Document", k == 0 && strcmp(p->name, "BODY") != 0
                                   ? "doc" : "body");
        return;
    case WJ_ARG_TEXT: put(b, "text: Document"); return;
    case WJ_ARG_NAME: put(b, "name: Name"); return;
    case WJ_ARG_VALUE: put(b, "value: Value"); return;
    case WJ_ARG_TEXTS:
        put(b, "texts: Union[str, bytes, Sequence[Optional[str]]]");
        return;
    case WJ_ARG_NAMES: put(b, "*%s: Name", jq_arg_name_of(p)); return;
    case WJ_ARG_DIGESTS:
        put(b, "%s: Union[str, bytes, Sequence[str]]", p->name);
        return;
    case WJ_ARG_WORD: put(b, "%s: str = ...", p->name); return;
    }
}

static void pyi(buf *b)
{
    size_t k, i;
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        const char *type;
        int nullable = !!(fn->flags & WJ_FN_MAY_BE_NULL);
        if (!(fn->flags & WJ_FN_PYTHON))
            continue;
        put(b, "def %s(", fn->name);
        for (i = 0; i < fn->n_params; i++) {
            if (i && (fn->params[i].kind == WJ_ARG_NAMES ||
                      fn->params[i].kind == WJ_ARG_WORD))
                put(b, ", /");
            put(b, "%s", i ? ", " : "");
            py_param(b, &fn->params[i], i);
        }
        if (fn->n_params && !has_names(fn) && !has_word(fn))
            put(b, ", /");
        switch (fn->result) {
        case WJ_RESULT_INTEGER: type = "int"; break;
        case WJ_RESULT_DIGESTS: type = "list[str]"; break;
        case WJ_RESULT_TEXTS: type = "list[Optional[str]]"; break;
        default: type = "str"; break;
        }
        put(b, ") -> %s%s%s: ...  # %s\n", nullable ? "Optional[" : "", type,
            nullable ? "]" : "", fn->summary);
    }
}

/* wirejson.arrow's stub: the functions python/src/arrow.c makes (a first
 * parameter that is text, a result Arrow has a type for here). */
static void pyi_arrow(buf *b)
{
    size_t k, i;
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        const char *type;
        if (!(fn->flags & WJ_FN_PYTHON) || (fn->flags & WJ_FN_AGGREGATE) ||
            fn->n_params == 0 ||
            (fn->params[0].kind != WJ_ARG_DOCUMENT &&
             fn->params[0].kind != WJ_ARG_TEXT &&
             fn->params[0].kind != WJ_ARG_DIGESTS))
            continue;
        put(b, "def %s(column: Column", fn->name);
        for (i = 1; i < fn->n_params; i++) {
            const wj_param *p = &fn->params[i];
            if (p->kind == WJ_ARG_NAMES)
                put(b, ", *%s: Name", jq_arg_name_of(p));
            else if (p->kind == WJ_ARG_NAME)
                put(b, ", name: Name");
            else if (p->kind == WJ_ARG_WORD)
                put(b, ", %s: str = ...", p->name);
            else if (p->kind == WJ_ARG_DIGESTS)
                put(b, ", %s: Union[Column, Sequence[str], str]", p->name);
            else
                put(b, ", %s: Union[Column, Any]",
                    p->kind == WJ_ARG_VALUE ? "value" : "texts");
        }
        switch (fn->result) {
        case WJ_RESULT_INTEGER: type = "int64"; break;
        case WJ_RESULT_DIGESTS:
        case WJ_RESULT_TEXTS: type = "list<utf8>"; break;
        default: type = "utf8"; break;
        }
        put(b, ", on_error: OnError = ..., threads: int = ...) -> Result: "
               "...  # %s: %s\n", type, fn->summary);
    }
}

/* PostgreSQL: parameter names and types of the install script. */
static const char *pg_name(const wj_param *p)
{
    static const char *const names[][2] = {
        {"X", "doc"},          {"M", "message"},
        {"A", "messages"},     {"T", "arguments"},
        {"BODY", "body"},      {"NAME", "name"},
        {"VALUE", "value"},    {"TEXTS", "texts"},
        {"data_member", "data_members"},
        {"ignored_member", "ignored_members"},
        {"PATH", "path"}};
    size_t k;
    for (k = 0; k < sizeof names / sizeof *names; k++)
        if (strcmp(names[k][0], p->name) == 0)
            return names[k][1];
    return p->name;
}

static const char *const doc_types[] = {"text", "json", "jsonb", NULL};
static const char *const name_types[] = {"text", NULL};
static const char *const value_types[] = {
    "text", "json", "jsonb", "numeric", "double precision", "bigint",
    "boolean", NULL};

static const char *const *pg_types(wj_arg_kind kind)
{
    return kind == WJ_ARG_NAME    ? name_types
           : kind == WJ_ARG_VALUE ? value_types
                                  : doc_types;
}

static const char *pg_result(const wj_function *fn)
{
    return fn->result == WJ_RESULT_INTEGER ? "integer"
           : fn->result == WJ_RESULT_TEXTS ? "json"
                                           : "text";
}

/* Every overload of fn: the product of its parameters' types. */
static void pg_overloads(buf *b, const wj_function *fn, size_t k,
                         const char **chosen)
{
    size_t i;
    if (k < fn->n_params && fn->params[k].kind != WJ_ARG_NAMES &&
        fn->params[k].kind != WJ_ARG_WORD) {
        const char *const *t;
        for (t = pg_types(fn->params[k].kind); *t; t++) {
            chosen[k] = *t;
            pg_overloads(b, fn, k + 1, chosen);
        }
        return;
    }
    if (fn->flags & WJ_FN_STABLE)
        put(b, "-- STABLE, as PostgreSQL's own version(): the library loaded "
               "may change\n-- (an upgrade) while the catalog does not.\n");
    put(b, "CREATE FUNCTION %s(", fn->name);
    for (i = 0; i < fn->n_params; i++) {
        if (fn->params[i].kind == WJ_ARG_NAMES)
            put(b, "%sVARIADIC %s text[] DEFAULT '{}'", i ? ", " : "",
                pg_name(&fn->params[i]));
        else if (fn->params[i].kind == WJ_ARG_WORD)
            put(b, "%s%s text DEFAULT 'sent'", i ? ", " : "",
                pg_name(&fn->params[i]));
        else
            put(b, "%s%s %s", i ? ", " : "", pg_name(&fn->params[i]),
                chosen[i]);
    }
    put(b, ") RETURNS %s\n    AS 'MODULE_PATHNAME', '%s%s'\n", pg_result(fn),
        strncmp(fn->name, "wirejson_", 9) == 0 ? "" : "wirejson_", fn->name);
    put(b, "    LANGUAGE C %s STRICT PARALLEL SAFE;\n",
        fn->flags & WJ_FN_STABLE ? "STABLE" : "IMMUTABLE");
}

static void postgres_sql(buf *b)
{
    size_t k;
    const char *chosen[8];
    for (k = 0; k < n_table; k++)
        if ((table[k].flags & WJ_FN_POSTGRES) &&
            !(table[k].flags & WJ_FN_AGGREGATE))
            pg_overloads(b, &table[k], 0, chosen);
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        const char *const *t;
        if (!(fn->flags & WJ_FN_POSTGRES) || !(fn->flags & WJ_FN_AGGREGATE))
            continue;
        put(b, "\n-- %s(%s):\n-- %s.\n-- The support functions take "
               "internal and so cannot be STRICT: they skip\n-- NULL rows "
               "themselves.\n\n",
            fn->name, pg_name(&fn->params[0]), fn->summary);
        put(b, "CREATE FUNCTION wirejson_agg_final(internal) RETURNS text\n"
               "    AS 'MODULE_PATHNAME', 'wirejson_agg_final'\n"
               "    LANGUAGE C IMMUTABLE PARALLEL SAFE;\n");
        for (t = doc_types; *t; t++) {
            put(b, "CREATE FUNCTION wirejson_agg_step(internal, %s) RETURNS "
                   "internal\n    AS 'MODULE_PATHNAME', 'wirejson_agg_step'\n"
                   "    LANGUAGE C IMMUTABLE PARALLEL SAFE;\n", *t);
            put(b, "CREATE FUNCTION wirejson_agg_inverse(internal, %s) RETURNS "
                   "internal\n    AS 'MODULE_PATHNAME', "
                   "'wirejson_agg_inverse'\n"
                   "    LANGUAGE C IMMUTABLE PARALLEL SAFE;\n", *t);
            put(b, "CREATE AGGREGATE %s(%s %s) (\n"
                   "    SFUNC = wirejson_agg_step, STYPE = internal,\n"
                   "    FINALFUNC = wirejson_agg_final,\n"
                   "    MSFUNC = wirejson_agg_step, MSTYPE = internal,\n"
                   "    MINVFUNC = wirejson_agg_inverse, MFINALFUNC = "
                   "wirejson_agg_final,\n    PARALLEL = SAFE\n);\n",
                fn->name, pg_name(&fn->params[0]), *t);
        }
    }
}

static void surface_txt(buf *b)
{
    size_t k;
    put(b, "# Generated from the table of functions (core/functions.c) by "
           "tools/functions_gen.c;\n# do not edit.  Regenerate: cmake --build "
           "build --target regenerate-functions\n#\n"
           "# The functions every front end offers: the one list the SQLite "
           "extension,\n# the PostgreSQL extension, the Python module and "
           "wirejq are checked against\n# (tests/surface/check_surface.py).\n"
           "#\n# Columns, separated by blanks:\n"
           "#   name      the SQL name (also the Python name and the jq "
           "builtin)\n"
           "#   args      the SQL arguments: a number, N+ for N and any "
           "more, or\n#             N-M for N or M (an optional word)\n"
           "#   kind      scalar | aggregate\n"
           "#   fronts    where it exists: s = SQLite, p = PostgreSQL, y = "
           "Python,\n"
           "#             j = wirejq (with the jq arities after a colon, e.g. "
           "j:0,1)\n#\n"
           "# name                      args  kind       fronts\n");
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        char args[16];
        buf f = {0};
        int lo, hi, a;
        if (!(fn->flags & (WJ_FN_SQLITE | WJ_FN_POSTGRES | WJ_FN_PYTHON |
                           WJ_FN_JQ)))
            continue;
        arg_count(args, sizeof args, fn);
        put(&f, "%s", "");
        if (fn->flags & WJ_FN_SQLITE)
            put(&f, " s");
        if (fn->flags & WJ_FN_POSTGRES)
            put(&f, " p");
        if (fn->flags & WJ_FN_PYTHON)
            put(&f, " y");
        jq_arities(fn, &lo, &hi);
        if (fn->flags & WJ_FN_JQ) {
            put(&f, " j:");
            for (a = lo; a <= hi; a++)
                put(&f, "%s%d", a > lo ? "," : "", a);
        }
        put(b, "%-27s %-5s %-10s %s\n", fn->name, args,
            fn->flags & WJ_FN_AGGREGATE ? "aggregate" : "scalar", f.p + 1);
        free(f.p);
    }
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        char args[16];
        int lo, hi, a;
        if (!(fn->flags & WJ_FN_JQ_TEXT))
            continue;
        arg_count(args, sizeof args, fn);
        jq_arities(fn, &lo, &hi);
        {
            char name[64];
            snprintf(name, sizeof name, "%s_text", fn->name);
            put(b, "%-27s %-5s %-10s j:", name, args, "scalar");
        }
        for (a = lo; a <= hi; a++)
            put(b, "%s%d", a > lo ? "," : "", a);
        put(b, "\n");
    }
}

/* ------------------------------------------------------------ the files */

typedef struct target {
    const char *path;  /* under SRC */
    const char *begin; /* the marker lines; NULL: the whole file */
    const char *end;
    void (*make)(buf *b);
} target;

static void man_jq(buf *b) { man_list(b, WJ_FN_JQ); }
static void man_cli(buf *b) { man_list(b, WJ_FN_CLI); }

#define BEGIN_NOTE "BEGIN generated by tools/functions_gen.c from core/functions.c; do not edit"
static const target targets[] = {
    {"docs/functions.md", NULL, NULL, docs_md},
    {"docs/functions.roff", NULL, NULL, man_cli},
    {"tests/surface/functions.txt", NULL, NULL, surface_txt},
    {"jq-module/wirejq.1.in", ".\\\" " BEGIN_NOTE, ".\\\" END generated", man_jq},
    {"jq-module/wirejson.jq", "# " BEGIN_NOTE, "# END generated", jq_module},
    {"python/wirejson/__init__.pyi", "# " BEGIN_NOTE, "# END generated", pyi},
    {"python/wirejson/arrow.pyi", "# " BEGIN_NOTE, "# END generated",
     pyi_arrow},
    {"postgres/sql/wirejson--0.2.0.sql", "-- " BEGIN_NOTE, "-- END generated",
     postgres_sql},
};

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    buf b = {0};
    char chunk[4096];
    size_t n;
    if (!f)
        return NULL;
    put(&b, "%s", "");
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        put(&b, "%.*s", (int)n, chunk);
    }
    fclose(f);
    *len = b.len;
    return b.p;
}

static int make_dirs(const char *path)
{
    char cmd[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    snprintf(cmd, sizeof cmd, "mkdir -p '%.*s'", (int)(slash - path), path);
    return system(cmd) == 0 ? 0 : -1;
}

static int emit(const char *src, const char *out, const target *t)
{
    char in_path[4096], out_path[4096];
    buf b = {0}, gen = {0};
    FILE *f;
    snprintf(in_path, sizeof in_path, "%s/%s", src, t->path);
    snprintf(out_path, sizeof out_path, "%s/%s", out, t->path);
    put(&gen, "%s", "");
    t->make(&gen);
    if (!t->begin) {
        b = gen;
    } else {
        size_t len;
        char *text = read_all(in_path, &len);
        char *begin, *end;
        if (!text) {
            fprintf(stderr, "functions_gen: cannot read %s\n", in_path);
            return -1;
        }
        begin = strstr(text, t->begin);
        end = begin ? strstr(begin, t->end) : NULL;
        if (!begin || !end) {
            fprintf(stderr, "functions_gen: %s lacks the lines\n  %s\n  %s\n",
                    in_path, t->begin, t->end);
            return -1;
        }
        begin = strchr(begin, '\n') + 1;
        put(&b, "%.*s%s%s", (int)(begin - text), text, gen.p, end);
        free(text);
        free(gen.p);
    }
    if (make_dirs(out_path) != 0 || !(f = fopen(out_path, "wb"))) {
        fprintf(stderr, "functions_gen: cannot write %s\n", out_path);
        return -1;
    }
    fwrite(b.p, 1, b.len, f);
    free(b.p);
    if (fclose(f) != 0)
        return -1;
    printf("%s\n", t->path);
    return 0;
}

int main(int argc, char **argv)
{
    size_t k;
    if (argc != 3) {
        fprintf(stderr, "usage: functions_gen SRC OUT\n");
        return 2;
    }
    table = wj_functions(&n_table);
    for (k = 0; k < sizeof targets / sizeof *targets; k++)
        if (emit(argv[1], argv[2], &targets[k]) != 0)
            return 1;
    return 0;
}
