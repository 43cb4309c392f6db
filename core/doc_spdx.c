/*
 * doc_spdx.c - SPDX 2.3 JSON, written piece by piece.
 *
 * Key order follows spec/pixi-sbom.md 7.1-7.3. Licenses: an SPDX expression
 * goes to licenseDeclared as is; free text, and expressions naming
 * LicenseRef-/AdditionRef- elements (which SPDX 2.3 cannot define from a
 * lockfile), become LicenseRef-pixi-<frag> with a hasExtractedLicensingInfos
 * entry holding the text. licenseConcluded is always NOASSERTION.
 *
 * Relation pieces: DESCRIBES, one per root edge, one per package edge.
 */
#include "doc_spdx_common.h"
#include "strmap.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

static const char *declared(sb_doc *d, const sb_lic *l)
{
    if (l->kind == SB_LIC_NONE)
        return "NOASSERTION";
    if (l->kind == SB_LIC_EXPR && !strstr(l->value, "Ref-"))
        return l->value;
    const char *id = sb_arena_printf(d->arena, "LicenseRef-pixi-%s", sb_spdx__frag(d->arena, l->value));
    return id ? id : "NOASSERTION";
}

static void str_field(sb_jw *jw, const char *k, const char *v) { sb_jw_kstr(jw, k, v); }

static sb_code begin(sb_doc *d)
{
    sb_code rc = sb_spdx__prepare(d);
    if (rc != SB_OK)
        return rc;
    sb_spdx *x = d->fmt;
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_obj_begin(jw);
    str_field(jw, "spdxVersion", "SPDX-2.3");
    str_field(jw, "dataLicense", "CC0-1.0");
    str_field(jw, "SPDXID", "SPDXRef-DOCUMENT");
    str_field(jw, "name", x->doc_name);
    str_field(jw, "documentNamespace", x->ns);
    sb_jw_key(jw, "creationInfo");
    sb_jw_obj_begin(jw);
    const char *comment = sb_arena_printf(d->arena,
        "Generated from the lockfile %s (%s, resolved dependencies) before any build; lifecycle phase: pre-build",
        s->lockfile_name, s->input_kind);
    str_field(jw, "comment", comment ? comment : "lifecycle phase: pre-build");
    str_field(jw, "created", d->timestamp);
    sb_jw_key(jw, "creators");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, "Tool: " SB_TOOL_NAME "-" SB_VERSION);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "packages");
    sb_jw_arr_begin(jw);
    /* the root package */
    sb_jw_obj_begin(jw);
    str_field(jw, "SPDXID", "SPDXRef-Package-root");
    str_field(jw, "name", s->root_name);
    sb_jw_kstr_opt(jw, "versionInfo", s->root_version);
    str_field(jw, "downloadLocation", "NOASSERTION");
    sb_jw_key(jw, "filesAnalyzed");
    sb_jw_bool(jw, false);
    str_field(jw, "licenseConcluded", "NOASSERTION");
    str_field(jw, "licenseDeclared", "NOASSERTION");
    str_field(jw, "copyrightText", "NOASSERTION");
    str_field(jw, "primaryPackagePurpose", "APPLICATION");
    str_field(jw, "sourceInfo", sb_spdx__source_info(d));
    sb_jw_kstr_opt(jw, "comment", sb_spdx__root_comment(d));
    sb_jw_obj_end(jw);
    return jw->status;
}

