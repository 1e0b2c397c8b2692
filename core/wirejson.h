/* SPDX-License-Identifier: MIT */
/*
 * wirejson.h - deterministic JSON rendering and stable digests.
 *
 * Every function takes JSON text (UTF-8, RFC 8259, one value) as a pointer
 * and a length; the text need not be NUL-terminated and may hold NUL bytes
 * (which are then rejected as the grammar requires).  The text must not
 * change during a call.  Functions return a
 * wj_code; on failure they fill the caller's wj_error (when not NULL) with
 * the code, a static reason and, for input errors, the 0-based byte offset.
 *
 * Results are allocated through the allocator given (NULL: malloc) and are
 * released with wj_free() and that same allocator.  No result depends on
 * an earlier call, and all functions are safe to call from any number of
 * threads at once.  With the default allocator (NULL) the library keeps
 * the parser's working arrays of a finished call, one of each kind and at
 * most 4 MiB each, for the next call of any thread (so that each call does
 * not fault fresh pages in); they stay reachable until the process exits.
 * A call with an allocator of its own keeps nothing.  The two objects
 * (wj_writer, wj_conversation) hold their caller's state; each may be used
 * by one thread at a time.
 */
#ifndef WIREJSON_H
#define WIREJSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- version */

/*
 * The one place the version is set: CMake reads these three lines into
 * project(wirejson VERSION ...), so the SONAME, wirejson.pc, the CMake
 * package and wj_version() all follow.
 */
#define WJ_VERSION_MAJOR 0
#define WJ_VERSION_MINOR 3
#define WJ_VERSION_PATCH 0
#define WJ_VERSION_STR_(x) #x
#define WJ_VERSION_STR(x) WJ_VERSION_STR_(x)
/* "MAJOR.MINOR.PATCH", e.g. "0.2.0": the version this header belongs to. */
/* clang-format off */
#define WJ_VERSION_STRING WJ_VERSION_STR(WJ_VERSION_MAJOR) "." \
    WJ_VERSION_STR(WJ_VERSION_MINOR) "." WJ_VERSION_STR(WJ_VERSION_PATCH)
/* clang-format on */

/*
 * WJ_API marks the public functions.  Building libwirejson (CMake defines
 * WJ_BUILDING_LIBRARY) makes them the only symbols the shared library
 * exports, every other one being hidden; a program that includes this
 * header sees plain declarations, whichever of the two libraries it links.
 */
#if defined(WJ_BUILDING_LIBRARY) && (defined(__GNUC__) || defined(__clang__))
#define WJ_API __attribute__((visibility("default")))
#else
#define WJ_API
#endif

/* The version of the library linked at run time, e.g. "0.2.0". */
WJ_API const char *wj_version(void);

/* ----------------------------------------------------------------- errors */

typedef enum wj_code {
    WJ_OK = 0,
    WJ_ERR_SYNTAX,    /* input outside RFC 8259's grammar (offset set) */
    WJ_ERR_UTF8,      /* invalid UTF-8 in the input (offset set) */
    WJ_ERR_DUPLICATE, /* an object spells a member name twice (offset set) */
    WJ_ERR_DEPTH,    /* more than WJ_MAX_DEPTH nested containers (offset set) */
    WJ_ERR_RANGE,    /* a number rounds to infinity as a double (offset set) */
    WJ_ERR_TYPE,     /* valid JSON of the wrong kind for the function */
    WJ_ERR_ARGUMENT, /* an argument other than the JSON text is unusable */
    WJ_ERR_NOMEM,    /* an allocation failed */
    WJ_ERR_TOOBIG,   /* input or result larger than the library handles */
    WJ_ERR_INTERRUPTED /* the caller's interrupted hook asked the call to stop */
} wj_code;

/* Containers may nest this deep; one more is WJ_ERR_DEPTH. */
#define WJ_MAX_DEPTH 1000

/* Inputs must be shorter than this many bytes (offsets are 32-bit). */
#define WJ_MAX_INPUT ((size_t)0xFFFFFFF0u)

/* wj_error.element when no array element is at fault. */
#define WJ_NO_ELEMENT ((size_t)-1)

typedef struct wj_error {
    wj_code code;    /* WJ_OK when nothing went wrong */
    size_t offset;   /* byte offset of the fault, for input errors */
    const char *msg; /* static reason, e.g. "expected ':' after member name" */
    const char *argument; /* the argument at fault when it is not the
                             document, e.g. "texts" or "value"; else NULL */
    size_t element;       /* index (0-based) of the array element at fault,
                             or WJ_NO_ELEMENT */
} wj_error;

/* An error that says nothing went wrong, for wj_error variables the caller
 * fills in itself (every function resets the one it is given on entry). */
