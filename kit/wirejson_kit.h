/* SPDX-License-Identifier: MIT */
/*
 * wirejson_kit.h - the kit: what the front ends share beyond the core.
 *
 * The core (wirejson.h) reads, renders and digests JSON and names no host.
 * The kit sits between it and the front ends (the SQLite, PostgreSQL and
 * DuckDB extensions, the Python module, wirejq, the command line): where
 * each function of the core's table exists, growable buffers with a sticky
 * error, arenas, a table keyed by digests, and the dedup engine that the
 * command line and the Python job both run.  It holds no JSON logic: what
 * reads JSON is the core's.
 *
 * The kit includes wirejson.h and nothing of a front end; a front end
 * includes wirejson.h, this header and its own, never the core's internal
 * header.  The kit is a static library (libwirejson_kit.a) linked into each
 * front end; libwirejson.so exports the core alone.
 */
#ifndef WIREJSON_KIT_H
#define WIREJSON_KIT_H

#include <stddef.h>
#include <stdint.h>

#include "wirejson.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ the hosts */

/* The hosts a function of the table can exist in: a bit each. */
#define WK_HOST_SQLITE   0x01u
#define WK_HOST_POSTGRES 0x02u
#define WK_HOST_DUCKDB   0x04u
#define WK_HOST_PYTHON   0x08u
#define WK_HOST_JQ       0x10u
#define WK_HOST_CLI      0x20u
#define WK_HOST_SQL (WK_HOST_SQLITE | WK_HOST_POSTGRES | WK_HOST_DUCKDB)
#define WK_HOST_ALL 0x3fu

/*
 * The hosts fn exists in.  A function exists everywhere unless the kit's
 * list (hosts.c) says otherwise; an aggregate exists in the SQL hosts only,
 * since the others have no rows to run it over.
 */
unsigned wk_function_hosts(const wj_function *fn);

/* ------------------------------------------------------ the host calls */

/*
 * The most fixed parameters (those before a row's names or word) a row of
 * the table has; test_kit checks every row.  A host sizes its per-call
 * arrays of converted arguments by it.
 */
#define WK_MAX_FIXED 3

/* Room for one call's arguments: on the stack up to WK_ARGS_ON_STACK,
 * else from the heap.  Declare one uninitialised, ask wk_args_room, and
 * release with wk_args_free. */
#define WK_ARGS_ON_STACK 16
typedef struct wk_args {
    wj_arg *v;
    wj_arg stack[WK_ARGS_ON_STACK];
} wk_args;

/* a->v with room for n arguments (NULL when out of memory). */
wj_arg *wk_args_room(wk_args *a, size_t n);
void wk_args_free(wk_args *a);

/* What a host does with a call before converting its arguments. */
typedef enum wk_call_plan {
    WK_CALL_RUN,  /* convert the arguments and call */
    WK_CALL_NULL, /* the answer is NULL: a fixed argument that gives NULL
                     is NULL, and nothing else is converted or checked */
    WK_CALL_ARITY /* fn takes no such number of arguments (err filled:
                     "wrong number of arguments") */
} wk_call_plan;

/*
 * The one arity and NULL rule of every host, applied to a call of fn with
 * n_args arguments: is_null(host, k) tells whether the host's argument k is
 * NULL (is_null may be NULL for a host without NULL).  A NULL VALUE is
 * JSON null and NULL names are skipped, as wj_function_call has it.
 */
wk_call_plan wk_call_check(const wj_function *fn, size_t n_args,
                           int (*is_null)(const void *host, size_t k),
                           const void *host, wj_error *err);

/*
 * The digests of a WJ_RESULT_DIGESTS result text[0..len) (a call's or a
 * batch row's), read without a parse (the layout wirejson.h gives): their
 * number in *n, digest k's 64 characters at the pointer returned +
 * k * WK_DIGEST_STRIDE.
 */
#define WK_DIGEST_STRIDE 67
const char *wk_digests(const char *text, size_t len, size_t *n);

/* A message printf'd into memory of its own (free it); NULL when out of
 * memory.  Every front end's row errors are made with it. */