static sb_code component(sb_doc *d, size_t i)
{
    sb_spdx *x = d->fmt;
    sb_jw *jw = &d->jw;
    const sb_pkg *p = &d->sbom->pkgs[i];
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "SPDXID");
    sb_jw_str_begin(jw);
    sb_jw_str_chunk(jw, "SPDXRef-", 8);
    sb_jw_str_chunk(jw, x->pkg_ids[i], strlen(x->pkg_ids[i]));
    sb_jw_str_end(jw);
    str_field(jw, "name", p->name);
    sb_jw_kstr_opt(jw, "versionInfo", p->version);
    if (p->supplier_name) {
        const char *sup = p->supplier_url
                              ? sb_arena_printf(d->arena, "Organization: %s (%s)", p->supplier_name, p->supplier_url)
                              : sb_arena_printf(d->arena, "Organization: %s", p->supplier_name);
        sb_jw_kstr_opt(jw, "supplier", sup);
    }
    int remote = p->location && strstr(p->location, "://");
    str_field(jw, "downloadLocation", remote ? sb_doc__uri(d, p->location) : "NOASSERTION");
    sb_jw_key(jw, "filesAnalyzed");
    sb_jw_bool(jw, false);
    str_field(jw, "licenseConcluded", "NOASSERTION");
    str_field(jw, "licenseDeclared", declared(d, &x->lics[i]));
    str_field(jw, "copyrightText", "NOASSERTION");
    str_field(jw, "primaryPackagePurpose", "LIBRARY");
    if (p->sha256 || p->md5) {
        sb_jw_key(jw, "checksums");
        sb_jw_arr_begin(jw);
        if (p->sha256) {
            sb_jw_obj_begin(jw);
            str_field(jw, "algorithm", "SHA256");
            str_field(jw, "checksumValue", p->sha256);
            sb_jw_obj_end(jw);
        }
        if (p->md5) {
            sb_jw_obj_begin(jw);
            str_field(jw, "algorithm", "MD5");
            str_field(jw, "checksumValue", p->md5);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    sb_jw_key(jw, "externalRefs");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k <= p->extra_purls.n; k++) {
        sb_jw_obj_begin(jw);
        str_field(jw, "referenceCategory", "PACKAGE-MANAGER");
        str_field(jw, "referenceType", "purl");
        str_field(jw, "referenceLocator", k == 0 ? p->purl : p->extra_purls.v[k - 1]);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    if (p->location && p->location[0] && !remote) {
        const char *si = sb_arena_printf(d->arena, "built from source at %s", p->location);
        sb_jw_kstr_opt(jw, "sourceInfo", si);
    }
    sb_jw_kstr_opt(jw, "summary", p->summary);
    if (p->homepage && strstr(p->homepage, "://"))
        sb_jw_kstr(jw, "homepage", sb_doc__uri(d, p->homepage));
    sb_jw_kstr_opt(jw, "comment", sb_spdx__comment(d, p));
    sb_jw_obj_end(jw);
    return jw->status;
}

static sb_code middle(sb_doc *d)
{
    sb_jw_arr_end(&d->jw);
    sb_jw_key(&d->jw, "relationships");
    sb_jw_arr_begin(&d->jw);
    d->cur_a = d->cur_b = 0;
    return d->jw.status;
}

static size_t relation_count(const sb_doc *d)
{
    const sb_spdx *x = d->fmt;
    return 1 + d->sbom->nroot + x->total_deps;
}

static void rel(sb_doc *d, const char *from_prefix, const char *from, const char *type,
                const char *to_prefix, const char *to)
{
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "spdxElementId");
    sb_jw_str_begin(jw);
    sb_jw_str_chunk(jw, from_prefix, strlen(from_prefix));
    sb_jw_str_chunk(jw, from, strlen(from));
    sb_jw_str_end(jw);
    sb_jw_kstr(jw, "relationshipType", type);
    sb_jw_key(jw, "relatedSpdxElement");
    sb_jw_str_begin(jw);
    sb_jw_str_chunk(jw, to_prefix, strlen(to_prefix));
    sb_jw_str_chunk(jw, to, strlen(to));
    sb_jw_str_end(jw);
    sb_jw_obj_end(jw);
}

static sb_code relation(sb_doc *d, size_t i)
{
    sb_spdx *x = d->fmt;
    const sb_sbom *s = d->sbom;
    if (i == 0) {
        rel(d, "", "SPDXRef-DOCUMENT", "DESCRIBES", "", "SPDXRef-Package-root");
    } else if (i <= s->nroot) {
        rel(d, "", "SPDXRef-Package-root", "DEPENDS_ON", "SPDXRef-", x->pkg_ids[s->root_deps[i - 1]]);
    } else {
        /* next package edge, in model order: cursor (package, dependency) */
        while (d->cur_a < s->npkgs && d->cur_b >= s->pkgs[d->cur_a].ndeps) {
            d->cur_a++;
            d->cur_b = 0;
        }
        if (d->cur_a >= s->npkgs)
            return SB_EMISUSE;
        const sb_pkg *p = &s->pkgs[d->cur_a];
        rel(d, "SPDXRef-", x->pkg_ids[d->cur_a], "DEPENDS_ON", "SPDXRef-", x->pkg_ids[p->deps[d->cur_b]]);
        d->cur_b++;
    }
    return d->jw.status;
}

typedef struct extracted {
    const char *id, *text;
} extracted;

static int ex_cmp(const void *a, const void *b)
{
    return strcmp(((const extracted *)a)->id, ((const extracted *)b)->id);
}

static sb_code end(sb_doc *d)
{
    sb_spdx *x = d->fmt;
    sb_jw *jw = &d->jw;
    sb_jw_arr_end(jw);
    extracted *ex = sb_arena_calloc(d->arena, x->nlic_values ? x->nlic_values : 1, sizeof *ex);
    sb_strmap seen;
    if (NULL == ex || sb_strmap_init(&seen, d->arena, x->nlic_values) != SB_OK)
        return SB_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < x->nlic_values; i++) {
        sb_lic l = {x->lic_kinds[i], x->lic_values[i], false, false, NULL, NULL};
        const char *id = declared(d, &l);
        if (strncmp(id, "LicenseRef-pixi-", 16) || sb_strmap_put(&seen, id, strlen(id), i, NULL) != 0)
            continue;
        ex[n].id = id;
        ex[n].text = x->lic_values[i];
        n++;
    }
    if (n) {
        qsort(ex, n, sizeof *ex, ex_cmp);
        sb_jw_key(jw, "hasExtractedLicensingInfos");
        sb_jw_arr_begin(jw);
        for (size_t i = 0; i < n; i++) {
            sb_jw_obj_begin(jw);
            str_field(jw, "licenseId", ex[i].id);
            str_field(jw, "extractedText", ex[i].text);
            str_field(jw, "name", ex[i].text);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    sb_jw_obj_end(jw);
    return jw->status;
}

const sb_doc_ops sb_doc_spdx_23 = {
    "spdx-2.3", "application/spdx+json; version=2.3", ".spdx.json",
    begin, component, middle, relation_count, relation, end,
};
