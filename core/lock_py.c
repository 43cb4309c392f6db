/*
 * lock_py.c - sb_pyl -> sb_lock for every Python lockfile kind: marker
 * evaluation per platform, the reachability walk, artifact choice and the
 * per-platform package records (see lock_py.h).
 */
#include "lock_py.h"
#include "lock_int.h"
#include "marker.h"
#include "strmap.h"

#include <ctype.h>
#include <string.h>

static void *grow(sb_arena *a, void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t nc = *cap ? *cap * 2 : 4;
    void *np = sb_arena_calloc(a, nc, size);
    if (np && p && n)
        memcpy(np, p, n * size);
    if (np)
        *cap = nc;
    return np;
}

void *sb_pyl_parallel(sb_arena *a, void *arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return arr;
    size_t nc = *cap ? *cap * 2 : 64;
    while (nc < need)
        nc *= 2;
    void *n = sb_arena_calloc(a, nc, size);
    if (n && arr && *cap)
        memcpy(n, arr, *cap * size);
    if (n)
        *cap = nc;
    return n;
}

sb_py_pkg *sb_pyl_add(sb_pyl *pl, sb_arena *a)
{
    sb_py_pkg *v = grow(a, pl->pkgs, &pl->pcap, pl->npkgs, sizeof *v);
    if (NULL == v)
        return NULL;
    pl->pkgs = v;
    sb_py_pkg *p = &v[pl->npkgs++];
    memset(p, 0, sizeof *p);
    p->rec.kind = SB_KIND_PYPI;
    p->rec.build_number = p->rec.size = -1;
    return sb_pyl_group(p, a, NULL) ? p : NULL;
}

sb_py_deps *sb_pyl_group(sb_py_pkg *p, sb_arena *a, const char *group)
{
    for (size_t i = 0; i < p->ngroups; i++) {
        const char *g = p->groups[i].group;
        if ((NULL == g && NULL == group) || (g && group && !strcmp(g, group)))
            return &p->groups[i];
    }
    sb_py_deps *v = grow(a, p->groups, &p->gcap, p->ngroups, sizeof *v);
    if (NULL == v)
        return NULL;
    p->groups = v;
    sb_py_deps *g = &v[p->ngroups++];
    memset(g, 0, sizeof *g);
    g->group = group ? sb_model_pep503(a, group) : NULL;
    return group && NULL == g->group ? NULL : g;
}

sb_py_dep *sb_pyl_dep(sb_py_deps *g, sb_arena *a)
{
    sb_py_dep *v = grow(a, g->v, &g->cap, g->n, sizeof *v);
    if (NULL == v)
        return NULL;
    g->v = v;
    memset(&v[g->n], 0, sizeof *v);
    return &v[g->n++];
}

sb_py_art *sb_pyl_art(sb_py_pkg *p, sb_arena *a)
{
    sb_py_art *v = grow(a, p->arts, &p->acap, p->narts, sizeof *v);
    if (NULL == v)
        return NULL;
    p->arts = v;
    memset(&v[p->narts], 0, sizeof *v);
    return &v[p->narts++];
}

const char *sb_pyl_sha256(sb_arena *a, const char *hash)
{
    if (NULL == hash || strncmp(hash, "sha256:", 7))
        return NULL;
    const char *h = hash + 7;
    if (strlen(h) != 64)
        return NULL;
    char *d = sb_arena_strdup(a, h);
    if (NULL == d)
        return NULL;
    for (char *c = d; *c; c++) {
        if (!isxdigit((unsigned char)*c))
            return NULL;
        *c = (char)tolower((unsigned char)*c);
    }
    return d;
}

const char *sb_pyl_basename(sb_arena *a, const char *url)
{
    if (NULL == url)
        return NULL;
    size_t n = strcspn(url, "?#");
    size_t b = 0;
    for (size_t i = 0; i < n; i++)
        if (url[i] == '/' || url[i] == '\\')
            b = i + 1;
    return sb_arena_strndup(a, url + b, n - b);
}

