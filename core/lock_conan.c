/*
 * lock_conan.c - conan.lock (C/C++): Conan 2's lockfile (version 0.5) and
 * Conan 1's graph lock (versions 0.1 to 0.4), into an sb_lock of one
 * environment ("default") and one platform ("noarch"): both are resolved
 * for the one profile they were made with.
 *
 * Conan 2 reads: version, requires[], build_requires[], python_requires[],
 * config_requires[], each a reference "name/version[@user[/channel]]
 * [#rrev[%timestamp]]". It is a flat list: it states no edges and no
 * direct dependencies (the document says the edges are unknown). A
 * reference in `requires` is required; in the other lists only, it is a
 * tool or recipe code the build uses: development scope, the list named in
 * pixi:scope.
 *
 * Conan 1 reads: version, graph_lock.nodes.<id>.{ref (0.4) | pref
 * ("ref[#rrev]:package_id[#prev]", 0.1-0.3), requires, build_requires
 * (lists of node ids, or objects ref -> node id in 0.1), python_requires
 * (refs), package_id, prev, path, context}. The node with `path` (or the
 * one without a reference) is the consumer: the document root, named when
 * it has a reference; its requirements are the direct ones. What the root
 * reaches through `requires` alone is required; what only a build
 * requirement brings is development (pixi:scope build). Nodes of one
 * reference (host and build context) are one component.
 *
 * Identity: pkg:conan/name@version with user, channel and rrev qualifiers
 * (a revision "0" is Conan 1 with revisions disabled: none). A recipe
 * revision is Conan's digest of the exported recipe, not of a package
 * archive: it stays in the purl and pixi:conan-recipe-revision, never a
 * hash; the binary's package id and revision are pixi:conan-package-id and
 * pixi:conan-package-revision.
 */
#include "deadline.h"
#include "ecosystem.h"
#include "lock_int.h"
#include "strmap.h"

#include <jansson.h>
#include <stdint.h>
#include <string.h>

typedef struct cn_ref {
    const char *name, *version, *user, *channel, *rrev, *rtime, *package_id, *prev;
} cn_ref;

typedef struct cn_ctx {
    sb_arena *a;
    const char *data;
    size_t len;
    sb_pkg *recs;
    size_t n, cap;
    sb_strmap by_key;
    size_t max_packages;
    sb_deadline dl;
} cn_ctx;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

/* Where `s` first appears quoted in the input, for messages about a value
 * the JSON tree holds without a position: the line, or 0. */
static unsigned line_of(const cn_ctx *c, const char *s, unsigned *col)
{
    size_t k = strlen(s);
    *col = 0;
    if (0 == k || k > 4096)
        return 0;
    for (const char *p = c->data, *end = c->data + c->len; p + k + 2 <= end;) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (NULL == q || q + k + 2 > end)
            break;
        if (!memcmp(q + 1, s, k) && q[k + 1] == '"') {
            unsigned line = 1;
            const char *ls = c->data;
            for (const char *r = c->data; r < q; r++)
                if (*r == '\n') {
                    line++;
                    ls = r + 1;
                }
            *col = (unsigned)(q - ls) + 1;
            return line;
        }
        p = q + 1;
    }
    return 0;
}

static sb_code bad_at(const cn_ctx *c, sb_err *err, sb_code code, const char *near, const char *fmt, const char *arg)
{
    unsigned col, line = near ? line_of(c, near, &col) : 0;
    return line ? sb_err_set_at(err, code, line, col, fmt, arg) : sb_err_set(err, code, fmt, arg);
}

static const char *dup_n(cn_ctx *c, const char *s, size_t n)
{
    return sb_arena_strndup(c->a, s, n);
}

