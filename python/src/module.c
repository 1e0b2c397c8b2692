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
 * The functions are the rows of the core's table of functions that carry
 * WK_HOST_PYTHON, added at module init: one C function serves them all,
 * converting the arguments by the kinds of the row's parameters (convert.c),
 * calling wj_function_call with the GIL released, and converting the result
 * by its kind.  METH_FASTCALL throughout: no argument tuple is built.
 */
#include "wjpy.h"
#include "wjpy_arrow.h"

wjpy_state *wjpy_state_of_module(PyObject *module)
{
    return (wjpy_state *)PyModule_GetState(module);
}

wjpy_state *wjpy_state_of_type(PyTypeObject *type)
{
    PyObject *module = PyType_GetModuleByDef(type, &wjpy_module_def);
    return module ? wjpy_state_of_module(module) : NULL;
}

/* What a row does beyond the generic path: a Python value's canonical
 * rendering and data digest come straight from a canonical writer
 * (convert.c), without text, the text route as their fallback; the
 * validation functions report the error met while writing a Python value
 * (a Fragment that is not one JSON value) as the error of the document. */
typedef enum py_special {
    PY_GENERIC,
    PY_CANONICAL,      /* canonical_json */
    PY_DATA_DIGEST,    /* data_digest */
    PY_ERROR_TEXT,     /* wirejson_error */
    PY_ERROR_POSITION  /* wirejson_error_position */
} py_special;

/* A document is JSON text (str, bytes, a buffer of single bytes) or a
 * Python value: said after the docstring of each function that takes one. */
#define WJPY_DOC_NOTE                                                          \
    "\n\ndoc is JSON text (str, bytes, bytearray, or a memoryview or array\n"  \
    "of format B, b or c, taken whole) or a Python value (dict with str\n"     \
    "keys, list, tuple, str, int, float, bool, None, numpy's bool_,\n"         \
    "integer and floating scalars, wirejson.Fragment).  Raises\n"              \
    "wirejson.Error with the SQL message."

/* Each function's docstring, made from its row. */
#include "py_docstrings.gen.h"

/* The functions with a path of their own for Python values.  Every other
 * row with WK_HOST_PYTHON takes the generic path. */
static const struct py_face {
    const char *name;
    py_special special;
} faces[] = {
    {"canonical_json", PY_CANONICAL},
    {"data_digest", PY_DATA_DIGEST},
    {"wirejson_error", PY_ERROR_TEXT},
    {"wirejson_error_position", PY_ERROR_POSITION},
};

/* A function of the module: its row and its special path.  Each function
 * object's self is a tuple (module, capsule of its slot). */
typedef struct py_slot {
    const wj_function *fn;
    py_special special;
} py_slot;

/* The rows' slots and method definitions, filled once from the table (they
 * depend on nothing but the table, so every module object shares them). */
#define MAX_FUNCTIONS 64
static py_slot slots[MAX_FUNCTIONS];
static PyMethodDef defs[MAX_FUNCTIONS];
static size_t n_defs;

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

/* with_top_level's VALUE as JSON text: bytes or a buffer of single bytes is
 * JSON text spliced as it is (as SQL splices a BLOB), a Fragment too (each
 * checked to be one JSON value); any other object is a Python value written
 * by the walker (a str is a JSON string). */
int wjpy_value_text(wjpy_state *st, const char *func, const char *argument,
                      PyObject *obj, wjpy_text *out)
{
    if (!PyUnicode_Check(obj) && wjpy_is_text(st, obj))
        return wjpy_text_from(st, func, argument, obj, out);
    memset(out, 0, sizeof *out);
    return wjpy_walked_text(st, func, argument, obj, out);
}

/* texts as JSON text: a list or tuple of str and None is written as a JSON
 * array; anything else is a document. */
