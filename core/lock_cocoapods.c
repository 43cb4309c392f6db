/*
 * lock_cocoapods.c - CocoaPods' Podfile.lock (YAML, read as a tree).
 *
 * PODS lists every pod and subspec installed, `Name (version)` or
 * `Name/Sub (version)`, each with the names it depends on; DEPENDENCIES
 * what the Podfile asks for; SPEC REPOS which spec repository each pod
 * came from (trunk is CocoaPods' own); EXTERNAL SOURCES the pods taken
 * from a :path, a :podspec or a repository (:git, :hg, :svn, :http), and
 * CHECKOUT OPTIONS the revision that was checked out; SPEC CHECKSUMS the
 * SHA-1 of each pod's podspec (as JSON); PODFILE CHECKSUM the Podfile's;
 * COCOAPODS the version that wrote it.
 *
 * One component per PODS entry: a subspec is its own component whose purl
 * has the subspec as subpath (pkg:cocoapods/Name@1.0#Sub). The spec
 * checksum is a digest of the podspec, not of what is installed, so it is
 * the property pixi:podspec-sha1 and never a component hash. A pod from
 * trunk or a repository not named has the registry purl; another spec
 * repository is its repository_url; a :git pod is vcs_url with the commit
 * checked out, :hg likewise, a :path or a local :podspec pkg:generic.
 */
#include "ecosystem.h"
#include "lock.h"
#include "lock_int.h"
#include "lock_keyed.h"
#include "strmap.h"
#include "yaml_tree.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The newest CocoaPods major whose lock this reader knows. */
#define PODS_MAX_MAJOR 1

static int pods_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "Podfile.lock") || !strcmp(base, "Manifest.lock"))
            return 2;
    }
    size_t n = len < 65536 ? len : 65536;
    if (sb_lock__has_line(data, n, "PODS:") &&
        (sb_lock__has_line(data, len, "COCOAPODS: ") || sb_lock__has_line(data, len, "SPEC CHECKSUMS:")))
        return 1;
    return 0;
}

/* What the sections other than PODS say about one pod (by its root name). */
typedef struct podsrc {
    const char *repo;                  /* SPEC REPOS name or URL */
    const char *ext_key, *ext_val;     /* EXTERNAL SOURCES: :path, :podspec, :git, :hg, :svn, :http */
    const char *branch, *tag, *commit; /* EXTERNAL SOURCES / CHECKOUT OPTIONS */
    const char *co_key, *co_val, *revision;
    const char *checksum;
} podsrc;

typedef struct ctx {
    sb_kl kl;
    sb_arena *a;
    sb_err *err;
    sb_strmap by_root; /* root name -> index into srcs */
    podsrc *srcs;
    size_t nsrcs, cap;
} ctx;

