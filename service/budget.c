/*
 * budget.c - the memory budget's accounting (budget.h): one atomic counter,
 * charged with a compare-and-swap so two requests can never both take the
 * last bytes.
 */
#include "budget.h"
#include "../core/alloc.h"
#include "../core/deadline.h"

#include <errno.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

void svc_budget_init(svc_budget *b, unsigned long long total)
{
    b->total = total;
    atomic_store(&b->used, 0);
    pthread_mutex_init(&b->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&b->freed, &ca);
    pthread_condattr_destroy(&ca);
    b->grower = 0;
    atomic_store(&b->waiting, 0);
}

unsigned long long svc_budget_query_cost(unsigned long long query_bytes)
{
    return query_bytes * SVC_BUDGET_QUERY_FACTOR;
}

unsigned long long svc_budget_cost(unsigned long long body)
{
    return body + body * SVC_BUDGET_ARENA_FACTOR;
}

int svc_budget_charge_within(svc_budget *b, unsigned long long n, unsigned long long ceiling)
{
    if (ceiling > b->total)
        ceiling = b->total;
    unsigned long long used = atomic_load(&b->used);
    do {
        if (n > ceiling || used > ceiling - n)
            return 0;
    } while (!atomic_compare_exchange_weak(&b->used, &used, used + n));
    return 1;
}

int svc_budget_charge(svc_budget *b, unsigned long long n)
{
    return svc_budget_charge_within(b, n, b->total);
}

unsigned long long svc_budget_growth_ceiling(const svc_budget *b, unsigned long long others)
{
    return others ? b->total - b->total / SVC_BUDGET_RESERVE_DIV : b->total;
}

void svc_budget_release(svc_budget *b, unsigned long long n)
{
    atomic_fetch_sub(&b->used, n);
    if (atomic_load(&b->waiting)) {
        pthread_mutex_lock(&b->mu);
        pthread_cond_broadcast(&b->freed);
        pthread_mutex_unlock(&b->mu);
    }
}

int svc_budget_claim_growth(svc_budget *b, unsigned long long scope)
{
    pthread_mutex_lock(&b->mu);
    int mine = 0 == b->grower || scope == b->grower;
    if (mine)
        b->grower = scope;
    pthread_mutex_unlock(&b->mu);
    return mine;
}

/* The grower waits for `n` bytes to be given back, until its deadline: 1
 * when they are now charged. The wait wakes on every release, and every
 * 100 ms in case one came between the check and the wait. */
static int wait_for(svc_budget *b, unsigned long long n, unsigned long long mine, long long deadline_ns)
{
    int got = 0;
    pthread_mutex_lock(&b->mu);
    atomic_store(&b->waiting, 1);
    for (;;) {
        unsigned long long used = atomic_load(&b->used);
        if ((got = svc_budget_charge_within(b, n, svc_budget_growth_ceiling(b, used > mine ? used - mine : 0))))
            break;
        long long now = sb_deadline_now_ns();
        if (now >= deadline_ns)
            break;
        long long until = now + 100000000LL < deadline_ns ? now + 100000000LL : deadline_ns;
        struct timespec ts = {(time_t)(until / 1000000000LL), (long)(until % 1000000000LL)};
        int rc = pthread_cond_timedwait(&b->freed, &b->mu, &ts);
        if (rc != 0 && rc != ETIMEDOUT)
            break;
    }
    atomic_store(&b->waiting, 0);
    pthread_mutex_unlock(&b->mu);
    return got;
}

unsigned long long svc_budget_used(svc_budget *b)
{
    return atomic_load(&b->used);
}

unsigned long long svc_budget_default(unsigned long long cgroup_limit)
{
    return cgroup_limit ? cgroup_limit / 100 * SVC_BUDGET_CGROUP_PERCENT : SVC_BUDGET_DEFAULT;
}

/* The smallest growth of a request's charge: a request taking memory a
 * block at a time is charged every MiB, not every block. */
#define GRANT_MIN (1ULL << 20)

/* The request stops: say why (the first reason stays) and how much it asked for. */
static int refuse(svc_account *a, unsigned status, unsigned long long wanted, unsigned long long n)
{
    unsigned expect = 0;
    if (atomic_compare_exchange_strong(&a->refused, &expect, status))
        atomic_store(&a->wanted, wanted);
    atomic_fetch_sub(&a->held, n);
    return 0;
}

static int meter_take(void *ctx, size_t n)
{
    return svc_account_take(ctx, n);
}

static void meter_give(void *ctx, size_t n)
{
    svc_account_give(ctx, n);
}

