/*
 * test_php.c - the composer.lock, packages.lock.json and pubspec.lock
 * readers: every shape their lockfiles come in, purls, digests, edges,
 * scopes, refusals with their line, and the three version orders.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/ecosystem.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"
#include "../../core/vercmp.h"

#include <stdio.h>
#include <string.h>

static sb_sbom *sel(sb_arena *a, const char *kind, const char *text, const char *platform, sb_err *err)
{
    sb_lock *l = NULL;
    if (sb_lock_read(&l, a, kind, text, strlen(text), NULL, NULL, err) != SB_OK)
        return NULL;
    sb_select_opts o = {.platform = platform};
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

static const char *propv(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; p && i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

/* whether p depends on the package named `to` */
static int dep_on(const sb_sbom *s, const sb_pkg *p, const char *to)
{
    for (size_t i = 0; p && i < p->ndeps; i++)
        if (!strcmp(s->pkgs[p->deps[i]].name, to))
            return 1;
    return 0;
}

static int root_dep(const sb_sbom *s, const char *to)
{
    for (size_t i = 0; i < s->nroot; i++)
        if (!strcmp(s->pkgs[s->root_deps[i]].name, to))
            return 1;
    return 0;
}

static const char composer_lock[] =
    "{\n"
    "  \"content-hash\": \"abc\",\n"
    "  \"packages\": [\n"
    "    {\"name\": \"Vendor/Lib\", \"version\": \"v1.2.3\",\n"
    "     \"source\": {\"type\": \"git\", \"url\": \"https://github.com/v/lib.git\", \"reference\": \"aaaa\"},\n"
    "     \"dist\": {\"type\": \"zip\", \"url\": \"https://api.github.com/repos/v/lib/zipball/aaaa\",\n"
    "              \"reference\": \"aaaa\", \"shasum\": \"0123456789ABCDEF0123456789abcdef01234567\"},\n"
    "     \"require\": {\"php\": \">=8.1\", \"ext-json\": \"*\", \"psr/log\": \"^3\", \"poly/fill\": \"^1\"},\n"
    "     \"notification-url\": \"https://packagist.org/downloads/\",\n"
    "     \"license\": [\"MIT\", \"GPL-2.0-or-later\"], \"type\": \"library\"},\n"
    "    {\"name\": \"psr/log\", \"version\": \"3.0.0\", \"dist\": {\"type\": \"zip\", \"url\": \"https://x/log.zip\", "
    "\"shasum\": \"\"},\n"
    "     \"license\": [\"MIT\"], \"require\": []},\n"
    "    {\"name\": \"big/bundle\", \"version\": \"2.0.0\", \"replace\": {\"poly/fill\": \"self.version\"},\n"
    "     \"dist\": {\"type\": \"zip\", \"url\": \"https://wp.example.org/dist/b.zip\"},\n"
    "     \"notification-url\": \"https://wp.example.org/downloads/\"},\n"
    "    {\"name\": \"local/plugin\", \"version\": \"1.0.0\", \"dist\": {\"type\": \"path\", \"url\": \"plugins/p\", "
    "\"reference\": \"bbbb\"}},\n"
    "    {\"name\": \"fork/thing\", \"version\": \"dev-main\",\n"
    "     \"source\": {\"type\": \"git\", \"url\": \"https://github.com/fork/thing.git\", \"reference\": \"cccc\"}}\n"
    "  ],\n"
    "  \"packages-dev\": [\n"
    "    {\"name\": \"phpunit/phpunit\", \"version\": \"10.0.0\", \"require\": {\"vendor/lib\": \"^1\"}}\n"
    "  ],\n"
    "  \"aliases\": [{\"package\": \"fork/thing\", \"version\": \"dev-main\", \"alias\": \"1.0.x-dev\"}],\n"
    "  \"plugin-api-version\": \"2.6.0\"\n"
    "}\n";

