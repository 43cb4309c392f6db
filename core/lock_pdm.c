/*
 * lock_pdm.c - pdm.lock (lock_version 4.x, and the 2.x/3.x and unversioned
 * formats of older PDM) into an sb_pyl.
 *
 * Paths read: metadata.{lock_version, requires_python},
 * metadata.targets[0].requires_python, metadata.files."<name> <version>"[j]
 * (2.x-4.0; directly under metadata before 2.x), package[i].{name, version,
 * requires_python, marker, extras[], groups[] (sections[] before 3.x),
 * dependencies[] (PEP 508 strings; before 2.x a table name -> specifier or
 * {version, marker, extras}), files[j].{file | url, hash}, git, revision,
 * path, url, editable}. Groups give the scope: `default` required, any
 * other group optional.
 * An entry with `extras` is the same package with those extras on: it is
 * folded into the base entry and its requirements become the base's
 * dependencies. Each dependency's own marker gates the edge.
 */
#include "lock_int.h"
#include "lock_py.h"
#include "strmap.h"
#include "marker.h"
#include "toml.h"

#include <string.h>

typedef struct pd_src {
    const char *git, *revision, *path, *url;
    bool editable, extras_entry;
    bool in_default, in_other; /* groups (4.x) / sections (before 3.x) it is locked for */
} pd_src;

typedef struct pd_ctx {
    sb_arena *a;
    sb_pyl pl;
    const char *lock_version;
    unsigned vline, vcol;
    size_t pkg; /* +1 */
    pd_src *src;
    size_t scap;
    int static_urls;
    int has_files; /* [metadata.files] (2.x-4.0) or `"name version"` under [metadata] (legacy) */
    sb_py_files files;
    int file_open;       /* the last of `files` takes the fields being read */
    sb_py_extras extras; /* of the dependency being read */
} pd_ctx;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

/* A dependency edge from a PEP 508 requirement (4.x, 2.x-3.x). */
static sb_code add_requirement(pd_ctx *c, sb_py_pkg *p, const char *text, sb_err *err)
{
    sb_req r;
    sb_code rc = sb_req_parse(&r, c->a, text, err);
    if (rc != SB_OK)
        return rc;
    sb_py_dep *d = sb_pyl_dep(&p->groups[0], c->a);
    if (NULL == d || NULL == (d->name = sb_model_pep503(c->a, r.name)))
        return oom(err);
    d->marker = r.marker;
    d->extras = r.extras;
    return SB_OK;
}

/* Legacy `[package.dependencies] name = "spec" | {version, marker, extras}`:
 * an edge per name, gated by its marker, asking for its extras. */
static sb_code on_legacy_dep(pd_ctx *c, sb_py_pkg *p, const sb_toml_seg *path, size_t depth, const sb_toml_value *v,
                             sb_err *err)
{
    sb_py_deps *g = &p->groups[0];
    if (depth == 4 && (v->type == SB_TOML_STRING || v->type == SB_TOML_TABLE)) {
        sb_py_dep *d = sb_pyl_dep(g, c->a);
        if (NULL == d || NULL == (d->name = sb_model_pep503(c->a, path[3].key)))
            return oom(err);
    } else if (g->n && v->type == SB_TOML_STRING && depth == 5 && sb_toml_key_is(path, depth, 4, "marker")) {
        g->v[g->n - 1].marker = v->str;
    } else if (g->n && v->type == SB_TOML_STRING && depth == 6 && sb_toml_key_is(path, depth, 4, "extras")) {
        if (sb_pyl_dep_extra(&c->extras, g, c->a, v->str) != SB_OK)
            return oom(err);
    }
    return SB_OK;
}

