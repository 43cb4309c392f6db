/*
 * select.c - environment/platform selection: from an sb_lock to one sb_sbom
 * (see select.h).
 *
 * DESIGN: selection copies the records of one environment x platform (each
 * record once), marks what a manifest declares, enriches them (package
 * cache, license lookups), derives what depends on the selection (derive.c:
 * PyPI index, purls, supplier, pixi:* properties), sorts by (kind, name,
 * version), gives every package a unique id, and resolves dependency names
 * against the packages present (graph.c): conda names against conda
 * packages, PyPI requirements against PyPI then conda packages, plus every
 * PyPI package -> the conda `python`; a package with a `key` (npm) names its
 * dependencies by key instead. Root edges are the packages nothing depends
 * on; if cycles leave packages unreachable from those, the first unreached
 * package (model order) becomes a root too, until every package is
 * reachable from the document root. Then the manifest's scopes, the filter
 * (filter.c; with one, enrichment waits until it has run and touches only
 * what the document keeps), what the document lacks (pixi:incomplete), and
 * the hooks that look up advisories, health and scorecards for the
 * packages as the document has them.
 */
#include "select.h"
#include "ecosystem.h"
#include "archive.h"
#include "deadline.h"
#include "derive.h"
#include "enrich.h"
#include "filter.h"
#include "graph.h"
#include "health.h"
#include "license.h"
#include "lock_js.h"
#include "manifest.h"
#include "pypimap.h"
#include "scorecard.h"
#include "strmap.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- names listed in error messages ---- */

static const char *join_envs(sb_arena *a, const sb_lock *l)
{
    size_t n = 1;
    for (size_t i = 0; i < l->nenvs; i++)
        n += strlen(l->envs[i].name) + 2;
    char *s = sb_arena_alloc(a, n);
    if (NULL == s)
        return "";
    s[0] = '\0';
    for (size_t i = 0; i < l->nenvs; i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, l->envs[i].name);
    }
    return l->nenvs ? s : "(none)";
}

static const char *join_platforms(sb_arena *a, const sb_lock_env *e)
{
    size_t n = 1;
    for (size_t i = 0; i < e->nplatforms; i++)
        n += strlen(e->platforms[i].name) + 2;
    char *s = sb_arena_alloc(a, n);
    if (NULL == s)
        return "";
    s[0] = '\0';
    for (size_t i = 0; i < e->nplatforms; i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, e->platforms[i].name);
    }
    return e->nplatforms ? s : "(none)";
}

static int pkg_cmp(const void *x, const void *y)
{
    const sb_pkg *a = x, *b = y;
    if (a->kind != b->kind)
        return (int)a->kind - (int)b->kind;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if (!a->version != !b->version)
        return a->version ? 1 : -1;
    if (a->version && (c = strcmp(a->version, b->version)))
        return c;
    if ((c = strcmp(sb_pkg_ref_purl(a), sb_pkg_ref_purl(b))))
        return c;
    return strcmp(a->location ? a->location : "", b->location ? b->location : "");
}


/* ---- the manifest ---------------------------------------- */

/* name -> first package index, `next` chaining the others with that key */
typedef struct name_idx {
    sb_strmap map;
    size_t *next;
} name_idx;

static sb_code idx_put(name_idx *x, sb_arena *scratch, const char *key, size_t i)
{
    size_t first;
    int dup = sb_strmap_put(&x->map, key, strlen(key), i, &first);
    if (dup < 0)
        return SB_ENOMEM;
    if (dup) { /* append i after first's chain */
        size_t t = first;
        while (x->next[t] != (size_t)-1)
            t = x->next[t];
        x->next[t] = i;
    }
    (void)scratch;
    return SB_OK;
}

static sb_code idx_init(name_idx *x, sb_arena *scratch, size_t n)
{
    x->next = sb_arena_alloc(scratch, (n ? n : 1) * sizeof *x->next);
    if (NULL == x->next || sb_strmap_init(&x->map, scratch, n) != SB_OK)
        return SB_ENOMEM;
    memset(x->next, 0xff, (n ? n : 1) * sizeof *x->next);
    return SB_OK;
}

/* Mark what the manifest declares for this environment (before properties
 * are derived), and list declared names the environment lacks. */
/* A package's features, in the order first declared: declared_in is
 * written once from them (re-printing the list per feature was quadratic in
 * the features naming one package). */
typedef struct feat_link {
    const char *feature;
    size_t next; /* SIZE_MAX: the last */
} feat_link;

typedef struct feat_lists {
    sb_strmap ids;  /* a feature -> its id */
    sb_strmap seen; /* 8 bytes (package, feature id): listed already */
    size_t *head, *tail;
    feat_link *links;
    size_t n, cap;
} feat_lists;

static sb_code feat_add(feat_lists *fl, sb_arena *scratch, size_t pkg, const char *f)
{
    size_t fid;
    int dup = sb_strmap_put(&fl->ids, f, strlen(f), fl->ids.count, &fid);
    if (dup < 0)
        return SB_ENOMEM;
    if (!dup)
        fid = fl->ids.count - 1;
    uint32_t *key = sb_arena_alloc(scratch, 2 * sizeof *key);
    if (NULL == key)
        return SB_ENOMEM;
    key[0] = (uint32_t)pkg, key[1] = (uint32_t)fid;
    if ((dup = sb_strmap_put(&fl->seen, (const char *)key, 2 * sizeof *key, 0, NULL)) != 0)
        return dup < 0 ? SB_ENOMEM : SB_OK;
    feat_link *v = sb_arena_grow(scratch, fl->links, &fl->cap, fl->n, sizeof *v, 64);
    if (NULL == v)
        return SB_ENOMEM;
    fl->links = v;
    v[fl->n] = (feat_link){f, SIZE_MAX};
    if (fl->head[pkg] == SIZE_MAX)
        fl->head[pkg] = fl->n;
    else
        v[fl->tail[pkg]].next = fl->n;
    fl->tail[pkg] = fl->n++;
    return SB_OK;
}

