/*
 * lookup_cache.c - where the lookup engine keeps answers (see lookup.c).
 *
 * Owns the in-memory entries (a chained hash table keyed by URL, an LRU
 * bounded by --lookup-cache, never evicting an entry a request waits on),
 * the disk tier (lookup_store.c) looked at before the network, and the
 * shared tier (--cache-url, Redis): the value format, queueing answers for
 * the other replicas and asking it in one MGET for what this process lacks.
 * Every function here but svc_lk_shared_put and svc_lk_shared_fill expects the lock held.
 */
#include "lookup_int.h"
#include "../log.h"
#include "lookup_store.h"
#include "shared_cache.h"
#include "../../core/archive.h"
#include "../../core/uuid.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* --- the shared cache (--cache-url) ---------------------------------------- */

#define SHARED_KEY_MAX 56

/* The shared-cache key of a lookup: its URL hashed (keys stay short; the
 * URL is the configured host's, so replicas with one configuration agree). */
static void shared_key(char out[SHARED_KEY_MAX], const char *url)
{
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, url, strlen(url));
    sb_sha1_final(&c, d);
    int k = snprintf(out, SHARED_KEY_MAX, "lookup1:");
    for (int i = 0; i < 20; i++)
        k += snprintf(out + k, (size_t)(SHARED_KEY_MAX - k), "%02x", d[i]);
}

/* Queue an answer for the other replicas (any thread; never waits). */
void svc_lk_shared_put(const char *url, char type, double ttl, unsigned method, const void *body, size_t len)
{
    if (!svc_shared_enabled() || ttl < 1)
        return;
    char key[SHARED_KEY_MAX], head[80];
    shared_key(key, url);
    int hl = snprintf(head, sizeof head, "sbl1 %c %lld %u\n", type, (long long)time(NULL) + (long long)ttl, method);
    svc_shared_putv(key, head, (size_t)hl, body, len, (long)ttl);
}

/* A value taken apart: 0, or -1 when it is not one of ours. */
static int shared_decode(const char *v, size_t n, char *type, long long *expiry, unsigned *method, const char **body,
                         size_t *blen)
{
    const char *nl = memchr(v, '\n', n < 80 ? n : 80);
    int used = 0;
    if (NULL == nl || sscanf(v, "sbl1 %c %lld %u%n", type, expiry, method, &used) != 3 || v + used != nl)
        return -1;
    *body = nl + 1;
    *blen = n - (size_t)(nl + 1 - v);
    return 0;
}

svc_lk_entry *svc_lk_find(svc_lookup *L, const char *url)
{
    for (svc_lk_entry *e = L->buckets[hash(url) % L->nbuckets]; e; e = e->hnext)
        if (!strcmp(e->url, url))
            return e;
    return NULL;
}

static void lru_unlink(svc_lookup *L, svc_lk_entry *e)
{
    if (!e->in_lru)
        return;
    if (e->older)
        e->older->newer = e->newer;
    else
        L->lru_old = e->newer;
    if (e->newer)
        e->newer->older = e->older;
    else
        L->lru_new = e->older;
    e->older = e->newer = NULL;
    e->in_lru = 0;
}

void svc_lk_lru_push(svc_lookup *L, svc_lk_entry *e)
{
    lru_unlink(L, e);
    e->older = L->lru_new;
    e->newer = NULL;
    if (L->lru_new)
        L->lru_new->newer = e;
    else
        L->lru_old = e;
    L->lru_new = e;
    e->in_lru = 1;
}

void svc_lk_free_entry(svc_lk_entry *e)
{
    free(e->url);
    free(e->license);
    free(e->info_dir);
    free(e->target);
    free(e->post);
    free(e->body);
    free(e);
}

static void drop(svc_lookup *L, svc_lk_entry *e)
{
    svc_lk_entry **pp = &L->buckets[hash(e->url) % L->nbuckets];
    while (*pp && *pp != e)
        pp = &(*pp)->hnext;
    if (*pp)
        *pp = e->hnext;
    lru_unlink(L, e);
    svc_lk_free_entry(e);
    L->count--;
}

/* Keep the cache within its bound: the least recently answered entries go
 * first, never one a request still waits on. */
void svc_lk_evict(svc_lookup *L)
{
    svc_lk_entry *e = L->lru_old;
    while (L->count > L->max_entries && e) {
        svc_lk_entry *next = e->newer;
        if (0 == e->refs && 0 == e->it.wanters && (e->state == E_ANSWERED || e->state == E_FAILED))
            drop(L, e);
        e = next;
    }
}

/* Look for e's answer on disk (lock held). 1 = answered. */
int svc_lk_disk_answer(svc_lookup *L, svc_lk_entry *e)
{
    if (IS_RAW(e->kind))
        return 0; /* advisories and project pages change: kept in memory for their lifetime only */
    if (e->kind != K_PYPI) {
        char *dir = NULL;
        if (!svc_store_conda_get(L->cache, e->url, &dir))
            return 0;
        free(e->info_dir);
        e->info_dir = dir;
        return 1;
    }
    char *license = NULL;
    if (!svc_store_pypi_get(L->cache, e->url, L->ttl, &license))
        return 0;
    free(e->license);
    e->license = license;
    return 1;
}

/* An entry for url, new and idle (failed, not kept), or NULL. */
svc_lk_entry *svc_lk_add_entry(svc_lookup *L, const char *url, int kind)
{
    svc_lk_entry *e = calloc(1, sizeof *e);
    if (e)
        e->url = strdup(url);
    if (!e || !e->url) {
        free(e);
        return NULL;
    }
    e->kind = kind;
    e->state = E_FAILED;
    size_t b = hash(url) % L->nbuckets;
    e->hnext = L->buckets[b];
    L->buckets[b] = e;
    L->count++;
    return e;
}

