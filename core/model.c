/*
 * model.c - environment/platform selection: from an sb_lock to one sb_sbom.
 *
 * DESIGN: selection copies the records of one environment x platform (each
 * record once), derives what depends on the selection (PyPI index, purls,
 * supplier, pixi:* properties), sorts by (kind, name, version), gives every
 * package a unique id, and resolves dependency names against the packages
 * present: conda names against conda packages, PyPI requirements against
 * PyPI then conda packages, plus every PyPI package -> the conda `python`;
 * a package with a `key` (npm) names its dependencies by key instead.
 * Root edges are the packages nothing depends on; if cycles leave packages
 * unreachable from those, the first unreached package (model order) becomes
 * a root too, until every package is reachable from the document root.
 */
#include "model.h"
#include "pypimap.h"
#include "archive.h"
#include "deadline.h"
#include "enrich.h"
#include "filter.h"
#include "github.h"
#include "health.h"
#include "scorecard.h"
#include "license.h"
#include "manifest.h"
#include "purl.h"
#include "strmap.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *sb_kind_name(sb_kind k)
{
    switch (k) {
    case SB_KIND_CONDA: return "conda";
    case SB_KIND_CONDA_SOURCE: return "conda-source";
    case SB_KIND_PYPI: return "pypi";
    case SB_KIND_EMBEDDED: return "embedded";
    case SB_KIND_EXTERNAL: return "external";
    case SB_KIND_NPM: return "npm";
    }
    return "external";
}

sb_scope sb_scope_merge(sb_scope a, sb_scope b)
{
    if (SB_SCOPE_NONE == a)
        return b;
    if (SB_SCOPE_NONE == b)
        return a;
    return a < b ? a : b;
}

sb_scope sb_scope_crossing(sb_scope from, sb_scope to)
{
    if (SB_SCOPE_NONE == from || SB_SCOPE_NONE == to || SB_SCOPE_REQUIRED == to || from == to)
        return SB_SCOPE_NONE;
    return to;
}

size_t sb_hash_bytes(sb_hash_alg alg)
{
    static const size_t bytes[SB_HASH_N] = {32, 16, 64, 48, 20};
    return alg < SB_HASH_N ? bytes[alg] : 0;
}

const char *sb_hash_to_hex(sb_hash_hex *buf, const unsigned char *b, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        buf->s[2 * i] = hex[b[i] >> 4];
        buf->s[2 * i + 1] = hex[b[i] & 15];
    }
    buf->s[2 * n] = '\0';
    return buf->s;
}

