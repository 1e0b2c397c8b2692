/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c - wj_rendering_text and wj_digest_hex: every rendering and
 * digest behind one signature, so the front ends' tables of functions name
 * a kind instead of each writing its own adapters.
 */
#include "wj_internal.h"

wj_code wj_rendering_text(wj_rendering kind, const char *json, size_t len,
                          const wj_name *names, size_t n_names,
                          const wj_alloc *alloc, char **out, size_t *out_len,
                          wj_error *err)
{
    switch (kind) {
    case WJ_RENDERING_WIRE:
        return wj_wire_json(json, len, names, n_names, alloc, out, out_len,
                            err);
    case WJ_RENDERING_WIRE_SORTED:
        return wj_wire_json_sorted(json, len, alloc, out, out_len, err);
    case WJ_RENDERING_CANONICAL:
        return wj_canonical_json(json, len, alloc, out, out_len, err);
    case WJ_RENDERING_CANONICAL_ARGUMENTS:
        return wj_canonical_arguments(json, len, alloc, out, out_len, err);
    case WJ_RENDERING_TOOL_SCHEMAS:
        return wj_tool_schemas(json, len, names, n_names, alloc, out, out_len,
                               err);
    }
    *out = NULL;
    return wj_fail(err, WJ_ERR_ARGUMENT, 0, "unknown rendering");
}

wj_code wj_digest_hex(wj_digest_kind kind, const char *json, size_t len,
                      const wj_name *names, size_t n_names,
                      const wj_alloc *alloc, char hex[WJ_DIGEST_HEX_SIZE],
                      wj_error *err)
{
    switch (kind) {
    case WJ_DIGEST_DATA: return wj_data_digest(json, len, alloc, hex, err);
    case WJ_DIGEST_MESSAGE:
        return wj_message_digest(json, len, names, n_names, alloc, hex, err);
    case WJ_DIGEST_MESSAGES:
        return wj_messages_digest(json, len, alloc, hex, err);
    }
    return wj_fail(err, WJ_ERR_ARGUMENT, 0, "unknown digest");
}
