/* SPDX-License-Identifier: MIT */
/*
 * module.c - wirejson._wirejson: the functions of docs/contract.md §12 with the
 * SQL names and positional arguments, their table, and the module.
 *
 *   >>> import wirejson
 *   >>> wirejson.wire_json('{"b":1,"a":[1.0]}')
 *   '{"a":[1.0],"b":1}'
 *   >>> wirejson.data_digest({"a": 1}) == wirejson.data_digest('{"a":1.0}')
 *   True
 *
 * Each function converts its arguments (convert.c), releases the GIL while
 * the core works on the text, and turns the result or the error into Python
 * objects.  METH_FASTCALL throughout: no argument tuple is built.
 */
#include "wjpy.h"

wjpy_state *wjpy_state_of_module(PyObject *module)
{
    return (wjpy_state *)PyModule_GetState(module);
}

wjpy_state *wjpy_state_of_type(PyTypeObject *type)
{
    PyObject *module = PyType_GetModuleByDef(type, &wjpy_module_def);
    return module ? wjpy_state_of_module(module) : NULL;
}

/* TypeError unless min <= nargs <= max (max < 0: no upper bound), with the
 * SQL function's words for it. */
static int arity(const char *func, Py_ssize_t nargs, Py_ssize_t min,
                 Py_ssize_t max)
{
    if (nargs >= min && (max < 0 || nargs <= max))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s: wrong number of arguments", func);
    return -1;
}

/* ------------------------------------------------------------ renderings */

/* Renders args[0] as kind, the rest of the arguments as names.  The
 * canonical rendering of a Python value comes straight from a canonical
 * writer (convert.c), with the text route as its fallback; so does
 * data_digest's, below. */
