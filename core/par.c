/*
 * par.c - the worker pool (see par.h).
 *
 * DESIGN: one queue under one mutex. sb_par_run queues its jobs, wakes the
 * workers, then takes its own jobs back from the queue and runs them until
 * none is left, and waits only for those a worker took. Jobs are large
 * (hundreds of microseconds at least), so one lock is never contended long.
 */
#include "par.h"

#include "alloc.h"
#include "deadline.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <stdint.h>
#include <unistd.h>

#define PAR_MAX_WORKERS 3

typedef struct sb_par_group {
    size_t pending;      /* jobs not finished */
    pthread_cond_t done; /* signalled when pending reaches 0 */
} sb_par_group;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static sb_par_job *head, *tail;
static size_t nworkers;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static size_t max_width = SIZE_MAX, min_bytes = SB_PAR_MIN_BYTES;

static sb_par_job *take(sb_par_group *g)
{
    sb_par_job **pp = &head, *prev = NULL;
    while (*pp && g && (*pp)->group != g) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    sb_par_job *j = *pp;
    if (j) {
        *pp = j->next;
        if (tail == j)
            tail = prev;
    }
    return j;
}

static void finish(sb_par_job *j)
{
    sb_par_group *g = j->group;
    pthread_mutex_lock(&mu);
    if (0 == --g->pending)
        pthread_cond_signal(&g->done);
    pthread_mutex_unlock(&mu);
}

/* A worker idle this long after running jobs gives its heap back. What a
 * job allocated lives on in the request's arena and is freed by the
 * request's own thread; the allocator returns such pages only when their
 * owner, this worker, next allocates or collects - and an idle worker does
 * neither, so a burst's pages stayed resident for good (12-20 MiB seen 10 s
 * after a burst of large requests). */
#define PAR_IDLE_RELEASE_NS 500000000L

static void *worker(void *arg)
{
    (void)arg;
    int ran = 0;
    for (;;) {
        pthread_mutex_lock(&mu);
        sb_par_job *j;
        while (NULL == (j = take(NULL))) {
            if (!ran) {
                pthread_cond_wait(&work, &mu);
                continue;
            }
            struct timespec until;
            sb_deadline_after(CLOCK_REALTIME, PAR_IDLE_RELEASE_NS, &until);
            if (pthread_cond_timedwait(&work, &mu, &until) == ETIMEDOUT && NULL == head) {
                pthread_mutex_unlock(&mu);
                sb_alloc_release();
                ran = 0;
                pthread_mutex_lock(&mu);
            }
        }
        pthread_mutex_unlock(&mu);
        j->fn(j->arg);
        finish(j);
        ran = 1;
    }
    return NULL;
}

static void start(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = cores > 1 ? (size_t)cores - 1 : 0;
    if (want > PAR_MAX_WORKERS)
        want = PAR_MAX_WORKERS;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&at, 256 * 1024);
    for (size_t i = 0; i < want; i++) {
        pthread_t t;
        if (pthread_create(&t, &at, worker, NULL) != 0)
            break;
        nworkers++;
    }
    pthread_attr_destroy(&at);
}

size_t sb_par_width(void)
{
    if (max_width < 2)
        return 1;
    pthread_once(&once, start);
    return nworkers + 1 < max_width ? nworkers + 1 : max_width;
}

void sb_par_configure(size_t width, size_t bytes)
{
    if (width)
        max_width = width;
    if (bytes)
        min_bytes = bytes;
}

size_t sb_par_min_bytes(void)
{
    return min_bytes;
}

void sb_par_run(sb_par_job *jobs, size_t n)
{
    if (sb_par_width() < 2 || n < 2) {
        for (size_t i = 0; i < n; i++)
            jobs[i].fn(jobs[i].arg);
        return;
    }
    sb_par_group g = {n, PTHREAD_COND_INITIALIZER};
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < n; i++) {
        jobs[i].group = &g;
        jobs[i].next = NULL;
        if (tail)
            tail->next = &jobs[i];
        else
            head = &jobs[i];
        tail = &jobs[i];
    }
    pthread_cond_broadcast(&work);
    for (;;) {
        sb_par_job *j = take(&g);
        if (NULL == j)
            break;
        pthread_mutex_unlock(&mu);
        j->fn(j->arg);
        pthread_mutex_lock(&mu);
        --g.pending;
    }
    while (g.pending)
        pthread_cond_wait(&g.done, &mu);
    pthread_mutex_unlock(&mu);
    pthread_cond_destroy(&g.done);
}
