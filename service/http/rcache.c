/*
 * rcache.c - the in-memory tier of the result cache (rcache.h): a hash of
 * chains over the key's first bytes (already a SHA-1, so uniform) and one
 * doubly linked list in recency order, under one mutex. Lookups and inserts
 * are a few pointer moves; the body is copied once, when it is put.
 *
 * A second, shared tier (Redis: svc_shared_get / svc_shared_put) plugs in
 * here and nowhere else: svc_rcache_get asks it on a local miss (and keeps
 * what it answers locally), svc_rcache_put hands it every entry it keeps.
 */
#include "rcache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 1024u

struct svc_rcache {
    pthread_mutex_t mu;
    size_t max_bytes, max_entry;
    size_t bytes, entries;
    svc_rentry *head, *tail; /* most recently used first */
    svc_rentry *buckets[NBUCKETS];
};

static time_t mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec;
}

svc_rcache *svc_rcache_new(size_t max_bytes, size_t max_entry)
{
    if (0 == max_bytes)
        return NULL;
    svc_rcache *c = calloc(1, sizeof *c);
    if (NULL == c)
        return NULL;
    pthread_mutex_init(&c->mu, NULL);
    c->max_bytes = max_bytes;
    c->max_entry = max_entry < max_bytes ? max_entry : max_bytes;
    return c;
}

void svc_rcache_free(svc_rcache *c)
{
    if (NULL == c)
        return;
    for (svc_rentry *e = c->head, *n; e; e = n) {
        n = e->next;
        svc_rentry_release(e);
    }
    pthread_mutex_destroy(&c->mu);
    free(c);
}

int svc_rcache_fits(const svc_rcache *c, size_t len)
{
    return c && len <= c->max_entry;
}

static size_t slen(const char *s)
{
    return s ? strlen(s) + 1 : 0;
}

static char *put_str(char **at, const char *s)
{
    if (NULL == s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = memcpy(*at, s, n);
    *at += n;
    return d;
}

svc_rentry *svc_rentry_new(const unsigned char key[SVC_RKEY_LEN], const char *etag, const char *ctype,
                           const char *format, const char *kind, const char *const *hname, const char *const *hvalue,
                           unsigned nh, unsigned ndocs, long packages, const char *body, size_t len, long ttl)
{
    if (nh > SVC_RCACHE_MAX_HEADERS)
        return NULL; /* not one to replay faithfully */
    size_t extra = slen(ctype) + slen(format) + slen(kind) + len;
    for (unsigned i = 0; i < nh; i++)
        extra += slen(hname[i]) + slen(hvalue[i]);
    svc_rentry *e = malloc(sizeof *e + extra);
    if (NULL == e)
        return NULL;
    memset(e, 0, sizeof *e);
    memcpy(e->key, key, SVC_RKEY_LEN);
    snprintf(e->etag, sizeof e->etag, "%s", etag);
    char *at = (char *)(e + 1);
    e->ctype = put_str(&at, ctype);
    e->format = put_str(&at, format);
    e->kind = put_str(&at, kind);
    for (unsigned i = 0; i < nh; i++) {
        e->hname[i] = put_str(&at, hname[i]);
        e->hvalue[i] = put_str(&at, hvalue[i]);
    }
    e->nheaders = nh;
    if (len)
        memcpy(at, body, len);
    e->body = at;
    e->len = len;
    e->ndocs = ndocs;
    e->packages = packages;
    e->expires = ttl > 0 ? mono_now() + ttl : 0;
    e->cost = sizeof *e + extra;
    atomic_init(&e->refs, 1);
    return e;
}

void svc_rentry_release(svc_rentry *e)
{
    if (e && atomic_fetch_sub(&e->refs, 1) == 1)
        free(e);
}

static unsigned bucket_of(const unsigned char *key)
{
    return ((unsigned)key[0] | (unsigned)key[1] << 8) % NBUCKETS;
}

static void unlink_lru(svc_rcache *c, svc_rentry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        c->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        c->tail = e->prev;
    e->prev = e->next = NULL;
}

static void push_front(svc_rcache *c, svc_rentry *e)
{
    e->prev = NULL;
    e->next = c->head;
    if (c->head)
        c->head->prev = e;
    c->head = e;
    if (NULL == c->tail)
        c->tail = e;
}

/* Take e out of the cache entirely (lock held); the cache's reference goes. */
static void drop(svc_rcache *c, svc_rentry *e)
{
    svc_rentry **p = &c->buckets[bucket_of(e->key)];
    while (*p && *p != e)
        p = &(*p)->chain;
    if (*p)
        *p = e->chain;
    unlink_lru(c, e);
    c->bytes -= e->cost;
    c->entries--;
    svc_rentry_release(e);
}

static svc_rentry *find(svc_rcache *c, const unsigned char *key)
{
    for (svc_rentry *e = c->buckets[bucket_of(key)]; e; e = e->chain)
        if (!memcmp(e->key, key, SVC_RKEY_LEN))
            return e;
    return NULL;
}

svc_rentry *svc_rcache_get(svc_rcache *c, const unsigned char key[SVC_RKEY_LEN])
{
    if (NULL == c)
        return NULL;
    pthread_mutex_lock(&c->mu);
    svc_rentry *e = find(c, key);
    if (e && e->expires && mono_now() >= e->expires) {
        drop(c, e);
        e = NULL;
    }
    if (e) {
        unlink_lru(c, e);
        push_front(c, e);
        atomic_fetch_add(&e->refs, 1);
    }
    pthread_mutex_unlock(&c->mu);
    /* second tier: on a local miss, ask svc_shared_get here and put what it
     * answers (under its own cost) before returning it */
    return e;
}

void svc_rcache_put(svc_rcache *c, svc_rentry *e)
{
    if (NULL == e)
        return;
    if (NULL == c || e->cost > c->max_bytes || e->len > c->max_entry) {
        svc_rentry_release(e);
        return;
    }
    pthread_mutex_lock(&c->mu);
    svc_rentry *old = find(c, e->key);
    if (old)
        drop(c, old);
    while (c->tail && c->bytes + e->cost > c->max_bytes)
        drop(c, c->tail);
    unsigned b = bucket_of(e->key);
    e->chain = c->buckets[b];
    c->buckets[b] = e;
    push_front(c, e);
    c->bytes += e->cost;
    c->entries++;
    pthread_mutex_unlock(&c->mu);
    /* second tier: svc_shared_put(e) here (key, etag, headers, body, ttl) */
}

void svc_rcache_stats(svc_rcache *c, size_t *entries, size_t *bytes)
{
    *entries = *bytes = 0;
    if (NULL == c)
        return;
    pthread_mutex_lock(&c->mu);
    *entries = c->entries;
    *bytes = c->bytes;
    pthread_mutex_unlock(&c->mu);
}
