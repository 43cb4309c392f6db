/*
 * lock_cargo.c - Cargo.lock (Rust), versions 1 to 4, into an sb_lock of
 * one environment ("default") and one platform ("noarch"): a Cargo.lock
 * resolves one graph for every target, so there is nothing to select.
 *
 * Paths read: version (3 and 4 stated; none is 1, or 2 when any package
 * carries an inline checksum, as Cargo decides), package[i].{name, version,
 * source, checksum, dependencies[j], replace}, the legacy [root] table (the
 * root package before 2017), and metadata."checksum <name> <version>
 * (<source>)" (version 1's checksums). Everything else (patch.unused, other
 * metadata) is not part of the build and is skipped.
 *
 * A dependency is written as "name", "name version" or "name version
 * (source)": the shortest form that is unique in the file (version 1 always
 * writes all three). It is resolved to a package key after the whole file is
 * read; a string naming nothing in the file is dropped, as Cargo drops it,
 * and kept in the package's pixi:cargo-unresolved-dependencies property.
 *
 * Sources: crates.io (its git index or its sparse index) gives the plain
 * registry purl and a sha256 of the .crate; another registry the same purl
 * with repository_url; "git+<url>?<ref>#<commit>" a vcs_url purl (the
 * requested ref kept as pixi:cargo-git-ref); no source at all is a path
 * package (a workspace member or a path dependency): pkg:generic. The root
 * is the one path package no other package depends on, when there is
 * exactly one (the workspace's root package); it is the document root, its
 * dependencies are the direct ones. Otherwise the document root depends on
 * every path package. Cargo.lock does not say which edges are dev or build
 * dependencies, so no scope is set.
 */
#include "deadline.h"
#include "ecosystem.h"
#include "lock_int.h"
#include "strmap.h"
#include "toml.h"

#include <stdint.h>
#include <string.h>

/* One dependency string, split; resolved after the file is read. */
typedef struct cg_dep {
    const char *name, *version, *source; /* version and source NULL when not written */
    unsigned line, col;
} cg_dep;

typedef struct cg_pkg {
    const char *name, *version, *source, *checksum, *replace;
    unsigned line, col; /* where the entry starts */
    cg_dep *deps;
    size_t ndeps, dcap;
    bool root_table; /* the legacy [root] */
    bool seen_name, seen_version;
} cg_pkg;

/* One of version 1's [metadata] checksums. */
typedef struct cg_sum {
    cg_dep id;
    const char *value;
} cg_sum;

typedef struct cg_ctx {
    sb_arena *a;
    cg_pkg *pkgs;
    size_t n, cap;
    cg_pkg *root; /* [root], NULL when none */
    cg_sum *sums;
    size_t nsums, scap;
    long long version; /* -1: not stated */
    unsigned vline, vcol;
    bool inline_sums;
    size_t max_packages;
    sb_deadline dl;
} cg_ctx;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

/* "name", "name version" or "name version (source)" into its parts. */
static sb_code split_id(cg_ctx *c, const sb_toml_value *v, cg_dep *d, const char *what, sb_err *err)
{
    if (v->type != SB_TOML_STRING)
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "%s must be a string", what);
    /* the parser gives an empty string no buffer */
    const char *s = v->str ? v->str : "", *end = s + v->len;
    if (memchr(s, '\0', v->len))
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "%s holds a NUL character", what);
    const char *sp = memchr(s, ' ', v->len);
    memset(d, 0, sizeof *d);
    d->line = v->line;
    d->col = v->column;
    if (sp == s || v->len == 0)
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "%s '%.80s' has no package name", what, s);
    d->name = sp ? sb_arena_strndup(c->a, s, (size_t)(sp - s)) : s;
    if (NULL == d->name)
        return oom(err);
    if (NULL == sp)
        return SB_OK;
    const char *vs = sp + 1, *ve = memchr(vs, ' ', (size_t)(end - vs));
    if (vs == end || ve == vs)
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column,
                             "%s '%.80s' is not `name`, `name version` or `name version (source)`", what, s);
    if (NULL == (d->version = sb_arena_strndup(c->a, vs, (size_t)((ve ? ve : end) - vs))))
        return oom(err);
    if (NULL == ve)
        return SB_OK;
    const char *ss = ve + 1;
    if (end - ss < 3 || *ss != '(' || end[-1] != ')')
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column,
                             "%s '%.80s' is not `name`, `name version` or `name version (source)`", what, s);
    d->source = sb_arena_strndup(c->a, ss + 1, (size_t)(end - ss - 2));
    return d->source ? SB_OK : oom(err);
}