const char *sb_pkg_hash(const sb_pkg *p, sb_hash_alg alg, sb_hash_hex *buf)
{
    switch (alg) {
    case SB_HASH_SHA256: return p->sha256;
    case SB_HASH_MD5: return sb_pkg_xr(p)->md5;
    case SB_HASH_SHA512: return p->sha512b ? sb_hash_to_hex(buf, p->sha512b, 64) : NULL;
    case SB_HASH_SHA384: return p->sha384b ? sb_hash_to_hex(buf, p->sha384b, 48) : NULL;
    case SB_HASH_SHA1: return p->sha1;
    case SB_HASH_N: break;
    }
    return NULL;
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

const unsigned char *sb_hash_keep(sb_arena *a, const unsigned char *b, size_t n)
{
    /* byte-aligned (as a string is): 64 bytes, not up to 79 with padding */
    return (const unsigned char *)sb_arena_strndup(a, (const char *)b, n);
}

const unsigned char *sb_hash_from_hex(sb_arena *a, const char *hex, size_t nbytes)
{
    unsigned char b[64];
    if (NULL == hex || nbytes > sizeof b || strlen(hex) != 2 * nbytes)
        return NULL;
    for (size_t i = 0; i < nbytes; i++) {
        int hi = hex_val(hex[2 * i]), lo = hex_val(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return NULL;
        b[i] = (unsigned char)(hi << 4 | lo);
    }
    return sb_hash_keep(a, b, nbytes);
}

static const sb_pkgx no_x = {.build_number = -1, .size = -1};

sb_pkgx *sb_pkg_x(sb_pkg *p, sb_arena *a)
{
    if (NULL == p->x && NULL != (p->x = sb_arena_alloc(a, sizeof *p->x)))
        *p->x = no_x;
    return p->x;
}

const sb_pkgx *sb_pkg_xr(const sb_pkg *p)
{
    return p->x ? p->x : &no_x;
}

sb_code sb_pkg_prop_insert(sb_pkg *p, sb_arena *a, const char *name, const char *value)
{
    sb_prop *v = sb_arena_alloc(a, (p->nprops + 1) * sizeof *v);
    if (NULL == v)
        return SB_ENOMEM;
    uint32_t at = 0;
    while (at < p->nprops && strcmp(p->props[at].name, name) <= 0)
        at++;
    if (at)
        memcpy(v, p->props, at * sizeof *v);
    v[at].name = name;
    v[at].value = value;
    if (p->nprops > at)
        memcpy(v + at + 1, p->props + at, (p->nprops - at) * sizeof *v);
    p->props = v;
    p->nprops++;
    return SB_OK;
}

sb_code sb_strv_push(sb_strv *sv, sb_arena *a, const char *s)
{
    if (sv->n == sv->cap) {
        if (sv->cap > UINT32_MAX / 2)
            return SB_ELIMIT;
        size_t nc = sv->cap; /* a uint32_t in the struct: kept small */
        const char **nv = sb_arena_grow(a, sv->v, &nc, sv->n, sizeof *nv, 4);
        if (NULL == nv)
            return SB_ENOMEM;
        sv->v = nv;
        sv->cap = (uint32_t)nc;
    }
    sv->v[sv->n++] = s;
    return SB_OK;
}

sb_code sb_strb_add(sb_strb *b, sb_arena *a, const char *sep, const char *piece)
{
    size_t ns = b->len && sep ? strlen(sep) : 0, np = strlen(piece);
    char *s = sb_arena_reserve(a, b->s, &b->cap, b->len, b->len + ns + np + 1, 1, 32);
    if (NULL == s)
        return SB_ENOMEM;
    if (ns)
        memcpy(s + b->len, sep, ns);
    memcpy(s + b->len + ns, piece, np);
    b->len += ns + np;
    s[b->len] = '\0';
    b->s = s;
    return SB_OK;
}

const char *sb_strv_join(const sb_strv *sv, sb_arena *a, const char *sep)
{
    size_t ns = strlen(sep), total = 1;
    for (size_t i = 0; i < sv->n; i++)
        total += strlen(sv->v[i]) + (i ? ns : 0);
    char *s = sb_arena_alloc(a, total), *w = s;
    if (NULL == s)
        return NULL;
    for (size_t i = 0; i < sv->n; i++) {
        if (i) {
            memcpy(w, sep, ns);
            w += ns;
        }
        size_t n = strlen(sv->v[i]);
        memcpy(w, sv->v[i], n);
        w += n;
    }
    *w = '\0';
    return s;
}

sb_lock_env *sb_lock_env_get(sb_lock *l, sb_arena *a, const char *name)
{
    for (size_t i = 0; i < l->nenvs; i++)
        if (!strcmp(l->envs[i].name, name))
            return &l->envs[i];
    sb_lock_env *ne = sb_arena_grow(a, l->envs, &l->cap, l->nenvs, sizeof *ne, 4);
    if (NULL == ne)
        return NULL;
    l->envs = ne;
    sb_lock_env *e = &l->envs[l->nenvs++];
    memset(e, 0, sizeof *e);
    e->name = sb_arena_strdup(a, name);
    return e->name ? e : NULL;
}

sb_lock_platform *sb_lock_platform_get(sb_lock_env *e, sb_arena *a, const char *name)
{
    for (size_t i = 0; i < e->nplatforms; i++)
        if (!strcmp(e->platforms[i].name, name))
            return &e->platforms[i];
    sb_lock_platform *np = sb_arena_grow(a, e->platforms, &e->cap, e->nplatforms, sizeof *np, 4);
    if (NULL == np)
        return NULL;
    e->platforms = np;
    sb_lock_platform *p = &e->platforms[e->nplatforms++];
    memset(p, 0, sizeof *p);
    p->name = sb_arena_strdup(a, name);
    return p->name ? p : NULL;
}

sb_code sb_lock_platform_add(sb_lock_platform *p, sb_arena *a, sb_pkg *pkg)
{
    sb_pkg **np = sb_arena_grow(a, p->pkgs, &p->cap, p->npkgs, sizeof *np, 16);
    if (NULL == np)
        return SB_ENOMEM;
    p->pkgs = np;
    p->pkgs[p->npkgs++] = pkg;
    return SB_OK;
}

const sb_lock_env *sb_lock_find_env(const sb_lock *l, const char *name)
{
    for (size_t i = 0; i < l->nenvs; i++)
        if (!strcmp(l->envs[i].name, name))
            return &l->envs[i];
    return NULL;
}

const sb_lock_platform *sb_lock_find_platform(const sb_lock_env *e, const char *name)
{
    for (size_t i = 0; i < e->nplatforms; i++)
        if (!strcmp(e->platforms[i].name, name))
            return &e->platforms[i];
    return NULL;
}

char *sb_model_pep503(sb_arena *a, const char *name)
{
    size_t n = strlen(name);
    char *d = sb_arena_alloc(a, n + 1);
    if (NULL == d)
        return NULL;
    size_t o = 0;
    int in_sep = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        if (ch == '-' || ch == '_' || ch == '.') {
            if (!in_sep)
                d[o++] = '-';
            in_sep = 1;
        } else {
            d[o++] = (char)tolower((unsigned char)ch);
            in_sep = 0;
        }
    }
    d[o] = '\0';
    return d;
}

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

/* ---- per-package derivations ---- */

/* properties collected in scratch memory, kept at their exact count */
typedef struct props_b {
    sb_prop *v;
    size_t n, cap;
    sb_arena *scratch;
    const char *index_url, *index_host; /* the last index's host: packages share a few */
} props_b;

static sb_code prop(props_b *b, sb_arena *a, const char *name, const char *value)
{
    (void)a; /* the values live in the caller's arena already */
    if (NULL == value || !value[0])
        return SB_OK;
    sb_prop *nv = sb_arena_grow(b->scratch, b->v, &b->cap, b->n, sizeof *nv, 16);
    if (NULL == nv)
        return SB_ENOMEM;
    b->v = nv;
    b->v[b->n].name = name;
    b->v[b->n].value = value;
    b->n++;
    return SB_OK;
}

static int prop_cmp(const void *x, const void *y)
{
    return strcmp(((const sb_prop *)x)->name, ((const sb_prop *)y)->name);
}

static const char *num(sb_arena *a, long long v)
{
    return v < 0 ? NULL : sb_arena_printf(a, "%lld", v);
}

/* host of a URL ("https://pypi.org/simple" -> "pypi.org") */
static const char *url_host(sb_arena *a, const char *url)
{
    const char *p = strstr(url, "://");
    if (NULL == p)
        return NULL;
    p += 3;
    const char *at = NULL;
    size_t n = 0;
    while (p[n] && p[n] != '/' && p[n] != '?' && p[n] != '#') {
        if (p[n] == '@')
            at = p + n;
        n++;
    }
    if (at) {
        n -= (size_t)(at + 1 - p);
        p = at + 1;
    }
    const char *colon = memchr(p, ':', n);
    if (colon)
        n = (size_t)(colon - p);
    return n ? sb_arena_strndup(a, p, n) : NULL;
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && 0 == strcmp(s + n - m, suf);
}

static char *build(sb_arena *a, const char *type, const char *ns, const char *name, const char *version, sb_prop *q,
                   size_t nq)
{
    sb_purl p = {type, ns, name, version, q, nq, NULL};
    char *out = NULL;
    return sb_purl_build(&out, a, &p, NULL) == SB_OK ? out : NULL;
}

sb_lic sb_pkg_lic(const sb_pkg *p, sb_arena *a)
{
    return p->lic ? *p->lic : sb_lic_normalize(a, p->license);
}

/* A URL without its user:password@ part: credentials in a lockfile's URLs
 * (private channels, authenticated indexes) never reach a document. */
static const char *no_userinfo(sb_arena *a, const char *url)
{
    if (NULL == url)
        return NULL;
    const char *auth = strstr(url, "://");
    if (NULL == auth)
        return url;
    auth += 3;
    size_t span = strcspn(auth, "/?#");
    const char *at = memchr(auth, '@', span);
    if (NULL == at)
        return url;
    const char *last;
    while ((last = memchr(at + 1, '@', span - (size_t)(at + 1 - auth))))
        at = last; /* the host follows the last '@' of the authority */
    char *o = sb_arena_alloc(a, strlen(url) + 1);
    if (NULL == o)
        return url;
    size_t k = (size_t)(auth - url);
    memcpy(o, url, k);
    strcpy(o + k, at + 1);
    return o;
}

static sb_code derive_pypi(sb_pkg *p, sb_arena *a, props_b *pb, const sb_lock_env *env)
{
    const char *loc = p->location ? p->location : "";
    /* a pkg:pypi purl carries a version (spec 4); a record without one gets
     * "0", as pixi-sbom substitutes (spec 2.2). The component keeps none. */
    const char *pv = p->version ? p->version : "0";
    sb_code rc = SB_OK;
    if (!strncmp(loc, "git+", 4)) {
        const char *hash = strchr(loc, '#');
        const char *q = strchr(loc, '?');
        const char *rend = q && (!hash || q < hash) ? q : hash ? hash : loc + strlen(loc);
        const char *repo = sb_arena_strndup(a, loc + 4, (size_t)(rend - loc - 4));
        const char *commit = hash && hash[1] ? hash + 1 : NULL;
        /* "owner/repo" as spelled: pkg:github lower-cases both (purl.c) */
        const char *gh = commit && repo ? sb_github_repo(a, repo) : NULL;
        const char *slash = gh ? strchr(gh, '/') : NULL;
        const char *owner = slash ? sb_arena_strndup(a, gh, (size_t)(slash - gh)) : NULL;
        if (owner) {
            p->purl = build(a, "github", owner, slash + 1, commit, NULL, 0);
        } else {
            sb_prop vq = {"vcs_url",
                          commit ? sb_arena_printf(a, "git+%s@%s", repo, commit) : sb_arena_printf(a, "git+%s", repo)};
            p->purl = build(a, "pypi", NULL, sb_model_pep503(pb->scratch, p->name), pv, &vq, 1);
        }
        rc = prop(pb, a, "pixi:direct-url", loc);
        if (rc == SB_OK)
            rc = prop(pb, a, "pixi:source-rev", commit);
        if (rc == SB_OK)
            rc = prop(pb, a, "pixi:source", "true");
    } else if (!strncmp(loc, "direct+", 7)) {
        const char *url = loc + 7;
        p->location = url;
        sb_prop dq = {"download_url", url};
        p->purl = build(a, "generic", NULL, p->name, p->version, &dq, 1);
        rc = prop(pb, a, "pixi:direct-url", url);
        if (rc == SB_OK && !ends_with(url, ".whl"))
            rc = prop(pb, a, "pixi:source", "true");
    } else if (p->location && (!strstr(loc, "://") || !strncmp(loc, "file://", 7))) {
        p->purl = build(a, "generic", NULL, p->name, p->version, NULL, 0);
        rc = prop(pb, a, "pixi:direct-url", loc);
        if (rc == SB_OK && p->editable)
            rc = prop(pb, a, "pixi:editable", "true");
        if (rc == SB_OK && !ends_with(loc, ".whl"))
            rc = prop(pb, a, "pixi:source", "true");
    } else {
        /* an index package; readers that know no URL (poetry, pdm) leave location NULL */
        const char *artifact = p->location ? p->location : p->file_name;
        p->purl = build(a, "pypi", NULL, sb_model_pep503(pb->scratch, p->name), pv, NULL, 0);
        if (NULL == p->index_url && env->indexes.n)
            p->index_url = no_userinfo(a, env->indexes.v[0]);
        if (p->index_url) {
            if (NULL == pb->index_url || strcmp(pb->index_url, p->index_url)) {
                pb->index_url = p->index_url;
                pb->index_host = url_host(a, p->index_url);
            }
            p->supplier_name = pb->index_host;
            p->supplier_url = p->supplier_name ? p->index_url : NULL;
            rc = prop(pb, a, "pixi:index-url", p->index_url);
        }
        if (rc == SB_OK && artifact && !ends_with(artifact, ".whl"))
            rc = prop(pb, a, "pixi:source", "true");
        if (rc == SB_OK && NULL == p->location) /* poetry/pdm: the chosen artifact by name */
            rc = prop(pb, a, "pixi:file-name", p->file_name);
    }
    if (rc == SB_OK)
        rc = prop(pb, a, "pixi:requires-python", p->requires_python);
    return rc;
}

int sb_model_npm_registry(const char *url)
{
    if (NULL == url || (strncmp(url, "https://", 8) && strncmp(url, "http://", 7)))
        return 0;
    size_t n = strcspn(url, "?#");
    const char *dash = strstr(url, "/-/");
    return dash && (size_t)(dash - url) < n && n >= 4 && !strncmp(url + n - 4, ".tgz", 4);
}

/* pkg:<type>/[%40scope/]name@version with optional qualifier */
static const char *npm_purl(sb_arena *a, const char *type, const char *name, const char *version, sb_prop *q)
{
    const char *slash = name[0] == '@' ? strchr(name, '/') : NULL;
    const char *ns = slash ? sb_arena_strndup(a, name, (size_t)(slash - name)) : NULL;
    return build(a, type, ns, slash ? slash + 1 : name, version, q, q ? 1 : 0);
}

/* npm purls (spec 5 table, the purl spec's npm type): a registry package is
 * pkg:npm; git sources carry vcs_url, other tarballs download_url; local
 * folders and workspace members are pkg:generic, never a registry name. */
static sb_code derive_npm(sb_pkg *p, sb_arena *a, props_b *pb)
{
    const char *loc = p->location ? p->location : "";
    if (!strncmp(loc, "git+", 4) || !strncmp(loc, "git:", 4)) {
        const char *hash = strchr(loc, '#');
        const char *commit = hash && hash[1] ? hash + 1 : NULL;
        const char *repo = hash ? sb_arena_strndup(a, loc, (size_t)(hash - loc)) : loc;
        sb_prop q = {"vcs_url", commit ? sb_arena_printf(a, "%s@%s", repo, commit) : repo};
        p->purl = npm_purl(a, "npm", p->name, p->version, &q);
        sb_code rc = prop(pb, a, "pixi:source-rev", commit);
        return rc == SB_OK ? prop(pb, a, "pixi:source", "true") : rc;
    }
    if (p->location && !strstr(loc, "://")) {
        p->purl = npm_purl(a, "generic", p->name, p->version, NULL);
        return prop(pb, a, "pixi:direct-url", loc);
    }
    if (p->location && !sb_model_npm_registry(loc)) {
        sb_prop q = {"download_url", loc};
        p->purl = npm_purl(a, "npm", p->name, p->version, &q);
        return prop(pb, a, "pixi:direct-url", loc);
    }
    p->purl = npm_purl(a, "npm", p->name, p->version, NULL);
    if (p->location) {
        p->supplier_name = url_host(a, loc);
        p->supplier_url = NULL;
    }
    return SB_OK;
}

/* Put the entry's version into a versionless lockfile purl. */
static const char *complete_purl(sb_arena *a, const char *s, const char *version)
{
    sb_purl pu;
    if (NULL == version || sb_purl_parse(&pu, a, s, NULL) != SB_OK || pu.version)
        return s;
    pu.version = version;
    char *out = NULL;
    return sb_purl_build(&out, a, &pu, NULL) == SB_OK ? out : s;
}

/* `pbuf` is one builder reused for every package: only the exact-size copy
 * stays in the arena. */
/* conda-forge by name or by its channel URL's last segment */
static int conda_forge(const sb_pkg *p)
{
    const sb_pkgx *x = sb_pkg_xr(p);
    if (x->channel && !strcmp(x->channel, "conda-forge"))
        return 1;
    const char *u = x->channel_url;
    size_t n = u ? strlen(u) : 0;
    while (n && u[n - 1] == '/')
        n--;
    return n >= 12 && !strncmp(u + n - 12, "/conda-forge", 12);
}

/* A conda-forge binary without a lockfile `purls:` key takes its PyPI
 * identities from the mapping, at the conda version (spec 4). */
static sb_code map_pypi(sb_pkg *p, sb_arena *a, props_b *pb, const sb_select_opts *opts)
{
    if (NULL == opts || NULL == opts->pypi_map || p->kind != SB_KIND_CONDA || p->has_purls_key || NULL == p->version ||
        !conda_forge(p))
        return SB_OK;
    size_t n;
    const char *const *names = sb_pypimap_get(opts->pypi_map, p->name, &n);
    int added = 0;
    for (size_t i = 0; i < n; i++) {
        const char *pp = build(a, "pypi", NULL, sb_model_pep503(a, names[i]), p->version, NULL, 0);
        if (NULL == pp)
            return SB_ENOMEM;
        int dup = !strcmp(pp, p->purl);
        for (size_t k = 0; k < p->extra_purls.n && !dup; k++)
            dup = !strcmp(pp, p->extra_purls.v[k]);
        if (dup)
            continue;
        if (sb_strv_push(&p->extra_purls, a, pp) != SB_OK)
            return SB_ENOMEM;
        added = 1;
    }
    return added ? prop(pb, a, "pixi:pypi-mapping", "file") : SB_OK;
}

/* primary-purl=pypi: the first PyPI identity becomes the purl, the
 * package's own moves to the extra purls in its place (spec 4). */
static void swap_primary(sb_pkg *p)
{
    if (p->kind == SB_KIND_PYPI)
        return;
    for (size_t k = 0; k < p->extra_purls.n; k++)
        if (!strncmp(p->extra_purls.v[k], "pkg:pypi/", 9)) {
            const char *own = p->purl;
            p->purl = p->extra_purls.v[k];
            p->extra_purls.v[k] = own;
            return;
        }
}

static sb_code derive(sb_pkg *p, sb_arena *a, props_b *pbuf, const sb_lock_env *env, const sb_select_opts *opts)
{
    props_b pb = *pbuf;
    pb.n = 0;
    const sb_pkgx *x = sb_pkg_xr(p);
    sb_code rc = SB_OK;
    for (size_t i = 0; rc == SB_OK && i + 1 < p->reader_props.n; i += 2)
        rc = prop(&pb, a, p->reader_props.v[i], p->reader_props.v[i + 1]);
    switch (p->kind) {
    case SB_KIND_CONDA:
        p->purl = sb_purl_conda(a, p->name, p->version, x->build, x->channel, x->subdir, x->archive_type);
        p->supplier_name = x->channel;
        p->supplier_url = x->channel ? x->channel_url : NULL;
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:channel", x->channel);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:channel-url", x->channel_url);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:subdir", x->subdir);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:build", x->build);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:build-number", num(a, x->build_number));
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:file-name", p->file_name);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:size", num(a, x->size));
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:license-family", x->license_family);
        if (rc == SB_OK && p->noarch)
            rc = prop(&pb, a, "pixi:noarch", "true");
        break;
    case SB_KIND_CONDA_SOURCE:
        p->purl = p->version ? sb_purl_conda(a, p->name, p->version, x->build, NULL, x->subdir, NULL)
                             : sb_purl_conda(a, p->name, NULL, NULL, NULL, NULL, NULL);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:identifier-hash", x->identifier_hash);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:subdir", x->subdir);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:build", x->build);
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:license-family", x->license_family);
        if (rc == SB_OK && p->noarch)
            rc = prop(&pb, a, "pixi:noarch", "true");
        break;
    case SB_KIND_PYPI:
        if (rc == SB_OK)
            rc = derive_pypi(p, a, &pb, env);
        break;
    case SB_KIND_NPM:
        if (rc == SB_OK)
            rc = derive_npm(p, a, &pb);
        break;
    default: break;
    }
    if (rc == SB_OK && p->declared_in) {
        rc = prop(&pb, a, "pixi:direct", "true");
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:declared-in", p->declared_in);
    }
    if (rc == SB_OK && p->license) {
        sb_lic lic = sb_pkg_lic(p, a);
        if (lic.raw_rewritten)
            rc = prop(&pb, a, "pixi:license-raw", lic.raw_rewritten);
    }
    if (rc != SB_OK)
        return rc;
    if (x->given_purl) /* an SBOM read back: its identity as it was written (lock_sbom.c) */
        p->purl = x->given_purl;
    if (NULL == p->purl)
        return SB_EINVAL;
    memset(&p->extra_purls, 0, sizeof p->extra_purls);
    for (size_t i = 0; i < x->lock_purls.n; i++) {
        const char *ep = complete_purl(a, x->lock_purls.v[i], p->version);
        if (strcmp(ep, p->purl) && sb_strv_push(&p->extra_purls, a, ep) != SB_OK)
            return SB_ENOMEM;
    }
    if ((rc = map_pypi(p, a, &pb, opts)) != SB_OK)
        return rc;
    p->ref_purl = p->purl;
    if (opts && opts->primary_pypi)
        swap_primary(p);
    if (pb.n)
        qsort(pb.v, pb.n, sizeof *pb.v, prop_cmp);
    /* drop repeated names (a reader prop and a derived one), keep the first */
    size_t o = 0;
    for (size_t i = 0; i < pb.n; i++)
        if (0 == o || strcmp(pb.v[o - 1].name, pb.v[i].name))
            pb.v[o++] = pb.v[i];
    *pbuf = pb; /* keep what it grew to */
    p->props = o ? sb_arena_alloc(a, o * sizeof *p->props) : NULL;
    if (o && NULL == p->props)
        return SB_ENOMEM;
    if (o)
        memcpy(p->props, pb.v, o * sizeof *p->props);
    p->nprops = o;
    return SB_OK;
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
    if ((c = strcmp(a->ref_purl, b->ref_purl)))
        return c;
    return strcmp(a->location ? a->location : "", b->location ? b->location : "");
}


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

