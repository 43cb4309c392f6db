/*
 * lock_merge.c - several SBOMs (each read by an SBOM reader into a lock of one
 * environment x platform) merged into one lock (several
 * --from-sbom): one package per purl (a package without one has
 * pkg:generic/name@version from its reader, so name@version is the
 * identity then), each carrying `pixi:source-document` (the labels of the
 * parts it came from) and `pixi:merge-conflict` listing ("; "-separated)
 * every field the parts disagree on (license, digests, supplier, location)
 * with each value and its part. A field the first part leaves empty is filled from a later one
 * without a conflict. The graph is the union of the parts' edges (document
 * ids mapped to purls, which become the packages' keys); the root is the
 * parts' root when they all name the same one, else a synthetic root
 * ("merged") whose dependencies are the parts' roots, each a pkg:generic
 * component depending on what its part's root depended on. The merged
 * document names its parts (their serial numbers / namespaces) in its own
 * pixi:source-document; it is none of them, so it carries no part's origin.
 */
#include "lock_merge.h"
#include "lock_int.h"
#include "purl.h"
#include "deadline.h"
#include "strmap.h"

#include <stdio.h>
#include <string.h>

typedef struct merge {
    sb_arena *a;
    sb_err *err;
    const sb_limits *lim;
    sb_strmap by_purl; /* purl -> index in pkgs */
    sb_pkg **pkgs;
    size_t n, cap;
    const char **srcs;  /* per package: "a.json, b.json" */
    const char **first; /* per package: the label of the part it was taken from */
    size_t *last;       /* per package: the last part that had it */
    sb_strv root_deps;  /* the merged root's edges (purls) */
    sb_strmap seen;     /* "<list>\x01<item>" of the lists past LIST_LINEAR items (push_unique) */
    sb_deadline dl;     /* the request's: checked per component and per edge */
} merge;

static sb_code oom(merge *m)
{
    return sb_err_set(m->err, SB_ENOMEM, "out of memory");
}

static const char *purl_of(const sb_pkg *p)
{
    const char *u = sb_pkg_xr(p)->given_purl;
    return u ? u : p->name;
}

static int same(const char *a, const char *b)
{
    return (NULL == a && NULL == b) || (a && b && !strcmp(a, b));
}

static int has(const sb_strv *v, const char *s)
{
    for (uint32_t i = 0; i < v->n; i++)
        if (!strcmp(v->v[i], s))
            return 1;
    return 0;
}

/* Lists this short are searched; longer ones are looked up in m->seen: a
 * part of 100,000 components made every push a scan of the list so far
 * (a merge that took 57 s). */
#define LIST_LINEAR 16

static sb_code seen_put(merge *m, const char *list, const char *s, int *had)
{
    const char *k = sb_arena_printf(m->a, "%s\x01%s", list, s);
    int rc = k ? sb_strmap_put(&m->seen, k, strlen(k), 0, NULL) : -1;
    if (rc < 0)
        return oom(m);
    *had = rc;
    return SB_OK;
}

/* Append s to v unless v has it; `list` names v uniquely for the merge
 * ("d<package>", "r<part>", "R"). */
static sb_code push_unique(merge *m, sb_strv *v, const char *list, const char *s)
{
    int had = 0;
    if (v->n < LIST_LINEAR) {
        if (has(v, s))
            return SB_OK;
    } else {
        if (v->n == LIST_LINEAR) /* from here on looked up: what is in it so far first */
            for (uint32_t i = 0; i < v->n; i++)
                if (seen_put(m, list, v->v[i], &had) != SB_OK)
                    return SB_ENOMEM;
        if (seen_put(m, list, s, &had) != SB_OK)
            return SB_ENOMEM;
        if (had)
            return SB_OK;
    }
    return sb_strv_push(v, m->a, s) == SB_OK ? SB_OK : oom(m);
}

static sb_code prop(merge *m, sb_pkg *p, const char *name, const char *value)
{
    if (NULL == value || sb_strv_push(&p->reader_props, m->a, name) != SB_OK ||
        sb_strv_push(&p->reader_props, m->a, value) != SB_OK)
        return oom(m);
    return SB_OK;
}

/* Field `what` of the kept package `*have` against a later part's `got`:
 * fill a gap, or record the disagreement. */
