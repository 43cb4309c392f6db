/*
 * lock_bun.c - bun.lock, Bun's text lockfile (lockfileVersion 0 and 1), into
 * an sb_jsl (lock_js.h); bun.lockb, the binary one, refused with how to get
 * the text one.
 *
 * Paths read (everything else is ignored):
 *   lockfileVersion
 *   workspaces.<folder>.{name, version, dependencies, devDependencies,
 *     optionalDependencies, peerDependencies}; folder "" is the root
 *   packages.<install path>: an array whose first item is "name@<spec>":
 *     registry   [name@version, tarball URL or "", info, integrity]
 *     workspace  [name@workspace:<folder>]
 *     folder, link, tarball  [name@file:<path> | link:<path> | <path>.tgz | <URL>, info]
 *     git, github  [name@<git URL or github:o/r>#<commit>, info, <bun's tag>]
 *     info = {dependencies, optionalDependencies, peerDependencies,
 *             devDependencies (where bun installs them: folders, links),
 *             optionalPeers, bin, os, cpu, ...}
 *   overrides, patchedDependencies, trustedDependencies: properties of the
 *     packages they name (pixi:bun-override, pixi:bun-patch, pixi:bun-trusted)
 * An install path is the package names from the root down joined by '/'
 * ("a/@s/b" is node_modules/a/node_modules/@s/b): a dependency resolves to
 * the nearest <path>/<name> walking up from the dependent's path, the
 * node_modules lookup bun's hoisting is made for; the install paths are
 * kept as a tree of names (a node is its parent and its last name), so that
 * walking up costs one lookup of the dependency's name per level, never a
 * hash of a whole candidate path. A workspace member is
 * installed under the key of its `workspace:` entry (its name, or an
 * alias); its dependencies, listed in `workspaces`, resolve from there.
 * Registry packages are name@version; workspace members, folders, tarballs
 * and git packages carry their source in their identity, as the other
 * JavaScript readers do. The version of a git package is its commit; a
 * folder or tarball states none.
 *
 * DESIGN: bun writes JSONC (trailing commas; its parser takes comments
 * too). The text is copied once with each comment and trailing comma
 * blanked byte for byte, so lines and columns stay those of the input, and
 * the copy is read with the streaming tokenizer package-lock.json uses
 * (json_stream.h), not jansson: a tree of a large lock takes several times
 * the input (lock_npm.c), the copy once. Sections come in any order and
 * entries name packages further down, so the reading goes in passes over the
 * copy as lock_npm.c does: the top level (the whole text checked, where the
 * sections start, how many entries); the workspaces (members made); the
 * packages (records; where each one's info object starts); the properties;
 * then the edges, each info object read again at its offset once every
 * install path is known.
 */
#include "json_stream.h"
#include "lock_int.h"
#include "lock_js.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* dependency objects of a workspace or an info object */
enum { BD_DEPS, BD_OPTIONAL, BD_PEER, BD_DEV, BD_N };

/* An install path's node: its parent's and its last name's ids first (the
 * kids map's key), then the entry installed there, if any. */
typedef struct bun_node {
    uint32_t parent, name;
    uint32_t ent; /* index + 1 in ents; 0 = no entry (a path only passed through) */
} bun_node;

typedef struct bun_ent {
    uint32_t node;  /* its install path's node */
    sb_js_pkg *pkg; /* NULL: the root's own entry */
    uint32_t info;  /* offset + 1 of its info object; 0 = none */
} bun_ent;

typedef struct bun_ws {
    const char *folder;  /* "" = the root */
    sb_js_pkg *pkg;      /* the member; NULL for the root */
    const char *from;    /* the install path its dependencies resolve from (its name); NULL = the top */
    uint32_t deps[BD_N]; /* offset + 1 of each dependency object; 0 = none */
} bun_ws;

typedef struct bun_ctx {
    sb_arena *a;
    sb_err *err;
    const char *data; /* the input (JSONC, read in place) */
    size_t len;
    unsigned jdepth;
    sb_jsl l;
    sb_arena *scr; /* tables dropped before sb_jsl_build */
    sb_arena *per; /* one workspace's or info object's name set, reset for each */
    bun_ent *ents;
    size_t n, cap;
    sb_strmap by_path;
    bun_ws *ws;
    size_t nws, wscap;
    sb_strmap by_folder;
    unsigned max_depth; /* the limits' nesting bound: install paths deeper are refused */
    /* install paths as a tree of names: a node is (parent node, name id),
     * so that resolving looks up one name per level, never a whole path */
    sb_strmap names; /* a name -> its id */
    sb_strmap kids;  /* a node's 8-byte (parent, name) -> its index in nodes */
    struct bun_node **nodes;
    size_t nnodes, nodecap;
    size_t *segs; /* a path's names (start, length pairs), deepest first */
    char *tmp;    /* a decoded string used and dropped */
    size_t tmp_cap;
} bun_ctx;

typedef struct bun_top {
    bool has_version;
    long long version;
    uint32_t workspaces, packages, overrides, patched, trusted; /* offset + 1; 0 = absent */
    size_t nworkspaces, npackages;
} bun_top;

