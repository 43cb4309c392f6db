/*
 * lock_pnpm.c - pnpm-lock.yaml, lockfileVersion 5.x, 6.x and 9.x, into an
 * sb_jsl (lock_js.h).
 *
 * Paths read (everything else is ignored):
 *   lockfileVersion
 *   importers.<path>.{dependencies, devDependencies, optionalDependencies}
 *     (5.x without importers: those three at the top level), each
 *     <name>: <ref> or <name>: {specifier, version: <ref>}
 *   packages.<key>.{name, version, resolution.{integrity, tarball, type, repo,
 *     commit, directory}, dependencies, optionalDependencies}
 *   9.x: snapshots.<key>.{dependencies, optionalDependencies}
 * Keys: 5.x "/name/1.0.0_peer@2", 6.x "/name@1.0.0(peer@2)", 9.x
 * "name@1.0.0(peer@2)"; the peer part is kept as pixi:peer-suffixes of one
 * component, not another version. A <ref> is a version (the key is then
 * built from the dependency's name), a whole key (aliases, git-hosted and
 * tarball packages) or link:<path> to another importer (workspace member).
 * The importer "." is the document root; the other importers are workspace
 * members (pkg:generic). Scopes come from the importers down the graph.
 * When the file holds several YAML documents (pnpm 11 puts its own
 * packageManagerDependencies first) the last one is the project's lock.
 */
#include "lock_int.h"
#include "lock_js.h"
#include "yaml_tree.h"

#include <stdlib.h>
#include <string.h>

typedef struct pn_ctx {
    sb_arena *a;             /* the request's: what the records keep */
    sb_arena *t;             /* the reader's scratch (c->l.tmp): the YAML tree, tables, look-up keys */
    sb_err *err;
    int major;               /* 5, 6 or 9 */
    sb_jsl l;
    sb_strmap by_key;        /* lock key (with peers) -> index into l.pkgs */
    sb_strmap importers;     /* importer path -> index into l.pkgs, +1 (0 = the root ".") */
} pn_ctx;

static sb_code oom(pn_ctx *c) { return sb_err_set(c->err, SB_ENOMEM, "out of memory"); }

static sb_code fail_at(pn_ctx *c, const sb_yn *n, sb_code code, const char *what, const char *key)
{
    return sb_err_set_at(c->err, code, n ? n->line : 0, n ? n->col : 0, "pnpm-lock.yaml: %s '%.100s'", what, key);
}

/* ---- keys ---- */

typedef struct pn_key {
    const char *name, *version, *peers; /* peers: NULL or "(a@1)(b@2)" / "_a@1" */
} pn_key;

/* Split a packages/snapshots key into name, version and peer suffix, in `a`. */
static sb_code split_key(pn_ctx *c, sb_arena *a, const char *key, pn_key *k)
{
    const char *s = key[0] == '/' ? key + 1 : key;
    memset(k, 0, sizeof *k);
    if (c->major == 5) {
        const char *slash = strrchr(s, '/');
        if (NULL == slash || slash == s)
            return SB_EPARSE;
        const char *us = strchr(slash + 1, '_');
        k->name = sb_arena_strndup(a, s, (size_t)(slash - s));
        k->version = us ? sb_arena_strndup(a, slash + 1, (size_t)(us - slash - 1)) : sb_arena_strdup(a, slash + 1);
        k->peers = us ? sb_arena_strdup(a, us) : NULL;
    } else {
        const char *paren = strchr(s, '(');
        size_t base = paren ? (size_t)(paren - s) : strlen(s);
        size_t nl = sb_js_name_len(s);
        if (nl >= base || 0 == nl)
            return SB_EPARSE;
        k->name = sb_arena_strndup(a, s, nl);
        k->version = sb_arena_strndup(a, s + nl + 1, base - nl - 1);
        k->peers = paren ? sb_arena_strdup(a, paren) : NULL;
    }
    return k->name && k->version ? SB_OK : SB_ENOMEM;
}

