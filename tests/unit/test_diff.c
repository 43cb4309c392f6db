/*
 * test_diff.c - version order per ecosystem (core/vercmp.c) against the
 * orders PEP 440, conda and SemVer 2.0 document, and the diff (core/diff.c)
 * on hand-built models: one case per change kind, name matching rules,
 * npm's several versions of one name, the gate's findings, and every
 * output produced through any buffer size.
 */
#include "test.h"
#include "../../core/diff.h"
#include "../../core/ecosystem.h"
#include "../../core/vercmp.h"

#include <jansson.h>
#include <stdlib.h>

static int sign(int c)
{
    return (c > 0) - (c < 0);
}

/* each list strictly increasing; every pair compared both ways */
static void increasing(int (*cmp)(const char *, const char *), const char *const *v, const char *what)
{
    for (size_t i = 0; v[i]; i++)
        for (size_t j = 0; v[j]; j++) {
            int want = i < j ? -1 : i > j;
            int got = sign(cmp(v[i], v[j]));
            char why[160];
            snprintf(why, sizeof why, "%s: %s vs %s gives %d, not %d", what, v[i], v[j], got, want);
            sb_test_subcase(why, got == want, why);
        }
}

TEST(vercmp_pep440)
{
    /* PEP 440's own ordering example, plus epochs and local labels */
    static const char *const v[] = {"1.0.dev456",
                                    "1.0a1",
                                    "1.0a2.dev456",
                                    "1.0a12.dev456",
                                    "1.0a12",
                                    "1.0b1.dev456",
                                    "1.0b2",
                                    "1.0b2.post345.dev456",
                                    "1.0b2.post345",
                                    "1.0rc1.dev456",
                                    "1.0rc1",
                                    "1.0",
                                    "1.0+abc.5",
                                    "1.0+abc.7",
                                    "1.0+5",
                                    "1.0.post456.dev34",
                                    "1.0.post456",
                                    "1.0.15",
                                    "1.1.dev1",
                                    "1.10",
                                    "2024.1",
                                    "1!0.1",
                                    NULL};
    increasing(sb_vercmp_pep440, v, "pep440");
    CHECK(sb_vercmp_pep440("1.0", "1.0.0") == 0);
    CHECK(sb_vercmp_pep440("v1.0", "1.0") == 0);
    CHECK(sb_vercmp_pep440("1.0RC1", "1.0rc1") == 0);
    CHECK(sb_vercmp_pep440("1.0-1", "1.0.post1") == 0);
    CHECK(sb_vercmp_pep440("2.9.0.post0", "2.8.2") > 0);
    CHECK(sb_vercmp_pep440("0.0.0-not!valid", "0.0.1") < 0); /* not PEP 440: conda's order still numbers */
    CHECK(sb_vercmp_pep440("100000000000000000000001", "100000000000000000000000") > 0);
    CHECK(sb_vercmp_pep440(NULL, "1.0") < 0 && sb_vercmp_pep440(NULL, NULL) == 0);
}

TEST(vercmp_conda)
{
    /* conda's VersionOrder documentation, in order */
    static const char *const v[] = {"0.4",        "0.4.1.rc", "0.4.1",     "0.5a1",   "0.5b3",      "0.5C1",
                                    "0.5",        "0.9.6",    "0.960923",  "1.0",     "1.1dev1",    "1.1a1",
                                    "1.1.0dev1",  "1.1.a1",   "1.1.0rc1",  "1.1.0",   "1.1.0post1", "1.1post1",
                                    "1996.07.12", "1!0.4.1",  "1!3.1.1.6", "2!0.4.1", NULL};
    increasing(sb_vercmp_conda, v, "conda");
    CHECK(sb_vercmp_conda("0.4", "0.4.0") == 0);
    CHECK(sb_vercmp_conda("1.1.0dev1", "1.1.dev1") == 0);
    CHECK(sb_vercmp_conda("1.1", "1.1.0") == 0);
    CHECK(sb_vercmp_conda("0.4.1.rc", "0.4.1.RC") == 0);
    CHECK(sb_vercmp_conda("2024a", "2023c") > 0);
    CHECK(sb_vercmp_conda("6.4.20240210", "6.4") > 0);
    CHECK(sb_vercmp_conda("1.0_1", "1.0.1") == 0);
}

