/*
 * lock_npm.c - package-lock.json and npm-shrinkwrap.json, lockfileVersion 1,
 * 2 and 3, into an sb_jsl (lock_js.h).
 *
 * Paths read (everything else is ignored):
 *   lockfileVersion, name, version
 *   v2/v3: packages.<path>.{name, version, resolved, integrity, license, link,
 *          dev, optional, devOptional, peer, dependencies, optionalDependencies,
 *          peerDependencies, devDependencies (root and workspace folders only)}
 *   v1:    dependencies.<name>.{version, resolved, integrity, dev, optional,
 *          requires, dependencies (nested, the same shape)}
 * Both shapes become one table of install paths ("node_modules/a/node_modules/b");
 * a dependency resolves the way Node does: the nearest <dir>/node_modules/<name>
 * walking up from the dependent's path. `link: true` entries stand for their
 * target folder (workspace members). The "" entry is the document root.
 *
 * jansson builds the whole tree: package-lock.json is a single JSON object
 * whose sections are not ordered for streaming.
 */
#include "lock_int.h"
#include "lock_js.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct npm_ent {
    const char *path;
    json_t *obj;
    const char *link;      /* link target path, for `link: true` */
    sb_js_pkg *pkg;        /* NULL: not installed (no version), the root, or a link */
    bool folder;           /* not under node_modules: the root or a workspace folder */
} npm_ent;

typedef struct npm_ctx {
    sb_arena *a;
    sb_err *err;
    const sb_limits *lim;
    sb_jsl l;
    npm_ent *ents;
    size_t n, cap;
    sb_strmap by_path;
    char *scratch;         /* candidate paths while resolving */
    size_t scratch_cap;
} npm_ctx;

static sb_code oom(npm_ctx *c) { return sb_err_set(c->err, SB_ENOMEM, "out of memory"); }

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int jtrue(json_t *o, const char *k) { return json_is_true(json_object_get(o, k)); }

static const char *dup(npm_ctx *c, const char *s) { return s ? sb_arena_strdup(c->a, s) : NULL; }

static npm_ent *ent_add(npm_ctx *c, const char *path, json_t *obj)
{
    npm_ent *nv = sb_arena_grow(c->a, c->ents, &c->cap, c->n, sizeof *nv, 256);
    if (NULL == nv)
        return NULL;
    c->ents = nv;
    if (sb_strmap_put(&c->by_path, path, strlen(path), c->n, NULL) < 0)
        return NULL;
    npm_ent *e = &c->ents[c->n++];
    memset(e, 0, sizeof *e);
    e->path = path;
    e->obj = obj;
    return e;
}

/* The name an install path stands for: after its last "node_modules/". */
static const char *install_name(const char *path)
{
    const char *best = NULL;
    for (const char *p = path; (p = strstr(p, "node_modules/")); p += 13)
        if (p == path || p[-1] == '/')
            best = p + 13;
    return best;
}

static sb_js_scope entry_scope(json_t *o)
{
    if (jtrue(o, "dev"))
        return SB_JS_DEV;
    if (jtrue(o, "devOptional"))
        return SB_JS_DEV_OPTIONAL;
    if (jtrue(o, "optional"))
        return SB_JS_OPTIONAL;
    if (jtrue(o, "peer"))
        return SB_JS_PEER;
    return SB_JS_REQUIRED;
}

/* "github:owner/repo#commit" (and gitlab:, bitbucket:) as the git URL it
 * stands for; NULL for anything else. */
static const char *git_shorthand(npm_ctx *c, const char *s)
{
    static const char *const hosts[][2] = {{"github:", "github.com"}, {"gitlab:", "gitlab.com"},
                                           {"bitbucket:", "bitbucket.org"}};
    for (size_t i = 0; i < sizeof hosts / sizeof *hosts; i++) {
        size_t pl = strlen(hosts[i][0]);
        if (strncmp(s, hosts[i][0], pl))
            continue;
        const char *hash = strchr(s, '#');
        size_t rl = hash ? (size_t)(hash - s - pl) : strlen(s + pl);
        return sb_arena_printf(c->a, "git+https://%s/%.*s.git%s", hosts[i][1], (int)rl, s + pl, hash ? hash : "");
    }
    return NULL;
}

