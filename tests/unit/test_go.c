/*
 * test_go.c - the Go (go.mod, go.sum, both joined), SwiftPM
 * (Package.resolved v1-3) and Gradle (gradle.lockfile and the older
 * per-configuration lockfiles) readers on small hand-made inputs: the
 * shapes each format has, purls, hashes and what stands for them,
 * direct/indirect and scopes, detection, the errors with their lines, and
 * the version orders of Go and Maven.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/ecosystem.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"
#include "../../core/vercmp.h"

#include <stdlib.h>

#define H1A "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
#define H1B "h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="
#define H1C "h1:CCCC//CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC="
#define JOIN "// sbomd: go.sum follows\n"

static sb_sbom *sel(sb_arena *a, const char *kind, const char *text, const char *filename, sb_err *err)
{
    sb_lock *l = NULL;
    sb_err_clear(err);
    if (sb_lock_read(&l, a, kind, text, strlen(text), filename, NULL, err) != SB_OK)
        return NULL;
    sb_select_opts o = {0};
    sb_sbom *s = NULL;
    return sb_select(&s, a, l, &o, err) == SB_OK ? s : NULL;
}

static const sb_pkg *find(const sb_sbom *s, const char *name)
{
    for (size_t i = 0; s && i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, name))
            return &s->pkgs[i];
    return NULL;
}

static const char *prop(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; p && i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

static int is_root_dep(const sb_sbom *s, const sb_pkg *p)
{
    for (size_t i = 0; s && p && i < s->nroot; i++)
        if (&s->pkgs[s->root_deps[i]] == p)
            return 1;
    return 0;
}

static sb_code read_err(const char *kind, const char *text, sb_err *err)
{
    sb_arena *a = sb_arena_new(0);
    sb_lock *l = NULL;
    sb_err_clear(err);
    sb_code rc = sb_lock_read(&l, a, kind, text, strlen(text), NULL, NULL, err);
    sb_arena_destroy(a);
    return rc;
}

/* ---- go.mod ------------------------------------------------------------------ */

static const char gomod[] =
    "// a comment\n"
    "module example.com/Me/app\n"
    "\n"
    "go 1.22.5\n"
    "\n"
    "toolchain go1.22.6\n"
    "godebug default=go1.21\n"
    "\n"
    "require github.com/BurntSushi/toml v1.3.2\n"
    "require (\n"
    "\tgithub.com/a/b v0.0.0-20210220032951-036812b2e83c // indirect\n"
    "\tgithub.com/docker/docker v20.10.7+incompatible\n"
    "\t\"example.com/quoted\" v1.0.0 // indirect; a note\n"
    "\tgithub.com/rogpeppe/go-internal v1.12.0 // indirect\n"
    "\tsigs.k8s.io/kustomize/api v0.18.0\n"
    ")\n"
    "exclude github.com/a/b v0.0.1\n"
    "retract (\n"
    "\tv1.0.1 // a mistake\n"
    "\t[v1.1.0, v1.2.0]\n"
    ")\n"
    "replace github.com/rogpeppe/go-internal => github.com/cli/go-internal "
    "v0.0.0-20241024130215-fa3c22e38b9b\n"
    "replace sigs.k8s.io/kustomize/api => ../api\n";

TEST(core_go__gomod_shapes_purls_direct_replace)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", gomod, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "go.mod");
    CHECK_STR(s->root_name, "example.com/Me/app");
    CHECK(s->npkgs == 6);
    CHECK(s->deps_unknown);
    const sb_pkg *toml = find(s, "github.com/BurntSushi/toml");
    CHECK(toml && !strcmp(toml->purl, "pkg:golang/github.com/burntsushi/toml@v1.3.2"));
    CHECK_STR(prop(toml, "pixi:direct"), "true");
    CHECK(is_root_dep(s, toml));
    const sb_pkg *ab = find(s, "github.com/a/b");
    CHECK(ab && !strcmp(ab->purl, "pkg:golang/github.com/a/b@v0.0.0-20210220032951-036812b2e83c"));
    CHECK_STR(prop(ab, "pixi:direct"), "false");
    const sb_pkg *dk = find(s, "github.com/docker/docker");
    CHECK(dk && !strcmp(dk->purl, "pkg:golang/github.com/docker/docker@v20.10.7%2Bincompatible"));
    CHECK_STR(prop(find(s, "example.com/quoted"), "pixi:direct"), "false");
    /* replaced by a module: named as required, identified as what is built */
    const sb_pkg *gi = find(s, "github.com/rogpeppe/go-internal");
    CHECK(gi && !strcmp(gi->version, "v1.12.0"));
    CHECK(gi && !strcmp(gi->purl, "pkg:golang/github.com/cli/go-internal@v0.0.0-20241024130215-fa3c22e38b9b"));
    CHECK_STR(prop(gi, "pixi:go-replaced-by"), "github.com/cli/go-internal v0.0.0-20241024130215-fa3c22e38b9b");
    /* replaced by a folder: never a registry purl */
    const sb_pkg *api = find(s, "sigs.k8s.io/kustomize/api");
    CHECK(api && !strncmp(api->purl, "pkg:generic/", 12));
    CHECK_STR(prop(api, "pixi:go-replaced-by"), "../api");
    CHECK(api && api->location && !strcmp(api->location, "../api"));
    CHECK(api && NULL == api->supplier_name);
    sb_arena_destroy(a);
}

