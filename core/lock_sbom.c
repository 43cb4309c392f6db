/*
 * lock_sbom.c - existing SBOMs as input: CycloneDX 1.4-1.7 JSON, SPDX 2.x
 * JSON and SPDX 3.0.1 JSON-LD documents read into the one model, as the lockfile
 * readers fill it, so every output, report, policy and diff takes them.
 *
 * What is read (everything else is ignored):
 *   CycloneDX: metadata.component (the root: name, version, bom-ref),
 *     metadata.properties pixi:environment / pixi:platform, components[]
 *     (nested ones too) {bom-ref, name, version, description, scope,
 *     supplier.name, purl, hashes, licenses, externalReferences,
 *     properties}, dependencies[] {ref, dependsOn}.
 *   SPDX 2.x: packages[] {SPDXID, name, versionInfo, downloadLocation,
 *     homepage, summary, licenseDeclared (else licenseConcluded), checksums,
 *     externalRefs purl, sourceInfo, comment}, documentDescribes,
 *     relationships (DESCRIBES, DEPENDS_ON, CONTAINS from the root, and the
 *     *_DEPENDENCY_OF ones reversed), hasExtractedLicensingInfos.
 *   SPDX 3.0.1 JSON-LD (@graph): the software_Sbom's root element (else the
 *     SpdxDocument's) as the root, software_Package {spdxId, name,
 *     software_packageVersion, summary, software_downloadLocation,
 *     software_sourceInfo, software_homePage, software_packageUrl,
 *     externalIdentifier packageUrl, verifiedUsing, suppliedBy -> the
 *     Organization's name, comment}, Relationships hasDeclaredLicense (else
 *     hasConcludedLicense) to a simplelicensing_LicenseExpression or
 *     SimpleLicensingText (its name), dependsOn (LifecycleScopedRelationship
 *     scope development: the target's scope; NoAssertionElement: no data).
 *     It cannot hold the required / optional scopes, only the crossings
 *     into a development group.
 * Identity: a package's purl as the document states it is kept as its
 * primary purl (sb_pkgx.given_purl); its kind is its pixi:kind property when
 * it has one, else the purl's type (conda, pypi, npm), else `external`. Edges
 * go by the document's own ids (bom-ref / SPDXID) through sb_pkg.key.
 * pixi:* properties (CycloneDX properties, SPDX `comment` lines) come back as
 * reader properties, and the fields derive() recomputes them from are
 * restored so an sbomd document reads back as it was written; the per-request
 * verdicts (pixi:license-violation / -exempt) are not carried over.
 *
 * The document is parsed with jansson (its tree is bounded by the service's
 * body limit and memory estimate; nesting beyond jansson's own depth bound is
 * a parse error). Nothing of the tree outlives the read: what is kept is
 * copied into the arena.
 */
#include "lock_int.h"
#include "deadline.h"
#include "purl.h"
#include "strmap.h"
#include "uuid.h"
#include "version.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct sbin {
    sb_arena *a;
    sb_err *err;
    const sb_limits *lim;
    sb_deadline dl;
    sb_lock *l;
    sb_lock_platform *plat;
    sb_strmap by_key; /* document id -> package index */
    sb_pkg **pkgs;
    size_t n, cap;
    const char *root_key; /* the root's id, NULL when none */
    unsigned depth;
    sb_lock_origin *origin; /* what names the document, and what it states when sbomd wrote it */
} sbin;

static sb_code oom(sbin *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static const char *jstr(sbin *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) && json_string_length(v)
               ? sb_arena_strndup(c->a, json_string_value(v), json_string_length(v))
               : NULL;
}

/* strings must be text: jansson accepts \u0000 inside one */
static int has_nul(json_t *v)
{
    return json_is_string(v) && strlen(json_string_value(v)) != json_string_length(v);
}

static sb_code parse(sbin *c, json_t **root, const char *data, size_t len, const char *what)
{
    json_error_t je;
    *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (NULL == *root)
        return sb_err_set_at(c->err, SB_EPARSE, (unsigned)(je.line > 0 ? je.line : 1),
                             (unsigned)(je.column > 0 ? je.column : 1), "%s: %s", what, je.text);
    if (!json_is_object(*root)) {
        json_decref(*root);
        *root = NULL;
        return sb_err_set(c->err, SB_EPARSE, "%s: the document is not a JSON object", what);
    }
    return SB_OK;
}

/* ---- detection ----------------------------------------------------------- */

/* A JSON object whose first kilobytes hold `needle` as a key. */
static int json_with(const char *data, size_t len, const char *needle)
{
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    if (i >= len || data[i] != '{')
        return 0;
    size_t n = len < 4096 ? len : 4096, k = strlen(needle);
    for (size_t p = i; p + k <= n; p++)
        if (!memcmp(data + p, needle, k))
            return 1;
    return 0;
}

static int cdx_detect(const char *data, size_t len, const char *filename)
{
    (void)filename;
    return json_with(data, len, "\"bomFormat\"") && json_with(data, len, "\"CycloneDX\"") ? 3 : 0;
}

static int spdx_detect(const char *data, size_t len, const char *filename)
{
    (void)filename;
    return json_with(data, len, "\"spdxVersion\"") ||
                   (json_with(data, len, "\"@context\"") && json_with(data, len, "spdx.org/rdf/3."))
               ? 3
               : 0;
}

/* ---- the model ----------------------------------------------------------- */