TEST(vercmp_semver)
{
    /* SemVer 2.0 section 11's example, then majors */
    static const char *const v[] = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta",
                                    "1.0.0-beta",  "1.0.0-beta.2",  "1.0.0-beta.11",
                                    "1.0.0-rc.1",  "1.0.0",         "1.0.1",
                                    "1.9.0",       "1.10.0",        "2.0.0",
                                    NULL};
    increasing(sb_vercmp_semver, v, "semver");
    CHECK(sb_vercmp_semver("1.0.0+build.1", "1.0.0+build.2") == 0);
    CHECK(sb_vercmp_semver("v1.2.3", "1.2.3") == 0);
    CHECK(sb_vercmp_semver("1.2", "1.10") < 0); /* not SemVer: conda's order */
    CHECK(sb_vercmp(SB_KIND_NPM, "1.0.0-rc.1", "1.0.0") < 0);
    CHECK(sb_vercmp(SB_KIND_PYPI, "1.0rc1", "1.0") < 0);
    CHECK(sb_vercmp(SB_KIND_CONDA, "1.0rc1", "1.0") < 0);
}

/* ---- hand-built models ----------------------------------------------------------- */

static sb_pkg pkg(sb_kind k, const char *name, const char *version, const char *license, const char *supplier,
                  const char *location)
{
    sb_pkg p;
    memset(&p, 0, sizeof p);
    p.kind = k;
    p.name = name;
    p.version = version;
    p.license = license;
    p.supplier_name = supplier;
    p.location = location;
    p.purl = "pkg:generic/x";
    return p;
}

static sb_sbom model(sb_pkg *p, size_t n)
{
    sb_sbom s;
    memset(&s, 0, sizeof s);
    s.pkgs = p;
    s.npkgs = n;
    s.environment = "default";
    s.platform = "linux-64";
    s.lockfile_name = "pixi.lock";
    return s;
}

static const sb_diff_row *row(const sb_diff *d, sb_diff_change c, const char *name)
{
    for (size_t i = 0; i < d->nrows; i++)
        if (d->rows[i].change == c && !strcmp(d->rows[i].name, name))
            return &d->rows[i];
    return NULL;
}

