/*
 * lookup.c - the shared lookup engine (see lookup.h).
 *
 * DESIGN: entries keyed by URL in a chained hash table under one mutex.
 * Requesting threads claim missing or expired entries for their request
 * (lookup_sched.c: one queue per request, a per-request limit), wake the
 * engine (curl_multi_wakeup) and wait on a condition variable until their
 * entries are answered, their deadline passes or their client goes. The
 * engine thread starts transfers while fewer than `concurrency` run, taking
 * requests in turn, and on completion parses the body (outside the lock),
 * stores the answer and broadcasts. A request that gives up (deadline,
 * client gone) or ends drops its claims: an entry nobody else claims leaves
 * the queue, and its transfer, if running, is aborted on the engine's next
 * pass, so a departed client costs the index nothing more.
 *
 * Conda archives take up to two range requests (the tail, then the info
 * member when the tail does not hold it); a small .tar.bz2 is fetched whole.
 * Answers are kept on disk (lookup_store.c: conda info/ directories read
 * from there like a package cache, PyPI licenses); entries not in memory
 * are looked for on disk first: a restart keeps what was learned.
 * With --cache-url, Redis is the tier between memory and the network, shared
 * by every replica: a request asks it for all it lacks in one MGET, outside
 * the lock, before claiming anything (shared_fill), and each answer a
 * transfer brings is queued for it (shared_put). Its values are
 * "sbl1 <type> <expiry, Unix seconds> <method>\n" then the answer: P a PyPI
 * license, p a release naming none (or none such), C a conda archive's info
 * member as fetched (compressed by <method>), c an archive without one, O an
 * OSV answer. Redis down or slow is a miss and a Warning, never a failure.
 */
#include "lookup.h"
#include "log.h"
#include "lookup_sched.h"
#include "lookup_store.h"
#include "shared_cache.h"
#include "../core/archive.h"
#include "../core/buf.h"
#include "../core/enrich.h"
#include "../core/health.h"
#include "../core/exploit.h"
#include "../core/vex.h"
#include "../core/pypi.h"
#include "../core/scorecard.h"
#include "../core/uuid.h"
#include "../core/vuln.h"

#include <curl/curl.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BODY (8u << 20)          /* spec 9.4: response cap */
#define MAX_MEMBER_BODY (32u << 20)  /* a conda info member fetched by range */
#define GONE_CHECK_NS 100000000L     /* how often a waiting request looks at its client */

enum { E_QUEUED, E_RUNNING, E_ANSWERED, E_FAILED };
enum { K_PYPI, K_CONDA, K_TARBZ2, K_OSV_BATCH, K_OSV_VULN, K_KEV, K_EPSS, K_PROJECT, K_SCORECARD, K_CHANNEL };
/* answers kept as raw JSON and parsed by the request that asked */
#define IS_OSV(k) ((k) == K_OSV_BATCH || (k) == K_OSV_VULN || (k) == K_KEV || (k) == K_EPSS)
/* kinds whose answer is a body handed to the asking request (OSV, KEV, EPSS raw, a PyPI project digested) */
#define IS_RAW(k) (IS_OSV(k) || (k) == K_PROJECT || (k) == K_SCORECARD || (k) == K_CHANNEL)
#define OSV_CHUNK 1000 /* spec 9.6: purls per querybatch */
enum { X_WHOLE, X_TAIL, X_MEMBER };

typedef struct entry {
    svc_sched_item it;        /* claims, queue and owner (lookup_sched.h) */
    char *url;
    int kind;
    int state;
    char *license;            /* PyPI answer: the license, or NULL (none / no such release) */
    char *info_dir;           /* conda answer: the stored info/, or NULL (the archive has none) */
    char *target;             /* OSV: the URL fetched when the key is not one (querybatch) */
    char *post;               /* OSV querybatch: the JSON body POSTed */
    size_t post_len;
    char *body;               /* OSV answer: the raw JSON, parsed by the asking request;
                               * PyPI project: its digest (core/health.h), "" = no such project */
    size_t body_len;
    double expires;           /* monotonic seconds */
    unsigned refs;            /* waiters holding it: never evicted while > 0 */
    struct entry *hnext, *older, *newer;
    int in_lru;
} entry;

typedef struct xfer {
    entry *e;
    CURL *h;
    sb_buf body;
    int too_big;
    int phase;
    long long body_off, total; /* from Content-Range: where the body sits in the archive */
    sb_zip_member member;
    struct curl_slist *headers;
    double started;
    struct xfer *prev, *next; /* the running transfers (engine thread only) */
} xfer;

struct svc_lookup {
    pthread_mutex_t mu;
    pthread_cond_t answered;
    entry **buckets;
    size_t nbuckets, count, max_entries;
    svc_sched sched;
    size_t per_request;       /* claims one request may make */
    entry *lru_old, *lru_new;
    CURLM *multi;
    pthread_t thread;
    int stop;
    long concurrency, timeout_ms;
    double ttl, neg_ttl, osv_ttl, kev_ttl, epss_ttl, scorecard_ttl, channel_ttl;
    char scorecard_base[512], channel_tmpl[512];
    int licenses, vulns;      /* --lookups, --vulnerabilities */
    char osv_base[512], kev_url[512], epss_url[512];
    char kev_file[1024], epss_file[1024];
    size_t active;
    xfer *running;
    svc_metrics *m;
    char base[512], conda_base[512];
    char cache[PATH_MAX];
    int own_cache; /* a private temp dir: removed at stop */
};

static entry *entry_of(svc_sched_item *it)
{
    return (entry *)(void *)((char *)it - offsetof(entry, it));
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* --- the shared cache (--cache-url) ---------------------------------------- */

#define SHARED_KEY_MAX 56

/* The shared-cache key of a lookup: its URL hashed (keys stay short; the
 * URL is the configured host's, so replicas with one configuration agree). */
static void shared_key(char out[SHARED_KEY_MAX], const char *url)
{
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, url, strlen(url));
    sb_sha1_final(&c, d);
    int k = snprintf(out, SHARED_KEY_MAX, "lookup1:");
    for (int i = 0; i < 20; i++)
        k += snprintf(out + k, (size_t)(SHARED_KEY_MAX - k), "%02x", d[i]);
}

/* Queue an answer for the other replicas (any thread; never waits). */
static void shared_put(const char *url, char type, double ttl, unsigned method, const void *body, size_t len)
{
    if (!svc_shared_enabled() || ttl < 1)
        return;
    char key[SHARED_KEY_MAX], head[80];
    shared_key(key, url);
    int hl = snprintf(head, sizeof head, "sbl1 %c %lld %u\n", type, (long long)time(NULL) + (long long)ttl, method);
    svc_shared_putv(key, head, (size_t)hl, body, len, (long)ttl);
}

/* A value taken apart: 0, or -1 when it is not one of ours. */
static int shared_decode(const char *v, size_t n, char *type, long long *expiry, unsigned *method, const char **body,
                         size_t *blen)
{
    const char *nl = memchr(v, '\n', n < 80 ? n : 80);
    int used = 0;
    if (NULL == nl || sscanf(v, "sbl1 %c %lld %u%n", type, expiry, method, &used) != 3 || v + used != nl)
        return -1;
    *body = nl + 1;
    *blen = n - (size_t)(nl + 1 - v);
    return 0;
}

static entry *find(svc_lookup *L, const char *url)
{
    for (entry *e = L->buckets[hash(url) % L->nbuckets]; e; e = e->hnext)
        if (!strcmp(e->url, url))
            return e;
    return NULL;
}

static void lru_unlink(svc_lookup *L, entry *e)
{
    if (!e->in_lru)
        return;
    if (e->older)
        e->older->newer = e->newer;
    else
        L->lru_old = e->newer;
    if (e->newer)
        e->newer->older = e->older;
    else
        L->lru_new = e->older;
    e->older = e->newer = NULL;
    e->in_lru = 0;
}

static void lru_push(svc_lookup *L, entry *e)
{
    lru_unlink(L, e);
    e->older = L->lru_new;
    e->newer = NULL;
    if (L->lru_new)
        L->lru_new->newer = e;
    else
        L->lru_old = e;
    L->lru_new = e;
    e->in_lru = 1;
}