/* `by_manifest`: root edges go to the packages a manifest declares
 * (declared_via), plus the graph roots when `plus_graph_roots` (spec 3);
 * otherwise to `declared` names (the lockfile's own roots), else to the
 * graph roots. */
static sb_code resolve_graph(sb_sbom *s, sb_arena *a, sb_arena *scratch, const sb_strv *declared, int by_manifest,
                             int plus_graph_roots, sb_deadline *dl, sb_err *err)
{
    size_t *rank, *byrank;
    if (rank_ids(s, scratch, &rank, &byrank) != SB_OK)
        return SB_ENOMEM;
    /* each map sized for the packages it will hold: an input of one kind
     * must not pay for four maps of all its packages */
    size_t nconda = 0, npypi = 0, nkeys = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        nkeys += NULL != s->pkgs[i].key;
        nconda += s->pkgs[i].kind == SB_KIND_CONDA || s->pkgs[i].kind == SB_KIND_CONDA_SOURCE;
        npypi += s->pkgs[i].kind == SB_KIND_PYPI;
    }
    sb_strmap conda, pypi, conda503, keys; /* keys: npm's name@version(+source) identities */
    if (sb_strmap_init(&conda, scratch, nconda) != SB_OK || sb_strmap_init(&pypi, scratch, npypi) != SB_OK ||
        sb_strmap_init(&conda503, scratch, nconda) != SB_OK || sb_strmap_init(&keys, scratch, nkeys) != SB_OK)
        return SB_ENOMEM;
    size_t python = (size_t)-1;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_pkg *p = &s->pkgs[i];
        if (p->key && sb_strmap_put(&keys, p->key, strlen(p->key), i, NULL) < 0)
            return SB_ENOMEM;
        if (p->kind == SB_KIND_CONDA || p->kind == SB_KIND_CONDA_SOURCE) {
            char *lower = sb_arena_strdup(scratch, p->name);
            char *n503 = sb_model_pep503(scratch, p->name);
            if (NULL == lower || NULL == n503)
                return SB_ENOMEM;
            for (char *c = lower; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            if (sb_strmap_put(&conda, lower, strlen(lower), i, NULL) < 0 ||
                sb_strmap_put(&conda503, n503, strlen(n503), i, NULL) < 0)
                return SB_ENOMEM;
            if (!strcmp(lower, "python") && python == (size_t)-1)
                python = i;
        } else if (p->kind == SB_KIND_PYPI) {
            char *n503 = sb_model_pep503(scratch, p->name);
            if (NULL == n503 || sb_strmap_put(&pypi, n503, strlen(n503), i, NULL) < 0)
                return SB_ENOMEM;
        }
    }
    size_t *indeg = sb_arena_calloc(scratch, s->npkgs ? s->npkgs : 1, sizeof *indeg);
    if (NULL == indeg)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_pkg *p = &s->pkgs[i];
        size_t cap = p->depends.n + 1;
        p->deps = sb_arena_alloc(a, cap * sizeof *p->deps);
        if (NULL == p->deps)
            return SB_ENOMEM;
        p->ndeps = 0;
        for (size_t d = 0; d < p->depends.n; d++) {
            const char *dn = p->depends.v[d];
            size_t t;
            int found = 0;
            if (p->key) {
                found = sb_strmap_get(&keys, dn, strlen(dn), &t);
            } else if (p->kind == SB_KIND_PYPI) {
                found = sb_strmap_get(&pypi, dn, strlen(dn), &t) || sb_strmap_get(&conda503, dn, strlen(dn), &t);
            } else if (strncmp(dn, "__", 2) != 0) {
                found = sb_strmap_get(&conda, dn, strlen(dn), &t);
            }
            if (found && t != i)
                p->deps[p->ndeps++] = t;
        }
        if (p->kind == SB_KIND_PYPI && python != (size_t)-1)
            p->deps[p->ndeps++] = python;
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

