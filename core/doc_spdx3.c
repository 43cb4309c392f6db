/*
 * doc_spdx3.c - SPDX 3.0.1 JSON-LD, written piece by piece.
 *
 * Graph order (spec/pixi-sbom.md section 8): CreationInfo, SoftwareAgent,
 * Tool, the root package; per package its not-yet-seen supplier Organization
 * and license element, then the package; the Relationships; the software_Sbom
 * listing every element; the data license; the SpdxDocument. Ids are
 * <namespace>#<fragment>, stable within the document.
 *
 * Relation pieces: one per package (its license and dependsOn relationships;
 * edges into a development group apart, as a LifecycleScopedRelationship),
 * the root's dependsOn, then the Sbom node split into an opening, one piece
 * per package (its element ids) and a closing piece, so no piece grows with
 * the document.
 */
#include "doc_spdx_common.h"
#include "strmap.h"
#include "vuln.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

typedef struct lic_elem {
    const char *key, *iri; /* the expression or text (+ file hash) */
} lic_elem;

static int lic_cmp(const void *a, const void *b)
{
    return strcmp(((const lic_elem *)a)->key, ((const lic_elem *)b)->key);
}

typedef struct spdx3 {
    sb_spdx *x;
    const char **sup_iri;   /* per package: supplier IRI or NULL */
    unsigned char *sup_new; /* per package: emit the Organization here */
    const char **lic_iri;   /* per package: license element IRI or NULL */
    unsigned char *lic_new;
    lic_elem *lic_list; /* distinct license elements, by value order */
    size_t nlic;
    int cc0_emitted;
    sb_lic root_lic; /* the manifest's license (kind NONE without one) */
} spdx3;

static void license_element(sb_doc *d, const char *elem_iri, const sb_lic *l, const sb_licfile *text);

/* The element IRI of a fragment, in `a`: the document's arena for the IRIs
 * prepare3 keeps, the piece's scratch (iri) for one written at once. */
static const char *iri_in(sb_arena *a, const spdx3 *s3, const char *frag)
{
    const char *r = sb_arena_printf(a, "%s#%s", s3->x->ns, frag);
    return r ? r : "urn:invalid";
}

static const char *iri(sb_doc *d, const char *frag)
{
    return iri_in(d->tmp, d->fmt, frag);
}

static void common(sb_doc *d, const char *type, const char *frag_or_iri, int is_iri)
{
    sb_jw *jw = &d->jw;
    sb_jw_kstr(jw, "type", type);
    sb_jw_kstr(jw, "spdxId", is_iri ? frag_or_iri : iri(d, frag_or_iri));
    sb_jw_kstr(jw, "creationInfo", "_:creationinfo");
}