static void free_entry(entry *e)
{
    free(e->url);
    free(e->license);
    free(e->info_dir);
    free(e->target);
    free(e->post);
    free(e->body);
    free(e);
}

static void drop(svc_lookup *L, entry *e)
{
    entry **pp = &L->buckets[hash(e->url) % L->nbuckets];
    while (*pp && *pp != e)
        pp = &(*pp)->hnext;
    if (*pp)
        *pp = e->hnext;
    lru_unlink(L, e);
    free_entry(e);
    L->count--;
}

/* Keep the cache within its bound: the least recently answered entries go
 * first, never one a request still waits on. */
static void evict(svc_lookup *L)
{
    entry *e = L->lru_old;
    while (L->count > L->max_entries && e) {
        entry *next = e->newer;
        if (0 == e->refs && 0 == e->it.wanters && (e->state == E_ANSWERED || e->state == E_FAILED))
            drop(L, e);
        e = next;
    }
}

static size_t on_body(char *p, size_t size, size_t n, void *cls)
{
    xfer *x = cls;
    size_t k = size * n;
    if (x->body.len + k > x->body.cap) {
        x->too_big = 1;
        return 0; /* aborts the transfer */
    }
    return sb_buf_append(&x->body, p, k) == SB_OK ? k : 0;
}

/* "Content-Range: bytes A-B/TOTAL" places a range answer in the archive */
static size_t on_header(char *p, size_t size, size_t n, void *cls)
{
    xfer *x = cls;
    size_t k = size * n;
    long long a, b, t;
    if (k > 20 && !strncasecmp(p, "Content-Range:", 14) && sscanf(p + 14, " bytes %lld-%lld/%lld", &a, &b, &t) == 3 &&
        a >= 0 && b >= a && t > b) {
        x->body_off = a;
        x->total = t;
    }
    return k;
}

/* A transfer for entry e (engine thread); range "A-B" or "-N", or NULL for
 * the whole body. NULL when it cannot start. */
static xfer *start_xfer(svc_lookup *L, entry *e, int phase, const char *range, size_t cap)
{
    xfer *x = calloc(1, sizeof *x);
    CURL *h = curl_easy_init();
    if (!x || !h) {
        free(x);
        curl_easy_cleanup(h);
        return NULL;
    }
    sb_buf_init(&x->body, cap);
    x->e = e;
    x->h = h;
    x->phase = phase;
    x->total = -1;
    x->started = now_s();
    curl_easy_setopt(h, CURLOPT_URL, e->target ? e->target : e->url);
    curl_easy_setopt(h, CURLOPT_PRIVATE, x);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, L->timeout_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, L->timeout_ms);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_USERAGENT, "sbomd");
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
    /* archives are compressed already; and a range must count the archive's own bytes */
    if (e->kind == K_PYPI || IS_RAW(e->kind))
        curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    if (e->post) {
        x->headers = curl_slist_append(NULL, "Content-Type: application/json");
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->headers);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, e->post);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)e->post_len);
    }
    if (range)
        curl_easy_setopt(h, CURLOPT_RANGE, range);
    if (curl_multi_add_handle(L->multi, h) != CURLM_OK) {
        sb_buf_free(&x->body);
        curl_easy_cleanup(h);
        free(x);
        return NULL;
    }
    x->next = L->running;
    if (L->running)
        L->running->prev = x;
    L->running = x;
    return x;
}

/* Look for e's answer on disk (lock held). 1 = answered. */
static int disk_answer(svc_lookup *L, entry *e)
{
    if (IS_RAW(e->kind))
        return 0; /* advisories and project pages change: kept in memory for their lifetime only */
    if (e->kind != K_PYPI) {
        char *dir = NULL;
        if (!svc_store_conda_get(L->cache, e->url, &dir))
            return 0;
        free(e->info_dir);
        e->info_dir = dir;
        return 1;
    }
    char *license = NULL;
    if (!svc_store_pypi_get(L->cache, e->url, L->ttl, &license))
        return 0;
    free(e->license);
    e->license = license;
    return 1;
}

/* What a finished archive transfer leaves: 1 = a follow-up range was
 * started (the entry stays running), else *ok and e->info_dir are set. */
static int conda_step(svc_lookup *L, xfer *x, CURLcode result, long status, int *ok, int *negative)
{
    entry *e = x->e;
    *ok = 0;
    if (result != CURLE_OK)
        return 0;
    if (status == 404) {
        *ok = *negative = 1; /* no such archive on the configured host */
        return 0;
    }
    if (status == 200) { /* the whole archive: a server that ignores ranges, or a .tar.bz2 */
        x->body_off = 0;
        x->total = (long long)x->body.len;
    } else if (status != 206 || x->total < 0) {
        return 0;
    }
    const unsigned char *body = (const unsigned char *)(x->body.data ? x->body.data : "");
    sb_err err;
    const unsigned char *data = body;
    size_t len = x->body.len;
    unsigned method = 0;
    sb_archive_kind kind = e->kind == K_TARBZ2 ? SB_ARCHIVE_TARBZ2 : SB_ARCHIVE_CONDA;
    if (kind == SB_ARCHIVE_CONDA) {
        if (x->phase != X_MEMBER) {
            if (x->body_off + (long long)len != x->total) /* a tail must end the archive */
                return 0;
            sb_code rc = sb_zip_find_info(body, len, x->total, &x->member, &err);
            if (rc == SB_ENOTFOUND && x->body_off == 0) {
                *ok = *negative = 1; /* the whole archive, and no info member in it */
                return 0;
            }
            if (rc != SB_OK)
                return 0;
        }
        sb_code rc = sb_zip_member_data(body, len, x->body_off, &x->member, &data, &err);
        if (rc == SB_ENOTFOUND && x->phase == X_TAIL) {
            long long off, n;
            sb_zip_member_span(&x->member, x->total, &off, &n);
            char range[64];
            snprintf(range, sizeof range, "%lld-%lld", off, off + n - 1);
            xfer *next = start_xfer(L, e, X_MEMBER, range, MAX_MEMBER_BODY);
            if (next)
                next->member = x->member;
            return next != NULL;
        }
        if (rc != SB_OK)
            return 0;
        len = (size_t)x->member.csize;
        method = x->member.method;
    }
    char dir[PATH_MAX];
    svc_store_path(L->cache, e->url, 1, dir, sizeof dir);
    sb_code rc = sb_archive_store(dir, kind, data, len, method, &err);
    if (rc == SB_ENOTFOUND) {
        *ok = *negative = 1;
        return 0;
    }
    if (rc != SB_OK) {
        svc_log_event("lookup-store-failed", err.msg);
        return 0;
    }
    shared_put(e->url, 'C', L->ttl, method, data, len); /* the member as fetched: small, and whole */
    char info[PATH_MAX + 8];
    snprintf(info, sizeof info, "%s/info", dir);
    pthread_mutex_lock(&L->mu);
    free(e->info_dir);
    e->info_dir = strdup(info);
    pthread_mutex_unlock(&L->mu);
    *ok = e->info_dir != NULL;
    return 0;
}

static void unlink_xfer(svc_lookup *L, xfer *x)
{
    if (x->prev)
        x->prev->next = x->next;
    else
        L->running = x->next;
    if (x->next)
        x->next->prev = x->prev;
    curl_multi_remove_handle(L->multi, x->h);
    curl_easy_cleanup(x->h);
    curl_slist_free_all(x->headers);
    sb_buf_free(&x->body);
    free(x);
}