static sb_code oom(bun_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static sb_code jerr(bun_ctx *c, const sb_jr *r)
{
    return sb_jr_error(r, c->err, "bun.lock");
}

/* A positioned error at the offset of a token. */
static sb_code at_err(bun_ctx *c, const sb_jr *r, size_t off, const char *fmt, const char *what)
{
    unsigned line, col;
    sb_jr_pos(r, off, &line, &col);
    return sb_err_set_at(c->err, SB_EPARSE, line, col, fmt, what);
}

/* ---- JSONC ---- */

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* Past the whitespace and comments from i (comments as the tokenizer's
 * JSONC mode reads them); n when the text ends. */
static size_t skip_gap(const char *s, size_t n, size_t i)
{
    while (i < n) {
        if (is_space(s[i])) {
            i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *e = i + 2 < n ? memmem(s + i + 2, n - i - 2, "*/", 2) : NULL;
            i = e ? (size_t)(e - s) + 2 : n;
        } else {
            break;
        }
    }
    return i;
}

/* A tokenizer over the JSONC text from offset `at` (0: the whole text);
 * the tokenizer takes comments and trailing commas itself, so the input is
 * read in place, not from a blanked copy as large as it. */
static void jr_at(const bun_ctx *c, sb_jr *r, size_t at)
{
    sb_jr_init_at(r, c->data, c->len, at, c->jdepth);
    sb_jr_jsonc(r);
}

/* ---- small helpers ---- */

/* A decoded string in the reusable buffer (valid until the next call);
 * NULL when out of memory. */
static const char *temp(bun_ctx *c, const sb_jr *r)
{
    if (r->tlen + 1 > c->tmp_cap) {
        char *nb = realloc(c->tmp, r->tlen + 64);
        if (NULL == nb)
            return NULL;
        c->tmp = nb;
        c->tmp_cap = r->tlen + 64;
    }
    sb_jr_decode(r, c->tmp);
    return c->tmp;
}

/* The name an install path ends in: its last segment, with the scope before
 * it ("a/@s/b" -> "@s/b"); *dl = the length of the path it is under. */
static const char *last_name(const char *path, size_t n, size_t *dl)
{
    const char *s = path;
    size_t i = n;
    while (i && path[i - 1] != '/')
        i--;
    if (i >= 2) {
        size_t j = i - 1; /* the '/' before the last segment */
        while (j && path[j - 1] != '/')
            j--;
        if (path[j] == '@') {
            *dl = j ? j - 1 : 0;
            return s + j;
        }
        *dl = i - 1;
        return s + i;
    }
    *dl = 0;
    return s + i;
}

static sb_code push_prop(bun_ctx *c, sb_pkg *p, const char *name, const char *value)
{
    if (sb_strv_push(&p->reader_props, c->a, name) != SB_OK || sb_strv_push(&p->reader_props, c->a, value) != SB_OK)
        return oom(c);
    return SB_OK;
}

static sb_js_pkg *get_pkg(bun_ctx *c, const char *name, const char *version, const char *source, bool *added)
{
    sb_code code;
    sb_js_pkg *p = sb_jsl_get(&c->l, c->a, name, version, source, added, &code);
    if (NULL == p) {
        if (code == SB_ELIMIT)
            sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages);
        else
            oom(c);
    }
    return p;
}

/* ---- top level ---- */

static sb_code read_top(bun_ctx *c, bun_top *top)
{
    sb_jr r;
    jr_at(c, &r, 0);
    memset(top, 0, sizeof *top);
    sb_jt t = sb_jr_next(&r);
    if (t == SB_JT_ERROR)
        return jerr(c, &r);
    if (t != SB_JT_OBJ) {
        if (!sb_jr_skip(&r, NULL) || sb_jr_next(&r) != SB_JT_END)
            return jerr(c, &r);
        return sb_err_set(c->err, SB_EPARSE, "bun.lock must be a JSON object");
    }
    for (;;) {
        t = sb_jr_next(&r);
        if (t == SB_JT_OBJ_END)
            break;
        if (t != SB_JT_KEY)
            return jerr(c, &r);
        int which = sb_jr_is(&r, "lockfileVersion")       ? 1
                    : sb_jr_is(&r, "workspaces")          ? 2
                    : sb_jr_is(&r, "packages")            ? 3
                    : sb_jr_is(&r, "overrides")           ? 4
                    : sb_jr_is(&r, "patchedDependencies") ? 5
                    : sb_jr_is(&r, "trustedDependencies") ? 6
                                                          : 0;
        size_t koff = r.tpos;
        t = sb_jr_next(&r);
        if (t == SB_JT_ERROR)
            return jerr(c, &r);
        uint32_t off = (uint32_t)r.tpos + 1;
        static const char *const names[] = {
            "", "", "workspaces", "packages", "overrides", "patchedDependencies", "trustedDependencies"};
        bool want_obj = which >= 2 && which <= 5, want_arr = which == 6;
        if ((want_obj && t != SB_JT_OBJ) || (want_arr && t != SB_JT_ARR))
            return at_err(c, &r, koff, want_arr ? "bun.lock: %s must be an array" : "bun.lock: %s must be an object",
                          names[which]);
        switch (which) {
        case 1: top->has_version = t == SB_JT_NUM && sb_jr_int(&r, &top->version); break;
        case 2: top->workspaces = off; break;
        case 3: top->packages = off; break;
        case 4: top->overrides = off; break;
        case 5: top->patched = off; break;
        case 6: top->trusted = off; break;
        default: break;
        }
        size_t members = 0;
        if (!sb_jr_skip(&r, &members))
            return jerr(c, &r);
        if (which == 2)
            top->nworkspaces = members;
        if (which == 3)
            top->npackages = members;
    }
    if (sb_jr_next(&r) != SB_JT_END)
        return jerr(c, &r);
    return SB_OK;
}

/* ---- workspaces ---- */

static int dep_kind(const sb_jr *r)
{
    return sb_jr_is(r, "dependencies")           ? BD_DEPS
           : sb_jr_is(r, "optionalDependencies") ? BD_OPTIONAL
           : sb_jr_is(r, "peerDependencies")     ? BD_PEER
           : sb_jr_is(r, "devDependencies")      ? BD_DEV
                                                 : -1;
}

