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
 * Both shapes become one table of install paths ("node_modules/a/node_modules/b"),
 * held as a tree of directories (one node per path segment, found by parent
 * and segment); a dependency resolves the way Node does: the nearest
 * <dir>/node_modules/<name> walking up from the dependent's directory, each
 * step a lookup of a short segment, so the walk costs the depth, not the
 * length of the paths (a path 4,000 levels deep once made it quadratic).
 * v1 paths are made by the tree too, never by copying the parent's path
 * into every child. `link: true` entries stand for their
 * target folder (workspace members). The "" entry is the document root.
 *
 * The input is read with the streaming tokenizer of json_stream.h, not as a
 * tree (jansson's tree of a 40 MB lock takes several times the input and
 * broke the memory bound). The sections come in no fixed order, so the
 * reading goes in passes over the one buffer: the top level (checking the
 * whole text, recording where `packages` / `dependencies` start and how many
 * entries `packages` holds); the entries (each one's fields read as slices of
 * the input, only the kept ones copied; where its dependency objects start
 * recorded); then the edges, each entry's dependency objects tokenized again
 * at their recorded offsets once every install path is known. Nothing but
 * arena copies outlives the read.
 */
#include "lock_int.h"
#include "lock_js.h"
#include "json_stream.h"
#include "purl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* dependency objects of an entry, in the order their edges are added */
enum { DK_DEPS, DK_OPTIONAL, DK_PEER, DK_DEV, DK_N };

typedef struct npm_ent {
    const char *path;    /* the install path; NULL past SB_NPM_PATH_MAX (v1 only builds it) */
    uint32_t dir;        /* its node in the directory tree (0 = the root "") */
    const char *link;    /* link target path, for `link: true` */
    sb_js_pkg *pkg;      /* NULL: not installed (no version), the root, or a link */
    uint32_t deps[DK_N]; /* offset + 1 of each dependency object (v1: `requires` in [0]); 0 = none */
    bool folder;         /* not under node_modules: the root or a workspace folder */
} npm_ent;

/* Longest install path recorded (pixi:install-paths): Linux's PATH_MAX. npm
 * could not have installed anything at a longer path, and a v1 lock of a
 * 100 KB name with 2,000 children would otherwise spell it 2,000 times. */
#define SB_NPM_PATH_MAX 4096

/* A directory of the install tree: its parent and the entry installed
 * there (-1: none, a directory on the way). */
typedef struct npm_dir {
    uint32_t parent;
    int32_t ent;
    uint32_t len; /* the length of its path, "" = 0 */
} npm_dir;

typedef struct npm_ctx {
    sb_arena *a;
    sb_err *err;
    const sb_limits *lim;
    const char *data; /* the input (after a BOM) */
    size_t len;
    unsigned jdepth; /* the tokenizer's nesting bound */
    sb_jsl l;
    sb_arena *paths; /* the entry table and directory tree: dropped once the edges are
                            * read, before sb_jsl_build adds its properties */
    npm_ent *ents;
    size_t n, cap;
    npm_dir *dirs; /* the directory tree, node 0 the root */
    size_t ndirs, dcap;
    sb_strmap by_dir; /* "<parent as 4 bytes><segment>" -> node */
    char *scratch;    /* a key looked up */
    size_t scratch_cap;
    char *tmp; /* a decoded string used and dropped (integrity, a dependency name) */
    size_t tmp_cap;
} npm_ctx;

/* A string member of an entry as a slice of the input. */
typedef struct npm_str {
    const char *s;
    size_t n;
    bool esc, set;
} npm_str;

/* The members of one entry object that the reader uses. As with any JSON
 * object read by name, a repeated member counts by its last occurrence. */
typedef struct npm_fields {
    npm_str name, version, resolved, integrity, license;
    bool link, dev, optional, dev_optional, peer;
    uint32_t deps[DK_N];
    uint32_t requires; /* v1: offset + 1 of `requires` (an object) */
    uint32_t nested;   /* v1: offset + 1 of `dependencies`, whatever its type */
} npm_fields;