/* clang-format off */
#define WJ_ERROR_INIT {WJ_OK, 0, NULL, NULL, WJ_NO_ELEMENT}
/* clang-format on */

/* True for the codes that describe the input text and carry an offset. */
WJ_API int wj_error_is_input(wj_code code);

/*
 * Writes the full message for an error raised by the function `func` into
 * buf (always NUL-terminated when size > 0) and returns the length it needed,
 * as snprintf does.  The message is `func: `, then `argument: ` when the
 * error names one, then for input errors
 *   "malformed JSON at byte 17: expected ':' after member name"
 *   "number out of range at byte 5: rounds to infinity"
 * for an element's error "element 1 " and the reason
 *   "messages_digest: element 1 is not a JSON object"
 * and for the others the reason
 *   "message_digest: a message must be a JSON object"
 *   "encode_with_schemas: texts: malformed JSON at byte 1: expected a value"
 * With func NULL the "name: " prefix is left out.
 */
WJ_API size_t wj_error_format(const wj_error *err, const char *func, char *buf,
                              size_t size);

/* "syntax", "utf8", "duplicate", "depth", "range", "type", "argument",
 * "nomem", "toobig", "interrupted" (WJ_OK: "ok"; an unknown code: "unknown"): a stable
 * short name for a code, for callers that expose it. */
WJ_API const char *wj_code_name(wj_code code);

/* -------------------------------------------------------------- allocator */

/*
 * The host's hooks: an optional allocator and an optional way to stop a long
 * call.  Every function that allocates takes one; NULL means the C library's
 * malloc/realloc/free and no interruption.  A failing allocation makes the
 * call return WJ_ERR_NOMEM after releasing everything it had allocated.
 *
 * interrupted (NULL: never) is asked, with ctx, about once a MiB of input
 * read or output written; a non-zero answer makes the call release what it
 * holds and return WJ_ERR_INTERRUPTED, so a host can honour its own cancel
 * (a query cancel, a signal) within milliseconds on any input size.  It must
 * be cheap and must not call back into the library.
 */
