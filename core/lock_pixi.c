/*
 * lock_pixi.c - pixi.lock reader, formats 1 to 7.
 *
 * DESIGN: one pass over YAML events (yaml_ev.h). Package records are read into a
 * version-agnostic raw form (every key any format uses, both shapes of
 * `dependencies`, flat or nested hashes), because `version:` may come last
 * (v1 writes it at the end). After the pass the version picks how records
 * are attached to environments:
 *   v1-v3: records carry `platform`; one synthesized `default` environment.
 *   v4+:   environments list references ({conda|pypi|conda_source: loc}),
 *          matched to records by (kind, location).
 * Conda fields implied by the archive URL (v6+) are derived here; purls,
 * properties and the graph are the selection's job (derive.c, graph.c).
 *
 * A large input's `packages:` list is first tried in pieces on the worker
 * pool (lock_pixi_par.c, handed this file's read_top and read_packages as
 * its parsers); when that is not possible or not trusted the input is read again
 * on one thread (read_document), so every answer is the one thread's.
 */
#include "lock_pixi_int.h"
#include "model.h"
#include "strmap.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* Platform names are subdir-like words (linux-64, osx-arm64, emscripten-wasm32):
 * rattler refuses anything else, and so do we. */
static int platform_name_ok(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9') ||
              s[n] == '-' || s[n] == '_' || s[n] == '.'))
            return 0;
    return n > 0 && n <= 64;
}

static sb_code oom(sb_pixi_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

/* Grow an arena array of `size`-byte elements to hold n+1. */
static void *grow(sb_arena *a, void *p, size_t *cap, size_t n, size_t size)
{
    return sb_arena_grow(a, p, cap, n, size, 8);
}

static int is_hex(const char *s, size_t len)
{
    if (NULL == s || strlen(s) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* A lower-cased copy of s[0..n) in a. */
static const char *lower_ndup(sb_arena *a, const char *s, size_t n)
{
    char *d = sb_arena_strndup(a, s, n);
    if (d)
        for (char *p = d; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return d;
}

static const char *lower_hex(sb_arena *a, const char *s, size_t len)
{
    return is_hex(s, len) ? lower_ndup(a, s, len) : NULL;
}

/* Where a matchspec's name ends: the end, or one of " =<>!~[;,(". A switch,
 * not strchr: it runs for every byte of every dependency. */
static int spec_stop(char ch)
{
    switch (ch) {
    case '\0':
    case ' ':
    case '=':
    case '<':
    case '>':
    case '!':
    case '~':
    case '[':
    case ';':
    case ',':
    case '(': return 1;
    default: return 0;
    }
}

/* Name part of a conda matchspec ("libzlib >=1.2", "conda-forge::numpy 1.*",
 * "python_abi 3.11.* *_cp311"), lower-cased. */
static const char *matchspec_name(sb_arena *a, const char *spec)
{
    const char *p = spec;
    const char *colons = strstr(p, "::");
    if (colons)
        p = colons + 2;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (!spec_stop(p[n]))
        n++;
    return n ? lower_ndup(a, p, n) : NULL;
}

/* Name of a PEP 508 requirement ("requests[socks] >=2 ; python_version<'3'"),
 * PEP 503-normalized. */
static const char *requirement_name(sb_arena *a, const char *req)
{
    const char *p = req;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '-' || p[n] == '_' || p[n] == '.'))
        n++;
    if (0 == n)
        return NULL;
    char *raw = sb_arena_strndup(a, p, n);
    return raw ? sb_model_pep503(a, raw) : NULL;
}

static sb_code read_str_seq(sb_pixi_ctx *c, sb_strv *out, const char *what,
                            const char *(*xform)(sb_arena *, const char *))
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_SEQUENCE_START_EVENT, what);
    if (rc != SB_OK)
        return rc;
    for (;;) {
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (sb_yp_type(y) == YAML_SEQUENCE_END_EVENT)
            return SB_OK;
        const char *s = NULL; /* the transform copies what it keeps */
        if ((rc = (xform ? sb_yp_peek : sb_yp_str)(y, &s, what)) != SB_OK)
            return rc;
        if (NULL == s)
            continue;
        if (xform) {
            s = xform(c->a, s);
            if (NULL == s)
                continue;
        }
        if (sb_strv_push(out, c->a, s) != SB_OK)
            return oom(c);
    }
}

/* v1 `dependencies:` is a map name -> spec; v2/v3 a list of matchspecs. */
static sb_code read_conda_deps(sb_pixi_ctx *c, sb_pkg *p)
{
    sb_yp *y = &c->y;
    sb_code rc;
    if (sb_yp_type(y) == YAML_SEQUENCE_START_EVENT)
        return read_str_seq(c, &p->depends, "dependencies", matchspec_name);
    if ((rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "dependencies")) != SB_OK)
        return rc;
    while (sb_yp_entry(y, &rc)) {
        const char *name;
        if ((rc = sb_yp_str(y, &name, "a dependency name")) != SB_OK)
            return rc;
        if ((rc = sb_yp_next(y)) != SB_OK || (rc = sb_yp_skip(y)) != SB_OK)
            return rc;
        const char *n = name ? matchspec_name(c->a, name) : NULL;
        if (n && sb_strv_push(&p->depends, c->a, n) != SB_OK)
            return oom(c);
    }
    return rc;
}

static sb_code read_hash_map(sb_pixi_ctx *c, sb_pkg *p)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "hash");
    if (rc != SB_OK)
        return rc;
    while (sb_yp_entry(y, &rc)) {
        int is_sha = sb_yp_is(y, "sha256"), is_md5 = sb_yp_is(y, "md5");
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (is_sha || is_md5) {
            const char *v;
            if ((rc = sb_yp_str(y, &v, is_sha ? "hash.sha256" : "hash.md5")) != SB_OK)
                return rc;
            if (is_sha)
                p->sha256 = lower_hex(c->a, v, 64);
            else
                p->x->md5 = lower_hex(c->a, v, 32);
        } else if ((rc = sb_yp_skip(y)) != SB_OK) {
            return rc;
        }
    }
    return rc;
}

