/*
 * lock_pylock.c - pylock.toml (PEP 751, lock-version 1.x) into an sb_pyl.
 *
 * Paths read: lock-version, requires-python, packages[i].{name, version,
 * marker, requires-python, index, dependencies[j].name, vcs, directory,
 * archive, sdist, wheels[j]}; artifacts as {name?, url?, path?, hashes.sha256}.
 * Every package whose marker holds for the platform is installed (listed
 * extras and groups all count as selected); edges only where the lock
 * records `dependencies`; the package whose directory is `.` is the root.
 */
#include "lock_int.h"
#include "lock_py.h"
#include "toml.h"

#include <string.h>

typedef struct pl_ctx {
    sb_arena *a;
    sb_pyl pl;
    const char *lock_version;
    unsigned vline, vcol;
    size_t pkg; /* +1 */
    size_t art; /* +1, into the current package's arts */
} pl_ctx;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

typedef struct pl_src {
    const char *vcs_type, *vcs_url, *commit, *dir, *archive_url;
    bool editable;
} pl_src;

typedef struct pl_state {
    pl_ctx c;
    pl_src *src;
    size_t scap;
} pl_state;

static sb_code new_art(pl_state *s, sb_py_pkg *p, bool sdist, sb_err *err)
{
    sb_py_art *art = sb_pyl_art(p, s->c.a);
    if (NULL == art)
        return oom(err);
    art->sdist = sdist;
    s->c.art = p->narts;
    return SB_OK;
}

static void art_field(pl_state *s, sb_py_pkg *p, const sb_toml_seg *path, size_t depth, size_t at,
                      const sb_toml_value *v)
{
    if (0 == s->c.art || v->type != SB_TOML_STRING)
        return;
    sb_py_art *art = &p->arts[s->c.art - 1];
    if (depth == at + 1 && sb_toml_key_is(path, depth, at, "name")) {
        art->file = v->str;
    } else if (depth == at + 1 && (sb_toml_key_is(path, depth, at, "url") || sb_toml_key_is(path, depth, at, "path"))) {
        art->url = sb_toml_key_is(path, depth, at, "url") ? v->str : sb_lock__location(s->c.a, v->str);
        if (NULL == art->file)
            art->file = sb_pyl_basename(s->c.a, v->str);
    } else if (depth == at + 2 && sb_toml_key_is(path, depth, at, "hashes") &&
               sb_toml_key_is(path, depth, at + 1, "sha256")) {
        art->sha256 = sb_pyl_sha256(s->c.a, sb_arena_printf(s->c.a, "sha256:%s", v->str));
    }
}

static sb_code on_package(pl_state *s, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    pl_ctx *c = &s->c;
    if (depth == 2) {
        if (v->type != SB_TOML_TABLE)
            return sb_err_set(err, SB_EPARSE, "packages entries must be tables");
        sb_py_pkg *p = sb_pyl_add(&c->pl, c->a);
        if (NULL == p)
            return oom(err);
        s->src = sb_pyl_parallel(c->a, s->src, &s->scap, c->pl.npkgs, sizeof *s->src);
        if (NULL == s->src)
            return oom(err);
        c->pkg = c->pl.npkgs;
        c->art = 0;
        return SB_OK;
    }
    if (0 == c->pkg || NULL == path[2].key)
        return SB_OK;
    sb_py_pkg *p = &c->pl.pkgs[c->pkg - 1];
    pl_src *src = &s->src[c->pkg - 1];
    const char *k = path[2].key;
    if (depth == 3 && v->type == SB_TOML_STRING) {
        if (!strcmp(k, "name"))
            p->rec->name = v->str;
        else if (!strcmp(k, "version"))
            p->rec->version = v->str;
        else if (!strcmp(k, "marker"))
            p->marker = v->str;
        else if (!strcmp(k, "requires-python"))
            p->rec->requires_python = v->str;
        else if (!strcmp(k, "index"))
            p->rec->index_url = v->str;
        return SB_OK;
    }
    if (!strcmp(k, "dependencies")) {
        if (depth == 4 && v->type == SB_TOML_TABLE)
            return sb_pyl_dep(&p->groups[0], c->a) ? SB_OK : oom(err);
        if (depth == 5 && p->groups[0].n && v->type == SB_TOML_STRING && sb_toml_key_is(path, depth, 4, "name")) {
            sb_py_dep *d = &p->groups[0].v[p->groups[0].n - 1];
            d->name = sb_model_pep503(c->a, v->str);
            return d->name ? SB_OK : oom(err);
        }
    } else if (!strcmp(k, "vcs") && depth == 4 && v->type == SB_TOML_STRING) {
        if (sb_toml_key_is(path, depth, 3, "type"))
            src->vcs_type = v->str;
        else if (sb_toml_key_is(path, depth, 3, "url"))
            src->vcs_url = v->str;
        else if (sb_toml_key_is(path, depth, 3, "path") && !src->vcs_url)
            src->vcs_url = v->str;
        else if (sb_toml_key_is(path, depth, 3, "commit-id"))
            src->commit = v->str;
    } else if (!strcmp(k, "directory") && depth == 4) {
        if (sb_toml_key_is(path, depth, 3, "path") && v->type == SB_TOML_STRING)
            src->dir = v->str;
        else if (sb_toml_key_is(path, depth, 3, "editable") && v->type == SB_TOML_BOOL)
            src->editable = v->b;
    } else if (!strcmp(k, "archive")) {
        if (depth == 3 && v->type == SB_TOML_TABLE)
            return new_art(s, p, false, err);
        if (depth == 4 && v->type == SB_TOML_STRING &&
            (sb_toml_key_is(path, depth, 3, "url") || sb_toml_key_is(path, depth, 3, "path")))
            src->archive_url = v->str;
        art_field(s, p, path, depth, 3, v);
    } else if (!strcmp(k, "sdist")) {
        if (depth == 3 && v->type == SB_TOML_TABLE)
            return new_art(s, p, true, err);
        art_field(s, p, path, depth, 3, v);
    } else if (!strcmp(k, "wheels") && depth >= 4) {
        if (depth == 4 && v->type == SB_TOML_TABLE)
            return new_art(s, p, false, err);
        art_field(s, p, path, depth, 4, v);
    }
    return SB_OK;
}

