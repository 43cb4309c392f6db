/*
 * lookup_int.h - what the files of the lookup engine share (lookup.c,
 * lookup_http.c, lookup_cache.c, lookup_licenses.c, lookup_vulns.c,
 * lookup_projects.c); nothing else includes it but the cache's unit test
 * (tests/unit/test_lookup_cache.c).
 *
 * The entry (one cached lookup keyed by URL), the running transfer, the
 * engine itself, and the few calls one part makes into another (each
 * carries the svc_lk_ prefix). Locking: "lock held" in a comment means the
 * engine's mutex L->mu.
 */
#ifndef SVC_LOOKUP_INT_H
#define SVC_LOOKUP_INT_H

#include "lookup.h"
#include "lookup_sched.h"
#include "../core/archive.h"
#include "../core/buf.h"

#include <curl/curl.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#define MAX_BODY (8u << 20)         /* spec 9.4: response cap */
#define MAX_MEMBER_BODY (32u << 20) /* a conda info member fetched by range */

enum { E_QUEUED, E_RUNNING, E_ANSWERED, E_FAILED };
enum { K_PYPI, K_CONDA, K_TARBZ2, K_OSV_BATCH, K_OSV_VULN, K_KEV, K_EPSS, K_PROJECT, K_SCORECARD, K_CHANNEL };
/* answers kept as raw JSON and parsed by the request that asked */
#define IS_OSV(k) ((k) == K_OSV_BATCH || (k) == K_OSV_VULN || (k) == K_KEV || (k) == K_EPSS)
/* kinds whose answer is a body handed to the asking request (OSV, KEV, EPSS raw, a PyPI project digested) */
#define IS_RAW(k) (IS_OSV(k) || (k) == K_PROJECT || (k) == K_SCORECARD || (k) == K_CHANNEL)
enum { X_WHOLE, X_TAIL, X_MEMBER };

typedef struct svc_lk_entry {
    svc_sched_item it; /* claims, queue and owner (lookup_sched.h) */
    char *url;
    int kind;
    int state;
    char *license;  /* PyPI answer: the license, or NULL (none / no such release) */
    char *info_dir; /* conda answer: the stored info/, or NULL (the archive has none) */
    char *target;   /* OSV: the URL fetched when the key is not one (querybatch) */
    char *post;     /* OSV querybatch: the JSON body POSTed */
    size_t post_len;
    char *body; /* OSV answer: the raw JSON, parsed by the asking request;
                               * PyPI project: its digest (core/health.h), "" = no such project */
    size_t body_len;
    double expires; /* monotonic seconds */
    unsigned refs;  /* waiters holding it: never evicted while > 0 */
    struct svc_lk_entry *hnext, *older, *newer;
    int in_lru;
} svc_lk_entry;

typedef struct svc_lk_xfer {
    svc_lk_entry *e;
    CURL *h;
    sb_buf body;
    int too_big;
    int phase;
    long long body_off, total; /* from Content-Range: where the body sits in the archive */
    sb_zip_member member;
    struct curl_slist *headers;
    double started;
    struct svc_lk_xfer *prev, *next; /* the running transfers (engine thread only) */
} svc_lk_xfer;

struct svc_lookup {
    pthread_mutex_t mu;
    pthread_cond_t answered;
    svc_lk_entry **buckets;
    size_t nbuckets, count, max_entries;
    svc_sched sched;
    size_t per_request; /* claims one request may make */
    svc_lk_entry *lru_old, *lru_new;
    CURLM *multi;
    pthread_t thread;
    int stop;
    long concurrency, timeout_ms;
    double ttl, neg_ttl, osv_ttl, kev_ttl, epss_ttl, scorecard_ttl, channel_ttl;
    char scorecard_base[512], channel_tmpl[512];
    int licenses, vulns; /* --lookups, --vulnerabilities */
    char osv_base[512], kev_url[512], epss_url[512];
    char kev_file[1024], epss_file[1024];
    size_t active;
    svc_lk_xfer *running;
    svc_metrics *m;
    char base[512], conda_base[512];
    char cache[PATH_MAX];
    int own_cache; /* a private temp dir: removed at stop */
};

static inline svc_lk_entry *entry_of(svc_sched_item *it)
{
    return (svc_lk_entry *)(void *)((char *)it - offsetof(svc_lk_entry, it));
}

static inline double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* What one want of a request came to. */
enum { W_HIT, W_WAIT, W_CAPPED, W_FAILED };

/* lookup.c: the request side */
svc_sched_req *svc_lk_ticket(svc_lookup *L, svc_lookup_ctx *ctx);
svc_lk_entry *svc_lk_want(svc_lookup *L, svc_sched_req *q, const char *url, int kind, int *res);
void svc_lk_orphaned(svc_sched_item *it, int was_waiting, void *cls);
void svc_lk_prefetch(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char **urls, const int *kinds, size_t m);
int svc_lk_await(svc_lookup *L, svc_lookup_ctx *ctx, svc_lk_entry *const *es, size_t m);
sb_code svc_lk_fetch_bodies(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, int kind, size_t n,
                            const char *const *keys, const char *const *targets, const char *const *posts,
                            const size_t *post_lens, const char **bodies, size_t *lens, size_t *capped);

/* lookup_http.c: the engine thread and its transfers */
void *svc_lk_engine(void *cls);
svc_lk_xfer *svc_lk_start_xfer(svc_lookup *L, svc_lk_entry *e, int phase, const char *range, size_t cap);
void svc_lk_unlink_xfer(svc_lookup *L, svc_lk_xfer *x);

/* lookup_cache.c: memory, disk and shared tiers */
svc_lk_entry *svc_lk_find(svc_lookup *L, const char *url);
svc_lk_entry *svc_lk_add_entry(svc_lookup *L, const char *url, int kind);
void svc_lk_lru_push(svc_lookup *L, svc_lk_entry *e);
void svc_lk_evict(svc_lookup *L);
void svc_lk_free_entry(svc_lk_entry *e);
int svc_lk_disk_answer(svc_lookup *L, svc_lk_entry *e);
void svc_lk_shared_put(const char *url, char type, double ttl, unsigned method, const void *body, size_t len);
void svc_lk_shared_fill(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char *const *urls, const int *kinds,
                        size_t m);

/* lookup_licenses.c: conda archives */
int svc_lk_conda_step(svc_lookup *L, svc_lk_xfer *x, CURLcode result, long status, int *ok, int *negative);

#endif