static sb_code add_prop(sb_pixi_ctx *c, sb_pkg *p, const char *name, const char *value)
{
    if (NULL == value || !value[0])
        return SB_OK;
    if (sb_strv_push(&p->reader_props, c->a, name) != SB_OK || sb_strv_push(&p->reader_props, c->a, value) != SB_OK)
        return oom(c);
    return SB_OK;
}

/* Where a source package is built from, as its `source:` map says. */
typedef struct src_fields {
    const char *git, *rev, *url, *path;
} src_fields;

/* conda source `source:` map: git (+tag|branch|rev, subdirectory), url
 * (+sha256) or path. */
static sb_code read_source(sb_pixi_ctx *c, sb_pkg *p, src_fields *src)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "source");
    if (rc != SB_OK)
        return rc;
    while (sb_yp_entry(y, &rc)) {
        const char *key;
        if ((rc = sb_yp_str(y, &key, "a source key")) != SB_OK)
            return rc;
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (sb_yp_type(y) != YAML_SCALAR_EVENT) {
            if ((rc = sb_yp_skip(y)) != SB_OK)
                return rc;
            continue;
        }
        const char *v;
        if ((rc = sb_yp_str(y, &v, "a source value")) != SB_OK)
            return rc;
        if (NULL == key || NULL == v)
            continue;
        if (!strcmp(key, "git")) {
            src->git = v;
        } else if (!strcmp(key, "rev")) {
            src->rev = v;
        } else if (!strcmp(key, "tag")) {
            rc = add_prop(c, p, "pixi:source-tag", v);
        } else if (!strcmp(key, "branch")) {
            rc = add_prop(c, p, "pixi:source-branch", v);
        } else if (!strcmp(key, "subdirectory")) {
            rc = add_prop(c, p, "pixi:source-subdirectory", v);
        } else if (!strcmp(key, "url")) {
            src->url = v;
        } else if (!strcmp(key, "path")) {
            src->path = v;
        } else if (!strcmp(key, "sha256")) {
            if (NULL == p->sha256)
                p->sha256 = lower_hex(c->a, v, 64);
        }
        if (rc != SB_OK)
            return rc;
    }
    return rc;
}

/* A conda archive's file name: ...-<version>-<build>.conda or .tar.bz2. */
static int is_archive(const char *loc)
{
    const char *file = strrchr(loc, '/');
    file = file ? file + 1 : loc;
    size_t n = strlen(file);
    return (n > 6 && !strcmp(file + n - 6, ".conda")) || (n > 8 && !strcmp(file + n - 8, ".tar.bz2"));
}

/* v6 source `input: {hash, globs}`: what pixi hashed to know the build is
 * current; kept as pixi:source-input-hash / pixi:source-input-globs. */
static sb_code read_input(sb_pixi_ctx *c, sb_pkg *p)
{
    sb_yp *y = &c->y;
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT)
        return sb_yp_skip(y);
    sb_code rc;
    while (sb_yp_entry(y, &rc)) {
        int hash = sb_yp_is(y, "hash"), globs = sb_yp_is(y, "globs");
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (hash && sb_yp_type(y) == YAML_SCALAR_EVENT) {
            const char *v;
            if ((rc = sb_yp_str(y, &v, "input.hash")) != SB_OK ||
                (rc = add_prop(c, p, "pixi:source-input-hash", v)) != SB_OK)
                return rc;
        } else if (globs && sb_yp_type(y) == YAML_SEQUENCE_START_EVENT) {
            sb_strv g = {0};
            if ((rc = read_str_seq(c, &g, "input.globs", NULL)) != SB_OK)
                return rc;
            const char *joined = g.n ? sb_strv_join(&g, c->a, ",") : NULL;
            if (g.n && NULL == joined)
                return oom(c);
            if ((rc = add_prop(c, p, "pixi:source-input-globs", joined)) != SB_OK)
                return rc;
        } else if ((rc = sb_yp_skip(y)) != SB_OK) {
            return rc;
        }
    }
    return rc;
}

/* A source package (pixi-build): its location and pixi:source-* facts from
 * the build source when the record has one, else from where the lockfile
 * keys it (`@ <location>` in v7, the `conda:` path in v6). No channel. */
static sb_code source_package(sb_pixi_ctx *c, sb_pkg *p, const char *where, const src_fields *src)
{
    sb_code rc;
    p->kind = SB_KIND_CONDA_SOURCE;
    if (src->git) {
        if ((rc = add_prop(c, p, "pixi:source-git", src->git)) != SB_OK ||
            (rc = add_prop(c, p, "pixi:source-rev", src->rev)) != SB_OK)
            return rc;
        const char *base = strncmp(src->git, "git+", 4) ? sb_arena_printf(c->a, "git+%s", src->git) : src->git;
        p->location = src->rev && base ? sb_arena_printf(c->a, "%s@%s", base, src->rev) : base;
    } else if (src->url) {
        if ((rc = add_prop(c, p, "pixi:source-url", src->url)) != SB_OK)
            return rc;
        p->location = src->url;
    } else {
        if (src->path && (rc = add_prop(c, p, "pixi:source-path", src->path)) != SB_OK)
            return rc;
        if (where && !strncmp(where, "git+", 4)) {
            /* git+URL?subdirectory=..&branch=..#rev */
            const char *hash = strchr(where, '#');
            const char *q = strchr(where, '?');
            const char *uend = q && (!hash || q < hash) ? q : hash ? hash : where + strlen(where);
            if ((rc = add_prop(c, p, "pixi:source-git",
                               sb_arena_strndup(c->a, where + 4, (size_t)(uend - where - 4)))) != SB_OK ||
                (rc = add_prop(c, p, "pixi:source-rev", hash ? hash + 1 : NULL)) != SB_OK)
                return rc;
            p->location = where;
        } else {
            const char *spath = where ? where : src->path;
            if (spath && !src->path && (rc = add_prop(c, p, "pixi:source-path", spath)) != SB_OK)
                return rc;
            p->location = sb_lock__location(c->a, spath);
            if (spath && NULL == p->location)
                return oom(c);
        }
    }
    return SB_OK;
}

