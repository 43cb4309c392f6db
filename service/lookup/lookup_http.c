/*
 * lookup_http.c - the lookup engine's life and thread, and its HTTP client
 * (see lookup.c).
 *
 * Owns svc_lookup_start/svc_lookup_stop (the engine and its thread), and
 * the libcurl multi handle's work: starting transfers while fewer than
 * `concurrency` run (requests taking turns, lookup_sched.c), the limits on
 * each (response cap, timeouts, http/https only, no redirects: a URL is only
 * ever the configured base plus an encoded name, so nothing here can be
 * pointed elsewhere), reading finished transfers into answers and aborting
 * the transfers no request claims any more.
 *
 * Nothing here knows one kind of lookup from another: a transfer's kind
 * names its descriptor in svc_lk_kinds (lookup_kinds.c, lookup_int.h),
 * which says how big a body may be and how it starts, which statuses
 * answer, how the body is digested and what step follows, how long the
 * answer is kept, what the shared cache gets, and the metrics label.
 */
#include "lookup_int.h"
#include "lookup_store.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
static svc_lk_xfer *start_xfer(svc_lookup *L, svc_lk_entry *e, int phase, const char *range, size_t cap)
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
    if (!svc_lk_kinds[e->kind]->archive)
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

static void unlink_xfer(svc_lookup *L, svc_lk_xfer *x)
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

/* A descriptor's TTL field: the double at that offset of the engine. */
static double ttl_at(const svc_lookup *L, size_t off)
{
    double t;
    memcpy(&t, (const char *)L + off, sizeof t);
    return t;
}

/* A finished transfer (engine thread): its status judged and its body
 * digested by its kind's rules outside the lock, then either the next step
 * started or the answer stored and the waiters woken. */
