/*
 * lock_py.c - sb_pyl -> sb_lock for every Python lockfile kind: marker
 * evaluation per platform, the reachability walk, artifact choice and the
 * per-platform package records (see lock_py.h).
 */
#include "lock_py.h"
#include "deadline.h"
#include "lock_int.h"
#include "marker.h"

#include <ctype.h>
#include <string.h>

/* Every regrowth leaves the old copy in the arena: large arrays are sized
 * up front (sb_pyl_reserve), so this doubling is for the small ones. */
static void *grow(sb_arena *a, void *p, size_t *cap, size_t n, size_t size)
{
    return sb_arena_grow(a, p, cap, n, size, 4);
}

void *sb_pyl_parallel(sb_arena *a, void *arr, size_t *cap, size_t need, size_t size)
{
    return sb_arena_reserve(a, arr, cap, *cap, need, size, 64);
}

sb_code sb_pyl_reserve(sb_pyl *pl, sb_arena *a, size_t n)
{
    if (n <= pl->pcap)
        return SB_OK;
    sb_py_pkg *v = sb_arena_calloc(pl->tmp ? pl->tmp : a, n, sizeof *v);
    sb_pkg *r = sb_arena_calloc(a, n, sizeof *r);
    if (NULL == v || NULL == r)
        return SB_ENOMEM;
    if (pl->npkgs) {
        memcpy(v, pl->pkgs, pl->npkgs * sizeof *v);
        memcpy(r, pl->recs, pl->npkgs * sizeof *r);
    }
    for (size_t i = 0; i < pl->npkgs; i++)
        v[i].rec = &r[i];
    pl->pkgs = v;
    pl->recs = r;
    pl->pcap = n;
    return SB_OK;
}

void sb_pyl_move(sb_pyl *pl, size_t to, size_t from)
{
    if (to == from)
        return;
    pl->pkgs[to] = pl->pkgs[from];
    pl->recs[to] = pl->recs[from];
    pl->pkgs[to].rec = &pl->recs[to];
}