/* The comma-separated list of package pkg's features, once. */
static const char *feat_join(const feat_lists *fl, sb_arena *a, size_t pkg)
{
    size_t len = 0, i = fl->head[pkg];
    if (fl->links[i].next == SIZE_MAX)
        return fl->links[i].feature;
    for (; i != SIZE_MAX; i = fl->links[i].next)
        len += strlen(fl->links[i].feature) + 1;
    char *out = sb_arena_alloc(a, len), *w = out;
    if (NULL == out)
        return NULL;
    for (i = fl->head[pkg]; i != SIZE_MAX; i = fl->links[i].next) {
        size_t n = strlen(fl->links[i].feature);
        if (w != out)
            *w++ = ',';
        memcpy(w, fl->links[i].feature, n);
        w += n;
    }
    *w = '\0';
    return out;
}

static sb_code apply_manifest(sb_sbom *s, sb_arena *a, sb_arena *scratch, const sb_manifest *m, sb_deadline *dl,
                              sb_err *err)
{
    name_idx conda, conda503, pypi, npm;
    sb_menv_index in_env;
    feat_lists fl = {0};
    size_t one = s->npkgs ? s->npkgs : 1;
    fl.head = sb_arena_alloc(scratch, one * sizeof *fl.head);
    fl.tail = sb_arena_alloc(scratch, one * sizeof *fl.tail);
    if (NULL == fl.head || NULL == fl.tail || sb_strmap_init(&fl.ids, scratch, 16) != SB_OK ||
        sb_strmap_init(&fl.seen, scratch, s->npkgs) != SB_OK ||
        sb_manifest_env_index(&in_env, m, s->environment, scratch) != SB_OK)
        return SB_ENOMEM;
    memset(fl.head, 0xff, one * sizeof *fl.head);
    if (idx_init(&conda, scratch, s->npkgs) || idx_init(&conda503, scratch, s->npkgs) ||
        idx_init(&pypi, scratch, s->npkgs) || idx_init(&npm, scratch, s->npkgs))
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        const sb_ecosystem *eco = sb_eco(p->kind);
        if (eco->index == SB_INDEX_CONDA) {
            char *lower = sb_arena_strdup(scratch, p->name);
            char *n503 = sb_model_pep503(scratch, p->name);
            if (NULL == lower || NULL == n503)
                return SB_ENOMEM;
            for (char *c = lower; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            if (idx_put(&conda, scratch, lower, i) || idx_put(&conda503, scratch, n503, i))
                return SB_ENOMEM;
        } else if (eco->index == SB_INDEX_PYPI) {
            char *n503 = sb_model_pep503(scratch, p->name);
            if (NULL == n503 || idx_put(&pypi, scratch, n503, i))
                return SB_ENOMEM;
        } else if (eco->mdep == SB_MDEP_NPM) {
            if (idx_put(&npm, scratch, p->name, i))
                return SB_ENOMEM;
        }
    }
    sb_strmap missing;
    if (sb_strmap_init(&missing, scratch, m->ndeps) != SB_OK)
        return SB_ENOMEM;
    for (size_t d = 0; d < m->ndeps; d++) {
        const sb_mdep *dep = &m->deps[d];
        if (sb_deadline_tick(dl, err) != SB_OK)
            return SB_ETIMEOUT;
        if (!sb_manifest_env_has(&in_env, dep->feature))
            continue;
        const name_idx *tries[2] = {NULL, NULL};
        if (dep->eco == SB_MDEP_CONDA)
            tries[0] = &conda;
        else if (dep->eco == SB_MDEP_PYPI)
            tries[0] = &pypi, tries[1] = &conda503; /* pixi may satisfy it from conda */
        else
            tries[0] = &npm;
        size_t at = (size_t)-1;
        const name_idx *x = NULL;
        for (int t = 0; t < 2 && tries[t] && at == (size_t)-1; t++)
            if (sb_strmap_get(&tries[t]->map, dep->name, strlen(dep->name), &at))
                x = tries[t];
            else
                at = (size_t)-1;
        if (at == (size_t)-1) {
            int dup = sb_strmap_put(&missing, dep->name, strlen(dep->name), d, NULL);
            if (dup < 0 || (0 == dup && sb_strv_push(&s->declared_missing, a, dep->name) != SB_OK))
                return SB_ENOMEM;
            continue;
        }
        for (; at != (size_t)-1; at = x->next[at]) {
            sb_pkg *p = &s->pkgs[at];
            if (0 == p->declared_via)
                s->ndeclared++;
            p->declared_via |= (unsigned char)(1u << dep->scope);
            if (feat_add(&fl, scratch, at, dep->feature) != SB_OK || sb_deadline_tick(dl, err) != SB_OK)
                return err && err->code == SB_ETIMEOUT ? SB_ETIMEOUT : SB_ENOMEM;
        }
    }
    for (size_t i = 0; i < s->npkgs; i++) {
        if (fl.head[i] == SIZE_MAX)
            continue;
        sb_pkgx *px = sb_pkg_x(&s->pkgs[i], a); /* the selection's own: copied from the record's, or new */
        if (NULL == px || NULL == (px->declared_in = feat_join(&fl, a, i)))
            return SB_ENOMEM;
    }
    return SB_OK;
}

