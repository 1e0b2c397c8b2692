/*
 * bridge.c - the debug/input callback pair behind the builtins.
 */
#include "bridge.h"

#include <stdio.h>

#include "builtins.h"

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
    if (wirejq_is_call(value)) {
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
    jv_dumpf(JV_ARRAY(jv_string("DEBUG:"), value), stderr,
             *bridge->dumpopts & ~JV_PRINT_PRETTY);
    fprintf(stderr, "\n");
}

void wirejq_bridge_install(wirejq_bridge *bridge, jq_state *jq,
                           const int *dumpopts)
{
    bridge->jq = jq;
    bridge->dumpopts = dumpopts;
    bridge->pending = jv_invalid();
    bridge->saved_cb = NULL;
    bridge->saved_data = NULL;
    jq_set_debug_cb(jq, on_debug, bridge);
}

void wirejq_bridge_clear(wirejq_bridge *bridge)
{
    jq_input_cb cb;
    void *data;
    jq_get_input_cb(bridge->jq, &cb, &data);
    if (cb == reply)
        jq_set_input_cb(bridge->jq, bridge->saved_cb, bridge->saved_data);
    jv_free(bridge->pending);
    bridge->pending = jv_invalid();
}
