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
 *   functions_gen --rows    prints each row: its name, then where it is
 *                           (s p d y j c: SQLite, PostgreSQL, DuckDB,
 *                           Python, wirejq, command line; a: an aggregate)
 *
 * The surface test writes them into the build folder and compares;
 * `cmake --build build --target regenerate-functions` writes them into the
 * tree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jq_shapes.h"
#include "wirejson.h"
#include "wirejson_kit.h"

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

static char *read_all(const char *path, size_t *len);
/* postgres/test/sql/catalog.sql under SRC, whose echo catalog.out holds. */
static char catalog_sql[4096];

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
    *lo = (has_names(fn) && !(jq_shape(fn) & JQ_SHAPE_NAMES_GIVEN)) ||
                  has_word(fn)
              ? rest - 1
              : rest;
}

static const char *jq_arg_name(const wj_function *fn, size_t k)
{
    return fn->params[k].short_name;
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
    } all[] = {{WK_HOST_SQLITE, "SQLite"}, {WK_HOST_POSTGRES, "PostgreSQL"},
               {WK_HOST_DUCKDB, "DuckDB"}, {WK_HOST_PYTHON, "Python"},
               {WK_HOST_JQ, "wirejq"},     {WK_HOST_CLI, "command line"}};
    size_t k;
    int first = 1;
    for (k = 0; k < sizeof all / sizeof *all; k++)
        if (wk_function_hosts(fn) & all[k].flag) {
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
        if (!(wk_function_hosts(fn) & WK_HOST_JQ))
            continue;
        jq_arities(fn, &lo, &hi);
        put(b, "- ");
        for (a = lo; a <= hi; a++) {
            put(b, "%s`", a > lo ? ", " : "");
            jq_form(b, fn, "", a);
            put(b, "`");
        }
        if (jq_shape(fn) & JQ_SHAPE_TEXT)
            for (a = lo; a <= hi; a++) {
                put(b, ", `");
                jq_form(b, fn, "_text", a);
                put(b, "`");
            }
        put(b, "\n");
    }
}