/* Scopes from the manifest's groups and extras: reachable from
 * what is required = required; else only via an extra = optional; else only
 * via a group = development. Only beside lockfiles that do not record them:
 * pixi.lock documents carry none, and where the lockfile scoped its packages
 * itself (uv/poetry/pdm groups, conda-lock categories, npm/pnpm dev flags)
 * the locker's word stands - it knows which edges are a workspace member's
 * own development groups, which the resolved graph no longer shows. */
/* pixi:scope set to `word` (the lock's replaced, else added). */
static sb_code set_scope_prop(sb_pkg *p, sb_arena *a, const char *word)
{
    for (uint32_t k = 0; k < p->nprops; k++)
        if (!strcmp(p->props[k].name, "pixi:scope")) {
            p->props[k].value = word;
            return SB_OK;
        }
    return sb_pkg_prop_insert(p, a, "pixi:scope", word);
}

/* A JavaScript lock that cannot tell development from production
 * (sb_lock.scopes_guessed: yarn) with a package.json: scopes as npm means
 * them, from what the manifest declares (dependencies a required path,
 * devDependencies a development one, optional and peer ones an optional
 * one) down the graph, an optional edge of the lock making a path optional,
 * so that what only chokidar's optional fsevents edge reaches stays
 * optional while chokidar is required. What nothing declared reaches keeps
 * the lock's word. */
