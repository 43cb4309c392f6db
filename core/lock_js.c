/*
 * lock_js.c - the back half shared by the JavaScript lockfile readers: one
 * package per name@version(+source), SRI integrity to hex, scopes merged,
 * and the sb_lock they become (see lock_js.h).
 */
#include "lock_js.h"

#include <string.h>

sb_code sb_jsl_init(sb_jsl *l, sb_arena *a, const char *kind, const sb_limits *lim)
{
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->max_packages = lim ? lim->max_packages : 500000;
    l->dl = (sb_deadline){lim ? lim->deadline_ns : 0, 0, "reading the lockfile"};
    if (NULL == (l->tmp = sb_arena_child(a)))
        return SB_ENOMEM;
    return sb_strmap_init(&l->by_key, l->tmp, 64);
}

void sb_jsl_free(sb_jsl *l)
{
    sb_arena_destroy(l->tmp);
    l->tmp = NULL;
}

sb_code sb_jsl_tick(sb_jsl *l, sb_err *err)
{
    return sb_deadline_tick(&l->dl, err);
}

sb_code sb_jsl_work(sb_jsl *l, size_t units, sb_err *err)
{
    return sb_deadline_work(&l->dl, units, err);
}

/* push onto a list allocated on its first use */
static sb_code push_lazy(sb_strv **v, sb_arena *a, const char *s)
{
    if (NULL == *v && NULL == (*v = sb_arena_calloc(a, 1, sizeof **v)))
        return SB_ENOMEM;
    return sb_strv_push(*v, a, s);
}

sb_code sb_jsl_expect(sb_jsl *l, sb_arena *a, size_t n)
{
    if (n > l->max_packages)
        n = l->max_packages;
    if (l->n || n <= l->cap)
        return SB_OK;
    l->pkgs = sb_arena_alloc(l->tmp, n * sizeof *l->pkgs);
    l->recs = sb_arena_calloc(a, n, sizeof *l->recs);
    if (NULL == l->pkgs || NULL == l->recs)
        return SB_ENOMEM;
    l->cap = n;
    l->nrecs = n;
    return sb_strmap_init(&l->by_key, l->tmp, n);
}

/* The next record: a slot of recs, grown when full (by an eighth past a
 * counted size, else doubled), every package's rec re-pointed at the copy. */
static sb_pkg *next_rec(sb_jsl *l, sb_arena *a)
{
    if (l->n == l->nrecs) {
        size_t nn = l->cap && l->nrecs >= l->cap ? l->nrecs + l->nrecs / 8 + 64 : 2 * l->nrecs + 64;
        sb_pkg *nv = sb_arena_calloc(a, nn, sizeof *nv);
        if (NULL == nv)
            return NULL;
        if (l->n)
            memcpy(nv, l->recs, l->n * sizeof *nv);
        for (size_t i = 0; i < l->n; i++)
            l->pkgs[i]->rec = &nv[i];
        l->recs = nv;
        l->nrecs = nn;
    }
    return &l->recs[l->n];
}

sb_code sb_js_path(sb_js_pkg *p, sb_arena *a, const char *path)
{
    if (NULL == p->path1) {
        p->path1 = path;
        return SB_OK;
    }
    return push_lazy(&p->paths_more, a, path);
}

const char *sb_js_key(sb_arena *a, const char *name, const char *version, const char *source)
{
    /* a registry package is its name@version whatever mirror served it; any
     * other source is part of the identity */
    return source ? sb_arena_printf(a, "%s@%s %s", name, version ? version : "", source)
                  : sb_arena_printf(a, "%s@%s", name, version ? version : "");
}

sb_js_pkg *sb_jsl_find(const sb_jsl *l, const char *key)
{
    size_t at;
    return sb_strmap_get(&l->by_key, key, strlen(key), &at) ? l->pkgs[at] : NULL;
}

