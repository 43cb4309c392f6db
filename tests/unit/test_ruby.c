/*
 * test_ruby.c - the Gemfile.lock, Podfile.lock and mix.lock readers on
 * small inline inputs: every source shape and its purl, digests, edges by
 * name, direct dependencies, refusals with their line, and the version
 * orders of RubyGems, CocoaPods and Hex.
 */
#include "test.h"
#include "jsreaders.h"
#include "../../core/arena.h"
#include "../../core/ecosystem.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/vercmp.h"

#include <stdio.h>
#include <string.h>

#define SHA_A "a5c0f8a2bd4f7a67b0f87cd50d6d5e4f7c3dbd6c6d2f3a0a1d1b5e1c1f2e3d4c"

static const char gemfile_lock[] =
    "GIT\n"
    "  remote: https://github.com/o/gitgem.git\n"
    "  revision: 0123456789abcdef0123456789abcdef01234567\n"
    "  branch: main\n"
    "  specs:\n"
    "    gitgem (0.3.0)\n"
    "      rack\n"
    "\n"
    "PATH\n"
    "  remote: .\n"
    "  specs:\n"
    "    app (1.0.0)\n"
    "      nokogiri (>= 1.6)\n"
    "      rack (~> 3.0)\n"
    "\n"
    "GEM\n"
    "  remote: https://rubygems.org/\n"
    "  specs:\n"
    "    nokogiri (1.16.0)\n"
    "      racc (~> 1.4)\n"
    "    nokogiri (1.16.0-x86_64-linux)\n"
    "      racc (~> 1.4)\n"
    "    racc (1.7.3)\n"
    "    rack (3.0.8)\n"
    "\n"
    "GEM\n"
    "  remote: https://gems.example.com/\n"
    "  specs:\n"
    "    private (2.0.0)\n"
    "\n"
    "PLATFORMS\n"
    "  ruby\n"
    "  x86_64-linux\n"
    "\n"
    "DEPENDENCIES\n"
    "  app!\n"
    "  gitgem!\n"
    "  nokogiri (>= 1.16)\n"
    "  private\n"
    "  tzinfo-data\n"
    "\n"
    "CHECKSUMS\n"
    "  app (1.0.0)\n"
    "  nokogiri (1.16.0) sha256=" SHA_A
    "\n"
    "  nokogiri (1.16.0-x86_64-linux) sha256=" SHA_A
    "\n"
    "  racc (1.7.3) sha256=" SHA_A
    "\n"
    "\n"
    "RUBY VERSION\n"
    "   ruby 3.3.0p0\n"
    "\n"
    "BUNDLED WITH\n"
    "   2.5.3\n";

TEST(core_gem__sources_purls_checksums_edges)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", gemfile_lock, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "Gemfile.lock");
    CHECK(s->npkgs == 7);
    const sb_pkg *git = find(s, "gitgem", "0.3.0"), *app = find(s, "app", "1.0.0");
    CHECK_STR(git ? git->purl : NULL,
              "pkg:gem/gitgem@0.3.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fgitgem.git%"
              "400123456789abcdef0123456789abcdef01234567");
    CHECK_STR(prop(git, "pixi:git-branch"), "main");
    CHECK_STR(app ? app->purl : NULL, "pkg:generic/app@1.0.0");
    CHECK_STR(prop(app, "pixi:gem-source"), "path");
    const sb_pkg *nk = NULL, *nkx = NULL;
    for (size_t i = 0; i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, "nokogiri")) {
            if (strstr(s->pkgs[i].purl, "platform="))
                nkx = &s->pkgs[i];
            else
                nk = &s->pkgs[i];
        }
    CHECK_STR(nk ? nk->purl : NULL, "pkg:gem/nokogiri@1.16.0");
    CHECK_STR(nkx ? nkx->purl : NULL, "pkg:gem/nokogiri@1.16.0?platform=x86_64-linux");
    CHECK_STR(nk ? nk->sha256 : NULL, SHA_A);
    CHECK_STR(nkx ? nkx->sha256 : NULL, SHA_A);
    CHECK_STR(nk ? nk->supplier_name : NULL, "rubygems.org");
    const sb_pkg *priv = find(s, "private", NULL), *racc = find(s, "racc", NULL), *rack = find(s, "rack", NULL);
    CHECK_STR(priv ? priv->purl : NULL, "pkg:gem/private@2.0.0?repository_url=https:%2F%2Fgems.example.com%2F");
    CHECK(rack && rack->sha256 == NULL);
    /* a name is an edge to each platform's gem; the root's edges are DEPENDENCIES */
    CHECK(depends_on(s, app, nk) && depends_on(s, app, nkx) && depends_on(s, app, rack));
    CHECK(depends_on(s, nkx, racc) && depends_on(s, git, rack));
    CHECK(root_depends_on(s, app) && root_depends_on(s, git) && root_depends_on(s, nk) && root_depends_on(s, nkx) &&
          root_depends_on(s, priv));
    CHECK(!root_depends_on(s, rack) && !root_depends_on(s, racc));
    CHECK(sb_eco(SB_KIND_GEM)->osv && !strcmp(sb_eco(SB_KIND_GEM)->osv, "RubyGems"));
    sb_arena_destroy(a);
}

