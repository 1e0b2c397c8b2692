/* SPDX-License-Identifier: MIT */
/*
 * pg_errors.c - the core's errors as PostgreSQL ERRORs, and core results as
 * text datums.
 *
 * The message is wj_error_format's with the SQL function's name, the same
 * text the SQLite extension gives:
 *   wire_json: malformed JSON at byte 7: trailing comma
 *   message_digest: a message must be a JSON object
 * The SQLSTATE says what kind of error it is:
 *   22P02 invalid_text_representation   the input is not valid JSON (§3)
 *   22023 invalid_parameter_value       valid JSON of the wrong kind (a number
 *                                       that rounds to infinity where a double
 *                                       is needed too), or a bad argument
 *   54000 program_limit_exceeded        input or result beyond a limit
 *   53200 out_of_memory                 an allocation failed
 *   57014 query_canceled                the call was interrupted (a cancel
 *                                       that CHECK_FOR_INTERRUPTS raises)
 */
#include "wirejson_pg.h"

#include "miscadmin.h"

static int sqlstate_of(wj_code rc)
{
    switch (rc) {
    case WJ_ERR_SYNTAX:
    case WJ_ERR_UTF8:
    case WJ_ERR_DUPLICATE:
    case WJ_ERR_DEPTH: return ERRCODE_INVALID_TEXT_REPRESENTATION;
    case WJ_ERR_TOOBIG: return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
    case WJ_ERR_NOMEM: return ERRCODE_OUT_OF_MEMORY;
    case WJ_ERR_INTERRUPTED: return ERRCODE_QUERY_CANCELED;
    case WJ_ERR_RANGE:
    case WJ_ERR_TYPE:
    case WJ_ERR_ARGUMENT:
    case WJ_OK: break;
    }
    return ERRCODE_INVALID_PARAMETER_VALUE;
}

void wjpg_raise(wj_code rc, const wj_error *err, const char *func)
{
    char buf[256];
    char *msg = buf;
    size_t need;
    wj_error e = *err;

    if (rc == WJ_ERR_INTERRUPTED) {
        /* The hook saw a cancel or a termination pending: this raises it
         * (canceling statement due to user request / statement timeout). */
        CHECK_FOR_INTERRUPTS();
        /* Held off (QueryCancelHoldoffCount, a critical section): the call
         * still stops, with the core's message. */
    }
    e.code = rc;
    need = wj_error_format(&e, func, buf, sizeof buf);
    if (need >= sizeof buf) {
        /* A long function or argument name: palloc may fail here only with
         * its own out-of-memory error, which is as good. */
        msg = palloc(need + 1);
        wj_error_format(&e, func, msg, need + 1);
    }
    ereport(ERROR, (errcode(sqlstate_of(rc)), errmsg_internal("%s", msg)));
    pg_unreachable();
}

void wjpg_raise_reason(wj_code rc, const char *reason, const char *func)
{
    wj_error err;

    memset(&err, 0, sizeof err);
    err.code = rc;
    err.msg = reason;
    err.element = WJ_NO_ELEMENT;
    wjpg_raise(rc, &err, func);
}

#define COPY_STEP ((size_t)1 << 20)

text *wjpg_result_text(char *out, size_t len, const char *func)
{
    text *t;

    if (len > MaxAllocSize - VARHDRSZ) {
        pfree(out);
        wjpg_raise_reason(WJ_ERR_TOOBIG, "result too large", func);
    }
    t = (text *)palloc_extended(len + VARHDRSZ, MCXT_ALLOC_NO_OOM);
    if (!t) {
        pfree(out);
        wjpg_raise_reason(WJ_ERR_NOMEM, "out of memory", func);
    }
    SET_VARSIZE(t, len + VARHDRSZ);
    /* A MiB at a time: copying a result of hundreds of MB takes long
     * enough that a cancel must be able to land in between. */
    for (size_t at = 0; at < len; at += COPY_STEP) {
        size_t n = len - at < COPY_STEP ? len - at : COPY_STEP;
        CHECK_FOR_INTERRUPTS();
        memcpy(VARDATA(t) + at, out + at, n);
    }
    pfree(out);
    return t;
}
