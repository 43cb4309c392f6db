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
 */
#ifndef SVC_BUDGET_H
#define SVC_BUDGET_H

#include <stdatomic.h>

/* arena bytes guessed per body byte while the body arrives (the kind is not
 * known yet; svc_req_admit charges the estimate once it is): ~2x for the
 * largest pixi.lock fixture, 7-16x for uv.lock and the JavaScript kinds */
#define SVC_BUDGET_ARENA_FACTOR 4ULL
/* the budget when none is set and no cgroup memory limit is found */
#define SVC_BUDGET_DEFAULT (1ULL << 30)
/* the share of a cgroup memory limit the budget takes when derived, in % */
#define SVC_BUDGET_CGROUP_PERCENT 70ULL

typedef struct svc_budget {
    unsigned long long total;
    atomic_ullong used;
} svc_budget;

void svc_budget_init(svc_budget *b, unsigned long long total);

/* What a request with a body of `body` bytes is charged. */
unsigned long long svc_budget_cost(unsigned long long body);

/* Take n bytes: 1 when they fit (and are now charged), 0 when not. */
int svc_budget_charge(svc_budget *b, unsigned long long n);

/* Give back n bytes charged earlier. */
void svc_budget_release(svc_budget *b, unsigned long long n);

unsigned long long svc_budget_used(svc_budget *b);

/* The default: SVC_BUDGET_CGROUP_PERCENT of `cgroup_limit` when one is set
 * (non-zero), else SVC_BUDGET_DEFAULT. */
unsigned long long svc_budget_default(unsigned long long cgroup_limit);

#endif
