/*
 * deadline.c - the deadline checks of core's long loops (deadline.h).
 */
#include "deadline.h"

#include <time.h>

void sb_deadline_after(int clock, long long ns, struct timespec *ts)
{
    clock_gettime((clockid_t)clock, ts);
    if (ns < 0)
        ns = 0;
    ts->tv_sec += (time_t)(ns / 1000000000LL);
    ts->tv_nsec += (long)(ns % 1000000000LL);
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

long long sb_deadline_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

sb_code sb_deadline_check(sb_deadline *d, sb_err *err)
{
    if (NULL == d || 0 == d->at_ns)
        return SB_OK;
    d->calls = 0;
    if (sb_deadline_now_ns() < d->at_ns)
        return SB_OK;
    return sb_err_set(err, SB_ETIMEOUT, "the request deadline passed while %s", d->what ? d->what : "working");
}

sb_code sb_deadline_tick(sb_deadline *d, sb_err *err)
{
    if (NULL == d || 0 == d->at_ns || ++d->calls < SB_DEADLINE_EVERY)
        return SB_OK;
    return sb_deadline_check(d, err);
}

sb_code sb_deadline_work(sb_deadline *d, size_t units, sb_err *err)
{
    if (NULL == d || 0 == d->at_ns)
        return SB_OK;
    d->calls += units;
    return d->calls < SB_DEADLINE_EVERY ? SB_OK : sb_deadline_check(d, err);
}
