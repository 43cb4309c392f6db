/*
 * lookup_sched.c - per-request lookup queues, round-robin turns, claim
 * limits and cancellation (see lookup_sched.h).
 *
 * DESIGN: each request keeps its claims in an array plus an open-addressing
 * set (item -> claim index) so a repeated claim costs O(1), and its queue of
 * items to start as an array read from a head index. An item may sit in the
 * queues of several requests (each that needed it started); whichever turn
 * comes first starts it and the other copies are skipped as stale (waiting
 * cleared). Open requests form a ring; `turn` advances past the request just
 * served, so with two requests waiting each gets every other free slot.
 * A closed request that still owns running transfers leaves the ring and is
 * reachable only through its items' owner pointers: the svc_sched_done of
 * its last transfer frees it (the engine calls it for every transfer, even
 * those it abandons at stop).
 */
#include "lookup_sched.h"
#include "../../core/alloc.h"
#include "../../core/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct claim {
    svc_sched_item *it;
    int in_queue; /* in this request's queue and not yet popped */
} claim;

struct svc_sched_req {
    size_t limit;
    int cancelled, closed;
    size_t running; /* transfers started on its turn, still running */
    claim *claims;
    size_t nclaims, claims_cap;
    size_t *slots; /* claim index + 1; 0 = empty */
    size_t nslots; /* power of two, > 2 * nclaims */
    svc_sched_item **queue;
    size_t qhead, qlen, qcap;
    svc_sched_req *prev, *next; /* the ring, while open */
};

void svc_sched_init(svc_sched *s, size_t concurrency)
{
    memset(s, 0, sizeof *s);
    s->concurrency = concurrency ? concurrency : 1;
}

svc_sched_req *svc_sched_open(svc_sched *s, size_t limit)
{
    svc_sched_req *q = calloc(1, sizeof *q);
    if (NULL == q)
        return NULL;
    q->limit = limit;
    if (s->turn) { /* join the ring just before the next turn: served last in this round */
        q->next = s->turn;
        q->prev = s->turn->prev;
        q->prev->next = q;
        s->turn->prev = q;
    } else {
        q->next = q->prev = q;
        s->turn = q;
    }
    return q;
}

static size_t ptr_hash(const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return (size_t)h;
}

/* The claim index of `it` in q, or (size_t)-1. */
static size_t find_claim(const svc_sched_req *q, const svc_sched_item *it)
{
    if (0 == q->nslots)
        return (size_t)-1;
    for (size_t i = ptr_hash(it) & (q->nslots - 1);; i = (i + 1) & (q->nslots - 1)) {
        size_t k = q->slots[i];
        if (0 == k)
            return (size_t)-1;
        if (q->claims[k - 1].it == it)
            return k - 1;
    }
}

static void set_insert(svc_sched_req *q, size_t idx)
{
    size_t i = ptr_hash(q->claims[idx].it) & (q->nslots - 1);
    while (q->slots[i])
        i = (i + 1) & (q->nslots - 1);
    q->slots[i] = idx + 1;
}

/* Room for one more claim: the array grows by doubling, the set stays under half full. */
static int grow_claims(svc_sched_req *q)
{
    if (sb_vec_grow(&q->claims, &q->claims_cap, q->nclaims, sizeof *q->claims, 16) != SB_OK)
        return -1;
    if (2 * (q->nclaims + 1) < q->nslots)
        return 0;
    size_t ns = q->nslots ? q->nslots * 2 : 32;
    size_t *slots = calloc(ns, sizeof *slots);
    if (NULL == slots)
        return -1;
    free(q->slots);
    q->slots = slots;
    q->nslots = ns;
    for (size_t k = 0; k < q->nclaims; k++)
        set_insert(q, k);
    return 0;
}

static int push_queue(svc_sched_req *q, svc_sched_item *it)
{
    if (q->qhead > 0 && q->qhead == q->qlen)
        q->qhead = q->qlen = 0; /* drained: reuse from the start */
    if (sb_vec_grow(&q->queue, &q->qcap, q->qlen, sizeof *q->queue, 16) != SB_OK)
        return -1;
    q->queue[q->qlen++] = it;
    return 0;
}