/* go.sum alone: each module with files, at its highest version; a module
 * with only a go.mod line is not built */
static const char gosum[] = "github.com/a/b v1.0.0 " H1A
                            "\n"
                            "github.com/a/b v1.0.0/go.mod " H1B
                            "\n"
                            "github.com/a/b v1.10.0 " H1C
                            "\n"
                            "github.com/a/b v1.9.0 " H1A
                            "\n"
                            "github.com/only/gomod v1.0.0/go.mod " H1B
                            "\n"
                            "golang.org/x/sys v0.0.0-20210630005230-0f9fa26af87c " H1B "\n";

TEST(core_go__gosum_alone_highest_version_h1_property)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", gosum, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "go.sum");
    CHECK(s->npkgs == 2);
    const sb_pkg *ab = find(s, "github.com/a/b");
    CHECK(ab && !strcmp(ab->version, "v1.10.0"));
    CHECK_STR(prop(ab, "pixi:go-h1"), H1C);
    CHECK(NULL == prop(ab, "pixi:go-mod-h1"));
    CHECK(NULL == prop(ab, "pixi:direct"));
    CHECK(ab && NULL == ab->sha256); /* a dirhash is not the digest of one file */
    CHECK(NULL == find(s, "github.com/only/gomod"));
    sb_arena_destroy(a);
}

TEST(core_go__joined_pruned_and_unpruned)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    /* go 1.17 and later: go.mod's list is the build's; go.sum adds hashes */
    static const char pruned[] =
        "module m\ngo 1.17\nrequire (\n\tgithub.com/a/b v1.0.0\n"
        "\tgithub.com/r/old v1.0.0 // indirect\n)\n"
        "replace github.com/r/old v1.0.0 => github.com/r/new v1.1.0\n" JOIN "github.com/a/b v1.0.0 " H1A
        "\n"
        "github.com/a/b v1.0.0/go.mod " H1B
        "\n"
        "github.com/r/new v1.1.0 " H1C
        "\n"
        "github.com/test/only v1.0.0 " H1A "\n";
    sb_sbom *s = sel(a, "auto", pruned, "go.mod", &err);
    CHECK(s && s->npkgs == 2);
    const sb_pkg *ab = find(s, "github.com/a/b");
    CHECK_STR(prop(ab, "pixi:go-h1"), H1A);
    CHECK_STR(prop(ab, "pixi:go-mod-h1"), H1B);
    CHECK_STR(prop(find(s, "github.com/r/old"), "pixi:go-h1"), H1C);
    CHECK(NULL == find(s, "github.com/test/only"));
    /* before 1.17 (or without a go line) go.sum's other modules join as indirect */
    static const char old[] = "module m\nrequire github.com/a/b v1.0.0\nexclude github.com/x/ex v1.0.0\n" JOIN
                              "github.com/a/b v1.0.0 " H1A
                              "\n"
                              "github.com/c/d v1.2.0 " H1B
                              "\n"
                              "github.com/c/d v1.1.0 " H1A
                              "\n"
                              "github.com/x/ex v1.0.0 " H1A "\n";
    s = sel(a, "auto", old, "go.sum", &err);
    CHECK(s && s->npkgs == 2);
    CHECK_STR(s ? s->input_kind : NULL, "go.sum");
    const sb_pkg *cd = find(s, "github.com/c/d");
    CHECK(cd && !strcmp(cd->version, "v1.2.0"));
    CHECK_STR(prop(cd, "pixi:direct"), "false");
    CHECK_STR(prop(find(s, "github.com/a/b"), "pixi:direct"), "true");
    CHECK(NULL == find(s, "github.com/x/ex"));
    sb_arena_destroy(a);
}

