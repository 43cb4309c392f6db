/*
 * budget.h - the process's memory budget (--memory-budget): what request
 * bodies and the parsing of them may hold at once, so that concurrent
 * uploads are refused with 503 before they are read instead of taking the
 * replica past its memory limit.
 *
 * While its body arrives a request is charged svc_budget_cost(body bytes):
 * the body, plus a first guess at the arena its parsing builds
 * (SVC_BUDGET_ARENA_FACTOR times the body). Once the body is read and its
 * kind known, svc_req_admit() replaces that guess with the reader's own
 * estimate (sb_lock_estimate: records counted x measured bytes per record),
 * before any model is built: a pin-dense requirements.txt needs some 100x
 * its size, which no factor of the body alone prices without overcharging
 * everything else. The charge is released when the request completes.
 *
 * The estimate only admits. Then the request's account (svc_account) is
 * the accountant: every block its arenas take from the allocator and every
 * JSON tree its parsers build is charged there as it is taken; past what
 * was paid (the admitted estimates) the charge grows while the budget
 * allows, and otherwise that allocation fails like an out-of-memory and
 * the account says why (413: the request alone could never fit; 503:
 * others hold the rest). No input shape, however crafted, takes the
 * process past the budget this way.
 */
#ifndef SVC_BUDGET_H
#define SVC_BUDGET_H

#include <pthread.h>
#include <stdatomic.h>

#include "../core/arena.h"

/* arena bytes guessed per body byte while the body arrives (the kind is not
 * known yet; svc_req_admit charges the estimate once it is): ~2x for the
 * largest pixi.lock fixture, 7-16x for uv.lock and the JavaScript kinds */
#define SVC_BUDGET_ARENA_FACTOR 4ULL
/* the budget when none is set and no cgroup memory limit is found */
#define SVC_BUDGET_DEFAULT (1ULL << 30)
/* the share of a cgroup memory limit the budget takes when derived, in % */
#define SVC_BUDGET_CGROUP_PERCENT 70ULL

/* arena bytes priced per byte of query: what a query builds (a policy's
 * terms, their copies, the key over them, list arrays) is some 8x its text;
 * twice that covers the allocator's rounding of small objects */
#define SVC_BUDGET_QUERY_FACTOR 16ULL

/* The share of the budget growth leaves free while other requests are in
 * flight (1/16): what the process holds outside every account (allocator
 * slack, connection pools, answers being sent) lives there, so the peak
 * stays within the budget; a request alone may still grow to all of it. */
#define SVC_BUDGET_RESERVE_DIV 16ULL

/* When requests stop each other (each grows past what it prepaid and the
 * budget holds not all of them), one is served: the first refused becomes
 * the grower and waits, until its deadline, for the memory the others give
 * back; while it holds that role every other request's growth past its
 * prepaid estimate is refused at once, so they end and free what they hold
 * instead of all waiting on each other. */
typedef struct svc_budget {
    unsigned long long total;
    atomic_ullong used;
    pthread_mutex_t mu;        /* guards grower; waited on with freed */
    pthread_cond_t freed;      /* broadcast when bytes are given back while a grower waits */
    unsigned long long grower; /* the scope of the account that may wait for memory, 0 = none */
    atomic_int waiting;        /* 1 while the grower waits: releases broadcast */
} svc_budget;

void svc_budget_init(svc_budget *b, unsigned long long total);

/* What a request with a body of `body` bytes is charged. */
unsigned long long svc_budget_cost(unsigned long long body);

/* What a request's query is priced at admission, for `query_bytes` bytes of
 * keys and values. */
unsigned long long svc_budget_query_cost(unsigned long long query_bytes);

/* Take n bytes: 1 when they fit (and are now charged), 0 when not. */
int svc_budget_charge(svc_budget *b, unsigned long long n);

/* Take n bytes only if the budget's use stays within `ceiling` (at most
 * the total): 1 when charged, 0 when not. */
int svc_budget_charge_within(svc_budget *b, unsigned long long n, unsigned long long ceiling);

/* Where growth past a prepaid estimate stops when `others` bytes of the
 * budget are held by other requests: the total less the reserve, or the
 * whole total for a request alone. */
unsigned long long svc_budget_growth_ceiling(const svc_budget *b, unsigned long long others);

/* Give back n bytes charged earlier. */
void svc_budget_release(svc_budget *b, unsigned long long n);

unsigned long long svc_budget_used(svc_budget *b);

/* The default: SVC_BUDGET_CGROUP_PERCENT of `cgroup_limit` when one is set
 * (non-zero), else SVC_BUDGET_DEFAULT. */
unsigned long long svc_budget_default(unsigned long long cgroup_limit);

/* Retry-After's seconds for a request the budget refused, spread over
 * [SVC_BUDGET_RETRY_MIN, SVC_BUDGET_RETRY_MAX] by `salt` (the same salt, the
 * same delay), so clients refused together do not all come back in the
 * same instant and stop each other again. */
#define SVC_BUDGET_RETRY_MIN 2u
#define SVC_BUDGET_RETRY_MAX 5u
unsigned svc_budget_retry_secs(unsigned long long salt);

/* A request's account (see above). `base` is the request's other charge
 * (body, capture, admitted estimates), read for the 413 test. */
typedef struct svc_account {
    svc_budget *budget;
    const atomic_ullong *base;
    atomic_ullong held;       /* bytes taken and not given back */
    atomic_ullong paid;       /* bytes of held paid for: prepaid estimates plus grants */
    atomic_ullong granted;    /* bytes charged to the budget by growth; released at the end */
    atomic_ullong peak;       /* the most held at once */
    atomic_ullong wanted;     /* what the request's whole charge would have been at the refused take */
    atomic_uint refused;      /* 0, or the status a refused take answers: 413 or 503 */
    unsigned long long scope; /* nonzero, unique per request: tags its JSON allocations */
    long long deadline_ns;    /* CLOCK_MONOTONIC; the grower waits no longer (0: does not wait) */
    sb_meter meter;           /* what the request's arenas are metered by */
} svc_account;

void svc_account_init(svc_account *a, svc_budget *b, const atomic_ullong *base, unsigned long long scope);

/* The request ends: its account gives up the grower's role if it held it. */
void svc_account_done(svc_account *a);

/* Whether the grower's role may go to `scope` now (no other holds it); it is
 * taken when so. Pure of the clock: the rule svc_account_take follows. */
int svc_budget_claim_growth(svc_budget *b, unsigned long long scope);

/* `n` bytes of what the request will take are already paid for (the
 * estimate svc_req_admit charged). */
void svc_account_prepay(svc_account *a, unsigned long long n);

/* Take or give back n bytes (the meter's callbacks; thread-safe). Take
 * returns 0, charging nothing, when the budget refuses. */
int svc_account_take(svc_account *a, unsigned long long n);
void svc_account_give(svc_account *a, unsigned long long n);

/* This thread now works for the request that owns `a` (NULL: for none):
 * jansson's allocations are charged to it until the next call. Set on
 * every entry to a request's code, cleared on the way out. */
void svc_account_enter(svc_account *a);

/* Route jansson's allocations through the accounts (at start-up, once). */
void svc_account_json_install(void);

#endif
