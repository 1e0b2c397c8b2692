/* SPDX-License-Identifier: MIT */
/*
 * digest.c - SHA-256 digests of canonical JSON (docs/contract.md §6).
 *
 * Exactly these bytes are hashed; each digest is written as 64 lowercase
 * hex characters:
 *
 *   data_digest(x)        SHA-256( canonical_json(x) )
 *   message_digest(m, k…) SHA-256( canonical_json(m') ), m' being the object
 *                         m without its top-level members whose value is
 *                         null, without `extra`, and without the names k…
 *   messages_digest(a)    SHA-256( message_digest(a[0]) || message_digest(a[1])
 *                         || … ), the 64-character hex strings concatenated;
 *                         [] gives SHA-256("") =
 *                         e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
 *
 * SHA-256 itself is sha256.c's (libcrypto's SHA256_CTX); the conversation
 * object (conversation.c) hashes the same stream as messages_digest, one
 * message at a time.  For a batch (batch.c), wj_digest_text writes the
 * bytes a digest hashes into a buffer, so that many rows hash at once.
 */
/* clang-format off */
/*
 * So, in SQL, each of these should return TRUE (tests/sql runs them):
 *
 *   SELECT data_digest('{"b":2,"a":1.0}') = data_digest('{"a":1,"b":2}');
 *   SELECT message_digest('{"role":"user","content":"hi","name":null,"extra":1}') = data_digest('{"content":"hi","role":"user"}');
 *   SELECT messages_digest('[]') = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
 */
/* clang-format on */
#include "batch.h"
#include "wj_internal.h"

/* The canonical text is hashed as it is written, through a window of this
 * many bytes (wj_buf.hash): a digest holds the tape, not the text. */
#define WINDOW 65536

/* The message filter (docs/contract.md §6): the root object of a message
 * digest leaves out its members whose value is null, `extra`, and the
 * caller's ignored names. */
typedef struct message_filter {
    const wj_doc *doc;
    uint32_t root;
    const wj_name *ignored;
    size_t n_ignored;
} message_filter;

static int filter_message(void *ctx, uint32_t obj, uint32_t *order, uint32_t *n)
{
    static const wj_name extra = {"extra", 5};
    const message_filter *m = ctx;
    const wj_doc *doc = m->doc;
    wj_members members = wj_members_of(doc, obj);
    uint32_t k, kept = 0;

    if (obj != m->root)
        return 0;
    for (k = 0; k < *n; k++) {
        uint32_t name = wj_members_take(&members);
        wj_span s = wj_doc_name(doc, name);
        if (wj_node_type(doc, wj_member_value(name)) == WJ_NULL ||
            wj_name_in(s, &extra, 1) || wj_name_in(s, m->ignored, m->n_ignored))
            continue;
        order[kept++] = name;
    }
    *n = kept;
    return 1;
}

/* Renders node canonically (as a message when message != 0) through buf, a
 * window (emptied first), into SHA-256. */
static wj_code digest_node(const wj_doc *doc, uint32_t node, int message,
                           const wj_name *ignored, size_t n_ignored,
                           wj_buf *buf, char hex[WJ_DIGEST_HEX_SIZE],
                           wj_error *err)
{
    const wj_render_opts opts = {WJ_STYLE_CANONICAL, NULL, 0};
    message_filter filter = {doc, node, ignored, n_ignored};
    wj_render_hook hook = {filter_message, NULL, &filter};
    wj_sha256 sha;
    wj_code rc;

    wj_sha256_init(&sha);
    buf->done += buf->len; /* the last message's, for the hook's count */
    buf->len = 0;
    buf->hash = &sha;
    if (wj_buf_reserve(buf, WINDOW) != 0)
        rc = wj_buf_fail(buf, err);
    else
        rc = wj_buf_code(buf,
                         wj_render_hooked(doc, node, &opts,
                                          message ? &hook : NULL, buf, err),
                         err);
    buf->hash = NULL;
    if (rc != WJ_OK)
        return rc;
    wj_sha256_update(&sha, buf->ptr, buf->len);
    wj_sha256_peek_hex(&sha, hex);
    return WJ_OK;
}

static wj_code not_a_message(wj_error *err)
{
    return wj_fail(err, WJ_ERR_TYPE, 0, "a message must be a JSON object");
}

/* Parses json and hashes its root: as data, or as a message (which must be
 * an object) when message != 0. */