/* read `text` as `kind` and expect `code` at `line` */
static void refused(const char *kind, const char *text, sb_code code, unsigned line, const char *needle)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_code rc = sb_lock_read(&l, a, kind, text, strlen(text), NULL, NULL, &err);
    int ok = rc == code && err.line == line && (NULL == needle || strstr(err.msg, needle));
    char why[1200];
    snprintf(why, sizeof why, "rc %d line %u: %s", (int)rc, err.line, err.msg);
    sb_test_subcase(text, ok, why);
    CHECK(ok);
    sb_arena_destroy(a);
}

TEST(core_gem__refusals_name_the_line)
{
    refused("Gemfile.lock", "GEM\n  remote: https://rubygems.org/\n  specs:\n    rack 3.0\n", SB_EPARSE, 4,
            "name (version)");
    refused("Gemfile.lock", "GEM\n  specs:\n    rack (3.0)\n", SB_EPARSE, 1, "remote");
    refused("Gemfile.lock", "  rack\n", SB_EPARSE, 1, "before any section");
    refused("Gemfile.lock", "GEM\n  remote: https://rubygems.org/\n  specs:\n\track (3.0)\n", SB_EPARSE, 4, "tab");
    refused("Gemfile.lock", "GEM\n  remote: x\n  specs:\n    a (1)\n\nBUNDLED WITH\n   9.1.0\n", SB_EUNSUPPORTED, 7,
            "Bundler 9.1.0");
    refused("Gemfile.lock",
            "GEM\n  remote: https://rubygems.org/\n  specs:\n    a (1)\n\nCHECKSUMS\n  a (1) sha256=abc\n", SB_EPARSE,
            7, "64 hex");
    /* merge-conflict markers: the 400 names the marker's line */
    refused("Gemfile.lock",
            "GEM\n  remote: https://rubygems.org/\n  specs:\n<<<<<<< HEAD\n    a (1)\n=======\n    a (2)\n>>>>>>> x\n",
            SB_EPARSE, 4, "merge-conflict");
    refused("Gemfile.lock", "", SB_EPARSE, 1, "no sections");
}

TEST(core_gem__detected_by_name_and_content)
{
    const sb_reader *const *r = sb_lock_readers();
    const sb_reader *gem = NULL;
    for (size_t i = 0; r[i]; i++)
        if (!strcmp(r[i]->kind, "Gemfile.lock"))
            gem = r[i];
    CHECK(gem != NULL);
    if (!gem)
        return;
    CHECK(gem->detect("", 0, "x/Gemfile.lock") == 2);
    CHECK(gem->detect("", 0, "gems.locked") == 2);
    CHECK(gem->detect("", 0, "gemfiles/rails_7.gemfile.lock") == 2);
    CHECK(gem->detect(gemfile_lock, strlen(gemfile_lock), "vendor_gems.rb.lock") == 1);
    CHECK(gem->detect("{}", 2, NULL) == 0);
    sb_lock_choice c;
    sb_lock_choose(&c, NULL, gemfile_lock, strlen(gemfile_lock), NULL);
    CHECK(c.reader == gem);
}

TEST(core_vercmp__gem_version_order)
{
    static const char *const asc[][2] = {{"1.0.a", "1.0"},         {"1.0.0.pre", "1.0.0"},    {"1.9", "1.10"},
                                         {"1.0.rc1", "1.0.rc2"},   {"1.0.alpha", "1.0.beta"}, {"0.9.9", "1.0"},
                                         {"1.0-rc1", "1.0"},       {"2.a", "2.0.1"},          {"1.16.0", "1.16.0.1"},
                                         {"8.1.0.alpha", "8.1.0"}, {"1.0.b1", "1.0.b2"}};
    for (size_t i = 0; i < sizeof asc / sizeof asc[0]; i++) {
        int ok = sb_vercmp_gem(asc[i][0], asc[i][1]) < 0 && sb_vercmp_gem(asc[i][1], asc[i][0]) > 0;
        sb_test_subcase(asc[i][0], ok, asc[i][1]);
        CHECK(ok);
    }
    static const char *const same[][2] = {{"1.0", "1"}, {"1.0.0", "1"}, {"1.0.a", "1.a"}, {"1.0-rc1", "1.pre.rc1"}};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        int ok = 0 == sb_vercmp_gem(same[i][0], same[i][1]);
        sb_test_subcase(same[i][0], ok, same[i][1]);
        CHECK(ok);
    }
    CHECK(sb_vercmp(SB_KIND_GEM, "1.9", "1.10") < 0);
    CHECK(sb_vercmp(SB_KIND_COCOAPODS, "1.0.0-beta.1", "1.0.0") < 0);
}