static cg_pkg *entry(cg_ctx *c, size_t i, sb_err *err, sb_code *rc)
{
    while (c->n <= i) {
        if (c->n >= c->max_packages) {
            *rc = sb_err_set(err, SB_ELIMIT, "more than %zu packages", c->max_packages);
            return NULL;
        }
        cg_pkg *np = sb_arena_grow(c->a, c->pkgs, &c->cap, c->n, sizeof *np, 64);
        if (NULL == np) {
            *rc = oom(err);
            return NULL;
        }
        c->pkgs = np;
        memset(&c->pkgs[c->n++], 0, sizeof *np);
    }
    return &c->pkgs[i];
}

static sb_code str_field(const sb_toml_value *v, const char **dst, const char *what, sb_err *err)
{
    if (v->type != SB_TOML_STRING)
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "%s must be a string", what);
    if (v->len && memchr(v->str, '\0', v->len))
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "%s holds a NUL character", what);
    *dst = v->str ? v->str : "";
    return SB_OK;
}

/* A field of a [[package]] entry or of [root]: path[at] is the field. */
static sb_code on_field(cg_ctx *c, cg_pkg *p, const sb_toml_seg *path, size_t depth, size_t at, const sb_toml_value *v,
                        sb_err *err)
{
    if (depth == at) { /* the entry itself comes into existence */
        if (v->type != SB_TOML_TABLE)
            return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "a package entry must be a table");
        p->line = v->line;
        p->col = v->column;
        return SB_OK;
    }
    const char *k = path[at].key;
    if (NULL == k)
        return SB_OK;
    if (depth == at + 1) {
        if (!strcmp(k, "name")) {
            p->seen_name = true;
            return str_field(v, &p->name, "a package's name", err);
        }
        if (!strcmp(k, "version")) {
            p->seen_version = true;
            return str_field(v, &p->version, "a package's version", err);
        }
        if (!strcmp(k, "source"))
            return str_field(v, &p->source, "a package's source", err);
        if (!strcmp(k, "replace"))
            return str_field(v, &p->replace, "a package's replace", err);
        if (!strcmp(k, "checksum")) {
            sb_code rc = str_field(v, &p->checksum, "a package's checksum", err);
            c->inline_sums = true;
            return rc;
        }
        if (!strcmp(k, "dependencies") && v->type != SB_TOML_ARRAY)
            return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "dependencies must be an array of strings");
        return SB_OK;
    }
    if (depth == at + 2 && !strcmp(k, "dependencies") && NULL == path[at + 1].key) {
        cg_dep *nd = sb_arena_grow(c->a, p->deps, &p->dcap, p->ndeps, sizeof *nd, 4);
        if (NULL == nd)
            return oom(err);
        p->deps = nd;
        sb_code rc = split_id(c, v, &p->deps[p->ndeps], "a dependency", err);
        if (rc == SB_OK)
            p->ndeps++;
        return rc;
    }
    if (!strcmp(k, "dependencies") && depth > at + 2)
        return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "dependencies must be an array of strings");
    return SB_OK;
}

