/*
 * lock_composer.c - composer.lock (PHP) into the one environment "default"
 * and platform "noarch" of an sb_lock: Composer locks no platform of the
 * machine it installs on.
 *
 * Paths read (everything else is ignored):
 *   plugin-api-version (Composer 2; absent in Composer 1 locks), aliases[]
 *   packages[] and packages-dev[]: name (or `package` in the oldest locks),
 *     version, source.{type, url, reference}, dist.{type, url, reference,
 *     shasum}, notification-url, license[], require, provide, replace,
 *     type (Composer's package type)
 *
 * What each becomes:
 *  - packages-dev is the development scope, packages the required one;
 *  - the purl is the registry's (pkg:composer/vendor/name@version) unless
 *    the package came from elsewhere: a path repository (dist type "path")
 *    is pkg:generic, a VCS repository with no archive is the registry purl
 *    with vcs_url, and a package whose notification-url names another
 *    Composer repository than packagist.org carries that repository as
 *    repository_url;
 *  - dist.shasum, when present, is the SHA-1 of the dist archive; the
 *    source or dist reference (a commit) is pixi:source-reference;
 *  - the licenses of the array are alternatives (Composer's documentation:
 *    several licenses are a choice), joined with OR;
 *  - edges come from `require`: to the package of that name, else to the
 *    one that provides or replaces it; platform requirements (php, ext-*,
 *    lib-*, composer-*-api, ...) are not packages of the lock and are kept
 *    as pixi:platform-requires. A package's require-dev is never installed
 *    for a dependency and gives no edge.
 * The lock does not say what the project itself requires (composer.json
 * does), so the root's dependencies are what nothing else requires.
 */
#include "ecosystem.h"
#include "json_tree.h"
#include "lock_int.h"
#include "deadline.h"
#include "strmap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct cp_ctx {
    sb_arena *a;
    sb_err *err;
    const sb_limits *lim;
    sb_deadline dl;
    sb_pkg *recs;
    const sb_yn **ents; /* the entry each record was read from */
    size_t n;
    sb_strmap by_key;   /* lower-cased name -> record */
    sb_strmap provided; /* a name provided or replaced -> record */
} cp_ctx;

