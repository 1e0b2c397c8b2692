/* SPDX-License-Identifier: MIT */
/*
 * encode_tools.c - encode_with_schemas (docs/contract.md §7): a translated
 * chat-completions body in the wire rendering (data member `messages`),
 * its tools spelled in function-calling order and each tool's `parameters`
 * written as the client's own text when that text still says the same.
 *
 * One wire rendering of the whole body, with a render hook that gives the
 * tool objects and their `function` objects their member order and writes
 * the matching `parameters` values from the texts.
 */
#include "wj_internal.h"

/* One element of the top-level tools array. */
typedef struct tool {
    uint32_t node;     /* the element */
    uint32_t function; /* its `function` object, or 0 */
    uint32_t params;   /* that object's `parameters` value, or 0 */
    size_t text_at;    /* the text to write for params: offset in texts */
    size_t text_len;
    int splice; /* write that text instead of rendering params */
} tool;

typedef struct encoder {
    const wj_doc *doc;
    tool *tools;
    uint32_t n_tools;
    char *texts; /* the decoded texts, one after the other */
} encoder;

static uint32_t member_value(const wj_doc *doc, uint32_t obj, const char *name)
{
    return wj_doc_value(doc, obj, name, strlen(name));
}

/* The last tool whose element starts at or before node (so the tool that
 * holds node, when one does), or NULL. */
static const tool *tool_at(const encoder *e, uint32_t node)
{
    uint32_t lo = 0, hi = e->n_tools;
    if (!e->n_tools || node < e->tools[0].node)
        return NULL;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (e->tools[mid].node <= node)
            lo = mid;
        else
            hi = mid;
    }
    return &e->tools[lo];
}

/* Fills order with obj's name records: those of leaders[] first (the ones
 * present, in that order), then the rest in wire order. */
static void order_leaders(const wj_doc *doc, uint32_t obj,
                          const char *const *leaders, size_t n_leaders,
                          uint32_t *order)
{
    wj_members members = wj_members_of(doc, obj);
    uint32_t count = wj_node_count(doc, obj), n = 0, k;
    size_t j, n_lead;

    for (j = 0; j < n_leaders; j++) {
        uint32_t name = wj_doc_member(doc, obj, leaders[j], strlen(leaders[j]));
        if (name)
            order[n++] = name;
    }
    n_lead = n;
    for (k = 0; k < count; k++) {
        uint32_t name = wj_members_take(&members);
        for (j = 0; j < n_lead && order[j] != name; j++)
            ;
        if (j == n_lead)
            order[n++] = name;
    }
}

/* Every member is written (*n stays), the leaders first. */
static int hook_order(void *ctx, uint32_t obj, uint32_t *order, uint32_t *n)
{
    static const char *const tool_leaders[] = {"type", "function"};
    static const char *const function_leaders[] = {"name", "description",
                                                   "parameters"};
    const encoder *e = ctx;
    const tool *t = tool_at(e, obj);

    (void)n;
    if (!t || wj_node_type(e->doc, obj) != WJ_OBJECT)
        return 0;
    if (obj == t->node)
        order_leaders(e->doc, obj, tool_leaders, 2, order);
    else if (obj == t->function)
        order_leaders(e->doc, obj, function_leaders, 3, order);
    else
        return 0;
    return 1;
}

static int hook_value(void *ctx, uint32_t node, wj_buf *buf)
{
    const encoder *e = ctx;
    const tool *t = tool_at(e, node);

    if (!t || node != t->params || !t->splice)
        return 0;
    if (wj_buf_reserve(buf, t->text_len) != 0)
        return -1;
    wj_buf_put(buf, e->texts + t->text_at, t->text_len);
    return 1;
}

/* Parses texts: a JSON array of strings and nulls. */
static wj_code parse_texts(wj_doc *texts, const char *json, size_t len,
                           const wj_alloc *alloc, wj_error *err)
{
    uint32_t k, node;
    wj_code rc = wj_doc_parse(texts, json, len, 0, alloc, err);

    if (rc != WJ_OK)
        return rc;
    if (wj_node_type(texts, 0) == WJ_ARRAY) {
        node = wj_node_first(0);
        for (k = 0; k < wj_node_count(texts, 0); k++) {
            if (wj_node_type(texts, node) != WJ_STRING &&
                wj_node_type(texts, node) != WJ_NULL)
                break;
            node = wj_node_next(texts, node);
        }
        if (k == wj_node_count(texts, 0))
            return WJ_OK;
    }
    wj_doc_release(texts);
    return wj_fail(err, WJ_ERR_ARGUMENT, 0,
                   "texts must be a JSON array of strings and nulls");
}

/* Appends the canonical JSON of the subtree at node to buf; *has is 0 when
 * there is none because a number rounds to infinity. */
static wj_code canonical_of(const wj_doc *doc, uint32_t node, wj_buf *buf,
                            int *has, wj_error *err)
{
    wj_render_opts opts = {WJ_STYLE_CANONICAL, NULL, 0};
    wj_error e = WJ_ERROR_INIT;
    wj_code rc = wj_buf_code(buf, wj_render(doc, node, &opts, buf, &e), &e);

    *has = rc == WJ_OK;
    if (rc == WJ_OK || rc == WJ_ERR_RANGE)
        return WJ_OK;
    return wj_fail(err, rc, e.offset, e.msg);
}

