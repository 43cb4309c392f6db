/*
 * lock_spdx3.c - SPDX 3.0.1 JSON-LD as input: the @graph of a document that
 * sb_reader_spdx (lock_spdx.c) found to have one, read into the model
 * through the helpers of lock_sbom.c.
 *
 * What is read (everything else is ignored): the software_Sbom's root
 * element (else the SpdxDocument's) as the root, software_Package {spdxId,
 * name, software_packageVersion, summary, software_downloadLocation,
 * software_sourceInfo, software_homePage, software_packageUrl,
 * externalIdentifier packageUrl, verifiedUsing, suppliedBy -> the
 * Organization's name, comment}, Relationships hasDeclaredLicense (else
 * hasConcludedLicense) to a simplelicensing_LicenseExpression or
 * SimpleLicensingText (its name), dependsOn (LifecycleScopedRelationship
 * scope development: the target's scope; NoAssertionElement: no data).
 * It cannot hold the required / optional scopes, only the crossings into a
 * development group.
 */
#include "lock_sbom_int.h"
#include "purl.h"
#include "version.h"

#include <string.h>

/* An element of the @graph by its spdxId; NULL when the graph has none. */
static json_t *spdx3_elem(const sb_strmap *ids, json_t *graph, const char *id)
{
    size_t i;
    return id && sb_strmap_get(ids, id, strlen(id), &i) ? json_array_get(graph, i) : NULL;
}

static int type_is(json_t *o, const char *type)
{
    json_t *t = json_object_get(o, "type");
    return json_is_string(t) && !strcmp(json_string_value(t), type);
}

/* The license a license element stands for: a LicenseExpression's
 * expression, a SimpleLicensingText's name (sbomd writes the original text
 * there, the file's content as its licenseText). */
static const char *spdx3_license(sb_sbomin *c, json_t *el)
{
    if (type_is(el, "simplelicensing_LicenseExpression")) {
        const char *v = sb_sbomin__jstr(c, el, "simplelicensing_licenseExpression");
        return sb_sbomin__spdx_none(v) ? NULL : v;
    }
    if (type_is(el, "simplelicensing_SimpleLicensingText"))
        return sb_sbomin__jstr(c, el, "name");
    return NULL;
}

static sb_code spdx3_package(sb_sbomin *c, json_t *o, size_t idx, const sb_strmap *ids, json_t *graph)
{
    const char *name = sb_sbomin__jstr(c, o, "name"), *id = sb_sbomin__jstr(c, o, "spdxId");
    if (NULL == name || sb_sbomin__has_nul(json_object_get(o, "name")))
        return sb_err_set(c->err, SB_EPARSE, "@graph[%zu]: a software_Package without a name", idx);
    if (NULL == id)
        return sb_err_set(c->err, SB_EPARSE, "@graph[%zu]: a software_Package without an spdxId", idx);
    sb_pkg *p;
    sb_code rc = sb_sbomin__new_pkg(c, &p, id);
    if (rc != SB_OK)
        return rc;
    p->name = name;
    p->version = sb_sbomin__jstr(c, o, "software_packageVersion");
    const char *summary = sb_sbomin__jstr(c, o, "summary");
    if (NULL == summary)
        summary = sb_sbomin__jstr(c, o, "description");
    p->location = sb_sbomin__jstr(c, o, "software_downloadLocation");
    const char *si = sb_sbomin__jstr(c, o, "software_sourceInfo");
    if (si && NULL == p->location && !strncmp(si, "built from source at ", 21))
        p->location = si + 21;
    const char *hp = sb_sbomin__jstr(c, o, "software_homePage");
    if ((summary || hp) && NULL == sb_pkg_x(p, c->a)) /* out of line: only records that have them */
        return sb_sbomin__oom(c);
    if (summary)
        p->x->summary = summary;
    if (hp)
        p->x->homepage = hp;
    int kind_given = 0;
    if ((rc = sb_sbomin__spdx_comment(c, p, sb_sbomin__jstr(c, o, "comment"), &kind_given)) != SB_OK)
        return rc;
    sb_pkgx *x = sb_pkg_x(p, c->a);
    if (NULL == x)
        return sb_sbomin__oom(c);
    x->lock_purls.n = 0; /* pixi:purl lines repeat the packageUrl identifiers */
    const char *purl = sb_sbomin__jstr(c, o, "software_packageUrl");
    json_t *ext = json_object_get(o, "externalIdentifier"), *e;
    size_t i;
    json_array_foreach(ext, i, e) {
        const char *t = sb_sbomin__jstr(c, e, "externalIdentifierType"), *v = sb_sbomin__jstr(c, e, "identifier");
        if (NULL == t || NULL == v || strcmp(t, "packageUrl"))
            continue;
        if (NULL == purl) /* no software_packageUrl: the first identifier is the package's own */
            purl = v;
        else if (sb_strv_push(&x->lock_purls, c->a, v) != SB_OK)
            return sb_sbomin__oom(c);
    }
    if (purl) {
        sb_purl pu;
        if (sb_purl_parse(&pu, c->a, purl, NULL) != SB_OK)
            return sb_err_set(c->err, SB_EPARSE, "package '%.64s': purl '%.128s' is not a valid purl", name, purl);
        x->given_purl = purl;
    }
    for (size_t k = 0; k < x->lock_purls.n; k++) {
        sb_purl pu;
        if (sb_purl_parse(&pu, c->a, x->lock_purls.v[k], NULL) != SB_OK)
            return sb_err_set(c->err, SB_EPARSE, "package '%.64s': purl '%.128s' is not a valid purl", name,
                              x->lock_purls.v[k]);
    }
    sb_sbomin__kind_from_purl(c, p, kind_given);
    json_t *sums = json_object_get(o, "verifiedUsing");
    json_array_foreach(sums, i, e)
        if ((rc = sb_sbomin__set_hash(c, p, sb_sbomin__jstr(c, e, "algorithm"), sb_sbomin__jstr(c, e, "hashValue"))) !=
            SB_OK)
            return rc;
    json_t *sup = spdx3_elem(ids, graph, sb_sbomin__jstr(c, o, "suppliedBy"));
    if (sb_sbomin__supplier_as_stated(p) && json_is_object(sup))
        p->supplier_name = sb_sbomin__jstr(c, sup, "name");
    return SB_OK;
}