static sb_code on_package(pd_ctx *c, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    if (depth == 2) {
        if (v->type != SB_TOML_TABLE)
            return sb_err_set(err, SB_EPARSE, "package entries must be tables");
        if (NULL == sb_pyl_add(&c->pl, c->a))
            return oom(err);
        c->src = sb_pyl_parallel(c->a, c->src, &c->scap, c->pl.npkgs, sizeof *c->src);
        if (NULL == c->src)
            return oom(err);
        c->pkg = c->pl.npkgs;
        return SB_OK;
    }
    if (0 == c->pkg || NULL == path[2].key)
        return SB_OK;
    sb_py_pkg *p = &c->pl.pkgs[c->pkg - 1];
    pd_src *s = &c->src[c->pkg - 1];
    const char *k = path[2].key;
    if (depth == 3 && v->type == SB_TOML_STRING) {
        if (!strcmp(k, "name"))
            p->rec->name = v->str;
        else if (!strcmp(k, "version"))
            p->rec->version = v->str;
        else if (!strcmp(k, "marker"))
            p->marker = v->str;
        else if (!strcmp(k, "requires_python") && v->str[0])
            p->rec->requires_python = v->str;
        else if (!strcmp(k, "git"))
            s->git = v->str;
        else if (!strcmp(k, "revision"))
            s->revision = v->str;
        else if (!strcmp(k, "path"))
            s->path = v->str;
        else if (!strcmp(k, "url"))
            s->url = v->str;
        return SB_OK;
    }
    if (depth == 3 && v->type == SB_TOML_BOOL && !strcmp(k, "editable")) {
        s->editable = v->b;
    } else if (!strcmp(k, "extras") && depth == 4) {
        s->extras_entry = true;
    } else if (!strcmp(k, "dependencies") && depth == 4 && NULL == path[3].key && v->type == SB_TOML_STRING) {
        return add_requirement(c, p, v->str, err);
    } else if (!strcmp(k, "dependencies") && depth >= 4 && path[3].key) {
        return on_legacy_dep(c, p, path, depth, v, err);
    } else if ((!strcmp(k, "groups") || !strcmp(k, "sections")) && depth == 4 && v->type == SB_TOML_STRING) {
        if (!strcmp(v->str, "default"))
            s->in_default = true;
        else
            s->in_other = true;
    } else if (!strcmp(k, "files")) {
        if (depth == 4 && v->type == SB_TOML_TABLE)
            return sb_pyl_art(p, c->a) ? SB_OK : oom(err);
        if (depth == 5 && p->narts && v->type == SB_TOML_STRING) {
            sb_py_art *art = &p->arts[p->narts - 1];
            if (sb_toml_key_is(path, depth, 4, "file") || sb_toml_key_is(path, depth, 4, "url")) {
                if (sb_toml_key_is(path, depth, 4, "url")) {
                    art->url = v->str;
                    c->static_urls = 1;
                }
                art->file = sb_pyl_basename(c->a, v->str);
                size_t n = art->file ? strlen(art->file) : 0;
                art->sdist = !(n > 4 && !strcmp(art->file + n - 4, ".whl"));
            } else if (sb_toml_key_is(path, depth, 4, "hash")) {
                art->sha256 = sb_pyl_sha256(c->a, v->str);
            }
        }
    }
    return SB_OK;
}

/* Files listed apart, keyed "name version" (`name[extra] version` repeats
 * the base entry's files and is skipped). `at` is the key's position. */
static sb_code on_files(pd_ctx *c, const sb_toml_seg *path, size_t depth, size_t at, const sb_toml_value *v,
                        sb_err *err)
{
    if (depth == at + 1 && v->type == SB_TOML_ARRAY) {
        c->has_files = 1;
    } else if (depth == at + 2 && v->type == SB_TOML_TABLE && NULL == path[at + 1].key) {
        const char *key = path[at].key, *sp = strrchr(key, ' ');
        c->file_open = sp && !strchr(key, '[');
        if (!c->file_open)
            return SB_OK;
        const char *name = sb_arena_strndup(c->a, key, (size_t)(sp - key));
        if (NULL == name || NULL == sb_pyl_file(&c->files, c->a, name, sp + 1))
            return oom(err);
    } else if (depth == at + 3 && c->file_open && v->type == SB_TOML_STRING) {
        sb_py_art *art = &c->files.v[c->files.n - 1].art;
        if (sb_toml_key_is(path, depth, at + 2, "file")) {
            size_t n = strlen(v->str);
            art->file = v->str;
            art->sdist = !(n > 4 && !strcmp(v->str + n - 4, ".whl"));
        } else if (sb_toml_key_is(path, depth, at + 2, "hash")) {
            art->sha256 = sb_pyl_sha256(c->a, v->str);
        }
    }
    return SB_OK;
}

static sb_code on_event(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    pd_ctx *c = ud;
    if (depth >= 3 && sb_toml_key_is(path, depth, 0, "metadata") && sb_toml_key_is(path, depth, 1, "files") &&
        path[2].key) {
        return on_files(c, path, depth, 2, v, err);
    } else if (depth >= 2 && sb_toml_key_is(path, depth, 0, "metadata") && path[1].key && strchr(path[1].key, ' ')) {
        return on_files(c, path, depth, 1, v, err);
    } else if (depth >= 2 && sb_toml_key_is(path, depth, 0, "metadata")) {
        if (depth == 2 && v->type == SB_TOML_STRING && sb_toml_key_is(path, depth, 1, "lock_version")) {
            c->lock_version = v->str;
            c->vline = v->line;
            c->vcol = v->column;
        } else if (v->type == SB_TOML_STRING && path[depth - 1].key &&
                   !strcmp(path[depth - 1].key, "requires_python") && NULL == c->pl.requires_python)
            c->pl.requires_python = v->str;
    } else if (depth >= 2 && sb_toml_key_is(path, depth, 0, "package") && NULL == path[1].key) {
        return on_package(c, path, depth, v, err);
    } else if (depth == 1 && sb_toml_key_is(path, depth, 0, "package") && v->type != SB_TOML_ARRAY) {
        return sb_err_set(err, SB_EPARSE, "package must be an array of tables ([[package]])");
    }
    return SB_OK;
}

