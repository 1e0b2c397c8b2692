/* SPDX-License-Identifier: MIT */
/*
 * render.c - one iterative walk over the tape that writes the wire (§4), the
 * canonical (§5) or the sent (§16: members in input order) rendering.
 *
 * Containers are entered on an explicit stack of frames, so nesting costs
 * no C-stack recursion.  An object's member order comes from the parser's
 * sorted order; only a JSON Schema property map (wire), an object whose
 * names sort differently in UTF-16 (canonical) and an object whose members
 * a caller's hook chose build an order of their own, on a scratch stack
 * that is popped when the object closes.  A caller's hook
 * (wj_render_hooked) may choose the members of chosen objects and their
 * order, and write chosen values itself.
 */
#include "wj_internal.h"
#include "number.h"

/* How the wire rendering reads an object: §4's schema rules. */
typedef enum mode {
    MODE_SCHEMA,  /* members are keywords; `properties` is a property map */
    MODE_PROPMAP, /* property names, in `required` order; values schemas */
    MODE_NAMEMAP, /* $defs and kin: sorted names; values schemas */
    MODE_DATA     /* sorted everywhere, no rule */
} mode;

typedef struct frame {
    uint32_t node;    /* the container's record */
    uint32_t done;    /* elements or members written */
    uint32_t total;   /* elements or members to write */
    uint32_t child;   /* arrays: the next element's node; objects in order:
                         the next member's name */
    uint32_t list;    /* other objects: where their member order starts,
                         on the tape or in scratch */
    uint32_t mark;    /* scratch size to restore on close */
    uint8_t in_order; /* objects: members written in document order */
    uint8_t own_list; /* objects: list is in scratch, not on the tape */
    uint8_t mode;
    uint8_t is_array;
} frame;

typedef struct render {
    const wj_doc *doc;
    const wj_render_opts *opts;
    wj_buf *buf;
    wj_error *err;
    frame *frames;      /* first_frames until a deeper document needs more */
    frame *first_frames;
    uint32_t depth;
    uint32_t cap_frames;
    uint32_t *scratch; /* member orders built here, LIFO */
    uint32_t n_scratch;
    uint32_t cap_scratch;
    char *name; /* a decoded `required` entry */
    size_t cap_name;
    const wj_render_hook *hook; /* the caller's say, or NULL */
    int hook_values;            /* hook->value is set */
} render;

/* Reserves n more scratch entries; returns their offset or UINT32_MAX. */
static uint32_t scratch_push(render *r, uint32_t n)
{
    uint32_t at = r->n_scratch;
    if (r->cap_scratch - at < n) {
        size_t bytes;
        uint32_t *p;
        if (n > UINT32_MAX - 1 - at)
            return UINT32_MAX;
        p = wj_grow(r->doc->alloc, r->scratch,
                    (size_t)r->cap_scratch * sizeof *p,
                    ((size_t)at + n) * sizeof *p, 64 * sizeof *p,
                    (size_t)(UINT32_MAX - 1) * sizeof *p, &bytes);
        if (!p)
            return UINT32_MAX;
        r->scratch = p;
        r->cap_scratch = (uint32_t)(bytes / sizeof *p);
    }
    r->n_scratch += n;
    return at;
}

/* Out of memory, or interrupted when the hook stopped the buffer's growth. */
static wj_code nomem(render *r)
{
    return wj_buf_fail(r->buf, r->err);
}

/* Has the object of frame f written in the order of the scratch list at
 * list. */
static void use_own_list(frame *f, uint32_t list)
{
    f->list = list;
    f->own_list = 1;
    f->in_order = 0;
}

/* The decoded text of a string value (not a member name). */
static int string_value(render *r, uint32_t node, wj_span *out)
{
    const wj_doc *doc = r->doc;
    uint32_t start = wj_node_start(doc, node);
    const char *raw = doc->json + start + 1;
    size_t raw_len = wj_node_end(doc, node) - start - 2;
    if (!memchr(raw, '\\', raw_len)) { /* no escape */
        out->ptr = raw;
        out->len = raw_len;
        return 0;
    }
    if (raw_len > r->cap_name) {
        /* no decoded string is longer than the input */
        char *p = wj_grow(r->doc->alloc, r->name, r->cap_name, raw_len, 64,
                          doc->len, &r->cap_name);
        if (!p)
            return -1;
        r->name = p;
    }
    out->ptr = r->name;
    out->len = wj_string_decode(raw, raw_len, r->name);
    return 0;
}

