/* SPDX-License-Identifier: MIT */
/*
 * jq_options.c - parsing wirejq's arguments the way jq 1.6 parses its own.
 *
 * An argument starting with '-' and a letter (or "--") is an option.  A
 * short-option argument may stack letters ("-nrc"); each known letter
 * found in it counts once, and the argument is unknown unless every letter
 * was counted.  The first word that is not an option is the filter; later
 * ones are input files, or positional values after --args / --jsonargs.
 */
#include "jq_options.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_text.h"
#include "wirejson.h"
#include "wirejson_kit.h"

jv wirejq_realpath(jv path)
{
    char *resolved = realpath(jv_string_value(path), NULL);
    if (resolved == NULL)
        return path;
    jv_free(path);
    path = jv_string(resolved);
    free(resolved);
    return path;
}

/* Prints, for the row called name (len bytes), the forms wirejson.jq
 * defines for it and for its NAME_text, as jq programs write them. */
static void print_forms(FILE *f, const char *name, size_t len)
{
    const char *p = wirejq_module_text;
    int first = 1;
    while ((p = strstr(p, "def ")) != NULL) {
        const char *form = p + 4, *end = strchr(form, ':');
        size_t n = 0;
        p = form;
        if (!end)
            break;
        while (form + n < end && (isalnum((unsigned char)form[n]) ||
                                  form[n] == '_'))
            n++;
        if ((n == len || (n == len + 5 && memcmp(form + len, "_text", 5) == 0))
            && memcmp(form, name, len) == 0) {
            fprintf(f, "%s%.*s", first ? "  " : ", ", (int)(end - form), form);
            first = 0;
        }
    }
    fputc('\n', f);
}

/* The builtins, from the table of functions: the forms wirejson.jq (made
 * from the same table) defines, NAME_text ones (the same, on a string of
 * JSON text, read as SQL reads it) included, and the row's summary. */
static void print_builtins(FILE *f)
{
    size_t n, k;
    const wj_function *table = wj_functions(&n);
    for (k = 0; k < n; k++) {
        const wj_function *fn = &table[k];
        if (!(wk_function_hosts(fn) & WK_HOST_JQ))
            continue;
        print_forms(f, fn->name, strlen(fn->name));
        fprintf(f, "      %s\n", fn->summary);
    }
}

/* The help text is laid out as it prints. */
/* clang-format off */
static void print_header(const wirejq_cli *cli, FILE *f)
{
    fprintf(f,
            "wirejq %s - jq with the wirejson builtins\n"
            "\n"
            "Usage:\t%s [options] <jq filter> [file...]\n"
            "\t%s [options] --args <jq filter> [strings...]\n"
            "\t%s [options] --jsonargs <jq filter> [JSON_TEXTS...]\n"
            "\n"
            "Runs the jq filter on each JSON text of the files (or standard\n"
            "input) and writes its results as JSON, exactly as jq does, with\n"
            "these builtins added:\n"
            "\n",
            wj_version(), cli->progname, cli->progname, cli->progname);
    print_builtins(f);
    fprintf(f,
            "\n"
            "Example:\n"
            "\n"
            "\t$ echo '{\"b\":1,\"a\":2}' | %s -r data_digest\n"
            "\n",
            cli->progname);
}

static void usage_long(const wirejq_cli *cli)
{
    print_header(cli, stdout);
    printf(
        "Options:\n"
        "  -n               use null as the only input;\n"
        "  -R               read each line as a string, not as JSON;\n"
        "  -s               read all inputs into one array;\n"
        "  -c               one line per result, no indentation;\n"
        "  -r               write strings without quotes and escapes;\n"
        "  -j               like -r, and no newline after each result;\n"
        "  -a               escape every non-ASCII character;\n"
        "  -S               sort object keys on output;\n"
        "  -C / -M          colour on / off;\n"
        "  -e               exit status from the last result (1: false or null,\n"
        "                   4: no result);\n"
        "  --tab            indent with tabs;\n"
        "  --indent n       indent with n spaces (0 to 7);\n"
        "  --seq            read and write application/json-seq;\n"
        "  --stream         read inputs as streams of [path, leaf] events;\n"
        "  --unbuffered     flush after each result;\n"
        "  -f file          read the filter from file;\n"
        "  -L dir           search modules in dir;\n"
        "  --arg name v     $name is the string v;\n"
        "  --argjson name t $name is the JSON text t;\n"
        "  --slurpfile name f  $name is the array of JSON texts in file f;\n"
        "  --rawfile name f $name is the contents of file f, as a string;\n"
        "  --args           the remaining words are strings for $ARGS.positional;\n"
        "  --jsonargs       the remaining words are JSON texts for $ARGS.positional;\n"
        "  --run-tests [file]  run tests in jq's test-file format;\n"
        "  -V, --version    print the version;\n"
        "  -h, --help       print this help;\n"
        "  --               the remaining words are not options.\n"
        "\n"
        "Named arguments are also in $ARGS.named, positional ones in\n"
        "$ARGS.positional.  Exit status: 0 ok, 2 usage or I/O error, 3 compile\n"
        "error, 4 invalid input, 5 runtime error (and 1/4 with -e).\n");
    exit(ferror(stdout) ? 2 : 0);
}
/* clang-format on */

