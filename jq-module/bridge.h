/* SPDX-License-Identifier: MIT */
/*
 * bridge.h - how jq programs reach the C builtins through libjq 1.6's
 * public callbacks, and why data never can.
 *
 * A builtin of wirejson.jq passes [$TOKEN, name, input, arguments...] to
 * `debug`.  $TOKEN is a variable whose name holds 128 random bits drawn
 * when wirejq starts; wirejq binds it, as a named argument of every
 * compile, to one jv string that it made itself.  The debug callback takes
 * a value as a call only when its first element is that very string
 * (jv_identical: the same object, not an equal one).  The token is
 * reachable only from the arrays the definitions build and hand straight
 * to `debug`; data is parsed into new objects, so no value that data
 * spells, and nothing a program computes from data, holds it.  Every
 * other value prints as jq prints it.
 *
 * For a call, the bridge runs the builtin (builtins.c), keeps the result,
 * and points the input callback at itself for exactly one read: the
 * `input` that follows `debug` in the same definition, with no jq
 * instruction between them, takes the result (an error comes as an
 * invalid value with a message, which jq raises and `try` catches) and
 * puts the real input callback back.
 */
#ifndef WIREJQ_BRIDGE_H
#define WIREJQ_BRIDGE_H

#include <jq.h>

typedef struct wirejq_bridge {
    jq_state *jq;
    const int
        *dumpopts; /* flags for printing plain debug values; NULL: drop them */
    jv pending;    /* the result the next `input` returns */
    jq_input_cb saved_cb; /* the input callback that result stands in for */
    void *saved_data;
} wirejq_bridge;

/*
 * Draws the token (getrandom, else /dev/urandom) on the first call; exits
 * with status 2 when neither gives random bytes.  Later calls do nothing.
 */
void wirejq_token_init(void);

/* The token variable's name, "__wirejson_" and 32 hex digits (no '$'). */
const char *wirejq_token_name(void);

/* The token itself: a new reference to the one object. */
jv wirejq_token(void);

/* Releases the token (at exit, so leak checkers find nothing left). */
void wirejq_token_free(void);

/*
 * Installs the bridge as jq's debug callback.  dumpopts (may be NULL) is
 * read at each plain `debug`, which prints ["DEBUG:",value] to stderr as jq
 * does.  bridge must outlive the runs; wirejq_bridge_clear releases it.
 */
void wirejq_bridge_install(wirejq_bridge *bridge, jq_state *jq,
                           const int *dumpopts);

/*
 * Puts the real input callback back if a result is still waiting (which a
 * builtin's definition never leaves) and drops that result.  Called after
 * each run, so libjq's input helpers always find their own callback.
 */
void wirejq_bridge_settle(wirejq_bridge *bridge);

/* wirejq_bridge_settle, then the bridge holds nothing. */
void wirejq_bridge_clear(wirejq_bridge *bridge);

#endif /* WIREJQ_BRIDGE_H */