/* "name/version[@user[/channel]][#rrev[%time]][:package_id[#prev]]" */
static sb_code parse_ref(cn_ctx *c, const char *s, cn_ref *r, sb_err *err)
{
    memset(r, 0, sizeof *r);
    const char *end = s + strlen(s);
    const char *colon = strchr(s, ':');
    const char *re = colon ? colon : end;
    if (colon) { /* the binary: package id and package revision */
        const char *h = memchr(colon + 1, '#', (size_t)(end - colon - 1));
        const char *pe = h ? h : end;
        if (pe > colon + 1 && NULL == (r->package_id = dup_n(c, colon + 1, (size_t)(pe - colon - 1))))
            return oom(err);
        if (h && h[1] && strcmp(h + 1, "0") && NULL == (r->prev = dup_n(c, h + 1, (size_t)(end - h - 1))))
            return oom(err);
    }
    const char *hash = memchr(s, '#', (size_t)(re - s));
    const char *base_end = hash ? hash : re;
    if (hash) {
        const char *pct = memchr(hash, '%', (size_t)(re - hash));
        const char *rend = pct ? pct : re;
        if (rend > hash + 1 && !(rend == hash + 2 && hash[1] == '0') &&
            NULL == (r->rrev = dup_n(c, hash + 1, (size_t)(rend - hash - 1))))
            return oom(err);
        if (pct && pct + 1 < re && NULL == (r->rtime = dup_n(c, pct + 1, (size_t)(re - pct - 1))))
            return oom(err);
    }
    const char *slash = memchr(s, '/', (size_t)(base_end - s));
    const char *at = memchr(s, '@', (size_t)(base_end - s));
    if (NULL == slash || slash == s || (at && at < slash) || slash + 1 == (at ? at : base_end))
        return bad_at(c, err, SB_EPARSE, s, "'%.200s' is not a Conan reference (name/version[@user/channel][#rrev])",
                      s);
    if (NULL == (r->name = dup_n(c, s, (size_t)(slash - s))) ||
        NULL == (r->version = dup_n(c, slash + 1, (size_t)((at ? at : base_end) - slash - 1))))
        return oom(err);
    if (strchr(r->version, '/'))
        return bad_at(c, err, SB_EPARSE, s, "'%.200s' is not a Conan reference (name/version[@user/channel][#rrev])",
                      s);
    if (at) {
        const char *cs = memchr(at, '/', (size_t)(base_end - at));
        const char *ue = cs ? cs : base_end;
        /* "_" is Conan 1's spelling of none */
        if (ue > at + 1 && !(ue == at + 2 && at[1] == '_') &&
            NULL == (r->user = dup_n(c, at + 1, (size_t)(ue - at - 1))))
            return oom(err);
        if (cs && cs + 1 < base_end && !(base_end == cs + 2 && cs[1] == '_') &&
            NULL == (r->channel = dup_n(c, cs + 1, (size_t)(base_end - cs - 1))))
            return oom(err);
    }
    return SB_OK;
}

/* The record of a reference, added when new; its index in *at. */
static sb_code get_pkg(cn_ctx *c, const cn_ref *r, size_t *at, bool *added, sb_err *err)
{
    const char *key = sb_arena_printf(c->a, "%s/%s%s%s%s%s%s%s", r->name, r->version, r->user || r->channel ? "@" : "",
                                      r->user ? r->user : (r->channel ? "_" : ""), r->channel ? "/" : "",
                                      r->channel ? r->channel : "", r->rrev ? "#" : "", r->rrev ? r->rrev : "");
    if (NULL == key)
        return oom(err);
    size_t had;
    int k = sb_strmap_put(&c->by_key, key, strlen(key), c->n, &had);
    if (k < 0)
        return oom(err);
    *added = k == 0;
    if (k == 1) {
        *at = had;
        return SB_OK;
    }
    if (c->n >= c->max_packages)
        return sb_err_set(err, SB_ELIMIT, "more than %zu packages", c->max_packages);
    sb_pkg *nr = sb_arena_grow(c->a, c->recs, &c->cap, c->n, sizeof *nr, 32);
    if (NULL == nr)
        return oom(err);
    c->recs = nr;
    sb_pkg *p = &c->recs[c->n];
    memset(p, 0, sizeof *p);
    p->kind = SB_KIND_CONAN;
    p->name = r->name;
    p->version = r->version;
    p->key = key;
    sb_prop q[3];
    size_t nq = 0;
    if (r->user)
        q[nq++] = (sb_prop){"user", r->user};
    if (r->channel)
        q[nq++] = (sb_prop){"channel", r->channel};
    if (r->rrev)
        q[nq++] = (sb_prop){"rrev", r->rrev};
    if (NULL == (p->purl = sb_eco_purl(c->a, SB_KIND_CONAN, p->name, p->version, NULL, 1, q, nq)) ||
        sb_pkg_reader_prop(p, c->a, "pixi:conan-recipe-revision", r->rrev, NULL) != SB_OK ||
        sb_pkg_reader_prop(p, c->a, "pixi:conan-recipe-revision-time", r->rtime, NULL) != SB_OK)
        return oom(err);
    *at = c->n++;
    return SB_OK;
}