TEST(core_composer__shapes_purls_hashes_edges_scopes)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", composer_lock, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 6);
    const sb_pkg *lib = find(s, "Vendor/Lib");
    CHECK(lib && !strcmp(lib->purl, "pkg:composer/vendor/lib@v1.2.3"));
    CHECK(lib && lib->sha1 && !strcmp(lib->sha1, "0123456789abcdef0123456789abcdef01234567"));
    CHECK(lib && lib->license && !strcmp(lib->license, "MIT OR GPL-2.0-or-later"));
    CHECK(lib && lib->scope == SB_SCOPE_REQUIRED);
    CHECK_STR(propv(lib, "pixi:platform-requires"), "php >=8.1, ext-json *");
    CHECK_STR(propv(lib, "pixi:source-reference"), "aaaa");
    CHECK(dep_on(s, lib, "psr/log"));
    CHECK(dep_on(s, lib, "big/bundle")); /* through replace */
    CHECK(lib && lib->ndeps == 2);
    const sb_pkg *log = find(s, "psr/log");
    CHECK(log && NULL == log->sha1 && log->ndeps == 0);
    const sb_pkg *big = find(s, "big/bundle");
    CHECK(big && !strcmp(big->purl, "pkg:composer/big/bundle@2.0.0?repository_url=https:%2F%2Fwp.example.org"));
    const sb_pkg *loc = find(s, "local/plugin");
    CHECK(loc && !strncmp(loc->purl, "pkg:generic/", 12));
    const sb_pkg *fork = find(s, "fork/thing");
    CHECK(fork && strstr(fork->purl, "pkg:composer/fork/thing@dev-main?vcs_url=") && strstr(fork->purl, "cccc"));
    CHECK_STR(propv(fork, "pixi:composer-alias"), "1.0.x-dev");
    const sb_pkg *unit = find(s, "phpunit/phpunit");
    CHECK(unit && unit->scope == SB_SCOPE_DEVELOPMENT && dep_on(s, unit, "Vendor/Lib"));
    CHECK(lib && lib->supplier_name && !strcmp(lib->supplier_name, "packagist.org"));
    CHECK(fork && NULL == fork->supplier_name);
    sb_arena_destroy(a);
}

TEST(core_composer__oldest_shape_and_refusals)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    static const char old[] =
        "{\"hash\": \"x\", \"packages\": [\n"
        "  {\"package\": \"a/b\", \"version\": \"dev-master\", \"source-reference\": \"dddd\"}\n"
        "], \"aliases\": []}\n";
    sb_sbom *s = sel(a, "auto", old, NULL, &err);
    CHECK(s && s->npkgs == 1 && !strcmp(s->pkgs[0].purl, "pkg:composer/a/b@dev-master"));
    CHECK_STR(propv(s ? &s->pkgs[0] : NULL, "pixi:source-reference"), "dddd");
    /* no version: the entry's line */
    static const char nover[] = "{\"packages\": [\n  {\"name\": \"a/b\"}\n]}";
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "composer.lock", nover, strlen(nover), NULL, NULL, &err) == SB_EPARSE);
    CHECK(err.line == 2 && strstr(err.msg, "no version"));
    static const char twice[] =
        "{\"packages\": [{\"name\": \"a/b\", \"version\": \"1\"},\n"
        "{\"name\": \"A/B\", \"version\": \"2\"}]}";
    CHECK(sb_lock_read(&l, a, "composer.lock", twice, strlen(twice), NULL, NULL, &err) == SB_EPARSE);
    CHECK(err.line == 2 && strstr(err.msg, "twice"));
    static const char api3[] = "{\"packages\": [],\n \"plugin-api-version\": \"3.0.0\"}";
    CHECK(sb_lock_read(&l, a, "composer.lock", api3, strlen(api3), NULL, NULL, &err) == SB_EUNSUPPORTED);
    CHECK(err.line == 2);
    static const char bad[] = "{\"packages\": [\n  {\"name\": \"a/b\",, }]}";
    CHECK(sb_lock_read(&l, a, "composer.lock", bad, strlen(bad), NULL, NULL, &err) == SB_EPARSE);
    CHECK(err.line == 2);
    static const char conflict[] =
        "{\"packages\": [\n<<<<<<< HEAD\n{\"name\": \"a/b\", \"version\": \"1\"}\n"
        "=======\n>>>>>>> x\n]}";
    CHECK(sb_lock_read(&l, a, "auto", conflict, strlen(conflict), "composer.lock", NULL, &err) == SB_EPARSE);
    CHECK(err.line == 2 && strstr(err.msg, "merge-conflict"));
    sb_arena_destroy(a);
}

