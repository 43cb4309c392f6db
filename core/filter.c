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

/* One run of the pattern between stars, folded. */
typedef struct glob_seg {
    const char *s;
    size_t n;
    size_t *fail; /* KMP: the longest proper border of s[0, i]; NULL when s has '?' */
    /* with '?' and at most 64 long: shift-and, one bit per position; a
     * character's mask is mask[idx[c]] (mask[0]: the '?' positions alone) */
    unsigned char *idx;
    uint64_t *mask;
} glob_seg;

struct sb_glob {
    glob_seg *seg;
    size_t nseg;
    bool lead, trail; /* the pattern starts / ends with '*' */
    size_t min;       /* the shortest name that can match: the segments' lengths */
};

sb_glob *sb_glob_compile(sb_arena *a, const char *pattern)
{
    size_t pl = strlen(pattern), nseg = 0;
    sb_glob *g = sb_arena_calloc(a, 1, sizeof *g);
    char *f = sb_arena_stralloc(a, pl + 1);
    g = f ? g : NULL;
    if (NULL == g)
        return NULL;
    for (size_t i = 0; i < pl; i++)
        nseg += pattern[i] != '*' && (0 == i || pattern[i - 1] == '*');
    g->seg = sb_arena_calloc(a, nseg ? nseg : 1, sizeof *g->seg);
    if (NULL == g->seg)
        return NULL;
    g->lead = pl && pattern[0] == '*';
    g->trail = pl && pattern[pl - 1] == '*';
    for (size_t i = 0; i < pl;) {
        if (pattern[i] == '*') {
            i++;
            continue;
        }
        glob_seg *sg = &g->seg[g->nseg++];
        sg->s = f + i;
        bool wild = false;
        for (; i < pl && pattern[i] != '*'; i++, sg->n++) {
            f[i] = fold(pattern[i]);
            wild |= pattern[i] == '?';
        }
        g->min += sg->n;
        if (wild) {
            if (sg->n > 64)
                continue; /* compared at each start (seg_find) */
            sg->idx = sb_arena_calloc(a, 256, 1);
            sg->mask = sb_arena_calloc(a, sg->n + 1, sizeof *sg->mask);
            if (NULL == sg->idx || NULL == sg->mask)
                return NULL;
            size_t slots = 1;
            for (size_t k = 0; k < sg->n; k++)
                if (sg->s[k] == '?')
                    sg->mask[0] |= (uint64_t)1 << k;
            for (size_t k = 0; k < sg->n; k++) {
                unsigned char c = (unsigned char)sg->s[k];
                if (c == '?')
                    continue;
                if (0 == sg->idx[c]) {
                    sg->idx[c] = (unsigned char)slots;
                    sg->mask[slots++] = sg->mask[0];
                }
                sg->mask[sg->idx[c]] |= (uint64_t)1 << k;
            }
            continue;
        }
        if (NULL == (sg->fail = sb_arena_alloc(a, sg->n * sizeof *sg->fail)))
            return NULL;
        sg->fail[0] = 0;
        for (size_t q = 1, k = 0; q < sg->n; q++) {
            while (k && sg->s[q] != sg->s[k])
                k = sg->fail[k - 1];
            k += sg->s[q] == sg->s[k];
            sg->fail[q] = k;
        }
    }
    return g;
}

/* Whether segment sg matches name[at, at + sg->n) (in range). */
static bool seg_at(const glob_seg *sg, const char *name, size_t at)
{
    for (size_t k = 0; k < sg->n; k++)
        if (sg->s[k] != '?' && sg->s[k] != fold(name[at + k]))
            return false;
    return true;
}

/* The leftmost start of sg in name[from, end), SIZE_MAX when none; -2 into
 * *rc when the deadline passed. */