static sb_code manifest_js_scopes(sb_sbom *s, const sb_lock *lock, sb_arena *a, sb_arena *scratch)
{
    size_t n = s->npkgs;
    sb_strmap by_key, opt;
    uint8_t *paths = sb_arena_calloc(scratch, n ? n : 1, 1);
    size_t *q = sb_arena_alloc(scratch, (8 * n + 1) * sizeof *q), cap = 8 * n + 1, head = 0, tail = 0;
    if (NULL == paths || NULL == q || sb_strmap_init(&by_key, scratch, n) != SB_OK ||
        sb_strmap_init(&opt, scratch, lock->opt_edges.n / 2 + 1) != SB_OK)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (s->pkgs[i].key && sb_strmap_put(&by_key, s->pkgs[i].key, strlen(s->pkgs[i].key), i, NULL) < 0)
            return SB_ENOMEM;
    for (size_t e = 0; e + 1 < lock->opt_edges.n; e += 2) {
        size_t u, v;
        const char *fk = lock->opt_edges.v[e], *tk = lock->opt_edges.v[e + 1];
        if (!sb_strmap_get(&by_key, fk, strlen(fk), &u) || !sb_strmap_get(&by_key, tk, strlen(tk), &v))
            continue;
        uint32_t *pair = sb_arena_alloc(scratch, 2 * sizeof *pair);
        if (NULL == pair)
            return SB_ENOMEM;
        pair[0] = (uint32_t)u, pair[1] = (uint32_t)v;
        if (sb_strmap_put(&opt, (const char *)pair, 2 * sizeof *pair, 0, NULL) < 0)
            return SB_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned dv = s->pkgs[i].declared_via;
        paths[i] = (uint8_t)((dv & 1u << SB_SCOPE_REQUIRED ? 1u << 0 : 0) |
                             (dv & 1u << SB_SCOPE_OPTIONAL ? 1u << sb_js_path_class(SB_JS_OPTIONAL) : 0) |
                             (dv & 1u << SB_SCOPE_DEVELOPMENT ? 1u << sb_js_path_class(SB_JS_DEV) : 0));
        if (paths[i])
            q[tail++] = i;
    }
    while (head < tail) {
        size_t u = q[head++];
        for (uint32_t k = 0; k < s->pkgs[u].ndeps; k++) {
            size_t v = s->pkgs[u].deps[k];
            uint32_t pair[2] = {(uint32_t)u, (uint32_t)v};
            size_t dummy;
            unsigned e = sb_strmap_get(&opt, (const char *)pair, sizeof pair, &dummy) ? sb_js_path_class(SB_JS_OPTIONAL)
                                                                                      : 0;
            uint8_t m = 0;
            for (unsigned c = 0; c < 8; c++)
                if (paths[u] & 1u << c)
                    m |= (uint8_t)(1u << (c | e));
            if (m & ~paths[v]) {
                paths[v] |= m;
                if (tail < cap)
                    q[tail++] = v;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (!paths[i])
            continue;
        sb_js_scope js = sb_js_scope_of_paths(paths[i]);
        s->pkgs[i].scope = sb_js_model_scope(js);
        if (set_scope_prop(&s->pkgs[i], a, sb_js_scope_word(js)) != SB_OK)
            return SB_ENOMEM;
    }
    return SB_OK;
}

static sb_code manifest_scopes(sb_sbom *s, const sb_lock *lock, const sb_manifest *m, sb_arena *a, sb_arena *scratch)
{
    if (!strcmp(lock->kind, "pixi.lock") || !strcmp(lock->kind, "conda-lock.yml"))
        return SB_OK;
    int distinguishes = 0, recorded = 0;
    sb_menv_index in_env;
    if (sb_manifest_env_index(&in_env, m, s->environment, scratch) != SB_OK)
        return SB_ENOMEM;
    for (size_t d = 0; d < m->ndeps && !distinguishes; d++)
        distinguishes |= m->deps[d].scope != SB_SCOPE_REQUIRED && sb_manifest_env_has(&in_env, m->deps[d].feature);
    for (size_t i = 0; i < s->npkgs; i++)
        recorded |= s->pkgs[i].scope != SB_SCOPE_NONE;
    if (lock->scopes_guessed)
        return manifest_js_scopes(s, lock, a, scratch);
    if (!distinguishes || recorded)
        return SB_OK;
    unsigned char *reach = sb_arena_calloc(scratch, s->npkgs ? s->npkgs : 1, 1);
    size_t *stack = sb_arena_alloc(scratch, (s->npkgs + 1) * sizeof *stack);
    if (NULL == reach || NULL == stack)
        return SB_ENOMEM;
    for (sb_scope sc = SB_SCOPE_REQUIRED; sc <= SB_SCOPE_DEVELOPMENT; sc++) {
        unsigned char bit = (unsigned char)(1u << sc);
        size_t sp = 0;
        for (size_t i = 0; i < s->npkgs; i++)
            if ((s->pkgs[i].declared_via & bit) && !(reach[i] & bit)) {
                reach[i] |= bit;
                stack[sp++] = i;
            }
        while (sp) {
            size_t u = stack[--sp];
            for (size_t k = 0; k < s->pkgs[u].ndeps; k++) {
                size_t v = s->pkgs[u].deps[k];
                if (!(reach[v] & bit)) {
                    reach[v] |= bit;
                    stack[sp++] = v;
                }
            }
        }
    }
    for (size_t i = 0; i < s->npkgs; i++) {
        unsigned char r = reach[i];
        if (r & (1u << SB_SCOPE_REQUIRED))
            s->pkgs[i].scope = SB_SCOPE_REQUIRED;
        else if (r & (1u << SB_SCOPE_OPTIONAL))
            s->pkgs[i].scope = SB_SCOPE_OPTIONAL;
        else if (r & (1u << SB_SCOPE_DEVELOPMENT))
            s->pkgs[i].scope = SB_SCOPE_DEVELOPMENT;
        /* reached by nothing declared: the lockfile's word stands */
    }
    return SB_OK;
}

/* What the document will lack, in a fixed step order. */
static sb_code note_gaps(sb_sbom *s, sb_arena *a, const sb_select_opts *opts, size_t ncache_conda, size_t ncache_found)
{
    size_t nohash = 0, nolic = 0, text = 0;
    sb_hash_hex hx;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        int any = 0;
        for (int h = 0; h < SB_HASH_N; h++)
            any |= NULL != sb_pkg_hash(p, (sb_hash_alg)h, &hx);
        nohash += !any;
        if (NULL == p->license) {
            nolic++;
        } else {
            sb_lic l = sb_pkg_lic(p, a);
            nolic += l.kind == SB_LIC_NONE;
            text += l.kind == SB_LIC_TEXT;
        }
    }
    sb_code rc = SB_OK;
    if (nohash)
        rc = sb_incomplete_add(&s->incomplete, a, "hashes", "%zu of %zu package(s) without a hash", nohash, s->npkgs);
    if (rc == SB_OK && (nolic || text))
        rc = sb_incomplete_add(&s->incomplete, a, "licenses",
                               "%zu of %zu package(s) without a license, %zu not an SPDX expression", nolic, s->npkgs,
                               text);
    if (rc == SB_OK && opts && opts->package_cache && ncache_found < ncache_conda)
        rc = sb_incomplete_add(&s->incomplete, a, "package-cache",
                               "%zu of %zu conda package(s) not in the package cache", ncache_conda - ncache_found,
                               ncache_conda);
    if (rc == SB_OK)
        rc = sb_enrich_budget(s, a, opts && opts->license_texts, opts ? opts->text_shape : SB_TEXTS_CYCLONEDX,
                              opts ? opts->license_file_max : 0, opts ? opts->license_texts_max : 0);
    return rc;
}

/* The platform a selection means: the one named, else the documented
 * default (linux-64, else an environment's only platform, else the one the
 * reader names as its default, else "none" for an environment that locks
 * nothing). NULL when there is none. */
static const sb_lock_platform *pick_platform(const sb_lock_env *env, const char *platform)
{
    static const sb_lock_platform none = {.name = "none"};
    if (platform)
        return sb_lock_find_platform(env, platform);
    const sb_lock_platform *plat = sb_lock_find_platform(env, SB_SELECT_DEFAULT_PLATFORM);
    if (NULL == plat && env->nplatforms == 1)
        plat = &env->platforms[0];
    if (NULL == plat && env->default_platform)
        plat = sb_lock_find_platform(env, env->default_platform);
    if (NULL == plat && env->nplatforms == 0)
        plat = &none; /* an empty document */
    return plat;
}

const char *sb_select_reader_platform(const sb_select_opts *opts)
{
    return opts && opts->platform ? opts->platform : SB_SELECT_DEFAULT_PLATFORM;
}

const sb_lock_platform *sb_select_platform(const sb_lock *lock, const sb_select_opts *opts)
{
    const sb_lock_env *env = sb_lock_find_env(lock, opts && opts->environment ? opts->environment : "default");
    return env ? pick_platform(env, opts ? opts->platform : NULL) : NULL;
}

typedef struct rec_at {
    uintptr_t p;
    size_t i;
} rec_at;

static int rec_cmp(const void *x, const void *y)
{
    const rec_at *a = x, *b = y;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Which entries of a platform's list repeat an earlier entry (one record
 * listed twice): the entries sorted by record address, every one after the
 * first of its run marked. 17 bytes an entry, where a map was 50. */
static unsigned char *repeats(sb_arena *tmp, const sb_lock_platform *plat)
{
    size_t n = plat->npkgs;
    rec_at *v = sb_arena_alloc(tmp, (n + 1) * sizeof *v);
    unsigned char *rep = sb_arena_calloc(tmp, n + 1, 1);
    if (NULL == v || NULL == rep)
        return NULL;
    for (size_t i = 0; i < n; i++)
        v[i] = (rec_at){(uintptr_t)plat->pkgs[i], i};
    qsort(v, n, sizeof *v, rec_cmp);
    for (size_t k = 1; k < n; k++)
        if (v[k].p == v[k - 1].p)
            rep[v[k].i] = 1;
    return rep;
}

/* Whether a license lookup would ask about p: the packages service/lookup/lookup.c
 * (wanted) asks for, less those that only lack license files. */
static int would_look_up(const sb_pkg *p, sb_arena *a)
{
    if (p->license && p->license[0])
        return 0;
    if (sb_eco_is(p->kind, SB_ECO_PYPI_INDEX))
        return p->version != NULL;
    if (!sb_eco_is(p->kind, SB_ECO_CHANNEL) || NULL == p->location)
        return 0;
    sb_archive_kind ak;
    if (NULL == sb_conda_archive_url(a, "http://offline", p->location, &ak))
        return 0;
    long long size = sb_pkg_xr(p)->size;
    return ak != SB_ARCHIVE_TARBZ2 || (size > 0 && size <= SB_ARCHIVE_TARBZ2_MAX);
}

sb_code sb_lookup_probe(void *ctx, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err)
{
    (void)err; /* counts only: cannot fail */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (would_look_up(&pkgs[i], a)) {
            m++;
            pkgs[i].lookup = ctx ? SB_LOOKUP_UNASKED : SB_LOOKUP_OFF;
        }
    if (ctx)
        st->unasked = m;
    else
        st->off = m;
    return SB_OK;
}

/* A step of the selection failed with rc: a step that says why (takes an
 * sb_err and set it: a callback, the graph, the deadline) has its code and
 * message travel up unchanged; one that cannot say gets a line naming it
 * ("out of memory" for SB_ENOMEM, sb_err_set_code). err is clear until a
 * failure (sb_select clears it), so a code set here is the step's. */
static sb_code step_failed(sb_err *err, sb_code rc, const char *step)
{
    if (err && err->code == rc)
        return rc;
    return sb_err_set_code(err, rc, step);
}

/* Enrichment of n packages: the package cache (conda binaries), then the
 * lookups, which see every package at once so they can run together. */
static sb_code enrich(sb_pkg *pkgs, size_t n, sb_arena *a, const sb_select_opts *opts, size_t *ncache_conda,
                      size_t *ncache_found, sb_lookup_stats *looked, sb_deadline *dl, sb_err *err)
{
    for (size_t i = 0; opts && opts->package_cache && i < n; i++) {
        if (!sb_eco_is(pkgs[i].kind, SB_ECO_CHANNEL))
            continue;
        int found = 0;
        sb_code rc = sb_enrich_from_cache(&pkgs[i], a, opts->package_cache, &found);
        if (rc != SB_OK)
            return step_failed(err, rc, "reading the package cache");
        (*ncache_conda)++;
        *ncache_found += (size_t)found;
        if (sb_deadline_tick(dl, err) != SB_OK)
            return SB_ETIMEOUT;
    }
    sb_code rc = SB_OK;
    if (opts && opts->lookup)
        rc = opts->lookup(opts->lookup_ctx, pkgs, n, a, looked, err);
    else if (opts && opts->lookup_probe)
        rc = opts->lookup_probe(opts->lookup_probe_ctx, pkgs, n, a, looked, err);
    if (rc != SB_OK)
        return step_failed(err, rc, "the license lookups");
    if (sb_deadline_check(dl, err) != SB_OK)
        return SB_ETIMEOUT;
    return SB_OK;
}

static int pkg_ptr_cmp(const void *x, const void *y)
{
    const sb_pkg *a = *(const sb_pkg *const *)x, *b = *(const sb_pkg *const *)y;
    int c = pkg_cmp(a, b);
    return c ? c : (a > b) - (a < b); /* ties keep input order */
}

/* Sort the packages (kind, name, version); `raw`, when given, is a parallel
 * array carried into the same order. */
static sb_code order(sb_sbom *s, sb_pkg *raw, sb_arena *scratch)
{
    if (NULL == raw) {
        qsort(s->pkgs, s->npkgs, sizeof *s->pkgs, pkg_cmp);
        return SB_OK;
    }
    size_t one = s->npkgs ? s->npkgs : 1;
    sb_pkg **v = sb_arena_alloc(scratch, one * sizeof *v);
    sb_pkg *sorted = sb_arena_alloc(scratch, one * sizeof *sorted);
    sb_pkg *rsorted = sb_arena_alloc(scratch, one * sizeof *rsorted);
    if (!v || !sorted || !rsorted)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++)
        v[i] = &s->pkgs[i];
    qsort(v, s->npkgs, sizeof *v, pkg_ptr_cmp);
    for (size_t j = 0; j < s->npkgs; j++) {
        sorted[j] = *v[j];
        rsorted[j] = raw[v[j] - s->pkgs];
    }
    memcpy(s->pkgs, sorted, s->npkgs * sizeof *sorted);
    memcpy(raw, rsorted, s->npkgs * sizeof *rsorted);
    return SB_OK;
}

