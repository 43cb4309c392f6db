/*
 * lock_cyclonedx.c - CycloneDX 1.4-1.7 JSON as input (sb_reader_cyclonedx),
 * read into the model through the helpers of lock_sbom.c.
 *
 * What is read (everything else is ignored): metadata.component (the root:
 * name, version, bom-ref), metadata.properties pixi:environment /
 * pixi:platform / pixi:lockfile and sbomd's document facts, metadata.tools
 * and serialNumber (provenance), components[] (nested ones too) {bom-ref,
 * name, version, description, scope, supplier.name, purl, hashes, licenses,
 * externalReferences, properties}, dependencies[] {ref, dependsOn},
 * compositions (sbomd's "no dependency data").
 */
#include "lock_sbom_int.h"
#include "purl.h"
#include "version.h"

#include <string.h>

static int cdx_detect(const char *data, size_t len, const char *filename)
{
    (void)filename;
    return sb_sbomin__json_with(data, len, "\"bomFormat\"") && sb_sbomin__json_with(data, len, "\"CycloneDX\"") ? 3 : 0;
}

/* licenses[] -> one raw expression: entries joined with AND, compound ones
 * parenthesized; a named license that is one of the package's license
 * files (pixi:license-file) is a file, not a term. */
static sb_code cdx_licenses(sb_sbomin *c, sb_pkg *p, json_t *arr)
{
    if (!json_is_array(arr))
        return SB_OK;
    sb_strb acc = {0}; /* appended, not re-printed: 8,000 licenses stay linear */
    int any = 0;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) {
        const char *term = sb_sbomin__jstr(c, e, "expression");
        json_t *lo = json_object_get(e, "license");
        if (NULL == term && json_is_object(lo)) {
            term = sb_sbomin__jstr(c, lo, "id");
            if (NULL == term) {
                term = sb_sbomin__jstr(c, lo, "name");
                for (uint32_t k = 0; term && k < sb_pkg_xr(p)->nlicfiles; k++)
                    if (!strcmp(term, p->x->licfiles[k].name) && json_object_get(lo, "acknowledgement") == NULL)
                        term = NULL;
            }
        }
        if (NULL == term)
            continue;
        int compound = strchr(term, ' ') != NULL;
        if (!any++) { /* a first term is kept as written */
            if (sb_strb_add(&acc, c->a, NULL, term) != SB_OK)
                return sb_sbomin__oom(c);
            continue;
        }
        if (sb_strb_add(&acc, c->a, compound ? " AND (" : " AND ", term) != SB_OK ||
            (compound && sb_strb_add(&acc, c->a, NULL, ")") != SB_OK))
            return sb_sbomin__oom(c);
    }
    p->license = acc.s;
    return SB_OK;
}

static sb_code cdx_component(sb_sbomin *c, json_t *o, const char *where, size_t idx);

static sb_code cdx_components(sb_sbomin *c, json_t *arr, const char *where)
{
    if (NULL == arr)
        return SB_OK;
    if (!json_is_array(arr))
        return sb_err_set(c->err, SB_EPARSE, "%s: not an array", where);
    if (++c->depth > c->lim->max_depth)
        return sb_err_set(c->err, SB_ELIMIT, "components nested deeper than %u", c->lim->max_depth);
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) {
        sb_code rc = cdx_component(c, e, where, i);
        if (rc != SB_OK)
            return rc;
    }
    c->depth--;
    return SB_OK;
}