static wj_code digest_document(const char *json, size_t len, int message,
                               const wj_name *ignored, size_t n_ignored,
                               const wj_alloc *alloc,
                               char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_doc doc;
    wj_buf buf = WJ_BUF_INIT(alloc);
    wj_code rc;
    /* A text about as long as the window is written whole (in one pass
     * where it can be), then hashed, in a block kept from one call to the
     * next (scratch.c: a malloc and a free were 2% of a small body's
     * digest). */
    if (!message && len <= WINDOW) {
        wj_buf text = WJ_BUF_INIT(alloc);
        wj_scratch_block kept;
        wj_scratch_take(alloc, WJ_SCRATCH_TEXT, 1, &kept);
        text.ptr = kept.ptr;
        text.size = kept.size; /* no room yet: the first reserve grows */
        rc = wj_digest_text(json, len, 0, NULL, 0, &text, err);
        if (rc == WJ_OK)
            wj_sha256_hex(text.ptr, text.len, hex);
        kept = (wj_scratch_block){text.ptr, text.size};
        wj_scratch_give(alloc, WJ_SCRATCH_TEXT, 1, &kept);
        return rc;
    }
    rc = wj_doc_parse(&doc, json, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    if (message && wj_node_type(&doc, 0) != WJ_OBJECT)
        rc = not_a_message(err);
    else
        rc = digest_node(&doc, 0, message, ignored, n_ignored, &buf, hex, err);
    wj_free(alloc, buf.ptr);
    wj_doc_release(&doc);
    return rc;
}

wj_code wj_digest_text(const char *json, size_t len, int message,
                       const wj_name *ignored, size_t n_ignored, wj_buf *buf,
                       wj_error *err)
{
    const wj_render_opts opts = {WJ_STYLE_CANONICAL, NULL, 0};
    message_filter filter;
    wj_render_hook hook = {filter_message, NULL, &filter};
    wj_doc doc;
    wj_code rc;
    if (!message) {
        rc = wj_canonical_one_pass(json, len, buf->alloc, buf, err);
        if (rc != WJ_DECLINED)
            return rc;
    }
    rc = wj_doc_parse(&doc, json, len, 0, buf->alloc, err);
    if (rc != WJ_OK)
        return rc;
    filter.doc = &doc;
    filter.root = 0;
    filter.ignored = ignored;
    filter.n_ignored = n_ignored;
    if (message && wj_node_type(&doc, 0) != WJ_OBJECT)
        rc = not_a_message(err);
    else if (wj_buf_presize(buf, wj_render_reserve(len)) != 0)
        rc = wj_buf_fail(buf, err);
    else
        rc = wj_buf_code(buf,
                         wj_render_hooked(&doc, 0, &opts,
                                          message ? &hook : NULL, buf, err),
                         err);
    wj_doc_release(&doc);
    return rc;
}

wj_code wj_data_digest(const char *json, size_t len, const wj_alloc *alloc,
                       char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    return digest_document(json, len, 0, NULL, 0, alloc, hex, err);
}

wj_code wj_message_digest(const char *json, size_t len, const wj_name *ignored,
                          size_t n_ignored, const wj_alloc *alloc,
                          char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    return digest_document(json, len, 1, ignored, n_ignored, alloc, hex, err);
}

/* Digests the messages of the conversation json: the final digest into
 * hex, and, when prefixes is not NULL, the digest after each message into
 * prefixes (64 hex characters each, count of them in *n). */
static wj_code digest_conversation(const char *json, size_t len,
                                   const wj_alloc *alloc,
                                   char hex[WJ_DIGEST_HEX_SIZE],
                                   char **prefixes, size_t *n, wj_error *err)
{
    wj_doc doc;
    wj_buf buf = WJ_BUF_INIT(alloc);
    wj_sha256 outer;
    uint32_t node, k, count;
    char one[WJ_DIGEST_HEX_SIZE], *each = NULL;
    wj_code rc = wj_doc_parse(&doc, json, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    if (wj_node_type(&doc, 0) != WJ_ARRAY) {
        rc = wj_fail(err, WJ_ERR_TYPE, 0,
                     "a conversation must be a JSON array of messages");
        goto done;
    }
    count = wj_node_count(&doc, 0);
    if (prefixes) {
        each = wj_malloc(alloc, (size_t)count * 64 + 1);
        if (!each) {
            rc = wj_fail_nomem(err);
            goto done;
        }
    }
    wj_sha256_init(&outer);
    node = wj_node_first(0);
    for (k = 0; k < count; k++) {
        if (wj_node_type(&doc, node) != WJ_OBJECT) {
            rc = wj_fail(err, WJ_ERR_TYPE, 0, "is not a JSON object");
            if (err)
                err->element = k;
            goto done;
        }
        rc = digest_node(&doc, node, 1, NULL, 0, &buf, one, err);
        if (rc != WJ_OK)
            goto done;
        wj_sha256_update(&outer, one, 64);
        if (each)
            wj_sha256_peek_hex(&outer, each + (size_t)k * 64);
        node = wj_node_next(&doc, node);
    }
    wj_sha256_peek_hex(&outer, hex);
    if (each) {
        each[(size_t)count * 64] = '\0';
        *prefixes = each;
        *n = count;
        each = NULL;
    }
done:
    wj_free(alloc, each);
    wj_free(alloc, buf.ptr);
    wj_doc_release(&doc);
    return rc;
}

wj_code wj_messages_digest(const char *json, size_t len, const wj_alloc *alloc,
                           char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    return digest_conversation(json, len, alloc, hex, NULL, NULL, err);
}

wj_code wj_prefix_digests(const char *json, size_t len, const wj_alloc *alloc,
                          char **hexes, size_t *n, wj_error *err)
{
    char hex[WJ_DIGEST_HEX_SIZE];
    *hexes = NULL;
    *n = 0;
    return digest_conversation(json, len, alloc, hex, hexes, n, err);
}
