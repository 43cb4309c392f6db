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
 *     commit, directory}, dependencies, optionalDependencies, dev, optional}
 *   9.x: snapshots.<key>.{dependencies, optionalDependencies}
 * Keys: 5.x "/name/1.0.0_peer@2", 6.x "/name@1.0.0(peer@2)", 9.x
 * "name@1.0.0(peer@2)"; the peer part is kept as pixi:peer-suffixes of one
 * component, not another version. A <ref> is a version (the key is then
 * built from the dependency's name), a whole key (aliases, git-hosted and
 * tarball packages) or link:<path> to another importer (workspace member).
 * The importer "." is the document root; the other importers are workspace
 * members (pkg:generic). Scopes come from the importers down the graph of
 * lock keys, then merge per component (key_scopes), except where 5.x/6.x
 * keys state them (dev, optional: note_flags). A patch (patchedDependencies)
 * shows only as "(patch_hash=...)" in the keys: kept as pixi:pnpm-patch-hash.
 * When the file holds several YAML documents (pnpm 11 puts its own
 * packageManagerDependencies first) the last one is the project's lock.
 *
 * Read from libyaml events (yaml_ev.h), never as a whole tree: a tree of a
 * 100,000-entry lock held ~150 MB against a 26 MB input.
 * The sections come in any order and an edge may name a package listed
 * further down, so the input is pulled more than once, each pass keeping
 * only what the records need:
 *   1. every document: lockfileVersion, the packages (records), in 9.x the
 *      snapshot keys, and the importers' (or 5.x top-level) dependency lists,
 *      small, kept in their own arena;
 *   2. only when the chosen document named its lockfileVersion after its
 *      packages / snapshots: those again;
 *   3. the chosen document's package (5.x, 6.x) / snapshot (9.x) edges.
 * One entry's strings go through reusable buffers, look-up keys too: the
 * scratch arena holds the key tables and what the records' extras need.
 */
#include "lock_int.h"
#include "lock_js.h"
#include "buf.h"
#include "yaml_ev.h"

#include <stdlib.h>
#include <string.h>

/* The fields of one packages / snapshots / importers entry the records
 * need, in reusable buffers (the parser's strings last one event). */
enum { F_NAME, F_VERSION, F_INTEGRITY, F_TARBALL, F_TYPE, F_REPO, F_COMMIT, F_DIR, F_DEV, F_OPTIONAL, F_N };
enum { D_REQ, D_OPT, D_DEV, D_N }; /* dependencies, optionalDependencies, devDependencies */

typedef struct pn_ent {
    sb_buf s;           /* the fields' text, each '\0'-terminated */
    size_t off[F_N];    /* into s; SIZE_MAX: absent, null or not a scalar */
    sb_buf deps[D_N];   /* "name\0ref\0" pairs */
    unsigned seen;      /* the first occurrence of a key counts (as the tree's look-up did) */
    unsigned line, col; /* where the entry's value starts */
} pn_ent;

/* An importer (or the 5.x top level): its dependency lists, kept to the end. */
typedef struct pn_imp {
    const char *path;
    const char *deps[D_N];
    size_t dlen[D_N];
} pn_imp;

/* What pass 1 learns about the current document. */
typedef struct pn_doc {
    int has_version;   /* names a lockfileVersion (any value) */
    const char *vtext; /* its scalar text, NULL when null or not a scalar */
    unsigned vline, vcol;
    int major;        /* 5, 6, 9; 0 when unsupported or not read */
    int pk_done;      /* its packages read */
    int pk_deferred;  /* packages met before lockfileVersion */
    int snap_pending; /* 9.x snapshots not read yet */
    int imp_bad;      /* importers not a mapping */
    unsigned iline, icol;
    pn_imp *imps; /* NULL: no importers section */
    size_t nimps, capimps;
    int has_imps;
    pn_imp top; /* 5.x: the top-level dependency lists */
    unsigned seen;
} pn_doc;

enum { PASS_FIRST, PASS_PACKAGES, PASS_SNAPSHOTS, PASS_EDGES };

typedef struct pn_ctx {
    sb_arena *a; /* the request's: what the records keep */
    sb_arena *t; /* the reader's scratch (c->l.tmp): tables, records' extras */
    sb_arena *d; /* the importers' lists and document notes, to the end of the read */
    sb_err *err;
    const sb_limits *lim;
    const char *data;
    size_t len;
    int major;      /* 5, 6 or 9 */
    int have_state; /* the jsl holds a document's packages */
    sb_jsl l;
    sb_strmap by_key;    /* lock key (with peers) -> index into l.pkgs, unless it is */
    unsigned char *own;  /* ... the record's key: bit i set (l.by_key finds it, no second entry) */
    size_t nown;         /* bytes in own */
    sb_strmap importers; /* importer path -> index into l.pkgs, +1 (0 = the root ".") */
    sb_strmap dirs;      /* a directory resolution's location -> index into l.pkgs */
    pn_ent e;            /* the entry being read */
    sb_buf kb;           /* its key */
    sb_buf lk;           /* a look-up key built from a dependency */
    pn_doc doc, chosen;  /* the current document in pass 1; the last one naming a lockfileVersion */
    int ndocs;           /* documents seen */
    int chosen_at;       /* its index, -1 none */
    /* the peer suffixes of each package, each once: "<record key>\x01<suffix>"
     * seen, and per package (record key -> slot) the list built by appending */
    sb_strmap peer_seen, peer_slot;
    sb_strb *peer_b;
    size_t npeer_b, peer_cap;
    /* 5.x/6.x: what each package's keys state (index into l.pkgs; ST_*
     * bits), and whether any key of the document states dev or optional */
    unsigned char *stated;
    size_t nstated;
    int flags_seen;
    /* the graph of lock keys, each one peer variant of a component (its
     * dependencies are its own): scopes are walked over it, then merged per
     * component (see key_scopes) */
    sb_strmap nodes;    /* lock key (a member importer: "\x01" path) -> node */
    uint32_t *node_pkg; /* node -> index into l.pkgs */
    uint8_t *node_paths;
    size_t nnodes, cap_nodes, cap_paths;
    struct pn_edge *ed;
    const sb_meter *ed_meter; /* what the edges are charged to (the scratch arena's), kept
                               * past that arena, which sb_jsl_build destroys */
    size_t ned, cap_ed;
} pn_ctx;

/* One stated edge between lock keys; `from` PN_ROOT for the root importer. */
typedef struct pn_edge {
    uint32_t from, to;
    uint8_t cls; /* the path class it adds (sb_js_path_class) */
} pn_edge;

#define PN_ROOT UINT32_MAX

enum { ST_KEY = 1, ST_NOT_OPTIONAL = 2, ST_DEV = 4, ST_PROD = 8, ST_BOTH = 16 };

