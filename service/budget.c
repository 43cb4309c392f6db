/*
 * budget.c - the memory budget's accounting (budget.h): one atomic counter,
 * charged with a compare-and-swap so two requests can never both take the
 * last bytes.
 */
#include "budget.h"

void svc_budget_init(svc_budget *b, unsigned long long total)
{
    b->total = total;
    atomic_store(&b->used, 0);
}

unsigned long long svc_budget_cost(unsigned long long body)
{
    return body + body * SVC_BUDGET_ARENA_FACTOR;
}

int svc_budget_charge(svc_budget *b, unsigned long long n)
{
    unsigned long long used = atomic_load(&b->used);
    do {
        if (n > b->total || used > b->total - n)
            return 0;
    } while (!atomic_compare_exchange_weak(&b->used, &used, used + n));
    return 1;
}

void svc_budget_release(svc_budget *b, unsigned long long n)
{
    atomic_fetch_sub(&b->used, n);
}

unsigned long long svc_budget_used(svc_budget *b)
{
    return atomic_load(&b->used);
}

unsigned long long svc_budget_default(unsigned long long cgroup_limit)
{
    return cgroup_limit ? cgroup_limit / 100 * SVC_BUDGET_CGROUP_PERCENT : SVC_BUDGET_DEFAULT;
}