static void finish(svc_lookup *L, CURLMsg *msg)
{
    xfer *x = NULL;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
    long status = 0;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
    entry *e = x->e;
    int ok = 0, negative = 0, follows = 0;
    char *license = NULL, *body = NULL;
    size_t body_len = 0;
    if (IS_OSV(e->kind)) {
        /* OSV answers are parsed by the request that asked (core/vuln.c);
         * a 404 for a record is a failure like any other: the id is kept */
        ok = msg->data.result == CURLE_OK && status == 200 && x->body.len > 0;
        if (ok && NULL == (body = malloc(x->body.len + 1)))
            ok = 0;
        if (ok) {
            memcpy(body, x->body.data, x->body.len);
            body[x->body.len] = '\0';
            body_len = x->body.len;
        }
    } else if (e->kind == K_CHANNEL) {
        /* a channel index is digested here: the cache keeps a line per name and version */
        ok = msg->data.result == CURLE_OK && status == 200;
        if (ok) {
            sb_arena *a = sb_arena_new(0);
            const char *dg = NULL;
            size_t dn = 0;
            ok = a && sb_health_channel_digest(a, x->body.data ? x->body.data : "", x->body.len, &dg, &dn) == SB_OK &&
                 NULL != (body = malloc(dn + 1));
            if (ok) {
                memcpy(body, dg, dn + 1);
                body_len = dn;
            }
            sb_arena_destroy(a);
        }
    } else if (e->kind == K_SCORECARD) {
        /* a 404 is a repository the API has not scored: kept as "" */
        ok = msg->data.result == CURLE_OK && (status == 200 || status == 404);
        negative = status == 404;
        if (ok && negative) {
            ok = NULL != (body = strdup(""));
        } else if (ok) {
            sb_arena *a = sb_arena_new(0);
            const char *dg = NULL;
            size_t dn = 0;
            ok = a && sb_scorecard_digest(a, x->body.data ? x->body.data : "", x->body.len, &dg, &dn) == SB_OK &&
                 NULL != (body = malloc(dn + 1));
            if (ok) {
                memcpy(body, dg, dn + 1);
                body_len = dn;
            }
            sb_arena_destroy(a);
        }
    } else if (e->kind == K_PROJECT) {
        /* digested here, off the requests' threads: the cache keeps a few
         * lines per release, not the project's whole page */
        ok = msg->data.result == CURLE_OK && (status == 200 || status == 404);
        negative = status == 404;
        if (ok && negative) {
            ok = NULL != (body = strdup(""));
        } else if (ok) {
            sb_arena *a = sb_arena_new(0);
            const char *dg = NULL;
            size_t dn = 0;
            ok = a && sb_health_pypi_digest(a, x->body.data ? x->body.data : "", x->body.len, &dg, &dn) == SB_OK &&
                 NULL != (body = malloc(dn + 1));
            if (ok) {
                memcpy(body, dg, dn + 1);
                body_len = dn;
            }
            sb_arena_destroy(a);
        }
    } else if (e->kind == K_PYPI) {
        ok = msg->data.result == CURLE_OK && (status == 200 || status == 404);
        negative = status == 404;
        if (ok && status == 200) {
            sb_arena *a = sb_arena_new(0);
            const char *lic = NULL;
            if (a && sb_pypi_license(a, x->body.data ? x->body.data : "", x->body.len, &lic) == SB_OK) {
                license = lic ? strdup(lic) : NULL;
                svc_store_pypi_put(L->cache, e->url, license);
            } else {
                ok = 0; /* an answer that is not a release document */
            }
            sb_arena_destroy(a);
        }
    } else {
        follows = conda_step(L, x, msg->data.result, status, &ok, &negative);
    }
    if (ok && IS_OSV(e->kind))
        shared_put(e->url, 'O', e->kind == K_KEV ? L->kev_ttl : e->kind == K_EPSS ? L->epss_ttl : L->osv_ttl, 0, body,
                   body_len);
    else if (ok && e->kind == K_PYPI)
        shared_put(e->url, license ? 'P' : 'p', negative ? L->neg_ttl : L->ttl, 0, license, license ? strlen(license) : 0);
    else if (ok && negative && !follows)
        shared_put(e->url, 'c', L->neg_ttl, 0, NULL, 0);
    double spent = now_s() - x->started;
    unlink_xfer(L, x);
    atomic_fetch_add(&L->m->lookups, 1);
    atomic_fetch_add(&L->m->lookup_us, (unsigned long long)(spent * 1e6));
    if (follows)
        return; /* the entry's next range is running */
    pthread_mutex_lock(&L->mu);
    e->state = ok ? E_ANSWERED : E_FAILED;
    if (e->kind == K_PYPI) {
        free(e->license);
        e->license = license;
    }
    if (IS_RAW(e->kind)) {
        free(e->body);
        e->body = body;
        e->body_len = body_len;
    }
    double life = e->kind == K_KEV    ? L->kev_ttl
                  : e->kind == K_EPSS ? L->epss_ttl
                  : e->kind == K_SCORECARD && !negative ? L->scorecard_ttl
                  : e->kind == K_CHANNEL ? L->channel_ttl
                  : IS_OSV(e->kind)   ? L->osv_ttl
                  : negative          ? L->neg_ttl
                                      : L->ttl;
    e->expires = now_s() + (ok ? life : 0.0);
    L->active--;
    svc_sched_done(&L->sched, &e->it);
    lru_push(L, e);
    evict(L);
    pthread_cond_broadcast(&L->answered);
    pthread_mutex_unlock(&L->mu);
    if (!ok)
        atomic_fetch_add(&L->m->lookup_failures, 1);
}

/* Abort the transfers no request claims any more (their clients went, or
 * their deadlines passed). Engine thread, lock held. */
static void drop_abandoned(svc_lookup *L)
{
    for (xfer *x = L->running, *next; x; x = next) {
        next = x->next;
        entry *e = x->e;
        if (e->it.wanters)
            continue;
        unlink_xfer(L, x); /* closes its connection: the index stops working for nobody */
        e->state = E_FAILED;
        e->expires = 0;
        L->active--;
        svc_sched_done(&L->sched, &e->it);
        lru_push(L, e);
        atomic_fetch_add(&L->m->lookups_cancelled, 1);
        pthread_cond_broadcast(&L->answered);
    }
}

/* Fill the free slots, requests taking turns. Engine thread, lock held. */
static void start_turns(svc_lookup *L)
{
    svc_sched_item *it;
    while (L->active < (size_t)L->concurrency && (it = svc_sched_next(&L->sched))) {
        entry *e = entry_of(it);
        e->state = E_RUNNING;
        int phase = e->kind == K_CONDA ? X_TAIL : X_WHOLE;
        char tail[32];
        snprintf(tail, sizeof tail, "-%d", SB_ARCHIVE_TAIL);
        if (start_xfer(L, e, phase, phase == X_TAIL ? tail : NULL,
                       e->kind == K_PYPI || IS_RAW(e->kind) ? MAX_BODY : MAX_MEMBER_BODY)) {
            L->active++;
        } else {
            e->state = E_FAILED;
            e->expires = 0;
            svc_sched_done(&L->sched, it);
            lru_push(L, e);
            pthread_cond_broadcast(&L->answered);
        }
    }
}

static void *engine(void *cls)
{
    svc_lookup *L = cls;
    for (;;) {
        pthread_mutex_lock(&L->mu);
        int stop = L->stop;
        if (!stop) {
            drop_abandoned(L);
            start_turns(L);
        }
        pthread_mutex_unlock(&L->mu);
        if (stop)
            break;
        int running = 0;
        curl_multi_perform(L->multi, &running);
        CURLMsg *msg;
        int left, finished = 0;
        while ((msg = curl_multi_info_read(L->multi, &left)))
            if (msg->msg == CURLMSG_DONE) {
                finish(L, msg);
                finished++;
            }
        /* a finished transfer frees a slot: refill it now, not after the poll times out */
        if (0 == finished)
            curl_multi_poll(L->multi, NULL, 0, 200, NULL);
    }
    return NULL;
}

