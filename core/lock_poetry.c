/*
 * lock_poetry.c - poetry.lock (lock-version 2.x, Poetry >= 1.5, and the 1.x
 * and unversioned formats of older Poetry) into an sb_pyl.
 *
 * Paths read: metadata.{lock-version, python-versions},
 * metadata.files.<name>[j].{file, hash} (1.x), package[i].{name, version,
 * python-versions, markers (string, or a table of group -> marker) or
 * marker (1.x), groups[] (2.x) or category (1.x), optional, files[j].{file,
 * hash}, dependencies.<name> (a specifier string, a table {version, markers,
 * extras}, or an array of such tables), source.{type, url, reference,
 * resolved_reference}}. Groups and `optional` give each package its scope.
 * A package is installed when its marker holds for the platform, with every
 * extra counted as enabled; no URL is recorded, so the chosen artifact is
 * kept as file name + SHA-256 without a location.
 */
#include "lock_int.h"
#include "lock_py.h"
#include "toml.h"

#include <string.h>

typedef struct po_src {
    const char *type, *url, *reference, *resolved;
    bool main, other; /* listed in the main group / another group (groups, 1.x category) */
    bool optional;    /* only installed through an extra */
} po_src;

typedef struct po_ctx {
    sb_arena *a;
    sb_pyl pl;
    const char *lock_version;
    unsigned vline, vcol;
    int has_metadata;
    size_t pkg; /* +1 */
    po_src *src;
    size_t scap;
    sb_py_files files; /* 1.x: [metadata.files] */
} po_ctx;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

static sb_code add_dep(po_ctx *c, sb_py_pkg *p, const char *name, sb_err *err)
{
    sb_py_dep *d = sb_pyl_dep(&p->groups[0], c->a);
    if (NULL == d || NULL == (d->name = sb_model_pep503(c->a, name)))
        return oom(err);
    return SB_OK;
}

/* A group the package is in (2.x `groups`, 1.x `category`). */
static void in_group(po_src *s, const char *group)
{
    if (!strcmp(group, "main"))
        s->main = true;
    else
        s->other = true;
}

static sb_code on_package(po_ctx *c, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
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
    const char *k = path[2].key;
    if (depth == 3 && v->type == SB_TOML_STRING) {
        if (!strcmp(k, "name"))
            p->rec->name = v->str;
        else if (!strcmp(k, "version"))
            p->rec->version = v->str;
        else if (!strcmp(k, "markers") || !strcmp(k, "marker"))
            p->marker = v->str; /* 1.x: marker */
        else if (!strcmp(k, "python-versions") && strcmp(v->str, "*"))
            p->rec->requires_python = v->str;
        else if (!strcmp(k, "category"))
            in_group(&c->src[c->pkg - 1], v->str);
        return SB_OK;
    }
    if (depth == 3 && v->type == SB_TOML_BOOL && !strcmp(k, "optional")) {
        c->src[c->pkg - 1].optional = v->b;
        return SB_OK;
    }
    if (depth == 4 && v->type == SB_TOML_STRING && !strcmp(k, "groups") && NULL == path[3].key) {
        in_group(&c->src[c->pkg - 1], v->str);
        return SB_OK;
    }
    if (!strcmp(k, "markers") && depth == 4 && v->type == SB_TOML_STRING) {
        /* per-group markers: installed when any group's marker holds */
        p->marker = p->marker ? sb_arena_printf(c->a, "(%s) or (%s)", p->marker, v->str) : v->str;
        return p->marker ? SB_OK : oom(err);
    }
    if (!strcmp(k, "files")) {
        if (depth == 4 && v->type == SB_TOML_TABLE)
            return sb_pyl_art(p, c->a) ? SB_OK : oom(err);
        if (depth == 5 && p->narts && v->type == SB_TOML_STRING) {
            sb_py_art *art = &p->arts[p->narts - 1];
            if (sb_toml_key_is(path, depth, 4, "file")) {
                art->file = v->str;
                size_t n = strlen(v->str);
                art->sdist = !(n > 4 && !strcmp(v->str + n - 4, ".whl"));
            } else if (sb_toml_key_is(path, depth, 4, "hash")) {
                art->sha256 = sb_pyl_sha256(c->a, v->str);
            }
        }
        return SB_OK;
    }
    if (!strcmp(k, "dependencies") && depth >= 4 && path[3].key) {
        sb_py_deps *g = &p->groups[0];
        if (depth == 4 && (v->type == SB_TOML_STRING || v->type == SB_TOML_TABLE))
            return add_dep(c, p, path[3].key, err);
        if (depth == 5 && NULL == path[4].key && v->type == SB_TOML_TABLE) /* one of several constraints */
            return add_dep(c, p, path[3].key, err);
        const char *field = depth >= 5 ? path[depth - 1].key : NULL;
        if (g->n && field && v->type == SB_TOML_STRING && (depth == 5 || (depth == 6 && NULL == path[4].key))) {
            sb_py_dep *d = &g->v[g->n - 1];
            if (!strcmp(field, "markers"))
                d->marker = v->str;
        }
        return SB_OK;
    }
    if (!strcmp(k, "source") && depth == 4 && v->type == SB_TOML_STRING && path[3].key) {
        po_src *s = &c->src[c->pkg - 1];
        const char *f = path[3].key;
        if (!strcmp(f, "type"))
            s->type = v->str;
        else if (!strcmp(f, "url"))
            s->url = v->str;
        else if (!strcmp(f, "reference"))
            s->reference = v->str;
        else if (!strcmp(f, "resolved_reference"))
            s->resolved = v->str;
    }
    return SB_OK;
}