static sb_code prepare3(sb_doc *d)
{
    sb_code rc = sb_spdx__prepare(d);
    if (rc != SB_OK)
        return rc;
    sb_arena *a = d->arena;
    const sb_sbom *s = d->sbom;
    spdx3 *s3 = sb_arena_calloc(a, 1, sizeof *s3);
    size_t n = s->npkgs ? s->npkgs : 1;
    if (NULL == s3)
        return SB_ENOMEM;
    s3->x = d->fmt;
    d->fmt = s3;
    if (s->root_license)
        s3->root_lic = sb_lic_normalize(a, s->root_license);
    s3->sup_iri = sb_arena_calloc(a, n, sizeof *s3->sup_iri);
    s3->sup_new = sb_arena_calloc(a, n, 1);
    s3->lic_iri = sb_arena_calloc(a, n, sizeof *s3->lic_iri);
    s3->lic_new = sb_arena_calloc(a, n, 1);
    s3->lic_list = sb_arena_calloc(a, n, sizeof *s3->lic_list);
    /* the look-up maps and the fragments they are built from are needed
     * only here: in the piece's scratch, which the next piece empties */
    sb_arena *t = d->tmp;
    sb_strmap sups, lic_by_value, lic_ids;
    if (!s3->sup_iri || !s3->sup_new || !s3->lic_iri || !s3->lic_new || !s3->lic_list ||
        sb_strmap_init(&sups, t, n) != SB_OK || sb_strmap_init(&lic_by_value, t, n) != SB_OK ||
        sb_strmap_init(&lic_ids, t, n + 1) != SB_OK)
        return SB_ENOMEM;
    sb_strmap_put(&lic_ids, "license-CC0-1.0", 15, 0, NULL); /* the data license */
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        if (p->supplier_name) {
            size_t at;
            int dup = sb_strmap_put(&sups, p->supplier_name, strlen(p->supplier_name), i, &at);
            if (dup < 0)
                return SB_ENOMEM;
            if (dup) {
                s3->sup_iri[i] = s3->sup_iri[at];
            } else {
                s3->sup_iri[i] = iri_in(a, s3, sb_arena_printf(t, "supplier-%s", sb_spdx__frag(t, p->supplier_name)));
                s3->sup_new[i] = 1;
            }
        }
        const sb_lic *l = &s3->x->lics[i];
        if (l->kind == SB_LIC_NONE)
            continue;
        /* a free text whose license file stands for it is its own element */
        const char *h8 = s3->x->text_h8[i];
        const char *key = h8 ? sb_arena_printf(a, "%s%c%s", l->value, 1, h8) : l->value;
        size_t at;
        int dup = key ? sb_strmap_put(&lic_by_value, key, strlen(key), i, &at) : -1;
        if (dup < 0)
            return SB_ENOMEM;
        if (dup) {
            s3->lic_iri[i] = s3->lic_iri[at];
            continue;
        }
        const char *base = sb_arena_printf(t, "%s%s%s%s", l->kind == SB_LIC_EXPR ? "license-" : "license-text-",
                                           sb_spdx__frag(t, l->value), h8 ? "-" : "", h8 ? h8 : "");
        const char *frag = base;
        if (l->kind == SB_LIC_EXPR && !strcmp(l->value, "CC0-1.0")) {
            s3->cc0_emitted = 1; /* this package's element is the data license too */
        } else {
            for (unsigned k = 2; frag && sb_strmap_put(&lic_ids, frag, strlen(frag), i, NULL) == 1; k++)
                frag = sb_arena_printf(t, "%s-%u", base, k);
        }
        if (NULL == frag)
            return SB_ENOMEM;
        s3->lic_iri[i] = iri_in(a, s3, frag);
        s3->lic_new[i] = 1;
        s3->lic_list[s3->nlic++] = (lic_elem){key, s3->lic_iri[i]};
    }
    qsort(s3->lic_list, s3->nlic, sizeof *s3->lic_list, lic_cmp); /* by expression/text */
    return SB_OK;
}

