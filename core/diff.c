/*
 * diff.c - two models compared package by package (see diff.h), and the
 * diff written as JSON, a text table, Markdown or CSV.
 *
 * DESIGN: both sides' packages are sorted by (kind, matching name, version
 * order) and walked together one name group at a time, so matching is
 * O(n log n) whatever the sizes. The rows are computed once, before the
 * response starts (a gate must be able to refuse it); writing them is a
 * producer like the reports' (doc.h): one row per piece, the summary after.
 */
#include "diff.h"
#include "ecosystem.h"
#include "policy.h"
#include "table.h"
#include "vercmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const change_names[SB_DIFF_NCHANGES] = {
    "added", "removed", "upgraded", "downgraded", "license-changed", "source-changed", "hash-changed", "scope-changed",
};
/* section titles of the text summary and the Markdown tables */
static const char *const change_titles[SB_DIFF_NCHANGES] = {
    "Added", "Removed", "Upgraded", "Downgraded", "License changed", "Source changed", "Hash changed", "Scope changed",
};
/* summary keys */
static const char *const change_keys[SB_DIFF_NCHANGES] = {
    "added", "removed", "upgraded", "downgraded", "license_changed", "source_changed", "hash_changed", "scope_changed",
};

static const char *scope_word(sb_scope s)
{
    switch (s) {
    case SB_SCOPE_REQUIRED: return "required";
    case SB_SCOPE_OPTIONAL: return "optional";
    case SB_SCOPE_DEVELOPMENT: return "development";
    case SB_SCOPE_NONE: break;
    }
    return NULL;
}

const char *sb_diff_change_name(sb_diff_change c)
{
    return c < SB_DIFF_NCHANGES ? change_names[c] : "?";
}

static const char *prop_of(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

/* "https://user@host:8443/x" -> "host:8443"; NULL when not an http(s) URL */
static const char *url_host(sb_arena *a, const char *u)
{
    const char *s = !strncmp(u, "https://", 8) ? u + 8 : !strncmp(u, "http://", 7) ? u + 7 : NULL;
    if (NULL == s)
        return NULL;
    size_t n = strcspn(s, "/?#");
    const char *at = memchr(s, '@', n);
    if (at) {
        n -= (size_t)(at + 1 - s);
        s = at + 1;
    }
    return n ? sb_arena_strndup(a, s, n) : NULL;
}

const char *sb_diff_source(sb_arena *a, const sb_pkg *p)
{
    if (p->supplier_name)
        return p->supplier_name; /* the channel, the index's or registry's host */
    const char *direct = prop_of(p, "pixi:direct-url");
    if (direct)
        return direct;
    if (NULL == p->location)
        return NULL;
    /* an index artifact the lockfile names by URL without its index: the host */
    const char *host = strncmp(p->location, "git", 3) ? url_host(a, p->location) : NULL;
    return host ? host : p->location;
}

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* ---- matching -------------------------------------------------------------- */

typedef struct entry {
    const sb_pkg *p;
    const char *key; /* the name as matched */
    int used;
} entry;

static int entry_cmp(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->p->kind != b->p->kind)
        return a->p->kind < b->p->kind ? -1 : 1;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    c = sb_vercmp(a->p->kind, a->p->version, b->p->version);
    if (c)
        return c;
    return strcmp(a->p->version ? a->p->version : "", b->p->version ? b->p->version : "");
}

static const char *match_key(sb_arena *a, const sb_pkg *p)
{
    return sb_eco_match_name(a, p->kind, p->name);
}

static entry *entries(sb_arena *a, const sb_sbom *s)
{
    entry *v = sb_arena_calloc(a, s->npkgs ? s->npkgs : 1, sizeof *v);
    for (size_t i = 0; v && i < s->npkgs; i++) {
        v[i].p = &s->pkgs[i];
        v[i].key = match_key(a, &s->pkgs[i]);
        if (NULL == v[i].key)
            return NULL;
    }
    if (v)
        qsort(v, s->npkgs, sizeof *v, entry_cmp);
    return v;
}

typedef struct builder {
    sb_arena *a;
    sb_diff *d;
    size_t cap;
    const unsigned char *direct_b, *direct_h; /* per package of base / head: a root edge reaches it */
} builder;

/* 1 at each package the root depends on directly; NULL on failure. */
static unsigned char *direct_marks(sb_arena *a, const sb_sbom *s)
{
    unsigned char *m = sb_arena_calloc(a, s->npkgs ? s->npkgs : 1, 1);
    for (size_t i = 0; m && i < s->nroot; i++)
        if (s->root_deps[i] < s->npkgs)
            m[s->root_deps[i]] = 1;
    return m;
}

/* The first digest both record that differs, as "<alg>:<hex>" each. */
static int hash_changed(sb_arena *a, const sb_pkg *b, const sb_pkg *h, const char **before, const char **after)
{
    static const char *const alg_names[SB_HASH_N] = {"sha256", "md5", "sha512", "sha384", "sha1"};
    for (int alg = 0; alg < SB_HASH_N; alg++) {
        sb_hash_hex bb, hb;
        const char *x = sb_pkg_hash(b, (sb_hash_alg)alg, &bb), *y = sb_pkg_hash(h, (sb_hash_alg)alg, &hb);
        if (x && y && strcmp(x, y)) {
            *before = sb_arena_printf(a, "%s:%s", alg_names[alg], x);
            *after = sb_arena_printf(a, "%s:%s", alg_names[alg], y);
            return 1;
        }
    }
    return 0;
}