static int is_hex(const char *s, size_t want)
{
    size_t n = strlen(s);
    if (n != want)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* A digest by the names CycloneDX ("SHA-256") and SPDX ("SHA256") use. */
static sb_code set_hash(sbin *c, sb_pkg *p, const char *alg, const char *hex)
{
    if (NULL == alg || NULL == hex)
        return SB_OK;
    char norm[16];
    size_t o = 0;
    for (const char *s = alg; *s && o + 1 < sizeof norm; s++)
        if (*s != '-' && *s != '_')
            norm[o++] = (char)toupper((unsigned char)*s);
    norm[o] = '\0';
    static const struct {
        const char *name;
        size_t hexlen;
        int slot;
    } algs[] = {
        {"SHA256", 64, 0}, {"MD5", 32, 1}, {"SHA512", 128, 2}, {"SHA384", 96, 3}, {"SHA1", 40, 4},
    };
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        if (strcmp(norm, algs[i].name))
            continue;
        if (!is_hex(hex, algs[i].hexlen))
            return sb_err_set(c->err, SB_EPARSE, "package '%.64s': %s digest is not %zu hex digits", p->name, alg,
                              algs[i].hexlen);
        if (algs[i].slot == 2 || algs[i].slot == 3) {
            /* kept in binary (sb_pkg.sha512b), written in lower case */
            const unsigned char *b = sb_hash_from_hex(c->a, hex, algs[i].hexlen / 2);
            if (NULL == b)
                return oom(c);
            *(algs[i].slot == 2 ? &p->sha512b : &p->sha384b) = b;
            continue;
        }
        char *h = sb_arena_strdup(c->a, hex);
        if (NULL == h)
            return oom(c);
        for (char *q = h; *q; q++)
            *q = (char)tolower((unsigned char)*q);
        switch (algs[i].slot) {
        case 0: p->sha256 = h; break;
        case 1: {
            sb_pkgx *x = sb_pkg_x(p, c->a);
            if (NULL == x)
                return oom(c);
            x->md5 = h;
            break;
        }
        default: p->sha1 = h; break;
        }
    }
    return SB_OK; /* other algorithms (BLAKE, SHA3) have no place in the model */
}

static int kind_by_name(const char *s, sb_kind *out)
{
    for (int k = SB_KIND_CONDA; k <= SB_KIND_NPM; k++)
        if (!strcmp(s, sb_kind_name((sb_kind)k))) {
            *out = (sb_kind)k;
            return 1;
        }
    return 0;
}

/* A property that lives in a model field: put it back there (derive() makes
 * the same property and the same supplier from it). 1 when it was one that
 * is not kept as a reader property. */
static int restore(sbin *c, sb_pkg *p, const char *name, const char *value, sb_code *rc)
{
    sb_pkgx *x;
    *rc = SB_OK;
    if (!strcmp(name, "pixi:kind")) {
        sb_kind k;
        if (kind_by_name(value, &k))
            p->kind = k;
        return 1;
    }
    if (!strcmp(name, "pixi:purl")) {
        if (NULL == (x = sb_pkg_x(p, c->a)) || sb_strv_push(&x->lock_purls, c->a, value) != SB_OK)
            *rc = oom(c);
        p->has_purls_key = true;
        return 1;
    }
    if (!strcmp(name, "pixi:license-file")) {
        sb_licfile *nf = sb_arena_alloc(c->a, (p->nlicfiles + 1) * sizeof *nf);
        if (NULL == nf) {
            *rc = oom(c);
            return 1;
        }
        if (p->nlicfiles)
            memcpy(nf, p->licfiles, p->nlicfiles * sizeof *nf);
        nf[p->nlicfiles++] = (sb_licfile){value, NULL, -1}; /* by name: the text is not ours to read */
        p->licfiles = nf;
        return 1;
    }
    if (!strcmp(name, "pixi:license-violation") || !strcmp(name, "pixi:license-exempt"))
        return 1; /* a verdict of the request that wrote it; this one has its own policy */
    if (!strcmp(name, "pixi:file-name"))
        p->file_name = value;
    else if (!strcmp(name, "pixi:requires-python"))
        p->requires_python = value;
    else if (!strcmp(name, "pixi:index-url"))
        p->index_url = value;
    else if (!strcmp(name, "pixi:editable"))
        p->editable = !strcmp(value, "true");
    else if (!strcmp(name, "pixi:noarch"))
        p->noarch = !strcmp(value, "true");
    else if (!strcmp(name, "pixi:scope")) /* npm's word (lock_js.c): the model's scope is made from it */
        p->scope = !strcmp(value, "dev") || !strcmp(value, "devOptional") ? SB_SCOPE_DEVELOPMENT
                   : !strcmp(value, "peer") || !strcmp(value, "optional") ? SB_SCOPE_OPTIONAL
                   : !strcmp(value, "required")                           ? SB_SCOPE_REQUIRED
                                                                          : p->scope;
    else if (!strncmp(name, "pixi:", 5)) {
        if (NULL == (x = sb_pkg_x(p, c->a))) {
            *rc = oom(c);
            return 1;
        }
        const char *f = name + 5;
        if (!strcmp(f, "channel"))
            x->channel = value;
        else if (!strcmp(f, "channel-url"))
            x->channel_url = value;
        else if (!strcmp(f, "subdir"))
            x->subdir = value;
        else if (!strcmp(f, "build"))
            x->build = value;
        else if (!strcmp(f, "license-family"))
            x->license_family = value;
        else if (!strcmp(f, "identifier-hash"))
            x->identifier_hash = value;
        else if (!strcmp(f, "build-number"))
            x->build_number = strtoll(value, NULL, 10);
        else if (!strcmp(f, "size"))
            x->size = strtoll(value, NULL, 10);
    }
    return 0;
}

static sb_code add_prop(sbin *c, sb_pkg *p, const char *name, const char *value)
{
    if (NULL == name || NULL == value || strncmp(name, "pixi:", 5))
        return SB_OK; /* other tools' properties have no meaning here */
    sb_code rc;
    if (restore(c, p, name, value, &rc) || rc != SB_OK)
        return rc;
    if (sb_strv_push(&p->reader_props, c->a, name) != SB_OK || sb_strv_push(&p->reader_props, c->a, value) != SB_OK)
        return oom(c);
    return SB_OK;
}