int wjpy_texts_text(wjpy_state *st, const char *func, const char *argument,
                    int none_too, PyObject *obj, wjpy_text *out)
{
    if (PyList_Check(obj) || PyTuple_Check(obj)) {
        Py_ssize_t k, size = PySequence_Fast_GET_SIZE(obj);
        for (k = 0; k < size; k++) {
            PyObject *item = PySequence_Fast_GET_ITEM(obj, k);
            if ((item != Py_None || !none_too) && !PyUnicode_Check(item)) {
                memset(out, 0, sizeof *out);
                PyErr_Format(PyExc_TypeError,
                             "%s: %s: element %zd must be str%s, not %.100s",
                             func, argument, k, none_too ? " or None" : "",
                             Py_TYPE(item)->tp_name);
                return -1;
            }
        }
        return wjpy_value_text(st, func, argument, obj, out);
    }
    return wjpy_text_from(st, func, argument, obj, out);
}

/* The error met while writing a Python document (raised, as a
 * wirejson.Error with an offset) as the result of the validation function
 * of slot: its message without "FUNC: ", or its offset.  NULL with the
 * exception left as it is when it is another error. */
static PyObject *reported(wjpy_state *st, const py_slot *slot)
{
    PyObject *type, *exc, *tb, *offset, *text, *tail;

    if (!PyErr_ExceptionMatches(st->error))
        return NULL;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    offset = exc ? PyObject_GetAttrString(exc, "offset") : NULL;
    if (!offset || offset == Py_None) {
        Py_XDECREF(offset);
        PyErr_Restore(type, exc, tb);
        return NULL;
    }
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (slot->special == PY_ERROR_POSITION) {
        Py_DECREF(exc);
        return offset;
    }
    Py_DECREF(offset);
    text = PyObject_Str(exc);
    Py_DECREF(exc);
    if (!text)
        return NULL;
    tail = PyUnicode_Substring(text, (Py_ssize_t)strlen(slot->fn->name) + 2,
                               PY_SSIZE_T_MAX);
    Py_DECREF(text);
    return tail;
}

/* A WJ_RESULT_DIGESTS result as a list of str. */
static PyObject *digest_list(const wj_result *res)
{
    size_t n, k;
    const char *hex = wk_digests(res->text, res->len, &n);
    PyObject *list = PyList_New((Py_ssize_t)n);

    for (k = 0; list && k < n; k++) {
        PyObject *s = PyUnicode_FromStringAndSize(hex + k * WK_DIGEST_STRIDE,
                                                  64);
        if (!s)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)k, s);
    }
    return list;
}

/* The result of a call as the Python object its result kind gives. */
static PyObject *result_object(wjpy_state *st, const py_slot *slot,
                               wj_result *res)
{
    PyObject *obj;

    if (res->is_null) {
        wj_result_free(&wjpy_alloc, res);
        Py_RETURN_NONE;
    }
    switch (slot->fn->result) {
    case WJ_RESULT_DIGEST:
        return PyUnicode_FromStringAndSize(res->digest, WJ_DIGEST_HEX_SIZE - 1);
    case WJ_RESULT_INTEGER:
        return PyLong_FromLongLong((long long)res->integer);
    case WJ_RESULT_DIGESTS:
        obj = digest_list(res);
        wj_result_free(&wjpy_alloc, res);
        return obj;
    case WJ_RESULT_TEXTS: {
        PyObject *text = wjpy_result_text(res->text, res->len);
        res->text = NULL;
        if (!text)
            return NULL;
        obj = json_array_to_list(st, text);
        Py_DECREF(text);
        return obj;
    }
    case WJ_RESULT_JSON:
    case WJ_RESULT_BODY:
    case WJ_RESULT_TEXT:
        break;
    }
    if (slot->special == PY_ERROR_TEXT) { /* a message, as errors decode it */
        obj = PyUnicode_DecodeUTF8(res->text, (Py_ssize_t)res->len, "replace");
        wj_result_free(&wjpy_alloc, res);
        return obj;
    }
    obj = wjpy_result_text(res->text, res->len);
    res->text = NULL;
    return obj;
}