static sb_code cdx_component(sb_sbomin *c, json_t *o, const char *where, size_t idx)
{
    if (!json_is_object(o))
        return sb_err_set(c->err, SB_EPARSE, "%s[%zu]: not an object", where, idx);
    const char *name = sb_sbomin__jstr(c, o, "name");
    if (NULL == name || sb_sbomin__has_nul(json_object_get(o, "name")))
        return sb_err_set(c->err, SB_EPARSE, "%s[%zu]: a component without a name", where, idx);
    sb_pkg *p;
    sb_code rc = sb_sbomin__new_pkg(c, &p, sb_sbomin__jstr(c, o, "bom-ref"));
    if (rc != SB_OK)
        return rc;
    p->name = name;
    p->version = sb_sbomin__jstr(c, o, "version");
    const char *summary = sb_sbomin__jstr(c, o, "description");
    if (summary && NULL == sb_pkg_x(p, c->a)) /* out of line: only records that have one */
        return sb_sbomin__oom(c);
    if (summary)
        p->x->summary = summary;
    const char *scope = sb_sbomin__jstr(c, o, "scope");
    if (scope)
        p->scope = !strcmp(scope, "required")   ? SB_SCOPE_REQUIRED
                   : !strcmp(scope, "optional") ? SB_SCOPE_OPTIONAL
                                                : SB_SCOPE_NONE;
    const char *purl = sb_sbomin__jstr(c, o, "purl");
    if (purl) {
        sb_purl pu;
        if (sb_purl_parse(&pu, c->a, purl, NULL) != SB_OK)
            return sb_err_set(c->err, SB_EPARSE, "component '%.64s': purl '%.128s' is not a valid purl", name, purl);
        sb_pkgx *x = sb_pkg_x(p, c->a);
        if (NULL == x)
            return sb_sbomin__oom(c);
        x->given_purl = purl;
    }
    /* properties first: license file names decide which licenses[] entries are files */
    int kind_given = 0;
    json_t *props = json_object_get(o, "properties"), *e;
    size_t i;
    if (json_is_array(props))
        json_array_foreach(props, i, e) {
            const char *pn = sb_sbomin__jstr(c, e, "name"), *pv = sb_sbomin__jstr(c, e, "value");
            kind_given |= pn && !strcmp(pn, "pixi:kind");
            if ((rc = sb_sbomin__add_prop(c, p, pn, pv)) != SB_OK)
                return rc;
        }
    sb_sbomin__kind_from_purl(c, p, kind_given);
    json_t *hashes = json_object_get(o, "hashes");
    if (json_is_array(hashes))
        json_array_foreach(hashes, i, e)
            if ((rc = sb_sbomin__set_hash(c, p, sb_sbomin__jstr(c, e, "alg"), sb_sbomin__jstr(c, e, "content"))) !=
                SB_OK)
                return rc;
    if ((rc = cdx_licenses(c, p, json_object_get(o, "licenses"))) != SB_OK)
        return rc;
    json_t *refs = json_object_get(o, "externalReferences");
    if (json_is_array(refs))
        json_array_foreach(refs, i, e) {
            const char *type = sb_sbomin__jstr(c, e, "type"), *url = sb_sbomin__jstr(c, e, "url");
            if (NULL == type || NULL == url)
                continue;
            if (!strcmp(type, "distribution") && NULL == p->location)
                p->location = url;
            else if (!strcmp(type, "vcs") && !strncmp(url, "git+", 4) && NULL == p->location)
                p->location = url;
            else if (!strcmp(type, "vcs") || !strcmp(type, "website") || !strcmp(type, "documentation")) {
                sb_pkgx *x = sb_pkg_x(p, c->a); /* out of line: only records that have one */
                if (NULL == x)
                    return sb_sbomin__oom(c);
                const char **f = !strcmp(type, "vcs")       ? &x->repository
                                 : !strcmp(type, "website") ? &x->homepage
                                                            : &x->documentation;
                if (NULL == *f) /* the first of each type */
                    *f = url;
            }
        }
    json_t *sup = json_object_get(o, "supplier");
    if (sb_sbomin__supplier_as_stated(p) && json_is_object(sup))
        p->supplier_name = sb_sbomin__jstr(c, sup, "name");
    return cdx_components(c, json_object_get(o, "components"), "components");
}

