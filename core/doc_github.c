/*
 * doc_github.c - GitHub's dependency-submission snapshot (the `snapshot`
 * body of POST /repos/{owner}/{repo}/dependency-graph/snapshots), written
 * piece by piece like the SBOM formats: one resolved entry per package.
 *
 * DESIGN: a snapshot is one submission for one commit. Its manifests are the
 * lockfile's selections: one for a single selection, named after the
 * lockfile; a repository's, one per lockfile named by its path (which is
 * what GitHub shows); with all-environments / all-platforms one per
 * environment x platform in the same document ("pixi.lock:default:linux-64",
 * "web/package-lock.json:default:linux-64"), since two
 * snapshots sharing a correlator replace each other and an NDJSON sequence
 * would keep only the last (doc.c joins the selections: components, middle
 * and relations run once per selection, begin and end once). The manifest
 * opens with its first piece (or in `middle` when it has no packages) and
 * closes in `middle`.
 *
 * What GitHub matches on is package_url. A conda package that has a PyPI
 * identity (the lockfile's purls: key, or the conda -> PyPI mapping) is
 * submitted under that PyPI purl, which the Advisory Database covers and
 * conda purls are not; its conda purl stays in the entry's metadata. The
 * resolved key is the package's document id (its own purl, made unique),
 * so a conda and a PyPI package with one PyPI identity remain two entries.
 * relationship: direct for the root's edges (the lockfile's or manifest's
 * declared dependencies, else what nothing depends on), indirect otherwise,
 * and absent when the input states no dependencies at all (requirements.txt
 * without `# via`, explicit specs): unknown is not indirect. scope:
 * development for what only a development group reaches, runtime otherwise.
 * Metadata holds at most 4 scalar keys per object: the limit is 8.
 */
#include "doc.h"
#include "ecosystem.h"
#include "version.h"

#include <string.h>

typedef struct gh_state {
    size_t part;           /* the selection `direct` was computed for */
    bool open;             /* that selection's manifest is open */
    unsigned char *direct; /* per package of that selection: a root edge */
} gh_state;

/* The PyPI identity GitHub is given for a conda package, NULL when it has
 * none (primary-purl=pypi already made it the purl). */
static const char *pypi_identity(const sb_pkg *p)
{
    if (!sb_eco_is(p->kind, SB_ECO_CHANNEL))
        return NULL;
    if (!strncmp(p->purl, "pkg:pypi/", 9))
        return p->purl;
    for (size_t k = 0; k < sb_pkg_xr(p)->extra_purls.n; k++)
        if (!strncmp(sb_pkg_xr(p)->extra_purls.v[k], "pkg:pypi/", 9))
            return sb_pkg_xr(p)->extra_purls.v[k];
    return NULL;
}

static const char *package_url(const sb_pkg *p)
{
    const char *py = pypi_identity(p);
    return py ? py : p->purl;
}

static const sb_doc_snapshot *snap(const sb_doc *d)
{
    static const sb_doc_snapshot none = {0};
    return d->opts.snapshot ? d->opts.snapshot : &none;
}

/* Required strings the caller left out are written empty: the service
 * refuses such a request before anything is made (handlers/sbom.c); other
 * callers (sbomgen without -G, the fuzzers) get a well-formed document. */
static const char *or_empty(const char *s)
{
    return s ? s : "";
}

static sb_code begin(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_doc_snapshot *g = snap(d);
    gh_state *st = sb_arena_calloc(d->arena, 1, sizeof *st);
    if (NULL == st)
        return SB_ENOMEM;
    d->fmt = st;
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "version");
    sb_jw_int(jw, 0);
    sb_jw_key(jw, "job");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "correlator", or_empty(g->correlator));
    sb_jw_kstr(jw, "id", or_empty(g->job_id));
    sb_jw_kstr_opt(jw, "html_url", g->job_url);
    sb_jw_obj_end(jw);
    sb_jw_kstr(jw, "sha", or_empty(g->sha));
    sb_jw_kstr(jw, "ref", or_empty(g->ref));
    sb_jw_key(jw, "detector");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", SB_TOOL_NAME);
    sb_jw_kstr(jw, "version", SB_VERSION);
    sb_jw_kstr(jw, "url", g->detector_url && g->detector_url[0] ? g->detector_url : SB_TOOL_URL);
    sb_jw_obj_end(jw);
    sb_jw_kstr(jw, "scanned", d->timestamp);
    sb_jw_key(jw, "manifests");
    sb_jw_obj_begin(jw);
    return jw->status;
}

/* Open the current selection's manifest, once: its name, file, metadata and
 * the start of `resolved`, after marking the root's edges. */
