/* SPDX-License-Identifier: MIT */
/*
 * simdjson_peer.h - the C face of simdjson_peer.cpp (benchmark only).
 * The bytes given must be readable sj_padding() bytes past their end.
 */
#ifndef SIMDJSON_PEER_H
#define SIMDJSON_PEER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t sj_padding(void);
void *sj_parser_new(void);
void sj_parser_free(void *parser);
/* 0 when json parses, else -1. */
int sj_dom_parse(void *parser, const char *json, size_t len);
/* Parses json and writes it minified with to_string: the length, or -1. */
long sj_dom_minify(void *parser, const char *json, size_t len);

#ifdef __cplusplus
}
#endif

#endif