/* What a record states that only says how to read the rest: settled per
 * record kind once the record's map ends. */
typedef struct rec_fields {
    const char *url, *path, *manager, *kind, *noarch;
    src_fields src;
} rec_fields;

/* key == name, the first byte compared inline: every key of every record
 * runs down these chains, and most names differ at the first byte. */
static inline int key_is(const char *key, const char *name)
{
    return key[0] == name[0] && !strcmp(key, name);
}

/* Where the value of a plain string key goes; NULL when `key` is none. */
static const char **str_slot(sb_pixi_rec *r, rec_fields *f, const char *key)
{
    sb_pkg *p = r->pkg;
    static const char *const keys[] = {"kind",           "manager",         "platform", "name",     "version",
                                       "build",          "subdir",          "url",      "path",     "license",
                                       "license_family", "requires_python", "noarch",   "category", "index"};
    const char **slots[] = {&f->kind, &f->manager, &r->platform, &p->name, &p->version, &p->x->build, &p->x->subdir,
                            &f->url, &f->path, &p->license, &p->x->license_family, &p->requires_python, &f->noarch,
                            &r->category,
                            /* v7 PyPI: the index this package was resolved from; it wins over
                             * the environment's first index (supplier, pixi:index-url) */
                            &p->index_url};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (key_is(key, keys[i]))
            return slots[i];
    return NULL;
}

/* `purls:` is a sequence; a null one says the lock had none to give. */
static sb_code read_purls(sb_pixi_ctx *c, sb_pkg *p)
{
    sb_yp *y = &c->y;
    p->has_purls_key = true;
    if (sb_yp_type(y) != YAML_SCALAR_EVENT)
        return read_str_seq(c, &p->x->lock_purls, "purls", NULL);
    const char *v;
    sb_code rc = sb_yp_str(y, &v, "purls");
    if (rc == SB_OK && v)
        rc = sb_yp_fail(y, SB_EPARSE, "purls must be a sequence");
    return rc;
}

/* The value of one record key other than a plain string (the current
 * event is the value's first). */
static sb_code read_record_value(sb_pixi_ctx *c, sb_pixi_rec *r, rec_fields *f, const char *key)
{
    sb_yp *y = &c->y;
    sb_pkg *p = r->pkg;
    sb_code rc;
    if (key_is(key, "conda") || key_is(key, "pypi") || key_is(key, "conda_source")) {
        r->kind = key[0] == 'p' ? SB_PIXI_PYPI : key[5] == '_' ? SB_PIXI_CONDA_SOURCE : SB_PIXI_CONDA;
        if ((rc = sb_yp_str(y, &r->loc, key)) == SB_OK && NULL == r->loc)
            rc = sb_yp_fail(y, SB_EPARSE, "package '%s' location is empty", key);
        return rc;
    }
    if (key_is(key, "optional") || key_is(key, "editable")) {
        bool yes = sb_yp_truthy(y);
        if (key[0] == 'o')
            r->optional = yes;
        else
            p->editable = yes;
        return sb_yp_skip(y);
    }
    if (key_is(key, "build_number"))
        return sb_yp_int(y, &p->x->build_number, "build_number");
    if (key_is(key, "size"))
        return sb_yp_int(y, &p->x->size, "size");
    if (key_is(key, "sha256") || key_is(key, "md5")) {
        const char *v; /* lower_hex copies what it keeps */
        if ((rc = sb_yp_peek(y, &v, key)) != SB_OK)
            return rc;
        if (key[0] == 's')
            p->sha256 = lower_hex(c->a, v, 64);
        else
            p->x->md5 = lower_hex(c->a, v, 32);
        return SB_OK;
    }
    if (key_is(key, "hash"))
        return read_hash_map(c, p);
    if (key_is(key, "depends"))
        return read_str_seq(c, &p->depends, "depends", matchspec_name);
    if (key_is(key, "dependencies"))
        return read_conda_deps(c, p);
    if (key_is(key, "requires_dist"))
        return read_str_seq(c, &p->depends, "requires_dist", requirement_name);
    if (key_is(key, "purls"))
        return read_purls(c, p);
    if (key_is(key, "source") || key_is(key, "package_build_source")) {
        /* v7 `source:`, v6 `package_build_source:`: one shape */
        if (sb_yp_type(y) == YAML_MAPPING_START_EVENT)
            return read_source(c, p, &f->src);
        return sb_yp_skip(y);
    }
    if (key_is(key, "input"))
        return read_input(c, p);
    return sb_yp_skip(y);
}

/* A binary conda record: what its archive URL says fills what the record
 * leaves out. */
static sb_code finish_conda_binary(sb_pixi_ctx *c, sb_pixi_rec *r)
{
    sb_pkg *p = r->pkg;
    if (sb_lock__conda_from_url(c->a, p, r->loc) != SB_OK)
        return oom(c);
    if (NULL == p->name || !p->name[0])
        return sb_err_set_at(c->err, SB_EPARSE, r->line, r->col, "conda package '%.120s' has no name", r->loc);
    return SB_OK;
}

/* v6 keys source packages (pixi-build) by `conda:` too: a location that is
 * no conda archive is a source tree, as rattler reads it; v6 leaves out a
 * noarch the subdir implies (v7 writes it). */
static sb_code finish_conda_tree(sb_pixi_ctx *c, sb_pixi_rec *r, const rec_fields *f)
{
    sb_pkg *p = r->pkg;
    sb_code rc = source_package(c, p, r->loc, &f->src);
    if (rc != SB_OK)
        return rc;
    if (p->x->subdir && !strcmp(p->x->subdir, "noarch"))
        p->noarch = true;
    if (NULL == p->name || !p->name[0])
        return sb_err_set_at(c->err, SB_EPARSE, r->line, r->col, "source package '%.120s' has no name", r->loc);
    return SB_OK;
}

