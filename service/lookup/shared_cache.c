/*
 * shared_cache.c - the Redis backend of the shared cache (see
 * shared_cache.h): URL parsing, the read pool, the writer thread, backoff.
 *
 * DESIGN: one process-wide state S. Reads take a slot of the pool (a
 * connection under its own mutex: the first free one, else wait for one in
 * turn), so as many reads run at once as there are slots, never two on one
 * connection. Writes go to a bounded queue that one thread empties in
 * pipelined batches over its own connection. A failed connect or command
 * closes that connection and marks Redis down for a backoff that doubles
 * (100 ms .. 5 s) while failures go on; while down, reads answer
 * SVC_SHARED_ERROR without touching the network, so a dead Redis costs a
 * request nothing and a slow one at most --cache-timeout-ms per command.
 */
#include "shared_cache.h"
#include "../log.h"
#include "../../core/deadline.h"

#include <hiredis/hiredis.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define BACKOFF_MIN 0.1
#define BACKOFF_MAX 5.0
#define QUEUE_MAX_BYTES (64u << 20) /* writes waiting; past it they are dropped */
#define WRITE_BATCH 64              /* SETs pipelined per round trip */

typedef struct slot {
    pthread_mutex_t mu;
    redisContext *c;
} slot;

typedef struct item {
    char *key;
    char *val;
    size_t klen, vlen;
    long long ttl_ms;
    struct item *next;
} item;

static struct {
    int on;
    svc_shared_url url;
    char prefix[128];
    size_t plen;
    struct timeval tv;
    size_t max_value;
    long ttl_cap;
    svc_metrics *m;
    slot *slots;
    size_t nslots;
    atomic_uint rr;
    /* down: no connection is tried before down_until (monotonic seconds) */
    pthread_mutex_t down_mu;
    double down_until, backoff;
    int down_logged;
    /* the writer */
    pthread_t writer;
    pthread_mutex_t qmu;
    pthread_cond_t qcv, qempty;
    item *head, *tail;
    size_t qbytes, inflight;
    int stop;
    slot wslot;
} S;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- URL ------------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Copy p[0..n) into out decoding %XX; -1 when it does not fit or an escape is bad. */
static int unescape(const char *p, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c == '%') {
            int hi = i + 2 < n ? hexval(p[i + 1]) : -1, lo = i + 2 < n ? hexval(p[i + 2]) : -1;
            if (hi < 0 || lo < 0 || (0 == hi && 0 == lo))
                return -1; /* a bad escape, or a NUL */
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (k + 1 >= cap)
            return -1;
        out[k++] = c;
    }
    out[k] = '\0';
    return 0;
}

