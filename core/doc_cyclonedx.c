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
#include "license.h"
#include "version.h"

#include <string.h>

static int is17(const sb_doc *d) { return d->ops == &sb_doc_cyclonedx_17; }

static const char *tool_ref(void) { return "pkg:generic/" SB_TOOL_NAME "@" SB_VERSION; }

static void prop(sb_jw *jw, const char *name, const char *value)
{
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", name);
    sb_jw_kstr(jw, "value", value);
    sb_jw_obj_end(jw);
}

static void licenses(sb_doc *d, const char *raw)
{
    sb_lic l = sb_lic_normalize(d->arena, raw);
    if (l.kind == SB_LIC_NONE)
        return;
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, "licenses");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    if (l.kind == SB_LIC_EXPR) {
        sb_jw_kstr(jw, "expression", l.value);
    } else {
        sb_jw_key(jw, "license");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", l.value);
        sb_jw_obj_end(jw);
    }
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
}

static sb_code begin(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "$schema", is17(d) ? "http://cyclonedx.org/schema/bom-1.7.schema.json"
                                      : "http://cyclonedx.org/schema/bom-1.6.schema.json");
    sb_jw_kstr(jw, "bomFormat", "CycloneDX");
    sb_jw_kstr(jw, "specVersion", is17(d) ? "1.7" : "1.6");
    sb_jw_key(jw, "serialNumber");
    sb_jw_str_begin(jw);
    sb_jw_str_chunk(jw, "urn:uuid:", 9);
    sb_jw_str_chunk(jw, d->serial, strlen(d->serial));
    sb_jw_str_end(jw);
    sb_jw_key(jw, "version");
    sb_jw_int(jw, 1);
    sb_jw_key(jw, "metadata");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "timestamp", d->timestamp);
    sb_jw_key(jw, "lifecycles");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "phase", "pre-build");
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
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
    sb_jw_key(jw, "component");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "type", "application");
    sb_jw_kstr(jw, "bom-ref", "root");
    sb_jw_kstr(jw, "name", s->root_name);
    sb_jw_kstr_opt(jw, "version", s->root_version);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "properties");
    sb_jw_arr_begin(jw);
    prop(jw, "pixi:environment", s->environment);
    prop(jw, "pixi:platform", s->platform);
    prop(jw, "pixi:lockfile", s->lockfile_name);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "components");
    sb_jw_arr_begin(jw);
    return jw->status;
}

static sb_code component(sb_doc *d, size_t i)
{
    sb_jw *jw = &d->jw;
    const sb_pkg *p = &d->sbom->pkgs[i];
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "type", "library");
    sb_jw_kstr(jw, "bom-ref", p->id);
    sb_jw_kstr(jw, "name", p->name);
    sb_jw_kstr_opt(jw, "version", p->version);
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
    if (p->sha256 || p->md5) {
        sb_jw_key(jw, "hashes");
        sb_jw_arr_begin(jw);
        if (p->sha256) {
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "alg", "SHA-256");
            sb_jw_kstr(jw, "content", p->sha256);
            sb_jw_obj_end(jw);
        }
        if (p->md5) {
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "alg", "MD5");
            sb_jw_kstr(jw, "content", p->md5);
            sb_jw_obj_end(jw);
        }
        sb_jw_arr_end(jw);
    }
    licenses(d, p->license);
    if (p->location && p->location[0]) {
        sb_jw_key(jw, "externalReferences");
        sb_jw_arr_begin(jw);
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "type", strncmp(p->location, "git+", 4) ? "distribution" : "vcs");
        sb_jw_kstr(jw, "url", sb_doc__uri(d, p->location));
        sb_jw_obj_end(jw);
        sb_jw_arr_end(jw);
    }
    sb_jw_key(jw, "properties");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < p->nprops; k++)
        prop(jw, p->props[k].name, p->props[k].value);
    prop(jw, "pixi:kind", sb_kind_name(p->kind));
    for (size_t k = 0; k < p->extra_purls.n; k++)
        prop(jw, "pixi:purl", p->extra_purls.v[k]);
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

static size_t relation_count(const sb_doc *d)
{
    return d->sbom->nroot + 2 + d->sbom->npkgs;
}

static sb_code relation(sb_doc *d, size_t i)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    if (i == 0) {
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
    sb_jw_arr_end(jw);
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
                                           s->input_kind, s->lockfile_name, s->environment, s->platform);
        sb_jw_kstr(jw, "note", note ? note : "Derived from the lockfile");
        sb_jw_obj_end(jw);
        sb_jw_arr_end(jw);
    }
    sb_jw_obj_end(jw);
    return jw->status;
}

const sb_doc_ops sb_doc_cyclonedx_16 = {
    "cyclonedx-1.6", "application/vnd.cyclonedx+json; version=1.6", ".cdx.json",
    begin, component, middle, relation_count, relation, end,
};

const sb_doc_ops sb_doc_cyclonedx_17 = {
    "cyclonedx-1.7", "application/vnd.cyclonedx+json; version=1.7", ".cdx.json",
    begin, component, middle, relation_count, relation, end,
};