static sb_code oom(cp_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

/* A member that must be a string when present. */
static sb_code opt_str(cp_ctx *c, const sb_yn *m, const char *key, const char **out)
{
    const sb_yn *v = sb_yn_get(m, key);
    *out = NULL;
    if (NULL == v || (v->type == SB_YN_SCALAR && NULL == v->s))
        return SB_OK;
    if (v->type != SB_YN_SCALAR)
        return sb_err_set_at(c->err, SB_EPARSE, v->line, v->col, "composer.lock: `%s` must be a string", key);
    *out = v->s;
    return SB_OK;
}

/* Composer's platform packages: the interpreter, its extensions and
 * libraries, and Composer's own APIs; none is a package of the lock. */
static int is_platform(const char *name)
{
    return !strcmp(name, "php") || !strncmp(name, "php-", 4) || !strcmp(name, "hhvm") || !strncmp(name, "ext-", 4) ||
           !strncmp(name, "lib-", 4) || !strcmp(name, "composer") || !strcmp(name, "composer-plugin-api") ||
           !strcmp(name, "composer-runtime-api");
}

static int is_hex(const char *s, size_t n)
{
    if (strlen(s) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* "scheme://host" of a URL; NULL when it has none. */
static const char *url_origin(sb_arena *a, const char *url)
{
    const char *h = url ? strstr(url, "://") : NULL;
    if (NULL == h)
        return NULL;
    size_t n = strcspn(h + 3, "/?#");
    return sb_arena_strndup(a, url, (size_t)(h + 3 - url) + n);
}

/* The license array as one expression: alternatives joined with OR. */
static sb_code license_of(cp_ctx *c, sb_pkg *p, const sb_yn *lic)
{
    if (NULL == lic || (lic->type == SB_YN_SCALAR && NULL == lic->s))
        return SB_OK;
    if (lic->type == SB_YN_SCALAR) { /* a string where an array belongs: taken as the one license */
        p->license = lic->s[0] ? lic->s : NULL;
        return SB_OK;
    }
    if (lic->type != SB_YN_SEQ)
        return sb_err_set_at(c->err, SB_EPARSE, lic->line, lic->col,
                             "composer.lock: package '%.64s': `license` must be an array of strings", p->name);
    sb_strb b = {0};
    for (size_t i = 0; i < lic->n; i++) {
        const sb_yn *v = lic->kids[i];
        if (v->type != SB_YN_SCALAR || NULL == v->s)
            return sb_err_set_at(c->err, SB_EPARSE, v->line, v->col,
                                 "composer.lock: package '%.64s': `license` must be an array of strings", p->name);
        if (!v->s[0])
            continue;
        const char *piece = v->s;
        if (lic->n > 1 && strchr(piece, ' ') && piece[0] != '(')
            piece = sb_arena_printf(c->a, "(%s)", piece);
        if (NULL == piece || sb_strb_add(&b, c->a, " OR ", piece) != SB_OK)
            return oom(c);
    }
    p->license = b.s;
    return SB_OK;
}

/* Where the package came from: its location and purl. */
static sb_code origin(cp_ctx *c, sb_pkg *p, const sb_yn *e)
{
    const sb_yn *src = sb_yn_get(e, "source"), *dist = sb_yn_get(e, "dist");
    const char *stype = NULL, *surl = NULL, *sref = NULL, *dtype = NULL, *durl = NULL, *dref = NULL, *shasum = NULL,
               *notify = NULL;
    if (src && src->type == SB_YN_MAP) {
        if (opt_str(c, src, "type", &stype) != SB_OK || opt_str(c, src, "url", &surl) != SB_OK ||
            opt_str(c, src, "reference", &sref) != SB_OK)
            return c->err->code;
    }
    if (dist && dist->type == SB_YN_MAP) {
        if (opt_str(c, dist, "type", &dtype) != SB_OK || opt_str(c, dist, "url", &durl) != SB_OK ||
            opt_str(c, dist, "reference", &dref) != SB_OK || opt_str(c, dist, "shasum", &shasum) != SB_OK)
            return c->err->code;
    }
    if (opt_str(c, e, "notification-url", &notify) != SB_OK)
        return c->err->code;
    const char *oldref = NULL; /* the oldest locks: {package, version, source-reference} */
    if (opt_str(c, e, "source-reference", &oldref) != SB_OK)
        return c->err->code;
    if (shasum && shasum[0]) {
        if (is_hex(shasum, 40)) /* the SHA-1 of the dist archive */
            p->sha1 = sb_arena_strdup_lower(c->a, shasum);
        else if (sb_pkg_reader_prop(p, c->a, "pixi:dist-shasum", shasum, c->err) != SB_OK)
            return SB_ENOMEM;
    }
    const char *ref = sref && sref[0] ? sref : dref && dref[0] ? dref : oldref;
    if (sb_pkg_reader_prop(p, c->a, "pixi:source-reference", ref, c->err) != SB_OK)
        return SB_ENOMEM;
    sb_prop q[1];
    size_t nq = 0;
    const char *loc = NULL;
    int registry = 1;
    if (dtype && !strcmp(dtype, "path")) {
        /* a path repository: a folder beside the project, not a registry package */
        loc = sb_lock__location(c->a, durl && durl[0] ? durl : p->name);
        registry = 0;
    } else if ((NULL == durl || !durl[0]) && surl && surl[0] && stype) {
        /* a VCS repository with no archive: the package is that checkout */
        loc = !strcmp(stype, "git")
                  ? (ref ? sb_arena_printf(c->a, "git+%s#%s", surl, ref) : sb_arena_printf(c->a, "git+%s", surl))
                  : sb_arena_strdup(c->a, surl);
        registry = 0;
    } else {
        loc = durl && durl[0] ? sb_arena_strdup(c->a, durl) : surl && surl[0] ? sb_arena_strdup(c->a, surl) : NULL;
        const char *o = url_origin(c->a, notify);
        if (o && strcmp(o, "https://packagist.org") && strcmp(o, "https://repo.packagist.org"))
            q[nq++] = (sb_prop){"repository_url", o};
    }
    p->location = loc;
    /* vendor and name are case-insensitive: the purl spells them lower-cased */
    p->purl = sb_eco_purl(c->a, SB_KIND_COMPOSER, p->key, p->version, registry ? NULL : loc, registry, q, nq);
    if (NULL == p->purl)
        return oom(c);
    return SB_OK;
}

/* One entry of packages / packages-dev into records[c->n]. */
static sb_code read_entry(cp_ctx *c, const sb_yn *e, sb_scope scope)
{
    if (e->type != SB_YN_MAP)
        return sb_err_set_at(c->err, SB_EPARSE, e->line, e->col, "composer.lock: a package entry must be an object");
    const char *name, *version;
    if (opt_str(c, e, "name", &name) != SB_OK || opt_str(c, e, "version", &version) != SB_OK)
        return c->err->code;
    if (NULL == name && opt_str(c, e, "package", &name) != SB_OK)
        return c->err->code;
    if (NULL == name || !name[0])
        return sb_err_set_at(c->err, SB_EPARSE, e->line, e->col, "composer.lock: a package entry has no name");
    if (NULL == version || !version[0])
        return sb_err_set_at(c->err, SB_EPARSE, e->line, e->col, "composer.lock: package '%.64s' has no version", name);
    sb_pkg *p = &c->recs[c->n];
    p->kind = SB_KIND_COMPOSER;
    p->scope = scope;
    p->name = name;
    p->version = version;
    p->key = sb_arena_strdup_lower(c->a, name);
    if (NULL == p->key)
        return oom(c);
    size_t was;
    int put = sb_strmap_put(&c->by_key, p->key, strlen(p->key), c->n, &was);
    if (put < 0)
        return oom(c);
    if (put == 1)
        return sb_err_set_at(c->err, SB_EPARSE, e->line, e->col,
                             "composer.lock: package '%.64s' is listed twice (first at line %u)", name,
                             c->ents[was]->line);
    c->ents[c->n] = e;
    sb_code rc = origin(c, p, e);
    if (rc == SB_OK)
        rc = license_of(c, p, sb_yn_get(e, "license"));
    const char *type = NULL;
    if (rc == SB_OK)
        rc = opt_str(c, e, "type", &type);
    if (rc == SB_OK)
        rc = sb_pkg_reader_prop(p, c->a, "pixi:composer-type", type, c->err);
    if (rc != SB_OK)
        return rc;
    /* what it provides or replaces stands for it in other packages' requires */
    static const char *const stand_in[] = {"provide", "replace"};
    for (size_t k = 0; k < 2; k++) {
        const sb_yn *m = sb_yn_get(e, stand_in[k]);
        for (size_t i = 0; m && m->type == SB_YN_MAP && i < m->n; i++) {
            if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
                return SB_ETIMEOUT;
            const char *pn = sb_arena_strdup_lower(c->a, sb_yn_key(m, i));
            if (NULL == pn || sb_strmap_put(&c->provided, pn, strlen(pn), c->n, NULL) < 0)
                return oom(c);
        }
    }
    c->n++;
    return SB_OK;
}

/* The edges of record i from its entry's `require`. */
static sb_code edges(cp_ctx *c, size_t i)
{
    sb_pkg *p = &c->recs[i];
    const sb_yn *req = sb_yn_get(c->ents[i], "require");
    if (NULL == req || (req->type == SB_YN_SEQ && req->n == 0)) /* PHP writes an empty object as [] */
        return SB_OK;
    if (req->type != SB_YN_MAP)
        return sb_err_set_at(c->err, SB_EPARSE, req->line, req->col,
                             "composer.lock: package '%.64s': `require` must be an object", p->name);
    sb_strb plat = {0};
    for (size_t d = 0; d < req->n; d++) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *dn = sb_arena_strdup_lower(c->a, sb_yn_key(req, d));
        if (NULL == dn)
            return oom(c);
        if (is_platform(dn)) {
            const sb_yn *v = sb_yn_val(req, d);
            const char *piece = sb_arena_printf(c->a, "%s %s", dn,
                                                v->type == SB_YN_SCALAR && v->s && v->s[0] ? v->s : "*");
            if (NULL == piece || sb_strb_add(&plat, c->a, ", ", piece) != SB_OK)
                return oom(c);
            continue;
        }
        size_t t;
        if (!sb_strmap_get(&c->by_key, dn, strlen(dn), &t) && !sb_strmap_get(&c->provided, dn, strlen(dn), &t))
            continue; /* nothing in the lock satisfies it (an optional stand-in not installed) */
        if (t != i && sb_strv_push(&p->depends, c->a, c->recs[t].key) != SB_OK)
            return oom(c);
    }
    return sb_pkg_reader_prop(p, c->a, "pixi:platform-requires", plat.s, c->err);
}

/* aliases[]: {package, version, alias}: the branch alias a package is also known by. */
static sb_code aliases(cp_ctx *c, const sb_yn *al)
{
    for (size_t i = 0; al && al->type == SB_YN_SEQ && i < al->n; i++) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const sb_yn *e = al->kids[i];
        const char *pkg = sb_yn_str(e, "package"), *alias = sb_yn_str(e, "alias");
        size_t t;
        const char *k = pkg ? sb_arena_strdup_lower(c->a, pkg) : NULL;
        if (k && alias && sb_strmap_get(&c->by_key, k, strlen(k), &t) &&
            sb_pkg_reader_prop(&c->recs[t], c->a, "pixi:composer-alias", alias, c->err) != SB_OK)
            return SB_ENOMEM;
    }
    return SB_OK;
}

static sb_code composer_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                             sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    if (NULL == lim)
        lim = &defaults;
    sb_yn *root;
    sb_code rc = sb_jtree_parse(&root, a, data, len, lim, err, "composer.lock");
    if (rc != SB_OK)
        return rc;
    if (root->type != SB_YN_MAP)
        return sb_err_set_at(err, SB_EPARSE, root->line, root->col, "composer.lock: the document is not an object");
    const sb_yn *pk = sb_yn_get(root, "packages"), *dev = sb_yn_get(root, "packages-dev");
    if (NULL == pk)
        return sb_err_set(err, SB_EPARSE, "not a composer.lock: no `packages` array");
    const sb_yn *lists[2] = {pk, dev};
    for (size_t k = 0; k < 2; k++)
        if (lists[k] && lists[k]->type != SB_YN_SEQ && !(lists[k]->type == SB_YN_SCALAR && NULL == lists[k]->s))
            return sb_err_set_at(err, SB_EPARSE, lists[k]->line, lists[k]->col, "composer.lock: `%s` must be an array",
                                 k ? "packages-dev" : "packages");
    int version = 1;
    const sb_yn *api = sb_yn_get(root, "plugin-api-version");
    if (api) {
        if (api->type != SB_YN_SCALAR || NULL == api->s || !isdigit((unsigned char)api->s[0]))
            return sb_err_set_at(err, SB_EPARSE, api->line, api->col,
                                 "composer.lock: `plugin-api-version` must be a version string");
        long major = strtol(api->s, NULL, 10);
        if (major < 1 || major > 2)
            return sb_err_set_at(err, SB_EUNSUPPORTED, api->line, api->col,
                                 "composer.lock written for plugin API %.32s is not supported (Composer 1 and 2)",
                                 api->s);
        version = (int)major;
    }
    size_t n = (pk->type == SB_YN_SEQ ? pk->n : 0) + (dev && dev->type == SB_YN_SEQ ? dev->n : 0);
    if (n > lim->max_packages)
        return sb_err_set(err, SB_ELIMIT, "composer.lock: %zu packages, more than the limit (%zu)", n,
                          lim->max_packages);
    cp_ctx c = {.a = a, .err = err, .lim = lim, .dl = {lim->deadline_ns, 0, "reading the lockfile"}};
    c.recs = sb_arena_calloc(a, n ? n : 1, sizeof *c.recs);
    c.ents = sb_arena_calloc(a, n ? n : 1, sizeof *c.ents);
    if (NULL == c.recs || NULL == c.ents || sb_strmap_init(&c.by_key, a, n * 2 + 16) != SB_OK ||
        sb_strmap_init(&c.provided, a, 16) != SB_OK)
        return oom(&c);
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; lists[k] && lists[k]->type == SB_YN_SEQ && i < lists[k]->n; i++) {
            if (sb_deadline_tick(&c.dl, err) != SB_OK)
                return SB_ETIMEOUT;
            if ((rc = read_entry(&c, lists[k]->kids[i], k ? SB_SCOPE_DEVELOPMENT : SB_SCOPE_REQUIRED)) != SB_OK)
                return rc;
        }
    }
    for (size_t i = 0; i < c.n; i++)
        if ((rc = edges(&c, i)) != SB_OK)
            return rc;
    if ((rc = aliases(&c, sb_yn_get(root, "aliases"))) != SB_OK)
        return rc;
    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, a, "noarch") : NULL;
    if (NULL == lp)
        return oom(&c);
    lk->kind = "composer.lock";
    lk->version = version;
    lk->nrecords = c.n;
    for (size_t i = 0; i < c.n; i++)
        if (sb_lock_platform_add(lp, a, &c.recs[i]) != SB_OK)
            return oom(&c);
    lp->recs = c.recs;
    *out = lk;
    return SB_OK;
}

static int composer_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "composer.lock"))
            return 2;
    }
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", data[i]))
        i++;
    if (i >= len || data[i] != '{')
        return 0;
    size_t n = len < 4096 ? len : 4096;
    if (memmem(data, n, "\"content-hash\"", 14) || memmem(data, n, "getcomposer.org", 15) ||
        memmem(data, n, "\"plugin-api-version\"", 20))
        return 1;
    /* Composer 1 locks: a `hash` and a `packages` array of entries */
    return memmem(data, n, "\"hash\"", 6) && memmem(data, n, "\"packages\"", 10) &&
           (memmem(data, n, "\"package\"", 9) || memmem(data, n, "\"notification-url\"", 18));
}

const sb_reader sb_reader_composer = {.kind = "composer.lock",
                                      .detect = composer_detect,
                                      .read = composer_read,
                                      .record_line = NULL,
                                      .record_char = 0,
                                      .per_record = 0,
                                      .per_byte = 4};
