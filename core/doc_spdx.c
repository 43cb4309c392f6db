/*
 * doc_spdx.c - SPDX 2.3 JSON, written piece by piece.
 *
 * Key order follows spec/pixi-sbom.md 7.1-7.3. Licenses: licenseDeclared as
 * doc_spdx_common derives it; each LicenseRef-pixi-* id gets one
 * hasExtractedLicensingInfos entry holding the text (the license file's,
 * streamed, when one stands for it), sorted by id. License file names go to
 * licenseComments. licenseConcluded is always NOASSERTION.
 *
 * Relation pieces: DESCRIBES, one per root edge, one per package edge, then
 * one per extracted licensing entry (the first closes `relationships`), so a
 * document full of license texts still stages one text at a time.
 */
#include "doc_spdx_common.h"
#include "strmap.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

static void str_field(sb_jw *jw, const char *k, const char *v)
{
    sb_jw_kstr(jw, k, v);
}

/* One hasExtractedLicensingInfos entry: the id, and the package whose
 * license (and license file, if one stands for it) gives the text. */
typedef struct extracted {
    const char *id;
    size_t pkg;
} extracted;

typedef struct spdx23 {
    sb_spdx *x;
    extracted *ex; /* distinct LicenseRef-pixi-* ids, sorted */
    size_t nex;
} spdx23;

static int ex_cmp(const void *a, const void *b)
{
    return strcmp(((const extracted *)a)->id, ((const extracted *)b)->id);
}

static sb_code prepare23(sb_doc *d)
{
    sb_code rc = sb_spdx__prepare(d);
    if (rc != SB_OK)
        return rc;
    const sb_sbom *s = d->sbom;
    spdx23 *f = sb_arena_calloc(d->arena, 1, sizeof *f);
    sb_strmap seen;
    if (NULL == f || sb_strmap_init(&seen, d->tmp, s->npkgs) != SB_OK)
        return SB_ENOMEM;
    f->x = d->fmt;
    f->ex = sb_arena_calloc(d->arena, s->npkgs ? s->npkgs : 1, sizeof *f->ex);
    if (NULL == f->ex)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        const char *id = f->x->declared[i];
        if (strncmp(id, "LicenseRef-pixi-", 16))
            continue;
        int dup = sb_strmap_put(&seen, id, strlen(id), i, NULL);
        if (dup < 0)
            return SB_ENOMEM;
        if (0 == dup)
            f->ex[f->nex++] = (extracted){id, i};
    }
    qsort(f->ex, f->nex, sizeof *f->ex, ex_cmp);
    d->fmt = f;
    return SB_OK;
}

