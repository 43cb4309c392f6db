/*
 * quality.c - the profiles' minimum elements as one table of rules, and
 * the score of a model against them (see quality.h).
 *
 * A rule reads what the writers write from the model: a component "has" an
 * element exactly when every format sbomd writes carries it for that
 * component, so the score is the score of the document the same request
 * would get. Sections are named as in the profiles' texts (README,
 * "Quality profiles", gives the reading chosen where a profile is
 * ambiguous).
 */
#include "quality.h"
#include "ecosystem.h"
#include "buf.h"

#include <stdint.h>

#include <stdio.h>
#include <string.h>

static const char *const profile_names[SB_QP_N] = {"cisa-2026", "bsi-tr-03183-2", "ntia-2021"};

static const char *const reason_names[SB_QR_N] = {
    "", "not in the lockfile", "lookups off", "lookup failed", "withheld", "not given",
};

/* ---- the rules ------------------------------------------------------------ */

static sb_quality_reason always(const sb_sbom *s, const sb_pkg *p)
{
    (void)s, (void)p;
    return SB_QR_NONE; /* written into every document from sbomd itself */
}

static sb_quality_reason author(const sb_sbom *s, const sb_pkg *p)
{
    (void)p;
    return s->author && s->author->name ? SB_QR_NONE : SB_QR_NOT_GIVEN;
}

/* BSI asks for the creator's e-mail or URL */
static sb_quality_reason author_contact(const sb_sbom *s, const sb_pkg *p)
{
    (void)p;
    return s->author && s->author->email ? SB_QR_NONE : SB_QR_NOT_GIVEN;
}

static sb_quality_reason name(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return p->name && p->name[0] ? SB_QR_NONE : SB_QR_NOT_IN_INPUT;
}

static sb_quality_reason version(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return p->version && p->version[0] ? SB_QR_NONE : SB_QR_NOT_IN_INPUT;
}

static sb_quality_reason identifier(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return p->purl && p->purl[0] ? SB_QR_NONE : SB_QR_NOT_IN_INPUT;
}

static sb_quality_reason producer(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return p->supplier_name && p->supplier_name[0] ? SB_QR_NONE : SB_QR_NOT_IN_INPUT;
}

/* BSI's component creator comes with an e-mail or URL */
static sb_quality_reason producer_contact(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return p->supplier_name && p->supplier_url && p->supplier_url[0] ? SB_QR_NONE : SB_QR_NOT_IN_INPUT;
}

static sb_quality_reason any_hash(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    sb_hash_hex hx;
    for (int h = 0; h < SB_HASH_N; h++)
        if (sb_pkg_hash(p, (sb_hash_alg)h, &hx))
            return SB_QR_NONE;
    return SB_QR_NOT_IN_INPUT;
}

/* BSI: SHA-512 of the deployable form; a lockfile's SHA-256 does not stand
 * in for it, and sbomd downloads nothing to compute one */
static sb_quality_reason sha512(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return p->sha512b ? SB_QR_NONE : SB_QR_NOT_IN_INPUT;
}

/* Whether a license lookup could have supplied the license (the kinds the
 * service looks up: PyPI releases, conda binaries with a location). */
static int lookable(const sb_pkg *p)
{
    if (sb_eco_is(p->kind, SB_ECO_PYPI_INDEX))
        return p->version != NULL;
    return sb_eco_is(p->kind, SB_ECO_CHANNEL) && p->location != NULL;
}

static sb_quality_reason license(const sb_sbom *s, const sb_pkg *p)
{
    if (p->lic ? p->lic->kind != SB_LIC_NONE : (p->license && p->license[0]))
        return SB_QR_NONE;
    switch (p->lookup) {
    case SB_LOOKUP_FAILED: return SB_QR_LOOKUP_FAILED;
    case SB_LOOKUP_NOT_MADE: return SB_QR_LOOKUPS_OFF;
    case SB_LOOKUP_OFF: return SB_QR_LOOKUPS_OFF;
    case SB_LOOKUP_UNASKED: break; /* the quality report's own wording below */
    default: break;
    }
    return !s->lookups && lookable(p) ? SB_QR_LOOKUPS_OFF : SB_QR_NOT_IN_INPUT;
}