size_t sb_pyl_count_lines(const char *data, size_t len, const char *prefix, size_t max)
{
    size_t n = 0, k = strlen(prefix);
    for (const char *p = data, *end = data + len; p < end && n < max;) {
        if ((size_t)(end - p) >= k && !memcmp(p, prefix, k))
            n++;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

sb_py_pkg *sb_pyl_add(sb_pyl *pl, sb_arena *a)
{
    /* both arrays regrow together: an input with more packages than its
     * reader counted doubles them, as sb_arena_grow would */
    if (pl->npkgs == pl->pcap && sb_pyl_reserve(pl, a, pl->pcap ? 2 * pl->pcap : 4) != SB_OK)
        return NULL;
    sb_py_pkg *p = &pl->pkgs[pl->npkgs];
    sb_pkg *r = &pl->recs[pl->npkgs++];
    memset(p, 0, sizeof *p);
    memset(r, 0, sizeof *r);
    r->kind = SB_KIND_PYPI;
    p->rec = r;
    return pl->base_on_demand || sb_pyl_group(p, pl->tmp ? pl->tmp : a, NULL) ? p : NULL;
}

/* Packages with many extras or groups get a name index: looking one up per
 * dependency or extra must not scan them all. */
#define GROUPS_SCANNED 8

size_t sb_pyl_find_group(const sb_py_pkg *p, const char *group)
{
    if (NULL == group)
        return 0;
    size_t at;
    if (p->gmap)
        return sb_strmap_get(p->gmap, group, strlen(group), &at) ? at : (size_t)-1;
    for (size_t i = 1; i < p->ngroups; i++)
        if (p->groups[i].group && !strcmp(p->groups[i].group, group))
            return i;
    return (size_t)-1;
}

static sb_code index_group(sb_py_pkg *p, sb_arena *a, size_t g)
{
    if (NULL == p->gmap && p->ngroups > GROUPS_SCANNED) {
        p->gmap = sb_arena_alloc(a, sizeof *p->gmap);
        if (NULL == p->gmap || sb_strmap_init(p->gmap, a, 2 * GROUPS_SCANNED) != SB_OK)
            return SB_ENOMEM;
        for (size_t i = 1; i < p->ngroups; i++)
            if (sb_strmap_put(p->gmap, p->groups[i].group, strlen(p->groups[i].group), i, NULL) < 0)
                return SB_ENOMEM;
        return SB_OK;
    }
    if (p->gmap && sb_strmap_put(p->gmap, p->groups[g].group, strlen(p->groups[g].group), g, NULL) < 0)
        return SB_ENOMEM;
    return SB_OK;
}

sb_py_deps *sb_pyl_group(sb_py_pkg *p, sb_arena *a, const char *group)
{
    const char *name = group ? sb_model_pep503(a, group) : NULL;
    if (group && NULL == name)
        return NULL;
    size_t at = p->ngroups ? sb_pyl_find_group(p, name) : (size_t)-1;
    if (at != (size_t)-1)
        return &p->groups[at];
    size_t cap = p->gcap;
    sb_py_deps *v = p->ngroups < UINT32_MAX ? sb_arena_grow(a, p->groups, &cap, p->ngroups, sizeof *v, group ? 4 : 1)
                                            : NULL;
    if (NULL == v)
        return NULL;
    p->gcap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    p->groups = v;
    sb_py_deps *g = &v[p->ngroups++];
    memset(g, 0, sizeof *g);
    g->group = name;
    return group && index_group(p, a, p->ngroups - 1) != SB_OK ? NULL : g;
}

sb_code sb_pyl_dep_extra(sb_py_extras *x, sb_py_deps *g, sb_arena *a, const char *extra)
{
    sb_py_dep *d = &g->v[g->n - 1];
    if (x->group != g || x->idx != g->n - 1) { /* another dependency: start its string */
        x->group = g;
        x->idx = g->n - 1;
        x->b = (sb_strb){0};
        if (d->extras && sb_strb_add(&x->b, a, ",", d->extras) != SB_OK)
            return SB_ENOMEM;
    }
    if (sb_strb_add(&x->b, a, ",", extra) != SB_OK)
        return SB_ENOMEM;
    d->extras = x->b.s;
    return SB_OK;
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
    size_t cap = p->acap;
    sb_py_art *v = p->narts < UINT32_MAX ? grow(a, p->arts, &cap, p->narts, sizeof *v) : NULL;
    if (NULL == v)
        return NULL;
    p->acap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
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

/* ---- artifacts listed apart from their packages ---- */

sb_py_file *sb_pyl_file(sb_py_files *fs, sb_arena *a, const char *name, const char *version)
{
    sb_py_file *v = grow(a, fs->v, &fs->cap, fs->n, sizeof *v);
    if (NULL == v)
        return NULL;
    fs->v = v;
    sb_py_file *f = &v[fs->n];
    memset(f, 0, sizeof *f);
    f->name = sb_model_pep503(a, name);
    f->version = version;
    if (NULL == f->name)
        return NULL;
    fs->n++;
    return f;
}

/* Whether file name `file` carries `-<version>` followed by '-' or '.'
 * (pkg-1.0-py3-none-any.whl, pkg-1.0.tar.gz). */
static int file_has_version(const char *file, const char *version)
{
    size_t vl = strlen(version);
    for (const char *d = file ? strchr(file, '-') : NULL; d; d = strchr(d + 1, '-'))
        if (!strncmp(d + 1, version, vl) && (d[1 + vl] == '-' || d[1 + vl] == '.'))
            return 1;
    return 0;
}

static sb_code attach_one(sb_pyl *pl, sb_arena *a, size_t i, const sb_py_file *f, int several)
{
    sb_py_pkg *p = &pl->pkgs[i];
    if (f->version ? (NULL == p->rec->version || strcmp(f->version, p->rec->version))
                   : several && p->rec->version && !file_has_version(f->art.file, p->rec->version))
        return SB_OK;
    sb_py_art *art = sb_pyl_art(p, a);
    if (NULL == art)
        return SB_ENOMEM;
    *art = f->art;
    return SB_OK;
}

sb_code sb_pyl_attach_files(sb_pyl *pl, sb_arena *a, const sb_py_files *fs)
{
    if (0 == fs->n)
        return SB_OK;
    size_t n = pl->npkgs;
    sb_strmap byname;
    size_t *next = sb_arena_alloc(a, (n + 1) * sizeof *next);
    if (NULL == next || sb_strmap_init(&byname, a, n) != SB_OK)
        return SB_ENOMEM;
    /* name -> first package, `next` chains the others (in reverse: order does not matter) */
    for (size_t i = 0; i < n; i++) {
        char *n503 = pl->pkgs[i].rec->name ? sb_model_pep503(a, pl->pkgs[i].rec->name) : NULL;
        size_t first;
        if (NULL == n503)
            return SB_ENOMEM;
        int had = sb_strmap_put(&byname, n503, strlen(n503), i, &first);
        if (had < 0)
            return SB_ENOMEM;
        next[i] = had ? next[first] : (size_t)-1;
        if (had)
            next[first] = i;
    }
    for (size_t k = 0; k < fs->n; k++) {
        const sb_py_file *f = &fs->v[k];
        size_t first;
        if (!sb_strmap_get(&byname, f->name, strlen(f->name), &first))
            continue;
        int several = next[first] != (size_t)-1;
        for (size_t i = first; i != (size_t)-1; i = next[i])
            if (attach_one(pl, a, i, f, several) != SB_OK)
                return SB_ENOMEM;
    }
    return SB_OK;
}

/* ---- the build ----
 *
 * Time O((packages + edges) log) and memory linear in the input, whatever
 * its shape: names index the packages (same-name chains with a tail, a
 * (name, version) index for the names locked more than once), the choice
 * resolution markers make is cached per name and platform, the root's
 * direct dependencies are flags, not a list searched per package. */

#define NONE ((size_t)-1)
#define UNPICKED ((size_t)-2)

typedef struct work {
    size_t pkg, group;
} work;

typedef struct build_ctx {
    sb_arena *a; /* the lock's: records, their edges */
    sb_arena *s; /* the build's own indexes and flags, destroyed when it ends */
    sb_pyl *pl;
    sb_err *err;
    sb_deadline dl;
    sb_marker_env env;
    sb_strmap byname;    /* pep503 name -> first package of that name */
    sb_strmap byversion; /* "name\0version" -> first such package, for names locked more than once */
    size_t *head;        /* per package: the first package of its name */
    size_t *next;        /* per package: the next one of its name, NONE at the end */
    size_t *pick;        /* per name head: what resolution markers choose on this platform */
    unsigned char *included;
    unsigned char *direct;  /* per name head: the root depends on that name */
    sb_scope *scope;        /* per package, this platform */
    unsigned char **active; /* per package: groups already followed */
    sb_strv *edges;         /* per package: target names for this platform (edges_of) */
    sb_strv root_edges;
    bool has_root;
    bool once; /* one platform is built: records are the templates, not copies */
    work *queue;
    size_t nq, qcap;
} build_ctx;

/* Package i's target names on the platform being built: with one platform
 * built, straight into its record (no array of them beside the records). */
static sb_strv *edges_of(build_ctx *c, size_t i)
{
    return c->once ? &c->pl->recs[i].depends : &c->edges[i];
}

static int marker_true(build_ctx *c, const char *marker, int *bad)
{
    int v = sb_marker_eval(marker, &c->env, c->err);
    if (v < 0)
        *bad = 1;
    return v > 0;
}

/* "name\0version" in `buf` when it fits, else in the arena; NULL on OOM. */
static const char *version_key(sb_arena *a, const char *name, const char *version, char *buf, size_t cap, size_t *klen)
{
    size_t n = strlen(name), v = strlen(version);
    *klen = n + 1 + v;
    char *k = *klen < cap ? buf : sb_arena_stralloc(a, *klen + 1);
    if (NULL == k)
        return NULL;
    memcpy(k, name, n + 1);
    memcpy(k + n + 1, version, v + 1);
    return k;
}

/* Among the packages of one name, the one the resolution markers choose on
 * this platform (else the first): it depends on the name alone, so each
 * name's chain is evaluated once per platform. */
static size_t pick_by_markers(build_ctx *c, size_t first, int *bad)
{
    if (c->pick[first] != UNPICKED)
        return c->pick[first];
    size_t got = NONE;
    for (size_t i = first; i != NONE && got == NONE; i = c->next[i]) {
        const sb_strv *rm = &c->pl->pkgs[i].resolution_markers;
        for (size_t k = 0; k < rm->n && got == NONE; k++)
            if (marker_true(c, rm->v[k], bad))
                got = i;
    }
    c->pick[first] = got == NONE ? first : got;
    return c->pick[first];
}

/* The package a dependency names on this platform: its pinned version
 * among same-named packages (uv forks), else the resolution markers' pick. */
static size_t resolve(build_ctx *c, const sb_py_dep *d, int *bad)
{
    size_t first;
    if (!sb_strmap_get(&c->byname, d->name, strlen(d->name), &first))
        return NONE;
    if (c->next[first] == NONE)
        return first;
    if (d->version) {
        char buf[256];
        size_t klen, at;
        const char *k = version_key(c->s, d->name, d->version, buf, sizeof buf, &klen);
        if (k && sb_strmap_get(&c->byversion, k, klen, &at))
            return at;
    }
    return pick_by_markers(c, first, bad);
}

static sb_code push(build_ctx *c, size_t pkg, size_t group)
{
    if (c->active[pkg][group])
        return SB_OK;
    c->active[pkg][group] = 1;
    work *q = grow(c->s, c->queue, &c->qcap, c->nq, sizeof *q);
    if (NULL == q)
        return SB_ENOMEM;
    c->queue = q;
    q[c->nq++] = (work){pkg, group};
    return SB_OK;
}

/* Include package t and the groups its comma-separated `extras` name. */
static sb_code include(build_ctx *c, size_t t, const char *extras)
{
    c->included[t] = 1;
    sb_code rc = push(c, t, 0);
    const sb_py_pkg *tp = &c->pl->pkgs[t];
    for (const char *e = extras; rc == SB_OK && e && *e;) {
        size_t len = strcspn(e, ",");
        const char *one = e;
        e = one[len] ? one + len + 1 : one + len;
        while (len && *one == ' ') {
            one++;
            len--;
        }
        char *raw = sb_arena_strndup(c->s, one, len);
        char *n = raw ? sb_model_pep503(c->s, raw) : NULL;
        if (NULL == n)
            return SB_ENOMEM;
        size_t g = sb_pyl_find_group(tp, n);
        if (g != NONE && g > 0)
            rc = push(c, t, g);
    }
    return rc;
}

static sb_code follow(build_ctx *c, size_t i, const sb_py_deps *g, int *bad)
{
    for (size_t d = 0; d < g->n; d++) {
        const sb_py_dep *dep = &g->v[d];
        sb_code rc = sb_deadline_tick(&c->dl, c->err);
        if (rc != SB_OK)
            return rc;
        if (!marker_true(c, dep->marker, bad)) {
            if (*bad)
                return SB_EPARSE;
            continue;
        }
        size_t t = resolve(c, dep, bad);
        if (*bad)
            return SB_EPARSE;
        if (t == NONE || t == i)
            continue;
        if (c->pl->walk) {
            if ((rc = include(c, t, dep->extras)) != SB_OK)
                return rc;
        } else if (!c->included[t]) {
            continue;
        }
        sb_strv *e = c->pl->pkgs[i].root ? &c->root_edges : edges_of(c, i);
        if (c->pl->pkgs[i].root)
            c->direct[c->head[t]] = 1;
        if (sb_strv_push(e, c->a, dep->name) != SB_OK)
            return SB_ENOMEM;
    }
    return SB_OK;
}

/* The round of the walk a member's dependency group belongs to: its base
 * dependencies are required, a development group development, an extra optional. */
static sb_scope group_scope(const sb_py_pkg *p, size_t g)
{
    if (NULL == p->groups[g].group)
        return SB_SCOPE_REQUIRED;
    return p->groups[g].dev ? SB_SCOPE_DEVELOPMENT : SB_SCOPE_OPTIONAL;
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
    const char **names = sb_arena_alloc(c->s, src->narts * sizeof *names);
    size_t *map = sb_arena_alloc(c->s, src->narts * sizeof *map);
    if (NULL == names || NULL == map)
        return SB_ENOMEM;
    size_t nw = 0, sdist = NONE;
    for (size_t k = 0; k < src->narts; k++) {
        if (src->arts[k].sdist) {
            if (sdist == NONE)
                sdist = k;
        } else {
            map[nw] = k;
            names[nw++] = src->arts[k].file ? src->arts[k].file : "";
        }
    }
    int pick = sb_marker_choose_wheel(names, nw, sdist != NONE, c->env.platform, python);
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

/* Which packages this platform installs, and their edges: a walk from the
 * members (uv), else each package's own marker. */
static sb_code walk_platform(build_ctx *c, int *bad)
{
    sb_pyl *pl = c->pl;
    size_t n = pl->npkgs;
    sb_code rc = SB_OK;
    if (pl->walk) {
        size_t q = 0;
        for (sb_scope round = SB_SCOPE_REQUIRED; round <= SB_SCOPE_DEVELOPMENT && rc == SB_OK; round++) {
            for (size_t i = 0; i < n && rc == SB_OK; i++) {
                if (!pl->pkgs[i].member)
                    continue;
                c->included[i] = 1;
                for (size_t g = 0; g < pl->pkgs[i].ngroups && rc == SB_OK; g++)
                    if (group_scope(&pl->pkgs[i], g) == round)
                        rc = push(c, i, g);
            }
            for (; q < c->nq && rc == SB_OK; q++)
                rc = follow(c, c->queue[q].pkg, &pl->pkgs[c->queue[q].pkg].groups[c->queue[q].group], bad);
            for (size_t i = 0; i < n; i++)
                if (c->included[i] && SB_SCOPE_NONE == c->scope[i])
                    c->scope[i] = round;
        }
        return rc;
    }
    for (size_t i = 0; i < n && rc == SB_OK; i++) {
        c->included[i] = marker_true(c, pl->pkgs[i].marker, bad) || pl->pkgs[i].root;
        c->scope[i] = pl->pkgs[i].scope;
        if (*bad)
            return SB_EPARSE;
        rc = sb_deadline_tick(&c->dl, c->err);
    }
    for (size_t i = 0; i < n && rc == SB_OK; i++)
        if (c->included[i])
            for (size_t g = 0; g < pl->pkgs[i].ngroups && rc == SB_OK; g++)
                rc = follow(c, i, &pl->pkgs[i].groups[g], bad);
    return rc;
}

/* One sb_pkg per included package, with its edges and artifact. */
static sb_code emit_platform(build_ctx *c, sb_lock_platform *lp, const char *python)
{
    sb_pyl *pl = c->pl;
    int distinguishes = 0; /* a platform where everything is required says nothing */
    size_t count = 0;
    for (size_t i = 0; i < pl->npkgs; i++) {
        distinguishes |= c->included[i] && !pl->pkgs[i].root && c->scope[i] > SB_SCOPE_REQUIRED;
        count += c->included[i] && !pl->pkgs[i].root;
    }
    if (0 == lp->npkgs && count > lp->cap) { /* one array, not a doubling trail of them */
        lp->pkgs = sb_arena_alloc(c->a, count * sizeof *lp->pkgs);
        if (NULL == lp->pkgs)
            return SB_ENOMEM;
        lp->cap = count;
    }
    /* built once: the templates themselves become the records, moved down
     * over what the platform leaves out so they are the first `count` of
     * one array (lp->recs), which a consuming selection takes as it is */
    bool packed = c->once && 0 == lp->npkgs;
    size_t k = 0;
    for (size_t i = 0; i < pl->npkgs; i++) {
        const sb_py_pkg *src = &pl->pkgs[i];
        sb_code rc = sb_deadline_tick(&c->dl, c->err);
        if (rc != SB_OK)
            return rc;
        if (!c->included[i] || src->root)
            continue;
        sb_pkg *p = packed ? &pl->recs[k++] : sb_arena_alloc(c->a, sizeof *p);
        if (NULL == p)
            return SB_ENOMEM;
        if (p != src->rec) /* k <= i: slot k's own template was emitted or left out already */
            *p = *src->rec;
        p->depends = *edges_of(c, i); /* once: the template's, which *p may already be */
        p->scope = distinguishes ? c->scope[i] : SB_SCOPE_NONE;
        if ((rc = choose_artifact(c, src, p, python)) != SB_OK || (rc = clone_strv(&p->reader_props, c->a)) != SB_OK)
            return rc;
        if (c->has_root && c->direct[c->head[i]] &&
            (sb_strv_push(&p->reader_props, c->a, "pixi:direct") != SB_OK ||
             sb_strv_push(&p->reader_props, c->a, "true") != SB_OK))
            return SB_ENOMEM;
        if (sb_lock_platform_add(lp, c->a, p) != SB_OK)
            return SB_ENOMEM;
    }
    if (packed)
        lp->recs = pl->recs; /* lp->pkgs[j] == &recs[j] */
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
    memset(c->direct, 0, n);
    memset(c->scope, 0, n * sizeof *c->scope);
    memset(&c->root_edges, 0, sizeof c->root_edges);
    c->nq = 0;
    for (size_t i = 0; i < n; i++) {
        memset(c->active[i], 0, pl->pkgs[i].ngroups);
        memset(edges_of(c, i), 0, sizeof(sb_strv));
        c->pick[i] = UNPICKED;
    }
    rc = walk_platform(c, &bad);
    if (bad)
        return SB_EPARSE;
    if (rc == SB_OK) {
        sb_lock_platform *lp = sb_lock_platform_get(env, c->a, platform);
        if (NULL == lp)
            return sb_err_set(c->err, SB_ENOMEM, "out of memory");
        if (c->has_root) {
            lp->has_root_names = true;
            lp->root_names = c->root_edges;
        } else if (pl->has_root_names) {
            lp->has_root_names = true;
            lp->root_names = pl->root_names;
        }
        rc = emit_platform(c, lp, python);
    }
    return rc == SB_ENOMEM ? sb_err_set(c->err, rc, "out of memory") : rc;
}

/* The name chains and the (name, version) index of names locked more than once. */
static sb_code index_names(build_ctx *c, sb_lock *l)
{
    sb_pyl *pl = c->pl;
    size_t n = pl->npkgs;
    /* the last package of each name so far: the reader's own index has one
     * package a name, each its own head, and needs none */
    size_t *tail = pl->names ? NULL : sb_arena_alloc(c->s, (n + 1) * sizeof *tail);
    size_t nactive = 0; /* every package's flags in one array, not an allocation each */
    for (size_t i = 0; i < n; i++)
        nactive += pl->pkgs[i].ngroups + 1;
    unsigned char *flags = sb_arena_alloc(c->s, nactive + 1);
    if ((NULL == tail && NULL == pl->names) || NULL == flags)
        return SB_ENOMEM;
    if (pl->names)
        c->byname = *pl->names; /* looked up only from here on */
    else if (sb_strmap_init(&c->byname, c->s, n) != SB_OK)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        sb_py_pkg *p = &pl->pkgs[i];
        c->next[i] = NONE;
        c->active[i] = flags;
        flags += p->ngroups + 1;
        c->head[i] = i;
        if (NULL == pl->names) {
            const char *n503 = p->rec->name ? sb_model_pep503_or_same(c->s, p->rec->name) : NULL;
            size_t first;
            int dup = n503 ? sb_strmap_put(&c->byname, n503, strlen(n503), i, &first) : SB_ENOMEM;
            if (dup < 0)
                return SB_ENOMEM;
            c->head[i] = dup ? first : i;
            if (dup)
                c->next[tail[first]] = i;
            tail[c->head[i]] = i;
        }
        if (p->root) {
            l->root_name = p->rec->name;
            l->root_version = p->rec->version;
            c->has_root = true;
        }
    }
    size_t nchained = 0;
    for (size_t i = 0; i < n; i++)
        nchained += c->next[c->head[i]] != NONE && pl->pkgs[i].rec->version;
    if (sb_strmap_init(&c->byversion, c->s, nchained) != SB_OK)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (c->next[c->head[i]] == NONE || NULL == pl->pkgs[i].rec->version)
            continue;
        size_t klen;
        const char *k = version_key(c->s, sb_model_pep503(c->s, pl->pkgs[i].rec->name), pl->pkgs[i].rec->version, NULL,
                                    0, &klen);
        if (NULL == k || sb_strmap_put(&c->byversion, k, klen, i, NULL) < 0)
            return SB_ENOMEM;
    }
    return SB_OK;
}

static sb_code alloc_ctx(build_ctx *c, size_t n)
{
    c->head = sb_arena_alloc(c->s, (n + 1) * sizeof *c->head);
    c->next = sb_arena_alloc(c->s, (n + 1) * sizeof *c->next);
    c->pick = sb_arena_alloc(c->s, (n + 1) * sizeof *c->pick);
    c->included = sb_arena_alloc(c->s, n + 1);
    c->scope = sb_arena_alloc(c->s, (n + 1) * sizeof *c->scope);
    c->direct = sb_arena_alloc(c->s, n + 1);
    c->active = sb_arena_alloc(c->s, (n + 1) * sizeof *c->active);
    c->edges = c->once ? NULL : sb_arena_alloc(c->s, (n + 1) * sizeof *c->edges);
    return c->head && c->next && c->pick && c->included && c->scope && c->direct && c->active && (c->once || c->edges)
               ? SB_OK
               : SB_ENOMEM;
}

static sb_code build_into(sb_lock **out, sb_arena *a, sb_arena *scratch, sb_pyl *pl, const sb_limits *lim, sb_err *err)
{
    sb_lock *l = sb_arena_calloc(a, 1, sizeof *l);
    build_ctx c = {0};
    c.a = a;
    c.s = scratch;
    c.pl = pl;
    c.err = err;
    c.dl = (sb_deadline){lim ? lim->deadline_ns : 0, 0, "resolving the lockfile"};
    const char *only = lim ? lim->platform : NULL;
    for (size_t k = 0; only && sb_marker_platforms[k]; k++)
        c.once |= !strcmp(only, sb_marker_platforms[k]);
    if (NULL == l || alloc_ctx(&c, pl->npkgs) != SB_OK || index_names(&c, l) != SB_OK)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    l->kind = pl->kind;
    l->no_dep_data = pl->no_dep_data;
    l->version = 1;
    l->nrecords = pl->npkgs;
    sb_lock_env *env = sb_lock_env_get(l, a, "default");
    if (NULL == env)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    char python[16];
    sb_marker_python_floor(pl->requires_python, pl->python_default, python);
    for (size_t k = 0; sb_marker_platforms[k]; k++) {
        const char *plat = sb_marker_platforms[k];
        if (only && strcmp(only, plat)) { /* listed, not built: the caller selects another */
            sb_lock_platform *lp = sb_lock_platform_get(env, a, plat);
            if (NULL == lp)
                return sb_err_set(err, SB_ENOMEM, "out of memory");
            lp->unbuilt = true;
            continue;
        }
        sb_code rc = build_platform(&c, env, plat, python);
        if (rc != SB_OK)
            return rc;
    }
    *out = l;
    return SB_OK;
}

sb_code sb_pyl_build(sb_lock **out, sb_arena *a, sb_pyl *pl, const sb_limits *lim, sb_err *err)
{
    if (lim && pl->npkgs > lim->max_packages)
        return sb_err_set(err, SB_ELIMIT, "more than %zu packages", lim->max_packages);
    sb_arena *scratch = sb_arena_child(a);
    sb_code rc = scratch ? build_into(out, a, scratch, pl, lim, err) : sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_arena_destroy(scratch);
    return rc;
}