static sb_code finish(sb_lock **out, cn_ctx *c, int version, sb_err *err, sb_lock **lkp, sb_lock_platform **lpp)
{
    sb_lock *lk = sb_arena_calloc(c->a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, c->a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, c->a, "noarch") : NULL;
    if (NULL == lp)
        return oom(err);
    lk->kind = "conan.lock";
    lk->version = version;
    *lkp = lk;
    *lpp = lp;
    *out = lk;
    return SB_OK;
}

static sb_code add_all(cn_ctx *c, sb_lock_platform *lp, sb_err *err)
{
    if (c->n && NULL == (lp->pkgs = sb_arena_alloc(c->a, c->n * sizeof *lp->pkgs)))
        return oom(err);
    lp->cap = c->n;
    for (size_t i = 0; i < c->n; i++)
        if (sb_lock_platform_add(lp, c->a, &c->recs[i]) != SB_OK)
            return oom(err);
    lp->recs = c->recs;
    return SB_OK;
}

/* ---- Conan 2 ------------------------------------------------------------- */

static sb_code read_v2(sb_lock **out, cn_ctx *c, json_t *root, sb_err *err)
{
    static const struct {
        const char *list, *word;
    } lists[] = {{"requires", "host"},
                 {"build_requires", "build"},
                 {"python_requires", "python"},
                 {"config_requires", "config"}};
    /* which lists name each record: bit i for lists[i] */
    unsigned char *in = NULL;
    size_t incap = 0;
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++) {
        json_t *arr = json_object_get(root, lists[l].list);
        if (NULL == arr)
            continue;
        if (!json_is_array(arr))
            return bad_at(c, err, SB_EPARSE, lists[l].list, "%s must be an array of references", lists[l].list);
        size_t i;
        json_t *v;
        json_array_foreach(arr, i, v) {
            if (sb_deadline_tick(&c->dl, err) != SB_OK)
                return SB_ETIMEOUT;
            if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v))
                return bad_at(c, err, SB_EPARSE, lists[l].list, "%s must be an array of reference strings",
                              lists[l].list);
            cn_ref r;
            size_t at;
            bool added;
            sb_code rc = parse_ref(c, json_string_value(v), &r, err);
            if (rc == SB_OK)
                rc = get_pkg(c, &r, &at, &added, err);
            if (rc != SB_OK)
                return rc;
            if (c->n > incap) {
                size_t nc = incap ? incap * 2 : 64;
                while (nc < c->n)
                    nc *= 2;
                unsigned char *ni = sb_arena_calloc(c->a, nc, 1);
                if (NULL == ni)
                    return oom(err);
                if (incap)
                    memcpy(ni, in, incap);
                in = ni;
                incap = nc;
            }
            (void)added;
            in[at] |= (unsigned char)(1u << l);
        }
    }
    sb_lock *lk;
    sb_lock_platform *lp;
    sb_code rc = finish(out, c, 5, err, &lk, &lp);
    if (rc != SB_OK)
        return rc;
    lk->no_dep_data = true;
    for (size_t i = 0; i < c->n; i++) {
        sb_pkg *p = &c->recs[i];
        sb_strb words = {0};
        for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
            if ((in[i] & (1u << l)) && sb_strb_add(&words, c->a, ", ", lists[l].word) != SB_OK)
                return oom(err);
        p->scope = (in[i] & 1u) ? SB_SCOPE_REQUIRED : SB_SCOPE_DEVELOPMENT;
        if (sb_pkg_reader_prop(p, c->a, "pixi:scope", words.s, NULL) != SB_OK)
            return oom(err);
    }
    lk->nrecords = c->n;
    return add_all(c, lp, err);
}