static sb_code begin(sb_doc *d)
{
    sb_code rc = prepare3(d);
    if (rc != SB_OK)
        return rc;
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "@context", "https://spdx.org/rdf/3.0.1/spdx-context.jsonld");
    sb_jw_key(jw, "@graph");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "@id", "_:creationinfo");
    sb_jw_kstr(jw, "type", "CreationInfo");
    const char *c = sb_arena_printf(d->tmp,
                                    "Generated from the lockfile %s (%s, environment %s, platform %s) before any build",
                                    s->lockfile_name ? s->lockfile_name : "(unnamed)", sb_doc__made_from(d),
                                    s->environment, s->platform);
    sb_jw_kstr_opt(jw, "comment", c);
    sb_jw_kstr(jw, "specVersion", "3.0.1");
    sb_jw_kstr(jw, "created", d->timestamp);
    sb_jw_key(jw, "createdBy");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, iri(d, "agent-" SB_TOOL_NAME));
    if (s->author)
        sb_jw_str(jw, iri(d, "agent-author"));
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "createdUsing");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, iri(d, "tool-" SB_TOOL_NAME));
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);

    sb_jw_obj_begin(jw);
    common(d, "SoftwareAgent", "agent-" SB_TOOL_NAME, 0);
    sb_jw_kstr(jw, "name", SB_TOOL_NAME " " SB_VERSION);
    sb_jw_obj_end(jw);
    if (s->author) { /* the SBOM author the operator or request named */
        sb_jw_obj_begin(jw);
        common(d, s->author->person ? "Person" : "Organization", "agent-author", 0);
        sb_jw_kstr(jw, "name", s->author->name);
        if (s->author->email) {
            sb_jw_key(jw, "externalIdentifier");
            sb_jw_arr_begin(jw);
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "type", "ExternalIdentifier");
            sb_jw_kstr(jw, "externalIdentifierType", "email");
            sb_jw_kstr(jw, "identifier", s->author->email);
            sb_jw_obj_end(jw);
            sb_jw_arr_end(jw);
        }
        sb_jw_obj_end(jw);
    }
    sb_jw_obj_begin(jw);
    common(d, "Tool", "tool-" SB_TOOL_NAME, 0);
    sb_jw_kstr(jw, "name", SB_TOOL_NAME);
    sb_jw_kstr(jw, "description", SB_TOOL_NAME " " SB_VERSION);
    sb_jw_obj_end(jw);

    /* the manifest's authors and license, each an element of its own */
    for (size_t k = 0; k < s->nroot_authors; k++) {
        sb_jw_obj_begin(jw);
        common(d, "Person", sb_arena_printf(d->tmp, "person-root-%zu", k + 1), 0);
        sb_jw_kstr(jw, "name", s->root_authors[k].name);
        if (s->root_authors[k].email) {
            sb_jw_key(jw, "externalIdentifier");
            sb_jw_arr_begin(jw);
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "type", "ExternalIdentifier");
            sb_jw_kstr(jw, "externalIdentifierType", "email");
            sb_jw_kstr(jw, "identifier", s->root_authors[k].email);
            sb_jw_obj_end(jw);
            sb_jw_arr_end(jw);
        }
        sb_jw_obj_end(jw);
    }
    if (s3->root_lic.kind != SB_LIC_NONE)
        license_element(d, iri(d, "license-root"), &s3->root_lic, NULL);

    sb_jw_obj_begin(jw);
    common(d, "software_Package", "package-root", 0);
    sb_jw_kstr(jw, "name", s->root_name);
    sb_jw_kstr_opt(jw, "software_packageVersion", s->root_version);
    if (s->nroot_authors) {
        sb_jw_key(jw, "originatedBy");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < s->nroot_authors; k++)
            sb_jw_str(jw, iri(d, sb_arena_printf(d->tmp, "person-root-%zu", k + 1)));
        sb_jw_arr_end(jw);
    }
    if (s->root_homepage && strstr(s->root_homepage, "://"))
        sb_jw_kstr(jw, "software_homePage", sb_doc__uri(d, s->root_homepage));
    if (s->root_repository || s->root_documentation) {
        sb_jw_key(jw, "externalRef");
        sb_jw_arr_begin(jw);
        const char *refs[2][2] = {{"vcs", s->root_repository}, {"documentation", s->root_documentation}};
        for (int k = 0; k < 2; k++) {
            if (NULL == refs[k][1])
                continue;
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "type", "ExternalRef");
            sb_jw_kstr(jw, "externalRefType", refs[k][0]);
            sb_jw_key(jw, "locator");
            sb_jw_arr_begin(jw);
            sb_jw_str(jw, sb_doc__uri(d, refs[k][1]));
            sb_jw_arr_end(jw);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    sb_jw_kstr(jw, "software_primaryPurpose", "application");
    sb_jw_kstr(jw, "software_sourceInfo", sb_spdx__source_info(d));
    sb_jw_kstr_opt(jw, "comment", sb_spdx__root_comment(d));
    sb_jw_obj_end(jw);
    (void)s3;
    return jw->status;
}

static void license_element(sb_doc *d, const char *elem_iri, const sb_lic *l, const sb_licfile *text)
{
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    if (l->kind == SB_LIC_EXPR) {
        common(d, "simplelicensing_LicenseExpression", elem_iri, 1);
        sb_jw_kstr(jw, "simplelicensing_licenseExpression", l->value);
    } else {
        common(d, "simplelicensing_SimpleLicensingText", elem_iri, 1);
        sb_jw_kstr(jw, "name", l->value);
        sb_jw_key(jw, "simplelicensing_licenseText");
        if (text)
            sb_doc__file_text(d, text);
        else
            sb_jw_str(jw, l->value);
    }
    sb_jw_obj_end(jw);
}

static const sb_doc_hash_shape spdx3_verified_using = {
    .key = "verifiedUsing",
    .type = "Hash",
    .alg_key = "algorithm",
    .value_key = "hashValue",
    .names = {"sha256", "md5", "sha512", "sha384", "sha1"},
};

