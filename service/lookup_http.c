/*
 * lookup_http.c - the lookup engine's thread and its HTTP client (see lookup.c).
 *
 * Owns the libcurl multi handle's work: starting transfers while fewer than
 * `concurrency` run (requests taking turns, lookup_sched.c), the limits on
 * each (response cap, timeouts, http/https only, no redirects: a URL is only
 * ever the configured base plus an encoded name, so nothing here can be
 * pointed elsewhere), reading finished transfers into answers and aborting
 * the transfers no request claims any more.
 */
#include "lookup_int.h"
#include "lookup_store.h"
#include "../core/health.h"
#include "../core/pypi.h"
#include "../core/scorecard.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The upstream a kind of lookup asks, for the labelled metrics. */
static svc_upstream upstream_of(int kind)
{
    switch (kind) {
    case K_PYPI:
    case K_PROJECT: return SVC_UP_PYPI;
    case K_CONDA:
    case K_TARBZ2: return SVC_UP_CONDA;
    case K_OSV_BATCH:
    case K_OSV_VULN: return SVC_UP_OSV;
    case K_KEV: return SVC_UP_KEV;
    case K_EPSS: return SVC_UP_EPSS;
    case K_SCORECARD: return SVC_UP_SCORECARD;
    case K_CHANNEL: return SVC_UP_CHANNEL;
    }
    return SVC_UP_N;
}

static size_t on_body(char *p, size_t size, size_t n, void *cls)
{
    svc_lk_xfer *x = cls;
    size_t k = size * n;
    if (x->body.len + k > x->body.cap) {
        x->too_big = 1;
        return 0; /* aborts the transfer */
    }
    return sb_buf_append(&x->body, p, k) == SB_OK ? k : 0;
}

/* "Content-Range: bytes A-B/TOTAL" places a range answer in the archive */
static size_t on_header(char *p, size_t size, size_t n, void *cls)
{
    svc_lk_xfer *x = cls;
    size_t k = size * n;
    long long a, b, t;
    if (k > 20 && !strncasecmp(p, "Content-Range:", 14) && sscanf(p + 14, " bytes %lld-%lld/%lld", &a, &b, &t) == 3 &&
        a >= 0 && b >= a && t > b) {
        x->body_off = a;
        x->total = t;
    }
    return k;
}

/* A transfer for entry e (engine thread); range "A-B" or "-N", or NULL for
 * the whole body. NULL when it cannot start. */
svc_lk_xfer *svc_lk_start_xfer(svc_lookup *L, svc_lk_entry *e, int phase, const char *range, size_t cap)
{
    svc_lk_xfer *x = calloc(1, sizeof *x);
    CURL *h = curl_easy_init();
    if (!x || !h) {
        free(x);
        curl_easy_cleanup(h);
        return NULL;
    }
    sb_buf_init(&x->body, cap);
    x->e = e;
    x->h = h;
    x->phase = phase;
    x->total = -1;
    x->started = now_s();
    curl_easy_setopt(h, CURLOPT_URL, e->target ? e->target : e->url);
    curl_easy_setopt(h, CURLOPT_PRIVATE, x);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, L->timeout_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, L->timeout_ms);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_USERAGENT, "sbomd");
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
    /* archives are compressed already; and a range must count the archive's own bytes */
    if (e->kind == K_PYPI || IS_RAW(e->kind))
        curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    if (e->post) {
        x->headers = curl_slist_append(NULL, "Content-Type: application/json");
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->headers);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, e->post);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)e->post_len);
    }
    if (range)
        curl_easy_setopt(h, CURLOPT_RANGE, range);
    if (curl_multi_add_handle(L->multi, h) != CURLM_OK) {
        sb_buf_free(&x->body);
        curl_easy_cleanup(h);
        free(x);
        return NULL;
    }
    x->next = L->running;
    if (L->running)
        L->running->prev = x;
    L->running = x;
    return x;
}

void svc_lk_unlink_xfer(svc_lookup *L, svc_lk_xfer *x)
{
    if (x->prev)
        x->prev->next = x->next;
    else
        L->running = x->next;
    if (x->next)
        x->next->prev = x->prev;
    curl_multi_remove_handle(L->multi, x->h);
    curl_easy_cleanup(x->h);
    curl_slist_free_all(x->headers);
    sb_buf_free(&x->body);
    free(x);
}