/* The lock key a dependency <name>: <ref> points at. */
static const char *ref_key(pn_ctx *c, const char *name, const char *ref)
{
    if (c->major == 9) {
        size_t base = strcspn(ref, "(");
        if (base > 1 && memchr(ref + 1, '@', base - 1))
            return ref; /* an alias: real@1.0.0 */
        return sb_arena_printf(c->t, "%s@%s", name, ref);
    }
    if (ref[0] == '/' || strchr(ref, '/'))
        return ref; /* an alias or a git-hosted/tarball key */
    return c->major == 5 ? sb_arena_printf(c->t, "/%s/%s", name, ref) : sb_arena_printf(c->t, "/%s@%s", name, ref);
}

/* ---- packages ---- */

/* Identity from the resolution: NULL for a registry package, else where it
 * comes from (in the request's arena: the tree's strings go with it). */
static const char *pkg_source(pn_ctx *c, const sb_yn *res)
{
    const char *tarball = sb_yn_str(res, "tarball"), *type = sb_yn_str(res, "type");
    const char *dir = sb_yn_str(res, "directory");
    if (type && !strcmp(type, "git")) {
        const char *repo = sb_yn_str(res, "repo"), *commit = sb_yn_str(res, "commit");
        if (repo)
            return commit ? sb_arena_printf(c->a, "%s%s#%s", strncmp(repo, "git", 3) ? "git+" : "", repo, commit)
                          : sb_arena_strdup(c->a, repo);
    }
    if (dir)
        return sb_lock__location(c->a, dir);
    if (tarball && !sb_model_npm_registry(tarball))
        return !strncmp(tarball, "file:", 5) ? sb_lock__location(c->a, tarball + 5) : sb_arena_strdup(c->a, tarball);
    return NULL;
}

/* Map a lock key to its component and note its peer suffix. */
static sb_code alias_key(pn_ctx *c, const char *key, sb_js_pkg *p, const char *peers)
{
    size_t at;
    sb_strmap_get(&c->l.by_key, p->rec->key, strlen(p->rec->key), &at);
    const char *path = sb_arena_strdup(c->a, key); /* an install path: kept */
    if (NULL == path || sb_strmap_put(&c->by_key, key, strlen(key), at, NULL) < 0 || sb_js_path(p, c->a, path) != SB_OK)
        return oom(c);
    if (peers && (NULL == p->peers || !strstr(p->peers, peers)))
        p->peers = p->peers ? sb_arena_printf(c->a, "%s, %s", p->peers, peers) : sb_arena_strdup(c->a, peers);
    return p->peers || !peers ? SB_OK : oom(c);
}

static sb_js_pkg *take_pkg(pn_ctx *c, const char *key, const sb_yn *entry, sb_code *rc)
{
    pn_key k;
    const char *name = sb_yn_str(entry, "name"), *version = sb_yn_str(entry, "version");
    *rc = split_key(c, c->a, key, &k);
    if (*rc == SB_ENOMEM || (*rc == SB_EPARSE && !(name && version))) {
        *rc = *rc == SB_ENOMEM ? oom(c) : fail_at(c, entry, SB_EPARSE, "cannot read the package key", key);
        return NULL;
    }
    const sb_yn *res = sb_yn_get(entry, "resolution");
    const char *source = pkg_source(c, res);
    bool added;
    if ((name && NULL == (name = sb_arena_strdup(c->a, name))) ||
        (version && NULL == (version = sb_arena_strdup(c->a, version)))) {
        *rc = oom(c);
        return NULL;
    }
    sb_js_pkg *p = sb_jsl_get(&c->l, c->a, name ? name : k.name, version ? version : k.version, source, &added, rc);
    if (NULL == p) {
        *rc = *rc == SB_ELIMIT ? sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages) : oom(c);
        return NULL;
    }
    if ((*rc = alias_key(c, key, p, k.peers)) != SB_OK)
        return NULL;
    if (added) {
        p->rec->location = source ? source : sb_arena_strdup(c->a, sb_yn_str(res, "tarball"));
        sb_js_integrity(c->a, p->rec, sb_yn_str(res, "integrity"));
    }
    return p;
}

static sb_js_pkg *pkg_of(pn_ctx *c, const char *key)
{
    size_t at;
    return sb_strmap_get(&c->by_key, key, strlen(key), &at) ? c->l.pkgs[at] : NULL;
}