static sb_code cdx_body(sb_sbomin *c, json_t *root)
{
    const char *spec = sb_sbomin__jstr(c, root, "specVersion");
    if (NULL == spec)
        return sb_err_set(c->err, SB_EPARSE, "CycloneDX: no specVersion");
    if (strcmp(spec, "1.4") && strcmp(spec, "1.5") && strcmp(spec, "1.6") && strcmp(spec, "1.7"))
        return sb_err_set(c->err, SB_EUNSUPPORTED, "CycloneDX %.16s is not read (1.4 to 1.7 are)", spec);
    c->l->version = spec[2] - '0';
    json_t *meta = json_object_get(root, "metadata");
    const char *env = NULL, *plat = NULL;
    json_t *mp = json_object_get(meta, "properties"), *e;
    size_t i;
    if (json_is_array(mp))
        json_array_foreach(mp, i, e) {
            const char *pn = sb_sbomin__jstr(c, e, "name");
            if (pn && !strcmp(pn, "pixi:environment"))
                env = sb_sbomin__jstr(c, e, "value");
            else if (pn && !strcmp(pn, "pixi:platform"))
                plat = sb_sbomin__jstr(c, e, "value");
            else if (pn && !strcmp(pn, "pixi:lockfile"))
                c->l->lockfile_name = sb_sbomin__jstr(c, e, "value");
            else
                sb_sbomin__doc_fact(c, pn, sb_sbomin__jstr(c, e, "value"));
        }
    sb_lock_origin *o = c->origin;
    o->source = sb_sbomin__jstr(c, root, "serialNumber");
    if (o->source && !strncmp(o->source, "urn:uuid:", 9))
        sb_sbomin__uuid_from(o, o->source + 9);
    /* sbomd's own: its tool entry (1.5+: tools.components) and its facts */
    json_t *tools = json_object_get(json_object_get(meta, "tools"), "components");
    json_array_foreach(tools, i, e) {
        const char *tn = sb_sbomin__jstr(c, e, "name");
        o->ours |= tn && !strcmp(tn, SB_TOOL_NAME) && env && plat;
    }
    o->format = !strcmp(spec, "1.6") ? "cyclonedx-1.6" : !strcmp(spec, "1.7") ? "cyclonedx-1.7" : NULL;
    o->timestamp = sb_sbomin__stamp(sb_sbomin__jstr(c, meta, "timestamp"));
    const char *note = sb_sbomin__jstr(c, json_array_get(json_object_get(root, "citations"), 0), "note");
    if (NULL == o->kind && note && !strncmp(note, "Derived from the ", 17)) {
        /* 1.7: "Derived from the KIND LOCKFILE (environment ...": the kind may
         * hold spaces ("conda explicit spec"), the lockfile is known */
        const char *tail = sb_arena_printf(c->a, " %s (environment ",
                                           c->l->lockfile_name ? c->l->lockfile_name : "(unnamed)");
        const char *at = tail ? strstr(note + 17, tail) : NULL;
        o->kind = at ? sb_arena_strndup(c->a, note + 17, (size_t)(at - note - 17)) : NULL;
    }
    sb_code rc = sb_sbomin__place(c, env, plat);
    if (rc != SB_OK)
        return rc;
    json_t *mc = json_object_get(meta, "component");
    if (json_is_object(mc)) {
        c->l->root_name = sb_sbomin__jstr(c, mc, "name");
        c->l->root_version = sb_sbomin__jstr(c, mc, "version");
        c->root_key = sb_sbomin__jstr(c, mc, "bom-ref");
    }
    if ((rc = cdx_components(c, json_object_get(root, "components"), "components")) != SB_OK)
        return rc;
    json_t *deps = json_object_get(root, "dependencies");
    if (NULL == deps) {
        c->l->no_dep_data = true;
    } else if (!json_is_array(deps)) {
        return sb_err_set(c->err, SB_EPARSE, "dependencies: not an array");
    }
    json_array_foreach(deps, i, e) {
        const char *ref = sb_sbomin__jstr(c, e, "ref");
        json_t *on = json_object_get(e, "dependsOn"), *t;
        size_t k;
        if (NULL == ref || !json_is_array(on))
            continue;
        json_array_foreach(on, k, t) {
            if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
                return SB_ETIMEOUT;
            if (json_is_string(t) && (rc = sb_sbomin__edge(c, ref, json_string_value(t))) != SB_OK)
                return rc;
        }
    }
    /* sbomd's own statement that the input had no dependency data */
    json_t *comps = json_object_get(root, "compositions");
    json_array_foreach(comps, i, e) {
        const char *ref = sb_sbomin__jstr(c, e, "bom-ref"), *agg = sb_sbomin__jstr(c, e, "aggregate");
        if (ref && agg && !strcmp(ref, "composition-dependencies") && !strcmp(agg, "unknown"))
            c->l->no_dep_data = true;
    }
    return SB_OK;
}

static sb_code cdx_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    sb_sbomin c;
    json_t *root;
    sb_code rc = sb_sbomin__start(&c, a, lim, err, "cyclonedx");
    if (rc == SB_OK && (rc = sb_sbomin__parse(&c, &root, data, len, "CycloneDX")) == SB_OK) {
        const char *fmt = sb_sbomin__jstr(&c, root, "bomFormat");
        rc = fmt && !strcmp(fmt, "CycloneDX") ? cdx_body(&c, root)
                                              : sb_err_set(err, SB_EPARSE, "CycloneDX: bomFormat is not \"CycloneDX\"");
        json_decref(root);
    }
    return rc == SB_OK ? sb_sbomin__finish(&c, out, data, len) : rc;
}

const sb_reader sb_reader_cyclonedx = {.kind = "cyclonedx",
                                       .detect = cdx_detect,
                                       .read = cdx_read,
                                       .record_line = NULL,
                                       .record_char = 0,
                                       .per_record = 0,
                                       .per_byte = 12};