TEST(core_go__join_parts_either_way)
{
    sb_arena *a = sb_arena_new(0);
    const char *mod = "module m\nrequire github.com/a/b v1.0.0", *sum = "github.com/a/b v1.0.0 " H1A "\n";
    const char *d = sum;
    size_t n = strlen(sum);
    CHECK(sb_lock_join_parts(a, &d, &n, "go.sum", mod, strlen(mod), "go.mod") == 1);
    CHECK(n == strlen(d) && strstr(d, "module m\nrequire github.com/a/b v1.0.0\n" JOIN "github.com/a/b") == d);
    d = mod;
    n = strlen(mod);
    CHECK(sb_lock_join_parts(a, &d, &n, NULL, sum, strlen(sum), NULL) == 1);
    CHECK(strstr(d, JOIN) != NULL);
    d = mod;
    n = strlen(mod);
    CHECK(sb_lock_join_parts(a, &d, &n, "go.mod", "{\"name\": \"x\"}", 13, "package.json") == 0);
    CHECK(d == mod);
    sb_arena_destroy(a);
}

TEST(core_go__errors_name_the_line)
{
    sb_err err;
    CHECK(read_err("go.mod", "module m\n\nrequire github.com/a/b\n", &err) == SB_EPARSE && err.line == 3);
    CHECK(read_err("go.mod", "module m\nrequire (\n\tgithub.com/a/b v1.0.0\n", &err) == SB_EPARSE && err.line == 2);
    CHECK(read_err("go.mod", "module m\nwhat is this\n", &err) == SB_EPARSE && err.line == 2);
    CHECK(read_err("go.mod", "module m\nrequire x \"v1\n", &err) == SB_EPARSE && err.line == 2);
    CHECK(read_err("go.mod", "module m\nreplace a => b\n", &err) == SB_EPARSE && err.line == 2);
    CHECK(read_err("go.mod", "module m\nreplace a => ./b v1.0.0\n", &err) == SB_EPARSE);
    /* a Go after Go 1 is refused, as is a hash algorithm Go does not write */
    CHECK(read_err("go.mod", "module m\n\ngo 2.0\n", &err) == SB_EUNSUPPORTED && err.line == 3 &&
          strstr(err.msg, "go 2.0"));
    CHECK(read_err("go.sum", "a.b/c v1.0.0 h2:xyz=\n", &err) == SB_EUNSUPPORTED && err.line == 1);
    CHECK(read_err("go.sum", "a.b/c v1.0.0 h1:short=\n", &err) == SB_EPARSE && err.line == 1);
    CHECK(read_err("go.sum", "a.b/c 1.0.0 " H1A "\n", &err) == SB_EPARSE);
    /* lines of a joined go.sum are counted from its own start */
    CHECK(read_err("go.mod", "module m\n" JOIN "a.b/c v1.0.0 " H1A "\nbroken\n", &err) == SB_EPARSE && err.line == 4 &&
          strstr(err.msg, "go.sum line 2"));
    /* merge-conflict markers: a 400 naming the line */
    CHECK(read_err("go.mod", "module m\n<<<<<<< HEAD\nrequire a.b/c v1.0.0\n=======\n>>>>>>> x\n", &err) == SB_EPARSE &&
          err.line == 2 && strstr(err.msg, "merge-conflict"));
    CHECK(read_err("go.mod", "", &err) == SB_EPARSE);
}

TEST(core_go__detection)
{
    sb_lock_choice c;
    sb_lock_choose(&c, NULL, "x", 1, "sub/dir/go.mod");
    CHECK(c.reader && !strcmp(c.reader->kind, "go.mod"));
    const char *sum = "github.com/a/b v1.0.0 " H1A "\n";
    sb_lock_choose(&c, NULL, sum, strlen(sum), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "go.sum") && c.by_content);
    sb_lock_choose(&c, NULL, gomod, strlen(gomod), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "go.mod") && c.by_content);
    sb_lock_choose(&c, NULL, "x", 1, "go.sum");
    CHECK(c.reader && !strcmp(c.reader->kind, "go.sum"));
}