/* 1.x `[metadata.files] name = [{file, hash}, ...]`. */
static sb_code on_files(po_ctx *c, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    if (depth == 4 && NULL == path[3].key && v->type == SB_TOML_TABLE && path[2].key) {
        if (NULL == sb_pyl_file(&c->files, c->a, path[2].key, NULL))
            return oom(err);
    } else if (depth == 5 && c->files.n && v->type == SB_TOML_STRING) {
        sb_py_art *art = &c->files.v[c->files.n - 1].art;
        if (sb_toml_key_is(path, depth, 4, "file")) {
            size_t n = strlen(v->str);
            art->file = v->str;
            art->sdist = !(n > 4 && !strcmp(v->str + n - 4, ".whl"));
        } else if (sb_toml_key_is(path, depth, 4, "hash")) {
            art->sha256 = sb_pyl_sha256(c->a, v->str);
        }
    }
    return SB_OK;
}

static sb_code on_event(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    po_ctx *c = ud;
    if (depth >= 4 && sb_toml_key_is(path, depth, 0, "metadata") && sb_toml_key_is(path, depth, 1, "files")) {
        return on_files(c, path, depth, v, err);
    } else if (depth >= 1 && sb_toml_key_is(path, depth, 0, "metadata")) {
        c->has_metadata = 1;
        if (depth == 2 && v->type == SB_TOML_STRING && sb_toml_key_is(path, depth, 1, "lock-version")) {
            c->lock_version = v->str;
            c->vline = v->line;
            c->vcol = v->column;
        } else if (depth == 2 && v->type == SB_TOML_STRING && sb_toml_key_is(path, depth, 1, "python-versions"))
            c->pl.requires_python = v->str;
    } else if (depth >= 2 && sb_toml_key_is(path, depth, 0, "package") && NULL == path[1].key) {
        return on_package(c, path, depth, v, err);
    } else if (depth == 1 && sb_toml_key_is(path, depth, 0, "package") && v->type != SB_TOML_ARRAY) {
        return sb_err_set(err, SB_EPARSE, "package must be an array of tables ([[package]])");
    }
    return SB_OK;
}

/* What the package is for, as Poetry worked it out: in the main group it is
 * required (optional when only an extra installs it), in other groups only
 * development (optional when an extra installs it too). A lock that records
 * no groups (lock-version 2.0) cannot tell main from development: no scope,
 * whatever `optional` says. */