sb_code svc_shared_parse_url(const char *url, svc_shared_url *u, sb_err *err)
{
    memset(u, 0, sizeof *u);
    u->port = 6379;
    if (!strncmp(url, "rediss://", 9)) {
        return sb_err_set(
            err, SB_EUNSUPPORTED,
            "cache-url: rediss:// (TLS) needs hiredis with TLS support (1.0 and later); this build links Debian's "
            "hiredis 0.14, which has none: reach Redis over redis:// on a private network, or through a TLS tunnel "
            "(stunnel, a sidecar) listening on localhost");
    }
    if (strncmp(url, "redis://", 8)) {
        return sb_err_set(err, SB_EINVAL, "cache-url '%.100s' must start with redis://", url);
    }
    const char *p = url + 8, *end = p + strcspn(p, "/?#");
    const char *at = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == '@')
            at = q; /* the last '@': a password may hold one unescaped */
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        size_t ul = colon ? (size_t)(colon - p) : (size_t)(at - p);
        if (unescape(p, ul, u->user, sizeof u->user) != 0) {
            return sb_err_set(err, SB_EINVAL, "cache-url: the user name is too long or badly escaped");
        }
        if (colon) {
            if (unescape(colon + 1, (size_t)(at - colon - 1), u->password, sizeof u->password) != 0) {
                return sb_err_set(err, SB_EINVAL, "cache-url: the password is too long or badly escaped");
            }
            u->has_password = 1;
        } else if (u->user[0]) {
            /* redis://secret@host: a lone userinfo is the password, as redis-cli -u reads it */
            snprintf(u->password, sizeof u->password, "%s", u->user);
            u->user[0] = '\0';
            u->has_password = 1;
        }
        p = at + 1;
    }
    const char *hend, *port = NULL;
    if (*p == '[') {
        hend = memchr(p, ']', (size_t)(end - p));
        if (NULL == hend) {
            return sb_err_set(err, SB_EINVAL, "cache-url: an IPv6 host needs its closing ]");
        }
        if ((size_t)(hend - p - 1) >= sizeof u->host || hend == p + 1) {
            return sb_err_set(err, SB_EINVAL, "cache-url: bad host");
        }
        memcpy(u->host, p + 1, (size_t)(hend - p - 1));
        hend++;
        if (hend < end && *hend != ':') {
            return sb_err_set(err, SB_EINVAL, "cache-url: unexpected text after the host");
        }
        port = hend < end ? hend + 1 : NULL;
    } else {
        hend = memchr(p, ':', (size_t)(end - p));
        port = hend ? hend + 1 : NULL;
        hend = hend ? hend : end;
        if (hend == p || (size_t)(hend - p) >= sizeof u->host) {
            return sb_err_set(err, SB_EINVAL, "cache-url: a host is needed (redis://host:6379/0)");
        }
        memcpy(u->host, p, (size_t)(hend - p));
    }
    for (const char *h = u->host; *h; h++)
        if (!((*h >= 'a' && *h <= 'z') || (*h >= 'A' && *h <= 'Z') || (*h >= '0' && *h <= '9') || *h == '.' ||
              *h == '-' || *h == ':' || *h == '_')) {
            return sb_err_set(err, SB_EINVAL, "cache-url: bad character in the host");
        }
    if (port) {
        long v = 0;
        const char *q = port;
        for (; q < end && *q >= '0' && *q <= '9' && v <= 65535; q++)
            v = v * 10 + (*q - '0');
        if (q != end || q == port || v < 1 || v > 65535) {
            return sb_err_set(err, SB_EINVAL, "cache-url: the port must be a number in [1, 65535]");
        }
        u->port = (int)v;
    }
    if (*end == '/' && end[1]) {
        char *stop;
        errno = 0;
        long db = strtol(end + 1, &stop, 10);
        if (errno || stop == end + 1 || *stop || db < 0 || db > 100000 || end[1] == '-' || end[1] == '+') {
            return sb_err_set(err, SB_EINVAL, "cache-url: the database must be a number (redis://host:6379/0)");
        }
        u->db = db;
    } else if (*end && !(*end == '/' && !end[1])) {
        return sb_err_set(err, SB_EINVAL, "cache-url: no query or fragment is understood");
    }
    return 0;
}

/* ---- connections and backoff ------------------------------------------ */

static int is_down(char *why, size_t whyn)
{
    pthread_mutex_lock(&S.down_mu);
    double left = S.down_until - now_s();
    pthread_mutex_unlock(&S.down_mu);
    if (left <= 0)
        return 0;
    snprintf(why, whyn, "Redis at %s:%d unreachable, retrying in %.0f ms", S.url.host, S.url.port, left * 1e3);
    return 1;
}

static void mark_down(const char *what)
{
    pthread_mutex_lock(&S.down_mu);
    S.backoff = S.backoff > 0 ? S.backoff * 2 : BACKOFF_MIN;
    if (S.backoff > BACKOFF_MAX)
        S.backoff = BACKOFF_MAX;
    S.down_until = now_s() + S.backoff;
    int log = !S.down_logged;
    S.down_logged = 1;
    pthread_mutex_unlock(&S.down_mu);
    if (log) /* once per outage, not once per request */
        svc_log_error("shared cache unreachable: lookups go to the network", what);
}