static sb_code oom(pn_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static sb_code fail_at(pn_ctx *c, unsigned line, unsigned col, sb_code code, const char *what, const char *key)
{
    return sb_err_set_at(c->err, code, line, col, "pnpm-lock.yaml: %s '%.100s'", what, key);
}

static const char *ent_str(const pn_ent *e, int f)
{
    return e->off[f] == SIZE_MAX ? NULL : e->s.data + e->off[f];
}

static void ent_reset(pn_ent *e)
{
    sb_buf_reset(&e->s);
    for (int i = 0; i < F_N; i++)
        e->off[i] = SIZE_MAX;
    for (int i = 0; i < D_N; i++)
        sb_buf_reset(&e->deps[i]);
    e->seen = 0;
}

static void ent_free(pn_ent *e)
{
    sb_buf_free(&e->s);
    for (int i = 0; i < D_N; i++)
        sb_buf_free(&e->deps[i]);
}

/* ---- state ---- */

static sb_code state_init(pn_ctx *c)
{
    if (sb_jsl_init(&c->l, c->a, "pnpm-lock.yaml", c->lim) != SB_OK ||
        sb_strmap_init(&c->by_key, c->l.tmp, 256) != SB_OK || sb_strmap_init(&c->importers, c->l.tmp, 16) != SB_OK ||
        sb_strmap_init(&c->dirs, c->l.tmp, 16) != SB_OK || sb_strmap_init(&c->peer_seen, c->l.tmp, 16) != SB_OK ||
        sb_strmap_init(&c->peer_slot, c->l.tmp, 16) != SB_OK)
        return oom(c);
    c->t = c->l.tmp;
    c->peer_b = NULL;
    c->npeer_b = c->peer_cap = 0;
    return SB_OK;
}

/* A later document names a lockfileVersion: it is the lock, not the one
 * read so far (whose records, small, stay in the request's arena unused). */
static sb_code state_reset(pn_ctx *c)
{
    sb_jsl_free(&c->l);
    if (c->own)
        memset(c->own, 0, c->nown);
    if (c->stated)
        memset(c->stated, 0, c->nstated);
    c->flags_seen = 0;
    return state_init(c);
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

/* The lock key a dependency <name>: <ref> points at (in c->lk, reused), by
 * pnpm's own rule for the version (refToRelative of its dependency-path
 * module). A peer suffix may name a scoped package, "7.23.3(@babel/core@7.23.3)",
 * and a URL may hold an '@', "git+ssh://git@host/r.git#abc": neither makes
 * the reference a key by itself. */
static const char *ref_key(pn_ctx *c, const char *name, const char *ref)
{
    const char *pre = "";
    const char *sep = "@";
    if (c->major == 9) {
        /* a key when an '@' comes before any ':' and '(' (an alias
         * "real@1.0.0", "@x/real@3.0.0"); else a version or URL of `name` */
        const char *at = strchr(ref, '@');
        if (ref[0] == '@' || (at && (size_t)(at - ref) < strcspn(ref, ":") && (size_t)(at - ref) < strcspn(ref, "(")))
            return ref;
    } else {
        /* 5.x and 6.x: a key when it holds a '/' before the peer suffix (an
         * alias "/real/1.0.0", a git-hosted "github.com/o/r/abc") or is a
         * file: reference; 5.x peer suffixes spell '/' as '+' */
        size_t base = c->major == 5 ? strlen(ref) : strcspn(ref, "(");
        if (!strncmp(ref, "file:", 5) || memchr(ref, '/', base))
            return ref;
        pre = "/";
        sep = c->major == 5 ? "/" : "@";
    }
    sb_buf_reset(&c->lk);
    if (sb_buf_append(&c->lk, pre, strlen(pre)) != SB_OK || sb_buf_append(&c->lk, name, strlen(name)) != SB_OK ||
        sb_buf_append(&c->lk, sep, 1) != SB_OK || sb_buf_append(&c->lk, ref, strlen(ref) + 1) != SB_OK)
        return NULL;
    return c->lk.data;
}

/* ---- packages ---- */

/* Identity from the resolution: NULL for a registry package, else where it
 * comes from (in the request's arena). */
static const char *pkg_source(pn_ctx *c, const pn_ent *e)
{
    const char *tarball = ent_str(e, F_TARBALL), *type = ent_str(e, F_TYPE);
    const char *dir = ent_str(e, F_DIR);
    if (type && !strcmp(type, "git")) {
        const char *repo = ent_str(e, F_REPO), *commit = ent_str(e, F_COMMIT);
        if (repo)
            return sb_js_git_url(c->a, repo, strlen(repo), commit, commit ? strlen(commit) : 0);
    }
    if (dir)
        return sb_lock__location(c->a, dir);
    if (tarball && !sb_model_npm_registry(tarball))
        return !strncmp(tarball, "file:", 5) ? sb_lock__location(c->a, tarball + 5) : sb_arena_strdup(c->a, tarball);
    return NULL;
}

static sb_js_pkg *pkg_of(pn_ctx *c, const char *key);

/* Mark pkgs[at] as found by its record key (see pkg_of_n). */
static sb_code own_set(pn_ctx *c, size_t at)
{
    if (at / 8 >= c->nown) {
        size_t n = c->nown ? c->nown : 1024;
        while (at / 8 >= n)
            n *= 2;
        unsigned char *v = realloc(c->own, n);
        if (NULL == v)
            return SB_ENOMEM;
        memset(v + c->nown, 0, n - c->nown);
        c->own = v;
        c->nown = n;
    }
    c->own[at / 8] |= (unsigned char)(1u << (at % 8));
    return SB_OK;
}

/* Map a lock key to its component and note its peer suffix. The key is kept
 * as an install path; when it spells the record's key (a 9.x registry
 * package: "name@1.0.0") that string serves, not a copy, and the jsl's key
 * map finds it: a bit, not a second 100,000-entry map (6 MB at 100,000). The
 * first package a key names keeps it, as when every key had its own entry. */
/* Record peer suffix `peers` of package p once, in linear time: a set
 * of what was seen, and the package's list built by appending (re-printing
 * the list and searching it per suffix made 12,000 suffixes of one package
 * take a gigabyte). */
static sb_code add_peers(pn_ctx *c, sb_js_pkg *p, const char *peers)
{
    const char *ik = p->rec->key; /* the package's identity: its record's key, in the request arena */
    const char *k = sb_arena_printf(c->t, "%s\x01%s", ik, peers);
    if (NULL == k)
        return oom(c);
    int seen = sb_strmap_put(&c->peer_seen, k, strlen(k), 0, NULL);
    if (seen)
        return seen < 0 ? oom(c) : SB_OK;
    size_t slot = c->npeer_b;
    int had = sb_strmap_put(&c->peer_slot, ik, strlen(ik), slot, &slot);
    if (had < 0)
        return oom(c);
    if (0 == had) {
        sb_strb *nb = sb_arena_grow(c->t, c->peer_b, &c->peer_cap, c->npeer_b, sizeof *nb, 16);
        if (NULL == nb)
            return oom(c);
        c->peer_b = nb;
        c->peer_b[c->npeer_b++] = (sb_strb){0};
    }
    if (sb_strb_add(&c->peer_b[slot], c->a, ", ", peers) != SB_OK)
        return oom(c);
    p->peers = c->peer_b[slot].s;
    return SB_OK;
}

/* A patched package's keys end in "(patch_hash=<hex>)" (6.x, 9.x) or
 * "_patch_hash=<hex>" (5.x): what pnpm applied, recorded on the component
 * (a peer suffix alone read as a peer variant). */
static sb_code patch_hash(pn_ctx *c, sb_js_pkg *p, const char *peers)
{
    const char *h = strstr(peers, "patch_hash=");
    if (NULL == h)
        return SB_OK;
    h += 11;
    size_t n = strcspn(h, ")_(");
    const char *v = n ? sb_arena_strndup(c->t, h, n) : NULL;
    if (0 == n)
        return SB_OK;
    return v && sb_js_prop_append(&c->l, p->rec, c->a, "pixi:pnpm-patch-hash", v, " ") == SB_OK ? SB_OK : oom(c);
}

static sb_code alias_key(pn_ctx *c, const char *key, sb_js_pkg *p, const char *peers)
{
    sb_code rc;
    size_t at;
    sb_strmap_get(&c->l.by_key, p->rec->key, strlen(p->rec->key), &at);
    int own = !strcmp(key, p->rec->key);
    const char *path = own ? p->rec->key : sb_arena_strdup(c->a, key);
    if (NULL == path || sb_js_path(p, c->a, path) != SB_OK)
        return oom(c);
    if (NULL == pkg_of(c, path) &&
        (own ? own_set(c, at) != SB_OK : sb_strmap_put(&c->by_key, path, strlen(path), at, NULL) < 0))
        return oom(c);
    if (peers && (rc = patch_hash(c, p, peers)) != SB_OK)
        return rc;
    return peers ? add_peers(c, p, peers) : SB_OK;
}

/* pnpm 5.x/6.x write on each package key whether only development reaches
 * it (dev: true), only production (dev: false) or both (no dev), and
 * optional: true when only optional edges do; each flag on its own. What a
 * component's keys state together (ST_* bits) is put over the scope the graph
 * gives (a lost edge once made required packages optional), except where
 * the flags leave it open: a key with no dev flag and no optional: true may
 * be reached by a dev path and an optional production one, which npm calls
 * devOptional, so the graph decides there (stated_scopes). */
static sb_code note_flags(pn_ctx *c, sb_js_pkg *p, const pn_ent *e)
{
    size_t at;
    if (c->major == 9 || !sb_strmap_get(&c->l.by_key, p->rec->key, strlen(p->rec->key), &at))
        return SB_OK;
    const char *dev = ent_str(e, F_DEV), *opt = ent_str(e, F_OPTIONAL);
    c->flags_seen |= dev || opt;
    if (at >= c->nstated) {
        size_t n = c->nstated ? c->nstated : 1024;
        while (at >= n)
            n *= 2;
        unsigned char *v = realloc(c->stated, n);
        if (NULL == v)
            return oom(c);
        memset(v + c->nstated, 0, n - c->nstated);
        c->stated = v;
        c->nstated = n;
    }
    int dev_true = dev && !strcmp(dev, "true"), dev_false = dev && !strcmp(dev, "false");
    c->stated[at] |= ST_KEY |
                     (dev_true    ? ST_DEV
                      : dev_false ? ST_PROD
                                  : ST_BOTH) |
                     (opt && !strcmp(opt, "true") ? 0 : ST_NOT_OPTIONAL);
    return SB_OK;
}

/* The scopes the keys state, over those of the graph (see note_flags); a
 * lock that states none anywhere (hand-written) keeps the graph's. Every key
 * dev: dev, whatever optional says (npm's word for an optional dependency of
 * a development tool); every key production: optional when every key says
 * optional, else required; every key optional while some key is reached from
 * both sides: optional; anything else is what the graph gives. */
static void stated_scopes(pn_ctx *c)
{
    for (size_t i = 0; c->flags_seen && i < c->l.n && i < c->nstated; i++) {
        unsigned f = c->stated[i];
        if (!(f & ST_KEY))
            continue;
        int opt = !(f & ST_NOT_OPTIONAL);
        unsigned sides = f & (ST_DEV | ST_PROD | ST_BOTH);
        if (sides == ST_DEV)
            c->l.pkgs[i]->scope = SB_JS_DEV;
        else if (sides == ST_PROD || opt)
            c->l.pkgs[i]->scope = opt ? SB_JS_OPTIONAL : SB_JS_REQUIRED;
    }
}

static sb_js_pkg *take_pkg(pn_ctx *c, const char *key, const pn_ent *e, sb_code *rc)
{
    pn_key k;
    const char *name = ent_str(e, F_NAME), *version = ent_str(e, F_VERSION);
    *rc = split_key(c, c->a, key, &k);
    if (*rc == SB_ENOMEM || (*rc == SB_EPARSE && !(name && version))) {
        *rc = *rc == SB_ENOMEM ? oom(c) : fail_at(c, e->line, e->col, SB_EPARSE, "cannot read the package key", key);
        return NULL;
    }
    const char *source = pkg_source(c, e);
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
    if ((*rc = alias_key(c, key, p, k.peers)) != SB_OK || (*rc = note_flags(c, p, e)) != SB_OK)
        return NULL;
    if (added && source && ent_str(e, F_DIR)) {
        size_t at;
        sb_strmap_get(&c->l.by_key, p->rec->key, strlen(p->rec->key), &at);
        if (sb_strmap_put(&c->dirs, source, strlen(source), at, NULL) < 0) {
            *rc = oom(c);
            return NULL;
        }
    }
    if (added) {
        p->rec->location = source ? source : sb_arena_strdup(c->a, ent_str(e, F_TARBALL));
        sb_js_integrity(c->a, p->rec, ent_str(e, F_INTEGRITY));
    }
    return p;
}

/* The package a lock key names: its own entry, or the record whose key it
 * spells when that record was marked as named by it. */
static sb_js_pkg *pkg_of_n(pn_ctx *c, const char *key, size_t n)
{
    size_t at;
    if (sb_strmap_get(&c->by_key, key, n, &at))
        return c->l.pkgs[at];
    if (sb_strmap_get(&c->l.by_key, key, n, &at) && at / 8 < c->nown && c->own[at / 8] & (1u << (at % 8)))
        return c->l.pkgs[at];
    return NULL;
}

static sb_js_pkg *pkg_of(pn_ctx *c, const char *key)
{
    return pkg_of_n(c, key, strlen(key));
}

/* A 9.x snapshot "name@1.0.0(peer@2)": the component of its package
 * "name@1.0.0", or one from the key alone when the lock lists no package. */
static sb_js_pkg *snapshot_pkg(pn_ctx *c, const char *key, const pn_ent *e, sb_code *rc)
{
    const char *s = key[0] == '/' ? key + 1 : key;
    const char *paren = strchr(s, '(');
    size_t base = paren ? (size_t)(paren - s) : strlen(s);
    size_t nl = sb_js_name_len(s);
    if (nl >= base || 0 == nl) {
        *rc = fail_at(c, e->line, e->col, SB_EPARSE, "cannot read the snapshot key", key);
        return NULL;
    }
    /* "name@version" is the key less its leading '/' and peer suffix */
    sb_js_pkg *p = pkg_of_n(c, s, base);
    if (NULL == p)
        return take_pkg(c, key, e, rc);
    const char *peers = paren ? sb_arena_strdup(c->t, paren) : NULL;
    if (paren && NULL == peers) {
        *rc = oom(c);
        return NULL;
    }
    *rc = alias_key(c, key, p, peers);
    return *rc == SB_OK ? p : NULL;
}

/* ---- reading events ---- */

static sb_code next(sb_yp *y)
{
    return sb_yp_next(y);
}

/* Store the current scalar as field f of the entry (first occurrence only). */
static sb_code field(pn_ent *e, sb_yp *y, int f)
{
    unsigned bit = 1u << f;
    if (e->seen & bit || sb_yp_type(y) != YAML_SCALAR_EVENT)
        return (e->seen |= bit, sb_yp_skip(y));
    e->seen |= bit;
    const char *v;
    sb_code rc = sb_yp_peek(y, &v, "a value");
    if (rc != SB_OK || NULL == v)
        return rc;
    e->off[f] = e->s.len;
    return sb_buf_append(&e->s, v, strlen(v) + 1) == SB_OK ? SB_OK : sb_err_set(y->err, SB_ENOMEM, "out of memory");
}

/* A mapping key (the current event), copied into `into` ('\0'-terminated). */
static sb_code key_into(sb_yp *y, sb_buf *into)
{
    const char *k;
    if (sb_yp_type(y) != YAML_SCALAR_EVENT)
        return sb_yp_fail(y, SB_EPARSE, "a mapping key must be a scalar");
    sb_code rc = sb_yp_peek(y, &k, "a key");
    if (rc != SB_OK)
        return rc;
    if (NULL == k)
        return sb_yp_fail(y, SB_EPARSE, "a mapping key is null");
    return sb_buf_append(into, k, strlen(k) + 1) == SB_OK ? SB_OK : sb_err_set(y->err, SB_ENOMEM, "out of memory");
}

/* A dependency map into "name\0ref\0" pairs; a ref is the scalar or the
 * first `version` of a {specifier, version} map; others are dropped. */
static sb_code read_deps(sb_yp *y, sb_buf *b)
{
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT)
        return sb_yp_skip(y);
    sb_code rc;
    while (sb_yp_entry(y, &rc)) {
        size_t mark = b->len;
        if ((rc = key_into(y, b)) != SB_OK || (rc = next(y)) != SB_OK)
            return rc;
        int kept = 0;
        if (sb_yp_type(y) == YAML_SCALAR_EVENT) {
            const char *v;
            if ((rc = sb_yp_peek(y, &v, "a version")) != SB_OK)
                return rc;
            if (v && sb_buf_append(b, v, strlen(v) + 1) != SB_OK)
                return sb_err_set(y->err, SB_ENOMEM, "out of memory");
            kept = NULL != v;
        } else if (sb_yp_type(y) == YAML_MAPPING_START_EVENT) {
            int seen = 0;
            char k[SB_YP_KEY_MAX];
            while (sb_yp_entry_key(y, k, "a dependency field", &rc)) {
                if (!seen && !strcmp(k, "version") && sb_yp_type(y) == YAML_SCALAR_EVENT) {
                    const char *v;
                    if ((rc = sb_yp_peek(y, &v, "a version")) != SB_OK)
                        return rc;
                    if (v && sb_buf_append(b, v, strlen(v) + 1) != SB_OK)
                        return sb_err_set(y->err, SB_ENOMEM, "out of memory");
                    kept = NULL != v;
                } else if ((rc = sb_yp_skip(y)) != SB_OK) {
                    return rc;
                }
                seen |= !strcmp(k, "version");
            }
            if (rc != SB_OK)
                return rc;
        } else if ((rc = sb_yp_skip(y)) != SB_OK) {
            return rc;
        }
        if (!kept)
            b->len = mark;
    }
    return rc;
}

static int dep_section(const char *k)
{
    return !strcmp(k, "dependencies")           ? D_REQ
           : !strcmp(k, "optionalDependencies") ? D_OPT
           : !strcmp(k, "devDependencies")      ? D_DEV
                                                : -1;
}

/* One entry's value (the current event): its fields, and with `deps` its
 * dependency lists. A value that is not a mapping has none. */
static sb_code read_entry(pn_ctx *c, sb_yp *y, int deps)
{
    pn_ent *e = &c->e;
    ent_reset(e);
    e->line = sb_yp_line(y);
    e->col = sb_yp_col(y);
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT)
        return sb_yp_skip(y);
    sb_code rc;
    char k[SB_YP_KEY_MAX];
    while (sb_yp_entry_key(y, k, "a package field", &rc)) {
        int d = deps ? dep_section(k) : -1;
        if (!strcmp(k, "name"))
            rc = field(e, y, F_NAME);
        else if (!strcmp(k, "version"))
            rc = field(e, y, F_VERSION);
        else if (!strcmp(k, "dev"))
            rc = field(e, y, F_DEV);
        else if (!strcmp(k, "optional"))
            rc = field(e, y, F_OPTIONAL);
        else if (!strcmp(k, "resolution") && !(e->seen & (1u << F_N)) && sb_yp_type(y) == YAML_MAPPING_START_EVENT) {
            e->seen |= 1u << F_N;
            while (sb_yp_entry_key(y, k, "a resolution field", &rc)) {
                int f = !strcmp(k, "integrity")   ? F_INTEGRITY
                        : !strcmp(k, "tarball")   ? F_TARBALL
                        : !strcmp(k, "type")      ? F_TYPE
                        : !strcmp(k, "repo")      ? F_REPO
                        : !strcmp(k, "commit")    ? F_COMMIT
                        : !strcmp(k, "directory") ? F_DIR
                                                  : -1;
                if ((rc = f >= 0 ? field(e, y, f) : sb_yp_skip(y)) != SB_OK)
                    return rc;
            }
            if (rc != SB_OK)
                return rc;
        } else if (!strcmp(k, "resolution")) {
            e->seen |= 1u << F_N;
            rc = sb_yp_skip(y);
        } else if (d >= 0 && !(e->seen & (1u << (F_N + 1 + d)))) {
            e->seen |= 1u << (F_N + 1 + d);
            rc = read_deps(y, &e->deps[d]);
        } else {
            rc = sb_yp_skip(y);
        }
        if (rc != SB_OK)
            return rc;
    }
    return rc;
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

/* The node of lock key [k, k+n), a key of component p; added when new. */
static sb_code node_of(pn_ctx *c, const char *k, size_t n, const sb_js_pkg *p, uint32_t *out)
{
    size_t at;
    if (sb_strmap_get(&c->nodes, k, n, &at)) {
        *out = (uint32_t)at;
        return SB_OK;
    }
    if (c->nnodes >= UINT32_MAX - 1)
        return sb_err_set(c->err, SB_ELIMIT, "pnpm-lock.yaml: more than %u lock keys", UINT32_MAX - 1);
    char *key = sb_arena_strndup(c->t, k, n);
    uint32_t *np = sb_arena_grow(c->t, c->node_pkg, &c->cap_nodes, c->nnodes, sizeof *np, 256);
    if (NULL == key || NULL == np)
        return oom(c);
    c->node_pkg = np;
    size_t pi = 0;
    sb_strmap_get(&c->l.by_key, p->rec->key, strlen(p->rec->key), &pi);
    np[c->nnodes] = (uint32_t)pi;
    if (sb_strmap_put(&c->nodes, key, n, c->nnodes, NULL) < 0)
        return oom(c);
    *out = (uint32_t)c->nnodes++;
    return SB_OK;
}

/* The lock-key edges given back, to the heap and to the meter. */
static void edges_free(pn_ctx *c)
{
    if (c->ed_meter && c->cap_ed)
        c->ed_meter->give(c->ed_meter->ctx, c->cap_ed * sizeof *c->ed);
    free(c->ed);
    c->ed = NULL;
    c->ned = c->cap_ed = 0;
}

static sb_code key_edge(pn_ctx *c, uint32_t from, uint32_t to, sb_js_scope how)
{
    /* malloc'd, not in the arena: each doubling there would leave the old
     * copy behind, as much again as the list, until the read ends. The
     * request's meter (the arena's) is still charged for it as it grows. */
    pn_edge *v = c->ed;
    if (c->ned == c->cap_ed) {
        size_t nc = c->cap_ed ? 2 * c->cap_ed : 256;
        const sb_meter *m = c->ed ? c->ed_meter : (c->ed_meter = sb_arena_meter_of(c->t));
        if (nc > SIZE_MAX / sizeof *v || (m && !m->take(m->ctx, (nc - c->cap_ed) * sizeof *v)))
            return oom(c);
        if (NULL == (v = realloc(c->ed, nc * sizeof *v))) {
            if (m)
                m->give(m->ctx, (nc - c->cap_ed) * sizeof *v);
            return oom(c);
        }
        c->ed = v;
        c->cap_ed = nc;
    }
    v[c->ned++] = (pn_edge){from, to, (uint8_t)sb_js_path_class(how)};
    return SB_OK;
}

/* The component a dependency points at, *nk the lock key it names (a
 * member importer's "\x01" path); NULL when the lock lacks it or it is the
 * root importer. */
static sb_js_pkg *target(pn_ctx *c, const char *from, const char *name, const char *ref, const char **nk)
{
    if (!strncmp(ref, "link:", 5)) {
        const char *path = join_path(c, from, ref + 5);
        size_t at;
        if (NULL == path || !sb_strmap_get(&c->importers, path, strlen(path), &at) || 0 == at)
            return NULL;
        *nk = sb_arena_printf(c->t, "\x01%s", path);
        return *nk ? c->l.pkgs[at - 1] : NULL;
    }
    const char *key = ref_key(c, name, ref);
    *nk = key;
    return key ? pkg_of(c, key) : NULL;
}

/* One dependency list ("name\0ref\0" pairs) of a package or importer; `p`
 * NULL = the root. `node` is the dependent's lock key (PN_ROOT: the root). */
static sb_code edges(pn_ctx *c, sb_js_pkg *p, uint32_t node, const char *from, const char *d, size_t dlen,
                     sb_js_scope how)
{
    if (NULL == d) /* an empty list */
        return SB_OK;
    for (const char *s = d, *end = d + dlen; s < end;) {
        const char *name = s, *ref = s + strlen(s) + 1;
        s = ref + strlen(ref) + 1;
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *nk = NULL;
        sb_js_pkg *t = target(c, from, name, ref, &nk);
        if (NULL == t || t == p)
            continue;
        uint32_t to;
        sb_code rc = node_of(c, nk, strlen(nk), t, &to);
        if (rc != SB_OK || (rc = key_edge(c, node, to, how)) != SB_OK)
            return rc;
        rc = p ? sb_js_dep_scoped(p, c->a, t->rec->key, how) : sb_jsl_root_scoped(&c->l, c->a, t->rec->key, how);
        if (rc != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

static sb_code deps_of(pn_ctx *c, sb_js_pkg *p, uint32_t node, const char *from, const pn_imp *im, int with_dev)
{
    sb_code rc = edges(c, p, node, from, im->deps[D_REQ], im->dlen[D_REQ], SB_JS_REQUIRED);
    if (rc == SB_OK)
        rc = edges(c, p, node, from, im->deps[D_OPT], im->dlen[D_OPT], SB_JS_OPTIONAL);
    if (rc == SB_OK && with_dev)
        rc = edges(c, p, node, from, im->deps[D_DEV], im->dlen[D_DEV], SB_JS_DEV);
    return rc;
}

/* Scopes walked over the lock keys from the root's, then merged per
 * component: one package at two peer variants has two sets of
 * dependencies, and a variant only development tools reach must not make
 * its own dependencies required because another variant is. A key
 * goes back on the worklist only when a path class is new to it, at most
 * once per class (8): linear in the edges. A key is never on it twice at
 * once (its classes so far are read when it is taken), so a ring of one
 * slot a key holds it. */
static sb_code key_scopes(pn_ctx *c)
{
    size_t nn = c->nnodes, cap = nn + 1, head = 0, tail = 0;
    uint8_t *paths = sb_arena_calloc(c->t, nn ? nn : 1, 1);
    uint8_t *queued = sb_arena_calloc(c->t, nn ? nn : 1, 1);
    size_t *first = sb_arena_calloc(c->t, nn + 2, sizeof *first);
    uint32_t *adj = sb_arena_alloc(c->t, (c->ned ? c->ned : 1) * sizeof *adj);
    uint32_t *q = sb_arena_alloc(c->t, cap * sizeof *q);
    if (NULL == paths || NULL == queued || NULL == first || NULL == adj || NULL == q)
        return oom(c);
    for (size_t e = 0; e < c->ned; e++)
        if (c->ed[e].from != PN_ROOT)
            first[c->ed[e].from + 2]++;
    for (size_t i = 2; i < nn + 2; i++)
        first[i] += first[i - 1];
    for (size_t e = 0; e < c->ned; e++) {
        const pn_edge *x = &c->ed[e];
        if (x->from != PN_ROOT) {
            adj[first[x->from + 1]++] = (uint32_t)e;
        } else if (!(paths[x->to] & 1u << x->cls)) {
            paths[x->to] |= (uint8_t)(1u << x->cls);
            if (!queued[x->to]) {
                queued[x->to] = 1;
                q[tail++] = x->to; /* each key once: no wrap yet */
            }
        }
    }
    /* first[u] .. first[u + 1]: u's edges */
    while (head != tail) {
        uint32_t u = q[head];
        head = head + 1 == cap ? 0 : head + 1;
        queued[u] = 0;
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        for (size_t k = first[u]; k < first[u + 1]; k++) {
            const pn_edge *x = &c->ed[adj[k]];
            uint8_t m = 0;
            for (unsigned cl = 0; cl < 8; cl++)
                if (paths[u] & 1u << cl)
                    m |= (uint8_t)(1u << (cl | x->cls));
            if (m & ~paths[x->to]) {
                paths[x->to] |= m;
                if (!queued[x->to]) {
                    queued[x->to] = 1;
                    q[tail] = x->to;
                    tail = tail + 1 == cap ? 0 : tail + 1;
                }
            }
        }
    }
    for (size_t i = 0; i < nn; i++)
        c->l.pkgs[c->node_pkg[i]]->paths |= paths[i];
    for (size_t i = 0; i < c->l.n; i++)
        if (c->l.pkgs[i]->paths)
            c->l.pkgs[i]->scope = sb_js_scope_of_paths(c->l.pkgs[i]->paths);
    return SB_OK;
}

/* The entry's lists as a pn_imp (pointing into the entry's buffers, or
 * copied into the document arena to be kept). */
static sb_code ent_lists(pn_ctx *c, pn_imp *im, int keep)
{
    for (int i = 0; i < D_N; i++) {
        const sb_buf *b = &c->e.deps[i];
        im->dlen[i] = b->len;
        im->deps[i] = b->len ? b->data : NULL;
        if (keep && b->len) {
            char *cp = sb_arena_alloc(c->d, b->len);
            if (NULL == cp)
                return oom(c);
            memcpy(cp, b->data, b->len);
            im->deps[i] = cp;
        }
    }
    return SB_OK;
}

/* ---- sections ---- */

/* Entries of a block mapping starting at byte `from`, counted from the
 * lines indented by two: a size hint only (tables sized once instead of
 * grown and left behind in copies); a wrong count costs nothing else. */
static size_t count_entries(const char *data, size_t len, size_t from)
{
    size_t n = 0, i = from;
    while (i > 0 && data[i - 1] != '\n')
        i--;
    for (int first = 1; i < len; first = 0) {
        const char *l = data + i, *nl = memchr(l, '\n', len - i);
        size_t ll = nl ? (size_t)(nl - l) : len - i;
        if (!first && ll && l[0] != ' ' && l[0] != '#' && l[0] != '\r')
            break;
        if (ll > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ' && l[2] != '#' && l[2] != '\r')
            n++;
        i += ll + 1;
    }
    return n;
}

static sb_code read_packages(pn_ctx *c, sb_yp *y)
{
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT)
        return sb_yp_fail(y, SB_EPARSE, "pnpm-lock.yaml: packages must be a mapping");
    size_t n = count_entries(c->data, c->len, y->ev.start_mark.index);
    /* sized once: no table grown and left behind in copies (9.x keys are
     * the records' own: that map stays small) */
    if (n > 256 && 0 == c->by_key.count &&
        (sb_jsl_expect(&c->l, c->a, n + c->doc.nimps) != SB_OK ||
         (c->major != 9 && sb_strmap_init(&c->by_key, c->t, n) != SB_OK)))
        return oom(c);
    sb_code rc;
    while (sb_yp_entry(y, &rc)) {
        sb_buf_reset(&c->kb);
        if ((rc = key_into(y, &c->kb)) != SB_OK || (rc = next(y)) != SB_OK || (rc = read_entry(c, y, 0)) != SB_OK)
            return rc;
        if ((rc = sb_jsl_tick(&c->l, c->err)) != SB_OK)
            return rc;
        if (NULL == take_pkg(c, c->kb.data, &c->e, &rc))
            return rc;
    }
    return rc;
}

/* Every 9.x snapshot key to its component, before any edge is read: a
 * dependency may name a snapshot listed further down. */
static sb_code read_snapshots(pn_ctx *c, sb_yp *y)
{
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT)
        return sb_yp_fail(y, SB_EPARSE, "pnpm-lock.yaml: snapshots must be a mapping");
    sb_code rc;
    while (sb_yp_entry(y, &rc)) {
        sb_buf_reset(&c->kb);
        if ((rc = key_into(y, &c->kb)) != SB_OK || (rc = next(y)) != SB_OK)
            return rc;
        if ((rc = sb_jsl_tick(&c->l, c->err)) != SB_OK)
            return rc;
        if (pkg_of(c, c->kb.data)) {
            if ((rc = sb_yp_skip(y)) != SB_OK)
                return rc;
            continue;
        }
        if ((rc = read_entry(c, y, 0)) != SB_OK)
            return rc;
        if (NULL == snapshot_pkg(c, c->kb.data, &c->e, &rc))
            return rc;
    }
    return rc;
}

/* Package (5.x, 6.x) or snapshot (9.x) dependencies. */
static sb_code package_edges(pn_ctx *c, sb_yp *y)
{
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT)
        return sb_yp_skip(y);
    sb_code rc;
    while (sb_yp_entry(y, &rc)) {
        sb_buf_reset(&c->kb);
        if ((rc = key_into(y, &c->kb)) != SB_OK || (rc = next(y)) != SB_OK)
            return rc;
        sb_js_pkg *p = pkg_of(c, c->kb.data);
        if ((rc = p ? read_entry(c, y, 1) : sb_yp_skip(y)) != SB_OK)
            return rc;
        pn_imp im;
        ent_lists(c, &im, 0);
        rc = sb_jsl_tick(&c->l, c->err);
        uint32_t node = 0;
        if (rc == SB_OK && p && (rc = node_of(c, c->kb.data, strlen(c->kb.data), p, &node)) == SB_OK)
            rc = deps_of(c, p, node, ".", &im, 0);
        if (rc != SB_OK)
            return rc;
    }
    return rc;
}

/* The importers' paths and dependency lists, kept for after the packages. */
static sb_code store_importers(pn_ctx *c, sb_yp *y)
{
    pn_doc *dc = &c->doc;
    dc->has_imps = 1;
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT) {
        dc->imp_bad = 1;
        dc->iline = sb_yp_line(y);
        dc->icol = sb_yp_col(y);
        return sb_yp_skip(y);
    }
    sb_code rc;
    while (sb_yp_entry(y, &rc)) {
        sb_buf_reset(&c->kb);
        if ((rc = key_into(y, &c->kb)) != SB_OK || (rc = next(y)) != SB_OK || (rc = read_entry(c, y, 1)) != SB_OK)
            return rc;
        pn_imp *v = sb_arena_grow(c->d, dc->imps, &dc->capimps, dc->nimps, sizeof *v, 8);
        if (NULL == v)
            return oom(c);
        dc->imps = v;
        pn_imp *im = &v[dc->nimps++];
        if (NULL == (im->path = sb_arena_strdup(c->d, c->kb.data)) || ent_lists(c, im, 1) != SB_OK)
            return oom(c);
    }
    return rc;
}

/* ---- importers ---- */

/* The names workspace members are linked under (defect 6: the
 * folder's last segment made dedupe/types, hooks/types and packages/types
 * one pkg:generic/types). pnpm links a workspace: dependency by the
 * member's package.json name, so the name a dependent importer gives a
 * link:<path> is the member's; the first importer to name a member names
 * it, a name already taken is not given twice. names[i]: NULL when none. */
static sb_code member_names(pn_ctx *c, const pn_doc *dc, const char **names)
{
    sb_strmap at, used;
    if (sb_strmap_init(&at, c->t, dc->nimps + 1) != SB_OK || sb_strmap_init(&used, c->t, dc->nimps + 1) != SB_OK)
        return oom(c);
    for (size_t i = 0; i < dc->nimps; i++)
        if (sb_strmap_put(&at, dc->imps[i].path, strlen(dc->imps[i].path), i, NULL) < 0)
            return oom(c);
    for (size_t i = 0; i < dc->nimps; i++) {
        const pn_imp *im = &dc->imps[i];
        for (int d = 0; d < D_N; d++) {
            if (NULL == im->deps[d]) /* an empty list */
                continue;
            for (const char *s = im->deps[d], *end = s + im->dlen[d]; s < end;) {
                const char *name = s, *ref = s + strlen(s) + 1;
                s = ref + strlen(ref) + 1;
                if (sb_jsl_tick(&c->l, c->err) != SB_OK)
                    return SB_ETIMEOUT;
                const char *path = strncmp(ref, "link:", 5) ? NULL : join_path(c, im->path, ref + 5);
                size_t j;
                if (NULL == path || !sb_strmap_get(&at, path, strlen(path), &j) || names[j] ||
                    !strcmp(dc->imps[j].path, "."))
                    continue;
                int taken = sb_strmap_put(&used, name, strlen(name), j, NULL);
                if (taken < 0)
                    return oom(c);
                if (0 == taken && NULL == (names[j] = sb_arena_strdup(c->a, name)))
                    return oom(c);
            }
        }
    }
    return SB_OK;
}

/* Each importer but "." becomes a workspace member component: the package
 * an injected dependency made of its folder (a directory resolution: the
 * lock's name and version), else one named as member_names says, else by
 * its path (pkg:generic either way: a folder, never a registry package). */
static sb_code read_importers(pn_ctx *c, const pn_doc *dc)
{
    const char **names = sb_arena_calloc(c->t, dc->nimps + 1, sizeof *names);
    if (NULL == names)
        return oom(c);
    sb_code rc = member_names(c, dc, names);
    if (rc != SB_OK)
        return rc;
    for (size_t i = 0; i < dc->nimps; i++) {
        const char *path = dc->imps[i].path;
        size_t idx = 0;
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (strcmp(path, ".")) {
            bool added;
            sb_code code = SB_ENOMEM;
            const char *loc = sb_lock__location(c->a, path);
            const char *name = names[i] ? names[i] : sb_arena_strdup(c->a, path);
            sb_js_pkg *p = NULL;
            if (loc && sb_strmap_get(&c->dirs, loc, strlen(loc), &idx))
                p = c->l.pkgs[idx];
            else if (loc && name)
                p = sb_jsl_get(&c->l, c->a, name, NULL, loc, &added, &code);
            if (NULL == p)
                return code == SB_ELIMIT ? sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages)
                                         : oom(c);
            p->rec->location = loc;
            sb_strmap_get(&c->l.by_key, p->rec->key, strlen(p->rec->key), &idx);
            idx++;
        }
        if (sb_strmap_put(&c->importers, path, strlen(path), idx, NULL) < 0)
            return oom(c);
    }
    return SB_OK;
}

