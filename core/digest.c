/*
 * digest.c - SHA-256 digests of canonical JSON (SPEC §6).
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
 * So, in SQL, each of these should return TRUE (tests/sql runs them):
 *   SELECT data_digest('{"b":2,"a":1.0}') = data_digest('{"a":1,"b":2}');
 *   SELECT
 * message_digest('{"role":"user","content":"hi","name":null,"extra":1}') =
 * data_digest('{"content":"hi","role":"user"}'); SELECT messages_digest('[]') =
 *     'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
 *
 * The SHA-256 implementation is libcrypto's, fetched once per process.
 */
#include "wj_internal.h"

#include <openssl/evp.h>
#include <pthread.h>

static EVP_MD *sha256_md;
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;

static void fetch_sha256(void)
{
    sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

static const EVP_MD *sha256(void)
{
    pthread_once(&sha256_once, fetch_sha256);
    return sha256_md;
}

static void to_hex(const unsigned char *md, char hex[WJ_DIGEST_HEX_SIZE])
{
    static const char digits[] = "0123456789abcdef";
    int k;
    for (k = 0; k < 32; k++) {
        hex[2 * k] = digits[md[k] >> 4];
        hex[2 * k + 1] = digits[md[k] & 0xF];
    }
    hex[64] = '\0';
}

struct wj_sha256 {
    EVP_MD_CTX *ctx;
};

wj_code wj_sha256_new(wj_sha256 **out)
{
    wj_sha256 *h;
    *out = NULL;
    if (!sha256())
        return WJ_ERR_NOMEM;
    h = OPENSSL_malloc(sizeof *h);
    if (!h)
        return WJ_ERR_NOMEM;
    h->ctx = EVP_MD_CTX_new();
    if (!h->ctx || !EVP_DigestInit_ex(h->ctx, sha256(), NULL)) {
        wj_sha256_free(h);
        return WJ_ERR_NOMEM;
    }
    *out = h;
    return WJ_OK;
}

wj_code wj_sha256_reset(wj_sha256 *h)
{
    return EVP_DigestInit_ex(h->ctx, sha256(), NULL) ? WJ_OK : WJ_ERR_NOMEM;
}

wj_code wj_sha256_update(wj_sha256 *h, const void *data, size_t len)
{
    return EVP_DigestUpdate(h->ctx, data, len) ? WJ_OK : WJ_ERR_NOMEM;
}

wj_code wj_sha256_peek_hex(const wj_sha256 *h, char hex[WJ_DIGEST_HEX_SIZE])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    EVP_MD_CTX *copy = EVP_MD_CTX_new();
    int ok = copy && EVP_MD_CTX_copy_ex(copy, h->ctx) &&
             EVP_DigestFinal_ex(copy, md, NULL);
    EVP_MD_CTX_free(copy);
    if (!ok)
        return WJ_ERR_NOMEM;
    to_hex(md, hex);
    return WJ_OK;
}

void wj_sha256_free(wj_sha256 *h)
{
    if (!h)
        return;
    EVP_MD_CTX_free(h->ctx);
    OPENSSL_free(h);
}

wj_code wj_sha256_hex(const void *data, size_t len,
                      char hex[WJ_DIGEST_HEX_SIZE])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    if (!sha256() || !EVP_Digest(data, len, md, NULL, sha256(), NULL))
        return WJ_ERR_NOMEM;
    to_hex(md, hex);
    return WJ_OK;
}

/* Renders node canonically (as a message when message != 0) into buf,
 * which is emptied first, and hashes it. */
static wj_code digest_node(const wj_doc *doc, uint32_t node, int message,
                           const wj_name *skip, size_t n_skip, wj_buf *buf,
                           char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_render_opts opts = {WJ_STYLE_CANONICAL, NULL, 0, message, skip, n_skip};
    wj_code rc;
    buf->len = 0;
    rc = wj_render(doc, node, &opts, buf, err);
    if (rc != WJ_OK)
        return rc;
    if (wj_sha256_hex(buf->ptr, buf->len, hex) != WJ_OK)
        return wj_fail_nomem(err);
    return WJ_OK;
}

static wj_code not_a_message(wj_error *err)
{
    return wj_fail(err, WJ_ERR_TYPE, 0, "a message must be a JSON object");
}

/* Parses json and hashes its root: as data, or as a message (which must be
 * an object) when message != 0. */
static wj_code digest_document(const char *json, size_t len, int message,
                               const wj_name *skip, size_t n_skip,
                               const wj_alloc *alloc,
                               char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_doc doc;
    wj_buf buf = {NULL, 0, 0, alloc};
    wj_code rc = wj_doc_parse(&doc, json, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    if (message && wj_node_type(&doc, 0) != WJ_OBJECT)
        rc = not_a_message(err);
    else
        rc = digest_node(&doc, 0, message, skip, n_skip, &buf, hex, err);
    wj_free(alloc, buf.ptr);
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

wj_code wj_messages_digest(const char *json, size_t len, const wj_alloc *alloc,
                           char hex[WJ_DIGEST_HEX_SIZE], wj_error *err)
{
    wj_doc doc;
    wj_buf buf = {NULL, 0, 0, alloc};
    wj_sha256 *outer = NULL;
    uint32_t node, left;
    char one[WJ_DIGEST_HEX_SIZE];
    wj_code rc = wj_doc_parse(&doc, json, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    if (wj_node_type(&doc, 0) != WJ_ARRAY) {
        rc = wj_fail(err, WJ_ERR_TYPE, 0,
                     "a conversation must be a JSON array of messages");
        goto done;
    }
    if (wj_sha256_new(&outer) != WJ_OK) {
        rc = wj_fail_nomem(err);
        goto done;
    }
    node = wj_node_first(0);
    for (left = wj_node_count(&doc, 0); left > 0; left--) {
        if (wj_node_type(&doc, node) != WJ_OBJECT) {
            rc = not_a_message(err);
            goto done;
        }
        rc = digest_node(&doc, node, 1, NULL, 0, &buf, one, err);
        if (rc != WJ_OK)
            goto done;
        if (wj_sha256_update(outer, one, 64) != WJ_OK) {
            rc = wj_fail_nomem(err);
            goto done;
        }
        node = wj_node_next(&doc, node);
    }
    if (wj_sha256_peek_hex(outer, hex) != WJ_OK)
        rc = wj_fail_nomem(err);
done:
    wj_sha256_free(outer);
    wj_free(alloc, buf.ptr);
    wj_doc_release(&doc);
    return rc;
}