/* An answer digested here, off the requests' threads, into a malloc'd
 * body: the cache keeps the few lines the requests read, not the page. */
typedef sb_code (*digest_fn)(sb_arena *a, const char *data, size_t len, const char **out, size_t *out_len);
static int digest_body(const svc_lk_xfer *x, digest_fn fn, char **body, size_t *body_len)
{
    sb_arena *a = sb_arena_new(0);
    const char *dg = NULL;
    size_t dn = 0;
    int ok = a && fn(a, x->body.data ? x->body.data : "", x->body.len, &dg, &dn) == SB_OK &&
             NULL != (*body = malloc(dn + 1));
    if (ok) {
        memcpy(*body, dg, dn + 1);
        *body_len = dn;
    }
    sb_arena_destroy(a);
    return ok;
}

static void finish(svc_lookup *L, CURLMsg *msg)
{
    svc_lk_xfer *x = NULL;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
    long status = 0;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
    svc_lk_entry *e = x->e;
    int ok = 0, negative = 0, follows = 0;
    char *license = NULL, *body = NULL;
    size_t body_len = 0;
    if (IS_OSV(e->kind)) {
        /* OSV answers are parsed by the request that asked (core/vuln.c);
         * a 404 for a record is a failure like any other: the id is kept */
        ok = msg->data.result == CURLE_OK && status == 200 && x->body.len > 0;
        if (ok && NULL == (body = malloc(x->body.len + 1)))
            ok = 0;
        if (ok) {
            memcpy(body, x->body.data, x->body.len);
            body[x->body.len] = '\0';
            body_len = x->body.len;
        }
    } else if (e->kind == K_CHANNEL) {
        /* a channel index is digested here: the cache keeps a line per name and version */
        ok = msg->data.result == CURLE_OK && status == 200;
        if (ok) {
            ok = digest_body(x, sb_health_channel_digest, &body, &body_len);
        }
    } else if (e->kind == K_SCORECARD) {
        /* a 404 is a repository the API has not scored: kept as "" */
        ok = msg->data.result == CURLE_OK && (status == 200 || status == 404);
        negative = status == 404;
        if (ok && negative) {
            ok = NULL != (body = strdup(""));
        } else if (ok) {
            ok = digest_body(x, sb_scorecard_digest, &body, &body_len);
        }
    } else if (e->kind == K_PROJECT) {
        /* digested here, off the requests' threads: the cache keeps a few
         * lines per release, not the project's whole page */
        ok = msg->data.result == CURLE_OK && (status == 200 || status == 404);
        negative = status == 404;
        if (ok && negative) {
            ok = NULL != (body = strdup(""));
        } else if (ok) {
            ok = digest_body(x, sb_health_pypi_digest, &body, &body_len);
        }
    } else if (e->kind == K_PYPI) {
        ok = msg->data.result == CURLE_OK && (status == 200 || status == 404);
        negative = status == 404;
        if (ok && status == 200) {
            sb_arena *a = sb_arena_new(0);
            const char *lic = NULL;
            if (a && sb_pypi_license(a, x->body.data ? x->body.data : "", x->body.len, &lic) == SB_OK) {
                license = lic ? strdup(lic) : NULL;
                svc_store_pypi_put(L->cache, e->url, license);
            } else {
                ok = 0; /* an answer that is not a release document */
            }
            sb_arena_destroy(a);
        }
    } else {
        follows = svc_lk_conda_step(L, x, msg->data.result, status, &ok, &negative);
    }
    if (ok && IS_OSV(e->kind))
        svc_lk_shared_put(e->url, 'O',
                          e->kind == K_KEV    ? L->kev_ttl
                          : e->kind == K_EPSS ? L->epss_ttl
                                              : L->osv_ttl,
                          0, body, body_len);
    else if (ok && e->kind == K_PYPI)
        svc_lk_shared_put(e->url, license ? 'P' : 'p', negative ? L->neg_ttl : L->ttl, 0, license,
                          license ? strlen(license) : 0);
    else if (ok && negative && !follows)
        svc_lk_shared_put(e->url, 'c', L->neg_ttl, 0, NULL, 0);
    double spent = now_s() - x->started;
    svc_lk_unlink_xfer(L, x);
    /* a conda range that leads to the next one is no failure of its own */
    svc_metrics_lookup(L->m, upstream_of(e->kind), ok || follows, spent);
    if (follows)
        return; /* the entry's next range is running */
    pthread_mutex_lock(&L->mu);
    e->state = ok ? E_ANSWERED : E_FAILED;
    if (e->kind == K_PYPI) {
        free(e->license);
        e->license = license;
    }
    if (IS_RAW(e->kind)) {
        free(e->body);
        e->body = body;
        e->body_len = body_len;
    }
    double life = e->kind == K_KEV                      ? L->kev_ttl
                  : e->kind == K_EPSS                   ? L->epss_ttl
                  : e->kind == K_SCORECARD && !negative ? L->scorecard_ttl
                  : e->kind == K_CHANNEL                ? L->channel_ttl
                  : IS_OSV(e->kind)                     ? L->osv_ttl
                  : negative                            ? L->neg_ttl
                                                        : L->ttl;
    e->expires = now_s() + (ok ? life : 0.0);
    L->active--;
    svc_sched_done(&L->sched, &e->it);
    svc_lk_lru_push(L, e);
    svc_lk_evict(L);
    pthread_cond_broadcast(&L->answered);
    pthread_mutex_unlock(&L->mu);
}