static sb_code on_event(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    cg_ctx *c = ud;
    sb_code rc = sb_deadline_tick(&c->dl, err);
    if (rc != SB_OK)
        return rc;
    if (sb_toml_key_is(path, depth, 0, "package")) {
        if (depth == 1)
            return v->type == SB_TOML_ARRAY ? SB_OK
                                            : sb_err_set_at(err, SB_EPARSE, v->line, v->column,
                                                            "package must be an array of tables ([[package]])");
        if (path[1].key)
            return SB_OK;
        cg_pkg *p = entry(c, path[1].index, err, &rc);
        return p ? on_field(c, p, path, depth, 2, v, err) : rc;
    }
    if (sb_toml_key_is(path, depth, 0, "root")) {
        if (NULL == c->root) {
            if (NULL == (c->root = sb_arena_calloc(c->a, 1, sizeof *c->root)))
                return oom(err);
            c->root->root_table = true;
        }
        return on_field(c, c->root, path, depth, 1, v, err);
    }
    if (depth == 1 && sb_toml_key_is(path, depth, 0, "version")) {
        if (v->type != SB_TOML_INTEGER)
            return sb_err_set_at(err, SB_EPARSE, v->line, v->column, "version must be an integer");
        c->version = v->i;
        c->vline = v->line;
        c->vcol = v->column;
        return SB_OK;
    }
    if (depth == 2 && sb_toml_key_is(path, depth, 0, "metadata") && path[1].key &&
        !strncmp(path[1].key, "checksum ", 9)) {
        cg_sum *ns = sb_arena_grow(c->a, c->sums, &c->scap, c->nsums, sizeof *ns, 64);
        if (NULL == ns)
            return oom(err);
        c->sums = ns;
        sb_toml_value kv = *v;
        kv.type = SB_TOML_STRING;
        kv.str = path[1].key + 9;
        kv.len = path[1].klen - 9;
        cg_sum *s = &c->sums[c->nsums];
        if ((rc = split_id(c, &kv, &s->id, "a [metadata] checksum key", err)) != SB_OK)
            return rc;
        if ((rc = str_field(v, &s->value, "a [metadata] checksum", err)) != SB_OK)
            return rc;
        if (NULL == s->id.version)
            return sb_err_set_at(err, SB_EPARSE, v->line, v->column,
                                 "a [metadata] checksum key must name the package's version");
        c->nsums++;
    }
    return SB_OK;
}

/* 64 hex digits, lower-cased into the arena; NULL (rc set) when not. */
static const char *sha256_hex(cg_ctx *c, const char *s, unsigned line, unsigned col, sb_err *err, sb_code *rc)
{
    size_t n = strlen(s);
    char *o = n == 64 ? sb_arena_alloc(c->a, 65) : NULL;
    for (size_t i = 0; o && i < 64; i++) {
        char ch = s[i];
        if (ch >= 'A' && ch <= 'F')
            ch = (char)(ch - 'A' + 'a');
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) {
            *rc = sb_err_set_at(err, SB_EPARSE, line, col, "checksum '%.80s' is not a SHA-256 in hex", s);
            return NULL;
        }
        o[i] = ch;
    }
    if (NULL == o) {
        *rc = n == 64 ? oom(err)
                      : sb_err_set_at(err, SB_EPARSE, line, col, "checksum '%.80s' is not a SHA-256 in hex", s);
        return NULL;
    }
    o[64] = '\0';
    return o;
}

/* crates.io by either of its indexes */
static bool crates_io(const char *src)
{
    return !strcmp(src, "registry+https://github.com/rust-lang/crates.io-index") ||
           !strcmp(src, "sparse+https://index.crates.io/") || !strcmp(src, "sparse+https://index.crates.io");
}

/* The package a dependency string names: its index, or -1 when none
 * (several candidates: the first; Cargo writes the short forms only when
 * they are unique). The source is compared whole, then without its
 * "#commit" (a git source is written with the commit in both places, but a
 * hand-merged file may differ there). */