/* The base entry an extras entry folds into: the first of its name whose
 * version matches or is unstated on either side. Three maps, so each entry
 * is found in O(1) however many entries share a name. */
typedef struct pd_bases {
    sb_strmap any;         /* name -> first base entry */
    sb_strmap unversioned; /* name -> first base entry without a version */
    sb_strmap exact;       /* "name\0version" -> first base entry */
} pd_bases;

static const char *name_version(sb_arena *a, const char *name, const char *version, size_t *klen)
{
    size_t n = strlen(name), v = strlen(version);
    char *k = sb_arena_alloc(a, n + v + 2);
    if (k) {
        memcpy(k, name, n + 1);
        memcpy(k + n + 1, version, v + 1);
    }
    *klen = n + 1 + v;
    return k;
}

static sb_code add_base(pd_ctx *c, const char *name, size_t i, pd_bases *b)
{
    const char *v = c->pl.pkgs[i].rec->version;
    size_t klen;
    const char *k = v ? name_version(c->a, name, v, &klen) : NULL;
    if (sb_strmap_put(&b->any, name, strlen(name), i, NULL) < 0 || (v && NULL == k) ||
        (v && sb_strmap_put(&b->exact, k, klen, i, NULL) < 0) ||
        (!v && sb_strmap_put(&b->unversioned, name, strlen(name), i, NULL) < 0))
        return SB_ENOMEM;
    return SB_OK;
}

static sb_code index_bases(pd_ctx *c, const char **names, pd_bases *b)
{
    size_t n = c->pl.npkgs;
    if (sb_strmap_init(&b->any, c->a, n) != SB_OK || sb_strmap_init(&b->unversioned, c->a, 16) != SB_OK ||
        sb_strmap_init(&b->exact, c->a, n) != SB_OK)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (!c->src[i].extras_entry && add_base(c, names[i], i, b) != SB_OK)
            return SB_ENOMEM;
    return SB_OK;
}

static size_t find_base(pd_ctx *c, const pd_bases *b, const char *name, const char *version)
{
    size_t any = (size_t)-1, loose = (size_t)-1, exact = (size_t)-1, klen;
    if (!sb_strmap_get(&b->any, name, strlen(name), &any) || NULL == version)
        return any;
    sb_strmap_get(&b->unversioned, name, strlen(name), &loose);
    const char *k = name_version(c->a, name, version, &klen);
    if (k)
        sb_strmap_get(&b->exact, k, klen, &exact);
    return loose < exact ? loose : exact;
}

/* Move each `name[extra]` entry's requirements onto the base entry, then drop it. */
static sb_code fold_extras(pd_ctx *c, sb_err *err)
{
    size_t n = c->pl.npkgs;
    const char **names = sb_arena_alloc(c->a, (n + 1) * sizeof *names);
    if (NULL == names)
        return oom(err);
    for (size_t i = 0; i < n; i++)
        if (NULL == (names[i] = sb_model_pep503(c->a, c->pl.pkgs[i].rec->name)))
            return oom(err);
    pd_bases b;
    if (index_bases(c, names, &b) != SB_OK)
        return oom(err);
    for (size_t i = 0; i < n; i++) {
        const sb_py_pkg *p = &c->pl.pkgs[i];
        if (!c->src[i].extras_entry)
            continue;
        size_t base = find_base(c, &b, names[i], p->rec->version);
        if (base == (size_t)-1) { /* no base entry: this one is the package, and the base of later ones */
            c->src[i].extras_entry = false;
            if (add_base(c, names[i], i, &b) != SB_OK)
                return oom(err);
            continue;
        }
        c->src[base].in_default |= c->src[i].in_default;
        c->src[base].in_other |= c->src[i].in_other;
        for (size_t d = 0; d < p->groups[0].n; d++) {
            sb_py_dep *nd = sb_pyl_dep(&c->pl.pkgs[base].groups[0], c->a);
            if (NULL == nd)
                return oom(err);
            *nd = p->groups[0].v[d];
        }
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (c->src[i].extras_entry)
            continue;
        c->src[o] = c->src[i];
        sb_pyl_move(&c->pl, o++, i);
    }
    c->pl.npkgs = o;
    return SB_OK;
}