TEST(core_go__version_order)
{
    /* each older than the next */
    static const char *const order[] = {
        "v0.0.0-20190101000000-aaaaaaaaaaaa",
        "v0.0.0-20210220032951-036812b2e83c",
        "v0.1.0",
        "v1.0.0-alpha",
        "v1.0.0-rc.1",
        "v1.0.0",
        "v1.2.3",
        "v1.2.4-0.20191109021931-daa7c04131f5", /* a pseudo-version after v1.2.3 */
        "v1.2.4",
        "v1.10.0",
        "v2.0.0+incompatible",
        "v20.10.7+incompatible",
    };
    size_t n = sizeof order / sizeof *order;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            int c = sb_vercmp_go(order[i], order[j]);
            int want = i < j ? -1 : i > j;
            char why[160];
            snprintf(why, sizeof why, "%s vs %s: %d", order[i], order[j], c);
            sb_test_subcase("go order", (c < 0 ? -1 : c > 0) == want, why);
        }
    CHECK(0 == sb_vercmp_go("v2.0.0+incompatible", "v2.0.0"));
    CHECK(0 == sb_vercmp_go("v1.2", "v1.2.0"));
    CHECK(sb_vercmp(SB_KIND_GOLANG, "v1.9.0", "v1.10.0") < 0);
    CHECK(sb_vercmp(SB_KIND_SWIFT, "1.9.0", "1.10.0") < 0);
    CHECK(sb_vercmp(SB_KIND_SWIFT, "2.0.0-beta.2", "2.0.0") < 0);
    CHECK(sb_vercmp(SB_KIND_MAVEN, "1.0-SNAPSHOT", "1.0") < 0);
}

/* ---- Package.resolved ------------------------------------------------------- */

static const char swift_v1[] =
    "{\n"
    "  \"object\": {\n"
    "    \"pins\": [\n"
    "      {\n"
    "        \"package\": \"Alamofire\",\n"
    "        \"repositoryURL\": \"https://github.com/Alamofire/Alamofire.git\",\n"
    "        \"state\": {\"branch\": null, \"revision\": \"abc123\", \"version\": \"5.4.3\"}\n"
    "      },\n"
    "      {\n"
    "        \"package\": \"llbuild\",\n"
    "        \"repositoryURL\": \"git@github.com:apple/swift-llbuild\",\n"
    "        \"state\": {\"branch\": \"master\", \"revision\": \"def456\", \"version\": null}\n"
    "      }\n"
    "    ]\n"
    "  },\n"
    "  \"version\": 1\n"
    "}\n";

TEST(core_swift__v1_pins_purls_branch)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", swift_v1, NULL, &err);
    CHECK(s && s->npkgs == 2);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "Package.resolved");
    const sb_pkg *af = find(s, "github.com/Alamofire/Alamofire");
    CHECK(af && !strcmp(af->purl, "pkg:swift/github.com/Alamofire/Alamofire@5.4.3"));
    CHECK_STR(prop(af, "pixi:source-rev"), "abc123");
    CHECK_STR(prop(af, "pixi:swift-identity"), "Alamofire");
    CHECK(af && af->location && !strcmp(af->location, "git+https://github.com/Alamofire/Alamofire.git#abc123"));
    const sb_pkg *ll = find(s, "github.com/apple/swift-llbuild");
    CHECK(ll && !strcmp(ll->version, "def456"));
    CHECK(ll && !strcmp(ll->purl, "pkg:swift/github.com/apple/swift-llbuild@def456"));
    CHECK_STR(prop(ll, "pixi:source-branch"), "master");
    CHECK(s->deps_unknown);
    sb_arena_destroy(a);
}

TEST(core_swift__v2_v3_kinds)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    static const char v3[] =
        "{\n  \"originHash\" : \"0123\",\n  \"pins\" : [\n"
        "    {\"identity\" : \"swift-nio\", \"kind\" : \"remoteSourceControl\",\n"
        "     \"location\" : \"https://github.com/apple/swift-nio.git\",\n"
        "     \"state\" : {\"revision\" : \"r1\", \"version\" : \"2.62.0\"}},\n"
        "    {\"identity\" : \"local\", \"kind\" : \"localSourceControl\", \"location\" : \"/src/local\",\n"
        "     \"state\" : {\"revision\" : \"r2\"}},\n"
        "    {\"identity\" : \"mona.linkedlist\", \"kind\" : \"registry\", \"location\" : \"\",\n"
        "     \"state\" : {\"version\" : \"1.1.0\"}}\n"
        "  ],\n  \"version\" : 3\n}\n";
    sb_sbom *s = sel(a, "Package.resolved", v3, NULL, &err);
    CHECK(s && s->npkgs == 3);
    CHECK(s && find(s, "github.com/apple/swift-nio") &&
          !strcmp(find(s, "github.com/apple/swift-nio")->purl, "pkg:swift/github.com/apple/swift-nio@2.62.0"));
    const sb_pkg *lo = find(s, "local");
    CHECK(lo && !strncmp(lo->purl, "pkg:generic/local@r2", 20));
    const sb_pkg *rg = find(s, "mona/linkedlist");
    CHECK(rg && !strcmp(rg->purl, "pkg:swift/mona/linkedlist@1.1.0"));
    static const char v2[] =
        "{\"pins\":[{\"identity\":\"x\",\"kind\":\"remoteSourceControl\","
        "\"location\":\"https://gitlab.com/Group/Sub/x\",\"state\":{\"revision\":\"r\","
        "\"version\":\"1.0.0\"}}],\"version\":2}";
    s = sel(a, "auto", v2, NULL, &err);
    CHECK(s && s->npkgs == 1 && !strcmp(s->pkgs[0].purl, "pkg:swift/gitlab.com/Group/Sub/x@1.0.0"));
    sb_arena_destroy(a);
}

