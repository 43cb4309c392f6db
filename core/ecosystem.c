/*
 * ecosystem.c - the table of package ecosystems (see ecosystem.h) and the
 * few functions that read it: a kind's row, its name, its version order,
 * its name matching and the purl an SB_PURL_READER ecosystem's reader asks
 * for.
 *
 * The rows are in sb_kind order, so a kind indexes the table; a test checks
 * that every kind has its row at its own index.
 */
#include "ecosystem.h"
#include "manifest.h"
#include "purl.h"
#include "vercmp.h"

#include <string.h>

static const sb_ecosystem rows[SB_KIND_N] = {
    {.kind = SB_KIND_CONDA,
     .name = "conda",
     .purl_type = "conda",
     .vercmp = sb_vercmp_conda,
     .names = SB_NAMES_LOWER,
     .index = SB_INDEX_CONDA,
     .purl = SB_PURL_CONDA,
     .mdep = SB_MDEP_CONDA,
     .flags = SB_ECO_INTERPRETER | SB_ECO_CHANNEL,
     .explain_purl = "derived from name, version, build, channel, subdir",
     .explain_supplier = "the channel"},
    {.kind = SB_KIND_CONDA_SOURCE,
     .name = "conda-source",
     .vercmp = sb_vercmp_conda,
     .names = SB_NAMES_LOWER,
     .index = SB_INDEX_CONDA,
     .purl = SB_PURL_CONDA_SOURCE,
     .mdep = SB_MDEP_CONDA,
     .flags = SB_ECO_INTERPRETER | SB_ECO_NO_VULNS},
    {.kind = SB_KIND_PYPI,
     .name = "pypi",
     .purl_type = "pypi",
     .osv = "PyPI",
     .vercmp = sb_vercmp_pep440,
     .names = SB_NAMES_PEP503,
     .index = SB_INDEX_PYPI,
     .purl = SB_PURL_PYPI,
     .mdep = SB_MDEP_PYPI,
     .flags = SB_ECO_PYPI_INDEX,
     .explain_purl = "derived from name, version and the source URL",
     .explain_supplier = "the package index"},
    {.kind = SB_KIND_EMBEDDED, .name = "embedded", .vercmp = sb_vercmp_conda, .mdep = -1},
    {.kind = SB_KIND_EXTERNAL, .name = "external", .vercmp = sb_vercmp_conda, .mdep = -1},
    {.kind = SB_KIND_NPM,
     .name = "npm",
     .purl_type = "npm",
     .osv = "npm",
     .vercmp = sb_vercmp_semver,
     .purl = SB_PURL_NPM,
     .mdep = SB_MDEP_NPM,
     .explain_purl = "derived from name, version and the resolved URL",
     .explain_supplier = "the registry host"},
    {.kind = SB_KIND_CARGO,
     .name = "cargo",
     .purl_type = "cargo",
     .osv = "crates.io",
     .vercmp = sb_vercmp_semver,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .registry = "crates.io",
     .registry_url = "https://crates.io",
     .explain_purl = "derived from name, version and the source",
     .explain_supplier = "the registry"},
    {.kind = SB_KIND_GOLANG,
     .name = "golang",
     .purl_type = "golang",
     .osv = "Go",
     .vercmp = sb_vercmp_go,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .ns_sep = '/',
     .registry = "proxy.golang.org",
     .registry_url = "https://proxy.golang.org",
     .explain_purl = "derived from the module path and version",
     .explain_supplier = "the module proxy"},
    {.kind = SB_KIND_MAVEN,
     .name = "maven",
     .purl_type = "maven",
     .osv = "Maven",
     .vercmp = sb_vercmp_maven,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .ns_sep = ':',
     .explain_purl = "derived from group, artifact and version",
     .explain_supplier = "the repository"},
    {.kind = SB_KIND_SWIFT,
     .name = "swift",
     .purl_type = "swift",
     .osv = "SwiftURL",
     .vercmp = sb_vercmp_semver,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .ns_sep = '/',
     .explain_purl = "derived from the repository URL and version",
     .explain_supplier = "the repository host"},
    {.kind = SB_KIND_CONAN,
     .name = "conan",
     .purl_type = "conan",
     .osv = "ConanCenter",
     .vercmp = sb_vercmp_conan,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .registry = "ConanCenter",
     .registry_url = "https://center2.conan.io",
     .explain_purl = "derived from name, version, user, channel and recipe revision",
     .explain_supplier = "the remote"},
    {.kind = SB_KIND_GEM,
     .name = "gem",
     .purl_type = "gem",
     .osv = "RubyGems",
     .vercmp = sb_vercmp_gem,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .registry = "rubygems.org",
     .registry_url = "https://rubygems.org",
     .explain_purl = "derived from name, version and platform",
     .explain_supplier = "the gem source"},
    {.kind = SB_KIND_COMPOSER,
     .name = "composer",
     .purl_type = "composer",
     .osv = "Packagist",
     .vercmp = sb_vercmp_composer,
     .names = SB_NAMES_LOWER,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .ns_sep = '/',
     .registry = "packagist.org",
     .registry_url = "https://packagist.org",
     .explain_purl = "derived from vendor, name and version",
     .explain_supplier = "the repository"},
    {.kind = SB_KIND_NUGET,
     .name = "nuget",
     .purl_type = "nuget",
     .osv = "NuGet",
     .vercmp = sb_vercmp_nuget,
     .names = SB_NAMES_LOWER,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .registry = "nuget.org",
     .registry_url = "https://www.nuget.org",
     .explain_purl = "derived from name and version",
     .explain_supplier = "the feed"},
    {.kind = SB_KIND_PUB,
     .name = "pub",
     .purl_type = "pub",
     .osv = "Pub",
     .vercmp = sb_vercmp_pub,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .registry = "pub.dev",
     .registry_url = "https://pub.dev",
     .explain_purl = "derived from name, version and the source",
     .explain_supplier = "the hosted repository"},
    {.kind = SB_KIND_HEX,
     .name = "hex",
     .purl_type = "hex",
     .osv = "Hex",
     .vercmp = sb_vercmp_semver,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .ns_sep = '/', /* a Hex organization's package: org/name */
     .registry = "hex.pm",
     .registry_url = "https://hex.pm",
     .explain_purl = "derived from name, version and the repository",
     .explain_supplier = "the repository"},
    {.kind = SB_KIND_COCOAPODS,
     .name = "cocoapods",
     .purl_type = "cocoapods",
     .vercmp = sb_vercmp_gem,
     .purl = SB_PURL_READER,
     .mdep = -1,
     .subpath_sep = '/',
     .registry = "CocoaPods trunk",
     .registry_url = "https://cdn.cocoapods.org",
     .flags = SB_ECO_NO_OSV,
     .explain_purl = "derived from pod name, version and subspec",
     .explain_supplier = "the spec repository"},
};