static sb_scope scope_of(const po_src *s)
{
    if (!s->main && !s->other)
        return SB_SCOPE_NONE;
    if (s->optional)
        return SB_SCOPE_OPTIONAL;
    return s->main ? SB_SCOPE_REQUIRED : SB_SCOPE_DEVELOPMENT;
}

static sb_code finish(po_ctx *c, sb_err *err)
{
    if (sb_pyl_attach_files(&c->pl, c->a, &c->files) != SB_OK)
        return oom(err);
    for (size_t i = 0; i < c->pl.npkgs; i++) {
        sb_py_pkg *p = &c->pl.pkgs[i];
        const po_src *s = &c->src[i];
        if (NULL == p->rec->name || !p->rec->name[0])
            return sb_err_set(err, SB_EPARSE, "package %zu has no name", i + 1);
        p->scope = scope_of(s);
        const char *type = s->type ? s->type : "";
        if (!strcmp(type, "git")) {
            const char *rev = s->resolved ? s->resolved : s->reference;
            p->rec->location = rev ? sb_arena_printf(c->a, "git+%s#%s", s->url, rev)
                                   : sb_arena_printf(c->a, "git+%s", s->url);
        } else if (!strcmp(type, "directory") || !strcmp(type, "file")) {
            p->rec->location = sb_lock__location(c->a, s->url ? s->url : ".");
        } else if (!strcmp(type, "url")) {
            p->rec->location = sb_arena_printf(c->a, "direct+%s", s->url ? s->url : "");
        } else {
            p->index = true;
            p->rec->index_url = !strcmp(type, "legacy") && s->url ? s->url : "https://pypi.org/simple";
        }
        if (!p->index && NULL == p->rec->location)
            return oom(err);
    }
    return SB_OK;
}

static sb_code poetry_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    po_ctx c = {0};
    c.a = a;
    c.pl.kind = "poetry.lock";
    c.pl.marker_all_extras = true;
    c.pl.file_only = true;
    size_t guess = sb_pyl_count_lines(data, len, "[[package]]", lim->max_packages + 1);
    if (sb_pyl_reserve(&c.pl, a, guess) != SB_OK ||
        (guess && NULL == (c.src = sb_pyl_parallel(a, NULL, &c.scap, guess, sizeof *c.src))))
        return oom(err);
    sb_code rc = sb_toml_parse(a, data, len, lim, on_event, &c, err);
    if (rc != SB_OK)
        return rc;
    if (NULL == c.lock_version && c.has_metadata) /* Poetry before 1.1 wrote none: format 1.0 */
        c.lock_version = "1.0 (implied)";
    if (NULL == c.lock_version)
        return sb_err_set(err, SB_EPARSE, "not a poetry.lock: no [metadata] lock-version");
    if ((c.lock_version[0] != '1' && c.lock_version[0] != '2') || (c.lock_version[1] && c.lock_version[1] != '.'))
        return sb_err_set_at(err, SB_EUNSUPPORTED, c.vline, c.vcol,
                             "poetry.lock lock-version %.32s is not supported (1.x and 2.x are); "
                             "run `poetry lock` with a current Poetry",
                             c.lock_version);
    if ((rc = finish(&c, err)) != SB_OK)
        return rc;
    return sb_pyl_build(out, a, &c.pl, lim, err);
}

static int poetry_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "poetry.lock"))
            return 2;
    }
    size_t n = len < 65536 ? len : 65536;
    if (sb_lock__has_line(data, n, "# This file is automatically @generated by Poetry"))
        return 1;
    if (sb_lock__has_line(data, len, "[metadata]") &&
        (sb_lock__has_line(data, len, "lock-version = ") || sb_lock__has_line(data, len, "content-hash = ")))
        return 1;
    return sb_lock__has_line(data, n, "[[package]]") && sb_lock__has_line(data, n, "python-versions = ") ? 1 : 0;
}

const sb_reader sb_reader_poetry = {.kind = "poetry.lock",
                                    .detect = poetry_detect,
                                    .read = poetry_read,
                                    .record_line = "[[package]]",
                                    .record_char = 0,
                                    .per_record = 2500,
                                    .per_byte = 6};