/* roff: a function list for a man page (host: WK_HOST_JQ or WK_HOST_CLI). */
static void man_list(buf *b, unsigned host)
{
    size_t k;
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        int lo, hi, a;
        if (!(wk_function_hosts(fn) & host))
            continue;
        put(b, ".TP\n.B \"");
        if (host == WK_HOST_JQ) {
            jq_arities(fn, &lo, &hi);
            for (a = lo; a <= hi; a++) {
                if (a > lo)
                    put(b, ", ");
                jq_form(b, fn, "", a);
            }
            if (jq_shape(fn) & JQ_SHAPE_TEXT)
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
        if (!(wk_function_hosts(fn) & WK_HOST_JQ))
            continue;
        jq_arities(fn, &lo, &hi);
        for (text = 0; text <= !!(jq_shape(fn) & JQ_SHAPE_TEXT); text++)
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
static void py_param(buf *b, const wj_param *p)
{
    switch (p->kind) {
    case WJ_ARG_DOCUMENT:
    case WJ_ARG_TEXT: put(b, "%s: Document", p->short_name); return;
    case WJ_ARG_NAME: put(b, "%s: Name", p->short_name); return;
    case WJ_ARG_VALUE: put(b, "%s: Value", p->short_name); return;
    case WJ_ARG_TEXTS:
        put(b, "%s: Union[str, bytes, Sequence[Optional[str]]]", p->short_name);
        return;
    case WJ_ARG_NAMES: put(b, "*%s: Name", p->short_name); return;
    case WJ_ARG_DIGESTS:
        put(b, "%s: Union[str, bytes, Sequence[str]]", p->short_name);
        return;
    case WJ_ARG_WORD: put(b, "%s: str = ...", p->short_name); return;
    }
}

static void pyi(buf *b)
{
    size_t k, i;
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        const char *type;
        int nullable = !!(fn->flags & WJ_FN_MAY_BE_NULL);
        if (!(wk_function_hosts(fn) & WK_HOST_PYTHON))
            continue;
        put(b, "def %s(", fn->name);
        for (i = 0; i < fn->n_params; i++) {
            if (i && (fn->params[i].kind == WJ_ARG_NAMES ||
                      fn->params[i].kind == WJ_ARG_WORD))
                put(b, ", /");
            put(b, "%s", i ? ", " : "");
            py_param(b, &fn->params[i]);
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
        if (!(wk_function_hosts(fn) & WK_HOST_PYTHON) || (fn->flags & WJ_FN_AGGREGATE) ||
            fn->n_params == 0 ||
            (fn->params[0].kind != WJ_ARG_DOCUMENT &&
             fn->params[0].kind != WJ_ARG_TEXT &&
             fn->params[0].kind != WJ_ARG_DIGESTS))
            continue;
        put(b, "def %s(column: Column", fn->name);
        for (i = 1; i < fn->n_params; i++) {
            const wj_param *p = &fn->params[i];
            if (p->kind == WJ_ARG_NAMES)
                put(b, ", *%s: Name", p->short_name);
            else if (p->kind == WJ_ARG_NAME)
                put(b, ", %s: Name", p->short_name);
            else if (p->kind == WJ_ARG_WORD)
                put(b, ", %s: str = ...", p->short_name);
            else if (p->kind == WJ_ARG_DIGESTS)
                put(b, ", %s: Union[Column, Sequence[str], str]", p->short_name);
            else
                put(b, ", %s: Union[Column, Any]", p->short_name);
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

/* PostgreSQL: the types of the install script's parameters. */
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

/* The C symbol of fn's entry point is this prefix and its name. */
static const char *pg_symbol_prefix(const wj_function *fn)
{
    return strncmp(fn->name, "wirejson_", 9) == 0 ? "" : "wirejson_";
}

static int pg_scalar(const wj_function *fn)
{
    return (wk_function_hosts(fn) & WK_HOST_POSTGRES) && !(fn->flags & WJ_FN_AGGREGATE);
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
                fn->params[i].long_name);
        else if (fn->params[i].kind == WJ_ARG_WORD)
            put(b, "%s%s text DEFAULT 'sent'", i ? ", " : "",
                fn->params[i].long_name);
        else
            put(b, "%s%s %s", i ? ", " : "", fn->params[i].long_name,
                chosen[i]);
    }
    put(b, ") RETURNS %s\n    AS 'MODULE_PATHNAME', '%s%s'\n", pg_result(fn),
        pg_symbol_prefix(fn), fn->name);
    put(b, "    LANGUAGE C %s STRICT PARALLEL SAFE;\n",
        fn->flags & WJ_FN_STABLE ? "STABLE" : "IMMUTABLE");
}

static void postgres_sql(buf *b)
{
    size_t k;
    const char *chosen[8];
    for (k = 0; k < n_table; k++)
        if (pg_scalar(&table[k]))
            pg_overloads(b, &table[k], 0, chosen);
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        const char *const *t;
        if (!(wk_function_hosts(fn) & WK_HOST_POSTGRES) || !(fn->flags & WJ_FN_AGGREGATE))
            continue;
        put(b, "\n-- %s(%s):\n-- %s.\n-- The support functions take "
               "internal and so cannot be STRICT: they skip\n-- NULL rows "
               "themselves.\n\n",
            fn->name, fn->params[0].long_name, fn->summary);
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
                fn->name, fn->params[0].long_name, *t);
        }
    }
}

/* PostgreSQL: the entry point of each scalar function, which the install
 * script names (postgres/src/pg_functions.c defines ENTRY). */
static void pg_entries(buf *b)
{
    size_t k;
    put(b, "/* SPDX-License-Identifier: MIT */\n"
           "/* Generated from the table of functions (core/functions.c) by "
           "tools/functions_gen.c;\n * do not edit.  Regenerate: cmake "
           "--build build --target regenerate-functions */\n");
    for (k = 0; k < n_table; k++)
        if (pg_scalar(&table[k]))
            put(b, "ENTRY(%s%s, \"%s\")\n", pg_symbol_prefix(&table[k]),
                table[k].name, table[k].name);
}

