/*
 * admission.c - a request priced against the memory budget (service/budget.h)
 * and admitted or refused: its body charged as it arrives (svc_admit_body),
 * replaced by the reader's estimate once the kind is known (svc_req_admit),
 * and the 503 that says the budget is taken now (svc_admit_refuse).
 */
#include "admission.h"
#include "request_int.h"

#include <stdio.h>
#include <string.h>

/* 503 for a request the memory budget cannot hold now: another is
 * being parsed; retrying shortly will likely succeed. */
#define MEMORY_BUSY "sbomd's memory budget is taken by requests in flight; retry shortly"

int svc_admit_refuse(svc_req *r)
{
    atomic_fetch_add(&r->srv->metrics.rejected_memory, 1);
    svc_req_retry_after(r);
    return svc_req_problem(r, SVC_PT_MEMORY_BUSY, MEMORY_BUSY, NULL, 0);
}

int svc_admit_meter(svc_req *r)
{
    return sb_arena_meter(r->arena, &r->acct.meter);
}

static int add_query_bytes(void *cls, const char *key, const char *value)
{
    unsigned long long *n = cls;
    *n += strlen(key) + (value ? strlen(value) : 0) + 2; /* '=' and '&' */
    return 0;
}

unsigned long long svc_admit_query_bytes(svc_req *r)
{
    unsigned long long n = 0;
    svc_req_query_each(r, add_query_bytes, &n);
    return n;
}

/* Charge the request for a body of `len` bytes (its arena estimate
 * included), in whole MiB so a growing body is charged rarely. 0, or -1
 * when the budget cannot hold it (nothing more charged). */
int svc_admit_body(svc_req *r, uint64_t len)
{
    uint64_t mib = 1u << 20;
    unsigned long long want = svc_budget_cost((len + mib - 1) / mib * mib);
    unsigned long long cap = svc_budget_cost((uint64_t)r->srv->cfg.max_body);
    if (want > cap)
        want = cap; /* never more than a max-body request, which the budget holds */
    if (want <= r->charged)
        return 0;
    if (!svc_budget_charge(&r->srv->budget, want - r->charged))
        return -1;
    r->charged = want;
    return 0;
}

int svc_req_admit(svc_req *r, unsigned long long model, svc_problem *pb)
{
    svc_budget *b = &r->srv->budget;
    /* every input of the request is charged: the two sides of a diff, each
     * part of a merge (one charge replacing the other let a request hold
     * many models while paying for one); the first also pays for what the
     * query builds (a policy of thousands of terms), which no reader's
     * estimate counts */
    if (!r->query_priced) {
        model += svc_budget_query_cost(svc_admit_query_bytes(r));
        r->query_priced = 1;
    }
    unsigned long long need = (unsigned long long)r->body.alloc + r->admitted + model;
    if (need > b->total) {
        atomic_fetch_add(&r->srv->metrics.rejected_memory, 1);
        char detail[256];
        snprintf(detail, sizeof detail,
                 "reading %s would take about %llu MiB, more than the server's whole memory budget (%llu MiB); "
                 "split the lockfile or ask for a larger --memory-budget",
                 r->admitted ? "this request's inputs together" : "this input", (need + (1u << 20) - 1) >> 20,
                 b->total >> 20);
        return svc_problem_type(pb, SVC_PT_MEMORY_EXCEEDED, detail, NULL, 0);
    }
    if (need > r->charged) {
        if (!svc_budget_charge(b, need - r->charged)) {
            atomic_fetch_add(&r->srv->metrics.rejected_memory, 1);
            svc_req_retry_after(r);
            return svc_problem_type(pb, SVC_PT_MEMORY_BUSY, MEMORY_BUSY, NULL, 0);
        }
    } else {
        svc_budget_release(b, r->charged - need); /* the upload's guess was high: give the rest back */
    }
    r->charged = need;
    r->admitted += model;
    svc_account_prepay(&r->acct, model);
    return 0;
}
