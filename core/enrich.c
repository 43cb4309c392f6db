/*
 * enrich.c - what a conda package cache adds to the model, and the
 * per-request license-text budget (the pixi:incomplete collector the model
 * owns is in model.c).
 *
 * Cache: <root>/pkgs/<file name without .conda/.tar.bz2>/ with
 * info/index.json (else an incomplete extraction, ignored), info/about.json
 * (license, license_family, summary, home, dev_url, doc_url: each fills only
 * what the lockfile left empty) and everything under info/licenses/ (names sorted; texts
 * are not read here, only sized: writers stream them from the files).
 * Directory names come from the uploaded lockfile, so they are checked to
 * be one plain path component before anything is opened.
 */
#include "enrich.h"
#include "ecosystem.h"
#include "license.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_LICENSE_FILES 256 /* per package */
#define MAX_LICENSE_DEPTH 8
#define MAX_ABOUT_BYTES (1 << 20)

/* ---- the package cache ---- */

static int is_file(const char *path)
{
    struct stat st;
    return 0 == stat(path, &st) && S_ISREG(st.st_mode);
}

/* One plain path component: no separators, not . or .., not hidden. */
static int plain_component(const char *s, size_t n)
{
    if (0 == n || s[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '/' || s[i] == '\\' || s[i] == '\0')
            return 0;
    return 1;
}

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    return s && s[strspn(s, " \t\r\n")] ? s : NULL;
}

typedef struct files {
    sb_licfile *v;
    size_t n, cap;
} files;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const sb_licfile *)a)->name, ((const sb_licfile *)b)->name);
}

static sb_code list_files(files *f, sb_arena *a, const char *dir, const char *rel, int depth)
{
    if (depth > MAX_LICENSE_DEPTH)
        return SB_OK;
    DIR *d = opendir(dir);
    if (NULL == d)
        return SB_OK;
    sb_code rc = SB_OK;
    struct dirent *e;
    while (rc == SB_OK && (e = readdir(d)) != NULL && f->n < MAX_LICENSE_FILES) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *path = sb_arena_printf(a, "%s/%s", dir, e->d_name);
        char *name = rel ? sb_arena_printf(a, "%s/%s", rel, e->d_name) : sb_arena_strdup(a, e->d_name);
        struct stat st;
        if (NULL == path || NULL == name) {
            rc = SB_ENOMEM;
        } else if (lstat(path, &st) != 0 || S_ISLNK(st.st_mode)) {
            continue; /* symlinks could lead out of the cache */
        } else if (S_ISDIR(st.st_mode)) {
            rc = list_files(f, a, path, name, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            sb_licfile *nv = sb_arena_grow(a, f->v, &f->cap, f->n, sizeof *nv, 4);
            if (NULL == nv) {
                rc = SB_ENOMEM;
                break;
            }
            f->v = nv;
            f->v[f->n++] = (sb_licfile){name, path, (long long)st.st_size};
        }
    }
    closedir(d);
    return rc;
}

static sb_code push_prop(sb_pkg *p, sb_arena *a, const char *name, const char *value)
{
    /* records are shared between selections: copy before adding */
    sb_strv n = {0};
    for (size_t i = 0; i < p->reader_props.n; i++)
        if (sb_strv_push(&n, a, p->reader_props.v[i]) != SB_OK)
            return SB_ENOMEM;
    if (sb_strv_push(&n, a, name) != SB_OK || sb_strv_push(&n, a, value) != SB_OK)
        return SB_ENOMEM;
    p->reader_props = n;
    return SB_OK;
}

sb_code sb_enrich_set_license(sb_pkg *p, sb_arena *a, const char *license, const char *source)
{
    p->license = sb_arena_strdup(a, license);
    if (NULL == p->license)
        return SB_ENOMEM;
    return push_prop(p, a, "pixi:license-source", source);
}

sb_code sb_enrich_from_cache(sb_pkg *p, sb_arena *a, const char *root, int *found)
{
    *found = 0;
    if (!sb_eco_is(p->kind, SB_ECO_CHANNEL) || NULL == p->file_name)
        return SB_OK;
    size_t n = strlen(p->file_name);
    if (n > 6 && !strcmp(p->file_name + n - 6, ".conda"))
        n -= 6;
    else if (n > 8 && !strcmp(p->file_name + n - 8, ".tar.bz2"))
        n -= 8;
    if (!plain_component(p->file_name, n))
        return SB_OK;
    char *dir = sb_arena_printf(a, "%s/pkgs/%.*s/info", root, (int)n, p->file_name);
    if (NULL == dir)
        return SB_ENOMEM;
    return sb_enrich_from_info(p, a, dir, "package-cache", found);
}

