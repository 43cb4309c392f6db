/*
 * lookup_projects.c - per-project health answers through the lookup engine
 * PyPI project pages (yanked, outdated), OpenSSF Scorecard
 * results and conda channel indexes (outdated), and the engine's
 * descriptors of those kinds (svc_lk_project, svc_lk_scorecard,
 * svc_lk_channel; lookup_int.h): each answer is digested on the engine's
 * thread (core/health.h, core/scorecard.h) before the cache keeps it.
 */
#include "lookup_int.h"
#include "../../core/pypi.h"
#include "../../core/health.h"
#include "../../core/scorecard.h"

#include <stdlib.h>
#include <string.h>

/* --- the engine's descriptors of these kinds ------------------------------- */

/* An answer digested off the requests' threads into a malloc'd body: the
 * cache keeps the few lines the requests read (a few per release, a line
 * per name and version), not the page. */
typedef sb_code (*digest_fn)(sb_arena *a, const char *data, size_t len, const char **out, size_t *out_len);
static int digest_with(const svc_lk_xfer *x, digest_fn fn, svc_lk_answer *an)
{
    sb_arena *a = sb_arena_new(0);
    const char *dg = NULL;
    size_t dn = 0;
    int ok = a && fn(a, x->body.data ? x->body.data : "", x->body.len, &dg, &dn) == SB_OK &&
             NULL != (an->body = malloc(dn + 1));
    if (ok) {
        memcpy(an->body, dg, dn + 1);
        an->body_len = dn;
    }
    sb_arena_destroy(a);
    return ok;
}

static int project_digest(svc_lookup *L, svc_lk_xfer *x, long status, svc_lk_answer *an)
{
    (void)L;
    (void)status;
    return digest_with(x, sb_health_pypi_digest, an);
}

static int scorecard_digest(svc_lookup *L, svc_lk_xfer *x, long status, svc_lk_answer *an)
{
    (void)L;
    (void)status;
    return digest_with(x, sb_scorecard_digest, an);
}

static int channel_digest(svc_lookup *L, svc_lk_xfer *x, long status, svc_lk_answer *an)
{
    (void)L;
    (void)status;
    return digest_with(x, sb_health_channel_digest, an);
}

/* Not shared when found. An absent one is queued as 'c', as it always was;
 * no replica takes a 'c' for these kinds (lookup_cache.c, type_fits), so
 * it only costs a key. */
const svc_lk_kind svc_lk_project = {
    .upstream = SVC_UP_PYPI,
    .found = {200},
    .absent = 404, /* no such project: kept as "" */
    .absent_body = "",
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, ttl),
    .absent_ttl = offsetof(svc_lookup, neg_ttl),
    .absent_tag = 'c',
    .digest = project_digest,
};

const svc_lk_kind svc_lk_scorecard = {
    .upstream = SVC_UP_SCORECARD,
    .found = {200},
    .absent = 404, /* a repository the API has not scored: kept as "" */
    .absent_body = "",
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, scorecard_ttl),
    .absent_ttl = offsetof(svc_lookup, neg_ttl),
    .absent_tag = 'c',
    .digest = scorecard_digest,
};

const svc_lk_kind svc_lk_channel = {
    .upstream = SVC_UP_CHANNEL,
    .found = {200},
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, channel_ttl),
    .absent_ttl = offsetof(svc_lookup, channel_ttl),
    .digest = channel_digest,
};

/* The engine that answers these lookups for the request, else NULL (this
 * server makes none: every answer stays NULL and *offline says why). */
static svc_lookup *engine_of(void *cls, size_t n, const char **digests, size_t *capped, int *offline)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->licenses ? ctx->engine : NULL;
    *capped = 0;
    *offline = NULL == L;
    for (size_t i = 0; i < n; i++)
        digests[i] = NULL;
    return L;
}

/* GET keys[0..m) (digested answers, cached), each answer going to
 * digests[at[k]]: a question no URL could carry stays unanswered. */
static sb_code fetch_at(svc_lookup *L, void *cls, sb_arena *a, int kind, size_t m, const char **keys, const size_t *at,
                        const char **digests, size_t *capped)
{
    size_t c = m ? m : 1;
    const char **none = sb_arena_calloc(a, c, sizeof *none), **got = sb_arena_alloc(a, c * sizeof *got);
    size_t *lens = sb_arena_alloc(a, c * sizeof *lens), *plens = sb_arena_calloc(a, c, sizeof *plens);
    if (!none || !got || !lens || !plens)
        return SB_ENOMEM;
    sb_code rc = svc_lk_fetch_bodies(L, cls, a, kind, m, keys, none, none, plens, got, lens, capped);
    for (size_t k = 0; rc == SB_OK && k < m; k++)
        digests[at[k]] = got[k];
    return rc;
}

sb_code svc_lookup_pypi_projects(void *cls, sb_arena *a, size_t n, const char *const *names, const char **digests,
                                 size_t *capped, int *offline)
{
    svc_lookup *L = engine_of(cls, n, digests, capped, offline);
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys);
    size_t *at = sb_arena_alloc(a, n * sizeof *at), m = 0;
    if (!keys || !at)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) { /* a name no URL can carry is not asked */
        const char *name = sb_model_pep503(a, names[i]);
        if (NULL == name)
            return SB_ENOMEM;
        if ((keys[m] = sb_index_url(a, L->base, &name, 1, "/json")))
            at[m++] = i;
    }
    return fetch_at(L, cls, a, K_PROJECT, m, keys, at, digests, capped);
}

/* --- OpenSSF Scorecard (the mapping is lookup_scorecard.c) ------------------ */

sb_code svc_lookup_scorecards(void *cls, sb_arena *a, size_t n, const char *const *repos, const char **digests,
                              size_t *capped, int *offline)
{
    svc_lookup *L = engine_of(cls, n, digests, capped, offline);
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys);
    size_t *at = sb_arena_alloc(a, n * sizeof *at);
    if (!keys || !at)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) { /* repos[i] is checked (sb_github_repo): two safe segments */
        if (NULL == (keys[i] = sb_scorecard_url(a, L->scorecard_base, repos[i])))
            return SB_ENOMEM;
        at[i] = i;
    }
    return fetch_at(L, cls, a, K_SCORECARD, n, keys, at, digests, capped);
}

/* --- conda channel indexes (the outdated report; mapping in lookup_health.c) */

sb_code svc_lookup_channel_indexes(void *cls, sb_arena *a, size_t n, const char *const *channels,
                                   const char *const *subdirs, const char **digests, size_t *capped, int *offline)
{
    svc_lookup *L = engine_of(cls, n, digests, capped, offline);
    if (L && !L->channel_tmpl[0]) /* no index configured: as offline */
        L = NULL, *offline = 1;
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys);
    size_t *at = sb_arena_alloc(a, n * sizeof *at), m = 0;
    if (!keys || !at)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) /* a channel or subdir no URL can carry is not asked */
        if ((keys[m] = sb_health_channel_url(a, L->channel_tmpl, channels[i], subdirs[i])))
            at[m++] = i;
    return fetch_at(L, cls, a, K_CHANNEL, m, keys, at, digests, capped);
}