/* Where a package comes from: NULL for a registry tarball (or none), else
 * the location that is part of its identity. */
static const char *entry_source(npm_ctx *c, npm_ent *e, const char *resolved)
{
    if (e->folder)
        return sb_lock__location(c->a, e->path);
    if (NULL == resolved || sb_model_npm_registry(resolved))
        return NULL;
    const char *git = git_shorthand(c, resolved);
    if (git)
        return git;
    /* sb_lock__location hands back a URL unchanged; this one lives in
     * the jansson tree, freed before the model is used, so copy it first */
    if (!strncmp(resolved, "file:", 5))
        return sb_lock__location(c->a, dup(c, resolved + 5));
    if (strstr(resolved, "://") || !strncmp(resolved, "git+", 4))
        return dup(c, resolved);
    return sb_lock__location(c->a, resolved); /* a relative path */
}

static sb_code take_pkg(npm_ctx *c, npm_ent *e, const char *name, const char *version, const char *resolved,
                        const char *alias)
{
    const char *source = entry_source(c, e, resolved);
    bool added;
    sb_code code;
    sb_js_pkg *p = sb_jsl_get(&c->l, c->a, dup(c, name), dup(c, version), source, &added, &code);
    if (NULL == p)
        return code == SB_ELIMIT ? sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages)
                                 : oom(c);
    e->pkg = p;
    sb_js_scope_merge(p, entry_scope(e->obj));
    if (sb_strv_push(&p->paths, c->a, e->path) != SB_OK)
        return oom(c);
    if (!added)
        return SB_OK;
    p->rec.location = source ? source : dup(c, resolved);
    p->rec.license = dup(c, jstr(e->obj, "license"));
    if (alias && (sb_strv_push(&p->rec.reader_props, c->a, "pixi:npm-alias") != SB_OK ||
                  sb_strv_push(&p->rec.reader_props, c->a, dup(c, alias)) != SB_OK))
        return oom(c);
    return sb_js_integrity(c->a, &p->rec, jstr(e->obj, "integrity"));
}

/* ---- v2 / v3: the `packages` table ---- */

static sb_code v2_entry(npm_ctx *c, const char *key, json_t *obj)
{
    if (!json_is_object(obj))
        return sb_err_set(c->err, SB_EPARSE, "packages[\"%.100s\"] must be an object", key);
    const char *path = dup(c, key);
    npm_ent *e = path ? ent_add(c, path, obj) : NULL;
    if (NULL == e)
        return oom(c);
    const char *iname = install_name(key);
    e->folder = NULL == iname;
    if (!key[0]) {
        c->l.root_name = dup(c, jstr(obj, "name"));
        c->l.root_version = dup(c, jstr(obj, "version"));
        return SB_OK;
    }
    if (jtrue(obj, "link")) {
        const char *t = jstr(obj, "resolved");
        e->link = t ? dup(c, t) : "";
        return SB_OK;
    }
    const char *version = jstr(obj, "version");
    if (NULL == version)
        return SB_OK; /* listed, not installed (npm keeps such entries) */
    const char *name = jstr(obj, "name");
    if (NULL == name && e->folder) {
        const char *slash = strrchr(key, '/');
        name = slash ? slash + 1 : key;
    }
    if (NULL == name)
        name = iname;
    const char *alias = iname && strcmp(iname, name) ? iname : NULL;
    if (!name[0])
        return sb_err_set(c->err, SB_EPARSE, "packages[\"%.100s\"] has an empty name", key);
    return take_pkg(c, e, name, version, jstr(obj, "resolved"), alias);
}

/* ---- v1: nested `dependencies` ---- */

/* v1 `version`: "1.2.3", "npm:real@1.2.3" (an alias), or a source spec
 * (git URL, file: path, tarball URL) standing where a version would. */
