/*
 * lock_spdx.c - SPDX JSON as input (sb_reader_spdx): SPDX 2.x here, and a
 * document with an @graph handed to lock_spdx3.c. Read into the model
 * through the helpers of lock_sbom.c.
 *
 * What is read of SPDX 2.x (everything else is ignored): packages[]
 * {SPDXID, name, versionInfo, downloadLocation, homepage, summary,
 * licenseDeclared (else licenseConcluded), checksums, externalRefs purl,
 * sourceInfo, comment, licenseComments, supplier}, documentDescribes,
 * relationships (DESCRIBES, DEPENDS_ON, CONTAINS from the root, and the
 * *_DEPENDENCY_OF ones reversed), hasExtractedLicensingInfos,
 * documentNamespace and creationInfo (provenance).
 */
#include "lock_sbom_int.h"
#include "purl.h"
#include "version.h"

#include <string.h>

static int spdx_detect(const char *data, size_t len, const char *filename)
{
    (void)filename;
    return sb_sbomin__json_with(data, len, "\"spdxVersion\"") || (sb_sbomin__json_with(data, len, "\"@context\"") &&
                                                                  sb_sbomin__json_with(data, len, "spdx.org/rdf/3."))
               ? 3
               : 0;
}

/* A declared license: NOASSERTION/NONE -> none; a lone LicenseRef defined
 * in hasExtractedLicensingInfos -> the name it was given (sbomd writes the
 * original text there). */
static const char *spdx_license(sb_sbomin *c, json_t *o, json_t *extracted)
{
    const char *v = sb_sbomin__jstr(c, o, "licenseDeclared");
    if (sb_sbomin__spdx_none(v))
        v = sb_sbomin__jstr(c, o, "licenseConcluded");
    if (sb_sbomin__spdx_none(v))
        return NULL;
    if (strncmp(v, "LicenseRef-", 11) || strchr(v, ' '))
        return v;
    size_t i;
    json_t *e;
    json_array_foreach(extracted, i, e) {
        const char *id = sb_sbomin__jstr(c, e, "licenseId");
        if (id && !strcmp(id, v)) {
            const char *nm = sb_sbomin__jstr(c, e, "name");
            return nm && !sb_sbomin__spdx_none(nm) ? nm : v;
        }
    }
    return v;
}

static sb_code spdx_package(sb_sbomin *c, json_t *o, size_t idx, json_t *extracted)
{
    if (!json_is_object(o))
        return sb_err_set(c->err, SB_EPARSE, "packages[%zu]: not an object", idx);
    const char *name = sb_sbomin__jstr(c, o, "name"), *id = sb_sbomin__jstr(c, o, "SPDXID");
    if (NULL == name || sb_sbomin__has_nul(json_object_get(o, "name")))
        return sb_err_set(c->err, SB_EPARSE, "packages[%zu]: a package without a name", idx);
    if (NULL == id)
        return sb_err_set(c->err, SB_EPARSE, "packages[%zu]: a package without an SPDXID", idx);
    sb_pkg *p;
    sb_code rc = sb_sbomin__new_pkg(c, &p, id);
    if (rc != SB_OK)
        return rc;
    p->name = name;
    p->version = sb_sbomin__jstr(c, o, "versionInfo");
    const char *summary = sb_sbomin__jstr(c, o, "summary");
    if (NULL == summary)
        summary = sb_sbomin__jstr(c, o, "description");
    const char *dl = sb_sbomin__jstr(c, o, "downloadLocation");
    if (!sb_sbomin__spdx_none(dl))
        p->location = dl;
    const char *si = sb_sbomin__jstr(c, o, "sourceInfo");
    if (si && NULL == p->location && !strncmp(si, "built from source at ", 21))
        p->location = si + 21;
    const char *hp = sb_sbomin__jstr(c, o, "homepage");
    if (sb_sbomin__spdx_none(hp))
        hp = NULL;
    if ((summary || hp) && NULL == sb_pkg_x(p, c->a)) /* out of line: only records that have them */
        return sb_sbomin__oom(c);
    if (summary)
        p->x->summary = summary;
    if (hp)
        p->x->homepage = hp;
    int kind_given = 0;
    if ((rc = sb_sbomin__spdx_comment(c, p, sb_sbomin__jstr(c, o, "comment"), &kind_given)) != SB_OK)
        return rc;
    const char *lc = sb_sbomin__jstr(c, o, "licenseComments");
    if (lc && !strncmp(lc, "License files: ", 15) && 0 == sb_pkg_xr(p)->nlicfiles) {
        if ((rc = sb_sbomin__license_files(c, p, lc + 15, ", ")) != SB_OK)
            return rc;
    }
    /* the first purl is the package's own; the rest are its other identities */
    json_t *refs = json_object_get(o, "externalRefs"), *e;
    size_t i;
    sb_pkgx *x = sb_pkg_x(p, c->a);
    if (NULL == x)
        return sb_sbomin__oom(c);
    x->lock_purls.n = 0; /* pixi:purl lines repeat what externalRefs say */
    json_array_foreach(refs, i, e) {
        const char *type = sb_sbomin__jstr(c, e, "referenceType"), *loc = sb_sbomin__jstr(c, e, "referenceLocator");
        if (NULL == type || NULL == loc || strcmp(type, "purl"))
            continue;
        sb_purl pu;
        if (sb_purl_parse(&pu, c->a, loc, NULL) != SB_OK)
            return sb_err_set(c->err, SB_EPARSE, "package '%.64s': purl '%.128s' is not a valid purl", name, loc);
        if (NULL == x->given_purl)
            x->given_purl = loc;
        else if (sb_strv_push(&x->lock_purls, c->a, loc) != SB_OK)
            return sb_sbomin__oom(c);
    }
    sb_sbomin__kind_from_purl(c, p, kind_given);
    json_t *sums = json_object_get(o, "checksums");
    json_array_foreach(sums, i, e)
        if ((rc = sb_sbomin__set_hash(c, p, sb_sbomin__jstr(c, e, "algorithm"),
                                      sb_sbomin__jstr(c, e, "checksumValue"))) != SB_OK)
            return rc;
    p->license = spdx_license(c, o, extracted);
    const char *sup = sb_sbomin__jstr(c, o, "supplier");
    if (sb_sbomin__supplier_as_stated(p) && sup && !strncmp(sup, "Organization: ", 14))
        p->supplier_name = sup + 14;
    return SB_OK;
}

