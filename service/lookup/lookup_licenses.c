/*
 * lookup_licenses.c - the license lookups: PyPI release pages and conda
 * archives (see lookup.c).
 *
 * Owns which lookup a package wants (and where), the prefetch of a
 * request's packages, filling packages from the answers, and the engine's
 * descriptors of these kinds (svc_lk_pypi, svc_lk_conda, svc_lk_tarbz2;
 * lookup_int.h): a release document's license (kept on disk too) and the
 * conda archive steps (tail, then the info member by range; stored on
 * disk).
 */
#include "lookup_int.h"
#include "../../core/ecosystem.h"
#include "../log.h"
#include "lookup_store.h"
#include "../../core/archive.h"
#include "../../core/enrich.h"
#include "../../core/pypi.h"
#include "../../core/select.h"

#include <curl/curl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A PyPI release document: its license, kept on disk too (lookup_store.c). */
static int pypi_digest(svc_lookup *L, svc_lk_xfer *x, long status, svc_lk_answer *an)
{
    (void)status;
    sb_arena *a = sb_arena_new(0);
    const char *lic = NULL;
    int ok = a && sb_pypi_license(a, x->body.data ? x->body.data : "", x->body.len, &lic) == SB_OK;
    if (ok) { /* else an answer that is not a release document */
        an->license = lic ? strdup(lic) : NULL;
        svc_store_pypi_put(L->cache, x->e->url, an->license);
        an->tag = an->license ? 0 : 'p'; /* a release naming none */
        an->share = an->license;
        an->share_len = an->license ? strlen(an->license) : 0;
    }
    sb_arena_destroy(a);
    return ok;
}

/* A conda archive's range (or the whole of it): the info member found in
 * the tail, or the member's own range asked for next (an->next_range), or
 * the member stored on disk and its info/ directory answered. */
static int conda_digest(svc_lookup *L, svc_lk_xfer *x, long status, svc_lk_answer *an)
{
    svc_lk_entry *e = x->e;
    if (status == 200) { /* the whole archive: a server that ignores ranges, or a .tar.bz2 */
        x->body_off = 0;
        x->total = (long long)x->body.len;
    } else if (x->total < 0) { /* a 206 without a Content-Range to place it */
        return 0;
    }
    const unsigned char *body = (const unsigned char *)(x->body.data ? x->body.data : "");
    sb_err err;
    const unsigned char *data = body;
    size_t len = x->body.len;
    unsigned method = 0;
    sb_archive_kind kind = e->kind == K_TARBZ2 ? SB_ARCHIVE_TARBZ2 : SB_ARCHIVE_CONDA;
    if (kind == SB_ARCHIVE_CONDA) {
        if (x->phase != X_MEMBER) {
            if (x->body_off + (long long)len != x->total) /* a tail must end the archive */
                return 0;
            sb_code rc = sb_zip_find_info(body, len, x->total, &x->member, &err);
            if (rc == SB_ENOTFOUND && x->body_off == 0) {
                an->absent = 1; /* the whole archive, and no info member in it */
                return 1;
            }
            if (rc != SB_OK)
                return 0;
        }
        sb_code rc = sb_zip_member_data(body, len, x->body_off, &x->member, &data, &err);
        if (rc == SB_ENOTFOUND && x->phase == X_TAIL) {
            long long off, n;
            sb_zip_member_span(&x->member, x->total, &off, &n);
            snprintf(an->next_range, sizeof an->next_range, "%lld-%lld", off, off + n - 1);
            an->next_phase = X_MEMBER;
            return 1;
        }
        if (rc != SB_OK)
            return 0;
        len = (size_t)x->member.csize;
        method = x->member.method;
    }
    char dir[PATH_MAX];
    svc_store_path(L->cache, e->url, 1, dir, sizeof dir);
    sb_code rc = sb_archive_store(dir, kind, data, len, method, &err);
    if (rc == SB_ENOTFOUND) {
        an->absent = 1;
        return 1;
    }
    if (rc != SB_OK) {
        svc_log_event("lookup-store-failed", err.msg);
        return 0;
    }
    /* the member as fetched: small, and whole */
    an->share = data;
    an->share_len = len;
    an->method = method;
    char info[PATH_MAX + 8];
    snprintf(info, sizeof info, "%s/info", dir);
    an->info_dir = strdup(info);
    return an->info_dir != NULL;
}

/* PyPI release documents: 404 is a release (or project) PyPI does not have. */
const svc_lk_kind svc_lk_pypi = {
    .upstream = SVC_UP_PYPI,
    .found = {200},
    .absent = 404,
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, ttl),
    .absent_ttl = offsetof(svc_lookup, neg_ttl),
    .tag = 'P',
    .absent_tag = 'p',
    .digest = pypi_digest,
};