static sb_js_pkg *add(sb_jsl *l, sb_arena *a, const char *key, sb_code *code)
{
    if (l->n >= l->max_packages) {
        *code = SB_ELIMIT;
        return NULL;
    }
    sb_js_pkg **nv = sb_arena_grow(l->tmp, l->pkgs, &l->cap, l->n, sizeof *nv, 64);
    if (NULL == nv)
        return NULL;
    l->pkgs = nv;
    sb_js_pkg *p = sb_arena_calloc(l->tmp, 1, sizeof *p);
    if (NULL == p || NULL == (p->rec = next_rec(l, a)) || sb_strmap_put(&l->by_key, key, strlen(key), l->n, NULL) < 0)
        return NULL;
    l->pkgs[l->n++] = p;
    return p;
}

sb_js_pkg *sb_jsl_get(sb_jsl *l, sb_arena *a, const char *name, const char *version, const char *source, bool *added,
                      sb_code *code)
{
    *code = SB_ENOMEM;
    *added = false;
    const char *key = sb_js_key(a, name, version, source);
    if (NULL == key)
        return NULL;
    sb_js_pkg *p = sb_jsl_find(l, key);
    if (p)
        return p;
    if (NULL == (p = add(l, a, key, code)))
        return NULL;
    p->rec->kind = SB_KIND_NPM;
    p->rec->name = name;
    p->rec->version = version;
    p->rec->key = key;
    *added = true;
    return p;
}

void sb_js_scope_merge(sb_js_pkg *p, sb_js_scope s)
{
    if (s > p->scope)
        p->scope = s;
}

static int b64_val(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* base64 [s, s+n) into `want` bytes at o (at most 64); 0 when it does not
 * decode to exactly that */
static int b64_bytes(unsigned char *o, const char *s, size_t n, size_t want)
{
    while (n && s[n - 1] == '=')
        n--;
    if ((n * 6) / 8 != want)
        return 0;
    unsigned acc = 0, bits = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64_val((unsigned char)s[i]);
        if (v < 0)
            return 0;
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (k < want)
                o[k] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
            k++;
        }
    }
    return k == want;
}

/* SHA-512 and SHA-384 are kept in binary (sb_pkg.sha512b, x->sha384b), SHA-256 and
 * SHA-1 in hex as every other reader keeps them. A digest fills an empty
 * slot; one that disagrees with the slot's returns 1 (the caller decides
 * what a second opinion means), anything else 0. */
static int one_digest(sb_arena *a, sb_pkg *p, const char *tok, size_t n)
{
    static const struct {
        const char *pfx;
        sb_hash_alg alg;
    } algs[] = {
        {"sha512-", SB_HASH_SHA512},
        {"sha384-", SB_HASH_SHA384},
        {"sha256-", SB_HASH_SHA256},
        {"sha1-", SB_HASH_SHA1},
    };
    for (size_t i = 0; i < sizeof algs / sizeof *algs; i++) {
        size_t pl = strlen(algs[i].pfx);
        if (n <= pl || strncmp(tok, algs[i].pfx, pl))
            continue;
        /* an SRI digest may carry "?options" after the base64 */
        const char *b = tok + pl;
        size_t bn = n - pl;
        const char *q = memchr(b, '?', bn);
        unsigned char bytes[64];
        size_t want = sb_hash_bytes(algs[i].alg);
        if (!b64_bytes(bytes, b, q ? (size_t)(q - b) : bn, want))
            return 0;
        switch (algs[i].alg) {
        case SB_HASH_SHA512:
            if (p->sha512b)
                return 0 != memcmp(p->sha512b, bytes, want);
            p->sha512b = sb_hash_keep(a, bytes, want);
            return 0;
        case SB_HASH_SHA384:
            if (sb_pkg_xr(p)->sha384b)
                return 0 != memcmp(sb_pkg_xr(p)->sha384b, bytes, want);
            sb_pkgx *x = sb_pkg_x(p, a);
            if (NULL == x) /* out of memory: dropped, as when it cannot be kept */
                return 0;
            x->sha384b = sb_hash_keep(a, bytes, want);
            return 0;
        default: {
            sb_hash_hex hx;
            const char *hex = sb_hash_to_hex(&hx, bytes, want);
            const char **slot = algs[i].alg == SB_HASH_SHA256 ? &p->sha256 : &p->sha1;
            if (*slot)
                return 0 != strcmp(*slot, hex);
            *slot = sb_arena_strdup(a, hex);
            return 0;
        }
        }
    }
    return 0;
}

