/*
 * lock_uv.c - uv.lock (version 1, any revision) into an sb_pyl.
 *
 * Paths read (everything else is ignored):
 *   version, requires-python, manifest.members[]
 *   package[i].{name, version, source.<kind>, resolution-markers[],
 *               dependencies[j], optional-dependencies.<extra>[j],
 *               dev-dependencies.<group>[j], sdist, wheels[j]}
 * with dependencies as {name, version?, marker?, extra?[]} and artifacts as
 * {url | path | filename, hash}. Members (and the `.` project) start the
 * reachability walk; the `.` project is the document root. Members'
 * dev-dependencies groups are development, their optional-dependencies
 * extras optional (scopes, see lock_py.h).
 */
#include "lock_int.h"
#include "lock_py.h"
#include "strmap.h"
#include "toml.h"

#include <string.h>

typedef struct uv_src {
    const char *kind, *value;
} uv_src;

typedef struct uv_ctx {
    sb_arena *a;
    sb_pyl pl;
    uv_src *src; /* parallel to pl.pkgs */
    size_t src_cap;
    long long version;
    int has_version;
    unsigned vline, vcol; /* where the version is, for errors */
    sb_strv members;
    size_t pkg;          /* index of the package being read, +1 (0 = none) */
    sb_py_deps *group;   /* the dependency list being read */
    size_t art;          /* artifact being read, +1 */
    sb_py_extras extras; /* of the dependency being read */
} uv_ctx;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

static sb_code on_dep_field(uv_ctx *c, const sb_toml_seg *path, size_t depth, size_t at, const sb_toml_value *v,
                            sb_err *err)
{
    /* at: index of the dependency's own index segment in path */
    if (NULL == c->group || 0 == c->group->n)
        return SB_OK;
    sb_py_dep *d = &c->group->v[c->group->n - 1];
    if (v->type != SB_TOML_STRING)
        return SB_OK;
    if (depth == at + 2 && sb_toml_key_is(path, depth, at + 1, "name")) {
        d->name = sb_model_pep503(c->a, v->str);
        if (NULL == d->name)
            return oom(err);
    } else if (depth == at + 2 && sb_toml_key_is(path, depth, at + 1, "marker")) {
        d->marker = v->str;
    } else if (depth == at + 2 && sb_toml_key_is(path, depth, at + 1, "version")) {
        d->version = v->str;
    } else if (depth == at + 3 && sb_toml_key_is(path, depth, at + 1, "extra")) {
        if (sb_pyl_dep_extra(&c->extras, c->group, c->a, v->str) != SB_OK)
            return oom(err);
    }
    return SB_OK;
}

static void on_art_field(uv_ctx *c, const sb_toml_seg *path, size_t depth, size_t at, const sb_toml_value *v)
{
    if (0 == c->art || v->type != SB_TOML_STRING || depth != at + 1)
        return;
    sb_py_pkg *p = &c->pl.pkgs[c->pkg - 1];
    sb_py_art *art = &p->arts[c->art - 1];
    if (sb_toml_key_is(path, depth, at, "url") || sb_toml_key_is(path, depth, at, "path")) {
        art->url = sb_toml_key_is(path, depth, at, "url") ? v->str : sb_lock__location(c->a, v->str);
        if (NULL == art->file)
            art->file = sb_pyl_basename(c->a, v->str);
    } else if (sb_toml_key_is(path, depth, at, "filename")) {
        art->file = v->str;
    } else if (sb_toml_key_is(path, depth, at, "hash")) {
        art->sha256 = sb_pyl_sha256(c->a, v->str);
    }
}