/* ---- the build ---- */

typedef struct work {
    size_t pkg, group;
} work;

typedef struct build_ctx {
    sb_arena *a;
    sb_pyl *pl;
    sb_err *err;
    sb_marker_env env;
    sb_strmap byname;     /* pep503 name -> first index; `next` chains the rest */
    size_t *next;
    unsigned char *included;
    unsigned char **active; /* per package: groups already followed */
    sb_strv *edges;       /* per package: target names for this platform */
    sb_strv root_edges;
    work *queue;
    size_t nq, qcap;
} build_ctx;

static int marker_true(build_ctx *c, const char *marker, int *bad)
{
    int v = sb_marker_eval(marker, &c->env, c->err);
    if (v < 0)
        *bad = 1;
    return v > 0;
}

/* The package a dependency names on this platform. */
static size_t resolve(build_ctx *c, const sb_py_dep *d, int *bad)
{
    size_t first;
    if (!sb_strmap_get(&c->byname, d->name, strlen(d->name), &first))
        return (size_t)-1;
    if (c->next[first] == (size_t)-1)
        return first;
    for (size_t i = first; i != (size_t)-1; i = c->next[i])
        if (d->version && c->pl->pkgs[i].rec.version && !strcmp(d->version, c->pl->pkgs[i].rec.version))
            return i;
    for (size_t i = first; i != (size_t)-1; i = c->next[i]) {
        const sb_strv *rm = &c->pl->pkgs[i].resolution_markers;
        for (size_t k = 0; k < rm->n; k++)
            if (marker_true(c, rm->v[k], bad))
                return i;
    }
    return first;
}

static sb_code push(build_ctx *c, size_t pkg, size_t group)
{
    if (c->active[pkg][group])
        return SB_OK;
    c->active[pkg][group] = 1;
    work *q = grow(c->a, c->queue, &c->qcap, c->nq, sizeof *q);
    if (NULL == q)
        return SB_ENOMEM;
    c->queue = q;
    q[c->nq++] = (work){pkg, group};
    return SB_OK;
}

static sb_code include(build_ctx *c, size_t t, const char *extras)
{
    c->included[t] = 1;
    sb_code rc = push(c, t, 0);
    if (rc != SB_OK || NULL == extras)
        return rc;
    const sb_py_pkg *tp = &c->pl->pkgs[t];
    char *ex = sb_arena_strdup(c->a, extras);
    if (NULL == ex)
        return SB_ENOMEM;
    for (char *e = strtok(ex, ","); e && rc == SB_OK; e = strtok(NULL, ",")) {
        while (*e == ' ')
            e++;
        char *n = sb_model_pep503(c->a, e);
        if (NULL == n)
            return SB_ENOMEM;
        for (size_t g = 1; g < tp->ngroups && rc == SB_OK; g++)
            if (!strcmp(tp->groups[g].group, n))
                rc = push(c, t, g);
    }
    return rc;
}

static sb_code follow(build_ctx *c, size_t i, const sb_py_deps *g, int *bad)
{
    for (size_t d = 0; d < g->n; d++) {
        const sb_py_dep *dep = &g->v[d];
        if (!marker_true(c, dep->marker, bad)) {
            if (*bad)
                return SB_EPARSE;
            continue;
        }
        size_t t = resolve(c, dep, bad);
        if (*bad)
            return SB_EPARSE;
        if (t == (size_t)-1 || t == i)
            continue;
        if (c->pl->walk) {
            sb_code rc = include(c, t, dep->extras);
            if (rc != SB_OK)
                return rc;
        } else if (!c->included[t]) {
            continue;
        }
        sb_strv *e = c->pl->pkgs[i].root ? &c->root_edges : &c->edges[i];
        if (sb_strv_push(e, c->a, dep->name) != SB_OK)
            return SB_ENOMEM;
    }
    return SB_OK;
}

