/*
 * lookup_projects.c - per-project health answers through the lookup engine
 * (issue 29 part 3): PyPI project pages (yanked, outdated), OpenSSF Scorecard
 * results and conda channel indexes (outdated); lookup_http.c digests each
 * answer (core/health.h, core/scorecard.h) before the cache keeps it.
 */
#include "lookup_int.h"
#include "../core/pypi.h"
#include "../core/health.h"
#include "../core/scorecard.h"

sb_code svc_lookup_pypi_projects(void *cls, sb_arena *a, size_t n, const char *const *names, const char **digests,
                                 size_t *capped, int *offline)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->licenses ? ctx->engine : NULL;
    *capped = 0;
    *offline = NULL == L;
    for (size_t i = 0; i < n; i++)
        digests[i] = NULL;
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys), **none = sb_arena_calloc(a, n, sizeof *none);
    size_t *lens = sb_arena_alloc(a, n * sizeof *lens), *plens = sb_arena_calloc(a, n, sizeof *plens);
    if (!keys || !none || !lens || !plens)
        return SB_ENOMEM;
    /* a name no URL can carry is not asked: it stays unanswered */
    size_t *at = sb_arena_alloc(a, n * sizeof *at), m = 0;
    if (NULL == at)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const char *name = sb_model_pep503(a, names[i]);
        if (NULL == name)
            return SB_ENOMEM;
        if ((keys[m] = sb_index_url(a, L->base, &name, 1, "/json")))
            at[m++] = i;
    }
    const char **got = sb_arena_alloc(a, (m ? m : 1) * sizeof *got);
    if (NULL == got)
        return SB_ENOMEM;
    sb_code rc = osv_fetch(L, ctx, a, K_PROJECT, m, keys, none, none, plens, got, lens, capped);
    for (size_t k = 0; rc == SB_OK && k < m; k++)
        digests[at[k]] = got[k];
    return rc;
}

/* --- OpenSSF Scorecard (issue 29 part 3; the mapping is lookup_scorecard.c) -- */

sb_code svc_lookup_scorecards(void *cls, sb_arena *a, size_t n, const char *const *repos, const char **digests,
                              size_t *capped, int *offline)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->licenses ? ctx->engine : NULL;
    *capped = 0;
    *offline = NULL == L;
    for (size_t i = 0; i < n; i++)
        digests[i] = NULL;
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys), **none = sb_arena_calloc(a, n, sizeof *none);
    size_t *lens = sb_arena_alloc(a, n * sizeof *lens), *plens = sb_arena_calloc(a, n, sizeof *plens);
    if (!keys || !none || !lens || !plens)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) /* repos[i] is checked (sb_scorecard_repo): two safe segments */
        if (NULL == (keys[i] = sb_scorecard_url(a, L->scorecard_base, repos[i])))
            return SB_ENOMEM;
    return osv_fetch(L, ctx, a, K_SCORECARD, n, keys, none, none, plens, digests, lens, capped);
}

/* --- conda channel indexes (the outdated report; mapping in lookup_health.c) */

sb_code svc_lookup_channel_indexes(void *cls, sb_arena *a, size_t n, const char *const *channels,
                                   const char *const *subdirs, const char **digests, size_t *capped, int *offline)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->licenses && ctx->engine->channel_tmpl[0] ? ctx->engine : NULL;
    *capped = 0;
    *offline = NULL == L;
    for (size_t i = 0; i < n; i++)
        digests[i] = NULL;
    if (NULL == L || 0 == n)
        return SB_OK;
    const char **keys = sb_arena_alloc(a, n * sizeof *keys), **none = sb_arena_calloc(a, n, sizeof *none);
    const char **got = sb_arena_alloc(a, n * sizeof *got);
    size_t *lens = sb_arena_alloc(a, n * sizeof *lens), *plens = sb_arena_calloc(a, n, sizeof *plens), *at = sb_arena_alloc(a, n * sizeof *at);
    if (!keys || !none || !got || !lens || !plens || !at)
        return SB_ENOMEM;
    size_t m = 0; /* a channel or subdir no URL can carry is not asked */
    for (size_t i = 0; i < n; i++)
        if ((keys[m] = sb_health_channel_url(a, L->channel_tmpl, channels[i], subdirs[i])))
            at[m++] = i;
    sb_code rc = osv_fetch(L, ctx, a, K_CHANNEL, m, keys, none, none, plens, got, lens, capped);
    for (size_t k = 0; rc == SB_OK && k < m; k++)
        digests[at[k]] = got[k];
    return rc;
}