static sb_code component(sb_doc *d, size_t i)
{
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    const sb_pkg *p = &d->sbom->pkgs[i];
    if (s3->sup_new[i]) {
        sb_jw_obj_begin(jw);
        common(d, "Organization", s3->sup_iri[i], 1);
        sb_jw_kstr(jw, "name", p->supplier_name);
        if (p->supplier_url) {
            sb_jw_key(jw, "externalIdentifier");
            sb_jw_arr_begin(jw);
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "type", "ExternalIdentifier");
            sb_jw_kstr(jw, "externalIdentifierType", "urlScheme");
            sb_jw_kstr(jw, "identifier", p->supplier_url);
            sb_jw_obj_end(jw);
            sb_jw_arr_end(jw);
        }
        sb_jw_obj_end(jw);
    }
    if (s3->lic_new[i])
        license_element(d, s3->lic_iri[i], &s3->x->lics[i], s3->x->text_file[i]);
    sb_jw_obj_begin(jw);
    common(d, "software_Package", s3->x->pkg_ids[i], 0);
    sb_jw_kstr(jw, "name", p->name);
    sb_jw_kstr_opt(jw, "summary", sb_pkg_xr(p)->summary);
    const char *comment = sb_spdx__comment(d, p);
    const char *files = sb_spdx__license_files(d, p, "pixi:license-files=", ";");
    if (comment && files)
        comment = sb_arena_printf(d->tmp, "%s\n%s", comment, files);
    sb_jw_kstr_opt(jw, "comment", comment);
    sb_jw_kstr_opt(jw, "software_packageVersion", p->version);
    const char *home = sb_pkg_xr(p)->homepage;
    if (home && strstr(home, "://"))
        sb_jw_kstr(jw, "software_homePage", sb_doc__uri(d, home));
    if (p->location && strstr(p->location, "://")) {
        sb_jw_kstr(jw, "software_downloadLocation", sb_doc__uri(d, p->location));
    } else if (p->location && p->location[0]) {
        sb_jw_kstr_opt(jw, "software_sourceInfo", sb_arena_printf(d->tmp, "built from source at %s", p->location));
    }
    sb_jw_kstr(jw, "software_packageUrl", p->purl);
    sb_jw_kstr(jw, "software_primaryPurpose", "library");
    if (s3->sup_iri[i])
        sb_jw_kstr(jw, "suppliedBy", s3->sup_iri[i]);
    if (sb_pkg_xr(p)->extra_purls.n) {
        sb_jw_key(jw, "externalIdentifier");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < sb_pkg_xr(p)->extra_purls.n; k++) {
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "type", "ExternalIdentifier");
            sb_jw_kstr(jw, "externalIdentifierType", "packageUrl");
            sb_jw_kstr(jw, "identifier", sb_pkg_xr(p)->extra_purls.v[k]);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    sb_doc__hashes(jw, p, &spdx3_verified_using);
    sb_jw_obj_end(jw);
    return jw->status;
}

static sb_code middle(sb_doc *d)
{
    return d->jw.status;
}

static size_t relation_count(const sb_doc *d)
{
    return 2 * d->sbom->npkgs + 4 + d->sbom->nvulns;
}

/* "vulnerability-GHSA-xxxx": ids keep [A-Za-z0-9._-], anything else is '-' */
static const char *vuln_frag(sb_doc *d, const sb_vuln *v, const char *what)
{
    char *f = sb_arena_printf(d->tmp, "%s-%s", what, v->id);
    for (char *c = f ? f : ""; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
              *c == '_' || *c == '-'))
            *c = '-';
    return f ? f : what;
}

static int cvss3(const sb_vuln_rating *r)
{
    return r->vector && r->score >= 0 && (!strcmp(r->method, "CVSSv3") || !strcmp(r->method, "CVSSv31"));
}

static const char *cvss_frag(sb_doc *d, const sb_vuln *v, size_t k)
{
    const char *b = vuln_frag(d, v, "assessment");
    const char *f = sb_arena_printf(d->tmp, "%s-cvss3-%zu", b, k);
    return f ? f : b;
}

static const char *assoc_frag(sb_doc *d, const sb_vuln *v, size_t pkg)
{
    spdx3 *s3 = d->fmt;
    const char *f = sb_arena_printf(d->tmp, "relationship-%s-%s", s3->x->pkg_ids[pkg],
                                    vuln_frag(d, v, "vulnerability"));
    return f ? f : "relationship";
}

/* The opening of an assessment of finding v (CVSS, KEV, EPSS, VEX) with
 * element fragment `frag`: the relationship from the vulnerability to every
 * package it affects (the caller adds its own properties and closes it). */