/* ---- Conan 1 ------------------------------------------------------------- */

typedef struct cn_node {
    const char *id;
    json_t *j;
    size_t rec; /* SIZE_MAX: the root, or a node without a reference */
} cn_node;

/* The node ids a `requires` / `build_requires` value names: a list of ids,
 * or (0.1) an object of reference -> id. */
static sb_code each_target(cn_ctx *c, json_t *v, const char *what, const sb_strmap *ids, const cn_node *nodes,
                           size_t *out, size_t *nout, size_t cap, sb_err *err)
{
    *nout = 0;
    if (NULL == v)
        return SB_OK;
    if (!json_is_array(v) && !json_is_object(v))
        return bad_at(c, err, SB_EPARSE, what, "%s must list node ids", what);
    size_t i;
    json_t *e;
    const char *k;
    if (json_is_array(v)) {
        json_array_foreach(v, i, e) {
            if (sb_deadline_tick(&c->dl, err) != SB_OK)
                return SB_ETIMEOUT;
            size_t at;
            if (!json_is_string(e))
                return bad_at(c, err, SB_EPARSE, what, "%s must list node ids (strings)", what);
            if (!sb_strmap_get(ids, json_string_value(e), strlen(json_string_value(e)), &at))
                return bad_at(c, err, SB_EPARSE, json_string_value(e), "node '%.100s' is required but not in the lock",
                              json_string_value(e));
            if (*nout < cap)
                out[(*nout)++] = at;
        }
    } else {
        json_object_foreach(v, k, e) {
            if (sb_deadline_tick(&c->dl, err) != SB_OK)
                return SB_ETIMEOUT;
            size_t at;
            if (!json_is_string(e))
                return bad_at(c, err, SB_EPARSE, k, "%s must map references to node ids", what);
            if (!sb_strmap_get(ids, json_string_value(e), strlen(json_string_value(e)), &at))
                return bad_at(c, err, SB_EPARSE, json_string_value(e), "node '%.100s' is required but not in the lock",
                              json_string_value(e));
            if (*nout < cap)
                out[(*nout)++] = at;
        }
    }
    (void)nodes;
    return SB_OK;
}

