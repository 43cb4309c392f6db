/*
 * doc_cyclonedx.c - CycloneDX 1.6 and 1.7 JSON, written piece by piece.
 *
 * Maps model fields to CycloneDX keys through jsonw; knows nothing about
 * escaping, separators or buffers. Key order follows the spec's emission order
 * (spec/pixi-sbom.md 6.1-6.4). 1.7 differs only in $schema/specVersion and a
 * trailing `citations` entry attributing the content to sbomd.
 *
 * Relation pieces: 0 opens the root's entry, 1..nroot are its edges, nroot+1
 * closes it, then one piece per package: so even a root with 10^5 edges is
 * emitted in small pieces.
 */
#include "doc.h"
#include "filter.h"
#include "license.h"
#include "vuln.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

/* CycloneDX 1.7's additions (citations) are written for a 1.7 document */
static int is17(const sb_doc *d)
{
    return !strcmp(d->ops->spec_version, "1.7");
}

static const char *tool_ref(void)
{
    return "pkg:generic/" SB_TOOL_NAME "@" SB_VERSION;
}

static void prop(sb_jw *jw, const char *name, const char *value)
{
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", name);
    sb_jw_kstr(jw, "value", value);
    sb_jw_obj_end(jw);
}

/* {"contentType": "text/plain", "content": <the file's text>} */
static void text_object(sb_doc *d, const sb_licfile *f)
{
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, "text");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "contentType", "text/plain");
    sb_jw_key(jw, "content");
    sb_doc__file_text(d, f);
    sb_jw_obj_end(jw);
}

static void named_file(sb_doc *d, const sb_licfile *f)
{
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "license");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", f->name);
    text_object(d, f);
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
}

/* licenses[]: without texts one entry (expression, or a named license);
 * with texts the shapes of the spec's table 6.4. */
static void licenses(sb_doc *d, const sb_pkg *p)
{
    sb_lic l = sb_pkg_lic(p, d->tmp);
    const sb_licfile *with_text[64];
    const sb_pkgx *x = sb_pkg_xr(p);
    size_t nt = 0;
    for (size_t k = 0; k < x->nlicfiles && nt < 64; k++)
        if (x->licfiles[k].text_len >= 0)
            with_text[nt++] = &x->licfiles[k];
    if (l.kind == SB_LIC_NONE && 0 == nt)
        return;
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, "licenses");
    sb_jw_arr_begin(jw);
    size_t first_named = 0;
    /* only a bare id (no WITH) can be a license.id; anything else stays an expression */
    int bare = l.kind == SB_LIC_EXPR && l.single_id && !strchr(l.value, ' ');
    if (l.kind == SB_LIC_EXPR && !(bare && nt)) {
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "expression", l.value);
        sb_jw_obj_end(jw);
        nt = 0; /* a compound expression: file names go to properties only */
    } else if (l.kind != SB_LIC_NONE) {
        sb_jw_obj_begin(jw);
        sb_jw_key(jw, "license");
        sb_jw_obj_begin(jw);
        if (l.kind == SB_LIC_EXPR && !l.is_ref)
            sb_jw_kstr(jw, "id", l.value);
        else
            sb_jw_kstr(jw, "name", l.value);
        if (nt) {
            text_object(d, with_text[0]);
            sb_jw_kstr(jw, "acknowledgement", "declared");
            first_named = 1;
        }
        sb_jw_obj_end(jw);
        sb_jw_obj_end(jw);
    }
    for (size_t k = first_named; k < nt; k++)
        named_file(d, with_text[k]);
    sb_jw_arr_end(jw);
}

static void ext_ref(sb_jw *jw, sb_doc *d, const char *type, const char *url)
{
    if (NULL == url || !url[0])
        return;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "type", type);
    sb_jw_kstr(jw, "url", sb_doc__uri(d, url));
    sb_jw_obj_end(jw);
}

/* The document's opening up to its version: SBOM and VEX alike. */
static void head(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    char schema[64];
    snprintf(schema, sizeof schema, "http://cyclonedx.org/schema/bom-%s.schema.json", d->ops->spec_version);
    sb_jw_kstr(jw, "$schema", schema);
    sb_jw_kstr(jw, "bomFormat", "CycloneDX");
    sb_jw_kstr(jw, "specVersion", d->ops->spec_version);
    sb_jw_key(jw, "serialNumber");
    sb_jw_str_begin(jw);
    sb_jw_str_chunk(jw, "urn:uuid:", 9);
    sb_jw_str_chunk(jw, d->serial, strlen(d->serial));
    sb_jw_str_end(jw);
    sb_jw_key(jw, "version");
    sb_jw_int(jw, 1);
}

