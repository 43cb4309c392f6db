/*
 * lock_pub.c - pubspec.lock (Dart and Flutter) into the one environment
 * "default" and platform "noarch" of an sb_lock.
 *
 * Paths read (everything else is ignored):
 *   packages.<name>.{dependency, description, source, version}, sdks
 *
 * What each package becomes, by its source:
 *  - hosted: pkg:pub/name@version; description.sha256 (newer locks) is the
 *    SHA-256 of the package archive; a host other than pub.dev (or its old
 *    name pub.dartlang.org) is the purl's repository_url;
 *  - git: the purl with vcs_url (description.url at resolved-ref), the
 *    requested ref and the path inside the repository as properties;
 *  - path: pkg:generic, the path as its location;
 *  - sdk: a package of the Flutter SDK (flutter, flutter_test...), not of
 *    any repository: pkg:generic, the SDK named by pixi:pub-sdk.
 * `dependency` says which are direct ("direct main", "direct dev",
 * "direct overridden": the root's dependencies; dev ones in the
 * development scope) and which transitive. The lock states no edges
 * between packages, so the document says their dependencies are not known.
 */
#include "deadline.h"
#include "ecosystem.h"
#include "lock_int.h"
#include "strmap.h"
#include "yaml_tree.h"

#include <ctype.h>
#include <string.h>

typedef struct pub_ctx {
    sb_arena *a;
    sb_err *err;
} pub_ctx;