sb_code sb_js_integrity(sb_arena *a, sb_pkg *p, const char *sri)
{
    if (NULL == sri)
        return SB_OK;
    for (const char *c = sri; *c;) {
        c += strspn(c, " \t\r\n");
        size_t n = strcspn(c, " \t\r\n");
        if (n)
            one_digest(a, p, c, n);
        c += n;
    }
    return SB_OK;
}

/* A property value being joined: where it is, its room. */
typedef struct sb_js_app {
    sb_pkg *p;
    size_t slot; /* its value's index in p->reader_props */
    char *buf;   /* in the request's arena; reader_props.v[slot] is buf */
    size_t len, cap;
} sb_js_app;

/* A map key in l->tmp: the record's address, then `a`, a NUL and `b` (NULL:
 * none); *n its length. */
static char *app_key(sb_jsl *l, const sb_pkg *p, const char *a, const char *b, size_t *n)
{
    size_t al = strlen(a), bl = b ? strlen(b) + 1 : 0;
    char *k = sb_arena_alloc(l->tmp, sizeof p + al + bl);
    if (NULL == k)
        return NULL;
    memcpy(k, &p, sizeof p);
    memcpy(k + sizeof p, a, al);
    if (b) {
        k[sizeof p + al] = '\0';
        memcpy(k + sizeof p + al + 1, b, bl - 1);
    }
    *n = sizeof p + al + bl;
    return k;
}

/* Whether (p, name, value) was listed; marks it. -1: out of memory. */
static int app_seen(sb_jsl *l, const sb_pkg *p, const char *name, const char *value, size_t vl)
{
    char *v = sb_arena_strndup(l->tmp, value, vl);
    size_t kn;
    char *k = v ? app_key(l, p, name, v, &kn) : NULL;
    if (NULL == k)
        return -1;
    int dup = sb_strmap_put(&l->app_seen, k, kn, 0, NULL);
    return dup < 0 ? -1 : dup;
}

/* Every piece of `s` between separators marked listed. */
static sb_code app_pieces(sb_jsl *l, const sb_pkg *p, const char *name, const char *s, const char *sep)
{
    size_t sl = strlen(sep);
    for (const char *c = s;;) {
        const char *e = sl ? strstr(c, sep) : NULL;
        size_t n = e ? (size_t)(e - c) : strlen(c);
        if (app_seen(l, p, name, c, n) < 0)
            return SB_ENOMEM;
        if (NULL == e)
            return SB_OK;
        c = e + sl;
    }
}

/* Room for `more` bytes after the value's end, doubling. */
static sb_code app_room(sb_js_app *ap, sb_arena *a, size_t more)
{
    if (ap->len + more + 1 <= ap->cap)
        return SB_OK;
    size_t cap = 2 * (ap->len + more + 1);
    char *nb = sb_arena_alloc(a, cap);
    if (NULL == nb)
        return SB_ENOMEM;
    memcpy(nb, ap->buf, ap->len + 1);
    ap->buf = nb;
    ap->cap = cap;
    ap->p->reader_props.v[ap->slot] = nb;
    return SB_OK;
}