static sb_code finish(pd_ctx *c, sb_err *err)
{
    for (size_t i = 0; i < c->pl.npkgs; i++)
        if (NULL == c->pl.pkgs[i].rec->name || !c->pl.pkgs[i].rec->name[0])
            return sb_err_set(err, SB_EPARSE, "package %zu has no name", i + 1);
    sb_code rc = fold_extras(c, err);
    if (rc != SB_OK)
        return rc;
    if (sb_pyl_attach_files(&c->pl, c->a, &c->files) != SB_OK)
        return oom(err);
    for (size_t i = 0; i < c->pl.npkgs; i++) {
        sb_py_pkg *p = &c->pl.pkgs[i];
        const pd_src *s = &c->src[i];
        /* a lock does not say which of its groups are extras and which
         * development groups: outside `default` is only optional */
        p->scope = s->in_default ? SB_SCOPE_REQUIRED : s->in_other ? SB_SCOPE_OPTIONAL : SB_SCOPE_NONE;
        if (s->git) {
            p->rec->location = s->revision ? sb_arena_printf(c->a, "git+%s#%s", s->git, s->revision)
                                           : sb_arena_printf(c->a, "git+%s", s->git);
        } else if (s->path) {
            p->rec->location = sb_lock__location(c->a, s->path);
            p->rec->editable = s->editable;
        } else if (s->url) {
            p->rec->location = sb_arena_printf(c->a, "direct+%s", s->url);
        } else {
            p->index = true;
        }
        if (!p->index && NULL == p->rec->location)
            return oom(err);
    }
    c->pl.file_only = !c->static_urls;
    return SB_OK;
}

/* A lock whose packages carry no version at all says nothing a document
 * could: refused, as the one shape no format version of it reads. */
static sb_code versions_held(const pd_ctx *c, sb_err *err)
{
    for (size_t i = 0; i < c->pl.npkgs; i++)
        if (c->pl.pkgs[i].rec->version)
            return SB_OK;
    if (0 == c->pl.npkgs)
        return SB_OK;
    return sb_err_set(err, SB_EUNSUPPORTED,
                      "pdm.lock lists %zu package(s) and no version: not supported; "
                      "run `pdm lock` with a current PDM",
                      c->pl.npkgs);
}

static sb_code pdm_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    pd_ctx c = {0};
    c.a = a;
    c.pl.kind = "pdm.lock";
    size_t guess = sb_pyl_count_lines(data, len, "[[package]]", lim->max_packages + 1);
    if (sb_pyl_reserve(&c.pl, a, guess) != SB_OK ||
        (guess && NULL == (c.src = sb_pyl_parallel(a, NULL, &c.scap, guess, sizeof *c.src))))
        return oom(err);
    sb_code rc = sb_toml_parse(a, data, len, lim, on_event, &c, err);
    if (rc != SB_OK)
        return rc;
    if (NULL == c.lock_version && 0 == c.pl.npkgs && !c.has_files)
        return sb_err_set(err, SB_EPARSE, "not a pdm.lock: no metadata.lock_version");
    /* no lock_version: the format before 2.x, still name + version per package */
    if (c.lock_version &&
        (c.lock_version[0] < '1' || c.lock_version[0] > '4' || (c.lock_version[1] && c.lock_version[1] != '.')))
        return sb_err_set_at(
            err, SB_EUNSUPPORTED, c.vline, c.vcol,
            "pdm.lock lock_version %.32s is not supported (1.x to 4.x are); run `pdm lock` with a current PDM",
            c.lock_version);
    if ((rc = versions_held(&c, err)) != SB_OK)
        return rc;
    if ((rc = finish(&c, err)) != SB_OK)
        return rc;
    return sb_pyl_build(out, a, &c.pl, lim, err);
}

static int pdm_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "pdm.lock"))
            return 2;
    }
    size_t n = len < 65536 ? len : 65536;
    /* `sections = [` : the format before lock_version 3 */
    return sb_lock__has_line(data, n, "# This file is @generated by PDM") ||
                   (sb_lock__has_line(data, n, "[[package]]") &&
                    (sb_lock__has_line(data, n, "lock_version = ") || sb_lock__has_line(data, n, "sections = [")))
               ? 1
               : 0;
}

const sb_reader sb_reader_pdm = {.kind = "pdm.lock",
                                 .detect = pdm_detect,
                                 .read = pdm_read,
                                 .record_line = "[[package]]",
                                 .record_char = 0,
                                 .per_record = 2500,
                                 .per_byte = 6};
