/*
 * jsreaders.h - what the JavaScript reader tests ask of a selected model:
 * read and select an inline lockfile, find a package, read a property,
 * follow an edge (shared by test_jsreaders.c and test_bun.c).
 */
#ifndef SB_TEST_JSREADERS_H
#define SB_TEST_JSREADERS_H

#include "../../core/arena.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"

#include <string.h>

static sb_sbom *sel(sb_arena *a, const char *kind, const char *text, sb_err *err)
{
    sb_lock *l = NULL;
    if (sb_lock_read(&l, a, kind, text, strlen(text), NULL, NULL, err) != SB_OK)
        return NULL;
    sb_select_opts o = {0};
    sb_sbom *s = NULL;
    return sb_select(&s, a, l, &o, err) == SB_OK ? s : NULL;
}

/* the package of that name and version (NULL version: the first of the name) */
static const sb_pkg *find(const sb_sbom *s, const char *name, const char *version)
{
    for (size_t i = 0; s && i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, name) &&
            (NULL == version || (s->pkgs[i].version && !strcmp(s->pkgs[i].version, version))))
            return &s->pkgs[i];
    return NULL;
}

static const char *prop(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; p && i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

static int depends_on(const sb_sbom *s, const sb_pkg *p, const sb_pkg *q)
{
    for (size_t i = 0; p && q && i < p->ndeps; i++)
        if (&s->pkgs[p->deps[i]] == q)
            return 1;
    return 0;
}

static int root_depends_on(const sb_sbom *s, const sb_pkg *q)
{
    for (size_t i = 0; q && i < s->nroot; i++)
        if (&s->pkgs[s->root_deps[i]] == q)
            return 1;
    return 0;
}

#endif
