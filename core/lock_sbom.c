/*
 * lock_sbom.c - what the three SBOM readers (lock_cyclonedx.c, lock_spdx.c,
 * lock_spdx3.c) share: the read's context (lock_sbom_int.h), the jansson
 * parse, and the way a document's packages, ids and facts become the one
 * model the lockfile readers fill, so every output, report, policy and diff
 * takes an SBOM as it takes a lockfile.
 *
 * Identity: a package's purl as the document states it is kept as its
 * primary purl (sb_pkgx.given_purl); its kind is its pixi:kind property when
 * it has one, else the purl's type (conda, pypi, npm), else `external`. Edges
 * go by the document's own ids (bom-ref / SPDXID / spdxId) through
 * sb_pkg.key. pixi:* properties (CycloneDX properties, SPDX `comment` lines)
 * come back as reader properties, and the fields derive() recomputes them
 * from are restored so an sbomd document reads back as it was written; the
 * per-request verdicts (pixi:license-violation / -exempt) are not carried
 * over. Provenance: the document's serial, timestamp and sbomd's own facts
 * (sb_lock_origin) are kept only when sbomd wrote it.
 *
 * Also here: the conventions sbomd's SPDX 2 and SPDX 3 documents share (the
 * root's source info, pixi:name=value comment lines, license file lists).
 *
 * The document is parsed with jansson (its tree is bounded by the service's
 * body limit and memory estimate; nesting beyond jansson's own depth bound is
 * a parse error). Nothing of the tree outlives the read: what is kept is
 * copied into the arena.
 */
#include "lock_sbom_int.h"
#include "ecosystem.h"
#include "purl.h"
#include "uuid.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

sb_code sb_sbomin__oom(sb_sbomin *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

const char *sb_sbomin__jstr(sb_sbomin *c, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) && json_string_length(v)
               ? sb_arena_strndup(c->a, json_string_value(v), json_string_length(v))
               : NULL;
}

/* strings must be text: jansson accepts \u0000 inside one */
int sb_sbomin__has_nul(json_t *v)
{
    return json_is_string(v) && strlen(json_string_value(v)) != json_string_length(v);
}

sb_code sb_sbomin__parse(sb_sbomin *c, json_t **root, const char *data, size_t len, const char *what)
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