/* Kind from the purl's type when no pixi:kind said it. */
static void kind_from_purl(sbin *c, sb_pkg *p, int kind_given)
{
    const sb_pkgx *x = sb_pkg_xr(p);
    if (kind_given || NULL == x->given_purl)
        return;
    sb_purl pu;
    if (sb_purl_parse(&pu, c->a, x->given_purl, NULL) != SB_OK)
        return;
    p->kind = !strcmp(pu.type, "conda")  ? SB_KIND_CONDA
              : !strcmp(pu.type, "pypi") ? SB_KIND_PYPI
              : !strcmp(pu.type, "npm")  ? SB_KIND_NPM
                                         : SB_KIND_EXTERNAL;
}

/* Every package has a purl to be identified by: pkg:generic/name@version
 * when the document gives none. */
static sb_code ensure_purl(sbin *c, sb_pkg *p)
{
    sb_pkgx *x = sb_pkg_x(p, c->a);
    if (NULL == x)
        return oom(c);
    if (x->given_purl)
        return SB_OK;
    sb_purl pu = {.type = "generic", .name = p->name, .version = p->version};
    char *s = NULL;
    if (sb_purl_build(&s, c->a, &pu, NULL) != SB_OK || NULL == s)
        return sb_err_set(c->err, SB_EPARSE, "package '%.64s': no purl can be made for it", p->name);
    x->given_purl = s;
    return SB_OK;
}

static sb_code new_pkg(sbin *c, sb_pkg **out, const char *key)
{
    if (c->n >= c->lim->max_packages)
        return sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->lim->max_packages);
    if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
        return SB_ETIMEOUT;
    sb_pkg *p = sb_arena_calloc(c->a, 1, sizeof *p);
    if (NULL == p)
        return oom(c);
    p->kind = SB_KIND_EXTERNAL;
    sb_pkg **np = sb_arena_grow(c->a, c->pkgs, &c->cap, c->n, sizeof *np, 64);
    if (NULL == np)
        return oom(c);
    c->pkgs = np;
    p->key = key ? key : sb_arena_printf(c->a, "#%zu", c->n); /* no id: nothing can point at it */
    if (NULL == p->key)
        return oom(c);
    int dup = sb_strmap_put(&c->by_key, p->key, strlen(p->key), c->n, NULL);
    if (dup < 0)
        return oom(c);
    if (dup)
        return sb_err_set(c->err, SB_EPARSE, "the id '%.64s' names two packages", p->key);
    c->pkgs[c->n++] = p;
    *out = p;
    return SB_OK;
}

/* An edge from the document's id `from` to `to`: onto the package's
 * depends, or the root's names. Unknown ends are dropped (a document may
 * name files, snippets or other documents). */
static sb_code edge(sbin *c, const char *from, const char *to)
{
    size_t i;
    const char *t = sb_arena_strdup(c->a, to);
    if (NULL == t)
        return oom(c);
    if (c->root_key && !strcmp(from, c->root_key)) {
        c->plat->has_root_names = true;
        return sb_strv_push(&c->plat->root_names, c->a, t) == SB_OK ? SB_OK : oom(c);
    }
    if (!sb_strmap_get(&c->by_key, from, strlen(from), &i))
        return SB_OK;
    return sb_strv_push(&c->pkgs[i]->depends, c->a, t) == SB_OK ? SB_OK : oom(c);
}

static sb_code start(sbin *c, sb_arena *a, const sb_limits *lim, sb_err *err, const char *kind)
{
    memset(c, 0, sizeof *c);
    c->a = a;
    c->err = err;
    c->lim = lim;
    c->dl = (sb_deadline){lim->deadline_ns, 0, "reading the SBOM"};
    c->l = sb_arena_calloc(a, 1, sizeof *c->l);
    if (NULL == c->l || sb_strmap_init(&c->by_key, a, 1024) != SB_OK)
        return oom(c);
    c->l->kind = kind;
    c->l->version = 1;
    c->l->kind_unsure = true; /* "cyclonedx" is no file name: pixi:lockfile names one or none is recorded */
    c->origin = sb_arena_calloc(a, 1, sizeof *c->origin);
    return c->origin ? SB_OK : oom(c);
}

/* ---- the document's identity and provenance (sb_lock_origin) ------------- */

/* "YYYY-MM-DDTHH:MM:SSZ", as sbomd writes timestamps */
static const char *stamp(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    if (NULL == s || strlen(s) != sizeof shape - 1)
        return NULL;
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
            return NULL;
    return s;
}