void wirejq_usage_short(const wirejq_cli *cli)
{
    print_header(cli, stderr);
    fprintf(stderr, "For a listing of options, use %s --help.\n",
            cli->progname);
    exit(2);
}

static void die(const wirejq_cli *cli)
{
    fprintf(stderr, "Use %s --help for help with command-line options,\n",
            cli->progname);
    fprintf(stderr, "or see the jq manpage, or online docs  at "
                    "https://stedolan.github.io/jq\n");
    exit(2);
}

static int is_optish(const char *text)
{
    return text[0] == '-' &&
           (text[1] == '-' || isalpha((unsigned char)text[1]));
}

/*
 * Whether text is the long option --longopt, or a short-option word holding
 * the letter shortopt (counted in *nshort).
 */
static int is_option(const char *text, char shortopt, const char *longopt,
                     size_t *nshort)
{
    if (text[1] == '-')
        return strcmp(text + 2, longopt) == 0;
    if (shortopt != 0 && strchr(text, shortopt) != NULL) {
        (*nshort)++;
        return 1;
    }
    return 0;
}

static void add_file(wirejq_cli *cli, char *name)
{
    char **files =
        realloc(cli->files, (size_t)(cli->nfiles + 1) * sizeof(*files));
    if (files == NULL) {
        fprintf(stderr, "%s: out of memory\n", cli->progname);
        exit(2);
    }
    cli->files = files;
    cli->files[cli->nfiles++] = name;
}

/* A word that is not an option: the filter, a positional value or a file. */
static void add_word(wirejq_cli *cli, char *word, int mode)
{
    if (mode == 's') {
        cli->positional = jv_array_append(cli->positional, jv_string(word));
    } else if (mode == 'j') {
        jv v = jv_parse(word);
        if (!jv_is_valid(v)) {
            jv_free(v);
            fprintf(stderr, "%s: invalid JSON text passed to --jsonargs\n",
                    cli->progname);
            die(cli);
        }
        cli->positional = jv_array_append(cli->positional, v);
    } else {
        add_file(cli, word);
    }
}

/* --slurpfile, --rawfile and --argfile; returns an exit status or CLI_RUN. */
static int file_argument(wirejq_cli *cli, const char *which, const char *name,
                         const char *path)
{
    int raw = strcmp(which, "rawfile") == 0;
    jv data;
    if (jv_object_has(jv_copy(cli->named), jv_string(name)))
        return CLI_RUN;
    data = jv_load_file(path, raw);
    if (!jv_is_valid(data)) {
        data = jv_invalid_get_msg(data);
        fprintf(stderr, "%s: Bad JSON in --%s %s %s: %s\n", cli->progname,
                which, name, path, jv_string_value(data));
        jv_free(data);
        return 2;
    }
    if (strcmp(which, "argfile") == 0 && jv_get_kind(data) == JV_KIND_ARRAY &&
        jv_array_length(jv_copy(data)) == 1)
        data = jv_array_get(data, 0);
    cli->named = jv_object_set(cli->named, jv_string(name), data);
    return CLI_RUN;
}

static void need_params(const wirejq_cli *cli, int i, int argc, int n,
                        const char *what)
{
    if (i < argc - n)
        return;
    fprintf(stderr, "%s: %s\n", cli->progname, what);
    die(cli);
}