static const char nuget_lock[] =
    "{\n"
    "  \"version\": 2,\n"
    "  \"dependencies\": {\n"
    "    \".NETStandard,Version=v2.0\": {\n"
    "      \"Old.Only\": {\"type\": \"Direct\", \"requested\": \"[1.0.0, )\", \"resolved\": \"1.0.0\"}\n"
    "    },\n"
    "    \"net8.0\": {\n"
    "      \"Newtonsoft.Json\": {\"type\": \"Direct\", \"requested\": \"[13.0.3, )\", \"resolved\": \"13.0.3\",\n"
    "        \"contentHash\": \"" /* 64 bytes 0..63 */
    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+Pw==\",\n"
    "        \"dependencies\": {\"system.memory\": \"4.5.0\"}},\n"
    "      \"System.Memory\": {\"type\": \"CentralTransitive\", \"requested\": \"[4.5.0, )\", \"resolved\": \"4.5.0\",\n"
    "        \"contentHash\": \"TEMPLATE\"},\n"
    "      \"MyLib\": {\"type\": \"Project\", \"dependencies\": {\"Newtonsoft.Json\": \"[13.0.3, )\"}}\n"
    "    },\n"
    "    \"net8.0/linux-x64\": {\n"
    "      \"System.Memory\": {\"type\": \"Transitive\", \"resolved\": \"4.5.5\"}\n"
    "    }\n"
    "  }\n"
    "}\n";

TEST(core_nuget__frameworks_hashes_edges_direct)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    /* no platform named: the newest framework without a runtime */
    sb_sbom *s = sel(a, "auto", nuget_lock, NULL, &err);
    CHECK(s && !strcmp(s->platform, "net8.0") && s->npkgs == 3);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    const sb_pkg *nj = find(s, "Newtonsoft.Json");
    CHECK(nj && !strcmp(nj->purl, "pkg:nuget/Newtonsoft.Json@13.0.3"));
    sb_hash_hex h;
    const char *hex = nj ? sb_pkg_hash(nj, SB_HASH_SHA512, &h) : NULL;
    CHECK(hex && !strncmp(hex, "000102030405", 12) && strlen(hex) == 128);
    CHECK(dep_on(s, nj, "System.Memory"));
    const sb_pkg *mem = find(s, "System.Memory");
    CHECK(mem && NULL == mem->sha512b);
    CHECK_STR(propv(mem, "pixi:nuget-content-hash"), "TEMPLATE");
    CHECK_STR(propv(mem, "pixi:nuget-type"), "CentralTransitive");
    const sb_pkg *proj = find(s, "MyLib");
    CHECK(proj && !strcmp(proj->purl, "pkg:generic/MyLib") && NULL == proj->version);
    CHECK(dep_on(s, proj, "Newtonsoft.Json"));
    CHECK(root_dep(s, "Newtonsoft.Json") && root_dep(s, "MyLib") && !root_dep(s, "System.Memory"));
    CHECK_STR(propv(nj, "pixi:direct"), "true");
    /* a runtime: the framework's packages with the runtime's in their place */
    s = sel(a, "auto", nuget_lock, "net8.0/linux-x64", &err);
    CHECK(s && s->npkgs == 3);
    mem = find(s, "System.Memory");
    CHECK(mem && !strcmp(mem->version, "4.5.5"));
    s = sel(a, "auto", nuget_lock, ".NETStandard,Version=v2.0", &err);
    CHECK(s && s->npkgs == 1);
    /* an unknown one: the choices */
    s = sel(a, "auto", nuget_lock, "net6.0", &err);
    CHECK(NULL == s && err.code == SB_ENOTFOUND && strstr(err.msg, "net8.0/linux-x64"));
    sb_arena_destroy(a);
}