/* v7 `conda_source: "name[hash] @ location"`. */
static sb_code finish_conda_source(sb_pixi_ctx *c, sb_pixi_rec *r, const rec_fields *f)
{
    sb_pkg *p = r->pkg;
    const char *s = r->loc;
    const char *at = strstr(s, " @ ");
    const char *lb = strchr(s, '[');
    const char *name_end = lb && (!at || lb < at) ? lb : at ? at : s + strlen(s);
    if (NULL == p->name)
        p->name = sb_arena_strndup(c->a, s, (size_t)(name_end - s));
    if (lb && (!at || lb < at)) {
        const char *rb = strchr(lb, ']');
        if (rb)
            p->x->identifier_hash = sb_arena_strndup(c->a, lb + 1, (size_t)(rb - lb - 1));
    }
    sb_code rc = source_package(c, p, at ? at + 3 : NULL, &f->src);
    if (rc != SB_OK)
        return rc;
    if (NULL == p->name || !p->name[0])
        return sb_err_set_at(c->err, SB_EPARSE, r->line, r->col, "source package has no name");
    return SB_OK;
}

static sb_code finish_pypi(sb_pixi_ctx *c, sb_pixi_rec *r)
{
    sb_pkg *p = r->pkg;
    p->kind = SB_KIND_PYPI;
    const char *loc = r->loc;
    /* v1-v3 urls carry "#sha256=<hex>" */
    const char *frag = strstr(loc, "#sha256=");
    if (frag) {
        if (NULL == p->sha256)
            p->sha256 = lower_hex(c->a, frag + 8, 64);
        loc = sb_arena_strndup(c->a, loc, (size_t)(frag - loc));
    }
    p->location = sb_lock__location(c->a, loc);
    if (NULL == p->name || !p->name[0])
        return sb_err_set_at(c->err, SB_EPARSE, r->line, r->col, "pypi package '%.120s' has no name", r->loc);
    return SB_OK;
}

/* The kind from `kind:` (v4/v5) or `manager:` (v1-v3) when the location
 * key did not say it. */
static sb_code unkeyed_kind(sb_pixi_ctx *c, sb_pixi_rec *r, const rec_fields *f)
{
    const char *k = f->kind ? f->kind : f->manager;
    if (k && !strcmp(k, "conda"))
        r->kind = SB_PIXI_CONDA;
    else if (k && (!strcmp(k, "pypi") || !strcmp(k, "pip")))
        r->kind = SB_PIXI_PYPI;
    else
        return sb_err_set_at(c->err, SB_EPARSE, r->line, r->col,
                             "package entry has no kind (conda, pypi or conda_source)");
    r->loc = f->url ? f->url : f->path;
    return SB_OK;
}

static sb_pixi_rec *new_record(sb_pixi_ctx *c)
{
    c->recs = grow(c->scratch, c->recs, &c->caprecs, c->nrecs, sizeof *c->recs);
    sb_pkg *p = sb_arena_calloc(c->a, 1, sizeof *p);
    if (NULL == c->recs || NULL == p || NULL == sb_pkg_x(p, c->a))
        return NULL;
    sb_pixi_rec *r = &c->recs[c->nrecs++];
    memset(r, 0, sizeof *r);
    r->pkg = p;
    r->line = sb_yp_line(&c->y);
    r->col = sb_yp_col(&c->y);
    return r;
}

static sb_code read_record(sb_pixi_ctx *c)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "a package entry");
    if (rc != SB_OK)
        return rc;
    if (c->nrecs >= c->y.lim->max_packages)
        return sb_yp_fail(y, SB_ELIMIT, "more than %zu package entries", c->y.lim->max_packages);
    sb_pixi_rec *r = new_record(c);
    if (NULL == r)
        return oom(c);
    rec_fields f = {0};
    char key[SB_YP_KEY_MAX];
    while (sb_yp_entry_key(y, key, "a package key", &rc)) {
        const char **slot = str_slot(r, &f, key);
        rc = slot ? sb_yp_str(y, slot, key) : read_record_value(c, r, &f, key);
        if (rc != SB_OK)
            return rc;
    }
    if (rc != SB_OK)
        return rc;
    if (r->kind == SB_PIXI_UNKNOWN && (rc = unkeyed_kind(c, r, &f)) != SB_OK)
        return rc;
    if (NULL == r->loc || !r->loc[0])
        return sb_err_set_at(c->err, SB_EPARSE, r->line, r->col, "package entry has no url");
    if (f.noarch && strcmp(f.noarch, "false") != 0)
        r->pkg->noarch = true;
    switch (r->kind) {
    case SB_PIXI_CONDA: rc = is_archive(r->loc) ? finish_conda_binary(c, r) : finish_conda_tree(c, r, &f); break;
    case SB_PIXI_CONDA_SOURCE: rc = finish_conda_source(c, r, &f); break;
    default: rc = finish_pypi(c, r); break;
    }
    if (rc == SB_OK && NULL == r->pkg->location)
        rc = oom(c);
    return rc;
}

static sb_code read_packages(sb_pixi_ctx *c)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_SEQUENCE_START_EVENT, "packages");
    if (rc != SB_OK)
        return rc;
    for (;;) {
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (sb_yp_type(y) == YAML_SEQUENCE_END_EVENT)
            return SB_OK;
        if ((rc = read_record(c)) != SB_OK)
            return rc;
    }
}

static sb_code read_channels(sb_pixi_ctx *c, sb_strv *out)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_SEQUENCE_START_EVENT, "channels");
    if (rc != SB_OK)
        return rc;
    for (;;) {
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (sb_yp_type(y) == YAML_SEQUENCE_END_EVENT)
            return SB_OK;
        const char *url = NULL;
        if (sb_yp_type(y) == YAML_SCALAR_EVENT) {
            if ((rc = sb_yp_str(y, &url, "a channel")) != SB_OK)
                return rc;
        } else {
            if ((rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "a channel")) != SB_OK)
                return rc;
            while (sb_yp_entry(y, &rc)) {
                int is_url = sb_yp_is(y, "url");
                if ((rc = sb_yp_next(y)) != SB_OK)
                    return rc;
                if (is_url) {
                    if ((rc = sb_yp_str(y, &url, "channel url")) != SB_OK)
                        return rc;
                } else if ((rc = sb_yp_skip(y)) != SB_OK) {
                    return rc;
                }
            }
            if (rc != SB_OK)
                return rc;
        }
        if (url && sb_strv_push(out, c->a, url) != SB_OK)
            return oom(c);
    }
}