/* PostgreSQL: one row of the catalog listing (postgres/test/sql/catalog.sql). */
typedef struct pg_row {
    char function[160];
    const char *returns, *vol, *strict, *kind;
} pg_row;

static pg_row pg_rows[512];
static size_t n_pg_rows;

static void pg_row_add(const char *function, const char *returns,
                       const char *vol, const char *strict, const char *kind)
{
    pg_row *r = &pg_rows[n_pg_rows++];
    if (n_pg_rows > sizeof pg_rows / sizeof *pg_rows)
        abort();
    snprintf(r->function, sizeof r->function, "%s", function);
    r->returns = returns;
    r->vol = vol;
    r->strict = strict;
    r->kind = kind;
}

/* Every overload of the scalar function fn, as regprocedure writes it. */
static void pg_listed(const wj_function *fn, size_t k, buf *sig)
{
    size_t at = sig->len;
    if (k == fn->n_params) {
        put(sig, ")");
        pg_row_add(sig->p, pg_result(fn),
                   fn->flags & WJ_FN_STABLE ? "s" : "i", "t", "f");
    } else if (fn->params[k].kind == WJ_ARG_NAMES ||
               fn->params[k].kind == WJ_ARG_WORD) {
        put(sig, "%s%s", k ? "," : "",
            fn->params[k].kind == WJ_ARG_NAMES ? "text[]" : "text");
        pg_listed(fn, k + 1, sig);
    } else {
        const char *const *t;
        for (t = pg_types(fn->params[k].kind); *t; t++) {
            put(sig, "%s%s", k ? "," : "", *t);
            pg_listed(fn, k + 1, sig);
            sig->len = at;
            sig->p[at] = '\0';
        }
    }
    sig->len = at;
    sig->p[at] = '\0';
}

static int pg_row_order(const void *x, const void *y)
{
    const pg_row *a = x, *b = y;
    size_t la = strcspn(a->function, "("), lb = strcspn(b->function, "(");
    int c = memcmp(a->function, b->function, la < lb ? la : lb);
    if (c == 0 && la != lb)
        return la < lb ? -1 : 1;
    return c ? c : strcmp(a->function, b->function);
}

/* psql's aligned cell: text left aligned, a header centred. */
static void cell(buf *b, const char *text, size_t width, int header,
                 int last)
{
    size_t len = strlen(text), pad = width - len,
           left = header ? pad / 2 : 0;
    put(b, " %*s%s", (int)left, "", text);
    if (!last || header)
        put(b, "%*s ", (int)(pad - left), "");
}

/* PostgreSQL: what catalog.sql gives, every object the install script
 * makes: catalog.sql's text, as pg_regress echoes it, then the listing. */