TEST(diff_each_change_kind)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg base[] = {
        pkg(SB_KIND_CONDA, "gone", "1.0", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "LibFoo", "1.9", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "old", "2.0", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "same", "1.0", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "relicensed", "1.0", "GPL-2.0-or-later", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "moved", "1.0", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_PYPI, "Typing_Extensions", "4.12.2", NULL, "pypi.org", NULL),
        pkg(SB_KIND_PYPI, "equal", "1.0", NULL, "pypi.org", NULL),
        pkg(SB_KIND_PYPI, "wheel-url", "1.0", NULL, NULL, "https://files.example/a1/wheel_url-1.0-py3-none-any.whl"),
        pkg(SB_KIND_PYPI, "fromgit", "0.1", NULL, NULL, "git+https://github.com/o/fromgit#aaaa"),
    };
    sb_pkg head[] = {
        pkg(SB_KIND_CONDA, "libfoo", "1.10", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "new", "0.1", "Apache-2.0", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "old", "2.0rc1", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "same", "1.0", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "relicensed", "1.0", "MIT", "conda-forge", NULL),
        pkg(SB_KIND_CONDA, "moved", "1.0", "MIT", "bioconda", NULL),
        pkg(SB_KIND_PYPI, "typing-extensions", "4.14.1", NULL, "pypi.org", NULL),
        pkg(SB_KIND_PYPI, "equal", "1.0.0", NULL, "pypi.org", NULL),
        pkg(SB_KIND_PYPI, "wheel-url", "1.1", NULL, NULL, "https://files.example/b2/wheel_url-1.1-py3-none-any.whl"),
        pkg(SB_KIND_PYPI, "fromgit", "0.1", NULL, NULL, "git+https://github.com/o/fromgit#bbbb"),
    };
    sb_sbom b = model(base, sizeof base / sizeof base[0]), h = model(head, sizeof head / sizeof head[0]);
    sb_diff *d = NULL;
    sb_err err;
    CHECK(sb_diff_compute(&d, a, &b, &h, &err) == SB_OK);
    if (NULL == d) {
        sb_arena_destroy(a);
        return;
    }
    const sb_diff_row *r;
    CHECK((r = row(d, SB_DIFF_ADDED, "new")) && NULL == r->base_version && !strcmp(r->head_version, "0.1"));
    CHECK((r = row(d, SB_DIFF_REMOVED, "gone")) && !strcmp(r->base_version, "1.0") && NULL == r->head_version);
    /* conda folds case: LibFoo -> libfoo is one package, 1.9 < 1.10 */
    CHECK((r = row(d, SB_DIFF_UPGRADED, "libfoo")) && !strcmp(r->base_version, "1.9"));
    CHECK(row(d, SB_DIFF_DOWNGRADED, "old") != NULL); /* 2.0rc1 is before 2.0 */
    /* PEP 503: Typing_Extensions is typing-extensions */
    CHECK(row(d, SB_DIFF_UPGRADED, "typing-extensions") != NULL);
    CHECK((r = row(d, SB_DIFF_LICENSE, "relicensed")) && !strcmp(r->base_license, "GPL-2.0-or-later") &&
          !strcmp(r->head_license, "MIT"));
    CHECK((r = row(d, SB_DIFF_SOURCE, "moved")) && !strcmp(r->base_source, "conda-forge") &&
          !strcmp(r->head_source, "bioconda"));
    /* a git commit moved under the same version: a source change */
    CHECK(row(d, SB_DIFF_SOURCE, "fromgit") != NULL);
    /* 1.0 == 1.0.0 by PEP 440: no row; an index wheel's URL under a new hash
     * directory is still the same host: no source change */
    CHECK(NULL == row(d, SB_DIFF_UPGRADED, "equal") && NULL == row(d, SB_DIFF_DOWNGRADED, "equal"));
    CHECK(row(d, SB_DIFF_UPGRADED, "wheel-url") != NULL && NULL == row(d, SB_DIFF_SOURCE, "wheel-url"));
    CHECK(d->count[SB_DIFF_ADDED] == 1 && d->count[SB_DIFF_REMOVED] == 1 && d->count[SB_DIFF_UPGRADED] == 3 &&
          d->count[SB_DIFF_DOWNGRADED] == 1 && d->count[SB_DIFF_LICENSE] == 1 && d->count[SB_DIFF_SOURCE] == 2);
    CHECK(d->unchanged == 2); /* same, equal */
    CHECK(d->nrows == 9);
    for (size_t i = 1; i < d->nrows; i++)
        CHECK(d->rows[i - 1].change <= d->rows[i].change);

    sb_gate g;
    sb_gate_init(&g, "diff", "The lockfiles differ");
    CHECK(sb_diff_gate(&g, a, d, SB_DIFF_ALL, false) == SB_OK && g.n == d->nrows);
    /* a gate on some kinds of change takes only their rows */
    sb_gate some;
    sb_gate_init(&some, "diff", "The lockfiles differ");
    CHECK(sb_diff_gate(&some, a, d, 1u << SB_DIFF_DOWNGRADED | 1u << SB_DIFF_SOURCE, false) == SB_OK && some.n == 3);
    for (size_t i = 0; i < some.n; i++)
        CHECK(!strcmp(some.items[i].value, "downgraded") || !strcmp(some.items[i].value, "source-changed"));
    int found = 0;
    for (size_t i = 0; i < g.n; i++)
        if (!strcmp(g.items[i].package, "libfoo"))
            found = !strcmp(g.items[i].value, "upgraded") && strstr(g.items[i].reason, "1.9 -> 1.10") &&
                    !strcmp(g.items[i].version, "1.10");
    CHECK(found);
    sb_arena_destroy(a);
}