/* The UUID s starts with (8-4-4-4-12 hex digits), into o->serial. */
static void uuid_from(sb_lock_origin *o, const char *s)
{
    if (NULL == s || strlen(s) < 36)
        return;
    for (size_t i = 0; i < 36; i++)
        if ((i == 8 || i == 13 || i == 18 || i == 23) ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
            return;
    memcpy(o->serial, s, 36);
    o->serial[36] = '\0';
}

/* The input kind out of "...lockfile NAME (KIND<end>...": the last " ("
 * before `end` (a file name may hold one; a kind does not). */
static const char *kind_before(sbin *c, const char *s, const char *end)
{
    const char *e = s ? strstr(s, end) : NULL, *k = NULL;
    for (const char *p = s; e && (p = strstr(p, " (")) && p < e; p += 2)
        k = p + 2;
    return k ? sb_arena_strndup(c->a, k, (size_t)(e - k)) : NULL;
}

/* A document-level fact sbomd writes (CycloneDX metadata.properties, the
 * SPDX root's comment lines). */
static void doc_fact(sbin *c, const char *name, const char *value)
{
    if (NULL == name || NULL == value)
        return;
    if (!strcmp(name, "pixi:incomplete"))
        c->origin->steps = value;
    else if (!strcmp(name, "pixi:incomplete-detail"))
        c->origin->detail = value;
    else if (!strcmp(name, "pixi:source-document"))
        c->origin->stated_source = value;
    else if (!strcmp(name, "pixi:input-kind"))
        c->origin->kind = value;
}

/* The SPDX root's comment: one pixi:name=value a line. */
static sb_code root_facts(sbin *c, const char *s)
{
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const char *eq = memchr(s, '=', n);
        if (eq && !strncmp(s, "pixi:", 5)) {
            const char *name = sb_arena_strndup(c->a, s, (size_t)(eq - s));
            const char *value = sb_arena_strndup(c->a, eq + 1, n - (size_t)(eq - s) - 1);
            if (NULL == name || NULL == value)
                return oom(c);
            doc_fact(c, name, value);
        }
        s = nl ? nl + 1 : NULL;
    }
    return SB_OK;
}

/* The one environment x platform the document describes: named by its
 * pixi:environment / pixi:platform when it is an sbomd document. */
static sb_code place(sbin *c, const char *env, const char *plat)
{
    sb_lock_env *e = sb_lock_env_get(c->l, c->a, env ? env : "default");
    c->plat = e ? sb_lock_platform_get(e, c->a, plat ? plat : "none") : NULL;
    return c->plat ? SB_OK : oom(c);
}

static sb_code finish(sbin *c, sb_lock **out, const char *data, size_t len)
{
    sb_lock_origin *o = c->origin;
    if (o->ours) { /* doc.c compares what it would write with these bytes */
        sb_sha1 h;
        sb_sha1_init(&h);
        sb_sha1_update(&h, data, len);
        sb_sha1_final(&h, o->sha1);
        o->len = len;
    } else { /* another tool's statements are not sbomd's to carry */
        o->format = o->timestamp = o->kind = o->steps = o->detail = o->stated_source = NULL;
        o->serial[0] = '\0';
    }
    c->l->origin = o;
    c->l->source_document = o->source;
    for (size_t i = 0; i < c->n; i++) {
        sb_code rc = ensure_purl(c, c->pkgs[i]);
        if (rc != SB_OK)
            return rc;
        if (sb_lock_platform_add(c->plat, c->a, c->pkgs[i]) != SB_OK)
            return oom(c);
    }
    c->l->nrecords = c->n;
    *out = c->l;
    return SB_OK;
}

/* ---- CycloneDX ----------------------------------------------------------- */

/* licenses[] -> one raw expression: entries joined with AND, compound ones
 * parenthesized; a named license that is one of the package's license
 * files (pixi:license-file) is a file, not a term. */
static sb_code cdx_licenses(sbin *c, sb_pkg *p, json_t *arr)
{
    if (!json_is_array(arr))
        return SB_OK;
    sb_strb acc = {0}; /* appended, not re-printed: 8,000 licenses stay linear */
    int any = 0;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) {
        const char *term = jstr(c, e, "expression");
        json_t *lo = json_object_get(e, "license");
        if (NULL == term && json_is_object(lo)) {
            term = jstr(c, lo, "id");
            if (NULL == term) {
                term = jstr(c, lo, "name");
                for (uint32_t k = 0; term && k < p->nlicfiles; k++)
                    if (!strcmp(term, p->licfiles[k].name) && json_object_get(lo, "acknowledgement") == NULL)
                        term = NULL;
            }
        }
        if (NULL == term)
            continue;
        int compound = strchr(term, ' ') != NULL;
        if (!any++) { /* a first term is kept as written */
            if (sb_strb_add(&acc, c->a, NULL, term) != SB_OK)
                return oom(c);
            continue;
        }
        if (sb_strb_add(&acc, c->a, compound ? " AND (" : " AND ", term) != SB_OK ||
            (compound && sb_strb_add(&acc, c->a, NULL, ")") != SB_OK))
            return oom(c);
    }
    p->license = acc.s;
    return SB_OK;
}

static sb_code cdx_component(sbin *c, json_t *o, const char *where, size_t idx);

static sb_code cdx_components(sbin *c, json_t *arr, const char *where)
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