/* ---- the manifest (spec 2.13, 3) ---------------------------------------- */

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

/* append `f` to a comma-separated list unless it is there */
static const char *list_add(sb_arena *a, const char *list, const char *f)
{
    if (NULL == list)
        return f;
    size_t fl = strlen(f);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == fl && !memcmp(p, f, n))
            return list;
        p = e ? e + 1 : p + n;
    }
    return sb_arena_printf(a, "%s,%s", list, f);
}

/* Mark what the manifest declares for this environment (before properties
 * are derived), and list declared names the environment lacks. */
static sb_code apply_manifest(sb_sbom *s, sb_arena *a, sb_arena *scratch, const sb_manifest *m)
{
    name_idx conda, conda503, pypi, npm;
    if (idx_init(&conda, scratch, s->npkgs) || idx_init(&conda503, scratch, s->npkgs) ||
        idx_init(&pypi, scratch, s->npkgs) || idx_init(&npm, scratch, s->npkgs))
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        if (p->kind == SB_KIND_CONDA || p->kind == SB_KIND_CONDA_SOURCE) {
            char *lower = sb_arena_strdup(scratch, p->name);
            char *n503 = sb_model_pep503(scratch, p->name);
            if (NULL == lower || NULL == n503)
                return SB_ENOMEM;
            for (char *c = lower; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            if (idx_put(&conda, scratch, lower, i) || idx_put(&conda503, scratch, n503, i))
                return SB_ENOMEM;
        } else if (p->kind == SB_KIND_PYPI) {
            char *n503 = sb_model_pep503(scratch, p->name);
            if (NULL == n503 || idx_put(&pypi, scratch, n503, i))
                return SB_ENOMEM;
        } else if (p->kind == SB_KIND_NPM) {
            if (idx_put(&npm, scratch, p->name, i))
                return SB_ENOMEM;
        }
    }
    sb_strmap missing;
    if (sb_strmap_init(&missing, scratch, m->ndeps) != SB_OK)
        return SB_ENOMEM;
    for (size_t d = 0; d < m->ndeps; d++) {
        const sb_mdep *dep = &m->deps[d];
        if (!sb_manifest_in_env(m, s->environment, dep->feature))
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
            p->declared_in = list_add(a, p->declared_in, dep->feature);
            if (NULL == p->declared_in)
                return SB_ENOMEM;
        }
    }
    return SB_OK;
}

