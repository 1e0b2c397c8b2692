/* SPDX-License-Identifier: MIT */
/*
 * wirejq_main.c - wirejq: the jq command line, on libjq, with the wirejson builtins.
 *
 * Behaves as the stock jq 1.6 built on the same libjq: same output, same
 * error output (with "wirejq" for "jq"), same exit status: 0; 1 or 4 with
 * -e (last result false/null, or no result); 2 usage or I/O error; 3
 * compile error; 4 invalid input; 5 runtime error; or what `halt_error`
 * asks for.  As in jq 1.6, each input sets the status anew, so the last
 * input decides it.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jq.h>

#include "bridge.h"
#include "jq_options.h"
#include "prelude.h"
#include "run_tests.h"

/* Statuses of one run before the -e mapping: 10 + n is "n with -e, else 0". */
enum { ST_FALSY = 11, ST_NO_OUTPUT = 14 };

typedef struct run_state {
    wirejq_cli *cli;
    jq_state *jq;
    wirejq_bridge *bridge;
    int dumpopts;
    int exact; /* set by halt/halt_error: the status is what it asked */
} run_state;

static void open_error(void *data, const char *fname)
{
    (void)data;
    fprintf(stderr, "wirejq: error: Could not open file %s: %s\n", fname,
            strerror(errno));
}

static void write_out(const char *bytes, size_t len)
{
    fwrite(bytes, 1, len, stdout);
}

/* Runs the program on one input; returns its status as jq 1.6 does. */
static int process(run_state *st, jv value)
{
    int options = st->cli->options;
    int ret = ST_NO_OUTPUT;
    jv result;
    jq_start(st->jq, value, st->cli->jq_flags);
    while (jv_is_valid(result = jq_next(st->jq))) {
        if ((options & OPT_RAW_OUTPUT) &&
            jv_get_kind(result) == JV_KIND_STRING) {
            if (options & OPT_ASCII) {
                jv_dumpf(result, stdout, JV_PRINT_ASCII);
            } else {
                write_out(jv_string_value(result),
                          (size_t)jv_string_length_bytes(jv_copy(result)));
                jv_free(result);
            }
            ret = 0;
        } else {
            jv_kind kind = jv_get_kind(result);
            ret = kind == JV_KIND_FALSE || kind == JV_KIND_NULL ? ST_FALSY : 0;
            if (options & OPT_SEQ)
                write_out("\036", 1);
            jv_dump(result, st->dumpopts);
        }
        if (!(options & OPT_NO_NEWLINE))
            write_out("\n", 1);
        if (options & OPT_UNBUFFERED)
            fflush(stdout);
    }
    /* libjq's input helpers below want their own callback in place */
    wirejq_bridge_settle(st->bridge);
    if (jq_halted(st->jq)) {
        jv code = jq_get_exit_code(st->jq);
        jv message = jq_get_error_message(st->jq);
        st->exact = 1;
        if (!jv_is_valid(code))
            ret = 0;
        else if (jv_get_kind(code) == JV_KIND_NUMBER)
            ret = (int)jv_number_value(code);
        else
            ret = 5;
        jv_free(code);
        if (jv_get_kind(message) == JV_KIND_STRING) {
            fprintf(stderr, "%s", jv_string_value(message));
        } else if (jv_get_kind(message) != JV_KIND_NULL &&
                   jv_is_valid(message)) {
            message = jv_dump_string(message, 0);
            fprintf(stderr, "%s\n", jv_string_value(message));
        }
        fflush(stderr);
        jv_free(message);
    } else if (jv_invalid_has_msg(jv_copy(result))) {
        jv msg = jv_invalid_get_msg(jv_copy(result));
        jv where = jq_util_input_get_position(st->jq);
        if (jv_get_kind(msg) == JV_KIND_STRING) {
            fprintf(stderr, "wirejq: error (at %s): %s\n",
                    jv_string_value(where), jv_string_value(msg));
        } else {
            msg = jv_dump_string(msg, 0);
            fprintf(stderr, "wirejq: error (at %s) (not a string): %s\n",
                    jv_string_value(where), jv_string_value(msg));
        }
        ret = 5;
        jv_free(where);
        jv_free(msg);
    }
    jv_free(result);
    return ret;
}