static sb_code cdx_component(sbin *c, json_t *o, const char *where, size_t idx)
{
    if (!json_is_object(o))
        return sb_err_set(c->err, SB_EPARSE, "%s[%zu]: not an object", where, idx);
    const char *name = jstr(c, o, "name");
    if (NULL == name || has_nul(json_object_get(o, "name")))
        return sb_err_set(c->err, SB_EPARSE, "%s[%zu]: a component without a name", where, idx);
    sb_pkg *p;
    sb_code rc = new_pkg(c, &p, jstr(c, o, "bom-ref"));
    if (rc != SB_OK)
        return rc;
    p->name = name;
    p->version = jstr(c, o, "version");
    p->summary = jstr(c, o, "description");
    const char *scope = jstr(c, o, "scope");
    if (scope)
        p->scope = !strcmp(scope, "required")   ? SB_SCOPE_REQUIRED
                   : !strcmp(scope, "optional") ? SB_SCOPE_OPTIONAL
                                                : SB_SCOPE_NONE;
    const char *purl = jstr(c, o, "purl");
    if (purl) {
        sb_purl pu;
        if (sb_purl_parse(&pu, c->a, purl, NULL) != SB_OK)
            return sb_err_set(c->err, SB_EPARSE, "component '%.64s': purl '%.128s' is not a valid purl", name, purl);
        sb_pkgx *x = sb_pkg_x(p, c->a);
        if (NULL == x)
            return oom(c);
        x->given_purl = purl;
    }
    /* properties first: license file names decide which licenses[] entries are files */
    int kind_given = 0;
    json_t *props = json_object_get(o, "properties"), *e;
    size_t i;
    if (json_is_array(props))
        json_array_foreach(props, i, e) {
            const char *pn = jstr(c, e, "name"), *pv = jstr(c, e, "value");
            kind_given |= pn && !strcmp(pn, "pixi:kind");
            if ((rc = add_prop(c, p, pn, pv)) != SB_OK)
                return rc;
        }
    kind_from_purl(c, p, kind_given);
    json_t *hashes = json_object_get(o, "hashes");
    if (json_is_array(hashes))
        json_array_foreach(hashes, i, e)
            if ((rc = set_hash(c, p, jstr(c, e, "alg"), jstr(c, e, "content"))) != SB_OK)
                return rc;
    if ((rc = cdx_licenses(c, p, json_object_get(o, "licenses"))) != SB_OK)
        return rc;
    json_t *refs = json_object_get(o, "externalReferences");
    if (json_is_array(refs))
        json_array_foreach(refs, i, e) {
            const char *type = jstr(c, e, "type"), *url = jstr(c, e, "url");
            if (NULL == type || NULL == url)
                continue;
            if (!strcmp(type, "distribution") && NULL == p->location)
                p->location = url;
            else if (!strcmp(type, "vcs") && !strncmp(url, "git+", 4) && NULL == p->location)
                p->location = url;
            else if (!strcmp(type, "vcs") && NULL == p->repository)
                p->repository = url;
            else if (!strcmp(type, "website") && NULL == p->homepage)
                p->homepage = url;
            else if (!strcmp(type, "documentation") && NULL == p->documentation)
                p->documentation = url;
        }
    json_t *sup = json_object_get(o, "supplier");
    if (p->kind == SB_KIND_EXTERNAL && json_is_object(sup))
        p->supplier_name = jstr(c, sup, "name");
    return cdx_components(c, json_object_get(o, "components"), "components");
}

static sb_code cdx_body(sbin *c, json_t *root)
{
    const char *spec = jstr(c, root, "specVersion");
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
            const char *pn = jstr(c, e, "name");
            if (pn && !strcmp(pn, "pixi:environment"))
                env = jstr(c, e, "value");
            else if (pn && !strcmp(pn, "pixi:platform"))
                plat = jstr(c, e, "value");
            else if (pn && !strcmp(pn, "pixi:lockfile"))
                c->l->lockfile_name = jstr(c, e, "value");
            else
                doc_fact(c, pn, jstr(c, e, "value"));
        }
    sb_lock_origin *o = c->origin;
    o->source = jstr(c, root, "serialNumber");
    if (o->source && !strncmp(o->source, "urn:uuid:", 9))
        uuid_from(o, o->source + 9);
    /* sbomd's own: its tool entry (1.5+: tools.components) and its facts */
    json_t *tools = json_object_get(json_object_get(meta, "tools"), "components");
    json_array_foreach(tools, i, e) {
        const char *tn = jstr(c, e, "name");
        o->ours |= tn && !strcmp(tn, SB_TOOL_NAME) && env && plat;
    }
    o->format = !strcmp(spec, "1.6") ? "cyclonedx-1.6" : !strcmp(spec, "1.7") ? "cyclonedx-1.7" : NULL;
    o->timestamp = stamp(jstr(c, meta, "timestamp"));
    const char *note = jstr(c, json_array_get(json_object_get(root, "citations"), 0), "note");
    if (NULL == o->kind && note && !strncmp(note, "Derived from the ", 17)) {
        /* 1.7: "Derived from the KIND LOCKFILE (environment ...": the kind may
         * hold spaces ("conda explicit spec"), the lockfile is known */
        const char *tail = sb_arena_printf(c->a, " %s (environment ",
                                           c->l->lockfile_name ? c->l->lockfile_name : "(unnamed)");
        const char *at = tail ? strstr(note + 17, tail) : NULL;
        o->kind = at ? sb_arena_strndup(c->a, note + 17, (size_t)(at - note - 17)) : NULL;
    }
    sb_code rc = place(c, env, plat);
    if (rc != SB_OK)
        return rc;
    json_t *mc = json_object_get(meta, "component");
    if (json_is_object(mc)) {
        c->l->root_name = jstr(c, mc, "name");
        c->l->root_version = jstr(c, mc, "version");
        c->root_key = jstr(c, mc, "bom-ref");
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
        const char *ref = jstr(c, e, "ref");
        json_t *on = json_object_get(e, "dependsOn"), *t;
        size_t k;
        if (NULL == ref || !json_is_array(on))
            continue;
        json_array_foreach(on, k, t) {
            if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
                return SB_ETIMEOUT;
            if (json_is_string(t) && (rc = edge(c, ref, json_string_value(t))) != SB_OK)
                return rc;
        }
    }
    /* sbomd's own statement that the input had no dependency data */
    json_t *comps = json_object_get(root, "compositions");
    json_array_foreach(comps, i, e) {
        const char *ref = jstr(c, e, "bom-ref"), *agg = jstr(c, e, "aggregate");
        if (ref && agg && !strcmp(ref, "composition-dependencies") && !strcmp(agg, "unknown"))
            c->l->no_dep_data = true;
    }
    return SB_OK;
}

static sb_code cdx_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    sbin c;
    json_t *root;
    sb_code rc = start(&c, a, lim, err, "cyclonedx");
    if (rc == SB_OK && (rc = parse(&c, &root, data, len, "CycloneDX")) == SB_OK) {
        const char *fmt = jstr(&c, root, "bomFormat");
        rc = fmt && !strcmp(fmt, "CycloneDX") ? cdx_body(&c, root)
                                              : sb_err_set(err, SB_EPARSE, "CycloneDX: bomFormat is not \"CycloneDX\"");
        json_decref(root);
    }
    return rc == SB_OK ? finish(&c, out, data, len) : rc;
}

