/*
 * lookup_health.c - the sb_vuln_fn-shaped hook that gives a selection its
 * health (core/health.h): one PyPI project page per distinct index project,
 * through the shared lookup engine (svc_lookup_pypi_projects), read into
 * s->health. What is not answered is recorded as pixi:incomplete step
 * pypi-releases (spec 6.7), never a failed document.
 */
#include "lookup.h"
#include "../core/health.h"

#include <string.h>

sb_code svc_lookup_health(void *ctx, sb_sbom *s, sb_arena *a)
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