/* exclude-kind= takes every row's name and, after pypi, pypi-source (a
 * PyPI package built from source); the order is the documents' serial
 * order. A test checks it lists every row. */
static const char *const filter_names[] = {"conda",    "conda-source", "pypi",      "pypi-source", "embedded",
                                           "external", "npm",          "cargo",     "golang",      "maven",
                                           "swift",    "conan",        "gem",       "composer",    "nuget",
                                           "pub",      "hex",          "cocoapods", NULL};

const char *const *sb_eco_filter_names(void)
{
    return filter_names;
}

const sb_ecosystem *sb_eco(sb_kind k)
{
    /* a kind out of range is a programming error; the last-resort row keeps
     * a release build answering rather than reading past the table */
    return (unsigned)k < SB_KIND_N ? &rows[k] : &rows[SB_KIND_EXTERNAL];
}

const sb_ecosystem *sb_eco_all(size_t *n)
{
    *n = SB_KIND_N;
    return rows;
}

const sb_ecosystem *sb_eco_by_name(const char *name)
{
    for (size_t i = 0; name && i < SB_KIND_N; i++)
        if (!strcmp(rows[i].name, name))
            return &rows[i];
    return NULL;
}

const sb_ecosystem *sb_eco_by_purl_type(const char *type)
{
    for (size_t i = 0; type && i < SB_KIND_N; i++)
        if (rows[i].purl_type && !strcmp(rows[i].purl_type, type))
            return &rows[i];
    return NULL;
}