int svc_lookup_start(svc_lookup **out, const svc_cfg *cfg, svc_metrics *m, char *eb, size_t en)
{
    svc_lookup *L = calloc(1, sizeof *L);
    if (NULL == L) {
        snprintf(eb, en, "out of memory");
        return -1;
    }
    L->max_entries = (size_t)cfg->lookup_cache;
    L->nbuckets = L->max_entries < 1024 ? 1024 : L->max_entries;
    L->buckets = calloc(L->nbuckets, sizeof *L->buckets);
    L->multi = curl_multi_init();
    if (!L->buckets || !L->multi) {
        free(L->buckets);
        free(L);
        snprintf(eb, en, "cannot start the lookup engine");
        return -1;
    }
    L->concurrency = cfg->concurrency;
    L->per_request = (size_t)cfg->lookup_max_per_request;
    svc_sched_init(&L->sched, (size_t)cfg->concurrency);
    L->timeout_ms = cfg->lookup_timeout * 1000;
    L->ttl = (double)cfg->lookup_ttl;
    L->neg_ttl = (double)cfg->lookup_negative_ttl;
    L->osv_ttl = (double)cfg->osv_ttl;
    L->kev_ttl = (double)cfg->kev_ttl;
    L->epss_ttl = (double)cfg->epss_ttl;
    L->scorecard_ttl = (double)cfg->scorecard_ttl;
    L->channel_ttl = (double)cfg->channel_index_ttl;
    snprintf(L->channel_tmpl, sizeof L->channel_tmpl, "%s", cfg->channel_index_url);
    snprintf(L->scorecard_base, sizeof L->scorecard_base, "%s", cfg->scorecard_url);
    snprintf(L->kev_url, sizeof L->kev_url, "%s", cfg->kev_url);
    snprintf(L->epss_url, sizeof L->epss_url, "%s", cfg->epss_url);
    snprintf(L->kev_file, sizeof L->kev_file, "%s", cfg->kev_file);
    snprintf(L->epss_file, sizeof L->epss_file, "%s", cfg->epss_file);
    L->licenses = cfg->lookups != 0;
    L->vulns = cfg->vulns != 0;
    snprintf(L->osv_base, sizeof L->osv_base, "%s", cfg->osv_url);
    for (size_t n = strlen(L->osv_base); n && L->osv_base[n - 1] == '/'; n--)
        L->osv_base[n - 1] = '\0';
    L->m = m;
    snprintf(L->base, sizeof L->base, "%s", cfg->pypi_url);
    snprintf(L->conda_base, sizeof L->conda_base, "%s", cfg->conda_url);
    if (svc_store_open(L->cache, sizeof L->cache, cfg->cache_dir, &L->own_cache, eb, en) != 0) {
        curl_multi_cleanup(L->multi);
        free(L->buckets);
        free(L);
        return -1;
    }
    curl_multi_setopt(L->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, cfg->concurrency);
    curl_multi_setopt(L->multi, CURLMOPT_MAX_HOST_CONNECTIONS, cfg->concurrency);
    pthread_mutex_init(&L->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&L->answered, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&L->thread, NULL, engine, L) != 0) {
        curl_multi_cleanup(L->multi);
        free(L->buckets);
        free(L);
        snprintf(eb, en, "cannot start the lookup thread");
        return -1;
    }
    *out = L;
    return 0;
}

void svc_lookup_stop(svc_lookup *L)
{
    if (NULL == L)
        return;
    pthread_mutex_lock(&L->mu);
    L->stop = 1;
    pthread_mutex_unlock(&L->mu);
    curl_multi_wakeup(L->multi);
    pthread_join(L->thread, NULL);
    /* abandon what still runs (their requests have all ended: the last
     * transfer of each frees it) */
    while (L->running) {
        svc_sched_done(&L->sched, &L->running->e->it);
        unlink_xfer(L, L->running);
    }
    svc_sched_free_all(&L->sched);
    curl_multi_cleanup(L->multi);
    for (size_t i = 0; i < L->nbuckets; i++)
        for (entry *e = L->buckets[i], *next; e; e = next) {
            next = e->hnext;
            free_entry(e);
        }
    free(L->buckets);
    if (L->own_cache)
        svc_store_remove(L->cache);
    pthread_cond_destroy(&L->answered);
    pthread_mutex_destroy(&L->mu);
    free(L);
}

/* What one want of a request came to. */
enum { W_HIT, W_WAIT, W_CAPPED, W_FAILED };

/* The request's queue, opened on its first want (lock held); NULL when out
 * of memory. */
static svc_sched_req *ticket(svc_lookup *L, svc_lookup_ctx *ctx)
{
    if (NULL == ctx->ticket)
        ctx->ticket = svc_sched_open(&L->sched, L->per_request);
    return ctx->ticket;
}

/* An entry for url, new and idle (failed, not kept), or NULL. */
static entry *add_entry(svc_lookup *L, const char *url, int kind)
{
    entry *e = calloc(1, sizeof *e);
    if (e)
        e->url = strdup(url);
    if (!e || !e->url) {
        free(e);
        return NULL;
    }
    e->kind = kind;
    e->state = E_FAILED;
    size_t b = hash(url) % L->nbuckets;
    e->hnext = L->buckets[b];
    L->buckets[b] = e;
    L->count++;
    return e;
}

/* The entry for url, claimed for request q and queued for a transfer
 * unless a fresh answer (memory or disk) or a running transfer covers it;
 * *res says which (W_*). Pinned (refs) when returned; NULL when capped or
 * failed. Called with the lock held. */
static entry *want(svc_lookup *L, svc_sched_req *q, const char *url, int kind, int *res)
{
    entry *e = find(L, url);
    double t = now_s();
    if (e && e->state == E_ANSWERED && e->expires > t) {
        *res = W_HIT;
        e->refs++;
        return e;
    }
    if (NULL == e && NULL == (e = add_entry(L, url, kind))) {
        *res = W_FAILED;
        return NULL;
    }
    int busy = e->state == E_QUEUED || e->state == E_RUNNING;
    if (!busy && disk_answer(L, e)) {
        e->state = E_ANSWERED;
        e->expires = t + L->ttl;
        lru_push(L, e);
        *res = W_HIT;
        e->refs++;
        return e;
    }
    /* single flight: a queued or running entry is joined, not fetched again */
    svc_claim c = q ? svc_sched_claim(&L->sched, q, &e->it, e->state != E_RUNNING) : SVC_CLAIM_ENOMEM;
    if (c == SVC_CLAIM_NEW || c == SVC_CLAIM_HELD) {
        if (e->state != E_RUNNING)
            e->state = E_QUEUED;
        *res = busy ? W_HIT : W_WAIT;
        e->refs++;
        return e;
    }
    if (!busy)
        lru_push(L, e); /* idle: evictable like a failure */
    *res = c == SVC_CLAIM_CAPPED ? W_CAPPED : W_FAILED;
    return NULL;
}

/* An entry whose last claim went (lookup_sched.h): out of the queue now;
 * a running one is aborted by the engine's next pass. Lock held. */
static void orphaned(svc_sched_item *it, int was_waiting, void *cls)
{
    svc_lookup *L = cls;
    entry *e = entry_of(it);
    if (!was_waiting)
        return;
    e->state = E_FAILED;
    e->expires = 0;
    lru_push(L, e);
    atomic_fetch_add(&L->m->lookups_cancelled, 1);
}

void svc_lookup_end(void *cls)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx ? ctx->engine : NULL;
    if (NULL == L || NULL == ctx->ticket)
        return;
    pthread_mutex_lock(&L->mu);
    svc_sched_close(&L->sched, ctx->ticket, orphaned, L);
    ctx->ticket = NULL;
    evict(L);
    pthread_mutex_unlock(&L->mu);
    curl_multi_wakeup(L->multi);
}

/* Which lookup, if any, a package wants: PyPI releases without a license;
 * conda binaries lacking a license or license files (their archive has
 * both), a .tar.bz2 only when small enough to fetch whole. *url is where
 * (NULL without an engine, or when the name or version is unusable). */
static int wanted(const sb_pkg *p, sb_arena *a, const svc_lookup *L, const char **url)
{
    *url = NULL;
    if (p->kind == SB_KIND_PYPI) {
        if ((p->license && p->license[0]) || NULL == p->version)
            return -1;
        *url = L ? sb_pypi_url(a, L->base, p->name, p->version) : NULL;
        return K_PYPI;
    }
    if (p->kind != SB_KIND_CONDA || NULL == p->location || ((p->license && p->license[0]) && p->nlicfiles))
        return -1;
    /* an offline server still counts the archive as a lookup not made */
    sb_archive_kind ak;
    const char *u = sb_conda_archive_url(a, L ? L->conda_base : "http://offline", p->location, &ak);
    if (NULL == u || (ak == SB_ARCHIVE_TARBZ2 && (sb_pkg_xr(p)->size <= 0 || sb_pkg_xr(p)->size > SB_ARCHIVE_TARBZ2_MAX)))
        return -1;
    *url = L ? u : NULL;
    return ak == SB_ARCHIVE_TARBZ2 ? K_TARBZ2 : K_CONDA;
}