typedef struct wj_alloc {
    void *(*malloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
    int (*interrupted)(void *ctx);
} wj_alloc;

/* Releases a result of this library with the allocator it was made with. */
WJ_API void wj_free(const wj_alloc *alloc, void *ptr);

/* A name given by the caller: bytes and length (UTF-8, no escapes). */
typedef struct wj_name {
    const char *ptr;
    size_t len;
} wj_name;

/* ---------------------------------------------------------------- parsing */

/*
 * Checks that json is valid input (docs/contract.md §3): grammar, UTF-8, no
 * duplicate member names, nesting at most WJ_MAX_DEPTH.  WJ_OK when it is.
 */
WJ_API wj_code wj_validate(const char *json, size_t len, const wj_alloc *alloc,
                           wj_error *err);

/* ---------------------------------------------------------------- numbers */

/* Room for any number wj_number_from_double writes, with a NUL. */
#define WJ_NUMBER_BUF_SIZE 32

/*
 * The JSON number ECMAScript's Number-to-String writes for value (the
 * shortest digits that read back to it; -0 -> "0"; 1e21 -> "1e+21"; 1e-7 ->
 * "1e-7"), NUL-terminated, its length in *out_len (which may be NULL).
 * WJ_ERR_ARGUMENT ("not a finite number", out set to "") for NaN and the
 * infinities.  Locale-independent and thread-safe.
 */
WJ_API wj_code wj_number_from_double(double value, char out[WJ_NUMBER_BUF_SIZE],
                                     size_t *out_len, wj_error *err);

/* ------------------------------------------------------------- renderings */

/*
 * The wire rendering (docs/contract.md §4): compact, members sorted by code
 * point, a JSON Schema's `properties` in the order of its `required`.  The
 * values of the top-level members named in data_members[0..n_data_members) are
 * data (sorted, never read as schema).  On success *out holds a NUL-terminated
 * buffer of *out_len bytes, to be released with wj_free().
 */
WJ_API wj_code wj_wire_json(const char *json, size_t len,
                            const wj_name *data_members, size_t n_data_members,
                            const wj_alloc *alloc, char **out, size_t *out_len,
                            wj_error *err);

/* The wire rendering with every object sorted and no property-map rule. */
WJ_API wj_code wj_wire_json_sorted(const char *json, size_t len,
                                   const wj_alloc *alloc, char **out,
                                   size_t *out_len, wj_error *err);

/* The canonical rendering (docs/contract.md §5): RFC 8785, the JSON
 * Canonicalization Scheme.  Numbers are read as IEEE-754 doubles (WJ_ERR_RANGE
 * when one rounds to infinity). */
WJ_API wj_code wj_canonical_json(const char *json, size_t len,
                                 const wj_alloc *alloc, char **out,
                                 size_t *out_len, wj_error *err);

/*
 * canonical_json of a tool call's arguments text when that succeeds, else the
 * text unchanged.  Fails only with WJ_ERR_NOMEM (or WJ_ERR_TOOBIG).
 */
WJ_API wj_code wj_canonical_arguments(const char *text, size_t len,
                                      const wj_alloc *alloc, char **out,
                                      size_t *out_len, wj_error *err);

/* ---------------------------------------------------------------- digests */

/* A digest: 64 lowercase hex characters and a NUL. */
#define WJ_DIGEST_HEX_SIZE 65

/* SHA-256 of canonical_json(json). */
WJ_API wj_code wj_data_digest(const char *json, size_t len,
                              const wj_alloc *alloc,
                              char hex[WJ_DIGEST_HEX_SIZE], wj_error *err);

/*
 * SHA-256 of the canonical JSON of the message object json without its
 * top-level members whose value is null, without `extra`, and without the
 * members named in ignored[0..n_ignored).  WJ_ERR_TYPE when json is not an
 * object.
 */
WJ_API wj_code wj_message_digest(const char *json, size_t len,
                                 const wj_name *ignored, size_t n_ignored,
                                 const wj_alloc *alloc,
                                 char hex[WJ_DIGEST_HEX_SIZE], wj_error *err);

/*
 * SHA-256 of the concatenated wj_message_digest hex strings of the elements
 * of the array json, in order.  WJ_ERR_TYPE when json is not an array, or
 * when an element is not an object (then err->element is its index:
 * "element 1 is not a JSON object").
 */
WJ_API wj_code wj_messages_digest(const char *json, size_t len,
                                  const wj_alloc *alloc,
                                  char hex[WJ_DIGEST_HEX_SIZE], wj_error *err);

/* -------------------------------------------------- the conversation digest */

/*
 * messages_digest, incrementally: holds the message_digest of each message
 * pushed and a running SHA-256 of those hex strings.  A push costs the
 * message's own digest, reading the digest of a growing sequence O(1);
 * after dropping the oldest message the next digest rehashes what is held
 * (64 bytes a message, no message parsed again).  All its memory, the
 * SHA-256 state included, comes from the allocator given, so it may live in
 * an arena that is thrown away without wj_conversation_free (a database's
 * per-query memory).  One thread at a time per conversation.
 */
typedef struct wj_conversation wj_conversation;

/* A new, empty conversation in *out (WJ_ERR_NOMEM: *out is NULL). */
WJ_API wj_code wj_conversation_new(const wj_alloc *alloc,
                                   wj_conversation **out);

/* Releases conv and everything it holds; NULL is a no-op. */
WJ_API void wj_conversation_free(wj_conversation *conv);

/* Appends the message_digest of the message text json[0..len); its errors
 * are wj_message_digest's (nothing is appended then). */
WJ_API wj_code wj_conversation_push(wj_conversation *conv, const char *json,
                                    size_t len, wj_error *err);

/* Drops the oldest message; WJ_ERR_ARGUMENT when there is none. */
WJ_API wj_code wj_conversation_drop(wj_conversation *conv, wj_error *err);

/* How many messages conv holds. */
WJ_API size_t wj_conversation_length(const wj_conversation *conv);

/* The messages_digest of the messages held, in order (of none: SHA-256 of
 * the empty string) into hex.  Needs no memory: always WJ_OK. */
WJ_API wj_code wj_conversation_digest(wj_conversation *conv,
                                      char hex[WJ_DIGEST_HEX_SIZE],
                                      wj_error *err);

/*
 * The running hash of messages_digest as a plain value: SHA-256 over message
 * digest hex strings appended in order.  Copying the struct copies the hash,
 * so a caller that combines partial results (a window's frames) can
 * extend a prefix's hash instead of hashing the prefix again; two chains
 * equal byte for byte (memcmp) have hashed the same digests.  No call fails
 * or allocates.
 */
typedef struct wj_digest_chain {
    union {
        uint64_t align;
        unsigned char bytes[128];
    } state;
} wj_digest_chain;

/* An empty chain (its digest: SHA-256 of the empty string). */
WJ_API void wj_digest_chain_init(wj_digest_chain *chain);

/* Appends n message digests, hex[0..64*n): 64 lowercase hex bytes each. */
WJ_API void wj_digest_chain_add(wj_digest_chain *chain, const char *hex,
                                size_t n);

/* The messages_digest of the digests appended so far, into hex (with a
 * NUL); chain stays as it was, ready for more. */
WJ_API void wj_digest_chain_hex(const wj_digest_chain *chain,
                                char hex[WJ_DIGEST_HEX_SIZE]);

/* ------------------------------------------------------ raw request bodies */

/*
 * text (UTF-8) as a JSON string literal with the wire rendering's escapes,
 * the combining-mark rule included: how with_top_level quotes a plain SQL
 * string.  WJ_ERR_ARGUMENT when text is not valid UTF-8.  The result is
 * released with wj_free().
 */
WJ_API wj_code wj_quote_text(const char *text, size_t len,
                             const wj_alloc *alloc, char **out, size_t *out_len,
                             wj_error *err);

/* wj_quote_bytes's flags. */
#define WJ_QUOTE_ASCII 0x1u   /* every character past U+007E as \uxxxx (a
                                 pair of them beyond U+FFFF) */