static void pg_catalog(buf *b)
{
    static const char *const heads[] = {"function", "returns", "vol",
                                        "strict", "par", "kind"};
    size_t width[6], k, c, len;
    buf sig = {0};
    char *sql = read_all(catalog_sql, &len);
    if (!sql) {
        fprintf(stderr, "functions_gen: cannot read %s\n", catalog_sql);
        exit(1);
    }
    put(b, "%s", sql);
    free(sql);
    n_pg_rows = 0;
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        const char *const *t;
        char f[160];
        if (pg_scalar(fn)) {
            sig.len = 0;
            put(&sig, "%s(", fn->name);
            pg_listed(fn, 0, &sig);
        }
        if (!(wk_function_hosts(fn) & WK_HOST_POSTGRES) || !(fn->flags & WJ_FN_AGGREGATE))
            continue;
        pg_row_add("wirejson_agg_final(internal)", "text", "i", "f", "f");
        for (t = doc_types; *t; t++) {
            snprintf(f, sizeof f, "%s(%s)", fn->name, *t);
            pg_row_add(f, "text", "i", "f", "a");
            snprintf(f, sizeof f, "wirejson_agg_step(internal,%s)", *t);
            pg_row_add(f, "internal", "i", "f", "f");
            snprintf(f, sizeof f, "wirejson_agg_inverse(internal,%s)", *t);
            pg_row_add(f, "internal", "i", "f", "f");
        }
    }
    free(sig.p);
    qsort(pg_rows, n_pg_rows, sizeof *pg_rows, pg_row_order);
    for (c = 0; c < 6; c++)
        width[c] = strlen(heads[c]);
    for (k = 0; k < n_pg_rows; k++) {
        const char *v[6] = {pg_rows[k].function, pg_rows[k].returns,
                            pg_rows[k].vol, pg_rows[k].strict, "s",
                            pg_rows[k].kind};
        for (c = 0; c < 6; c++)
            if (strlen(v[c]) > width[c])
                width[c] = strlen(v[c]);
    }
    for (c = 0; c < 6; c++) {
        put(b, "%s", c ? "|" : "");
        cell(b, heads[c], width[c], 1, c == 5);
    }
    put(b, "\n");
    for (c = 0; c < 6; c++) {
        size_t i;
        put(b, "%s", c ? "+" : "");
        for (i = 0; i < width[c] + 2; i++)
            put(b, "-");
    }
    put(b, "\n");
    for (k = 0; k < n_pg_rows; k++) {
        const char *v[6] = {pg_rows[k].function, pg_rows[k].returns,
                            pg_rows[k].vol, pg_rows[k].strict, "s",
                            pg_rows[k].kind};
        for (c = 0; c < 6; c++) {
            put(b, "%s", c ? "|" : "");
            cell(b, v[c], width[c], 0, c == 5);
        }
        put(b, "\n");
    }
    put(b, "(%zu rows)\n\n", n_pg_rows);
}

/* Python: the functions the package exports, sorted by name with the
 * module's classes. */
