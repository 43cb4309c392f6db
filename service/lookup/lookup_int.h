/*
 * lookup_int.h - what the files of the lookup engine share (lookup.c,
 * lookup_http.c, lookup_cache.c, lookup_kinds.c, lookup_licenses.c,
 * lookup_vulns.c, lookup_projects.c); nothing else includes it but the
 * cache's unit test (tests/unit/test_lookup_cache.c).
 *
 * The entry (one cached lookup keyed by URL), the running transfer, the
 * engine itself, the descriptor of each kind of lookup (svc_lk_kind: the
 * statuses that answer, how a body is digested, how long an answer is
 * kept, its shared-cache type, its next step, its metrics label; the
 * engine reads them from the table svc_lk_kinds, indexed by kind), and the
 * few calls one part makes into another. Every name here that crosses
 * files carries the svc_lk_ prefix. Locking: "lock held" in a comment
 * means the engine's mutex L->mu.
 */
#ifndef SVC_LOOKUP_INT_H
#define SVC_LOOKUP_INT_H

#include "lookup.h"
#include "lookup_sched.h"
#include "../../core/archive.h"
#include "../../core/buf.h"

#include <curl/curl.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#define MAX_BODY (8u << 20)         /* a response is capped */
#define MAX_MEMBER_BODY (32u << 20) /* a conda info member fetched by range */

enum { E_QUEUED, E_RUNNING, E_ANSWERED, E_FAILED };
/* The kinds of lookup; each is described by a svc_lk_kind (below). */
enum { K_PYPI, K_CONDA, K_TARBZ2, K_OSV_BATCH, K_OSV_VULN, K_KEV, K_EPSS, K_PROJECT, K_SCORECARD, K_CHANNEL, K_N };
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

/* What a kind's digest made of a finished transfer's body (engine thread,
 * outside the lock). The engine moves the malloc'd answers into the entry,
 * whether the lookup succeeded or not (a failed entry's are never read). */
typedef struct svc_lk_answer {
    int absent;     /* the upstream has none: kept for the kind's absent_ttl */
    char *license;  /* PyPI: the release's license, NULL for none */
    char *info_dir; /* conda: the stored info/ directory */
    char *body;     /* the body handed to the asking request (raw or digested) */
    size_t body_len;
    char tag;          /* the shared-cache type when not the kind's (a PyPI release naming none) */
    const void *share; /* the bytes the shared cache gets (may point into the transfer's body) */
    size_t share_len;
    unsigned method;     /* how share is compressed (a conda info member as fetched) */
    int next_phase;      /* with next_range: the step that follows (X_*) */
    char next_range[64]; /* non-empty: fetch this range of the same URL next; the entry stays running */
} svc_lk_answer;

/* One kind of lookup as the engine sees it: everything lookup_http.c needs
 * to start, judge, digest, keep and count a transfer. Each is defined
 * beside its client (lookup_licenses.c, lookup_vulns.c, lookup_projects.c)
 * and listed by kind in svc_lk_kinds (lookup_kinds.c), so the engine calls
 * no client by name. A status that is neither found nor absent fails. */
typedef struct svc_lk_kind {
    svc_upstream upstream;   /* the label its transfers are counted under (metrics) */
    long found[2];           /* the statuses whose body is digested (0 = unused) */
    long absent;             /* the status meaning "no such thing", an answer (0 = none) */
    const char *absent_body; /* the body an absent answer keeps ("" = the request sees "none"), or NULL */
    size_t cap;              /* the largest body taken */
    int archive;             /* compressed already: no Accept-Encoding, ranges count the archive's bytes */
    int tail_first;          /* starts with the last SB_ARCHIVE_TAIL bytes (X_TAIL), not the whole body */
    size_t ttl, absent_ttl;  /* offsetof(svc_lookup, the double): how long an answer, an absent one, is kept */
    char tag, absent_tag;    /* the shared-cache type of an answer, an absent one; 0 = not shared */
    /* A found status's body into *an: 1 = answered (or, with next_range,
     * so far), 0 = failed. */
    int (*digest)(svc_lookup *L, svc_lk_xfer *x, long status, svc_lk_answer *an);
} svc_lk_kind;

extern const svc_lk_kind svc_lk_pypi, svc_lk_conda, svc_lk_tarbz2;                   /* lookup_licenses.c */
extern const svc_lk_kind svc_lk_osv_batch, svc_lk_osv_vuln, svc_lk_kev, svc_lk_epss; /* lookup_vulns.c */
extern const svc_lk_kind svc_lk_project, svc_lk_scorecard, svc_lk_channel;           /* lookup_projects.c */
extern const svc_lk_kind *const svc_lk_kinds[K_N]; /* lookup_kinds.c: indexed by K_* */

/* lookup.c: the request side */
svc_sched_req *svc_lk_ticket(svc_lookup *L, svc_lookup_ctx *ctx);
svc_lk_entry *svc_lk_want(svc_lookup *L, svc_sched_req *q, const char *url, int kind, int *res);
void svc_lk_orphaned(svc_sched_item *it, int was_waiting, void *cls);
void svc_lk_prefetch(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char **urls, const int *kinds, size_t m);
int svc_lk_await(svc_lookup *L, svc_lookup_ctx *ctx, svc_lk_entry *const *es, size_t m);
sb_code svc_lk_fetch_bodies(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, int kind, size_t n,
                            const char *const *keys, const char *const *targets, const char *const *posts,
                            const size_t *post_lens, const char **bodies, size_t *lens, size_t *capped);

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

#endif
