/*
 * lookup_sched.h - which lookup transfer starts next: one queue per request,
 * served round-robin, each request capped in what it may claim and in the
 * transfer slots it may hold, and a request's claims dropped when it goes.
 *
 * The lookup engine (lookup.c) owns the entries and the transfers; this
 * module only sees each entry's svc_sched_item and keeps no lock of its own:
 * every call is made with the engine's mutex held. No I/O, so it is unit
 * tested on its own (tests/unit/test_lookup_sched.c).
 *
 * A request claims the items it needs from the network (a claim is counted
 * once per request and item, cache hits are not claims). An item claimed by
 * several requests is one transfer (single flight); it stays wanted while any
 * claim on it remains. Claims are held until the request cancels or closes:
 * then items nobody else claims are orphaned, and the engine drops them from
 * the queue or aborts their transfer.
 */
#ifndef SVC_LOOKUP_SCHED_H
#define SVC_LOOKUP_SCHED_H

#include <stddef.h>

typedef struct svc_sched_req svc_sched_req;

/* Embedded in each lookup entry. */
typedef struct svc_sched_item {
    unsigned wanters;     /* requests holding a claim on it */
    int waiting;          /* wants a transfer that has not started */
    svc_sched_req *owner; /* the request whose turn started its transfer; NULL when none runs */
} svc_sched_item;

typedef struct svc_sched {
    svc_sched_req *turn; /* the ring of open requests, at the one served next */
    size_t concurrency;  /* transfer slots in the whole process */
} svc_sched;

typedef enum svc_claim {
    SVC_CLAIM_NEW,       /* counted against the request's limit */
    SVC_CLAIM_HELD,      /* this request claimed it already */
    SVC_CLAIM_CAPPED,    /* past the request's limit: not looked up */
    SVC_CLAIM_CANCELLED, /* the request was cancelled: nothing more is looked up */
    SVC_CLAIM_ENOMEM
} svc_claim;

/* Called for an item whose last claim was just dropped; was_waiting says its
 * transfer had not started (else it runs, or ran: owner says which). */
typedef void (*svc_sched_orphan_fn)(svc_sched_item *it, int was_waiting, void *cls);

void svc_sched_init(svc_sched *s, size_t concurrency);

/* A request's queue, at most `limit` claims. NULL on out of memory. */
svc_sched_req *svc_sched_open(svc_sched *s, size_t limit);

/* Claim `it` for q. `start`: the item needs a transfer (not fresh, not
 * running): it is queued on q's turn, and it->waiting set, unless its
 * transfer already runs. A held item is queued again when it needs a
 * transfer and is not in q's queue already. */
svc_claim svc_sched_claim(svc_sched *s, svc_sched_req *q, svc_sched_item *it, int start);

/* The item whose transfer starts now, or NULL: requests take turns; one
 * holds at most its fair share of the slots (the slots divided among the
 * requests with something queued, and never all of them when there are two
 * or more, so a newcomer finds one free). Marks it running (owner set,
 * waiting cleared). The caller asks only while a slot is free. */
svc_sched_item *svc_sched_next(svc_sched *s);

/* The slot fair share for `busy` requests with work (exposed for tests). */
size_t svc_sched_share(size_t concurrency, size_t busy);

/* The transfer of a running item ended (answered, failed or aborted). */
void svc_sched_done(svc_sched *s, svc_sched_item *it);

/* Drop every claim of q (its queue too) and refuse any further one. */
void svc_sched_cancel(svc_sched *s, svc_sched_req *q, svc_sched_orphan_fn fn, void *cls);

/* Cancel, then forget q: freed now, or when its last running transfer ends. */
void svc_sched_close(svc_sched *s, svc_sched_req *q, svc_sched_orphan_fn fn, void *cls);

/* Free every request still known (at engine stop, transfers abandoned). */
void svc_sched_free_all(svc_sched *s);

/* q's counters: claims made, transfers started on its turn still running. */
size_t svc_sched_claims(const svc_sched_req *q);
size_t svc_sched_running(const svc_sched_req *q);

#endif
