/* SPDX-License-Identifier: MIT */
/*
 * args.c - SQL arguments as the core's input: documents given as text, json
 * or jsonb, VARIADIC text[] names, and with_top_level's value.
 *
 * text and json are JSON text already: their bytes go to the core as they
 * are, so every rule of docs/contract.md §3 applies to them exactly as in SQLite.  A
 * jsonb value has been parsed by PostgreSQL (member order, duplicate names
 * and number spellings are gone); it is walked with PostgreSQL's jsonb
 * iterator into the core's wj_writer, which writes compact JSON text:
 * strings and names as they are held, numbers as numeric_out spells them.
 * There is no detour through PostgreSQL's own JSON printer (JsonbToCString).
 *
 * One C function serves the text, json and jsonb overloads of an SQL
 * function: the declared argument types are read once per call site from
 * pg_proc and kept in fn_extra, with one reusable writer per jsonb argument.
 */
#include "wirejson_pg.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

wjpg_call *wjpg_call_get(FunctionCallInfo fcinfo)
{
    FmgrInfo *flinfo = fcinfo->flinfo;
    wjpg_call *call;
    Oid *types;
    int nargs;
    int encoding;

    call = (wjpg_call *)flinfo->fn_extra;
    if (call)
        return call;
    /* The core reads and writes UTF-8; SQL_ASCII bytes are taken as they
     * are (and must then be UTF-8 to be valid JSON). */
    encoding = GetDatabaseEncoding();
    if (encoding != PG_UTF8 && encoding != PG_SQL_ASCII)
        ereport(ERROR,
                (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                 errmsg("wirejson needs a database with the UTF8 encoding, "
                        "not %s",
                        GetDatabaseEncodingName())));
    call = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof *call);
    get_func_signature(flinfo->fn_oid, &types, &nargs);
    call->nargs = Min(nargs, WJPG_MAX_ARGS);
    memcpy(call->argtypes, types, (size_t)call->nargs * sizeof(Oid));
    pfree(types);
    wjpg_alloc_init(&call->alloc, flinfo->fn_mcxt);
    flinfo->fn_extra = call;
    return call;
}

static Oid arg_type(wjpg_call *call, int argno)
{
    return argno < call->nargs ? call->argtypes[argno] : InvalidOid;
}

/* Writes one scalar of a jsonb value. */
static wj_code write_scalar(wj_writer *w, const JsonbValue *v)
{
    switch (v->type) {
    case jbvNull: return wj_writer_null(w);
    case jbvBool: return wj_writer_bool(w, v->val.boolean ? 1 : 0);
    case jbvString:
        return wj_writer_string(w, v->val.string.val,
                                (size_t)v->val.string.len);
    case jbvNumeric: {
        /* The digits PostgreSQL keeps: numeric_out, as jsonb_out prints
         * them. */
        char *digits = DatumGetCString(
            DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
        wj_code rc = wj_writer_number(w, digits, strlen(digits));
        pfree(digits);
        return rc;
    }
    default:
        elog(ERROR, "wirejson: unexpected jsonb value of type %d",
             (int)v->type);
    }
    return WJ_ERR_ARGUMENT; /* not reached */
}

/* jsonb -> JSON text in the writer w (reset first). */
static void write_jsonb(wj_writer *w, Jsonb *jb, const char *func,
                        const char **json, size_t *len)
{
    JsonbIterator *it = JsonbIteratorInit(&jb->root);
    JsonbIteratorToken token;
    JsonbValue v;
    bool raw_scalar = false;
    wj_code rc = WJ_OK;
    wj_error err;

    wj_writer_reset(w);
    while (rc == WJ_OK &&
           (token = JsonbIteratorNext(&it, &v, false)) != WJB_DONE) {
        CHECK_FOR_INTERRUPTS();
        switch (token) {
        case WJB_BEGIN_ARRAY:
            /* A scalar document is held as a one-element "raw scalar"
             * array, which is not part of the value. */
            if (v.val.array.rawScalar)
                raw_scalar = true;
            else
                rc = wj_writer_begin_array(w);
            break;
        case WJB_END_ARRAY:
            if (!raw_scalar)
                rc = wj_writer_end_array(w);
            break;
        case WJB_BEGIN_OBJECT: rc = wj_writer_begin_object(w); break;
        case WJB_END_OBJECT: rc = wj_writer_end_object(w); break;
        case WJB_KEY:
            rc = wj_writer_name(w, v.val.string.val, (size_t)v.val.string.len);
            break;
        case WJB_VALUE:
        case WJB_ELEM: rc = write_scalar(w, &v); break;
        case WJB_DONE: break;
        }
    }
    *json = wj_writer_text(w, len, &err);
    if (!*json)
        wjpg_raise(err.code != WJ_OK ? err.code : rc, &err, func);
}

static wj_writer *call_writer(wjpg_call *call, int argno, const char *func)
{
    wj_code rc;

    if (!call->writers[argno]) {
        rc = wj_writer_new(&call->alloc, &call->writers[argno]);
        if (rc != WJ_OK)
            wjpg_raise_reason(rc, "out of memory", func);
    }
    return call->writers[argno];
}

void wjpg_arg_doc(FunctionCallInfo fcinfo, int argno, const char *func,
                  const char **json, size_t *len)
{
    wjpg_call *call = wjpg_call_get(fcinfo);
    Oid type = arg_type(call, argno);

    if (type == JSONBOID) {
        write_jsonb(call_writer(call, argno, func), PG_GETARG_JSONB_P(argno),
                    func, json, len);
        return;
    }
    if (type == TEXTOID || type == JSONOID) {
        text *t = PG_GETARG_TEXT_PP(argno);
        *json = VARDATA_ANY(t);
        *len = VARSIZE_ANY_EXHDR(t);
        return;
    }
    elog(ERROR, "%s: argument %d of type %s is not supported", func, argno + 1,
         format_type_be(type));
}

void wjpg_arg_names(FunctionCallInfo fcinfo, int argno, wj_name **names,
                    size_t *n_names)
{
    ArrayType *array;
    Datum *elems;
    bool *nulls;
    int n, k;
    size_t kept = 0;

    *names = NULL;
    *n_names = 0;
    if (PG_NARGS() <= argno || PG_ARGISNULL(argno))
        return;
    array = PG_GETARG_ARRAYTYPE_P(argno);
    deconstruct_array(array, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls,
                      &n);
    if (n == 0)
        return;
    *names = palloc((size_t)n * sizeof **names);
    for (k = 0; k < n; k++) {
        text *t;
        if (nulls[k])
            continue; /* a NULL name is skipped, as in SQLite */
        t = DatumGetTextPP(elems[k]);
        (*names)[kept].ptr = VARDATA_ANY(t);
        (*names)[kept].len = VARSIZE_ANY_EXHDR(t);
        kept++;
    }
    *n_names = kept;
}

/* A number text for a double, as the core writes it (ECMAScript's
 * Number-to-String).  Not finite is an error spelled as the SQLite
 * extension spells it for a REAL: "with_top_level: value is not a finite
 * number". */
static void double_text(double value, const char *func, const char **json,
                        size_t *len)
{
    char *buf = palloc(WJ_NUMBER_BUF_SIZE);
    wj_error err;
    wj_code rc = wj_number_from_double(value, buf, len, &err);

    if (rc != WJ_OK)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg_internal("%s: value is %s", func, err.msg)));
    *json = buf;
}

