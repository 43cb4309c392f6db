/*
 * lock_nuget.c - NuGet's packages.lock.json (versions 1 and 2) into the
 * environment "default" of an sb_lock, one platform per target framework.
 *
 * Paths read (everything else is ignored):
 *   version, dependencies.<framework>.<name>.{type, requested, resolved,
 *   contentHash, dependencies}
 *
 * A framework key is either a target framework ("net8.0",
 * ".NETFramework,Version=v4.6.2") or one with a runtime identifier
 * ("net8.0/linux-x64"). The runtime section lists only what differs for
 * that runtime, so its platform is the framework's packages with the
 * runtime's entries in place of the framework's of the same name: what a
 * restore for that runtime installs.
 *
 * What each entry becomes:
 *  - `type` Direct: a direct dependency of the project (pixi:direct);
 *    Transitive and CentralTransitive (version 2: pinned centrally) are
 *    reached through others; Project is another project of the solution, a
 *    local build, not a package of the feed: pkg:generic, no version;
 *  - `contentHash` is the base64 SHA-512 of the .nupkg; a value that is not
 *    64 bytes of base64 (NuGet's own tests write "TEMPLATE") is not a
 *    digest and is kept as pixi:nuget-content-hash;
 *  - edges from `dependencies` (names are case-insensitive: keys are the
 *    lower-cased names); the root depends on the Direct entries and on the
 *    Project entries no other entry depends on.
 * The default platform (a request naming none) is the newest target
 * framework without a runtime: .NET (5+ and Core) over .NET Standard over
 * .NET Framework, the higher version first.
 */
#include "deadline.h"
#include "ecosystem.h"
#include "json_tree.h"
#include "lock_int.h"
#include "strmap.h"
#include "vercmp.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct ng_ctx {
    sb_arena *a;
    sb_err *err;
    sb_deadline dl;
    size_t nrecords, max;
} ng_ctx;

static sb_code oom(ng_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

/* Standard base64 (with its padding) into out[cap]; the byte count, or -1
 * when it is not base64 or longer than cap. */
static long b64(const char *s, unsigned char *out, size_t cap)
{
    size_t n = strlen(s), o = 0;
    if (n == 0 || n % 4)
        return -1;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v;
        char ch = s[i];
        if (ch >= 'A' && ch <= 'Z')
            v = ch - 'A';
        else if (ch >= 'a' && ch <= 'z')
            v = ch - 'a' + 26;
        else if (ch >= '0' && ch <= '9')
            v = ch - '0' + 52;
        else if (ch == '+')
            v = 62;
        else if (ch == '/')
            v = 63;
        else if (ch == '=' && i >= n - 2 && (i == n - 1 || s[n - 1] == '='))
            break;
        else
            return -1;
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o == cap)
                return -1;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return (long)o;
}

/* A member that must be a string when present. */
static sb_code opt_str(ng_ctx *c, const sb_yn *m, const char *key, const char **out)
{
    const sb_yn *v = sb_yn_get(m, key);
    *out = NULL;
    if (NULL == v || (v->type == SB_YN_SCALAR && NULL == v->s))
        return SB_OK;
    if (v->type != SB_YN_SCALAR)
        return sb_err_set_at(c->err, SB_EPARSE, v->line, v->col, "packages.lock.json: `%s` must be a string", key);
    *out = v->s;
    return SB_OK;
}