static sb_code field(merge *m, sb_pkg *keep, const char *what, const char **have, const char *got,
                     const char *first_label, const char *label)
{
    if (NULL == got || same(*have, got))
        return SB_OK;
    if (NULL == *have) {
        *have = got;
        return SB_OK;
    }
    const char *c = sb_arena_printf(m->a, "%s: %s (%s) vs %s (%s)", what, *have, first_label, got, label);
    if (NULL == c)
        return oom(m);
    /* a package has one property of a name: its conflicts in one value */
    for (uint32_t j = 0; j + 1 < keep->reader_props.n; j += 2)
        if (!strcmp(keep->reader_props.v[j], "pixi:merge-conflict")) {
            keep->reader_props.v[j + 1] = sb_arena_printf(m->a, "%s; %s", keep->reader_props.v[j + 1], c);
            return keep->reader_props.v[j + 1] ? SB_OK : oom(m);
        }
    return prop(m, keep, "pixi:merge-conflict", c);
}

/* field() for the SHA-512, kept in binary: compared so, reported in hex */
static sb_code field_sha512(merge *m, sb_pkg *keep, const sb_pkg *p, const char *first_label, const char *label)
{
    if (NULL == p->sha512b || (keep->sha512b && !memcmp(keep->sha512b, p->sha512b, 64)))
        return SB_OK;
    if (NULL == keep->sha512b) {
        keep->sha512b = p->sha512b;
        return SB_OK;
    }
    sb_hash_hex hk, hp;
    const char *have = sb_arena_strdup(m->a, sb_pkg_hash(keep, SB_HASH_SHA512, &hk));
    return have ? field(m, keep, "sha512", &have, sb_pkg_hash(p, SB_HASH_SHA512, &hp), first_label, label) : oom(m);
}

/* The package of purl `u` (made from `p` the first time it is seen). */
static sb_code take(merge *m, const sb_pkg *p, size_t part, const char *label, size_t *at)
{
    const char *u = purl_of(p);
    size_t i;
    if (sb_strmap_get(&m->by_purl, u, strlen(u), &i)) {
        *at = i;
        sb_pkg *k = m->pkgs[i];
        if (m->last[i] != part) { /* a part's label once */
            m->last[i] = part;
            if (NULL == (m->srcs[i] = sb_arena_printf(m->a, "%s, %s", m->srcs[i], label)))
                return oom(m);
        }
        const char *first = m->first[i];
        sb_pkgx *kx = sb_pkg_x(k, m->a);
        const sb_pkgx *px = sb_pkg_xr(p);
        sb_code rc;
        if (NULL == kx)
            return oom(m);
        if ((rc = field(m, k, "license", &k->license, p->license, first, label)) != SB_OK ||
            (rc = field(m, k, "sha256", &k->sha256, p->sha256, first, label)) != SB_OK ||
            (rc = field_sha512(m, k, p, first, label)) != SB_OK ||
            (rc = field(m, k, "md5", &kx->md5, px->md5, first, label)) != SB_OK ||
            (rc = field(m, k, "supplier", &k->supplier_name, p->supplier_name, first, label)) != SB_OK ||
            (rc = field(m, k, "location", &k->location, p->location, first, label)) != SB_OK)
            return rc;
        return SB_OK;
    }
    if (m->n >= m->lim->max_packages)
        return sb_err_set(m->err, SB_ELIMIT, "more than %zu packages", m->lim->max_packages);
    sb_pkg *k = sb_arena_alloc(m->a, sizeof *k);
    if (NULL == k)
        return oom(m);
    *k = *p;
    k->key = u;
    k->depends = (sb_strv){0};
    k->reader_props = (sb_strv){0};
    for (uint32_t j = 0; j + 1 < p->reader_props.n; j += 2) /* an earlier merge's verdicts are not this one's */
        if (strcmp(p->reader_props.v[j], "pixi:source-document") &&
            strcmp(p->reader_props.v[j], "pixi:merge-conflict") &&
            prop(m, k, p->reader_props.v[j], p->reader_props.v[j + 1]) != SB_OK)
            return oom(m);
    if (m->n == m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 256;
        sb_pkg **np = sb_arena_alloc(m->a, nc * sizeof *np);
        const char **ns = sb_arena_alloc(m->a, nc * sizeof *ns), **nf = sb_arena_alloc(m->a, nc * sizeof *nf);
        size_t *nl = sb_arena_alloc(m->a, nc * sizeof *nl);
        if (NULL == np || NULL == ns || NULL == nf || NULL == nl)
            return oom(m);
        if (m->n) {
            memcpy(np, m->pkgs, m->n * sizeof *np);
            memcpy(ns, m->srcs, m->n * sizeof *ns);
            memcpy(nf, m->first, m->n * sizeof *nf);
            memcpy(nl, m->last, m->n * sizeof *nl);
        }
        m->pkgs = np;
        m->srcs = ns;
        m->first = nf;
        m->last = nl;
        m->cap = nc;
    }
    if (sb_strmap_put(&m->by_purl, u, strlen(u), m->n, NULL) < 0)
        return oom(m);
    m->srcs[m->n] = label;
    m->first[m->n] = label;
    m->last[m->n] = part;
    m->pkgs[m->n] = k;
    *at = m->n++;
    return SB_OK;
}

