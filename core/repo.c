/*
 * repo.c - every lockfile of a repository into one lock (repo.h).
 *
 * DESIGN: the archive is walked once, in order (archive.c: a tar stream is
 * never unpacked to disk, a zip is read from its central directory), and a
 * member's bytes are kept only when it may be a lockfile or a manifest:
 * its name is claimed by a reader's detector, or it names a manifest
 * (sb_manifest_kind), or it is small enough to be looked into (a lockfile
 * under another name is found by content). The readers' detectors are the
 * only list of lockfile names: a reader added to the registry is found in
 * archives with nothing added here. A detector that claims a pattern rather
 * than one name (any *.txt for requirements) must also recognise the
 * content, so a LICENSE.txt is not read as pins.
 *
 * Each lockfile is read and selected alone, as its own document would be
 * (the manifest beside it applied), then the selections are merged: one
 * package per (kind, name, version, build), recording every lockfile that
 * locks it in pixi:lockfiles; each lockfile is a component (its path the
 * name) depending on its own document's root edges, and the repository's
 * root depends on the lockfiles. Edges are carried as keys, so an npm name
 * locked at two versions by two lockfiles stays two packages with their
 * own edges.
 *
 * Trees a user never means (dependency installs, virtual environments,
 * build output, VCS data) are skipped by component name; paths= brings a
 * path back, skip-paths= drops one. Names that are absolute or hold ".."
 * are refused and listed: nothing is written anywhere, but a repository
 * does not legitimately hold them. Links are listed and never followed.
 */
#include "repo.h"
#include "deadline.h"
#include "ecosystem.h"
#include "purl.h"
#include "select.h"
#include "strmap.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Directory names skipped wherever they appear: installed dependencies,
 * environments and build output, never a project's own lockfile. */
static const char *const default_skip[] = {"node_modules", "vendor", ".git",          "target",
                                           ".pixi",        ".venv",  "site-packages", NULL};

typedef struct cand {
    const char *path; /* as stored */
    const char *data;
    size_t len;
    const sb_reader *reader; /* NULL: a manifest */
    const char *manifest_kind;
    int by_content;
} cand;

typedef struct walk {
    sb_arena *a;
    const sb_repo_opts *o;
    sb_err *err;
    cand *c;
    size_t nc, cc;
    sb_repo_file *skipped;
    size_t ns, cs;
    size_t unlisted;
    sb_strmap trees; /* skipped tree prefixes listed already */
    const char *top; /* first component of the first member */
    size_t toplen;
    bool one_top;
    size_t entries;
    /* what want() decided for the member got() is given */
    const sb_reader *claim;
    int claim_exact, claim_manifest;
} walk;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

static sb_code skip(walk *w, const char *path, const char *why)
{
    if (w->ns >= SB_REPO_LISTED_MAX) {
        w->unlisted++;
        return SB_OK;
    }
    if (w->ns == w->cs) {
        size_t nc = w->cs;
        sb_repo_file *n = sb_arena_grow(w->a, w->skipped, &nc, w->ns, sizeof *n, 16);
        if (NULL == n)
            return oom(w->err);
        w->skipped = n;
        w->cs = nc;
    }
    const char *p = sb_arena_strdup(w->a, path);
    if (NULL == p)
        return oom(w->err);
    w->skipped[w->ns++] = (sb_repo_file){.path = p, .why = why, .state = SB_REPO_SKIPPED};
    return SB_OK;
}

/* Absolute names, "..", empty components and control bytes are refused;
 * "./" prefixes are dropped. NULL when refused, *why set. */
static const char *safe_name(const char *name, const char **why)
{
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    if (name[0] == '/') {
        *why = "absolute name refused";
        return NULL;
    }
    size_t depth = 0, len = strlen(name);
    if (len >= 1000) {
        *why = "name too long (1000 bytes or more)";
        return NULL;
    }
    for (const char *s = name; *s;) {
        const char *slash = strchr(s, '/');
        size_t n = slash ? (size_t)(slash - s) : strlen(s);
        if (n == 2 && s[0] == '.' && s[1] == '.') {
            *why = "'..' in the name refused";
            return NULL;
        }
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
                *why = "control character in the name refused";
                return NULL;
            }
        if (++depth > SB_REPO_DEPTH_MAX) {
            *why = "path too deep (more than 64 components)";
            return NULL;
        }
        if (!slash)
            break;
        s = slash + 1;
    }
    return name;
}

