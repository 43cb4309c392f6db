/*
 * shared_cache.h - an optional cache every replica of sbomd shares: Redis
 * (--cache-url redis://[[user]:password@]host[:port][/db]).
 *
 * One per process, started by main before the workers. Values are opaque
 * bytes under the caller's key, stored as <--cache-prefix><key>. Reads are
 * synchronous through a small pool of connections (each under its own
 * mutex), every connect and command bounded by --cache-timeout-ms; writes
 * are queued and sent by one writer thread, so no request and no lookup
 * transfer ever waits for one. Redis down or slow is a miss (SVC_SHARED_ERROR
 * with a reason the caller may put in a Warning header), never a failure:
 * after a failed connect or command no connection is tried again until a
 * backoff (100 ms doubling to 5 s) has passed, and reads meanwhile answer at
 * once. Without --cache-url every call answers SVC_SHARED_OFF and costs
 * nothing.
 */
#ifndef SVC_SHARED_CACHE_H
#define SVC_SHARED_CACHE_H

#include "../../core/arena.h"
#include "../config.h"
#include "../metrics.h"

#include <stddef.h>

typedef enum {
    SVC_SHARED_OFF,  /* no --cache-url */
    SVC_SHARED_HIT,  /* a value (for mget: the command ran; each key is a value or NULL) */
    SVC_SHARED_MISS, /* no value under the key */
    SVC_SHARED_ERROR /* unreachable, slow, refused: treat as a miss, `why` says which */
} svc_shared_rc;

/* --cache-url taken apart (percent-escapes in user and password decoded). */
typedef struct svc_shared_url {
    char host[256];
    int port;
    long db;
    char user[128];
    char password[256];
    int has_password;
} svc_shared_url;

/* Parse a cache URL: redis://[[user]:password@]host[:port][/db], host a
 * name, an IPv4 address or [IPv6]. rediss:// is refused with the reason
 * (Debian's hiredis 0.14 has no TLS). SB_OK, or an sb_code with *err. */
sb_code svc_shared_parse_url(const char *url, svc_shared_url *out, sb_err *err);

/* Start with cfg's --cache-* settings (nothing when cache_url is empty);
 * counters go to m. Redis need not be up yet. SB_OK, or an sb_code with
 * *err. */
sb_code svc_shared_init(const svc_cfg *cfg, svc_metrics *m, sb_err *err);

/* Stop the writer (what is still queued gets one bounded attempt), close
 * every connection. */
void svc_shared_shutdown(void);

/* 1 when --cache-url is set. */
int svc_shared_enabled(void);

/* The value under key, copied into a (NUL-terminated after *len bytes). */
svc_shared_rc svc_shared_get(const char *key, sb_arena *a, const char **bytes, size_t *len, char *why, size_t whyn);

/* n values in one round trip (MGET): vals[i] NULL where key i has none.
 * SVC_SHARED_HIT when the command ran (whatever it found). */
svc_shared_rc svc_shared_mget(const char *const *keys, size_t n, sb_arena *a, const char **vals, size_t *lens,
                              char *why, size_t whyn);

/* Queue a write of bytes under key for ttl seconds (capped by --cache-ttl
 * when set). Best effort: 0 when queued, -1 when dropped (off, ttl <= 0,
 * over --cache-max-value, the queue full); a failed send is counted only. */
int svc_shared_put(const char *key, const void *bytes, size_t len, long ttl);

/* The same with the value in two pieces (a header and a body), joined. */
int svc_shared_putv(const char *key, const void *head, size_t hlen, const void *body, size_t blen, long ttl);

/* Wait until the write queue is empty or `ms` pass (tests, shutdown). 1 when empty. */
int svc_shared_flush(long ms);

#endif