/* metadata.tools: sbomd itself */
static void tools(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, "tools");
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "components");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "type", "application");
    sb_jw_kstr(jw, "bom-ref", tool_ref());
    sb_jw_kstr(jw, "name", SB_TOOL_NAME);
    sb_jw_kstr(jw, "version", SB_VERSION);
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
}

/* pixi:incomplete and its detail, when a step fell short */
static void incomplete_props(sb_doc *d)
{
    const char *steps = sb_incomplete_steps(&d->sbom->incomplete, d->arena);
    if (steps) {
        prop(&d->jw, "pixi:incomplete", steps);
        prop(&d->jw, "pixi:incomplete-detail", sb_incomplete_details(&d->sbom->incomplete, d->arena));
    }
}

static sb_code begin(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    head(d);
    sb_jw_key(jw, "metadata");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "timestamp", d->timestamp);
    sb_jw_key(jw, "lifecycles");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "phase", "pre-build");
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    tools(d);
    if (s->author) { /* only when given: an author is never made up */
        sb_jw_key(jw, "authors");
        sb_jw_arr_begin(jw);
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->author->name);
        sb_jw_kstr_opt(jw, "email", s->author->email);
        sb_jw_obj_end(jw);
        sb_jw_arr_end(jw);
    }
    sb_jw_key(jw, "component");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "type", "application");
    sb_jw_kstr(jw, "bom-ref", "root");
    if (s->nroot_authors) {
        sb_jw_key(jw, "authors");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < s->nroot_authors; k++) {
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "name", s->root_authors[k].name);
            sb_jw_kstr_opt(jw, "email", s->root_authors[k].email);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    sb_jw_kstr(jw, "name", s->root_name);
    sb_jw_kstr_opt(jw, "version", s->root_version);
    if (s->root_license) {
        sb_pkg lp = {.license = s->root_license}; /* the package license rules apply to the root too */
        licenses(d, &lp);
    }
    if (s->root_homepage || s->root_repository || s->root_documentation) {
        sb_jw_key(jw, "externalReferences");
        sb_jw_arr_begin(jw);
        ext_ref(jw, d, "website", s->root_homepage);
        ext_ref(jw, d, "vcs", s->root_repository);
        ext_ref(jw, d, "documentation", s->root_documentation);
        sb_jw_arr_end(jw);
    }
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "properties");
    sb_jw_arr_begin(jw);
    prop(jw, "pixi:environment", s->environment);
    prop(jw, "pixi:platform", s->platform);
    if (s->lockfile_name)
        prop(jw, "pixi:lockfile", s->lockfile_name);
    /* the kind of lockfile the data came from (SPDX says it in its creation
     * comment, 1.7 in its citation): read back, a 1.6 document can say it again */
    prop(jw, "pixi:input-kind", sb_doc__made_from(d));
    if (d->source_doc) /* converted from another document */
        prop(jw, "pixi:source-document", d->source_doc);
    const char *excluded = sb_filter_excluded_text(s, d->arena);
    if (excluded)
        prop(jw, "pixi:excluded", excluded);
    incomplete_props(d);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "components");
    sb_jw_arr_begin(jw);
    return jw->status;
}

static const sb_doc_hash_shape cdx_hashes = {
    .key = "hashes",
    .alg_key = "alg",
    .value_key = "content",
    .names = {"SHA-256", "MD5", "SHA-512", "SHA-384", "SHA-1"},
};