/*
 * Orders the property map `map` by its sibling `required` (§4): the names
 * it lists, once each and only those present, then the rest as sorted.
 */
static wj_code order_property_map(render *r, uint32_t map, uint32_t required,
                                  frame *f)
{
    const wj_doc *doc = r->doc;
    uint32_t count = wj_node_count(doc, map), n = 0, k, e, left;
    const uint32_t *sorted = wj_doc_sorted(doc, map);
    uint32_t list, seen;

    if (!required || wj_node_type(doc, required) != WJ_ARRAY || count == 0)
        return WJ_OK;
    list = scratch_push(r, (sorted ? 2 : 3) * count);
    if (list == UINT32_MAX)
        return nomem(r);
    seen = list + count;
    memset(r->scratch + seen, 0, count * sizeof(uint32_t));
    if (!sorted) { /* names in document order: a list to search */
        wj_members_list(doc, map, r->scratch + seen + count);
        sorted = r->scratch + seen + count;
    }
    e = wj_node_first(required);
    for (left = wj_node_count(doc, required); left > 0; left--) {
        if (wj_node_type(doc, e) == WJ_STRING) {
            wj_span name;
            uint32_t pos;
            if (string_value(r, e, &name) != 0)
                return nomem(r);
            pos = wj_doc_find(doc, sorted, count, name.ptr, name.len);
            if (pos != UINT32_MAX && !r->scratch[seen + pos]) {
                r->scratch[seen + pos] = 1;
                r->scratch[list + n++] = sorted[pos];
            }
        }
        e = wj_node_next(doc, e);
    }
    for (k = 0; k < count; k++)
        if (!r->scratch[seen + k])
            r->scratch[list + n++] = sorted[k];
    use_own_list(f, list);
    return WJ_OK;
}

/* RFC 8785 order for an object whose names sort differently in UTF-16
 * (WJ_COUNT_UTF16): its members, or the n of them in the scratch list the
 * hook gave (which has room for twice the object's count), sorted by
 * UTF-16 code units. */
static wj_code order_canonical(render *r, uint32_t obj, frame *f)
{
    const wj_doc *doc = r->doc;
    uint32_t count = wj_node_count(doc, obj);

    if (!f->own_list) {
        uint32_t list = scratch_push(r, 2 * count);
        if (list == UINT32_MAX)
            return nomem(r);
        wj_members_list(doc, obj, r->scratch + list);
        use_own_list(f, list);
    }
    wj_sort_names(doc, r->scratch + f->list, f->total,
                  r->scratch + f->list + count, wj_compare_utf16);
    return WJ_OK;
}

/* Copies a long scalar (a string of megabytes) a MiB at a time, each piece
 * through wj_cursor_room(): a digest's window stays small and the
 * interrupted hook is asked as the copy goes. */
static __attribute__((noinline)) wj_code put_long_input(render *r,
                                                        wj_cursor *out,
                                                        uint32_t start,
                                                        size_t n)
{
    while (n > 0) {
        size_t piece = n < WJ_POLL_BYTES ? n : WJ_POLL_BYTES;
        if (wj_cursor_room(r->buf, out, piece + WJ_SHORT_SLACK) != 0)
            return nomem(r);
        wj_cursor_put_input(out, r->doc->json, r->doc->len, start, piece);
        start += (uint32_t)piece;
        n -= piece;
    }
    return WJ_OK;
}

/* Writes the string literal that opens at start again, re-escaping it
 * (through r->buf, out of line: most strings are copied as they are). */