static sb_code read_packages(pn_ctx *c, const sb_yn *pk)
{
    if (NULL == pk)
        return SB_OK;
    if (pk->type != SB_YN_MAP)
        return sb_err_set_at(c->err, SB_EPARSE, pk->line, pk->col, "pnpm-lock.yaml: packages must be a mapping");
    for (size_t i = 0; i < pk->n; i++) {
        sb_code rc;
        if ((rc = sb_jsl_tick(&c->l, c->err)) != SB_OK)
            return rc;
        if (NULL == take_pkg(c, sb_yn_key(pk, i), sb_yn_val(pk, i), &rc))
            return rc;
    }
    return SB_OK;
}

/* ---- edges ---- */

/* "a/b" + "../c" -> "a/c"; NULL when it climbs above the workspace. */
static const char *join_path(pn_ctx *c, const char *from, const char *rel)
{
    char *buf = sb_arena_printf(c->t, "%s/%s", strcmp(from, ".") ? from : "", rel);
    if (NULL == buf)
        return NULL;
    char *o = buf;
    size_t k = 0;
    for (char *seg = buf; *seg;) {
        size_t n = strcspn(seg, "/");
        if (n == 2 && !strncmp(seg, "..", 2)) {
            if (0 == k)
                return NULL;
            while (k && o[k - 1] != '/')
                k--;
            if (k)
                k--;
        } else if (n && !(n == 1 && seg[0] == '.')) {
            if (k)
                o[k++] = '/';
            memmove(o + k, seg, n);
            k += n;
        }
        seg += n + (seg[n] == '/');
    }
    o[k] = '\0';
    return k ? o : ".";
}

/* The component a dependency points at; NULL when the lock lacks it or it
 * is the root importer. */
static sb_js_pkg *target(pn_ctx *c, const char *from, const char *name, const sb_yn *v)
{
    const char *ref = v->type == SB_YN_MAP ? sb_yn_str(v, "version") : v->type == SB_YN_SCALAR ? v->s : NULL;
    if (NULL == ref)
        return NULL;
    if (!strncmp(ref, "link:", 5)) {
        const char *path = join_path(c, from, ref + 5);
        size_t at;
        return path && sb_strmap_get(&c->importers, path, strlen(path), &at) && at ? c->l.pkgs[at - 1] : NULL;
    }
    const char *key = ref_key(c, name, ref);
    return key ? pkg_of(c, key) : NULL;
}