static long resolve(cg_ctx *c, const sb_strmap *by_name, const sb_strmap *by_nv, const long *next_nv, const cg_dep *d)
{
    size_t at;
    if (NULL == d->version)
        return sb_strmap_get(by_name, d->name, strlen(d->name), &at) ? (long)at : -1;
    char buf[512];
    size_t nl = strlen(d->name), vl = strlen(d->version);
    if (nl + vl + 2 > sizeof buf)
        return -1;
    memcpy(buf, d->name, nl);
    buf[nl] = ' ';
    memcpy(buf + nl + 1, d->version, vl + 1);
    if (!sb_strmap_get(by_nv, buf, nl + 1 + vl, &at))
        return -1;
    if (NULL == d->source)
        return (long)at;
    long first = (long)at;
    for (long i = first; i >= 0; i = next_nv[i])
        if (c->pkgs[i].source && !strcmp(c->pkgs[i].source, d->source))
            return i;
    const char *h = strchr(d->source, '#');
    size_t hl = h ? (size_t)(h - d->source) : strlen(d->source);
    for (long i = first; i >= 0; i = next_nv[i]) {
        const char *s = c->pkgs[i].source;
        if (s && !strncmp(s, d->source, hl) && (s[hl] == '#' || s[hl] == '\0'))
            return i;
    }
    return -1;
}

/* The purl and location of a record from its source. */
static sb_code identity(cg_ctx *c, sb_pkg *r, const cg_pkg *p)
{
    const char *src = p->source;
    if (NULL == src) {
        r->purl = sb_eco_purl(c->a, SB_KIND_CARGO, r->name, r->version, ".", 0, NULL, 0);
        return r->purl && sb_pkg_reader_prop(r, c->a, "pixi:cargo-source", "path", NULL) == SB_OK ? SB_OK : SB_ENOMEM;
    }
    if (crates_io(src)) {
        r->purl = sb_eco_purl(c->a, SB_KIND_CARGO, r->name, r->version, NULL, 1, NULL, 0);
        return r->purl ? SB_OK : SB_ENOMEM;
    }
    r->location = src;
    if (!strncmp(src, "registry+", 9) || !strncmp(src, "sparse+", 7)) {
        sb_prop q = {"repository_url", src[0] == 'r' ? src + 9 : src + 7};
        r->purl = sb_eco_purl(c->a, SB_KIND_CARGO, r->name, r->version, NULL, 1, &q, 1);
        return r->purl && sb_pkg_reader_prop(r, c->a, "pixi:cargo-source", src, NULL) == SB_OK ? SB_OK : SB_ENOMEM;
    }
    if (!strncmp(src, "git+", 4)) {
        /* the ?rev=/?branch=/?tag= asked for is not part of the commit's identity */
        const char *q = strchr(src, '?'), *h = strchr(src, '#');
        if (q && (NULL == h || q < h)) {
            const char *qe = h ? h : src + strlen(src);
            const char *loc = sb_arena_printf(c->a, "%.*s%s", (int)(q - src), src, h ? h : "");
            const char *ref = sb_arena_strndup(c->a, q + 1, (size_t)(qe - q - 1));
            if (NULL == loc || NULL == ref || sb_pkg_reader_prop(r, c->a, "pixi:cargo-git-ref", ref, NULL) != SB_OK)
                return SB_ENOMEM;
            r->location = loc;
        }
        r->purl = sb_eco_purl(c->a, SB_KIND_CARGO, r->name, r->version, r->location, 0, NULL, 0);
        return r->purl ? SB_OK : SB_ENOMEM;
    }
    /* path+, directory or local registries: not the crates.io identity */
    r->purl = sb_eco_purl(c->a, SB_KIND_CARGO, r->name, r->version, src, 0, NULL, 0);
    return r->purl && sb_pkg_reader_prop(r, c->a, "pixi:cargo-source", src, NULL) == SB_OK ? SB_OK : SB_ENOMEM;
}