TEST(diff_npm_several_versions)
{
    sb_arena *a = sb_arena_new(0);
    /* debug 2.6.9 / 4.3.1 / 4.3.3 -> 2.6.9 / 3.2.7 / 4.3.4: 2.6.9 stays, 4.3.3 -> 4.3.4 is
     * the upgrade of the 4 line, 4.3.1 went and 3.2.7 came */
    sb_pkg base[] = {pkg(SB_KIND_NPM, "debug", "2.6.9", NULL, "registry.npmjs.org", NULL),
                     pkg(SB_KIND_NPM, "debug", "4.3.1", NULL, "registry.npmjs.org", NULL),
                     pkg(SB_KIND_NPM, "debug", "4.3.3", NULL, "registry.npmjs.org", NULL),
                     pkg(SB_KIND_NPM, "ms", "2.1.3", NULL, "registry.npmjs.org", NULL)};
    sb_pkg head[] = {pkg(SB_KIND_NPM, "debug", "2.6.9", NULL, "registry.npmjs.org", NULL),
                     pkg(SB_KIND_NPM, "debug", "3.2.7", NULL, "registry.npmjs.org", NULL),
                     pkg(SB_KIND_NPM, "debug", "4.3.4", NULL, "registry.npmjs.org", NULL),
                     pkg(SB_KIND_NPM, "ms", "3.0.0-canary.1", NULL, "registry.npmjs.org", NULL)};
    sb_sbom b = model(base, 4), h = model(head, 4);
    sb_diff *d = NULL;
    sb_err err;
    CHECK(sb_diff_compute(&d, a, &b, &h, &err) == SB_OK);
    if (d) {
        const sb_diff_row *r;
        CHECK((r = row(d, SB_DIFF_UPGRADED, "debug")) && !strcmp(r->base_version, "4.3.3") &&
              !strcmp(r->head_version, "4.3.4"));
        CHECK((r = row(d, SB_DIFF_REMOVED, "debug")) && !strcmp(r->base_version, "4.3.1"));
        CHECK((r = row(d, SB_DIFF_ADDED, "debug")) && !strcmp(r->head_version, "3.2.7"));
        /* one version each side pairs across majors; a pre-release of 3 is above 2.1.3 */
        CHECK(row(d, SB_DIFF_UPGRADED, "ms") != NULL);
        CHECK(d->nrows == 4 && d->unchanged == 1);
    }
    sb_arena_destroy(a);
}

/* Every output of one diff, through buffers of 1 byte and 64 KiB: equal. */
static char *produce(const sb_diff *df, sb_report_output o, size_t bufsize)
{
    sb_arena *a = sb_arena_new(0);
    sb_doc_opts opts = {0};
    opts.pretty = true;
    sb_doc *d = NULL;
    sb_err err;
    char *out = NULL;
    size_t n = 0;
    if (sb_diff_doc_new(&d, a, sb_diff_kind.ops[o], df, &opts, &err) == SB_OK) {
        char *buf = malloc(bufsize);
        ssize_t k;
        while ((k = sb_doc_produce(d, buf, bufsize)) > 0) {
            out = realloc(out, n + (size_t)k + 1);
            memcpy(out + n, buf, (size_t)k);
            n += (size_t)k;
        }
        free(buf);
        sb_doc_free(d);
    }
    if (out)
        out[n] = '\0';
    sb_arena_destroy(a);
    return out;
}