TEST(core_nuget__empty_framework_and_refusals)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    static const char empty[] = "{\n  \"version\": 1,\n  \"dependencies\": {\n    \"net10.0\": {}\n  }\n}";
    sb_sbom *s = sel(a, "auto", empty, NULL, &err);
    CHECK(s && s->npkgs == 0 && !strcmp(s->platform, "net10.0"));
    sb_lock *l = NULL;
    static const char v3[] = "{\n  \"version\": 3,\n  \"dependencies\": {}\n}";
    CHECK(sb_lock_read(&l, a, "auto", v3, strlen(v3), NULL, NULL, &err) == SB_EUNSUPPORTED);
    CHECK(err.line == 2);
    static const char nores[] =
        "{\"version\": 1, \"dependencies\": {\"net8.0\": {\n"
        "  \"A\": {\"type\": \"Direct\"}}}}";
    CHECK(sb_lock_read(&l, a, "packages.lock.json", nores, strlen(nores), NULL, NULL, &err) == SB_EPARSE);
    CHECK(err.line == 2 && strstr(err.msg, "resolved"));
    /* package-lock.json is not taken for it */
    static const char npm[] = "{\"name\": \"x\", \"version\": \"1.0.0\", \"lockfileVersion\": 3, \"dependencies\": {}}";
    sb_lock_choice c;
    sb_lock_choose(&c, "auto", npm, strlen(npm), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "package-lock.json"));
    sb_arena_destroy(a);
}

static const char pub_lock[] =
    "# Generated by pub\n"
    "# See https://dart.dev/tools/pub/glossary#lockfile\n"
    "packages:\n"
    "  args:\n"
    "    dependency: transitive\n"
    "    description:\n"
    "      name: args\n"
    "      sha256: "
    "\"EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE\"\n"
    "      url: \"https://pub.dev\"\n"
    "    source: hosted\n"
    "    version: \"2.4.2\"\n"
    "  private_pkg:\n"
    "    dependency: \"direct main\"\n"
    "    description:\n"
    "      name: private_pkg\n"
    "      url: \"https://pub.example.com\"\n"
    "    source: hosted\n"
    "    version: \"1.0.0+3\"\n"
    "  forked:\n"
    "    dependency: \"direct overridden\"\n"
    "    description:\n"
    "      path: \"packages/forked\"\n"
    "      ref: main\n"
    "      resolved-ref: 0123abcd\n"
    "      url: \"https://github.com/o/forked.git\"\n"
    "    source: git\n"
    "    version: \"0.2.0\"\n"
    "  local:\n"
    "    dependency: \"direct main\"\n"
    "    description:\n"
    "      path: \"../local\"\n"
    "      relative: true\n"
    "    source: path\n"
    "    version: \"0.0.1\"\n"
    "  flutter_test:\n"
    "    dependency: \"direct dev\"\n"
    "    description: flutter\n"
    "    source: sdk\n"
    "    version: \"0.0.0\"\n"
    "sdks:\n"
    "  dart: \">=3.0.0 <4.0.0\"\n";

TEST(core_pub__sources_scopes_direct)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", pub_lock, NULL, &err);
    CHECK(s && s->npkgs == 5);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    const sb_pkg *args = find(s, "args");
    CHECK(args && !strcmp(args->purl, "pkg:pub/args@2.4.2"));
    CHECK(args && args->sha256 && !strncmp(args->sha256, "eeee", 4));
    CHECK(args && args->scope == SB_SCOPE_NONE && NULL == propv(args, "pixi:direct"));
    const sb_pkg *priv = find(s, "private_pkg");
    CHECK(priv && !strcmp(priv->purl, "pkg:pub/private_pkg@1.0.0%2B3?repository_url=https:%2F%2Fpub.example.com"));
    const sb_pkg *fork = find(s, "forked");
    CHECK(fork && strstr(fork->purl, "vcs_url=") && strstr(fork->purl, "0123abcd"));
    CHECK_STR(propv(fork, "pixi:git-ref"), "main");
    CHECK_STR(propv(fork, "pixi:git-path"), "packages/forked");
    const sb_pkg *loc = find(s, "local");
    CHECK(loc && !strcmp(loc->purl, "pkg:generic/local@0.0.1"));
    const sb_pkg *ft = find(s, "flutter_test");
    CHECK(ft && !strcmp(ft->purl, "pkg:generic/flutter_test@0.0.0") && ft->scope == SB_SCOPE_DEVELOPMENT);
    CHECK_STR(propv(ft, "pixi:pub-sdk"), "flutter");
    CHECK(s->deps_unknown);
    CHECK(root_dep(s, "private_pkg") && root_dep(s, "forked") && root_dep(s, "flutter_test"));
    sb_arena_destroy(a);
}

