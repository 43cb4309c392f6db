/*
 * ecosystem.h - one row per package ecosystem: everything the model,
 * writers, reports and lookups decide by a package's kind.
 *
 * A package's kind (sb_kind, model.h) says which ecosystem it belongs to;
 * the row says what that means: its name (pixi:kind, exclude-kind=), its
 * purl type and how the purl is derived, how its names are matched, which
 * version order it follows, its OSV ecosystem, its default registry
 * (supplier), the labels report/explain shows, which manifests declare it,
 * and which lookups apply to it. Code outside this table and the readers
 * asks the row; it never compares a kind. Adding an ecosystem is a row
 * here, an enumerator in model.h, a reader, its tests and its docs.
 */
#ifndef SB_ECOSYSTEM_H
#define SB_ECOSYSTEM_H

#include "arena.h"
#include "model.h"

#include <stddef.h>

/* How names of an ecosystem are matched (the diff's pairing, OSV names). */
typedef enum sb_eco_names {
    SB_NAMES_EXACT = 0, /* as spelled (npm, Cargo, Go...) */
    SB_NAMES_LOWER,     /* case-insensitive (conda, NuGet, Composer) */
    SB_NAMES_PEP503     /* PEP 503 normalization (PyPI) */
} sb_eco_names;

/* Which name index of the graph a package of the ecosystem is found in
 * when another package names it without a key (model records with `key`
 * are found by key, whatever the ecosystem). */
typedef enum sb_eco_index {
    SB_INDEX_NONE = 0, /* found only by key */
    SB_INDEX_CONDA,    /* conda names: lower-cased, and their PEP 503 form for PyPI names */
    SB_INDEX_PYPI      /* PEP 503 names; a name not found falls back to a conda package */
} sb_eco_index;

/* How derive.c makes the purl, supplier and properties of a package. */
typedef enum sb_eco_purl_style {
    SB_PURL_GIVEN = 0,    /* none: the input states it (an SBOM read back) */
    SB_PURL_CONDA,        /* pkg:conda from name, version, build, channel, subdir */
    SB_PURL_CONDA_SOURCE, /* pkg:conda from what a source record has */
    SB_PURL_PYPI,         /* pkg:pypi from name, version and the source URL */
    SB_PURL_NPM,          /* pkg:npm from name, version and the resolved URL */
    SB_PURL_READER        /* the reader sets it (sb_eco_purl): a registry purl, vcs_url or pkg:generic */
} sb_eco_purl_style;

/* What applies to an ecosystem's packages, beside the fields below. */
enum {
    /* a package of it named `python` is the interpreter PyPI packages depend on */
    SB_ECO_INTERPRETER = 1u << 0,
    /* a Python distribution: depends on the interpreter; its license and
     * health are looked up on its index; the python report lists it */
    SB_ECO_PYPI_INDEX = 1u << 1,
    /* a binary from a conda channel: the package cache, the archive's
     * license lookup, channel health and the PyPI mapping apply */
    SB_ECO_CHANNEL = 1u << 2,
    /* not looked up in OSV at all (a source build has no published identity) */
    SB_ECO_NO_VULNS = 1u << 3,
    /* OSV names no ecosystem for it: a vulnerability lookup cannot ask about
     * its packages and says so in the document (pixi:incomplete osv) */
    SB_ECO_NO_OSV = 1u << 4,
};

typedef struct sb_ecosystem {
    sb_kind kind;
    const char *name;      /* the pixi:kind value and exclude-kind= name */
    const char *purl_type; /* the purl type an SBOM input's purl maps back from; NULL: none */
    const char *osv;       /* OSV's ecosystem name; NULL: OSV has none */
    /* version order: <0, 0, >0 as a is older, the same, newer than b */
    int (*vercmp)(const char *a, const char *b);
    sb_eco_names names;
    sb_eco_index index;
    sb_eco_purl_style purl;
    int mdep; /* the manifest dependency family (sb_mdep_eco) declaring it; -1: none */
    /* Where a namespace ends in a package name, for the purl: '/' (Go
     * module paths, Composer vendor/name, Swift host/owner/name), ':'
     * (Maven group:artifact); 0 when names have no namespace. */
    char ns_sep;
    /* Where a subpath starts in a name (CocoaPods' Name/Subspec -> #Subspec); 0: none. */
    char subpath_sep;
    /* The registry a plain registry package comes from: the supplier
     * (name, URL); NULL when the ecosystem has none or names it per package. */
    const char *registry, *registry_url;
    unsigned flags;
    /* report/explain: what the purl is derived from, what the supplier is */
    const char *explain_purl, *explain_supplier;
} sb_ecosystem;

/* The row of a kind (every sb_kind has one). */
const sb_ecosystem *sb_eco(sb_kind k);

/* The row named `name` (pixi:kind), NULL when none. */
const sb_ecosystem *sb_eco_by_name(const char *name);

/* The row whose purl type is `type`, NULL when none. */
const sb_ecosystem *sb_eco_by_purl_type(const char *type);

/* The names exclude-kind= takes: every row's name, and pypi-source after
 * pypi; NULL-terminated. */
const char *const *sb_eco_filter_names(void);

/* Every row in kind order, and their number. */
const sb_ecosystem *sb_eco_all(size_t *n);

/* Whether a row has a flag. */
static inline int sb_eco_is(sb_kind k, unsigned flag)
{
    return (sb_eco(k)->flags & flag) != 0;
}

/* `name` as the ecosystem matches names (sb_eco_names), into the arena;
 * `name` itself when it needs no change. NULL when out of memory. */
const char *sb_eco_match_name(sb_arena *a, sb_kind k, const char *name);

/*
 * The purl of a package of an SB_PURL_READER ecosystem, into the arena:
 *  - `location` NULL or a registry URL (`registry` true): the registry
 *    purl, pkg:<type>/<namespace>/<name>@<version> with the row's namespace
 *    and subpath rules and the qualifiers given;
 *  - a git source ("git+<url>" with "#<commit>" or a commit given): the
 *    ecosystem's purl with a vcs_url qualifier, never a bare registry one;
 *  - a path (no "://"): pkg:generic/<name>@<version>;
 *  - another URL: the ecosystem's purl with a download_url qualifier.
 * NULL when out of memory or the name is empty.
 */
const char *sb_eco_purl(sb_arena *a, sb_kind k, const char *name, const char *version, const char *location,
                        int registry, const sb_prop *quals, size_t nquals);

/* By the version order of a package kind (the diff, OSV ranges). */
int sb_vercmp(sb_kind kind, const char *a, const char *b);

#endif