TEST(diff_outputs)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg base[] = {pkg(SB_KIND_CONDA, "a|b", "1.0", "MIT", "conda-forge", NULL),
                     pkg(SB_KIND_PYPI, "=cmd", "1.0", NULL, "pypi.org", NULL)};
    sb_pkg head[] = {pkg(SB_KIND_CONDA, "a|b", "1.1", "MIT", "conda-forge", NULL)};
    sb_sbom b = model(base, 2), h = model(head, 1);
    sb_diff *d = NULL;
    sb_err err;
    CHECK(sb_diff_compute(&d, a, &b, &h, &err) == SB_OK);
    CHECK(sb_diff_kind.ops[SB_REPORT_SARIF] == NULL);
    for (int o = SB_REPORT_JSON; d && o <= SB_REPORT_CSV; o++) {
        char *small = produce(d, (sb_report_output)o, 1), *big = produce(d, (sb_report_output)o, 65536);
        CHECK(small && big && !strcmp(small, big));
        if (o == SB_REPORT_JSON && big) {
            json_error_t je;
            json_t *j = json_loads(big, 0, &je);
            CHECK(j && json_array_size(json_object_get(j, "diff")) == 2);
            CHECK(j && json_integer_value(json_object_get(json_object_get(j, "summary"), "upgraded")) == 1);
            CHECK(j && json_integer_value(json_object_get(json_object_get(j, "summary"), "removed")) == 1);
            json_decref(j);
        }
        if (o == SB_REPORT_MARKDOWN && big) {
            CHECK(!strncmp(big,
                           "**sbomd diff:** 0 added, 1 removed, 1 upgraded, 0 downgraded, 0 license changed, "
                           "0 source changed, 0 hash changed, 0 scope changed (0 unchanged)\n",
                           145));
            CHECK(strstr(big, "<details><summary>Removed (1)</summary>\n\n| Kind | Name | Before | After |\n"));
            CHECK(strstr(big, "| conda | `a\\|b` | 1.0 | 1.1 |\n")); /* a span, the bar escaped */
            CHECK(strstr(big, "\n</details>\n"));
        }
        if (o == SB_REPORT_CSV && big) {
            CHECK(!strncmp(big,
                           "environment,platform,change,kind,name,base_version,head_version,base_license,"
                           "head_license,base_source,head_source,purl,base_hash,head_hash,base_scope,head_scope,"
                           "direct\r\n",
                           169));
            CHECK(strstr(big, "default,linux-64,removed,pypi,\"'=cmd\",1.0,,,,pypi.org,,pkg:generic/x,,,,,false\r\n"));
            CHECK(!strstr(big, "now_denied")); /* a column only under a license policy */
        }
        free(small);
        free(big);
    }
    sb_arena_destroy(a);
}

/* The diff in the reports' one schema: every JSON row opens with the
 * head's environment and platform, and the summary's incomplete is what
 * either side's document lacks, an entry both share once, head first. */