static void assessment_open(sb_doc *d, const sb_vuln *v, const char *type, const char *frag, const char *viri)
{
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    common(d, type, frag, 0);
    sb_jw_kstr(jw, "from", viri);
    sb_jw_kstr(jw, "relationshipType", "hasAssessmentFor");
    sb_jw_key(jw, "to");
    sb_jw_arr_begin(jw);
    for (size_t m = 0; m < v->naffects; m++)
        sb_jw_str(jw, iri(d, s3->x->pkg_ids[v->affects[m]]));
    sb_jw_arr_end(jw);
}

/* The same for the KEV, EPSS and VEX assessments: fragment
 * <vulnerability>-assessment-<what>. */
static void assessment_head(sb_doc *d, const sb_vuln *v, const char *type, const char *what, const char *viri)
{
    const char *b = vuln_frag(d, v, "assessment");
    const char *f = sb_arena_printf(d->tmp, "%s-%s", b, what);
    assessment_open(d, v, type, f ? f : b, viri);
}

/* SPDX's VEX relationship for a CycloneDX analysis state, NULL when SPDX
 * has none that says the same (exploitable, in_triage). */
static const char *vex_type(const sb_vuln *v)
{
    if (NULL == v->vex_state)
        return NULL;
    if (!strcmp(v->vex_state, "not_affected") || !strcmp(v->vex_state, "false_positive"))
        return "security_VexNotAffectedVulnAssessmentRelationship";
    if (!strcmp(v->vex_state, "resolved") || !strcmp(v->vex_state, "resolved_with_pedigree"))
        return "security_VexFixedVulnAssessmentRelationship";
    return NULL;
}

/* CycloneDX justifications mapped to SPDX's five where one fits. */
static const char *spdx_justification(const char *j)
{
    static const char *const map[][2] = {
        {"code_not_present", "vulnerableCodeNotPresent"},
        {"code_not_reachable", "vulnerableCodeNotInExecutePath"},
        {"requires_configuration", "vulnerableCodeCannotBeControlledByAdversary"},
        {"requires_dependency", "componentNotPresent"},
        {"requires_environment", "vulnerableCodeCannotBeControlledByAdversary"},
        {"protected_by_compiler", "inlineMitigationsAlreadyExist"},
        {"protected_at_runtime", "inlineMitigationsAlreadyExist"},
        {"protected_at_perimeter", "inlineMitigationsAlreadyExist"},
        {"protected_by_mitigating_control", "inlineMitigationsAlreadyExist"},
    };
    for (size_t i = 0; j && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(j, map[i][0]))
            return map[i][1];
    return NULL;
}

/* A finding: the security_Vulnerability, each
 * affected package's hasAssociatedVulnerability, and a CVSS v3 assessment
 * for each rating that has a score, a severity and a vector. */
