/* SPDX-License-Identifier: MIT */
/*
 * pg_args.c - SQL arguments as the core's input: documents given as text, json
 * or jsonb, VARIADIC text[] names, and with_top_level's value.
 *
 * text and json are JSON text already: their bytes go to the core as they
 * are, so every rule of docs/contract.md §3 applies to them exactly as in
 * SQLite.  A jsonb value has been parsed by PostgreSQL (member order, duplicate
 * names and number spellings are gone); it is walked with PostgreSQL's jsonb
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

/* The JSON text of a jsonb document may not pass PostgreSQL's 1 GB limit
 * on a value (what a text or json document can be). */
#define TEXT_MAX (MaxAllocSize - VARHDRSZ)

/* A stored numeric's header and digits (base 10000, most significant first,
 * no leading zero digit), read from its on-disk format, which pg_upgrade
 * keeps stable. */
typedef struct numeric_parts {
    bool negative;
    int weight; /* of the first digit: value = d0 * 10000^weight + ... */
    int dscale; /* decimal digits after the point numeric_out prints */
    int ndigits;
    const uint8 *digits; /* int16 each, unaligned */
} numeric_parts;

#define NBASE_DIGITS 4

/* false for NaN and the infinities, which jsonb does not hold. */
static bool numeric_parts_of(Numeric num, numeric_parts *np)
{
    const uint8 *p = (const uint8 *)VARDATA_ANY(num);
    size_t size = VARSIZE_ANY_EXHDR(num), hdr;
    uint16 head;

    if (size < sizeof(uint16))
        return false;
    memcpy(&head, p, sizeof head);
    if ((head & 0xC000) == 0xC000) /* NUMERIC_SPECIAL */
        return false;
    if (head & 0x8000) { /* NUMERIC_SHORT */
        np->negative = (head & 0x2000) != 0;
        np->dscale = (head & 0x1F80) >> 7;
        np->weight = (head & 0x0040 ? ~0x003F : 0) | (head & 0x003F);
        hdr = sizeof(uint16);
    } else {
        int16 w;
        if (size < 2 * sizeof(uint16))
            return false;
        memcpy(&w, p + sizeof(uint16), sizeof w);
        np->negative = (head & 0xC000) == 0x4000;
        np->dscale = head & 0x3FFF;
        np->weight = w;
        hdr = 2 * sizeof(uint16);
    }
    np->ndigits = (int)((size - hdr) / sizeof(int16));
    np->digits = p + hdr;
    return true;
}

static int numeric_digit(const numeric_parts *np, int d)
{
    int16 v;
    if (d < 0 || d >= np->ndigits)
        return 0;
    memcpy(&v, np->digits + (size_t)d * sizeof(int16), sizeof v);
    return v;
}

/* The decimal digits of the first digit, 1 to 4 (1 for zero). */
static int lead_digits(int first)
{
    return first >= 1000 ? 4 : first >= 100 ? 3 : first >= 10 ? 2 : 1;
}

/* The length of what numeric_out prints. */
static size_t numeric_text_len(const numeric_parts *np)
{
    size_t n = np->negative && np->ndigits > 0 ? 1 : 0;
    if (np->ndigits == 0 || np->weight < 0)
        n += 1;
    else
        n += NBASE_DIGITS * (size_t)np->weight +
             (size_t)lead_digits(numeric_digit(np, 0));
    return n + (np->dscale > 0 ? 1 + (size_t)np->dscale : 0);
}

/* Its decimal exponent: the value is d.ddd * 10^exp (not zero). */
static int numeric_exponent(const numeric_parts *np)
{
    return NBASE_DIGITS * np->weight + lead_digits(numeric_digit(np, 0)) - 1;
}

/* Writes what numeric_out prints (get_str_from_var's layout) into out, which
 * has room for numeric_text_len bytes; returns the bytes written.  A long
 * number's zeros go by in runs, not a division per digit. */