sb_code sb_js_prop_append(sb_jsl *l, sb_pkg *p, sb_arena *a, const char *name, const char *value, const char *sep)
{
    size_t vl = strlen(value), sl = strlen(sep), kn, at;
    if ((NULL == l->app_by.slots && sb_strmap_init(&l->app_by, l->tmp, 16) != SB_OK) ||
        (NULL == l->app_seen.slots && sb_strmap_init(&l->app_seen, l->tmp, 16) != SB_OK))
        return SB_ENOMEM;
    char *k = app_key(l, p, name, NULL, &kn);
    if (NULL == k)
        return SB_ENOMEM;
    if (sb_strmap_get(&l->app_by, k, kn, &at)) {
        /* listed means equal to a piece between separators: a value with a
         * separator in it never is, and its pieces are listed after it */
        bool split = NULL != strstr(value, sep);
        int seen = split ? 0 : app_seen(l, p, name, value, vl);
        if (seen)
            return seen < 0 ? SB_ENOMEM : SB_OK;
        sb_js_app *ap = &l->apps[at];
        if (app_room(ap, a, sl + vl) != SB_OK)
            return SB_ENOMEM;
        memcpy(ap->buf + ap->len, sep, sl);
        memcpy(ap->buf + ap->len + sl, value, vl + 1);
        ap->len += sl + vl;
        return split ? app_pieces(l, p, name, value, sep) : SB_OK;
    }
    /* new here: the property as the record has it, or made */
    size_t slot = SIZE_MAX;
    for (size_t i = 0; i + 1 < p->reader_props.n && slot == SIZE_MAX; i += 2)
        if (!strcmp(p->reader_props.v[i], name))
            slot = i + 1;
    if (slot == SIZE_MAX) {
        const char *v = sb_arena_strdup(a, value);
        if (NULL == v || sb_strv_push(&p->reader_props, a, name) != SB_OK ||
            sb_strv_push(&p->reader_props, a, v) != SB_OK)
            return SB_ENOMEM;
        slot = p->reader_props.n - 1;
    }
    sb_js_app *nv = sb_arena_grow(l->tmp, l->apps, &l->appcap, l->napps, sizeof *nv, 16);
    if (NULL == nv)
        return SB_ENOMEM;
    l->apps = nv;
    const char *cur = p->reader_props.v[slot];
    sb_js_app *ap = &nv[l->napps];
    *ap = (sb_js_app){p, slot, (char *)cur, strlen(cur), 0};
    if (app_pieces(l, p, name, cur, sep) != SB_OK)
        return SB_ENOMEM;
    if (sb_strmap_put(&l->app_by, k, kn, l->napps++, NULL) < 0)
        return SB_ENOMEM;
    /* owned from here on (room 0: the first append copies it) */
    return strcmp(cur, value) ? sb_js_prop_append(l, p, a, name, value, sep) : SB_OK;
}

sb_code sb_js_integrity_union(sb_jsl *l, sb_arena *a, sb_pkg *p, const char *sri)
{
    if (NULL == sri)
        return SB_OK;
    for (const char *c = sri; *c;) {
        c += strspn(c, " \t\r\n");
        size_t n = strcspn(c, " \t\r\n");
        if (n && one_digest(a, p, c, n)) {
            const char *tok = sb_arena_strndup(a, c, n);
            if (NULL == tok || sb_js_prop_append(l, p, a, "pixi:other-integrity", tok, " ") != SB_OK)
                return SB_ENOMEM;
        }
        c += n;
    }
    return SB_OK;
}

sb_code sb_js_dep(sb_js_pkg *p, sb_arena *a, const char *key)
{
    if (NULL == key || (p->rec->key && !strcmp(p->rec->key, key)))
        return SB_OK;
    return sb_strv_push(&p->rec->depends, a, key);
}

sb_code sb_js_dep_scoped(sb_js_pkg *p, sb_arena *a, const char *key, sb_js_scope how)
{
    if (NULL == key || (p->rec->key && !strcmp(p->rec->key, key)))
        return SB_OK;
    if (how == SB_JS_OPTIONAL && push_lazy(&p->opt_deps, a, key) != SB_OK)
        return SB_ENOMEM;
    if (how == SB_JS_DEV && push_lazy(&p->dev_deps, a, key) != SB_OK)
        return SB_ENOMEM;
    return sb_strv_push(&p->rec->depends, a, key);
}

/* Scopes as npm means them: a path from the root is
 * classed by whether it passes a development edge (D), an optional edge (O),
 * and whether it starts at a peer (P); a package records the classes of the
 * paths that reach it (a bit per class) and is
 *   required     when some path is neither D nor O (nor from a peer),
 *   peer         else when some path from a peer is neither (and no O-only path),
 *   dev          when every path is D (npm's dev, with or without optional),
 *   optional     when every path is O,
 *   devOptional  otherwise: some path D only, another O only; npm removes it
 *                only when both dev and optional are omitted.
 * A dev dependency reached through dev edges only was devOptional before. */
enum { PC_D = 1, PC_O = 2, PC_P = 4 };

unsigned sb_js_path_class(sb_js_scope s)
{
    switch (s) {
    case SB_JS_DEV: return PC_D;
    case SB_JS_OPTIONAL: return PC_O;
    case SB_JS_DEV_OPTIONAL: return PC_D | PC_O;
    case SB_JS_PEER: return PC_P;
    default: return 0;
    }
}