static void vulnerability3(sb_doc *d, const sb_vuln *v)
{
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    const char *viri = iri(d, vuln_frag(d, v, "vulnerability"));
    sb_jw_obj_begin(jw);
    common(d, "security_Vulnerability", viri, 1);
    sb_jw_kstr(jw, "name", v->id);
    sb_jw_kstr_opt(jw, "summary", v->summary);
    sb_jw_kstr_opt(jw, "description", v->details);
    sb_jw_key(jw, "externalIdentifier");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k <= v->aliases.n; k++) {
        const char *id = k ? v->aliases.v[k - 1] : v->id;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "type", "ExternalIdentifier");
        sb_jw_kstr(jw, "externalIdentifierType", strncmp(id, "CVE-", 4) ? "securityOther" : "cve");
        sb_jw_kstr(jw, "identifier", id);
        sb_jw_key(jw, "identifierLocator");
        sb_jw_arr_begin(jw);
        sb_jw_str(jw, sb_doc__uri(d, sb_vuln_url(d->tmp, id)));
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    int adv = 0;
    for (size_t k = 0; k < v->nrefs; k++) {
        if (strcmp(v->refs[k].type, "ADVISORY"))
            continue;
        if (!adv++) {
            sb_jw_key(jw, "externalRef");
            sb_jw_arr_begin(jw);
        }
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "type", "ExternalRef");
        sb_jw_kstr(jw, "externalRefType", "securityAdvisory");
        sb_jw_key(jw, "locator");
        sb_jw_arr_begin(jw);
        sb_jw_str(jw, sb_doc__uri(d, v->refs[k].url));
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
    }
    if (adv)
        sb_jw_arr_end(jw);
    sb_jw_kstr_opt(jw, "security_publishedTime", v->published);
    sb_jw_kstr_opt(jw, "security_modifiedTime", v->modified);
    sb_jw_obj_end(jw);
    for (size_t k = 0; k < v->naffects; k++) {
        sb_jw_obj_begin(jw);
        common(d, "Relationship", assoc_frag(d, v, v->affects[k]), 0);
        sb_jw_kstr(jw, "from", iri(d, s3->x->pkg_ids[v->affects[k]]));
        sb_jw_kstr(jw, "relationshipType", "hasAssociatedVulnerability");
        sb_jw_key(jw, "to");
        sb_jw_arr_begin(jw);
        sb_jw_str(jw, viri);
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
    }
    for (size_t k = 0; k < v->nratings; k++) {
        const sb_vuln_rating *r = &v->ratings[k];
        if (!cvss3(r))
            continue;
        assessment_open(d, v, "security_CvssV3VulnAssessmentRelationship", cvss_frag(d, v, k), viri);
        sb_jw_kstr_opt(jw, "security_publishedTime", v->published);
        sb_jw_kstr_opt(jw, "security_modifiedTime", v->modified);
        sb_jw_key(jw, "security_score");
        sb_jw_tenths(jw, r->score);
        sb_jw_kstr(jw, "security_severity", sb_sev_name(r->severity));
        sb_jw_kstr(jw, "security_vectorString", r->vector);
        sb_jw_obj_end(jw);
    }
    if (v->kev) {
        assessment_head(d, v, "security_ExploitCatalogVulnAssessmentRelationship", "kev", viri);
        sb_jw_kstr(jw, "security_catalogType", "kev");
        sb_jw_key(jw, "security_exploited");
        sb_jw_bool(jw, true);
        sb_jw_kstr(jw, "security_locator", "https://www.cisa.gov/known-exploited-vulnerabilities-catalog");
        sb_jw_obj_end(jw);
    }
    if (v->epss >= 0) {
        assessment_head(d, v, "security_EpssVulnAssessmentRelationship", "epss", viri);
        sb_jw_kstr(jw, "security_percentile", v->epss_pct_text);
        sb_jw_kstr(jw, "security_probability", v->epss_text);
        sb_jw_obj_end(jw);
    }
    const char *vex = vex_type(v);
    if (vex) {
        assessment_head(d, v, vex, "vex", viri);
        const char *j = spdx_justification(v->vex_justification);
        if (!strcmp(vex, "security_VexNotAffectedVulnAssessmentRelationship")) {
            if (j)
                sb_jw_kstr(jw, "security_justificationType", j);
            sb_jw_kstr_opt(jw, "security_impactStatement", v->vex_detail);
        } else {
            sb_jw_kstr_opt(jw, "security_statusNotes", v->vex_detail);
        }
        sb_jw_obj_end(jw);
    }
}

/* The ids vulnerability3() gave, for the Sbom's element list. */
static void vulnerability3_ids(sb_doc *d, const sb_vuln *v)
{
    sb_jw_str(&d->jw, iri(d, vuln_frag(d, v, "vulnerability")));
    for (size_t k = 0; k < v->naffects; k++)
        sb_jw_str(&d->jw, iri(d, assoc_frag(d, v, v->affects[k])));
    for (size_t k = 0; k < v->nratings; k++)
        if (cvss3(&v->ratings[k]))
            sb_jw_str(&d->jw, iri(d, cvss_frag(d, v, k)));
    const char *b = vuln_frag(d, v, "assessment");
    const char *what[] = {v->kev ? "kev" : NULL, v->epss >= 0 ? "epss" : NULL, vex_type(v) ? "vex" : NULL};
    for (size_t k = 0; k < 3; k++) {
        const char *f = what[k] ? sb_arena_printf(d->tmp, "%s-%s", b, what[k]) : NULL;
        if (f)
            sb_jw_str(&d->jw, iri(d, f));
    }
}

static const char *rel_frag(sb_doc *d, const char *pkg_id, const char *what)
{
    const char *f = sb_arena_printf(d->tmp, "relationship-%s-%s", pkg_id, what);
    return f ? f : "relationship";
}

/* An Sbom or SpdxDocument up to and including the first member of its open
 * `element` array: both list their root first. */
static void collection_open(sb_doc *d, const char *type, const char *frag, const char *root_frag)
{
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    common(d, type, frag, 0);
    sb_jw_kstr(jw, "name", s3->x->doc_name);
    sb_jw_key(jw, "profileConformance");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, "core");
    sb_jw_str(jw, "software");
    sb_jw_str(jw, "simpleLicensing");
    if (d->sbom->nvulns)
        sb_jw_str(jw, "security");
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "rootElement");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, iri(d, root_frag));
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "element");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, iri(d, root_frag));
}

