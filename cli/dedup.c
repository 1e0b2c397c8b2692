/* SPDX-License-Identifier: MIT */
/* wirejson dedup: placeholder until the job is written. */
#include "cli.h"

int cli_run_dedup(const cli_options *o)
{
    (void)o;
    cli_error("dedup: not available in this build yet");
    return EXIT_USAGE;
}