static const char *lic_value(sb_arena *a, const sb_pkg *p)
{
    return sb_pkg_lic(p, a).value;
}

static sb_code add_row(builder *b, sb_diff_change c, const sb_pkg *base, const sb_pkg *head)
{
    sb_diff *d = b->d;
    if (d->nrows == b->cap) {
        sb_diff_row *g = sb_arena_grow(b->a, d->rows, &b->cap, d->nrows, sizeof *d->rows, 32);
        if (NULL == g)
            return SB_ENOMEM;
        d->rows = g;
    }
    const sb_pkg *any = head ? head : base;
    if (NULL == any) /* a row is about a package on at least one side */
        return SB_EMISUSE;
    sb_diff_row *r = &d->rows[d->nrows++];
    *r = (sb_diff_row){.change = c, .kind = any->kind, .name = any->name, .purl = any->purl};
    if (base) {
        r->base_version = base->version;
        r->base_license = lic_value(b->a, base);
        r->base_source = sb_diff_source(b->a, base);
        r->base_scope = base->scope;
        r->direct |= b->direct_b[base - d->base->pkgs] != 0;
    }
    if (head) {
        r->head_version = head->version;
        r->head_license = lic_value(b->a, head);
        r->head_source = sb_diff_source(b->a, head);
        r->head_scope = head->scope;
        r->direct |= b->direct_h[head - d->head->pkgs] != 0;
    }
    if (head && d->head->policy) {
        /* under a license policy: denied now, and not before (an exempt
         * package is never denied) */
        const sb_policy_verdict *vh = &d->head->policy[head - d->head->pkgs];
        const sb_policy_verdict *vb = base && d->base->policy ? &d->base->policy[base - d->base->pkgs] : NULL;
        int was = vb && vb->rule != SB_POL_PASS && !vb->exempt;
        if (vh->rule != SB_POL_PASS && !vh->exempt && !was)
            r->now_denied = vh->reason ? vh->reason : sb_policy_rule_name(vh->rule);
    }
    if (c == SB_DIFF_HASH && base && head && !hash_changed(b->a, base, head, &r->base_hash, &r->head_hash))
        return SB_EMISUSE;
    d->count[c]++;
    return SB_OK;
}

/* "https://host/dir/file-1.0.whl" -> length of "https://host/dir/" */
static size_t dir_len(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? (size_t)(slash - s + 1) : 0;
}

static int source_changed(sb_arena *a, const sb_pkg *b, const sb_pkg *h)
{
    const char *sb = sb_diff_source(a, b), *sh = sb_diff_source(a, h);
    if (str_eq(sb, sh))
        return 0;
    /* a direct URL or path naming the new version's file in the same place */
    if (sb && sh && !str_eq(b->version, h->version)) {
        size_t nb = dir_len(sb), nh = dir_len(sh);
        if (nb && nb == nh && !strncmp(sb, sh, nb) && strncmp(sb, "git", 3))
            return 0;
    }
    return 1;
}

static sb_code compare_pair(builder *b, const sb_pkg *base, const sb_pkg *head)
{
    sb_code rc = SB_OK;
    size_t before = b->d->nrows;
    if (!str_eq(base->version, head->version)) {
        int c = sb_vercmp(head->kind, base->version, head->version);
        if (c)
            rc = add_row(b, c < 0 ? SB_DIFF_UPGRADED : SB_DIFF_DOWNGRADED, base, head);
    }
    if (rc == SB_OK && !str_eq(lic_value(b->a, base), lic_value(b->a, head)))
        rc = add_row(b, SB_DIFF_LICENSE, base, head);
    if (rc == SB_OK && source_changed(b->a, base, head))
        rc = add_row(b, SB_DIFF_SOURCE, base, head);
    /* the same artifact (version, file, conda build) with another digest; a
     * rebuild under a new build string or another wheel is a new artifact */
    const char *hb, *hh;
    if (rc == SB_OK && str_eq(base->version, head->version) && str_eq(base->file_name, head->file_name) &&
        str_eq(sb_pkg_xr(base)->build, sb_pkg_xr(head)->build) && hash_changed(b->a, base, head, &hb, &hh))
        rc = add_row(b, SB_DIFF_HASH, base, head);
    if (rc == SB_OK && base->scope != SB_SCOPE_NONE && head->scope != SB_SCOPE_NONE && base->scope != head->scope)
        rc = add_row(b, SB_DIFF_SCOPE, base, head);
    if (b->d->nrows == before)
        b->d->unchanged++;
    return rc;
}

/* The leading number of a version (its major line); "" when none. */
static size_t major_of(const char *v, const char **out)
{
    if (NULL == v)
        v = "";
    while (*v && (*v < '0' || *v > '9'))
        v++;
    *out = v;
    size_t n = 0;
    while (v[n] >= '0' && v[n] <= '9')
        n++;
    return n;
}