static sb_code build(sb_lock **out, cg_ctx *c, sb_err *err)
{
    sb_arena *a = c->a;
    /* the legacy [root] is a package like the others, listed first */
    if (c->root) {
        sb_code rc = SB_OK;
        size_t at = c->n;
        if (NULL == entry(c, at, err, &rc))
            return rc;
        c->pkgs[at] = *c->root;
        c->root = &c->pkgs[at];
    }
    size_t n = c->n;
    for (size_t i = 0; i < n; i++) {
        const cg_pkg *p = &c->pkgs[i];
        if (!p->seen_name || !p->seen_version)
            return sb_err_set_at(err, SB_EPARSE, p->line, p->col, "a package entry without %s",
                                 p->seen_name ? "a version" : "a name");
        if (!p->name[0] || !p->version[0])
            return sb_err_set_at(err, SB_EPARSE, p->line, p->col, "a package entry with an empty %s",
                                 p->name[0] ? "version" : "name");
    }
    sb_strmap by_name, by_nv, by_key;
    long *next_nv = sb_arena_alloc(a, (n ? n : 1) * sizeof *next_nv);
    unsigned char *many_names = sb_arena_calloc(a, n ? n : 1, 1);
    if (NULL == next_nv || NULL == many_names || sb_strmap_init(&by_name, a, n) != SB_OK ||
        sb_strmap_init(&by_nv, a, n) != SB_OK || sb_strmap_init(&by_key, a, n) != SB_OK)
        return oom(err);
    const char **nv = sb_arena_alloc(a, (n ? n : 1) * sizeof *nv);
    if (NULL == nv)
        return oom(err);
    for (size_t i = 0; i < n; i++) {
        if (sb_deadline_tick(&c->dl, err) != SB_OK)
            return SB_ETIMEOUT;
        const cg_pkg *p = &c->pkgs[i];
        size_t had;
        next_nv[i] = -1;
        int r = sb_strmap_put(&by_name, p->name, strlen(p->name), i, &had);
        if (r < 0)
            return oom(err);
        if (r == 1)
            many_names[had] = 1;
        if (NULL == (nv[i] = sb_arena_printf(a, "%s %s", p->name, p->version)))
            return oom(err);
        r = sb_strmap_put(&by_nv, nv[i], strlen(nv[i]), i, &had);
        if (r < 0)
            return oom(err);
        if (r == 1) { /* chain the later one after the first */
            long k = (long)had;
            while (next_nv[k] >= 0)
                k = next_nv[k];
            next_nv[k] = (long)i;
            const cg_pkg *q = &c->pkgs[had];
            if ((NULL == p->source) == (NULL == q->source) && (NULL == p->source || !strcmp(p->source, q->source)))
                return sb_err_set_at(err, SB_EPARSE, p->line, p->col,
                                     "package %.100s %.100s is listed twice (first at line %u)", p->name, p->version,
                                     q->line);
        }
    }
    /* version: as stated (3, 4), or as Cargo infers an unversioned file's */
    int version;
    if (c->version >= 0) {
        if (c->version != 3 && c->version != 4)
            return sb_err_set_at(err, SB_EUNSUPPORTED, c->vline, c->vcol,
                                 "Cargo.lock version %lld is not supported (versions 1 to 4 are); regenerate it "
                                 "with a Cargo that writes version 4 (cargo generate-lockfile)",
                                 c->version);
        version = (int)c->version;
    } else {
        version = c->inline_sums ? 2 : 1;
    }

    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, a, "noarch") : NULL;
    sb_pkg *recs = sb_arena_calloc(a, n ? n : 1, sizeof *recs);
    size_t *indeg = sb_arena_calloc(a, n ? n : 1, sizeof *indeg);
    size_t *seen = sb_arena_calloc(a, n ? n : 1, sizeof *seen);
    if (NULL == lp || NULL == recs || NULL == indeg || NULL == seen)
        return oom(err);
    lk->kind = "Cargo.lock";
    lk->version = version;
    lk->nrecords = n;

    /* keys: name@version, and the source too where two sources share them */
    for (size_t i = 0; i < n; i++) {
        const cg_pkg *p = &c->pkgs[i];
        sb_pkg *r = &recs[i];
        r->kind = SB_KIND_CARGO;
        r->name = p->name;
        r->version = p->version;
        bool shared = next_nv[i] >= 0;
        size_t first;
        if (!shared && sb_strmap_get(&by_nv, nv[i], strlen(nv[i]), &first) && first != i)
            shared = true;
        r->key = shared ? sb_arena_printf(a, "%s@%s (%s)", p->name, p->version, p->source ? p->source : "path")
                        : sb_arena_printf(a, "%s@%s", p->name, p->version);
        if (NULL == r->key)
            return oom(err);
        if (identity(c, r, p) != SB_OK)
            return oom(err);
        if (p->replace && sb_pkg_reader_prop(r, a, "pixi:cargo-replace", p->replace, NULL) != SB_OK)
            return oom(err);
    }
    /* checksums: inline (2+), or [metadata] (1); both is a bad merge, and
     * Cargo then discards every checksum and computes them again */
    bool discard = c->nsums && c->inline_sums;
    for (size_t i = 0; i < n; i++) {
        if (sb_deadline_tick(&c->dl, err) != SB_OK)
            return SB_ETIMEOUT;
        const cg_pkg *p = &c->pkgs[i];
        if (NULL == p->checksum)
            continue;
        sb_code rc = SB_OK;
        const char *h = sha256_hex(c, p->checksum, p->line, p->col, err, &rc);
        if (NULL == h)
            return rc;
        if (discard ? sb_pkg_reader_prop(&recs[i], a, "pixi:cargo-checksum-discarded", h, NULL) != SB_OK
                    : (recs[i].sha256 = h, 0))
            return oom(err);
    }
    for (size_t s = 0; s < c->nsums; s++) {
        if (sb_deadline_tick(&c->dl, err) != SB_OK)
            return SB_ETIMEOUT;
        const cg_sum *cs = &c->sums[s];
        long i = resolve(c, &by_name, &by_nv, next_nv, &cs->id);
        if (i < 0 || !strcmp(cs->value, "<none>"))
            continue;
        sb_code rc = SB_OK;
        const char *h = sha256_hex(c, cs->value, cs->id.line, cs->id.col, err, &rc);
        if (NULL == h)
            return rc;
        if (discard ? sb_pkg_reader_prop(&recs[i], a, "pixi:cargo-checksum-discarded", h, NULL) != SB_OK
                    : (recs[i].sha256 = h, 0))
            return oom(err);
    }
    /* edges */
    for (size_t i = 0; i < n; i++) {
        cg_pkg *p = &c->pkgs[i];
        sb_strb dropped = {0};
        for (size_t d = 0; d < p->ndeps; d++) {
            if (sb_deadline_tick(&c->dl, err) != SB_OK)
                return SB_ETIMEOUT;
            const cg_dep *dp = &p->deps[d];
            long t = resolve(c, &by_name, &by_nv, next_nv, dp);
            if (t >= 0 && NULL == dp->version && many_names[t])
                return sb_err_set_at(err, SB_EPARSE, dp->line, dp->col,
                                     "dependency '%.100s' is ambiguous: the file holds several versions of it",
                                     dp->name);
            if (t < 0) {
                const char *txt = dp->source    ? sb_arena_printf(a, "%s %s (%s)", dp->name, dp->version, dp->source)
                                  : dp->version ? sb_arena_printf(a, "%s %s", dp->name, dp->version)
                                                : dp->name;
                if (NULL == txt || sb_strb_add(&dropped, a, ", ", txt) != SB_OK)
                    return oom(err);
                continue;
            }
            if (seen[t] != i + 1) { /* a dependency written twice is one edge */
                seen[t] = i + 1;
                if (sb_strv_push(&recs[i].depends, a, recs[t].key) != SB_OK)
                    return oom(err);
                if ((size_t)t != i)
                    indeg[t]++;
            }
        }
        if (dropped.s &&
            sb_pkg_reader_prop(&recs[i], a, "pixi:cargo-unresolved-dependencies", dropped.s, NULL) != SB_OK)
            return oom(err);
    }
    /* the root: [root], else the one path package nothing depends on */
    long root = c->root ? (long)(c->root - c->pkgs) : -1;
    size_t tops = 0;
    long top = -1;
    for (size_t i = 0; root < 0 && i < n; i++)
        if (NULL == c->pkgs[i].source && 0 == indeg[i]) {
            tops++;
            top = (long)i;
        }
    if (root < 0 && tops == 1)
        root = top;
    lp->has_root_names = true;
    if (root >= 0) {
        lk->root_name = recs[root].name;
        lk->root_version = recs[root].version;
        lp->root_names = recs[root].depends;
    }
    for (size_t i = 0; i < n; i++) {
        if (sb_deadline_tick(&c->dl, err) != SB_OK)
            return SB_ETIMEOUT;
        if ((long)i == root)
            continue;
        if (root < 0 && NULL == c->pkgs[i].source && sb_strv_push(&lp->root_names, a, recs[i].key) != SB_OK)
            return oom(err);
        if (sb_lock_platform_add(lp, a, &recs[i]) != SB_OK)
            return oom(err);
    }
    /* pixi:direct on what the document root depends on: the root's
     * dependencies, or every path package when no one package is the root */
    for (size_t i = 0; i < n; i++)
        seen[i] = 0;
    if (root >= 0) {
        for (size_t d = 0; d < c->pkgs[root].ndeps; d++) {
            long t = resolve(c, &by_name, &by_nv, next_nv, &c->pkgs[root].deps[d]);
            if (t >= 0 && t != root)
                seen[t] = 1;
        }
    } else {
        for (size_t i = 0; i < n; i++)
            seen[i] = NULL == c->pkgs[i].source;
    }
    /* what no stated edge reaches (its dependents named a version the file
     * does not hold): the model hangs it off the root to keep the graph
     * closed, and pixi:orphan tells that edge from the stated ones */
    for (size_t i = 0; i < n; i++)
        if ((long)i != root &&
            ((seen[i] && sb_pkg_reader_prop(&recs[i], a, "pixi:direct", "true", NULL) != SB_OK) ||
             (!seen[i] && 0 == indeg[i] && sb_pkg_reader_prop(&recs[i], a, "pixi:orphan", "true", NULL) != SB_OK)))
            return oom(err);
    *out = lk;
    return SB_OK;
}