static sb_code one_workspace(bun_ctx *c, sb_jr *r, const char *folder)
{
    bun_ws *nv = sb_arena_grow(c->scr, c->ws, &c->wscap, c->nws, sizeof *nv, 16);
    if (NULL == nv)
        return oom(c);
    c->ws = nv;
    bun_ws *w = &c->ws[c->nws];
    memset(w, 0, sizeof *w);
    w->folder = folder;
    const char *name = NULL, *version = NULL;
    for (;;) {
        sb_jt t = sb_jr_next(r);
        if (t == SB_JT_OBJ_END)
            break;
        if (t != SB_JT_KEY)
            return jerr(c, r);
        int dk = dep_kind(r);
        int which = sb_jr_is(r, "name") ? 1 : sb_jr_is(r, "version") ? 2 : 0;
        t = sb_jr_next(r);
        if (t == SB_JT_ERROR)
            return jerr(c, r);
        if (which && t == SB_JT_STR) {
            const char *s = sb_jr_str(r, c->a);
            if (NULL == s)
                return oom(c);
            *(which == 1 ? &name : &version) = s;
        }
        if (dk >= 0 && t == SB_JT_OBJ)
            w->deps[dk] = (uint32_t)r->tpos + 1;
        if (!sb_jr_skip(r, NULL))
            return jerr(c, r);
    }
    if (!folder[0]) {
        c->l.root_name = name;
        c->l.root_version = version;
    } else {
        if (NULL == name || !name[0]) {
            const char *slash = strrchr(folder, '/');
            name = slash ? slash + 1 : folder;
        }
        if (!name[0])
            return sb_err_set(c->err, SB_EPARSE, "bun.lock: workspace '%.100s' has no name", folder);
        const char *source = sb_lock__location(c->a, folder);
        bool added;
        if (NULL == source)
            return oom(c);
        if (NULL == (w->pkg = get_pkg(c, name, version, source, &added)))
            return c->err->code;
        w->pkg->rec->location = source;
        w->from = name; /* bun resolves a member's dependencies from under its name */
    }
    if (sb_strmap_put(&c->by_folder, folder, strlen(folder), c->nws, NULL) < 0)
        return oom(c);
    c->nws++;
    return SB_OK;
}

static sb_code read_workspaces(bun_ctx *c, uint32_t off)
{
    sb_jr r;
    jr_at(c, &r, off - 1);
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
        size_t koff = r.tpos;
        char *folder = sb_jr_str(&r, c->a);
        if (NULL == folder)
            return oom(c);
        size_t at;
        if (sb_strmap_get(&c->by_folder, folder, strlen(folder), &at))
            return at_err(c, &r, koff, "bun.lock: workspace '%.100s' is listed twice", folder);
        t = sb_jr_next(&r);
        if (t != SB_JT_OBJ)
            return t == SB_JT_ERROR ? jerr(c, &r)
                                    : at_err(c, &r, koff, "bun.lock: workspaces[\"%.100s\"] must be an object", folder);
        sb_code rc = one_workspace(c, &r, folder);
        if (rc != SB_OK)
            return rc;
    }
}

static bun_ws *find_ws(bun_ctx *c, const char *folder)
{
    size_t at;
    return sb_strmap_get(&c->by_folder, folder, strlen(folder), &at) ? &c->ws[at] : NULL;
}

/* ---- packages ---- */

/* An entry's items after the first, as read. */
typedef struct bun_items {
    const char *ident; /* "name@spec", in the request's arena */
    size_t ident_off;  /* where it is (errors) */
    sb_jr strs[3];     /* the string items after it (tokenizer snapshots), in order */
    size_t nstrs;
    uint32_t info; /* offset + 1 of the first object item; 0 = none */
} bun_items;

static sb_code read_items(bun_ctx *c, sb_jr *r, const char *key, size_t koff, bun_items *it)
{
    memset(it, 0, sizeof *it);
    sb_jt t = sb_jr_next(r);
    if (t == SB_JT_ERROR)
        return jerr(c, r);
    if (t != SB_JT_STR)
        return at_err(c, r, koff, "bun.lock: packages[\"%.100s\"] must start with a \"name@version\" string", key);
    it->ident_off = r->tpos;
    if (NULL == (it->ident = sb_jr_str(r, c->a)))
        return oom(c);
    for (;;) {
        t = sb_jr_next(r);
        if (t == SB_JT_ARR_END)
            return SB_OK;
        if (t == SB_JT_ERROR || t == SB_JT_END)
            return jerr(c, r);
        if (t == SB_JT_STR && it->nstrs < 3)
            it->strs[it->nstrs++] = *r;
        else if (t == SB_JT_OBJ && 0 == it->info)
            it->info = (uint32_t)r->tpos + 1;
        if (!sb_jr_skip(r, NULL))
            return jerr(c, r);
    }
}

static bool has_prefix(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && !strcmp(s + n - k, suf);
}

static bool all_hex(const char *s)
{
    return s[0] && strspn(s, "0123456789abcdef") == strlen(s);
}

/* "github:owner/repo#commit" (and gitlab:, bitbucket:) as the git URL it
 * stands for; NULL for anything else. */
static const char *git_shorthand(bun_ctx *c, const char *s)
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

static bool is_git(const char *spec)
{
    return has_prefix(spec, "git+") || has_prefix(spec, "git://") || has_prefix(spec, "github:") ||
           has_prefix(spec, "gitlab:") || has_prefix(spec, "bitbucket:");
}