static void mark_up(void)
{
    pthread_mutex_lock(&S.down_mu);
    int was = S.down_logged;
    S.backoff = 0;
    S.down_until = 0;
    S.down_logged = 0;
    pthread_mutex_unlock(&S.down_mu);
    if (was)
        svc_log_event("shared cache reachable again", S.url.host);
}

/* A reply that must be +OK (AUTH, SELECT). */
static int ok_reply(redisContext *c, int argc, const char **argv, char *why, size_t whyn)
{
    redisReply *r = redisCommandArgv(c, argc, argv, NULL);
    int ok = r && r->type == REDIS_REPLY_STATUS;
    if (!ok)
        snprintf(why, whyn, "%s: %.120s", argv[0], r ? (r->str ? r->str : "unexpected reply") : c->errstr);
    if (r)
        freeReplyObject(r);
    return ok;
}

/* s->c connected (slot lock held): 0, or -1 with the reason. */
static int connect_slot(slot *s, char *why, size_t whyn)
{
    if (s->c)
        return 0;
    if (is_down(why, whyn))
        return -1;
    redisContext *c = redisConnectWithTimeout(S.url.host, S.url.port, S.tv);
    if (NULL == c || c->err) {
        snprintf(why, whyn, "Redis at %s:%d: %s", S.url.host, S.url.port, c ? c->errstr : "out of memory");
        if (c)
            redisFree(c);
        mark_down(why);
        return -1;
    }
    redisSetTimeout(c, S.tv);
    char db[24];
    snprintf(db, sizeof db, "%ld", S.url.db);
    /* AUTH user password (Redis 6 ACL) when a user is named, else AUTH password */
    const char *auth[3] = {"AUTH", S.url.user, S.url.password};
    int an = 3;
    if (!S.url.user[0]) {
        auth[1] = S.url.password;
        an = 2;
    }
    const char *sel[2] = {"SELECT", db};
    if ((S.url.has_password && !ok_reply(c, an, auth, why, whyn)) || (S.url.db && !ok_reply(c, 2, sel, why, whyn))) {
        redisFree(c);
        mark_down(why);
        return -1;
    }
    s->c = c;
    mark_up();
    return 0;
}

/* After a command that got no reply: the connection is unusable (a reply
 * may still arrive on it), so it goes, and Redis is down for a while. */
static void drop_conn(slot *s, char *why, size_t whyn)
{
    snprintf(why, whyn, "Redis at %s:%d: %s", S.url.host, S.url.port,
             s->c && s->c->errstr[0] ? s->c->errstr : "no reply");
    if (s->c)
        redisFree(s->c);
    s->c = NULL;
    mark_down(why);
}

/* A kept connection failed the way one does after Redis restarted (closed
 * by the server, reset), not by a timeout: it is closed and the caller may
 * connect again at once, without counting an outage. */
static int stale(slot *s)
{
    int e = errno;
    int closed = s->c->err == REDIS_ERR_EOF ||
                 (s->c->err == REDIS_ERR_IO && e != EAGAIN && e != EWOULDBLOCK && e != ETIMEDOUT && e != EINTR);
    if (closed) {
        redisFree(s->c);
        s->c = NULL;
    }
    return closed;
}

static slot *take_slot(void)
{
    for (size_t i = 0; i < S.nslots; i++) {
        slot *s = &S.slots[(atomic_fetch_add(&S.rr, 1)) % S.nslots];
        if (pthread_mutex_trylock(&s->mu) == 0)
            return s;
    }
    slot *s = &S.slots[atomic_fetch_add(&S.rr, 1) % S.nslots];
    pthread_mutex_lock(&s->mu);
    return s;
}

