/* SPDX-License-Identifier: MIT */
/*
 * test_dedup_engine.c - the kit's dedup engine, which wirejson dedup and
 * the Python job's Tally both run: splitting lines, keying a line (its
 * member, the key function, the row errors), the table of keys and its
 * spill.  Expected digests are SHA-256 of the canonical JSON written by
 * hand (hashlib.sha256 of those bytes); messages are docs/cli.md's.
 */
#include "check.h"
#include "wirejson.h"
#include "wirejson_kit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* sha256('{"a":[true,null],"b":1}'): the canonical JSON of the bodies */
static const char AB[] =
    "51705a2c9eb3e7e410a58f696a770c3ac3885a0cf43eb7fc88f5e47c11d4d30d";
/* sha256(''): messages_digest of no messages */
static const char EMPTY[] =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/* The key of line as k says: its hex, or the message, in got. */
static int key_of(const wk_dedup_keyer *k, const char *line, char *got,
                  size_t cap)
{
    wk_dedup_scratch s = {0};
    unsigned char key[32];
    char *msg = NULL;
    int st = wk_dedup_key_line(k, line, strlen(line), NULL, &s, key, &msg);
    if (st == 0) {
        wj_hex_encode(key, 32, got);
        got[64] = 0;
    } else if (st == 1) {
        snprintf(got, cap, "%s", msg);
        free(msg);
    }
    wk_dedup_scratch_free(&s);
    return st;
}

#define KEY_IS(k, line, want)                                                \
    do {                                                                     \
        char got_[512];                                                      \
        CHECK(key_of(k, line, got_, sizeof got_) == 0);                      \
        CHECK(strcmp(got_, want) == 0);                                      \
    } while (0)

#define ERROR_IS(k, line, want)                                              \
    do {                                                                     \
        char got_[512];                                                      \
        CHECK(key_of(k, line, got_, sizeof got_) == 1);                      \
        CHECK(strcmp(got_, want) == 0);                                      \
    } while (0)

static void test_next_line(void)
{
    const char *p = "a\r\n\n{}";
    size_t len = 9, next = 9;
    CHECK(wk_next_line(p, 6, 0, 0, &len, &next) == 1);
    CHECK(len == 2 && next == 3); /* the \r stays in the line */
    CHECK(wk_next_line(p, 6, 3, 0, &len, &next) == 1);
    CHECK(len == 0 && next == 4);
    CHECK(wk_next_line(p, 6, 4, 0, &len, &next) == 0); /* waits for a \n */
    CHECK(wk_next_line(p, 6, 4, 1, &len, &next) == 1);
    CHECK(len == 2 && next == 6);
    CHECK(wk_next_line(p, 6, 6, 1, &len, &next) == 0);
}

static void test_hex(void)
{
    unsigned char b[32] = {0x00, 0xff, 0x10, 0xa5};
    char hex[65];
    b[31] = 0x89;
    wj_hex_encode(b, 32, hex);
    hex[64] = 0;
    CHECK(strcmp(hex, "00ff10a500000000000000000000000000000000000000000000"
                      "000000000089") == 0);
}

static void test_keys(void)
{
    wk_dedup_keyer data = {0, NULL, NULL};
    wk_dedup_keyer body = {0, "body", "\"body\""};
    wk_dedup_keyer msgs = {1, NULL, NULL};
    wk_dedup_keyer msgs_body = {1, "body", "\"body\""};
    wk_dedup_keyer odd = {0, "na\"me", "\"na\\\"me\""};

    /* the line, or its member: an object, or a string holding its text */
    KEY_IS(&data, "{\"b\":1, \"a\":[true,null]}", AB);
    KEY_IS(&body, "{\"id\":7,\"body\":{\"b\":1,\"a\":[true,null]}}", AB);
    KEY_IS(&body, "{\"body\":\"{\\\"b\\\":1,\\\"a\\\":[true,null]}\"}", AB);
    KEY_IS(&odd, "{\"na\\\"me\":{\"a\":[true,null],\"b\":1}}", AB);
    /* messages_digest of the "messages" of the line, or of the body */
    KEY_IS(&msgs, "{\"model\":\"m\",\"messages\":[]}", EMPTY);
    KEY_IS(&msgs_body, "{\"body\":{\"messages\":[]}}", EMPTY);
    KEY_IS(&msgs_body, "{\"body\":\"{\\\"messages\\\":[]}\"}", EMPTY);

    /* the row errors name the function and what is wrong */
    ERROR_IS(&body, "{\"id\":7}",
             "data_digest: the line has no member \"body\" (or it is null)");
    ERROR_IS(&body, "{\"body\":null}",
             "data_digest: the line has no member \"body\" (or it is null)");
    ERROR_IS(&body, "[1,2]",
             "data_digest: the line has no member \"body\" (or it is null)");
    ERROR_IS(&odd, "{}",
             "data_digest: the line has no member \"na\\\"me\" (or it is "
             "null)");
    ERROR_IS(&msgs, "{\"model\":\"m\"}",
             "messages_digest: the line has no member \"messages\" (or it "
             "is null)");
    ERROR_IS(&msgs_body, "{\"body\":\"{\\\"x\\\":1}\"}",
             "messages_digest: the body has no member \"messages\" (or it "
             "is null)");
    {
        char got[512];
        CHECK(key_of(&data, "{\"a\":", got, sizeof got) == 1);
        CHECK(strncmp(got, "data_digest: ", 13) == 0);
        CHECK(key_of(&body, "{\"a\":", got, sizeof got) == 1);
        CHECK(strncmp(got, "data_digest: ", 13) == 0);
        CHECK(key_of(&msgs, "{\"messages\":{}}", got, sizeof got) == 1);
        CHECK(strncmp(got, "messages_digest: ", 17) == 0);
    }
}