/* A .conda archive: its tail by range first, then the info member's range
 * when the tail does not hold it (a server ignoring ranges answers 200). */
const svc_lk_kind svc_lk_conda = {
    .upstream = SVC_UP_CONDA,
    .found = {200, 206},
    .absent = 404, /* no such archive on the configured host */
    .cap = MAX_MEMBER_BODY,
    .archive = 1,
    .tail_first = 1,
    .ttl = offsetof(svc_lookup, ttl),
    .absent_ttl = offsetof(svc_lookup, neg_ttl),
    .tag = 'C',
    .absent_tag = 'c',
    .digest = conda_digest,
};

/* A small .tar.bz2, fetched whole (wanted() checks its size). */
const svc_lk_kind svc_lk_tarbz2 = {
    .upstream = SVC_UP_CONDA,
    .found = {200, 206},
    .absent = 404,
    .cap = MAX_MEMBER_BODY,
    .archive = 1,
    .ttl = offsetof(svc_lookup, ttl),
    .absent_ttl = offsetof(svc_lookup, neg_ttl),
    .tag = 'C',
    .absent_tag = 'c',
    .digest = conda_digest,
};

/* Which lookup, if any, a package wants: PyPI releases without a license;
 * conda binaries lacking a license or license files (their archive has
 * both), a .tar.bz2 only when small enough to fetch whole. *url is where
 * (NULL without an engine, or when the name or version is unusable). */
static int wanted(const sb_pkg *p, sb_arena *a, const svc_lookup *L, const char **url)
{
    *url = NULL;
    if (sb_eco_is(p->kind, SB_ECO_PYPI_INDEX)) {
        if ((p->license && p->license[0]) || NULL == p->version)
            return -1;
        *url = L ? sb_pypi_url(a, L->base, p->name, p->version) : NULL;
        return K_PYPI;
    }
    if (!sb_eco_is(p->kind, SB_ECO_CHANNEL) || NULL == p->location ||
        ((p->license && p->license[0]) && sb_pkg_xr(p)->nlicfiles))
        return -1;
    /* an offline server still counts the archive as a lookup not made */
    sb_archive_kind ak;
    const char *u = sb_conda_archive_url(a, L ? L->conda_base : "http://offline", p->location, &ak);
    if (NULL == u ||
        (ak == SB_ARCHIVE_TARBZ2 && (sb_pkg_xr(p)->size <= 0 || sb_pkg_xr(p)->size > SB_ARCHIVE_TARBZ2_MAX)))
        return -1;
    *url = L ? u : NULL;
    return ak == SB_ARCHIVE_TARBZ2 ? K_TARBZ2 : K_CONDA;
}

void svc_lookup_prefetch(void *cls, const sb_lock_platform *plat, const char *package_cache, sb_arena *a)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx ? ctx->engine : NULL;
    if (NULL == L || !L->licenses || NULL == plat || 0 == plat->npkgs)
        return;
    const char **urls = sb_arena_alloc(a, plat->npkgs * sizeof *urls);
    int *kinds = sb_arena_alloc(a, plat->npkgs * sizeof *kinds);
    if (!urls || !kinds)
        return; /* only an optimization: the documents' own passes still look up */
    size_t m = 0;
    for (size_t i = 0; i < plat->npkgs; i++) {
        sb_pkg p = *plat->pkgs[i]; /* a copy: the package cache may fill it, as the selection will */
        int found = 0;
        if (package_cache && sb_eco_is(p.kind, SB_ECO_CHANNEL) &&
            sb_enrich_from_cache(&p, a, package_cache, &found) != SB_OK)
            return;
        const char *u;
        int kind = wanted(&p, a, L, &u);
        if (kind < 0 || NULL == u)
            continue;
        urls[m] = u;
        kinds[m++] = kind;
    }
    svc_lk_prefetch(L, ctx, a, urls, kinds, m);
}

void svc_lookup_prefetch_pkgs(void *cls, const sb_pkg *pkgs, size_t n, sb_arena *a)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx ? ctx->engine : NULL;
    if (NULL == L || 0 == n)
        return;
    const char **urls = sb_arena_alloc(a, n * sizeof *urls);
    int *kinds = sb_arena_alloc(a, n * sizeof *kinds);
    if (!urls || !kinds)
        return;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const char *u;
        int kind = wanted(&pkgs[i], a, L, &u);
        if (kind < 0 || NULL == u)
            continue;
        urls[m] = u;
        kinds[m++] = kind;
    }
    svc_lk_prefetch(L, ctx, a, urls, kinds, m);
}