/* A string item that is an SRI integrity ("sha512-..."). */
static bool is_sri(const char *s)
{
    return has_prefix(s, "sha512-") || has_prefix(s, "sha384-") || has_prefix(s, "sha256-") || has_prefix(s, "sha1-");
}

/* The member a workspace: entry stands for (made when the workspaces
 * section does not list its folder); NULL with the error set, or for the
 * root (*root set). */
static sb_js_pkg *ws_entry(bun_ctx *c, const char *name, const char *folder, bool *root)
{
    *root = false;
    bun_ws *w = find_ws(c, folder);
    if (NULL == w && (!folder[0] || !strcmp(folder, ".")))
        w = find_ws(c, "");
    if (w && NULL == w->pkg) {
        *root = true;
        return NULL;
    }
    if (w)
        return w->pkg;
    bool added;
    const char *source = sb_lock__location(c->a, folder);
    sb_js_pkg *p = source ? get_pkg(c, name, NULL, source, &added) : NULL;
    if (NULL == source)
        oom(c);
    if (p)
        p->rec->location = source;
    return p;
}

/* A git package's commit: the resolved item when it is one (git), the
 * hex tail of bun's tag "owner-repo-<commit>" (github), else what the
 * ident pins after '#'; NULL when none. */
static const char *git_commit(bun_ctx *c, const bun_items *it, const char *pinned, sb_code *rc)
{
    for (size_t i = 0; i < it->nstrs; i++) {
        const char *s = temp(c, &it->strs[i]);
        if (NULL == s) {
            *rc = SB_ENOMEM;
            return NULL;
        }
        const char *dash = strrchr(s, '-');
        const char *h = all_hex(s) ? s : dash && !is_sri(s) && all_hex(dash + 1) ? dash + 1 : NULL;
        if (h && strlen(h) >= 7)
            return sb_arena_strdup(c->a, h);
    }
    return pinned && pinned[0] ? pinned : NULL;
}

/* ---- install paths ---- */

/* The names of path[0, n) as last_name() peels them, deepest first, into
 * c->segs as (start, length) pairs; how many, SIZE_MAX past the nesting
 * bound (no key is that deep: read_packages refuses them). */
static size_t split_names(bun_ctx *c, const char *path, size_t n)
{
    size_t k = 0, max = 2 * (size_t)c->max_depth + 1;
    for (size_t dl = n;;) {
        if (k == max)
            return SIZE_MAX;
        size_t up;
        const char *nm = last_name(path, dl, &up);
        c->segs[2 * k] = (size_t)(nm - path);
        c->segs[2 * k + 1] = dl - (size_t)(nm - path);
        k++;
        if (0 == up)
            return k;
        dl = up;
    }
}

/* The child of node `parent` by name id; UINT32_MAX when none. */
static uint32_t child(const bun_ctx *c, uint32_t parent, uint32_t name)
{
    uint32_t key[2] = {parent, name};
    size_t at;
    return sb_strmap_get(&c->kids, (const char *)key, sizeof key, &at) ? (uint32_t)at : UINT32_MAX;
}

/* The node of install path `path` (in the request's arena, which outlives
 * the maps: its names are keys), made with every node above it. Each name
 * is hashed once here, so a key costs its length, whatever its depth. */
static sb_code node_of(bun_ctx *c, const char *path, uint32_t *out)
{
    size_t k = split_names(c, path, strlen(path));
    if (k == SIZE_MAX)
        return sb_err_set(c->err, SB_ELIMIT, "bun.lock: packages[\"%.100s\"] nests too deep", path);
    uint32_t cur = 0;
    for (size_t j = k; j-- > 0;) {
        const char *nm = path + c->segs[2 * j];
        size_t nl = c->segs[2 * j + 1], id;
        int dup = sb_strmap_put(&c->names, nm, nl, c->names.count, &id);
        if (dup < 0)
            return oom(c);
        if (!dup)
            id = c->names.count - 1;
        uint32_t next = child(c, cur, (uint32_t)id);
        if (next == UINT32_MAX) {
            bun_node **nv = sb_arena_grow(c->scr, c->nodes, &c->nodecap, c->nnodes, sizeof *nv, 256);
            bun_node *nd = sb_arena_alloc(c->scr, sizeof *nd);
            if (NULL == nv || NULL == nd)
                return oom(c);
            c->nodes = nv;
            *nd = (bun_node){cur, (uint32_t)id, 0};
            next = (uint32_t)c->nnodes;
            /* the node's first 8 bytes are its key: nodes never move */
            if (sb_strmap_put(&c->kids, (const char *)nd, 2 * sizeof(uint32_t), next, NULL) < 0)
                return oom(c);
            c->nodes[c->nnodes++] = nd;
        }
        cur = next;
    }
    *out = cur;
    return SB_OK;
}

/* The deepest node on `path` that exists (a workspace member's folder need
 * not be an install path); 0, the top, when none. */
static uint32_t deepest_node(bun_ctx *c, const char *path)
{
    size_t k = split_names(c, path, strlen(path)), id;
    uint32_t cur = 0;
    for (size_t j = k == SIZE_MAX ? 0 : k; j-- > 0;) {
        if (!sb_strmap_get(&c->names, path + c->segs[2 * j], c->segs[2 * j + 1], &id))
            break;
        uint32_t next = child(c, cur, (uint32_t)id);
        if (next == UINT32_MAX)
            break;
        cur = next;
    }
    return cur;
}