/* Scopes from the manifest's groups and extras (spec 3): reachable from
 * what is required = required; else only via an extra = optional; else only
 * via a group = development. Only beside lockfiles that do not record them:
 * pixi.lock documents carry none, and where the lockfile scoped its packages
 * itself (uv/poetry/pdm groups, conda-lock categories, npm/pnpm dev flags)
 * the locker's word stands - it knows which edges are a workspace member's
 * own development groups, which the resolved graph no longer shows. */
static sb_code manifest_scopes(sb_sbom *s, const sb_lock *lock, const sb_manifest *m, sb_arena *scratch)
{
    if (!strcmp(lock->kind, "pixi.lock") || !strcmp(lock->kind, "conda-lock.yml"))
        return SB_OK;
    int distinguishes = 0, recorded = 0;
    for (size_t d = 0; d < m->ndeps; d++)
        distinguishes |= m->deps[d].scope != SB_SCOPE_REQUIRED &&
                         sb_manifest_in_env(m, s->environment, m->deps[d].feature);
    for (size_t i = 0; i < s->npkgs; i++)
        recorded |= s->pkgs[i].scope != SB_SCOPE_NONE;
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
 * default (linux-64, else an environment's only platform, else "none" for
 * an environment that locks nothing). NULL when there is none. */
static const sb_lock_platform *pick_platform(const sb_lock_env *env, const char *platform)
{
    static const sb_lock_platform none = {.name = "none"};
    if (platform)
        return sb_lock_find_platform(env, platform);
    const sb_lock_platform *plat = sb_lock_find_platform(env, "linux-64");
    if (NULL == plat && env->nplatforms == 1)
        plat = &env->platforms[0];
    if (NULL == plat && env->nplatforms == 0)
        plat = &none; /* an empty document */
    return plat;
}

const sb_lock_platform *sb_model_platform(const sb_lock *lock, const sb_select_opts *opts)
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

/* Whether a license lookup would ask about p: the packages service/lookup.c
 * (wanted) asks for, less those that only lack license files. */
static int would_look_up(const sb_pkg *p, sb_arena *a)
{
    if (p->license && p->license[0])
        return 0;
    if (p->kind == SB_KIND_PYPI)
        return p->version != NULL;
    if (p->kind != SB_KIND_CONDA || NULL == p->location)
        return 0;
    sb_archive_kind ak;
    if (NULL == sb_conda_archive_url(a, "http://offline", p->location, &ak))
        return 0;
    long long size = sb_pkg_xr(p)->size;
    return ak != SB_ARCHIVE_TARBZ2 || (size > 0 && size <= SB_ARCHIVE_TARBZ2_MAX);
}

const char *sb_pkg_license_unknown(const sb_pkg *p)
{
    if (p->license && p->license[0])
        return NULL;
    switch (p->lookup) {
    case SB_LOOKUP_UNASKED: return "the lockfile does not record it: fetch-licenses=true looks it up";
    case SB_LOOKUP_NOT_MADE:
    case SB_LOOKUP_OFF:
        return "the lockfile does not record it and this server makes no lookups: start it with --lookups and ask "
               "fetch-licenses=true (or give conda's --package-cache)";
    case SB_LOOKUP_FAILED: return "its lookup failed or was not answered in time: ask again";
    default: return NULL;
    }
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
 * failure (sb_model_select clears it), so a code set here is the step's. */
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
        if (pkgs[i].kind != SB_KIND_CONDA)
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

/* Normalize licenses (each distinct string once: packages share a handful)
 * and derive purls, suppliers and properties. */
static sb_code finish(sb_pkg *pkgs, size_t n, sb_arena *a, sb_arena *licmem, sb_arena *scratch, const sb_lock_env *env,
                      const sb_select_opts *opts, sb_deadline *dl, sb_err *err)
{
    size_t nlic = 0;
    for (size_t i = 0; i < n; i++)
        nlic += NULL != pkgs[i].license;
    sb_strmap lics;
    if (sb_strmap_init(&lics, licmem, nlic) != SB_OK)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        sb_pkg *p = &pkgs[i];
        p->lic = NULL;
        if (NULL == p->license)
            continue;
        size_t at;
        int dup = sb_strmap_put(&lics, p->license, strlen(p->license), i, &at);
        if (dup < 0)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (dup) {
            p->lic = pkgs[at].lic;
            continue;
        }
        sb_lic *l = sb_arena_alloc(a, sizeof *l);
        if (NULL == l)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        *l = sb_lic_normalize(a, p->license);
        p->lic = l;
    }
    props_b props = {.scratch = scratch};
    for (size_t i = 0; i < n; i++) {
        sb_pkg *p = &pkgs[i];
        sb_code rc = derive(p, a, &props, env, opts);
        if (rc == SB_OK && sb_deadline_tick(dl, err) != SB_OK)
            return SB_ETIMEOUT;
        if (rc == SB_ENOMEM)
            return sb_err_set(err, SB_ENOMEM, "out of memory"); /* derive fails otherwise only for a purl */
        if (rc != SB_OK)
            return sb_err_set(err, SB_EINVAL, "package '%.100s' has no valid purl (empty name?)", p->name);
    }
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
        const char *id = s->pkgs[i].ref_purl;
        if (0 == i || strcmp(id, s->pkgs[i - 1].ref_purl))
            next = 2;
        for (unsigned n = next; sb_strmap_put(&ids, id, strlen(id), i, NULL) == 1; n++) {
            id = sb_arena_printf(a, "%s#dup-%u", s->pkgs[i].ref_purl, n);
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
        return sb_err_set(err, SB_ENOTFOUND, "environment '%.64s' does not lock linux-64; choose a platform: %.120s",
                          env_name, join_platforms(a, env));
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
        p->location = no_userinfo(a, p->location);
        if (p->x) { /* the selection's own copy: the lock stays as read */
            sb_pkgx *x = sb_arena_alloc(a, sizeof *x);
            if (NULL == x)
                return sb_err_set(err, SB_ENOMEM, "out of memory");
            *x = *p->x;
            x->channel_url = no_userinfo(a, x->channel_url);
            p->x = x;
        }
        p->index_url = no_userinfo(a, p->index_url);
    }
    /* what the manifest declares, before properties are derived (and before
     * the filter's copy of the records, which must carry it) */
    sb_code rc;
    if (opts && opts->manifest && (rc = apply_manifest(s, a, scratch, opts->manifest)) != SB_OK)
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
    sb_code grc = resolve_graph(s, a, scratch, plat->has_root_names ? &plat->root_names : NULL, by_manifest,
                                by_manifest && !strcmp(lock->kind, "pixi.lock"), &dl, err);
    if (grc != SB_OK)
        return step_failed(err, grc, "the dependency graph");
    if (by_manifest && (rc = manifest_scopes(s, lock, opts->manifest, scratch)) != SB_OK)
        return step_failed(err, rc, "the manifest's scopes");
    if (filtering) {
        size_t *kept = NULL;
        if ((rc = sb_filter_apply(s, a, opts->filter, raw ? &kept : NULL)) != SB_OK)
            return step_failed(err, rc, "the filter");
        if (raw && (frc = enrich_kept(s, raw, kept, a, scratch, opts, env, &ncache_conda, &ncache_found, &looked, &dl,
                                      err)) != SB_OK)
            return frc;
    }
    if (opts && opts->manifest_problem &&
        (rc = sb_incomplete_add(&s->incomplete, a, "manifest", "%s", opts->manifest_problem)) != SB_OK)
        return step_failed(err, rc, "noting the manifest");
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

sb_code sb_model_select(sb_sbom **out, sb_arena *a, const sb_lock *lock, const sb_select_opts *opts, sb_err *err)
{
    sb_arena *scratch = sb_arena_child(a), *tmp = sb_arena_child(a);
    sb_err_clear(err); /* a code in err is then the failing step's own (step_failed) */
    sb_code rc = scratch && tmp ? select_into(out, a, scratch, &tmp, lock, opts, err)
                                : sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_arena_destroy(tmp);
    sb_arena_destroy(scratch);
    return rc;
}

/* ---- SBOM author --------------------------------------------------------- */

static int author_char_ok(unsigned char c)
{
    return c >= 0x20 && c != 0x7f;
}

int sb_author_parse(sb_author *out, sb_arena *a, const char *s, const char **why)
{
    *why = NULL;
    memset(out, 0, sizeof *out);
    if (NULL == s)
        return *why = "is empty", -1;
    if (!strncmp(s, "Person:", 7)) {
        out->person = true;
        s += 7;
    } else if (!strncmp(s, "Organization:", 13)) {
        s += 13;
    }
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    if (n > 256)
        return *why = "is longer than 256 bytes", -1;
    for (size_t i = 0; i < n; i++)
        if (!author_char_ok((unsigned char)s[i]))
            return *why = "holds a control character", -1;
    const char *open = strchr(s, '(');
    size_t name_len = open ? (size_t)(open - s) : n;
    while (name_len && s[name_len - 1] == ' ')
        name_len--;
    if (0 == name_len)
        return *why = "names no one (\"Person: NAME (EMAIL)\" or \"Organization: NAME (EMAIL)\")", -1;
    if (memchr(s, ')', name_len))
        return *why = "has a ')' in the name", -1;
    if (open) {
        const char *close = strchr(open, ')');
        if (NULL == close || close[1] != '\0' || close == open + 1)
            return *why = "must end with one \"(EMAIL)\"", -1;
        size_t el = (size_t)(close - open - 1);
        const char *at = memchr(open + 1, '@', el);
        if (NULL == at || at == open + 1 || at + 1 == close || memchr(open + 1, ' ', el) || memchr(open + 1, '(', el))
            return *why = "has an e-mail address that is not NAME@DOMAIN", -1;
        out->email = sb_arena_strndup(a, open + 1, el);
        if (NULL == out->email)
            return *why = "could not be stored", -1;
    }
    out->name = sb_arena_strndup(a, s, name_len);
    return out->name ? 0 : (*why = "could not be stored", -1);
}

/* ---- pixi:incomplete: what the document lacks, step by step (model.h) ---- */

sb_code sb_incomplete_add(sb_incomplete *inc, sb_arena *a, const char *step, const char *fmt, ...)
{
    if (inc->n == inc->cap) {
        size_t nc = inc->cap, cd = inc->cap; /* two parallel arrays, grown alike */
        const char **ns = sb_arena_grow(a, inc->step, &nc, inc->n, sizeof *ns, 4);
        const char **nd = sb_arena_grow(a, inc->detail, &cd, inc->n, sizeof *nd, 4);
        if (NULL == ns || NULL == nd)
            return SB_ENOMEM;
        inc->step = ns;
        inc->detail = nd;
        inc->cap = nc;
    }
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    inc->step[inc->n] = step;
    inc->detail[inc->n] = sb_arena_printf(a, "%s: %s", step, buf);
    if (NULL == inc->detail[inc->n])
        return SB_ENOMEM;
    inc->n++;
    return SB_OK;
}

static const char *join_strs(const char *const *v, size_t n, const char *sep, sb_arena *a)
{
    if (0 == n)
        return NULL;
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(v[i]) + strlen(sep);
    char *out = sb_arena_alloc(a, len);
    if (NULL == out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i) {
            memcpy(out + o, sep, strlen(sep));
            o += strlen(sep);
        }
        memcpy(out + o, v[i], strlen(v[i]));
        o += strlen(v[i]);
    }
    out[o] = '\0';
    return out;
}

const char *sb_incomplete_steps(const sb_incomplete *inc, sb_arena *a)
{
    /* each step once, in the order first seen */
    const char **u = inc->n ? sb_arena_alloc(a, inc->n * sizeof *u) : NULL;
    size_t nu = 0;
    for (size_t i = 0; u && i < inc->n; i++) {
        size_t k = 0;
        while (k < nu && strcmp(u[k], inc->step[i]))
            k++;
        if (k == nu)
            u[nu++] = inc->step[i];
    }
    return join_strs(u, nu, ", ", a);
}

const char *sb_incomplete_details(const sb_incomplete *inc, sb_arena *a)
{
    return join_strs(inc->detail, inc->n, "; ", a);
}

/* A detail item starts with one of the stated steps and ": "; a "; " not
 * followed by one is inside an item's own text. */
static int starts_step(const char *item, const char *const *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(steps[i]);
        if (!strncmp(item, steps[i], k) && !strncmp(item + k, ": ", 2))
            return 1;
    }
    return 0;
}