TEST(diff_rows_carry_the_selection_and_summary_the_incomplete)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg base[] = {pkg(SB_KIND_PYPI, "old", "1.0", NULL, "pypi.org", NULL)};
    sb_pkg head[] = {pkg(SB_KIND_PYPI, "old", "2.0", NULL, "pypi.org", NULL)};
    sb_sbom b = model(base, 1), h = model(head, 1);
    b.platform = h.platform = "win-64";
    b.environment = h.environment = "test";
    CHECK(sb_incomplete_add(&h.incomplete, a, "licenses", "%s", "1 package without a license") == SB_OK);
    CHECK(sb_incomplete_add(&b.incomplete, a, "licenses", "%s", "1 package without a license") == SB_OK);
    CHECK(sb_incomplete_add(&b.incomplete, a, "osv", "%s", "OSV did not answer") == SB_OK);
    sb_diff *d = NULL;
    sb_err err;
    CHECK(sb_diff_compute(&d, a, &b, &h, &err) == SB_OK);
    char *js = d ? produce(d, SB_REPORT_JSON, 65536) : NULL;
    json_error_t je;
    json_t *j = js ? json_loads(js, 0, &je) : NULL;
    json_t *r0 = json_array_get(json_object_get(j, "diff"), 0);
    CHECK(r0 && !strcmp(json_object_iter_key(json_object_iter(r0)), "environment"));
    CHECK_STR(json_string_value(json_object_get(r0, "environment")), "test");
    CHECK_STR(json_string_value(json_object_get(r0, "platform")), "win-64");
    json_t *inc = json_object_get(json_object_get(j, "summary"), "incomplete");
    CHECK(json_array_size(inc) == 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(inc, 0), "step")), "licenses");
    CHECK_STR(json_string_value(json_object_get(json_array_get(inc, 1), "step")), "osv");
    CHECK_STR(json_string_value(json_object_get(json_array_get(inc, 1), "detail")), "osv: OSV did not answer");
    json_decref(j);
    free(js);
    char *csv = d ? produce(d, SB_REPORT_CSV, 65536) : NULL;
    CHECK(csv && strstr(csv, "\r\ntest,win-64,upgraded,pypi,old,1.0,2.0,"));
    free(csv);
    sb_arena_destroy(a);
}

/* Issue 37: a digest that changed under the same version, a scope that
 * changed, direct dependencies told apart; a gate on those kinds (and on
 * direct dependencies only) takes just their rows, and the Markdown and
 * text diffs lead with them. */