static sb_code one_entry(bun_ctx *c, sb_jr *r, const char *key, const bun_items *it)
{
    bun_ent *nv = sb_arena_grow(c->scr, c->ents, &c->cap, c->n, sizeof *nv, 256);
    if (NULL == nv)
        return oom(c);
    c->ents = nv;
    bun_ent *e = &c->ents[c->n];
    memset(e, 0, sizeof *e);
    e->info = it->info;
    if (node_of(c, key, &e->node) != SB_OK)
        return c->err->code;
    c->nodes[e->node]->ent = (uint32_t)c->n + 1;
    size_t dl;
    const char *iname = last_name(key, strlen(key), &dl);
    const char *id = it->ident;
    if (has_prefix(id, "@root:")) /* the root package under no name */
        return sb_strmap_put(&c->by_path, key, strlen(key), c->n++, NULL) < 0 ? oom(c) : SB_OK;
    size_t nl = sb_js_name_len(id);
    if (id[nl] != '@' || 0 == nl)
        return at_err(c, r, it->ident_off, "bun.lock: '%.100s' is not name@version", id);
    const char *spec = id + nl + 1;
    const char *name = sb_arena_strndup(c->a, id, nl);
    if (NULL == name)
        return oom(c);
    /* bun names some folder packages by their path ("/app@file:../../app"):
     * the name they are installed under is theirs */
    bool named_by_key = name[0] == '/' || name[0] == '.';
    if (named_by_key)
        name = iname;
    if (!name[0])
        return at_err(c, r, it->ident_off, "bun.lock: packages[\"%.100s\"] has an empty name", key);
    sb_js_pkg *p = NULL;
    bool added = false, registry = false;
    const char *version = NULL, *source = NULL, *location = NULL, *sri = NULL;
    if (has_prefix(spec, "root:")) {
        p = NULL; /* the root package itself */
    } else if (has_prefix(spec, "workspace:")) {
        bool root;
        p = ws_entry(c, name, spec + 10, &root);
        if (NULL == p && !root)
            return c->err->code;
        e->info = 0; /* v0 restates a member's lists there; `workspaces` has them */
    } else {
        char *dup = sb_arena_strdup(c->a, spec);
        if (NULL == dup)
            return oom(c);
        if (is_git(spec)) {
            /* the repository without what the ident pins, then the commit */
            char *hash = strchr(dup, '#');
            if (hash)
                *hash++ = '\0';
            sb_code rc = SB_OK;
            version = git_commit(c, it, hash, &rc);
            if (rc != SB_OK)
                return oom(c);
            const char *repo = git_shorthand(c, dup);
            repo = repo ? repo : dup;
            source = version ? sb_arena_printf(c->a, "%s#%s", repo, version) : repo;
        } else if (has_prefix(spec, "file:") || has_prefix(spec, "link:")) {
            source = sb_lock__location(c->a, spec + 5);
        } else if (strstr(spec, "://")) {
            source = dup; /* a tarball URL */
        } else if (strchr(spec, ':') == NULL && (strchr(spec, '/') || ends_with(spec, ".tgz") ||
                                                 ends_with(spec, ".tar.gz") || ends_with(spec, ".tar"))) {
            source = sb_lock__location(c->a, spec); /* a local tarball or folder */
        } else {
            registry = true;
            version = dup;
        }
        if (NULL == version && NULL == source)
            return oom(c);
        if (registry) {
            /* [name@version, registry tarball or "", info, integrity] */
            if (it->nstrs >= 1) {
                const char *u = temp(c, &it->strs[0]);
                if (NULL == u)
                    return oom(c);
                if ((has_prefix(u, "https://") || has_prefix(u, "http://")) &&
                    NULL == (location = sb_arena_strdup(c->a, u)))
                    return oom(c);
            }
            if (it->nstrs >= 2 && NULL == (sri = temp(c, &it->strs[1])))
                return oom(c);
        } else {
            for (size_t i = 0; i < it->nstrs && NULL == sri; i++) {
                const char *s = temp(c, &it->strs[i]);
                if (NULL == s)
                    return oom(c);
                if (is_sri(s))
                    sri = s;
            }
        }
        if (NULL == (p = get_pkg(c, name, version, source, &added)))
            return c->err->code;
    }
    e->pkg = p;
    if (sb_strmap_put(&c->by_path, key, strlen(key), c->n, NULL) < 0)
        return oom(c);
    c->n++;
    if (NULL == p)
        return SB_OK;
    if (sb_js_path(p, c->a, key) != SB_OK)
        return oom(c);
    if (!added)
        return SB_OK;
    p->rec->location = source ? source : location;
    if (!named_by_key && strcmp(iname, name) && push_prop(c, p->rec, "pixi:npm-alias", iname) != SB_OK)
        return SB_ENOMEM;
    return sri ? sb_js_integrity(c->a, p->rec, sri) : SB_OK;
}

static sb_code read_packages(bun_ctx *c, uint32_t off)
{
    sb_jr r;
    jr_at(c, &r, off - 1);
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
        size_t koff = r.tpos;
        char *key = sb_jr_str(&r, c->a);
        if (NULL == key)
            return oom(c);
        size_t at;
        if (!key[0])
            return at_err(c, &r, koff, "bun.lock: packages has an empty key%s", "");
        size_t kl = strlen(key), slashes = 0;
        if (sb_strmap_get(&c->by_path, key, kl, &at))
            return at_err(c, &r, koff, "bun.lock: packages[\"%.100s\"] is listed twice", key);
        /* a name is at most two segments (@scope/name): deeper than the
         * nesting bound is no install path bun writes, and would make each
         * resolution walk that many levels */
        for (const char *q = key; (q = strchr(q, '/')); q++)
            slashes++;
        if (slashes > 2 * (size_t)c->max_depth) {
            unsigned line, col;
            sb_jr_pos(&r, koff, &line, &col);
            return sb_err_set_at(c->err, SB_ELIMIT, line, col,
                                 "bun.lock: packages[\"%.100s\"] nests deeper than %u packages", key, c->max_depth);
        }
        t = sb_jr_next(&r);
        if (t != SB_JT_ARR)
            return t == SB_JT_ERROR ? jerr(c, &r)
                                    : at_err(c, &r, koff, "bun.lock: packages[\"%.100s\"] must be an array", key);
        bun_items it;
        sb_code rc = read_items(c, &r, key, koff, &it);
        if (rc == SB_OK)
            rc = one_entry(c, &r, key, &it);
        if (rc != SB_OK)
            return rc;
    }
}