static sb_code component(sb_doc *d, size_t i)
{
    sb_jw *jw = &d->jw;
    const sb_pkg *p = &d->sbom->pkgs[i];
    const sb_pkgx *x = sb_pkg_xr(p);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "type", "library");
    sb_jw_kstr(jw, "bom-ref", p->id);
    sb_jw_kstr(jw, "name", p->name);
    sb_jw_kstr_opt(jw, "version", p->version);
    sb_jw_kstr_opt(jw, "description", x->summary);
    /* CycloneDX has no development scope: what a project only develops with
     * is not needed to run it, which is what "optional" says */
    if (p->scope != SB_SCOPE_NONE)
        sb_jw_kstr(jw, "scope", p->scope == SB_SCOPE_REQUIRED ? "required" : "optional");
    if (p->supplier_name) {
        sb_jw_key(jw, "supplier");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", p->supplier_name);
        if (p->supplier_url) {
            sb_jw_key(jw, "url");
            sb_jw_arr_begin(jw);
            sb_jw_str(jw, sb_doc__uri(d, p->supplier_url));
            sb_jw_arr_end(jw);
        }
        sb_jw_obj_end(jw);
    }
    sb_jw_kstr(jw, "purl", p->purl);
    sb_doc__hashes(jw, p, &cdx_hashes);
    licenses(d, p);
    int has_loc = p->location && p->location[0];
    if (has_loc || x->homepage || x->repository || x->documentation) {
        sb_jw_key(jw, "externalReferences");
        sb_jw_arr_begin(jw);
        if (has_loc)
            ext_ref(jw, d, strncmp(p->location, "git+", 4) ? "distribution" : "vcs", p->location);
        ext_ref(jw, d, "website", x->homepage);
        ext_ref(jw, d, "vcs", x->repository);
        ext_ref(jw, d, "documentation", x->documentation);
        sb_jw_arr_end(jw);
    }
    sb_jw_key(jw, "properties");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < p->nprops; k++)
        prop(jw, p->props[k].name, p->props[k].value);
    prop(jw, "pixi:kind", sb_kind_name(p->kind));
    for (size_t k = 0; k < sb_pkg_xr(p)->extra_purls.n; k++)
        prop(jw, "pixi:purl", sb_pkg_xr(p)->extra_purls.v[k]);
    for (size_t k = 0; k < x->nlicfiles; k++)
        prop(jw, "pixi:license-file", x->licfiles[k].name);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    return jw->status;
}

static sb_code middle(sb_doc *d)
{
    sb_jw_arr_end(&d->jw);
    sb_jw_key(&d->jw, "dependencies");
    sb_jw_arr_begin(&d->jw);
    return d->jw.status;
}

/* Relation pieces: the dependencies (see the top), then the compositions:
 * one piece opening them, one per package listing it among the refs whose
 * dependencies the input states (or does not), one closing that and opening
 * the packages whose enrichment failed, one per package naming it there when
 * it is one of them. */
static size_t relation_count(const sb_doc *d)
{
    const sb_sbom *s = d->sbom;
    /* root, dependencies, compositions (2n + 3 pieces), then the findings */
    return s->nroot + 2 + s->npkgs + 2 * s->npkgs + 3 + (s->nvulns ? 1 + s->nvulns : 0);
}

/* A license lookup was wanted for the package and gave nothing (failed,
 * or not made): its data is incomplete, as pixi:incomplete says. */
static int enrich_failed(const sb_pkg *p)
{
    return p->lookup == SB_LOOKUP_FAILED || p->lookup == SB_LOOKUP_NOT_MADE;
}

/* compositions (CycloneDX 1.6 "compositions"): the lockfile pins the whole
 * closure, so the root's assembly is complete, unless the request's filters
 * left packages out on purpose: then it is incomplete (known to lack them,
 * and pixi:excluded names each), never unknown; the dependency edges are
 * complete when the input states them and unknown when it has none
 * (requirements.txt without `# via`, conda explicit specs); packages whose
 * enrichment failed are an incomplete assembly of their own. */
static void composition(sb_doc *d, size_t k)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    size_t n = s->npkgs;
    if (k == 0) {
        sb_jw_arr_end(jw); /* dependencies */
        sb_jw_key(jw, "compositions");
        sb_jw_arr_begin(jw);
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "bom-ref", "composition-assembly");
        sb_jw_kstr(jw, "aggregate", s->nexcluded ? "incomplete" : "complete");
        sb_jw_key(jw, "assemblies");
        sb_jw_arr_begin(jw);
        sb_jw_str(jw, "root");
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "bom-ref", "composition-dependencies");
        sb_jw_kstr(jw, "aggregate", s->deps_unknown ? "unknown" : "complete");
        sb_jw_key(jw, "dependencies");
        sb_jw_arr_begin(jw);
        sb_jw_str(jw, "root");
    } else if (k <= n) {
        sb_jw_str(jw, s->pkgs[k - 1].id);
    } else if (k == n + 1) {
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
        size_t nf = 0;
        for (size_t i = 0; i < n; i++)
            nf += enrich_failed(&s->pkgs[i]) != 0;
        if (nf) {
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "bom-ref", "composition-enrichment");
            sb_jw_kstr(jw, "aggregate", "incomplete");
            sb_jw_key(jw, "assemblies");
            sb_jw_arr_begin(jw);
        }
    } else if (k <= 2 * n + 1) {
        if (enrich_failed(&s->pkgs[k - n - 2]))
            sb_jw_str(jw, s->pkgs[k - n - 2].id);
    } else {
        size_t nf = 0;
        for (size_t i = 0; i < n; i++)
            nf += enrich_failed(&s->pkgs[i]) != 0;
        if (nf) {
            sb_jw_arr_end(jw);
            sb_jw_obj_end(jw);
        }
    }
}