#define WJ_QUOTE_STRAYS 0x2u  /* a byte that is not part of a UTF-8
                                 character as \udcxx, the lone surrogate
                                 it stands for in a file name; else it is
                                 copied as it is */
#define WJ_QUOTE_ASCII_IF_STRAYS 0x4u /* both of the above when text holds
                                         such a byte, neither otherwise */

/*
 * Any bytes, text[0..len), as a JSON string literal the way the common JSON
 * encoders write a string (json.dumps): \" \\ \n \r \t \b \f, \u00xx
 * for the other control characters, every other character as it is unless
 * flags ask otherwise; for file names and messages in a report, which a
 * program in another language must be able to write byte for byte.  UTF-8
 * here is strict: no surrogates, no overlong forms.  The literal in *out
 * (release with wj_free), NUL-terminated, its length in *out_len.
 */
WJ_API wj_code wj_quote_bytes(const char *text, size_t len, unsigned flags,
                              const wj_alloc *alloc, char **out,
                              size_t *out_len, wj_error *err);

/*
 * body with the value of every top-level member whose decoded name equals
 * name under simple case folding (the C and S lines of CaseFolding.txt,
 * the way Go's encoding/json matches member names: "Model" is model)
 * replaced by value, which must be JSON text (duplicate names allowed;
 * its input errors are returned, with offsets into value and argument
 * "value"), every other byte
 * unchanged.  *out is NULL (and WJ_OK returned) when body is not an object
 * the scanner can follow or holds no such member.  Duplicate member names
 * are allowed here, at any depth.
 */
WJ_API wj_code wj_with_top_level(const char *body, size_t len, const char *name,
                                 size_t name_len, const char *value,
                                 size_t value_len, const wj_alloc *alloc,
                                 char **out, size_t *out_len, wj_error *err);

/*
 * For each element of the top-level `tools` array, the raw bytes found by
 * following path[0..n_path), as a wire-rendered JSON array of strings (null
 * for a tool without one).  *out is NULL (WJ_OK) when body has no top-level
 * `tools` array.
 */
WJ_API wj_code wj_tool_schemas(const char *body, size_t len,
                               const wj_name *path, size_t n_path,
                               const wj_alloc *alloc, char **out,
                               size_t *out_len, wj_error *err);

/*
 * body in the wire rendering with data member `messages`, its tools spelled
 * in function-calling order and each `parameters` spliced from texts (a JSON
 * array of strings and nulls, as wj_tool_schemas returns) when it still says
 * the same.  *out is NULL (WJ_OK) when body has no tools to spell or their
 * number differs from the number of texts.
 */
WJ_API wj_code wj_encode_with_schemas(const char *body, size_t len,
                                      const char *texts, size_t texts_len,
                                      const wj_alloc *alloc, char **out,
                                      size_t *out_len, wj_error *err);

/* -------------------------------------------------------------------- hex */

/* Writes bytes[0..n) as 2n lowercase hex characters at out (no NUL): the
 * spelling of every digest. */
WJ_API void wj_hex_encode(const unsigned char *bytes, size_t n, char *out);

/* The n bytes that the 2n hex characters at hex (either case) spell, in
 * bytes: 0, or -1 when one of them is not a hex digit (bytes unspecified). */
WJ_API int wj_hex_decode(const char *hex, size_t n, unsigned char *bytes);

/* ---------------------------------------------------- a value's parts */

/*
 * The full message of wj_error_format in a buffer of its own, allocated with
 * alloc (release with wj_free), never cut; its length in *len (may be NULL).
 * NULL when out of memory.
 */
WJ_API char *wj_error_message(const wj_error *err, const char *func,
                              const wj_alloc *alloc, size_t *len);

/*
 * The elements of the JSON array json (valid input, §3) as spans of json,
 * each from its first to its last byte, in *elements (release with wj_free;
 * NULL for an empty array) and their number in *n.  WJ_ERR_TYPE ("not a JSON
 * array") when json is valid but not an array.
 */
WJ_API wj_code wj_array_elements(const char *json, size_t len,
                                 const wj_alloc *alloc, wj_name **elements,
                                 size_t *n, wj_error *err);