static sb_code read_v1(sb_lock **out, cn_ctx *c, json_t *gl, int version, sb_err *err)
{
    json_t *jn = json_object_get(gl, "nodes");
    if (!json_is_object(jn))
        return bad_at(c, err, SB_EPARSE, "graph_lock", "%s.nodes must be an object of nodes", "graph_lock");
    size_t nn = json_object_size(jn);
    if (nn > c->max_packages + 1)
        return sb_err_set(err, SB_ELIMIT, "more than %zu packages", c->max_packages);
    cn_node *nodes = sb_arena_calloc(c->a, nn ? nn : 1, sizeof *nodes);
    sb_strmap ids;
    if (NULL == nodes || sb_strmap_init(&ids, c->a, nn) != SB_OK)
        return oom(err);
    size_t k = 0, root = SIZE_MAX, refless = SIZE_MAX, nrefless = 0;
    const char *id;
    json_t *node;
    json_object_foreach(jn, id, node) {
        if (sb_deadline_tick(&c->dl, err) != SB_OK)
            return SB_ETIMEOUT;
        if (!json_is_object(node))
            return bad_at(c, err, SB_EPARSE, id, "node '%.100s' must be an object", id);
        nodes[k].id = sb_arena_strdup(c->a, id);
        nodes[k].j = node;
        nodes[k].rec = SIZE_MAX;
        if (NULL == nodes[k].id || sb_strmap_put(&ids, nodes[k].id, strlen(nodes[k].id), k, NULL) < 0)
            return oom(err);
        json_t *ref = json_object_get(node, "ref");
        if (NULL == ref || json_is_null(ref))
            ref = json_object_get(node, "pref");
        if (json_object_get(node, "path") && root == SIZE_MAX)
            root = k;
        if (NULL == ref || json_is_null(ref)) {
            refless = k;
            nrefless++;
        } else if (!json_is_string(ref) || strlen(json_string_value(ref)) != json_string_length(ref)) {
            return bad_at(c, err, SB_EPARSE, id, "node '%.100s': its reference must be a string", id);
        }
        k++;
    }
    if (root == SIZE_MAX && nrefless == 1)
        root = refless;
    sb_lock *lk;
    sb_lock_platform *lp;
    sb_code rc = finish(out, c, version, err, &lk, &lp);
    if (rc != SB_OK)
        return rc;
    /* the records: one per reference */
    for (size_t i = 0; i < nn; i++) {
        if (sb_deadline_tick(&c->dl, err) != SB_OK)
            return SB_ETIMEOUT;
        json_t *ref = json_object_get(nodes[i].j, "ref");
        if (NULL == ref || json_is_null(ref))
            ref = json_object_get(nodes[i].j, "pref");
        if (!json_is_string(ref))
            continue;
        cn_ref r;
        if ((rc = parse_ref(c, json_string_value(ref), &r, err)) != SB_OK)
            return rc;
        json_t *pid = json_object_get(nodes[i].j, "package_id"), *prev = json_object_get(nodes[i].j, "prev");
        if (json_is_string(pid) && json_string_length(pid))
            r.package_id = sb_arena_strdup(c->a, json_string_value(pid));
        if (json_is_string(prev) && json_string_length(prev) && strcmp(json_string_value(prev), "0"))
            r.prev = sb_arena_strdup(c->a, json_string_value(prev));
        if (i == root) {
            lk->root_name = r.name;
            lk->root_version = r.version;
            continue;
        }
        size_t at;
        bool added;
        if ((rc = get_pkg(c, &r, &at, &added, err)) != SB_OK)
            return rc;
        nodes[i].rec = at;
        if (added && (sb_pkg_reader_prop(&c->recs[at], c->a, "pixi:conan-package-id", r.package_id, NULL) != SB_OK ||
                      sb_pkg_reader_prop(&c->recs[at], c->a, "pixi:conan-package-revision", r.prev, NULL) != SB_OK))
            return oom(err);
    }
    /* edges; `reqs` of a node are its requires, then its build requires */
    size_t *tg = sb_arena_alloc(c->a, (nn ? nn : 1) * 2 * sizeof *tg);
    size_t *first_build = sb_arena_calloc(c->a, nn ? nn : 1, sizeof *first_build);
    size_t **adj = sb_arena_calloc(c->a, nn ? nn : 1, sizeof *adj);
    size_t *nadj = sb_arena_calloc(c->a, nn ? nn : 1, sizeof *nadj);
    size_t *stamp = sb_arena_calloc(c->a, c->n ? c->n : 1, sizeof *stamp);
    unsigned char *direct = sb_arena_calloc(c->a, c->n ? c->n : 1, 1);
    if (NULL == tg || NULL == first_build || NULL == adj || NULL == nadj || NULL == stamp || NULL == direct)
        return oom(err);
    for (size_t i = 0; i < nn; i++) {
        size_t nr, nb;
        if ((rc = each_target(c, json_object_get(nodes[i].j, "requires"), "requires", &ids, nodes, tg, &nr, nn, err)) !=
                SB_OK ||
            (rc = each_target(c, json_object_get(nodes[i].j, "build_requires"), "build_requires", &ids, nodes, tg + nr,
                              &nb, nn, err)) != SB_OK)
            return rc;
        if (nr + nb && NULL == (adj[i] = sb_arena_alloc(c->a, (nr + nb) * sizeof **adj)))
            return oom(err);
        if (nr + nb)
            memcpy(adj[i], tg, (nr + nb) * sizeof *tg);
        nadj[i] = nr + nb;
        first_build[i] = nr;
        /* record edges, merged per reference */
        for (size_t e = 0; e < nr + nb; e++) {
            size_t t = nodes[tg[e]].rec;
            if (t == SIZE_MAX)
                continue;
            if (i == root) {
                if (!direct[t]) {
                    direct[t] = 1;
                    if (sb_strv_push(&lp->root_names, c->a, c->recs[t].key) != SB_OK ||
                        sb_pkg_reader_prop(&c->recs[t], c->a, "pixi:direct", "true", NULL) != SB_OK)
                        return oom(err);
                }
                continue;
            }
            size_t from = nodes[i].rec;
            if (from == SIZE_MAX)
                continue;
            /* nodes of one reference share a record: an edge once */
            if (stamp[t] == from + 1)
                continue;
            stamp[t] = from + 1;
            if (sb_strv_push(&c->recs[from].depends, c->a, c->recs[t].key) != SB_OK)
                return oom(err);
        }
        json_t *py = json_object_get(nodes[i].j, "python_requires");
        if (py && !json_is_array(py))
            return bad_at(c, err, SB_EPARSE, "python_requires", "%s must be an array of references", "python_requires");
        size_t pi;
        json_t *pv;
        json_array_foreach(py, pi, pv) {
            if (!json_is_string(pv))
                return bad_at(c, err, SB_EPARSE, "python_requires", "%s must be an array of references",
                              "python_requires");
            cn_ref r;
            size_t at;
            bool added;
            if ((rc = parse_ref(c, json_string_value(pv), &r, err)) != SB_OK ||
                (rc = get_pkg(c, &r, &at, &added, err)) != SB_OK)
                return rc;
            if (added && sb_pkg_reader_prop(&c->recs[at], c->a, "pixi:scope", "python", NULL) != SB_OK)
                return oom(err);
            c->recs[at].scope = SB_SCOPE_DEVELOPMENT;
            sb_strv *dv = i == root                  ? &lp->root_names
                          : nodes[i].rec != SIZE_MAX ? &c->recs[nodes[i].rec].depends
                                                     : NULL;
            if (dv && sb_strv_push(dv, c->a, c->recs[at].key) != SB_OK)
                return oom(err);
        }
    }
    if (root != SIZE_MAX)
        lp->has_root_names = true;
    /* scopes: required through `requires` from the root, else build */
    if (root != SIZE_MAX) {
        unsigned char *how = sb_arena_calloc(c->a, nn, 1); /* 1 required, 2 build */
        size_t *queue = sb_arena_alloc(c->a, nn * sizeof *queue);
        if (NULL == how || NULL == queue)
            return oom(err);
        for (unsigned pass = 1; pass <= 2; pass++) {
            size_t qh = 0, qt = 0;
            if (!how[root])
                how[root] = (unsigned char)pass;
            queue[qt++] = root;
            for (size_t i = 0; pass == 2 && i < nn; i++)
                if (how[i] == 1 && i != root)
                    queue[qt++] = i;
            while (qh < qt) {
                if (sb_deadline_tick(&c->dl, err) != SB_OK)
                    return SB_ETIMEOUT;
                size_t i = queue[qh++];
                size_t lim = pass == 1 ? first_build[i] : nadj[i];
                for (size_t e = 0; e < lim; e++) {
                    size_t t = adj[i][e];
                    if (!how[t]) {
                        how[t] = (unsigned char)pass;
                        queue[qt++] = t;
                    }
                }
            }
        }
        for (size_t i = 0; i < nn; i++) {
            size_t r = nodes[i].rec;
            if (r == SIZE_MAX || !how[i])
                continue;
            sb_scope s = how[i] == 1 ? SB_SCOPE_REQUIRED : SB_SCOPE_DEVELOPMENT;
            if (c->recs[r].scope == SB_SCOPE_NONE || s < c->recs[r].scope)
                c->recs[r].scope = s;
        }
    }
    /* one edge per pair: nodes of one reference (and python_requires
     * repeated per node) would state it again */
    size_t *seen = sb_arena_calloc(c->a, c->n ? c->n : 1, sizeof *seen);
    if (NULL == seen)
        return oom(err);
    for (size_t i = 0; i < c->n; i++) {
        sb_strv *dv = &c->recs[i].depends;
        size_t o = 0;
        for (size_t d = 0; d < dv->n; d++) {
            size_t t;
            if (sb_deadline_tick(&c->dl, err) != SB_OK)
                return SB_ETIMEOUT;
            if (!sb_strmap_get(&c->by_key, dv->v[d], strlen(dv->v[d]), &t) || seen[t] == i + 1)
                continue;
            seen[t] = i + 1;
            dv->v[o++] = dv->v[d];
        }
        dv->n = (uint32_t)o;
    }
    for (size_t i = 0; i < c->n; i++) {
        sb_pkg *p = &c->recs[i];
        bool has_scope = false;
        for (size_t k2 = 0; k2 + 1 < p->reader_props.n; k2 += 2)
            has_scope |= !strcmp(p->reader_props.v[k2], "pixi:scope");
        if (!has_scope && p->scope != SB_SCOPE_NONE &&
            sb_pkg_reader_prop(p, c->a, "pixi:scope", p->scope == SB_SCOPE_REQUIRED ? "host" : "build", NULL) != SB_OK)
            return oom(err);
    }
    lk->nrecords = c->n;
    return add_all(c, lp, err);
}