static sb_code clone_strv(sb_strv *sv, sb_arena *a)
{
    sb_strv n = {0};
    for (size_t i = 0; i < sv->n; i++)
        if (sb_strv_push(&n, a, sv->v[i]) != SB_OK)
            return SB_ENOMEM;
    *sv = n;
    return SB_OK;
}

static sb_code choose_artifact(build_ctx *c, const sb_py_pkg *src, sb_pkg *p, const char *python)
{
    if (0 == src->narts)
        return SB_OK;
    const char **names = sb_arena_alloc(c->a, src->narts * sizeof *names);
    size_t *map = sb_arena_alloc(c->a, src->narts * sizeof *map);
    if (NULL == names || NULL == map)
        return SB_ENOMEM;
    size_t nw = 0, sdist = (size_t)-1;
    for (size_t k = 0; k < src->narts; k++) {
        if (src->arts[k].sdist) {
            if (sdist == (size_t)-1)
                sdist = k;
        } else {
            map[nw] = k;
            names[nw++] = src->arts[k].file ? src->arts[k].file : "";
        }
    }
    int pick = sb_marker_choose_wheel(names, nw, sdist != (size_t)-1, c->env.platform, python);
    if (pick == -2)
        return SB_OK;
    const sb_py_art *art = &src->arts[pick == -1 ? sdist : map[pick]];
    p->sha256 = art->sha256;
    p->sdist = art->sdist;
    if (c->pl->file_only || NULL == art->url) {
        p->file_name = art->file;
    } else if (src->index) {
        p->location = art->url;
    }
    return SB_OK;
}

static sb_code build_platform(build_ctx *c, sb_lock_env *env, const char *platform, const char *python)
{
    sb_pyl *pl = c->pl;
    size_t n = pl->npkgs;
    int bad = 0;
    sb_code rc = sb_marker_env_init(&c->env, platform, python);
    if (rc != SB_OK)
        return sb_err_set(c->err, SB_EINVAL, "unknown platform %s", platform);
    c->env.all_extras = pl->marker_all_extras;
    memset(c->included, 0, n);
    memset(&c->root_edges, 0, sizeof c->root_edges);
    c->nq = 0;
    for (size_t i = 0; i < n; i++) {
        memset(c->active[i], 0, pl->pkgs[i].ngroups);
        memset(&c->edges[i], 0, sizeof c->edges[i]);
    }
    if (pl->walk) {
        for (size_t i = 0; i < n && rc == SB_OK; i++) {
            if (!pl->pkgs[i].member)
                continue;
            c->included[i] = 1;
            for (size_t g = 0; g < pl->pkgs[i].ngroups && rc == SB_OK; g++)
                rc = push(c, i, g);
        }
        for (size_t q = 0; q < c->nq && rc == SB_OK; q++)
            rc = follow(c, c->queue[q].pkg, &pl->pkgs[c->queue[q].pkg].groups[c->queue[q].group], &bad);
    } else {
        for (size_t i = 0; i < n; i++) {
            c->included[i] = marker_true(c, pl->pkgs[i].marker, &bad) || pl->pkgs[i].root;
            if (bad)
                return SB_EPARSE;
        }
        for (size_t i = 0; i < n && rc == SB_OK; i++)
            if (c->included[i])
                for (size_t g = 0; g < pl->pkgs[i].ngroups && rc == SB_OK; g++)
                    rc = follow(c, i, &pl->pkgs[i].groups[g], &bad);
    }
    if (bad)
        return SB_EPARSE;
    if (rc != SB_OK)
        return rc == SB_ENOMEM ? sb_err_set(c->err, rc, "out of memory") : rc;
    sb_lock_platform *lp = sb_lock_platform_get(env, c->a, platform);
    if (NULL == lp)
        return sb_err_set(c->err, SB_ENOMEM, "out of memory");
    int has_root = 0;
    for (size_t i = 0; i < n; i++)
        has_root |= pl->pkgs[i].root;
    if (has_root) {
        lp->has_root_names = true;
        lp->root_names = c->root_edges;
    } else if (pl->has_root_names) {
        lp->has_root_names = true;
        lp->root_names = pl->root_names;
    }
    for (size_t i = 0; i < n; i++) {
        const sb_py_pkg *src = &pl->pkgs[i];
        if (!c->included[i] || src->root)
            continue;
        sb_pkg *p = sb_arena_alloc(c->a, sizeof *p);
        if (NULL == p)
            return sb_err_set(c->err, SB_ENOMEM, "out of memory");
        *p = src->rec;
        p->depends = c->edges[i];
        if ((rc = choose_artifact(c, src, p, python)) != SB_OK || (rc = clone_strv(&p->reader_props, c->a)) != SB_OK)
            return sb_err_set(c->err, SB_ENOMEM, "out of memory");
        if (has_root) {
            char *n503 = sb_model_pep503(c->a, p->name);
            for (size_t k = 0; n503 && k < c->root_edges.n; k++)
                if (!strcmp(c->root_edges.v[k], n503)) {
                    if (sb_strv_push(&p->reader_props, c->a, "pixi:direct") != SB_OK ||
                        sb_strv_push(&p->reader_props, c->a, "true") != SB_OK)
                        return sb_err_set(c->err, SB_ENOMEM, "out of memory");
                    break;
                }
        }
        if (sb_lock_platform_add(lp, c->a, p) != SB_OK)
            return sb_err_set(c->err, SB_ENOMEM, "out of memory");
    }
    return SB_OK;
}