static sb_code fill(void *cls, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx->engine && ctx->engine->licenses ? ctx->engine : NULL; /* running for OSV only */
    size_t *idx = sb_arena_alloc(a, (n ? n : 1) * sizeof *idx);
    const char **urls = sb_arena_alloc(a, (n ? n : 1) * sizeof *urls);
    const char **dirs = sb_arena_calloc(a, n ? n : 1, sizeof *dirs);
    int *kinds = sb_arena_alloc(a, (n ? n : 1) * sizeof *kinds);
    int *results = sb_arena_calloc(a, n ? n : 1, sizeof *results);
    svc_lk_entry **es = sb_arena_calloc(a, n ? n : 1, sizeof *es);
    if (!idx || !urls || !dirs || !kinds || !results || !es)
        return SB_ENOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const sb_pkg *p = &pkgs[i];
        const char *u;
        int kind = wanted(p, a, L, &u);
        if (kind < 0)
            continue;
        idx[m] = i;
        kinds[m] = kind;
        urls[m] = u;
        m++;
    }
    st->asked = m;
    if (0 == m)
        return SB_OK;
    if (NULL == L) {
        st->offline = m;
        for (size_t k = 0; k < m; k++)
            pkgs[idx[k]].lookup = SB_LOOKUP_NOT_MADE;
        return SB_OK;
    }
    svc_lk_shared_fill(L, ctx, a, urls, kinds, m);
    size_t hits = 0, misses = 0, queued_any = 0;
    pthread_mutex_lock(&L->mu);
    svc_sched_req *q = svc_lk_ticket(L, ctx);
    for (size_t k = 0; k < m; k++) {
        results[k] = W_FAILED; /* no usable URL for this name/version */
        if (NULL == urls[k])
            continue;
        es[k] = svc_lk_want(L, q, urls[k], kinds[k], &results[k]);
        hits += results[k] == W_HIT;
        misses += results[k] == W_WAIT;
        queued_any |= (size_t)(results[k] == W_WAIT);
    }
    pthread_mutex_unlock(&L->mu);
    atomic_fetch_add(&L->m->lookup_hits, hits);
    atomic_fetch_add(&L->m->lookup_misses, misses);
    if (queued_any)
        curl_multi_wakeup(L->multi);
    pthread_mutex_lock(&L->mu);
    int gave_up = svc_lk_await(L, ctx, es, m);
    if (gave_up && q) {
        /* the deadline is the request's, for every document: nothing it still
         * waits for will be read, so none of it is fetched any more */
        svc_sched_cancel(&L->sched, q, svc_lk_orphaned, L);
    }
    sb_code rc = SB_OK;
    for (size_t k = 0; k < m; k++) {
        svc_lk_entry *e = es[k];
        if (NULL == e) {
            st->capped += results[k] == W_CAPPED;
            st->failed += results[k] != W_CAPPED;
            pkgs[idx[k]].lookup = SB_LOOKUP_FAILED;
            continue;
        }
        pkgs[idx[k]].lookup = e->state == E_ANSWERED ? SB_LOOKUP_FILLED : SB_LOOKUP_FAILED;
        if (e->state == E_ANSWERED) {
            if (e->kind == K_PYPI && e->license && rc == SB_OK) {
                rc = sb_enrich_set_license(&pkgs[idx[k]], a, e->license, "pypi");
                st->filled += rc == SB_OK;
            } else if (e->kind != K_PYPI && e->info_dir && rc == SB_OK) {
                /* the entry may be evicted once released: keep the path */
                dirs[k] = sb_arena_strdup(a, e->info_dir);
                rc = dirs[k] ? SB_OK : SB_ENOMEM;
            }
        } else {
            st->failed++; /* failed, or still running at the deadline */
        }
        e->refs--;
    }
    svc_lk_evict(L);
    pthread_mutex_unlock(&L->mu);
    if (gave_up)
        curl_multi_wakeup(L->multi); /* abort what no one claims now */
    /* the stored archives are read like a package cache, outside the lock */
    for (size_t k = 0; k < m && rc == SB_OK; k++) {
        if (NULL == dirs[k])
            continue;
        int found = 0;
        sb_pkg *p = &pkgs[idx[k]];
        int had = p->license && p->license[0];
        rc = sb_enrich_from_info(p, a, dirs[k], "conda-archive", &found);
        st->filled += rc == SB_OK && !had && p->license;
    }
    return rc;
}

sb_code svc_lookup_fill(void *cls, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err)
{
    sb_code rc = fill(cls, pkgs, n, a, st);
    return rc == SB_OK ? rc : sb_err_set_code(err, rc, "the license lookups");
}