static sb_code oom(npm_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static sb_code jerr(npm_ctx *c, const sb_jr *r)
{
    return sb_jr_error(r, c->err, "package-lock.json");
}

/* An arena copy of a kept member; NULL when absent (or out of memory: the
 * callers that must have it check). */
static const char *keep(npm_ctx *c, const npm_str *v)
{
    if (!v->set)
        return NULL;
    char *o = sb_arena_stralloc(c->a, v->n + 1);
    if (o)
        sb_json_decode(v->s, v->n, v->esc, o);
    return o;
}

/* A decoded member in the reusable temporary buffer (valid until the next
 * call); NULL when absent or out of memory (*rc says which). */
static const char *temp(npm_ctx *c, const char *s, size_t n, bool esc, sb_code *rc)
{
    if (n + 1 > c->tmp_cap) {
        char *nb = realloc(c->tmp, n + 64);
        if (NULL == nb) {
            *rc = SB_ENOMEM;
            return NULL;
        }
        c->tmp = nb;
        c->tmp_cap = n + 64;
    }
    sb_json_decode(s, n, esc, c->tmp);
    return c->tmp;
}

/* ---- the directory tree ---- */

static sb_code dirs_init(npm_ctx *c, size_t expected)
{
    if (sb_strmap_init(&c->by_dir, c->paths, expected * 2 + 16) != SB_OK)
        return SB_ENOMEM;
    c->dirs = sb_arena_grow(c->paths, NULL, &c->dcap, 0, sizeof *c->dirs, expected * 2 + 16);
    if (NULL == c->dirs)
        return SB_ENOMEM;
    c->dirs[0] = (npm_dir){0, -1, 0};
    c->ndirs = 1;
    return SB_OK;
}

/* The child `seg` of directory `parent`: its node, -1 when absent (and not
 * `add`), -2 out of memory (or past 2^31 nodes). */
static long dir_child(npm_ctx *c, uint32_t parent, const char *seg, size_t sl, bool add)
{
    size_t kl = 4 + sl;
    if (kl > c->scratch_cap) {
        char *nb = realloc(c->scratch, kl + 64);
        if (NULL == nb)
            return -2;
        c->scratch = nb;
        c->scratch_cap = kl + 64;
    }
    memcpy(c->scratch, &parent, 4);
    memcpy(c->scratch + 4, seg, sl);
    size_t at;
    if (sb_strmap_get(&c->by_dir, c->scratch, kl, &at))
        return (long)at;
    if (!add)
        return -1;
    if (c->ndirs >= INT32_MAX)
        return -2;
    char *key = sb_arena_alloc(c->paths, kl);
    npm_dir *nv = sb_arena_grow(c->paths, c->dirs, &c->dcap, c->ndirs, sizeof *nv, 64);
    if (NULL == key || NULL == nv)
        return -2;
    memcpy(key, c->scratch, kl);
    if (sb_strmap_put(&c->by_dir, key, kl, c->ndirs, NULL) < 0)
        return -2;
    c->dirs = nv;
    uint32_t pl = c->dirs[parent].len;
    c->dirs[c->ndirs] = (npm_dir){parent, -1, (uint32_t)(pl + (pl ? 1 : 0) + sl)};
    return (long)c->ndirs++;
}

/* The directory `path` (segments split at '/') below `from`: -1 absent,
 * -2 out of memory. */
static long dir_walk(npm_ctx *c, uint32_t from, const char *path, size_t len, bool add)
{
    long d = from;
    for (size_t i = 0; i < len && d >= 0;) {
        const char *slash = memchr(path + i, '/', len - i);
        size_t sl = slash ? (size_t)(slash - (path + i)) : len - i;
        d = dir_child(c, (uint32_t)d, path + i, sl, add);
        i += sl + (slash ? 1 : 0);
    }
    return d;
}

/* A new entry at directory `dir` (its install path `path`, or NULL when
 * too long to record). The first entry of a directory is the one found. */
static npm_ent *ent_add(npm_ctx *c, const char *path, uint32_t dir)
{
    npm_ent *nv = sb_arena_grow(c->paths, c->ents, &c->cap, c->n, sizeof *nv, 256);
    if (NULL == nv)
        return NULL;
    c->ents = nv;
    if (c->dirs[dir].ent < 0)
        c->dirs[dir].ent = (int32_t)c->n;
    npm_ent *e = &c->ents[c->n++];
    memset(e, 0, sizeof *e);
    e->path = path;
    e->dir = dir;
    return e;
}

/* Read the members of the entry object just opened (r stands after its
 * '{') up to its '}'. */
static sb_code read_fields(npm_ctx *c, sb_jr *r, npm_fields *f)
{
    memset(f, 0, sizeof *f);
    for (;;) {
        sb_jt t = sb_jr_next(r);
        if (t == SB_JT_OBJ_END)
            return SB_OK;
        if (t != SB_JT_KEY)
            return jerr(c, r);
        npm_str *str = NULL;
        bool *flag = NULL;
        uint32_t *off = NULL;
        int dk = -1;
        if (sb_jr_is(r, "name"))
            str = &f->name;
        else if (sb_jr_is(r, "version"))
            str = &f->version;
        else if (sb_jr_is(r, "resolved"))
            str = &f->resolved;
        else if (sb_jr_is(r, "integrity"))
            str = &f->integrity;
        else if (sb_jr_is(r, "license"))
            str = &f->license;
        else if (sb_jr_is(r, "link"))
            flag = &f->link;
        else if (sb_jr_is(r, "dev"))
            flag = &f->dev;
        else if (sb_jr_is(r, "optional"))
            flag = &f->optional;
        else if (sb_jr_is(r, "devOptional"))
            flag = &f->dev_optional;
        else if (sb_jr_is(r, "peer"))
            flag = &f->peer;
        else if (sb_jr_is(r, "dependencies")) {
            dk = DK_DEPS;
            off = &f->nested;
        } else if (sb_jr_is(r, "requires"))
            dk = DK_DEPS; /* v1; v2 has no such member */
        else if (sb_jr_is(r, "optionalDependencies"))
            dk = DK_OPTIONAL;
        else if (sb_jr_is(r, "peerDependencies"))
            dk = DK_PEER;
        else if (sb_jr_is(r, "devDependencies"))
            dk = DK_DEV;
        bool is_requires = dk == DK_DEPS && NULL == off;
        t = sb_jr_next(r);
        if (t == SB_JT_ERROR || t == SB_JT_END)
            return jerr(c, r);
        if (str)
            *str = (npm_str){r->tok, r->tlen, r->escaped, t == SB_JT_STR};
        if (flag)
            *flag = t == SB_JT_TRUE;
        if (off)
            *off = (uint32_t)r->tpos + 1;
        if (dk >= 0) {
            uint32_t v = t == SB_JT_OBJ ? (uint32_t)r->tpos + 1 : 0; /* a non-object has no edges */
            if (is_requires)
            f->requires = v;
            else f->deps[dk] = v;
        }
        if (!sb_jr_skip(r, NULL))
            return jerr(c, r);
    }
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

static sb_js_scope entry_scope(const npm_fields *f)
{
    if (f->dev)
        return SB_JS_DEV;
    if (f->dev_optional)
        return SB_JS_DEV_OPTIONAL;
    if (f->optional)
        return SB_JS_OPTIONAL;
    if (f->peer)
        return SB_JS_PEER;
    return SB_JS_REQUIRED;
}

/* ---- scopes of a package installed at several paths ---- */

/* npm's flags say which `--omit` sets remove an installed copy: dev with
 * omit=dev, optional with omit=optional, devOptional only with both, peer
 * with omit=peer (arborist's reify filter). A set is one of 8 combinations,
 * bit 0 dev, bit 1 optional, bit 2 peer omitted; a copy's flags are the
 * byte of the combinations that remove it. */
enum { OM_DEV = 1, OM_OPT = 2, OM_PEER = 4 };

/* the combinations in which `which` (a test over the omitted kinds) holds */
static uint8_t omit_set(int (*which)(unsigned))
{
    uint8_t m = 0;
    for (unsigned c = 0; c < 8; c++)
        if (which(c))
            m |= (uint8_t)(1u << c);
    return m;
}
static int om_dev(unsigned c)
{
    return (c & OM_DEV) != 0;
}
static int om_opt(unsigned c)
{
    return (c & OM_OPT) != 0;
}
static int om_peer(unsigned c)
{
    return (c & OM_PEER) != 0;
}
static int om_dev_and_opt(unsigned c)
{
    return (c & (OM_DEV | OM_OPT)) == (OM_DEV | OM_OPT);
}

static uint8_t entry_omits(const npm_fields *f)
{
    uint8_t m = 0;
    if (f->dev)
        m |= omit_set(om_dev);
    if (f->optional)
        m |= omit_set(om_opt);
    if (f->dev_optional)
        m |= omit_set(om_dev_and_opt);
    if (f->peer)
        m |= omit_set(om_peer);
    return m;
}

/* The package (every copy of one name@version) is gone only where every
 * copy is: the intersection of its copies' sets, named with npm's words
 * in entry_scope's order. A copy dev and another optional is devOptional
 * (either --omit alone keeps one), as npm would flag a single copy reached
 * both ways; a merge of scopes by rank called it optional. A mix npm has no
 * word for (dev and peer copies) keeps that rank's answer. */
static void scope_of_copies(sb_js_pkg *p)
{
    uint8_t m = p->omits;
    if (m == 0xff)
        return; /* no copy read: nothing to say */
    if (m == 0)
        p->scope = SB_JS_REQUIRED;
    else if ((m & omit_set(om_dev)) == omit_set(om_dev))
        p->scope = SB_JS_DEV;
    else if ((m & omit_set(om_opt)) == omit_set(om_opt))
        p->scope = SB_JS_OPTIONAL;
    else if ((m & omit_set(om_dev_and_opt)) == omit_set(om_dev_and_opt))
        p->scope = SB_JS_DEV_OPTIONAL;
    else if ((m & omit_set(om_peer)) == omit_set(om_peer))
        p->scope = SB_JS_PEER;
}

/* "github:owner/repo#commit" (and gitlab:, bitbucket:) as the git URL it
 * stands for; NULL for anything else. */
static const char *git_shorthand(npm_ctx *c, const char *s)
{
    static const char *const hosts[][2] = {{"github:", "github.com"},
                                           {"gitlab:", "gitlab.com"},
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
 * the location that is part of its identity (`resolved` itself, an arena
 * copy, when it already is one). */
static const char *entry_source(npm_ctx *c, npm_ent *e, const char *resolved)
{
    if (e->folder)
        return sb_lock__location(c->a, e->path);
    if (NULL == resolved || sb_model_npm_registry(resolved))
        return NULL;
    const char *git = git_shorthand(c, resolved);
    if (git)
        return git;
    if (!strncmp(resolved, "file:", 5))
        return sb_lock__location(c->a, resolved + 5);
    if (strstr(resolved, "://") || !strncmp(resolved, "git+", 4))
        return resolved;
    return sb_lock__location(c->a, resolved); /* a relative path */
}

/* What one more copy of a known package says, added to what the first
 * said (a bundled copy has a license and no integrity, the
 * registry copy the reverse): a field the package lacks is taken; a
 * different value is kept beside the first as pixi:other-integrity /
 * pixi:other-license / pixi:other-resolved, the first copy's (lock order)
 * staying the component's. A non-registry `resolved` is part of the key, so
 * only registry tarballs (mirrors) can differ here. */
static sb_code union_copy(npm_ctx *c, sb_js_pkg *p, const npm_fields *f, const char *resolved)
{
    sb_pkg *r = p->rec;
    if (f->license.set) {
        sb_code rc = SB_OK;
        const char *lic = temp(c, f->license.s, f->license.n, f->license.esc, &rc);
        if (NULL == lic)
            return oom(c);
        if (NULL == r->license)
            r->license = sb_arena_strdup(c->a, lic);
        else if (strcmp(r->license, lic))
            rc = sb_js_prop_append(&c->l, r, c->a, "pixi:other-license", lic, "; ");
        if (rc != SB_OK || NULL == r->license)
            return oom(c);
    }
    if (resolved && NULL == r->location)
        r->location = resolved;
    else if (resolved && strcmp(r->location, resolved) &&
             sb_js_prop_append(&c->l, r, c->a, "pixi:other-resolved", resolved, " ") != SB_OK)
        return oom(c);
    if (!f->integrity.set)
        return SB_OK;
    sb_code rc = SB_OK;
    const char *sri = temp(c, f->integrity.s, f->integrity.n, f->integrity.esc, &rc);
    return sri && sb_js_integrity_union(&c->l, c->a, r, sri) == SB_OK ? SB_OK : oom(c);
}

/* name, version and resolved are arena strings (or NULL for the last two) */
static sb_code take_pkg(npm_ctx *c, npm_ent *e, const npm_fields *f, const char *name, const char *version,
                        const char *resolved, const char *alias)
{
    const char *source = entry_source(c, e, resolved);
    bool added;
    sb_code code;
    sb_js_pkg *p = sb_jsl_get(&c->l, c->a, name, version, source, &added, &code);
    if (NULL == p)
        return code == SB_ELIMIT ? sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages) : oom(c);
    e->pkg = p;
    sb_js_scope_merge(p, entry_scope(f));
    if (added)
        p->omits = 0xff;
    p->omits &= entry_omits(f);
    if (e->path && e->dir && c->dirs[e->dir].len <= SB_NPM_PATH_MAX && sb_js_path(p, c->a, e->path) != SB_OK)
        return oom(c);
    if (!added)
        return union_copy(c, p, f, source ? NULL : resolved); /* a source is the key: the same */
    p->rec->location = source ? source : resolved;
    if (f->license.set && NULL == (p->rec->license = keep(c, &f->license)))
        return oom(c);
    if (alias && (sb_strv_push(&p->rec->reader_props, c->a, "pixi:npm-alias") != SB_OK ||
                  sb_strv_push(&p->rec->reader_props, c->a, alias) != SB_OK))
        return oom(c);
    if (!f->integrity.set)
        return SB_OK;
    sb_code rc = SB_OK;
    const char *sri = temp(c, f->integrity.s, f->integrity.n, f->integrity.esc, &rc);
    return sri ? sb_js_integrity(c->a, p->rec, sri) : oom(c);
}

/* ---- v2 / v3: the `packages` table ---- */

static sb_code v2_entry(npm_ctx *c, const char *key, const npm_fields *f)
{
    long dir = dir_walk(c, 0, key, strlen(key), true);
    if (dir < 0)
        return oom(c);
    npm_ent *e = ent_add(c, key, (uint32_t)dir);
    if (NULL == e)
        return oom(c);
    memcpy(e->deps, f->deps, sizeof e->deps);
    const char *iname = install_name(key);
    e->folder = NULL == iname;
    if (!key[0]) {
        c->l.root_name = keep(c, &f->name);
        c->l.root_version = keep(c, &f->version);
        return (f->name.set && !c->l.root_name) || (f->version.set && !c->l.root_version) ? oom(c) : SB_OK;
    }
    if (f->link) {
        e->link = f->resolved.set ? keep(c, &f->resolved) : "";
        return e->link ? SB_OK : oom(c);
    }
    if (!f->version.set)
        return SB_OK; /* listed, not installed (npm keeps such entries) */
    const char *name = keep(c, &f->name);
    if (f->name.set && NULL == name)
        return oom(c);
    if (NULL == name && e->folder) {
        const char *slash = strrchr(key, '/');
        name = slash ? slash + 1 : key; /* the path is an arena string: its tail is one too */
    }
    if (NULL == name)
        name = iname;
    const char *alias = iname && strcmp(iname, name) ? iname : NULL;
    if (!name[0])
        return sb_err_set(c->err, SB_EPARSE, "packages[\"%.100s\"] has an empty name", key);
    const char *version = keep(c, &f->version);
    const char *resolved = keep(c, &f->resolved);
    if (NULL == version || (f->resolved.set && NULL == resolved))
        return oom(c);
    return take_pkg(c, e, f, name, version, resolved, alias);
}

static sb_code read_v2(npm_ctx *c, size_t offset)
{
    sb_jr r;
    sb_jr_init_at(&r, c->data, c->len, offset, c->jdepth);
    if (sb_jr_next(&r) != SB_JT_OBJ)
        return jerr(c, &r);
    for (;;) {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_jt t = sb_jr_next(&r);
        if (t == SB_JT_OBJ_END)
            return SB_OK;
        if (t != SB_JT_KEY)
            return jerr(c, &r);
        char *key = sb_jr_str(&r, c->a);
        if (NULL == key)
            return oom(c);
        t = sb_jr_next(&r);
        if (t != SB_JT_OBJ)
            return t == SB_JT_ERROR ? jerr(c, &r)
                                    : sb_err_set(c->err, SB_EPARSE, "packages[\"%.100s\"] must be an object", key);
        npm_fields f;
        sb_code rc = read_fields(c, &r, &f);
        if (rc == SB_OK)
            rc = v2_entry(c, key, &f);
        if (rc != SB_OK)
            return rc;
    }
}

/* ---- v1: nested `dependencies` ---- */

/* npm 5 wrote some v1 versions as the registry tarball itself
 * (".../acorn/-/acorn-4.0.4.tgz"), under the installed name or, for a
 * tarball installed under another name ("remote": ".../abbrev/-/abbrev-1.1.1.tgz"),
 * under that one: the package is the one the registry path names, at the
 * version its file name gives (<last part of the name>-<version>.tgz), so
 * abbrev 1.1.1 and not a versionless `remote`, an unrelated real package.
 * *name is set to that name (the installed one when they agree); NULL when
 * the URL is no registry tarball of that shape. */
static const char *registry_version(npm_ctx *c, const char *iname, const char *v, const char **name)
{
    if (!sb_model_npm_registry(v))
        return NULL;
    size_t end = strcspn(v, "?#");
    const char *dash = NULL;
    for (const char *p = v; p + 3 <= v + end && NULL == dash; p++)
        if (!memcmp(p, "/-/", 3))
            dash = p;
    const char *host = strstr(v, "://");
    if (NULL == dash || NULL == host || host > dash)
        return NULL;
    /* the name: the segment before "/-/", with its scope when the one
     * before it starts with '@' (or "@s%2fname" in one segment) */
    const char *ns = dash;
    while (ns > host + 3 && ns[-1] != '/')
        ns--;
    if (ns > host + 4 && ns[-1] == '/') {
        const char *sc = ns - 1;
        while (sc > host + 3 && sc[-1] != '/')
            sc--;
        if (*sc == '@')
            ns = sc;
    }
    if (ns == dash || ns <= host + 3)
        return NULL;
    char *real = sb_pct_decode(c->a, ns, (size_t)(dash - ns));
    if (NULL == real)
        return NULL;
    const char *base = strrchr(real, '/');
    base = base ? base + 1 : real;
    const char *file = v + end;
    while (file > v && file[-1] != '/')
        file--;
    size_t fl = (size_t)(v + end - file), bl = strlen(base);
    if (fl <= bl + 1 + 4 || strncmp(file, base, bl) || file[bl] != '-' || strncmp(v + end - 4, ".tgz", 4))
        return NULL;
    *name = strcmp(real, iname) ? real : iname;
    return sb_arena_strndup(c->a, file + bl + 1, fl - bl - 1 - 4);
}

/* v1 `version`: "1.2.3", "npm:real@1.2.3" (an alias), or a source spec
 * (git URL, file: path, tarball URL) standing where a version would. */
static sb_code v1_entry(npm_ctx *c, const char *path, uint32_t dir, const char *iname, const npm_fields *f)
{
    npm_ent *e = ent_add(c, path, dir);
    if (NULL == e)
        return oom(c);
    e->deps[DK_DEPS] = f->requires;
    if (!f->version.set)
        return SB_OK;
    const char *v = keep(c, &f->version), *resolved = keep(c, &f->resolved);
    if (NULL == v || (f->resolved.set && NULL == resolved))
        return oom(c);
    const char *name = iname, *version = v, *alias = NULL, *rv;
    if (!strncmp(v, "npm:", 4)) {
        size_t nl = sb_js_name_len(v + 4);
        name = sb_arena_strndup(c->a, v + 4, nl);
        version = v[4 + nl] == '@' ? v + 5 + nl : NULL;
        alias = iname;
        if (NULL == name)
            return oom(c);
    } else if (NULL != (rv = registry_version(c, iname, v, &name))) {
        version = rv;
        alias = name != iname ? iname : NULL; /* installed under another name: kept as pixi:npm-alias */
        if (NULL == resolved)
            resolved = v;
    } else if (strchr(v, ':') || strchr(v, '/')) {
        if (NULL == resolved)
            resolved = v;
        const char *hash = strchr(v, '#');
        version = hash && hash[1] ? hash + 1 : NULL; /* a git commit, else unknown */
    }
    return take_pkg(c, e, f, name, version, resolved, alias);
}

/* The `dependencies` value recorded at offset + 1 `off` (0: absent). */
static sb_code v1_walk(npm_ctx *c, uint32_t off, const char *parent, uint32_t pdir, unsigned depth)
{
    if (0 == off)
        return SB_OK;
    sb_jr r;
    sb_jr_init_at(&r, c->data, c->len, off - 1, c->jdepth);
    sb_jt t = sb_jr_next(&r);
    if (t == SB_JT_ERROR)
        return jerr(c, &r);
    if (t != SB_JT_OBJ)
        return sb_err_set(c->err, SB_EPARSE, "dependencies of '%.100s' must be an object",
                          !parent     ? "(a long path)"
                          : parent[0] ? parent
                                      : "(root)");
    if (depth > c->lim->max_depth)
        return sb_err_set(c->err, SB_ELIMIT, "dependencies nest deeper than %u", c->lim->max_depth);
    for (;;) {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        t = sb_jr_next(&r);
        if (t == SB_JT_OBJ_END)
            return SB_OK;
        if (t != SB_JT_KEY)
            return jerr(c, &r);
        char *name = sb_jr_str(&r, c->a);
        if (NULL == name)
            return oom(c);
        t = sb_jr_next(&r);
        if (t != SB_JT_OBJ)
            return t == SB_JT_ERROR ? jerr(c, &r)
                                    : sb_err_set(c->err, SB_EPARSE, "dependencies[\"%.100s\"] must be an object", name);
        npm_fields f;
        sb_code rc = read_fields(c, &r, &f);
        if (rc != SB_OK)
            return rc;
        long dir = dir_child(c, pdir, "node_modules", 12, true);
        if (dir >= 0)
            dir = dir_walk(c, (uint32_t)dir, name, strlen(name), true);
        if (dir < 0)
            return oom(c);
        /* the path spelled out only while it is one npm could install at */
        const char *path = NULL;
        if (parent && c->dirs[dir].len <= SB_NPM_PATH_MAX) {
            path = parent[0] ? sb_arena_printf(c->a, "%s/node_modules/%s", parent, name)
                             : sb_arena_printf(c->a, "node_modules/%s", name);
            if (NULL == path)
                return oom(c);
        }
        rc = v1_entry(c, path, (uint32_t)dir, name, &f);
        if (rc == SB_OK)
            rc = v1_walk(c, f.nested, path, (uint32_t)dir, depth + 1);
        if (rc != SB_OK)
            return rc;
    }
}

/* ---- edges ---- */

/* The entry installed at `path` (from the root), or NULL. */
static npm_ent *find(npm_ctx *c, const char *path, size_t n, sb_code *rc)
{
    long d = dir_walk(c, 0, path, n, false);
    if (d == -2)
        *rc = SB_ENOMEM;
    return d >= 0 && c->dirs[d].ent >= 0 ? &c->ents[c->dirs[d].ent] : NULL;
}

/* The nearest <dir>/node_modules/<name> from directory `from` up to the
 * root, links followed to their target; NULL when nothing provides it.
 * Each level up is work for the deadline. */
static npm_ent *resolve(npm_ctx *c, uint32_t from, const char *name, size_t nl, sb_code *rc)
{
    for (uint32_t d = from;;) {
        long nm = dir_child(c, d, "node_modules", 12, false);
        long t = nm >= 0 ? dir_walk(c, (uint32_t)nm, name, nl, false) : nm;
        if (t == -2 || nm == -2) {
            *rc = SB_ENOMEM;
            return NULL;
        }
        npm_ent *e = t >= 0 && c->dirs[t].ent >= 0 ? &c->ents[c->dirs[t].ent] : NULL;
        if (e && e->link)
            e = find(c, e->link, strlen(e->link), rc);
        if (e || *rc != SB_OK)
            return e;
        if (0 == d)
            return NULL;
        d = c->dirs[d].parent;
        if (sb_jsl_tick(&c->l, c->err) != SB_OK) {
            *rc = SB_ETIMEOUT;
            return NULL;
        }
    }
}

/* The edges of the dependency object recorded at offset + 1 `off`. */
static sb_code edges_of(npm_ctx *c, npm_ent *e, uint32_t off, sb_js_pkg *to_pkg, bool to_root)
{
    if (0 == off)
        return SB_OK;
    sb_jr r;
    sb_jr_init_at(&r, c->data, c->len, off - 1, c->jdepth);
    if (sb_jr_next(&r) != SB_JT_OBJ)
        return jerr(c, &r);
    for (;;) {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_jt t = sb_jr_next(&r);
        if (t == SB_JT_OBJ_END)
            return SB_OK;
        if (t != SB_JT_KEY)
            return jerr(c, &r);
        sb_code rc = SB_OK;
        const char *name = r.tok;
        size_t nl = r.tlen;
        if (r.escaped) {
            name = temp(c, r.tok, r.tlen, true, &rc);
            if (NULL == name)
                return oom(c);
            nl = strlen(name);
        }
        npm_ent *t_ent = resolve(c, e->dir, name, nl, &rc);
        if (rc == SB_ETIMEOUT)
            return rc;
        if (rc != SB_OK)
            return oom(c);
        if (sb_jr_next(&r) == SB_JT_ERROR || !sb_jr_skip(&r, NULL))
            return jerr(c, &r);
        if (NULL == t_ent || NULL == t_ent->pkg)
            continue; /* optional, peer or platform package not installed */
        if (to_root)
            rc = sb_jsl_root(&c->l, c->a, t_ent->pkg->rec->key);
        else
            rc = sb_js_dep(to_pkg, c->a, t_ent->pkg->rec->key);
        if (rc != SB_OK)
            return oom(c);
    }
}

static sb_code all_edges(npm_ctx *c)
{
    for (size_t i = 0; i < c->l.n; i++)
        scope_of_copies(c->l.pkgs[i]);
    for (size_t i = 0; i < c->n; i++) {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        npm_ent *e = &c->ents[i];
        bool root = 0 == e->dir;
        if (NULL == e->pkg && !root)
            continue;
        /* devDependencies are installed for the root and workspace folders
         * only (v1 holds its `requires` in the first slot) */
        size_t nk = e->folder ? DK_N : DK_DEV;
        for (size_t k = 0; k < nk; k++) {
            sb_code rc = edges_of(c, e, e->deps[k], e->pkg, root);
            if (rc != SB_OK)
                return rc;
        }
        if (e->folder && !root && e->pkg && sb_jsl_root(&c->l, c->a, e->pkg->rec->key) != SB_OK)
            return oom(c); /* a workspace member hangs off the root */
    }
    return SB_OK;
}

/* ---- reader ---- */

/* What the top level says, and where its sections start (offset + 1). */
typedef struct npm_top {
    bool has_version;
    long long version;
    npm_str name, root_version;
    uint32_t packages, dependencies;
    bool packages_object;
    size_t npackages;
} npm_top;

/* The first pass: the whole text checked, the top level's members noted. */
static sb_code read_top(npm_ctx *c, npm_top *top)
{
    sb_jr r;
    sb_jr_init(&r, c->data, c->len, c->jdepth);
    memset(top, 0, sizeof *top);
    sb_jt t = sb_jr_next(&r);
    if (t == SB_JT_ERROR)
        return jerr(c, &r);
    if (t != SB_JT_OBJ) {
        /* a syntax error anywhere is reported before the wrong shape */
        if (!sb_jr_skip(&r, NULL) || sb_jr_next(&r) != SB_JT_END)
            return jerr(c, &r);
        return sb_err_set(c->err, SB_EPARSE, "package-lock.json must be a JSON object");
    }
    for (;;) {
        t = sb_jr_next(&r);
        if (t == SB_JT_OBJ_END)
            break;
        if (t != SB_JT_KEY)
            return jerr(c, &r);
        int which = sb_jr_is(&r, "lockfileVersion") ? 1
                    : sb_jr_is(&r, "name")          ? 2
                    : sb_jr_is(&r, "version")       ? 3
                    : sb_jr_is(&r, "packages")      ? 4
                    : sb_jr_is(&r, "dependencies")  ? 5
                                                    : 0;
        t = sb_jr_next(&r);
        if (t == SB_JT_ERROR)
            return jerr(c, &r);
        size_t members = 0;
        switch (which) {
        case 1: top->has_version = t == SB_JT_NUM && sb_jr_int(&r, &top->version); break;
        case 2: top->name = (npm_str){r.tok, r.tlen, r.escaped, t == SB_JT_STR}; break;
        case 3: top->root_version = (npm_str){r.tok, r.tlen, r.escaped, t == SB_JT_STR}; break;
        case 4:
            top->packages = (uint32_t)r.tpos + 1;
            top->packages_object = t == SB_JT_OBJ;
            break;
        case 5: top->dependencies = (uint32_t)r.tpos + 1; break;
        default: break;
        }
        if (!sb_jr_skip(&r, &members))
            return jerr(c, &r);
        if (which == 4)
            top->npackages = members;
    }
    if (sb_jr_next(&r) != SB_JT_END)
        return jerr(c, &r);
    return SB_OK;
}

static sb_code read_lock(npm_ctx *c)
{
    npm_top top;
    sb_code rc = read_top(c, &top);
    if (rc != SB_OK)
        return rc;
    if (!top.has_version)
        return sb_err_set(c->err, SB_EPARSE, "not a package-lock.json: no integer lockfileVersion");
    long long v = top.version;
    if (v < 1 || v > 3)
        return sb_err_set(c->err, SB_EUNSUPPORTED,
                          "package-lock.json lockfileVersion %lld is not supported (versions 1, 2, 3 are read)", v);
    c->l.version = (int)v;
    if (v >= 2 && 0 == top.packages)
        return sb_err_set(c->err, SB_EPARSE, "package-lock.json v%lld has no packages", v);
    if (top.packages) {
        if (!top.packages_object)
            return sb_err_set(c->err, SB_EPARSE, "packages must be an object");
        /* sized once from the first pass: no table is grown (and copied) */
        c->ents = sb_arena_alloc(c->paths, (top.npackages + 1) * sizeof *c->ents);
        c->cap = top.npackages + 1;
        if (NULL == c->ents || dirs_init(c, top.npackages) != SB_OK ||
            sb_jsl_expect(&c->l, c->a, top.npackages) != SB_OK)
            return oom(c);
        rc = read_v2(c, top.packages - 1);
        /* the root is named by its "" entry, else by the top level (npm
         * writes both; a lock edited by hand or by a tool may keep only the
         * top-level pair, which once left the root "workspace") */
        if (rc == SB_OK && NULL == c->l.root_name) {
            c->l.root_name = keep(c, &top.name);
            if (NULL == c->l.root_version)
                c->l.root_version = keep(c, &top.root_version);
            if ((top.name.set && !c->l.root_name) || (top.root_version.set && !c->l.root_version))
                return oom(c);
        }
        /* v2/v3 state the root's dependencies ("" entry) and every other
         * edge: what none of them reaches is an orphan */
        c->l.orphans = true;
        return rc == SB_OK ? all_edges(c) : rc;
    }
    if (dirs_init(c, 256) != SB_OK)
        return oom(c);
    c->l.root_name = keep(c, &top.name);
    c->l.root_version = keep(c, &top.root_version);
    if ((top.name.set && !c->l.root_name) || (top.root_version.set && !c->l.root_version))
        return oom(c);
    rc = v1_walk(c, top.dependencies, "", 0, 1);
    return rc == SB_OK ? all_edges(c) : rc;
}

static sb_code npm_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
        data += 3;
        len -= 3;
    }
    if (len >= UINT32_MAX)
        return sb_err_set(err, SB_ELIMIT, "package-lock.json larger than 4 GiB");
    /* v1 nests two JSON levels per dependency level: room for the reader's
     * own bound on that nesting to speak first */
    unsigned jdepth = lim->max_depth * 4 + 16;
    npm_ctx c = {.a = a,
                 .err = err,
                 .lim = lim,
                 .data = data,
                 .len = len,
                 .jdepth = jdepth < SB_JR_MAX_DEPTH ? jdepth : SB_JR_MAX_DEPTH};
    sb_code rc = SB_OK;
    if (sb_jsl_init(&c.l, a, "package-lock.json", lim) != SB_OK || NULL == (c.paths = sb_arena_child(a)))
        rc = oom(&c);
    if (rc == SB_OK)
        rc = read_lock(&c);
    /* the install-path table is done with: its ~70 bytes per entry are not
     * held through sb_jsl_build (the records' properties), where the read
     * peaks with the input still held */
    sb_arena_destroy(c.paths);
    c.paths = NULL;
    if (rc == SB_OK)
        rc = sb_jsl_build(out, a, &c.l, err);
    sb_jsl_free(&c.l);
    free(c.scratch);
    free(c.tmp);
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

const sb_reader sb_reader_npm = {.kind = "package-lock.json",
                                 .detect = npm_detect,
                                 .read = npm_read,
                                 .record_line = NULL,
                                 .record_char = 0,
                                 .per_record = 0,
                                 .per_byte = 8};