sb_js_scope sb_js_scope_of_paths(uint8_t m)
{
    if (m & 1u << 0)
        return SB_JS_REQUIRED;
    int only_o = 0, all_d = 1, all_o = 1;
    for (unsigned c = 0; c < 8; c++)
        if (m & 1u << c) {
            all_d &= (c & PC_D) != 0;
            all_o &= (c & PC_O) != 0;
            only_o |= (c & (PC_D | PC_O)) == PC_O;
        }
    if ((m & 1u << PC_P) && !only_o)
        return SB_JS_PEER;
    if (all_d)
        return SB_JS_DEV;
    if (all_o)
        return SB_JS_OPTIONAL;
    return SB_JS_DEV_OPTIONAL;
}

sb_code sb_jsl_root_scoped(sb_jsl *l, sb_arena *a, const char *key, sb_js_scope s)
{
    sb_js_pkg *p = key ? sb_jsl_find(l, key) : NULL;
    if (NULL == p)
        return SB_OK;
    p->paths |= (uint8_t)(1u << sb_js_path_class(s));
    return sb_jsl_root(l, a, key);
}

static int listed(const sb_strv *v, const char *key)
{
    for (size_t i = 0; v && i < v->n; i++)
        if (!strcmp(v->v[i], key))
            return 1;
    return 0;
}

/* The path classes a dependency gets from its dependent's over one edge. */
static uint8_t through(const sb_js_pkg *u, const char *key)
{
    unsigned e = (listed(u->dev_deps, key) ? PC_D : 0) | (listed(u->opt_deps, key) ? PC_O : 0);
    uint8_t m = 0;
    for (unsigned c = 0; c < 8; c++)
        if (u->paths & 1u << c)
            m |= (uint8_t)(1u << (c | e));
    return m;
}

sb_code sb_jsl_scopes(sb_jsl *l, sb_arena *a, sb_err *err)
{
    /* a worklist: a package goes back on it only when a path class is new
     * to it, at most once per class (8): linear in the edges. It is never
     * on it twice at once (its classes so far are read when it is taken),
     * so a ring of one slot a package holds it: 8 bytes a package, not the
     * 72 of every visit */
    size_t cap = l->n + 1, head = 0, tail = 0;
    (void)a; /* the queue is the reader's scratch, gone with it */
    sb_js_pkg **q = sb_arena_alloc(l->tmp, cap * sizeof *q);
    if (NULL == q)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < l->n; i++)
        if (l->pkgs[i]->paths) {
            l->pkgs[i]->queued = true;
            q[tail++] = l->pkgs[i];
        }
    while (head != tail) {
        sb_js_pkg *u = q[head];
        head = head + 1 == cap ? 0 : head + 1;
        u->queued = false;
        if (sb_jsl_tick(l, err) != SB_OK)
            return SB_ETIMEOUT;
        for (size_t d = 0; d < u->rec->depends.n; d++) {
            sb_js_pkg *v = sb_jsl_find(l, u->rec->depends.v[d]);
            if (NULL == v)
                continue;
            uint8_t m = through(u, u->rec->depends.v[d]);
            if (m & ~v->paths) {
                v->paths |= m;
                if (!v->queued) {
                    v->queued = true;
                    q[tail] = v;
                    tail = tail + 1 == cap ? 0 : tail + 1;
                }
            }
        }
    }
    for (size_t i = 0; i < l->n; i++)
        if (l->pkgs[i]->paths)
            l->pkgs[i]->scope = sb_js_scope_of_paths(l->pkgs[i]->paths);
    return SB_OK;
}

sb_code sb_jsl_root(sb_jsl *l, sb_arena *a, const char *key)
{
    sb_js_pkg *p = key ? sb_jsl_find(l, key) : NULL;
    if (NULL == p || p->direct)
        return SB_OK;
    p->direct = true;
    l->has_roots = true;
    return sb_strv_push(&l->roots, a, key);
}

/* ---- git sources (pnpm, yarn) ---- */