static __attribute__((noinline)) wj_code write_literal(render *r,
                                                       uint32_t start)
{
    const wj_doc *doc = r->doc;
    size_t end =
        r->opts->style == WJ_STYLE_CANONICAL
            ? wj_write_canonical_literal(r->buf, doc->json, doc->len, start)
            : wj_write_wire_literal(r->buf, doc->json, doc->len, start);
    return end ? WJ_OK : nomem(r);
}

/* Writes the number whose lexeme of len bytes starts at start as RFC 8785
 * writes its double (through r->buf). */
static __attribute__((noinline)) wj_code
write_canonical_number(render *r, uint32_t start, size_t len)
{
    if (wj_buf_reserve(r->buf, WJ_NUMBER_MAX_CHARS) != 0)
        return nomem(r);
    len = wj_number_canonical(r->doc->json + start, len,
                              r->buf->ptr + r->buf->len);
    if (!len)
        return wj_fail(r->err, WJ_ERR_RANGE, start, "rounds to infinity");
    r->buf->len += len;
    return WJ_OK;
}

/* Writes the scalar at node, whose first byte is c.  A plain string (its
 * `plain end` not 0: its raw bytes need no escape in either rendering), a
 * literal and a wire number are copied as they are, inline; an escaped
 * string and a canonical number go through r->buf. */
static inline __attribute__((always_inline)) wj_code
put_scalar(render *r, wj_cursor *out, uint32_t node, char c)
{
    const wj_doc *doc = r->doc;
    uint32_t start = doc->tape[node];
    size_t n;
    wj_code rc;

    switch (c) {
    case '"': {
        uint32_t plain_end = doc->tape[node + 1];
        if (!plain_end) {
            wj_cursor_pause(r->buf, *out);
            rc = write_literal(r, start);
            *out = wj_cursor_resume(r->buf);
            return rc;
        }
        n = plain_end - start;
        break;
    }
    case 't':
    case 'n': n = 4; break;
    case 'f': n = 5; break;
    default:
        n = wj_number_end(doc->json, doc->len, start) - start;
        if (r->opts->style == WJ_STYLE_CANONICAL) {
            wj_cursor_pause(r->buf, *out);
            rc = write_canonical_number(r, start, n);
            *out = wj_cursor_resume(r->buf);
            return rc;
        }
    }
    if (n > WJ_POLL_BYTES)
        return put_long_input(r, out, start, n);
    if (wj_cursor_room(r->buf, out, n + WJ_SHORT_SLACK) != 0)
        return nomem(r);
    wj_cursor_put_input(out, doc->json, doc->len, start, n);
    return WJ_OK;
}

/* Input bytes an array of scalars is written in per reservation, so that a
 * digest's window stays small. */
#define SCALAR_ARRAY_STEP 4096

/* Writes the array of numbers and literals at node whole (through r->buf)
 * when its text without whitespace is its rendering: returns 1 when it
 * did, 0 when the walk must write it (a canonical number spelled
 * otherwise), -1 when out of memory. */
static int put_scalar_array(render *r, uint32_t node)
{
    const wj_doc *doc = r->doc;
    uint32_t start = wj_node_start(doc, node);
    size_t n = wj_container_end(doc, node) - start, done, step;
    const char *text = doc->json + start;

    if (r->opts->style == WJ_STYLE_CANONICAL &&
        !wj_scalar_array_is_canonical(text, n))
        return 0;
    for (done = 0; done < n; done += step) {
        step = n - done < SCALAR_ARRAY_STEP ? n - done : SCALAR_ARRAY_STEP;
        if (wj_buf_reserve(r->buf, step) != 0)
            return -1;
        r->buf->len +=
            wj_copy_without_space(r->buf->ptr + r->buf->len, text + done, step);
    }
    return 1;
}

/* The frames a rendering starts with, on the C stack: most documents nest
 * no deeper, and so allocate none. */
#define FIRST_FRAMES 16

