/*
 * lookup.c - the shared lookup engine (see lookup.h).
 *
 * DESIGN: entries keyed by URL in a chained hash table under one mutex.
 * Requesting threads enqueue missing or expired entries, wake the engine
 * (curl_multi_wakeup) and wait on a condition variable until their entries
 * are answered or their deadline passes. The engine thread moves queued
 * entries onto transfers while fewer than `concurrency` run, and on
 * completion parses the body (outside the lock), stores the answer and
 * broadcasts. A waiter that gives up leaves the transfer running: the next
 * request for the release gets the answer from the cache.
 */
#include "lookup.h"
#include "log.h"
#include "../core/buf.h"
#include "../core/enrich.h"
#include "../core/pypi.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BODY (8u << 20) /* spec 9.4: response cap */

enum { E_QUEUED, E_RUNNING, E_ANSWERED, E_FAILED };

typedef struct entry {
    char *url;
    int state;
    char *license;            /* answered: the license, or NULL (none / no such release) */
    double expires;           /* monotonic seconds */
    unsigned refs;            /* waiters holding it: never evicted while > 0 */
    struct entry *hnext, *qnext, *older, *newer;
    int in_lru;
} entry;

typedef struct xfer {
    entry *e;
    CURL *h;
    sb_buf body;
    int too_big;
    double started;
    struct xfer *prev, *next; /* the running transfers (engine thread only) */
} xfer;

struct svc_lookup {
    pthread_mutex_t mu;
    pthread_cond_t answered;
    entry **buckets;
    size_t nbuckets, count, max_entries;
    entry *qhead, *qtail;
    entry *lru_old, *lru_new;
    CURLM *multi;
    pthread_t thread;
    int stop;
    long concurrency, timeout_ms;
    double ttl, neg_ttl;
    size_t active;
    xfer *running;
    svc_metrics *m;
    char base[512];
};

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

static void drop(svc_lookup *L, entry *e)
{
    entry **pp = &L->buckets[hash(e->url) % L->nbuckets];
    while (*pp && *pp != e)
        pp = &(*pp)->hnext;
    if (*pp)
        *pp = e->hnext;
    lru_unlink(L, e);
    free(e->url);
    free(e->license);
    free(e);
    L->count--;
}

/* Keep the cache within its bound: the least recently answered entries go
 * first, never one a request still waits on. */
static void evict(svc_lookup *L)
{
    entry *e = L->lru_old;
    while (L->count > L->max_entries && e) {
        entry *next = e->newer;
        if (0 == e->refs && (e->state == E_ANSWERED || e->state == E_FAILED))
            drop(L, e);
        e = next;
    }
}

static size_t on_body(char *p, size_t size, size_t n, void *cls)
{
    xfer *x = cls;
    size_t k = size * n;
    if (x->body.len + k > MAX_BODY) {
        x->too_big = 1;
        return 0; /* aborts the transfer */
    }
    return sb_buf_append(&x->body, p, k) == SB_OK ? k : 0;
}

static int start_xfer(svc_lookup *L, entry *e)
{
    xfer *x = calloc(1, sizeof *x);
    CURL *h = curl_easy_init();
    if (!x || !h) {
        free(x);
        curl_easy_cleanup(h);
        return -1;
    }
    sb_buf_init(&x->body, MAX_BODY);
    x->e = e;
    x->h = h;
    x->started = now_s();
    curl_easy_setopt(h, CURLOPT_URL, e->url);
    curl_easy_setopt(h, CURLOPT_PRIVATE, x);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, L->timeout_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, L->timeout_ms);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_USERAGENT, "sbomd");
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    if (curl_multi_add_handle(L->multi, h) != CURLM_OK) {
        sb_buf_free(&x->body);
        curl_easy_cleanup(h);
        free(x);
        return -1;
    }
    x->next = L->running;
    if (L->running)
        L->running->prev = x;
    L->running = x;
    return 0;
}

static void finish(svc_lookup *L, CURLMsg *msg)
{
    xfer *x = NULL;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
    long status = 0;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
    int ok = msg->data.result == CURLE_OK && (status == 200 || status == 404);
    char *license = NULL;
    if (ok && status == 200) {
        sb_arena *a = sb_arena_new(0);
        const char *lic = NULL;
        if (a && sb_pypi_license(a, x->body.data ? x->body.data : "", x->body.len, &lic) == SB_OK) {
            license = lic ? strdup(lic) : NULL;
        } else {
            ok = 0; /* an answer that is not a release document */
        }
        sb_arena_destroy(a);
    }
    double spent = now_s() - x->started;
    if (x->prev)
        x->prev->next = x->next;
    else
        L->running = x->next;
    if (x->next)
        x->next->prev = x->prev;
    curl_multi_remove_handle(L->multi, x->h);
    curl_easy_cleanup(x->h);
    sb_buf_free(&x->body);
    pthread_mutex_lock(&L->mu);
    entry *e = x->e;
    e->state = ok ? E_ANSWERED : E_FAILED;
    free(e->license);
    e->license = license;
    e->expires = now_s() + (ok ? (status == 200 ? L->ttl : L->neg_ttl) : 0.0);
    L->active--;
    lru_push(L, e);
    evict(L);
    pthread_cond_broadcast(&L->answered);
    pthread_mutex_unlock(&L->mu);
    atomic_fetch_add(&L->m->lookups, 1);
    atomic_fetch_add(&L->m->lookup_us, (unsigned long long)(spent * 1e6));
    if (!ok)
        atomic_fetch_add(&L->m->lookup_failures, 1);
    free(x);
}

