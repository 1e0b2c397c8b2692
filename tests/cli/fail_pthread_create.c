/* SPDX-License-Identifier: MIT */
/*
 * Preloaded into wirejson by test_threads.py: call number WJ_TEST_FAIL_CALL
 * (from 0) of pthread_create fails with EAGAIN, as when the system is out
 * of threads; the others create their thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
                         void *(*)(void *), void *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr,
                   void *(*start)(void *), void *arg)
{
    static int calls;
    const char *fail = getenv("WJ_TEST_FAIL_CALL");
    create_fn real;
    *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    if (fail && calls++ == atoi(fail))
        return EAGAIN;
    return real(t, attr, start, arg);
}