/* Whether the edge from a package of scope `from` to package `to` crosses
 * into a development group: such edges are LifecycleScopedRelationships with
 * scope development; every other edge a plain dependsOn. */
static int dev_edge(const sb_sbom *s, sb_scope from, size_t to)
{
    return sb_scope_crossing(from, s->pkgs[to].scope) == SB_SCOPE_DEVELOPMENT;
}

static size_t count_edges(const sb_sbom *s, sb_scope from, const size_t *to, size_t n, int dev)
{
    size_t c = 0;
    for (size_t k = 0; k < n; k++)
        c += dev_edge(s, from, to[k]) == dev;
    return c;
}

static const char *depends_what(int dev)
{
    return dev ? "depends-development" : "depends";
}

/* The dependsOn relationship of `base` (a package fragment or "root") for
 * its plain edges (dev = 0) or its development edges (dev = 1); nothing when
 * it has none of that kind. */
static void depends_rel(sb_doc *d, const char *base, const char *from_iri, sb_scope from, const size_t *to, size_t n,
                        int dev)
{
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    if (0 == count_edges(d->sbom, from, to, n, dev))
        return;
    sb_jw_obj_begin(jw);
    common(d, dev ? "LifecycleScopedRelationship" : "Relationship", rel_frag(d, base, depends_what(dev)), 0);
    sb_jw_kstr(jw, "from", from_iri);
    sb_jw_kstr(jw, "relationshipType", "dependsOn");
    sb_jw_key(jw, "to");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < n; k++)
        if (dev_edge(d->sbom, from, to[k]) == dev)
            sb_jw_str(jw, iri(d, s3->x->pkg_ids[to[k]]));
    sb_jw_arr_end(jw);
    /* the lockfile lists every edge: complete; without dependency data in
     * the input, edges are not asserted to be all there are */
    sb_jw_kstr(jw, "completeness", d->sbom->deps_unknown ? "noAssertion" : "complete");
    if (dev)
        sb_jw_kstr(jw, "scope", "development");
    sb_jw_obj_end(jw);
}

/* A package without edges: dependsOn NoneElement when the input states it
 * depends on nothing, NoAssertionElement when the input has no dependency
 * data at all (SPDX 3.0.1 Core individuals). */
static void leaf_rel(sb_doc *d, const char *base, const char *from_iri)
{
    sb_jw *jw = &d->jw;
    int unknown = d->sbom->deps_unknown;
    sb_jw_obj_begin(jw);
    common(d, "Relationship", rel_frag(d, base, "depends"), 0);
    sb_jw_kstr(jw, "from", from_iri);
    sb_jw_kstr(jw, "relationshipType", "dependsOn");
    sb_jw_key(jw, "to");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, unknown ? "NoAssertionElement" : "NoneElement");
    sb_jw_arr_end(jw);
    sb_jw_kstr(jw, "completeness", unknown ? "noAssertion" : "complete");
    sb_jw_obj_end(jw);
}

/* The ids depends_rel() gave, for the Sbom's element list. */
static void depends_ids(sb_doc *d, const char *base, sb_scope from, const size_t *to, size_t n)
{
    for (int dev = 0; dev < 2; dev++)
        if (count_edges(d->sbom, from, to, n, dev))
            sb_jw_str(&d->jw, iri(d, rel_frag(d, base, depends_what(dev))));
}