static sb_code read_metadata(sb_pixi_ctx *c)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "metadata");
    if (rc != SB_OK)
        return rc;
    while (sb_yp_entry(y, &rc)) {
        int ch = sb_yp_is(y, "channels"), pl = sb_yp_is(y, "platforms");
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (ch)
            rc = read_channels(c, &c->meta_channels);
        else if (pl)
            rc = read_str_seq(c, &c->meta_platforms, "metadata.platforms", NULL);
        else
            rc = sb_yp_skip(y);
        if (rc != SB_OK)
            return rc;
    }
    return rc;
}

static sb_code read_env_platform(sb_pixi_ctx *c, const char *env, const char *platform)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_SEQUENCE_START_EVENT, "an environment's package list");
    if (rc != SB_OK)
        return rc;
    c->lists = grow(c->scratch, c->lists, &c->caplists, c->nlists, sizeof *c->lists);
    if (NULL == c->lists)
        return oom(c);
    sb_pixi_reflist *l = &c->lists[c->nlists++];
    memset(l, 0, sizeof *l);
    l->env = env;
    l->platform = platform;
    for (;;) {
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (sb_yp_type(y) == YAML_SEQUENCE_END_EVENT)
            return SB_OK;
        if ((rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "a package reference")) != SB_OK)
            return rc;
        sb_pixi_ref ref = {SB_PIXI_UNKNOWN, NULL, NULL, NULL, NULL, NULL, sb_yp_line(y), sb_yp_col(y)};
        while (sb_yp_entry(y, &rc)) {
            sb_pixi_kind k = sb_yp_is(y, "conda")          ? SB_PIXI_CONDA
                             : sb_yp_is(y, "pypi")         ? SB_PIXI_PYPI
                             : sb_yp_is(y, "conda_source") ? SB_PIXI_CONDA_SOURCE
                                                           : SB_PIXI_UNKNOWN;
            const char **sel = sb_yp_is(y, "name")      ? &ref.name
                               : sb_yp_is(y, "version") ? &ref.version
                               : sb_yp_is(y, "build")   ? &ref.build
                               : sb_yp_is(y, "subdir")  ? &ref.subdir
                                                        : NULL;
            if ((rc = sb_yp_next(y)) != SB_OK)
                return rc;
            if (k != SB_PIXI_UNKNOWN || (sel && sb_yp_type(y) == YAML_SCALAR_EVENT)) {
                const char *v;
                if ((rc = sb_yp_peek(y, &v, "a package reference")) != SB_OK)
                    return rc;
                const char *copy = v ? sb_arena_strdup(c->scratch, v) : NULL;
                if (v && NULL == copy)
                    return oom(c);
                if (k != SB_PIXI_UNKNOWN) {
                    ref.kind = k;
                    ref.loc = copy;
                } else {
                    *sel = copy;
                }
            } else if ((rc = sb_yp_skip(y)) != SB_OK) {
                return rc;
            }
        }
        if (rc != SB_OK)
            return rc;
        if (ref.kind == SB_PIXI_UNKNOWN || NULL == ref.loc)
            return sb_err_set_at(c->err, SB_EPARSE, ref.line, ref.col,
                                 "package reference needs a conda, pypi or conda_source key");
        l->refs = grow(c->scratch, l->refs, &l->cap, l->n, sizeof *l->refs);
        if (NULL == l->refs)
            return oom(c);
        l->refs[l->n++] = ref;
    }
}

static sb_code read_environments(sb_pixi_ctx *c)
{
    sb_yp *y = &c->y;
    sb_code rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "environments");
    if (rc != SB_OK)
        return rc;
    while (sb_yp_entry(y, &rc)) {
        const char *env_name;
        if ((rc = sb_yp_str(y, &env_name, "an environment name")) != SB_OK)
            return rc;
        if (NULL == env_name)
            return sb_yp_fail(y, SB_EPARSE, "an environment name is empty");
        if (sb_lock_find_env(c->lock, env_name))
            return sb_yp_fail(y, SB_EPARSE, "environment '%.64s' is listed twice", env_name);
        sb_lock_env *env = sb_lock_env_get(c->lock, c->a, env_name);
        if (NULL == env)
            return oom(c);
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if ((rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "an environment")) != SB_OK)
            return rc;
        while (sb_yp_entry(y, &rc)) {
            int ch = sb_yp_is(y, "channels"), ix = sb_yp_is(y, "indexes"), pk = sb_yp_is(y, "packages");
            if ((rc = sb_yp_next(y)) != SB_OK)
                return rc;
            if (ch) {
                rc = read_channels(c, &env->channels);
            } else if (ix) {
                rc = read_str_seq(c, &env->indexes, "indexes", NULL);
            } else if (pk) {
                if ((rc = sb_yp_expect(y, YAML_MAPPING_START_EVENT, "an environment's packages")) != SB_OK)
                    return rc;
                while (sb_yp_entry(y, &rc)) {
                    const char *plat;
                    if ((rc = sb_yp_str(y, &plat, "a platform name")) != SB_OK)
                        return rc;
                    if (NULL == plat)
                        return sb_yp_fail(y, SB_EPARSE, "a platform name is empty");
                    if (!platform_name_ok(plat))
                        return sb_yp_fail(y, SB_EPARSE,
                                          "'%.64s' is not a platform name (letters, digits, '-', '_', '.')", plat);
                    if (sb_lock_find_platform(env, plat))
                        return sb_yp_fail(y, SB_EPARSE, "platform '%.64s' is listed twice", plat);
                    if (NULL == sb_lock_platform_get(env, c->a, plat))
                        return oom(c);
                    if ((rc = sb_yp_next(y)) != SB_OK)
                        return rc;
                    if ((rc = read_env_platform(c, env_name, plat)) != SB_OK)
                        return rc;
                }
            } else {
                rc = sb_yp_skip(y);
            }
            if (rc != SB_OK)
                return rc;
        }
        if (rc != SB_OK)
            return rc;
    }
    return rc;
}

