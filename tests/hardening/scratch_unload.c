/* SPDX-License-Identifier: MIT */
/*
 * scratch_unload.c - a thread that called into a loaded libwirejson.so
 * (and so keeps its working arrays, freed by a thread-specific key's
 * destructor when it ends) ends after the library was unloaded, as SQLite
 * unloads an extension when its connection closes.  The library's own
 * destructor must have deleted that key: a destructor left behind would
 * be called at an address no longer mapped.  Passes when the thread ends
 * and the process exits cleanly.
 *
 *     scratch_unload PATH/libwirejson.so
 */
#include "wirejson.h" /* the types only: the library is never linked */

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static __typeof__(wj_canonical_json) *canonical;
static __typeof__(wj_free) *release;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stage; /* 1: the thread rendered; 2: the library is unloaded */
static int rendered_right;

static void *render_then_wait(void *arg)
{
    static const char json[] = "{\"b\": [2, 1], \"a\": {\"y\": 1, \"x\": 2}}";
    char *out = NULL;
    size_t len = 0;
    (void)arg;
    rendered_right = canonical(json, sizeof json - 1, NULL, &out, &len,
                               NULL) == WJ_OK &&
                     len == 29 &&
                     memcmp(out, "{\"a\":{\"x\":2,\"y\":1},\"b\":[2,1]}", 29) == 0;
    release(NULL, out);
    pthread_mutex_lock(&mu);
    stage = 1;
    pthread_cond_broadcast(&cv);
    while (stage < 2)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return NULL; /* the thread ends here, after the unload */
}

int main(int argc, char **argv)
{
    pthread_t thread;
    void *lib;

    if (argc != 2) {
        fprintf(stderr, "usage: scratch_unload PATH/libwirejson.so\n");
        return 2;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "scratch_unload: %s\n", dlerror());
        return 1;
    }
    *(void **)&canonical = dlsym(lib, "wj_canonical_json");
    *(void **)&release = dlsym(lib, "wj_free");
    if (!canonical || !release) {
        fprintf(stderr, "scratch_unload: wj_canonical_json or wj_free missing\n");
        return 1;
    }
    if (pthread_create(&thread, NULL, render_then_wait, NULL) != 0)
        return 1;
    pthread_mutex_lock(&mu);
    while (stage < 1)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);

    if (dlclose(lib) != 0 ||
        dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) != NULL) {
        fprintf(stderr, "scratch_unload: the library was not unloaded\n");
        return 1;
    }
    pthread_mutex_lock(&mu);
    stage = 2;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    pthread_join(thread, NULL);
    if (!rendered_right) {
        fprintf(stderr, "scratch_unload: wrong rendering before the unload\n");
        return 1;
    }
    return 0;
}
