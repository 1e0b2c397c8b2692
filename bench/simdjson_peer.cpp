// SPDX-License-Identifier: MIT
/*
 * simdjson_peer.cpp - simdjson's DOM parse and parse + to_string, behind a C
 * interface, for core_bench.c.  Linked only into the benchmark: the library
 * stays C.  One dom::parser is reused for every body, as simdjson's own
 * benchmarks do, and the caller's bytes are padded (SIMDJSON_PADDING).
 */
#include <simdjson.h>

#include <cstddef>
#include <new>
#include <string>

#include "simdjson_peer.h"

extern "C" {

size_t sj_padding(void)
{
    return simdjson::SIMDJSON_PADDING;
}

void *sj_parser_new(void)
{
    return new (std::nothrow) simdjson::dom::parser();
}

void sj_parser_free(void *parser)
{
    delete static_cast<simdjson::dom::parser *>(parser);
}

int sj_dom_parse(void *parser, const char *json, size_t len)
{
    auto *p = static_cast<simdjson::dom::parser *>(parser);
    simdjson::dom::element root;
    return p->parse(json, len, false).get(root) == simdjson::SUCCESS ? 0 : -1;
}

long sj_dom_minify(void *parser, const char *json, size_t len)
{
    auto *p = static_cast<simdjson::dom::parser *>(parser);
    simdjson::dom::element root;
    if (p->parse(json, len, false).get(root) != simdjson::SUCCESS)
        return -1;
    std::string text = simdjson::to_string(root);
    return static_cast<long>(text.size());
}

} // extern "C"