/* Does record `p` satisfy the reference's v6 selectors? Conda names compare
 * without case, as conda names do. */
static int selected(const sb_pixi_ref *ref, const sb_pkg *p)
{
    if (ref->name && (NULL == p->name || strcasecmp(ref->name, p->name)))
        return 0;
    if (ref->version && (NULL == p->version || strcmp(ref->version, p->version)))
        return 0;
    if (ref->build && (NULL == p->x->build || strcmp(ref->build, p->x->build)))
        return 0;
    return NULL == ref->subdir || (p->x->subdir && !strcmp(ref->subdir, p->x->subdir));
}

/* The record a reference means among those sharing its location (chained
 * through `next` from `first`): the first the selectors accept (v6+, as
 * rattler reads them). Before v6 one URL could hold a record per subdir
 * with no selector: there the record of the platform's own subdir (or
 * noarch) wins. SIZE_MAX when none fits. */
static size_t choose(const sb_pixi_ctx *c, const size_t *next, size_t first, const sb_pixi_ref *ref,
                     const char *platform)
{
    size_t pick = SIZE_MAX;
    for (size_t i = first; i != SIZE_MAX; i = next[i]) {
        const sb_pkg *p = c->recs[i].pkg;
        if (!selected(ref, p))
            continue;
        if (pick == SIZE_MAX)
            pick = i;
        if (c->version >= 6 || next[first] == SIZE_MAX)
            break;
        if (p->x->subdir && (!strcmp(p->x->subdir, platform) || !strcmp(p->x->subdir, "noarch")))
            return i;
    }
    return pick;
}

/* v4+: attach records to environments through their references (one map
 * per record kind, keyed by location, to the first record there; the
 * others sharing it chained behind). */
static sb_code link_v4(sb_pixi_ctx *c)
{
    sb_strmap m[SB_PIXI_CONDA_SOURCE + 1];
    for (int k = 0; k <= SB_PIXI_CONDA_SOURCE; k++)
        if (sb_strmap_init(&m[k], c->scratch, k == SB_PIXI_UNKNOWN ? 1 : c->nrecs) != SB_OK)
            return oom(c);
    size_t *next = sb_arena_alloc(c->scratch, (c->nrecs + 1) * sizeof *next);
    size_t *tail = sb_arena_alloc(c->scratch, (c->nrecs + 1) * sizeof *tail);
    if (NULL == next || NULL == tail)
        return oom(c);
    for (size_t i = 0; i < c->nrecs; i++) {
        const sb_pixi_rec *r = &c->recs[i];
        size_t first;
        int dup = sb_strmap_put(&m[r->kind], r->loc, strlen(r->loc), i, &first);
        if (dup < 0)
            return oom(c);
        next[i] = SIZE_MAX;
        tail[i] = i;
        if (dup) {
            next[tail[first]] = i;
            tail[first] = i;
        }
    }
    for (size_t li = 0; li < c->nlists; li++) {
        sb_pixi_reflist *l = &c->lists[li];
        sb_lock_env *env = sb_lock_env_get(c->lock, c->a, l->env);
        sb_lock_platform *plat = env ? sb_lock_platform_get(env, c->a, l->platform) : NULL;
        if (NULL == plat)
            return oom(c);
        for (size_t i = 0; i < l->n; i++) {
            size_t first, idx = SIZE_MAX;
            const sb_pixi_ref *ref = &l->refs[i];
            if (sb_strmap_get(&m[ref->kind], ref->loc, strlen(ref->loc), &first))
                idx = choose(c, next, first, ref, l->platform);
            if (idx == SIZE_MAX)
                return sb_err_set_at(c->err, SB_EPARSE, ref->line, ref->col,
                                     "environment '%.64s' platform '%.64s' refers to a package "
                                     "that is not in 'packages': %.120s%s",
                                     l->env, l->platform, ref->loc,
                                     ref->name || ref->version || ref->build || ref->subdir
                                         ? " (with its name/version/build/subdir)"
                                         : "");
            if (sb_lock_platform_add(plat, c->a, c->recs[idx].pkg) != SB_OK)
                return oom(c);
        }
    }
    return SB_OK;
}

/* conda-lock: what a category says the package is for: `main`
 * (the default) required, `dev` development, any other optional. */
static sb_scope category_scope(const sb_pixi_rec *r)
{
    if (NULL == r->category)
        return r->optional ? SB_SCOPE_OPTIONAL : SB_SCOPE_REQUIRED;
    if (!strcmp(r->category, "main"))
        return SB_SCOPE_REQUIRED;
    return !strcmp(r->category, "dev") ? SB_SCOPE_DEVELOPMENT : SB_SCOPE_OPTIONAL;
}

/* conda-lock lists a package once per category it is locked for: the
 * entries of one platform, kind and URL are one package, taking the
 * strongest scope. 1 when `r` repeats an earlier entry (merged into it). */
static int merge_category(sb_pixi_ctx *c, sb_strmap *seen, const sb_pixi_rec *r, int *failed)
{
    const char *key = sb_arena_printf(c->scratch, "%s\n%d\n%s", r->platform, (int)r->kind, r->loc);
    size_t first;
    int had = key ? sb_strmap_put(seen, key, strlen(key), (size_t)(r - c->recs), &first) : -1;
    if (had < 0) {
        *failed = 1;
        return 0;
    }
    r->pkg->scope = category_scope(r);
    if (had)
        c->recs[first].pkg->scope = sb_scope_merge(c->recs[first].pkg->scope, r->pkg->scope);
    return had;
}

/* A platform whose packages are all required tells nothing apart: no scopes. */
static void drop_plain_scopes(sb_lock_env *env)
{
    for (size_t k = 0; k < env->nplatforms; k++) {
        sb_lock_platform *plat = &env->platforms[k];
        int distinguishes = 0;
        for (size_t i = 0; i < plat->npkgs; i++)
            distinguishes |= plat->pkgs[i]->scope > SB_SCOPE_REQUIRED;
        for (size_t i = 0; !distinguishes && i < plat->npkgs; i++)
            plat->pkgs[i]->scope = SB_SCOPE_NONE;
    }
}