/* A JSON object whose first kilobytes hold `needle` as a key. */
int sb_sbomin__json_with(const char *data, size_t len, const char *needle)
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
sb_code sb_sbomin__set_hash(sb_sbomin *c, sb_pkg *p, const char *alg, const char *hex)
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
            /* kept in binary (sb_pkg.sha512b, x->sha384b), written in lower case */
            const unsigned char *b = sb_hash_from_hex(c->a, hex, algs[i].hexlen / 2);
            if (NULL == b)
                return sb_sbomin__oom(c);
            sb_pkgx *x = algs[i].slot == 2 ? NULL : sb_pkg_x(p, c->a);
            if (algs[i].slot == 2)
                p->sha512b = b;
            else if (x)
                x->sha384b = b;
            else
                return sb_sbomin__oom(c);
            continue;
        }
        char *h = sb_arena_strdup(c->a, hex);
        if (NULL == h)
            return sb_sbomin__oom(c);
        for (char *q = h; *q; q++)
            *q = (char)tolower((unsigned char)*q);
        switch (algs[i].slot) {
        case 0: p->sha256 = h; break;
        case 1: {
            sb_pkgx *x = sb_pkg_x(p, c->a);
            if (NULL == x)
                return sb_sbomin__oom(c);
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
    const sb_ecosystem *e = sb_eco_by_name(s);
    if (e)
        *out = e->kind;
    return e != NULL;
}

/* A property that lives in a model field: put it back there (derive() makes
 * the same property and the same supplier from it). 1 when it was one that
 * is not kept as a reader property. */
static int restore(sb_sbomin *c, sb_pkg *p, const char *name, const char *value, sb_code *rc)
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
            *rc = sb_sbomin__oom(c);
        p->has_purls_key = true;
        return 1;
    }
    if (!strcmp(name, "pixi:license-file")) {
        sb_licfile *nf = NULL;
        if (NULL == (x = sb_pkg_x(p, c->a)) || NULL == (nf = sb_arena_alloc(c->a, (x->nlicfiles + 1) * sizeof *nf))) {
            *rc = sb_sbomin__oom(c);
            return 1;
        }
        if (x->nlicfiles)
            memcpy(nf, x->licfiles, x->nlicfiles * sizeof *nf);
        nf[x->nlicfiles++] = (sb_licfile){value, NULL, -1}; /* by name: the text is not ours to read */
        x->licfiles = nf;
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
            *rc = sb_sbomin__oom(c);
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

sb_code sb_sbomin__add_prop(sb_sbomin *c, sb_pkg *p, const char *name, const char *value)
{
    if (NULL == name || NULL == value || strncmp(name, "pixi:", 5))
        return SB_OK; /* other tools' properties have no meaning here */
    sb_code rc;
    if (restore(c, p, name, value, &rc) || rc != SB_OK)
        return rc;
    if (sb_strv_push(&p->reader_props, c->a, name) != SB_OK || sb_strv_push(&p->reader_props, c->a, value) != SB_OK)
        return sb_sbomin__oom(c);
    return SB_OK;
}

int sb_sbomin__supplier_as_stated(const sb_pkg *p)
{
    sb_eco_purl_style how = sb_eco(p->kind)->purl;
    return how == SB_PURL_GIVEN || how == SB_PURL_READER;
}

/* Kind from the purl's type when no pixi:kind said it. */
void sb_sbomin__kind_from_purl(sb_sbomin *c, sb_pkg *p, int kind_given)
{
    const sb_pkgx *x = sb_pkg_xr(p);
    if (kind_given || NULL == x->given_purl)
        return;
    sb_purl pu;
    if (sb_purl_parse(&pu, c->a, x->given_purl, NULL) != SB_OK)
        return;
    const sb_ecosystem *e = sb_eco_by_purl_type(pu.type);
    p->kind = e ? e->kind : SB_KIND_EXTERNAL;
}

/* Every package has a purl to be identified by: pkg:generic/name@version
 * when the document gives none. */
static sb_code ensure_purl(sb_sbomin *c, sb_pkg *p)
{
    sb_pkgx *x = sb_pkg_x(p, c->a);
    if (NULL == x)
        return sb_sbomin__oom(c);
    if (x->given_purl)
        return SB_OK;
    sb_purl pu = {.type = "generic", .name = p->name, .version = p->version};
    char *s = NULL;
    if (sb_purl_build(&s, c->a, &pu, NULL) != SB_OK || NULL == s)
        return sb_err_set(c->err, SB_EPARSE, "package '%.64s': no purl can be made for it", p->name);
    x->given_purl = s;
    return SB_OK;
}

sb_code sb_sbomin__new_pkg(sb_sbomin *c, sb_pkg **out, const char *key)
{
    if (c->n >= c->lim->max_packages)
        return sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->lim->max_packages);
    if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
        return SB_ETIMEOUT;
    sb_pkg *p = sb_arena_calloc(c->a, 1, sizeof *p);
    if (NULL == p)
        return sb_sbomin__oom(c);
    p->kind = SB_KIND_EXTERNAL;
    sb_pkg **np = sb_arena_grow(c->a, c->pkgs, &c->cap, c->n, sizeof *np, 64);
    if (NULL == np)
        return sb_sbomin__oom(c);
    c->pkgs = np;
    p->key = key ? key : sb_arena_printf(c->a, "#%zu", c->n); /* no id: nothing can point at it */
    if (NULL == p->key)
        return sb_sbomin__oom(c);
    int dup = sb_strmap_put(&c->by_key, p->key, strlen(p->key), c->n, NULL);
    if (dup < 0)
        return sb_sbomin__oom(c);
    if (dup)
        return sb_err_set(c->err, SB_EPARSE, "the id '%.64s' names two packages", p->key);
    c->pkgs[c->n++] = p;
    *out = p;
    return SB_OK;
}

/* An edge from the document's id `from` to `to`: onto the package's
 * depends, or the root's names. Unknown ends are dropped (a document may
 * name files, snippets or other documents). */
sb_code sb_sbomin__edge(sb_sbomin *c, const char *from, const char *to)
{
    size_t i;
    const char *t = sb_arena_strdup(c->a, to);
    if (NULL == t)
        return sb_sbomin__oom(c);
    if (c->root_key && !strcmp(from, c->root_key)) {
        c->plat->has_root_names = true;
        return sb_strv_push(&c->plat->root_names, c->a, t) == SB_OK ? SB_OK : sb_sbomin__oom(c);
    }
    if (!sb_strmap_get(&c->by_key, from, strlen(from), &i))
        return SB_OK;
    return sb_strv_push(&c->pkgs[i]->depends, c->a, t) == SB_OK ? SB_OK : sb_sbomin__oom(c);
}

sb_code sb_sbomin__start(sb_sbomin *c, sb_arena *a, const sb_limits *lim, sb_err *err, const char *kind)
{
    memset(c, 0, sizeof *c);
    c->a = a;
    c->err = err;
    c->lim = lim;
    c->dl = (sb_deadline){lim->deadline_ns, 0, "reading the SBOM"};
    c->l = sb_arena_calloc(a, 1, sizeof *c->l);
    if (NULL == c->l || sb_strmap_init(&c->by_key, a, 1024) != SB_OK)
        return sb_sbomin__oom(c);
    c->l->kind = kind;
    c->l->version = 1;
    c->l->kind_unsure = true; /* "cyclonedx" is no file name: pixi:lockfile names one or none is recorded */
    c->origin = sb_arena_calloc(a, 1, sizeof *c->origin);
    return c->origin ? SB_OK : sb_sbomin__oom(c);
}