static sb_code on_package(uv_ctx *c, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    if (depth == 2) { /* package[i] */
        if (v->type != SB_TOML_TABLE)
            return sb_err_set(err, SB_EPARSE, "package entries must be tables");
        sb_py_pkg *p = sb_pyl_add(&c->pl, c->a);
        if (p)
            c->src = sb_pyl_parallel(c->a, c->src, &c->src_cap, c->pl.npkgs, sizeof *c->src);
        if (NULL == p || NULL == c->src)
            return oom(err);
        c->pkg = c->pl.npkgs;
        c->group = NULL;
        c->art = 0;
        return SB_OK;
    }
    if (0 == c->pkg)
        return SB_OK;
    sb_py_pkg *p = &c->pl.pkgs[c->pkg - 1];
    const char *k = path[2].key;
    if (NULL == k)
        return SB_OK;
    if (depth == 3 && v->type == SB_TOML_STRING) {
        if (!strcmp(k, "name"))
            p->rec->name = v->str;
        else if (!strcmp(k, "version"))
            p->rec->version = v->str;
        return SB_OK;
    }
    if (!strcmp(k, "source") && depth == 4 && v->type == SB_TOML_STRING && path[3].key) {
        c->src[c->pkg - 1] = (uv_src){path[3].key, v->str};
    } else if (!strcmp(k, "resolution-markers") && depth == 4 && v->type == SB_TOML_STRING) {
        if (sb_strv_push(&p->resolution_markers, c->a, v->str) != SB_OK)
            return oom(err);
    } else if (!strcmp(k, "dependencies") && depth >= 4) {
        if (depth == 4 && v->type == SB_TOML_TABLE) {
            c->group = sb_pyl_group(p, c->a, NULL);
            if (NULL == c->group || NULL == sb_pyl_dep(c->group, c->a))
                return oom(err);
            return SB_OK;
        }
        return on_dep_field(c, path, depth, 3, v, err);
    } else if ((!strcmp(k, "optional-dependencies") || !strcmp(k, "dev-dependencies")) && depth >= 4 && path[3].key) {
        if (depth == 4 && v->type == SB_TOML_ARRAY) {
            const char *g = !strcmp(k, "dev-dependencies") ? sb_arena_printf(c->a, "group:%s", path[3].key)
                                                           : path[3].key;
            c->group = g ? sb_pyl_group(p, c->a, g) : NULL;
            if (NULL == c->group)
                return oom(err);
            c->group->dev = !strcmp(k, "dev-dependencies");
            return SB_OK;
        }
        if (depth == 5 && v->type == SB_TOML_TABLE)
            return c->group && sb_pyl_dep(c->group, c->a) ? SB_OK : oom(err);
        if (depth >= 6)
            return on_dep_field(c, path, depth, 4, v, err);
    } else if (!strcmp(k, "sdist")) {
        if (depth == 3 && v->type == SB_TOML_TABLE) {
            sb_py_art *art = sb_pyl_art(p, c->a);
            if (NULL == art)
                return oom(err);
            art->sdist = true;
            c->art = p->narts;
            return SB_OK;
        }
        on_art_field(c, path, depth, 3, v);
    } else if (!strcmp(k, "wheels") && depth >= 4) {
        if (depth == 4 && v->type == SB_TOML_TABLE) {
            if (NULL == sb_pyl_art(p, c->a))
                return oom(err);
            c->art = p->narts;
            return SB_OK;
        }
        on_art_field(c, path, depth, 4, v);
    }
    return SB_OK;
}

static sb_code on_event(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    uv_ctx *c = ud;
    if (depth == 1 && sb_toml_key_is(path, depth, 0, "version")) {
        if (v->type != SB_TOML_INTEGER)
            return sb_err_set(err, SB_EPARSE, "version must be an integer");
        c->version = v->i;
        c->has_version = 1;
        c->vline = v->line;
        c->vcol = v->column;
    } else if (depth == 1 && sb_toml_key_is(path, depth, 0, "requires-python") && v->type == SB_TOML_STRING) {
        c->pl.requires_python = v->str;
    } else if (depth == 3 && sb_toml_key_is(path, depth, 0, "manifest") && sb_toml_key_is(path, depth, 1, "members") &&
               v->type == SB_TOML_STRING) {
        char *n = sb_model_pep503(c->a, v->str);
        if (NULL == n || sb_strv_push(&c->members, c->a, n) != SB_OK)
            return oom(err);
    } else if (depth >= 2 && sb_toml_key_is(path, depth, 0, "package") && NULL == path[1].key) {
        return on_package(c, path, depth, v, err);
    } else if (depth == 1 && sb_toml_key_is(path, depth, 0, "package") && v->type != SB_TOML_ARRAY) {
        return sb_err_set(err, SB_EPARSE, "package must be an array of tables ([[package]])");
    }
    return SB_OK;
}