/* Normalize licenses and derive purls, suppliers and properties (derive.c)
 * with what the request asks of them. */
static sb_code finish(sb_pkg *pkgs, size_t n, sb_arena *a, sb_arena *licmem, sb_arena *scratch, const sb_lock_env *env,
                      const sb_select_opts *opts, sb_deadline *dl, sb_err *err)
{
    sb_derive_opts d = {opts ? opts->pypi_map : NULL, opts && opts->primary_pypi};
    return sb_derive_pkgs(pkgs, n, a, licmem, scratch, env, &d, dl, err);
}

/* After the filter: enrich what the document kept, from the records as read
 * (the derivation rewrites some fields), and derive them again. Purls and so
 * ids, order and graph do not depend on what enrichment fills in; each
 * package keeps its id and edges. */
static sb_code enrich_kept(sb_sbom *s, const sb_pkg *raw, const size_t *kept, sb_arena *a, sb_arena *scratch,
                           const sb_select_opts *opts, const sb_lock_env *env, size_t *ncache_conda,
                           size_t *ncache_found, sb_lookup_stats *looked, sb_deadline *dl, sb_err *err)
{
    size_t n = s->npkgs;
    sb_pkg *v = sb_arena_alloc(a, (n ? n : 1) * sizeof *v); /* the selection's copies, as lookups expect */
    if (NULL == v)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t j = 0; j < n; j++)
        v[j] = raw[kept[j]];
    sb_code rc = enrich(v, n, a, opts, ncache_conda, ncache_found, looked, dl, err);
    if (rc == SB_OK)
        rc = finish(v, n, a, scratch, scratch, env, opts, dl, err);
    if (rc != SB_OK)
        return rc;
    for (size_t j = 0; j < n; j++) {
        v[j].id = s->pkgs[j].id;
        v[j].deps = s->pkgs[j].deps;
        v[j].ndeps = s->pkgs[j].ndeps;
        v[j].scope = s->pkgs[j].scope; /* the manifest may have set it after the graph */
        s->pkgs[j] = v[j];
    }
    return SB_OK;
}

