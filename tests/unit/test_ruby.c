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

static const char podfile_lock[] =
    "PODS:\n"
    "  - Alamofire (5.4.0)\n"
    "  - Firebase/Core (8.0.0):\n"
    "    - Firebase/CoreOnly\n"
    "    - FirebaseAnalytics (= 8.0.0)\n"
    "  - Firebase/CoreOnly (8.0.0)\n"
    "  - FirebaseAnalytics (8.0.0)\n"
    "  - Flutter (1.0.0)\n"
    "  - GitPod (2.4.1)\n"
    "  - Private (1.0)\n"
    "\n"
    "DEPENDENCIES:\n"
    "  - Alamofire (~> 5.4)\n"
    "  - Firebase/Core\n"
    "  - Flutter (from `Flutter`)\n"
    "  - GitPod (from `https://github.com/o/GitPod.git`)\n"
    "\n"
    "SPEC REPOS:\n"
    "  trunk:\n"
    "    - Alamofire\n"
    "    - Firebase\n"
    "    - FirebaseAnalytics\n"
    "  https://github.com/acme/Specs.git:\n"
    "    - Private\n"
    "\n"
    "EXTERNAL SOURCES:\n"
    "  Flutter:\n"
    "    :path: Flutter\n"
    "  GitPod:\n"
    "    :git: https://github.com/o/GitPod.git\n"
    "    :branch: main\n"
    "\n"
    "CHECKOUT OPTIONS:\n"
    "  GitPod:\n"
    "    :commit: ba7b6e541fd18bdf48da6d4845670e3e6b990637\n"
    "    :git: https://github.com/o/GitPod.git\n"
    "\n"
    "SPEC CHECKSUMS:\n"
    "  Alamofire: 41d45d2c14219af0fa5addf3cfd433a002c13c9f\n"
    "  Firebase: 3598b0595e977e08d74d6e31e5f0222676f6d0e9\n"
    "\n"
    "PODFILE CHECKSUM: b96fba85ef8699dc52d2f6a03a76d537962ca5f2\n"
    "\n"
    "COCOAPODS: 1.15.2\n";

TEST(core_cocoapods__subspecs_sources_checksums_edges)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", podfile_lock, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "Podfile.lock");
    CHECK(s->npkgs == 7);
    const sb_pkg *al = find(s, "Alamofire", NULL), *core = find(s, "Firebase/Core", NULL),
                 *only = find(s, "Firebase/CoreOnly", NULL), *fa = find(s, "FirebaseAnalytics", NULL),
                 *fl = find(s, "Flutter", NULL), *git = find(s, "GitPod", NULL), *priv = find(s, "Private", NULL);
    CHECK_STR(al ? al->purl : NULL, "pkg:cocoapods/Alamofire@5.4.0");
    CHECK_STR(al ? al->supplier_name : NULL, "CocoaPods trunk");
    CHECK_STR(core ? core->purl : NULL, "pkg:cocoapods/Firebase@8.0.0#Core");
    CHECK_STR(fl ? fl->purl : NULL, "pkg:generic/Flutter@1.0.0");
    CHECK_STR(git ? git->purl : NULL,
              "pkg:cocoapods/GitPod@2.4.1?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2FGitPod.git%"
              "40ba7b6e541fd18bdf48da6d4845670e3e6b990637");
    CHECK_STR(prop(git, "pixi:git-branch"), "main");
    CHECK_STR(priv ? priv->purl : NULL,
              "pkg:cocoapods/Private@1.0?repository_url=https:%2F%2Fgithub.com%2Facme%2FSpecs.git");
    /* the spec checksum is the podspec's digest: a property, never a component hash */
    CHECK_STR(prop(al, "pixi:podspec-sha1"), "41d45d2c14219af0fa5addf3cfd433a002c13c9f");
    CHECK_STR(prop(only, "pixi:podspec-sha1"), "3598b0595e977e08d74d6e31e5f0222676f6d0e9");
    CHECK(al && al->sha1 == NULL && al->sha256 == NULL);
    CHECK(depends_on(s, core, only) && depends_on(s, core, fa) && !depends_on(s, only, fa));
    CHECK(root_depends_on(s, al) && root_depends_on(s, core) && root_depends_on(s, fl) && root_depends_on(s, git));
    /* what neither DEPENDENCIES nor another pod reaches still hangs from the root (Private) */
    CHECK(!root_depends_on(s, only) && !root_depends_on(s, fa));
    CHECK(NULL == sb_eco(SB_KIND_COCOAPODS)->osv);
    sb_arena_destroy(a);
}

