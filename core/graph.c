/*
 * graph.c - a selection's dependency graph (see graph.h): dependency names
 * resolved against the packages present, each package's edges sorted by id
 * without repeats, and the document root's edges, so that every package is
 * reachable from the root.
 */
#include "graph.h"
#include "ecosystem.h"
#include "strmap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int size_cmp(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

typedef struct id_at {
    const char *id;
    size_t i;
} id_at;

static int id_cmp(const void *x, const void *y)
{
    return strcmp(((const id_at *)x)->id, ((const id_at *)y)->id);
}

/* rank[i] = where package i's id sorts; byrank inverts it. Edge lists are
 * then sorted as integers, O(d log d) however long, never by strcmp. */
static sb_code rank_ids(const sb_sbom *s, sb_arena *scratch, size_t **rank, size_t **byrank)
{
    id_at *v = sb_arena_alloc(scratch, (s->npkgs + 1) * sizeof *v);
    *rank = sb_arena_alloc(scratch, (s->npkgs + 1) * sizeof **rank);
    *byrank = sb_arena_alloc(scratch, (s->npkgs + 1) * sizeof **byrank);
    if (NULL == v || NULL == *rank || NULL == *byrank)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++)
        v[i] = (id_at){s->pkgs[i].id, i};
    qsort(v, s->npkgs, sizeof *v, id_cmp);
    for (size_t r = 0; r < s->npkgs; r++) {
        (*rank)[v[r].i] = r;
        (*byrank)[r] = v[r].i;
    }
    return SB_OK;
}

/* sort an index list by id and drop repeats */
static size_t sort_deps(const size_t *rank, const size_t *byrank, size_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = rank[v[i]];
    qsort(v, n, sizeof *v, size_cmp);
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        if (0 == o || v[o - 1] != v[i])
            v[o++] = v[i];
    for (size_t i = 0; i < o; i++)
        v[i] = byrank[v[i]];
    return o;
}

