/*
 * par.h - a small process-wide pool of worker threads for the pieces of one
 * request that can run side by side (the chunks of a large pixi.lock).
 *
 * At most (cores - 1) workers, started on first use; the calling thread
 * runs every job no idle worker has taken, so a busy server (every core
 * already serving a request) runs each request on its own thread as before
 * and no request waits for another's jobs.
 */
#ifndef SB_PAR_H
#define SB_PAR_H

#include <stddef.h>

typedef struct sb_par_job {
    void (*fn)(void *arg);
    void *arg;
    /* the pool's */
    struct sb_par_job *next;
    struct sb_par_group *group;
} sb_par_job;

/* Run jobs[0..n) (fn and arg set), returning when all are done. Jobs may
 * run on any thread in any order: each must touch only what is its own. */
void sb_par_run(sb_par_job *jobs, size_t n);

/* Threads that may run one request's jobs at once (workers + the caller). */
size_t sb_par_width(void);

/* Tuning, for the benchmark and tests (defaults: the pool's width, and
 * SB_PAR_MIN_BYTES): at most `width` threads per request (1 = never
 * split; 0 = keep), splitting only work of at least `min_bytes` input
 * bytes (0 = keep). Call before requests run. */
#define SB_PAR_MIN_BYTES ((size_t)256 * 1024)
void sb_par_configure(size_t width, size_t min_bytes);

/* The smallest input worth splitting (SB_PAR_MIN_BYTES unless configured). */
size_t sb_par_min_bytes(void);

#endif