static void shared_warn(svc_lookup_ctx *ctx, const char *why)
{
    if (ctx->warn && !ctx->warned) {
        ctx->warned = 1;
        ctx->warn(ctx->warn_cls, why);
    }
}

static int type_fits(char type, int kind)
{
    switch (type) {
    case 'P':
    case 'p':
        return kind == K_PYPI;
    case 'C':
    case 'c':
        return kind == K_CONDA || kind == K_TARBZ2;
    case 'O':
        return IS_OSV(kind);
    default:
        return 0;
    }
}

/* What the shared cache holds for the m lookups urls[]/kinds[] this process
 * has neither fresh nor in flight: asked in one MGET outside the lock, then
 * stored as answers (a conda info member unpacked into the disk cache
 * first, as a transfer's would be), so the claims that follow find them.
 * Request thread. */
static void shared_fill(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char *const *urls, const int *kinds,
                        size_t m)
{
    if (!svc_shared_enabled() || 0 == m)
        return;
    const char **keys = sb_arena_alloc(a, m * sizeof *keys), **vals = sb_arena_alloc(a, m * sizeof *vals);
    size_t *which = sb_arena_alloc(a, m * sizeof *which), *lens = sb_arena_alloc(a, m * sizeof *lens);
    if (!keys || !vals || !which || !lens)
        return; /* only a cache: the lookups go on without it */
    size_t nk = 0;
    double t = now_s();
    pthread_mutex_lock(&L->mu);
    for (size_t k = 0; k < m; k++) {
        if (NULL == urls[k])
            continue;
        entry *e = find(L, urls[k]);
        if (e && ((e->state == E_ANSWERED && e->expires > t) || e->state == E_QUEUED || e->state == E_RUNNING))
            continue;
        char *key = sb_arena_alloc(a, SHARED_KEY_MAX);
        if (NULL == key)
            break;
        shared_key(key, urls[k]);
        keys[nk] = key;
        which[nk++] = k;
    }
    pthread_mutex_unlock(&L->mu);
    if (0 == nk)
        return;
    char why[256];
    if (svc_shared_mget(keys, nk, a, vals, lens, why, sizeof why) != SVC_SHARED_HIT) {
        shared_warn(ctx, why);
        return;
    }
    /* decode and unpack outside the lock */
    char *types = sb_arena_calloc(a, nk, 1);
    double *left = sb_arena_alloc(a, nk * sizeof *left);
    char **info = sb_arena_calloc(a, nk, sizeof *info);
    const char **bodies = sb_arena_calloc(a, nk, sizeof *bodies);
    size_t *blens = sb_arena_calloc(a, nk, sizeof *blens);
    if (!types || !left || !info || !bodies || !blens)
        return;
    long long wall = (long long)time(NULL);
    for (size_t j = 0; j < nk; j++) {
        char type;
        long long expiry;
        unsigned method;
        size_t k = which[j];
        if (NULL == vals[j] || shared_decode(vals[j], lens[j], &type, &expiry, &method, &bodies[j], &blens[j]) != 0 ||
            expiry <= wall || !type_fits(type, kinds[k]))
            continue;
        if (type == 'C' && !svc_store_conda_get(L->cache, urls[k], &info[j])) {
            char dir[PATH_MAX];
            svc_store_path(L->cache, urls[k], 1, dir, sizeof dir);
            sb_err err;
            sb_code rc = sb_archive_store(dir, kinds[k] == K_TARBZ2 ? SB_ARCHIVE_TARBZ2 : SB_ARCHIVE_CONDA,
                                          (const unsigned char *)bodies[j], blens[j], method, &err);
            if (rc == SB_OK) {
                size_t dl = strlen(dir);
                if ((info[j] = malloc(dl + 6))) {
                    memcpy(info[j], dir, dl);
                    memcpy(info[j] + dl, "/info", 6);
                }
            }
            if (rc != SB_OK && rc != SB_ENOTFOUND)
                continue; /* not kept: the network is asked */
            if (NULL == info[j] && rc == SB_OK)
                continue;
        }
        types[j] = type;
        left[j] = (double)(expiry - wall);
    }
    pthread_mutex_lock(&L->mu);
    t = now_s();
    for (size_t j = 0; j < nk; j++) {
        if (!types[j])
            continue;
        size_t k = which[j];
        entry *e = find(L, urls[k]);
        if (NULL == e)
            e = add_entry(L, urls[k], kinds[k]);
        if (NULL == e || e->state == E_QUEUED || e->state == E_RUNNING || (e->state == E_ANSWERED && e->expires > t))
            continue; /* someone else got there first (its info[] is freed below) */
        char *license = NULL, *body = NULL;
        if (types[j] == 'P' && NULL == (license = strndup(bodies[j], blens[j])))
            continue;
        if (types[j] == 'O' && NULL == (body = strndup(bodies[j], blens[j])))
            continue;
        free(e->license);
        e->license = license;
        free(e->info_dir);
        e->info_dir = info[j];
        info[j] = NULL;
        free(e->body);
        e->body = body;
        e->body_len = body ? blens[j] : 0;
        e->state = E_ANSWERED;
        e->expires = t + left[j];
        lru_push(L, e);
    }
    evict(L);
    pthread_mutex_unlock(&L->mu);
    for (size_t j = 0; j < nk; j++)
        free(info[j]);
}

/* Queue the m lookups urls[]/kinds[] for the request without waiting. */
static void prefetch(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char **urls, const int *kinds, size_t m)
{
    shared_fill(L, ctx, a, urls, kinds, m);
    int queued_any = 0;
    pthread_mutex_lock(&L->mu);
    svc_sched_req *q = ticket(L, ctx);
    for (size_t k = 0; k < m; k++) {
        int res;
        entry *e = want(L, q, urls[k], kinds[k], &res);
        if (e)
            e->refs--; /* nobody waits yet: the document's pass will (the claim keeps it) */
        queued_any |= res == W_WAIT;
    }
    pthread_mutex_unlock(&L->mu);
    if (queued_any)
        curl_multi_wakeup(L->multi);
}

void svc_lookup_prefetch(void *cls, const sb_lock_platform *plat, const char *package_cache, sb_arena *a)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx ? ctx->engine : NULL;
    if (NULL == L || !L->licenses || NULL == plat || 0 == plat->npkgs)
        return;
    const char **urls = sb_arena_alloc(a, plat->npkgs * sizeof *urls);
    int *kinds = sb_arena_alloc(a, plat->npkgs * sizeof *kinds);
    if (!urls || !kinds)
        return; /* only an optimization: the documents' own passes still look up */
    size_t m = 0;
    for (size_t i = 0; i < plat->npkgs; i++) {
        sb_pkg p = *plat->pkgs[i]; /* a copy: the package cache may fill it, as the selection will */
        int found = 0;
        if (package_cache && p.kind == SB_KIND_CONDA && sb_enrich_from_cache(&p, a, package_cache, &found) != SB_OK)
            return;
        const char *u;
        int kind = wanted(&p, a, L, &u);
        if (kind < 0 || NULL == u)
            continue;
        urls[m] = u;
        kinds[m++] = kind;
    }
    prefetch(L, ctx, a, urls, kinds, m);
}

void svc_lookup_prefetch_pkgs(void *cls, const sb_pkg *pkgs, size_t n, sb_arena *a)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx ? ctx->engine : NULL;
    if (NULL == L || 0 == n)
        return;
    const char **urls = sb_arena_alloc(a, n * sizeof *urls);
    int *kinds = sb_arena_alloc(a, n * sizeof *kinds);
    if (!urls || !kinds)
        return;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const char *u;
        int kind = wanted(&pkgs[i], a, L, &u);
        if (kind < 0 || NULL == u)
            continue;
        urls[m] = u;
        kinds[m++] = kind;
    }
    prefetch(L, ctx, a, urls, kinds, m);
}

/* Wait (lock held) until none of es[] is queued or running, the deadline
 * passes or the client goes. 1 when something is still pending. */