static sb_code relation(sb_doc *d, size_t i)
{
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    size_t n = s->npkgs;
    if (i > n && i <= n + s->nvulns) {
        vulnerability3(d, &s->vulns[i - n - 1]);
        return jw->status;
    }
    if (i > n)
        i -= s->nvulns; /* the pieces after the findings keep their numbers */
    if (i < n) {
        const sb_pkg *p = &s->pkgs[i];
        const char *from = iri(d, s3->x->pkg_ids[i]);
        if (s3->lic_iri[i]) {
            sb_jw_obj_begin(jw);
            common(d, "Relationship", rel_frag(d, s3->x->pkg_ids[i], "license"), 0);
            sb_jw_kstr(jw, "from", from);
            sb_jw_kstr(jw, "relationshipType", "hasDeclaredLicense");
            sb_jw_key(jw, "to");
            sb_jw_arr_begin(jw);
            sb_jw_str(jw, s3->lic_iri[i]);
            sb_jw_arr_end(jw);
            sb_jw_obj_end(jw);
        }
        if (0 == p->ndeps)
            leaf_rel(d, s3->x->pkg_ids[i], from);
        depends_rel(d, s3->x->pkg_ids[i], from, p->scope, p->deps, p->ndeps, 0);
        depends_rel(d, s3->x->pkg_ids[i], from, p->scope, p->deps, p->ndeps, 1);
    } else if (i == n) {
        const char *root = iri(d, "package-root");
        if (s3->root_lic.kind != SB_LIC_NONE) {
            sb_jw_obj_begin(jw);
            common(d, "Relationship", rel_frag(d, "root", "license"), 0);
            sb_jw_kstr(jw, "from", root);
            sb_jw_kstr(jw, "relationshipType", "hasDeclaredLicense");
            sb_jw_key(jw, "to");
            sb_jw_arr_begin(jw);
            sb_jw_str(jw, iri(d, "license-root"));
            sb_jw_arr_end(jw);
            sb_jw_obj_end(jw);
        }
        depends_rel(d, "root", root, SB_SCOPE_REQUIRED, s->root_deps, s->nroot, 0);
        depends_rel(d, "root", root, SB_SCOPE_REQUIRED, s->root_deps, s->nroot, 1);
    } else if (i == n + 1) {
        collection_open(d, "software_Sbom", "sbom", "package-root");
    } else if (i < 2 * n + 2) {
        size_t k = i - n - 2;
        const sb_pkg *p = &s->pkgs[k];
        sb_jw_str(jw, iri(d, s3->x->pkg_ids[k]));
        if (s3->lic_iri[k])
            sb_jw_str(jw, iri(d, rel_frag(d, s3->x->pkg_ids[k], "license")));
        if (0 == p->ndeps)
            sb_jw_str(jw, iri(d, rel_frag(d, s3->x->pkg_ids[k], "depends")));
        depends_ids(d, s3->x->pkg_ids[k], p->scope, p->deps, p->ndeps);
    } else if (i == 2 * n + 2) {
        depends_ids(d, "root", SB_SCOPE_REQUIRED, s->root_deps, s->nroot);
        for (size_t k = 0; k < s->nroot_authors; k++)
            sb_jw_str(jw, iri(d, sb_arena_printf(d->tmp, "person-root-%zu", k + 1)));
        if (s3->root_lic.kind != SB_LIC_NONE) {
            sb_jw_str(jw, iri(d, "license-root"));
            sb_jw_str(jw, iri(d, rel_frag(d, "root", "license")));
        }
        for (size_t k = 0; k < s->nvulns; k++)
            vulnerability3_ids(d, &s->vulns[k]);
        for (size_t k = 0; k < s3->nlic; k++)
            sb_jw_str(jw, s3->lic_list[k].iri);
    } else {
        sb_jw_arr_end(jw);
        sb_jw_key(jw, "software_sbomType");
        sb_jw_arr_begin(jw);
        sb_jw_str(jw, "build");
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
    }
    return jw->status;
}

static sb_code end(sb_doc *d)
{
    spdx3 *s3 = d->fmt;
    sb_jw *jw = &d->jw;
    const char *cc0 = iri(d, "license-CC0-1.0");
    if (!s3->cc0_emitted) {
        sb_lic l = {SB_LIC_EXPR, "CC0-1.0", true, false, NULL, NULL};
        license_element(d, cc0, &l, NULL);
    }
    collection_open(d, "SpdxDocument", "document", "sbom");
    sb_jw_arr_end(jw);
    sb_jw_kstr(jw, "dataLicense", cc0);
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    return jw->status;
}

const sb_doc_ops sb_doc_spdx_301 = {
    .name = "spdx-3.0.1",
    .media_type = "application/spdx+json; version=3.0.1",
    .ext = ".spdx.json",
    .text_shape = SB_TEXTS_SPDX,
    .aliases = (const char *const[]){"spdx-3", "spdx-3.0", NULL},
    .media_base = "application/spdx+json",
    .versions = (const char *const[]){"3.0.1", "3.0", NULL},
    .media_aliases = (const char *const[]){"application/ld+json", NULL},
    .title = "SPDX 3.0.1",
    .spec_version = "3.0.1",
    .begin = begin,
    .component = component,
    .middle = middle,
    .relation_count = relation_count,
    .relation = relation,
    .end = end,
};