static int same_line(const char *a, const char *b)
{
    const char *x, *y;
    size_t nx = major_of(a, &x), ny = major_of(b, &y);
    return nx && nx == ny && !memcmp(x, y, nx);
}

/* Pairing by major line is quadratic in a name's versions: past this many
 * pairs (a crafted lockfile), what equal versions leave is added/removed. */
#define LINE_PAIRS_MAX (1u << 16)

/* One name group: [bv, bv+nb) and [hv, hv+nh), each in version order. */
static sb_code compare_group(builder *b, entry *bv, size_t nb, entry *hv, size_t nh)
{
    sb_code rc = SB_OK;
    /* equal versions first: both sides are in one order (entry_cmp), so a
     * merge finds them in O(nb + nh) however many versions a name has */
    for (size_t i = 0, j = 0; i < nb && j < nh;) {
        int c = entry_cmp(&bv[i], &hv[j]);
        if (c < 0) {
            i++;
        } else if (c > 0) {
            j++;
        } else {
            bv[i].used = hv[j].used = 1;
            if ((rc = compare_pair(b, bv[i].p, hv[j].p)) != SB_OK)
                return rc;
            i++, j++;
        }
    }
    /* then versions of one major line, newest with newest (npm keeps a name
     * in several lines: 4.3.1 and 4.3.3 against 3.2.7 and 4.3.4 is one
     * upgrade, not a downgrade and an upgrade) */
    for (size_t j = nh; nb * nh <= LINE_PAIRS_MAX && j-- > 0;) {
        if (hv[j].used)
            continue;
        for (size_t i = nb; i-- > 0;)
            if (!bv[i].used && same_line(bv[i].p->version, hv[j].p->version)) {
                bv[i].used = hv[j].used = 1;
                if ((rc = compare_pair(b, bv[i].p, hv[j].p)) != SB_OK)
                    return rc;
                break;
            }
    }
    /* one version on each side: a change across lines too (1.x -> 2.0) */
    if (nb == 1 && nh == 1 && !bv[0].used) {
        bv[0].used = hv[0].used = 1;
        if ((rc = compare_pair(b, bv[0].p, hv[0].p)) != SB_OK)
            return rc;
    }
    size_t i, j;
    for (i = 0; rc == SB_OK && i < nb; i++)
        if (!bv[i].used)
            rc = add_row(b, SB_DIFF_REMOVED, bv[i].p, NULL);
    for (j = 0; rc == SB_OK && j < nh; j++)
        if (!hv[j].used)
            rc = add_row(b, SB_DIFF_ADDED, NULL, hv[j].p);
    return rc;
}

static int group_cmp(const entry *a, const entry *b)
{
    if (a->p->kind != b->p->kind)
        return a->p->kind < b->p->kind ? -1 : 1;
    return strcmp(a->key, b->key);
}

sb_code sb_diff_compute(sb_diff **out, sb_arena *a, const sb_sbom *base, const sb_sbom *head, sb_err *err)
{
    sb_diff *d = sb_arena_calloc(a, 1, sizeof *d);
    entry *bv = d ? entries(a, base) : NULL, *hv = bv ? entries(a, head) : NULL;
    if (NULL == hv)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    d->base = base;
    d->head = head;
    builder b = {a, d, 0, direct_marks(a, base), direct_marks(a, head)};
    if (NULL == b.direct_b || NULL == b.direct_h)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    size_t i = 0, j = 0;
    sb_code rc = SB_OK;
    while (rc == SB_OK && (i < base->npkgs || j < head->npkgs)) {
        int c = i == base->npkgs ? 1 : j == head->npkgs ? -1 : group_cmp(&bv[i], &hv[j]);
        size_t ei = i, ej = j;
        if (c <= 0)
            while (ei < base->npkgs && !group_cmp(&bv[ei], &bv[i]))
                ei++;
        if (c >= 0)
            while (ej < head->npkgs && !group_cmp(&hv[ej], &hv[j]))
                ej++;
        rc = compare_group(&b, bv + i, ei - i, hv + j, ej - j);
        i = ei;
        j = ej;
    }
    /* group the rows by change, keeping (kind, name) order inside each */
    sb_diff_row *sorted = rc == SB_OK ? sb_arena_alloc(a, (d->nrows ? d->nrows : 1) * sizeof *sorted) : NULL;
    if (NULL == sorted)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    size_t k = 0;
    for (int c = 0; c < SB_DIFF_NCHANGES; c++)
        for (size_t r = 0; r < d->nrows; r++)
            if (d->rows[r].change == (sb_diff_change)c)
                sorted[k++] = d->rows[r];
    d->rows = sorted;
    *out = d;
    return SB_OK;
}

/* The component a repository's merged selection has for lockfile `path`:
 * the one named by the path that carries pixi:lockfile-kind (only the
 * repository reader writes it, and only on a lockfile's own component). */
static const sb_pkg *lockfile_component(const sb_sbom *all, const char *path)
{
    for (size_t i = 0; all && i < all->npkgs; i++)
        if (!strcmp(all->pkgs[i].name, path) && prop_of(&all->pkgs[i], "pixi:lockfile-kind"))
            return &all->pkgs[i];
    return NULL;
}