static int by_name(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void py_init(buf *b)
{
    const char *names[128];
    size_t n = 0, k;
    names[n++] = "Conversation";
    names[n++] = "Error";
    names[n++] = "Fragment";
    for (k = 0; k < n_table && n < sizeof names / sizeof *names; k++)
        if ((wk_function_hosts(&table[k]) & WK_HOST_PYTHON) && table[k].call)
            names[n++] = table[k].name;
    qsort(names, n, sizeof *names, by_name);
    put(b, "from ._wirejson import (\n");
    for (k = 0; k < n; k++)
        put(b, "    %s,\n", names[k]);
    put(b, ")\n\n__all__ = [\n");
    for (k = 0; k < n; k++)
        put(b, "    \"%s\",\n", names[k]);
    put(b, "]\n");
}

/* A C string literal of text, one source line a line of text. */
static void c_string(buf *b, const char *text)
{
    put(b, "     \"");
    for (; *text; text++) {
        if (*text == '\n')
            put(b, "\\n\"\n     \"");
        else if (*text == '"' || *text == '\\')
            put(b, "\\%c", *text);
        else
            put(b, "%c", *text);
    }
    put(b, "\"");
}

/* Python: each function's docstring, its text signature first (CPython
 * reads "NAME(...)\n--\n\n"); a function whose first parameter is a doc
 * gets WJPY_DOC_NOTE (what a document may be), defined by the includer. */
static void py_docstrings(buf *b)
{
    size_t k, i;
    put(b, "/* SPDX-License-Identifier: MIT */\n"
           "/* Generated from the table of functions (core/functions.c) by "
           "tools/functions_gen.c;\n * do not edit.  Regenerate: cmake "
           "--build build --target regenerate-functions */\n"
           "static const struct wjpy_docstring {\n"
           "    const char *name, *doc;\n"
           "} wjpy_docstrings[] = {\n");
    for (k = 0; k < n_table; k++) {
        const wj_function *fn = &table[k];
        buf d = {0};
        if (!(wk_function_hosts(fn) & WK_HOST_PYTHON) || !fn->call)
            continue;
        put(&d, "%s(", fn->name);
        for (i = 0; i < fn->n_params; i++) {
            const wj_param *p = &fn->params[i];
            if (i && (p->kind == WJ_ARG_NAMES || p->kind == WJ_ARG_WORD))
                put(&d, ", /");
            put(&d, "%s%s%s%s", i ? ", " : "",
                p->kind == WJ_ARG_NAMES ? "*" : "", p->short_name,
                p->kind == WJ_ARG_WORD ? "='sent'" : "");
        }
        if (fn->n_params && !has_names(fn) && !has_word(fn))
            put(&d, ", /");
        put(&d, ")\n--\n\n%s", fn->doc ? fn->doc : fn->summary);
        put(b, "    {\"%s\",\n", fn->name);
        c_string(b, d.p);
        put(b, "%s},\n", fn->n_params && strcmp(fn->params[0].short_name, "doc") == 0
                             ? " WJPY_DOC_NOTE" : "");
        free(d.p);
    }
    put(b, "};\n");
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
        if (!(wk_function_hosts(fn) & (WK_HOST_SQLITE | WK_HOST_POSTGRES |
                                       WK_HOST_PYTHON | WK_HOST_JQ)))
            continue;
        arg_count(args, sizeof args, fn);
        put(&f, "%s", "");
        if (wk_function_hosts(fn) & WK_HOST_SQLITE)
            put(&f, " s");
        if (wk_function_hosts(fn) & WK_HOST_POSTGRES)
            put(&f, " p");
        if (wk_function_hosts(fn) & WK_HOST_PYTHON)
            put(&f, " y");
        jq_arities(fn, &lo, &hi);
        if (wk_function_hosts(fn) & WK_HOST_JQ) {
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
        if (!(jq_shape(fn) & JQ_SHAPE_TEXT))
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

static void man_jq(buf *b) { man_list(b, WK_HOST_JQ); }
static void man_cli(buf *b) { man_list(b, WK_HOST_CLI); }

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
    {"postgres/sql/wirejson.sql", "-- " BEGIN_NOTE, "-- END generated",
     postgres_sql},
    {"postgres/src/pg_entries.gen.c", NULL, NULL, pg_entries},
    {"postgres/test/expected/catalog.out", NULL, NULL, pg_catalog},
    {"python/wirejson/__init__.py", "# " BEGIN_NOTE, "# END generated",
     py_init},
    {"python/src/py_docstrings.gen.h", NULL, NULL, py_docstrings},
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

static void print_rows(void)
{
    static const struct {
        unsigned flag;
        char letter;
    } where[] = {{WK_HOST_SQLITE, 's'}, {WK_HOST_POSTGRES, 'p'},
                 {WK_HOST_DUCKDB, 'd'}, {WK_HOST_PYTHON, 'y'},
                 {WK_HOST_JQ, 'j'},     {WK_HOST_CLI, 'c'}};
    size_t k, w;
    for (k = 0; k < n_table; k++) {
        printf("%s ", table[k].name);
        for (w = 0; w < sizeof where / sizeof *where; w++)
            if (wk_function_hosts(&table[k]) & where[w].flag)
                putchar(where[w].letter);
        if (table[k].flags & WJ_FN_AGGREGATE)
            putchar('a');
        putchar('\n');
    }
}

int main(int argc, char **argv)
{
    size_t k;
    if (argc == 2 && strcmp(argv[1], "--rows") == 0) {
        table = wj_functions(&n_table);
        print_rows();
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: functions_gen SRC OUT | --rows\n");
        return 2;
    }
    table = wj_functions(&n_table);
    snprintf(catalog_sql, sizeof catalog_sql, "%s/postgres/test/sql/catalog.sql",
             argv[1]);
    for (k = 0; k < sizeof targets / sizeof *targets; k++)
        if (emit(argv[1], argv[2], &targets[k]) != 0)
            return 1;
    return 0;
}