/* ---- overrides, patches, trusted packages ---- */

/* The string members of the object (or items of the array) at off into a
 * map in c->per: name -> the offset of its value (an array's: of itself),
 * non-strings skipped. */
static sb_code string_map(bun_ctx *c, uint32_t off, sb_strmap *m, bool array)
{
    sb_jr r;
    jr_at(c, &r, off - 1);
    if (sb_jr_next(&r) != (array ? SB_JT_ARR : SB_JT_OBJ) || sb_strmap_init(m, c->per, 16) != SB_OK)
        return array ? oom(c) : jerr(c, &r);
    for (;;) {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_jt t = sb_jr_next(&r);
        if (t == (array ? SB_JT_ARR_END : SB_JT_OBJ_END))
            return SB_OK;
        if (t == SB_JT_ERROR)
            return jerr(c, &r);
        const char *k = sb_jr_str(&r, c->per);
        if (NULL == k)
            return oom(c);
        if (!array) {
            t = sb_jr_next(&r);
            if (t == SB_JT_ERROR)
                return jerr(c, &r);
        }
        if (t == SB_JT_STR && sb_strmap_put(m, k, strlen(k), r.tpos, NULL) < 0)
            return oom(c);
        if (!sb_jr_skip(&r, NULL))
            return jerr(c, &r);
    }
}

/* The string value at offset `at` (a string token's opening quote), in c->a. */
static const char *string_at(bun_ctx *c, size_t at)
{
    sb_jr r;
    jr_at(c, &r, at);
    return sb_jr_next(&r) == SB_JT_STR ? sb_jr_str(&r, c->a) : NULL;
}

static sb_code read_props(bun_ctx *c, const bun_top *top)
{
    sb_strmap over, patched, trusted;
    sb_arena_reset(c->per);
    sb_code rc = SB_OK;
    if ((top->overrides && (rc = string_map(c, top->overrides, &over, false)) != SB_OK) ||
        (top->patched && (rc = string_map(c, top->patched, &patched, false)) != SB_OK) ||
        (top->trusted && (rc = string_map(c, top->trusted, &trusted, true)) != SB_OK))
        return rc;
    for (size_t i = 0; i < c->l.n; i++) {
        sb_pkg *p = c->l.pkgs[i]->rec;
        size_t at;
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (top->overrides && sb_strmap_get(&over, p->name, strlen(p->name), &at)) {
            const char *v = string_at(c, at);
            if (NULL == v || push_prop(c, p, "pixi:bun-override", v) != SB_OK)
                return oom(c);
        }
        /* patchedDependencies name a registry package by name@version, its key */
        if (top->patched && sb_strmap_get(&patched, p->key, strlen(p->key), &at)) {
            const char *v = string_at(c, at);
            if (NULL == v || push_prop(c, p, "pixi:bun-patch", v) != SB_OK)
                return oom(c);
        }
        if (top->trusted && sb_strmap_get(&trusted, p->name, strlen(p->name), &at) &&
            push_prop(c, p, "pixi:bun-trusted", "true") != SB_OK)
            return SB_ENOMEM;
    }
    return SB_OK;
}

/* ---- edges ---- */

/* The nearest <dir>/<name> from node `from` up to the top; NULL when
 * nothing provides it (an optional or platform package not installed). The
 * name is hashed once (a name no key holds ends it there); each level up
 * is then one lookup per name in it, counted against the deadline, so a
 * resolution costs the depth, never the depth times the path's length. */
static bun_ent *resolve(bun_ctx *c, uint32_t from, const char *name, size_t nl, sb_code *rc)
{
    size_t k = split_names(c, name, nl), id;
    if (k == SIZE_MAX)
        return NULL;
    for (size_t j = 0; j < k; j++) {
        if (!sb_strmap_get(&c->names, name + c->segs[2 * j], c->segs[2 * j + 1], &id))
            return NULL;
        c->segs[2 * j] = id; /* the start is done with */
    }
    size_t levels = 0;
    bun_ent *found = NULL;
    for (uint32_t at = from;;) {
        levels++;
        uint32_t cur = at;
        for (size_t j = k; j-- > 0 && cur != UINT32_MAX;)
            cur = child(c, cur, (uint32_t)c->segs[2 * j]);
        if (cur != UINT32_MAX && c->nodes[cur]->ent) {
            found = &c->ents[c->nodes[cur]->ent - 1];
            break;
        }
        if (0 == at)
            break;
        at = c->nodes[at]->parent;
    }
    if (sb_jsl_work(&c->l, levels * k, c->err) != SB_OK)
        *rc = SB_ETIMEOUT;
    return found;
}

/* The names of the array at off into the set m (c->per). */
static sb_code name_set(bun_ctx *c, uint32_t off, sb_strmap *m)
{
    return string_map(c, off, m, true);
}