const char *sb_js_git_url(sb_arena *a, const char *repo, size_t n, const char *commit, size_t cn)
{
    size_t k = 0;
    while (k + 3 <= n && memcmp(repo + k, "://", 3))
        k++;
    /* scp-like only with a user before the host: "github:o/r" is none */
    const char *colon = k + 3 > n ? memchr(repo, ':', n) : NULL;
    const char *at = colon ? memchr(repo, '@', (size_t)(colon - repo)) : NULL;
    if (NULL == at || memchr(repo, '/', (size_t)(colon - repo)))
        colon = NULL;
    const char *pre = !strncmp(repo, "git+", 4) || !strncmp(repo, "git://", 6) ? "" : "git+";
    const char *tail = commit && cn ? "#" : "";
    if (colon) /* scp-like user@host:path, what ssh reads: git+ssh://user@host/path */
        return sb_arena_printf(a, "git+ssh://%.*s/%.*s%s%.*s", (int)(colon - repo), repo,
                               (int)(n - (size_t)(colon - repo) - 1), colon + 1, tail, (int)cn, commit ? commit : "");
    return sb_arena_printf(a, "%s%.*s%s%.*s", pre, (int)n, repo, tail, (int)cn, commit ? commit : "");
}

size_t sb_js_name_len(const char *desc)
{
    const char *at = strchr(desc + (desc[0] == '@'), '@');
    return at ? (size_t)(at - desc) : strlen(desc);
}

const char *sb_js_scope_word(sb_js_scope s)
{
    switch (s) {
    case SB_JS_DEV: return "dev";
    case SB_JS_DEV_OPTIONAL: return "devOptional";
    case SB_JS_PEER: return "peer";
    case SB_JS_OPTIONAL: return "optional";
    case SB_JS_REQUIRED: return "required";
    case SB_JS_UNSET: break;
    }
    return NULL;
}

/* "a, b, c" of a package's install paths; the one path itself when it has
 * no other */
static const char *join_paths(sb_arena *a, const sb_js_pkg *p)
{
    const sb_strv *v = p->paths_more;
    if (NULL == v || 0 == v->n)
        return p->path1;
    size_t n = strlen(p->path1) + 1;
    for (size_t i = 0; i < v->n; i++)
        n += strlen(v->v[i]) + 2;
    char *s = sb_arena_alloc(a, n);
    if (NULL == s)
        return NULL;
    size_t o = strlen(p->path1);
    memcpy(s, p->path1, o);
    for (size_t i = 0; i < v->n; i++) {
        size_t k = strlen(v->v[i]);
        memcpy(s + o, ", ", 2);
        o += 2;
        memcpy(s + o, v->v[i], k);
        o += k;
    }
    s[o] = '\0';
    return s;
}

/* The model's scope (CycloneDX scope, SPDX DEV_/OPTIONAL_DEPENDENCY_OF):
 * dev and devOptional are development; optional and peer (the consumer
 * provides it, npm may skip it) optional; the npm word stays in pixi:scope. */
sb_scope sb_js_model_scope(sb_js_scope s)
{
    switch (s) {
    case SB_JS_DEV:
    case SB_JS_DEV_OPTIONAL: return SB_SCOPE_DEVELOPMENT;
    case SB_JS_PEER:
    case SB_JS_OPTIONAL: return SB_SCOPE_OPTIONAL;
    case SB_JS_REQUIRED: return SB_SCOPE_REQUIRED;
    case SB_JS_UNSET: break;
    }
    return SB_SCOPE_NONE;
}

