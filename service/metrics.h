/*
 * metrics.h - process counters (atomics only, safe from any worker thread)
 * and their Prometheus text rendering for GET /metrics.
 */
#ifndef SVC_METRICS_H
#define SVC_METRICS_H

#include "../core/buf.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SVC_METRICS_ROUTES 48 /* route slots; the last one is "unmatched" */
#define SVC_METRICS_STATUSES 16
#define SVC_METRICS_FORMATS 8
#define SVC_METRICS_BUCKETS 12
#define SVC_METRICS_KINDS 24 /* input kinds counted apart; more share "other" */

typedef struct svc_metrics {
    const char *route_names[SVC_METRICS_ROUTES];
    unsigned nroutes;
    atomic_ullong by_route_status[SVC_METRICS_ROUTES][SVC_METRICS_STATUSES];
    const char *format_names[SVC_METRICS_FORMATS];
    unsigned nformats;
    atomic_ullong documents[SVC_METRICS_FORMATS];
    atomic_ullong duration_buckets[SVC_METRICS_BUCKETS]; /* /v1/sbom seconds, cumulative at render */
    atomic_ullong duration_count;
    atomic_ullong duration_us_sum;
    atomic_ullong bytes_in, bytes_out;
    atomic_ullong stream_failures;    /* responses the server cut short */
    atomic_ullong client_disconnects; /* responses the client left before their end */
    atomic_ullong rejected_busy;
    atomic_ullong rejected_memory;   /* 503: the memory budget could not hold the body */
    atomic_ullong stopped_memory;    /* requests stopped mid-work: their memory outgrew what the budget held */
    atomic_ullong timeouts;          /* requests cut short by the deadline or upload rate */
    atomic_ullong head_timeouts;     /* connections closed with their request head late */
    atomic_ullong auth_failures;     /* 401 answers */
    atomic_ullong lookups;           /* license lookup transfers made */
    atomic_ullong lookup_hits;       /* lookups answered by the cache or a transfer in flight */
    atomic_ullong lookup_failures;   /* transfers that failed */
    atomic_ullong lookups_cancelled; /* queued lookups dropped, transfers aborted: nobody waits any more */
    atomic_ullong lookup_us;         /* time spent in transfers */
    atomic_ullong shared_hits;       /* shared-cache (Redis) keys found */
    atomic_ullong shared_misses;     /* shared-cache keys not found */
    atomic_ullong shared_errors;     /* shared-cache commands that failed (down, slow, refused) */
    atomic_ullong shared_puts;       /* values written to the shared cache */
    atomic_ullong shared_dropped;    /* values not written: too large, queue full */
    atomic_ullong packages;
    atomic_ullong lookup_misses;              /* lookups the cache could not answer (a transfer made or joined) */
    atomic_ullong rcache_hits, rcache_misses; /* result cache (svc_req_repeat) */
    char kind_names[SVC_METRICS_KINDS][24];
    atomic_uint nkinds;                      /* slots claimed (under metrics.c's lock; names fixed once claimed) */
    atomic_ullong inputs[SVC_METRICS_KINDS]; /* lockfiles read, by kind */
} svc_metrics;

/* Register a route label (at startup only); returns its slot. */
unsigned svc_metrics_route(svc_metrics *m, const char *label);
/* Register a format label (at startup only). */
void svc_metrics_format(svc_metrics *m, const char *name);

/* One finished request. `route` is a slot from svc_metrics_route or
 * SVC_METRICS_ROUTES-1 for unmatched paths; `format` may be NULL. */
void svc_metrics_request(svc_metrics *m, unsigned route, unsigned status, const char *format, double seconds,
                         uint64_t bytes_in, uint64_t bytes_out, long packages, int stream_failed, int timed,
                         unsigned ndocs, const char *kind);

/* Prometheus text exposition into b (in_flight and ready are gauges the
 * server passes in). */
int svc_metrics_render(const svc_metrics *m, sb_buf *b, long in_flight, int ready, unsigned long long budget,
                       unsigned long long charged);

#endif