/* What one dependency object gives: edges from `p` (NULL: the root) to the
 * packages its names resolve to from `from`. `skip` (may be NULL) holds names
 * a peer list must not restate; `opt` the optional peers. */
static sb_code edges_of(bun_ctx *c, sb_js_pkg *p, uint32_t from, uint32_t off, int dk, sb_strmap *seen,
                        const sb_strmap *opt)
{
    sb_jr r;
    jr_at(c, &r, off - 1);
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
            if (NULL == (name = temp(c, &r)))
                return oom(c);
            nl = strlen(name);
        }
        size_t at;
        bool restated = dk == BD_PEER && seen && sb_strmap_get(seen, name, nl, &at);
        if (dk != BD_PEER && seen) {
            /* r.tok is a slice of the input, which outlives the set */
            const char *k = r.escaped ? sb_arena_strndup(c->per, name, nl) : r.tok;
            if (NULL == k || sb_strmap_put(seen, k, nl, 0, NULL) < 0)
                return oom(c);
        }
        bool opt_peer = dk == BD_PEER && opt && sb_strmap_get(opt, name, nl, &at);
        bun_ent *t_ent = restated ? NULL : resolve(c, from, name, nl, &rc);
        if (rc != SB_OK)
            return rc == SB_ETIMEOUT ? rc : oom(c);
        if (sb_jr_next(&r) == SB_JT_ERROR || !sb_jr_skip(&r, NULL))
            return jerr(c, &r);
        if (NULL == t_ent || NULL == t_ent->pkg || t_ent->pkg == p)
            continue;
        const char *key = t_ent->pkg->rec->key;
        sb_js_scope how = dk == BD_DEV                    ? SB_JS_DEV
                          : dk == BD_OPTIONAL || opt_peer ? SB_JS_OPTIONAL
                          : dk == BD_PEER && NULL == p    ? SB_JS_PEER
                                                          : SB_JS_REQUIRED;
        rc = p ? sb_js_dep_scoped(p, c->a, key, how) : sb_jsl_root_scoped(&c->l, c->a, key, how);
        if (rc != SB_OK)
            return oom(c);
    }
}

/* The dependency objects and optionalPeers of the info object at off. */
static sb_code info_of(bun_ctx *c, uint32_t off, uint32_t deps[BD_N], uint32_t *opt_peers)
{
    sb_jr r;
    jr_at(c, &r, off - 1);
    memset(deps, 0, BD_N * sizeof *deps);
    *opt_peers = 0;
    if (sb_jr_next(&r) != SB_JT_OBJ)
        return jerr(c, &r);
    for (;;) {
        sb_jt t = sb_jr_next(&r);
        if (t == SB_JT_OBJ_END)
            return SB_OK;
        if (t != SB_JT_KEY)
            return jerr(c, &r);
        int dk = dep_kind(&r);
        bool op = sb_jr_is(&r, "optionalPeers");
        t = sb_jr_next(&r);
        if (t == SB_JT_ERROR)
            return jerr(c, &r);
        /* bun lists devDependencies only where it installs them (folder
         * and link packages): development edges */
        if (dk >= 0 && t == SB_JT_OBJ)
            deps[dk] = (uint32_t)r.tpos + 1;
        if (op && t == SB_JT_ARR)
            *opt_peers = (uint32_t)r.tpos + 1;
        if (!sb_jr_skip(&r, NULL))
            return jerr(c, &r);
    }
}

/* The edges of p (NULL: the root) from its dependency objects, peers last
 * so that a name also listed as a dependency keeps that list's scope. */