TEST(core_pub__refusals_with_lines)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    static const char badsha[] =
        "packages:\n  a:\n    dependency: transitive\n    description:\n"
        "      name: a\n      sha256: xyz\n    source: hosted\n    version: \"1.0.0\"\n"
        "sdks:\n  dart: any\n";
    CHECK(sb_lock_read(&l, a, "auto", badsha, strlen(badsha), NULL, NULL, &err) == SB_EPARSE);
    CHECK(err.line == 5 && strstr(err.msg, "sha256"));
    static const char nover[] = "packages:\n  a:\n    dependency: transitive\n    source: hosted\nsdks: {}\n";
    CHECK(sb_lock_read(&l, a, "pubspec.lock", nover, strlen(nover), NULL, NULL, &err) == SB_EPARSE);
    CHECK(err.line == 3 && strstr(err.msg, "no version"));
    static const char conflict[] = "packages:\n<<<<<<< HEAD\n  a:\n=======\n>>>>>>> b\nsdks: {}\n";
    CHECK(sb_lock_read(&l, a, "auto", conflict, strlen(conflict), "pubspec.lock", NULL, &err) == SB_EPARSE);
    CHECK(err.line == 2 && strstr(err.msg, "merge-conflict"));
    sb_arena_destroy(a);
}

TEST(core_vercmp__composer_nuget_pub_orders)
{
    static const struct {
        sb_kind kind;
        const char *lo, *hi;
    } v[] = {
        {SB_KIND_COMPOSER, "1.0.0", "1.0.1"},
        {SB_KIND_COMPOSER, "v1.9.0", "1.10.0"},
        {SB_KIND_COMPOSER, "1.0.0-beta2", "1.0.0-RC1"},
        {SB_KIND_COMPOSER, "1.0.0-alpha", "1.0.0-beta"},
        {SB_KIND_COMPOSER, "1.0.0-RC1", "1.0.0"},
        {SB_KIND_COMPOSER, "1.0.0-dev", "1.0.0-alpha1"},
        {SB_KIND_COMPOSER, "1.0.0", "1.0.0-pl1"},
        {SB_KIND_COMPOSER, "dev-main", "0.0.1"},
        {SB_KIND_NUGET, "1.0.0-beta", "1.0.0"},
        {SB_KIND_NUGET, "4.0.2.5", "4.0.10"},
        {SB_KIND_NUGET, "1.0.0-alpha.2", "1.0.0-alpha.10"},
        {SB_KIND_NUGET, "1.0.0.1", "1.0.1"},
        {SB_KIND_PUB, "1.0.0-dev.1", "1.0.0"},
        {SB_KIND_PUB, "1.0.0", "1.0.0+1"},
        {SB_KIND_PUB, "1.0.0+1", "1.0.0+2"},
        {SB_KIND_PUB, "0.9.9", "0.10.0"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        char sub[160];
        snprintf(sub, sizeof sub, "%s: %s < %s", sb_kind_name(v[i].kind), v[i].lo, v[i].hi);
        sb_test_subcase(sub, sb_vercmp(v[i].kind, v[i].lo, v[i].hi) < 0 && sb_vercmp(v[i].kind, v[i].hi, v[i].lo) > 0,
                        "wrong order");
    }
    CHECK(sb_vercmp(SB_KIND_COMPOSER, "1.0", "1.0.0") == 0);
    CHECK(sb_vercmp(SB_KIND_COMPOSER, "v2.1.0", "2.1.0") == 0);
    CHECK(sb_vercmp(SB_KIND_NUGET, "1.0", "1.0.0.0") == 0);
    CHECK(sb_vercmp(SB_KIND_NUGET, "1.0.0-RC", "1.0.0-rc") == 0);
    CHECK(sb_vercmp(SB_KIND_NUGET, "1.0.0+a", "1.0.0+b") == 0);
}