/* ---- SPDX 2.x ------------------------------------------------------------ */

static int spdx_none(const char *s)
{
    return NULL == s || !strcmp(s, "NOASSERTION") || !strcmp(s, "NONE");
}

/* A declared license: NOASSERTION/NONE -> none; a lone LicenseRef defined
 * in hasExtractedLicensingInfos -> the name it was given (sbomd writes the
 * original text there). */
static const char *spdx_license(sbin *c, json_t *o, json_t *extracted)
{
    const char *v = jstr(c, o, "licenseDeclared");
    if (spdx_none(v))
        v = jstr(c, o, "licenseConcluded");
    if (spdx_none(v))
        return NULL;
    if (strncmp(v, "LicenseRef-", 11) || strchr(v, ' '))
        return v;
    size_t i;
    json_t *e;
    json_array_foreach(extracted, i, e) {
        const char *id = jstr(c, e, "licenseId");
        if (id && !strcmp(id, v)) {
            const char *nm = jstr(c, e, "name");
            return nm && !spdx_none(nm) ? nm : v;
        }
    }
    return v;
}

/* A list of license file names as sbomd writes them ("a, b" in SPDX 2's
 * licenseComments, "a;b" in SPDX 3's comment) back into the package. */
static sb_code license_files(sbin *c, sb_pkg *p, const char *list, const char *sep)
{
    sb_code rc = SB_OK;
    size_t k = strlen(sep);
    for (const char *s = list; *s && rc == SB_OK;) {
        const char *at = strstr(s, sep);
        size_t n = at ? (size_t)(at - s) : strlen(s);
        const char *f = sb_arena_strndup(c->a, s, n);
        if (NULL == f)
            return oom(c);
        restore(c, p, "pixi:license-file", f, &rc);
        s = at ? at + k : s + n;
    }
    return rc;
}

/* sbomd's root (SPDX 2 and 3) says where it came from in its source info:
 * "<kind> workspace; lockfile X; environment E; platform P". */
static void root_source(sbin *c, const char *rsi, const char **env, const char **plat)
{
    const char *pe = rsi ? strstr(rsi, "; environment ") : NULL, *pp = rsi ? strstr(rsi, "; platform ") : NULL;
    const char *pl = rsi ? strstr(rsi, "; lockfile ") : NULL;
    if (pl && pe && pe > pl && strncmp(pl + 11, "(unnamed)", 9))
        c->l->lockfile_name = sb_arena_strndup(c->a, pl + 11, (size_t)(pe - pl - 11));
    if (pe && pp && pp > pe) {
        *env = sb_arena_strndup(c->a, pe + 14, (size_t)(pp - pe - 14));
        *plat = pp + 11;
    }
}

/* `comment`: sbomd writes a package's properties there, one
 * "pixi:name=value" a line. */
static sb_code spdx_comment(sbin *c, sb_pkg *p, const char *s, int *kind_given)
{
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const char *eq = memchr(s, '=', n);
        if (n > 5 && !strncmp(s, "pixi:", 5) && eq) {
            const char *name = sb_arena_strndup(c->a, s, (size_t)(eq - s));
            const char *value = sb_arena_strndup(c->a, eq + 1, n - (size_t)(eq - s) - 1);
            if (NULL == name || NULL == value)
                return oom(c);
            *kind_given |= !strcmp(name, "pixi:kind");
            sb_code rc = SB_OK;
            if (!strcmp(name, "pixi:license-files")) /* SPDX 3: the file names, ';'-separated */
                rc = license_files(c, p, value, ";");
            else
                rc = add_prop(c, p, name, value);
            if (rc != SB_OK)
                return rc;
        }
        s = nl ? nl + 1 : NULL;
    }
    return SB_OK;
}