/* Room for one more frame; 0, or -1 when out of memory. */
static int frame_room(render *r)
{
    size_t bytes;
    frame *p;
    if (r->depth < r->cap_frames)
        return 0;
    /* leaving the frames on the C stack: a first block, then a copy */
    int first = r->frames == r->first_frames;
    p = wj_grow(r->doc->alloc, first ? NULL : r->frames,
                first ? 0 : (size_t)r->cap_frames * sizeof *p,
                ((size_t)r->depth + 1) * sizeof *p, 4 * FIRST_FRAMES * sizeof *p,
                (size_t)UINT32_MAX * sizeof *p, &bytes);
    if (!p)
        return -1;
    if (first)
        memcpy(p, r->frames, (size_t)r->depth * sizeof *p);
    r->frames = p;
    r->cap_frames = (uint32_t)(bytes / sizeof *p);
    return 0;
}

/*
 * Opens the non-empty container at node, whose record starts with byte c:
 * writes its opening bracket and gives it a frame, with an object's member
 * order (the parser's, the hook's, RFC 8785's or a property map's).
 * parent is the object holding node as a member (for `required`), or 0.
 */
static wj_code open_container(render *r, uint32_t node, char c, mode m,
                              uint32_t parent)
{
    const wj_doc *doc = r->doc;
    int is_array = c != '{';
    uint32_t slot = 0;
    frame *f;

    if (wj_buf_reserve(r->buf, 1) != 0 || frame_room(r) != 0)
        return nomem(r);
    wj_buf_putc(r->buf, is_array ? '[' : '{');
    f = &r->frames[r->depth++];
    f->node = node;
    f->done = 0;
    f->child = wj_node_first(node);
    f->list = 0;
    f->mark = r->n_scratch;
    f->in_order = 0;
    f->own_list = 0;
    f->mode = (uint8_t)m;
    f->is_array = (uint8_t)is_array;
    if (c == '[') { /* of scalars: its span is its count */
        f->total = doc->tape[node + 1] - node - WJ_CONTAINER_SLOTS;
        return WJ_OK;
    }
    slot = wj_count_slot(doc, node);
    f->total = slot & ~WJ_COUNT_FLAGS;
    if (is_array)
        return WJ_OK;
    if ((slot & WJ_COUNT_IN_ORDER) || r->opts->style == WJ_STYLE_SENT)
        f->in_order = 1;
    else /* the sorted names just before the count */
        f->list = doc->tape[node + 1] - 1 - f->total;
    if (r->hook && r->hook->order) {
        uint32_t list = scratch_push(r, 2 * f->total), n = f->total;
        if (list == UINT32_MAX)
            return nomem(r);
        if (r->hook->order(r->hook->ctx, node, r->scratch + list, &n)) {
            use_own_list(f, list);
            f->total = n;
        } else {
            r->n_scratch = list;
        }
    }
    if (r->opts->style == WJ_STYLE_CANONICAL)
        return slot & WJ_COUNT_UTF16 ? order_canonical(r, node, f) : WJ_OK;
    if (f->own_list || r->opts->style == WJ_STYLE_SENT)
        return WJ_OK;
    if (m == MODE_PROPMAP)
        return order_property_map(r, node,
                                  wj_doc_value(doc, parent, "required", 8), f);
    return WJ_OK;
}

/*
 * Writes node through r->buf: a scalar or an empty container at once, and
 * an array of scalars whole where it can; else a container's opening
 * bracket and a frame (open_container).
 * parent is the object holding node as a member (for `required`), or 0.
 */
static wj_code open_value(render *r, uint32_t node, mode m, uint32_t parent)
{
    const wj_doc *doc = r->doc;
    char c = doc->json[doc->tape[node]];
    wj_code rc;

    if (r->hook_values) {
        int written = r->hook->value(r->hook->ctx, node, r->buf);
        if (written < 0)
            return nomem(r);
        if (written)
            return WJ_OK;
    }
    if (!wj_opens_container(c)) {
        wj_cursor out = wj_cursor_resume(r->buf);
        rc = put_scalar(r, &out, node, c);
        wj_cursor_pause(r->buf, out);
        return rc;
    }
    if (wj_container_empty(doc, node)) {
        if (wj_buf_reserve(r->buf, 2) != 0)
            return nomem(r);
        wj_buf_put(r->buf, c == '{' ? "{}" : "[]", 2);
        return WJ_OK;
    }
    if (c == '[' && !r->hook_values) {
        int written = put_scalar_array(r, node);
        if (written < 0)
            return nomem(r);
        if (written)
            return WJ_OK;
    }
    return open_container(r, node, c, m, parent);
}