/*
 * The bytes the JSON string json (valid input, §3) stands for, escapes
 * decoded, in *out (release with wj_free) and their number in *out_len; a
 * lone surrogate escape becomes its 3-byte generalized UTF-8 form, which no
 * parser takes as text.  WJ_ERR_TYPE ("not a JSON string") when json is
 * valid but not a string.  Thread-safe.
 */
WJ_API wj_code wj_string_value(const char *json, size_t len,
                               const wj_alloc *alloc, char **out,
                               size_t *out_len, wj_error *err);

/*
 * The digest of every prefix of the conversation json (an array of
 * messages): element k is wj_messages_digest of its first k+1 messages, in
 * one pass.  *hexes holds n * 64 hex characters and a NUL (release with
 * wj_free); errors are wj_messages_digest's.
 */
WJ_API wj_code wj_prefix_digests(const char *json, size_t len,
                                 const wj_alloc *alloc, char **hexes,
                                 size_t *n, wj_error *err);

/* ----------------------------------------------------- prompt prefixes */

/*
 * The prompt-cache audit's prefix digests (docs/contract.md §16).  A request
 * body (a JSON object) is cut into elements: e0 = {"model","tools",
 * "response_format"} (null when absent), e1 = {"system"} (system, else
 * instructions, else systemInstruction), then one per entry of messages
 * (else input when an array, else contents), every member cache_control or
 * prompt_cache_breakpoint left out at any depth.  Each element is rendered
 * in a mode; with di the SHA-256 of its rendering, p0 = SHA-256(hex d0) and
 * pk = SHA-256(hex p(k-1) || hex dk), hashed as lowercase hex characters.
 */
typedef enum wj_prompt_mode {
    WJ_PROMPT_SENT,      /* members in input order, numbers as sent */
    WJ_PROMPT_CANONICAL, /* canonical_json of each element */
    WJ_PROMPT_TOOLS_SET  /* canonical, e0's tools sorted by their bytes */
} wj_prompt_mode;
#define WJ_PROMPT_MODES 3
/* wj_prompt_prefix's modes: a bit (1u << mode) per mode, or all three. */
#define WJ_PROMPT_ALL 0x7u

/* The mode the word[0..len) names ("sent", "canonical", "tools_set"), or -1. */
WJ_API int wj_prompt_mode_find(const char *word, size_t len);

/* One request's prefixes, from wj_prompt_prefix (release with
 * wj_prompt_prefix_free). */
typedef struct wj_prompt_prefixes {
    size_t n; /* elements: 2 + the number of messages */
    /* Per mode asked for, n digests of 32 bytes each: p0 … p(n-1), the
     * bytes prompt_prefix_digests writes as 64 lowercase hex characters
     * (digests[WJ_PROMPT_CANONICAL] + 32 * k is pk); NULL for a mode not
     * asked for. */
    unsigned char *digests[WJ_PROMPT_MODES];
    /* The length in bytes of each element's sent rendering (n of them;
     * all 0 unless the sent mode is asked for). */
    size_t *sent_bytes;
} wj_prompt_prefixes;

/*
 * Parses the body json once and fills *out for the modes whose bits are in
 * modes (WJ_PROMPT_ALL for all).  Errors: the input's (§3); WJ_ERR_TYPE
 * when the body is not an object, or its messages (or contents) member is
 * not an array; WJ_ERR_RANGE for a number canonical modes cannot write.
 * On failure *out is empty.  Thread-safe.  For example, how many
 * leading elements two requests share in the canonical mode:
 *
 *   wj_prompt_prefixes a, b;
 *   wj_prompt_prefix(ja, la, 1u << WJ_PROMPT_CANONICAL, NULL, &a, &err);
 *   wj_prompt_prefix(jb, lb, 1u << WJ_PROMPT_CANONICAL, NULL, &b, &err);
 *   for (k = 0; k < a.n && k < b.n; k++)
 *       if (memcmp(a.digests[1] + 32 * k, b.digests[1] + 32 * k, 32))
 *           break;                      (k elements shared)
 *   wj_prompt_prefix_free(NULL, &a);
 *   wj_prompt_prefix_free(NULL, &b);
 */
WJ_API wj_code wj_prompt_prefix(const char *json, size_t len, unsigned modes,
                                const wj_alloc *alloc, wj_prompt_prefixes *out,
                                wj_error *err);

/* Releases what p holds (allocated with alloc); p is left empty. */
WJ_API void wj_prompt_prefix_free(const wj_alloc *alloc,
                                  wj_prompt_prefixes *p);

/* ------------------------------------------------- the table of functions */

/*
 * Every function the library offers by name, declared once: its name, its
 * parameters and their kinds, its result, and the core call behind it.  A
 * caller that holds values of its own (a database, a language) converts
 * them to the kinds below, calls wj_function_call or
 * wj_function_call_batch, and converts the result back, so every function
 * of the table reaches it through one call.
 */