static PyObject *render(PyObject *module, const char *func,
                        PyObject *const *args, Py_ssize_t nargs,
                        wj_rendering kind)
{
    wjpy_state *st = wjpy_state_of_module(module);
    wjpy_text text;
    wjpy_names names;
    wj_error err = WJ_ERROR_INIT;
    char *out = NULL;
    size_t out_len = 0;
    wj_code rc;

    if (kind == WJ_RENDERING_CANONICAL && wjpy_is_value(st, args[0])) {
        wj_writer *w = wjpy_canonical_writer(st, func, args[0], WJPY_CANONICAL);
        if (w) {
            const char *canonical = wj_writer_text(w, &out_len, NULL);
            PyObject *s =
                PyUnicode_DecodeUTF8(canonical, (Py_ssize_t)out_len, NULL);
            wjpy_writer_give(st, w, WJPY_CANONICAL);
            return s;
        }
        if (PyErr_Occurred()) /* interrupted */
            return NULL;
    }
    memset(&names, 0, sizeof names);
    if (wjpy_text_from(st, func, NULL, args[0], &text) < 0 ||
        wjpy_names_from(func, args + 1, nargs - 1, &names) < 0) {
        wjpy_text_release(st, &text);
        wjpy_names_release(&names);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = wj_rendering_text(kind, text.ptr, text.len, names.v, names.n,
                           &wjpy_alloc, &out, &out_len, &err);
    Py_END_ALLOW_THREADS
    wjpy_text_release(st, &text);
    wjpy_names_release(&names);
    if (rc != WJ_OK)
        return wjpy_raise(st, func, rc, &err);
    return wjpy_result_text(out, out_len);
}

static PyObject *wire_json(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (arity("wire_json", n, 1, -1) < 0)
        return NULL;
    return render(m, "wire_json", a, n, WJ_RENDERING_WIRE);
}

static PyObject *wire_json_sorted(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (arity("wire_json_sorted", n, 1, 1) < 0)
        return NULL;
    return render(m, "wire_json_sorted", a, n, WJ_RENDERING_WIRE_SORTED);
}

static PyObject *canonical_json(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (arity("canonical_json", n, 1, 1) < 0)
        return NULL;
    return render(m, "canonical_json", a, n, WJ_RENDERING_CANONICAL);
}

static PyObject *canonical_arguments(PyObject *m, PyObject *const *a,
                                     Py_ssize_t n)
{
    if (arity("canonical_arguments", n, 1, 1) < 0)
        return NULL;
    return render(m, "canonical_arguments", a, n,
                  WJ_RENDERING_CANONICAL_ARGUMENTS);
}

/* A JSON array of JSON strings and nulls (what the core's tool_schemas
 * gives) as a list of str and None, read by the json module. */
static PyObject *json_array_to_list(wjpy_state *st, PyObject *text)
{
    if (!st->json_loads) {
        PyObject *json = PyImport_ImportModule("json");
        if (!json)
            return NULL;
        st->json_loads = PyObject_GetAttrString(json, "loads");
        Py_DECREF(json);
        if (!st->json_loads)
            return NULL;
    }
    return PyObject_CallOneArg(st->json_loads, text);
}

static PyObject *tool_schemas(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    PyObject *text, *list;

    if (arity("tool_schemas", n, 1, -1) < 0)
        return NULL;
    text = render(m, "tool_schemas", a, n, WJ_RENDERING_TOOL_SCHEMAS);
    if (!text || text == Py_None)
        return text;
    list = json_array_to_list(wjpy_state_of_module(m), text);
    Py_DECREF(text);
    return list;
}

/* --------------------------------------------------------------- digests */

static PyObject *digest(PyObject *module, const char *func,
                        PyObject *const *args, Py_ssize_t nargs,
                        wj_digest_kind kind)
{
    wjpy_state *st = wjpy_state_of_module(module);
    wjpy_text text;
    wjpy_names names;
    wj_error err = WJ_ERROR_INIT;
    char hex[WJ_DIGEST_HEX_SIZE];
    wj_code rc;

    if (kind == WJ_DIGEST_DATA && wjpy_is_value(st, args[0])) {
        wj_writer *w = wjpy_canonical_writer(st, func, args[0], WJPY_DIGEST);
        if (w) {
            wj_writer_digest(w, hex, NULL);
            wjpy_writer_give(st, w, WJPY_DIGEST);
            return PyUnicode_FromStringAndSize(hex, WJ_DIGEST_HEX_SIZE - 1);
        }
        if (PyErr_Occurred()) /* interrupted */
            return NULL;
    }
    memset(&names, 0, sizeof names);
    if (wjpy_text_from(st, func, NULL, args[0], &text) < 0 ||
        wjpy_names_from(func, args + 1, nargs - 1, &names) < 0) {
        wjpy_text_release(st, &text);
        wjpy_names_release(&names);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = wj_digest_hex(kind, text.ptr, text.len, names.v, names.n, &wjpy_alloc,
                       hex, &err);
    Py_END_ALLOW_THREADS
    wjpy_text_release(st, &text);
    wjpy_names_release(&names);
    if (rc != WJ_OK)
        return wjpy_raise(st, func, rc, &err);
    return PyUnicode_FromStringAndSize(hex, WJ_DIGEST_HEX_SIZE - 1);
}

static PyObject *data_digest(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (arity("data_digest", n, 1, 1) < 0)
        return NULL;
    return digest(m, "data_digest", a, n, WJ_DIGEST_DATA);
}

static PyObject *message_digest(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (arity("message_digest", n, 1, -1) < 0)
        return NULL;
    return digest(m, "message_digest", a, n, WJ_DIGEST_MESSAGE);
}

static PyObject *messages_digest(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    if (arity("messages_digest", n, 1, 1) < 0)
        return NULL;
    return digest(m, "messages_digest", a, n, WJ_DIGEST_MESSAGES);
}

/* The digest of each prefix of the conversation doc: messages_digest checks
 * it whole (its errors, its offsets), the core's tool_schemas over
 * {"tools":doc} gives each message's own text, and a wj_conversation
 * digests the prefixes in one pass. */
static PyObject *prefix_digests(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    static const char func[] = "prefix_digests";
    static const char head[] = "{\"tools\":";
    const size_t head_len = sizeof head - 1;
    wjpy_state *st = wjpy_state_of_module(m);
    wjpy_text text;
    wj_error err = WJ_ERROR_INIT;
    char hex[WJ_DIGEST_HEX_SIZE], *wrapped, *out = NULL, *hexes = NULL;
    size_t out_len = 0, count = 0, k;
    const char **ptrs = NULL;
    size_t *lens = NULL;
    PyObject *parts = NULL, *texts = NULL, *result = NULL;
    wj_conversation *conv = NULL;
    wj_code rc;

    if (arity(func, n, 1, 1) < 0)
        return NULL;
    if (wjpy_text_from(st, func, NULL, a[0], &text) < 0) {
        wjpy_text_release(st, &text);
        return NULL;
    }
    wrapped = PyMem_RawMalloc(text.len + head_len + 1);
    if (!wrapped) {
        wjpy_text_release(st, &text);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    rc = wj_messages_digest(text.ptr, text.len, &wjpy_alloc, hex, &err);
    if (rc == WJ_OK) {
        memcpy(wrapped, head, head_len);
        memcpy(wrapped + head_len, text.ptr, text.len);
        wrapped[head_len + text.len] = '}';
        rc = wj_tool_schemas(wrapped, text.len + head_len + 1, NULL, 0,
                             &wjpy_alloc, &out, &out_len, &err);
        if (rc != WJ_OK && wj_error_is_input(rc))
            err.offset = err.offset > head_len ? err.offset - head_len : 0;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(wrapped);
    wjpy_text_release(st, &text);
    if (rc != WJ_OK)
        return wjpy_raise(st, func, rc, &err);

    /* The messages' texts, then every digest without the GIL. */
    parts = wjpy_result_text(out, out_len);
    texts = parts ? json_array_to_list(st, parts) : NULL;
    if (!texts || !PyList_Check(texts))
        goto done;
    count = (size_t)PyList_GET_SIZE(texts);
    ptrs = PyMem_Malloc((count ? count : 1) * sizeof *ptrs);
    lens = PyMem_Malloc((count ? count : 1) * sizeof *lens);
    hexes = PyMem_Malloc((count ? count : 1) * 64);
    if (!ptrs || !lens || !hexes) {
        PyErr_NoMemory();
        goto done;
    }
    for (k = 0; k < count; k++) {
        Py_ssize_t len;
        ptrs[k] = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(texts, k), &len);
        if (!ptrs[k])
            goto done;
        lens[k] = (size_t)len;
    }
    if (wj_conversation_new(&wjpy_alloc, &conv) != WJ_OK) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (k = 0; rc == WJ_OK && k < count; k++) {
        rc = wj_conversation_push(conv, ptrs[k], lens[k], &err);
        if (rc == WJ_OK)
            rc = wj_conversation_digest(conv, hex, &err);
        if (rc == WJ_OK)
            memcpy(hexes + 64 * k, hex, 64);
    }
    Py_END_ALLOW_THREADS
    if (rc != WJ_OK) {
        wjpy_raise(st, func, rc, &err);
        goto done;
    }
    result = PyList_New((Py_ssize_t)count);
    for (k = 0; result && k < count; k++) {
        PyObject *s = PyUnicode_FromStringAndSize(hexes + 64 * k, 64);
        if (!s)
            Py_CLEAR(result);
        else
            PyList_SET_ITEM(result, (Py_ssize_t)k, s);
    }
done:
    wj_conversation_free(conv);
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    PyMem_Free(hexes);
    Py_XDECREF(texts);
    Py_XDECREF(parts);
    return result;
}

/* ---------------------------------------------------- raw request bodies */

/* with_top_level's VALUE as JSON text: bytes or a buffer of single bytes is
 * JSON text spliced as it is (as SQL splices a BLOB), a Fragment too (each
 * checked to be one JSON value); any other object is a Python value written
 * by the walker (a str is a JSON string). */
static int value_text(wjpy_state *st, const char *func, const char *argument,
                      PyObject *obj, wjpy_text *out)
{
    size_t len = 0;
    wj_error err = WJ_ERROR_INIT;

    if (!PyUnicode_Check(obj) && wjpy_is_text(st, obj))
        return wjpy_text_from(st, func, argument, obj, out);
    memset(out, 0, sizeof *out);
    out->writer = wjpy_writer_take(st, WJPY_PLAIN);
    if (!out->writer || wjpy_walk(st, func, argument, obj, out->writer, 0) < 0)
        return -1;
    out->ptr = wj_writer_text(out->writer, &len, &err);
    if (!out->ptr) {
        err.argument = argument;
        wjpy_raise(st, func, err.code, &err);
        return -1;
    }
    out->len = len;
    return 0;
}

static PyObject *with_top_level(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    static const char func[] = "with_top_level";
    wjpy_state *st = wjpy_state_of_module(m);
    wjpy_text body, value;
    wj_name name;
    PyObject *name_owned;
    wj_error err = WJ_ERROR_INIT;
    char *out = NULL;
    size_t out_len = 0;
    wj_code rc;
    int r;

    if (arity(func, n, 3, 3) < 0)
        return NULL;
    r = wjpy_name_from(func, a[1], &name, &name_owned);
    if (r != 0)
        return r > 0 ? Py_NewRef(Py_None) : NULL; /* None: as SQL's NULL */
    memset(&value, 0, sizeof value);
    if (wjpy_text_from(st, func, NULL, a[0], &body) < 0 ||
        value_text(st, func, "value", a[2], &value) < 0) {
        wjpy_text_release(st, &body);
        wjpy_text_release(st, &value);
        Py_XDECREF(name_owned);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = wj_with_top_level(body.ptr, body.len, name.ptr, name.len, value.ptr,
                           value.len, &wjpy_alloc, &out, &out_len, &err);
    Py_END_ALLOW_THREADS
    wjpy_text_release(st, &body);
    wjpy_text_release(st, &value);
    Py_XDECREF(name_owned);
    if (rc != WJ_OK)
        return wjpy_raise(st, func, rc, &err);
    return wjpy_result_text(out, out_len);
}

/* texts as JSON text: a list or tuple of str and None is written as a JSON
 * array; anything else is a document. */
static int texts_text(wjpy_state *st, const char *func, PyObject *obj,
                      wjpy_text *out)
{
    if (PyList_Check(obj) || PyTuple_Check(obj)) {
        Py_ssize_t k, size = PySequence_Fast_GET_SIZE(obj);
        for (k = 0; k < size; k++) {
            PyObject *item = PySequence_Fast_GET_ITEM(obj, k);
            if (item != Py_None && !PyUnicode_Check(item)) {
                memset(out, 0, sizeof *out);
                PyErr_Format(PyExc_TypeError,
                             "%s: texts: element %zd must be str or None, not "
                             "%.100s",
                             func, k, Py_TYPE(item)->tp_name);
                return -1;
            }
        }
        return value_text(st, func, "texts", obj, out);
    }
    return wjpy_text_from(st, func, "texts", obj, out);
}

static PyObject *encode_with_schemas(PyObject *m, PyObject *const *a,
                                     Py_ssize_t n)
{
    static const char func[] = "encode_with_schemas";
    wjpy_state *st = wjpy_state_of_module(m);
    wjpy_text body, texts;
    wj_error err = WJ_ERROR_INIT;
    char *out = NULL;
    size_t out_len = 0;
    wj_code rc;

    if (arity(func, n, 2, 2) < 0)
        return NULL;
    memset(&texts, 0, sizeof texts);
    if (wjpy_text_from(st, func, NULL, a[0], &body) < 0 ||
        texts_text(st, func, a[1], &texts) < 0) {
        wjpy_text_release(st, &body);
        wjpy_text_release(st, &texts);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = wj_encode_with_schemas(body.ptr, body.len, texts.ptr, texts.len,
                                &wjpy_alloc, &out, &out_len, &err);
    Py_END_ALLOW_THREADS
    wjpy_text_release(st, &body);
    wjpy_text_release(st, &texts);
    if (rc != WJ_OK)
        return wjpy_raise(st, func, rc, &err);
    return wjpy_result_text(out, out_len);
}

/* ------------------------------------------------------------ validation */

/* wj_validate on doc: 0 with *rc and *err filled, 1 with *reported the
 * wirejson.Error of an input error found while writing a Python value (a
 * Fragment that is not one JSON value: "fragment: malformed JSON at byte
 * 1: ..."), -1 with an exception. */
static int validate(PyObject *m, const char *func, PyObject *doc, wj_code *rc,
                    wj_error *err, PyObject **reported)
{
    wjpy_state *st = wjpy_state_of_module(m);
    wjpy_text text;

    *reported = NULL;
    if (wjpy_text_from(st, func, NULL, doc, &text) < 0) {
        PyObject *type, *exc, *tb, *offset;
        wjpy_text_release(st, &text);
        if (!PyErr_ExceptionMatches(st->error))
            return -1;
        PyErr_Fetch(&type, &exc, &tb);
        PyErr_NormalizeException(&type, &exc, &tb);
        offset = exc ? PyObject_GetAttrString(exc, "offset") : NULL;
        if (!offset || offset == Py_None) {
            Py_XDECREF(offset);
            PyErr_Restore(type, exc, tb);
            return -1;
        }
        Py_DECREF(offset);
        Py_XDECREF(type);
        Py_XDECREF(tb);
        *reported = exc;
        return 1;
    }
    Py_BEGIN_ALLOW_THREADS
    *rc = wj_validate(text.ptr, text.len, &wjpy_alloc, err);
    Py_END_ALLOW_THREADS
    wjpy_text_release(st, &text);
    if (*rc != WJ_OK && !wj_error_is_input(*rc)) {
        wjpy_raise(st, func, *rc, err);
        return -1;
    }
    return 0;
}

static PyObject *wirejson_error(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    static const char func[] = "wirejson_error";
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;
    char msg[256];
    size_t len;
    PyObject *reported, *text, *tail;
    int r;

    if (arity(func, n, 1, 1) < 0 ||
        (r = validate(m, func, a[0], &rc, &err, &reported)) < 0)
        return NULL;
    if (r > 0) { /* its message without "wirejson_error: " */
        text = PyObject_Str(reported);
        Py_DECREF(reported);
        if (!text)
            return NULL;
        tail = PyUnicode_Substring(text, (Py_ssize_t)sizeof func + 1,
                                   PY_SSIZE_T_MAX);
        Py_DECREF(text);
        return tail;
    }
    if (rc == WJ_OK)
        Py_RETURN_NONE;
    len = wj_error_format(&err, NULL, msg, sizeof msg);
    if (len >= sizeof msg)
        len = sizeof msg - 1;
    return PyUnicode_DecodeUTF8(msg, (Py_ssize_t)len, "replace");
}

static PyObject *wirejson_error_position(PyObject *m, PyObject *const *a,
                                         Py_ssize_t n)
{
    wj_error err = WJ_ERROR_INIT;
    wj_code rc;
    PyObject *reported, *offset;
    int r;

    if (arity("wirejson_error_position", n, 1, 1) < 0 ||
        (r = validate(m, "wirejson_error_position", a[0], &rc, &err,
                      &reported)) < 0)
        return NULL;
    if (r > 0) {
        offset = PyObject_GetAttrString(reported, "offset");
        Py_DECREF(reported);
        return offset;
    }
    if (rc == WJ_OK)
        Py_RETURN_NONE;
    return PyLong_FromSize_t(err.offset);
}

static PyObject *version(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    (void)m;
    (void)a;
    if (arity("version", n, 0, 0) < 0)
        return NULL;
    return PyUnicode_FromString(wj_version());
}

/* ------------------------------------------------------------- the table */

#define FASTCALL(name, doc)                                                    \
    {                                                                          \
#name, (PyCFunction)(void (*)(void))name, METH_FASTCALL, doc           \
    }

/* A document is JSON text (str, bytes, a buffer of single bytes) or a
 * Python value. */
#define DOC_NOTE                                                               \
    "\n\ndoc is JSON text (str, bytes, bytearray, or a memoryview or array\n"  \
    "of format B, b or c, taken whole) or a Python value (dict with str\n"     \
    "keys, list, tuple, str, int, float, bool, None, numpy's bool_,\n"         \
    "integer and floating scalars, wirejson.Fragment).  Raises\n"              \
    "wirejson.Error with the SQL message."

static PyMethodDef functions[] = {
    FASTCALL(wire_json,
             "wire_json(doc, /, *data_members)\n--\n\n"
             "The wire rendering: compact, members sorted by code point, a\n"
             "JSON Schema's properties in the order of its required; the\n"
             "top-level members named as data members are data (sorted,\n"
             "never read as schema)." DOC_NOTE),
    FASTCALL(wire_json_sorted,
             "wire_json_sorted(doc, /)\n--\n\n"
             "The wire rendering with every object sorted (no property-map\n"
             "rule)." DOC_NOTE),
    FASTCALL(
        canonical_json,
        "canonical_json(doc, /)\n--\n\n"
        "The canonical rendering, RFC 8785 (JCS): the identity key." DOC_NOTE),
    FASTCALL(data_digest, "data_digest(doc, /)\n--\n\n"
                          "SHA-256 of canonical_json(doc), 64 lowercase hex "
                          "characters." DOC_NOTE),
    FASTCALL(message_digest,
             "message_digest(doc, /, *ignored)\n--\n\n"
             "The digest of a chat message (a JSON object) without its null\n"
             "members, without extra and without the members named." DOC_NOTE),
    FASTCALL(messages_digest,
             "messages_digest(doc, /)\n--\n\n"
             "SHA-256 of the message_digest hex strings of the array's\n"
             "messages, in order." DOC_NOTE),
    FASTCALL(prefix_digests,
             "prefix_digests(doc, /)\n--\n\n"
             "A list of the messages_digest of each prefix of the array of\n"
             "messages doc (element k: of the first k+1 messages), in linear\n"
             "time." DOC_NOTE),
    FASTCALL(canonical_arguments,
             "canonical_arguments(text, /)\n--\n\n"
             "canonical_json(text) when it succeeds, else text unchanged (a\n"
             "tool call's arguments as models emit them)."),
    FASTCALL(with_top_level,
             "with_top_level(body, name, value, /)\n--\n\n"
             "body with the value of every top-level member called name\n"
             "(after decoding escapes, under simple case folding) replaced\n"
             "by value, every other byte unchanged; None when body is not an\n"
             "object or holds no such member (or name is None).  value is a\n"
             "Python value: a str becomes a JSON string, a Fragment is\n"
             "spliced as it is, None is null."),
    FASTCALL(tool_schemas,
             "tool_schemas(body, /, *path)\n--\n\n"
             "For each element of body's top-level tools array, the exact\n"
             "text found by following the member names of path (None for a\n"
             "tool without one), as a list; None when body has no top-level\n"
             "tools array."),
    FASTCALL(encode_with_schemas,
             "encode_with_schemas(body, texts, /)\n--\n\n"
             "body in the wire rendering (data member messages) with its\n"
             "tools spelled the way function-calling models have seen them,\n"
             "each parameters written as the text in texts when it still\n"
             "says the same.  texts is JSON text or a list of str/None, as\n"
             "tool_schemas gives; None when the tools cannot be spelled."),
    FASTCALL(wirejson_error,
             "wirejson_error(doc, /)\n--\n\n"
             "None when doc is valid input, else the error message (without\n"
             "a function name)."),
    FASTCALL(wirejson_error_position,
             "wirejson_error_position(doc, /)\n--\n\n"
             "None when doc is valid input, else the 0-based byte offset of\n"
             "the error."),
    FASTCALL(version, "version()\n--\n\nThe version of the wirejson library."),
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------ the module */

static int module_exec(PyObject *m)
{
    wjpy_state *st = wjpy_state_of_module(m);
    char deep[WJ_MAX_DEPTH + 1];
    wj_error err = WJ_ERROR_INIT;

    /* The core's own words for nesting too deep, for the walker. */
    memset(deep, '[', sizeof deep);
    wj_validate(deep, sizeof deep, &wjpy_alloc, &err);
    st->depth_msg = err.msg;

    st->error = wjpy_error_type_new();
    if (!st->error || PyModule_AddObjectRef(m, "Error", st->error) < 0)
        return -1;
    st->fragment_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(m, &wjpy_fragment_spec, NULL);
    if (!st->fragment_type || PyModule_AddType(m, st->fragment_type) < 0)
        return -1;
    st->conversation_type = (PyTypeObject *)PyType_FromModuleAndSpec(
        m, &wjpy_conversation_spec, NULL);
    if (!st->conversation_type ||
        PyModule_AddType(m, st->conversation_type) < 0)
        return -1;
    return 0;
}

static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
    wjpy_state *st = wjpy_state_of_module(m);
    Py_VISIT(st->error);
    Py_VISIT(st->fragment_type);
    Py_VISIT(st->conversation_type);
    Py_VISIT(st->json_loads);
    return 0;
}

static int module_clear(PyObject *m)
{
    wjpy_state *st = wjpy_state_of_module(m);
    Py_CLEAR(st->error);
    Py_CLEAR(st->fragment_type);
    Py_CLEAR(st->conversation_type);
    Py_CLEAR(st->json_loads);
    return 0;
}

static void module_free(void *m)
{
    wjpy_state *st = wjpy_state_of_module((PyObject *)m);
    int k;
    module_clear((PyObject *)m);
    for (k = 0; k < WJPY_WRITER_KINDS; k++) {
        wj_writer_free(st->spare[k]);
        st->spare[k] = NULL;
    }
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

PyModuleDef wjpy_module_def = {
    PyModuleDef_HEAD_INIT,
    "wirejson._wirejson",
    "The wirejson functions over the C library (see the wirejson package).",
    sizeof(wjpy_state),
    functions,
    module_slots,
    module_traverse,
    module_clear,
    module_free,
};

PyMODINIT_FUNC PyInit__wirejson(void);

PyMODINIT_FUNC PyInit__wirejson(void)
{
    return PyModuleDef_Init(&wjpy_module_def);
}