/* v1-v3: one `default` environment; each record names its platform.
 * conda-lock.yml (`categories`): one package per platform and URL, scoped. */
static sb_code link_v1(sb_pixi_ctx *c, int categories)
{
    sb_lock_env *env = sb_lock_env_get(c->lock, c->a, "default");
    sb_strmap seen;
    if (NULL == env || sb_strmap_init(&seen, c->scratch, categories ? c->nrecs : 1) != SB_OK)
        return oom(c);
    env->channels = c->meta_channels;
    for (size_t i = 0; i < c->meta_platforms.n; i++)
        if (NULL == sb_lock_platform_get(env, c->a, c->meta_platforms.v[i]))
            return oom(c);
    for (size_t i = 0; i < c->nrecs; i++) {
        sb_pixi_rec *r = &c->recs[i];
        int failed = 0;
        if (NULL == r->platform)
            return sb_err_set_at(c->err, SB_EPARSE, r->line, r->col, "package entry has no platform");
        if (categories && merge_category(c, &seen, r, &failed))
            continue;
        sb_lock_platform *plat = sb_lock_platform_get(env, c->a, r->platform);
        if (failed || NULL == plat || sb_lock_platform_add(plat, c->a, r->pkg) != SB_OK)
            return oom(c);
    }
    if (categories)
        drop_plain_scopes(env);
    return SB_OK;
}

/* Read in pieces: the list the pieces read must be this key's, now a null
 * where its items were (sb_yp_open_gap). */
static sb_code gap_packages(sb_pixi_ctx *c, unsigned kl, unsigned kc)
{
    const char *v = "";
    if (kl != c->gap_line || kc != 1 || sb_yp_type(&c->y) != YAML_SCALAR_EVENT ||
        sb_yp_peek(&c->y, &v, "packages") != SB_OK || v != NULL)
        return sb_yp_fail(&c->y, SB_EPARSE, "the package list is not where it was cut");
    c->gap_read = 1;
    return SB_OK;
}

static sb_code read_top(sb_pixi_ctx *c)
{
    sb_yp *y = &c->y;
    sb_code rc;
    if ((rc = sb_yp_next(y)) != SB_OK)
        return rc;
    if ((rc = sb_yp_expect(y, YAML_STREAM_START_EVENT, "the input")) != SB_OK)
        return rc;
    if ((rc = sb_yp_next(y)) != SB_OK)
        return rc;
    if (sb_yp_type(y) == YAML_STREAM_END_EVENT)
        return sb_err_set_at(c->err, SB_EPARSE, 1, 1, "the lockfile is empty");
    if ((rc = sb_yp_next(y)) != SB_OK)
        return rc;
    if (sb_yp_type(y) != YAML_MAPPING_START_EVENT)
        return sb_yp_fail(y, SB_EPARSE, "a pixi.lock is a YAML mapping at the top level");
    int seen_pkgs = 0, seen_envs = 0, seen_meta = 0;
    while (sb_yp_entry(y, &rc)) {
        const char *key;
        if ((rc = sb_yp_str(y, &key, "a top-level key")) != SB_OK)
            return rc;
        if (NULL == key)
            key = "";
        unsigned kl = sb_yp_line(y), kc = sb_yp_col(y);
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        if (!strcmp(key, "version")) {
            if (c->have_version)
                return sb_err_set_at(c->err, SB_EPARSE, kl, kc, "top-level key 'version' appears twice");
            if ((rc = sb_yp_int(y, &c->version, "version")) != SB_OK)
                return rc;
            c->have_version = 1;
            c->version_line = sb_yp_line(y);
            c->version_col = sb_yp_col(y);
            /* refuse early: later keys may not even have a shape we know */
            if (c->version < 1 || c->version > 7)
                return sb_yp_fail(y, SB_EUNSUPPORTED, "pixi.lock version %lld is not supported (versions 1 to 7 are)",
                                  c->version);
        } else if (!strcmp(key, "package") || !strcmp(key, "packages")) {
            if (seen_pkgs++)
                return sb_err_set_at(c->err, SB_EPARSE, kl, kc, "the package list appears twice");
            if (c->gap_line) {
                rc = gap_packages(c, kl, kc);
            } else if (sb_yp_type(y) == YAML_MAPPING_START_EVENT) {
                /* `packages: {}` as seen in empty locks */
                rc = sb_yp_skip(y);
            } else {
                rc = read_packages(c);
            }
        } else if (!strcmp(key, "environments")) {
            if (seen_envs++)
                return sb_err_set_at(c->err, SB_EPARSE, kl, kc, "top-level key 'environments' appears twice");
            rc = read_environments(c);
        } else if (!strcmp(key, "metadata")) {
            if (seen_meta++)
                return sb_err_set_at(c->err, SB_EPARSE, kl, kc, "top-level key 'metadata' appears twice");
            rc = read_metadata(c);
        } else {
            rc = sb_yp_skip(y);
        }
        if (rc != SB_OK)
            return rc;
    }
    if (rc != SB_OK)
        return rc;
    /* document end, then anything else is a second document */
    if ((rc = sb_yp_next(y)) != SB_OK)
        return rc;
    if ((rc = sb_yp_next(y)) != SB_OK)
        return rc;
    if (sb_yp_type(y) != YAML_STREAM_END_EVENT)
        return sb_yp_fail(y, SB_EPARSE, "a pixi.lock holds a single YAML document");
    if (!c->have_version)
        return sb_err_set_at(c->err, SB_EPARSE, 1, 1, "missing top-level key 'version'");
    return SB_OK;
}

static sb_code read_one_thread(sb_pixi_ctx *c, const char *data, size_t len)
{
    sb_code rc = sb_yp_open(&c->y, c->a, data, len, c->lim, c->err);
    if (rc != SB_OK)
        return rc;
    rc = read_top(c);
    sb_yp_close(&c->y);
    return rc;
}