typedef enum wj_arg_kind {
    WJ_ARG_DOCUMENT, /* JSON text, strict input (§3) */
    WJ_ARG_TEXT,     /* any text, not read as input (a tool call's arguments) */
    WJ_ARG_NAME,     /* one member name */
    WJ_ARG_VALUE,    /* JSON text of a value to splice: a caller makes it
                        from its values (a string becomes a JSON string) */
    WJ_ARG_TEXTS,    /* JSON text: an array of strings and nulls */
    WJ_ARG_NAMES,    /* the last parameter: any number of names (data
                        members, ignored members, a path); NULLs skipped */
    WJ_ARG_DIGESTS,  /* JSON text: an array of digests */
    WJ_ARG_WORD      /* the last parameter, optional: one word (a mode);
                        absent or NULL is the default */
} wj_arg_kind;

typedef enum wj_result_kind {
    WJ_RESULT_JSON,    /* JSON text, compact: no whitespace outside strings,
                          so never a line break */
    WJ_RESULT_BODY,    /* a raw request body: JSON text as the client spelled
                          it, repeated names and all */
    WJ_RESULT_TEXT,    /* text that need not be JSON */
    WJ_RESULT_DIGEST,  /* 64 lowercase hex characters */
    WJ_RESULT_INTEGER, /* an integer */
    WJ_RESULT_DIGESTS, /* a list of digests, as a JSON array of strings
                          laid out to be read without a parse: "[", then
                          for each digest a quote, its 64 characters and a
                          quote, with a comma between, then "]"; digest
                          k's characters at text + 2 + 67 * k */
    WJ_RESULT_TEXTS    /* a list of texts, as a JSON array of strings and
                          nulls */
} wj_result_kind;

/* wj_function.flags */
#define WJ_FN_MAY_BE_NULL 0x01u /* NULL from arguments that are not NULL */
#define WJ_FN_AGGREGATE   0x02u /* over rows (wj_conversation);
                                   wj_function_call fails */
#define WJ_FN_STABLE      0x04u /* depends on the library loaded, not only
                                   on its arguments (not deterministic) */
#define WJ_FN_DOUBLES     0x08u /* reads a document's numbers only as
                                   doubles (the canonical rendering and its
                                   digests): a caller may hand any spelling
                                   of the same doubles */
#define WJ_FN_VERDICT     0x10u /* the result is a verdict on the
                                   document's text (its error): a caller
                                   hands the text as it came */
#define WJ_FN_RAW_TEXT    0x20u /* reads its first argument's text byte for
                                   byte (a raw request body, a tool call's
                                   arguments): a caller hands the text as
                                   it came, not its value written again */
#define WJ_FN_PATH        0x40u /* its names are a path, followed from the
                                   top in order, rather than a set */

typedef struct wj_param {
    const char *name; /* as the docs call it: "X", "data_member", "texts" */
    wj_arg_kind kind;
    const char *long_name;  /* for calls by named arguments: "message" */
    const char *short_name; /* for keyword arguments: "doc", "ignored" */
} wj_param;

/* An argument: JSON text, text or a name; ptr NULL is SQL NULL. */
typedef struct wj_arg {
    const char *ptr;
    size_t len;
} wj_arg;

/* What a call gives.  is_null: the result is NULL.  JSON, TEXT and DIGESTS
 * results are text[0..len), NUL-terminated; a DIGEST is digest (text points
 * to it); an INTEGER is integer.  Release with wj_result_free. */
typedef struct wj_result {
    int is_null;
    char *text;
    size_t len;
    int64_t integer;
    char digest[WJ_DIGEST_HEX_SIZE];
} wj_result;

typedef struct wj_function wj_function;
struct wj_function {
    const char *name;       /* the one name every caller knows it by */
    const wj_param *params; /* n_params of them; WJ_ARG_NAMES and
                               WJ_ARG_WORD only last */
    size_t n_params;
    wj_result_kind result;
    unsigned flags;     /* WJ_FN_* */
    const char *summary; /* one line for the docs and --help */
    /* The core call, on arguments checked against params: args holds the
     * fixed ones, names the non-NULL WJ_ARG_NAMES ones (or the
     * WJ_ARG_WORD, when given and not NULL).  NULL for an
     * aggregate. */
    wj_code (*call)(const wj_arg *args, const wj_name *names, size_t n_names,
                    const wj_alloc *alloc, wj_result *res, wj_error *err);
    /* The help paragraph: what the result is (None for a NULL result), in
     * the words of the docstrings made of it. */
    const char *doc;
};

/* The table, in the order the docs list it, and its length in *n. */
WJ_API const wj_function *wj_functions(size_t *n);

