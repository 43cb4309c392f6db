/*
 * doc_spdx_common.c - shared SPDX derivations (see doc_spdx_common.h).
 */
#include "doc_spdx_common.h"
#include "buf.h"
#include "filter.h"
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
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.' ||
              *c == '-'))
            *c = '-';
    return d;
}

/* licenseDeclared: an expression as is; free text, and expressions naming
 * LicenseRef-/AdditionRef- elements (which SPDX 2.3 cannot define from a
 * lockfile), become LicenseRef-pixi-<frag>, with -<h8> when a file's text
 * stands for it. */
static const char *declared(sb_arena *a, const sb_lic *l, const char *h8)
{
    if (l->kind == SB_LIC_NONE)
        return "NOASSERTION";
    if (l->kind == SB_LIC_EXPR && !strstr(l->value, "Ref-"))
        return l->value;
    const char *id = h8 ? sb_arena_printf(a, "LicenseRef-pixi-%s-%s", sb_spdx__frag(a, l->value), h8)
                        : sb_arena_printf(a, "LicenseRef-pixi-%s", sb_spdx__frag(a, l->value));
    return id ? id : "NOASSERTION";
}

sb_code sb_spdx__prepare(sb_doc *d)
{
    sb_arena *a = d->arena;
    const sb_sbom *s = d->sbom;
    sb_spdx *x = sb_arena_calloc(a, 1, sizeof *x);
    if (NULL == x)
        return SB_ENOMEM;
    x->doc_name = sb_arena_printf(a, "%s-%s-%s", s->root_name, s->environment, s->platform);
    x->ns = sb_arena_printf(a, "https://spdx.org/spdxdocs/sbomd/%s/%s", sb_spdx__frag(a, x->doc_name), d->serial);
    size_t n = s->npkgs ? s->npkgs : 1;
    x->pkg_ids = sb_arena_calloc(a, n, sizeof *x->pkg_ids);
    x->lics = sb_arena_calloc(a, n, sizeof *x->lics);
    x->text_file = sb_arena_calloc(a, n, sizeof *x->text_file);
    x->text_h8 = sb_arena_calloc(a, n, sizeof *x->text_h8);
    x->declared = sb_arena_calloc(a, n, sizeof *x->declared);
    if (!x->doc_name || !x->ns || !x->pkg_ids || !x->lics || !x->text_file || !x->text_h8 || !x->declared)
        return SB_ENOMEM;
    sb_arena *t = d->tmp; /* the id map and the fragments: needed only here */
    sb_strmap ids;
    if (sb_strmap_init(&ids, t, s->npkgs + 1) != SB_OK)
        return SB_ENOMEM;
    sb_strmap_put(&ids, "Package-root", 12, 0, NULL);
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        const char *base = p->version
                               ? sb_arena_printf(t, "Package-%s-%s", sb_kind_name(p->kind),
                                                 sb_spdx__frag(t, sb_arena_printf(t, "%s-%s", p->name, p->version)))
                               : sb_arena_printf(t, "Package-%s-%s", sb_kind_name(p->kind), sb_spdx__frag(t, p->name));
        if (NULL == base)
            return SB_ENOMEM;
        const char *id = base;
        for (unsigned k = 2; sb_strmap_put(&ids, id, strlen(id), i, NULL) == 1; k++)
            if (NULL == (id = sb_arena_printf(t, "%s-%u", base, k)))
                return SB_ENOMEM;
        if (NULL == (x->pkg_ids[i] = sb_arena_strdup(a, id)))
            return SB_ENOMEM;
        x->lics[i] = sb_pkg_lic(p, a);
        x->total_deps += p->ndeps;
        /* the budget left at most the first file embeddable for SPDX */
        const sb_pkgx *px = sb_pkg_xr(p);
        if (x->lics[i].kind == SB_LIC_TEXT && px->nlicfiles && px->licfiles[0].text_len >= 0) {
            x->text_file[i] = &px->licfiles[0];
            x->text_h8[i] = sb_doc__text_h8(d, x->text_file[i]);
        }
        x->declared[i] = declared(a, &x->lics[i], x->text_h8[i]);
    }
    d->fmt = x;
    return SB_OK;
}