/* One lockfile's rows into `into`, each naming it; a lockfile on one side
 * only (`b` or `h` NULL) leads with its own row. */
static sb_code repo_part(sb_diff *into, size_t *cap, sb_arena *a, const sb_sbom *all_b, const sb_sbom *all_h,
                         const sb_sbom *b, const sb_sbom *h, sb_err *err)
{
    const char *path = h ? h->lockfile_name : b->lockfile_name;
    sb_sbom *none = sb_arena_calloc(a, 1, sizeof *none);
    if (NULL == none)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    *none = (sb_sbom){.environment = (h ? h : b)->environment, .platform = (h ? h : b)->platform};
    sb_diff *one = NULL;
    sb_code rc = sb_diff_compute(&one, a, b ? b : none, h ? h : none, err);
    if (rc != SB_OK)
        return rc;
    size_t need = into->nrows + one->nrows + 1;
    if (need > *cap) {
        sb_diff_row *n = sb_arena_reserve(a, into->rows, cap, into->nrows, need, sizeof *n, 64);
        if (NULL == n)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        into->rows = n;
    }
    const sb_pkg *comp = b && h ? NULL : lockfile_component(h ? all_h : all_b, path);
    if (comp) {
        sb_diff_row *r = &into->rows[into->nrows++];
        sb_diff_change c = h ? SB_DIFF_ADDED : SB_DIFF_REMOVED;
        *r = (sb_diff_row){.change = c, .kind = comp->kind, .name = comp->name, .purl = comp->purl};
        *(h ? &r->head_version : &r->base_version) = comp->version;
        into->count[c]++;
    }
    for (size_t i = 0; i < one->nrows; i++)
        into->rows[into->nrows++] = one->rows[i];
    for (int c = 0; c < SB_DIFF_NCHANGES; c++)
        into->count[c] += one->count[c];
    into->unchanged += one->unchanged;
    return SB_OK;
}

sb_code sb_diff_compute_repo(sb_diff **out, sb_arena *a, const sb_sbom *base_all, const sb_sbom *head_all,
                             const sb_sbom *const *base, size_t nb, const sb_sbom *const *head, size_t nh, sb_err *err)
{
    sb_diff *d = sb_arena_calloc(a, 1, sizeof *d);
    unsigned char *paired = sb_arena_calloc(a, nb ? nb : 1, 1);
    if (NULL == d || NULL == paired)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    d->base = base_all;
    d->head = head_all;
    d->by_lockfile = true;
    size_t cap = 0, from = 0;
    sb_code rc = SB_OK;
    for (size_t j = 0; rc == SB_OK && j <= nh; j++) {
        const sb_sbom *b = NULL, *h = j < nh ? head[j] : NULL;
        if (NULL == h) { /* then what only the base has */
            for (size_t i = 0; rc == SB_OK && i < nb; i++)
                if (!paired[i]) {
                    from = d->nrows;
                    rc = repo_part(d, &cap, a, base_all, head_all, base[i], NULL, err);
                    for (size_t k = from; k < d->nrows; k++)
                        d->rows[k].lockfile = base[i]->lockfile_name;
                }
            break;
        }
        for (size_t i = 0; i < nb && NULL == b; i++)
            if (!paired[i] && base[i]->lockfile_name && h->lockfile_name &&
                !strcmp(base[i]->lockfile_name, h->lockfile_name))
                paired[i] = 1, b = base[i];
        from = d->nrows;
        rc = repo_part(d, &cap, a, base_all, head_all, b, h, err);
        for (size_t k = from; rc == SB_OK && k < d->nrows; k++)
            d->rows[k].lockfile = h->lockfile_name;
    }
    if (rc != SB_OK)
        return rc;
    /* grouped by change, lockfile order kept inside each */
    sb_diff_row *sorted = sb_arena_alloc(a, (d->nrows ? d->nrows : 1) * sizeof *sorted);
    if (NULL == sorted)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    size_t k = 0;
    for (int c = 0; c < SB_DIFF_NCHANGES; c++)
        for (size_t r = 0; r < d->nrows; r++)
            if (d->rows[r].change == (sb_diff_change)c) {
                sorted[k] = d->rows[r];
                sorted[k].label = !strcmp(sorted[k].name, sorted[k].lockfile)
                                      ? sorted[k].name
                                      : sb_arena_printf(a, "%s: %s", sorted[k].lockfile, sorted[k].name);
                if (NULL == sorted[k++].label)
                    return sb_err_set(err, SB_ENOMEM, "out of memory");
            }
    d->rows = sorted;
    *out = d;
    return SB_OK;
}

bool sb_diff_gated(const sb_diff_row *r, unsigned kinds, bool direct_only)
{
    int kind = (kinds & (1u << r->change)) || ((kinds & SB_DIFF_NOW_DENIED) && r->now_denied);
    return kind && (!direct_only || r->direct);
}

