/* SPDX-License-Identifier: MIT */
/*
 * batch.h - what the batch entry point (batch.c) and wj_canonical_json
 * (api.c) take from digest.c.
 *
 * Internal to libwirejson.
 */
#ifndef WJ_BATCH_H
#define WJ_BATCH_H

#include "wj_internal.h"

/*
 * Parses json and appends to buf (an ordinary buffer, not a window) the
 * bytes its digest hashes: the canonical JSON of the document (written in
 * the parse's one pass where wj_canonical_one_pass takes it), or with
 * message != 0 of the message (an object; ignored names as
 * wj_message_digest takes them).  The errors of wj_data_digest and
 * wj_message_digest; on an error buf->len may have grown (the caller cuts
 * it back).
 */
wj_code wj_digest_text(const char *json, size_t len, int message,
                       const wj_name *ignored, size_t n_ignored, wj_buf *buf,
                       wj_error *err);

#endif /* WJ_BATCH_H */