TEST(core_cocoapods__empty_refusals_and_detection)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "Podfile.lock", "{}\n", &err);
    CHECK(s && s->npkgs == 0);
    sb_arena_destroy(a);
    refused("Podfile.lock", "PODS:\n  - A (1.0)\n\nCOCOAPODS: 2.0.0\n", SB_EUNSUPPORTED, 4, "CocoaPods 2.0.0");
    refused("Podfile.lock", "PODS:\n  - A 1.0\n", SB_EPARSE, 2, "Name (version)");
    refused("Podfile.lock", "PODS:\n  - A (1.0)\n  - A (1.0)\n", SB_EPARSE, 3, "twice");
    refused("Podfile.lock", "PODS:\n  - A (1.0)\nSPEC CHECKSUMS:\n  A: xyz\n", SB_EPARSE, 4, "40 hex");
    refused("Podfile.lock", "PODS:\n<<<<<<< HEAD\n  - A (1.0)\n=======\n  - A (2.0)\n>>>>>>> b\n", SB_EPARSE, 2,
            "merge-conflict");
    const sb_reader *const *r = sb_lock_readers();
    const sb_reader *pods = NULL;
    for (size_t i = 0; r[i]; i++)
        if (!strcmp(r[i]->kind, "Podfile.lock"))
            pods = r[i];
    CHECK(pods && pods->detect("", 0, "ios/Podfile.lock") == 2);
    CHECK(pods && pods->detect(podfile_lock, strlen(podfile_lock), NULL) == 1);
    sb_lock_choice c;
    sb_lock_choose(&c, NULL, podfile_lock, strlen(podfile_lock), NULL);
    CHECK(c.reader == pods);
}

#define H64A "99aa50e94e685557cad82e704457336a453d4abcb77839ad22dbe71f311fcc06"
#define H64B "A7FFCD0917E6D50B4D5FB28E9E2085A0CEB3C97DEA310505F7460FF5ED764CE9"

static const char mix_lock[] =
    "%{\n"
    "  \"cowboy\": {:hex, :cowboy, \"2.6.3\", \"" H64A
    "\", [:rebar3], [{:cowlib, \"~> 2.7.3\", [hex: :cowlib, "
    "repo: \"hexpm\", optional: false]}, {:ranch, \"~> 1.7\", [hex: :ranch, repo: \"hexpm\", optional: true]}], "
    "\"hexpm\", \"" H64B
    "\"},\n"
    "  \"cowlib\": {:hex, :cowlib, \"2.7.3\", \"" H64A
    "\", [:make, :rebar3], [], \"hexpm\"},\n"
    "  \"ranch\": {:hex, :ranch, \"1.7.1\"},\n"
    "  \"secret\": {:hex, :secret, \"0.1.0\", \"" H64A "\", [:mix], [], \"hexpm:acme\", \"" H64A
    "\"},\n"
    "  \"my_app\": {:hex, :real_name, \"1.0.0-rc.1\", \"" H64A "\", [:mix], [], \"hexpm\", \"" H64A
    "\"},\n"
    "  \"gitdep\": {:git, \"https://github.com/o/gitdep.git\", \"e205693bc6b99a3231db30849b246c3b9bdda8c1\", "
    "[branch: \"main\"]},\n"
    "  \"old\": {:package, \"0.1.10\"},\n"
    "}\n";

TEST(core_mix__entries_purls_checksums_edges)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", mix_lock, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "mix.lock");
    CHECK(s->npkgs == 7);
    const sb_pkg *cb = find(s, "cowboy", NULL), *cl = find(s, "cowlib", NULL), *ra = find(s, "ranch", NULL),
                 *se = find(s, "secret", NULL), *rn = find(s, "real_name", NULL), *gd = find(s, "gitdep", NULL),
                 *old = find(s, "old", NULL);
    CHECK_STR(cb ? cb->purl : NULL, "pkg:hex/cowboy@2.6.3");
    CHECK_STR(cb ? cb->supplier_name : NULL, "hex.pm");
    /* the outer checksum is the tarball's SHA-256; the inner one a property */
    CHECK_STR(cb ? cb->sha256 : NULL, "a7ffcd0917e6d50b4d5fb28e9e2085a0ceb3c97dea310505f7460ff5ed764ce9");
    CHECK_STR(prop(cb, "pixi:hex-inner-checksum"), H64A);
    CHECK(cl && cl->sha256 == NULL);
    CHECK_STR(prop(cl, "pixi:hex-build-tools"), "make, rebar3");
    CHECK_STR(prop(cb, "pixi:hex-optional-dependencies"), "ranch");
    CHECK(depends_on(s, cb, cl) && depends_on(s, cb, ra));
    CHECK_STR(se ? se->purl : NULL, "pkg:hex/acme/secret@0.1.0");
    CHECK_STR(rn ? rn->purl : NULL, "pkg:hex/real_name@1.0.0-rc.1");
    CHECK_STR(prop(rn, "pixi:hex-app"), "my_app");
    CHECK_STR(gd ? gd->purl : NULL,
              "pkg:hex/gitdep@e205693bc6b99a3231db30849b246c3b9bdda8c1?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%"
              "2Fgitdep.git%40e205693bc6b99a3231db30849b246c3b9bdda8c1");
    CHECK_STR(prop(gd, "pixi:git-branch"), "main");
    CHECK_STR(old ? old->purl : NULL, "pkg:hex/old@0.1.10");
    /* mix.exs is code: the root depends on what nothing else does */
    CHECK(root_depends_on(s, cb) && !root_depends_on(s, cl) && root_depends_on(s, gd));
    sb_arena_destroy(a);
}