/* Abort the transfers no request claims any more (their clients went, or
 * their deadlines passed). Engine thread, lock held. */
static void drop_abandoned(svc_lookup *L)
{
    for (svc_lk_xfer *x = L->running, *next; x; x = next) {
        next = x->next;
        svc_lk_entry *e = x->e;
        if (e->it.wanters)
            continue;
        svc_lk_unlink_xfer(L, x); /* closes its connection: the index stops working for nobody */
        e->state = E_FAILED;
        e->expires = 0;
        L->active--;
        svc_sched_done(&L->sched, &e->it);
        svc_lk_lru_push(L, e);
        atomic_fetch_add(&L->m->lookups_cancelled, 1);
        pthread_cond_broadcast(&L->answered);
    }
}

/* Fill the free slots, requests taking turns. Engine thread, lock held. */
static void start_turns(svc_lookup *L)
{
    svc_sched_item *it;
    while (L->active < (size_t)L->concurrency && (it = svc_sched_next(&L->sched))) {
        svc_lk_entry *e = entry_of(it);
        e->state = E_RUNNING;
        int phase = e->kind == K_CONDA ? X_TAIL : X_WHOLE;
        char tail[32];
        snprintf(tail, sizeof tail, "-%d", SB_ARCHIVE_TAIL);
        if (svc_lk_start_xfer(L, e, phase, phase == X_TAIL ? tail : NULL,
                              e->kind == K_PYPI || IS_RAW(e->kind) ? MAX_BODY : MAX_MEMBER_BODY)) {
            L->active++;
        } else {
            e->state = E_FAILED;
            e->expires = 0;
            svc_sched_done(&L->sched, it);
            svc_lk_lru_push(L, e);
            pthread_cond_broadcast(&L->answered);
        }
    }
}

void *svc_lk_engine(void *cls)
{
    svc_lookup *L = cls;
    for (;;) {
        pthread_mutex_lock(&L->mu);
        int stop = L->stop;
        if (!stop) {
            drop_abandoned(L);
            start_turns(L);
        }
        pthread_mutex_unlock(&L->mu);
        if (stop)
            break;
        int running = 0;
        curl_multi_perform(L->multi, &running);
        CURLMsg *msg;
        int left, finished = 0;
        while ((msg = curl_multi_info_read(L->multi, &left)))
            if (msg->msg == CURLMSG_DONE) {
                finish(L, msg);
                finished++;
            }
        /* a finished transfer frees a slot: refill it now, not after the poll times out */
        if (0 == finished)
            curl_multi_poll(L->multi, NULL, 0, 200, NULL);
    }
    return NULL;
}
