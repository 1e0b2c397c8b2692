/* SPDX-License-Identifier: MIT */
/*
 * prompt.c - the prompt-cache audit's prefix digests (docs/contract.md §16).
 *
 * A request body is cut into the elements a provider's prompt begins with:
 *
 *   e0  {"model":M,"tools":T,"response_format":F}   (null when absent)
 *   e1  {"system":S}  S: system, else instructions, else systemInstruction
 *   e2… one per entry of messages (else input when an array, else contents)
 *
 * with every member named cache_control or prompt_cache_breakpoint left out
 * at any depth.  Each element is rendered in a mode (sent: members in input
 * order, numbers as their lexemes; canonical: RFC 8785; tools_set: canonical
 * with e0's tools sorted by their canonical bytes), di = hex SHA-256 of the
 * rendering, p0 = SHA-256(d0), pk = SHA-256(p(k-1) || dk), each hashed as
 * its 64 lowercase hex characters.  One parse serves every mode.
 */
#include "sha256_multi.h"
#include "wj_internal.h"

#include <stdlib.h>

/* The members that say where a cache ends, not what it holds. */
static const wj_name markers[] = {{"cache_control", 13},
                                  {"prompt_cache_breakpoint", 23}};

typedef struct prompt {
    const wj_doc *doc;
    wj_style style;
    wj_error *err;
} prompt;

/* The render hook: every object without its markers, in the order the
 * style wants (input order for sent, sorted names otherwise; the canonical
 * rendering re-sorts by UTF-16 itself).  0 for an object without one. */
static int leave_out_markers(void *ctx, uint32_t obj, uint32_t *order,
                             uint32_t *n)
{
    const prompt *p = ctx;
    const wj_doc *doc = p->doc;
    uint32_t k, kept = 0, count = *n, name = wj_node_first(obj);
    int found = 0;

    for (k = 0; k < count; k++, name = wj_member_next(doc, name)) {
        /* most names are plain and start with neither marker's letter */
        const char *at = doc->json + doc->tape[name];
        if (*at == '"' && at[1] != 'c' && at[1] != 'p')
            continue;
        if (wj_name_in(wj_doc_name(doc, name), markers, 2))
            found = 1;
    }
    if (!found)
        return 0;
    if (p->style == WJ_STYLE_SENT) {
        name = wj_node_first(obj);
        for (k = 0; k < count; k++, name = wj_member_next(doc, name))
            order[k] = name;
    } else {
        wj_members_list(doc, obj, order);
    }
    for (k = 0; k < count; k++)
        if (!wj_name_in(wj_doc_name(doc, order[k]), markers, 2))
            order[kept++] = order[k];
    *n = kept;
    return 1;
}

/* True when text[0..n) spells word, found from its first '_' (a rarer
 * byte in prompts than its first letter). */
static int spells(const char *text, size_t n, wj_name word)
{
    size_t pivot = (size_t)((const char *)memchr(word.ptr, '_', word.len) -
                            word.ptr);
    const char *at, *last;
    if (n < word.len)
        return 0;
    at = text + pivot;
    last = text + n - (word.len - pivot);
    while (at <= last &&
           (at = memchr(at, '_', (size_t)(last - at) + 1)) != NULL) {
        if (memcmp(at - pivot, word.ptr, word.len) == 0)
            return 1;
        at++;
    }
    return 0;
}

/* True when the value at node may hold a marker: its text spells one, or
 * the document has names with escapes (which could spell one). */
static int may_hold_marker(const wj_doc *doc, uint32_t node)
{
    uint32_t start = wj_node_start(doc, node);
    size_t n = wj_node_end(doc, node) - start;
    const char *text = doc->json + start;
    size_t k;
    if (doc->n_escaped > 0)
        return 1;
    for (k = 0; k < 2; k++)
        if (spells(text, n, markers[k]))
            return 1;
    return 0;
}

/* Appends the rendering of node (0: absent, written as null). */
static wj_code put_value(const prompt *p, uint32_t node, wj_buf *buf)
{
    const wj_render_opts opts = {p->style, NULL, 0};
    wj_render_hook hook = {leave_out_markers, NULL, (void *)p};
    if (!node) {
        if (wj_buf_reserve(buf, 4) != 0)
            return wj_buf_fail(buf, p->err);
        wj_buf_put(buf, "null", 4);
        return WJ_OK;
    }
    return wj_buf_code(
        buf,
        wj_render_hooked(p->doc, node, &opts,
                         may_hold_marker(p->doc, node) ? &hook : NULL, buf,
                         p->err),
        p->err);
}

