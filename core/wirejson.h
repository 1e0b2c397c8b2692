/*
 * wirejson.h - deterministic JSON rendering and stable digests.
 *
 * Every function takes JSON text (UTF-8, RFC 8259, one value) as a pointer
 * and a length; the text need not be NUL-terminated and may hold NUL bytes
 * (which are then rejected as the grammar requires).  Functions return a
 * wj_code; on failure they fill the caller's wj_error (when not NULL) with
 * the code, a static reason and, for input errors, the 0-based byte offset.
 *
 * Results are allocated through the allocator given (NULL: malloc) and are
 * released with wj_free() and that same allocator.  No function keeps state
 * between calls (the one process-wide object is libcrypto's SHA-256, fetched
 * once and never changed): all are safe to call from any number of threads
 * at once.
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
 * package, wj_version(), wirejson_version() and wirejq --version all follow.
 */
#define WJ_VERSION_MAJOR 0
#define WJ_VERSION_MINOR 2
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
    WJ_ERR_TOOBIG    /* input or result larger than the library handles */
} wj_code;

/* Containers may nest this deep; one more is WJ_ERR_DEPTH. */
#define WJ_MAX_DEPTH 1000

/* Inputs must be shorter than this many bytes (offsets are 32-bit). */
#define WJ_MAX_INPUT ((size_t)0xFFFFFFF0u)

typedef struct wj_error {
    wj_code code;    /* WJ_OK when nothing went wrong */
    size_t offset;   /* byte offset of the fault, for input errors */
    const char *msg; /* static reason, e.g. "expected ':' after member name" */
} wj_error;

/* True for the codes that describe the input text and carry an offset. */
WJ_API int wj_error_is_input(wj_code code);

/*
 * Writes the full message for an error raised by the function `func` into
 * buf (always NUL-terminated when size > 0) and returns the length it needed,
 * as snprintf does.  Input errors read
 *   "wire_json: malformed JSON at byte 17: expected ':' after member name"
 *   "canonical_json: number out of range at byte 5: rounds to infinity"
 * and the others "message_digest: a message must be a JSON object".
 * With func NULL the "name: " prefix is left out.
 */
WJ_API size_t wj_error_format(const wj_error *err, const char *func, char *buf,
                              size_t size);

/* -------------------------------------------------------------- allocator */

/*
 * An optional allocator.  Every function that allocates takes one; NULL means
 * the C library's malloc/realloc/free.  A failing allocation makes the call
 * return WJ_ERR_NOMEM after releasing everything it had allocated.
 */
typedef struct wj_alloc {
    void *(*malloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
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
 * Checks that json is valid input (SPEC §3): grammar, UTF-8, no duplicate
 * member names, nesting at most WJ_MAX_DEPTH.  WJ_OK when it is.
 */
WJ_API wj_code wj_validate(const char *json, size_t len, const wj_alloc *alloc,
                           wj_error *err);

/* ------------------------------------------------------------- renderings */

/*
 * The wire rendering (SPEC §4): compact, members sorted by code point, a
 * JSON Schema's `properties` in the order of its `required`.  The values of
 * the top-level members named in data_members[0..n_data_members) are data
 * (sorted, never read as schema).  On success *out holds a NUL-terminated
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

/* The canonical rendering (SPEC §5): RFC 8785, the JSON Canonicalization
 * Scheme.  Numbers are read as IEEE-754 doubles (WJ_ERR_RANGE when one rounds
 * to infinity). */
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
 * of the array json, in order.  WJ_ERR_TYPE when json is not an array or an
 * element is not an object.
 */
WJ_API wj_code wj_messages_digest(const char *json, size_t len,
                                  const wj_alloc *alloc,
                                  char hex[WJ_DIGEST_HEX_SIZE], wj_error *err);

/*
 * A running SHA-256, for incremental digests such as an aggregate's
 * messages_digest: feed the 64-character message digests one at a time and
 * read the digest of what was fed so far at any point.  Uses libcrypto's
 * SHA-256, whose memory does not come from the wj_alloc hook.
 */
typedef struct wj_sha256 wj_sha256;

/* A new, empty hash in *out (release with wj_sha256_free), or WJ_ERR_NOMEM. */
WJ_API wj_code wj_sha256_new(wj_sha256 **out);
/* Empties h again, as if just made. */
WJ_API wj_code wj_sha256_reset(wj_sha256 *h);
WJ_API wj_code wj_sha256_update(wj_sha256 *h, const void *data, size_t len);
/* The hex digest of what was fed so far; h is left as it was, ready for more.
 */
WJ_API wj_code wj_sha256_peek_hex(const wj_sha256 *h,
                                  char hex[WJ_DIGEST_HEX_SIZE]);
/* Releases h; NULL is a no-op. */
WJ_API void wj_sha256_free(wj_sha256 *h);

/* SHA-256 of len bytes, as hex.  WJ_ERR_NOMEM is the only failure. */
WJ_API wj_code wj_sha256_hex(const void *data, size_t len,
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

/*
 * body with the value of every top-level member whose decoded name equals
 * name under simple case folding (the C and S lines of CaseFolding.txt,
 * the way Go's encoding/json matches member names: "Model" is model)
 * replaced by value, which must be JSON text (duplicate names allowed;
 * its input errors are returned, with offsets into value), every other byte
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

#ifdef __cplusplus
}
#endif

#endif /* WIREJSON_H */