/* The row called name (len bytes), or NULL. */
WJ_API const wj_function *wj_function_find(const char *name, size_t len);

/* How many arguments fn takes at least, and at most (SIZE_MAX: any number,
 * it ends in WJ_ARG_NAMES; one more than the least when it ends in
 * WJ_ARG_WORD). */
WJ_API size_t wj_function_min_args(const wj_function *fn);
WJ_API size_t wj_function_max_args(const wj_function *fn);

/*
 * Calls fn on args[0..n_args) (the kinds its params say).  A NULL VALUE is
 * JSON null, NULL names are skipped, and any other NULL argument gives a NULL
 * result.  The
 * result (release with wj_result_free) or the error of the core call;
 * WJ_ERR_ARGUMENT ("wrong number of arguments") for an arity fn does not
 * take, or for an aggregate.
 */
WJ_API wj_code wj_function_call(const wj_function *fn, const wj_arg *args,
                                size_t n_args, const wj_alloc *alloc,
                                wj_result *res, wj_error *err);

/* Releases what res holds (with the allocator of the call); the struct may
 * be reused. */
WJ_API void wj_result_free(const wj_alloc *alloc, wj_result *res);

/* ---------------------------------------------------------------- batches */

/*
 * A function of the table on many rows at once: a database's vector of
 * values, a block of records, an Arrow column.  Each row gets
 * exactly the result or error wj_function_call would give it; the results
 * go into one buffer of the caller's, and the digests of data_digest and
 * message_digest are hashed across the rows at once (several SHA-256
 * streams side by side where the processor has SHA extensions).
 *
 * The caller owns out and rows.  out is a growable buffer that the call
 * appends to (allocating with alloc): start with {NULL, 0, 0}, set len back
 * to 0 to reuse it for the next batch, release it with wj_batch_out_free.
 * Row r's result is out->ptr[rows[r].offset .. rows[r].offset +
 * rows[r].len): results follow each other in row order with nothing
 * between them (no NUL), so the offsets are an Arrow string column's and
 * out->ptr its data.  A NULL result or an error adds no bytes; an INTEGER
 * result is rows[r].integer.  Pointers into out->ptr are good until the
 * next call that appends to out.
 *
 * Thread-safety: calls on different out and rows run at once safely; one
 * out is one thread's at a time.
 */
typedef struct wj_batch_out {
    char *ptr;  /* the results' bytes */
    size_t len; /* bytes used */
    size_t cap; /* bytes allocated at ptr */
} wj_batch_out;

typedef struct wj_batch_row {
    wj_code code;   /* WJ_OK, or the row's error, described in error */
    wj_error error; /* as wj_function_call fills it */
    int is_null;    /* the result is NULL */
    size_t offset;  /* the result's bytes in out->ptr */
    size_t len;
    int64_t integer; /* an INTEGER result */
} wj_batch_row;

/*
 * Calls fn on n_rows rows of n_args arguments each: row r's are
 * args[r * n_args .. r * n_args + n_args), as wj_function_call takes them
 * (NULL arguments included).  Fills rows[0..n_rows).  Returns WJ_OK when
 * every row has its outcome, row errors included; WJ_ERR_ARGUMENT ("wrong
 * number of arguments") for an arity fn does not take or an aggregate,
 * before any row; WJ_ERR_NOMEM when out cannot grow to take a result, and
 * WJ_ERR_INTERRUPTED when alloc's hook stops a row: then rows and out past
 * the rows done are unspecified (out stays the caller's to free).  A row
 * that runs out of memory on its own (parsing, rendering) has WJ_ERR_NOMEM
 * as its error and the batch goes on.
 */
WJ_API wj_code wj_function_call_batch(const wj_function *fn,
                                      const wj_arg *args, size_t n_args,
                                      size_t n_rows, const wj_alloc *alloc,
                                      wj_batch_out *out, wj_batch_row *rows,
                                      wj_error *err);

/* True when wj_function_call_batch has a path of its own for fn (renders
 * into out, or hashes many rows at once: canonical_json, data_digest,
 * message_digest); a batch of another function is a loop of calls, which a
 * caller may as well make itself. */
WJ_API int wj_function_batched(const wj_function *fn);

/* Releases out's bytes (with the allocator of the calls); out is then
 * empty and may be reused. */
WJ_API void wj_batch_out_free(const wj_alloc *alloc, wj_batch_out *out);

/* ------------------------------------------------------------ JSON writer */