TEST(core_swift__errors)
{
    sb_err err;
    CHECK(read_err("Package.resolved", "{\n  \"pins\": [],\n  \"version\": 4\n}\n", &err) == SB_EUNSUPPORTED &&
          err.line == 3);
    CHECK(read_err("Package.resolved", "{\n  \"pins\": [,]\n}\n", &err) == SB_EPARSE && err.line == 2);
    CHECK(read_err("Package.resolved", "{\"pins\":[{\"identity\":\"x\"}],\"version\":2}", &err) == SB_EPARSE);
    CHECK(read_err("Package.resolved",
                   "{\"pins\":[{\"identity\":\"x\",\"kind\":\"remoteSourceControl\",\"location\":\"nohost\","
                   "\"state\":{\"version\":\"1.0.0\"}}],\"version\":2}",
                   &err) == SB_EPARSE);
    CHECK(read_err("Package.resolved", "{\"pins\":[],\"version\":2,\"version\":2}", &err) == SB_EPARSE);
    sb_lock_choice c;
    sb_lock_choose(&c, NULL, swift_v1, strlen(swift_v1), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "Package.resolved"));
}

/* ---- gradle.lockfile --------------------------------------------------------- */

static const char gradle[] =
    "# This is a Gradle generated file for dependency locking.\n"
    "# Manual edits can break the build and are not advised.\n"
    "# This file is expected to be part of source control.\n"
    "com.google.guava:guava:33.0.0-jre=compileClasspath,runtimeClasspath,testRuntimeClasspath\n"
    "junit:junit:4.13.2=testCompileClasspath,testRuntimeClasspath\n"
    "com.pinterest:ktlint:1.0.0=ktlint\n"
    "androidx.core:core:1.12.0=releaseRuntimeClasspath\n"
    "org.mockito:mockito:5.0.0=debugUnitTestRuntimeClasspath\n"
    "com.x:clikt:5.0.3=compileClasspath\n"
    "com.x:clikt:5.1.0=apiDependenciesMetadata\n"
    "empty=annotationProcessor,testAnnotationProcessor\n";

TEST(core_gradle__lines_scopes_purls)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", gradle, NULL, &err);
    CHECK(s && s->npkgs == 7);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "gradle.lockfile");
    const sb_pkg *g = find(s, "com.google.guava:guava");
    CHECK(g && !strcmp(g->purl, "pkg:maven/com.google.guava/guava@33.0.0-jre"));
    CHECK(g && g->scope == SB_SCOPE_REQUIRED);
    CHECK_STR(prop(g, "pixi:gradle-configurations"), "compileClasspath,runtimeClasspath,testRuntimeClasspath");
    CHECK(find(s, "junit:junit") && find(s, "junit:junit")->scope == SB_SCOPE_DEVELOPMENT);
    CHECK(find(s, "com.pinterest:ktlint") && find(s, "com.pinterest:ktlint")->scope == SB_SCOPE_DEVELOPMENT);
    CHECK(find(s, "androidx.core:core") && find(s, "androidx.core:core")->scope == SB_SCOPE_REQUIRED);
    CHECK(find(s, "org.mockito:mockito") && find(s, "org.mockito:mockito")->scope == SB_SCOPE_DEVELOPMENT);
    int clikt = 0;
    for (size_t i = 0; i < s->npkgs; i++)
        clikt += !strcmp(s->pkgs[i].name, "com.x:clikt");
    CHECK(clikt == 2);
    /* the older per-configuration file: bare coordinates, scope not stated */
    s = sel(a, "auto", "# This is a Gradle generated file for dependency locking.\ncom.gradle:plugin:3.8.1\n", NULL,
            &err);
    CHECK(s && s->npkgs == 1 && s->pkgs[0].scope == SB_SCOPE_NONE &&
          !strcmp(s->pkgs[0].purl, "pkg:maven/com.gradle/plugin@3.8.1"));
    /* only empty= (a settings lockfile): nothing */
    s = sel(a, "gradle.lockfile", "# x\nempty=incomingCatalogForLibs0\n", NULL, &err);
    CHECK(s && s->npkgs == 0);
    sb_arena_destroy(a);
}

