/* SPDX-License-Identifier: MIT */
/*
 * bridge.c - the call token and the debug/input callback pair behind the
 * builtins (see bridge.h for why a call cannot be forged).
 */
#include "bridge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

#include "builtins.h"
#include "wirejson.h"

#define TOKEN_BYTES 16

static char token_name[] = "__wirejson_"
                           "00000000000000000000000000000000";
static jv token; /* valid once drawn */
static int token_drawn;

/* Fills buf with random bytes; 0 on success. */
static int random_bytes(unsigned char *buf, size_t len)
{
    size_t got = 0;
    int fd;
    while (got < len) {
        ssize_t n = getrandom(buf + got, len - got, 0);
        if (n > 0)
            got += (size_t)n;
        else if (n < 0 && errno != EINTR)
            break;
    }
    if (got == len)
        return 0;
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    got = 0;
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(fd);
    return got == len ? 0 : -1;
}

void wirejq_token_init(void)
{
    unsigned char bits[TOKEN_BYTES];
    char *hex = token_name + sizeof("__wirejson_") - 1;
    if (token_drawn)
        return;
    if (random_bytes(bits, sizeof(bits)) != 0) {
        fprintf(stderr, "wirejq: error: no random bytes for the builtins' "
                        "call token\n");
        exit(2);
    }
    wj_hex_encode(bits, TOKEN_BYTES, hex); /* the NUL after is the name's */
    /* The object is what counts (jv_identical); its text is only a name. */
    token = jv_string(token_name);
    token_drawn = 1;
}

const char *wirejq_token_name(void)
{
    wirejq_token_init();
    return token_name;
}

jv wirejq_token(void)
{
    wirejq_token_init();
    return jv_copy(token);
}

void wirejq_token_free(void)
{
    if (!token_drawn)
        return;
    jv_free(token);
    token = jv_invalid();
    token_drawn = 0;
}

/* Whether v (borrowed) is a call: an array whose first element is the
 * token object itself. */
static int is_call(jv v)
{
    if (!token_drawn || jv_get_kind(v) != JV_KIND_ARRAY ||
        jv_array_length(jv_copy(v)) < 3)
        return 0;
    return jv_identical(jv_array_get(jv_copy(v), 0), jv_copy(token));
}

/* The builtin's `input`: hands over the result, restores the real source. */
static jv reply(jq_state *jq, void *data)
{
    wirejq_bridge *bridge = data;
    jv result = bridge->pending;
    bridge->pending = jv_invalid();
    jq_set_input_cb(jq, bridge->saved_cb, bridge->saved_data);
    return result;
}

static void on_debug(void *data, jv value)
{
    wirejq_bridge *bridge = data;
    if (is_call(value)) {
        jq_input_cb cb;
        void *cb_data;
        jv_free(bridge->pending);
        bridge->pending = wirejq_run_call(value);
        jq_get_input_cb(bridge->jq, &cb, &cb_data);
        if (cb != reply) { /* else an unread result was just replaced */
            bridge->saved_cb = cb;
            bridge->saved_data = cb_data;
            jq_set_input_cb(bridge->jq, reply, bridge);
        }
        return;
    }
    if (bridge->dumpopts == NULL) {
        jv_free(value);
        return;
    }
    /* as jq 1.6's own debug callback prints it */
    jv_dumpf(JV_ARRAY(jv_string("DEBUG:"), value), stderr,
             *bridge->dumpopts & ~JV_PRINT_PRETTY);
    fprintf(stderr, "\n");
}

void wirejq_bridge_install(wirejq_bridge *bridge, jq_state *jq,
                           const int *dumpopts)
{
    wirejq_token_init();
    bridge->jq = jq;
    bridge->dumpopts = dumpopts;
    bridge->pending = jv_invalid();
    bridge->saved_cb = NULL;
    bridge->saved_data = NULL;
    jq_set_debug_cb(jq, on_debug, bridge);
}

void wirejq_bridge_settle(wirejq_bridge *bridge)
{
    jq_input_cb cb;
    void *data;
    jq_get_input_cb(bridge->jq, &cb, &data);
    if (cb == reply)
        jq_set_input_cb(bridge->jq, bridge->saved_cb, bridge->saved_data);
    jv_free(bridge->pending);
    bridge->pending = jv_invalid();
}

void wirejq_bridge_clear(wirejq_bridge *bridge)
{
    wirejq_bridge_settle(bridge);
    bridge->saved_cb = NULL;
    bridge->saved_data = NULL;
}