static void shared_warn(svc_lookup_ctx *ctx, const char *why)
{
    if (ctx->warn && !ctx->warned) {
        ctx->warned = 1;
        ctx->warn(ctx->warn_cls, why);
    }
}

static int type_fits(char type, int kind)
{
    switch (type) {
    case 'P':
    case 'p': return kind == K_PYPI;
    case 'C':
    case 'c': return kind == K_CONDA || kind == K_TARBZ2;
    case 'O': return IS_OSV(kind);
    default: return 0;
    }
}

/* What the shared cache holds for the m lookups urls[]/kinds[] this process
 * has neither fresh nor in flight: asked in one MGET outside the lock, then
 * stored as answers (a conda info member unpacked into the disk cache
 * first, as a transfer's would be), so the claims that follow find them.
 * Request thread. */
void svc_lk_shared_fill(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char *const *urls, const int *kinds,
                        size_t m)
{
    if (!svc_shared_enabled() || 0 == m)
        return;
    const char **keys = sb_arena_alloc(a, m * sizeof *keys), **vals = sb_arena_alloc(a, m * sizeof *vals);
    size_t *which = sb_arena_alloc(a, m * sizeof *which), *lens = sb_arena_alloc(a, m * sizeof *lens);
    if (!keys || !vals || !which || !lens)
        return; /* only a cache: the lookups go on without it */
    size_t nk = 0;
    double t = now_s();
    pthread_mutex_lock(&L->mu);
    for (size_t k = 0; k < m; k++) {
        if (NULL == urls[k])
            continue;
        svc_lk_entry *e = svc_lk_find(L, urls[k]);
        if (e && ((e->state == E_ANSWERED && e->expires > t) || e->state == E_QUEUED || e->state == E_RUNNING))
            continue;
        char *key = sb_arena_alloc(a, SHARED_KEY_MAX);
        if (NULL == key)
            break;
        shared_key(key, urls[k]);
        keys[nk] = key;
        which[nk++] = k;
    }
    pthread_mutex_unlock(&L->mu);
    if (0 == nk)
        return;
    char why[256];
    if (svc_shared_mget(keys, nk, a, vals, lens, why, sizeof why) != SVC_SHARED_HIT) {
        shared_warn(ctx, why);
        return;
    }
    /* decode and unpack outside the lock */
    char *types = sb_arena_calloc(a, nk, 1);
    double *left = sb_arena_alloc(a, nk * sizeof *left);
    char **info = sb_arena_calloc(a, nk, sizeof *info);
    const char **bodies = sb_arena_calloc(a, nk, sizeof *bodies);
    size_t *blens = sb_arena_calloc(a, nk, sizeof *blens);
    if (!types || !left || !info || !bodies || !blens)
        return;
    long long wall = (long long)time(NULL);
    for (size_t j = 0; j < nk; j++) {
        char type;
        long long expiry;
        unsigned method;
        size_t k = which[j];
        if (NULL == vals[j] || shared_decode(vals[j], lens[j], &type, &expiry, &method, &bodies[j], &blens[j]) != 0 ||
            expiry <= wall || !type_fits(type, kinds[k]))
            continue;
        if (type == 'C' && !svc_store_conda_get(L->cache, urls[k], &info[j])) {
            char dir[PATH_MAX];
            svc_store_path(L->cache, urls[k], 1, dir, sizeof dir);
            sb_err err;
            sb_code rc = sb_archive_store(dir, kinds[k] == K_TARBZ2 ? SB_ARCHIVE_TARBZ2 : SB_ARCHIVE_CONDA,
                                          (const unsigned char *)bodies[j], blens[j], method, &err);
            if (rc == SB_OK) {
                size_t dl = strlen(dir);
                if ((info[j] = malloc(dl + 6))) {
                    memcpy(info[j], dir, dl);
                    memcpy(info[j] + dl, "/info", 6);
                }
            }
            if (rc != SB_OK && rc != SB_ENOTFOUND)
                continue; /* not kept: the network is asked */
            if (NULL == info[j] && rc == SB_OK)
                continue;
        }
        types[j] = type;
        left[j] = (double)(expiry - wall);
    }
    pthread_mutex_lock(&L->mu);
    t = now_s();
    for (size_t j = 0; j < nk; j++) {
        if (!types[j])
            continue;
        size_t k = which[j];
        svc_lk_entry *e = svc_lk_find(L, urls[k]);
        if (NULL == e)
            e = svc_lk_add_entry(L, urls[k], kinds[k]);
        if (NULL == e || e->state == E_QUEUED || e->state == E_RUNNING || (e->state == E_ANSWERED && e->expires > t))
            continue; /* someone else got there first (its info[] is freed below) */
        char *license = NULL, *body = NULL;
        if (types[j] == 'P' && NULL == (license = strndup(bodies[j], blens[j])))
            continue;
        if (types[j] == 'O' && NULL == (body = strndup(bodies[j], blens[j])))
            continue;
        free(e->license);
        e->license = license;
        free(e->info_dir);
        e->info_dir = info[j];
        info[j] = NULL;
        free(e->body);
        e->body = body;
        e->body_len = body ? blens[j] : 0;
        e->state = E_ANSWERED;
        e->expires = t + left[j];
        svc_lk_lru_push(L, e);
    }
    svc_lk_evict(L);
    pthread_mutex_unlock(&L->mu);
    for (size_t j = 0; j < nk; j++)
        free(info[j]);
}