static const char *full_key(const char *key, sb_arena *a, size_t *len)
{
    size_t kl = strlen(key);
    char *k = sb_arena_stralloc(a, S.plen + kl + 1);
    if (k) {
        memcpy(k, S.prefix, S.plen);
        memcpy(k + S.plen, key, kl + 1);
        *len = S.plen + kl;
    }
    return k;
}

/* ---- reads -------------------------------------------------------------- */

svc_shared_rc svc_shared_mget(const char *const *keys, size_t n, sb_arena *a, const char **vals, size_t *lens,
                              char *why, size_t whyn)
{
    for (size_t i = 0; i < n; i++) {
        vals[i] = NULL;
        lens[i] = 0;
    }
    if (!S.on)
        return SVC_SHARED_OFF;
    if (0 == n)
        return SVC_SHARED_HIT;
    const char **argv = sb_arena_alloc(a, (n + 1) * sizeof *argv);
    size_t *argl = sb_arena_alloc(a, (n + 1) * sizeof *argl);
    if (NULL == argv || NULL == argl) {
        snprintf(why, whyn, "out of memory");
        return SVC_SHARED_ERROR;
    }
    argv[0] = "MGET";
    argl[0] = 4;
    for (size_t i = 0; i < n; i++)
        if (NULL == (argv[i + 1] = full_key(keys[i], a, &argl[i + 1]))) {
            snprintf(why, whyn, "out of memory");
            return SVC_SHARED_ERROR;
        }
    slot *s = take_slot();
    svc_shared_rc rc = SVC_SHARED_ERROR;
    redisReply *r = NULL;
    for (int attempt = 0; attempt < 2 && NULL == r; attempt++) {
        int reused = s->c != NULL;
        if (connect_slot(s, why, whyn) != 0)
            break;
        r = redisCommandArgv(s->c, (int)(n + 1), argv, argl);
        if (NULL == r && !(reused && stale(s))) {
            drop_conn(s, why, whyn);
            break;
        }
    }
    pthread_mutex_unlock(&s->mu);
    if (r && (r->type != REDIS_REPLY_ARRAY || r->elements != n)) {
        snprintf(why, whyn, "Redis answered MGET with %.120s",
                 r->type == REDIS_REPLY_ERROR && r->str ? r->str : "something else");
    } else if (r) {
        rc = SVC_SHARED_HIT;
        size_t hits = 0;
        for (size_t i = 0; i < n; i++) {
            redisReply *e = r->element[i];
            if (e->type != REDIS_REPLY_STRING)
                continue;
            char *v = sb_arena_alloc(a, e->len + 1);
            if (NULL == v)
                continue; /* a miss, as far as the caller can tell */
            memcpy(v, e->str, e->len);
            v[e->len] = '\0';
            vals[i] = v;
            lens[i] = e->len;
            hits++;
        }
        atomic_fetch_add(&S.m->shared_hits, hits);
        atomic_fetch_add(&S.m->shared_misses, n - hits);
    }
    if (r)
        freeReplyObject(r);
    if (rc == SVC_SHARED_ERROR)
        atomic_fetch_add(&S.m->shared_errors, 1);
    return rc;
}

svc_shared_rc svc_shared_get(const char *key, sb_arena *a, const char **bytes, size_t *len, char *why, size_t whyn)
{
    svc_shared_rc rc = svc_shared_mget(&key, 1, a, bytes, len, why, whyn);
    return rc == SVC_SHARED_HIT && NULL == *bytes ? SVC_SHARED_MISS : rc;
}

/* ---- writes ------------------------------------------------------------- */

static void free_item(item *it)
{
    free(it->key);
    free(it->val);
    free(it);
}

