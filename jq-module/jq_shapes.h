/* SPDX-License-Identifier: MIT */
/*
 * jq_shapes.h - how wirejq takes each function of the core's table: which
 * have a NAME_text form, and how a builtin reads its input, from the row's
 * kinds and flags.
 */
#ifndef WIREJQ_JQ_SHAPES_H
#define WIREJQ_JQ_SHAPES_H

#include "wirejson.h"

#define JQ_SHAPE_TEXT 0x1u /* also NAME_text, which takes the document as
                              raw text (a string) */
#define JQ_SHAPE_NAMES_GIVEN 0x2u /* the names are one argument that is
                                     always given (tool_schemas($path)) */
#define JQ_SHAPE_RAW_INPUT 0x4u /* a string input is the text itself (a raw
                                   body), another value its JSON */
#define JQ_SHAPE_STRING_INPUT 0x8u /* the input must be a string, the text
                                      itself (as NAME_text) */

/* fn's JQ_SHAPE_* bits; 0: the input is a JSON value, handed as its JSON
 * text. */
unsigned jq_shape(const wj_function *fn);

#endif /* WIREJQ_JQ_SHAPES_H */