static int await(svc_lookup *L, svc_lookup_ctx *ctx, entry *const *es, size_t m)
{
    for (;;) {
        size_t pending = 0;
        for (size_t k = 0; k < m; k++)
            pending += es[k] && (es[k]->state == E_QUEUED || es[k]->state == E_RUNNING);
        if (0 == pending)
            return 0;
        if (ctx->gone && ctx->gone(ctx->gone_cls))
            return 1;
        /* wake now and then to look at the client, never past the deadline */
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_nsec += GONE_CHECK_NS;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        int last = t.tv_sec > ctx->deadline.tv_sec || (t.tv_sec == ctx->deadline.tv_sec && t.tv_nsec >= ctx->deadline.tv_nsec);
        if (pthread_cond_timedwait(&L->answered, &L->mu, last ? &ctx->deadline : &t) == ETIMEDOUT && last)
            return 1;
    }
}

sb_code svc_lookup_fill(void *cls, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx->engine && ctx->engine->licenses ? ctx->engine : NULL; /* running for OSV only */
    size_t *idx = sb_arena_alloc(a, (n ? n : 1) * sizeof *idx);
    const char **urls = sb_arena_alloc(a, (n ? n : 1) * sizeof *urls);
    const char **dirs = sb_arena_calloc(a, n ? n : 1, sizeof *dirs);
    int *kinds = sb_arena_alloc(a, (n ? n : 1) * sizeof *kinds);
    int *results = sb_arena_calloc(a, n ? n : 1, sizeof *results);
    entry **es = sb_arena_calloc(a, n ? n : 1, sizeof *es);
    if (!idx || !urls || !dirs || !kinds || !results || !es)
        return SB_ENOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const sb_pkg *p = &pkgs[i];
        const char *u;
        int kind = wanted(p, a, L, &u);
        if (kind < 0)
            continue;
        idx[m] = i;
        kinds[m] = kind;
        urls[m] = u;
        m++;
    }
    st->asked = m;
    if (0 == m)
        return SB_OK;
    if (NULL == L) {
        st->offline = m;
        for (size_t k = 0; k < m; k++)
            pkgs[idx[k]].lookup = SB_LOOKUP_NOT_MADE;
        return SB_OK;
    }
    shared_fill(L, ctx, a, urls, kinds, m);
    size_t hits = 0, misses = 0, queued_any = 0;
    pthread_mutex_lock(&L->mu);
    svc_sched_req *q = ticket(L, ctx);
    for (size_t k = 0; k < m; k++) {
        results[k] = W_FAILED; /* no usable URL for this name/version */
        if (NULL == urls[k])
            continue;
        es[k] = want(L, q, urls[k], kinds[k], &results[k]);
        hits += results[k] == W_HIT;
        misses += results[k] == W_WAIT;
        queued_any |= (size_t)(results[k] == W_WAIT);
    }
    pthread_mutex_unlock(&L->mu);
    atomic_fetch_add(&L->m->lookup_hits, hits);
    atomic_fetch_add(&L->m->lookup_misses, misses);
    if (queued_any)
        curl_multi_wakeup(L->multi);
    pthread_mutex_lock(&L->mu);
    int gave_up = await(L, ctx, es, m);
    if (gave_up && q) {
        /* the deadline is the request's, for every document: nothing it still
         * waits for will be read, so none of it is fetched any more */
        svc_sched_cancel(&L->sched, q, orphaned, L);
    }
    sb_code rc = SB_OK;
    for (size_t k = 0; k < m; k++) {
        entry *e = es[k];
        if (NULL == e) {
            st->capped += results[k] == W_CAPPED;
            st->failed += results[k] != W_CAPPED;
            pkgs[idx[k]].lookup = SB_LOOKUP_FAILED;
            continue;
        }
        pkgs[idx[k]].lookup = e->state == E_ANSWERED ? SB_LOOKUP_FILLED : SB_LOOKUP_FAILED;
        if (e->state == E_ANSWERED) {
            if (e->kind == K_PYPI && e->license && rc == SB_OK) {
                rc = sb_enrich_set_license(&pkgs[idx[k]], a, e->license, "pypi");
                st->filled += rc == SB_OK;
            } else if (e->kind != K_PYPI && e->info_dir && rc == SB_OK) {
                /* the entry may be evicted once released: keep the path */
                dirs[k] = sb_arena_strdup(a, e->info_dir);
                rc = dirs[k] ? SB_OK : SB_ENOMEM;
            }
        } else {
            st->failed++; /* failed, or still running at the deadline */
        }
        e->refs--;
    }
    evict(L);
    pthread_mutex_unlock(&L->mu);
    if (gave_up)
        curl_multi_wakeup(L->multi); /* abort what no one claims now */
    /* the stored archives are read like a package cache, outside the lock */
    for (size_t k = 0; k < m && rc == SB_OK; k++) {
        if (NULL == dirs[k])
            continue;
        int found = 0;
        sb_pkg *p = &pkgs[idx[k]];
        int had = p->license && p->license[0];
        rc = sb_enrich_from_info(p, a, dirs[k], "conda-archive", &found);
        st->filled += rc == SB_OK && !had && p->license;
    }
    return rc;
}

/* --- OSV (spec 6.9, 9.6) --------------------------------------------------- */

/* Fetch n OSV answers for one request through the same claims, queue and
 * cache as the license lookups: keys[i] names the cache entry, targets[i]
 * (NULL = the key) is fetched, posts[i] (NULL = GET) is POSTed. bodies[i]
 * is the answer copied into the arena, NULL when it failed, was capped or
 * missed the deadline; *capped counts the capped. */
static sb_code osv_fetch(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, int kind, size_t n, const char *const *keys,
                         const char *const *targets, const char *const *posts, const size_t *post_lens,
                         const char **bodies, size_t *lens, size_t *capped)
{
    entry **es = sb_arena_calloc(a, n ? n : 1, sizeof *es);
    int *res = sb_arena_calloc(a, n ? n : 1, sizeof *res);
    if (NULL == es || NULL == res)
        return SB_ENOMEM;
    int queued_any = 0, oom = 0;
    size_t hits = 0, misses = 0;
    int *kinds = sb_arena_alloc(a, (n ? n : 1) * sizeof *kinds);
    if (NULL == kinds)
        return SB_ENOMEM;
    for (size_t k = 0; k < n; k++)
        kinds[k] = kind >= 0 ? kind : posts[k] ? K_OSV_BATCH : K_OSV_VULN;
    shared_fill(L, ctx, a, keys, kinds, n);
    pthread_mutex_lock(&L->mu);
    svc_sched_req *q = ticket(L, ctx);
    for (size_t k = 0; k < n; k++) {
        es[k] = want(L, q, keys[k], kind >= 0 ? kind : posts[k] ? K_OSV_BATCH : K_OSV_VULN, &res[k]);
        entry *e = es[k];
        /* a new entry learns what to fetch before the engine can see it
         * (the lock is held from its creation until now) */
        if (e && targets[k] && NULL == e->target && NULL == (e->target = strdup(targets[k])))
            oom = 1;
        if (e && posts[k] && NULL == e->post) {
            if ((e->post = malloc(post_lens[k] + 1))) {
                memcpy(e->post, posts[k], post_lens[k] + 1);
                e->post_len = post_lens[k];
            } else {
                oom = 1;
            }
        }
        hits += res[k] == W_HIT;
        misses += res[k] == W_WAIT;
        queued_any |= res[k] == W_WAIT;
    }
    pthread_mutex_unlock(&L->mu);
    atomic_fetch_add(&L->m->lookup_hits, hits);
    atomic_fetch_add(&L->m->lookup_misses, misses);
    if (queued_any)
        curl_multi_wakeup(L->multi);
    pthread_mutex_lock(&L->mu);
    int gave_up = await(L, ctx, es, n);
    if (gave_up && q)
        svc_sched_cancel(&L->sched, q, orphaned, L);
    for (size_t k = 0; k < n; k++) {
        entry *e = es[k];
        bodies[k] = NULL;
        lens[k] = 0;
        if (NULL == e) {
            *capped += res[k] == W_CAPPED;
            continue;
        }
        if (e->state == E_ANSWERED && e->body && !oom) {
            /* the entry may be evicted once released: keep a copy */
            if (NULL == (bodies[k] = sb_arena_strndup(a, e->body, e->body_len)))
                oom = 1;
            lens[k] = e->body_len;
        }
        e->refs--;
    }
    evict(L);
    pthread_mutex_unlock(&L->mu);
    if (gave_up)
        curl_multi_wakeup(L->multi);
    return oom ? SB_ENOMEM : SB_OK;
}