const char *sb_spdx__source_info(sb_doc *d)
{
    const sb_sbom *s = d->sbom;
    const char *r = sb_arena_printf(d->tmp, "%s workspace; lockfile %s; environment %s; platform %s",
                                    strncmp(sb_doc__made_from(d), "pixi", 4) ? sb_doc__made_from(d) : "pixi",
                                    s->lockfile_name ? s->lockfile_name : "(unnamed)", s->environment, s->platform);
    return r ? r : "";
}

const char *sb_spdx__comment(sb_doc *d, const sb_pkg *p)
{
    size_t n = strlen("pixi:kind=") + strlen(sb_kind_name(p->kind)) + 1;
    for (size_t i = 0; i < p->nprops; i++)
        n += strlen(p->props[i].name) + strlen(p->props[i].value) + 2;
    for (size_t i = 0; i < sb_pkg_xr(p)->extra_purls.n; i++)
        n += strlen("pixi:purl=") + strlen(sb_pkg_xr(p)->extra_purls.v[i]) + 1;
    char *out = sb_arena_stralloc(d->tmp, n + 1);
    if (NULL == out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < p->nprops; i++)
        o += (size_t)sprintf(out + o, "%s=%s\n", p->props[i].name, p->props[i].value);
    o += (size_t)sprintf(out + o, "pixi:kind=%s", sb_kind_name(p->kind));
    for (size_t i = 0; i < sb_pkg_xr(p)->extra_purls.n; i++)
        o += (size_t)sprintf(out + o, "\npixi:purl=%s", sb_pkg_xr(p)->extra_purls.v[i]);
    out[o] = '\0';
    return out;
}

const char *sb_spdx__license_files(sb_doc *d, const sb_pkg *p, const char *prefix, const char *sep)
{
    const sb_pkgx *x = sb_pkg_xr(p);
    if (0 == x->nlicfiles)
        return NULL;
    sb_buf b;
    sb_buf_init(&b, 0);
    sb_code rc = sb_buf_append(&b, prefix, strlen(prefix));
    for (size_t k = 0; rc == SB_OK && k < x->nlicfiles; k++) {
        if (k)
            rc = sb_buf_append(&b, sep, strlen(sep));
        if (rc == SB_OK)
            rc = sb_buf_append(&b, x->licfiles[k].name, strlen(x->licfiles[k].name));
    }
    char *r = rc == SB_OK && b.data ? sb_arena_strndup(d->tmp, b.data, b.len) : NULL;
    sb_buf_free(&b);
    return r;
}

const char *sb_spdx__root_comment(sb_doc *d)
{
    const char *excluded = sb_filter_excluded_text(d->sbom, d->tmp);
    const char *steps = sb_incomplete_steps(&d->sbom->incomplete, d->tmp);
    if (NULL == steps && NULL == excluded && NULL == d->source_doc)
        return NULL;
    /* one "pixi:name=value" a line, in the order CycloneDX lists them */
    const char *src = d->source_doc ? sb_arena_printf(d->tmp, "pixi:source-document=%s", d->source_doc) : NULL;
    const char *exc = excluded ? sb_arena_printf(d->tmp, "pixi:excluded=%s", excluded) : NULL;
    const char *inc = steps ? sb_arena_printf(d->tmp, "pixi:incomplete=%s\npixi:incomplete-detail=%s", steps,
                                              sb_incomplete_details(&d->sbom->incomplete, d->tmp))
                            : NULL;
    return sb_arena_printf(d->tmp, "%s%s%s%s%s", src ? src : "", src && (exc || inc) ? "\n" : "", exc ? exc : "",
                           exc && inc ? "\n" : "", inc ? inc : "");
}