/* One entry `name` of a framework into a new record. */
static sb_code read_entry(ng_ctx *c, const char *name, const sb_yn *e, sb_pkg **out)
{
    if (e->type != SB_YN_MAP)
        return sb_err_set_at(c->err, SB_EPARSE, e->line, e->col,
                             "packages.lock.json: the entry of '%.64s' must be an object", name);
    if (++c->nrecords > c->max)
        return sb_err_set_at(c->err, SB_ELIMIT, e->line, e->col,
                             "packages.lock.json: more than %zu package entries (the limit)", c->max);
    const char *type, *requested, *resolved, *hash;
    if (opt_str(c, e, "type", &type) != SB_OK || opt_str(c, e, "requested", &requested) != SB_OK ||
        opt_str(c, e, "resolved", &resolved) != SB_OK || opt_str(c, e, "contentHash", &hash) != SB_OK)
        return c->err->code;
    if (NULL == type)
        return sb_err_set_at(c->err, SB_EPARSE, e->line, e->col, "packages.lock.json: '%.64s' has no `type`", name);
    int project = !strcmp(type, "Project");
    if (!project && (NULL == resolved || !resolved[0]))
        return sb_err_set_at(c->err, SB_EPARSE, e->line, e->col,
                             "packages.lock.json: '%.64s' has no `resolved` version", name);
    sb_pkg *p = sb_arena_calloc(c->a, 1, sizeof *p);
    if (NULL == p)
        return oom(c);
    p->kind = SB_KIND_NUGET;
    p->name = name;
    p->version = project ? NULL : resolved;
    p->key = sb_arena_strdup_lower(c->a, name);
    if (NULL == p->key)
        return oom(c);
    /* a project of the solution is built from source beside this one */
    p->purl = project ? sb_eco_purl(c->a, SB_KIND_NUGET, name, NULL, name, 0, NULL, 0)
                      : sb_eco_purl(c->a, SB_KIND_NUGET, name, resolved, NULL, 1, NULL, 0);
    if (NULL == p->purl)
        return oom(c);
    if (hash && hash[0]) {
        unsigned char d[64];
        if (b64(hash, d, sizeof d) == 64) {
            if (NULL == (p->sha512b = sb_hash_keep(c->a, d, 64)))
                return oom(c);
        } else if (sb_pkg_reader_prop(p, c->a, "pixi:nuget-content-hash", hash, c->err) != SB_OK) {
            return SB_ENOMEM;
        }
    }
    if (sb_pkg_reader_prop(p, c->a, "pixi:nuget-type", type, c->err) != SB_OK ||
        sb_pkg_reader_prop(p, c->a, "pixi:nuget-requested", requested, c->err) != SB_OK)
        return SB_ENOMEM;
    if (!strcmp(type, "Direct") && sb_pkg_reader_prop(p, c->a, "pixi:direct", "true", c->err) != SB_OK)
        return SB_ENOMEM;
    const sb_yn *deps = sb_yn_get(e, "dependencies");
    if (deps && deps->type != SB_YN_MAP)
        return sb_err_set_at(c->err, SB_EPARSE, deps->line, deps->col,
                             "packages.lock.json: '%.64s': `dependencies` must be an object", name);
    for (size_t i = 0; deps && i < deps->n; i++) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *dk = sb_arena_strdup_lower(c->a, sb_yn_key(deps, i));
        if (NULL == dk || sb_strv_push(&p->depends, c->a, dk) != SB_OK)
            return oom(c);
    }
    *out = p;
    return SB_OK;
}

/* Whether a record is a Direct entry (it carries pixi:direct). */
static int is_direct(const sb_pkg *p)
{
    for (size_t i = 0; i + 1 < p->reader_props.n; i += 2)
        if (!strcmp(p->reader_props.v[i], "pixi:direct"))
            return 1;
    return 0;
}

/* The root's dependencies of a platform: its Direct entries and the
 * Project entries nothing else there depends on. */