static sb_code oom(ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static sb_code bad(ctx *c, const sb_yn *at, const char *what)
{
    return sb_err_set_at(c->err, SB_EPARSE, at ? at->line : 0, at ? at->col : 0, "Podfile.lock: %s", what);
}

/* The slot of a root name, added when new. */
static podsrc *src_of(ctx *c, const char *root, size_t n)
{
    size_t at;
    int had = sb_strmap_put(&c->by_root, root, n, c->nsrcs, &at);
    if (had < 0)
        return NULL;
    if (had)
        return &c->srcs[at];
    podsrc *nv = sb_arena_grow(c->a, c->srcs, &c->cap, c->nsrcs, sizeof *nv, 16);
    if (NULL == nv)
        return NULL;
    c->srcs = nv;
    memset(&nv[c->nsrcs], 0, sizeof *nv);
    return &nv[c->nsrcs++];
}

/* `Name (something)` or `Name`: the name's length, and what is in the
 * parentheses. 0 when not that shape. */
static int name_paren(const char *s, size_t *nlen, const char **in, size_t *inlen)
{
    size_t n = strlen(s), i = 0;
    while (i < n && s[i] != ' ')
        i++;
    *nlen = i;
    *in = NULL;
    *inlen = 0;
    if (0 == i)
        return 0;
    if (i == n)
        return 1;
    if (n - i < 3 || s[i + 1] != '(' || s[n - 1] != ')')
        return 0;
    *in = s + i + 2;
    *inlen = n - i - 3;
    return 1;
}

static size_t root_len(const char *name)
{
    const char *sl = strchr(name, '/');
    return sl ? (size_t)(sl - name) : strlen(name);
}

/* One PODS item: a scalar, or a one-entry map of it to its dependencies. */
static sb_code pod_item(ctx *c, const sb_yn *it)
{
    const sb_yn *head = it, *deps = NULL;
    if (it->type == SB_YN_MAP) {
        if (it->n != 1 || (sb_yn_val(it, 0)->type != SB_YN_SEQ && sb_yn_val(it, 0)->s))
            return bad(c, it, "a PODS entry maps one `Name (version)` to its dependencies");
        head = it->kids[0];
        deps = sb_yn_val(it, 0);
    }
    size_t nl, vl;
    const char *v;
    if (head->type != SB_YN_SCALAR || NULL == head->s || !name_paren(head->s, &nl, &v, &vl) || NULL == v || 0 == vl)
        return bad(c, head, "expected `Name (version)` in PODS");
    const char *name = sb_arena_strndup(c->a, head->s, nl), *version = sb_arena_strndup(c->a, v, vl);
    const char *key = sb_arena_printf(c->a, "%s@%s", name ? name : "", version ? version : "");
    if (!name || !version || !key)
        return oom(c);
    sb_pkg *p = NULL;
    sb_code rc = sb_kl_add(&c->kl, &p, SB_KIND_COCOAPODS, key, name, version, head->line, c->err);
    if (rc != SB_OK)
        return rc;
    if (NULL == p)
        return bad(c, head, "a pod listed twice in PODS");
    if (NULL == src_of(c, name, root_len(name)))
        return oom(c);
    for (size_t i = 0; deps && deps->type == SB_YN_SEQ && i < deps->n; i++) {
        const sb_yn *d = deps->kids[i];
        size_t dl, il;
        const char *in;
        if (sb_kl_tick(&c->kl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (d->type != SB_YN_SCALAR || NULL == d->s || !name_paren(d->s, &dl, &in, &il))
            return bad(c, d, "expected a dependency `Name` or `Name (requirement)`");
        const char *dn = sb_arena_strndup(c->a, d->s, dl);
        if (NULL == dn || sb_strv_push(&p->depends, c->a, dn) != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

/* A map of pod name -> map of `:option: value` (EXTERNAL SOURCES, CHECKOUT OPTIONS). */
static sb_code options(ctx *c, const sb_yn *m, int checkout)
{
    if (m->type != SB_YN_MAP)
        return bad(c, m, checkout ? "CHECKOUT OPTIONS is a map of pods" : "EXTERNAL SOURCES is a map of pods");
    for (size_t i = 0; i < m->n; i++) {
        const char *pod = sb_yn_key(m, i);
        const sb_yn *o = sb_yn_val(m, i);
        if (sb_kl_tick(&c->kl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (NULL == pod || o->type != SB_YN_MAP)
            return bad(c, o, "each pod's source is a map of `:option: value`");
        podsrc *s = src_of(c, pod, strlen(pod));
        if (NULL == s)
            return oom(c);
        for (size_t k = 0; k < o->n; k++) {
            const char *key = sb_yn_key(o, k), *val = sb_yn_val(o, k)->s;
            if (sb_kl_tick(&c->kl, c->err) != SB_OK)
                return SB_ETIMEOUT;
            if (NULL == key || sb_yn_val(o, k)->type != SB_YN_SCALAR)
                return bad(c, sb_yn_val(o, k), "a source option's value is a scalar");
            if (NULL == val)
                continue;
            if (!strcmp(key, ":branch"))
                s->branch = val;
            else if (!strcmp(key, ":tag"))
                s->tag = val;
            else if (!strcmp(key, ":commit"))
                s->commit = val;
            else if (!strcmp(key, ":revision"))
                s->revision = val;
            else if (!strcmp(key, ":path") || !strcmp(key, ":podspec") || !strcmp(key, ":git") || !strcmp(key, ":hg") ||
                     !strcmp(key, ":svn") || !strcmp(key, ":http")) {
                if (checkout) {
                    s->co_key = key;
                    s->co_val = val;
                } else {
                    s->ext_key = key;
                    s->ext_val = val;
                }
            }
        }
    }
    return SB_OK;
}

static sb_code spec_repos(ctx *c, const sb_yn *m)
{
    if (m->type != SB_YN_MAP)
        return bad(c, m, "SPEC REPOS is a map of repositories to pods");
    for (size_t i = 0; i < m->n; i++) {
        const sb_yn *pods = sb_yn_val(m, i);
        if (pods->type != SB_YN_SEQ)
            return bad(c, pods, "each spec repository lists its pods");
        for (size_t k = 0; k < pods->n; k++) {
            const sb_yn *pn = pods->kids[k];
            if (sb_kl_tick(&c->kl, c->err) != SB_OK)
                return SB_ETIMEOUT;
            if (pn->type != SB_YN_SCALAR || NULL == pn->s)
                return bad(c, pn, "a pod name in SPEC REPOS");
            podsrc *s = src_of(c, pn->s, strlen(pn->s));
            if (NULL == s)
                return oom(c);
            s->repo = sb_yn_key(m, i);
        }
    }
    return SB_OK;
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

static sb_code checksums(ctx *c, const sb_yn *m)
{
    if (m->type != SB_YN_MAP)
        return bad(c, m, "SPEC CHECKSUMS is a map of pods to SHA-1 digests");
    for (size_t i = 0; i < m->n; i++) {
        const char *pod = sb_yn_key(m, i), *sum = sb_yn_val(m, i)->s;
        if (sb_kl_tick(&c->kl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (NULL == pod || NULL == sum || !is_hex(sum, 40))
            return bad(c, sb_yn_val(m, i), "a spec checksum is 40 hex digits (SHA-1)");
        podsrc *s = src_of(c, pod, strlen(pod));
        if (NULL == s)
            return oom(c);
        char *h = sb_arena_strdup(c->a, sum);
        if (NULL == h)
            return oom(c);
        for (char *x = h; *x; x++)
            *x = (char)tolower((unsigned char)*x);
        s->checksum = h;
    }
    return SB_OK;
}

static int is_trunk(const char *repo)
{
    return NULL == repo || !strcmp(repo, "trunk") || !strcmp(repo, "https://github.com/CocoaPods/Specs.git") ||
           !strcmp(repo, "https://github.com/cocoapods/specs.git") || !strcmp(repo, "https://cdn.cocoapods.org/");
}

/* Identity and provenance of one record from its root's sources. */
static sb_code finish(ctx *c, sb_pkg *p)
{
    size_t at;
    const podsrc *s = sb_strmap_get(&c->by_root, p->name, root_len(p->name), &at) ? &c->srcs[at] : NULL;
    static const podsrc none;
    if (NULL == s)
        s = &none;
    sb_prop q[2];
    size_t nq = 0;
    const char *loc = NULL, *how = "trunk";
    int registry = 1;
    /* the checkout is what was installed; the external source what was asked for */
    const char *kind = s->co_key ? s->co_key : s->ext_key, *val = s->co_key ? s->co_val : s->ext_val;
    const char *rev = s->commit ? s->commit : s->revision ? s->revision : s->tag ? s->tag : s->branch;
    if (kind && !strcmp(kind, ":git")) {
        how = "git";
        registry = 0;
        loc = rev ? sb_arena_printf(c->a, "git+%s#%s", val, rev) : sb_arena_printf(c->a, "git+%s", val);
        p->location = loc;
    } else if (kind && (!strcmp(kind, ":hg") || !strcmp(kind, ":svn"))) {
        how = kind + 1;
        const char *vcs = rev ? sb_arena_printf(c->a, "%s+%s@%s", how, val, rev)
                              : sb_arena_printf(c->a, "%s+%s", how, val);
        if (NULL == vcs)
            return oom(c);
        q[nq++] = (sb_prop){"vcs_url", vcs};
        p->location = vcs;
    } else if (kind && !strcmp(kind, ":http")) {
        how = "http";
        registry = 0;
        loc = p->location = val;
    } else if (kind) { /* :path, :podspec */
        how = kind + 1;
        registry = strstr(val, "://") != NULL;
        if (registry) /* a podspec by URL: the spec is there, the pod where it says */
            q[nq++] = (sb_prop){"download_url", val};
        else
            loc = val;
        p->location = sb_lock__location(c->a, val);
    } else if (!is_trunk(s->repo)) {
        how = "spec-repo";
        q[nq++] = (sb_prop){"repository_url", s->repo};
    }
    if ((kind && !p->location) ||
        NULL == (p->purl = sb_eco_purl(c->a, SB_KIND_COCOAPODS, p->name, p->version, loc, registry, q, nq)))
        return oom(c);
    sb_code rc = sb_kl_prop(&c->kl, p, "pixi:cocoapods-source", how);
    if (rc == SB_OK && s->repo)
        rc = sb_kl_prop(&c->kl, p, "pixi:cocoapods-spec-repo", s->repo);
    if (rc == SB_OK && s->checksum)
        rc = sb_kl_prop(&c->kl, p, "pixi:podspec-sha1", s->checksum);
    if (rc == SB_OK && s->ext_key && !strcmp(s->ext_key, ":podspec"))
        rc = sb_kl_prop(&c->kl, p, "pixi:cocoapods-podspec", s->ext_val);
    if (rc == SB_OK && kind && (!strcmp(kind, ":git") || !strcmp(kind, ":hg") || !strcmp(kind, ":svn"))) {
        if (s->branch)
            rc = sb_kl_prop(&c->kl, p, "pixi:git-branch", s->branch);
        if (rc == SB_OK && s->tag)
            rc = sb_kl_prop(&c->kl, p, "pixi:git-tag", s->tag);
    }
    return rc == SB_OK ? SB_OK : oom(c);
}

static sb_code pods_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    sb_limits def = SB_LIMITS_DEFAULT;
    ctx c = {.a = a, .err = err};
    if (sb_kl_init(&c.kl, a, "Podfile.lock", lim) != SB_OK || sb_strmap_init(&c.by_root, a, 64) != SB_OK)
        return oom(&c);
    sb_yn **docs = NULL;
    size_t ndocs = 0;
    sb_code rc = sb_yt_parse(&docs, &ndocs, a, data, len, lim ? lim : &def, err);
    if (rc != SB_OK)
        return rc;
    if (ndocs != 1 || docs[0]->type != SB_YN_MAP)
        return sb_err_set_at(err, SB_EPARSE, ndocs ? docs[0]->line : 1, ndocs ? docs[0]->col : 1,
                             "Podfile.lock: expected one YAML map (PODS, DEPENDENCIES, SPEC CHECKSUMS, ...)");
    const sb_yn *top = docs[0];
    int version = 0;
    const sb_yn *pods = NULL;
    for (size_t i = 0; i < top->n; i++) {
        const char *k = sb_yn_key(top, i);
        const sb_yn *v = sb_yn_val(top, i);
        if (NULL == k)
            return bad(&c, top->kids[2 * i], "a section name");
        if (!strcmp(k, "COCOAPODS")) {
            if (v->type != SB_YN_SCALAR || NULL == v->s || !isdigit((unsigned char)v->s[0]))
                return bad(&c, v, "COCOAPODS is the version that wrote the lock");
            long major = strtol(v->s, NULL, 10);
            if (major > PODS_MAX_MAJOR)
                return sb_err_set_at(err, SB_EUNSUPPORTED, v->line, v->col,
                                     "Podfile.lock written by CocoaPods %.40s: this reader knows the locks CocoaPods "
                                     "0.x and 1.x write",
                                     v->s);
            version = (int)major;
        } else if (!strcmp(k, "PODS")) {
            if (v->type != SB_YN_SEQ)
                return bad(&c, v, "PODS is a list of pods");
            pods = v;
        } else if (!strcmp(k, "DEPENDENCIES")) {
            if (v->type != SB_YN_SEQ)
                return bad(&c, v, "DEPENDENCIES is a list of pods");
            c.kl.has_roots = true;
            for (size_t j = 0; j < v->n; j++) {
                const sb_yn *d = v->kids[j];
                size_t dl, il;
                const char *in;
                if (sb_kl_tick(&c.kl, err) != SB_OK)
                    return SB_ETIMEOUT;
                if (d->type != SB_YN_SCALAR || NULL == d->s || !name_paren(d->s, &dl, &in, &il))
                    return bad(&c, d, "expected `Name` or `Name (requirement)` in DEPENDENCIES");
                const char *dn = sb_arena_strndup(a, d->s, dl);
                if (NULL == dn || sb_strv_push(&c.kl.roots, a, dn) != SB_OK)
                    return oom(&c);
            }
        } else if (!strcmp(k, "SPEC REPOS")) {
            rc = spec_repos(&c, v);
        } else if (!strcmp(k, "EXTERNAL SOURCES")) {
            rc = options(&c, v, 0);
        } else if (!strcmp(k, "CHECKOUT OPTIONS")) {
            rc = options(&c, v, 1);
        } else if (!strcmp(k, "SPEC CHECKSUMS")) {
            rc = checksums(&c, v);
        } else if (!strcmp(k, "PODFILE CHECKSUM")) {
            if (v->type != SB_YN_SCALAR)
                return bad(&c, v, "PODFILE CHECKSUM is one digest");
        } /* other keys a later CocoaPods may add say nothing about the pods */
        if (rc != SB_OK)
            return rc;
    }
    for (size_t i = 0; pods && i < pods->n; i++) {
        if (sb_kl_tick(&c.kl, err) != SB_OK)
            return SB_ETIMEOUT;
        if ((rc = pod_item(&c, pods->kids[i])) != SB_OK)
            return rc;
    }
    for (size_t i = 0; i < c.kl.n; i++) {
        if (sb_kl_tick(&c.kl, err) != SB_OK)
            return SB_ETIMEOUT;
        if ((rc = finish(&c, c.kl.pkgs[i])) != SB_OK)
            return rc;
    }
    sb_lock *l = NULL;
    if ((rc = sb_kl_build(&l, &c.kl, err)) != SB_OK)
        return rc;
    l->version = version;
    *out = l;
    return SB_OK;
}

const sb_reader sb_reader_cocoapods = {.kind = "Podfile.lock",
                                       .detect = pods_detect,
                                       .read = pods_read,
                                       .record_line = "  - ",
                                       .record_char = 0,
                                       .per_record = 600,
                                       .per_byte = 9};