static sb_code open_manifest(sb_doc *d)
{
    gh_state *st = d->fmt;
    if (st->open && st->part == d->iseq)
        return SB_OK;
    const sb_sbom *s = d->sbom;
    st->part = d->iseq;
    st->open = true;
    st->direct = sb_arena_calloc(d->arena, s->npkgs ? s->npkgs : 1, 1);
    if (NULL == st->direct)
        return SB_ENOMEM;
    for (size_t k = 0; k < s->nroot; k++)
        st->direct[s->root_deps[k]] = 1;
    sb_jw *jw = &d->jw;
    const char *file = s->lockfile_name ? s->lockfile_name : sb_doc__made_from(d);
    const char *name = file;
    if (d->joined && !d->opts.by_lockfile) { /* all-*: one manifest per selection, each named apart */
        name = sb_arena_printf(d->tmp, "%s:%s:%s", file, s->environment, s->platform);
        if (NULL == name)
            return SB_ENOMEM;
    }
    const char *loc = snap(d)->source_location ? snap(d)->source_location : s->lockfile_name;
    /* a repository's lockfile: its path, under the folder path= names */
    if (d->opts.by_lockfile && snap(d)->source_location && s->lockfile_name &&
        NULL == (loc = sb_arena_printf(d->tmp, "%s/%s", snap(d)->source_location, s->lockfile_name)))
        return SB_ENOMEM;
    sb_jw_key(jw, name);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", name);
    if (loc) {
        sb_jw_key(jw, "file");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "source_location", loc);
        sb_jw_obj_end(jw);
    }
    sb_jw_key(jw, "metadata");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "environment", s->environment);
    sb_jw_kstr(jw, "platform", s->platform);
    sb_jw_kstr(jw, "lockfile-kind", sb_doc__made_from(d));
    if (s->filter) { /* the request left packages out on purpose: say how many */
        sb_jw_key(jw, "excluded-packages");
        sb_jw_int(jw, (long long)s->nexcluded);
    }
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "resolved");
    sb_jw_obj_begin(jw);
    return jw->status;
}

static sb_code component(sb_doc *d, size_t i)
{
    sb_code rc = open_manifest(d);
    if (rc != SB_OK)
        return rc;
    const gh_state *st = d->fmt;
    const sb_sbom *s = d->sbom;
    const sb_pkg *p = &s->pkgs[i];
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, p->id);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "package_url", package_url(p));
    if (pypi_identity(p)) {
        sb_jw_key(jw, "metadata");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "conda-purl", sb_pkg_ref_purl(p));
        sb_jw_obj_end(jw);
    }
    if (!s->deps_unknown)
        sb_jw_kstr(jw, "relationship", st->direct[i] ? "direct" : "indirect");
    sb_jw_kstr(jw, "scope", p->scope == SB_SCOPE_DEVELOPMENT ? "development" : "runtime");
    if (!s->deps_unknown) {
        sb_jw_key(jw, "dependencies");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < p->ndeps; k++)
            sb_jw_str(jw, package_url(&s->pkgs[p->deps[k]]));
        sb_jw_arr_end(jw);
    }
    sb_jw_obj_end(jw);
    return jw->status;
}

static sb_code middle(sb_doc *d)
{
    sb_code rc = open_manifest(d); /* a selection without packages has its manifest too */
    if (rc != SB_OK)
        return rc;
    gh_state *st = d->fmt;
    st->open = false;
    sb_jw_obj_end(&d->jw); /* resolved */
    sb_jw_obj_end(&d->jw); /* the manifest */
    return d->jw.status;
}

static size_t relation_count(const sb_doc *d)
{
    (void)d;
    return 0; /* edges are each entry's dependencies */
}

static sb_code relation(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code end(sb_doc *d)
{
    sb_jw_obj_end(&d->jw); /* manifests */
    sb_jw_obj_end(&d->jw);
    return d->jw.status;
}

const sb_doc_ops sb_doc_github_snapshot = {
    .name = "github-snapshot",
    .media_type = "application/vnd.sbomd.github-snapshot+json",
    .ext = ".github-snapshot.json",
    .text_shape = SB_TEXTS_CYCLONEDX, /* no license texts are written */
    .aliases = (const char *const[]){"github", "github-dependency-snapshot", "dependency-snapshot", NULL},
    .media_base = "application/vnd.sbomd.github-snapshot+json",
    .family_default = true,
    .joins_selections = true,
    .named_only = true,
    .title = "A GitHub snapshot",
    .drops_findings = true, /* manifests and resolved packages only */
    .snapshot = true,
    .begin = begin,
    .component = component,
    .middle = middle,
    .relation_count = relation_count,
    .relation = relation,
    .end = end,
};