static int glob_any(const char *const *g, size_t n, const char *path, const char *rel)
{
    for (size_t i = 0; i < n; i++)
        if (0 == fnmatch(g[i], path, 0) || (rel && 0 == fnmatch(g[i], rel, 0)))
            return 1;
    return 0;
}

/* The default-skipped component of path, as the prefix up to it
 * ("web/node_modules/"); 0 when none. */
static size_t skipped_tree(const char *path)
{
    for (const char *s = path; *s;) {
        const char *slash = strchr(s, '/');
        if (NULL == slash)
            return 0; /* the last component is the file itself */
        size_t n = (size_t)(slash - s);
        for (size_t i = 0; default_skip[i]; i++)
            if (strlen(default_skip[i]) == n && !memcmp(default_skip[i], s, n))
                return (size_t)(slash + 1 - path);
        s = slash + 1;
    }
    return 0;
}

static const char *base_of(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* The reader whose detector claims this file name (score 2 or more with no
 * content); *exact: it claims this name, not a pattern any name of the
 * same shape fits (tested by a name one letter longer). */
static const sb_reader *name_claim(const char *path, int *exact)
{
    const sb_reader *const *rd = sb_lock_readers();
    const char *base = base_of(path);
    char alt[1040];
    snprintf(alt, sizeof alt, "x%s", base);
    for (size_t i = 0; rd[i]; i++)
        if (rd[i]->detect("", 0, base) >= 2) {
            *exact = rd[i]->detect("", 0, alt) < 2;
            return rd[i];
        }
    return NULL;
}

static void note_top(walk *w, const char *name)
{
    const char *slash = strchr(name, '/');
    size_t n = slash ? (size_t)(slash - name) : strlen(name);
    if (0 == w->entries) {
        w->top = name;
        w->toplen = n;
        w->one_top = slash != NULL;
        /* the name is the walker's buffer: keep a copy */
        if (w->one_top && NULL == (w->top = sb_arena_strndup(w->a, name, n)))
            w->one_top = false;
        return;
    }
    if (!slash || n != w->toplen || (w->one_top && memcmp(name, w->top, n)))
        w->one_top = false;
}

static int want(void *cls, const sb_archive_entry *e)
{
    walk *w = cls;
    const char *why = NULL;
    const char *path = safe_name(e->name, &why);
    w->claim = NULL;
    w->claim_manifest = 0;
    if (NULL == path) {
        skip(w, e->name, why);
        return 0;
    }
    note_top(w, path);
    w->entries++;
    if (e->type == SB_AE_DIR)
        return 0;
    const char *rel = w->one_top && strlen(path) > w->toplen ? path + w->toplen + 1 : NULL;
    const sb_repo_opts *o = w->o;
    int exact = 0;
    const sb_reader *r = name_claim(path, &exact);
    int is_manifest = NULL != sb_manifest_kind(base_of(path));
    int named = (r && exact) || is_manifest;
    int picked = o->npaths && glob_any(o->paths, o->npaths, path, rel);
    if (e->type == SB_AE_LINK) {
        if (named)
            skip(w, path, "a link, not followed");
        return 0;
    }
    if (e->type != SB_AE_FILE) {
        if (named)
            skip(w, path, "not a regular file");
        return 0;
    }
    size_t tree = skipped_tree(path);
    if (tree && !picked) {
        char *t = sb_arena_strndup(w->a, path, tree);
        if (t && 0 == sb_strmap_put(&w->trees, t, tree, 0, NULL))
            skip(w, t, "skipped by default; paths= brings it back");
        return 0;
    }
    if (o->npaths && !picked) {
        if (named)
            skip(w, path, "not matched by paths=");
        return 0;
    }
    if (o->nskip && glob_any(o->skip_paths, o->nskip, path, rel)) {
        if (named)
            skip(w, path, "matched by skip-paths=");
        return 0;
    }
    if (is_manifest && e->size <= SB_REPO_MANIFEST_MAX) {
        w->claim_manifest = 1;
        return 1;
    }
    if (r) {
        w->claim = r;
        w->claim_exact = exact;
        return 1;
    }
    return e->size <= SB_REPO_SNIFF_MAX;
}

/* The best reader by content alone; NULL when none. */
static const sb_reader *content_claim(const char *data, size_t len)
{
    const sb_reader *const *rd = sb_lock_readers();
    const sb_reader *best = NULL;
    int score = 0;
    for (size_t i = 0; rd[i]; i++) {
        int s = rd[i]->detect(data, len, NULL);
        if (s > score) {
            score = s;
            best = rd[i];
        }
    }
    return best;
}

static sb_code keep(walk *w, const char *path, const unsigned char *data, size_t len, const sb_reader *r,
                    const char *mkind, int by_content)
{
    if (w->o->charge && w->o->charge(w->o->charge_cls, len + strlen(path)))
        return sb_err_set(w->err, SB_ENOMEM, "the memory budget cannot hold the lockfiles of this archive");
    if (w->nc == w->cc) {
        size_t nc = w->cc;
        cand *n = sb_arena_grow(w->a, w->c, &nc, w->nc, sizeof *n, 16);
        if (NULL == n)
            return oom(w->err);
        w->c = n;
        w->cc = nc;
    }
    char *d = sb_arena_stralloc(w->a, len + 1);
    const char *p = sb_arena_strdup(w->a, path);
    if (NULL == d || NULL == p)
        return oom(w->err);
    if (len)
        memcpy(d, data, len);
    d[len] = '\0';
    w->c[w->nc++] = (cand){p, d, len, r, mkind, by_content};
    return SB_OK;
}

static sb_code got(void *cls, const sb_archive_entry *e, const unsigned char *data, size_t len)
{
    walk *w = cls;
    const char *why = NULL;
    const char *path = safe_name(e->name, &why);
    if (NULL == path)
        return SB_OK;
    if (w->claim_manifest)
        return keep(w, path, data, len, NULL, sb_manifest_kind(base_of(path)), 0);
    /* a NUL in the first bytes: a binary file, no lockfile */
    size_t head = len < 8192 ? len : 8192;
    if (!w->claim && memchr(data, '\0', head) && !sb_archive_sniff(data, len))
        return SB_OK;
    if (!w->claim && sb_archive_sniff(data, len))
        return skip(w, path, "an archive inside the archive, not opened");
    if (w->claim && w->claim_exact)
        return keep(w, path, data, len, w->claim, NULL, 0);
    if (w->claim) /* a pattern of names: the content must agree */
        return w->claim->detect((const char *)data, len, NULL) >= 1 ? keep(w, path, data, len, w->claim, NULL, 0)
                                                                    : SB_OK;
    const sb_reader *r = content_claim((const char *)data, len);
    return r ? keep(w, path, data, len, r, NULL, 1) : SB_OK;
}

/* ---- reading and merging --------------------------------------------------- */

typedef struct mpkg {
    sb_pkg *p;
    sb_strb lockfiles; /* appended: a package many lockfiles lock stays linear */
    size_t last;       /* the last lockfile that recorded it */
} mpkg;

typedef struct merge {
    sb_arena *a;
    sb_err *err;
    sb_deadline dl;
    sb_strmap ids; /* identity -> index in pk */
    mpkg *pk;
    size_t n, cap;
    size_t max;
} merge;

static const char *identity(sb_arena *a, const sb_pkg *p)
{
    const sb_pkgx *x = sb_pkg_xr(p);
    return sb_arena_printf(a, "%d:%s@%s#%s", (int)p->kind, p->name, p->version ? p->version : "",
                           x->build ? x->build : "");
}

static int has(const sb_strv *v, const char *s)
{
    for (uint32_t i = 0; i < v->n; i++)
        if (!strcmp(v->v[i], s))
            return 1;
    return 0;
}

/* The merged package of selected package p of lockfile `li` (added the
 * first time); its index in *at. */
static sb_code take(merge *m, const sb_pkg *p, size_t li, const char *path, size_t *at)
{
    const char *id = identity(m->a, p);
    if (NULL == id)
        return oom(m->err);
    size_t i;
    if (sb_strmap_get(&m->ids, id, strlen(id), &i)) {
        *at = i;
        if (m->pk[i].last != li) {
            m->pk[i].last = li;
            if (sb_strb_add(&m->pk[i].lockfiles, m->a, ", ", path) != SB_OK)
                return oom(m->err);
        }
        return SB_OK;
    }
    if (m->n >= m->max)
        return sb_err_set(m->err, SB_ELIMIT, "the repository's lockfiles lock more than %zu packages", m->max);
    sb_pkg *k = sb_arena_alloc(m->a, sizeof *k);
    if (NULL == k)
        return oom(m->err);
    /* the record as the reader gave it; what the selection derived is derived again */
    *k = *p;
    k->key = id;
    k->depends = (sb_strv){0};
    k->purl = k->id = NULL; /* and the x fields sb_select derives again */
    k->props = NULL;
    k->deps = NULL;
    k->nprops = k->ndeps = 0;
    k->lic = NULL;
    k->declared_via = 0;
    if (m->n == m->cap) {
        size_t nc = m->cap;
        mpkg *np = sb_arena_grow(m->a, m->pk, &nc, m->n, sizeof *np, 256);
        if (NULL == np)
            return oom(m->err);
        m->pk = np;
        m->cap = nc;
    }
    if (sb_strmap_put(&m->ids, id, strlen(id), m->n, NULL) < 0)
        return oom(m->err);
    m->pk[m->n] = (mpkg){k, {0}, li};
    if (sb_strb_add(&m->pk[m->n].lockfiles, m->a, ", ", path) != SB_OK)
        return oom(m->err);
    *at = m->n++;
    return SB_OK;
}

static sb_code add_edge(merge *m, sb_pkg *from, const char *to)
{
    if (has(&from->depends, to))
        return SB_OK;
    return sb_strv_push(&from->depends, m->a, to) == SB_OK ? SB_OK : oom(m->err);
}

/* One lockfile's selection into the merge, under its own component. */
static sb_code merge_one(merge *m, const sb_sbom *s, size_t li, const sb_repo_file *f, sb_pkg *comp)
{
    size_t *at = sb_arena_alloc(m->a, (s->npkgs ? s->npkgs : 1) * sizeof *at);
    if (NULL == at)
        return oom(m->err);
    for (size_t i = 0; i < s->npkgs; i++) {
        if (sb_deadline_tick(&m->dl, m->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_code rc = take(m, &s->pkgs[i], li, f->path, &at[i]);
        if (rc != SB_OK)
            return rc;
    }
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_pkg *into = m->pk[at[i]].p;
        if (sb_deadline_work(&m->dl, 1 + s->pkgs[i].ndeps, m->err) != SB_OK)
            return SB_ETIMEOUT;
        for (uint32_t d = 0; d < s->pkgs[i].ndeps; d++)
            if (add_edge(m, into, m->pk[at[s->pkgs[i].deps[d]]].p->key) != SB_OK)
                return SB_ENOMEM;
    }
    for (size_t r = 0; r < s->nroot; r++)
        if (add_edge(m, comp, m->pk[at[s->root_deps[r]]].p->key) != SB_OK)
            return SB_ENOMEM;
    return SB_OK;
}

/* The manifest of a lockfile's folder that declares most of what it locks. */
static const sb_manifest *pick_manifest(sb_manifest *const *ms, const char *const *mdirs, size_t nm, const char *dir,
                                        const sb_sbom *s, const char **which, const char *const *mpaths)
{
    const sb_manifest *best = NULL;
    size_t best_hits = 0;
    for (size_t i = 0; i < nm; i++) {
        if (NULL == ms[i] || strcmp(mdirs[i], dir))
            continue;
        size_t hits = 0;
        for (size_t d = 0; d < ms[i]->ndeps; d++)
            for (size_t k = 0; k < s->npkgs; k++)
                if (!strcasecmp(ms[i]->deps[d].name, s->pkgs[k].name)) {
                    hits++;
                    break;
                }
        if (NULL == best || hits > best_hits) {
            best = ms[i];
            best_hits = hits;
            *which = mpaths[i];
        }
    }
    return best;
}

/* Select one lockfile as its own document would be: the asked environment
 * and platform where it has them, else its default, else its first. */
static sb_code select_one(sb_sbom **out, sb_arena *a, const sb_lock *l, const sb_repo_opts *o, const sb_manifest *man,
                          sb_err *err)
{
    sb_select_opts so = {0};
    so.environment = o->environment;
    so.platform = o->platform;
    so.deadline_ns = o->lim ? o->lim->deadline_ns : 0;
    so.manifest = man;
    sb_code rc = sb_select(out, a, l, &so, err);
    if (rc == SB_ENOTFOUND || rc == SB_EMISUSE) {
        so.environment = NULL;
        so.platform = NULL;
        rc = sb_select(out, a, l, &so, err);
    }
    if ((rc == SB_ENOTFOUND || rc == SB_EMISUSE) && l->nenvs) {
        const sb_lock_env *e = sb_lock_find_env(l, "default");
        if (NULL == e)
            e = &l->envs[0];
        so.environment = e->name;
        for (size_t p = 0; p < e->nplatforms && rc != SB_OK; p++) {
            if (e->platforms[p].unbuilt)
                continue;
            so.platform = e->platforms[p].name;
            rc = sb_select(out, a, l, &so, err);
        }
    }
    return rc;
}

static const char *rel_of(const walk *w, const char *path)
{
    return w->one_top && strlen(path) > w->toplen + 1 && path[w->toplen] == '/' && !memcmp(path, w->top, w->toplen)
               ? path + w->toplen + 1
               : path;
}

static const char *dir_of(sb_arena *a, const char *rel)
{
    const char *b = strrchr(rel, '/');
    return b ? sb_arena_strndup(a, rel, (size_t)(b - rel)) : "";
}

/* Whether every package of a selection is a PyPI-index one. */
static int pypi_only(const sb_sbom *s)
{
    if (0 == s->npkgs)
        return 0;
    for (size_t i = 0; i < s->npkgs; i++)
        if (sb_eco(s->pkgs[i].kind)->index != SB_INDEX_PYPI)
            return 0;
    return 1;
}

static sb_code finish(sb_repo **out, sb_arena *a, walk *w, sb_err *err)
{
    const sb_repo_opts *o = w->o;
    sb_repo *R = sb_arena_calloc(a, 1, sizeof *R);
    if (NULL == R)
        return oom(err);
    R->top = w->one_top ? w->top : NULL;
    R->entries = w->entries;
    R->unlisted = w->unlisted;
    size_t nlock = 0, nm = 0;
    for (size_t i = 0; i < w->nc; i++)
        nm += NULL == w->c[i].reader, nlock += NULL != w->c[i].reader;
    /* the manifests, each read once (a malformed one is only not applied) */
    sb_manifest **ms = sb_arena_calloc(a, nm ? nm : 1, sizeof *ms);
    const char **mdirs = sb_arena_calloc(a, nm ? nm : 1, sizeof *mdirs);
    const char **mpaths = sb_arena_calloc(a, nm ? nm : 1, sizeof *mpaths);
    R->files = sb_arena_calloc(a, nlock + w->ns + 1, sizeof *R->files);
    if (NULL == ms || NULL == mdirs || NULL == mpaths || NULL == R->files)
        return oom(err);
    sb_limits mlim = o->lim ? *o->lim : (sb_limits)SB_LIMITS_DEFAULT;
    size_t k = 0;
    for (size_t i = 0; i < w->nc; i++) {
        if (w->c[i].reader)
            continue;
        sb_err merr;
        sb_err_clear(&merr);
        mpaths[k] = rel_of(w, w->c[i].path);
        mdirs[k] = dir_of(a, mpaths[k]);
        if (sb_manifest_read(&ms[k], a, w->c[i].manifest_kind, w->c[i].data, w->c[i].len, &mlim, &merr) != SB_OK)
            ms[k] = NULL;
        if (merr.code == SB_ETIMEOUT)
            return sb_err_set(err, SB_ETIMEOUT, "%s", merr.msg);
        k++;
    }
    /* the sibling rule: a folder whose pixi manifest (pixi.toml, or a
     * pyproject.toml with [tool.pixi]) sits beside a pixi.lock is pixi's
     * project; what a Python-only lockfile beside it locks, pixi.lock locks */
    merge m = {.a = a, .err = err, .max = o->lim ? o->lim->max_packages : 500000};
    m.dl = (sb_deadline){o->lim ? o->lim->deadline_ns : 0, 0, "merging the repository's lockfiles"};
    if (sb_strmap_init(&m.ids, a, 1024) != SB_OK)
        return oom(err);
    sb_lock *L = sb_arena_calloc(a, 1, sizeof *L);
    sb_pkg **comps = sb_arena_calloc(a, nlock ? nlock : 1, sizeof *comps);
    if (NULL == L || NULL == comps)
        return oom(err);
    const char *platform = NULL;
    int platforms_agree = 1;
    bool no_dep_data = true;
    for (size_t i = 0; i < w->nc; i++) {
        const cand *c = &w->c[i];
        if (NULL == c->reader)
            continue;
        sb_repo_file *f = &R->files[R->nfiles];
        f->path = rel_of(w, c->path);
        f->kind = c->reader->kind;
        const char *dir = dir_of(a, f->path);
        if (NULL == dir)
            return oom(err);
        sb_lock_choice ch;
        sb_lock_choose(&ch, NULL, c->data, c->len, c->by_content ? NULL : c->path);
        if (NULL == ch.reader)
            ch.reader = c->reader;
        f->kind = ch.reader->kind;
        if (o->charge && o->charge(o->charge_cls, sb_lock_estimate_choice(&ch, c->data, c->len)))
            return sb_err_set(err, SB_ENOMEM, "the memory budget cannot hold the lockfiles of this archive");
        sb_err e;
        sb_err_clear(&e);
        sb_lock *l = NULL;
        sb_sbom *s = NULL;
        sb_code rc = sb_lock_read_choice(&l, a, &ch, c->data, c->len, o->lim, &e);
        if (rc == SB_OK && l->origin) { /* an SBOM document in the repository is an output, not an input */
            f->state = SB_REPO_SKIPPED;
            f->why = "an SBOM document, not a lockfile";
            f->kind = NULL;
            R->nskipped++;
            R->nfiles++;
            continue;
        }
        const sb_manifest *man = NULL;
        const char *mpath = NULL;
        if (rc == SB_OK && (rc = select_one(&s, a, l, o, NULL, &e)) == SB_OK) {
            man = pick_manifest(ms, mdirs, nm, dir, s, &mpath, mpaths);
            sb_sbom *with = NULL;
            sb_err e2;
            sb_err_clear(&e2);
            if (man && select_one(&with, a, l, o, man, &e2) == SB_OK)
                s = with;
            else
                man = NULL, mpath = NULL;
        }
        if (rc == SB_ETIMEOUT || rc == SB_ENOMEM) {
            *err = e;
            return rc;
        }
        if (rc != SB_OK) {
            if (o->strict)
                return sb_err_set_at(err, SB_EUNSUPPORTED, e.line, e.column,
                                     "lockfile '%.300s' (%s) does not read%s%.0u: %.600s", f->path, f->kind,
                                     e.line ? " at line " : "", e.line, e.msg);
            f->state = SB_REPO_FAILED;
            f->line = e.line;
            f->column = e.column;
            f->why = e.line ? sb_arena_printf(a, "line %u: %s", e.line, e.msg) : sb_arena_strdup(a, e.msg);
            R->nfailed++;
            R->nfiles++;
            continue;
        }
        /* superseded by a pixi project in the same folder */
        int pixi_here = 0;
        if (strcmp(ch.reader->kind, "pixi.lock") && pypi_only(s))
            for (size_t j = 0; j < w->nc && !pixi_here; j++) {
                const cand *o2 = &w->c[j];
                if (!o2->reader || strcmp(o2->reader->kind, "pixi.lock") || o2->by_content ||
                    strcmp(dir_of(a, rel_of(w, o2->path)), dir))
                    continue;
                for (size_t q = 0; q < w->nc && !pixi_here; q++) {
                    const cand *mf = &w->c[q];
                    if (mf->reader || strcmp(dir_of(a, rel_of(w, mf->path)), dir))
                        continue;
                    pixi_here = !strcmp(mf->manifest_kind, "pixi.toml") ||
                                (!strcmp(mf->manifest_kind, "pyproject.toml") && strstr(mf->data, "[tool.pixi"));
                }
            }
        if (pixi_here) {
            f->state = SB_REPO_SKIPPED;
            f->why = "superseded by the pixi.lock beside it (the folder is a pixi project)";
            R->nskipped++;
            R->nfiles++;
            continue;
        }
        f->state = SB_REPO_READ;
        f->lock = l;
        f->manifest = mpath;
        f->man = man;
        f->environment = s->environment;
        f->platform = s->platform;
        no_dep_data &= l->no_dep_data;
        if (NULL == platform)
            platform = s->platform;
        else if (strcmp(platform, s->platform))
            platforms_agree = 0;
        /* the lockfile as a component: its path names it */
        sb_pkg *comp = sb_arena_calloc(a, 1, sizeof *comp);
        sb_pkgx *cx = comp ? sb_pkg_x(comp, a) : NULL;
        if (NULL == cx)
            return oom(err);
        comp->kind = SB_KIND_EXTERNAL;
        comp->name = f->path;
        comp->version = man && man->version ? man->version : l->root_version;
        comp->key = sb_arena_printf(a, "lockfile:%s", f->path);
        sb_purl pu = {.type = "generic", .name = f->path, .version = comp->version};
        char *u = NULL;
        if (NULL == comp->key || sb_purl_build(&u, a, &pu, err) != SB_OK || NULL == u)
            return oom(err);
        cx->given_purl = u;
        const char *root = man && man->name ? man->name : l->root_name;
        if (sb_strv_push(&comp->reader_props, a, "pixi:lockfile-kind") != SB_OK ||
            sb_strv_push(&comp->reader_props, a, f->kind) != SB_OK ||
            (root && (sb_strv_push(&comp->reader_props, a, "pixi:lockfile-project") != SB_OK ||
                      sb_strv_push(&comp->reader_props, a, root) != SB_OK)) ||
            (mpath && (sb_strv_push(&comp->reader_props, a, "pixi:lockfile-manifest") != SB_OK ||
                       sb_strv_push(&comp->reader_props, a, mpath) != SB_OK)))
            return oom(err);
        comps[R->nread] = comp;
        if ((rc = merge_one(&m, s, R->nread, f, comp)) != SB_OK)
            return rc;
        R->nread++;
        R->nfiles++;
    }
    for (size_t i = 0; i < w->ns; i++) {
        R->files[R->nfiles] = w->skipped[i];
        R->files[R->nfiles++].path = rel_of(w, w->skipped[i].path);
        R->nskipped++;
    }
    *out = R;
    if (0 == R->nread)
        return SB_OK; /* the caller says what there was */
    /* the merged lock: one environment x platform */
    L->kind = "repository";
    L->kind_unsure = true; /* no one file name stands for it */
    L->no_dep_data = no_dep_data;
    L->root_name = R->top;
    for (size_t i = 0; i < nm && NULL == L->root_name; i++)
        if (ms[i] && !mdirs[i][0] && ms[i]->name) {
            L->root_name = ms[i]->name;
            L->root_version = ms[i]->version;
        }
    const char *plat = o->platform ? o->platform : platforms_agree && platform ? platform : "linux-64";
    sb_lock_env *env = sb_lock_env_get(L, a, o->environment ? o->environment : "default");
    sb_lock_platform *pl = env ? sb_lock_platform_get(env, a, plat) : NULL;
    if (NULL == pl)
        return oom(err);
    pl->has_root_names = true;
    for (size_t i = 0; i < R->nread; i++)
        if (sb_strv_push(&pl->root_names, a, comps[i]->key) != SB_OK || sb_lock_platform_add(pl, a, comps[i]) != SB_OK)
            return oom(err);
    for (size_t i = 0; i < m.n; i++) {
        sb_pkg *p = m.pk[i].p;
        if (sb_strv_push(&p->reader_props, a, "pixi:lockfiles") != SB_OK ||
            sb_strv_push(&p->reader_props, a, m.pk[i].lockfiles.s) != SB_OK || sb_lock_platform_add(pl, a, p) != SB_OK)
            return oom(err);
    }
    L->nrecords = m.n + R->nread;
    sb_incomplete *inc = sb_arena_calloc(a, 1, sizeof *inc);
    if (NULL == inc)
        return oom(err);
    for (size_t i = 0; i < R->nfiles; i++)
        if (R->files[i].state == SB_REPO_FAILED &&
            sb_incomplete_add(inc, a, "lockfiles", "%s: %s", R->files[i].path, R->files[i].why) != SB_OK)
            return oom(err);
    L->incomplete = inc->n ? inc : NULL;
    R->lock = L;
    return SB_OK;
}

static void walk_init(walk *w, sb_arena *a, const sb_repo_opts *o, sb_err *err)
{
    memset(w, 0, sizeof *w);
    w->a = a;
    w->o = o;
    w->err = err;
}

static sb_code nothing_found(const sb_repo *R, sb_arena *a, sb_err *err)
{
    const char *sk = sb_repo_skipped_list(R, a, 600);
    return sb_err_set(err, SB_ENOTFOUND, "no lockfile a reader takes was found in the %zu member(s) of the input%s%s%s",
                      R->entries, sk ? " (skipped: " : "", sk ? sk : "", sk ? ")" : "");
}

sb_code sb_repo_read(sb_repo **out, sb_arena *a, const void *data, size_t len, const sb_repo_opts *o, sb_err *err)
{
    walk w;
    walk_init(&w, a, o, err);
    if (sb_strmap_init(&w.trees, a, 16) != SB_OK)
        return oom(err);
    sb_deadline dl = {o->lim ? o->lim->deadline_ns : 0, 0, "reading the archive"};
    sb_archive_walker aw = {.caps = o->caps, .dl = &dl, .want = want, .got = got, .cls = &w};
    if (aw.caps.entries <= 0)
        aw.caps.entries = SB_REPO_ENTRIES_MAX;
    if (aw.caps.member <= 0)
        aw.caps.member = SB_REPO_MEMBER_MAX;
    if (aw.caps.total <= 0)
        aw.caps.total = SB_REPO_TOTAL_MAX;
    if (aw.caps.ratio <= 0)
        aw.caps.ratio = SB_REPO_RATIO_MAX;
    sb_code rc = sb_archive_walk(data, len, &aw, err);
    if (rc != SB_OK)
        return rc;
    if ((rc = finish(out, a, &w, err)) != SB_OK)
        return rc;
    return (*out)->nread || (*out)->nfailed ? SB_OK : nothing_found(*out, a, err);
}

sb_code sb_repo_read_files(sb_repo **out, sb_arena *a, const char *const *names, const char *const *data,
                           const size_t *lens, size_t n, const sb_repo_opts *o, sb_err *err)
{
    walk w;
    walk_init(&w, a, o, err);
    if (sb_strmap_init(&w.trees, a, 16) != SB_OK)
        return oom(err);
    for (size_t i = 0; i < n; i++) {
        sb_archive_entry e = {names[i], SB_AE_FILE, (long long)lens[i], i};
        if (want(&w, &e)) {
            sb_code rc = got(&w, &e, (const unsigned char *)data[i], lens[i]);
            if (rc != SB_OK)
                return rc;
        }
    }
    sb_code rc = finish(out, a, &w, err);
    if (rc != SB_OK)
        return rc;
    return (*out)->nread || (*out)->nfailed ? SB_OK : nothing_found(*out, a, err);
}

const char *sb_repo_sniff(const void *data, size_t len)
{
    return sb_archive_sniff(data, len);
}

static const char *list(const sb_repo *r, sb_arena *a, size_t cap, int skipped)
{
    sb_strb b = {0};
    size_t shown = 0, total = 0;
    for (size_t i = 0; i < r->nfiles; i++) {
        const sb_repo_file *f = &r->files[i];
        if ((f->state == SB_REPO_READ) == skipped || (!skipped && f->state != SB_REPO_READ))
            continue;
        total++;
        const char *one = skipped ? sb_arena_printf(a, "%s (%s)", f->path, f->why) : f->path;
        if (NULL == one)
            return NULL;
        if (b.len + strlen(one) + 2 > cap)
            continue;
        if (sb_strb_add(&b, a, ", ", one) != SB_OK)
            return NULL;
        shown++;
    }
    if (skipped)
        total += r->unlisted;
    if (total > shown) {
        const char *more = sb_arena_printf(a, "... and %zu more", total - shown);
        if (NULL == more || sb_strb_add(&b, a, ", ", more) != SB_OK)
            return NULL;
    }
    /* what an archive names goes into a response header: no control bytes */
    for (char *c = b.s; c && *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    return total ? b.s : NULL;
}

const char *sb_repo_read_list(const sb_repo *r, sb_arena *a, size_t cap)
{
    return list(r, a, cap, 0);
}

const char *sb_repo_skipped_list(const sb_repo *r, sb_arena *a, size_t cap)
{
    return list(r, a, cap, 1);
}