char *wk_message(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ------------------------------------------------------------- buffers */

/*
 * A growable byte buffer.  Appends after a failure do nothing and leave
 * failed set, so a writer appends freely and checks once (wk_buf_failed).
 * Capacities of 2 MiB and more are mapped on their own with huge pages
 * (memory.c).  lent: ptr is cut from memory someone else frees; the buffer
 * moves to memory of its own when it must grow.  A zeroed wk_buf is empty.
 */
typedef struct wk_buf {
    char *ptr;
    size_t len, cap;
    int lent;
    int failed; /* an append or reserve ran out of memory */
} wk_buf;

/* Room for more bytes past len: 0, or -1 when out of memory (failed set). */
int wk_buf_reserve(wk_buf *b, size_t more);
/* The same, never growing the capacity past limit (>= len + more): a
 * record read up to the input limit is not given twice its room. */
int wk_buf_reserve_upto(wk_buf *b, size_t more, size_t limit);
/* Appends p[0..n): 0, or -1 (failed set; the buffer is unchanged). */
int wk_buf_append(wk_buf *b, const void *p, size_t n);
/* True once an append or reserve has failed. */
int wk_buf_failed(const wk_buf *b);
void wk_buf_free(wk_buf *b);

/*
 * An array of elements of size bytes at v (capacity *cap elements) with
 * room for need of them: v itself when it has, else v grown by doubling
 * (from 1024) with *cap updated; never NULL but when out of memory (v is
 * then kept).
 * Release with free.
 */
void *wk_array_grow(void *v, size_t *cap, size_t need, size_t size);

/*
 * Large buffers: p (of capacity old_cap; NULL and 0 for a new one) grown to
 * a capacity of at least *cap, the capacity it got in *cap; NULL when out of
 * memory (p is kept).  Release with wk_big_free, told the capacity.
 */
void *wk_big_realloc(void *p, size_t old_cap, size_t *cap);
void wk_big_free(void *p, size_t cap);
/* The same for a buffer that may be lent (*lent): a lent one's first len
 * bytes move to a buffer of its own, and *lent becomes 0. */
void *wk_big_grow(void *p, size_t len, size_t old_cap, size_t *cap,
                  int *lent);

/* ------------------------------------------------------------- arenas */

/*
 * A thread's memory for the core's calls on one record at a time
 * (arena.c): blocks from wk_arena_alloc's hooks live until wk_arena_reset.
 * A zeroed wk_arena is empty and ready; wk_arena_release gives its memory
 * back.
 */
typedef struct wk_arena {
    struct wk_arena_chunk *now;   /* the chunk blocks are cut from */
    size_t used;                  /* bytes of it cut so far */
    struct wk_arena_header *last; /* the last block cut, or NULL */
} wk_arena;

void wk_arena_release(wk_arena *a);
void wk_arena_reset(wk_arena *a);
wj_alloc wk_arena_alloc(wk_arena *a);

/* ------------------------------------------------------ a digest table */

/*
 * Entries keyed by a 32-byte digest, in the order they were first put:
 * dedup's distinct keys, cache-audit's prefix digests.  An entry is the
 * caller's struct whose first member is `unsigned char key[32]`; entries
 * live in chunks that never move, so a pointer to one stays good until
 * wk_digest_table_free.
 */
typedef struct wk_digest_table {
    unsigned char **chunks;
    size_t n_chunks, chunks_cap;
    size_t entry_size;
    uint64_t n;      /* entries, numbered from 0 in the order put */
    uint32_t *slots; /* entry number + 1; 0: empty */
    size_t mask;
} wk_digest_table;

/* An empty table of entries of entry_size bytes (at least 32). */
void wk_digest_table_init(wk_digest_table *t, size_t entry_size);

/* Entry i (i < t->n). */
void *wk_digest_table_at(const wk_digest_table *t, uint64_t i);

/* The entry of key, or NULL. */
void *wk_digest_table_find(const wk_digest_table *t, const unsigned char *key);

/* The entry of key, a new one (its key set, the rest zero; *fresh = 1)
 * when there is none; NULL when out of memory or past 2^32 - 2 entries. */
void *wk_digest_table_put(wk_digest_table *t, const unsigned char *key,
                          int *fresh);

void wk_digest_table_free(wk_digest_table *t);

/* ----------------------------------------------- the dedup job's DIR */

/*
 * DIR, the dedup job's output folder, replaced as a whole in one step
 * (docs/cli.md, "dedup"): built in a locked staging folder
 * BASE.wirejson-tmp-XXXXXX beside DIR's target and swapped with it by one
 * renameat2(RENAME_EXCHANGE) (a rename when there is no DIR).  A failing
 * call returns -1 with errno set and d->error the message (without the
 * program's name), as the command line and the Python job print it.
 */
typedef struct {
    char *out;      /* DIR as given, for messages */
    char *target;   /* DIR's folder, absolute, a symlink resolved */
    char *parent;   /* the folder target is in, where the stage is made */
    char *base;     /* target's last name */
    int exists;     /* whether there is a DIR to swap with */
    unsigned mode;  /* the new DIR's: the old one's, or the umask's */
    char *stage;    /* the locked staging folder, or NULL */
    int lock_fd;    /* open on stage, holding its flock; or -1 */
    char *error;    /* the last failure's message, or NULL */
} wk_dedup_dir;

/* Where DIR's target is, refusing a DIR that holds anything but unique/,
 * counts/ and summary.json.  Reads the umask: call it before the host
 * starts threads.  Call wk_dedup_dir_free after, whatever it returns. */
int wk_dedup_dir_open(wk_dedup_dir *d, const char *out);

/* Removes the staging folders of dead runs beside DIR (those whose lock can
 * be taken), makes DIR's parent when there is no DIR, and the locked
 * staging folder (d->stage); with a DIR, checks that its file system can
 * swap two folders in one step.  On failure nothing is left behind. */
int wk_dedup_dir_stage(wk_dedup_dir *d);

/* Gives the finished staging folder DIR's mode and puts it in DIR's place in
 * one step; d->stage then names the old DIR, for wk_dedup_dir_remove_stage. */
int wk_dedup_dir_install(wk_dedup_dir *d);

/* Removes the staging folder (after an install: the old DIR), renamed out
 * of the way first, and drops its lock; nothing when there is none. */
void wk_dedup_dir_remove_stage(wk_dedup_dir *d);

/* wk_dedup_dir_remove_stage, then frees what d holds. */
void wk_dedup_dir_free(wk_dedup_dir *d);

/* ------------------------------------------------------ the dedup job */

/*
 * The dedup job's reading of JSON Lines (docs/cli.md, "dedup"): a line
 * (without its \n) is blank when it holds nothing but spaces, tabs and \r;
 * such a line is skipped, never an error.
 */
int wk_line_is_blank(const char *line, size_t len);

/*
 * The next line of p[at..size): split at \n only (a \r before it stays in
 * the line).  The bytes after the last \n are a line only when final.  1
 * with the line's length without its \n in *len and the offset after it in
 * *next; 0 when there is no line to take.
 */
int wk_next_line(const char *p, size_t size, size_t at, int final,
                 size_t *len, size_t *next);

/*
 * How the dedup job keys a line (dedup_key.c): the body is the line, or
 * with member its member of that name (a string member: the JSON text it
 * holds); the key is data_digest of the body, or with messages the
 * messages_digest of the body's "messages".  member_quoted is the name as
 * the messages show it: the front end's JSON string of it, as Python's
 * json.dumps(name, ensure_ascii=False) spells it.
 */
typedef struct wk_dedup_keyer {
    int messages;
    const char *member;        /* NULL: the body is the line */
    const char *member_quoted; /* with member */
} wk_dedup_keyer;

/* The keyer.messages of the key the job is given by name (--key): 0 for
 * data_digest, 1 for messages_digest, -1 for any other name. */
int wk_dedup_key_find(const char *name);

/* Buffers a thread reuses from line to line; a zeroed one is empty. */
typedef struct wk_dedup_scratch {
    wk_buf wrap, a, b;
    wj_batch_row *rows; /* wk_dedup_key_lines' batch */
    size_t rows_cap;
} wk_dedup_scratch;

void wk_dedup_scratch_free(wk_dedup_scratch *s);

/*
 * The key of line[0..len) (not blank, no \n): 0 with the 32 bytes in key;
 * 1 when the line does not key, with *msg (malloc'd) the row's error as
 * the job reports it, naming the function and what is wrong; -1 when out
 * of memory.  mem serves the core's digest (an arena, say).
 */
int wk_dedup_key_line(const wk_dedup_keyer *k, const char *line, size_t len,
                      const wj_alloc *mem, wk_dedup_scratch *s,
                      unsigned char key[32], char **msg);

/*
 * The keys of n lines (none blank, no \n), each as wk_dedup_key_line gives
 * it: line i's 32 bytes at keys + 32 * i and msgs[i] NULL, or msgs[i] its
 * row's error (malloc'd).  When the key is data_digest of the whole line
 * the lines go through the core's batch entry point, their digests hashed
 * side by side; other keys go line by line.  0, or -1 when out of memory
 * (the msgs given so far released).  mem serves every line: with an arena,
 * reset it between calls, not lines.
 */
int wk_dedup_key_lines(const wk_dedup_keyer *k, const wj_arg *lines,
                       size_t n, const wj_alloc *mem, wk_dedup_scratch *s,
                       unsigned char *keys, char **msgs);

/*
 * The exact bytes of member name of the JSON text[0..len) (valid JSON, as
 * wj_validate says) into out: 1 when found; 0 when text is not an object or
 * has no such member, or it is null; -1 with *err set (nested too deep to
 * reach the member, out of memory).  wrap is scratch.
 */
int wk_member_text(const char *text, size_t len, const char *name,
                   wk_buf *wrap, wk_buf *out, wj_error *err);

/* The bytes of the JSON string s[0..n) (quotes included, valid JSON) into
 * out, by the core's wj_string_value: 0, or -1. */
int wk_string_bytes(wk_buf *out, const char *s, size_t n);

/*
 * The table of keys (dedup_tally.c): an entry a distinct key, in the order
 * first counted, with how many times it was counted, its first line, where
 * that line's bytes are (off, len) and which input it came from (source).
 */
typedef struct wk_tally_entry {
    unsigned char key[32];
    uint64_t count, line, off, len;
    uint32_t source;
} wk_tally_entry;

typedef struct wk_tally {
    wk_digest_table keys; /* of wk_tally_entry; keys.n: distinct keys */
} wk_tally;

void wk_tally_init(wk_tally *t);

/* Counts key once more; a new key gets an entry (count 1, line, off, len,
 * source).  1 for a new key, 0 for a known one, -1 when out of memory or
 * past 2^32 - 2 keys (the tally unchanged). */
int wk_tally_count(wk_tally *t, const unsigned char key[32], uint64_t line,
                   uint64_t off, uint64_t len, uint32_t source);

/* Entry i (i < t->keys.n), in first-occurrence order. */
wk_tally_entry *wk_tally_at(const wk_tally *t, uint64_t i);

/* A spill record: key[32], then count, line, off and len as little-endian
 * uint64 (python/wirejson/dedup.py's SPILL, "<32sQQQQ"). */
#define WK_SPILL_RECORD 64

/*
 * The spill into out (WK_SPILL_RECORD * t->keys.n bytes): the records
 * grouped by bucket (key[0] << 8 | key[1]) % nbuckets (nbuckets >= 1),
 * each bucket in first-occurrence order; bounds (nbuckets + 1 of them) the
 * byte offsets where the buckets start, the last one the end.
 */
void wk_tally_spill(const wk_tally *t, size_t nbuckets, unsigned char *out,
                    size_t *bounds);

void wk_tally_free(wk_tally *t);

#ifdef __cplusplus
}
#endif

#endif /* WIREJSON_KIT_H */
