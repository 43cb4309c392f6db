/*
 * lookup_scorecard.c - the sb_vuln_fn-shaped hook that gives a selection its
 * OpenSSF Scorecard results (core/scorecard.h): each package's GitHub
 * repository (PyPI index packages: the one their project page names, read by
 * svc_lookup_health before this runs; others: the repository or homepage
 * their record carries, e.g. a conda package's about.json dev_url), one
 * question per distinct repository through the shared lookup engine
 * (svc_lookup_scorecards), read into s->scorecard. What is not answered is
 * pixi:incomplete step scorecard, never a failed document.
 */
#include "lookup.h"
#include "../../core/health.h"
#include "../../core/scorecard.h"
#include "../../core/select.h"

#include <string.h>
#include <strings.h>

static sb_code scorecard(void *ctx, sb_sbom *s, sb_arena *a)
{
    size_t np = s->npkgs ? s->npkgs : 1;
    s->scorecard = sb_arena_calloc(a, np, sizeof *s->scorecard);
    const char **repos = sb_arena_alloc(a, np * sizeof *repos), **digests = sb_arena_alloc(a, np * sizeof *digests);
    size_t *of = sb_arena_alloc(a, np * sizeof *of);
    if (!s->scorecard || !repos || !digests || !of)
        return SB_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        const sb_health *h = s->health ? &s->health[i] : NULL;
        const char *r = h && h->state == SB_HEALTH_ANSWERED && h->repo ? h->repo : sb_scorecard_pkg_repo(a, p);
        of[i] = (size_t)-1;
        if (NULL == r)
            continue;
        s->scorecard[i].repo = r;
        /* one question per repository: a handful of packages share one (a
         * project's conda and PyPI builds, split packages); GitHub names are
         * case-insensitive */
        size_t k = 0;
        while (k < n && strcasecmp(repos[k], r))
            k++;
        if (k == n)
            repos[n++] = r;
        of[i] = k;
    }
    if (0 == n)
        return SB_OK;
    size_t capped = 0;
    int offline = 0;
    sb_code rc = svc_lookup_scorecards(ctx, a, n, repos, digests, &capped, &offline);
    if (rc != SB_OK)
        return rc;
    size_t failed = 0;
    for (size_t k = 0; k < n; k++)
        failed += NULL == digests[k];
    for (size_t i = 0; i < s->npkgs; i++) {
        if (of[i] == (size_t)-1)
            continue;
        sb_scorecard *sc = &s->scorecard[i];
        const char *dg = digests[of[i]];
        if (NULL == dg || (rc = sb_scorecard_from_digest(sc, a, dg)) == SB_EPARSE)
            sc->state = SB_SCORECARD_FAILED; /* a digest is ours: EPARSE cannot happen */
        else if (rc != SB_OK)
            return rc;
    }
    if (0 == failed)
        return SB_OK;
    return sb_incomplete_add(&s->incomplete, a, "scorecard", "%zu of %zu repositories unscored (%s)", failed, n,
                             offline  ? "this server makes no network lookups"
                             : capped ? "lookup failed or past the per-request lookup limit"
                                      : "lookup failed");
}

sb_code svc_lookup_scorecard(void *ctx, sb_sbom *s, sb_arena *a, sb_err *err)
{
    sb_code rc = scorecard(ctx, s, a);
    return rc == SB_OK ? rc : sb_err_set_code(err, rc, "the scorecard lookups");
}