sb_code sb_sbomin__spdx3_body(sb_sbomin *c, json_t *root)
{
    json_t *graph = json_object_get(root, "@graph"), *e;
    if (!json_is_array(graph))
        return sb_err_set(c->err, SB_EPARSE, "SPDX 3: @graph is not an array");
    c->l->version = 3;
    size_t i, n = json_array_size(graph);
    sb_strmap ids;
    if (sb_strmap_init(&ids, c->a, n ? n : 1) != SB_OK)
        return sb_sbomin__oom(c);
    const char *ver = NULL;
    const char *root_id = NULL, *doc_root = NULL;
    json_array_foreach(graph, i, e) {
        if (!json_is_object(e))
            return sb_err_set(c->err, SB_EPARSE, "@graph[%zu]: not an object", i);
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        json_t *id = json_object_get(e, "spdxId");
        if (json_is_string(id) &&
            sb_strmap_put(&ids, json_string_value(id), strlen(json_string_value(id)), i, NULL) < 0)
            return sb_sbomin__oom(c);
        if (type_is(e, "CreationInfo") && NULL == ver)
            ver = sb_sbomin__jstr(c, e, "specVersion");
        /* the root: the Sbom's root element, else the document's */
        json_t *re = json_array_get(json_object_get(e, "rootElement"), 0);
        if (json_is_string(re) && type_is(e, "software_Sbom") && NULL == root_id)
            root_id = json_string_value(re);
        else if (json_is_string(re) && type_is(e, "SpdxDocument") && NULL == doc_root)
            doc_root = json_string_value(re);
    }
    if (ver && strncmp(ver, "3.0", 3))
        return sb_err_set(c->err, SB_EUNSUPPORTED, "SPDX version '%.16s' is not read (SPDX 3.0.x JSON-LD is)", ver);
    if (NULL == root_id)
        root_id = doc_root;
    json_t *rootpkg = spdx3_elem(&ids, graph, root_id);
    if (!type_is(rootpkg, "software_Package"))
        rootpkg = NULL; /* a root that is no package (an Sbom of files): no root */
    const char *env = NULL, *plat = NULL;
    sb_sbomin__root_source(c, rootpkg ? sb_sbomin__jstr(c, rootpkg, "software_sourceInfo") : NULL, &env, &plat);
    sb_lock_origin *o = c->origin;
    json_t *ci = NULL;
    json_array_foreach(graph, i, e) {
        const char *nm = sb_sbomin__jstr(c, e, "name");
        if (type_is(e, "SpdxDocument") && NULL == o->source)
            o->source = sb_sbomin__jstr(c, e, "spdxId");
        else if (type_is(e, "CreationInfo") && NULL == ci)
            ci = e;
        else if (type_is(e, "Tool") && nm && !strcmp(nm, SB_TOOL_NAME))
            o->ours = env && plat;
    }
    static const char ns_prefix[] = "https://spdx.org/spdxdocs/" SB_TOOL_NAME "/";
    const char *rid = rootpkg ? sb_sbomin__jstr(c, rootpkg, "spdxId") : NULL, *hash = rid ? strrchr(rid, '#') : NULL;
    if (hash && hash - rid > 36 && !strncmp(rid, ns_prefix, sizeof ns_prefix - 1) && hash[-37] == '/')
        sb_sbomin__uuid_from(o, hash - 36);
    o->format = ver && !strcmp(ver, "3.0.1") ? "spdx-3.0.1" : NULL;
    o->timestamp = sb_sbomin__stamp(ci ? sb_sbomin__jstr(c, ci, "created") : NULL);
    o->kind = sb_sbomin__kind_before(c, ci ? sb_sbomin__jstr(c, ci, "comment") : NULL, ", environment ");
    sb_code rc = rootpkg ? sb_sbomin__root_facts(c, sb_sbomin__jstr(c, rootpkg, "comment")) : SB_OK;
    if (rc == SB_OK)
        rc = sb_sbomin__place(c, env, plat);
    if (rc != SB_OK)
        return rc;
    if (rootpkg) {
        c->root_key = sb_sbomin__jstr(c, rootpkg, "spdxId");
        c->l->root_name = sb_sbomin__jstr(c, rootpkg, "name");
        c->l->root_version = sb_sbomin__jstr(c, rootpkg, "software_packageVersion");
    }
    json_array_foreach(graph, i, e)
        if (e != rootpkg && type_is(e, "software_Package") && (rc = spdx3_package(c, e, i, &ids, graph)) != SB_OK)
            return rc;
    /* licenses (declared before concluded) and the graph */
    int any_dep = 0;
    json_array_foreach(graph, i, e) {
        if (!type_is(e, "Relationship") && !type_is(e, "LifecycleScopedRelationship"))
            continue;
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *from = sb_sbomin__jstr(c, e, "from"), *type = sb_sbomin__jstr(c, e, "relationshipType");
        json_t *to = json_object_get(e, "to"), *t;
        size_t k, at;
        if (NULL == from || NULL == type || !json_is_array(to))
            continue;
        int declared = !strcmp(type, "hasDeclaredLicense");
        if (declared || !strcmp(type, "hasConcludedLicense")) {
            if (!sb_strmap_get(&c->by_key, from, strlen(from), &at))
                continue; /* the root's license is the manifest's, not read from documents */
            sb_pkg *p = c->pkgs[at];
            const char *lic = spdx3_license(c, spdx3_elem(&ids, graph, json_string_value(json_array_get(to, 0))));
            if (lic && (declared || NULL == p->license))
                p->license = lic;
            continue;
        }
        int deps = !strcmp(type, "dependsOn") ||
                   (!strcmp(type, "contains") && c->root_key && !strcmp(from, c->root_key));
        if (!deps)
            continue;
        const char *scope = sb_sbomin__jstr(c, e, "scope");
        int dev = type_is(e, "LifecycleScopedRelationship") && scope && !strcmp(scope, "development");
        /* an edge into a development group starts outside it (sbomd writes
         * one only where the scopes cross): its start is at least required,
         * else written again the edge would be a plain one */
        if (dev && sb_strmap_get(&c->by_key, from, strlen(from), &at) && SB_SCOPE_NONE == c->pkgs[at]->scope)
            c->pkgs[at]->scope = SB_SCOPE_REQUIRED;
        json_array_foreach(to, k, t) {
            if (!json_is_string(t))
                continue;
            const char *tid = json_string_value(t);
            if (!strcmp(tid, "NoAssertionElement")) {
                c->l->no_dep_data = true;
                continue;
            }
            if (!strcmp(tid, "NoneElement")) {
                any_dep = 1; /* stated: depends on nothing */
                continue;
            }
            any_dep = 1;
            if (dev && sb_strmap_get(&c->by_key, tid, strlen(tid), &at))
                c->pkgs[at]->scope = sb_scope_merge(c->pkgs[at]->scope, SB_SCOPE_DEVELOPMENT);
            if ((rc = sb_sbomin__edge(c, from, tid)) != SB_OK)
                return rc;
        }
    }
    if (!any_dep && c->n)
        c->l->no_dep_data = true;
    return SB_OK;
}