/*
 * One option word argv[*i]; may consume the words after it.  Returns an
 * exit status, or CLI_RUN.
 */
static int parse_option(wirejq_cli *cli, int argc, char **argv, int *i,
                        int *mode)
{
    const char *text = argv[*i];
    size_t nshort = 0;

    if (text[1] == 'L') {
        if (jv_get_kind(cli->lib_paths) == JV_KIND_NULL)
            cli->lib_paths = jv_array();
        if (text[2] != '\0') {
            cli->lib_paths = jv_array_append(
                cli->lib_paths, wirejq_realpath(jv_string(text + 2)));
        } else if (*i >= argc - 1) {
            fprintf(stderr, "-L takes a parameter: (e.g. -L /search/path or "
                            "-L/search/path)\n");
            die(cli);
        } else {
            cli->lib_paths = jv_array_append(
                cli->lib_paths, wirejq_realpath(jv_string(argv[*i + 1])));
            (*i)++;
        }
        return CLI_RUN;
    }

    /* Letters that may stack, in the order jq 1.6 tries them. */
    if (is_option(text, 's', "slurp", &nshort)) {
        cli->options |= OPT_SLURP;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'r', "raw-output", &nshort)) {
        cli->options |= OPT_RAW_OUTPUT;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'c', "compact-output", &nshort)) {
        cli->dumpopts &= ~(JV_PRINT_TAB | JV_PRINT_INDENT_FLAGS(7));
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'C', "color-output", &nshort)) {
        cli->options |= OPT_COLOR;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'M', "monochrome-output", &nshort)) {
        cli->options |= OPT_NO_COLOR;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'a', "ascii-output", &nshort)) {
        cli->options |= OPT_ASCII;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 0, "unbuffered", &nshort)) {
        cli->options |= OPT_UNBUFFERED;
        return CLI_RUN;
    }
    if (is_option(text, 'S', "sort-keys", &nshort)) {
        cli->options |= OPT_SORT_KEYS;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'R', "raw-input", &nshort)) {
        cli->options |= OPT_RAW_INPUT;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'n', "null-input", &nshort)) {
        cli->options |= OPT_NULL_INPUT;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'f', "from-file", &nshort)) {
        cli->options |= OPT_FROM_FILE;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 'j', "join-output", &nshort)) {
        cli->options |= OPT_RAW_OUTPUT | OPT_NO_NEWLINE;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 0, "tab", &nshort)) {
        cli->dumpopts &= ~JV_PRINT_INDENT_FLAGS(7);
        cli->dumpopts |= JV_PRINT_TAB | JV_PRINT_PRETTY;
        return CLI_RUN;
    }
    if (is_option(text, 0, "indent", &nshort)) {
        int indent;
        need_params(cli, *i, argc, 1, "--indent takes one parameter");
        cli->dumpopts &= ~(JV_PRINT_TAB | JV_PRINT_INDENT_FLAGS(7));
        indent = atoi(argv[*i + 1]);
        if (indent < -1 || indent > 7) {
            fprintf(stderr, "%s: --indent takes a number between -1 and 7\n",
                    cli->progname);
            die(cli);
        }
        cli->dumpopts |= JV_PRINT_INDENT_FLAGS(indent);
        (*i)++;
        return CLI_RUN;
    }
    if (is_option(text, 0, "seq", &nshort)) {
        cli->options |= OPT_SEQ;
        return CLI_RUN;
    }
    if (is_option(text, 0, "stream", &nshort)) {
        cli->parser_flags |= JV_PARSE_STREAMING;
        return CLI_RUN;
    }
    if (is_option(text, 0, "stream-errors", &nshort)) {
        cli->parser_flags |= JV_PARSE_STREAM_ERRORS;
        return CLI_RUN;
    }
    if (is_option(text, 'e', "exit-status", &nshort)) {
        cli->options |= OPT_EXIT_STATUS;
        if (!nshort)
            return CLI_RUN;
    }
    if (is_option(text, 0, "args", &nshort)) {
        *mode = 's';
        return CLI_RUN;
    }
    if (is_option(text, 0, "jsonargs", &nshort)) {
        *mode = 'j';
        return CLI_RUN;
    }
    if (is_option(text, 0, "arg", &nshort)) {
        need_params(cli, *i, argc, 2,
                    "--arg takes two parameters (e.g. --arg varname value)");
        if (!jv_object_has(jv_copy(cli->named), jv_string(argv[*i + 1])))
            cli->named = jv_object_set(cli->named, jv_string(argv[*i + 1]),
                                       jv_string(argv[*i + 2]));
        *i += 2;
        return CLI_RUN;
    }
    if (is_option(text, 0, "argjson", &nshort)) {
        need_params(
            cli, *i, argc, 2,
            "--argjson takes two parameters (e.g. --argjson varname text)");
        if (!jv_object_has(jv_copy(cli->named), jv_string(argv[*i + 1]))) {
            jv v = jv_parse(argv[*i + 2]);
            if (!jv_is_valid(v)) {
                jv_free(v);
                fprintf(stderr, "%s: invalid JSON text passed to --argjson\n",
                        cli->progname);
                die(cli);
            }
            cli->named = jv_object_set(cli->named, jv_string(argv[*i + 1]), v);
        }
        *i += 2;
        return CLI_RUN;
    }
    if (is_option(text, 0, "argfile", &nshort) ||
        is_option(text, 0, "rawfile", &nshort) ||
        is_option(text, 0, "slurpfile", &nshort)) {
        const char *which = text + 2;
        char what[100];
        int status;
        snprintf(what, sizeof(what),
                 "--%s takes two parameters (e.g. --%s varname filename)",
                 which, which);
        need_params(cli, *i, argc, 2, what);
        status = file_argument(cli, which, argv[*i + 1], argv[*i + 2]);
        *i += 2;
        return status;
    }
    if (is_option(text, 0, "debug-dump-disasm", &nshort)) {
        cli->options |= OPT_DUMP_DISASM;
        return CLI_RUN;
    }
    if (is_option(text, 0, "debug-trace=all", &nshort)) {
        cli->jq_flags |= JQ_DEBUG_TRACE_ALL;
        return CLI_RUN;
    }
    if (is_option(text, 0, "debug-trace", &nshort)) {
        cli->jq_flags |= JQ_DEBUG_TRACE;
        return CLI_RUN;
    }
    if (is_option(text, 'h', "help", &nshort))
        usage_long(cli);
    if (is_option(text, 'V', "version", &nshort)) {
        /* jq's "jq-1.6" form, with the library's version */
        printf("wirejq-%s\n", wj_version());
        return 0;
    }
    if (is_option(text, 0, "run-tests", &nshort)) {
        cli->run_tests = 1;
        cli->tests_file = *i + 1 < argc ? argv[*i + 1] : NULL;
        return 0;
    }
    if (strlen(text) != nshort + 1) {
        fprintf(stderr, "%s: Unknown option %s\n", cli->progname, text);
        die(cli);
    }
    return CLI_RUN;
}

