/*
 * bridge.h - how jq programs reach the C builtins through libjq 1.6's
 * public callbacks.
 *
 * A builtin of wirejson.jq passes a tagged call to `debug`.  The bridge's
 * debug callback runs it (builtins.c), keeps the result, and points the
 * input callback at itself for exactly one read; the builtin's `input`
 * then takes the result (an error comes as an invalid value with a
 * message, which jq raises and `try` catches) and the real input callback
 * is back in place.  Every other `debug` value is printed as jq prints it,
 * and `input`/`inputs`/`input_filename` see the real inputs.
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
 * Installs the bridge as jq's debug callback.  dumpopts (may be NULL) is
 * read at each plain `debug`, which prints ["DEBUG:",value] to stderr as jq
 * does.  bridge must outlive the runs; wirejq_bridge_clear releases it.
 */
void wirejq_bridge_install(wirejq_bridge *bridge, jq_state *jq,
                           const int *dumpopts);

void wirejq_bridge_clear(wirejq_bridge *bridge);

#endif /* WIREJQ_BRIDGE_H */
