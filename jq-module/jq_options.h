/* SPDX-License-Identifier: MIT */
/*
 * jq_options.h - wirejq's command line, read as the stock jq 1.6 reads its own.
 *
 * Same options, same stacking of short options ("-nr"), same first-wins
 * rule for repeated --arg names, same messages and exit status 2 for a
 * malformed command line.
 */
#ifndef WIREJQ_OPTIONS_H
#define WIREJQ_OPTIONS_H

#include <jq.h>

enum {
    OPT_SLURP = 1 << 0,
    OPT_RAW_INPUT = 1 << 1,
    OPT_NULL_INPUT = 1 << 2,
    OPT_RAW_OUTPUT = 1 << 3,
    OPT_ASCII = 1 << 4,
    OPT_COLOR = 1 << 5,
    OPT_NO_COLOR = 1 << 6,
    OPT_SORT_KEYS = 1 << 7,
    OPT_FROM_FILE = 1 << 8,
    OPT_NO_NEWLINE = 1 << 9,
    OPT_UNBUFFERED = 1 << 10,
    OPT_EXIT_STATUS = 1 << 11,
    OPT_SEQ = 1 << 12,
    OPT_DUMP_DISASM = 1 << 13
};

/* What the command line asks for. */
typedef struct wirejq_cli {
    const char *progname; /* argv[0], used in messages as jq uses its own */
    int options;          /* OPT_* */
    int dumpopts;         /* JV_PRINT_* for results */
    int parser_flags;     /* JV_PARSE_* for inputs */
    int jq_flags;         /* JQ_DEBUG_* for jq_start */
    const char *program;  /* the filter, or the file holding it with -f */
    jv named;             /* --arg and friends: name -> value */
    jv positional;        /* --args / --jsonargs values */
    jv lib_paths;         /* -L directories, or null for the defaults */
    char **files;         /* input files, in order */
    int nfiles;
    const char *tests_file; /* --run-tests FILE (NULL: stdin) */
    int run_tests;
} wirejq_cli;

/* How wirejq_cli_parse ends. */
enum { CLI_RUN = -1 };

/*
 * Reads argv into cli.  Returns CLI_RUN to go on, or an exit status when the
 * command line is already answered (--version, a bad --slurpfile).  Usage
 * errors and --help print and exit, as jq does.  Release with
 * wirejq_cli_free.
 */
int wirejq_cli_parse(wirejq_cli *cli, int argc, char **argv);

void wirejq_cli_free(wirejq_cli *cli);

/* path (consumed) made absolute with realpath(3), or unchanged if that
 * fails, as jq treats -L directories and the program's origin. */
jv wirejq_realpath(jv path);

/* Prints the short usage to stderr and exits with status 2. */
void wirejq_usage_short(const wirejq_cli *cli);

#endif /* WIREJQ_OPTIONS_H */