/* The two values a row is about (NULL when a side has none). */
static void row_values(const sb_diff_row *r, const char **before, const char **after)
{
    switch (r->change) {
    case SB_DIFF_LICENSE: *before = r->base_license, *after = r->head_license; break;
    case SB_DIFF_SOURCE: *before = r->base_source, *after = r->head_source; break;
    case SB_DIFF_HASH: *before = r->base_hash, *after = r->head_hash; break;
    case SB_DIFF_SCOPE: *before = scope_word(r->base_scope), *after = scope_word(r->head_scope); break;
    default: *before = r->base_version, *after = r->head_version; break;
    }
}

sb_code sb_diff_gate(sb_gate *g, sb_arena *a, const sb_diff *diff, unsigned kinds, bool direct_only)
{
    for (size_t i = 0; i < diff->nrows; i++) {
        const sb_diff_row *r = &diff->rows[i];
        if (!sb_diff_gated(r, kinds, direct_only))
            continue;
        const char *before, *after;
        row_values(r, &before, &after);
        const char *reason = sb_arena_printf(a, "%s %s: %s -> %s", sb_kind_name(r->kind), change_names[r->change],
                                             r->change == SB_DIFF_ADDED ? "(none)"
                                             : before                   ? before
                                                                        : "(none)",
                                             r->change == SB_DIFF_REMOVED ? "(none)"
                                             : after                      ? after
                                                                          : "(none)");
        /* a row gated only as now denied says why the policy denies it */
        int denied = !(kinds & (1u << r->change));
        if (denied && reason)
            reason = sb_arena_printf(a, "%s; now denied by the license policy: %s", reason, r->now_denied);
        sb_finding f = {.package = r->name,
                        .version = r->head_version ? r->head_version : r->base_version,
                        .rule = "diff",
                        .value = denied ? "now-denied" : change_names[r->change],
                        .reason = reason};
        if (NULL == reason || sb_gate_add(g, a, &f) != SB_OK)
            return SB_ENOMEM;
    }
    return SB_OK;
}

/* ---- writing ----------------------------------------------------------------- */

typedef struct writer {
    const sb_diff *diff;
    sb_report_output out;
    size_t width[5];
    size_t nsummary; /* pieces after the rows */
    size_t *gated;   /* text and Markdown: the rows the gate fails on, listed first */
    size_t ngated;
} writer;

static const char *const md_gate_header[5] = {"Change", "Kind", "Name", "Before", "After"};

static const char *dash(const char *s)
{
    return s && s[0] ? s : "-";
}

/* text/markdown cells: the values the change is about */
static void before_after(const sb_diff_row *r, const char **before, const char **after)
{
    row_values(r, before, after);
    *before = dash(*before);
    *after = dash(*after);
    if (r->change == SB_DIFF_ADDED)
        *before = "-";
    if (r->change == SB_DIFF_REMOVED)
        *after = "-";
}

static const char *const text_header[5] = {"Change", "Kind", "Name", "Before", "After"};
static const char *const md_header[4] = {"Kind", "Name", "Before", "After"};
/* The CSV header is the JSON row's keys (openapi/reports.schema.json,
 * diff_row): environment and platform first as in every report, then the
 * lockfile for two repositories (as every report of a repository has it),
 * now_denied last and only under a license policy (diff_policy_row). */
#define CSV_COLS 19
#define CSV_LOCKFILE 2
static const char *const csv_header[CSV_COLS] = {"environment",  "platform",     "lockfile",     "change",
                                                 "kind",         "name",         "base_version", "head_version",
                                                 "base_license", "head_license", "base_source",  "head_source",
                                                 "purl",         "base_hash",    "head_hash",    "base_scope",
                                                 "head_scope",   "direct",       "now_denied"};

/* The columns this diff has, from all CSV_COLS of them (row or header):
 * the lockfile only for repositories, now_denied only when the head was
 * selected under a policy. Their count. */
static size_t csv_pick(const sb_diff *df, const char *const all[CSV_COLS], const char *out[CSV_COLS])
{
    size_t n = 0;
    for (size_t c = 0; c < CSV_COLS; c++)
        if ((c != CSV_LOCKFILE || df->by_lockfile) && (c != CSV_COLS - 1 || df->head->policy))
            out[n++] = all[c];
    return n;
}

static void text_cells(const sb_diff_row *r, const char *cv[5])
{
    cv[0] = change_names[r->change];
    cv[1] = sb_kind_name(r->kind);
    cv[2] = r->label ? r->label : r->name;
    before_after(r, &cv[3], &cv[4]);
}

static sb_code put(sb_doc *d, const char *s)
{
    return sb_buf_append(&d->stage, s, strlen(s));
}

/* "3 added, 1 removed, ..., 0 source changed" */
static sb_code counts_line(sb_doc *d, const sb_diff *df)
{
    sb_code rc = SB_OK;
    for (int c = 0; rc == SB_OK && c < SB_DIFF_NCHANGES; c++) {
        /* "license changed": the title's words, lower case */
        char word[32];
        snprintf(word, sizeof word, "%s", change_titles[c]);
        word[0] = (char)(word[0] - 'A' + 'a');
        const char *t = sb_arena_printf(d->arena, "%s%zu %s", c ? ", " : "", df->count[c], word);
        rc = t ? put(d, t) : SB_ENOMEM;
    }
    return rc;
}

