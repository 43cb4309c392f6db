/*
 * deadline.h - the caller's deadline as core sees it: an absolute
 * CLOCK_MONOTONIC time in nanoseconds (0 = none), checked by every loop whose
 * work grows with the input (parser events, records, graph edges).
 *
 * Core has no HTTP and no clock of its own to answer to: the service puts the
 * request's deadline into sb_limits / sb_select_opts, core stops with
 * SB_ETIMEOUT and the service answers 504. Reading the clock costs ~20 ns, so
 * a tick reads it only every SB_DEADLINE_EVERY calls: far under a
 * millisecond of work between two looks.
 */
#ifndef SB_DEADLINE_H
#define SB_DEADLINE_H

#include "err.h"

#define SB_DEADLINE_EVERY 256

typedef struct sb_deadline {
    long long at_ns;  /* absolute CLOCK_MONOTONIC ns; 0 = no deadline */
    size_t calls;     /* work units (ticks) since the clock was last read */
    const char *what; /* the stage, for the message ("reading the lockfile") */
} sb_deadline;

/* Now, on the clock deadlines are measured with. */
long long sb_deadline_now_ns(void);

struct timespec;
/* *ts = now on `clock` plus `ns` (a negative span counts as 0), normalized: the absolute time a
 * timed condition wait takes (each wait names its own condvar's clock). */
void sb_deadline_after(int clock, long long ns, struct timespec *ts);

/* SB_OK, or SB_ETIMEOUT (message set) when the deadline has passed: reads
 * the clock every SB_DEADLINE_EVERY calls. */
sb_code sb_deadline_tick(sb_deadline *d, sb_err *err);

/* As sb_deadline_tick for `units` calls' worth of work at once: a loop
 * whose steps differ in cost (a path walked up level by level, a list of
 * any length copied) counts what it did, so the clock is read by elapsed
 * work, not every 256 steps whatever each step cost. */
sb_code sb_deadline_work(sb_deadline *d, size_t units, sb_err *err);

/* As sb_deadline_tick, reading the clock now (before a costly step). */
sb_code sb_deadline_check(sb_deadline *d, sb_err *err);

#endif
