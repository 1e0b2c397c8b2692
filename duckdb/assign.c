/* SPDX-License-Identifier: MIT */
/*
 * assign.c - how the extension hands DuckDB its string results, chosen once
 * at load (docs/duckdb.md, "Why API 1.2.0 and not a newer one").
 *
 * The extension is built for the C extension API v1.2.0 (its footer says
 * so), and DuckDB's v1.2.0 assign checks that every result is UTF-8, which
 * it is by construction.  DuckDB 1.5.6 and later also offer the unchecked
 * assign, in the struct's stable v1.5.6 band.  DuckDB's get_api returns
 * the same whole struct for any version it supports, but asking for one it
 * does not support marks the load as failed even if the extension then
 * carries on, so v1.5.6 is asked for only of a DuckDB whose library
 * version is 1.5.6 or later.
 *
 * WIREJSON_DUCKDB_API, read here at load, chooses by hand: v1.2.0 keeps the
 * checked assign everywhere, v1.5.6 demands the unchecked one (the load
 * fails where DuckDB lacks it); unset or empty, the newest DuckDB offers.
 */
#include "ext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wirejson_assign_fn wirejson_assign;

/* Whether DuckDB's library version text (v1.5.6, v1.5.7-dev12, ...) is
 * 1.5.6 or later; a pre-release of 1.5.6 itself is not. */
static int offers_v1_5_6(const char *version)
{
    unsigned major, minor, patch;
    int end = 0;

    if (!version || sscanf(version, "v%u.%u.%u%n", &major, &minor, &patch,
                           &end) != 3)
        return 0;
    if (major != 1)
        return major > 1;
    if (minor != 5)
        return minor > 5;
    if (patch != 6)
        return patch > 6;
    return version[end] == '\0';
}

bool wirejson_choose_assign(duckdb_extension_info info,
                            struct duckdb_extension_access *access)
{
    const char *want = getenv("WIREJSON_DUCKDB_API");
    const char *version = duckdb_library_version();
    char msg[200];

    wirejson_assign = duckdb_vector_assign_string_element_len;
    if (want && strcmp(want, "v1.2.0") == 0)
        return true;
    if (want && *want && strcmp(want, "v1.5.6") != 0) {
        snprintf(msg, sizeof msg,
                 "wirejson: WIREJSON_DUCKDB_API is '%.40s'; "
                 "expected v1.2.0, v1.5.6 or nothing", want);
        access->set_error(info, msg);
        return false;
    }
    if (offers_v1_5_6(version)) {
        const void *api = access->get_api(info, "v1.5.6");
        if (api)
            wirejson_assign = wirejson_unchecked_assign(api);
        /* NULL: DuckDB has set the load's error already */
        return api != NULL;
    }
    if (want && *want) {
        snprintf(msg, sizeof msg,
                 "wirejson: WIREJSON_DUCKDB_API is v1.5.6, but DuckDB "
                 "%.40s offers the C extension API v1.2.0 only",
                 version ? version : "(unknown)");
        access->set_error(info, msg);
        return false;
    }
    return true;
}
