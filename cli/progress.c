/* SPDX-License-Identifier: MIT */
/* The progress bar on stderr: bytes read, and of how many when known. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli.h"

struct cli_progress {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    uint64_t total;
    const uint64_t *done;
};

/* The bar being drawn (one at a time, started and stopped by the main
 * thread), so that a message can take its line. */
static cli_progress *active;

static void draw(const cli_progress *p)
{
    uint64_t done = __atomic_load_n(p->done, __ATOMIC_RELAXED);
    double mb = (double)done / 1e6;
    if (p->total) {
        int width = 30, k, fill;
        double f = (double)done / (double)p->total;
        if (f > 1)
            f = 1;
        fill = (int)(f * width);
        fputc('\r', stderr);
        fputc('[', stderr);
        for (k = 0; k < width; k++)
            fputc(k < fill ? '#' : ' ', stderr);
        fprintf(stderr, "] %5.1f%% %.1f of %.1f MB", f * 100, mb,
                (double)p->total / 1e6);
    } else
        fprintf(stderr, "\r%.1f MB read", mb);
    fflush(stderr);
}

static void *run(void *arg)
{
    cli_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        draw(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cli_progress *cli_progress_start(uint64_t total, const uint64_t *done)
{
    cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->total = total;
    p->done = done;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, run, p)) {
        free(p);
        return NULL;
    }
    active = p;
    return p;
}

void cli_progress_stop(cli_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    active = NULL;
    draw(p);
    fputc('\n', stderr);
    fflush(stderr);
    free(p);
}

void cli_progress_hold(void)
{
    if (!active)
        return;
    pthread_mutex_lock(&active->mu);
    fputs("\r\033[K", stderr);
}

void cli_progress_release(void)
{
    if (active)
        pthread_mutex_unlock(&active->mu);
}