static wj_code put_bytes(const prompt *p, wj_buf *buf, const char *s)
{
    size_t n = strlen(s);
    if (wj_buf_reserve(buf, n) != 0)
        return wj_buf_fail(buf, p->err);
    wj_buf_put(buf, s, n);
    return WJ_OK;
}

/* A tool's canonical rendering, for sorting e0's tools (tools_set). */
typedef struct tool_text {
    char *ptr;
    size_t len;
} tool_text;

static int compare_tools(const void *a, const void *b)
{
    const tool_text *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->ptr, y->ptr, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Appends the array tools with its entries sorted by their canonical
 * bytes (memcmp, a shorter prefix first). */
static wj_code put_sorted_tools(const prompt *p, uint32_t tools, wj_buf *buf)
{
    const wj_doc *doc = p->doc;
    uint32_t count = wj_node_count(doc, tools), k, node;
    tool_text *texts;
    wj_buf one = WJ_BUF_INIT(doc->alloc);
    wj_code rc = WJ_OK;

    if (count == 0)
        return put_value(p, tools, buf);
    texts = wj_malloc(doc->alloc, (size_t)count * sizeof *texts);
    if (!texts)
        return wj_fail_nomem(p->err);
    node = wj_node_first(tools);
    for (k = 0; k < count && rc == WJ_OK; k++) {
        size_t from = one.len;
        rc = put_value(p, node, &one);
        texts[k].len = one.len - from;
        node = wj_node_next(doc, node);
    }
    if (rc == WJ_OK) { /* pointers only once the buffer stops moving */
        size_t at = 0;
        for (k = 0; k < count; k++) {
            texts[k].ptr = one.ptr + at;
            at += texts[k].len;
        }
        qsort(texts, count, sizeof *texts, compare_tools);
        if (wj_buf_reserve(buf, one.len + count + 1) != 0)
            rc = wj_buf_fail(buf, p->err);
    }
    if (rc == WJ_OK) {
        wj_buf_putc(buf, '[');
        for (k = 0; k < count; k++) {
            if (k)
                wj_buf_putc(buf, ',');
            wj_buf_put(buf, texts[k].ptr, texts[k].len);
        }
        wj_buf_putc(buf, ']');
    }
    wj_free(doc->alloc, texts);
    wj_free(doc->alloc, one.ptr);
    return rc;
}

/* The top-level members the first two elements are made of. */
typedef struct body {
    uint32_t model, tools, response_format, system;
    uint32_t messages; /* the array of messages, or 0 */
    uint32_t n_messages;
} body;

/* Finds the body's parts; WJ_ERR_TYPE when the root is not an object or
 * the messages member is present but not an array. */
static wj_code read_body(const wj_doc *doc, body *b, wj_error *err)
{
    static const char *const system_names[] = {"system", "instructions",
                                               "systemInstruction"};
    uint32_t v;
    size_t k;

    memset(b, 0, sizeof *b);
    if (wj_node_type(doc, 0) != WJ_OBJECT)
        return wj_fail(err, WJ_ERR_TYPE, 0,
                       "a request body must be a JSON object");
    b->model = wj_doc_value(doc, 0, "model", 5);
    b->tools = wj_doc_value(doc, 0, "tools", 5);
    b->response_format = wj_doc_value(doc, 0, "response_format", 15);
    for (k = 0; k < 3 && !b->system; k++)
        b->system = wj_doc_value(doc, 0, system_names[k],
                                 strlen(system_names[k]));
    if ((v = wj_doc_value(doc, 0, "messages", 8)) != 0) {
        if (wj_node_type(doc, v) != WJ_ARRAY)
            return wj_fail(err, WJ_ERR_TYPE, wj_node_start(doc, v),
                           "messages is not a JSON array");
    } else if ((v = wj_doc_value(doc, 0, "input", 5)) != 0 &&
               wj_node_type(doc, v) == WJ_ARRAY) {
        /* the Responses API's list of items */
    } else if ((v = wj_doc_value(doc, 0, "contents", 8)) != 0) {
        if (wj_node_type(doc, v) != WJ_ARRAY)
            return wj_fail(err, WJ_ERR_TYPE, wj_node_start(doc, v),
                           "contents is not a JSON array");
    }
    b->messages = v;
    b->n_messages = v ? wj_node_count(doc, v) : 0;
    return WJ_OK;
}

/* Appends element e0 in style (sorting the tools for tools_set). */
static wj_code put_e0(const prompt *p, const body *b, int sort_tools,
                      wj_buf *buf)
{
    wj_code rc = WJ_OK;
    int sent = p->style == WJ_STYLE_SENT;
    uint32_t second = sent ? b->tools : b->response_format;
    uint32_t third = sent ? b->response_format : b->tools;

    rc = put_bytes(p, buf, "{\"model\":");
    if (rc == WJ_OK)
        rc = put_value(p, b->model, buf);
    if (rc == WJ_OK)
        rc = put_bytes(p, buf, sent ? ",\"tools\":" : ",\"response_format\":");
    if (rc == WJ_OK && sort_tools && second == b->tools && b->tools &&
        wj_node_type(p->doc, b->tools) == WJ_ARRAY)
        rc = put_sorted_tools(p, second, buf);
    else if (rc == WJ_OK)
        rc = put_value(p, second, buf);
    if (rc == WJ_OK)
        rc = put_bytes(p, buf, sent ? ",\"response_format\":" : ",\"tools\":");
    if (rc == WJ_OK && sort_tools && third == b->tools && b->tools &&
        wj_node_type(p->doc, b->tools) == WJ_ARRAY)
        rc = put_sorted_tools(p, third, buf);
    else if (rc == WJ_OK)
        rc = put_value(p, third, buf);
    if (rc == WJ_OK)
        rc = put_bytes(p, buf, "}");
    return rc;
}

/* Appends element k of the body in mode to buf (e0's tools as they are). */
static wj_code render_element(const prompt *p, const body *b, uint32_t k,
                              uint32_t *message, wj_buf *buf)
{
    wj_code rc;
    if (k == 0)
        return put_e0(p, b, 0, buf);
    if (k == 1) {
        rc = put_bytes(p, buf, "{\"system\":");
        if (rc == WJ_OK)
            rc = put_value(p, b->system, buf);
        return rc == WJ_OK ? put_bytes(p, buf, "}") : rc;
    }
    rc = put_value(p, *message, buf);
    *message = wj_node_next(p->doc, *message);
    return rc;
}

/* True when e0's tools_set rendering can differ from its canonical one: its
 * tools are an array of two or more. */
static int tools_to_sort(const wj_doc *doc, const body *b)
{
    return b->tools && wj_node_type(doc, b->tools) == WJ_ARRAY &&
           wj_node_count(doc, b->tools) > 1;
}

int wj_prompt_mode_find(const char *word, size_t len)
{
    static const wj_name words[WJ_PROMPT_MODES] = {
        {"sent", 4}, {"canonical", 9}, {"tools_set", 9}};
    int m;
    for (m = 0; m < WJ_PROMPT_MODES; m++)
        if (len == words[m].len && memcmp(word, words[m].ptr, len) == 0)
            return m;
    return -1;
}

/* One request's element renderings and their digests: rendering i is
 * text[at[i]..at[i]+len[i]), its digest md + 32 * i and hex + 64 * i;
 * use[m][k] is the rendering element k has in mode m (modes whose bytes
 * agree share one). */
typedef struct elements {
    wj_buf text;
    size_t count;
    size_t *at, *len;
    const unsigned char **msg;
    unsigned char *md;
    char *hex;
    uint32_t *use[WJ_PROMPT_MODES];
} elements;

/* Ends the rendering begun at text offset from: a new one, or, when it has
 * the bytes of rendering *same (same not NULL), that one again. */
static uint32_t keep_rendering(elements *e, size_t from, const uint32_t *same)
{
    size_t n = e->text.len - from;
    if (same && e->len[*same] == n &&
        memcmp(e->text.ptr + e->at[*same], e->text.ptr + from, n) == 0) {
        e->text.len = from;
        return *same;
    }
    e->at[e->count] = from;
    e->len[e->count] = n;
    return (uint32_t)e->count++;
}

/* Renders the elements the modes need, each distinct rendering kept once:
 * canonical (for canonical and tools_set), e0 with sorted tools when the
 * sort can change it, sent (shared where it equals canonical). */
static wj_code render_all(const wj_doc *doc, const body *b, unsigned modes,
                          size_t n, elements *e, size_t *sent_bytes,
                          wj_error *err)
{
    const unsigned both =
        (1u << WJ_PROMPT_CANONICAL) | (1u << WJ_PROMPT_TOOLS_SET);
    uint32_t *canon = e->use[WJ_PROMPT_CANONICAL];
    uint32_t k, message;
    wj_code rc = WJ_OK;

    if (modes & both) {
        prompt p = {doc, WJ_STYLE_CANONICAL, err};
        message = b->messages ? wj_node_first(b->messages) : 0;
        for (k = 0; k < n && rc == WJ_OK; k++) {
            size_t from = e->text.len;
            rc = render_element(&p, b, k, &message, &e->text);
            canon[k] = e->use[WJ_PROMPT_TOOLS_SET][k] =
                keep_rendering(e, from, NULL);
        }
        if (rc == WJ_OK && (modes & (1u << WJ_PROMPT_TOOLS_SET)) &&
            tools_to_sort(doc, b)) {
            size_t from = e->text.len;
            rc = put_e0(&p, b, 1, &e->text);
            e->use[WJ_PROMPT_TOOLS_SET][0] = keep_rendering(e, from, canon);
        }
    }
    if (rc == WJ_OK && (modes & (1u << WJ_PROMPT_SENT))) {
        prompt p = {doc, WJ_STYLE_SENT, err};
        message = b->messages ? wj_node_first(b->messages) : 0;
        for (k = 0; k < n && rc == WJ_OK; k++) {
            size_t from = e->text.len;
            rc = render_element(&p, b, k, &message, &e->text);
            sent_bytes[k] = e->text.len - from;
            e->use[WJ_PROMPT_SENT][k] =
                keep_rendering(e, from, modes & both ? canon + k : NULL);
        }
    }
    return rc;
}

/* The chains: p0 = SHA-256(hex d0), pk = SHA-256(hex p(k-1) || hex dk).
 * Each mode's input holds hex p(k-1) then hex dk; at each step the modes
 * with chains of their own are hashed together.  A mode whose element
 * digests so far are those of an earlier mode (in the order canonical,
 * tools_set, sent) copies that mode's prefixes until they part. */
static void chain_all(const elements *e, size_t n, wj_prompt_prefixes *out)
{
    static const int order[WJ_PROMPT_MODES] = {
        WJ_PROMPT_CANONICAL, WJ_PROMPT_TOOLS_SET, WJ_PROMPT_SENT};
    enum { OWN = -1 };
    unsigned char input[WJ_PROMPT_MODES][128], md[WJ_PROMPT_MODES * 32];
    int follows[WJ_PROMPT_MODES];
    size_t k;
    int i, j;

    for (i = 0; i < WJ_PROMPT_MODES; i++) {
        int m = order[i];
        follows[m] = OWN;
        for (j = 0; j < i && out->digests[m]; j++) {
            int lead = order[j];
            if (out->digests[lead] && follows[lead] == OWN &&
                e->use[m][0] == e->use[lead][0]) {
                follows[m] = lead;
                break;
            }
        }
    }
    for (k = 0; k < n; k++) {
        const unsigned char *msg[WJ_PROMPT_MODES];
        size_t len[WJ_PROMPT_MODES];
        int mode_of[WJ_PROMPT_MODES], count = 0;
        for (i = 0; i < WJ_PROMPT_MODES; i++) {
            int m = order[i], lead = follows[m];
            if (!out->digests[m])
                continue;
            if (lead != OWN && e->use[m][k] != e->use[lead][k]) {
                /* it parts from its leader, whose p(k-1) it had */
                memcpy(input[m], input[lead], 64);
                follows[m] = lead = OWN;
            }
            if (lead != OWN)
                continue;
            memcpy(input[m] + 64, e->hex + 64 * (size_t)e->use[m][k], 64);
            msg[count] = k ? input[m] : input[m] + 64;
            len[count] = k ? 128 : 64;
            mode_of[count++] = m;
        }
        wj_sha256_many(msg, len, (size_t)count, md);
        for (i = 0; i < count; i++) {
            int m = mode_of[i];
            memcpy(out->digests[m] + 32 * k, md + 32 * i, 32);
            wj_hex_encode(md + 32 * i, 32, (char *)input[m]);
        }
        for (i = 0; i < WJ_PROMPT_MODES; i++) {
            int m = order[i];
            if (out->digests[m] && follows[m] != OWN)
                memcpy(out->digests[m] + 32 * k,
                       out->digests[follows[m]] + 32 * k, 32);
        }
    }
}

/* Room for the renderings of n elements in every mode (at most 2n + 1
 * distinct ones) and their digests. */
static wj_code elements_alloc(elements *e, size_t n, const wj_alloc *alloc,
                              wj_error *err)
{
    size_t most = 2 * n + 1, m;
    size_t bytes = most * (2 * sizeof(size_t) + sizeof(void *) + 32 + 64) +
                   WJ_PROMPT_MODES * n * sizeof(uint32_t);
    unsigned char *block = wj_malloc(alloc, bytes);
    if (!block)
        return wj_fail_nomem(err);
    e->at = (size_t *)(void *)block;
    e->len = e->at + most;
    e->msg = (const unsigned char **)(void *)(e->len + most);
    e->md = (unsigned char *)(e->msg + most);
    e->hex = (char *)(e->md + 32 * most);
    for (m = 0; m < WJ_PROMPT_MODES; m++)
        e->use[m] = (uint32_t *)(void *)(e->hex + 64 * most) + m * n;
    return WJ_OK;
}

wj_code wj_prompt_prefix(const char *json, size_t len, unsigned modes,
                         const wj_alloc *alloc, wj_prompt_prefixes *out,
                         wj_error *err)
{
    wj_doc doc;
    elements e = {WJ_BUF_INIT(alloc), 0, NULL, NULL, NULL, NULL, NULL, {0}};
    body b;
    size_t n, bytes, k;
    unsigned char *block;
    int m;
    wj_code rc;

    memset(out, 0, sizeof *out);
    wj_error_clear(err);
    rc = wj_doc_parse(&doc, json, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    rc = read_body(&doc, &b, err);
    if (rc != WJ_OK)
        goto done;
    n = 2 + (size_t)b.n_messages;
    bytes = n * sizeof *out->sent_bytes + WJ_PROMPT_MODES * n * 32;
    block = wj_malloc(alloc, bytes);
    if (!block) {
        rc = wj_fail_nomem(err);
        goto done;
    }
    out->n = n;
    out->sent_bytes = (size_t *)(void *)block;
    memset(out->sent_bytes, 0, n * sizeof *out->sent_bytes);
    for (m = 0; m < WJ_PROMPT_MODES; m++)
        if (modes & (1u << m))
            out->digests[m] = block + n * sizeof *out->sent_bytes +
                              (size_t)m * n * 32;
    rc = elements_alloc(&e, n, alloc, err);
    /* each mode's renderings are about as long as the body */
    if (rc == WJ_OK && wj_buf_reserve(&e.text, 2 * wj_render_reserve(len)) != 0)
        rc = wj_buf_fail(&e.text, err);
    if (rc == WJ_OK)
        rc = render_all(&doc, &b, modes, n, &e, out->sent_bytes, err);
    if (rc != WJ_OK)
        goto done;
    /* the buffer has stopped moving: point at the renderings, hash them */
    for (k = 0; k < e.count; k++)
        e.msg[k] = (const unsigned char *)e.text.ptr + e.at[k];
    wj_sha256_many(e.msg, e.len, e.count, e.md);
    for (k = 0; k < e.count; k++)
        wj_hex_encode(e.md + 32 * k, 32, e.hex + 64 * k);
    chain_all(&e, n, out);
done:
    if (rc != WJ_OK)
        wj_prompt_prefix_free(alloc, out);
    wj_free(alloc, e.at);
    wj_free(alloc, e.text.ptr);
    wj_doc_release(&doc);
    return rc;
}

void wj_prompt_prefix_free(const wj_alloc *alloc, wj_prompt_prefixes *p)
{
    wj_free(alloc, p->sent_bytes);
    memset(p, 0, sizeof *p);
}
