/*
 * doc_spdx_common.c - shared SPDX derivations (see doc_spdx_common.h).
 */
#include "doc_spdx_common.h"
#include "buf.h"
#include "strmap.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const char *sb_spdx__frag(sb_arena *a, const char *s)
{
    char *d = sb_arena_strdup(a, s ? s : "");
    if (NULL == d)
        return "x";
    for (char *c = d; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
              *c == '.' || *c == '-'))
            *c = '-';
    return d;
}

static int str_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

sb_code sb_spdx__prepare(sb_doc *d)
{
    sb_arena *a = d->arena;
    const sb_sbom *s = d->sbom;
    sb_spdx *x = sb_arena_calloc(a, 1, sizeof *x);
    if (NULL == x)
        return SB_ENOMEM;
    x->doc_name = sb_arena_printf(a, "%s-%s-%s", s->root_name, s->environment, s->platform);
    x->ns = sb_arena_printf(a, "https://spdx.org/spdxdocs/sbomd/%s/%s",
                            sb_spdx__frag(a, x->doc_name), d->serial);
    size_t n = s->npkgs ? s->npkgs : 1;
    x->pkg_ids = sb_arena_calloc(a, n, sizeof *x->pkg_ids);
    x->lics = sb_arena_calloc(a, n, sizeof *x->lics);
    const char **vals = sb_arena_calloc(a, n, sizeof *vals);
    if (!x->doc_name || !x->ns || !x->pkg_ids || !x->lics || !vals)
        return SB_ENOMEM;
    sb_strmap ids, seen;
    if (sb_strmap_init(&ids, a, s->npkgs + 1) != SB_OK || sb_strmap_init(&seen, a, s->npkgs) != SB_OK)
        return SB_ENOMEM;
    sb_strmap_put(&ids, "Package-root", 12, 0, NULL);
    size_t nv = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        const char *base = p->version ? sb_arena_printf(a, "Package-%s-%s", sb_kind_name(p->kind),
                                                        sb_spdx__frag(a, sb_arena_printf(a, "%s-%s", p->name, p->version)))
                                      : sb_arena_printf(a, "Package-%s-%s", sb_kind_name(p->kind),
                                                        sb_spdx__frag(a, p->name));
        if (NULL == base)
            return SB_ENOMEM;
        const char *id = base;
        for (unsigned k = 2; sb_strmap_put(&ids, id, strlen(id), i, NULL) == 1; k++)
            if (NULL == (id = sb_arena_printf(a, "%s-%u", base, k)))
                return SB_ENOMEM;
        x->pkg_ids[i] = id;
        x->lics[i] = sb_lic_normalize(a, p->license);
        x->total_deps += p->ndeps;
        const char *v = x->lics[i].value;
        if (v && sb_strmap_put(&seen, v, strlen(v), i, NULL) == 0)
            vals[nv++] = v;
    }
    qsort(vals, nv, sizeof *vals, str_cmp);
    x->lic_values = vals;
    x->nlic_values = nv;
    x->lic_kinds = sb_arena_calloc(a, nv ? nv : 1, sizeof *x->lic_kinds);
    if (NULL == x->lic_kinds)
        return SB_ENOMEM;
    for (size_t i = 0; i < nv; i++)
        x->lic_kinds[i] = sb_lic_normalize(a, vals[i]).kind;
    d->fmt = x;
    return SB_OK;
}

const char *sb_spdx__source_info(sb_doc *d)
{
    const sb_sbom *s = d->sbom;
    const char *r = sb_arena_printf(d->arena, "%s workspace; lockfile %s; environment %s; platform %s",
                                    strncmp(s->input_kind, "pixi", 4) ? s->input_kind : "pixi",
                                    s->lockfile_name, s->environment, s->platform);
    return r ? r : "";
}

const char *sb_spdx__comment(sb_doc *d, const sb_pkg *p)
{
    size_t n = strlen("pixi:kind=") + strlen(sb_kind_name(p->kind)) + 1;
    for (size_t i = 0; i < p->nprops; i++)
        n += strlen(p->props[i].name) + strlen(p->props[i].value) + 2;
    for (size_t i = 0; i < p->extra_purls.n; i++)
        n += strlen("pixi:purl=") + strlen(p->extra_purls.v[i]) + 1;
    char *out = sb_arena_alloc(d->arena, n + 1);
    if (NULL == out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < p->nprops; i++)
        o += (size_t)sprintf(out + o, "%s=%s\n", p->props[i].name, p->props[i].value);
    o += (size_t)sprintf(out + o, "pixi:kind=%s", sb_kind_name(p->kind));
    for (size_t i = 0; i < p->extra_purls.n; i++)
        o += (size_t)sprintf(out + o, "\npixi:purl=%s", p->extra_purls.v[i]);
    out[o] = '\0';
    return out;
}

const char *sb_spdx__root_comment(sb_doc *d)
{
    const char *steps = sb_incomplete_steps(&d->sbom->incomplete, d->arena);
    if (NULL == steps)
        return NULL;
    return sb_arena_printf(d->arena, "pixi:incomplete=%s\npixi:incomplete-detail=%s", steps,
                           sb_incomplete_details(&d->sbom->incomplete, d->arena));
}