/* Whether the fragment of a URI may hold c as it is (RFC 3986 3.5: pchar,
 * "/" and "?"); '%' is not among them, so a decoded fragment is the ref. */
static int fragment_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("-._~!$&'()*+,;=:@/?", c));
}

/* "ref": the component's bom-ref; in a VEX a BOM-Link to it in the SBOM
 * (urn:cdx:<serial>/1#<bom-ref, percent-encoded>), since the VEX holds no
 * components of its own. Streamed: no copy of the ref is made. */
static void affects_ref(sb_doc *d, const char *id)
{
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, "ref");
    if (NULL == d->ops->links_into) {
        sb_jw_str(jw, id);
        return;
    }
    static const char hx[] = "0123456789ABCDEF";
    sb_jw_str_begin(jw);
    sb_jw_str_chunk(jw, "urn:cdx:", 8);
    sb_jw_str_chunk(jw, d->link_serial, strlen(d->link_serial));
    sb_jw_str_chunk(jw, "/1#", 3);
    const unsigned char *p = (const unsigned char *)id;
    while (*p) {
        size_t run = 0;
        while (p[run] && fragment_char(p[run]))
            run++;
        sb_jw_str_chunk(jw, (const char *)p, run);
        p += run;
        if (*p) {
            char esc[3] = {'%', hx[*p >> 4], hx[*p & 15]};
            sb_jw_str_chunk(jw, esc, 3);
            p++;
        }
    }
    sb_jw_str_end(jw);
}

static void osv_source(sb_doc *d, const char *id)
{
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, "source");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", "OSV");
    sb_jw_kstr(jw, "url", sb_doc__uri(d, sb_vuln_url(d->tmp, id)));
    sb_jw_obj_end(jw);
}

/* One finding, a piece of its own: the stage holds one at a time. */
static void vulnerability(sb_doc *d, const sb_vuln *v)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_obj_begin(jw);
    const char *ref = sb_arena_printf(d->tmp, "vuln-%s", v->id);
    sb_jw_kstr(jw, "bom-ref", ref ? ref : v->id);
    sb_jw_kstr(jw, "id", v->id);
    osv_source(d, v->id);
    if (v->aliases.n) {
        sb_jw_key(jw, "references");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < v->aliases.n; k++) {
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "id", v->aliases.v[k]);
            osv_source(d, v->aliases.v[k]);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    if (v->nratings) {
        sb_jw_key(jw, "ratings");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < v->nratings; k++) {
            const sb_vuln_rating *r = &v->ratings[k];
            sb_jw_obj_begin(jw);
            if (r->score >= 0) {
                sb_jw_key(jw, "score");
                sb_jw_tenths(jw, r->score);
            }
            sb_jw_kstr(jw, "severity", sb_sev_name(r->severity));
            sb_jw_kstr(jw, "method", r->method);
            sb_jw_kstr_opt(jw, "vector", r->vector);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    if (v->ncwes) {
        sb_jw_key(jw, "cwes");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < v->ncwes; k++)
            sb_jw_int(jw, v->cwes[k]);
        sb_jw_arr_end(jw);
    }
    sb_jw_kstr_opt(jw, "description", v->summary);
    sb_jw_kstr_opt(jw, "detail", v->details);
    sb_jw_kstr_opt(jw, "recommendation", v->recommendation);
    int adv = 0;
    for (size_t k = 0; k < v->nrefs; k++) {
        if (strcmp(v->refs[k].type, "ADVISORY"))
            continue;
        if (!adv++) {
            sb_jw_key(jw, "advisories");
            sb_jw_arr_begin(jw);
        }
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "url", sb_doc__uri(d, v->refs[k].url));
        sb_jw_obj_end(jw);
    }
    if (adv)
        sb_jw_arr_end(jw);
    sb_jw_kstr_opt(jw, "published", v->published);
    sb_jw_kstr_opt(jw, "updated", v->modified);
    sb_jw_key(jw, "affects");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < v->naffects; k++) {
        sb_jw_obj_begin(jw);
        affects_ref(d, s->pkgs[v->affects[k]].id);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    if (v->vex_state) { /* a VEX statement's analysis, as it said it (vex.c) */
        sb_jw_key(jw, "analysis");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "state", v->vex_state);
        sb_jw_kstr_opt(jw, "justification", v->vex_justification);
        sb_jw_kstr_opt(jw, "detail", v->vex_detail);
        sb_jw_obj_end(jw);
    }
    if (v->kev || v->epss >= 0 || v->vex_source) { /* pixi:kev*, pixi:epss*, pixi:vex-source */
        sb_jw_key(jw, "properties");
        sb_jw_arr_begin(jw);
        if (v->kev) {
            prop(jw, "pixi:kev", "true");
            prop(jw, "pixi:kev-cve", v->kev_cve);
            if (v->kev_added)
                prop(jw, "pixi:kev-date-added", v->kev_added);
            if (v->kev_due)
                prop(jw, "pixi:kev-due-date", v->kev_due);
            if (v->kev_ransomware)
                prop(jw, "pixi:kev-ransomware", v->kev_ransomware);
        }
        if (v->epss >= 0) {
            prop(jw, "pixi:epss", v->epss_text);
            prop(jw, "pixi:epss-percentile", v->epss_pct_text);
            prop(jw, "pixi:epss-cve", v->epss_cve);
            if (v->epss_date)
                prop(jw, "pixi:epss-date", v->epss_date);
        }
        if (v->vex_source)
            prop(jw, "pixi:vex-source", v->vex_source);
        sb_jw_arr_end(jw);
    }
    sb_jw_obj_end(jw);
}

