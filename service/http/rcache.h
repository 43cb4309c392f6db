/*
 * rcache.h - the result cache: finished response bodies (documents and
 * reports) with the headers that go with them, keyed by a digest of
 * everything that shapes their bytes (svc_req_repeat in repeat.c), so that the
 * same lockfile uploaded again with the same options is answered without
 * reading it.
 *
 * One tier today: an in-memory LRU bounded in bytes (--result-cache-size;
 * 0 = off) whose entries are each at most --result-cache-max-entry bytes.
 * Entries are immutable once put and reference counted: a response streams
 * straight from an entry while other requests evict it.
 */
#ifndef SVC_RCACHE_H
#define SVC_RCACHE_H

#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#define SVC_RKEY_LEN 20 /* SHA-1 of the request's shaping parts */
#define SVC_RCACHE_MAX_HEADERS 6

typedef struct svc_rcache svc_rcache;

typedef struct svc_rentry {
    unsigned char key[SVC_RKEY_LEN];
    char etag[48];      /* the quoted strong validator sent with it */
    const char *ctype;  /* Content-Type */
    const char *format; /* format label for the metrics */
    const char *kind;   /* the input's kind, for the metrics */
    const char *hname[SVC_RCACHE_MAX_HEADERS], *hvalue[SVC_RCACHE_MAX_HEADERS];
    unsigned nheaders; /* Content-Disposition, Warning... as first sent */
    unsigned ndocs;    /* documents in the body (NDJSON: many) */
    long packages;
    const char *body;
    size_t len;
    time_t expires; /* CLOCK_MONOTONIC seconds; 0 = never */
    /* owned by the cache */
    atomic_int refs;
    size_t cost; /* bytes charged against the cache size */
    struct svc_rentry *prev, *next, *chain;
} svc_rentry;

/* A cache of at most `max_bytes` (entries, their headers and bodies), each
 * entry at most `max_entry` bytes. NULL when max_bytes is 0 (off) or memory
 * is short; every function takes a NULL cache as "off". */
svc_rcache *svc_rcache_new(size_t max_bytes, size_t max_entry);
void svc_rcache_free(svc_rcache *c);

/* Whether a body of `len` bytes could be kept (so a producer knows when to
 * stop copying it). */
int svc_rcache_fits(const svc_rcache *c, size_t len);

/* A new entry (one allocation: strings and body copied in), refs 1. NULL
 * when memory is short. `ttl` seconds from now, 0 = until evicted. */
svc_rentry *svc_rentry_new(const unsigned char key[SVC_RKEY_LEN], const char *etag, const char *ctype,
                           const char *format, const char *kind, const char *const *hname, const char *const *hvalue,
                           unsigned nh, unsigned ndocs, long packages, const char *body, size_t len, long ttl);

/* Drop a reference; the last one frees the entry. */
void svc_rentry_release(svc_rentry *e);

/* The entry under key (a reference the caller releases), or NULL: absent,
 * expired or the cache is off. A hit moves it to the front. */
svc_rentry *svc_rcache_get(svc_rcache *c, const unsigned char key[SVC_RKEY_LEN]);

/* Keep e (the cache takes the caller's reference), replacing an entry of
 * the same key and evicting the least recently used past the size. An entry
 * over max_entry, or any entry when the cache is off, is released. */
void svc_rcache_put(svc_rcache *c, svc_rentry *e);

/* Entries and bytes held (for tests and the metrics). */
void svc_rcache_stats(svc_rcache *c, size_t *entries, size_t *bytes);

#endif