svc_claim svc_sched_claim(svc_sched *s, svc_sched_req *q, svc_sched_item *it, int start)
{
    (void)s;
    if (q->cancelled)
        return SVC_CLAIM_CANCELLED;
    size_t k = find_claim(q, it);
    svc_claim res = SVC_CLAIM_HELD;
    if (k == (size_t)-1) {
        if (q->nclaims >= q->limit)
            return SVC_CLAIM_CAPPED;
        if (grow_claims(q) != 0)
            return SVC_CLAIM_ENOMEM;
        k = q->nclaims++;
        q->claims[k] = (claim){it, 0};
        set_insert(q, k);
        it->wanters++;
        res = SVC_CLAIM_NEW;
    }
    /* queued here unless it runs already or waits in this queue */
    if (start && NULL == it->owner && !q->claims[k].in_queue) {
        if (push_queue(q, it) != 0)
            return res == SVC_CLAIM_NEW ? SVC_CLAIM_HELD : res; /* claimed, left to another turn */
        q->claims[k].in_queue = 1;
        it->waiting = 1;
    }
    return res;
}

/* Pop stale heads (started on another request's turn, or orphaned). */
static void trim(svc_sched_req *q)
{
    while (q->qhead < q->qlen && !q->queue[q->qhead]->waiting) {
        size_t k = find_claim(q, q->queue[q->qhead]);
        if (k != (size_t)-1)
            q->claims[k].in_queue = 0;
        q->qhead++;
    }
}

size_t svc_sched_share(size_t concurrency, size_t busy)
{
    if (0 == busy)
        busy = 1;
    size_t share = (concurrency + busy - 1) / busy;
    if (concurrency > 1 && share > concurrency - 1)
        share = concurrency - 1; /* one slot stays free for a request that comes next */
    return share ? share : 1;
}

svc_sched_item *svc_sched_next(svc_sched *s)
{
    svc_sched_req *q = s->turn;
    if (NULL == q)
        return NULL;
    /* the slots are shared among the requests with something to start: one
     * that only waits on its running transfers needs no more */
    size_t busy = 0;
    do {
        trim(q);
        busy += q->qhead < q->qlen;
        q = q->next;
    } while (q != s->turn);
    size_t share = svc_sched_share(s->concurrency, busy);
    do {
        if (q->qhead < q->qlen && q->running < share) {
            svc_sched_item *it = q->queue[q->qhead++];
            size_t k = find_claim(q, it);
            if (k != (size_t)-1)
                q->claims[k].in_queue = 0;
            it->waiting = 0;
            it->owner = q;
            q->running++;
            s->turn = q->next;
            return it;
        }
        q = q->next;
    } while (q != s->turn);
    return NULL;
}

static void free_req(svc_sched_req *q)
{
    sb_free(q->claims); /* sb_vec_grow's */
    free(q->slots);
    sb_free(q->queue);
    free(q);
}

static void unlink_ring(svc_sched *s, svc_sched_req *q)
{
    if (q->next == q) {
        s->turn = NULL;
    } else {
        q->prev->next = q->next;
        q->next->prev = q->prev;
        if (s->turn == q)
            s->turn = q->next;
    }
    q->next = q->prev = NULL;
}

void svc_sched_done(svc_sched *s, svc_sched_item *it)
{
    (void)s;
    svc_sched_req *q = it->owner;
    it->owner = NULL;
    if (NULL == q)
        return;
    q->running--;
    if (q->closed && 0 == q->running)
        free_req(q);
}

void svc_sched_cancel(svc_sched *s, svc_sched_req *q, svc_sched_orphan_fn fn, void *cls)
{
    (void)s;
    for (size_t k = 0; k < q->nclaims; k++) {
        svc_sched_item *it = q->claims[k].it;
        if (--it->wanters)
            continue;
        int was_waiting = it->waiting;
        it->waiting = 0;
        if (fn)
            fn(it, was_waiting, cls);
    }
    sb_free(q->claims); /* sb_vec_grow's */
    free(q->slots);
    sb_free(q->queue);
    q->claims = NULL;
    q->slots = NULL;
    q->queue = NULL;
    q->nclaims = q->claims_cap = q->nslots = q->qhead = q->qlen = q->qcap = 0;
    q->cancelled = 1;
}

void svc_sched_close(svc_sched *s, svc_sched_req *q, svc_sched_orphan_fn fn, void *cls)
{
    if (NULL == q)
        return;
    svc_sched_cancel(s, q, fn, cls);
    unlink_ring(s, q);
    q->closed = 1;
    if (0 == q->running)
        free_req(q);
}

void svc_sched_free_all(svc_sched *s)
{
    while (s->turn) {
        svc_sched_req *q = s->turn;
        unlink_ring(s, q);
        free_req(q);
    }
}

size_t svc_sched_claims(const svc_sched_req *q)
{
    return q->nclaims;
}
size_t svc_sched_running(const svc_sched_req *q)
{
    return q->running;
}
