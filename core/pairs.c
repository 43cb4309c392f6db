/*
 * pairs.c - the (environment, platform) pairs of a request that asks for
 * every environment and/or every platform (all-environments=true,
 * all-platforms=true: one NDJSON document each), and their selection.
 *
 * The order is part of the answer (a client reads the documents in it), so
 * it is decided here once: "default" first, then by name. The service adds
 * only what is its own: queueing each pair's lookups before any is selected.
 */
#include "pairs.h"

#include <stdlib.h>
#include <string.h>

static int env_order(const void *a, const void *b)
{
    const sb_lock_env *x = *(const sb_lock_env *const *)a, *y = *(const sb_lock_env *const *)b;
    int xd = !strcmp(x->name, "default"), yd = !strcmp(y->name, "default");
    if (xd != yd)
        return yd - xd;
    return strcmp(x->name, y->name);
}

static int name_order(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

sb_code sb_model_pairs(sb_select_pair **out, size_t *n, sb_arena *a, const sb_lock *lock, const sb_select_opts *base,
                       bool all_envs, bool all_plats, size_t max, sb_err *err)
{
    *out = NULL;
    *n = 0;
    const char *want = base->environment ? base->environment : "default";
    const sb_lock_env **envs = sb_arena_alloc(a, (lock->nenvs + 1) * sizeof *envs);
    if (NULL == envs)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    size_t nenv = 0;
    for (size_t i = 0; i < lock->nenvs; i++)
        if (all_envs || !strcmp(lock->envs[i].name, want))
            envs[nenv++] = &lock->envs[i];
    if (0 == nenv) {
        /* the one selection's own answer names the environments there are */
        sb_sbom *none = NULL;
        sb_code rc = sb_select(&none, a, lock, base, err);
        return rc != SB_OK ? rc : sb_err_set(err, SB_ENOTFOUND, "environment '%.200s' not found in lockfile", want);
    }
    qsort(envs, nenv, sizeof *envs, env_order);
    size_t cap = 0;
    for (size_t e = 0; e < nenv; e++)
        cap += all_plats && envs[e]->nplatforms ? envs[e]->nplatforms : 1;
    if (cap > max)
        return sb_err_set(err, SB_ELIMIT,
                          "the request asks for %zu documents; this server writes at most %zu per request", cap, max);
    sb_select_pair *p = sb_arena_alloc(a, (cap + 1) * sizeof *p);
    const char **plats = sb_arena_alloc(a, (cap + 1) * sizeof *plats);
    if (NULL == p || NULL == plats)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    size_t np = 0;
    for (size_t e = 0; e < nenv; e++) {
        size_t k0 = 0;
        if (all_plats && envs[e]->nplatforms) {
            for (size_t k = 0; k < envs[e]->nplatforms; k++)
                plats[k0++] = envs[e]->platforms[k].name;
            qsort(plats, k0, sizeof *plats, name_order);
        } else {
            /* one platform: the one asked for, or (every platform of an
             * environment that locks none) its one empty document */
            plats[k0++] = all_plats ? NULL : base->platform;
        }
        for (size_t k = 0; k < k0; k++)
            p[np++] = (sb_select_pair){envs[e]->name, plats[k]};
    }
    *out = p;
    *n = np;
    return SB_OK;
}

sb_code sb_model_select_pairs(sb_sbom **docs, sb_arena *a, const sb_lock *lock, const sb_select_opts *base,
                              const sb_select_pair *pairs, size_t n, size_t *at, sb_err *err)
{
    for (size_t i = 0; i < n; i++) {
        sb_select_opts sel = *base;
        sel.environment = pairs[i].environment;
        sel.platform = pairs[i].platform;
        sb_code rc = sb_select(&docs[i], a, lock, &sel, err);
        if (rc != SB_OK) {
            *at = i;
            return rc;
        }
    }
    return SB_OK;
}
