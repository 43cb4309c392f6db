/*
 * test_lookup_cache.c - the lookup engine's answer cache
 * (service/lookup/lookup_cache.c) without a network or a thread: entries found by
 * URL, the LRU bound that never evicts an entry a request holds or waits on,
 * and the disk tier looked at before the network.
 */
#include "test.h"
#include "../../service/lookup/lookup_int.h"
#include "../../service/lookup/lookup_store.h"

#include <stdlib.h>

/* An engine with only what the cache reads: buckets, a bound, a store. */
static svc_lookup *cache_new(size_t max_entries, size_t nbuckets)
{
    svc_lookup *L = calloc(1, sizeof *L);
    if (NULL == L)
        return NULL;
    L->max_entries = max_entries;
    L->nbuckets = nbuckets;
    L->buckets = calloc(nbuckets, sizeof *L->buckets);
    L->ttl = 3600;
    sb_err err;
    if (NULL == L->buckets || svc_store_open(L->cache, sizeof L->cache, NULL, &L->own_cache, &err) != 0) {
        free(L->buckets);
        free(L);
        return NULL;
    }
    return L;
}

static void cache_free(svc_lookup *L)
{
    for (size_t i = 0; i < L->nbuckets; i++)
        for (svc_lk_entry *e = L->buckets[i], *next; e; e = next) {
            next = e->hnext;
            svc_lk_free_entry(e);
        }
    free(L->buckets);
    if (L->own_cache)
        svc_store_remove(L->cache);
    free(L);
}

static svc_lk_entry *answered(svc_lookup *L, const char *url)
{
    svc_lk_entry *e = svc_lk_add_entry(L, url, K_PYPI);
    if (e) {
        e->state = E_ANSWERED;
        svc_lk_lru_push(L, e);
    }
    return e;
}

TEST(lookup_cache_find_by_url)
{
    svc_lookup *L = cache_new(16, 2); /* two buckets: chains are walked */
    CHECK(L != NULL);
    if (NULL == L)
        return;
    const char *urls[] = {"https://pypi.org/pypi/a/1/json", "https://pypi.org/pypi/b/1/json",
                          "https://pypi.org/pypi/c/1/json", "https://conda.anaconda.org/x/a-1-0.conda"};
    svc_lk_entry *es[4];
    for (int i = 0; i < 4; i++)
        es[i] = svc_lk_add_entry(L, urls[i], i == 3 ? K_CONDA : K_PYPI);
    CHECK(L->count == 4);
    for (int i = 0; i < 4; i++) {
        CHECK(es[i] != NULL && svc_lk_find(L, urls[i]) == es[i]);
        CHECK(es[i] && es[i]->state == E_FAILED && !es[i]->in_lru); /* new: idle, not kept */
    }
    CHECK(es[3] && es[3]->kind == K_CONDA);
    CHECK(svc_lk_find(L, "https://pypi.org/pypi/a/1/json?") == NULL); /* the whole URL is the key */
    CHECK(svc_lk_find(L, "https://pypi.org/pypi/d/1/json") == NULL);
    cache_free(L);
}

TEST(lookup_cache_evicts_oldest_unheld)
{
    svc_lookup *L = cache_new(2, 64);
    CHECK(L != NULL);
    if (NULL == L)
        return;
    svc_lk_entry *held = answered(L, "u1"), *e2 = answered(L, "u2"), *e3 = answered(L, "u3"), *e4 = answered(L, "u4");
    CHECK(held && e2 && e3 && e4);
    if (!held || !e2 || !e3 || !e4) {
        cache_free(L);
        return;
    }
    held->refs = 1; /* a request reads it: never evicted */
    CHECK(L->lru_old == held && L->lru_new == e4);
    svc_lk_lru_push(L, e2); /* answered again: now the newest */
    CHECK(L->lru_new == e2 && L->lru_old == held && e3->older == held);
    svc_lk_evict(L);
    CHECK(L->count == 2);
    CHECK(svc_lk_find(L, "u1") == held && svc_lk_find(L, "u2") == e2); /* the held one and the newest stay */
    CHECK(svc_lk_find(L, "u3") == NULL && svc_lk_find(L, "u4") == NULL);
    CHECK(L->lru_old == held && L->lru_new == e2 && held->newer == e2);

    /* a queued entry (a transfer still wanted) and one a request claims stay too */
    svc_lk_entry *q = answered(L, "u5"), *w = answered(L, "u6");
    CHECK(q && w);
    if (q && w) {
        q->state = E_QUEUED;
        w->it.wanters = 1;
        held->refs = 0;
        svc_lk_evict(L); /* 4 entries over a bound of 2: only u1 and u2 may go */
        CHECK(L->count == 2 && svc_lk_find(L, "u5") == q && svc_lk_find(L, "u6") == w);
        CHECK(svc_lk_find(L, "u1") == NULL && svc_lk_find(L, "u2") == NULL);
    }
    cache_free(L);
}

TEST(lookup_cache_disk_tier)
{
    svc_lookup *L = cache_new(16, 16);
    CHECK(L != NULL);
    if (NULL == L)
        return;
    const char *mit = "https://pypi.org/pypi/mit/1.0/json", *none = "https://pypi.org/pypi/none/1.0/json";
    svc_store_pypi_put(L->cache, mit, "MIT");
    svc_store_pypi_put(L->cache, none, NULL);
    svc_lk_entry *e = svc_lk_add_entry(L, mit, K_PYPI), *n = svc_lk_add_entry(L, none, K_PYPI);
    svc_lk_entry *miss = svc_lk_add_entry(L, "https://pypi.org/pypi/other/1.0/json", K_PYPI);
    svc_lk_entry *conda = svc_lk_add_entry(L, "https://conda.anaconda.org/x/a-1-0.conda", K_CONDA);
    svc_lk_entry *osv = svc_lk_add_entry(L, mit,
                                         K_OSV_VULN); /* raw answers never come from disk, even for a stored URL */
    CHECK(e && n && miss && conda && osv);
    if (e && n && miss && conda && osv) {
        CHECK(svc_lk_disk_answer(L, e) == 1);
        CHECK_STR(e->license, "MIT");
        CHECK(svc_lk_disk_answer(L, n) == 1 && n->license == NULL); /* the release names none: an answer too */
        CHECK(svc_lk_disk_answer(L, miss) == 0);
        CHECK(svc_lk_disk_answer(L, conda) == 0 && conda->info_dir == NULL);
        CHECK(svc_lk_disk_answer(L, osv) == 0 && osv->body == NULL);
        L->ttl = -1; /* older than the TTL: asked again */
        CHECK(svc_lk_disk_answer(L, e) == 0);
    }
    cache_free(L);
}