/* A Python value's canonical rendering or data digest from a canonical
 * writer; NULL without an exception when it needs the text route. */
static PyObject *canonical_value(wjpy_state *st, const py_slot *slot,
                                 PyObject *value)
{
    wjpy_writer_kind kind =
        slot->special == PY_CANONICAL ? WJPY_CANONICAL : WJPY_DIGEST;
    wj_writer *w = wjpy_canonical_writer(st, slot->fn->name, value, kind);
    char hex[WJ_DIGEST_HEX_SIZE];
    PyObject *s;
    size_t len = 0;

    if (!w)
        return NULL;
    if (kind == WJPY_DIGEST) {
        wj_writer_digest(w, hex, NULL);
        s = PyUnicode_FromStringAndSize(hex, WJ_DIGEST_HEX_SIZE - 1);
    } else {
        const char *text = wj_writer_text(w, &len, NULL);
        s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, NULL);
    }
    wjpy_writer_give(st, w, kind);
    return s;
}

/* Every function of the module: converts the arguments by the kinds of
 * its row's parameters (convert.c), calls the row with the GIL released,
 * and converts the result by its kind.  METH_FASTCALL: no argument tuple
 * is built. */
static PyObject *call_function(PyObject *self, PyObject *const *a,
                               Py_ssize_t nargs)
{
    PyObject *module = PyTuple_GET_ITEM(self, 0);
    const py_slot *slot = PyCapsule_GetPointer(PyTuple_GET_ITEM(self, 1), NULL);
    const wj_function *fn = slot->fn;
    const char *func = fn->name;
    wjpy_state *st = wjpy_state_of_module(module);
    size_t fixed = wj_function_min_args(fn), n = (size_t)nargs, n_args, k;
    wjpy_text texts[WK_MAX_FIXED];
    PyObject *owned[WK_MAX_FIXED];
    wjpy_names names;
    wj_arg fixed_args[WK_MAX_FIXED], *args = fixed_args;
    wk_args room = {0};
    wj_result res;
    wj_error err = WJ_ERROR_INIT;
    PyObject *result = NULL;
    wj_code rc;

    if (wk_call_check(fn, n, NULL, NULL, &err) != WK_CALL_RUN) {
        PyErr_Format(PyExc_TypeError, "%s: %s", func, err.msg);
        return NULL;
    }
    if ((slot->special == PY_CANONICAL || slot->special == PY_DATA_DIGEST) &&
        wjpy_is_value(st, a[0])) {
        result = canonical_value(st, slot, a[0]);
        if (result || PyErr_Occurred()) /* done, or interrupted */
            return result;
    }
    memset(texts, 0, sizeof texts);
    memset(owned, 0, sizeof owned);
    memset(&names, 0, sizeof names);
    /* Names first: a None name is SQL's NULL, whatever the rest holds. */
    for (k = 0; k < fixed; k++) {
        wj_name name;
        int r;
        if (fn->params[k].kind != WJ_ARG_NAME)
            continue;
        r = wjpy_name_from(func, a[k], &name, &owned[k]);
        if (r != 0) {
            result = r > 0 ? Py_NewRef(Py_None) : NULL;
            goto done;
        }
        fixed_args[k].ptr = name.ptr;
        fixed_args[k].len = name.len;
    }
    for (k = 0; k < fixed; k++) {
        int r = 0;
        switch (fn->params[k].kind) {
        case WJ_ARG_DOCUMENT:
        case WJ_ARG_TEXT:
            r = wjpy_text_from(st, func, NULL, a[k], &texts[k]);
            if (r < 0 && k == 0 && (slot->special == PY_ERROR_TEXT ||
                                    slot->special == PY_ERROR_POSITION)) {
                result = reported(st, slot);
                goto done;
            }
            break;
        case WJ_ARG_VALUE:
            r = wjpy_value_text(st, func, "value", a[k], &texts[k]);
            break;
        case WJ_ARG_TEXTS:
            r = wjpy_texts_text(st, func, "texts", 1, a[k], &texts[k]);
            break;
        case WJ_ARG_DIGESTS: /* a list of str, or its JSON text */
            r = wjpy_texts_text(st, func, fn->params[k].name, 0, a[k], &texts[k]);
            break;
        case WJ_ARG_NAME:
        case WJ_ARG_NAMES:
        case WJ_ARG_WORD:
            continue;
        }
        if (r < 0)
            goto done;
        /* an empty buffer may have no address: it is still text */
        fixed_args[k].ptr = texts[k].ptr ? texts[k].ptr : "";
        fixed_args[k].len = texts[k].len;
    }
    n_args = fixed;
    if (n > fixed) {
        if (wjpy_names_from(func, a + fixed, nargs - (Py_ssize_t)fixed,
                            &names) < 0)
            goto done;
        if (!(args = wk_args_room(&room, fixed + names.n))) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(args, fixed_args, fixed * sizeof *args);
        for (k = 0; k < names.n; k++) {
            args[fixed + k].ptr = names.v[k].ptr;
            args[fixed + k].len = names.v[k].len;
        }
        n_args += names.n;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = wj_function_call(fn, args, n_args, &wjpy_alloc, &res, &err);
    Py_END_ALLOW_THREADS
    if (rc != WJ_OK)
        wjpy_raise(st, func, rc, &err);
    else
        result = result_object(st, slot, &res);
done:
    for (k = 0; k < fixed; k++) {
        wjpy_text_release(st, &texts[k]);
        Py_XDECREF(owned[k]);
    }
    wjpy_names_release(&names);
    wk_args_free(&room);
    return result;
}

/* A row whose last parameter is an optional word (a mode), which may also
 * be given by its name: mode="canonical". */
static int takes_word(const wj_function *fn)
{
    return fn->n_params > 0 &&
           fn->params[fn->n_params - 1].kind == WJ_ARG_WORD;
}

/* call_function for such a row: the word given by keyword joins the
 * positional arguments. */
static PyObject *call_function_word(PyObject *self, PyObject *const *a,
                                    Py_ssize_t nargs, PyObject *kwnames)
{
    const py_slot *slot = PyCapsule_GetPointer(PyTuple_GET_ITEM(self, 1), NULL);
    const wj_function *fn = slot->fn;
    const char *word = fn->params[fn->n_params - 1].name;
    PyObject *all[WK_MAX_FIXED + 1];
    Py_ssize_t k;

    if (!kwnames || PyTuple_GET_SIZE(kwnames) == 0)
        return call_function(self, a, nargs);
    if (PyTuple_GET_SIZE(kwnames) != 1 ||
        !PyUnicode_Check(PyTuple_GET_ITEM(kwnames, 0)) ||
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), word) !=
            0 ||
        nargs != (Py_ssize_t)wj_function_min_args(fn)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: the only keyword argument is %s, after the "
                     "document",
                     fn->name, word);
        return NULL;
    }
    for (k = 0; k <= nargs; k++)
        all[k] = a[k];
    return call_function(self, all, nargs + 1);
}