TEST(core_mix__keyword_list_arrow_map_and_refusals)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "mix.lock",
                     "[ \"cowboy\": {:git, \"git://github.com/extend/cowboy.git\", \"e7afe1f3\", []},\n"
                     "  \"ranch\": {:git, \"git://github.com/extend/ranch.git\", \"5df1f222\", [ref: \"0.9.0\"]} ]\n",
                     &err);
    CHECK(s && s->npkgs == 2);
    const sb_pkg *rr = find(s, "ranch", NULL);
    CHECK_STR(rr ? rr->purl : NULL,
              "pkg:hex/ranch@5df1f222?vcs_url=git:%2F%2Fgithub.com%2Fextend%2Franch.git%405df1f222");
    s = sel(a, "mix.lock", "%{\"a\" => {:hex, :a, \"1.0.0\"}, b: {:hex, :b, \"2.0.0\", \"\"}}", &err);
    CHECK(s && s->npkgs == 2);
    sb_arena_destroy(a);
    refused("mix.lock", "%{\n  \"a\": {:hex, :a, \"1.0.0\"},\n  \"b\": {:svn, \"x\", \"1\"}\n}\n", SB_EUNSUPPORTED, 3,
            ":svn");
    refused("mix.lock", "%{\n  \"a\": {:hex, :a, \"1.0.0\", \"" H64A "\", [], [], \"hexpm\", \"" H64A "\", 9}\n}\n",
            SB_EUNSUPPORTED, 2, "9 elements");
    refused("mix.lock", "%{\n  \"a\": {:hex, :a, \"1.0.0\"\n", SB_EPARSE, 3, "ends inside");
    refused("mix.lock", "%{\n  \"a\": {:hex, :a, \"1.0.0\", \"zz\"}\n}\n", SB_EPARSE, 2, "64 hex");
    refused("mix.lock", "%{\n  \"a\": {:hex, :a, \"1.0.0\"} \"b\"\n}\n", SB_EPARSE, 2, "','");
    refused(
        "mix.lock",
        "%{\n<<<<<<< HEAD\n  \"a\": {:hex, :a, \"1.0.0\"},\n=======\n  \"a\": {:hex, :a, \"1.1.0\"},\n>>>>>>> b\n}\n",
        SB_EPARSE, 2, "merge-conflict");
    const sb_reader *const *r = sb_lock_readers();
    const sb_reader *mix = NULL;
    for (size_t i = 0; r[i]; i++)
        if (!strcmp(r[i]->kind, "mix.lock"))
            mix = r[i];
    CHECK(mix && mix->detect("", 0, "mix.lock") == 2);
    sb_lock_choice c;
    sb_lock_choose(&c, NULL, mix_lock, strlen(mix_lock), NULL);
    CHECK(c.reader == mix);
}

TEST(core_vercmp__hex_is_semver)
{
    CHECK(sb_vercmp(SB_KIND_HEX, "1.0.0-rc.1", "1.0.0") < 0);
    CHECK(sb_vercmp(SB_KIND_HEX, "1.0.0-alpha.2", "1.0.0-alpha.10") < 0);
    CHECK(sb_vercmp(SB_KIND_HEX, "1.9.0", "1.10.0") < 0);
    CHECK(sb_vercmp(SB_KIND_HEX, "1.0.0+build.1", "1.0.0+build.2") == 0);
    CHECK(sb_eco(SB_KIND_HEX)->osv && !strcmp(sb_eco(SB_KIND_HEX)->osv, "Hex"));
}