sb_code sb_incomplete_restore(sb_incomplete *inc, sb_arena *a, const char *steps, const char *detail)
{
    inc->n = 0;
    if (NULL == steps || NULL == detail)
        return SB_OK;
    const char *sv[64];
    size_t ns = 0;
    for (const char *s = steps; *s && ns < sizeof sv / sizeof sv[0];) {
        const char *at = strstr(s, ", ");
        size_t n = at ? (size_t)(at - s) : strlen(s);
        if (NULL == (sv[ns++] = sb_arena_strndup(a, s, n)))
            return SB_ENOMEM;
        s = at ? at + 2 : s + n;
    }
    const char *item = detail;
    while (*item) {
        const char *end = item;
        for (;;) { /* the next "; " that starts an item, else the end */
            end = strstr(end, "; ");
            if (NULL == end || starts_step(end + 2, sv, ns))
                break;
            end += 2;
        }
        size_t n = end ? (size_t)(end - item) : strlen(item);
        const char *step = NULL;
        for (size_t i = 0; i < ns && NULL == step; i++)
            if (!strncmp(item, sv[i], strlen(sv[i])) && !strncmp(item + strlen(sv[i]), ": ", 2))
                step = sv[i];
        if (NULL == step) /* a detail that names no stated step: kept whole under the first */
            step = ns ? sv[0] : "unknown";
        size_t nc = inc->cap, cd = inc->cap;
        const char **nst = sb_arena_grow(a, inc->step, &nc, inc->n, sizeof *nst, 4);
        const char **nd = sb_arena_grow(a, inc->detail, &cd, inc->n, sizeof *nd, 4);
        if (NULL == nst || NULL == nd)
            return SB_ENOMEM;
        inc->step = nst;
        inc->detail = nd;
        inc->cap = nc;
        inc->step[inc->n] = step;
        if (NULL == (inc->detail[inc->n] = sb_arena_strndup(a, item, n)))
            return SB_ENOMEM;
        inc->n++;
        item = end ? end + 2 : item + n;
    }
    return SB_OK;
}