int svc_shared_putv(const char *key, const void *head, size_t hlen, const void *body, size_t blen, long ttl)
{
    if (!S.on)
        return -1;
    if (S.ttl_cap > 0 && ttl > S.ttl_cap)
        ttl = S.ttl_cap;
    size_t vlen = hlen + blen, kl = strlen(key);
    if (ttl <= 0 || vlen > S.max_value) {
        atomic_fetch_add(&S.m->shared_dropped, ttl > 0);
        return -1;
    }
    item *it = calloc(1, sizeof *it);
    if (it) {
        it->key = malloc(S.plen + kl + 1);
        it->val = malloc(vlen ? vlen : 1);
    }
    if (NULL == it || NULL == it->key || NULL == it->val) {
        if (it)
            free_item(it);
        atomic_fetch_add(&S.m->shared_dropped, 1);
        return -1;
    }
    memcpy(it->key, S.prefix, S.plen);
    memcpy(it->key + S.plen, key, kl + 1);
    it->klen = S.plen + kl;
    if (hlen)
        memcpy(it->val, head, hlen);
    if (blen)
        memcpy(it->val + hlen, body, blen);
    it->vlen = vlen;
    it->ttl_ms = (long long)ttl * 1000;
    pthread_mutex_lock(&S.qmu);
    if (S.stop || S.qbytes + vlen > QUEUE_MAX_BYTES) {
        pthread_mutex_unlock(&S.qmu);
        free_item(it);
        atomic_fetch_add(&S.m->shared_dropped, 1);
        return -1;
    }
    if (S.tail)
        S.tail->next = it;
    else
        S.head = it;
    S.tail = it; /* the queue owns it now: the writer frees it */
    S.qbytes += vlen;
    pthread_cond_signal(&S.qcv);
    pthread_mutex_unlock(&S.qmu);
    return 0;
}

int svc_shared_put(const char *key, const void *bytes, size_t len, long ttl)
{
    return svc_shared_putv(key, bytes, len, NULL, 0, ttl);
}

/* Send a batch as one pipeline (SET key value PX ms each). */
static void send_batch(item *batch)
{
    char why[256];
    size_t n = 0, ok = 0;
    for (item *it = batch; it; it = it->next)
        n++;
    for (int attempt = 0; attempt < 2 && 0 == ok; attempt++) {
        int reused = S.wslot.c != NULL, failed = 0;
        if (connect_slot(&S.wslot, why, sizeof why) != 0)
            break;
        char ms[24];
        size_t sent = 0;
        for (item *it = batch; it; it = it->next, sent++) {
            snprintf(ms, sizeof ms, "%lld", it->ttl_ms);
            const char *argv[5] = {"SET", it->key, it->val, "PX", ms};
            size_t argl[5] = {3, it->klen, it->vlen, 2, strlen(ms)};
            if (redisAppendCommandArgv(S.wslot.c, 5, argv, argl) != REDIS_OK)
                break;
        }
        for (size_t i = 0; i < sent; i++) {
            void *reply = NULL;
            if (redisGetReply(S.wslot.c, &reply) != REDIS_OK || NULL == reply) {
                failed = 1;
                break;
            }
            redisReply *r = reply;
            ok += r->type == REDIS_REPLY_STATUS;
            freeReplyObject(r);
        }
        if (!failed)
            break;
        /* a connection Redis closed (a restart): once more on a new one */
        if (ok || !(reused && stale(&S.wslot))) {
            drop_conn(&S.wslot, why, sizeof why);
            break;
        }
    }
    atomic_fetch_add(&S.m->shared_puts, ok);
    if (ok < n)
        atomic_fetch_add(&S.m->shared_errors, n - ok);
}

static void *writer(void *cls)
{
    (void)cls;
    pthread_mutex_lock(&S.qmu);
    for (;;) {
        while (!S.head && !S.stop)
            pthread_cond_wait(&S.qcv, &S.qmu);
        if (!S.head && S.stop)
            break;
        item *batch = S.head, *last = batch;
        size_t n = 1, bytes = batch->vlen;
        while (last->next && n < WRITE_BATCH) {
            last = last->next;
            bytes += last->vlen;
            n++;
        }
        S.head = last->next;
        if (!S.head)
            S.tail = NULL;
        last->next = NULL;
        S.qbytes -= bytes;
        S.inflight = n;
        pthread_mutex_unlock(&S.qmu);
        send_batch(batch);
        while (batch) {
            item *next = batch->next;
            free_item(batch);
            batch = next;
        }
        pthread_mutex_lock(&S.qmu);
        S.inflight = 0;
        if (!S.head)
            pthread_cond_broadcast(&S.qempty);
    }
    pthread_mutex_unlock(&S.qmu);
    return NULL;
}

