/* SPDX-License-Identifier: MIT */
/*
 * py_memory.c - wirejson._wirejson.keep_freed_memory, which lets the dedup
 * job's tasks (python/wirejson/dedup.py) reuse the memory they free.
 *
 * Dask's nanny starts each worker with MALLOC_TRIM_THRESHOLD_=65536 so that
 * freed memory goes back to the system.  Setting that variable also turns
 * off glibc's adaptive thresholds: every block of 128 KiB or more (a read
 * of a spill, a joined output buffer) is then a fresh mmap, unmapped again
 * when freed, and each fresh 4 KiB page costs a page fault, microseconds
 * on a virtual machine.  Measured on 100 MB of 1 KB lines, that made the
 * job's tasks two to four times slower in a worker than the same calls in
 * a process without the variable.
 *
 * While at least one task holds it, freed memory stays in the process (no
 * trim, no mmap below 32 MiB); when the last one lets go, the memory is
 * trimmed and the thresholds the environment set are put back, so between
 * tasks the worker holds what the nanny meant it to.  Where neither
 * variable is set, glibc adapts by itself and nothing is changed.
 */
#include "wjpy.h"

#include <limits.h>
#include <stdlib.h>

#ifdef __GLIBC__
#include <malloc.h>

#define TASK_MMAP_THRESHOLD (32 << 20) /* glibc's largest */
#define TASK_TRIM_THRESHOLD (1 << 30)

static int holders; /* changed with the GIL held */

/* The threshold an environment variable sets, or -1. */
static long env_threshold(const char *name)
{
    const char *v = getenv(name);
    char *end;
    long n;
    if (!v || !*v)
        return -1;
    n = strtol(v, &end, 0);
    return *end || n < 0 ? -1 : n;
}

static void hold(int on)
{
    long trim = env_threshold("MALLOC_TRIM_THRESHOLD_"),
         mmap = env_threshold("MALLOC_MMAP_THRESHOLD_");
    if (trim < 0 && mmap < 0)
        return;
    if (on) {
        if (holders++ == 0) {
            mallopt(M_MMAP_THRESHOLD, TASK_MMAP_THRESHOLD);
            mallopt(M_TRIM_THRESHOLD, TASK_TRIM_THRESHOLD);
        }
        return;
    }
    if (holders == 0 || --holders > 0)
        return;
    if (mmap >= 0)
        mallopt(M_MMAP_THRESHOLD, (int)(mmap < INT_MAX ? mmap : INT_MAX));
    else
        mallopt(M_MMAP_THRESHOLD, 128 * 1024); /* glibc's default */
    if (trim >= 0)
        mallopt(M_TRIM_THRESHOLD, (int)(trim < INT_MAX ? trim : INT_MAX));
    malloc_trim(0);
}
#else
static void hold(int on)
{
    (void)on;
}
#endif

static PyObject *keep_freed_memory(PyObject *self, PyObject *on)
{
    int yes = PyObject_IsTrue(on);
    (void)self;
    if (yes < 0)
        return NULL;
    hold(yes);
    Py_RETURN_NONE;
}

PyMethodDef wjpy_keep_freed_memory_def = {
    "keep_freed_memory", keep_freed_memory, METH_O,
    "keep_freed_memory(on, /)\n--\n\n"
    "The dedup job's tasks: with on true, memory the process frees is kept\n"
    "for reuse instead of going back to the system, until as many calls\n"
    "with on false; then it is trimmed.  Acts only where\n"
    "MALLOC_TRIM_THRESHOLD_ or MALLOC_MMAP_THRESHOLD_ is set (as Dask's\n"
    "nanny sets it), which turns off glibc's own reuse of large blocks.",
};