static sb_code finish_pkg(sb_js_pkg *p, sb_arena *a, bool orphan)
{
    p->rec->scope = sb_js_model_scope(p->scope);
    /* the reader's own properties (an alias, yarn's checksum) and those of
     * the four below it has, in one exactly sized array rather than a vector
     * grown twice */
    size_t want = p->rec->reader_props.n + 2 * ((NULL != sb_js_scope_word(p->scope)) + (NULL != p->path1) + p->direct +
                                                (NULL != p->peers) + orphan);
    if (want > p->rec->reader_props.cap) {
        const char **nv = sb_arena_alloc(a, want * sizeof *nv);
        if (NULL == nv)
            return SB_ENOMEM;
        if (p->rec->reader_props.n)
            memcpy(nv, p->rec->reader_props.v, p->rec->reader_props.n * sizeof *nv);
        p->rec->reader_props.v = nv;
        p->rec->reader_props.cap = want;
    }
    sb_code rc = sb_pkg_reader_prop(p->rec, a, "pixi:scope", sb_js_scope_word(p->scope), NULL);
    if (rc == SB_OK && p->path1) {
        const char *j = join_paths(a, p);
        rc = j ? sb_pkg_reader_prop(p->rec, a, "pixi:install-paths", j, NULL) : SB_ENOMEM;
    }
    if (rc == SB_OK && p->direct)
        rc = sb_pkg_reader_prop(p->rec, a, "pixi:direct", "true", NULL);
    if (rc == SB_OK)
        rc = sb_pkg_reader_prop(p->rec, a, "pixi:peer-suffixes", p->peers, NULL);
    if (rc == SB_OK && orphan)
        rc = sb_pkg_reader_prop(p->rec, a, "pixi:orphan", "true", NULL);
    return rc;
}

/* Which packages a stated edge reaches: a root edge or another package's
 * dependency (an orphan's included: what only an orphan needs is not one
 * itself; it hangs below it). The model hangs every package nothing
 * depends on off the root to keep the graph closed; pixi:orphan tells
 * those root edges from the ones the lock states. */
static sb_code reached_by_edges(sb_jsl *l, unsigned char **out, sb_err *err)
{
    unsigned char *r = sb_arena_calloc(l->tmp, l->n ? l->n : 1, 1);
    if (NULL == r)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < l->n; i++) {
        if (sb_jsl_tick(l, err) != SB_OK)
            return SB_ETIMEOUT;
        const sb_pkg *rec = l->pkgs[i]->rec;
        for (size_t d = 0; d < rec->depends.n; d++) {
            const sb_js_pkg *t = sb_jsl_find(l, rec->depends.v[d]);
            if (t && t != l->pkgs[i])
                r[t->rec - l->recs] = 1; /* pkgs[i]->rec == &recs[i] */
        }
    }
    for (size_t i = 0; i < l->roots.n; i++) {
        const sb_js_pkg *t = sb_jsl_find(l, l->roots.v[i]);
        if (t)
            r[t->rec - l->recs] = 1;
    }
    *out = r;
    return SB_OK;
}

sb_code sb_jsl_build(sb_lock **out, sb_arena *a, sb_jsl *l, sb_err *err)
{
    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, a, "noarch") : NULL;
    if (NULL == lp)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    lk->kind = l->kind;
    lk->version = l->version;
    lk->root_name = l->root_name;
    lk->root_version = l->root_version;
    lk->nrecords = l->n;
    if (l->has_roots) {
        lp->has_root_names = true;
        lp->root_names = l->roots;
    }
    /* the platform's list sized once */
    if (l->n && NULL == (lp->pkgs = sb_arena_alloc(a, l->n * sizeof *lp->pkgs)))
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    lp->cap = l->n;
    unsigned char *reached = NULL;
    if (l->orphans && reached_by_edges(l, &reached, err) != SB_OK)
        return err->code;
    for (size_t i = 0; i < l->n; i++) {
        sb_js_pkg *p = l->pkgs[i];
        if (sb_jsl_tick(l, err) != SB_OK)
            return SB_ETIMEOUT;
        if (finish_pkg(p, a, reached && !reached[i]) != SB_OK || sb_lock_platform_add(lp, a, p->rec) != SB_OK)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    lk->scopes_guessed = l->scopes_guessed;
    for (size_t i = 0; l->scopes_guessed && i < l->n; i++) {
        const sb_js_pkg *p = l->pkgs[i];
        for (size_t d = 0; p->opt_deps && d < p->opt_deps->n; d++)
            if (sb_strv_push(&lk->opt_edges, a, p->rec->key) != SB_OK ||
                sb_strv_push(&lk->opt_edges, a, p->opt_deps->v[d]) != SB_OK)
                return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    lp->recs = l->recs; /* pkgs[i] == &recs[i]: a consuming selection adopts them */
    sb_jsl_free(l);
    *out = lk;
    return SB_OK;
}