/* In pieces when that is both possible and trusted, else on one thread. */
static sb_code read_document(sb_pixi_ctx *c, const char *data, size_t len)
{
    sb_pixi_ctx fresh = *c;
    static const sb_pixi_parsers parsers = {read_top, read_packages};
    sb_code rc = sb_pixi__read_in_pieces(c, data, len, &parsers);
    if (rc == SB_OK || rc == SB_ETIMEOUT)
        return rc;
    /* what the attempt made stays in the arenas until the request ends */
    *c = fresh;
    c->lock = sb_arena_calloc(c->a, 1, sizeof *c->lock);
    if (NULL == c->lock)
        return oom(c);
    c->lock->kind = fresh.lock->kind;
    sb_err_clear(c->err);
    return read_one_thread(c, data, len);
}

/* The build number a record leaves out. rattler writes none when it is the
 * default: 0 in v4/v5, and from v6 the number the build string ends with
 * (bzip2 h4bc722e_7 -> 7), else 0. Reading it back so gives every version
 * the same pixi:build-number. v1-v3 always write it. */
static long long implied_build_number(long long version, const char *build)
{
    if (version < 6 || NULL == build)
        return 0;
    size_t n = strlen(build), k = n;
    while (k > 0 && isdigit((unsigned char)build[k - 1]))
        k--;
    long long v = 0;
    for (size_t i = k; i < n && v < 1000000000LL; i++)
        v = v * 10 + (build[i] - '0');
    return k < n ? v : 0;
}

static void imply_build_numbers(sb_pixi_ctx *c)
{
    if (c->version < 4)
        return;
    for (size_t i = 0; i < c->nrecs; i++) {
        sb_pkg *p = c->recs[i].pkg;
        if (p->kind == SB_KIND_CONDA && p->x->build_number < 0)
            p->x->build_number = implied_build_number(c->version, p->x->build);
    }
}

/* The parse failed before it reached `version:` (v1 writes it last): when
 * the version is one we do not read, that is the answer, as it is when the
 * version comes first and the rest is never looked at. */
static sb_code version_first(const char *data, size_t len, sb_err *err, sb_code rc)
{
    unsigned line = 0, col = 0;
    long long v = sb_lock__yaml_version(data, len, &line, &col);
    if (v == -1 || v == -2 || (v >= 1 && v <= 7))
        return rc;
    return sb_err_set_at(err, SB_EUNSUPPORTED, line, col,
                         "pixi.lock version %lld is not supported (versions 1 to 7 are)", v);
}

static sb_code read_shape(sb_pixi_ctx *cp, sb_lock **out, sb_arena *a, const char *data, size_t len,
                          const sb_limits *lim, sb_err *err, const char *kind, int only_v1)
{
    sb_pixi_ctx c = *cp;
    c.lock = sb_arena_calloc(a, 1, sizeof *c.lock);
    if (NULL == c.lock)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    c.lock->kind = kind;
    c.lim = lim;
    sb_code rc = read_document(&c, data, len);
    if (rc != SB_OK && !c.have_version)
        return version_first(data, len, err, rc);
    if (rc != SB_OK)
        return rc;
    if (c.nrecs > lim->max_packages)
        return sb_err_set(err, SB_ELIMIT, "more than %zu package entries", lim->max_packages);
    if (only_v1 && c.version != 1)
        return sb_err_set_at(err, SB_EUNSUPPORTED, c.version_line, c.version_col,
                             "%s version %lld is not supported (version 1 is)", kind, c.version);
    c.lock->version = (int)c.version;
    c.lock->nrecords = c.nrecs;
    imply_build_numbers(&c);
    rc = c.version >= 4 ? link_v4(&c) : link_v1(&c, !strcmp(kind, "conda-lock.yml"));
    if (rc != SB_OK)
        return rc;
    if (c.version >= 4 && c.lock->nenvs == 0 && c.nrecs > 0)
        return sb_err_set(err, SB_EPARSE, "pixi.lock version %lld lists packages but no environments", c.version);
    *out = c.lock;
    return SB_OK;
}

sb_code sb_lock__read_pixi_shape(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                                 sb_err *err, const char *kind, int only_v1)
{
    sb_pixi_ctx c;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.err = err;
    c.scratch = sb_arena_child(a);
    if (NULL == c.scratch)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_code rc = read_shape(&c, out, a, data, len, lim, err, kind, only_v1);
    sb_arena_destroy(c.scratch);
    return rc;
}

static sb_code pixi_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    return sb_lock__read_pixi_shape(out, a, data, len, lim, err, "pixi.lock", 0);
}

static int pixi_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "pixi.lock"))
            return 2;
    }
    /* content: a YAML mapping with a top-level `version:` and environments/package(s);
     * `version:` may come last, past the first 64 KiB */
    size_t n = len < 65536 ? len : 65536;
    int has_version = 0, has_body = 0, has_meta = 0;
    const char *p = data, *end = data + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
        /* by the first byte before strncmp: most lines start with a space or '-' */
        if (p[0] == 'v' && ll >= 8 && !strncmp(p, "version:", 8))
            has_version = 1;
        if ((p[0] == 'e' && ll >= 13 && !strncmp(p, "environments:", 13)) ||
            (p[0] == 'p' && ((ll >= 8 && !strncmp(p, "package:", 8)) || (ll >= 9 && !strncmp(p, "packages:", 9)))))
            has_body = 1;
        if (p[0] == 'm' && ll >= 9 && !strncmp(p, "metadata:", 9))
            has_meta = 1;
        p = nl ? nl + 1 : end;
    }
    if (has_body && !has_version && !has_meta && len > n)
        has_version = sb_lock__yaml_version(data, len, NULL, NULL) != -1;
    return has_body && (has_version || has_meta);
}

const sb_reader sb_reader_pixi = {.kind = "pixi.lock",
                                  .detect = pixi_detect,
                                  .read = pixi_read,
                                  .record_line = NULL,
                                  .record_char = 0,
                                  .per_record = 0,
                                  .per_byte = 3};