/*
 * The program text of a -f file without a leading three-line shell
 * trampoline (a "#!" line, a "#" line ending in a backslash, and the exec
 * line it continues), which jq 1.6 also skips.
 */
static const char *skip_shebang(const char *p)
{
    const char *n;
    if (strncmp(p, "#!", 2) != 0)
        return p;
    n = strchr(p, '\n');
    if (n == NULL || n[1] != '#')
        return p;
    n = strchr(n + 1, '\n');
    if (n == NULL || n[1] == '#' || n[1] == '\0' || n[-1] != '\\' ||
        n[-2] == '\\')
        return p;
    n = strchr(n + 1, '\n');
    return n == NULL ? p : n + 1;
}

static void set_origins(jq_state *jq, const char *argv0)
{
    char *copy = strdup(argv0);
    if (copy == NULL) {
        fprintf(stderr, "Error: out of memory\n");
        exit(1);
    }
    jq_set_attr(jq, jv_string("JQ_ORIGIN"), jv_string(dirname(copy)));
    free(copy);
}

/* Compiles the filter; returns CLI_RUN, or a status to stop with. */
static int compile(run_state *st)
{
    wirejq_cli *cli = st->cli;
    jv args, data = jv_invalid();
    const char *text = cli->program;
    int compiled;

    if (cli->options & OPT_FROM_FILE) {
        char *dir = strdup(cli->program);
        if (dir == NULL) {
            perror("malloc");
            exit(2);
        }
        data = jv_load_file(cli->program, 1);
        if (!jv_is_valid(data)) {
            data = jv_invalid_get_msg(data);
            fprintf(stderr, "%s: %s\n", cli->progname, jv_string_value(data));
            jv_free(data);
            free(dir);
            return 2;
        }
        if ((size_t)jv_string_length_bytes(jv_copy(data)) !=
            strlen(jv_string_value(data))) {
            fprintf(stderr, "wirejq: program file contains NUL bytes\n");
            jv_free(data);
            free(dir);
            return 2;
        }
        jq_set_attr(st->jq, jv_string("PROGRAM_ORIGIN"),
                    wirejq_realpath(jv_string(dirname(dir))));
        free(dir);
        text = skip_shebang(jv_string_value(data));
    } else {
        jq_set_attr(st->jq, jv_string("PROGRAM_ORIGIN"),
                    wirejq_realpath(jv_string(".")));
    }
    args = JV_OBJECT(jv_string("positional"), jv_copy(cli->positional),
                     jv_string("named"), jv_copy(cli->named));
    cli->named = jv_object_set(cli->named, jv_string("ARGS"), args);
    compiled = wirejq_compile(st->jq, text, jv_copy(cli->named),
                              wirejq_print_error, NULL);
    jv_free(data);
    return compiled ? CLI_RUN : 3;
}