/* Fills slots and defs from the rows with WK_HOST_PYTHON, once. */
static int fill_defs(void)
{
    size_t n_rows, k, f;
    const wj_function *rows = wj_functions(&n_rows);

    if (n_defs)
        return 0;
    for (k = 0; k < n_rows; k++) {
        const wj_function *fn = &rows[k];
        py_slot *slot = &slots[n_defs];
        PyMethodDef *def = &defs[n_defs];
        if (!(wk_function_hosts(fn) & WK_HOST_PYTHON) || fn->call == NULL)
            continue;
        if (n_defs == MAX_FUNCTIONS || wj_function_min_args(fn) > WK_MAX_FIXED) {
            PyErr_Format(PyExc_SystemError, "%s: too many functions or "
                         "arguments for the module", fn->name);
            return -1;
        }
        slot->fn = fn;
        slot->special = PY_GENERIC;
        def->ml_name = fn->name;
        def->ml_meth = (PyCFunction)(void (*)(void))call_function;
        def->ml_flags = METH_FASTCALL;
        if (takes_word(fn)) {
            def->ml_meth = (PyCFunction)(void (*)(void))call_function_word;
            def->ml_flags = METH_FASTCALL | METH_KEYWORDS;
        }
        def->ml_doc = fn->summary;
        for (f = 0; f < sizeof wjpy_docstrings / sizeof *wjpy_docstrings; f++)
            if (strcmp(wjpy_docstrings[f].name, fn->name) == 0)
                def->ml_doc = wjpy_docstrings[f].doc;
        for (f = 0; f < sizeof faces / sizeof *faces; f++)
            if (strcmp(faces[f].name, fn->name) == 0)
                slot->special = faces[f].special;
        n_defs++;
    }
    return 0;
}

