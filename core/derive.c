/*
 * derive.c - what a selected package's identity and provenance read as
 * (see derive.h): its license normalized (each distinct string once), its
 * purls (the primary one, the lockfile's own and the PyPI mapping's),
 * supplier, and its pixi:* properties sorted by name; and URLs without the
 * credentials a lockfile may carry.
 */
#include "derive.h"
#include "ecosystem.h"
#include "github.h"
#include "license.h"
#include "purl.h"
#include "pypimap.h"
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

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

/* v in decimal, NULL when negative (absent). Written by hand: it runs for
 * every package, and sb_arena_printf formats twice (measure, then write). */
static const char *num(sb_arena *a, long long v)
{
    if (v < 0)
        return NULL;
    char tmp[24];
    size_t n = 0;
    unsigned long long u = (unsigned long long)v;
    do
        tmp[sizeof tmp - ++n] = (char)('0' + u % 10);
    while (u /= 10);
    return sb_arena_strndup(a, tmp + sizeof tmp - n, n);
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

const char *sb_derive_no_userinfo(sb_arena *a, const char *url)
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
    char *o = sb_arena_stralloc(a, strlen(url) + 1);
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
    /* a pkg:pypi purl carries a version; a record without one gets
     * "0", as pixi-sbom substitutes. The component keeps none. */
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
            p->index_url = sb_derive_no_userinfo(a, env->indexes.v[0]);
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

/* pkg:<type>/[%40scope/]name@version with optional qualifier */
static const char *npm_purl(sb_arena *a, const char *type, const char *name, const char *version, sb_prop *q)
{
    const char *slash = name[0] == '@' ? strchr(name, '/') : NULL;
    const char *ns = slash ? sb_arena_strndup(a, name, (size_t)(slash - name)) : NULL;
    return build(a, type, ns, slash ? slash + 1 : name, version, q, q ? 1 : 0);
}

/* npm purls (the purl spec's npm type): a registry package is
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

/* An ecosystem whose reader sets the purl (sb_eco_purl): the registry
 * purl when it did not, and the row's registry as the supplier of a
 * package that is the registry's (no vcs_url, download_url or generic). */
static void derive_reader(sb_pkg *p, sb_arena *a, const sb_ecosystem *eco)
{
    if (sb_pkg_xr(p)->given_purl) /* an SBOM read back: its identity and supplier as stated */
        return;
    if (NULL == p->purl)
        p->purl = sb_eco_purl(a, p->kind, p->name, p->version, p->location, NULL == p->location, NULL, 0);
    if (NULL == p->purl || NULL == eco->registry)
        return;
    size_t tl = strlen(eco->purl_type);
    if (strncmp(p->purl, "pkg:", 4) || strncmp(p->purl + 4, eco->purl_type, tl) || p->purl[4 + tl] != '/' ||
        strstr(p->purl, "vcs_url=") || strstr(p->purl, "download_url=") || strstr(p->purl, "repository_url="))
        return;
    p->supplier_name = eco->registry;
    p->supplier_url = eco->registry_url;
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
 * identities from the mapping, at the conda version. */
static sb_code map_pypi(sb_pkg *p, sb_arena *a, props_b *pb, const sb_derive_opts *opts)
{
    if (NULL == opts || NULL == opts->pypi_map || !sb_eco_is(p->kind, SB_ECO_CHANNEL) || p->has_purls_key ||
        NULL == p->version || !conda_forge(p))
        return SB_OK;
    size_t n;
    const char *const *names = sb_pypimap_get(opts->pypi_map, p->name, &n);
    int added = 0;
    for (size_t i = 0; i < n; i++) {
        const char *pp = build(a, "pypi", NULL, sb_model_pep503(a, names[i]), p->version, NULL, 0);
        if (NULL == pp)
            return SB_ENOMEM;
        const sb_strv *more = &sb_pkg_xr(p)->extra_purls;
        int dup = !strcmp(pp, p->purl);
        for (size_t k = 0; k < more->n && !dup; k++)
            dup = !strcmp(pp, more->v[k]);
        if (dup)
            continue;
        sb_pkgx *x = sb_pkg_x(p, a);
        if (NULL == x || sb_strv_push(&x->extra_purls, a, pp) != SB_OK)
            return SB_ENOMEM;
        added = 1;
    }
    return added ? prop(pb, a, "pixi:pypi-mapping", "file") : SB_OK;
}

/* primary-purl=pypi: the first PyPI identity becomes the purl, the
 * package's own moves to the extra purls in its place. */
static void swap_primary(sb_pkg *p)
{
    if (sb_eco_is(p->kind, SB_ECO_PYPI_INDEX) || NULL == p->x)
        return;
    sb_pkgx *x = p->x;
    for (size_t k = 0; k < x->extra_purls.n; k++)
        if (!strncmp(x->extra_purls.v[k], "pkg:pypi/", 9)) {
            const char *own = p->purl;
            p->purl = x->extra_purls.v[k];
            x->extra_purls.v[k] = own;
            x->ref_purl = own;
            return;
        }
}

/* `pbuf` is one builder reused for every package: only the exact-size copy
 * stays in the arena. */
static sb_code derive(sb_pkg *p, sb_arena *a, props_b *pbuf, const sb_lock_env *env, const sb_derive_opts *opts)
{
    props_b pb = *pbuf;
    pb.n = 0;
    const sb_pkgx *x = sb_pkg_xr(p);
    sb_code rc = SB_OK;
    for (size_t i = 0; rc == SB_OK && i + 1 < p->reader_props.n; i += 2)
        rc = prop(&pb, a, p->reader_props.v[i], p->reader_props.v[i + 1]);
    const sb_ecosystem *eco = sb_eco(p->kind);
    switch (eco->purl) {
    case SB_PURL_CONDA:
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
    case SB_PURL_CONDA_SOURCE:
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
    case SB_PURL_PYPI:
        if (rc == SB_OK)
            rc = derive_pypi(p, a, &pb, env);
        break;
    case SB_PURL_NPM:
        if (rc == SB_OK)
            rc = derive_npm(p, a, &pb);
        break;
    case SB_PURL_READER: derive_reader(p, a, eco); break;
    case SB_PURL_GIVEN: break;
    }
    if (rc == SB_OK && sb_pkg_xr(p)->declared_in) {
        rc = prop(&pb, a, "pixi:direct", "true");
        if (rc == SB_OK)
            rc = prop(&pb, a, "pixi:declared-in", p->x->declared_in);
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
    if (p->x) { /* derived again after a filter: from nothing */
        memset(&p->x->extra_purls, 0, sizeof p->x->extra_purls);
        p->x->ref_purl = NULL;
    }
    for (size_t i = 0; i < x->lock_purls.n; i++) {
        const char *ep = complete_purl(a, x->lock_purls.v[i], p->version);
        if (strcmp(ep, p->purl) && sb_strv_push(&p->x->extra_purls, a, ep) != SB_OK)
            return SB_ENOMEM;
    }
    if ((rc = map_pypi(p, a, &pb, opts)) != SB_OK)
        return rc;
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

sb_code sb_derive_pkgs(sb_pkg *pkgs, size_t n, sb_arena *a, sb_arena *licmem, sb_arena *scratch, const sb_lock_env *env,
                       const sb_derive_opts *opts, sb_deadline *dl, sb_err *err)
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