/* ---- the document's identity and provenance (sb_lock_origin) ------------- */

/* "YYYY-MM-DDTHH:MM:SSZ", as sbomd writes timestamps */
const char *sb_sbomin__stamp(const char *s)
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
void sb_sbomin__uuid_from(sb_lock_origin *o, const char *s)
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
const char *sb_sbomin__kind_before(sb_sbomin *c, const char *s, const char *end)
{
    const char *e = s ? strstr(s, end) : NULL, *k = NULL;
    for (const char *p = s; e && (p = strstr(p, " (")) && p < e; p += 2)
        k = p + 2;
    return k ? sb_arena_strndup(c->a, k, (size_t)(e - k)) : NULL;
}

/* A document-level fact sbomd writes (CycloneDX metadata.properties, the
 * SPDX root's comment lines). */
void sb_sbomin__doc_fact(sb_sbomin *c, const char *name, const char *value)
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
sb_code sb_sbomin__root_facts(sb_sbomin *c, const char *s)
{
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const char *eq = memchr(s, '=', n);
        if (eq && !strncmp(s, "pixi:", 5)) {
            const char *name = sb_arena_strndup(c->a, s, (size_t)(eq - s));
            const char *value = sb_arena_strndup(c->a, eq + 1, n - (size_t)(eq - s) - 1);
            if (NULL == name || NULL == value)
                return sb_sbomin__oom(c);
            sb_sbomin__doc_fact(c, name, value);
        }
        s = nl ? nl + 1 : NULL;
    }
    return SB_OK;
}

/* The one environment x platform the document describes: named by its
 * pixi:environment / pixi:platform when it is an sbomd document. */
sb_code sb_sbomin__place(sb_sbomin *c, const char *env, const char *plat)
{
    sb_lock_env *e = sb_lock_env_get(c->l, c->a, env ? env : "default");
    c->plat = e ? sb_lock_platform_get(e, c->a, plat ? plat : "none") : NULL;
    return c->plat ? SB_OK : sb_sbomin__oom(c);
}

sb_code sb_sbomin__finish(sb_sbomin *c, sb_lock **out, const char *data, size_t len)
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
            return sb_sbomin__oom(c);
    }
    c->l->nrecords = c->n;
    *out = c->l;
    return SB_OK;
}

/* ---- SPDX 2 and 3 alike ------------------------------------------------- */

int sb_sbomin__spdx_none(const char *s)
{
    return NULL == s || !strcmp(s, "NOASSERTION") || !strcmp(s, "NONE");
}

/* A list of license file names as sbomd writes them ("a, b" in SPDX 2's
 * licenseComments, "a;b" in SPDX 3's comment) back into the package. */
sb_code sb_sbomin__license_files(sb_sbomin *c, sb_pkg *p, const char *list, const char *sep)
{
    sb_code rc = SB_OK;
    size_t k = strlen(sep);
    for (const char *s = list; *s && rc == SB_OK;) {
        const char *at = strstr(s, sep);
        size_t n = at ? (size_t)(at - s) : strlen(s);
        const char *f = sb_arena_strndup(c->a, s, n);
        if (NULL == f)
            return sb_sbomin__oom(c);
        restore(c, p, "pixi:license-file", f, &rc);
        s = at ? at + k : s + n;
    }
    return rc;
}

/* sbomd's root (SPDX 2 and 3) says where it came from in its source info:
 * "<kind> workspace; lockfile X; environment E; platform P". */
void sb_sbomin__root_source(sb_sbomin *c, const char *rsi, const char **env, const char **plat)
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
sb_code sb_sbomin__spdx_comment(sb_sbomin *c, sb_pkg *p, const char *s, int *kind_given)
{
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        const char *eq = memchr(s, '=', n);
        if (n > 5 && !strncmp(s, "pixi:", 5) && eq) {
            const char *name = sb_arena_strndup(c->a, s, (size_t)(eq - s));
            const char *value = sb_arena_strndup(c->a, eq + 1, n - (size_t)(eq - s) - 1);
            if (NULL == name || NULL == value)
                return sb_sbomin__oom(c);
            *kind_given |= !strcmp(name, "pixi:kind");
            sb_code rc = SB_OK;
            if (!strcmp(name, "pixi:license-files")) /* SPDX 3: the file names, ';'-separated */
                rc = sb_sbomin__license_files(c, p, value, ";");
            else
                rc = sb_sbomin__add_prop(c, p, name, value);
            if (rc != SB_OK)
                return rc;
        }
        s = nl ? nl + 1 : NULL;
    }
    return SB_OK;
}