static sb_code deps_edges(bun_ctx *c, sb_js_pkg *p, uint32_t from, const uint32_t deps[BD_N], uint32_t opt_peers)
{
    static const int order[] = {BD_DEPS, BD_OPTIONAL, BD_DEV, BD_PEER};
    sb_strmap seen, opt;
    bool need_sets = deps[BD_PEER] != 0;
    if (need_sets) {
        sb_arena_reset(c->per);
        if (sb_strmap_init(&seen, c->per, 16) != SB_OK)
            return oom(c);
        sb_code rc = opt_peers ? name_set(c, opt_peers, &opt) : SB_OK;
        if (rc != SB_OK)
            return rc;
    }
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        int dk = order[i];
        if (0 == deps[dk])
            continue;
        sb_code rc = edges_of(c, p, from, deps[dk], dk, need_sets ? &seen : NULL, opt_peers ? &opt : NULL);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

static sb_code all_edges(bun_ctx *c)
{
    for (size_t i = 0; i < c->n; i++) {
        bun_ent *e = &c->ents[i];
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (NULL == e->pkg || 0 == e->info)
            continue;
        uint32_t deps[BD_N], opt_peers;
        sb_code rc = info_of(c, e->info, deps, &opt_peers);
        if (rc == SB_OK)
            rc = deps_edges(c, e->pkg, e->node, deps, opt_peers);
        if (rc != SB_OK)
            return rc;
    }
    for (size_t i = 0; i < c->nws; i++) {
        bun_ws *w = &c->ws[i];
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_code rc = deps_edges(c, w->pkg, w->from ? deepest_node(c, w->from) : 0, w->deps, 0);
        /* a workspace member hangs off the root */
        if (rc == SB_OK && w->pkg && sb_jsl_root_scoped(&c->l, c->a, w->pkg->rec->key, SB_JS_REQUIRED) != SB_OK)
            rc = oom(c);
        if (rc != SB_OK)
            return rc;
    }
    return c->l.has_roots ? sb_jsl_scopes(&c->l, c->a, c->err) : SB_OK;
}

/* ---- reader ---- */

static sb_code read_lock(bun_ctx *c)
{
    bun_top top;
    sb_code rc = read_top(c, &top);
    if (rc != SB_OK)
        return rc;
    if (!top.has_version)
        return sb_err_set(c->err, SB_EPARSE, "not a bun.lock: no integer lockfileVersion");
    if (top.version < 0 || top.version > 1)
        return sb_err_set(c->err, SB_EUNSUPPORTED,
                          "bun.lock lockfileVersion %lld is not supported (versions 0 and 1 are read)", top.version);
    c->l.version = (int)top.version;
    /* sized once from the first pass: no table is grown (and copied) */
    size_t np = top.npackages + 1, nw = top.nworkspaces + 1;
    c->ents = sb_arena_alloc(c->scr, np * sizeof *c->ents);
    c->ws = sb_arena_alloc(c->scr, nw * sizeof *c->ws);
    c->cap = np;
    c->wscap = nw;
    if (NULL == c->ents || NULL == c->ws || sb_strmap_init(&c->by_path, c->scr, np) != SB_OK ||
        sb_strmap_init(&c->by_folder, c->scr, nw) != SB_OK || sb_jsl_expect(&c->l, c->a, np + nw) != SB_OK ||
        sb_strmap_init(&c->names, c->scr, np) != SB_OK || sb_strmap_init(&c->kids, c->scr, np) != SB_OK ||
        NULL == (c->segs = malloc((4 * (size_t)c->max_depth + 4) * sizeof *c->segs)))
        return oom(c);
    /* node 0: the top, no name, no entry until the root's own */
    bun_node *top_node = sb_arena_alloc(c->scr, sizeof *top_node);
    c->nodes = sb_arena_alloc(c->scr, 256 * sizeof *c->nodes);
    if (NULL == top_node || NULL == c->nodes)
        return oom(c);
    *top_node = (bun_node){UINT32_MAX, UINT32_MAX, 0};
    c->nodecap = 256;
    c->nodes[c->nnodes++] = top_node;
    if (top.workspaces && (rc = read_workspaces(c, top.workspaces)) != SB_OK)
        return rc;
    if (top.packages && (rc = read_packages(c, top.packages)) != SB_OK)
        return rc;
    if ((rc = read_props(c, &top)) != SB_OK)
        return rc;
    return all_edges(c);
}

/* bun.lockb: "#!/usr/bin/env bun" then "bun-lockfile-format-v0" */
static bool is_lockb(const char *data, size_t len)
{
    size_t n = len < 128 ? len : 128;
    return (len >= 18 && !memcmp(data, "#!/usr/bin/env bun", 18)) ||
           NULL != memmem(data, n, "bun-lockfile-format-v", 21);
}

static sb_code bun_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    if (is_lockb(data, len))
        return sb_err_set(err, SB_EUNSUPPORTED,
                          "this is bun.lockb, Bun's binary lockfile, which sbomd does not read: send the text "
                          "lockfile bun.lock instead. Bun 1.2 and newer write bun.lock by default; with Bun 1.1.39 or "
                          "newer, `bun install --save-text-lockfile` writes it beside bun.lockb");
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
        data += 3;
        len -= 3;
    }
    if (len >= UINT32_MAX)
        return sb_err_set(err, SB_ELIMIT, "bun.lock larger than 4 GiB");
    unsigned jdepth = lim->max_depth + 8;
    bun_ctx c = {.a = a,
                 .err = err,
                 .len = len,
                 .jdepth = jdepth < SB_JR_MAX_DEPTH ? jdepth : SB_JR_MAX_DEPTH,
                 .max_depth = lim->max_depth};
    sb_code rc = SB_OK;
    if (sb_jsl_init(&c.l, a, "bun.lock", lim) != SB_OK || NULL == (c.scr = sb_arena_new(0)) ||
        NULL == (c.per = sb_arena_new(0)))
        rc = oom(&c);
    if (rc == SB_OK) {
        c.data = data;
        rc = read_lock(&c);
    }
    /* the tables are done with: nothing kept points into them */
    sb_arena_destroy(c.scr);
    sb_arena_destroy(c.per);
    free(c.segs);
    free(c.tmp);
    if (rc == SB_OK)
        rc = sb_jsl_build(out, a, &c.l, err);
    sb_jsl_free(&c.l);
    return rc;
}

static int bun_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "bun.lock") || !strcmp(base, "bun.lockb"))
            return 2;
    }
    /* the binary lockfile's header is a marker: refused with what to send */
    if (is_lockb(data, len))
        return 3;
    /* content: a JSON object naming a lockfileVersion whose `workspaces`
     * object comes before any `packages` (package-lock.json v2/v3 has
     * `packages` first and its workspaces as an array inside it) */
    size_t i = skip_gap(data, len < 4096 ? len : 4096, 0);
    if (i >= len || data[i] != '{')
        return 0;
    size_t n = len < 4096 ? len : 4096;
    const char *w = memmem(data, n, "\"workspaces\"", 12);
    const char *pk = memmem(data, n, "\"packages\"", 10);
    if (NULL == w || NULL == memmem(data, n, "\"lockfileVersion\"", 17) || (pk && pk < w))
        return 0;
    size_t k = skip_gap(data, n, (size_t)(w - data) + 12);
    if (k < n && data[k] == ':')
        k = skip_gap(data, n, k + 1);
    return k < n && data[k] == '{';
}

const sb_reader sb_reader_bun = {.kind = "bun.lock",
                                 .detect = bun_detect,
                                 .read = bun_read,
                                 .record_line = NULL,
                                 .record_char = '[',
                                 .per_record = 1000,
                                 .per_byte = 2};
