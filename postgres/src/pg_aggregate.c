/* SPDX-License-Identifier: MIT */
/*
 * pg_aggregate.c - messages_digest_agg(m), the aggregate and window form of
 * messages_digest (docs/contract.md §6, §8): over the rows of a group or of a
 * window frame, in order, SHA-256 of the concatenated message_digest hex
 * strings of the non-NULL rows; no rows, or an empty frame, give SHA-256 of "".
 *
 *   SELECT messages_digest_agg(m ORDER BY pos) FROM t;                 -- whole
 *   SELECT messages_digest_agg(m) OVER (ORDER BY pos) FROM t;          --
 * prefixes SELECT messages_digest_agg(m) OVER (ORDER BY pos ROWS BETWEEN 2
 * PRECEDING AND CURRENT ROW) FROM t;        -- sliding
 *
 * The state is the core's wj_conversation, allocated in the aggregate's
 * memory context through the palloc allocator (pg_alloc.c), so PostgreSQL
 * frees it with that context, also when the query fails.  The same step
 * function is the plain and the moving transition; the inverse drops the
 * oldest message, so a frame whose start moves does not start again from
 * nothing (the core then rehashes the 64-byte digests it holds, never a
 * message).  The final function only reads the state: a window calls it once
 * per row.
 */
#include "wirejson_pg.h"

#include "utils/builtins.h"

static const char func[] = "messages_digest_agg";

typedef struct agg_state {
    wj_alloc alloc; /* palloc in the aggregate context; the conversation
                       keeps a pointer to it */
    wj_conversation *conv;
} agg_state;

static agg_state *state_arg(FunctionCallInfo fcinfo)
{
    return PG_ARGISNULL(0) ? NULL : (agg_state *)PG_GETARG_POINTER(0);
}

PG_FUNCTION_INFO_V1(wirejson_agg_step);
Datum wirejson_agg_step(PG_FUNCTION_ARGS)
{
    MemoryContext aggctx;
    agg_state *state = state_arg(fcinfo);
    const char *json;
    size_t len;
    wj_error err;
    wj_code rc;

    if (!AggCheckCallContext(fcinfo, &aggctx))
        elog(ERROR, "%s called in a non-aggregate context", func);
    if (!state) {
        state = MemoryContextAllocZero(aggctx, sizeof *state);
        wjpg_alloc_init(&state->alloc, aggctx);
        rc = wj_conversation_new(&state->alloc, &state->conv);
        if (rc != WJ_OK)
            wjpg_raise_reason(rc, "out of memory", func);
    }
    if (PG_ARGISNULL(1))
        PG_RETURN_POINTER(state); /* NULL rows are skipped */
    wjpg_arg_doc_as(fcinfo, 1, func, WJPG_DOC_DOUBLES, &json, &len, NULL);
    rc = wj_conversation_push(state->conv, json, len, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    PG_RETURN_POINTER(state);
}

PG_FUNCTION_INFO_V1(wirejson_agg_inverse);
Datum wirejson_agg_inverse(PG_FUNCTION_ARGS)
{
    agg_state *state = state_arg(fcinfo);
    wj_error err;
    wj_code rc;

    if (!AggCheckCallContext(fcinfo, NULL))
        elog(ERROR, "%s called in a non-aggregate context", func);
    /* The step made the state on the first row, NULL or not. */
    if (!state)
        elog(ERROR, "%s: inverse transition without a state", func);
    if (PG_ARGISNULL(1))
        PG_RETURN_POINTER(state); /* it was skipped on the way in */
    rc = wj_conversation_drop(state->conv, &err);
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    PG_RETURN_POINTER(state);
}

PG_FUNCTION_INFO_V1(wirejson_agg_final);
Datum wirejson_agg_final(PG_FUNCTION_ARGS)
{
    agg_state *state = state_arg(fcinfo);
    wj_conversation *conv;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_error err;
    wj_code rc;

    if (state) {
        rc = wj_conversation_digest(state->conv, hex, &err);
    } else {
        /* No row at all: the digest of the empty conversation. */
        rc = wj_conversation_new(&wjpg_current_alloc, &conv);
        if (rc != WJ_OK)
            wjpg_raise_reason(rc, "out of memory", func);
        rc = wj_conversation_digest(conv, hex, &err);
        wj_conversation_free(conv);
    }
    if (rc != WJ_OK)
        wjpg_raise(rc, &err, func);
    PG_RETURN_TEXT_P(cstring_to_text_with_len(hex, WJ_DIGEST_HEX_SIZE - 1));
}