static sb_code spdx_package(sbin *c, json_t *o, size_t idx, json_t *extracted)
{
    if (!json_is_object(o))
        return sb_err_set(c->err, SB_EPARSE, "packages[%zu]: not an object", idx);
    const char *name = jstr(c, o, "name"), *id = jstr(c, o, "SPDXID");
    if (NULL == name || has_nul(json_object_get(o, "name")))
        return sb_err_set(c->err, SB_EPARSE, "packages[%zu]: a package without a name", idx);
    if (NULL == id)
        return sb_err_set(c->err, SB_EPARSE, "packages[%zu]: a package without an SPDXID", idx);
    sb_pkg *p;
    sb_code rc = new_pkg(c, &p, id);
    if (rc != SB_OK)
        return rc;
    p->name = name;
    p->version = jstr(c, o, "versionInfo");
    p->summary = jstr(c, o, "summary");
    if (NULL == p->summary)
        p->summary = jstr(c, o, "description");
    const char *dl = jstr(c, o, "downloadLocation");
    if (!spdx_none(dl))
        p->location = dl;
    const char *si = jstr(c, o, "sourceInfo");
    if (si && NULL == p->location && !strncmp(si, "built from source at ", 21))
        p->location = si + 21;
    const char *hp = jstr(c, o, "homepage");
    if (!spdx_none(hp))
        p->homepage = hp;
    int kind_given = 0;
    if ((rc = spdx_comment(c, p, jstr(c, o, "comment"), &kind_given)) != SB_OK)
        return rc;
    const char *lc = jstr(c, o, "licenseComments");
    if (lc && !strncmp(lc, "License files: ", 15) && 0 == p->nlicfiles) {
        if ((rc = license_files(c, p, lc + 15, ", ")) != SB_OK)
            return rc;
    }
    /* the first purl is the package's own; the rest are its other identities */
    json_t *refs = json_object_get(o, "externalRefs"), *e;
    size_t i;
    sb_pkgx *x = sb_pkg_x(p, c->a);
    if (NULL == x)
        return oom(c);
    x->lock_purls.n = 0; /* pixi:purl lines repeat what externalRefs say */
    json_array_foreach(refs, i, e) {
        const char *type = jstr(c, e, "referenceType"), *loc = jstr(c, e, "referenceLocator");
        if (NULL == type || NULL == loc || strcmp(type, "purl"))
            continue;
        sb_purl pu;
        if (sb_purl_parse(&pu, c->a, loc, NULL) != SB_OK)
            return sb_err_set(c->err, SB_EPARSE, "package '%.64s': purl '%.128s' is not a valid purl", name, loc);
        if (NULL == x->given_purl)
            x->given_purl = loc;
        else if (sb_strv_push(&x->lock_purls, c->a, loc) != SB_OK)
            return oom(c);
    }
    kind_from_purl(c, p, kind_given);
    json_t *sums = json_object_get(o, "checksums");
    json_array_foreach(sums, i, e)
        if ((rc = set_hash(c, p, jstr(c, e, "algorithm"), jstr(c, e, "checksumValue"))) != SB_OK)
            return rc;
    p->license = spdx_license(c, o, extracted);
    const char *sup = jstr(c, o, "supplier");
    if (p->kind == SB_KIND_EXTERNAL && sup && !strncmp(sup, "Organization: ", 14))
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

static sb_code spdx_body(sbin *c, json_t *root)
{
    const char *ver = jstr(c, root, "spdxVersion");
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
        const char *from = jstr(c, e, "spdxElementId"), *type = jstr(c, e, "relationshipType");
        const char *to = jstr(c, e, "relatedSpdxElement");
        if (from && type && to && !strcmp(from, "SPDXRef-DOCUMENT") && !strcmp(type, "DESCRIBES") &&
            (!described || strcmp(described, to))) {
            described = to;
            ndescribed++;
        }
    }
    const char *env = NULL, *plat = NULL;
    json_t *rootpkg = NULL;
    json_array_foreach(pkgs, i, e) {
        const char *id = jstr(c, e, "SPDXID");
        if (1 == ndescribed && id && !strcmp(id, described))
            rootpkg = e;
    }
    root_source(c, rootpkg ? jstr(c, rootpkg, "sourceInfo") : NULL, &env, &plat);
    sb_lock_origin *o = c->origin;
    o->source = jstr(c, root, "documentNamespace");
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
        uuid_from(o, slash + 1);
    o->format = !strcmp(ver, "SPDX-2.3") ? "spdx-2.3" : NULL;
    o->timestamp = stamp(jstr(c, ci, "created"));
    o->kind = kind_before(c, jstr(c, ci, "comment"), ", resolved dependencies)");
    sb_code rc = rootpkg ? root_facts(c, jstr(c, rootpkg, "comment")) : SB_OK;
    if (rc == SB_OK)
        rc = place(c, env, plat);
    if (rc != SB_OK)
        return rc;
    if (rootpkg) {
        c->root_key = described;
        c->l->root_name = jstr(c, rootpkg, "name");
        c->l->root_version = jstr(c, rootpkg, "versionInfo");
    }
    json_array_foreach(pkgs, i, e)
        if (e != rootpkg && (rc = spdx_package(c, e, i, extracted)) != SB_OK)
            return rc;
    int any_dep = 0;
    unsigned char *starts = sb_arena_calloc(c->a, c->n ? c->n : 1, 1); /* per package: a crossing edge starts there */
    if (NULL == starts)
        return oom(c);
    json_array_foreach(rels, i, e) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *from = jstr(c, e, "spdxElementId"), *type = jstr(c, e, "relationshipType");
        const char *to = jstr(c, e, "relatedSpdxElement");
        if (NULL == from || NULL == type || NULL == to)
            continue;
        int rev;
        sb_scope sc = reversed_dep(type, &rev);
        if (spdx_none(to)) {
            if (!strcmp(to, "NOASSERTION") && !strcmp(type, "DEPENDS_ON"))
                c->l->no_dep_data = true;
            continue;
        }
        if (!strcmp(type, "DEPENDS_ON") || (!strcmp(type, "CONTAINS") && c->root_key && !strcmp(from, c->root_key))) {
            any_dep = 1;
            rc = edge(c, from, to);
        } else if (rev) {
            any_dep = 1;
            size_t k;
            if (sc != SB_SCOPE_NONE && sb_strmap_get(&c->by_key, from, strlen(from), &k))
                c->pkgs[k]->scope = sb_scope_merge(c->pkgs[k]->scope, sc);
            if (sc != SB_SCOPE_NONE && sb_strmap_get(&c->by_key, to, strlen(to), &k))
                starts[k] = 1;
            rc = edge(c, to, from);
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

/* ---- SPDX 3.0.1 JSON-LD ---------------------------------------------------- */

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
static const char *spdx3_license(sbin *c, json_t *el)
{
    if (type_is(el, "simplelicensing_LicenseExpression")) {
        const char *v = jstr(c, el, "simplelicensing_licenseExpression");
        return spdx_none(v) ? NULL : v;
    }
    if (type_is(el, "simplelicensing_SimpleLicensingText"))
        return jstr(c, el, "name");
    return NULL;
}

static sb_code spdx3_package(sbin *c, json_t *o, size_t idx, const sb_strmap *ids, json_t *graph)
{
    const char *name = jstr(c, o, "name"), *id = jstr(c, o, "spdxId");
    if (NULL == name || has_nul(json_object_get(o, "name")))
        return sb_err_set(c->err, SB_EPARSE, "@graph[%zu]: a software_Package without a name", idx);
    if (NULL == id)
        return sb_err_set(c->err, SB_EPARSE, "@graph[%zu]: a software_Package without an spdxId", idx);
    sb_pkg *p;
    sb_code rc = new_pkg(c, &p, id);
    if (rc != SB_OK)
        return rc;
    p->name = name;
    p->version = jstr(c, o, "software_packageVersion");
    p->summary = jstr(c, o, "summary");
    if (NULL == p->summary)
        p->summary = jstr(c, o, "description");
    p->location = jstr(c, o, "software_downloadLocation");
    const char *si = jstr(c, o, "software_sourceInfo");
    if (si && NULL == p->location && !strncmp(si, "built from source at ", 21))
        p->location = si + 21;
    p->homepage = jstr(c, o, "software_homePage");
    int kind_given = 0;
    if ((rc = spdx_comment(c, p, jstr(c, o, "comment"), &kind_given)) != SB_OK)
        return rc;
    sb_pkgx *x = sb_pkg_x(p, c->a);
    if (NULL == x)
        return oom(c);
    x->lock_purls.n = 0; /* pixi:purl lines repeat the packageUrl identifiers */
    const char *purl = jstr(c, o, "software_packageUrl");
    json_t *ext = json_object_get(o, "externalIdentifier"), *e;
    size_t i;
    json_array_foreach(ext, i, e) {
        const char *t = jstr(c, e, "externalIdentifierType"), *v = jstr(c, e, "identifier");
        if (NULL == t || NULL == v || strcmp(t, "packageUrl"))
            continue;
        if (NULL == purl) /* no software_packageUrl: the first identifier is the package's own */
            purl = v;
        else if (sb_strv_push(&x->lock_purls, c->a, v) != SB_OK)
            return oom(c);
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
    kind_from_purl(c, p, kind_given);
    json_t *sums = json_object_get(o, "verifiedUsing");
    json_array_foreach(sums, i, e)
        if ((rc = set_hash(c, p, jstr(c, e, "algorithm"), jstr(c, e, "hashValue"))) != SB_OK)
            return rc;
    json_t *sup = spdx3_elem(ids, graph, jstr(c, o, "suppliedBy"));
    if (p->kind == SB_KIND_EXTERNAL && json_is_object(sup))
        p->supplier_name = jstr(c, sup, "name");
    return SB_OK;
}

static sb_code spdx3_body(sbin *c, json_t *root)
{
    json_t *graph = json_object_get(root, "@graph"), *e;
    if (!json_is_array(graph))
        return sb_err_set(c->err, SB_EPARSE, "SPDX 3: @graph is not an array");
    c->l->version = 3;
    size_t i, n = json_array_size(graph);
    sb_strmap ids;
    if (sb_strmap_init(&ids, c->a, n ? n : 1) != SB_OK)
        return oom(c);
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
            return oom(c);
        if (type_is(e, "CreationInfo") && NULL == ver)
            ver = jstr(c, e, "specVersion");
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
    root_source(c, rootpkg ? jstr(c, rootpkg, "software_sourceInfo") : NULL, &env, &plat);
    sb_lock_origin *o = c->origin;
    json_t *ci = NULL;
    json_array_foreach(graph, i, e) {
        const char *nm = jstr(c, e, "name");
        if (type_is(e, "SpdxDocument") && NULL == o->source)
            o->source = jstr(c, e, "spdxId");
        else if (type_is(e, "CreationInfo") && NULL == ci)
            ci = e;
        else if (type_is(e, "Tool") && nm && !strcmp(nm, SB_TOOL_NAME))
            o->ours = env && plat;
    }
    static const char ns_prefix[] = "https://spdx.org/spdxdocs/" SB_TOOL_NAME "/";
    const char *rid = rootpkg ? jstr(c, rootpkg, "spdxId") : NULL, *hash = rid ? strrchr(rid, '#') : NULL;
    if (hash && hash - rid > 36 && !strncmp(rid, ns_prefix, sizeof ns_prefix - 1) && hash[-37] == '/')
        uuid_from(o, hash - 36);
    o->format = ver && !strcmp(ver, "3.0.1") ? "spdx-3.0.1" : NULL;
    o->timestamp = stamp(ci ? jstr(c, ci, "created") : NULL);
    o->kind = kind_before(c, ci ? jstr(c, ci, "comment") : NULL, ", environment ");
    sb_code rc = rootpkg ? root_facts(c, jstr(c, rootpkg, "comment")) : SB_OK;
    if (rc == SB_OK)
        rc = place(c, env, plat);
    if (rc != SB_OK)
        return rc;
    if (rootpkg) {
        c->root_key = jstr(c, rootpkg, "spdxId");
        c->l->root_name = jstr(c, rootpkg, "name");
        c->l->root_version = jstr(c, rootpkg, "software_packageVersion");
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
        const char *from = jstr(c, e, "from"), *type = jstr(c, e, "relationshipType");
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
        const char *scope = jstr(c, e, "scope");
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
            if ((rc = edge(c, from, tid)) != SB_OK)
                return rc;
        }
    }
    if (!any_dep && c->n)
        c->l->no_dep_data = true;
    return SB_OK;
}

static sb_code spdx_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    sbin c;
    json_t *root;
    sb_code rc = start(&c, a, lim, err, "spdx");
    if (rc == SB_OK && (rc = parse(&c, &root, data, len, "SPDX")) == SB_OK) {
        rc = json_object_get(root, "@graph") ? spdx3_body(&c, root) : spdx_body(&c, root);
        json_decref(root);
    }
    return rc == SB_OK ? finish(&c, out, data, len) : rc;
}

const sb_reader sb_reader_cyclonedx = {"cyclonedx", cdx_detect, cdx_read};
const sb_reader sb_reader_spdx = {"spdx", spdx_detect, spdx_read};
