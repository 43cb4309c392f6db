/*
 * mapsrc.c - the PyPI mapping from a URL, refreshed (see mapsrc.h).
 */
#include "mapsrc.h"
#include "../log.h"
#include "../../core/buf.h"
#include "../../core/pypimap.h"
#include "../../core/uuid.h"

#include <curl/curl.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAP_MAX (256u << 20) /* as --pypi-mapping-file: the real mapping is a few MiB */

/* One generation of the map and the requests holding it. */
typedef struct gen {
    sb_pypimap *map;
    unsigned char digest[20]; /* SHA-1 of the mapping's bytes: the result cache keys by it */
    unsigned refs;            /* requests + 1 while it is current */
    struct svc_mapsrc *src;
} gen;

struct svc_mapsrc {
    pthread_mutex_t mu;
    pthread_cond_t wake;
    pthread_t thread;
    int stop, started;
    gen *cur;
    char url[512];
    char copy[PATH_MAX]; /* the cached answer on disk, "" = none */
    long ttl, timeout;
};

static size_t on_body(char *p, size_t size, size_t n, void *cls)
{
    return sb_buf_append(cls, p, size * n) == SB_OK ? size * n : 0; /* past MAP_MAX: aborted */
}

/* GET the URL into b: 0 on a 200 answer. */
static int fetch(const svc_mapsrc *m, sb_buf *b, char *why, size_t wn)
{
    CURL *h = curl_easy_init();
    if (NULL == h) {
        snprintf(why, wn, "no curl handle");
        return -1;
    }
    curl_easy_setopt(h, CURLOPT_URL, m->url);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, b);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, m->timeout);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_USERAGENT, "sbomd");
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    CURLcode rc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(h);
    if (rc != CURLE_OK || status != 200) {
        snprintf(why, wn, "%s (HTTP %ld)", rc != CURLE_OK ? curl_easy_strerror(rc) : "answered", status);
        return -1;
    }
    return 0;
}

static void gen_put(gen *g)
{
    /* lock held by the caller */
    if (g && 0 == --g->refs) {
        sb_pypimap_free(g->map);
        free(g);
    }
}

/* Install a parsed map as the current generation. */
static void install(svc_mapsrc *m, sb_pypimap *map, const unsigned char digest[20])
{
    gen *g = calloc(1, sizeof *g);
    if (NULL == g) {
        sb_pypimap_free(map);
        return;
    }
    g->map = map;
    memcpy(g->digest, digest, sizeof g->digest);
    g->refs = 1;
    g->src = m;
    pthread_mutex_lock(&m->mu);
    gen *old = m->cur;
    m->cur = g;
    gen_put(old);
    pthread_mutex_unlock(&m->mu);
}

/* Parse a body and install it; 0 on success. */
static int take_body(svc_mapsrc *m, const char *data, size_t len, const char *from)
{
    sb_pypimap *map = NULL;
    sb_err err;
    sb_err_clear(&err);
    if (sb_pypimap_parse(&map, data, len, &err) != SB_OK) {
        svc_log_error("pypi mapping not read", err.msg);
        return -1;
    }
    char detail[160];
    snprintf(detail, sizeof detail, "%zu conda names from %.100s", sb_pypimap_count(map), from);
    svc_log_event("pypi mapping loaded", detail);
    unsigned char digest[20];
    sb_sha1 c;
    sb_sha1_init(&c);
    sb_sha1_update(&c, data, len);
    sb_sha1_final(&c, digest);
    install(m, map, digest);
    return 0;
}

/* One refresh: fetch, parse, keep a copy on disk. 0 when a map came. */
static int refresh(svc_mapsrc *m)
{
    sb_buf b = SB_BUF_INIT(MAP_MAX);
    char why[160];
    int rc = fetch(m, &b, why, sizeof why);
    if (rc != 0)
        svc_log_error("pypi mapping fetch failed, keeping the map it had", why);
    else
        rc = take_body(m, b.data ? b.data : "", b.len, m->url);
    if (0 == rc && m->copy[0]) {
        char tmp[PATH_MAX + 8];
        snprintf(tmp, sizeof tmp, "%s.tmp", m->copy);
        FILE *f = fopen(tmp, "wb");
        int ok = f && fwrite(b.data ? b.data : "", 1, b.len, f) == b.len;
        if (f)
            ok &= fclose(f) == 0;
        if (!ok || rename(tmp, m->copy) != 0) {
            svc_log_error("pypi mapping copy not written", strerror(errno));
            remove(tmp);
        }
    }
    sb_buf_free(&b);
    return rc;
}