static sb_code roots(ng_ctx *c, sb_lock_platform *lp)
{
    sb_strmap needed;
    if (sb_strmap_init(&needed, c->a, lp->npkgs * 2 + 16) != SB_OK)
        return oom(c);
    for (size_t i = 0; i < lp->npkgs; i++)
        for (size_t d = 0; d < lp->pkgs[i]->depends.n; d++) {
            if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
                return SB_ETIMEOUT;
            const char *k = lp->pkgs[i]->depends.v[d];
            if (strcmp(k, lp->pkgs[i]->key) && sb_strmap_put(&needed, k, strlen(k), i, NULL) < 0)
                return oom(c);
        }
    lp->has_root_names = true;
    for (size_t i = 0; i < lp->npkgs; i++) {
        const sb_pkg *p = lp->pkgs[i];
        size_t t;
        int root = NULL == p->version ? !sb_strmap_get(&needed, p->key, strlen(p->key), &t) : is_direct(p);
        if (root && sb_strv_push(&lp->root_names, c->a, p->key) != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

/* How new a target framework is, for the default platform: its family
 * (3 .NET 5+ and .NET Core, 2 .NET Standard, 1 .NET Framework, 0 other)
 * and its version in *ver (a pointer into the name). */
static int tfm_rank(const char *t, const char **ver)
{
    static const struct {
        const char *prefix;
        int family;
    } forms[] = {{".NETCoreApp,Version=v", 3},
                 {"netcoreapp", 3},
                 {".NETStandard,Version=v", 2},
                 {"netstandard", 2},
                 {".NETFramework,Version=v", 1}};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        size_t k = strlen(forms[i].prefix);
        if (!strncmp(t, forms[i].prefix, k)) {
            *ver = t + k;
            return forms[i].family;
        }
    }
    if (!strncmp(t, "net", 3) && isdigit((unsigned char)t[3])) {
        *ver = t + 3;
        /* net5.0 and later have a dot; net462 is the .NET Framework */
        return strchr(t, '.') ? 3 : 1;
    }
    *ver = t;
    return 0;
}

/* A framework version as a comparable string: net462 -> 4.6.2. */
static const char *tfm_version(sb_arena *a, const char *v)
{
    size_t n = strspn(v, "0123456789.");
    if (memchr(v, '.', n))
        return sb_arena_strndup(a, v, n);
    char *o = sb_arena_stralloc(a, 2 * n + 1);
    size_t j = 0;
    for (size_t i = 0; o && i < n; i++) {
        if (j)
            o[j++] = '.';
        o[j++] = v[i];
    }
    if (o)
        o[j] = '\0';
    return o;
}

/* The newer of two framework platform names (NULL: none yet). */
static const char *newer_tfm(sb_arena *a, const char *best, const char *t)
{
    if (strchr(t, '/'))
        return best; /* a runtime-specific section */
    if (NULL == best)
        return t;
    const char *vb, *vt;
    int fb = tfm_rank(best, &vb), ft = tfm_rank(t, &vt);
    if (ft != fb)
        return ft > fb ? t : best;
    const char *sb = tfm_version(a, vb), *st = tfm_version(a, vt);
    return sb && st && sb_vercmp_nuget(st, sb) > 0 ? t : best;
}

/* A runtime section's platform: the framework's records below the
 * runtime's own, the runtime's taking their names. */
static sb_code overlay(ng_ctx *c, sb_lock_env *env, size_t at)
{
    sb_lock_platform *lp = &env->platforms[at];
    const char *slash = strchr(lp->name, '/');
    const sb_lock_platform *base = NULL;
    for (size_t i = 0; i < env->nplatforms && NULL == base; i++)
        if (!strncmp(env->platforms[i].name, lp->name, (size_t)(slash - lp->name)) &&
            env->platforms[i].name[slash - lp->name] == '\0')
            base = &env->platforms[i];
    if (NULL == base)
        return SB_OK; /* a runtime without its framework: its own entries only */
    sb_strmap own;
    if (sb_strmap_init(&own, c->a, lp->npkgs * 2 + 16) != SB_OK)
        return oom(c);
    for (size_t i = 0; i < lp->npkgs; i++)
        if (sb_strmap_put(&own, lp->pkgs[i]->key, strlen(lp->pkgs[i]->key), i, NULL) < 0)
            return oom(c);
    size_t t;
    for (size_t i = 0; i < base->npkgs; i++) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_pkg *p = base->pkgs[i];
        if (!sb_strmap_get(&own, p->key, strlen(p->key), &t) && sb_lock_platform_add(lp, c->a, p) != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

static sb_code nuget_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    if (NULL == lim)
        lim = &defaults;
    sb_yn *root;
    sb_code rc = sb_jtree_parse(&root, a, data, len, lim, err, "packages.lock.json");
    if (rc != SB_OK)
        return rc;
    if (root->type != SB_YN_MAP)
        return sb_err_set_at(err, SB_EPARSE, root->line, root->col,
                             "packages.lock.json: the document is not an object");
    const sb_yn *ver = sb_yn_get(root, "version"), *deps = sb_yn_get(root, "dependencies");
    if (NULL == ver)
        return sb_err_set(err, SB_EPARSE, "not a packages.lock.json: no top-level `version`");
    char *end = NULL;
    long v = ver->type == SB_YN_SCALAR && ver->s ? strtol(ver->s, &end, 10) : -1;
    if (NULL == end || *end || v < 0)
        return sb_err_set_at(err, SB_EPARSE, ver->line, ver->col, "packages.lock.json: `version` must be an integer");
    if (v != 1 && v != 2)
        return sb_err_set_at(err, SB_EUNSUPPORTED, ver->line, ver->col,
                             "packages.lock.json version %ld is not supported (versions 1 and 2)", v);
    if (NULL == deps || deps->type != SB_YN_MAP)
        return deps ? sb_err_set_at(err, SB_EPARSE, deps->line, deps->col,
                                    "packages.lock.json: `dependencies` must be an object")
                    : sb_err_set(err, SB_EPARSE, "not a packages.lock.json: no `dependencies`");
    ng_ctx c = {.a = a, .err = err, .dl = {lim->deadline_ns, 0, "reading the lockfile"}, .max = lim->max_packages};
    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    if (NULL == env)
        return oom(&c);
    lk->kind = "packages.lock.json";
    lk->version = (int)v;
    const char *best = NULL;
    for (size_t f = 0; f < deps->n; f++) {
        const char *tfm = sb_yn_key(deps, f);
        const sb_yn *m = sb_yn_val(deps, f);
        if (m->type != SB_YN_MAP)
            return sb_err_set_at(err, SB_EPARSE, m->line, m->col,
                                 "packages.lock.json: target framework '%.64s' must be an object", tfm);
        if (!tfm[0] || sb_lock_find_platform(env, tfm))
            return sb_err_set_at(err, SB_EPARSE, m->line, m->col,
                                 "packages.lock.json: target framework '%.64s' is empty or listed twice", tfm);
        sb_lock_platform *lp = sb_lock_platform_get(env, a, tfm);
        if (NULL == lp)
            return oom(&c);
        for (size_t i = 0; i < m->n; i++) {
            if (sb_deadline_tick(&c.dl, err) != SB_OK)
                return SB_ETIMEOUT;
            sb_pkg *p = NULL;
            if ((rc = read_entry(&c, sb_yn_key(m, i), sb_yn_val(m, i), &p)) != SB_OK)
                return rc;
            if (sb_lock_platform_add(lp, a, p) != SB_OK)
                return oom(&c);
        }
        best = newer_tfm(a, best, lp->name);
    }
    for (size_t f = 0; f < env->nplatforms; f++) {
        if (strchr(env->platforms[f].name, '/') && (rc = overlay(&c, env, f)) != SB_OK)
            return rc;
        if ((rc = roots(&c, &env->platforms[f])) != SB_OK)
            return rc;
    }
    env->default_platform = best;
    lk->nrecords = c.nrecords;
    *out = lk;
    return SB_OK;
}

/* By content: a JSON object whose first members are `version` (a number)
 * and `dependencies`, an object of target frameworks. */
static int nuget_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        size_t n = strlen(base);
        if (!strcmp(base, "packages.lock.json") || (n > 19 && !strcmp(base + n - 19, ".packages.lock.json")))
            return 2;
    }
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", data[i]))
        i++;
    if (i >= len || data[i] != '{')
        return 0;
    size_t n = len < 4096 ? len : 4096;
    const char *v = memmem(data, n, "\"version\"", 9), *d = memmem(data, n, "\"dependencies\"", 14);
    if (NULL == v || NULL == d || d < v || memmem(data, n, "\"lockfileVersion\"", 17))
        return 0;
    const char *q = v + 9;
    while (q < data + n && strchr(" \t\r\n:", *q))
        q++;
    if (q >= data + n || !isdigit((unsigned char)*q))
        return 0;
    q = d + 14;
    while (q < data + n && strchr(" \t\r\n:", *q))
        q++;
    if (q >= data + n || *q != '{')
        return 0;
    q++;
    while (q < data + n && strchr(" \t\r\n", *q))
        q++;
    return q < data + n && (*q == '}' || *q == '"');
}

const sb_reader sb_reader_nuget = {.kind = "packages.lock.json",
                                   .detect = nuget_detect,
                                   .read = nuget_read,
                                   .record_line = NULL,
                                   .record_char = 0,
                                   .per_record = 0,
                                   .per_byte = 5};