/* Many lines at once: whole-line data_digest through the batch entry
 * point (1,000 lines: several batches' worth of hashing side by side), and
 * a member key line by line; each line's key or error as one line alone
 * gives it, the keys the hand-computed ones. */
static void test_key_lines(void)
{
    enum { N = 1000 };
    static const char valid[] = "{\"b\":1, \"a\":[true,null]}";
    static const char bad[] = "{\"a\":";
    wk_dedup_keyer data = {0, NULL, NULL};
    wk_dedup_keyer body = {0, "body", "\"body\""};
    wj_arg *lines = malloc(N * sizeof *lines);
    unsigned char *keys = malloc(32 * N);
    char **msgs = malloc(N * sizeof *msgs);
    wk_dedup_scratch s = {0};
    char hex[65], single[512];
    size_t i;

    for (i = 0; i < N; i++) {
        lines[i].ptr = i % 7 == 3 ? bad : valid;
        lines[i].len = strlen(lines[i].ptr);
    }
    CHECK(wk_dedup_key_lines(&data, lines, N, NULL, &s, keys, msgs) == 0);
    CHECK(key_of(&data, bad, single, sizeof single) == 1);
    for (i = 0; i < N; i++) {
        if (i % 7 == 3) {
            CHECK(msgs[i] && strcmp(msgs[i], single) == 0);
            free(msgs[i]);
            continue;
        }
        CHECK(msgs[i] == NULL);
        wj_hex_encode(keys + 32 * i, 32, hex);
        hex[64] = 0;
        CHECK(strcmp(hex, AB) == 0);
    }
    lines[0].ptr = "{\"id\":7}";
    lines[0].len = strlen(lines[0].ptr);
    lines[1].ptr = "{\"body\":{\"b\":1,\"a\":[true,null]}}";
    lines[1].len = strlen(lines[1].ptr);
    CHECK(wk_dedup_key_lines(&body, lines, 2, NULL, &s, keys, msgs) == 0);
    CHECK(msgs[0] && strcmp(msgs[0], "data_digest: the line has no member "
                                      "\"body\" (or it is null)") == 0);
    CHECK(msgs[1] == NULL);
    wj_hex_encode(keys + 32, 32, hex);
    CHECK(strncmp(hex, AB, 64) == 0);
    free(msgs[0]);
    wk_dedup_scratch_free(&s);
    free(lines);
    free(keys);
    free(msgs);
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    int k;
    for (k = 7; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

/* Three keys counted six times, spilled into 2 buckets by
 * (key[0] << 8 | key[1]) % 2: key A (00 01: bucket 1), B (00 02: bucket
 * 0), C (01 03: bucket 1). */
static void test_tally(void)
{
    wk_tally t;
    unsigned char a[32] = {0x00, 0x01}, b[32] = {0x00, 0x02},
                  c[32] = {0x01, 0x03};
    unsigned char out[3 * WK_SPILL_RECORD];
    size_t bounds[3];
    const wk_tally_entry *e;

    wk_tally_init(&t);
    CHECK(wk_tally_count(&t, a, 1, 0, 5, 0) == 1);
    CHECK(wk_tally_count(&t, b, 2, 6, 7, 0) == 1);
    CHECK(wk_tally_count(&t, a, 3, 99, 99, 1) == 0);
    CHECK(wk_tally_count(&t, c, 4, 14, 2, 1) == 1);
    CHECK(wk_tally_count(&t, a, 5, 99, 99, 1) == 0);
    CHECK(wk_tally_count(&t, c, 6, 99, 99, 1) == 0);
    CHECK(t.keys.n == 3);
    e = wk_tally_at(&t, 0); /* the first count of a key is kept */
    CHECK(memcmp(e->key, a, 32) == 0 && e->count == 3 && e->line == 1 &&
          e->off == 0 && e->len == 5 && e->source == 0);
    e = wk_tally_at(&t, 2);
    CHECK(memcmp(e->key, c, 32) == 0 && e->count == 2 && e->line == 4 &&
          e->off == 14 && e->len == 2 && e->source == 1);

    memset(out, 0xAA, sizeof out);
    wk_tally_spill(&t, 2, out, bounds);
    CHECK(bounds[0] == 0 && bounds[1] == 64 && bounds[2] == 192);
    /* bucket 0: B; bucket 1: A then C, in first-occurrence order */
    CHECK(memcmp(out, b, 32) == 0);
    CHECK(get64(out + 32) == 1 && get64(out + 40) == 2 &&
          get64(out + 48) == 6 && get64(out + 56) == 7);
    CHECK(memcmp(out + 64, a, 32) == 0);
    CHECK(get64(out + 96) == 3 && get64(out + 104) == 1 &&
          get64(out + 112) == 0 && get64(out + 120) == 5);
    CHECK(memcmp(out + 128, c, 32) == 0);
    CHECK(get64(out + 160) == 2 && get64(out + 168) == 4 &&
          get64(out + 176) == 14 && get64(out + 184) == 2);
    /* one bucket: the table's order */
    wk_tally_spill(&t, 1, out, bounds);
    CHECK(bounds[0] == 0 && bounds[1] == 192);
    CHECK(memcmp(out, a, 32) == 0 && memcmp(out + 64, b, 32) == 0 &&
          memcmp(out + 128, c, 32) == 0);
    wk_tally_free(&t);
}

int main(void)
{
    test_next_line();
    test_hex();
    test_keys();
    test_key_lines();
    test_tally();
    return check_report("test_dedup_engine");
}