static size_t numeric_spell(const numeric_parts *np, char *out)
{
    char *cp = out;
    int d, i;

    if (np->negative && np->ndigits > 0)
        *cp++ = '-';
    if (np->ndigits == 0 || np->weight < 0) {
        d = np->ndigits == 0 ? 0 : np->weight + 1;
        *cp++ = '0';
    } else {
        for (d = 0; d <= np->weight; d++) {
            int dig = numeric_digit(np, d);
            if (d >= np->ndigits) { /* the rest of the integer part: zeros */
                size_t zeros = NBASE_DIGITS * (size_t)(np->weight - d + 1);
                memset(cp, '0', zeros);
                cp += zeros;
                d = np->weight + 1;
                break;
            }
            if (d == 0) {
                cp += sprintf(cp, "%d", dig);
            } else {
                cp[0] = (char)('0' + dig / 1000);
                cp[1] = (char)('0' + dig / 100 % 10);
                cp[2] = (char)('0' + dig / 10 % 10);
                cp[3] = (char)('0' + dig % 10);
                cp += NBASE_DIGITS;
            }
        }
    }
    if (np->dscale > 0) {
        char *end;
        *cp++ = '.';
        end = cp + np->dscale;
        for (i = 0; i < np->dscale; d++, i += NBASE_DIGITS) {
            int dig = numeric_digit(np, d);
            char four[NBASE_DIGITS];
            int k, n = np->dscale - i < NBASE_DIGITS ? np->dscale - i
                                                     : NBASE_DIGITS;
            four[0] = (char)('0' + dig / 1000);
            four[1] = (char)('0' + dig / 100 % 10);
            four[2] = (char)('0' + dig / 10 % 10);
            four[3] = (char)('0' + dig % 10);
            for (k = 0; k < n; k++)
                cp[k] = four[k];
            cp += n;
        }
        cp = end;
    }
    return (size_t)(cp - out);
}

/* A number this long makes the walk first add up how long the whole text
 * will be at least (text_lower_bound). */
#define LONG_NUMBER 4096

/*
 * A lower bound of the length of jb's JSON text: its numbers as numeric_out
 * spells them, its strings and names unescaped with their quotes, its
 * brackets (no commas or colons).  A jsonb of a few KB can stand for
 * gigabytes of digits: this tells, before any of them is written, that the
 * text would pass the limit.
 */
static size_t text_lower_bound(Jsonb *jb)
{
    JsonbIterator *it = JsonbIteratorInit(&jb->root);
    JsonbIteratorToken token;
    JsonbValue v;
    numeric_parts np;
    size_t n = 0;

    while ((token = JsonbIteratorNext(&it, &v, false)) != WJB_DONE) {
        CHECK_FOR_INTERRUPTS();
        switch (token) {
        case WJB_BEGIN_ARRAY:
        case WJB_END_ARRAY:
        case WJB_BEGIN_OBJECT:
        case WJB_END_OBJECT: n += 1; break;
        case WJB_KEY: n += (size_t)v.val.string.len + 2; break;
        case WJB_VALUE:
        case WJB_ELEM:
            if (v.type == jbvString)
                n += (size_t)v.val.string.len + 2;
            else if (v.type == jbvNumeric &&
                     numeric_parts_of(v.val.numeric, &np))
                n += numeric_text_len(&np);
            else
                n += 4;
            break;
        case WJB_DONE: break;
        }
    }
    return n;
}