static sb_code conan_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    cn_ctx c = {0};
    c.a = a;
    c.data = data;
    c.len = len;
    c.max_packages = lim->max_packages;
    c.dl = (sb_deadline){lim->deadline_ns, 0, "reading the lockfile"};
    json_error_t je;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (NULL == root)
        return sb_err_set_at(err, SB_EPARSE, (unsigned)(je.line > 0 ? je.line : 1),
                             (unsigned)(je.column > 0 ? je.column : 1), "conan.lock: %s", je.text);
    sb_code rc;
    json_t *ver = json_object_get(root, "version");
    json_t *gl = json_object_get(root, "graph_lock");
    const char *vs = json_is_string(ver) ? json_string_value(ver) : NULL;
    if (!json_is_object(root)) {
        rc = sb_err_set(err, SB_EPARSE, "conan.lock: the document is not a JSON object");
    } else if (NULL == vs) {
        rc = bad_at(&c, err, SB_EPARSE, "version", "conan.lock: %s must be a string such as \"0.5\"", "version");
    } else if (sb_strmap_init(&c.by_key, a, 64) != SB_OK) {
        rc = oom(err);
    } else if (gl) {
        int v = !strcmp(vs, "0.1") ? 1 : !strcmp(vs, "0.2") ? 2 : !strcmp(vs, "0.3") ? 3 : !strcmp(vs, "0.4") ? 4 : 0;
        if (!json_is_object(gl))
            rc = bad_at(&c, err, SB_EPARSE, "graph_lock", "conan.lock: %s must be an object", "graph_lock");
        else if (0 == v)
            rc = bad_at(&c, err, SB_EUNSUPPORTED, vs,
                        "a Conan 1 graph lock of version %.32s is not supported (0.1 to 0.4 are)", vs);
        else
            rc = read_v1(out, &c, gl, v, err);
    } else if (strcmp(vs, "0.5")) {
        rc = bad_at(&c, err, SB_EUNSUPPORTED, vs,
                    "conan.lock version %.32s is not supported (Conan 2's 0.5 and Conan 1's graph locks 0.1 to 0.4 "
                    "are); lock again with Conan 2 (conan lock create)",
                    vs);
    } else {
        rc = read_v2(out, &c, root, err);
    }
    json_decref(root);
    return rc;
}

static int conan_detect(const char *data, size_t len, const char *filename)
{
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    if (i >= len || data[i] != '{')
        return 0;
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "conan.lock"))
            return 2;
    }
    size_t n = len < 65536 ? len : 65536;
    /* a Conan 1 graph lock's key, or Conan 2's lists of references */
    if (memmem(data, n, "\"graph_lock\"", 12))
        return 1;
    return memmem(data, n, "\"requires\"", 10) && memmem(data, n, "\"build_requires\"", 16) &&
                   memmem(data, n, "\"python_requires\"", 17)
               ? 1
               : 0;
}

/* Memory (loadtest/model-peak.sh): jansson's tree is most of the peak, so
 * the bytes count (9x: 9.0x measured on a 6.1 MB Conan 1 graph lock of
 * 20,000 nodes), plus 1 KB a '#', one per reference with a revision (a
 * 1.5 MB Conan 2 lock of 20,000 references peaked at 19.9x its bytes). */
const sb_reader sb_reader_conan = {.kind = "conan.lock",
                                   .detect = conan_detect,
                                   .read = conan_read,
                                   .record_line = NULL,
                                   .record_char = '#',
                                   .per_record = 1000,
                                   .per_byte = 9};
