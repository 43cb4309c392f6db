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
 * the lock, before claiming anything (svc_lk_shared_fill), and each answer a
 * transfer brings is queued for it (svc_lk_shared_put). Its values are
 * "sbl1 <type> <expiry, Unix seconds> <method>\n" then the answer: P a PyPI
 * license, p a release naming none (or none such), C a conda archive's info
 * member as fetched (compressed by <method>), c an archive without one (also
 * queued, and never read, for a missing PyPI project or an unscored
 * repository), O an OSV, KEV or EPSS answer. Redis down or slow is a miss
 * and a Warning, never a failure.
 *
 * The engine is split by responsibility (lookup_int.h holds what they share):
 * this file the request side of the queue (claims, waiting, the end of a
 * request, the fetch of answers kept as bodies that OSV, KEV, EPSS,
 * projects, scorecards and channel indexes use); lookup_http.c
 * svc_lookup_start/stop, the engine thread and its curl transfers, judging
 * each finished one by its kind's descriptor; lookup_kinds.c the table of
 * descriptors by kind; lookup_cache.c the in-memory entries, the disk tier
 * and the shared (Redis) tier; the clients, each defining the descriptors
 * of its kinds: lookup_licenses.c PyPI licenses and conda archives,
 * lookup_vulns.c OSV, KEV and EPSS, lookup_projects.c PyPI project pages,
 * scorecards and channel indexes. The clients call down into this file and
 * the cache; the engine reaches them only through the table, so no file
 * calls back up into one that calls it.
 */
#include "lookup_int.h"
#include "../../core/deadline.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GONE_CHECK_NS 100000000L /* how often a waiting request looks at its client */

/* The request's queue, opened on its first want (lock held); NULL when out
 * of memory. */
svc_sched_req *svc_lk_ticket(svc_lookup *L, svc_lookup_ctx *ctx)
{
    if (NULL == ctx->ticket)
        ctx->ticket = svc_sched_open(&L->sched, L->per_request);
    return ctx->ticket;
}

/* The entry for url, claimed for request q and queued for a transfer
 * unless a fresh answer (memory or disk) or a running transfer covers it;
 * *res says which (W_*). Pinned (refs) when returned; NULL when capped or
 * failed. Called with the lock held. */
svc_lk_entry *svc_lk_want(svc_lookup *L, svc_sched_req *q, const char *url, int kind, int *res)
{
    svc_lk_entry *e = svc_lk_find(L, url);
    double t = now_s();
    if (e && e->state == E_ANSWERED && e->expires > t) {
        *res = W_HIT;
        e->refs++;
        return e;
    }
    if (NULL == e && NULL == (e = svc_lk_add_entry(L, url, kind))) {
        *res = W_FAILED;
        return NULL;
    }
    int busy = e->state == E_QUEUED || e->state == E_RUNNING;
    if (!busy && svc_lk_disk_answer(L, e)) {
        e->state = E_ANSWERED;
        e->expires = t + L->ttl;
        svc_lk_lru_push(L, e);
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
        svc_lk_lru_push(L, e); /* idle: evictable like a failure */
    *res = c == SVC_CLAIM_CAPPED ? W_CAPPED : W_FAILED;
    return NULL;
}

/* An entry whose last claim went (lookup_sched.h): out of the queue now;
 * a running one is aborted by the engine's next pass. Lock held. */
void svc_lk_orphaned(svc_sched_item *it, int was_waiting, void *cls)
{
    svc_lookup *L = cls;
    svc_lk_entry *e = entry_of(it);
    if (!was_waiting)
        return;
    e->state = E_FAILED;
    e->expires = 0;
    svc_lk_lru_push(L, e);
    atomic_fetch_add(&L->m->lookups_cancelled, 1);
}

void svc_lookup_end(void *cls)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx ? ctx->engine : NULL;
    if (NULL == L || NULL == ctx->ticket)
        return;
    pthread_mutex_lock(&L->mu);
    svc_sched_close(&L->sched, ctx->ticket, svc_lk_orphaned, L);
    ctx->ticket = NULL;
    svc_lk_evict(L);
    pthread_mutex_unlock(&L->mu);
    curl_multi_wakeup(L->multi);
}

/* Queue the m lookups urls[]/kinds[] for the request without waiting. */
void svc_lk_prefetch(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char **urls, const int *kinds, size_t m)
{
    svc_lk_shared_fill(L, ctx, a, urls, kinds, m);
    int queued_any = 0;
    pthread_mutex_lock(&L->mu);
    svc_sched_req *q = svc_lk_ticket(L, ctx);
    for (size_t k = 0; k < m; k++) {
        int res;
        svc_lk_entry *e = svc_lk_want(L, q, urls[k], kinds[k], &res);
        if (e)
            e->refs--; /* nobody waits yet: the document's pass will (the claim keeps it) */
        queued_any |= res == W_WAIT;
    }
    pthread_mutex_unlock(&L->mu);
    if (queued_any)
        curl_multi_wakeup(L->multi);
}

/* Wait (lock held) until none of es[] is queued or running, the deadline
 * passes or the client goes. 1 when something is still pending. */
int svc_lk_await(svc_lookup *L, svc_lookup_ctx *ctx, svc_lk_entry *const *es, size_t m)
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
        sb_deadline_after(CLOCK_MONOTONIC, GONE_CHECK_NS, &t);
        int last = t.tv_sec > ctx->deadline.tv_sec ||
                   (t.tv_sec == ctx->deadline.tv_sec && t.tv_nsec >= ctx->deadline.tv_nsec);
        if (pthread_cond_timedwait(&L->answered, &L->mu, last ? &ctx->deadline : &t) == ETIMEDOUT && last)
            return 1;
    }
}

/* --- OSV --------------------------------------------------- */

/* Fetch n OSV answers for one request through the same claims, queue and
 * cache as the license lookups: keys[i] names the cache entry, targets[i]
 * (NULL = the key) is fetched, posts[i] (NULL = GET) is POSTed. bodies[i]
 * is the answer copied into the arena, NULL when it failed, was capped or
 * missed the deadline; *capped counts the capped. */
sb_code svc_lk_fetch_bodies(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, int kind, size_t n,
                            const char *const *keys, const char *const *targets, const char *const *posts,
                            const size_t *post_lens, const char **bodies, size_t *lens, size_t *capped)
{
    svc_lk_entry **es = sb_arena_calloc(a, n ? n : 1, sizeof *es);
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
    svc_lk_shared_fill(L, ctx, a, keys, kinds, n);
    pthread_mutex_lock(&L->mu);
    svc_sched_req *q = svc_lk_ticket(L, ctx);
    for (size_t k = 0; k < n; k++) {
        es[k] = svc_lk_want(L, q, keys[k], kind >= 0 ? kind : posts[k] ? K_OSV_BATCH : K_OSV_VULN, &res[k]);
        svc_lk_entry *e = es[k];
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
    int gave_up = svc_lk_await(L, ctx, es, n);
    if (gave_up && q)
        svc_sched_cancel(&L->sched, q, svc_lk_orphaned, L);
    for (size_t k = 0; k < n; k++) {
        svc_lk_entry *e = es[k];
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
    svc_lk_evict(L);
    pthread_mutex_unlock(&L->mu);
    if (gave_up)
        curl_multi_wakeup(L->multi);
    return oom ? SB_ENOMEM : SB_OK;
}
