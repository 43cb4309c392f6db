/*
 * lookup_health.c - the sb_vuln_fn-shaped hook that gives a selection its
 * health (core/health.h): one PyPI project page per distinct index project,
 * through the shared lookup engine (svc_lookup_pypi_projects), read into
 * s->health. What is not answered is recorded as pixi:incomplete step
 * pypi-releases, never a failed document. For the outdated
 * report, conda packages are read from their channel's index
 * (--channel-index-url, one per channel and subdir; gaps are step
 * conda-index); without one they stay unchecked.
 */
#include "lookup.h"
#include "../../core/ecosystem.h"
#include "../../core/health.h"
#include "../../core/select.h"

#include <string.h>

/* The selection's conda binaries against their channels' indexes: one
 * question per channel and subdir. A server without --channel-index-url
 * leaves them unchecked (state NONE), as before it read any index. */
static sb_code conda_health(void *ctx, sb_sbom *s, sb_arena *a)
{
    size_t np = s->npkgs ? s->npkgs : 1;
    const char **chans = sb_arena_alloc(a, np * sizeof *chans), **subs = sb_arena_alloc(a, np * sizeof *subs);
    const char **digests = sb_arena_alloc(a, np * sizeof *digests);
    size_t *of = sb_arena_alloc(a, np * sizeof *of), n = 0;
    if (!chans || !subs || !digests || !of)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        const sb_pkgx *x = sb_pkg_xr(p);
        of[i] = (size_t)-1;
        if (!sb_eco_is(p->kind, SB_ECO_CHANNEL) || !p->version || !x->channel || !x->subdir)
            continue;
        size_t k = 0;
        while (k < n && (strcmp(chans[k], x->channel) || strcmp(subs[k], x->subdir)))
            k++;
        if (k == n)
            chans[n] = x->channel, subs[n++] = x->subdir;
        of[i] = k;
    }
    if (0 == n)
        return SB_OK;
    size_t capped = 0;
    int offline = 0;
    sb_code rc = svc_lookup_channel_indexes(ctx, a, n, chans, subs, digests, &capped, &offline);
    if (rc != SB_OK || offline)
        return rc; /* no channel index configured: conda packages stay unchecked */
    size_t failed = 0;
    for (size_t k = 0; k < n; k++)
        failed += NULL == digests[k];
    for (size_t i = 0; i < s->npkgs; i++) {
        if (of[i] == (size_t)-1)
            continue;
        if (NULL == digests[of[i]]) {
            s->health[i].state = SB_HEALTH_FAILED;
            continue;
        }
        if ((rc = sb_health_from_channel(&s->health[i], a, digests[of[i]], s->pkgs[i].name, s->pkgs[i].version)) !=
            SB_OK)
            return rc;
    }
    if (0 == failed)
        return SB_OK;
    return sb_incomplete_add(&s->incomplete, a, "conda-index", "%zu of %zu channel indexes not read (%s)", failed, n,
                             capped ? "failed or past the per-request lookup limit" : "failed, or not a repodata.json");
}

static sb_code health(void *ctx, sb_sbom *s, sb_arena *a)
{
    s->health = sb_arena_calloc(a, s->npkgs ? s->npkgs : 1, sizeof *s->health);
    const char **names = sb_arena_alloc(a, (s->npkgs ? s->npkgs : 1) * sizeof *names);
    const char **digests = sb_arena_alloc(a, (s->npkgs ? s->npkgs : 1) * sizeof *digests);
    size_t *of = sb_arena_alloc(a, (s->npkgs ? s->npkgs : 1) * sizeof *of);
    if (!s->health || !names || !digests || !of)
        return SB_ENOMEM;
    /* one question per project: the packages are sorted by (kind, name,
     * version), so a project's versions sit together */
    size_t n = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        of[i] = (size_t)-1;
        if (!sb_health_queryable(p))
            continue;
        if (n && !strcmp(names[n - 1], p->name)) {
            of[i] = n - 1;
            continue;
        }
        of[i] = n;
        names[n++] = p->name;
    }
    if (s->outdated_asked) {
        sb_code crc = conda_health(ctx, s, a);
        if (crc != SB_OK)
            return crc;
    }
    if (0 == n)
        return SB_OK;
    size_t capped = 0;
    int offline = 0;
    sb_code rc = svc_lookup_pypi_projects(ctx, a, n, names, digests, &capped, &offline);
    if (rc != SB_OK)
        return rc;
    size_t asked = 0, failed = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        if (of[i] == (size_t)-1)
            continue;
        asked++;
        const char *dg = digests[of[i]];
        if (NULL == dg) {
            s->health[i].state = SB_HEALTH_FAILED;
            failed++;
            continue;
        }
        if ((rc = sb_health_from_digest(&s->health[i], a, dg, s->pkgs[i].version)) == SB_EPARSE) {
            s->health[i].state = SB_HEALTH_FAILED; /* a cached digest is ours: cannot happen */
            failed++;
        } else if (rc != SB_OK) {
            return rc;
        }
    }
    if (0 == failed)
        return SB_OK;
    return sb_incomplete_add(&s->incomplete, a, "pypi-releases", "%zu of %zu index lookups %s", failed, asked,
                             offline  ? "not made (this server makes no network lookups)"
                             : capped ? "failed or past the per-request lookup limit"
                                      : "failed");
}

sb_code svc_lookup_health(void *ctx, sb_sbom *s, sb_arena *a, sb_err *err)
{
    sb_code rc = health(ctx, s, a);
    return rc == SB_OK ? rc : sb_err_set_code(err, rc, "the package health lookups");
}
