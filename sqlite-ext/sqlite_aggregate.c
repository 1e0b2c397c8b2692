/* SPDX-License-Identifier: MIT */
/*
 * sqlite_aggregate.c - messages_digest_agg(M), the aggregate and window form of
 * messages_digest (docs/contract.md §6, §8): over the rows of a group or of a window
 * frame, in order, SHA-256 of the concatenated message_digest hex strings of
 * the non-NULL rows.  No rows, or an empty frame, give SHA-256 of "".
 *
 *   SELECT messages_digest_agg(m) OVER (ORDER BY pos) FROM t;  -- prefixes
 *
 * The state is one core wj_conversation (core/conversation.c): xStep pushes
 * a row, xInverse drops the oldest, xValue/xFinal read its digest.  A frame
 * that only grows costs O(1) per row; a sliding one rehashes the frame's
 * 64-byte digests after each drop, O(frame) per row.
 */
#include "sqlite_ext.h"

typedef struct agg_state {
    wj_conversation *conv; /* NULL until the first non-NULL row */
} agg_state;

/* The digest of the frame as the function's result; s may be NULL (no row
 * was ever stepped). */
static void result_digest(sqlite3_context *ctx, agg_state *s)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_code rc = WJ_OK;

    if (s && s->conv)
        wj_conversation_digest(s->conv, hex, NULL);
    else /* the digest of no message */
        rc = wj_messages_digest("[]", 2, &wirejson_sqlite_alloc, hex, NULL);
    if (rc != WJ_OK)
        sqlite3_result_error_nomem(ctx);
    else
        wirejson_result_digest(ctx, hex);
}

void messagesDigestAggStep(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    wirejson_call call;
    wirejson_json json;
    wj_error err = WJ_ERROR_INIT;
    agg_state *s;
    wj_code rc;

    (void)argc;
    wirejson_call_init(&call, ctx);
    if (wirejson_arg_json(&call, argv[0], "argument 1", &json) != 0)
        return; /* NULL rows are skipped; other failures are reported */
    s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s || (!s->conv && wj_conversation_new(&wirejson_sqlite_alloc,
                                               &s->conv) != WJ_OK)) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    rc = wj_conversation_push(s->conv, json.ptr, json.len, &err);
    if (rc != WJ_OK)
        wirejson_result_error(&call, rc, &err);
}

void messagesDigestAggInverse(sqlite3_context *ctx, int argc,
                              sqlite3_value **argv)
{
    agg_state *s;

    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return; /* it was skipped on the way in */
    s = sqlite3_aggregate_context(ctx, 0);
    /* SQLite removes only rows it added, so there is one to drop */
    if (s && s->conv)
        wj_conversation_drop(s->conv, NULL);
}

void messagesDigestAggValue(sqlite3_context *ctx)
{
    result_digest(ctx, sqlite3_aggregate_context(ctx, 0));
}

void messagesDigestAggFinal(sqlite3_context *ctx)
{
    agg_state *s = sqlite3_aggregate_context(ctx, 0);
    result_digest(ctx, s);
    if (s) {
        wj_conversation_free(s->conv);
        s->conv = NULL;
    }
}