static const char *side_text(sb_doc *d, const char *label, const sb_sbom *s)
{
    return sb_arena_printf(d->arena, "%s %s (%zu packages, environment %s, platform %s)", label,
                           s->lockfile_name ? s->lockfile_name
                           : s->input_kind  ? s->input_kind
                                            : "lockfile",
                           s->npkgs, s->environment ? s->environment : "-", s->platform ? s->platform : "-");
}

/* side_text in Markdown: the file name (the client's), environment and
 * platform (the lockfile's) each rendered as itself, never as markup */
static sb_code md_side(sb_doc *d, const char *label, const sb_sbom *s)
{
    const char *file = s->lockfile_name ? s->lockfile_name : s->input_kind ? s->input_kind : "lockfile";
    const char *count = sb_arena_printf(d->arena, " (%zu packages, environment ", s->npkgs);
    const char *parts[] = {label, " ", file, count, dash(s->environment), ", platform ", dash(s->platform), ")"};
    sb_code rc = count ? SB_OK : SB_ENOMEM;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && rc == SB_OK; i++)
        rc = i == 2 || i == 4 || i == 6 ? sb_table_md(&d->stage, parts[i], 0) : put(d, parts[i]);
    return rc;
}

static sb_code begin(sb_doc *d)
{
    writer *w = d->fmt;
    const sb_diff *df = w->diff;
    sb_code rc = SB_OK;
    switch (w->out) {
    case SB_REPORT_JSON:
        sb_jw_obj_begin(&d->jw);
        sb_jw_key(&d->jw, "diff");
        sb_jw_arr_begin(&d->jw);
        return d->jw.status;
    case SB_REPORT_TEXT:
        for (size_t c = 0; c < 5; c++)
            w->width[c] = sb_table_width(text_header[c]);
        for (size_t i = 0; i < df->nrows; i++) {
            const char *cv[5];
            text_cells(&df->rows[i], cv);
            for (size_t c = 0; c < 5; c++)
                if (sb_table_width(cv[c]) > w->width[c])
                    w->width[c] = sb_table_width(cv[c]);
        }
        if (w->ngated) {
            const char *t = sb_arena_printf(d->arena, "Failing the gate (%zu of %zu changes):\n", w->ngated, df->nrows);
            rc = t ? put(d, t) : SB_ENOMEM;
        }
        if (rc == SB_OK)
            rc = sb_table_row(&d->stage, SB_TABLE_TEXT, text_header, 5, w->width);
        return rc == SB_OK ? sb_table_rule(&d->stage, SB_TABLE_TEXT, 5, w->width) : rc;
    case SB_REPORT_MARKDOWN: {
        rc = put(d, "**sbomd diff:** ");
        if (rc == SB_OK && df->nrows == 0)
            rc = put(d, "no changes");
        else if (rc == SB_OK)
            rc = counts_line(d, df);
        const char *t = sb_arena_printf(d->arena, " (%zu unchanged)\n\n", df->unchanged);
        if (rc == SB_OK)
            rc = t ? put(d, t) : SB_ENOMEM;
        for (int s = 0; rc == SB_OK && s < 2; s++) {
            rc = put(d, s ? "  \n" : "");
            if (rc == SB_OK)
                rc = md_side(d, s ? "Head:" : "Base:", s ? df->head : df->base);
        }
        return rc == SB_OK ? put(d, "\n\n") : rc; /* a blank line before the first <details> */
    }
    case SB_REPORT_CSV: {
        const char *cols[CSV_COLS];
        return sb_table_row(&d->stage, SB_TABLE_CSV, cols, csv_pick(df, csv_header, cols), NULL);
    }
    default: return SB_EMISUSE;
    }
}

static sb_code nothing(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code middle(sb_doc *d)
{
    return d->jw.status;
}

static size_t piece_count(const sb_doc *d)
{
    const writer *w = d->fmt;
    return w->ngated + w->diff->nrows + w->nsummary;
}

/* Gated piece k: the k-th row the gate fails on, in a table of its own
 * ahead of the rest (text: the table's first part, then the whole table
 * again under "All changes"). */
static sb_code gated_piece(sb_doc *d, size_t k)
{
    const writer *w = d->fmt;
    const sb_diff *df = w->diff;
    const sb_diff_row *r = &df->rows[w->gated[k]];
    const char *cv[5];
    text_cells(r, cv);
    sb_code rc = SB_OK;
    if (w->out == SB_REPORT_MARKDOWN) {
        if (0 == k) {
            const char *t = sb_arena_printf(d->arena, "**Failing the gate (%zu of %zu changes):**\n\n", w->ngated,
                                            df->nrows);
            rc = t ? put(d, t) : SB_ENOMEM;
            if (rc == SB_OK)
                rc = sb_table_row(&d->stage, SB_TABLE_MARKDOWN, md_gate_header, 5, NULL);
            if (rc == SB_OK)
                rc = sb_table_rule(&d->stage, SB_TABLE_MARKDOWN, 5, NULL);
        }
        if (rc == SB_OK)
            rc = sb_table_row(&d->stage, SB_TABLE_MARKDOWN, cv, 5, NULL);
        return rc == SB_OK && k + 1 == w->ngated ? put(d, "\n") : rc; /* a blank line before the <details> */
    }
    rc = sb_table_row(&d->stage, SB_TABLE_TEXT, cv, 5, w->width);
    if (rc == SB_OK && k + 1 == w->ngated) {
        rc = put(d, "\nAll changes:\n");
        if (rc == SB_OK)
            rc = sb_table_row(&d->stage, SB_TABLE_TEXT, text_header, 5, w->width);
        if (rc == SB_OK)
            rc = sb_table_rule(&d->stage, SB_TABLE_TEXT, 5, w->width);
    }
    return rc;
}

static void json_side(sb_jw *jw, const char *key, const sb_sbom *s)
{
    sb_jw_key(jw, key);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "workspace", s->root_name);
    sb_jw_kstr(jw, "environment", s->environment);
    sb_jw_kstr(jw, "platform", s->platform);
    sb_jw_kstr(jw, "lockfile", s->lockfile_name);
    sb_jw_kstr(jw, "input_kind", s->input_kind);
    sb_jw_key(jw, "packages");
    sb_jw_int(jw, (long long)s->npkgs);
    sb_jw_obj_end(jw);
}