/* The keywords that change how a member's value is read (§4); the map
 * keywords only when that value is an object. */
static const struct keyword {
    const char *name;
    size_t len;
    mode value_mode;
    int object_only;
} keywords[] = {
    {"properties", 10, MODE_PROPMAP, 1},
    {"const", 5, MODE_DATA, 0},
    {"default", 7, MODE_DATA, 0},
    {"enum", 4, MODE_DATA, 0},
    {"examples", 8, MODE_DATA, 0},
    {"$defs", 5, MODE_NAMEMAP, 1},
    {"definitions", 11, MODE_NAMEMAP, 1},
    {"patternProperties", 17, MODE_NAMEMAP, 1},
    {"dependentSchemas", 16, MODE_NAMEMAP, 1},
};

/* The mode of the value of member `name` (node name_node) in an object read
 * in mode m (§4: names are not keywords; data is never schema). */
static mode member_mode(const render *r, mode m, uint32_t name_node,
                        int in_root)
{
    const wj_doc *doc = r->doc;
    wj_span name;
    size_t k;

    if (m == MODE_DATA)
        return MODE_DATA;
    if (m != MODE_SCHEMA)
        return MODE_SCHEMA;
    name = wj_doc_name(doc, name_node);
    if (in_root &&
        wj_name_in(name, r->opts->data_members, r->opts->n_data_members))
        return MODE_DATA;
    for (k = 0; k < sizeof keywords / sizeof *keywords; k++) {
        const struct keyword *kw = &keywords[k];
        if (name.len != kw->len || name.ptr[0] != kw->name[0] ||
            memcmp(name.ptr, kw->name, kw->len) != 0)
            continue;
        if (kw->object_only &&
            wj_node_type(doc, wj_member_value(name_node)) != WJ_OBJECT)
            return MODE_SCHEMA;
        return kw->value_mode;
    }
    return MODE_SCHEMA;
}

/* Writes a member's name that holds an escape, with the ',' before it
 * unless it is the first and the ':' after it (through r->buf). */
static __attribute__((noinline)) wj_code
write_escaped_name(render *r, uint32_t name, int first)
{
    wj_code rc;
    if (wj_buf_reserve(r->buf, 1) != 0)
        return nomem(r);
    if (!first)
        wj_buf_putc(r->buf, ',');
    rc = write_literal(r, wj_name_start(r->doc, name));
    if (rc != WJ_OK)
        return rc;
    if (wj_buf_reserve(r->buf, 1) != 0)
        return nomem(r);
    wj_buf_putc(r->buf, ':');
    return WJ_OK;
}

/* Writes a member's name: a ',' first unless it is the first, a ':' after.
 * A name without escapes goes inline, with one reservation. */
static inline wj_code put_name(render *r, wj_cursor *out, uint32_t name, int first)
{
    const wj_doc *doc = r->doc;
    uint32_t start, n;
    wj_code rc;

    if (wj_name_escaped(doc, name)) {
        wj_cursor_pause(r->buf, *out);
        rc = write_escaped_name(r, name, first);
        *out = wj_cursor_resume(r->buf);
        return rc;
    }
    start = doc->tape[name]; /* plain: at its quote */
    n = wj_plain_end(doc->json, doc->len, start) - start;
    if (wj_cursor_room(r->buf, out, (size_t)n + 2 + WJ_SHORT_SLACK) != 0)
        return nomem(r);
    if (!first)
        *out->at++ = ',';
    wj_cursor_put_input(out, doc->json, doc->len, start, n);
    *out->at++ = ':';
    return WJ_OK;
}

/*
 * The walk: the innermost open container's scalar elements or members are
 * written in a run, inline; a container among them gets a frame of its own
 * (open_value, which may move the frames and the scratch lists, so the run
 * ends there), and a container whose elements are all written is closed.
 */