static sb_code v1_entry(npm_ctx *c, const char *path, const char *iname, json_t *obj)
{
    npm_ent *e = ent_add(c, path, obj);
    if (NULL == e)
        return oom(c);
    const char *v = jstr(obj, "version");
    if (NULL == v)
        return SB_OK;
    const char *name = iname, *version = v, *resolved = jstr(obj, "resolved"), *alias = NULL;
    if (!strncmp(v, "npm:", 4)) {
        size_t nl = sb_js_name_len(v + 4);
        name = sb_arena_strndup(c->a, v + 4, nl);
        version = v[4 + nl] == '@' ? v + 5 + nl : NULL;
        alias = iname;
        if (NULL == name)
            return oom(c);
    } else if (strchr(v, ':') || strchr(v, '/')) {
        if (NULL == resolved)
            resolved = v;
        const char *hash = strchr(v, '#');
        version = hash && hash[1] ? hash + 1 : NULL; /* a git commit, else unknown */
    }
    return take_pkg(c, e, name, version, resolved, alias);
}

static sb_code v1_walk(npm_ctx *c, json_t *deps, const char *parent, unsigned depth)
{
    if (NULL == deps)
        return SB_OK;
    if (!json_is_object(deps))
        return sb_err_set(c->err, SB_EPARSE, "dependencies of '%.100s' must be an object", parent[0] ? parent : "(root)");
    if (depth > c->lim->max_depth)
        return sb_err_set(c->err, SB_ELIMIT, "dependencies nest deeper than %u", c->lim->max_depth);
    const char *name;
    json_t *obj;
    json_object_foreach(deps, name, obj)
    {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (!json_is_object(obj))
            return sb_err_set(c->err, SB_EPARSE, "dependencies[\"%.100s\"] must be an object", name);
        const char *path = parent[0] ? sb_arena_printf(c->a, "%s/node_modules/%s", parent, name)
                                     : sb_arena_printf(c->a, "node_modules/%s", name);
        if (NULL == path)
            return oom(c);
        sb_code rc = v1_entry(c, path, name, obj);
        if (rc == SB_OK)
            rc = v1_walk(c, json_object_get(obj, "dependencies"), path, depth + 1);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

/* ---- edges ---- */

static npm_ent *find(npm_ctx *c, const char *path, size_t n)
{
    size_t at;
    return sb_strmap_get(&c->by_path, path, n, &at) ? &c->ents[at] : NULL;
}

/* The nearest <dir>/node_modules/<name> from `from` up to the root, links
 * followed to their target; NULL when nothing provides it. */
static npm_ent *resolve(npm_ctx *c, const char *from, const char *name, sb_code *rc)
{
    size_t fl = strlen(from), nl = strlen(name);
    if (fl + nl + 16 > c->scratch_cap) {
        char *nb = realloc(c->scratch, fl + nl + 16);
        if (NULL == nb) {
            *rc = SB_ENOMEM;
            return NULL;
        }
        c->scratch = nb;
        c->scratch_cap = fl + nl + 16;
    }
    for (size_t dl = fl;;) {
        size_t k = 0;
        if (dl) {
            memcpy(c->scratch, from, dl);
            c->scratch[dl] = '/';
            k = dl + 1;
        }
        memcpy(c->scratch + k, "node_modules/", 13);
        memcpy(c->scratch + k + 13, name, nl);
        npm_ent *e = find(c, c->scratch, k + 13 + nl);
        if (e && e->link)
            e = find(c, e->link, strlen(e->link));
        if (e)
            return e;
        if (0 == dl)
            return NULL;
        while (dl && from[dl - 1] != '/')
            dl--;
        if (dl)
            dl--; /* drop the '/' too */
    }
}

static sb_code edges_of(npm_ctx *c, npm_ent *e, json_t *deps, sb_js_pkg *to_pkg, bool to_root)
{
    if (!json_is_object(deps))
        return SB_OK;
    const char *name;
    json_t *range;
    json_object_foreach(deps, name, range)
    {
        sb_code rc = sb_jsl_tick(&c->l, c->err);
        if (rc != SB_OK)
            return rc;
        npm_ent *t = resolve(c, e->path, name, &rc);
        if (rc != SB_OK)
            return oom(c);
        if (NULL == t || NULL == t->pkg)
            continue; /* optional, peer or platform package not installed */
        if (to_root)
            rc = sb_jsl_root(&c->l, c->a, t->pkg->rec.key);
        else
            rc = sb_js_dep(to_pkg, c->a, t->pkg->rec.key);
        if (rc != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

static sb_code all_edges(npm_ctx *c, int v1)
{
    static const char *const kinds[] = {"dependencies", "optionalDependencies", "peerDependencies",
                                        "devDependencies"};
    for (size_t i = 0; i < c->n; i++) {
        npm_ent *e = &c->ents[i];
        bool root = !e->path[0];
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (NULL == e->pkg && !root)
            continue;
        if (v1) {
            sb_code rc = edges_of(c, e, json_object_get(e->obj, "requires"), e->pkg, false);
            if (rc != SB_OK)
                return rc;
            continue;
        }
        /* devDependencies are installed for the root and workspace folders only */
        size_t nk = e->folder ? 4 : 3;
        for (size_t k = 0; k < nk; k++) {
            sb_code rc = edges_of(c, e, json_object_get(e->obj, kinds[k]), e->pkg, root);
            if (rc != SB_OK)
                return rc;
        }
        if (e->folder && !root && e->pkg && sb_jsl_root(&c->l, c->a, e->pkg->rec.key) != SB_OK)
            return oom(c); /* a workspace member hangs off the root */
    }
    return SB_OK;
}

/* ---- reader ---- */

static sb_code read_tree(npm_ctx *c, json_t *root)
{
    json_t *ver = json_object_get(root, "lockfileVersion");
    if (!json_is_integer(ver))
        return sb_err_set(c->err, SB_EPARSE, "not a package-lock.json: no integer lockfileVersion");
    json_int_t v = json_integer_value(ver);
    if (v < 1 || v > 3)
        return sb_err_set(c->err, SB_EUNSUPPORTED,
                          "package-lock.json lockfileVersion %lld is not supported (versions 1, 2, 3 are read)",
                          (long long)v);
    c->l.version = (int)v;
    json_t *pk = json_object_get(root, "packages");
    if (v >= 2 && NULL == pk)
        return sb_err_set(c->err, SB_EPARSE, "package-lock.json v%lld has no packages", (long long)v);
    if (pk) {
        if (!json_is_object(pk))
            return sb_err_set(c->err, SB_EPARSE, "packages must be an object");
        const char *key;
        json_t *obj;
        json_object_foreach(pk, key, obj)
        {
            sb_code rc = sb_jsl_tick(&c->l, c->err);
            if (rc == SB_OK)
                rc = v2_entry(c, key, obj);
            if (rc != SB_OK)
                return rc;
        }
        return all_edges(c, 0);
    }
    c->l.root_name = dup(c, jstr(root, "name"));
    c->l.root_version = dup(c, jstr(root, "version"));
    sb_code rc = v1_walk(c, json_object_get(root, "dependencies"), "", 1);
    return rc == SB_OK ? all_edges(c, 1) : rc;
}

static sb_code npm_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                        sb_err *err)
{
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
        data += 3;
        len -= 3;
    }
    json_error_t je;
    json_t *root = json_loadb(data, len, 0, &je);
    if (NULL == root)
        return sb_err_set_at(err, SB_EPARSE, je.line > 0 ? (unsigned)je.line : 0,
                             je.column > 0 ? (unsigned)je.column : 0, "package-lock.json: %.200s", je.text);
    npm_ctx c = {.a = a, .err = err, .lim = lim};
    sb_code rc = SB_OK;
    if (!json_is_object(root))
        rc = sb_err_set(err, SB_EPARSE, "package-lock.json must be a JSON object");
    if (rc == SB_OK && (sb_jsl_init(&c.l, a, "package-lock.json", lim) != SB_OK ||
                        sb_strmap_init(&c.by_path, a, 256) != SB_OK))
        rc = oom(&c);
    if (rc == SB_OK)
        rc = read_tree(&c, root);
    if (rc == SB_OK)
        rc = sb_jsl_build(out, a, &c.l, err);
    free(c.scratch);
    json_decref(root);
    return rc;
}

static int npm_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "package-lock.json") || !strcmp(base, "npm-shrinkwrap.json"))
            return 2;
    }
    /* content: a JSON object naming a lockfileVersion near its top */
    size_t i = len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < len && strchr(" \t\r\n", data[i]))
        i++;
    if (i >= len || data[i] != '{')
        return 0;
    size_t n = len < 4096 ? len : 4096;
    return NULL != memmem(data, n, "\"lockfileVersion\"", 17);
}

const sb_reader sb_reader_npm = {"package-lock.json", npm_detect, npm_read};