static sb_code importer_edges(pn_ctx *c, const pn_doc *dc)
{
    if (!dc->has_imps) /* 5.x, one project: its dependencies at the top */
        return deps_of(c, NULL, PN_ROOT, ".", &dc->top, 1);
    for (size_t i = 0; i < dc->nimps; i++) {
        const char *path = dc->imps[i].path;
        size_t at = 0;
        sb_strmap_get(&c->importers, path, strlen(path), &at);
        sb_js_pkg *p = at ? c->l.pkgs[at - 1] : NULL;
        uint32_t node = PN_ROOT;
        sb_code rc = SB_OK;
        if (p) {
            const char *nk = sb_arena_printf(c->t, "\x01%s", path);
            rc = nk ? node_of(c, nk, strlen(nk), p, &node) : oom(c);
        }
        if (rc == SB_OK)
            rc = deps_of(c, p, node, path, &dc->imps[i], 1);
        /* members hang off the root; without a "." importer they are the roots */
        if (rc == SB_OK && p && (rc = key_edge(c, PN_ROOT, node, SB_JS_REQUIRED)) == SB_OK)
            rc = sb_jsl_root_scoped(&c->l, c->a, p->rec->key, SB_JS_REQUIRED) == SB_OK ? SB_OK : oom(c);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

/* ---- documents ---- */

static int parse_major(const char *v)
{
    int major = v ? atoi(v) : 0;
    return major == 5 || major == 6 || major == 9 ? major : 0;
}

enum { K_VERSION, K_PACKAGES, K_SNAPSHOTS, K_IMPORTERS, K_TOP }; /* seen bits; K_TOP + D_* */

/* One top-level key's value (the current event) of a document in a pass. */
static sb_code top_value(pn_ctx *c, sb_yp *y, int pass, const char *k)
{
    pn_doc *dc = &c->doc;
    int d = dep_section(k);
    int bit = !strcmp(k, "lockfileVersion") ? K_VERSION
              : !strcmp(k, "packages")      ? K_PACKAGES
              : !strcmp(k, "snapshots")     ? K_SNAPSHOTS
              : !strcmp(k, "importers")     ? K_IMPORTERS
              : d >= 0                      ? K_TOP + d
                                            : -1;
    if (bit < 0 || dc->seen & (1u << bit))
        return sb_yp_skip(y);
    dc->seen |= 1u << bit;
    if (pass == PASS_EDGES) {
        if (bit == (c->major == 9 ? K_SNAPSHOTS : K_PACKAGES))
            return package_edges(c, y);
        return sb_yp_skip(y);
    }
    if (pass == PASS_PACKAGES || pass == PASS_SNAPSHOTS) {
        if (bit == (pass == PASS_PACKAGES ? K_PACKAGES : K_SNAPSHOTS)) {
            sb_code rc = pass == PASS_PACKAGES ? read_packages(c, y) : read_snapshots(c, y);
            dc->pk_done |= rc == SB_OK && pass == PASS_PACKAGES;
            return rc;
        }
        return sb_yp_skip(y);
    }
    /* PASS_FIRST */
    switch (bit) {
    case K_VERSION: {
        sb_code rc;
        dc->has_version = 1;
        if (c->have_state && (rc = state_reset(c)) != SB_OK)
            return rc;
        c->have_state = 1;
        if (sb_yp_type(y) == YAML_SCALAR_EVENT) {
            const char *v;
            if ((rc = sb_yp_peek(y, &v, "lockfileVersion")) != SB_OK)
                return rc;
            dc->vline = sb_yp_line(y);
            dc->vcol = sb_yp_col(y);
            if (v && NULL == (dc->vtext = sb_arena_strdup(c->d, v)))
                return oom(c);
        }
        dc->major = parse_major(dc->vtext);
        c->major = dc->major;
        return sb_yp_skip(y);
    }
    case K_PACKAGES: {
        if (!dc->has_version) {
            dc->pk_deferred = 1;
            return sb_yp_skip(y);
        }
        if (0 == dc->major)
            return sb_yp_skip(y);
        sb_code rc = read_packages(c, y);
        dc->pk_done = rc == SB_OK;
        return rc;
    }
    case K_SNAPSHOTS:
        if (dc->major != 9 || !dc->pk_done) {
            dc->snap_pending = 1; /* read once every package is */
            return sb_yp_skip(y);
        }
        return read_snapshots(c, y);
    case K_IMPORTERS: return store_importers(c, y);
    default: { /* 5.x without importers: the project's own lists */
        sb_code rc;
        ent_reset(&c->e);
        if ((rc = read_deps(y, &c->e.deps[0])) != SB_OK)
            return rc;
        const sb_buf *b = &c->e.deps[0];
        if (b->len) {
            char *cp = sb_arena_alloc(c->d, b->len);
            if (NULL == cp)
                return oom(c);
            memcpy(cp, b->data, b->len);
            dc->top.deps[bit - K_TOP] = cp;
            dc->top.dlen[bit - K_TOP] = b->len;
        }
        return SB_OK;
    }
    }
}

/* One pass over the documents: PASS_FIRST reads every one (see the top of
 * the file), the others only the chosen one. */
static sb_code pass_over(pn_ctx *c, int pass)
{
    sb_yp y;
    sb_code rc = sb_yp_open(&y, c->d, c->data, c->len, c->lim, c->err);
    if (rc != SB_OK)
        return rc;
    int at = -1;
    for (;;) {
        if ((rc = next(&y)) != SB_OK)
            break;
        yaml_event_type_t t = sb_yp_type(&y);
        if (t == YAML_STREAM_END_EVENT)
            break;
        if (t != YAML_DOCUMENT_START_EVENT)
            continue; /* STREAM_START, DOCUMENT_END */
        at++;
        if ((rc = next(&y)) != SB_OK)
            break;
        int mine = pass == PASS_FIRST || at == c->chosen_at;
        if (!mine || sb_yp_type(&y) != YAML_MAPPING_START_EVENT) {
            if ((rc = sb_yp_skip(&y)) != SB_OK)
                break;
            continue;
        }
        if (pass == PASS_FIRST)
            memset(&c->doc, 0, sizeof c->doc);
        else
            c->doc.seen = 0, c->doc.pk_done = 0;
        char k[SB_YP_KEY_MAX];
        while (sb_yp_entry_key(&y, k, "a top-level key", &rc)) {
            if ((rc = top_value(c, &y, pass, k)) != SB_OK)
                break;
        }
        if (rc != SB_OK)
            break;
        if (pass == PASS_FIRST && c->doc.has_version) {
            c->chosen = c->doc;
            c->chosen_at = at;
        }
    }
    if (pass == PASS_FIRST)
        c->ndocs = at + 1;
    sb_yp_close(&y);
    return rc;
}

static sb_code read_lock(pn_ctx *c)
{
    sb_code rc = pass_over(c, PASS_FIRST);
    if (rc != SB_OK)
        return rc;
    pn_doc *dc = &c->chosen;
    if (c->chosen_at < 0)
        return sb_err_set(c->err, SB_EPARSE,
                          c->ndocs ? "not a pnpm-lock.yaml: no lockfileVersion" : "the pnpm-lock.yaml is empty");
    if (NULL == dc->vtext)
        return sb_err_set(c->err, SB_EPARSE, "not a pnpm-lock.yaml: no lockfileVersion");
    if (0 == dc->major)
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, dc->vline, dc->vcol,
                             "pnpm-lock.yaml lockfileVersion '%.32s' is not supported (5.x, 6.x and 9.x are read)",
                             dc->vtext);
    c->major = dc->major;
    c->l.version = dc->major;
    if (dc->imp_bad)
        return sb_err_set_at(c->err, SB_EPARSE, dc->iline, dc->icol, "pnpm-lock.yaml: importers must be a mapping");
    c->doc = *dc;
    if (dc->pk_deferred && (rc = pass_over(c, PASS_PACKAGES)) != SB_OK)
        return rc;
    if (dc->major == 9 && (dc->snap_pending || dc->pk_deferred) && (rc = pass_over(c, PASS_SNAPSHOTS)) != SB_OK)
        return rc;
    if (sb_strmap_init(&c->nodes, c->t, c->l.n + dc->nimps + 16) != SB_OK)
        return oom(c);
    if ((rc = read_importers(c, dc)) != SB_OK || (rc = pass_over(c, PASS_EDGES)) != SB_OK ||
        (rc = importer_edges(c, dc)) != SB_OK)
        return rc;
    rc = key_scopes(c);
    edges_free(c); /* the walk was its only reader */
    if (rc != SB_OK)
        return rc;
    stated_scopes(c);
    return SB_OK;
}

static sb_code pnpm_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
        data += 3;
        len -= 3;
    }
    pn_ctx c = {.a = a, .err = err, .lim = lim, .data = data, .len = len, .chosen_at = -1};
    sb_code rc = state_init(&c);
    if (rc == SB_OK && NULL == (c.d = sb_arena_child(a)))
        rc = oom(&c);
    if (rc == SB_OK)
        rc = read_lock(&c);
    if (rc == SB_OK)
        rc = sb_jsl_build(out, a, &c.l, err);
    sb_jsl_free(&c.l);
    sb_arena_destroy(c.d);
    ent_free(&c.e);
    sb_buf_free(&c.kb);
    sb_buf_free(&c.lk);
    free(c.own);
    free(c.stated);
    edges_free(&c);
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

const sb_reader sb_reader_pnpm = {.kind = "pnpm-lock.yaml",
                                  .detect = pnpm_detect,
                                  .read = pnpm_read,
                                  .record_line = NULL,
                                  .record_char = 0,
                                  .per_record = 0,
                                  .per_byte = 12};