static void *engine(void *cls)
{
    svc_lookup *L = cls;
    for (;;) {
        pthread_mutex_lock(&L->mu);
        int stop = L->stop;
        while (!stop && L->active < (size_t)L->concurrency && L->qhead) {
            entry *e = L->qhead;
            L->qhead = e->qnext;
            if (NULL == L->qhead)
                L->qtail = NULL;
            e->qnext = NULL;
            e->state = E_RUNNING;
            if (start_xfer(L, e) == 0) {
                L->active++;
            } else {
                e->state = E_FAILED;
                e->expires = 0;
                pthread_cond_broadcast(&L->answered);
            }
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
    L->timeout_ms = cfg->lookup_timeout * 1000;
    L->ttl = (double)cfg->lookup_ttl;
    L->neg_ttl = (double)cfg->lookup_negative_ttl;
    L->m = m;
    snprintf(L->base, sizeof L->base, "%s", cfg->pypi_url);
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
    /* abandon what still runs */
    for (xfer *x = L->running, *next; x; x = next) {
        next = x->next;
        curl_multi_remove_handle(L->multi, x->h);
        curl_easy_cleanup(x->h);
        sb_buf_free(&x->body);
        free(x);
    }
    curl_multi_cleanup(L->multi);
    for (size_t i = 0; i < L->nbuckets; i++)
        for (entry *e = L->buckets[i], *next; e; e = next) {
            next = e->hnext;
            free(e->url);
            free(e->license);
            free(e);
        }
    free(L->buckets);
    pthread_cond_destroy(&L->answered);
    pthread_mutex_destroy(&L->mu);
    free(L);
}

/* The entry for url, queued for a transfer unless a fresh answer or a
 * running transfer already covers it. Called with the lock held. */
static entry *want(svc_lookup *L, const char *url, int *queued, int *hit)
{
    entry *e = find(L, url);
    double t = now_s();
    if (e && (e->state == E_QUEUED || e->state == E_RUNNING)) {
        *hit = 1; /* single flight: wait for the transfer in progress */
    } else if (e && e->expires > t) {
        *hit = 1;
    } else {
        if (NULL == e) {
            e = calloc(1, sizeof *e);
            if (e)
                e->url = strdup(url);
            if (!e || !e->url) {
                free(e);
                return NULL;
            }
            size_t b = hash(url) % L->nbuckets;
            e->hnext = L->buckets[b];
            L->buckets[b] = e;
            L->count++;
        }
        e->state = E_QUEUED;
        if (L->qtail)
            L->qtail->qnext = e;
        else
            L->qhead = e;
        L->qtail = e;
        *queued = 1;
    }
    e->refs++;
    return e;
}

sb_code svc_lookup_fill(void *cls, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st)
{
    svc_lookup_ctx *ctx = cls;
    size_t *idx = sb_arena_alloc(a, (n ? n : 1) * sizeof *idx);
    const char **urls = sb_arena_alloc(a, (n ? n : 1) * sizeof *urls);
    entry **es = sb_arena_calloc(a, n ? n : 1, sizeof *es);
    if (!idx || !urls || !es)
        return SB_ENOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const sb_pkg *p = &pkgs[i];
        if (p->kind != SB_KIND_PYPI || (p->license && p->license[0]) || NULL == p->version)
            continue;
        idx[m] = i;
        urls[m] = ctx->engine ? sb_pypi_url(a, ctx->engine->base, p->name, p->version) : NULL;
        m++;
    }
    st->asked = m;
    if (0 == m)
        return SB_OK;
    svc_lookup *L = ctx->engine;
    if (NULL == L) {
        st->offline = m;
        return SB_OK;
    }
    size_t hits = 0, queued_any = 0;
    pthread_mutex_lock(&L->mu);
    for (size_t k = 0; k < m; k++) {
        if (NULL == urls[k])
            continue;
        int queued = 0, hit = 0;
        es[k] = want(L, urls[k], &queued, &hit);
        hits += hit;
        queued_any |= (size_t)queued;
    }
    pthread_mutex_unlock(&L->mu);
    atomic_fetch_add(&L->m->lookup_hits, hits);
    if (queued_any)
        curl_multi_wakeup(L->multi);
    pthread_mutex_lock(&L->mu);
    for (;;) {
        size_t pending = 0;
        for (size_t k = 0; k < m; k++)
            pending += es[k] && (es[k]->state == E_QUEUED || es[k]->state == E_RUNNING);
        if (0 == pending)
            break;
        if (pthread_cond_timedwait(&L->answered, &L->mu, &ctx->deadline) == ETIMEDOUT)
            break;
    }
    sb_code rc = SB_OK;
    for (size_t k = 0; k < m; k++) {
        entry *e = es[k];
        if (NULL == e) {
            st->failed++; /* no usable URL for this name/version */
            continue;
        }
        if (e->state == E_ANSWERED) {
            if (e->license && rc == SB_OK) {
                rc = sb_enrich_set_license(&pkgs[idx[k]], a, e->license, "pypi");
                st->filled += rc == SB_OK;
            }
        } else {
            st->failed++; /* failed, or still running at the deadline */
        }
        e->refs--;
    }
    evict(L);
    pthread_mutex_unlock(&L->mu);
    return rc;
}
