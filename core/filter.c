/*
 * filter.c - include / exclude / exclude-kind / scope=required on a selected
 * document, and the re-closure of its graph (filter.h).
 *
 * DESIGN: one pass decides each package's reason to go (or none), a walk
 * from the surviving original root edges over surviving edges marks what is
 * still needed (the rest are orphans, dropped unless kept), then one pass
 * compacts packages, dependency lists and root edges through an old -> new
 * index map. Removing never reorders, so the model's sort and the id order
 * of every dependency list hold without sorting again. Kept orphans nothing
 * surviving reaches become root edges, as sb_graph_resolve() makes the
 * packages nothing depends on root edges (graph.c).
 */
#include "filter.h"
#include "ecosystem.h"
#include "buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GONE SIZE_MAX

static char fold(char c)
{
    if (c == '_')
        return '-';
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

bool sb_glob_match(const char *pattern, const char *name)
{
    const char *p = pattern, *t = name;
    const char *star = NULL, *resume = NULL;
    while (*t) {
        if (*p == '*') {
            star = p++;
            resume = t; /* '*' first matches nothing; widen it on a mismatch */
        } else if (*p && (*p == '?' || fold(*p) == fold(*t))) {
            p++;
            t++;
        } else if (star) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return !*p;
}

const char *const *sb_filter_kind_names(void)
{
    return sb_eco_filter_names();
}

unsigned sb_filter_kind_bit(const char *name)
{
    if (NULL == name)
        return 0;
    if (!strcmp(name, "pypi-source"))
        return 1u << SB_FILTER_PYPI_SOURCE;
    const sb_ecosystem *e = sb_eco_by_name(name);
    return e ? 1u << e->kind : 0;
}

bool sb_filter_active(const sb_filter *f)
{
    return f && (f->ninclude || f->nexclude || f->kinds || f->required_only);
}

/* a PyPI package built from source: the derivation marked it pixi:source */
static bool from_source(const sb_pkg *p)
{
    for (size_t k = 0; k < p->nprops; k++)
        if (!strcmp(p->props[k].name, "pixi:source"))
            return !strcmp(p->props[k].value, "true");
    return false;
}

/* Why package p goes, or NULL. The first reason in a fixed order wins:
 * kind, scope, an exclude pattern (the first that matches), include. */
static const char *reason(const sb_pkg *p, const sb_filter *f, const char *const *exclude_why, sb_arena *a)
{
    if (f->kinds & (1u << p->kind))
        return sb_arena_printf(a, "exclude-kind=%s", sb_kind_name(p->kind));
    if ((f->kinds & (1u << SB_FILTER_PYPI_SOURCE)) && sb_eco_is(p->kind, SB_ECO_PYPI_INDEX) && from_source(p))
        return "exclude-kind=pypi-source";
    if (f->required_only && p->scope == SB_SCOPE_DEVELOPMENT)
        return "scope=development";
    if (f->required_only && p->scope == SB_SCOPE_OPTIONAL)
        return "scope=optional";
    for (size_t g = 0; g < f->nexclude; g++)
        if (sb_glob_match(f->exclude[g], p->name))
            return exclude_why[g];
    if (f->ninclude) {
        for (size_t g = 0; g < f->ninclude; g++)
            if (sb_glob_match(f->include[g], p->name))
                return NULL;
        return "include";
    }
    return NULL;
}

/* Mark (in seen) everything reachable from r over the graph's edges. */
static void walk(const sb_sbom *s, size_t r, unsigned char *seen, size_t *stack)
{
    if (seen[r])
        return;
    size_t sp = 0;
    seen[r] = 1;
    stack[sp++] = r;
    while (sp) {
        const sb_pkg *u = &s->pkgs[stack[--sp]];
        for (size_t d = 0; d < u->ndeps; d++)
            if (!seen[u->deps[d]]) {
                seen[u->deps[d]] = 1;
                stack[sp++] = u->deps[d];
            }
    }
}

static int index_cmp(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

sb_code sb_filter_apply(sb_sbom *s, sb_arena *a, const sb_filter *f, size_t **kept)
{
    if (kept)
        *kept = NULL;
    if (!sb_filter_active(f))
        return SB_OK;
    s->filter = f;
    size_t n = s->npkgs, one = n ? n : 1;
    const char **why = sb_arena_calloc(a, one, sizeof *why);
    const char **exclude_why = sb_arena_alloc(a, (f->nexclude ? f->nexclude : 1) * sizeof *exclude_why);
    size_t *map = sb_arena_alloc(a, one * sizeof *map);
    size_t *stack = sb_arena_alloc(a, one * sizeof *stack);
    unsigned char *seen = sb_arena_calloc(a, one, 1);
    if (!why || !exclude_why || !map || !stack || !seen)
        return SB_ENOMEM;
    for (size_t g = 0; g < f->nexclude; g++)
        if (NULL == (exclude_why[g] = sb_arena_printf(a, "exclude=%s", f->exclude[g])))
            return SB_ENOMEM;
    size_t ngone = 0;
    for (size_t i = 0; i < n; i++) {
        why[i] = reason(&s->pkgs[i], f, exclude_why, a);
        ngone += NULL != why[i];
    }
    /* what the original roots still reach without the dropped packages:
     * a dropped package is "seen" up front so no walk passes through it */
    for (size_t i = 0; i < n; i++)
        seen[i] = NULL != why[i];
    for (size_t k = 0; k < s->nroot; k++)
        walk(s, s->root_deps[k], seen, stack);
    for (size_t i = 0; i < n && !f->keep_orphans; i++)
        if (!seen[i]) {
            why[i] = "orphan";
            ngone++;
        }
    if (0 == ngone) {
        if (kept) { /* nothing moves: every package keeps its index */
            if (NULL == (*kept = sb_arena_alloc(a, one * sizeof **kept)))
                return SB_ENOMEM;
            for (size_t i = 0; i < n; i++)
                (*kept)[i] = i;
        }
        return SB_OK;
    }
    s->excluded = sb_arena_alloc(a, ngone * sizeof *s->excluded);
    size_t *from = sb_arena_alloc(a, one * sizeof *from);
    if (NULL == s->excluded || NULL == from)
        return SB_ENOMEM;
    s->nexcluded = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (why[i]) {
            map[i] = GONE;
            s->excluded[s->nexcluded++] = (sb_excluded){s->pkgs[i].name, s->pkgs[i].version, why[i]};
        } else {
            from[m] = i;
            map[i] = m++;
        }
    }
    for (size_t j = 0; j < m; j++) {
        if (from[j] != j)
            s->pkgs[j] = s->pkgs[from[j]];
        sb_pkg *p = &s->pkgs[j];
        size_t o = 0;
        for (size_t d = 0; d < p->ndeps; d++)
            if (map[p->deps[d]] != GONE)
                p->deps[o++] = map[p->deps[d]];
        p->ndeps = o;
    }
    s->npkgs = m;
    size_t o = 0;
    for (size_t k = 0; k < s->nroot; k++)
        if (map[s->root_deps[k]] != GONE)
            s->root_deps[o++] = map[s->root_deps[k]];
    s->nroot = o;
    /* kept orphans: what nothing surviving depends on becomes a root edge,
     * then one package of each cycle nothing reaches (root_deps has room for
     * every package: the selection sized it so) */
    if (f->keep_orphans) {
        memset(seen, 0, one);
        size_t *indeg = sb_arena_calloc(a, one, sizeof *indeg);
        if (NULL == indeg)
            return SB_ENOMEM;
        for (size_t j = 0; j < m; j++)
            for (size_t d = 0; d < s->pkgs[j].ndeps; d++)
                indeg[s->pkgs[j].deps[d]]++;
        for (size_t k = 0; k < s->nroot; k++)
            walk(s, s->root_deps[k], seen, stack);
        size_t added = 0;
        for (int pass = 0; pass < 2; pass++)
            for (size_t j = 0; j < m; j++)
                if (!seen[j] && (pass || 0 == indeg[j])) {
                    s->root_deps[s->nroot++] = j;
                    added++;
                    walk(s, j, seen, stack);
                }
        if (added)
            qsort(s->root_deps, s->nroot, sizeof *s->root_deps, index_cmp);
    }
    if (kept)
        *kept = from;
    return SB_OK;
}

const char *sb_filter_excluded_text(const sb_sbom *s, sb_arena *a)
{
    if (0 == s->nexcluded)
        return NULL;
    sb_buf b;
    sb_buf_init(&b, 0);
    sb_code rc = SB_OK;
    for (size_t i = 0; rc == SB_OK && i < s->nexcluded; i++) {
        const sb_excluded *e = &s->excluded[i];
        if (i)
            rc = sb_buf_append(&b, ", ", 2);
        if (rc == SB_OK)
            rc = sb_buf_append(&b, e->name, strlen(e->name));
        if (rc == SB_OK && e->version) {
            rc = sb_buf_append(&b, "@", 1);
            if (rc == SB_OK)
                rc = sb_buf_append(&b, e->version, strlen(e->version));
        }
        if (rc == SB_OK)
            rc = sb_buf_append(&b, " (", 2);
        if (rc == SB_OK)
            rc = sb_buf_append(&b, e->reason, strlen(e->reason));
        if (rc == SB_OK)
            rc = sb_buf_append(&b, ")", 1);
    }
    char *r = rc == SB_OK && b.data ? sb_arena_strndup(a, b.data, b.len) : NULL;
    sb_buf_free(&b);
    return r;
}