TEST(core_gradle__errors_and_detection)
{
    sb_err err;
    CHECK(read_err("gradle.lockfile", "# c\na:b=compileClasspath\n", &err) == SB_EPARSE && err.line == 2);
    CHECK(read_err("gradle.lockfile", "a:b:c:d=x\n", &err) == SB_EPARSE && err.line == 1);
    CHECK(read_err("gradle.lockfile", "a:b:1=x\n\na:b:1=y\n", &err) == SB_EPARSE && err.line == 3);
    CHECK(read_err("gradle.lockfile", "a:b:1=x,,y\n", &err) == SB_EPARSE && err.line == 1);
    CHECK(read_err("gradle.lockfile", "a:b:1=x\n<<<<<<< HEAD\n", &err) == SB_EPARSE && err.line == 2 &&
          strstr(err.msg, "merge-conflict"));
    sb_lock_choice c;
    sb_lock_choose(&c, NULL, "x", 1, "buildscript-gradle.lockfile");
    CHECK(c.reader && !strcmp(c.reader->kind, "gradle.lockfile"));
    sb_lock_choose(&c, NULL, gradle, strlen(gradle), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "gradle.lockfile"));
}

/* Maven's ComparableVersion: each older than the next */
TEST(core_gradle__maven_version_order)
{
    static const char *const quals[] = {"1-alpha2snapshot",
                                        "1-alpha2",
                                        "1-alpha-123",
                                        "1-beta-2",
                                        "1-beta123",
                                        "1-m2",
                                        "1-m11",
                                        "1-rc",
                                        "1-cr2",
                                        "1-rc123",
                                        "1-SNAPSHOT",
                                        "1",
                                        "1-sp",
                                        "1-sp2",
                                        "1-sp123",
                                        "1-abc",
                                        "1-def",
                                        "1-pom-1",
                                        "1-1-snapshot",
                                        "1-1",
                                        "1-2",
                                        "1-123"};
    static const char *const nums[] = {"2.0",   "2-1",    "2.0.a", "2.0.0.a", "2.0.2",   "2.0.123", "2.1.0",
                                       "2.1-a", "2.1b",   "2.1-c", "2.1-1",   "2.1.0.1", "2.2",     "2.123",
                                       "11.a2", "11.a11", "11.b2", "11.b11",  "11.m2",   "11.m11",  "11",
                                       "11.a",  "11b",    "11c",   "11m"};
    const char *const *lists[] = {quals, nums};
    size_t ns[] = {sizeof quals / sizeof *quals, sizeof nums / sizeof *nums};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < ns[l]; i++)
            for (size_t j = 0; j < ns[l]; j++) {
                int c = sb_vercmp_maven(lists[l][i], lists[l][j]);
                int want = i < j ? -1 : i > j;
                char why[160];
                snprintf(why, sizeof why, "%s vs %s: %d", lists[l][i], lists[l][j], c);
                sb_test_subcase("maven order", c == want, why);
            }
    static const char *const same[][2] = {{"1", "1.0"},          {"1", "1.0.0"},
                                          {"1.0", "1.0.0"},      {"1-ga", "1"},
                                          {"1-final", "1"},      {"1-release", "1"},
                                          {"1.0-cr1", "1-rc-1"}, {"1a1", "1-alpha-1"},
                                          {"1b2", "1-beta-2"},   {"1m3", "1-milestone-3"},
                                          {"1X", "1x"},          {"1-0", "1"}};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        char why[160];
        snprintf(why, sizeof why, "%s == %s: %d", same[i][0], same[i][1], sb_vercmp_maven(same[i][0], same[i][1]));
        sb_test_subcase("maven same", 0 == sb_vercmp_maven(same[i][0], same[i][1]), why);
    }
}