/*
 * JSON text from a host's values (a language's objects, a database's JSON),
 * to hand to any function above.  Commas and colons are the writer's business.
 * Names and strings are UTF-8 in which encoded surrogates (ED A0 80 .. ED BF
 * BF, "WTF-8") are allowed and written as lowercase \udxxx escapes, so a
 * string holding a lone surrogate round-trips; other invalid UTF-8 is
 * WJ_ERR_ARGUMENT.  Strings get the wire rendering's escapes.  A value or
 * name where the structure has no room for one (a value where an object
 * wants a member name, a second top-level value, an end that matches no
 * begin) is WJ_ERR_ARGUMENT too.  A failure is sticky: later calls return
 * the same code and do nothing, until wj_writer_reset.  One thread at a time
 * per writer.
 */
typedef struct wj_writer wj_writer;

/* A new, empty writer in *out (WJ_ERR_NOMEM: *out is NULL). */
WJ_API wj_code wj_writer_new(const wj_alloc *alloc, wj_writer **out);

/*
 * A new writer whose text is the canonical rendering (docs/contract.md §5)
 * of what it is given, so that no function has to parse it again: strings
 * get RFC 8785's escapes; every number is written as ECMAScript writes its
 * double (wj_writer_number's lexemes and wj_writer_int64's integers beyond
 * 2^53 too; WJ_ERR_RANGE when one rounds to infinity); the member names of
 * each object must come in canonical order, each once (wj_name_compare;
 * WJ_ERR_ARGUMENT otherwise); wj_writer_raw is WJ_ERR_ARGUMENT.  Its
 * wj_writer_digest is wj_data_digest of the value.
 */
WJ_API wj_code wj_writer_new_canonical(const wj_alloc *alloc, wj_writer **out);

/* A canonical writer that keeps no text, only its SHA-256 (wj_writer_digest),
 * in a fixed amount of memory however much is written; its wj_writer_text
 * is NULL with WJ_ERR_ARGUMENT. */
WJ_API wj_code wj_writer_new_digest(const wj_alloc *alloc, wj_writer **out);

/*
 * Compares two member names (UTF-8, or WTF-8 as the writer takes them) in
 * the canonical order, by their UTF-16 code units: < 0, 0 or > 0 as a sorts
 * before, with or after b.  Bytes that are not WTF-8 compare by bytes.
 */
WJ_API int wj_name_compare(const char *a, size_t a_len, const char *b,
                           size_t b_len);

/* Releases w and its text; NULL is a no-op. */
WJ_API void wj_writer_free(wj_writer *w);

/* Empties w again (and forgets a failure), keeping its memory. */
WJ_API void wj_writer_reset(wj_writer *w);

WJ_API wj_code wj_writer_begin_array(wj_writer *w);
WJ_API wj_code wj_writer_end_array(wj_writer *w);
WJ_API wj_code wj_writer_begin_object(wj_writer *w);
WJ_API wj_code wj_writer_end_object(wj_writer *w);

/* A member name; the next call writes its value. */
WJ_API wj_code wj_writer_name(wj_writer *w, const char *utf8, size_t len);

WJ_API wj_code wj_writer_string(wj_writer *w, const char *utf8, size_t len);

/*
 * The same from n fixed-width code units, as hosts keep their strings:
 * width 1 (Latin-1), 2 (UTF-16 code units) or 4 (code points).  A high and
 * a low surrogate in a row are the character they pair to; other
 * surrogates are written as \udxxx.  A unit above U+10FFFF, or another
 * width, is WJ_ERR_ARGUMENT.
 */
WJ_API wj_code wj_writer_string_units(wj_writer *w, const void *units, size_t n,
                                      int width);

/* A number lexeme written as given: checked when the text is parsed. */
WJ_API wj_code wj_writer_number(wj_writer *w, const char *lexeme, size_t len);

WJ_API wj_code wj_writer_int64(wj_writer *w, int64_t value);

/* value as wj_number_from_double writes it; WJ_ERR_ARGUMENT when it is not
 * finite. */
WJ_API wj_code wj_writer_double(wj_writer *w, double value);

/* true for a non-zero value, else false. */
WJ_API wj_code wj_writer_bool(wj_writer *w, int value);
WJ_API wj_code wj_writer_null(wj_writer *w);

/* A fragment of JSON text spliced as it is (checked when parsed). */
WJ_API wj_code wj_writer_raw(wj_writer *w, const char *json, size_t len);

/*
 * The text written so far, NUL-terminated, owned by the writer and valid
 * until the next call on w; its length in *len (which may be NULL).  NULL
 * after a failure, and *err (which may be NULL) tells which.
 */
WJ_API const char *wj_writer_text(const wj_writer *w, size_t *len,
                                  wj_error *err);

/* SHA-256 of wj_writer_text, as 64 hex characters and a NUL; the failure
 * when there is one, as wj_writer_text says it. */
WJ_API wj_code wj_writer_digest(const wj_writer *w,
                                char hex[WJ_DIGEST_HEX_SIZE], wj_error *err);

#ifdef __cplusplus
}
#endif

#endif /* WIREJSON_H */