/* `scratch` holds what only the selection itself needs (the lookup maps),
 * freed when it returns so the writers can reuse the memory; `*tmp` what
 * only its first steps need (the repeated records, the license strings),
 * destroyed once they are done so the id and graph maps reuse that memory. */
/* The document's own fields: the root (query, else manifest, else lockfile),
 * what the manifest declares about it, the input's names, and what the
 * request asked for that the writers show. */
static sb_code doc_fields(sb_sbom *s, sb_arena *a, const sb_lock *lock, const sb_select_opts *opts)
{
    const sb_manifest *mf = opts ? opts->manifest : NULL;
    const char *mname = mf && mf->name && mf->name[0] ? mf->name : NULL;
    s->root_name = opts && opts->root_name ? opts->root_name
                   : mname                 ? mname
                   : lock->root_name       ? lock->root_name
                                           : "workspace";
    /* a version belongs to the name it came with: the query's, else the manifest's */
    s->root_version = opts && opts->root_version ? opts->root_version
                      : opts && opts->root_name  ? NULL
                      : mname                    ? mf->version
                                                 : lock->root_version;
    if (mf) {
        s->manifest = true;
        s->root_authors = mf->authors;
        s->nroot_authors = mf->nauthors;
        s->root_license = mf->license && mf->license[0] ? mf->license : NULL;
        s->root_homepage = mf->homepage && mf->homepage[0] ? mf->homepage : NULL;
        s->root_repository = mf->repository && mf->repository[0] ? mf->repository : NULL;
        s->root_documentation = mf->documentation && mf->documentation[0] ? mf->documentation : NULL;
        char hex[41];
        for (int k = 0; k < 20; k++) {
            static const char digits[] = "0123456789abcdef";
            hex[2 * k] = digits[mf->sha1[k] >> 4];
            hex[2 * k + 1] = digits[mf->sha1[k] & 15];
        }
        hex[40] = 0;
        if (NULL == (s->manifest_digest = sb_arena_strdup(a, hex)))
            return SB_ENOMEM;
    }
    /* the name the client sent, else the kind's own name when the content says
     * which kind it is; never a name nobody sent */
    s->lockfile_name = opts && opts->lockfile_name ? opts->lockfile_name
                       : lock->lockfile_name       ? lock->lockfile_name
                       : lock->kind_unsure         ? NULL
                                                   : lock->kind;
    /* the client's or the input document's name, echoed by every writer */
    if (sb_str_no_controls(a, s->lockfile_name, &s->lockfile_name) != SB_OK)
        return SB_ENOMEM;
    s->input_kind = lock->kind;
    s->origin = lock->origin;
    s->source_document = lock->source_document;
    s->made_from = lock->origin && lock->origin->kind ? lock->origin->kind : lock->kind;
    s->package_cache = opts && opts->package_cache;
    s->lookups = opts && opts->lookup;
    s->deps_unknown = lock->no_dep_data;
    s->author = opts ? opts->author : NULL;
    s->pypi_mapping = opts && opts->pypi_map ? sb_pypimap_digest(opts->pypi_map) : NULL;
    s->primary_pypi = opts && opts->primary_pypi;
    s->kev_asked = opts && opts->vulns && opts->vuln_kev;
    s->epss_asked = opts && opts->vulns && opts->vuln_epss;
    s->vex_digest = opts && opts->vulns ? opts->vex_digest : NULL;
    return SB_OK;
}

/* ids: the purl, suffixed when two packages share one */
static sb_code assign_ids(sb_sbom *s, sb_arena *a, sb_arena *scratch)
{
    sb_strmap ids;
    if (sb_strmap_init(&ids, scratch, s->npkgs) != SB_OK)
        return SB_ENOMEM;
    /* equal purls sort together: a run of them continues its suffixes
     * rather than trying #dup-2, #dup-3, ... again for each */
    unsigned next = 2;
    for (size_t i = 0; i < s->npkgs; i++) {
        const char *id = sb_pkg_ref_purl(&s->pkgs[i]);
        if (0 == i || strcmp(id, sb_pkg_ref_purl(&s->pkgs[i - 1])))
            next = 2;
        for (unsigned n = next; sb_strmap_put(&ids, id, strlen(id), i, NULL) == 1; n++) {
            id = sb_arena_printf(a, "%s#dup-%u", sb_pkg_ref_purl(&s->pkgs[i]), n);
            if (NULL == id)
                return SB_ENOMEM;
            next = n + 1;
        }
        s->pkgs[i].id = id;
    }
    return SB_OK;
}