/* Writes one scalar of a jsonb value. */
static wj_code write_scalar(wj_writer *w, const JsonbValue *v,
                            wjpg_doc_mode mode, size_t written,
                            const char *func)
{
    switch (v->type) {
    case jbvNull: return wj_writer_null(w);
    case jbvBool: return wj_writer_bool(w, v->val.boolean ? 1 : 0);
    case jbvString:
        return wj_writer_string(w, v->val.string.val,
                                (size_t)v->val.string.len);
    case jbvNumeric: {
        numeric_parts np;
        size_t len;
        char *digits;
        wj_code rc;

        if (!numeric_parts_of(v->val.numeric, &np)) {
            digits = DatumGetCString(DirectFunctionCall1(
                numeric_out, NumericGetDatum(v->val.numeric)));
            rc = wj_writer_number(w, digits, strlen(digits));
            pfree(digits);
            return rc;
        }
        /* A number a double cannot hold (1e309 and up) is an error of the
         * renderings and digests that read numbers as doubles: a short
         * stand-in beyond that range makes the core give the error the
         * text gives ("number out of range at byte N: rounds to
         * infinity") at the offset where the number starts, the same
         * whatever its length, and not one of its digits is spelled.  Up
         * to 1e308 the digits are written and the core decides. */
        if (mode == WJPG_DOC_DOUBLES && np.ndigits > 0 &&
            numeric_exponent(&np) >= 309)
            return np.negative ? wj_writer_number(w, "-1e999", 6)
                               : wj_writer_number(w, "1e999", 5);
        /* The digits PostgreSQL keeps, as numeric_out (and so jsonb_out)
         * prints them; nothing is spelled that would pass the limit. */
        len = numeric_text_len(&np);
        if (len > TEXT_MAX - written)
            wjpg_raise_reason(WJ_ERR_TOOBIG, "input too large", func);
        digits = palloc_extended(len + 1, MCXT_ALLOC_HUGE);
        len = numeric_spell(&np, digits);
        rc = wj_writer_number(w, digits, len);
        pfree(digits);
        return rc;
    }
    default:
        elog(ERROR, "wirejson: unexpected jsonb value of type %d",
             (int)v->type);
    }
    return WJ_ERR_ARGUMENT; /* not reached */
}

/* The length of the longest prefix of s[0..n) that the writer takes (UTF-8,
 * and the encoded surrogates it writes as \udxxx escapes): the offset of the
 * first byte the core would call invalid UTF-8. */
static size_t utf8_prefix(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;

    while (i < n) {
        int k = s[i] < 0x80 ? 1 : pg_utf_mblen(s + i);
        if ((size_t)k > n - i)
            break;
        if (!pg_utf8_islegal(s + i, k) &&
            !(k == 3 && s[i] == 0xED && s[i + 1] >= 0xA0 && s[i + 1] <= 0xBF &&
              (s[i + 2] & 0xC0) == 0x80))
            break;
        i += (size_t)k;
    }
    return i;
}

/*
 * A string or member name that is not UTF-8 (a database in SQL_ASCII holds
 * any bytes): for wirejson_error and wirejson_error_position, the error the
 * core gives for the text with those bytes in it, as a text or json document
 * gives it.  The writer writes the valid part of the string; the text so far
 * then goes to wj_validate, whose first error is the answer when it comes
 * before the string (too deep a nesting), else the invalid UTF-8 at its
 * offset.  Fills *err and returns false.
 */
static bool invalid_string(wj_writer *w, bool is_name, const char *s, size_t n,
                           wj_error *err)
{
    size_t k = utf8_prefix(s, n), len, at;
    const char *text;
    wj_code rc;

    rc = is_name ? wj_writer_name(w, s, k) : wj_writer_string(w, s, k);
    text = rc == WJ_OK ? wj_writer_text(w, &len, NULL) : NULL;
    if (!text)
        return true; /* not that: the caller raises the writer's error */
    /* the text ends with the string's closing quote (and a name's ':') */
    at = len - (is_name && len > 0 && text[len - 1] == ':' ? 2 : 1);
    rc = wj_validate(text, at, &wjpg_current_alloc, err);
    if (rc == WJ_ERR_INTERRUPTED || rc == WJ_ERR_NOMEM)
        wjpg_raise(rc, err, "wirejson_error");
    if (!wj_error_is_input(rc) || err->offset >= at) {
        memset(err, 0, sizeof *err);
        err->code = WJ_ERR_UTF8;
        err->offset = at;
        err->msg = "invalid UTF-8";
        err->element = WJ_NO_ELEMENT;
    }
    return false;
}