/* One dependency map of a package or importer; `p` NULL = the root. */
static sb_code edges(pn_ctx *c, sb_js_pkg *p, const char *from, const sb_yn *deps, sb_js_scope how)
{
    if (NULL == deps || deps->type != SB_YN_MAP)
        return SB_OK;
    for (size_t i = 0; i < deps->n; i++) {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_js_pkg *t = target(c, from, sb_yn_key(deps, i), sb_yn_val(deps, i));
        if (NULL == t || t == p)
            continue;
        sb_code rc = p ? sb_js_dep_scoped(p, c->a, t->rec->key, how)
                       : sb_jsl_root_scoped(&c->l, c->a, t->rec->key, how);
        if (rc != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

static sb_code deps_of(pn_ctx *c, sb_js_pkg *p, const char *from, const sb_yn *entry, int with_dev)
{
    sb_code rc = edges(c, p, from, sb_yn_get(entry, "dependencies"), SB_JS_REQUIRED);
    if (rc == SB_OK)
        rc = edges(c, p, from, sb_yn_get(entry, "optionalDependencies"), SB_JS_OPTIONAL);
    if (rc == SB_OK && with_dev)
        rc = edges(c, p, from, sb_yn_get(entry, "devDependencies"), SB_JS_DEV);
    return rc;
}

/* A 9.x snapshot "name@1.0.0(peer@2)": the component of its package
 * "name@1.0.0", or one from the key alone when the lock lists no package. */
static sb_js_pkg *snapshot_pkg(pn_ctx *c, const char *key, const sb_yn *entry, sb_code *rc)
{
    pn_key k;
    if ((*rc = split_key(c, c->t, key, &k)) != SB_OK) {
        *rc = *rc == SB_EPARSE ? fail_at(c, entry, SB_EPARSE, "cannot read the snapshot key", key) : oom(c);
        return NULL;
    }
    const char *base = sb_arena_printf(c->t, "%s@%s", k.name, k.version);
    sb_js_pkg *p = base ? pkg_of(c, base) : NULL;
    if (NULL == p)
        return take_pkg(c, key, entry, rc);
    *rc = alias_key(c, key, p, k.peers);
    return *rc == SB_OK ? p : NULL;
}

/* Every 9.x snapshot key to its component, before any edge is read: a
 * dependency may name a snapshot listed further down. */
static sb_code read_snapshots(pn_ctx *c, const sb_yn *tbl)
{
    if (NULL == tbl)
        return SB_OK;
    if (tbl->type != SB_YN_MAP)
        return sb_err_set_at(c->err, SB_EPARSE, tbl->line, tbl->col, "pnpm-lock.yaml: snapshots must be a mapping");
    for (size_t i = 0; i < tbl->n; i++) {
        sb_code rc = sb_jsl_tick(&c->l, c->err);
        if (rc != SB_OK)
            return rc;
        if (NULL == pkg_of(c, sb_yn_key(tbl, i)) && NULL == snapshot_pkg(c, sb_yn_key(tbl, i), sb_yn_val(tbl, i), &rc))
            return rc;
    }
    return SB_OK;
}

/* Package (5.x, 6.x) or snapshot (9.x) dependencies. */
static sb_code package_edges(pn_ctx *c, const sb_yn *tbl)
{
    for (size_t i = 0; tbl && i < tbl->n; i++) {
        sb_js_pkg *p = pkg_of(c, sb_yn_key(tbl, i));
        sb_code rc = sb_jsl_tick(&c->l, c->err);
        if (rc == SB_OK && p)
            rc = deps_of(c, p, ".", sb_yn_val(tbl, i), 0);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

/* ---- importers ---- */

static const char *last_segment(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Each importer but "." becomes a workspace member component. */
static sb_code read_importers(pn_ctx *c, const sb_yn *imp)
{
    for (size_t i = 0; imp && i < imp->n; i++) {
        const char *path = sb_yn_key(imp, i);
        size_t idx = 0;
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (strcmp(path, ".")) {
            bool added;
            sb_code code;
            const char *name = sb_arena_strdup(c->a, last_segment(path));
            sb_js_pkg *p = name ? sb_jsl_get(&c->l, c->a, name, NULL, sb_lock__location(c->a, path), &added, &code) : NULL;
            if (NULL == name)
                code = SB_ENOMEM;
            if (NULL == p)
                return code == SB_ELIMIT ? sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages) : oom(c);
            p->rec->location = sb_lock__location(c->a, path);
            sb_strmap_get(&c->l.by_key, p->rec->key, strlen(p->rec->key), &idx);
            idx++;
        }
        if (sb_strmap_put(&c->importers, path, strlen(path), idx, NULL) < 0)
            return oom(c);
    }
    return SB_OK;
}

static sb_code importer_edges(pn_ctx *c, const sb_yn *imp, const sb_yn *doc)
{
    if (NULL == imp) /* 5.x, one project: its dependencies at the top */
        return deps_of(c, NULL, ".", doc, 1);
    for (size_t i = 0; i < imp->n; i++) {
        const char *path = sb_yn_key(imp, i);
        size_t at = 0;
        sb_strmap_get(&c->importers, path, strlen(path), &at);
        sb_js_pkg *p = at ? c->l.pkgs[at - 1] : NULL;
        sb_code rc = deps_of(c, p, path, sb_yn_val(imp, i), 1);
        /* members hang off the root; without a "." importer they are the roots */
        if (rc == SB_OK && p)
            rc = sb_jsl_root_scoped(&c->l, c->a, p->rec->key, SB_JS_REQUIRED) == SB_OK ? SB_OK : oom(c);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

/* ---- reader ---- */

static sb_code version_of(pn_ctx *c, const sb_yn *doc)
{
    const sb_yn *v = sb_yn_get(doc, "lockfileVersion");
    if (NULL == v || v->type != SB_YN_SCALAR || NULL == v->s)
        return sb_err_set(c->err, SB_EPARSE, "not a pnpm-lock.yaml: no lockfileVersion");
    int major = atoi(v->s);
    if (major != 5 && major != 6 && major != 9)
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, v->line, v->col,
                             "pnpm-lock.yaml lockfileVersion '%.32s' is not supported (5.x, 6.x and 9.x are read)", v->s);
    c->major = major;
    c->l.version = major;
    return SB_OK;
}

static sb_code read_doc(pn_ctx *c, const sb_yn *doc)
{
    if (doc->type != SB_YN_MAP)
        return sb_err_set_at(c->err, SB_EPARSE, doc->line, doc->col, "pnpm-lock.yaml must be a mapping");
    sb_code rc = version_of(c, doc);
    const sb_yn *imp = sb_yn_get(doc, "importers");
    if (rc == SB_OK && imp && imp->type != SB_YN_MAP)
        rc = sb_err_set_at(c->err, SB_EPARSE, imp->line, imp->col, "pnpm-lock.yaml: importers must be a mapping");
    const sb_yn *pk = sb_yn_get(doc, "packages");
    if (rc == SB_OK && pk && pk->type == SB_YN_MAP && pk->n > 256 &&
        (sb_jsl_expect(&c->l, c->a, pk->n + (imp ? imp->n : 0)) != SB_OK || sb_strmap_init(&c->by_key, c->t, pk->n) != SB_OK))
        rc = oom(c); /* sized once: no table grown and left behind in copies */
    if (rc == SB_OK)
        rc = read_packages(c, pk);
    if (rc == SB_OK && c->major == 9)
        rc = read_snapshots(c, sb_yn_get(doc, "snapshots"));
    if (rc == SB_OK)
        rc = read_importers(c, imp);
    if (rc == SB_OK)
        rc = package_edges(c, sb_yn_get(doc, c->major == 9 ? "snapshots" : "packages"));
    if (rc == SB_OK)
        rc = importer_edges(c, imp, doc);
    if (rc == SB_OK)
        rc = sb_jsl_scopes(&c->l, c->a, c->err);
    return rc;
}

static sb_code pnpm_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                         sb_err *err)
{
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
        data += 3;
        len -= 3;
    }
    pn_ctx c = {.a = a, .err = err};
    if (sb_jsl_init(&c.l, a, "pnpm-lock.yaml", lim) != SB_OK || sb_strmap_init(&c.by_key, c.l.tmp, 256) != SB_OK ||
        sb_strmap_init(&c.importers, c.l.tmp, 16) != SB_OK) {
        sb_jsl_free(&c.l);
        return oom(&c);
    }
    c.t = c.l.tmp;
    /* the tree in the scratch arena, gone with it once the records are
     * built: what a record keeps is copied out */
    sb_yn **docs = NULL;
    size_t ndocs = 0;
    sb_code rc = sb_yt_parse(&docs, &ndocs, c.t, data, len, lim, err);
    /* the project's lock is the last document naming a lockfileVersion */
    const sb_yn *doc = NULL;
    for (size_t i = 0; rc == SB_OK && i < ndocs; i++)
        if (sb_yn_get(docs[i], "lockfileVersion"))
            doc = docs[i];
    if (rc == SB_OK && NULL == doc)
        rc = sb_err_set(err, SB_EPARSE, ndocs ? "not a pnpm-lock.yaml: no lockfileVersion" : "the pnpm-lock.yaml is empty");
    if (rc == SB_OK)
        rc = read_doc(&c, doc);
    if (rc == SB_OK)
        rc = sb_jsl_build(out, a, &c.l, err);
    sb_jsl_free(&c.l);
    return rc;
}

static int pnpm_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "pnpm-lock.yaml"))
            return 2;
    }
    /* content: a top-level lockfileVersion and pnpm's sections */
    size_t n = len < 16384 ? len : 16384;
    return sb_lock__has_line(data, n, "lockfileVersion: ") &&
           (sb_lock__has_line(data, n, "importers:") || sb_lock__has_line(data, n, "packages:") ||
            sb_lock__has_line(data, n, "specifiers:") || sb_lock__has_line(data, n, "dependencies:"));
}

const sb_reader sb_reader_pnpm = {"pnpm-lock.yaml", pnpm_detect, pnpm_read};