static sb_code begin(sb_doc *d)
{
    sb_code rc = prepare23(d);
    if (rc != SB_OK)
        return rc;
    const sb_spdx *x = ((const spdx23 *)d->fmt)->x;
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
    const char *comment = sb_arena_printf(
        d->arena,
        "Generated from the lockfile %s (%s, resolved dependencies) before any build; lifecycle phase: pre-build",
        s->lockfile_name ? s->lockfile_name : "(unnamed)", sb_doc__made_from(d));
    str_field(jw, "comment", comment ? comment : "lifecycle phase: pre-build");
    str_field(jw, "created", d->timestamp);
    sb_jw_key(jw, "creators");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, "Tool: " SB_TOOL_NAME "-" SB_VERSION);
    if (s->author) { /* SPDX 2.3 6.8: "Person: name (email)" / "Organization: name (email)" */
        const sb_author *au = s->author;
        const char *c = au->email
                            ? sb_arena_printf(d->arena, "%s: %s (%s)", au->person ? "Person" : "Organization", au->name,
                                              au->email)
                            : sb_arena_printf(d->arena, "%s: %s", au->person ? "Person" : "Organization", au->name);
        if (c)
            sb_jw_str(jw, c);
        else
            jw->status = SB_ENOMEM;
    }
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "packages");
    sb_jw_arr_begin(jw);
    /* the root package */
    sb_jw_obj_begin(jw);
    str_field(jw, "SPDXID", "SPDXRef-Package-root");
    str_field(jw, "name", s->root_name);
    sb_jw_kstr_opt(jw, "versionInfo", s->root_version);
    if (s->nroot_authors) { /* SPDX 2.3 has one originator: the first author */
        const sb_author *au = &s->root_authors[0];
        sb_jw_kstr_opt(jw, "originator",
                       au->email ? sb_arena_printf(d->arena, "Person: %s (%s)", au->name, au->email)
                                 : sb_arena_printf(d->arena, "Person: %s", au->name));
    }
    str_field(jw, "downloadLocation", "NOASSERTION");
    if (s->root_homepage && strstr(s->root_homepage, "://"))
        sb_jw_kstr(jw, "homepage", sb_doc__uri(d, s->root_homepage));
    sb_jw_key(jw, "filesAnalyzed");
    sb_jw_bool(jw, false);
    str_field(jw, "licenseConcluded", "NOASSERTION");
    /* an expression naming only SPDX ids can stand as it is; a LicenseRef
     * or free text would need an extracted-licensing entry: say it in a comment */
    sb_lic rl = s->root_license ? sb_lic_normalize(d->arena, s->root_license) : (sb_lic){0};
    int plain = rl.kind == SB_LIC_EXPR && !strstr(rl.value, "LicenseRef-") && !strstr(rl.value, "DocumentRef-");
    str_field(jw, "licenseDeclared", plain ? rl.value : "NOASSERTION");
    if (rl.kind != SB_LIC_NONE && !plain)
        sb_jw_kstr_opt(jw, "licenseComments", sb_arena_printf(d->arena, "Declared license: %s", rl.value));
    str_field(jw, "copyrightText", "NOASSERTION");
    str_field(jw, "primaryPackagePurpose", "APPLICATION");
    if (s->root_repository || s->root_documentation) {
        sb_jw_key(jw, "externalRefs");
        sb_jw_arr_begin(jw);
        const char *refs[2][2] = {{"vcs", s->root_repository}, {"documentation", s->root_documentation}};
        for (int k = 0; k < 2; k++) {
            if (NULL == refs[k][1])
                continue;
            sb_jw_obj_begin(jw);
            str_field(jw, "referenceCategory", "OTHER");
            str_field(jw, "referenceType", refs[k][0]);
            str_field(jw, "referenceLocator", sb_doc__uri(d, refs[k][1]));
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    str_field(jw, "sourceInfo", sb_spdx__source_info(d));
    sb_jw_kstr_opt(jw, "comment", sb_spdx__root_comment(d));
    sb_jw_obj_end(jw);
    return jw->status;
}

static const sb_doc_hash_shape spdx_checksums = {
    .key = "checksums",
    .alg_key = "algorithm",
    .value_key = "checksumValue",
    .names = {"SHA256", "MD5", "SHA512", "SHA384", "SHA1"},
};

static sb_code component(sb_doc *d, size_t i)
{
    const sb_spdx *x = ((const spdx23 *)d->fmt)->x;
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
                              ? sb_arena_printf(d->tmp, "Organization: %s (%s)", p->supplier_name, p->supplier_url)
                              : sb_arena_printf(d->tmp, "Organization: %s", p->supplier_name);
        sb_jw_kstr_opt(jw, "supplier", sup);
    }
    int remote = p->location && strstr(p->location, "://");
    str_field(jw, "downloadLocation", remote ? sb_doc__uri(d, p->location) : "NOASSERTION");
    const char *home = sb_pkg_xr(p)->homepage;
    if (home && strstr(home, "://"))
        sb_jw_kstr(jw, "homepage", sb_doc__uri(d, home));
    sb_jw_key(jw, "filesAnalyzed");
    sb_jw_bool(jw, false);
    str_field(jw, "licenseConcluded", "NOASSERTION");
    str_field(jw, "licenseDeclared", x->declared[i]);
    sb_jw_kstr_opt(jw, "licenseComments", sb_spdx__license_files(d, p, "License files: ", ", "));
    str_field(jw, "copyrightText", "NOASSERTION");
    sb_jw_kstr_opt(jw, "summary", sb_pkg_xr(p)->summary);
    str_field(jw, "primaryPackagePurpose", "LIBRARY");
    sb_doc__hashes(jw, p, &spdx_checksums);
    sb_jw_key(jw, "externalRefs");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k <= sb_pkg_xr(p)->extra_purls.n; k++) {
        sb_jw_obj_begin(jw);
        str_field(jw, "referenceCategory", "PACKAGE-MANAGER");
        str_field(jw, "referenceType", "purl");
        str_field(jw, "referenceLocator", k == 0 ? p->purl : sb_pkg_xr(p)->extra_purls.v[k - 1]);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    if (p->location && p->location[0] && !remote) {
        const char *si = sb_arena_printf(d->tmp, "built from source at %s", p->location);
        sb_jw_kstr_opt(jw, "sourceInfo", si);
    }
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
    const spdx23 *f = d->fmt;
    return 1 + d->sbom->nroot + f->x->total_deps + d->sbom->npkgs + f->nex;
}
static void rel(sb_doc *d, const char *from_prefix, const char *from, const char *type, const char *to_prefix,
                const char *to)
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

/* One dependency edge of `from` (whose scope is `from_scope`; the root's is
 * required). An edge crossing into a development group or an extra is
 * written reversed, as the dependency's DEV_DEPENDENCY_OF /
 * OPTIONAL_DEPENDENCY_OF; every other edge DEPENDS_ON. */