/* Adds a function object to m for each row with WK_HOST_PYTHON. */
static int add_functions(PyObject *m)
{
    PyObject *name = PyModule_GetNameObject(m);
    size_t k;

    if (!name || fill_defs() < 0) {
        Py_XDECREF(name);
        return -1;
    }
    for (k = 0; k < n_defs; k++) {
        PyObject *capsule = PyCapsule_New(&slots[k], NULL, NULL);
        PyObject *self = capsule ? PyTuple_Pack(2, m, capsule) : NULL;
        PyObject *func =
            self ? PyCFunction_NewEx(&defs[k], self, name) : NULL;
        int bad = !func || PyModule_AddObjectRef(m, defs[k].ml_name, func) < 0;
        Py_XDECREF(capsule);
        Py_XDECREF(self);
        Py_XDECREF(func);
        if (bad) {
            Py_DECREF(name);
            return -1;
        }
    }
    Py_DECREF(name);
    return 0;
}

/* ------------------------------------------------------------ the module */

/* The dedup job's line reader (lines.c) and its tasks' memory (py_memory.c),
 * like its Tally type (tally.c), outside the table: they are not functions
 * of the SQL surface. */
static PyMethodDef dedup_defs[3];

/* Adds the type of spec to m. */
static int add_type(PyObject *m, PyType_Spec *spec)
{
    PyObject *type = PyType_FromModuleAndSpec(m, spec, NULL);
    int bad = !type || PyModule_AddType(m, (PyTypeObject *)type) < 0;
    Py_XDECREF(type);
    return bad ? -1 : 0;
}

static int module_exec(PyObject *m)
{
    wjpy_state *st = wjpy_state_of_module(m);
    char deep[WJ_MAX_DEPTH + 1];
    wj_error err = WJ_ERROR_INIT;
    PyObject *tally;
    int bad;

    /* The core's own words for nesting too deep, for the walker. */
    memset(deep, '[', sizeof deep);
    wj_validate(deep, sizeof deep, &wjpy_alloc, &err);
    st->depth_msg = err.msg;
    dedup_defs[0] = wjpy_key_lines_def;
    dedup_defs[1] = wjpy_keep_freed_memory_def;

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
    if (PyModule_AddFunctions(m, dedup_defs) < 0)
        return -1;
    /* The dedup job's map stage in C (tally.c), beside key_lines. */
    tally = PyType_FromModuleAndSpec(m, &wjpy_tally_spec, NULL);
    bad = !tally || PyModule_AddType(m, (PyTypeObject *)tally) < 0;
    Py_XDECREF(tally);
    if (bad || wjpy_arrow_add(m) < 0 || add_type(m, &wjpy_out_dir_spec) < 0)
        return -1;
    return add_functions(m);
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
    NULL, /* the functions come from the table (add_functions) */
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