/* A part's document id -> the purl of its package; NULL when unknown. */
static const char *map_id(const sb_strmap *ids, const sb_lock_platform *pl, const char *id)
{
    size_t i;
    return sb_strmap_get(ids, id, strlen(id), &i) ? purl_of(pl->pkgs[i]) : NULL;
}

static const sb_lock_platform *only_platform(const sb_lock *l)
{
    return l->nenvs && l->envs[0].nplatforms ? &l->envs[0].platforms[0] : NULL;
}

sb_code sb_lock_merge(sb_lock **out, sb_arena *a, sb_lock *const *locks, const char *const *labels, size_t n,
                      const sb_limits *lim, sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    merge m = {.a = a, .err = err, .lim = lim ? lim : &defaults};
    m.dl = (sb_deadline){m.lim->deadline_ns, 0, "merging the SBOMs"};
    if (0 == n)
        return sb_err_set(err, SB_EMISUSE, "nothing to merge");
    if (sb_strmap_init(&m.by_purl, a, 1024) != SB_OK || sb_strmap_init(&m.seen, a, 64) != SB_OK)
        return oom(&m);
    /* one root for all when every part names the same one */
    int one_root = 1;
    for (size_t i = 1; i < n; i++)
        one_root &= same(locks[i]->root_name, locks[0]->root_name) &&
                    same(locks[i]->root_version, locks[0]->root_version);
    int no_dep_data = 1;
    for (size_t i = 0; i < n; i++) {
        const sb_lock_platform *pl = only_platform(locks[i]);
        if (NULL == pl)
            continue;
        no_dep_data &= locks[i]->no_dep_data;
        sb_strmap ids;
        if (sb_strmap_init(&ids, a, pl->npkgs ? pl->npkgs : 1) != SB_OK)
            return oom(&m);
        size_t *at = sb_arena_alloc(a, (pl->npkgs ? pl->npkgs : 1) * sizeof *at);
        if (NULL == at)
            return oom(&m);
        for (size_t k = 0; k < pl->npkgs; k++) {
            const sb_pkg *p = pl->pkgs[k];
            if (sb_deadline_work(&m.dl, 1 + p->reader_props.n, err) != SB_OK)
                return SB_ETIMEOUT;
            if (p->key && sb_strmap_put(&ids, p->key, strlen(p->key), k, NULL) < 0)
                return oom(&m);
            sb_code rc = take(&m, p, i, labels[i], &at[k]);
            if (rc != SB_OK)
                return rc;
        }
        char list[32];
        for (size_t k = 0; k < pl->npkgs; k++) {
            const sb_pkg *p = pl->pkgs[k];
            sb_pkg *into = m.pkgs[at[k]];
            if (sb_deadline_work(&m.dl, 1 + p->depends.n, err) != SB_OK)
                return SB_ETIMEOUT;
            snprintf(list, sizeof list, "d%zu", at[k]);
            for (uint32_t d = 0; d < p->depends.n; d++) {
                const char *to = map_id(&ids, pl, p->depends.v[d]);
                if (to && push_unique(&m, &into->depends, list, to) != SB_OK)
                    return oom(&m);
            }
        }
        snprintf(list, sizeof list, "r%zu", i);
        /* the part's root edges: to the merged root, or to the part's root component */
        sb_strv rootv = {0};
        if (pl->has_root_names) {
            for (uint32_t d = 0; d < pl->root_names.n; d++) {
                const char *to = map_id(&ids, pl, pl->root_names.v[d]);
                if (to && push_unique(&m, &rootv, list, to) != SB_OK)
                    return oom(&m);
            }
        } else { /* no root edges said: what nothing else in the part depends on */
            unsigned char *dep = sb_arena_calloc(a, pl->npkgs ? pl->npkgs : 1, 1);
            if (NULL == dep)
                return oom(&m);
            for (size_t k = 0; k < pl->npkgs; k++)
                for (uint32_t d = 0; d < pl->pkgs[k]->depends.n; d++) {
                    size_t t;
                    if (sb_strmap_get(&ids, pl->pkgs[k]->depends.v[d], strlen(pl->pkgs[k]->depends.v[d]), &t))
                        dep[t] = 1;
                }
            for (size_t k = 0; k < pl->npkgs; k++)
                if (!dep[k] && push_unique(&m, &rootv, list, purl_of(pl->pkgs[k])) != SB_OK)
                    return oom(&m);
        }
        if (one_root) {
            for (uint32_t d = 0; d < rootv.n; d++)
                if (push_unique(&m, &m.root_deps, "R", rootv.v[d]) != SB_OK)
                    return oom(&m);
            continue;
        }
        /* the part's root as a component of its own */
        sb_pkg root = {.name = locks[i]->root_name ? locks[i]->root_name : labels[i],
                       .version = locks[i]->root_version,
                       .kind = SB_KIND_EXTERNAL};
        sb_purl pu = {.type = "generic", .name = root.name, .version = root.version};
        char *u = NULL;
        sb_pkgx *rx = sb_pkg_x(&root, a);
        if (NULL == rx || sb_purl_build(&u, a, &pu, NULL) != SB_OK || NULL == u)
            return oom(&m);
        rx->given_purl = u;
        size_t ri;
        sb_code rc = take(&m, &root, i, labels[i], &ri);
        if (rc != SB_OK)
            return rc;
        char rlist[32];
        snprintf(rlist, sizeof rlist, "d%zu", ri);
        for (uint32_t d = 0; d < rootv.n; d++)
            if (push_unique(&m, &m.pkgs[ri]->depends, rlist, rootv.v[d]) != SB_OK)
                return oom(&m);
        if (push_unique(&m, &m.root_deps, "R", u) != SB_OK)
            return oom(&m);
    }
    sb_lock *l = sb_arena_calloc(a, 1, sizeof *l);
    if (NULL == l)
        return oom(&m);
    l->kind = locks[0]->kind;
    l->version = locks[0]->version;
    l->kind_unsure = true;
    l->no_dep_data = no_dep_data;
    if (one_root) {
        l->root_name = locks[0]->root_name;
        l->root_version = locks[0]->root_version;
    } else {
        l->root_name = "merged";
    }
    const sb_lock_platform *p0 = only_platform(locks[0]);
    sb_lock_env *e = sb_lock_env_get(l, a, locks[0]->nenvs ? locks[0]->envs[0].name : "default");
    sb_lock_platform *pl = e ? sb_lock_platform_get(e, a, p0 ? p0->name : "none") : NULL;
    if (NULL == pl)
        return oom(&m);
    pl->has_root_names = true;
    pl->root_names = m.root_deps;
    for (size_t i = 0; i < m.n; i++) {
        if (prop(&m, m.pkgs[i], "pixi:source-document", m.srcs[i]) != SB_OK ||
            sb_lock_platform_add(pl, a, m.pkgs[i]) != SB_OK)
            return oom(&m);
    }
    /* the document names its sources: each part's serial number
     * or namespace, else its label; no part's identity is the merge's own */
    const char *srcdoc = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *one = locks[i]->source_document ? locks[i]->source_document : labels[i];
        srcdoc = srcdoc ? sb_arena_printf(a, "%s, %s", srcdoc, one) : one;
        if (NULL == srcdoc)
            return oom(&m);
    }
    l->source_document = srcdoc;
    l->nrecords = m.n;
    *out = l;
    return SB_OK;
}