/* Reads the inputs and runs the program on each; returns the status. */
static int run_inputs(run_state *st)
{
    wirejq_cli *cli = st->cli;
    jq_util_input_state *input = jq_util_input_init(open_error, NULL);
    wirejq_bridge bridge;
    int ret = 0;
    int i;

    if (cli->options & OPT_SEQ)
        cli->parser_flags |= JV_PARSE_SEQ;
    if (cli->options & OPT_RAW_INPUT)
        jq_util_input_set_parser(input, NULL,
                                 (cli->options & OPT_SLURP) ? 1 : 0);
    else
        jq_util_input_set_parser(input, jv_parser_new(cli->parser_flags),
                                 (cli->options & OPT_SLURP) ? 1 : 0);
    jq_set_input_cb(st->jq, jq_util_input_next_input_cb, input);
    wirejq_bridge_install(&bridge, st->jq, &st->dumpopts);
    st->bridge = &bridge;

    for (i = 0; i < cli->nfiles; i++)
        jq_util_input_add_input(input, cli->files[i]);
    if (cli->nfiles == 0)
        jq_util_input_add_input(input, "-");

    if (cli->options & OPT_NULL_INPUT) {
        ret = process(st, jv_null());
    } else {
        jv value;
        while (jq_util_input_errors(input) == 0 &&
               (jv_is_valid(value = jq_util_input_next_input(input)) ||
                jv_invalid_has_msg(jv_copy(value)))) {
            jv msg;
            if (jv_is_valid(value)) {
                ret = process(st, value);
                continue;
            }
            msg = jv_invalid_get_msg(value);
            if (!(cli->options & OPT_SEQ)) {
                ret = 4;
                fprintf(stderr, "parse error: %s\n", jv_string_value(msg));
                jv_free(msg);
                break;
            }
            fprintf(stderr, "ignoring parse error: %s\n", jv_string_value(msg));
            jv_free(msg);
        }
    }
    if (jq_util_input_errors(input) != 0)
        ret = 2;
    wirejq_bridge_clear(&bridge);
    st->bridge = NULL;
    jq_set_input_cb(st->jq, NULL, NULL);
    jq_util_input_free(&input);
    return ret;
}

static int run(run_state *st, const char *argv0)
{
    wirejq_cli *cli = st->cli;
    int status;

    st->dumpopts = cli->dumpopts;
    if (isatty(STDOUT_FILENO))
        st->dumpopts |= JV_PRINT_ISATTY | JV_PRINT_COLOR;
    if (cli->options & OPT_SORT_KEYS)
        st->dumpopts |= JV_PRINT_SORTED;
    if (cli->options & OPT_ASCII)
        st->dumpopts |= JV_PRINT_ASCII;
    if (cli->options & OPT_COLOR)
        st->dumpopts |= JV_PRINT_COLOR;
    if (cli->options & OPT_NO_COLOR)
        st->dumpopts &= ~JV_PRINT_COLOR;
    if (getenv("JQ_COLORS") != NULL && !jq_set_colors(getenv("JQ_COLORS")))
        fprintf(stderr, "Failed to set $JQ_COLORS\n");

    if (jv_get_kind(cli->lib_paths) == JV_KIND_NULL)
        cli->lib_paths =
            JV_ARRAY(jv_string("~/.jq"), jv_string("$ORIGIN/../lib/jq"),
                     jv_string("$ORIGIN/lib"));
    jq_set_attr(st->jq, jv_string("JQ_LIBRARY_PATH"), jv_copy(cli->lib_paths));
    set_origins(st->jq, argv0);

    if (cli->program == NULL &&
        (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
        cli->program = ".";
    if (cli->program == NULL)
        wirejq_usage_short(cli);

    status = compile(st);
    if (status != CLI_RUN)
        return status;
    if (cli->options & OPT_DUMP_DISASM) {
        jq_dump_disassembly(st->jq, 0);
        printf("\n");
    }
    return run_inputs(st);
}

int main(int argc, char **argv)
{
    wirejq_cli cli;
    run_state st;
    int status;
    int bad_write;

    memset(&st, 0, sizeof(st));
    st.cli = &cli;
    st.jq = jq_init();
    if (st.jq == NULL) {
        perror("malloc");
        return 2;
    }
    status = wirejq_cli_parse(&cli, argc, argv);
    if (cli.run_tests)
        status = wirejq_run_tests(cli.tests_file, jv_copy(cli.lib_paths));
    else if (status == CLI_RUN)
        status = run(&st, argc > 0 ? argv[0] : "wirejq");

    bad_write = ferror(stdout);
    if (fclose(stdout) != 0 || bad_write) {
        fprintf(stderr, "Error: writing output failed: %s\n", strerror(errno));
        status = 2;
    }
    wirejq_cli_free(&cli);
    jq_teardown(&st.jq);
    wirejq_token_free();
    if (status >= 10 && (cli.options & OPT_EXIT_STATUS))
        return status - 10;
    if (status >= 10 && !st.exact)
        return 0;
    return status;
}
