/*
 * test_ecosystem.c - the table of ecosystems: one row per kind at its own
 * index, names and purl types unique, the exclude-kind names complete, and
 * the purls sb_eco_purl makes for the ecosystems whose readers set them.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/ecosystem.h"
#include "../../core/filter.h"

#include <string.h>

TEST(eco_one_row_per_kind)
{
    size_t n;
    const sb_ecosystem *rows = sb_eco_all(&n);
    CHECK(n == SB_KIND_N);
    for (size_t i = 0; i < n; i++) {
        CHECK(rows[i].kind == (sb_kind)i);
        CHECK(sb_eco((sb_kind)i) == &rows[i]);
        CHECK(rows[i].name && rows[i].name[0] && rows[i].vercmp);
        CHECK(sb_eco_by_name(rows[i].name) == &rows[i]);
        CHECK_STR(sb_kind_name((sb_kind)i), rows[i].name);
        if (rows[i].purl_type)
            CHECK(sb_eco_by_purl_type(rows[i].purl_type) == &rows[i]);
        /* a reader-set purl needs a type to build it with */
        if (rows[i].purl == SB_PURL_READER)
            CHECK(rows[i].purl_type != NULL);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(rows[i].name, rows[j].name) != 0);
    }
    CHECK(sb_eco_by_name("nope") == NULL && sb_eco_by_name(NULL) == NULL);
    CHECK(sb_eco_by_purl_type("generic") == NULL);
}

TEST(eco_filter_names_list_every_row)
{
    size_t n, seen = 0;
    const sb_ecosystem *rows = sb_eco_all(&n);
    for (size_t i = 0; i < n; i++) {
        int found = 0;
        for (const char *const *k = sb_eco_filter_names(); *k; k++)
            found |= !strcmp(*k, rows[i].name);
        CHECK(found);
        seen += (size_t)found;
        CHECK(sb_filter_kind_bit(rows[i].name) == 1u << i);
    }
    CHECK(seen == SB_KIND_N);
    CHECK(sb_filter_kind_bit("pypi-source") != 0);
}

TEST(eco_match_names)
{
    sb_arena *a = sb_arena_new(0);
    CHECK_STR(sb_eco_match_name(a, SB_KIND_PYPI, "Foo_Bar.baz"), "foo-bar-baz");
    CHECK_STR(sb_eco_match_name(a, SB_KIND_PYPI, "Foo__Bar"), "foo-bar");
    CHECK_STR(sb_eco_match_name(a, SB_KIND_CONDA, "PyQt"), "pyqt");
    CHECK_STR(sb_eco_match_name(a, SB_KIND_NUGET, "Newtonsoft.Json"), "newtonsoft.json");
    CHECK_STR(sb_eco_match_name(a, SB_KIND_CARGO, "Serde_json"), "Serde_json");
    const char *same = "already-normal";
    CHECK(sb_eco_match_name(a, SB_KIND_PYPI, same) == same);
    sb_arena_destroy(a);
}

TEST(eco_reader_purls)
{
    sb_arena *a = sb_arena_new(0);
    CHECK_STR(sb_eco_purl(a, SB_KIND_CARGO, "serde", "1.0.0", NULL, 1, NULL, 0), "pkg:cargo/serde@1.0.0");
    CHECK_STR(sb_eco_purl(a, SB_KIND_GOLANG, "github.com/gorilla/context", "v1.1.1", NULL, 1, NULL, 0),
              "pkg:golang/github.com/gorilla/context@v1.1.1");
    CHECK_STR(sb_eco_purl(a, SB_KIND_MAVEN, "org.slf4j:slf4j-api", "2.0.9", NULL, 1, NULL, 0),
              "pkg:maven/org.slf4j/slf4j-api@2.0.9");
    CHECK_STR(sb_eco_purl(a, SB_KIND_COMPOSER, "symfony/console", "v6.4.0", NULL, 1, NULL, 0),
              "pkg:composer/symfony/console@v6.4.0");
    CHECK_STR(sb_eco_purl(a, SB_KIND_COCOAPODS, "GoogleUtilities/Environment", "7.12.0", NULL, 1, NULL, 0),
              "pkg:cocoapods/GoogleUtilities@7.12.0#Environment");
    sb_prop q[] = {{"platform", "x86_64-linux"}};
    CHECK_STR(sb_eco_purl(a, SB_KIND_GEM, "nokogiri", "1.16.0", NULL, 1, q, 1),
              "pkg:gem/nokogiri@1.16.0?platform=x86_64-linux");
    /* a git source is never a bare registry purl */
    CHECK_STR(sb_eco_purl(a, SB_KIND_CARGO, "tree-sitter", "0.20.10", "git+https://github.com/x/tree-sitter#abc123", 0,
                          NULL, 0),
              "pkg:cargo/tree-sitter@0.20.10?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fx%2Ftree-sitter%40abc123");
    /* a path is pkg:generic */
    CHECK_STR(sb_eco_purl(a, SB_KIND_CARGO, "grep", "0.1.3", "crates/grep", 0, NULL, 0), "pkg:generic/grep@0.1.3");
    /* another URL: a download_url */
    CHECK_STR(sb_eco_purl(a, SB_KIND_PUB, "x", "1.0.0", "https://example.com/x.tgz", 0, NULL, 0),
              "pkg:pub/x@1.0.0?download_url=https:%2F%2Fexample.com%2Fx.tgz");
    CHECK(sb_eco_purl(a, SB_KIND_CARGO, "", "1", NULL, 1, NULL, 0) == NULL);
    CHECK(sb_eco_purl(a, SB_KIND_CONDA_SOURCE, "x", "1", NULL, 1, NULL, 0) == NULL);
    sb_arena_destroy(a);
}

TEST(eco_version_orders)
{
    CHECK(sb_vercmp(SB_KIND_PYPI, "1.0rc1", "1.0") < 0);
    CHECK(sb_vercmp(SB_KIND_NPM, "1.0.0-rc.1", "1.0.0") < 0);
    CHECK(sb_vercmp(SB_KIND_CONDA, "1.10", "1.9") > 0);
    CHECK(sb_vercmp(SB_KIND_CARGO, "1.0.0-alpha", "1.0.0") < 0);
    CHECK(sb_vercmp(SB_KIND_GOLANG, "v1.2.0", "v1.10.0") < 0);
}