static sb_quality_reason dependencies(const sb_sbom *s, const sb_pkg *p)
{
    (void)p;
    return s->deps_unknown ? SB_QR_NOT_IN_INPUT : SB_QR_NONE;
}

static sb_quality_reason file_name(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return p->file_name && p->file_name[0] ? SB_QR_NONE : SB_QR_NOT_IN_INPUT;
}

static const char *prop_value(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

/* BSI's executable / archive / structured properties: only a look inside
 * the deployable file can tell them, which a lockfile does not give; a
 * component has them when a reader recorded all three */
static sb_quality_reason bsi_properties(const sb_sbom *s, const sb_pkg *p)
{
    (void)s;
    return prop_value(p, "bsi:executable") && prop_value(p, "bsi:archive") && prop_value(p, "bsi:structured")
               ? SB_QR_NONE
               : SB_QR_NOT_IN_INPUT;
}

/* CISA, BSI, NTIA: the section each element comes from (NULL: not required there). */
/* one row per line, however long, so that a row reads as a record */
/* clang-format off */
static const sb_quality_element elements[] = {
    {"sbom-author", "SBOM author", true, "the document names who wrote it (--sbom-author, ?author=)",
     {"Data Fields: SBOM Author", "5.2.1 Creator of the SBOM", "IV Data Fields: Author of SBOM Data"}, author, "name the SBOM's author: author=NAME <EMAIL> (or the server's --sbom-author)"},
    {"sbom-author-contact", "SBOM author's e-mail", true, "the SBOM author comes with an e-mail address",
     {NULL, "5.2.1 Creator of the SBOM (e-mail or URL)", NULL}, author_contact, "give the author with an e-mail address: author=NAME <EMAIL>"},
    {"timestamp", "Timestamp", true, "creation time, ISO 8601 / RFC 3339 UTC",
     {"Data Fields: Timestamp", "5.2.1 Timestamp", "IV Data Fields: Timestamp"}, always, NULL},
    {"tool-name", "Tool name", true, "the generating tool's name and version",
     {"Data Fields: Tool Name", NULL, NULL}, always, NULL},
    {"generation-context", "Generation context", true, "the lifecycle phase (pre-build for a lockfile, spec 6.5)",
     {"Data Fields: Generation Context", NULL, NULL}, always, NULL},
    {"component-name", "Component name", false, "a non-empty name",
     {"Data Fields: Component Name", "5.2.2 Component name", "IV Data Fields: Component Name"}, name, "a component without a name cannot be identified: correct the lockfile, or send the project's manifest as a manifest part (-F manifest=@pyproject.toml) for the root"},
    {"component-version", "Component version", false, "a version string",
     {"Data Fields: Component Version", "5.2.2 Component version", "IV Data Fields: Version of the Component"}, version, "the root's version: version= or a manifest part (-F manifest=@pyproject.toml / pixi.toml); a dependency locked without one (a path or VCS source): pin it, or leave it out with exclude=NAME (keep-orphans=true keeps what only it pulls in)"},
    {"software-identifiers", "Software identifiers", false, "at least one identifier (a purl; no CPE is invented)",
     {"Data Fields: Software Identifiers", NULL, "IV Data Fields: Other Unique Identifiers"}, identifier, "the root's purl comes from name= and version= or a manifest part; a dependency without one (a local path): leave it out with exclude=NAME (keep-orphans=true keeps what only it pulls in)"},
    {"software-producer", "Software producer", false, "a supplier (the channel or index it comes from, spec 6.3)",
     {"Data Fields: Software Producer", NULL, "IV Data Fields: Supplier Name"}, producer, "the root's supplier: a manifest part with authors (-F manifest=@pyproject.toml); a dependency's comes from its channel or index: one from a local path can be left out with exclude=NAME (keep-orphans=true keeps what only it pulls in)"},
    {"component-creator-contact", "Component creator with URL", false, "a supplier with a URL",
     {NULL, "5.2.2 Component creator (e-mail or URL)", NULL}, producer_contact, "a supplier URL comes from the package's channel or index; the root's from a manifest part with a homepage or repository"},
    {"component-hash", "Component hash", false, "at least one digest with its algorithm",
     {"Data Fields: Component Hash", NULL, NULL}, any_hash, "lock with hashes (uv lock, pixi lock, pip-compile --generate-hashes, poetry lock): sbomd computes none"},
    {"component-hash-sha512", "SHA-512 of the deployable", false, "a SHA-512 digest",
     {NULL, "5.2.2 Hash value of the deployable component", NULL}, sha512, "a SHA-512 comes only from an npm-style lockfile (integrity sha512-...); sbomd downloads nothing to compute one"},
    {"license", "License", false, "a declared license (an SPDX expression or its text)",
     {"Data Fields: License", "5.2.2 Distribution licences", NULL}, license, "ask a server started with --lookups with fetch-licenses=true (or one with --package-cache); the root's license: a manifest part (-F manifest=@pyproject.toml)"},
    {"dependency-relationship", "Dependency relationship", false, "the input states what it depends on",
     {"Data Fields: Dependency Relationship", "5.2.2 Dependencies on other components",
      "IV Data Fields: Dependency Relationship"}, dependencies, "the input records no dependency graph (requirements.txt, explicit specs): send a lockfile that does (uv.lock, pixi.lock, poetry.lock)"},
    {"filename", "Filename", false, "the file name of the deployable (archive, wheel)",
     {NULL, "5.2.2 Filename of the component", NULL}, file_name, "the lockfile names no file for it (a source or VCS dependency): lock binary artifacts (wheels, conda packages)"},
    {"bsi-properties", "Executable / archive / structured property", false,
     "all three properties of the deployable file",
     {NULL, "5.2.2 Executable, Archive and Structured property", NULL}, bsi_properties, "only a look inside the deployable file tells these, which a lockfile does not give: no request parameter supplies them"},
};
/* clang-format on */

#define NELEMENTS (sizeof elements / sizeof elements[0])

const sb_quality_element *sb_quality_elements(size_t *n)
{
    *n = NELEMENTS;
    return elements;
}

const char *sb_quality_profile_name(sb_quality_profile p)
{
    return p < SB_QP_N ? profile_names[p] : "?";
}

int sb_quality_profile_find(const char *name, sb_quality_profile *out)
{
    for (int p = 0; name && p < SB_QP_N; p++)
        if (!strcmp(name, profile_names[p])) {
            *out = (sb_quality_profile)p;
            return 0;
        }
    return -1;
}

const char *sb_quality_reason_name(sb_quality_reason r)
{
    return r < SB_QR_N ? reason_names[r] : "?";
}

/* ---- scoring -------------------------------------------------------------- */

static void lacking(sb_quality_result *r, size_t pkg, sb_quality_reason why)
{
    r->by_reason[why]++;
    if (r->nfirst < SB_QUALITY_FIRST) {
        r->first[r->nfirst] = pkg;
        r->first_why[r->nfirst++] = why;
    }
}

sb_code sb_quality_score(sb_quality *q, sb_arena *a, const sb_sbom *s)
{
    memset(q, 0, sizeof *q);
    q->res = sb_arena_calloc(a, NELEMENTS, sizeof *q->res);
    if (NULL == q->res)
        return SB_ENOMEM;
    q->n = NELEMENTS;
    for (int p = 0; p < SB_QP_N; p++)
        q->pass[p] = true;
    for (size_t e = 0; e < NELEMENTS; e++) {
        const sb_quality_element *el = &elements[e];
        sb_quality_result *r = &q->res[e];
        r->el = el;
        if (el->document) {
            r->total = 1;
            sb_quality_reason why = el->lacks(s, NULL);
            if (why == SB_QR_NONE)
                r->have = 1;
            else
                lacking(r, SIZE_MAX, why);
        } else {
            r->total = s->npkgs;
            for (size_t i = 0; i < s->npkgs; i++) {
                sb_quality_reason why = el->lacks(s, &s->pkgs[i]);
                if (why == SB_QR_NONE)
                    r->have++;
                else
                    lacking(r, i, why);
            }
        }
        for (int p = 0; p < SB_QP_N; p++)
            if (el->source[p] && r->have < r->total)
                q->pass[p] = false;
    }
    return SB_OK;
}

const char *sb_quality_remedy(const sb_quality_element *el, sb_quality_reason why)
{
    switch (why) {
    case SB_QR_LOOKUPS_OFF:
        return "ask a server started with --lookups with fetch-licenses=true (or one with --package-cache): an "
               "index lookup supplies it";
    case SB_QR_LOOKUP_FAILED:
        return "retry later: the index lookup that supplies it failed or was capped (the document's "
               "pixi:incomplete says which)";
    case SB_QR_WITHHELD: return "a filter of this request left it out: drop the filter to keep it";
    default: return el->remedy;
    }
}

sb_code sb_quality_gate(sb_gate *g, sb_arena *a, const sb_sbom *s, const sb_quality *q, sb_quality_profile p)
{
    for (size_t e = 0; e < q->n; e++) {
        const sb_quality_result *r = &q->res[e];
        if (NULL == r->el->source[p] || r->have == r->total)
            continue;
        sb_buf why;
        sb_buf_init(&why, 0);
        char line[160];
        snprintf(line, sizeof line, "%s (%s) lacking in %zu of %zu%s:", r->el->title, r->el->source[p],
                 r->total - r->have, r->total, r->el->document ? " document" : " component(s)");
        sb_code rc = sb_buf_append(&why, line, strlen(line));
        const char *sep = " ";
        int most = 0; /* the reason most lacking components share: its remedy leads */
        for (int k = 1; k < SB_QR_N && rc == SB_OK; k++) {
            if (0 == r->by_reason[k])
                continue;
            if (0 == most || r->by_reason[k] > r->by_reason[most])
                most = k;
            snprintf(line, sizeof line, "%s%zu %s", sep, r->by_reason[k], reason_names[k]);
            rc = sb_buf_append(&why, line, strlen(line));
            sep = ", ";
        }
        const char *reason = rc == SB_OK ? sb_arena_strndup(a, why.data, why.len) : NULL;
        sb_buf_free(&why);
        sb_finding f = {
            .rule = sb_arena_printf(a, "%s:%s", profile_names[p], r->el->id),
            .value = sb_arena_printf(a, "%zu/%zu", r->have, r->total),
            .reason = reason,
            .remedy = sb_quality_remedy(r->el, (sb_quality_reason)most),
        };
        if (NULL == f.rule || NULL == f.value || NULL == f.reason)
            return SB_ENOMEM;
        if (!r->el->document && r->nfirst) {
            /* the first lacking components by name, and how many lack it */
            sb_finding_pkg *pk = sb_arena_calloc(a, r->nfirst, sizeof *pk);
            if (NULL == pk)
                return SB_ENOMEM;
            for (size_t i = 0; i < r->nfirst; i++) {
                const sb_pkg *c = &s->pkgs[r->first[i]];
                pk[i] = (sb_finding_pkg){c->name, c->version, reason_names[r->first_why[i]]};
            }
            f.package = pk[0].name; /* as before: the first lacking component */
            f.version = pk[0].version;
            f.pkgs = pk;
            f.npkgs = r->nfirst;
            f.count = r->total - r->have;
        }
        rc = sb_gate_add(g, a, &f);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}