static sb_code relation(sb_doc *d, size_t i)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    size_t comps = s->nroot + 2 + s->npkgs, vulns = comps + 2 * s->npkgs + 3;
    if (i >= comps && i < vulns) {
        composition(d, i - comps);
    } else if (i == vulns) {
        sb_jw_arr_end(jw); /* compositions */
        sb_jw_key(jw, "vulnerabilities");
        sb_jw_arr_begin(jw);
    } else if (i > vulns) {
        vulnerability(d, &s->vulns[i - vulns - 1]);
    } else if (i == 0) {
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "ref", "root");
        sb_jw_key(jw, "dependsOn");
        sb_jw_arr_begin(jw);
    } else if (i <= s->nroot) {
        sb_jw_str(jw, s->pkgs[s->root_deps[i - 1]].id);
    } else if (i == s->nroot + 1) {
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
    } else {
        const sb_pkg *p = &s->pkgs[i - s->nroot - 2];
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "ref", p->id);
        sb_jw_key(jw, "dependsOn");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < p->ndeps; k++)
            sb_jw_str(jw, s->pkgs[p->deps[k]].id);
        sb_jw_arr_end(jw);
        sb_jw_obj_end(jw);
    }
    return jw->status;
}

static sb_code end(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_arr_end(jw); /* compositions, or the findings after them */
    if (is17(d)) {
        sb_jw_key(jw, "citations");
        sb_jw_arr_begin(jw);
        sb_jw_obj_begin(jw);
        sb_jw_key(jw, "pointers");
        sb_jw_arr_begin(jw);
        sb_jw_str(jw, "/metadata/component");
        sb_jw_str(jw, "/components");
        sb_jw_str(jw, "/dependencies");
        sb_jw_arr_end(jw);
        sb_jw_kstr(jw, "timestamp", d->timestamp);
        sb_jw_kstr(jw, "attributedTo", tool_ref());
        const char *note = sb_arena_printf(d->arena, "Derived from the %s %s (environment %s, platform %s)",
                                           sb_doc__made_from(d), s->lockfile_name ? s->lockfile_name : "(unnamed)",
                                           s->environment, s->platform);
        sb_jw_kstr(jw, "note", note ? note : "Derived from the lockfile");
        sb_jw_obj_end(jw);
        sb_jw_arr_end(jw);
    }
    sb_jw_obj_end(jw);
    return jw->status;
}

/* --- output=vex: the findings alone, about the SBOM of the same request --- */