static void finish(svc_lookup *L, CURLMsg *msg)
{
    svc_lk_xfer *x = NULL;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
    long status = 0;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
    svc_lk_entry *e = x->e;
    const svc_lk_kind *d = svc_lk_kinds[e->kind];
    svc_lk_answer an = {0};
    int ok = 0, follows = 0;
    if (msg->data.result != CURLE_OK) {
        ok = 0;
    } else if (d->absent && status == d->absent) {
        an.absent = 1;
        ok = NULL == d->absent_body || NULL != (an.body = strdup(d->absent_body));
    } else if (status == d->found[0] || (d->found[1] && status == d->found[1])) {
        ok = d->digest(L, x, status, &an);
    }
    if (ok && an.next_range[0]) {
        /* the next range is the same lookup: the entry stays running */
        svc_lk_xfer *next = start_xfer(L, e, an.next_phase, an.next_range, d->cap);
        if (next)
            next->member = x->member;
        follows = next != NULL;
        ok = 0;
    }
    double life = ttl_at(L, an.absent ? d->absent_ttl : d->ttl);
    char tag = an.absent ? d->absent_tag : an.tag ? an.tag : d->tag;
    if (ok && tag)
        svc_lk_shared_put(e->url, tag, life, an.method, an.share, an.share_len);
    double spent = now_s() - x->started;
    unlink_xfer(L, x);
    /* a conda range that leads to the next one is no failure of its own */
    svc_metrics_lookup(L->m, d->upstream, ok || follows, spent);
    if (follows)
        return; /* the entry's next range is running */
    pthread_mutex_lock(&L->mu);
    e->state = ok ? E_ANSWERED : E_FAILED;
    free(e->license);
    e->license = an.license;
    free(e->info_dir);
    e->info_dir = an.info_dir;
    free(e->body);
    e->body = an.body;
    e->body_len = an.body_len;
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
        unlink_xfer(L, x); /* closes its connection: the index stops working for nobody */
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
        const svc_lk_kind *d = svc_lk_kinds[e->kind];
        e->state = E_RUNNING;
        int phase = d->tail_first ? X_TAIL : X_WHOLE;
        char tail[32];
        snprintf(tail, sizeof tail, "-%d", SB_ARCHIVE_TAIL);
        if (start_xfer(L, e, phase, phase == X_TAIL ? tail : NULL, d->cap)) {
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

static void *engine(void *cls)
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

sb_code svc_lookup_start(svc_lookup **out, const svc_cfg *cfg, svc_metrics *m, sb_err *err)
{
    svc_lookup *L = calloc(1, sizeof *L);
    if (NULL == L) {
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    L->max_entries = (size_t)cfg->lookup_cache;
    L->nbuckets = L->max_entries < 1024 ? 1024 : L->max_entries;
    L->buckets = calloc(L->nbuckets, sizeof *L->buckets);
    L->multi = curl_multi_init();
    if (!L->buckets || !L->multi) {
        free(L->buckets);
        free(L);
        return sb_err_set(err, SB_EIO, "cannot start the lookup engine");
    }
    L->concurrency = cfg->concurrency;
    L->per_request = (size_t)cfg->lookup_max_per_request;
    svc_sched_init(&L->sched, (size_t)cfg->concurrency);
    L->timeout_ms = cfg->lookup_timeout * 1000;
    L->ttl = (double)cfg->lookup_ttl;
    L->neg_ttl = (double)cfg->lookup_negative_ttl;
    L->osv_ttl = (double)cfg->osv_ttl;
    L->kev_ttl = (double)cfg->kev_ttl;
    L->epss_ttl = (double)cfg->epss_ttl;
    L->scorecard_ttl = (double)cfg->scorecard_ttl;
    L->channel_ttl = (double)cfg->channel_index_ttl;
    snprintf(L->channel_tmpl, sizeof L->channel_tmpl, "%s", cfg->channel_index_url);
    snprintf(L->scorecard_base, sizeof L->scorecard_base, "%s", cfg->scorecard_url);
    snprintf(L->kev_url, sizeof L->kev_url, "%s", cfg->kev_url);
    snprintf(L->epss_url, sizeof L->epss_url, "%s", cfg->epss_url);
    snprintf(L->kev_file, sizeof L->kev_file, "%s", cfg->kev_file);
    snprintf(L->epss_file, sizeof L->epss_file, "%s", cfg->epss_file);
    L->licenses = cfg->lookups != 0;
    L->vulns = cfg->vulns != 0;
    snprintf(L->osv_base, sizeof L->osv_base, "%s", cfg->osv_url);
    for (size_t n = strlen(L->osv_base); n && L->osv_base[n - 1] == '/'; n--)
        L->osv_base[n - 1] = '\0';
    L->m = m;
    snprintf(L->base, sizeof L->base, "%s", cfg->pypi_url);
    snprintf(L->conda_base, sizeof L->conda_base, "%s", cfg->conda_url);
    if (svc_store_open(L->cache, sizeof L->cache, cfg->cache_dir, &L->own_cache, err) != SB_OK) {
        curl_multi_cleanup(L->multi);
        free(L->buckets);
        free(L);
        return err->code;
    }
    curl_multi_setopt(L->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, cfg->concurrency);
    curl_multi_setopt(L->multi, CURLMOPT_MAX_HOST_CONNECTIONS, cfg->concurrency);
    pthread_mutex_init(&L->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&L->answered, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&L->thread, NULL, engine, L) != 0) {
        curl_multi_cleanup(L->multi);
        free(L->buckets);
        free(L);
        return sb_err_set(err, SB_EIO, "cannot start the lookup thread");
    }
    *out = L;
    return 0;
}

void svc_lookup_stop(svc_lookup *L)
{
    if (NULL == L)
        return;
    pthread_mutex_lock(&L->mu);
    L->stop = 1;
    pthread_mutex_unlock(&L->mu);
    curl_multi_wakeup(L->multi);
    pthread_join(L->thread, NULL);
    /* abandon what still runs (their requests have all ended: the last
     * transfer of each frees it) */
    while (L->running) {
        svc_sched_done(&L->sched, &L->running->e->it);
        unlink_xfer(L, L->running);
    }
    svc_sched_free_all(&L->sched);
    curl_multi_cleanup(L->multi);
    for (size_t i = 0; i < L->nbuckets; i++)
        for (svc_lk_entry *e = L->buckets[i], *next; e; e = next) {
            next = e->hnext;
            svc_lk_free_entry(e);
        }
    free(L->buckets);
    if (L->own_cache)
        svc_store_remove(L->cache);
    pthread_cond_destroy(&L->answered);
    pthread_mutex_destroy(&L->mu);
    free(L);
}