sb_code sb_enrich_from_info(sb_pkg *p, sb_arena *a, const char *dir, const char *source, int *found)
{
    *found = 0;
    char *index = sb_arena_printf(a, "%s/index.json", dir);
    char *about = index ? sb_arena_printf(a, "%s/about.json", dir) : NULL;
    char *lic = about ? sb_arena_printf(a, "%s/licenses", dir) : NULL;
    if (NULL == lic)
        return SB_ENOMEM;
    if (!is_file(index))
        return SB_OK; /* not extracted (or not completely) */
    *found = 1;
    struct stat st;
    if (0 == stat(about, &st) && S_ISREG(st.st_mode) && st.st_size <= MAX_ABOUT_BYTES) {
        json_error_t je;
        json_t *j = json_load_file(about, 0, &je);
        if (json_is_object(j)) {
            const char *v;
            if (NULL == p->license && (v = jstr(j, "license"))) {
                p->license = sb_arena_strdup(a, v);
                if (push_prop(p, a, "pixi:license-source", source) != SB_OK) {
                    json_decref(j);
                    return SB_ENOMEM;
                }
            }
            if (NULL == sb_pkg_xr(p)->license_family && (v = jstr(j, "license_family")) && sb_pkg_x(p, a))
                p->x->license_family = sb_arena_strdup(a, v);
            const sb_pkgx *x = sb_pkg_xr(p);
            if (NULL == x->summary && (v = jstr(j, "summary")) && sb_pkg_x(p, a))
                p->x->summary = sb_arena_strdup(a, v);
            if (NULL == x->homepage && (v = jstr(j, "home")) && sb_pkg_x(p, a))
                p->x->homepage = sb_arena_strdup(a, v);
            if (NULL == x->repository && (v = jstr(j, "dev_url")) && sb_pkg_x(p, a))
                p->x->repository = sb_arena_strdup(a, v);
            if (NULL == x->documentation && (v = jstr(j, "doc_url")) && sb_pkg_x(p, a))
                p->x->documentation = sb_arena_strdup(a, v);
        }
        json_decref(j); /* unparsable about.json: treated as empty */
    }
    if (0 == sb_pkg_xr(p)->nlicfiles) {
        files f = {0};
        sb_code rc = list_files(&f, a, lic, NULL, 0);
        if (rc != SB_OK)
            return rc;
        if (f.n) {
            qsort(f.v, f.n, sizeof *f.v, by_name);
            if (NULL == sb_pkg_x(p, a))
                return SB_ENOMEM;
            p->x->licfiles = f.v;
            p->x->nlicfiles = (uint32_t)f.n;
            if (push_prop(p, a, "pixi:license-files-source", source) != SB_OK)
                return SB_ENOMEM;
        }
    }
    return SB_OK;
}

sb_code sb_enrich_budget(sb_sbom *s, sb_arena *a, bool texts, sb_text_shape shape, long long file_max,
                         long long total_max)
{
    if (file_max <= 0)
        file_max = SB_LICENSE_FILE_MAX;
    if (total_max <= 0)
        total_max = SB_LICENSE_TEXTS_MAX;
    s->license_texts = texts;
    s->license_file_max = file_max;
    s->license_texts_max = total_max;
    long long used = 0, name_only = 0, too_big = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_pkg *p = &s->pkgs[i];
        if (0 == sb_pkg_xr(p)->nlicfiles)
            continue;
        /* the budget decides for this package of this selection: its own
         * copy of the out-of-line fields, the record's stay as read */
        sb_pkgx *x = sb_arena_alloc(a, sizeof *x);
        if (NULL == x)
            return SB_ENOMEM;
        *x = *p->x;
        p->x = x;
        /* a compound expression (or one WITH an exception) is written as the
         * expression alone, its files by name: no text to budget for */
        sb_lic l = sb_pkg_lic(p, a);
        int embeds = shape == SB_TEXTS_SPDX ? l.kind == SB_LIC_TEXT
                                            : l.kind != SB_LIC_EXPR || (l.single_id && !strchr(l.value, ' '));
        /* the files are shared with other selections: decide on a copy */
        sb_licfile *v = sb_arena_alloc(a, x->nlicfiles * sizeof *v);
        if (NULL == v)
            return SB_ENOMEM;
        memcpy(v, x->licfiles, x->nlicfiles * sizeof *v);
        x->licfiles = v;
        for (size_t k = 0; k < x->nlicfiles; k++) {
            long long size = v[k].text_len;
            if (!texts || !embeds || (shape == SB_TEXTS_SPDX && k > 0)) {
                v[k].text_len = -1;
            } else if (size > file_max) {
                v[k].text_len = -1;
                too_big++;
            } else if (used + size > total_max) {
                v[k].text_len = -1;
                name_only++;
            } else {
                used += size;
            }
        }
    }
    s->license_text_bytes = used;
    if (name_only + too_big > 0) {
        if (too_big && name_only)
            return sb_incomplete_add(
                &s->incomplete, a, "license-texts",
                "%lld file(s) listed by name only (%lld over the %lld-byte file limit, %lld past the %lld-byte document budget)",
                name_only + too_big, too_big, file_max, name_only, total_max);
        return sb_incomplete_add(&s->incomplete, a, "license-texts", "%lld file(s) listed by name only (%s)",
                                 name_only + too_big,
                                 too_big ? "over the per-file limit" : "past the document's license-text budget");
    }
    return SB_OK;
}