static sb_code cargo_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    cg_ctx c = {0};
    c.a = a;
    c.version = -1;
    c.max_packages = lim->max_packages;
    c.dl = (sb_deadline){lim->deadline_ns, 0, "reading the lockfile"};
    sb_code rc = sb_toml_parse(a, data, len, lim, on_event, &c, err);
    if (rc != SB_OK)
        return rc;
    if (0 == c.n && NULL == c.root && c.version < 0)
        return sb_err_set(err, SB_EPARSE, "not a Cargo.lock: no [[package]] and no version");
    c.dl.what = "resolving the lockfile";
    return build(out, &c, err);
}

static int cargo_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "Cargo.lock"))
            return 2;
    }
    size_t n = len < 65536 ? len : 65536;
    if (sb_lock__has_line(data, n, "# This file is automatically @generated by Cargo."))
        return 1;
    /* a crate entry names its registry by a source no other lockfile writes */
    return sb_lock__has_line(data, n, "[[package]]") && (sb_lock__has_line(data, n, "source = \"registry+") ||
                                                         sb_lock__has_line(data, n, "source = \"sparse+"))
               ? 1
               : 0;
}

/* Memory (loadtest/model-peak.sh): 2,533 B a package for a generated 5.2 MB
 * lock of 20,000, 3,589 B for helix's 275 (9.8x and 14.5x the bytes):
 * 2.5 KB a [[package]] plus 6x the bytes covers both. */
const sb_reader sb_reader_cargo = {.kind = "Cargo.lock",
                                   .detect = cargo_detect,
                                   .read = cargo_read,
                                   .record_line = "[[package]]",
                                   .record_char = 0,
                                   .per_record = 2500,
                                   .per_byte = 6};