int wirejq_cli_parse(wirejq_cli *cli, int argc, char **argv)
{
    int mode = 0; /* 's' after --args, 'j' after --jsonargs, else files */
    int done = 0; /* after "--" */
    int i;
    memset(cli, 0, sizeof(*cli));
    cli->progname = argc > 0 ? argv[0] : "wirejq";
    cli->dumpopts = JV_PRINT_INDENT_FLAGS(2);
    cli->named = jv_object();
    cli->positional = jv_array();
    cli->lib_paths = jv_null();

    for (i = 1; i < argc; i++) {
        if (done) {
            add_word(cli, argv[i], mode);
        } else if (strcmp(argv[i], "--") == 0) {
            if (cli->program == NULL)
                wirejq_usage_short(cli);
            done = 1;
        } else if (!is_optish(argv[i])) {
            if (cli->program != NULL)
                add_word(cli, argv[i], mode);
            else
                cli->program = argv[i];
        } else {
            int status = parse_option(cli, argc, argv, &i, &mode);
            if (status != CLI_RUN)
                return status;
        }
    }
    return CLI_RUN;
}

void wirejq_cli_free(wirejq_cli *cli)
{
    jv_free(cli->named);
    jv_free(cli->positional);
    jv_free(cli->lib_paths);
    free(cli->files);
    cli->named = cli->positional = cli->lib_paths = jv_invalid();
    cli->files = NULL;
    cli->nfiles = 0;
}