TEST(diff_hash_scope_direct_and_gated_first)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg base[] = {pkg(SB_KIND_PYPI, "tampered", "1.0", NULL, "pypi.org", NULL),
                     pkg(SB_KIND_PYPI, "rebuilt", "1.0", NULL, "pypi.org", NULL),
                     pkg(SB_KIND_PYPI, "moved-to-dev", "2.0", NULL, "pypi.org", NULL),
                     pkg(SB_KIND_PYPI, "deep", "1.0", NULL, "pypi.org", NULL)};
    sb_pkg head[] = {pkg(SB_KIND_PYPI, "tampered", "1.0", NULL, "pypi.org", NULL),
                     pkg(SB_KIND_PYPI, "rebuilt", "1.1", NULL, "pypi.org", NULL),
                     pkg(SB_KIND_PYPI, "moved-to-dev", "2.0", NULL, "pypi.org", NULL),
                     pkg(SB_KIND_PYPI, "deep", "1.0", NULL, "pypi.org", NULL)};
    base[0].sha256 = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    head[0].sha256 = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    base[1].sha256 =
        "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"; /* a new version: its own hash */
    head[1].sha256 = "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd";
    base[2].scope = SB_SCOPE_REQUIRED, head[2].scope = SB_SCOPE_DEVELOPMENT;
    head[3].sha1 = "ffffffffffffffffffffffffffffffffffffffff"; /* only one side has one: no row */
    sb_sbom b = model(base, 4), h = model(head, 4);
    size_t rb[] = {0, 2}, rh[] = {0, 1};
    b.root_deps = rb, b.nroot = 2;
    h.root_deps = rh, h.nroot = 2;
    sb_diff *d = NULL;
    sb_err err;
    CHECK(sb_diff_compute(&d, a, &b, &h, &err) == SB_OK);
    if (NULL == d) {
        sb_arena_destroy(a);
        return;
    }
    const sb_diff_row *r;
    CHECK((r = row(d, SB_DIFF_HASH, "tampered")) && r->direct && !strncmp(r->base_hash, "sha256:aaaa", 11) &&
          !strncmp(r->head_hash, "sha256:bbbb", 11));
    CHECK(NULL == row(d, SB_DIFF_HASH, "rebuilt") && row(d, SB_DIFF_UPGRADED, "rebuilt"));
    CHECK((r = row(d, SB_DIFF_SCOPE, "moved-to-dev")) && r->direct && r->base_scope == SB_SCOPE_REQUIRED &&
          r->head_scope == SB_SCOPE_DEVELOPMENT);
    CHECK(NULL == row(d, SB_DIFF_HASH, "deep") && d->nrows == 3);
    CHECK((r = row(d, SB_DIFF_UPGRADED, "rebuilt")) && r->direct); /* direct in head only */
    sb_gate g;
    sb_gate_init(&g, "diff", "x");
    CHECK(sb_diff_gate(&g, a, d, 1u << SB_DIFF_HASH | 1u << SB_DIFF_SCOPE, false) == SB_OK && g.n == 2);
    sb_gate gd;
    sb_gate_init(&gd, "diff", "x");
    b.root_deps = rb, b.nroot = 1; /* "moved-to-dev" no longer direct on either side */
    sb_diff *d2 = NULL;
    CHECK(sb_diff_compute(&d2, a, &b, &h, &err) == SB_OK);
    CHECK(d2 && sb_diff_gate(&gd, a, d2, SB_DIFF_ALL, true) == SB_OK && gd.n == 2); /* tampered, rebuilt */
    d->gated = 1u << SB_DIFF_HASH;
    char *md = produce(d, SB_REPORT_MARKDOWN, 7), *txt = produce(d, SB_REPORT_TEXT, 65536);
    CHECK(md && strstr(md, "**Failing the gate (1 of 3 changes):**\n\n| Change | Kind | Name | Before | After |\n"));
    CHECK(md && strstr(md, "| hash-changed | pypi | tampered | `sha256:aaaa"));
    CHECK(md && strstr(md, "**Failing the gate") < strstr(md, "<details>"));
    CHECK(txt && !strncmp(txt, "Failing the gate (1 of 3 changes):\n", 35) && strstr(txt, "\nAll changes:\n"));
    char *csv = produce(d, SB_REPORT_CSV, 65536);
    CHECK(
        csv &&
        strstr(csv,
               "default,linux-64,scope-changed,pypi,moved-to-dev,2.0,2.0,,,pypi.org,pypi.org,pkg:generic/x,,,required,"
               "development,true\r\n"));
    free(md);
    free(txt);
    free(csv);
    sb_arena_destroy(a);
}

/* A repository's lockfile as its merged selection has it: a component named
 * by its path. */
static sb_pkg lockfile_comp(const char *path)
{
    static sb_prop kind = {"pixi:lockfile-kind", "uv.lock"};
    sb_pkg p = pkg(SB_KIND_EXTERNAL, path, "1.0", NULL, NULL, NULL);
    p.props = &kind;
    p.nprops = 1;
    return p;
}