void svc_account_init(svc_account *a, svc_budget *b, const atomic_ullong *base, unsigned long long scope)
{
    a->budget = b;
    a->base = base;
    atomic_store(&a->held, 0);
    atomic_store(&a->paid, 0);
    atomic_store(&a->granted, 0);
    atomic_store(&a->refused, 0);
    atomic_store(&a->peak, 0);
    atomic_store(&a->wanted, 0);
    a->scope = scope;
    a->deadline_ns = 0;
    a->meter.take = meter_take;
    a->meter.give = meter_give;
    a->meter.ctx = a;
}

void svc_account_done(svc_account *a)
{
    svc_budget *b = a->budget;
    pthread_mutex_lock(&b->mu);
    if (b->grower == a->scope)
        b->grower = 0;
    pthread_mutex_unlock(&b->mu);
}

void svc_account_prepay(svc_account *a, unsigned long long n)
{
    atomic_fetch_add(&a->paid, n);
}

int svc_account_take(svc_account *a, unsigned long long n)
{
    unsigned long long held = atomic_fetch_add(&a->held, n) + n;
    unsigned long long peak = atomic_load(&a->peak);
    while (held > peak && !atomic_compare_exchange_weak(&a->peak, &peak, held)) {
    }
    unsigned long long paid = atomic_load(&a->paid);
    while (held > paid) {
        svc_budget *b = a->budget;
        unsigned long long mine = atomic_load(a->base) + atomic_load(&a->granted);
        unsigned long long need = held - paid;
        if (mine > b->total || need > b->total - mine)
            return refuse(a, 413, mine + need, n);
        /* grow by an eighth of what is paid (at least a MiB): a request that
         * keeps taking is charged a logarithmic number of times */
        unsigned long long step = paid / 8 > GRANT_MIN ? paid / 8 : GRANT_MIN;
        if (step < need)
            step = need;
        if (step > b->total - mine)
            step = b->total - mine;
        /* mine is what this request holds of the budget: the rest is others' */
        unsigned long long used = atomic_load(&b->used);
        unsigned long long ceiling = svc_budget_growth_ceiling(b, used > mine ? used - mine : 0);
        if (!svc_budget_charge_within(b, step, ceiling)) {
            /* the rest of the budget may still hold what is needed; else
             * the grower (the first refused) waits for it, and the others
             * stop and give theirs back */
            if ((step == need || !svc_budget_charge_within(b, step = need, ceiling)) &&
                (0 == a->deadline_ns || !svc_budget_claim_growth(b, a->scope) ||
                 !wait_for(b, step = need, mine, a->deadline_ns)))
                return refuse(a, 503, mine + need, n);
        }
        if (atomic_compare_exchange_strong(&a->paid, &paid, paid + step)) {
            atomic_fetch_add(&a->granted, step);
            break;
        }
        svc_budget_release(b, step); /* another thread paid meanwhile: look again */
    }
    return 1;
}

void svc_account_give(svc_account *a, unsigned long long n)
{
    atomic_fetch_sub(&a->held, n);
}

/* jansson's allocations carry a header: their size, and the scope of the
 * request that paid for them (0: none). A tree freed by another request's
 * code, or after its request ended, gives nothing back to anyone: the
 * scope, not a pointer, decides, so no account is touched after it ends. */
typedef struct json_hdr {
    size_t size;
    unsigned long long scope;
} json_hdr;
_Static_assert(sizeof(json_hdr) % _Alignof(max_align_t) == 0, "the header keeps jansson's objects aligned");

static _Thread_local svc_account *current;

void svc_account_enter(svc_account *a)
{
    current = a;
}

static void *json_alloc(size_t n)
{
    svc_account *a = current;
    if (n > SIZE_MAX - sizeof(json_hdr))
        return NULL;
    json_hdr *h = sb_malloc(n + sizeof(json_hdr));
    if (NULL == h)
        return NULL;
    /* what the allocator really set aside (its size class), not what was asked:
     * a tree of small objects costs their classes */
    size_t t = sb_usable_size(h);
    if (a && !svc_account_take(a, t)) {
        sb_free(h);
        return NULL;
    }
    h->size = t;
    h->scope = a ? a->scope : 0;
    return h + 1;
}

static void json_release(void *p)
{
    if (NULL == p)
        return;
    json_hdr *h = (json_hdr *)p - 1;
    svc_account *a = current;
    if (h->scope && a && a->scope == h->scope)
        svc_account_give(a, h->size);
    sb_free(h);
}

void svc_account_json_install(void)
{
    json_set_alloc_funcs(json_alloc, json_release);
}

unsigned svc_budget_retry_secs(unsigned long long salt)
{
    /* splitmix64's finalizer: consecutive request numbers spread evenly */
    unsigned long long z = salt + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return SVC_BUDGET_RETRY_MIN + (unsigned)(z % (SVC_BUDGET_RETRY_MAX - SVC_BUDGET_RETRY_MIN + 1));
}