sb_code sb_pyl_build(sb_lock **out, sb_arena *a, sb_pyl *pl, const sb_limits *lim, sb_err *err)
{
    if (lim && pl->npkgs > lim->max_packages)
        return sb_err_set(err, SB_ELIMIT, "more than %zu packages", lim->max_packages);
    sb_lock *l = sb_arena_calloc(a, 1, sizeof *l);
    build_ctx c = {0};
    c.a = a;
    c.pl = pl;
    c.err = err;
    size_t n = pl->npkgs;
    c.next = sb_arena_alloc(a, (n + 1) * sizeof *c.next);
    c.included = sb_arena_alloc(a, n + 1);
    c.active = sb_arena_alloc(a, (n + 1) * sizeof *c.active);
    c.edges = sb_arena_alloc(a, (n + 1) * sizeof *c.edges);
    if (NULL == l || NULL == c.next || NULL == c.included || NULL == c.active || NULL == c.edges ||
        sb_strmap_init(&c.byname, a, n) != SB_OK)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        sb_py_pkg *p = &pl->pkgs[i];
        c.next[i] = (size_t)-1;
        c.active[i] = sb_arena_alloc(a, p->ngroups + 1);
        char *n503 = p->rec.name ? sb_model_pep503(a, p->rec.name) : NULL;
        if (NULL == c.active[i] || NULL == n503)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        size_t first;
        if (sb_strmap_get(&c.byname, n503, strlen(n503), &first)) {
            size_t k = first;
            while (c.next[k] != (size_t)-1)
                k = c.next[k];
            c.next[k] = i;
        } else if (sb_strmap_put(&c.byname, n503, strlen(n503), i, NULL) < 0) {
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        }
        if (p->root) {
            l->root_name = p->rec.name;
            l->root_version = p->rec.version;
        }
    }
    l->kind = pl->kind;
    l->version = 1;
    l->nrecords = n;
    sb_lock_env *env = sb_lock_env_get(l, a, "default");
    if (NULL == env)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    char python[16];
    sb_marker_python_floor(pl->requires_python, pl->python_default, python);
    for (size_t k = 0; sb_marker_platforms[k]; k++) {
        sb_code rc = build_platform(&c, env, sb_marker_platforms[k], python);
        if (rc != SB_OK)
            return rc;
    }
    *out = l;
    return SB_OK;
}