static sb_code vex_begin(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    head(d);
    sb_jw_key(jw, "metadata");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "timestamp", d->timestamp);
    tools(d);
    sb_jw_key(jw, "properties");
    sb_jw_arr_begin(jw);
    const char *target = sb_arena_printf(d->arena, "urn:cdx:%s/1", d->link_serial);
    if (NULL == target)
        return SB_ENOMEM;
    prop(jw, "pixi:vex-for", target);
    prop(jw, "pixi:environment", s->environment);
    prop(jw, "pixi:platform", s->platform);
    if (s->lockfile_name)
        prop(jw, "pixi:lockfile", s->lockfile_name);
    incomplete_props(d);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "vulnerabilities");
    sb_jw_arr_begin(jw);
    return jw->status;
}

/* the components stay in the SBOM: nothing for each */
static sb_code vex_component(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code vex_middle(sb_doc *d)
{
    return d->jw.status;
}

static size_t vex_relation_count(const sb_doc *d)
{
    return d->sbom->nvulns;
}

static sb_code vex_relation(sb_doc *d, size_t i)
{
    vulnerability(d, &d->sbom->vulns[i]);
    return d->jw.status;
}

static sb_code vex_end(sb_doc *d)
{
    sb_jw_arr_end(&d->jw);
    sb_jw_obj_end(&d->jw);
    return d->jw.status;
}

/* Runs of pieces, each one element of an array that holds one already and
 * written from the model alone: the components after the first, the
 * dependency objects after the root's, and the package refs of
 * composition-dependencies after "root" (see relation and composition). */
static size_t par_run_end(const sb_doc *d, sb_doc_section section, size_t i)
{
    const sb_sbom *s = d->sbom;
    if (section == SB_DOC_COMPONENTS)
        return i > 0 ? s->npkgs : i;
    size_t deps = s->nroot + 2, comps = deps + s->npkgs;
    if (i >= deps && i < comps)
        return comps;
    if (i >= comps + 1 && i < comps + 1 + s->npkgs)
        return comps + 1 + s->npkgs;
    return i;
}

#define CDX_PHASES \
    .begin = begin, .component = component, .middle = middle, .relation_count = relation_count, .relation = relation, \
    .end = end, .par_run_end = par_run_end

const sb_doc_ops sb_doc_cyclonedx_16 = {
    .name = "cyclonedx-1.6",
    .media_type = "application/vnd.cyclonedx+json; version=1.6",
    .ext = ".cdx.json",
    .text_shape = SB_TEXTS_CYCLONEDX,
    .aliases = (const char *const[]){"cyclonedx", "cyclonedx-json", "cdx", "cdx-json", NULL},
    .media_base = "application/vnd.cyclonedx+json",
    .versions = (const char *const[]){"1.6", NULL},
    .family_default = true,
    .title = "CycloneDX 1.6",
    .spec_version = "1.6",
    .vex = &sb_doc_cyclonedx_vex_16,
    CDX_PHASES,
};

const sb_doc_ops sb_doc_cyclonedx_17 = {
    .name = "cyclonedx-1.7",
    .media_type = "application/vnd.cyclonedx+json; version=1.7",
    .ext = ".cdx.json",
    .text_shape = SB_TEXTS_CYCLONEDX,
    .media_base = "application/vnd.cyclonedx+json",
    .versions = (const char *const[]){"1.7", NULL},
    .title = "CycloneDX 1.7",
    .spec_version = "1.7",
    .vex = &sb_doc_cyclonedx_vex_17,
    CDX_PHASES,
};

#define VEX_PHASES \
    .begin = vex_begin, .component = vex_component, .middle = vex_middle, .relation_count = vex_relation_count, \
    .relation = vex_relation, .end = vex_end

const sb_doc_ops sb_doc_cyclonedx_vex_16 = {
    .name = "cyclonedx-1.6-vex",
    .media_type = "application/vnd.cyclonedx+json; version=1.6",
    .ext = ".vex.cdx.json",
    .text_shape = SB_TEXTS_CYCLONEDX,
    .links_into = &sb_doc_cyclonedx_16,
    .title = "CycloneDX 1.6 VEX",
    .spec_version = "1.6",
    VEX_PHASES,
};

const sb_doc_ops sb_doc_cyclonedx_vex_17 = {
    .name = "cyclonedx-1.7-vex",
    .media_type = "application/vnd.cyclonedx+json; version=1.7",
    .ext = ".vex.cdx.json",
    .text_shape = SB_TEXTS_CYCLONEDX,
    .links_into = &sb_doc_cyclonedx_17,
    .title = "CycloneDX 1.7 VEX",
    .spec_version = "1.7",
    VEX_PHASES,
};