static sb_code oom(pub_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
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

/* The string under `key` of a map; an error when present and not a string. */
static sb_code str_of(pub_ctx *c, const sb_yn *m, const char *key, const char **out)
{
    const sb_yn *v = sb_yn_get(m, key);
    *out = NULL;
    if (v && v->type != SB_YN_SCALAR)
        return sb_err_set_at(c->err, SB_EPARSE, v->line, v->col, "pubspec.lock: `%s` must be a string", key);
    *out = v ? v->s : NULL;
    return SB_OK;
}

static sb_code source_of(pub_ctx *c, sb_pkg *p, const char *source, const sb_yn *desc)
{
    const char *url = NULL, *sha = NULL, *ref = NULL, *resolved = NULL, *path = NULL;
    if (desc && desc->type == SB_YN_MAP) {
        if (str_of(c, desc, "url", &url) != SB_OK || str_of(c, desc, "sha256", &sha) != SB_OK ||
            str_of(c, desc, "ref", &ref) != SB_OK || str_of(c, desc, "resolved-ref", &resolved) != SB_OK ||
            str_of(c, desc, "path", &path) != SB_OK)
            return c->err->code;
    }
    if (sha && sha[0]) {
        if (!is_hex(sha, 64))
            return sb_err_set_at(c->err, SB_EPARSE, desc->line, desc->col,
                                 "pubspec.lock: package '%.64s': sha256 is not 64 hex digits", p->name);
        p->sha256 = sb_arena_strdup_lower(c->a, sha);
    }
    sb_prop q[1];
    size_t nq = 0;
    const char *loc = NULL;
    int registry = 1;
    if (!strcmp(source, "hosted")) {
        if (url && strcmp(url, "https://pub.dev") && strcmp(url, "https://pub.dartlang.org"))
            q[nq++] = (sb_prop){"repository_url", url};
    } else if (!strcmp(source, "git")) {
        if (NULL == url || !url[0])
            return sb_err_set_at(c->err, SB_EPARSE, desc ? desc->line : 0, desc ? desc->col : 0,
                                 "pubspec.lock: git package '%.64s' has no url", p->name);
        loc = resolved && resolved[0] ? sb_arena_printf(c->a, "git+%s#%s", url, resolved)
                                      : sb_arena_printf(c->a, "git+%s", url);
        registry = 0;
        if (sb_pkg_reader_prop(p, c->a, "pixi:git-ref", ref, c->err) != SB_OK ||
            sb_pkg_reader_prop(p, c->a, "pixi:git-path", path && strcmp(path, ".") ? path : NULL, c->err) != SB_OK)
            return SB_ENOMEM;
    } else if (!strcmp(source, "path")) {
        loc = sb_lock__location(c->a, path && path[0] ? path : p->name);
        registry = 0;
    } else if (!strcmp(source, "sdk")) {
        /* from the SDK itself: no repository has it */
        const char *sdk = desc && desc->type == SB_YN_SCALAR ? desc->s : NULL;
        if (sb_pkg_reader_prop(p, c->a, "pixi:pub-sdk", sdk ? sdk : "unknown", c->err) != SB_OK)
            return SB_ENOMEM;
        p->purl = sb_eco_purl(c->a, SB_KIND_PUB, p->name, p->version, p->name, 0, NULL, 0);
        return p->purl ? SB_OK : oom(c);
    } else {
        return sb_err_set(c->err, SB_EPARSE, "pubspec.lock: package '%.64s' has an unknown source '%.32s'", p->name,
                          source);
    }
    if (NULL == loc && !registry)
        return oom(c);
    p->location = loc;
    p->purl = sb_eco_purl(c->a, SB_KIND_PUB, sb_arena_strdup_lower(c->a, p->name), p->version, loc, registry, q, nq);
    return p->purl ? SB_OK : oom(c);
}

static sb_code pub_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    if (NULL == lim)
        lim = &defaults;
    sb_yn **docs;
    size_t nd;
    sb_code rc = sb_yt_parse(&docs, &nd, a, data, len, lim, err);
    if (rc != SB_OK)
        return rc;
    if (nd != 1 || docs[0]->type != SB_YN_MAP)
        return sb_err_set(err, SB_EPARSE, "pubspec.lock: not one YAML mapping");
    const sb_yn *root = docs[0], *pk = sb_yn_get(root, "packages");
    if (NULL == pk)
        return sb_err_set(err, SB_EPARSE, "not a pubspec.lock: no `packages`");
    if (pk->type == SB_YN_SCALAR && (NULL == pk->s || !strcmp(pk->s, "{}")))
        pk = NULL; /* a project with no dependency at all */
    else if (pk->type != SB_YN_MAP)
        return sb_err_set_at(err, SB_EPARSE, pk->line, pk->col, "pubspec.lock: `packages` must be a mapping");
    size_t n = pk ? pk->n : 0;
    if (n > lim->max_packages)
        return sb_err_set(err, SB_ELIMIT, "pubspec.lock: %zu packages, more than the limit (%zu)", n,
                          lim->max_packages);
    pub_ctx c = {a, err};
    sb_deadline dl = {lim->deadline_ns, 0, "reading the lockfile"};
    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, a, "noarch") : NULL;
    sb_pkg *recs = sb_arena_calloc(a, n ? n : 1, sizeof *recs);
    sb_strmap seen;
    if (NULL == lp || NULL == recs || sb_strmap_init(&seen, a, n * 2 + 16) != SB_OK)
        return oom(&c);
    lk->kind = "pubspec.lock";
    lk->version = 1;
    lk->no_dep_data = true;
    lp->has_root_names = true;
    for (size_t i = 0; i < n; i++) {
        if (sb_deadline_tick(&dl, err) != SB_OK)
            return SB_ETIMEOUT;
        const char *name = sb_yn_key(pk, i);
        const sb_yn *e = sb_yn_val(pk, i);
        if (NULL == name || !name[0])
            return sb_err_set_at(err, SB_EPARSE, e->line, e->col, "pubspec.lock: a package without a name");
        if (e->type != SB_YN_MAP)
            return sb_err_set_at(err, SB_EPARSE, e->line, e->col, "pubspec.lock: package '%.64s' must be a mapping",
                                 name);
        int put = sb_strmap_put(&seen, name, strlen(name), i, NULL);
        if (put < 0)
            return oom(&c);
        if (put == 1) /* a repeated key: pub never writes one */
            return sb_err_set_at(err, SB_EPARSE, e->line, e->col, "pubspec.lock: package '%.64s' listed twice", name);
        const char *dep, *source, *version;
        if (str_of(&c, e, "dependency", &dep) != SB_OK || str_of(&c, e, "source", &source) != SB_OK ||
            str_of(&c, e, "version", &version) != SB_OK)
            return err->code;
        if (NULL == version || !version[0] || NULL == source)
            return sb_err_set_at(err, SB_EPARSE, e->line, e->col, "pubspec.lock: package '%.64s' has no %s", name,
                                 source ? "version" : "source");
        sb_pkg *p = &recs[i];
        p->kind = SB_KIND_PUB;
        p->name = name;
        p->version = version;
        p->key = name;
        if ((rc = source_of(&c, p, source, sb_yn_get(e, "description"))) != SB_OK)
            return rc;
        if (sb_pkg_reader_prop(p, c.a, "pixi:pub-dependency", dep, c.err) != SB_OK)
            return SB_ENOMEM;
        if (dep && !strncmp(dep, "direct ", 7)) {
            p->scope = !strcmp(dep, "direct dev") ? SB_SCOPE_DEVELOPMENT : SB_SCOPE_REQUIRED;
            if (sb_pkg_reader_prop(p, c.a, "pixi:direct", "true", c.err) != SB_OK ||
                sb_strv_push(&lp->root_names, a, p->key) != SB_OK)
                return oom(&c);
        }
        if (sb_lock_platform_add(lp, a, p) != SB_OK)
            return oom(&c);
    }
    lp->recs = recs;
    lk->nrecords = n;
    *out = lk;
    return SB_OK;
}

static int pub_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "pubspec.lock"))
            return 2;
    }
    if (sb_lock__has_line(data, len, "# Generated by pub"))
        return 1;
    return sb_lock__has_line(data, len, "packages:") && sb_lock__has_line(data, len, "sdks:");
}

const sb_reader sb_reader_pub = {.kind = "pubspec.lock",
                                 .detect = pub_detect,
                                 .read = pub_read,
                                 .record_line = NULL,
                                 .record_char = 0,
                                 .per_record = 0,
                                 .per_byte = 8};