TEST(diff_repo_lockfile_by_lockfile)
{
    sb_arena *a = sb_arena_new(0);
    /* x is locked at 1.0 by a/ and 2.0 by b/: merged, a/'s 1.0 -> 1.1 could
     * pair with either; lockfile by lockfile it is a/'s upgrade */
    sb_pkg ba[] = {pkg(SB_KIND_PYPI, "x", "1.0", "MIT", "pypi.org", NULL)};
    sb_pkg bb[] = {pkg(SB_KIND_PYPI, "x", "2.0", "MIT", "pypi.org", NULL),
                   pkg(SB_KIND_PYPI, "y", "1.0", "MIT", "pypi.org", NULL)};
    sb_pkg ha[] = {pkg(SB_KIND_PYPI, "x", "1.1", "MIT", "pypi.org", NULL)};
    sb_pkg hc[] = {pkg(SB_KIND_PYPI, "z", "1.0", "MIT", "pypi.org", NULL)};
    sb_pkg ball[] = {lockfile_comp("a/uv.lock"), lockfile_comp("b/uv.lock")};
    sb_pkg hall[] = {lockfile_comp("a/uv.lock"), lockfile_comp("c/uv.lock")};
    sb_sbom sba = model(ba, 1), sbb = model(bb, 2), sha = model(ha, 1), shc = model(hc, 1);
    sb_sbom sball = model(ball, 2), shall = model(hall, 2);
    sba.lockfile_name = sha.lockfile_name = "a/uv.lock";
    sbb.lockfile_name = "b/uv.lock";
    shc.lockfile_name = "c/uv.lock";
    sball.lockfile_name = shall.lockfile_name = NULL;
    const sb_sbom *base[] = {&sba, &sbb}, *head[] = {&sha, &shc};
    sb_diff *d = NULL;
    sb_err err;
    CHECK(sb_diff_compute_repo(&d, a, &sball, &shall, base, 2, head, 2, &err) == SB_OK);
    CHECK(d && d->by_lockfile);
    if (NULL == d) {
        sb_arena_destroy(a);
        return;
    }
    CHECK(d->count[SB_DIFF_UPGRADED] == 1 && d->count[SB_DIFF_ADDED] == 2 && d->count[SB_DIFF_REMOVED] == 3);
    CHECK(d->nrows == 6 && d->count[SB_DIFF_DOWNGRADED] == 0);
    const sb_diff_row *up = row(d, SB_DIFF_UPGRADED, "x");
    CHECK(up && !strcmp(up->lockfile, "a/uv.lock") && !strcmp(up->base_version, "1.0") &&
          !strcmp(up->head_version, "1.1") && !strcmp(up->label, "a/uv.lock: x"));
    const sb_diff_row *gone = row(d, SB_DIFF_REMOVED, "b/uv.lock"), *new = row(d, SB_DIFF_ADDED, "c/uv.lock");
    CHECK(gone && gone->kind == SB_KIND_EXTERNAL && !strcmp(gone->lockfile, "b/uv.lock") && gone->base_version);
    CHECK(new &&new->kind == SB_KIND_EXTERNAL && !strcmp(new->label, "c/uv.lock") && new->head_version);
    const sb_diff_row *x2 = row(d, SB_DIFF_REMOVED, "x"), *z = row(d, SB_DIFF_ADDED, "z");
    CHECK(x2 && !strcmp(x2->base_version, "2.0") && !strcmp(x2->lockfile, "b/uv.lock"));
    CHECK(z && !strcmp(z->lockfile, "c/uv.lock"));
    /* rows by change, the lockfile's own row before its packages' */
    CHECK(d->rows[0].change == SB_DIFF_ADDED && !strcmp(d->rows[0].name, "c/uv.lock"));
    char *json = produce(d, SB_REPORT_JSON, 7), *csv = produce(d, SB_REPORT_CSV, 65536);
    json_error_t je;
    json_t *j = json ? json_loads(json, 0, &je) : NULL;
    json_t *rows = j ? json_object_get(j, "diff") : NULL;
    CHECK(json_array_size(rows) == 6);
    for (size_t i = 0; i < json_array_size(rows); i++)
        CHECK(json_is_string(json_object_get(json_array_get(rows, i), "lockfile")));
    /* the lockfile third, after environment and platform, as in every
     * report of a repository */
    CHECK(csv && !strncmp(csv, "environment,platform,lockfile,change,", 37) && strstr(csv, ",c/uv.lock,added,"));
    json_decref(j);
    free(json);
    free(csv);
    /* one lockfile's diff keeps its columns */
    sb_diff *one = NULL;
    CHECK(sb_diff_compute(&one, a, &sba, &sha, &err) == SB_OK && one && !one->by_lockfile && !one->rows[0].lockfile);
    char *csv1 = one ? produce(one, SB_REPORT_CSV, 65536) : NULL;
    CHECK(csv1 && strstr(csv1, ",direct\r\n") && !strstr(csv1, "lockfile"));
    free(csv1);
    sb_arena_destroy(a);
}
