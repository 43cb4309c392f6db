/*
 * test_rcache.c - the result cache's in-memory tier (service/http/rcache.h): hits
 * and misses by key, least-recently-used eviction under the byte bound, the
 * per-entry cap, replacement of a key, entries that outlive their eviction
 * while a reference is held, expiry, and "off" (size 0).
 */
#include "test.h"
#include "../../service/http/rcache.h"

#include <string.h>

static void key_of(unsigned char k[SVC_RKEY_LEN], int n)
{
    memset(k, 0, SVC_RKEY_LEN);
    k[0] = (unsigned char)n;
    k[1] = (unsigned char)(n >> 8);
    k[19] = 0x5a;
}

static svc_rentry *entry(int n, size_t len, long ttl)
{
    static char body[4096];
    memset(body, 'a' + n % 26, sizeof body);
    unsigned char k[SVC_RKEY_LEN];
    key_of(k, n);
    const char *hn[] = {"Content-Disposition"}, *hv[] = {"attachment; filename=\"x.json\""};
    return svc_rentry_new(k, "\"etag\"", "application/json", "cyclonedx-1.6", "uv.lock", hn, hv, 1, 1, 3, body, len,
                          ttl);
}

static int has(svc_rcache *c, int n)
{
    unsigned char k[SVC_RKEY_LEN];
    key_of(k, n);
    svc_rentry *e = svc_rcache_get(c, k);
    svc_rentry_release(e);
    return e != NULL;
}

TEST(rcache_get_put_and_copy)
{
    svc_rcache *c = svc_rcache_new(1 << 20, 1 << 16);
    CHECK(c != NULL);
    CHECK(!has(c, 1));
    svc_rcache_put(c, entry(1, 100, 0));
    unsigned char k[SVC_RKEY_LEN];
    key_of(k, 1);
    svc_rentry *e = svc_rcache_get(c, k);
    CHECK(e != NULL);
    if (e) {
        CHECK(e->len == 100 && e->body[0] == 'b' && e->body[99] == 'b');
        CHECK_STR(e->ctype, "application/json");
        CHECK_STR(e->kind, "uv.lock");
        CHECK(e->nheaders == 1);
        CHECK_STR(e->hvalue[0], "attachment; filename=\"x.json\"");
        CHECK(e->ndocs == 1 && e->packages == 3);
    }
    svc_rentry_release(e);
    CHECK(!has(c, 2));
    svc_rcache_free(c);
}

TEST(rcache_lru_evicts_least_recent)
{
    svc_rentry *probe = entry(0, 1000, 0);
    size_t cost = probe->cost;
    svc_rentry_release(probe);
    /* room for exactly three */
    svc_rcache *c = svc_rcache_new(3 * cost + cost / 2, 4096);
    svc_rcache_put(c, entry(1, 1000, 0));
    svc_rcache_put(c, entry(2, 1000, 0));
    svc_rcache_put(c, entry(3, 1000, 0));
    CHECK(has(c, 1)); /* 1 is now the most recent; 2 the least */
    svc_rcache_put(c, entry(4, 1000, 0));
    CHECK(has(c, 1));
    CHECK(!has(c, 2));
    CHECK(has(c, 3));
    CHECK(has(c, 4));
    size_t n, bytes;
    svc_rcache_stats(c, &n, &bytes);
    CHECK(n == 3);
    CHECK(bytes <= 3 * cost + cost / 2);
    /* the same key again replaces, never duplicates */
    svc_rcache_put(c, entry(4, 500, 0));
    svc_rcache_stats(c, &n, &bytes);
    CHECK(n == 3);
    svc_rcache_free(c);
}

TEST(rcache_entry_cap_and_bound)
{
    svc_rcache *c = svc_rcache_new(1 << 20, 2000);
    CHECK(svc_rcache_fits(c, 2000));
    CHECK(!svc_rcache_fits(c, 2001));
    svc_rcache_put(c, entry(1, 3000, 0)); /* over the entry cap: released, not kept */
    CHECK(!has(c, 1));
    /* many puts never take the cache past its size */
    svc_rcache *small = svc_rcache_new(20000, 4096);
    for (int i = 0; i < 500; i++)
        svc_rcache_put(small, entry(i, 1500, 0));
    size_t n, bytes;
    svc_rcache_stats(small, &n, &bytes);
    CHECK(bytes <= 20000);
    CHECK(n >= 5 && n <= 13);
    CHECK(has(small, 499));
    CHECK(!has(small, 0));
    svc_rcache_free(small);
    svc_rcache_free(c);
}

TEST(rcache_reference_outlives_eviction)
{
    svc_rentry *probe = entry(0, 1000, 0);
    size_t cost = probe->cost;
    svc_rentry_release(probe);
    svc_rcache *c = svc_rcache_new(cost, 4096);
    svc_rcache_put(c, entry(1, 1000, 0));
    unsigned char k[SVC_RKEY_LEN];
    key_of(k, 1);
    svc_rentry *held = svc_rcache_get(c, k);
    CHECK(held != NULL);
    svc_rcache_put(c, entry(2, 1000, 0)); /* evicts 1 while it is being sent */
    CHECK(!has(c, 1));
    CHECK(held && held->len == 1000 && held->body[999] == 'b'); /* still readable (ASan checks) */
    svc_rentry_release(held);
    svc_rcache_free(c);
}

TEST(rcache_expiry_and_off)
{
    svc_rcache *c = svc_rcache_new(1 << 20, 4096);
    svc_rentry *e = entry(1, 10, 100);
    e->expires = 1; /* long past on the monotonic clock */
    svc_rcache_put(c, e);
    CHECK(!has(c, 1));
    size_t n, bytes;
    svc_rcache_stats(c, &n, &bytes);
    CHECK(n == 0 && bytes == 0);
    svc_rcache_free(c);
    CHECK(svc_rcache_new(0, 4096) == NULL); /* 0 = off */
    svc_rcache_put(NULL, entry(1, 10, 0));  /* released, no leak (ASan) */
    CHECK(!has(NULL, 1));
    CHECK(!svc_rcache_fits(NULL, 1));
}