/* pixi:incomplete for the license lookups a request wanted and did not get, by why */
static sb_code note_lookups(sb_sbom *s, sb_arena *a, const sb_lookup_stats *looked)
{
    sb_code lrc = SB_OK;
    if (looked->failed)
        lrc = sb_incomplete_add(&s->incomplete, a, "licenses", "%zu lookup(s) failed", looked->failed);
    if (lrc == SB_OK && looked->offline)
        lrc = sb_incomplete_add(&s->incomplete, a, "licenses",
                                "%zu lookup(s) not made (this server makes no network lookups)", looked->offline);
    if (lrc == SB_OK && looked->unasked)
        lrc = sb_incomplete_add(&s->incomplete, a, "licenses",
                                "%zu lookup(s) not made (not asked: fetch-licenses=true looks them up)",
                                looked->unasked);
    if (lrc == SB_OK && looked->off)
        lrc = sb_incomplete_add(&s->incomplete, a, "licenses", "%zu lookup(s) not made (network lookups are off)",
                                looked->off);
    if (lrc == SB_OK && looked->capped)
        lrc = sb_incomplete_add(&s->incomplete, a, "licenses",
                                "%zu lookup(s) not made (past the server's per-request lookup limit)", looked->capped);
    return lrc;
}

static sb_code select_into(sb_sbom **out, sb_arena *a, sb_arena *scratch, sb_arena **tmp, const sb_lock *lock,
                           const sb_select_opts *opts, sb_err *err)
{
    const char *env_name = opts && opts->environment ? opts->environment : "default";
    const sb_lock_env *env = sb_lock_find_env(lock, env_name);
    if (NULL == env)
        return sb_err_set(err, SB_ENOTFOUND, "environment '%.64s' not found in lockfile; available: %.150s", env_name,
                          join_envs(a, lock));
    const sb_lock_platform *plat = pick_platform(env, opts ? opts->platform : NULL);
    if (NULL == plat && opts && opts->platform)
        return sb_err_set(err, SB_ENOTFOUND,
                          "platform '%.64s' is not locked for environment '%.64s'; available: %.120s", opts->platform,
                          env_name, join_platforms(a, env));
    if (NULL == plat)
        return sb_err_set(err, SB_ENOTFOUND, "environment '%.64s' does not lock %s; choose a platform: %.120s",
                          env_name, SB_SELECT_DEFAULT_PLATFORM, join_platforms(a, env));
    if (plat->unbuilt)
        return sb_err_set(err, SB_EMISUSE, "platform '%.64s' was not built: the lockfile was read for another platform",
                          plat->name);
    sb_deadline dl = {opts ? opts->deadline_ns : 0, 0, "selecting the packages"};
    sb_sbom *s = sb_arena_calloc(a, 1, sizeof *s);
    if (NULL == s)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    s->environment = env->name;
    s->platform = plat->name;
    if (doc_fields(s, a, lock, opts) != SB_OK) /* allocations only */
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    size_t ncache_conda = 0, ncache_found = 0;
    /* each record once, even if the environment lists it twice */
    unsigned char *repeated = repeats(*tmp, plat);
    if (NULL == repeated)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    /* records in one array of a lock selected once: taken as they are (a
     * 100,000-package lock saves 100,000 copies of sb_pkg) */
    bool adopt = opts && opts->consume && plat->recs && plat->npkgs;
    for (size_t i = 0; adopt && i < plat->npkgs; i++)
        adopt = !repeated[i] && plat->pkgs[i] == &plat->recs[i];
    s->pkgs = adopt ? plat->recs : sb_arena_calloc(a, plat->npkgs ? plat->npkgs : 1, sizeof *s->pkgs);
    if (NULL == s->pkgs)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < plat->npkgs; i++) {
        const sb_pkg *rec = plat->pkgs[i];
        if (repeated[i])
            continue;
        if (sb_deadline_tick(&dl, err) != SB_OK)
            return SB_ETIMEOUT;
        sb_pkg *p = &s->pkgs[s->npkgs++];
        if (p != rec)
            *p = *rec;
        p->location = sb_derive_no_userinfo(a, p->location);
        if (p->x) { /* the selection's own copy: the lock stays as read */
            sb_pkgx *x = sb_arena_alloc(a, sizeof *x);
            if (NULL == x)
                return sb_err_set(err, SB_ENOMEM, "out of memory");
            *x = *p->x;
            x->channel_url = sb_derive_no_userinfo(a, x->channel_url);
            p->x = x;
        }
        p->index_url = sb_derive_no_userinfo(a, p->index_url);
    }
    /* what the manifest declares, before properties are derived (and before
     * the filter's copy of the records, which must carry it) */
    sb_code rc;
    if (opts && opts->manifest && (rc = apply_manifest(s, a, scratch, opts->manifest, &dl, err)) != SB_OK)
        return step_failed(err, rc, "applying the manifest");
    /* with a filter, enrichment (package cache, lookups) waits until the
     * filter has run: it then only touches what the document keeps */
    bool filtering = sb_filter_active(opts ? opts->filter : NULL);
    sb_lookup_stats looked = {0};
    sb_pkg *raw = NULL; /* filtering: the records as read, for enrichment after the filter */
    if (filtering && (opts->package_cache || opts->lookup || opts->lookup_probe)) {
        raw = sb_arena_alloc(scratch, (s->npkgs ? s->npkgs : 1) * sizeof *raw);
        if (NULL == raw)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        memcpy(raw, s->pkgs, s->npkgs * sizeof *raw);
    }
    sb_code frc = SB_OK;
    if (!filtering)
        frc = enrich(s->pkgs, s->npkgs, a, opts, &ncache_conda, &ncache_found, &looked, &dl, err);
    if (frc == SB_OK)
        frc = finish(s->pkgs, s->npkgs, a, *tmp, scratch, env, opts, &dl, err);
    if (frc != SB_OK)
        return frc;
    sb_arena_destroy(*tmp);
    *tmp = NULL;
    if ((rc = order(s, raw, scratch)) != SB_OK || (rc = assign_ids(s, a, scratch)) != SB_OK)
        return step_failed(err, rc, "ordering the packages");
    if (sb_deadline_check(&dl, err) != SB_OK)
        return SB_ETIMEOUT;
    int by_manifest = s->manifest && s->ndeclared > 0;
    sb_code grc = sb_graph_resolve(s, a, scratch, plat->has_root_names ? &plat->root_names : NULL, by_manifest,
                                   by_manifest && !strcmp(lock->kind, "pixi.lock"), &dl, err);
    if (grc != SB_OK)
        return step_failed(err, grc, "the dependency graph");
    if (by_manifest && (rc = manifest_scopes(s, lock, opts->manifest, a, scratch)) != SB_OK)
        return step_failed(err, rc, "the manifest's scopes");
    if (filtering) {
        size_t *kept = NULL;
        if ((rc = sb_filter_apply(s, a, opts->filter, raw ? &kept : NULL, &dl, err)) != SB_OK)
            return step_failed(err, rc, "the filter");
        if (raw && (frc = enrich_kept(s, raw, kept, a, scratch, opts, env, &ncache_conda, &ncache_found, &looked, &dl,
                                      err)) != SB_OK)
            return frc;
    }
    if (opts && opts->manifest_problem &&
        (rc = sb_incomplete_add(&s->incomplete, a, "manifest", "%s", opts->manifest_problem)) != SB_OK)
        return step_failed(err, rc, "noting the manifest");
    for (size_t i = 0; lock->incomplete && i < lock->incomplete->n; i++)
        if ((rc = sb_incomplete_add(&s->incomplete, a, lock->incomplete->step[i], "%s",
                                    lock->incomplete->detail[i] + strlen(lock->incomplete->step[i]) + 2)) != SB_OK)
            return step_failed(err, rc, "noting what the input lacks");
    if ((rc = note_gaps(s, a, opts, ncache_conda, ncache_found)) != SB_OK ||
        (rc = note_lookups(s, a, &looked)) != SB_OK)
        return step_failed(err, rc, "noting what is incomplete");
    /* A document sbomd wrote states its own gaps; the records read back
     * cannot say them all again (a lockfile's placeholder license, "None",
     * is written as none, and read back it is one a lookup would ask for),
     * so its statement stands - unless this request changes what the gaps
     * are about: a filter, a package cache, lookups, texts, a manifest. */
    const sb_lock_origin *og = lock->origin;
    if (og && og->ours && !filtering &&
        !(opts &&
          (opts->package_cache || opts->lookup || opts->license_texts || opts->manifest || opts->manifest_problem)) &&
        sb_incomplete_restore(&s->incomplete, a, og->steps, og->detail) != SB_OK)
        return step_failed(err, SB_ENOMEM, "restoring the source's own gaps");
    /* advisories last: they point at the final ids */
    if (opts && opts->vulns && (rc = opts->vulns(opts->vulns_ctx, s, a, err)) != SB_OK)
        return step_failed(err, rc, "the vulnerability lookups");
    /* health: the packages as the document has them (filters applied) */
    s->yanked_asked = opts && opts->yanked;
    s->outdated_asked = opts && opts->outdated;
    s->scorecard_asked = opts && opts->scorecard;
    s->scorecard_min = s->scorecard_asked ? opts->scorecard_min : -1;
    if ((s->yanked_asked || s->outdated_asked || s->scorecard_asked) && opts->health &&
        ((rc = opts->health(opts->health_ctx, s, a, err)) != SB_OK ||
         (s->yanked_asked && (rc = sb_health_props(s, a)) != SB_OK)))
        return step_failed(err, rc, "the package health lookups");
    /* scorecards after health: a PyPI package's repository is on its project page */
    if (s->scorecard_asked && opts->scorecard_fn &&
        ((rc = opts->scorecard_fn(opts->scorecard_ctx, s, a, err)) != SB_OK ||
         (rc = sb_scorecard_props(s, a, s->scorecard_min)) != SB_OK))
        return step_failed(err, rc, "the scorecard lookups");
    if (sb_deadline_check(&dl, err) != SB_OK)
        return SB_ETIMEOUT;
    *out = s;
    return SB_OK;
}

sb_code sb_select(sb_sbom **out, sb_arena *a, const sb_lock *lock, const sb_select_opts *opts, sb_err *err)
{
    sb_arena *scratch = sb_arena_child(a), *tmp = sb_arena_child(a);
    sb_err_clear(err); /* a code in err is then the failing step's own (step_failed) */
    sb_code rc = scratch && tmp ? select_into(out, a, scratch, &tmp, lock, opts, err)
                                : sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_arena_destroy(tmp);
    sb_arena_destroy(scratch);
    return rc;
}