/* *_DEPENDENCY_OF: the element is a dependency of the related one. */
static sb_scope reversed_dep(const char *type, int *is)
{
    static const struct {
        const char *t;
        sb_scope s;
    } rev[] = {
        {"DEPENDENCY_OF", SB_SCOPE_NONE},
        {"RUNTIME_DEPENDENCY_OF", SB_SCOPE_NONE},
        {"BUILD_DEPENDENCY_OF", SB_SCOPE_NONE},
        {"OPTIONAL_DEPENDENCY_OF", SB_SCOPE_OPTIONAL},
        {"DEV_DEPENDENCY_OF", SB_SCOPE_DEVELOPMENT},
        {"TEST_DEPENDENCY_OF", SB_SCOPE_DEVELOPMENT},
    };
    for (size_t i = 0; i < sizeof rev / sizeof rev[0]; i++)
        if (!strcmp(type, rev[i].t)) {
            *is = 1;
            return rev[i].s;
        }
    *is = 0;
    return SB_SCOPE_NONE;
}

static sb_code spdx_body(sb_sbomin *c, json_t *root)
{
    const char *ver = sb_sbomin__jstr(c, root, "spdxVersion");
    if (NULL == ver || strncmp(ver, "SPDX-2.", 7))
        return sb_err_set(c->err, SB_EUNSUPPORTED, "SPDX version '%.16s' is not read (SPDX-2.x JSON is)",
                          ver ? ver : "");
    c->l->version = 2;
    json_t *pkgs = json_object_get(root, "packages"), *rels = json_object_get(root, "relationships"), *e;
    json_t *extracted = json_object_get(root, "hasExtractedLicensingInfos");
    if (NULL != pkgs && !json_is_array(pkgs))
        return sb_err_set(c->err, SB_EPARSE, "packages: not an array");
    if (NULL != rels && !json_is_array(rels))
        return sb_err_set(c->err, SB_EPARSE, "relationships: not an array");
    size_t i;
    /* the root: what the document describes, when that is one package */
    const char *described = NULL;
    int ndescribed = 0;
    json_t *dd = json_object_get(root, "documentDescribes");
    json_array_foreach(dd, i, e)
        if (json_is_string(e) && (!described || strcmp(described, json_string_value(e)))) {
            described = json_string_value(e);
            ndescribed++;
        }
    json_array_foreach(rels, i, e) {
        const char *from = sb_sbomin__jstr(c, e, "spdxElementId"), *type = sb_sbomin__jstr(c, e, "relationshipType");
        const char *to = sb_sbomin__jstr(c, e, "relatedSpdxElement");
        if (from && type && to && !strcmp(from, "SPDXRef-DOCUMENT") && !strcmp(type, "DESCRIBES") &&
            (!described || strcmp(described, to))) {
            described = to;
            ndescribed++;
        }
    }
    const char *env = NULL, *plat = NULL;
    json_t *rootpkg = NULL;
    json_array_foreach(pkgs, i, e) {
        const char *id = sb_sbomin__jstr(c, e, "SPDXID");
        if (1 == ndescribed && id && !strcmp(id, described))
            rootpkg = e;
    }
    sb_sbomin__root_source(c, rootpkg ? sb_sbomin__jstr(c, rootpkg, "sourceInfo") : NULL, &env, &plat);
    sb_lock_origin *o = c->origin;
    o->source = sb_sbomin__jstr(c, root, "documentNamespace");
    json_t *ci = json_object_get(root, "creationInfo");
    json_t *creators = json_object_get(ci, "creators");
    for (size_t k = 0; k < json_array_size(creators); k++) {
        const json_t *cr = json_array_get(creators, k);
        o->ours |= json_is_string(cr) &&
                   !strncmp(json_string_value(cr), "Tool: " SB_TOOL_NAME "-", strlen("Tool: " SB_TOOL_NAME "-")) &&
                   env && plat;
    }
    static const char ns_prefix[] = "https://spdx.org/spdxdocs/" SB_TOOL_NAME "/";
    const char *slash = o->source && !strncmp(o->source, ns_prefix, sizeof ns_prefix - 1) ? strrchr(o->source, '/')
                                                                                          : NULL;
    if (slash && strlen(slash + 1) == 36)
        sb_sbomin__uuid_from(o, slash + 1);
    o->format = !strcmp(ver, "SPDX-2.3") ? "spdx-2.3" : NULL;
    o->timestamp = sb_sbomin__stamp(sb_sbomin__jstr(c, ci, "created"));
    o->kind = sb_sbomin__kind_before(c, sb_sbomin__jstr(c, ci, "comment"), ", resolved dependencies)");
    sb_code rc = rootpkg ? sb_sbomin__root_facts(c, sb_sbomin__jstr(c, rootpkg, "comment")) : SB_OK;
    if (rc == SB_OK)
        rc = sb_sbomin__place(c, env, plat);
    if (rc != SB_OK)
        return rc;
    if (rootpkg) {
        c->root_key = described;
        c->l->root_name = sb_sbomin__jstr(c, rootpkg, "name");
        c->l->root_version = sb_sbomin__jstr(c, rootpkg, "versionInfo");
    }
    json_array_foreach(pkgs, i, e)
        if (e != rootpkg && (rc = spdx_package(c, e, i, extracted)) != SB_OK)
            return rc;
    int any_dep = 0;
    unsigned char *starts = sb_arena_calloc(c->a, c->n ? c->n : 1, 1); /* per package: a crossing edge starts there */
    if (NULL == starts)
        return sb_sbomin__oom(c);
    json_array_foreach(rels, i, e) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *from = sb_sbomin__jstr(c, e, "spdxElementId"), *type = sb_sbomin__jstr(c, e, "relationshipType");
        const char *to = sb_sbomin__jstr(c, e, "relatedSpdxElement");
        if (NULL == from || NULL == type || NULL == to)
            continue;
        int rev;
        sb_scope sc = reversed_dep(type, &rev);
        if (sb_sbomin__spdx_none(to)) {
            if (!strcmp(to, "NOASSERTION") && !strcmp(type, "DEPENDS_ON"))
                c->l->no_dep_data = true;
            continue;
        }
        if (!strcmp(type, "DEPENDS_ON") || (!strcmp(type, "CONTAINS") && c->root_key && !strcmp(from, c->root_key))) {
            any_dep = 1;
            rc = sb_sbomin__edge(c, from, to);
        } else if (rev) {
            any_dep = 1;
            size_t k;
            if (sc != SB_SCOPE_NONE && sb_strmap_get(&c->by_key, from, strlen(from), &k))
                c->pkgs[k]->scope = sb_scope_merge(c->pkgs[k]->scope, sc);
            if (sc != SB_SCOPE_NONE && sb_strmap_get(&c->by_key, to, strlen(to), &k))
                starts[k] = 1;
            rc = sb_sbomin__edge(c, to, from);
        }
        if (rc != SB_OK)
            return rc;
    }
    /* an edge written reversed into a development group or an extra starts
     * outside it (sbomd writes one only where the scopes cross): a start
     * that has no scope of its own is required, else written again the
     * edge would be a plain DEPENDS_ON */
    for (size_t k = 0; k < c->n; k++)
        if (starts[k] && SB_SCOPE_NONE == c->pkgs[k]->scope)
            c->pkgs[k]->scope = SB_SCOPE_REQUIRED;
    if (!any_dep && c->n)
        c->l->no_dep_data = true;
    return SB_OK;
}

static sb_code spdx_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    sb_sbomin c;
    json_t *root;
    sb_code rc = sb_sbomin__start(&c, a, lim, err, "spdx");
    if (rc == SB_OK && (rc = sb_sbomin__parse(&c, &root, data, len, "SPDX")) == SB_OK) {
        rc = json_object_get(root, "@graph") ? sb_sbomin__spdx3_body(&c, root) : spdx_body(&c, root);
        json_decref(root);
    }
    return rc == SB_OK ? sb_sbomin__finish(&c, out, data, len) : rc;
}

const sb_reader sb_reader_spdx = {.kind = "spdx",
                                  .detect = spdx_detect,
                                  .read = spdx_read,
                                  .record_line = NULL,
                                  .record_char = 0,
                                  .per_record = 0,
                                  .per_byte = 12};