/* An advisory id as one path segment: only [A-Za-z0-9._-] pass unencoded,
 * so an id OSV (or a fake of it) answers cannot leave /v1/vulns/. */
static const char *id_segment(sb_arena *a, const char *id)
{
    size_t n = strlen(id);
    char *o = sb_arena_alloc(a, 3 * n + 1);
    if (NULL == o)
        return NULL;
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' ||
            *p == '_' || *p == '-')
            o[k++] = (char)*p;
        else
            k += (size_t)sprintf(o + k, "%%%02X", *p);
    }
    o[k] = '\0';
    return o;
}

static const char *sha1_hex(sb_arena *a, const char *p, size_t n)
{
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, p, n);
    sb_sha1_final(&c, d);
    char *o = sb_arena_alloc(a, 41);
    for (int i = 0; o && i < 20; i++)
        snprintf(o + 2 * i, 3, "%02x", d[i]);
    return o;
}

/* --- KEV and EPSS (spec 6.6, 9.6) ------------------------------------------ */

#define EXPLOIT_FILE_MAX (64u << 20) /* the KEV catalog is about 1.5 MB */

/* A local catalog or answer (--kev-file / --epss-file) into the arena: the
 * file is read by every request that asks, so replacing it refreshes it. */
static const char *read_local(sb_arena *a, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (NULL == f)
        return NULL;
    sb_buf b = SB_BUF_INIT(EXPLOIT_FILE_MAX);
    char chunk[65536];
    size_t n;
    int bad = 0;
    while (!bad && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        bad = sb_buf_append(&b, chunk, n) != SB_OK;
    bad |= ferror(f);
    fclose(f);
    const char *out = bad ? NULL : sb_arena_strndup(a, b.data ? b.data : "", b.len);
    *len = b.len;
    sb_buf_free(&b);
    return out;
}

/* Mark the findings the KEV catalog lists; a catalog that cannot be had is
 * pixi:incomplete step kev (the findings stay, unmarked). */
static sb_code lookup_kev(svc_lookup *L, svc_lookup_ctx *ctx, sb_sbom *s, sb_arena *a)
{
    const char *body = NULL;
    size_t len = 0, capped = 0, marked;
    const char *from = L->kev_file[0] ? L->kev_file : L->kev_url;
    if (L->kev_file[0]) {
        body = read_local(a, L->kev_file, &len);
    } else {
        const char *key = L->kev_url, *none = NULL;
        size_t zero = 0;
        sb_code rc = osv_fetch(L, ctx, a, K_KEV, 1, &key, &none, &none, &zero, &body, &len, &capped);
        if (rc != SB_OK)
            return rc;
    }
    if (NULL == body)
        return sb_incomplete_add(&s->incomplete, a, "kev", "catalog not read from %s (%s)", from,
                                 capped ? "past the per-request lookup limit" : "failed or timed out");
    sb_code rc = sb_kev_apply(s, a, body, len, &marked);
    if (rc == SB_EPARSE)
        return sb_incomplete_add(&s->incomplete, a, "kev", "%s is not a KEV catalog", from);
    return rc;
}

/* EPSS scores for the findings' CVEs, SB_EPSS_CHUNK per request; unscored
 * CVEs of failed requests are pixi:incomplete step epss. */
static sb_code lookup_epss(svc_lookup *L, svc_lookup_ctx *ctx, sb_sbom *s, sb_arena *a)
{
    sb_strv cves;
    size_t scored;
    if (sb_vuln_cves(s, a, &cves) != SB_OK)
        return SB_ENOMEM;
    if (0 == cves.n)
        return SB_OK; /* GHSA-only findings: nothing EPSS scores */
    if (L->epss_file[0]) {
        size_t len = 0;
        const char *body = read_local(a, L->epss_file, &len);
        sb_code rc = body ? sb_epss_apply(s, a, body, len, &scored) : SB_EPARSE;
        if (rc == SB_EPARSE)
            return sb_incomplete_add(&s->incomplete, a, "epss", "%s could not be read as an EPSS answer", L->epss_file);
        return rc;
    }
    size_t nch = (cves.n + SB_EPSS_CHUNK - 1) / SB_EPSS_CHUNK;
    const char **keys = sb_arena_alloc(a, nch * sizeof *keys), **none = sb_arena_calloc(a, nch, sizeof *none);
    const char **bodies = sb_arena_alloc(a, nch * sizeof *bodies);
    size_t *zero = sb_arena_calloc(a, nch, sizeof *zero), *lens = sb_arena_alloc(a, nch * sizeof *lens), capped = 0;
    if (!keys || !none || !bodies || !zero || !lens)
        return SB_ENOMEM;
    for (size_t c = 0; c < nch; c++) {
        size_t off = c * SB_EPSS_CHUNK, m = cves.n - off < SB_EPSS_CHUNK ? cves.n - off : SB_EPSS_CHUNK;
        const char *qs = sb_epss_query(a, cves.v + off, m);
        keys[c] = qs ? sb_arena_printf(a, "%s%s%s", L->epss_url, strchr(L->epss_url, '?') ? "&" : "?", qs) : NULL;
        if (NULL == keys[c])
            return SB_ENOMEM;
    }
    sb_code rc = osv_fetch(L, ctx, a, K_EPSS, nch, keys, none, none, zero, bodies, lens, &capped);
    size_t unasked = 0;
    for (size_t c = 0; c < nch && rc == SB_OK; c++) {
        size_t m = cves.n - c * SB_EPSS_CHUNK < SB_EPSS_CHUNK ? cves.n - c * SB_EPSS_CHUNK : SB_EPSS_CHUNK;
        sb_code pr = bodies[c] ? sb_epss_apply(s, a, bodies[c], lens[c], &scored) : SB_EPARSE;
        if (pr == SB_EPARSE)
            unasked += m;
        else if (pr != SB_OK)
            rc = pr;
    }
    if (rc == SB_OK && unasked)
        rc = sb_incomplete_add(&s->incomplete, a, "epss", "%zu of %zu CVEs unscored (query failed%s)", unasked,
                               (size_t)cves.n, capped ? " or past the per-request lookup limit" : "");
    return rc;
}

sb_code svc_lookup_vulns(void *cls, sb_sbom *s, sb_arena *a)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->vulns ? ctx->engine : NULL;
    s->vulns_asked = true;
    sb_vuln_query *q = NULL;
    size_t nq = 0;
    if (sb_vuln_queries(s, a, &q, &nq) != SB_OK)
        return SB_ENOMEM;
    if (0 == nq)
        return sb_incomplete_add(&s->incomplete, a, "osv", "nothing queryable (no PyPI or npm purl with a version)");
    if (NULL == L)
        return sb_incomplete_add(&s->incomplete, a, "osv", "%zu of %zu purls unasked (this server makes no vulnerability lookups)",
                                 nq, nq);
    /* 1: querybatch in chunks */
    size_t nch = (nq + OSV_CHUNK - 1) / OSV_CHUNK;
    const char **keys = sb_arena_alloc(a, nch * sizeof *keys), **targets = sb_arena_alloc(a, nch * sizeof *targets);
    const char **posts = sb_arena_alloc(a, nch * sizeof *posts), **bodies = sb_arena_alloc(a, nch * sizeof *bodies);
    size_t *plens = sb_arena_alloc(a, nch * sizeof *plens), *blens = sb_arena_alloc(a, nch * sizeof *blens);
    sb_strv *hits = sb_arena_calloc(a, nq, sizeof *hits);
    const char *batch_url = sb_arena_printf(a, "%s/v1/querybatch", L->osv_base);
    if (!keys || !targets || !posts || !bodies || !plens || !blens || !hits || !batch_url)
        return SB_ENOMEM;
    for (size_t c = 0; c < nch; c++) {
        size_t off = c * OSV_CHUNK, m = nq - off < OSV_CHUNK ? nq - off : OSV_CHUNK;
        if (sb_osv_batch_body(a, q + off, m, &posts[c], &plens[c]) != SB_OK)
            return SB_ENOMEM;
        /* the cache key is the question: the same purls asked again within --osv-ttl reuse the answer */
        const char *h = sha1_hex(a, posts[c], plens[c]);
        keys[c] = h ? sb_arena_printf(a, "%s#%s", batch_url, h) : NULL;
        targets[c] = batch_url;
        if (NULL == keys[c])
            return SB_ENOMEM;
    }
    size_t capped = 0;
    sb_code rc = osv_fetch(L, ctx, a, K_OSV_BATCH, nch, keys, targets, posts, plens, bodies, blens, &capped);
    if (rc != SB_OK)
        return rc;
    size_t unasked = 0;
    for (size_t c = 0; c < nch; c++) {
        size_t off = c * OSV_CHUNK, m = nq - off < OSV_CHUNK ? nq - off : OSV_CHUNK;
        if (NULL == bodies[c] || sb_osv_batch_parse(a, bodies[c], blens[c], m, hits + off) != SB_OK)
            unasked += m;
    }
    if (unasked && (rc = sb_incomplete_add(&s->incomplete, a, "osv", "%zu of %zu purls unasked (query failed%s)", unasked,
                                           nq, capped ? " or past the per-request lookup limit" : "")) != SB_OK)
        return rc;
    /* 2: each distinct advisory's record */
    sb_strv ids = {0};
    for (size_t i = 0; i < nq; i++)
        for (size_t k = 0; k < hits[i].n; k++) {
            int seen = 0;
            for (size_t j = 0; j < ids.n && !seen; j++)
                seen = !strcmp(ids.v[j], hits[i].v[k]);
            if (!seen && sb_strv_push(&ids, a, hits[i].v[k]) != SB_OK)
                return SB_ENOMEM;
        }
    if (0 == ids.n)
        return SB_OK;
    const char **rkeys = sb_arena_alloc(a, ids.n * sizeof *rkeys), **rnull = sb_arena_calloc(a, ids.n, sizeof *rnull);
    const char **rbodies = sb_arena_alloc(a, ids.n * sizeof *rbodies);
    size_t *rlens = sb_arena_alloc(a, ids.n * sizeof *rlens), *rplens = sb_arena_calloc(a, ids.n, sizeof *rplens);
    sb_vuln *recs = sb_arena_calloc(a, ids.n, sizeof *recs);
    if (!rkeys || !rnull || !rbodies || !rlens || !rplens || !recs)
        return SB_ENOMEM;
    for (size_t j = 0; j < ids.n; j++) {
        const char *seg = id_segment(a, ids.v[j]);
        if (NULL == seg || NULL == (rkeys[j] = sb_arena_printf(a, "%s/v1/vulns/%s", L->osv_base, seg)))
            return SB_ENOMEM;
    }
    capped = 0;
    if ((rc = osv_fetch(L, ctx, a, K_OSV_VULN, ids.n, rkeys, rnull, rnull, rplens, rbodies, rlens, &capped)) != SB_OK)
        return rc;
    size_t byid = 0;
    for (size_t j = 0; j < ids.n; j++) {
        if (rbodies[j] && sb_osv_record_parse(a, rbodies[j], rlens[j], &recs[j]) == SB_OK &&
            !strcmp(recs[j].id, ids.v[j]))
            continue;
        /* no record: the finding is still listed, by its id alone */
        memset(&recs[j], 0, sizeof recs[j]);
        recs[j].id = ids.v[j];
        byid++;
    }
    if (byid && (rc = sb_incomplete_add(&s->incomplete, a, "osv", "%zu of %zu advisory records not fetched (listed by id only)",
                                        byid, (size_t)ids.n)) != SB_OK)
        return rc;
    if ((rc = sb_vuln_attach(s, a, q, hits, nq, recs, ids.n)) != SB_OK)
        return rc;
    if (ctx->kev && s->nvulns && (rc = lookup_kev(L, ctx, s, a)) != SB_OK)
        return rc;
    if (ctx->epss && s->nvulns && (rc = lookup_epss(L, ctx, s, a)) != SB_OK)
        return rc;
    size_t applied;
    if (ctx->vex && (rc = sb_vex_apply(s, a, ctx->vex, &applied)) != SB_OK)
        return rc;
    return SB_OK;
}