void wjpg_arg_value(FunctionCallInfo fcinfo, int argno, const char *func,
                    const char **json, size_t *len)
{
    wjpg_call *call = wjpg_call_get(fcinfo);
    Oid type = arg_type(call, argno);

    switch (type) {
    case TEXTOID: {
        /* A string to quote, with the wire rendering's escapes. */
        text *t = PG_GETARG_TEXT_PP(argno);
        char *out;
        wj_error err;
        wj_code rc = wj_quote_text(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t),
                                   &wjpg_current_alloc, &out, len, &err);
        if (rc != WJ_OK)
            wjpg_raise(rc, &err, func);
        *json = out;
        return;
    }
    case JSONOID:
    case JSONBOID: wjpg_arg_doc(fcinfo, argno, func, json, len); return;
    case NUMERICOID: {
        Numeric num = PG_GETARG_NUMERIC(argno);
        if (numeric_is_nan(num))
            double_text(get_float8_nan(), func, json, len);
        else if (numeric_is_inf(num))
            double_text(get_float8_infinity(), func, json, len);
        else {
            *json = DatumGetCString(
                DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
            *len = strlen(*json);
        }
        return;
    }
    case FLOAT8OID:
        double_text(PG_GETARG_FLOAT8(argno), func, json, len);
        return;
    case INT8OID:
        *json = DatumGetCString(DirectFunctionCall1(
            int8out, Int64GetDatum(PG_GETARG_INT64(argno))));
        *len = strlen(*json);
        return;
    case BOOLOID:
        *json = PG_GETARG_BOOL(argno) ? "true" : "false";
        *len = strlen(*json);
        return;
    default:
        elog(ERROR, "%s: argument %d of type %s is not supported", func,
             argno + 1, format_type_be(type));
    }
}

bool wjpg_arg_jsonb_string(FunctionCallInfo fcinfo, int argno,
                           const char **text, size_t *len)
{
    wjpg_call *call = wjpg_call_get(fcinfo);
    Jsonb *jb;
    JsonbValue v;

    if (arg_type(call, argno) != JSONBOID)
        return false;
    jb = PG_GETARG_JSONB_P(argno);
    if (!JB_ROOT_IS_SCALAR(jb) || !JsonbExtractScalar(&jb->root, &v) ||
        v.type != jbvString)
        return false;
    *text = v.val.string.val;
    *len = (size_t)v.val.string.len;
    return true;
}