static void depends(sb_doc *d, const char *from_prefix, const char *from, sb_scope from_scope, size_t to)
{
    const spdx23 *f = d->fmt;
    const char *to_id = f->x->pkg_ids[to];
    switch (sb_scope_crossing(from_scope, d->sbom->pkgs[to].scope)) {
    case SB_SCOPE_DEVELOPMENT: rel(d, "SPDXRef-", to_id, "DEV_DEPENDENCY_OF", from_prefix, from); break;
    case SB_SCOPE_OPTIONAL: rel(d, "SPDXRef-", to_id, "OPTIONAL_DEPENDENCY_OF", from_prefix, from); break;
    default: rel(d, from_prefix, from, "DEPENDS_ON", "SPDXRef-", to_id); break;
    }
}

static void extracted_entry(sb_doc *d, const extracted *e)
{
    const spdx23 *f = d->fmt;
    sb_jw *jw = &d->jw;
    const char *value = f->x->lics[e->pkg].value;
    sb_jw_obj_begin(jw);
    str_field(jw, "licenseId", e->id);
    sb_jw_key(jw, "extractedText");
    if (f->x->text_file[e->pkg])
        sb_doc__file_text(d, f->x->text_file[e->pkg]);
    else
        sb_jw_str(jw, value);
    str_field(jw, "name", value);
    sb_jw_obj_end(jw);
}

static sb_code relation(sb_doc *d, size_t i)
{
    const spdx23 *f = d->fmt;
    const sb_spdx *x = f->x;
    const sb_sbom *s = d->sbom;
    size_t nrel = 1 + s->nroot + x->total_deps;
    if (i >= nrel && i < nrel + s->npkgs) {
        /* a package without edges: NONE when the input states it depends on
         * nothing, NOASSERTION when the input holds no dependency data at all
         * (SPDX 2.3 11.1: the two special values of relatedSpdxElement) */
        size_t k = i - nrel;
        if (0 == s->pkgs[k].ndeps)
            rel(d, "SPDXRef-", x->pkg_ids[k], "DEPENDS_ON", "", s->deps_unknown ? "NOASSERTION" : "NONE");
        return d->jw.status;
    }
    nrel += s->npkgs;
    if (i >= nrel) {
        if (i == nrel) {
            sb_jw_arr_end(&d->jw);
            sb_jw_key(&d->jw, "hasExtractedLicensingInfos");
            sb_jw_arr_begin(&d->jw);
        }
        extracted_entry(d, &f->ex[i - nrel]);
        return d->jw.status;
    }
    if (i == 0) {
        rel(d, "", "SPDXRef-DOCUMENT", "DESCRIBES", "", "SPDXRef-Package-root");
    } else if (i <= s->nroot) {
        depends(d, "", "SPDXRef-Package-root", SB_SCOPE_REQUIRED, s->root_deps[i - 1]);
    } else {
        /* next package edge, in model order: cursor (package, dependency) */
        while (d->cur_a < s->npkgs && d->cur_b >= s->pkgs[d->cur_a].ndeps) {
            d->cur_a++;
            d->cur_b = 0;
        }
        if (d->cur_a >= s->npkgs)
            return SB_EMISUSE;
        const sb_pkg *p = &s->pkgs[d->cur_a];
        depends(d, "SPDXRef-", x->pkg_ids[d->cur_a], p->scope, p->deps[d->cur_b]);
        d->cur_b++;
    }
    return d->jw.status;
}

static sb_code end(sb_doc *d)
{
    sb_jw_arr_end(&d->jw); /* relationships, or the extracted entries */
    sb_jw_obj_end(&d->jw);
    return d->jw.status;
}

/* The packages after the first (see component); the relationships follow
 * a cursor through the graph, so they stay on one thread. */
static size_t par_run_end(const sb_doc *d, sb_doc_section section, size_t i)
{
    return section == SB_DOC_COMPONENTS && i > 0 ? d->sbom->npkgs : i;
}

const sb_doc_ops sb_doc_spdx_23 = {
    .name = "spdx-2.3",
    .media_type = "application/spdx+json; version=2.3",
    .ext = ".spdx.json",
    .text_shape = SB_TEXTS_SPDX,
    .aliases = (const char *const[]){"spdx", "spdx-json", NULL},
    .media_base = "application/spdx+json",
    .versions = (const char *const[]){"2.3", NULL},
    .family_default = true,
    .title = "SPDX 2.3",
    .spec_version = "2.3",
    .drops_findings = true, /* no vulnerability element */
    .begin = begin,
    .component = component,
    .middle = middle,
    .relation_count = relation_count,
    .relation = relation,
    .end = end,
    .par_run_end = par_run_end,
};