/* --- PyPI project pages (issue 29 part 3: yanked, outdated) ---------------- */

sb_code svc_lookup_pypi_projects(void *cls, sb_arena *a, size_t n, const char *const *names, const char **digests,
                                 size_t *capped, int *offline)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->licenses ? ctx->engine : NULL;
    *capped = 0;
    *offline = NULL == L;
    for (size_t i = 0; i < n; i++)
        digests[i] = NULL;
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys), **none = sb_arena_calloc(a, n, sizeof *none);
    size_t *lens = sb_arena_alloc(a, n * sizeof *lens), *plens = sb_arena_calloc(a, n, sizeof *plens);
    if (!keys || !none || !lens || !plens)
        return SB_ENOMEM;
    /* a name no URL can carry is not asked: it stays unanswered */
    size_t *at = sb_arena_alloc(a, n * sizeof *at), m = 0;
    if (NULL == at)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const char *name = sb_model_pep503(a, names[i]);
        if (NULL == name)
            return SB_ENOMEM;
        if ((keys[m] = sb_index_url(a, L->base, &name, 1, "/json")))
            at[m++] = i;
    }
    const char **got = sb_arena_alloc(a, (m ? m : 1) * sizeof *got);
    if (NULL == got)
        return SB_ENOMEM;
    sb_code rc = osv_fetch(L, ctx, a, K_PROJECT, m, keys, none, none, plens, got, lens, capped);
    for (size_t k = 0; rc == SB_OK && k < m; k++)
        digests[at[k]] = got[k];
    return rc;
}

/* --- OpenSSF Scorecard (issue 29 part 3; the mapping is lookup_scorecard.c) -- */

sb_code svc_lookup_scorecards(void *cls, sb_arena *a, size_t n, const char *const *repos, const char **digests,
                              size_t *capped, int *offline)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->licenses ? ctx->engine : NULL;
    *capped = 0;
    *offline = NULL == L;
    for (size_t i = 0; i < n; i++)
        digests[i] = NULL;
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys), **none = sb_arena_calloc(a, n, sizeof *none);
    size_t *lens = sb_arena_alloc(a, n * sizeof *lens), *plens = sb_arena_calloc(a, n, sizeof *plens);
    if (!keys || !none || !lens || !plens)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) /* repos[i] is checked (sb_scorecard_repo): two safe segments */
        if (NULL == (keys[i] = sb_scorecard_url(a, L->scorecard_base, repos[i])))
            return SB_ENOMEM;
    return osv_fetch(L, ctx, a, K_SCORECARD, n, keys, none, none, plens, digests, lens, capped);
}

/* --- conda channel indexes (the outdated report; mapping in lookup_health.c) */

sb_code svc_lookup_channel_indexes(void *cls, sb_arena *a, size_t n, const char *const *channels,
                                   const char *const *subdirs, const char **digests, size_t *capped, int *offline)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->licenses && ctx->engine->channel_tmpl[0] ? ctx->engine : NULL;
    *capped = 0;
    *offline = NULL == L;
    for (size_t i = 0; i < n; i++)
        digests[i] = NULL;
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys), **none = sb_arena_calloc(a, n, sizeof *none);
    const char **got = sb_arena_alloc(a, n * sizeof *got);
    size_t *lens = sb_arena_alloc(a, n * sizeof *lens), *plens = sb_arena_calloc(a, n, sizeof *plens), *at = sb_arena_alloc(a, n * sizeof *at);
    if (!keys || !none || !got || !lens || !plens || !at)
        return SB_ENOMEM;
    size_t m = 0; /* a channel or subdir no URL can carry is not asked */
    for (size_t i = 0; i < n; i++)
        if ((keys[m] = sb_health_channel_url(a, L->channel_tmpl, channels[i], subdirs[i])))
            at[m++] = i;
    sb_code rc = osv_fetch(L, ctx, a, K_CHANNEL, m, keys, none, none, plens, got, lens, capped);
    for (size_t k = 0; rc == SB_OK && k < m; k++)
        digests[at[k]] = got[k];
    return rc;
}