/*
 * Decides whether tool t's parameters are written as its text (the string
 * record `text` of the texts document): when the text parses and its
 * canonical JSON equals that of the body's parameters.  The decoded text
 * is kept at e->texts + *texts_used.
 */
static wj_code match_text(encoder *e, tool *t, const wj_doc *texts,
                          uint32_t text, size_t *texts_used, wj_error *err)
{
    const wj_alloc *alloc = e->doc->alloc;
    uint32_t start = wj_node_start(texts, text);
    wj_buf body_canon = WJ_BUF_INIT(alloc);
    wj_buf text_canon = WJ_BUF_INIT(alloc);
    wj_doc parsed;
    wj_error perr;
    wj_code rc;
    int has_text, has_body = 0;

    if (!t->params || wj_node_type(texts, text) != WJ_STRING)
        return WJ_OK;
    t->text_at = *texts_used;
    t->text_len = wj_string_decode(texts->json + start + 1,
                                   wj_node_end(texts, text) - start - 2,
                                   e->texts + t->text_at);
    *texts_used += t->text_len;
    rc = wj_doc_parse(&parsed, e->texts + t->text_at, t->text_len, 0, alloc,
                      &perr);
    if (rc != WJ_OK) /* text that does not parse is never written */
        return wj_error_is_input(rc) ? WJ_OK : wj_fail(err, rc, 0, perr.msg);
    rc = canonical_of(&parsed, 0, &text_canon, &has_text, err);
    if (rc == WJ_OK && has_text)
        rc = canonical_of(e->doc, t->params, &body_canon, &has_body, err);
    if (rc == WJ_OK && has_text && has_body)
        t->splice = text_canon.len == body_canon.len &&
                    memcmp(text_canon.ptr, body_canon.ptr, body_canon.len) == 0;
    wj_free(alloc, body_canon.ptr);
    wj_free(alloc, text_canon.ptr);
    wj_doc_release(&parsed);
    return rc;
}

/* Finds the tools of body and decides each one's text. */
static wj_code prepare_tools(encoder *e, uint32_t tools_node,
                             const wj_doc *texts, wj_error *err)
{
    const wj_doc *doc = e->doc;
    uint32_t k, node = wj_node_first(tools_node), text = wj_node_first(0);
    size_t used = 0;
    wj_code rc = WJ_OK;

    e->tools = wj_malloc(doc->alloc, e->n_tools * sizeof *e->tools);
    e->texts = wj_malloc(doc->alloc, texts->len + 1);
    if (!e->tools || !e->texts)
        return wj_fail_nomem(err);
    for (k = 0; rc == WJ_OK && k < e->n_tools; k++) {
        tool *t = &e->tools[k];
        memset(t, 0, sizeof *t);
        t->node = node;
        t->function = member_value(doc, node, "function");
        if (t->function && wj_node_type(doc, t->function) != WJ_OBJECT)
            t->function = 0;
        t->params =
            t->function ? member_value(doc, t->function, "parameters") : 0;
        rc = match_text(e, t, texts, text, &used, err);
        node = wj_node_next(doc, node);
        text = wj_node_next(texts, text);
    }
    return rc;
}

wj_code wj_encode_with_schemas(const char *body, size_t len, const char *texts,
                               size_t texts_len, const wj_alloc *alloc,
                               char **out, size_t *out_len, wj_error *err)
{
    static const wj_name messages = {"messages", 8};
    wj_render_opts opts = {WJ_STYLE_WIRE, &messages, 1};
    wj_doc doc, tdoc;
    wj_buf buf = WJ_BUF_INIT(alloc);
    encoder e;
    wj_render_hook hook;
    uint32_t tools;
    wj_code rc;

    *out = NULL;
    if (out_len)
        *out_len = 0;
    rc = wj_doc_parse(&doc, body, len, 0, alloc, err);
    if (rc != WJ_OK)
        return rc;
    rc = parse_texts(&tdoc, texts, texts_len, alloc, err);
    if (rc != WJ_OK) {
        wj_doc_release(&doc);
        /* "texts: malformed JSON at byte 1: ..."; the reason for texts of
         * the wrong shape names them itself */
        return wj_error_is_input(rc) ? wj_fail_in(err, rc, "texts") : rc;
    }
    memset(&e, 0, sizeof e);
    e.doc = &doc;
    tools = wj_doc_tools(&doc);
    e.n_tools = tools ? wj_node_count(&doc, tools) : 0;
    /* No tools to spell, or not one text each: no result. */
    if (e.n_tools > 0 && e.n_tools == wj_node_count(&tdoc, 0)) {
        rc = prepare_tools(&e, tools, &tdoc, err);
        if (rc == WJ_OK && wj_buf_presize(&buf, wj_render_reserve(len)) != 0)
            rc = wj_buf_fail(&buf, err);
        if (rc == WJ_OK) {
            hook.order = hook_order;
            hook.value = hook_value;
            hook.ctx = &e;
            rc = wj_buf_code(
                &buf, wj_render_hooked(&doc, 0, &opts, &hook, &buf, err), err);
        }
        if (rc == WJ_OK)
            rc = wj_buf_finish(&buf, out, out_len, err);
    }
    wj_free(alloc, buf.ptr);
    wj_free(alloc, e.tools);
    wj_free(alloc, e.texts);
    wj_doc_release(&tdoc);
    wj_doc_release(&doc);
    return rc;
}