int svc_shared_flush(long ms)
{
    if (!S.on)
        return 1;
    struct timespec t;
    sb_deadline_after(CLOCK_MONOTONIC, (long long)ms * 1000000LL, &t);
    pthread_mutex_lock(&S.qmu);
    while ((S.head || S.inflight) && pthread_cond_timedwait(&S.qempty, &S.qmu, &t) == 0)
        ;
    int empty = !S.head && !S.inflight;
    pthread_mutex_unlock(&S.qmu);
    return empty;
}

/* ---- life ----------------------------------------------------------------- */

int svc_shared_enabled(void)
{
    return S.on;
}

sb_code svc_shared_init(const svc_cfg *cfg, svc_metrics *m, sb_err *err)
{
    if (!cfg->cache_url[0])
        return 0;
    if (svc_shared_parse_url(cfg->cache_url, &S.url, err) != SB_OK)
        return err->code;
    snprintf(S.prefix, sizeof S.prefix, "%s", cfg->cache_prefix);
    S.plen = strlen(S.prefix);
    S.tv.tv_sec = cfg->cache_timeout_ms / 1000;
    S.tv.tv_usec = (cfg->cache_timeout_ms % 1000) * 1000;
    S.max_value = (size_t)cfg->cache_max_value;
    S.ttl_cap = cfg->cache_ttl;
    S.m = m;
    S.nslots = (size_t)cfg->cache_pool;
    S.slots = calloc(S.nslots, sizeof *S.slots);
    if (NULL == S.slots) {
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < S.nslots; i++)
        pthread_mutex_init(&S.slots[i].mu, NULL);
    pthread_mutex_init(&S.wslot.mu, NULL);
    pthread_mutex_init(&S.down_mu, NULL);
    pthread_mutex_init(&S.qmu, NULL);
    pthread_cond_init(&S.qcv, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&S.qempty, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&S.writer, NULL, writer, NULL) != 0) {
        free(S.slots);
        S.slots = NULL;
        return sb_err_set(err, SB_EIO, "cannot start the shared cache writer");
    }
    S.on = 1;
    char detail[700];
    snprintf(detail, sizeof detail, "redis://%s%s:%d/%ld prefix '%s', %ld connection(s), %ld ms timeout",
             S.url.has_password ? "***@" : "", S.url.host, S.url.port, S.url.db, S.prefix, cfg->cache_pool,
             cfg->cache_timeout_ms);
    svc_log_event("shared cache", detail);
    return 0;
}

void svc_shared_shutdown(void)
{
    if (!S.on)
        return;
    svc_shared_flush(1000);
    pthread_mutex_lock(&S.qmu);
    S.stop = 1;
    /* what is still queued is dropped: shutdown waits for nothing more */
    for (item *it = S.head, *next; it; it = next) {
        next = it->next;
        free_item(it);
    }
    S.head = S.tail = NULL;
    pthread_cond_broadcast(&S.qcv);
    pthread_mutex_unlock(&S.qmu);
    pthread_join(S.writer, NULL);
    for (size_t i = 0; i < S.nslots; i++) {
        if (S.slots[i].c)
            redisFree(S.slots[i].c);
        pthread_mutex_destroy(&S.slots[i].mu);
    }
    if (S.wslot.c)
        redisFree(S.wslot.c);
    free(S.slots);
    S.slots = NULL;
    S.on = 0;
}