static sb_code on_event(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    pl_state *s = ud;
    if (depth == 1 && sb_toml_key_is(path, depth, 0, "lock-version")) {
        if (v->type != SB_TOML_STRING)
            return sb_err_set(err, SB_EPARSE, "lock-version must be a string");
        s->c.lock_version = v->str;
        s->c.vline = v->line;
        s->c.vcol = v->column;
    } else if (depth == 1 && sb_toml_key_is(path, depth, 0, "requires-python") && v->type == SB_TOML_STRING) {
        s->c.pl.requires_python = v->str;
    } else if (depth >= 2 && sb_toml_key_is(path, depth, 0, "packages") && NULL == path[1].key) {
        return on_package(s, path, depth, v, err);
    } else if (depth == 1 && sb_toml_key_is(path, depth, 0, "packages") && v->type != SB_TOML_ARRAY) {
        return sb_err_set(err, SB_EPARSE, "packages must be an array of tables ([[packages]])");
    }
    return SB_OK;
}

static sb_code finish(pl_state *s, sb_err *err)
{
    sb_arena *a = s->c.a;
    for (size_t i = 0; i < s->c.pl.npkgs; i++) {
        sb_py_pkg *p = &s->c.pl.pkgs[i];
        const pl_src *src = &s->src[i];
        if (NULL == p->rec->name || !p->rec->name[0])
            return sb_err_set(err, SB_EPARSE, "package %zu has no name", i + 1);
        for (size_t d = 0; d < p->groups[0].n; d++)
            if (NULL == p->groups[0].v[d].name)
                return sb_err_set(err, SB_EPARSE, "a dependency of '%.100s' has no name", p->rec->name);
        if (src->vcs_url) {
            const char *type = src->vcs_type ? src->vcs_type : "git";
            p->rec->location = src->commit ? sb_arena_printf(a, "%s+%s#%s", type, src->vcs_url, src->commit)
                                           : sb_arena_printf(a, "%s+%s", type, src->vcs_url);
        } else if (src->dir) {
            p->rec->location = sb_lock__location(a, src->dir);
            p->rec->editable = src->editable;
            p->root = !strcmp(src->dir, ".") || !strcmp(src->dir, "./");
        } else if (src->archive_url) {
            p->rec->location = strstr(src->archive_url, "://") ? sb_arena_printf(a, "direct+%s", src->archive_url)
                                                               : sb_lock__location(a, src->archive_url);
        } else {
            p->index = true;
        }
        if (!p->index && NULL == p->rec->location)
            return oom(err);
        if (p->marker && (sb_strv_push(&p->rec->reader_props, a, "pixi:marker") != SB_OK ||
                          sb_strv_push(&p->rec->reader_props, a, p->marker) != SB_OK))
            return oom(err);
    }
    return SB_OK;
}

static sb_code pylock_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    pl_state s = {0};
    s.c.a = a;
    s.c.pl.kind = "pylock.toml";
    s.c.pl.marker_all_extras = true;
    size_t guess = sb_pyl_count_lines(data, len, "[[packages]]", lim->max_packages + 1);
    if (sb_pyl_reserve(&s.c.pl, a, guess) != SB_OK ||
        (guess && NULL == (s.src = sb_pyl_parallel(a, NULL, &s.scap, guess, sizeof *s.src))))
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_code rc = sb_toml_parse(a, data, len, lim, on_event, &s, err);
    if (rc != SB_OK)
        return rc;
    if (NULL == s.c.lock_version)
        return sb_err_set(err, SB_EPARSE, "not a pylock.toml: no lock-version");
    if (s.c.lock_version[0] != '1' || (s.c.lock_version[1] && s.c.lock_version[1] != '.'))
        return sb_err_set_at(err, SB_EUNSUPPORTED, s.c.vline, s.c.vcol,
                             "pylock.toml lock-version %.32s is not supported (only 1.x)", s.c.lock_version);
    if ((rc = finish(&s, err)) != SB_OK)
        return rc;
    return sb_pyl_build(out, a, &s.c.pl, lim, err);
}

static int pylock_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        size_t n = strlen(base);
        /* pylock.toml or pylock.<name>.toml with a non-empty name without dots */
        if (n >= 11 && !strncmp(base, "pylock.", 7) && !strcmp(base + n - 5, ".toml")) {
            const char *mid = base + 7, *end = base + n - 5;
            if (mid == end + 1 || (mid < end && NULL == memchr(mid, '.', (size_t)(end - mid))))
                return 2;
        }
    }
    size_t n = len < 16384 ? len : 16384;
    /* a top-level lock-version; poetry.lock has one too, but inside [metadata] */
    return (sb_lock__has_line(data, n, "lock-version = ") || sb_lock__has_line(data, n, "lock-version=")) &&
                   !sb_lock__has_line(data, len, "[metadata]")
               ? 1
               : 0;
}

const sb_reader sb_reader_pylock = {.kind = "pylock.toml",
                                    .detect = pylock_detect,
                                    .read = pylock_read,
                                    .record_line = "[[packages]]",
                                    .record_char = 0,
                                    .per_record = 2500,
                                    .per_byte = 6};