sb_code sb_graph_resolve(sb_sbom *s, sb_arena *a, sb_arena *scratch, const sb_strv *declared, int by_manifest,
                         int plus_graph_roots, sb_deadline *dl, sb_err *err)
{
    /* ranked when a package first has two edges to sort: an input whose
     * packages have at most one (pins alone) never pays 32 bytes a package */
    size_t *rank = NULL, *byrank = NULL;
    /* each map sized for the packages it will hold: an input of one kind
     * must not pay for four maps of all its packages */
    size_t nconda = 0, npypi = 0, nkeys = 0, nnames = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        nkeys += NULL != s->pkgs[i].key;
        sb_eco_index ix = sb_eco(s->pkgs[i].kind)->index;
        nconda += ix == SB_INDEX_CONDA;
        npypi += ix == SB_INDEX_PYPI;
        nnames += s->pkgs[i].depends.n;
    }
    /* no name to look up (pins alone: no edges, no declared roots): the maps
     * stay empty, and only `python` is looked for */
    if (0 == nnames && NULL == declared)
        nconda = npypi = nkeys = 0;
    int mapped = nnames || declared;
    sb_strmap conda, pypi, conda503, keys; /* keys: npm's name@version(+source) identities */
    if (sb_strmap_init(&conda, scratch, nconda) != SB_OK || sb_strmap_init(&pypi, scratch, npypi) != SB_OK ||
        sb_strmap_init(&conda503, scratch, nconda) != SB_OK || sb_strmap_init(&keys, scratch, nkeys) != SB_OK)
        return SB_ENOMEM;
    size_t python = (size_t)-1;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_pkg *p = &s->pkgs[i];
        const sb_ecosystem *eco = sb_eco(p->kind);
        if (!mapped) {
            if ((eco->flags & SB_ECO_INTERPRETER) && !strcasecmp(p->name, "python") && python == (size_t)-1)
                python = i;
            continue;
        }
        if (p->key && sb_strmap_put(&keys, p->key, strlen(p->key), i, NULL) < 0)
            return SB_ENOMEM;
        if (eco->index == SB_INDEX_CONDA) {
            char *lower = sb_arena_strdup(scratch, p->name);
            const char *n503 = sb_model_pep503_or_same(scratch, p->name);
            if (NULL == lower || NULL == n503)
                return SB_ENOMEM;
            for (char *c = lower; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            if (sb_strmap_put(&conda, lower, strlen(lower), i, NULL) < 0 ||
                sb_strmap_put(&conda503, n503, strlen(n503), i, NULL) < 0)
                return SB_ENOMEM;
            if ((eco->flags & SB_ECO_INTERPRETER) && !strcmp(lower, "python") && python == (size_t)-1)
                python = i;
        } else if (eco->index == SB_INDEX_PYPI) {
            const char *n503 = sb_model_pep503_or_same(scratch, p->name);
            if (NULL == n503 || sb_strmap_put(&pypi, n503, strlen(n503), i, NULL) < 0)
                return SB_ENOMEM;
        }
    }
    size_t *indeg = sb_arena_calloc(scratch, s->npkgs ? s->npkgs : 1, sizeof *indeg);
    /* the edge list of every package that can have none: one, shared (an
     * allocation each was 16 bytes a package of a pin-only input) */
    size_t *none = sb_arena_alloc(a, sizeof *none);
    if (NULL == indeg || NULL == none)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_pkg *p = &s->pkgs[i];
        /* a Python distribution also depends on the interpreter */
        /* a keyed package's edges are all stated (a repository's merge keys
         * every package): the interpreter is one of them where it applies */
        int py = sb_eco_is(p->kind, SB_ECO_PYPI_INDEX) && python != (size_t)-1 && NULL == p->key;
        size_t cap = p->depends.n + (size_t)py;
        p->deps = cap ? sb_arena_alloc(a, cap * sizeof *p->deps) : none;
        if (NULL == p->deps)
            return SB_ENOMEM;
        p->ndeps = 0;
        for (size_t d = 0; d < p->depends.n; d++) {
            const char *dn = p->depends.v[d];
            size_t t;
            int found = 0;
            if (p->key) {
                found = sb_strmap_get(&keys, dn, strlen(dn), &t);
            } else if (sb_eco(p->kind)->index == SB_INDEX_PYPI) {
                found = sb_strmap_get(&pypi, dn, strlen(dn), &t) || sb_strmap_get(&conda503, dn, strlen(dn), &t);
            } else if (strncmp(dn, "__", 2) != 0) {
                found = sb_strmap_get(&conda, dn, strlen(dn), &t);
            }
            if (found && t != i)
                p->deps[p->ndeps++] = t;
        }
        if (py)
            p->deps[p->ndeps++] = python;
        if (p->ndeps > 1 && NULL == rank && rank_ids(s, scratch, &rank, &byrank) != SB_OK)
            return SB_ENOMEM;
        if (p->ndeps > 1)
            p->ndeps = sort_deps(rank, byrank, p->deps, p->ndeps);
        if (sb_deadline_tick(dl, err) != SB_OK)
            return SB_ETIMEOUT;
        for (size_t d = 0; d < p->ndeps; d++)
            indeg[p->deps[d]]++;
    }
    /* roots: what the input declares (uv's workspace root, ...), else what
     * nothing depends on; then whatever is still unreached, cycles last */
    unsigned char *seen = sb_arena_calloc(scratch, s->npkgs ? s->npkgs : 1, 1);
    unsigned char *is_root = sb_arena_calloc(scratch, s->npkgs ? s->npkgs : 1, 1);
    size_t *stack = sb_arena_alloc(scratch, (s->npkgs + 1) * sizeof *stack);
    s->root_deps = sb_arena_alloc(a, (s->npkgs + 1) * sizeof *s->root_deps);
    if (NULL == seen || NULL == is_root || NULL == stack || NULL == s->root_deps)
        return SB_ENOMEM;
    s->nroot = 0;
    if (by_manifest) {
        for (size_t i = 0; i < s->npkgs; i++)
            if (s->pkgs[i].declared_via || (plus_graph_roots && 0 == indeg[i])) {
                is_root[i] = 1;
                s->root_deps[s->nroot++] = i;
            }
    } else if (declared) {
        for (size_t d = 0; d < declared->n; d++) {
            const char *dn = declared->v[d];
            size_t t;
            if ((sb_strmap_get(&keys, dn, strlen(dn), &t) || sb_strmap_get(&pypi, dn, strlen(dn), &t) ||
                 sb_strmap_get(&conda503, dn, strlen(dn), &t)) &&
                !is_root[t]) {
                is_root[t] = 1;
                s->root_deps[s->nroot++] = t;
            }
        }
    } else {
        for (size_t i = 0; i < s->npkgs; i++)
            if (0 == indeg[i])
                s->root_deps[s->nroot++] = i;
    }
    size_t next_root = 0;
    for (size_t scan = 0, scan0 = 0;;) {
        while (next_root < s->nroot) {
            size_t sp = 0;
            size_t r = s->root_deps[next_root++];
            if (seen[r])
                continue;
            seen[r] = 1;
            stack[sp++] = r;
            while (sp) {
                size_t u = stack[--sp];
                if (sb_deadline_tick(dl, err) != SB_OK)
                    return SB_ETIMEOUT;
                for (size_t d = 0; d < s->pkgs[u].ndeps; d++) {
                    size_t v = s->pkgs[u].deps[d];
                    if (!seen[v]) {
                        seen[v] = 1;
                        stack[sp++] = v;
                    }
                }
            }
        }
        while (scan0 < s->npkgs && (seen[scan0] || indeg[scan0]))
            scan0++;
        if (scan0 < s->npkgs) {
            s->root_deps[s->nroot++] = scan0; /* unreached from the declared roots */
            continue;
        }
        while (scan < s->npkgs && seen[scan])
            scan++;
        if (scan == s->npkgs)
            break;
        s->root_deps[s->nroot++] = scan; /* a cycle nothing outside reaches */
    }
    /* root edges in model order */
    qsort(s->root_deps, s->nroot, sizeof *s->root_deps, size_cmp);
    return SB_OK;
}
