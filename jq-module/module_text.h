/* SPDX-License-Identifier: MIT */
/*
 * module_text.h - the definitions of wirejson.jq, as one line of jq.
 *
 * The build generates the definition from jq-module/wirejson.jq (see
 * embed_module.cmake): comment lines dropped, lines joined, a space at the
 * end, no newline anywhere.
 */
#ifndef WIREJQ_MODULE_TEXT_H
#define WIREJQ_MODULE_TEXT_H

extern const char wirejq_module_text[];

#endif /* WIREJQ_MODULE_TEXT_H */