static size_t seg_find(const glob_seg *sg, const char *name, size_t from, size_t end, sb_deadline *dl, sb_err *err,
                       int *rc)
{
    if (end - from < sg->n)
        return SIZE_MAX;
    if (sg->fail) { /* KMP: each name byte is read a bounded number of times */
        for (size_t i = from, k = 0; i < end; i++) {
            char c = fold(name[i]);
            while (k && c != sg->s[k])
                k = sg->fail[k - 1];
            k += c == sg->s[k];
            if (k == sg->n)
                return i + 1 - sg->n;
        }
        return SIZE_MAX;
    }
    if (sg->idx) { /* shift-and: bit k set while s[0, k] matches ending here */
        uint64_t d = 0, hit = (uint64_t)1 << (sg->n - 1);
        for (size_t i = from; i < end; i++) {
            d = ((d << 1) | 1) & sg->mask[sg->idx[(unsigned char)fold(name[i])]];
            if (d & hit)
                return i + 1 - sg->n;
        }
        return SIZE_MAX;
    }
    /* '?' in a run longer than 64: each start compared, the work counted */
    for (size_t at = from; at + sg->n <= end; at++) {
        if (seg_at(sg, name, at))
            return at;
        if (sb_deadline_work(dl, sg->n / 64 + 1, err) != SB_OK) {
            *rc = -1;
            return SIZE_MAX;
        }
    }
    return SIZE_MAX;
}

/* Greedy: a segment placed at its leftmost match leaves the most room for
 * the ones after it, so no placement is ever revisited (what a matcher
 * backtracking to the last star does once per mismatch). */
int sb_glob_run(const sb_glob *g, const char *name, sb_deadline *dl, sb_err *err)
{
    size_t len = strlen(name), lo = 0, hi = g->nseg, pos = 0, end = len;
    if (sb_deadline_work(dl, len / 64 + 1, err) != SB_OK)
        return -1;
    if (len < g->min)
        return 0;
    if (0 == g->nseg)
        return g->lead || 0 == len;
    if (!g->lead && !g->trail && 1 == g->nseg)
        return len == g->seg[0].n && seg_at(&g->seg[0], name, 0);
    if (!g->lead) {
        if (!seg_at(&g->seg[0], name, 0))
            return 0;
        pos = g->seg[0].n;
        lo = 1;
    }
    if (!g->trail) {
        const glob_seg *last = &g->seg[g->nseg - 1];
        if (len - last->n < pos || !seg_at(last, name, len - last->n))
            return 0;
        end = len - last->n;
        hi--;
    }
    int rc = 0;
    for (size_t i = lo; i < hi; i++) {
        size_t at = seg_find(&g->seg[i], name, pos, end, dl, err, &rc);
        if (at == SIZE_MAX)
            return rc;
        pos = at + g->seg[i].n;
    }
    return 1;
}

bool sb_glob_match(const char *pattern, const char *name)
{
    sb_arena *a = sb_arena_new(0);
    const sb_glob *g = a ? sb_glob_compile(a, pattern) : NULL;
    bool m = g && sb_glob_run(g, name, NULL, NULL) == 1;
    sb_arena_destroy(a);
    return m;
}

sb_code sb_filter_compile(sb_filter *f, sb_arena *a)
{
    size_t n = f->ninclude + f->nexclude;
    const sb_glob **v = sb_arena_alloc(a, (n ? n : 1) * sizeof *v);
    if (NULL == v)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (NULL == (v[i] = sb_glob_compile(a, i < f->ninclude ? f->include[i] : f->exclude[i - f->ninclude])))
            return SB_ENOMEM;
    f->globs = v;
    return SB_OK;
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

/* Why package p goes, or NULL (*rc -1 when the deadline passed). The
 * first reason in a fixed order wins: kind, scope, an exclude pattern (the
 * first that matches), include. */
static const char *reason(const sb_pkg *p, const sb_filter *f, const sb_glob *const *globs,
                          const char *const *exclude_why, sb_arena *a, sb_deadline *dl, sb_err *err, int *rc)
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
        if ((*rc = sb_glob_run(globs[f->ninclude + g], p->name, dl, err)) != 0)
            return *rc > 0 ? exclude_why[g] : NULL;
    if (f->ninclude) {
        for (size_t g = 0; g < f->ninclude; g++)
            if ((*rc = sb_glob_run(globs[g], p->name, dl, err)) != 0)
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

sb_code sb_filter_apply(sb_sbom *s, sb_arena *a, const sb_filter *f, size_t **kept, sb_deadline *dl, sb_err *err)
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
    const sb_glob *const *globs = f->globs;
    if (NULL == globs && f->ninclude + f->nexclude) {
        sb_filter c = *f;
        if (sb_filter_compile(&c, a) != SB_OK)
            return SB_ENOMEM;
        globs = c.globs;
    }
    size_t ngone = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = 0;
        why[i] = reason(&s->pkgs[i], f, globs, exclude_why, a, dl, err, &rc);
        if (rc < 0)
            return SB_ETIMEOUT;
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