static int same(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* summary.incomplete as every report writes it: what either side's
 * document lacks (the Sbomd-Incomplete header names both), head first, an
 * entry both sides share once */
static void incomplete_json(sb_jw *jw, const sb_diff *df)
{
    const sb_incomplete *in[2] = {&df->head->incomplete, &df->base->incomplete};
    sb_jw_key(jw, "incomplete");
    sb_jw_arr_begin(jw);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < in[s]->n; i++) {
            int seen = 0;
            for (size_t j = 0; s == 1 && !seen && j < in[0]->n; j++)
                seen = same(in[0]->step[j], in[1]->step[i]) && same(in[0]->detail[j], in[1]->detail[i]);
            if (seen)
                continue;
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "step", in[s]->step[i]);
            sb_jw_kstr(jw, "detail", in[s]->detail[i]);
            sb_jw_obj_end(jw);
        }
    sb_jw_arr_end(jw);
}

static void json_row(sb_doc *d, const sb_diff_row *r)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *head = ((const writer *)d->fmt)->diff->head;
    sb_jw_obj_begin(jw);
    /* every report row says which selection it is of: here the head's (the
     * base's, selected with the same parameters, is in summary.base) */
    sb_jw_kstr(jw, "environment", head->environment);
    sb_jw_kstr(jw, "platform", head->platform);
    if (((const writer *)d->fmt)->diff->by_lockfile)
        sb_jw_kstr(jw, "lockfile", r->lockfile);
    sb_jw_kstr(jw, "change", change_names[r->change]);
    sb_jw_kstr(jw, "kind", sb_kind_name(r->kind));
    sb_jw_kstr(jw, "name", r->name);
    sb_jw_kstr(jw, "base_version", r->base_version);
    sb_jw_kstr(jw, "head_version", r->head_version);
    sb_jw_kstr(jw, "base_license", r->base_license);
    sb_jw_kstr(jw, "head_license", r->head_license);
    sb_jw_kstr(jw, "base_source", r->base_source);
    sb_jw_kstr(jw, "head_source", r->head_source);
    sb_jw_kstr(jw, "purl", r->purl);
    sb_jw_kstr(jw, "base_hash", r->base_hash);
    sb_jw_kstr(jw, "head_hash", r->head_hash);
    sb_jw_kstr(jw, "base_scope", scope_word(r->base_scope));
    sb_jw_kstr(jw, "head_scope", scope_word(r->head_scope));
    sb_jw_key(jw, "direct");
    sb_jw_bool(jw, r->direct);
    if (head->policy) {
        sb_jw_key(jw, "now_denied"); /* only under a license policy: null when not denied anew */
        if (r->now_denied)
            sb_jw_str(jw, r->now_denied);
        else
            sb_jw_null(jw);
    }
    sb_jw_obj_end(jw);
}

/* Markdown: at row i, close the previous change's table and open this one's
 * when the change differs. */
static sb_code md_row(sb_doc *d, const sb_diff *df, size_t i)
{
    const sb_diff_row *r = &df->rows[i];
    sb_code rc = SB_OK;
    if (0 == i || df->rows[i - 1].change != r->change) {
        if (i)
            rc = put(d, "\n</details>\n\n");
        const char *open = sb_arena_printf(d->arena, "<details><summary>%s (%zu)</summary>\n\n",
                                           change_titles[r->change], df->count[r->change]);
        if (rc == SB_OK)
            rc = open ? put(d, open) : SB_ENOMEM;
        if (rc == SB_OK)
            rc = sb_table_row(&d->stage, SB_TABLE_MARKDOWN, md_header, 4, NULL);
        if (rc == SB_OK)
            rc = sb_table_rule(&d->stage, SB_TABLE_MARKDOWN, 4, NULL);
    }
    const char *cv[5];
    text_cells(r, cv);
    return rc == SB_OK ? sb_table_row(&d->stage, SB_TABLE_MARKDOWN, cv + 1, 4, NULL) : rc;
}