/* Turn each package's source into the model's location and roles. */
static sb_code finish(uv_ctx *c, sb_err *err)
{
    sb_strmap members; /* a member list as long as the packages must not be scanned per package */
    if (sb_strmap_init(&members, c->a, c->members.n) != SB_OK)
        return oom(err);
    for (size_t m = 0; m < c->members.n; m++)
        if (sb_strmap_put(&members, c->members.v[m], strlen(c->members.v[m]), m, NULL) < 0)
            return oom(err);
    for (size_t i = 0; i < c->pl.npkgs; i++) {
        sb_py_pkg *p = &c->pl.pkgs[i];
        const uv_src *s = &c->src[i];
        if (NULL == p->rec->name || !p->rec->name[0])
            return sb_err_set(err, SB_EPARSE, "package %zu has no name", i + 1);
        const char *kind = s->kind ? s->kind : "";
        const char *val = s->value;
        char *n503 = sb_model_pep503(c->a, p->rec->name);
        if (NULL == n503)
            return oom(err);
        size_t at;
        int listed = sb_strmap_get(&members, n503, strlen(n503), &at);
        if (!strcmp(kind, "registry")) {
            p->index = true;
            p->rec->index_url = val;
        } else if (!strcmp(kind, "editable") || !strcmp(kind, "virtual")) {
            int here = val && (!strcmp(val, ".") || !strcmp(val, "./"));
            p->member = here || listed;
            p->root = here;
            p->rec->location = sb_lock__location(c->a, val ? val : ".");
            p->rec->editable = !strcmp(kind, "editable");
        } else if (!strcmp(kind, "git")) {
            p->rec->location = sb_arena_printf(c->a, "git+%s", val);
        } else if (!strcmp(kind, "url")) {
            p->rec->location = sb_arena_printf(c->a, "direct+%s", val);
        } else if (!strcmp(kind, "path") || !strcmp(kind, "directory")) {
            p->rec->location = sb_lock__location(c->a, val);
            p->member = listed;
        } else {
            return sb_err_set(err, SB_EPARSE, "package '%.100s' has no source", p->rec->name);
        }
        if (NULL == p->rec->location && !p->index)
            return oom(err);
        if (p->resolution_markers.n) {
            const char *j = sb_strv_join(&p->resolution_markers, c->a, " || ");
            if (NULL == j || sb_strv_push(&p->rec->reader_props, c->a, "pixi:resolution-markers") != SB_OK ||
                sb_strv_push(&p->rec->reader_props, c->a, j) != SB_OK)
                return oom(err);
        }
        for (size_t g = 0; g < p->ngroups; g++)
            for (size_t d = 0; d < p->groups[g].n; d++)
                if (NULL == p->groups[g].v[d].name)
                    return sb_err_set(err, SB_EPARSE, "a dependency of '%.100s' has no name", p->rec->name);
    }
    return SB_OK;
}

static sb_code uv_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    uv_ctx c = {0};
    c.a = a;
    c.pl.kind = "uv.lock";
    c.pl.walk = true;
    size_t guess = sb_pyl_count_lines(data, len, "[[package]]", lim->max_packages + 1);
    if (sb_pyl_reserve(&c.pl, a, guess) != SB_OK ||
        (guess && NULL == (c.src = sb_pyl_parallel(a, NULL, &c.src_cap, guess, sizeof *c.src))))
        return oom(err);
    sb_code rc = sb_toml_parse(a, data, len, lim, on_event, &c, err);
    if (rc != SB_OK)
        return rc;
    if (!c.has_version)
        return sb_err_set(err, SB_EPARSE, "not a uv.lock: no top-level version");
    if (c.version != 1)
        return sb_err_set_at(err, SB_EUNSUPPORTED, c.vline, c.vcol,
                             "uv.lock version %lld is not supported (only version 1)", c.version);
    if ((rc = finish(&c, err)) != SB_OK)
        return rc;
    return sb_pyl_build(out, a, &c.pl, lim, err);
}

static int uv_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "uv.lock"))
            return 2;
    }
    /* content: TOML with `version = 1` and [[package]] entries carrying `source = {` */
    size_t n = len < 16384 ? len : 16384;
    return sb_lock__has_line(data, n, "version = ") && sb_lock__has_line(data, n, "[[package]]") &&
           sb_lock__has_line(data, n, "source = {");
}

const sb_reader sb_reader_uv = {.kind = "uv.lock",
                                .detect = uv_detect,
                                .read = uv_read,
                                .record_line = "[[package]]",
                                .record_char = 0,
                                .per_record = 2500,
                                .per_byte = 6};