static wj_code walk(render *r, uint32_t root)
{
    const wj_doc *doc = r->doc;
    const char *json = doc->json;
    const uint32_t *tape = doc->tape;
    mode root_mode = r->opts->style == WJ_STYLE_WIRE ? MODE_SCHEMA : MODE_DATA;
    int ask_hook = r->hook_values; /* every value, scalars too */
    wj_code rc = open_value(r, root, root_mode, 0);
    wj_cursor out = wj_cursor_resume(r->buf);

    while (rc == WJ_OK && r->depth > 0) {
        frame *f = &r->frames[r->depth - 1];
        uint32_t done = f->done, total = f->total, value = 0;
        mode value_mode = (mode)f->mode;
        char c;

        if (f->is_array) {
            uint32_t child = f->child;
            for (; done < total; done++) {
                value = child;
                c = json[tape[value]];
                child = wj_node_next(doc, value);
                if (wj_cursor_room(r->buf, &out, 1) != 0) {
                    rc = nomem(r);
                    break;
                }
                if (done)
                    *out.at++ = ',';
                if (ask_hook || wj_opens_container(c)) {
                    f->child = child;
                    break;
                }
                rc = put_scalar(r, &out, value, c);
                if (rc != WJ_OK)
                    break;
            }
        } else {
            const uint32_t *list =
                f->own_list ? r->scratch + f->list : tape + f->list;
            int in_order = f->in_order;
            uint32_t next_name = f->child;
            for (; done < total; done++) {
                /* both read, so that the choice needs no branch (for an
                 * object in order, list is the tape: a slot to spare) */
                uint32_t listed = list[done];
                uint32_t name = in_order ? next_name : listed;
                value = wj_member_value(name);
                rc = put_name(r, &out, name, done == 0);
                if (rc != WJ_OK)
                    break;
                c = json[tape[value]];
                if (ask_hook || wj_opens_container(c)) {
                    f->child = wj_node_next(doc, value);
                    value_mode =
                        member_mode(r, value_mode, name, r->depth == 1);
                    break;
                }
                next_name = value + 1 + (c == '"'); /* wj_node_next */
                rc = put_scalar(r, &out, value, c);
                if (rc != WJ_OK)
                    break;
            }
        }
        if (rc != WJ_OK)
            break;
        if (done < total) { /* a container opened: f may move */
            f->done = done + 1;
            wj_cursor_pause(r->buf, out);
            rc = open_value(r, value, value_mode, f->is_array ? 0 : f->node);
            out = wj_cursor_resume(r->buf);
            continue;
        }
        if (wj_cursor_room(r->buf, &out, 1) != 0) {
            rc = nomem(r);
            break;
        }
        *out.at++ = f->is_array ? ']' : '}';
        r->n_scratch = f->mark;
        r->depth--;
    }
    wj_cursor_pause(r->buf, out);
    return rc;
}

wj_code wj_render(const wj_doc *doc, uint32_t node, const wj_render_opts *opts,
                  wj_buf *buf, wj_error *err)
{
    return wj_render_hooked(doc, node, opts, NULL, buf, err);
}

wj_code wj_render_hooked(const wj_doc *doc, uint32_t node,
                         const wj_render_opts *opts, const wj_render_hook *hook,
                         wj_buf *buf, wj_error *err)
{
    render r;
    frame first_frames[FIRST_FRAMES];
    wj_code rc;

    /* The walk's cursor points into the buffer: it must have a block (no
     * arithmetic on a NULL one). */
    if (wj_buf_reserve(buf, WJ_SHORT_SLACK) != 0)
        return wj_buf_fail(buf, err);
    memset(&r, 0, sizeof r);
    r.doc = doc;
    r.opts = opts;
    r.buf = buf;
    r.err = err;
    r.hook = hook;
    r.hook_values = hook && hook->value;
    r.frames = r.first_frames = first_frames;
    r.cap_frames = FIRST_FRAMES;
    rc = walk(&r, node);
    if (r.frames != first_frames)
        wj_free(doc->alloc, r.frames);
    wj_free(doc->alloc, r.scratch);
    wj_free(doc->alloc, r.name);
    return rc;
}