static sb_code piece(sb_doc *d, size_t i)
{
    const writer *w = d->fmt;
    const sb_diff *df = w->diff;
    if (i < w->ngated)
        return gated_piece(d, i);
    i -= w->ngated;
    if (i < df->nrows) {
        const sb_diff_row *r = &df->rows[i];
        const char *all[CSV_COLS], *cv[CSV_COLS];
        switch (w->out) {
        case SB_REPORT_JSON: json_row(d, r); return d->jw.status;
        case SB_REPORT_TEXT: text_cells(r, cv); return sb_table_row(&d->stage, SB_TABLE_TEXT, cv, 5, w->width);
        case SB_REPORT_MARKDOWN: return md_row(d, df, i);
        default:
            all[0] = df->head->environment, all[1] = df->head->platform, all[2] = r->lockfile;
            all[3] = change_names[r->change], all[4] = sb_kind_name(r->kind), all[5] = r->name;
            all[6] = r->base_version, all[7] = r->head_version, all[8] = r->base_license, all[9] = r->head_license;
            all[10] = r->base_source, all[11] = r->head_source, all[12] = r->purl;
            all[13] = r->base_hash, all[14] = r->head_hash, all[15] = scope_word(r->base_scope);
            all[16] = scope_word(r->head_scope), all[17] = r->direct ? "true" : "false";
            all[18] = r->now_denied;
            return sb_table_row(&d->stage, SB_TABLE_CSV, cv, csv_pick(df, all, cv), NULL);
        }
    }
    /* the one summary piece */
    sb_code rc = SB_OK;
    if (w->out == SB_REPORT_JSON) {
        sb_jw *jw = &d->jw;
        sb_jw_arr_end(jw);
        sb_jw_key(jw, "summary");
        sb_jw_obj_begin(jw);
        json_side(jw, "base", df->base);
        json_side(jw, "head", df->head);
        for (int c = 0; c < SB_DIFF_NCHANGES; c++) {
            sb_jw_key(jw, change_keys[c]);
            sb_jw_int(jw, (long long)df->count[c]);
        }
        sb_jw_key(jw, "unchanged");
        sb_jw_int(jw, (long long)df->unchanged);
        sb_jw_key(jw, "changes");
        sb_jw_int(jw, (long long)df->nrows);
        incomplete_json(jw, df);
        sb_jw_obj_end(jw);
        return d->jw.status;
    }
    if (w->out == SB_REPORT_MARKDOWN)
        return df->nrows ? put(d, "\n</details>\n") : SB_OK;
    /* text */
    rc = put(d, "\nSummary: ");
    if (rc == SB_OK)
        rc = counts_line(d, df);
    const char *t = sb_arena_printf(d->arena, ", %zu unchanged\n", df->unchanged);
    if (rc == SB_OK)
        rc = t ? put(d, t) : SB_ENOMEM;
    for (int s = 0; rc == SB_OK && s < 2; s++) {
        const char *side = side_text(d, s ? "Head:" : "Base:", s ? df->head : df->base);
        rc = side ? sb_table_text(&d->stage, side, 0) : SB_ENOMEM;
        if (rc == SB_OK)
            rc = put(d, "\n");
    }
    return rc;
}

static sb_code end(sb_doc *d)
{
    const writer *w = d->fmt;
    if (w->out == SB_REPORT_JSON)
        sb_jw_obj_end(&d->jw);
    return d->jw.status;
}


SB_REPORT_OUTPUT(diff_json, "diff", JSON, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(diff_text, "diff", TEXT, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(diff_markdown, "diff", MARKDOWN, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(diff_csv, "diff", CSV, begin, middle, piece_count, piece, end, nothing);

const sb_report_kind sb_diff_kind = {.name = "diff", .ops = {&diff_json, &diff_text, &diff_markdown, &diff_csv, NULL}};

sb_code sb_diff_doc_new(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_diff *diff, const sb_doc_opts *opts,
                        sb_err *err)
{
    if (NULL == ops || ops->begin != sb_diff_kind.ops[SB_REPORT_JSON]->begin)
        return sb_err_set(err, SB_EMISUSE, "not a diff output");
    sb_report_output o = sb_report_output_of(ops);
    writer *w = sb_arena_calloc(a, 1, sizeof *w);
    if (NULL == w)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    w->diff = diff;
    w->out = (sb_report_output)o;
    w->nsummary = w->out == SB_REPORT_CSV ? 0 : 1;
    if (diff->gated && (w->out == SB_REPORT_TEXT || w->out == SB_REPORT_MARKDOWN)) {
        w->gated = sb_arena_alloc(a, (diff->nrows ? diff->nrows : 1) * sizeof *w->gated);
        if (NULL == w->gated)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        for (size_t i = 0; i < diff->nrows; i++)
            if (sb_diff_gated(&diff->rows[i], diff->gated, diff->gated_direct))
                w->gated[w->ngated++] = i;
    }
    /* the components phase walks the head's packages and writes nothing */
    sb_code rc = sb_doc_new(out, a, ops, diff->head, opts, err);
    if (rc == SB_OK)
        (*out)->fmt = w;
    return rc;
}