/* The copy a previous run kept, when the first fetch fails. */
static void read_copy(svc_mapsrc *m)
{
    FILE *f = m->copy[0] ? fopen(m->copy, "rb") : NULL;
    if (NULL == f)
        return;
    sb_buf b = SB_BUF_INIT(MAP_MAX);
    char chunk[65536];
    size_t n;
    int bad = 0;
    while (!bad && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        bad = sb_buf_append(&b, chunk, n) != SB_OK;
    fclose(f);
    if (!bad)
        take_body(m, b.data ? b.data : "", b.len, m->copy);
    sb_buf_free(&b);
}

static void *refresher(void *cls)
{
    svc_mapsrc *m = cls;
    pthread_mutex_lock(&m->mu);
    while (!m->stop) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_sec += m->ttl;
        while (!m->stop && pthread_cond_timedwait(&m->wake, &m->mu, &t) != ETIMEDOUT)
            ;
        if (m->stop)
            break;
        pthread_mutex_unlock(&m->mu);
        refresh(m);
        pthread_mutex_lock(&m->mu);
    }
    pthread_mutex_unlock(&m->mu);
    return NULL;
}

sb_code svc_mapsrc_start(svc_mapsrc **out, const svc_cfg *cfg, sb_err *err)
{
    svc_mapsrc *m = calloc(1, sizeof *m);
    if (NULL == m) {
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->wake, NULL);
    snprintf(m->url, sizeof m->url, "%s", cfg->pypi_mapping_url);
    if (cfg->cache_dir[0])
        snprintf(m->copy, sizeof m->copy, "%s/pypi-mapping.json", cfg->cache_dir);
    m->ttl = cfg->pypi_mapping_ttl > 0 ? cfg->pypi_mapping_ttl : 86400;
    m->timeout = cfg->lookup_timeout > 0 ? cfg->lookup_timeout : 10;
    if (refresh(m) != 0)
        read_copy(m);
    if (NULL == m->cur)
        svc_log_error("no pypi mapping yet", "conda packages stay unmapped until a refresh succeeds");
    if (pthread_create(&m->thread, NULL, refresher, m) != 0) {
        svc_mapsrc_stop(m);
        return sb_err_set(err, SB_EIO, "cannot start the pypi mapping refresher");
    }
    m->started = 1;
    *out = m;
    return 0;
}

const struct sb_pypimap *svc_mapsrc_take(svc_mapsrc *m, void **ref)
{
    *ref = NULL;
    if (NULL == m)
        return NULL;
    pthread_mutex_lock(&m->mu);
    gen *g = m->cur;
    if (g)
        g->refs++;
    pthread_mutex_unlock(&m->mu);
    *ref = g;
    return g ? g->map : NULL;
}

int svc_mapsrc_digest(svc_mapsrc *m, unsigned char out[20])
{
    if (NULL == m)
        return 0;
    pthread_mutex_lock(&m->mu);
    int have = m->cur != NULL;
    if (have)
        memcpy(out, m->cur->digest, 20);
    pthread_mutex_unlock(&m->mu);
    return have;
}

void svc_mapsrc_release(void *ref)
{
    gen *g = ref;
    if (NULL == g)
        return;
    svc_mapsrc *m = g->src;
    pthread_mutex_lock(&m->mu);
    gen_put(g);
    pthread_mutex_unlock(&m->mu);
}

void svc_mapsrc_stop(svc_mapsrc *m)
{
    if (NULL == m)
        return;
    pthread_mutex_lock(&m->mu);
    m->stop = 1;
    pthread_cond_broadcast(&m->wake);
    pthread_mutex_unlock(&m->mu);
    if (m->started)
        pthread_join(m->thread, NULL);
    gen_put(m->cur);
    pthread_mutex_destroy(&m->mu);
    pthread_cond_destroy(&m->wake);
    free(m);
}