const char *sb_kind_name(sb_kind k)
{
    return sb_eco(k)->name;
}

int sb_vercmp(sb_kind kind, const char *a, const char *b)
{
    return sb_eco(kind)->vercmp(a, b);
}

/* PEP 503: lower-case, runs of '-', '_', '.' as one '-' */
static int pep503_same(const char *s)
{
    for (const char *c = s; *c; c++)
        if ((*c >= 'A' && *c <= 'Z') || *c == '_' || *c == '.' || (*c == '-' && c[1] == '-'))
            return 0;
    return 1;
}

const char *sb_eco_match_name(sb_arena *a, sb_kind k, const char *name)
{
    sb_eco_names how = sb_eco(k)->names;
    if (NULL == name || how == SB_NAMES_EXACT)
        return name;
    if (how == SB_NAMES_PEP503 && pep503_same(name))
        return name;
    size_t n = strlen(name);
    char *o = sb_arena_stralloc(a, n + 1);
    if (NULL == o)
        return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (how == SB_NAMES_PEP503 && (c == '_' || c == '.' || c == '-')) {
            if (j && o[j - 1] == '-')
                continue;
            c = '-';
        }
        o[j++] = c;
    }
    o[j] = 0;
    return o;
}

/* "git+<repo>#<commit>" or "git+<repo>" -> "git+<repo>@<commit>" */
static const char *vcs_url(sb_arena *a, const char *loc)
{
    const char *hash = strchr(loc, '#');
    if (NULL == hash || !hash[1])
        return hash ? sb_arena_strndup(a, loc, (size_t)(hash - loc)) : loc;
    return sb_arena_printf(a, "%.*s@%s", (int)(hash - loc), loc, hash + 1);
}

const char *sb_eco_purl(sb_arena *a, sb_kind k, const char *name, const char *version, const char *location,
                        int registry, const sb_prop *quals, size_t nquals)
{
    const sb_ecosystem *e = sb_eco(k);
    if (NULL == name || !name[0] || NULL == e->purl_type)
        return NULL;
    sb_prop q[8];
    size_t nq = 0;
    for (size_t i = 0; i < nquals && nq < 7; i++)
        q[nq++] = quals[i];
    sb_purl pu = {.type = e->purl_type, .name = name, .version = version};
    if (location && !registry) {
        if (!strncmp(location, "git+", 4) || !strncmp(location, "git:", 4)) {
            q[nq++] = (sb_prop){"vcs_url", vcs_url(a, location)};
        } else if (!strstr(location, "://")) {
            pu.type = "generic";
            nq = 0;
        } else {
            q[nq++] = (sb_prop){"download_url", location};
        }
    }
    if (strcmp(pu.type, "generic")) {
        const char *sub = e->subpath_sep ? strchr(name, e->subpath_sep) : NULL;
        if (sub) {
            pu.name = sb_arena_strndup(a, name, (size_t)(sub - name));
            pu.subpath = sub + 1;
        }
        const char *ns = e->ns_sep ? strrchr(pu.name, e->ns_sep) : NULL;
        if (ns && ns > pu.name && ns[1]) {
            pu.ns = sb_arena_strndup(a, pu.name, (size_t)(ns - pu.name));
            pu.name = ns + 1;
        }
        if (NULL == pu.name)
            return NULL;
    }
    pu.quals = q;
    pu.nquals = nq;
    char *out = NULL;
    return sb_purl_build(&out, a, &pu, NULL) == SB_OK ? out : NULL;
}
