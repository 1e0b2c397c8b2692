/* SPDX-License-Identifier: MIT */
/*
 * jq_shapes.c - how wirejq takes a function, read from its row: a raw text
 * is taken as a string's own bytes, a verdict only from a string, a path as
 * one array, and a document function whose answer is a rendering or a
 * digest also has a NAME_text form for documents held as text.
 */
#include "jq_shapes.h"

unsigned jq_shape(const wj_function *fn)
{
    unsigned shape = 0;
    int document = fn->n_params > 0 && fn->params[0].kind == WJ_ARG_DOCUMENT;
    if (fn->flags & WJ_FN_VERDICT)
        shape |= JQ_SHAPE_STRING_INPUT;
    else if (fn->flags & WJ_FN_RAW_TEXT)
        shape |= JQ_SHAPE_RAW_INPUT;
    if (fn->flags & WJ_FN_PATH)
        shape |= JQ_SHAPE_NAMES_GIVEN;
    if (document &&
        !(fn->flags & (WJ_FN_MAY_BE_NULL | WJ_FN_RAW_TEXT | WJ_FN_AGGREGATE)) &&
        (fn->result == WJ_RESULT_JSON || fn->result == WJ_RESULT_DIGEST))
        shape |= JQ_SHAPE_TEXT;
    return shape;
}