/* jsonb -> JSON text in the writer w (reset first).  In WJPG_DOC_VERDICT
 * mode a string that is not UTF-8 ends the walk: false, with *verdict
 * filled (invalid_string). */
static bool write_jsonb(wj_writer *w, Jsonb *jb, const char *func,
                        wjpg_doc_mode mode, const char **json, size_t *len,
                        wj_error *verdict)
{
    JsonbIterator *it = JsonbIteratorInit(&jb->root);
    JsonbIteratorToken token;
    JsonbValue v;
    bool raw_scalar = false;
    bool any_bytes =
        mode == WJPG_DOC_VERDICT && GetDatabaseEncoding() == PG_SQL_ASCII;
    wj_code rc = WJ_OK;
    wj_error err;
    size_t written = 0;
    bool bounded = false; /* text_lower_bound was asked */

    wj_writer_reset(w);
    while (rc == WJ_OK &&
           (token = JsonbIteratorNext(&it, &v, false)) != WJB_DONE) {
        CHECK_FOR_INTERRUPTS();
        /* The text so far, checked as it grows: a jsonb of a few KB can
         * spell gigabytes (1e131071 is 131,072 digits), and the limit is
         * passed as soon as it is, not at the end. */
        if (!wj_writer_text(w, &written, NULL))
            break;
        if (written > TEXT_MAX)
            wjpg_raise_reason(WJ_ERR_TOOBIG, "input too large", func);
        if (!bounded && (token == WJB_VALUE || token == WJB_ELEM) &&
            v.type == jbvNumeric) {
            numeric_parts np;
            if (numeric_parts_of(v.val.numeric, &np) &&
                numeric_text_len(&np) >= LONG_NUMBER &&
                !(mode == WJPG_DOC_DOUBLES && np.ndigits > 0 &&
                  numeric_exponent(&np) >= 309)) {
                bounded = true;
                if (text_lower_bound(jb) > TEXT_MAX)
                    wjpg_raise_reason(WJ_ERR_TOOBIG, "input too large", func);
            }
        }
        if (any_bytes &&
            (token == WJB_KEY || ((token == WJB_VALUE || token == WJB_ELEM) &&
                                  v.type == jbvString)) &&
            utf8_prefix(v.val.string.val, (size_t)v.val.string.len) !=
                (size_t)v.val.string.len &&
            !invalid_string(w, token == WJB_KEY, v.val.string.val,
                            (size_t)v.val.string.len, verdict))
            return false;
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
        case WJB_ELEM: rc = write_scalar(w, &v, mode, written, func); break;
        case WJB_DONE: break;
        }
    }
    *json = wj_writer_text(w, len, &err);
    if (!*json)
        wjpg_raise(err.code != WJ_OK ? err.code : rc, &err, func);
    if (*len > TEXT_MAX)
        wjpg_raise_reason(WJ_ERR_TOOBIG, "input too large", func);
    return true;
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

bool wjpg_arg_doc_as(FunctionCallInfo fcinfo, int argno, const char *func,
                     wjpg_doc_mode mode, const char **json, size_t *len,
                     wj_error *verdict)
{
    wjpg_call *call = wjpg_call_get(fcinfo);
    Oid type = arg_type(call, argno);

    if (type == JSONBOID)
        return write_jsonb(call_writer(call, argno, func),
                           PG_GETARG_JSONB_P(argno), func, mode, json, len,
                           verdict);
    if (type == TEXTOID || type == JSONOID) {
        text *t = PG_GETARG_TEXT_PP(argno);
        *json = VARDATA_ANY(t);
        *len = VARSIZE_ANY_EXHDR(t);
        return true;
    }
    elog(ERROR, "%s: argument %d of type %s is not supported", func, argno + 1,
         format_type_be(type));
    return false; /* not reached */
}

void wjpg_arg_doc(FunctionCallInfo fcinfo, int argno, const char *func,
                  const char **json, size_t *len)
{
    wjpg_arg_doc_as(fcinfo, argno, func, WJPG_DOC_AS_IS, json, len, NULL);
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
