/*
 * test_jsreaders.c - the JavaScript lockfile readers on small inline inputs:
 * one component per name@version(+source), Node's resolution for edges,
 * workspace links, git/alias/local sources and their purls, SRI integrity
 * to hex, scopes merged, and how each refuses bad input.
 */
#include "test.h"
#include "jsreaders.h"
#include "../../core/arena.h"
#include "../../core/lock.h"
#include "../../core/manifest.h"
#include "../../core/model.h"

#include <stdio.h>
#include <stdlib.h>

#define SHA512_0_63 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+Pw=="
#define SHA1_FF "//////////////////////////8="
#define SHA512_FF "/////////////////////////////////////////////////////////////////////////////////////w=="

/* a v3 lock with a workspace, a scoped package, a package under two paths
 * (one nested copy of another version in between), a git dependency, an npm
 * alias, a devOptional and a dev package also reached from production */
static const char npm_v3[] =
    "{\"name\": \"app\", \"version\": \"1.0.0\", \"lockfileVersion\": 3, \"requires\": true,\n"
    " \"packages\": {\n"
    "  \"\": {\"name\": \"app\", \"version\": \"1.0.0\", \"workspaces\": [\"packages/w\"],\n"
    "        \"dependencies\": {\"@scope/lib\": \"^2\", \"aliased\": \"npm:real@^1\", \"gitdep\": \"github:o/r\"},\n"
    "        \"devDependencies\": {\"devtool\": \"^1\", \"shared\": \"^1\"}, \"optionalDependencies\": {\"fsevents\": \"*\"}},\n"
    "  \"packages/w\": {\"name\": \"w\", \"version\": \"0.1.0\", \"dependencies\": {\"shared\": \"^1\"}},\n"
    "  \"node_modules/w\": {\"resolved\": \"packages/w\", \"link\": true},\n"
    "  \"node_modules/@scope/lib\": {\"version\": \"2.0.0\", \"resolved\": \"https://registry.npmjs.org/@scope/lib/-/lib-2.0.0.tgz\",\n"
    "        \"integrity\": \"sha512-" SHA512_0_63 " sha1-" SHA1_FF
    "\", \"license\": \"MIT\",\n"
    "        \"dependencies\": {\"shared\": \"^2\", \"leaf\": \"1\"}},\n"
    "  \"node_modules/@scope/lib/node_modules/shared\": {\"version\": \"2.0.0\", \"resolved\": \"https://registry.npmjs.org/shared/-/shared-2.0.0.tgz\",\n"
    "        \"dependencies\": {\"leaf\": \"1\"}},\n"
    "  \"node_modules/leaf\": {\"version\": \"1.0.0\", \"resolved\": \"https://registry.npmjs.org/leaf/-/leaf-1.0.0.tgz\", \"license\": \"Apache 2.0\"},\n"
    "  \"node_modules/@scope/lib/node_modules/leaf\": {\"version\": \"1.0.0\", \"resolved\": \"https://registry.npmjs.org/leaf/-/leaf-1.0.0.tgz\"},\n"
    "  \"node_modules/shared\": {\"version\": \"1.5.0\", \"resolved\": \"https://registry.npmjs.org/shared/-/shared-1.5.0.tgz\"},\n"
    "  \"node_modules/devtool\": {\"version\": \"1.0.0\", \"dev\": true, \"resolved\": \"https://registry.npmjs.org/devtool/-/devtool-1.0.0.tgz\",\n"
    "        \"dependencies\": {\"leaf\": \"1\", \"maybe\": \"1\"}},\n"
    "  \"node_modules/maybe\": {\"version\": \"1.0.0\", \"devOptional\": true},\n"
    "  \"node_modules/aliased\": {\"name\": \"real\", \"version\": \"1.2.0\", \"resolved\": \"https://registry.npmjs.org/real/-/real-1.2.0.tgz\"},\n"
    "  \"node_modules/gitdep\": {\"version\": \"3.0.0\", \"resolved\": \"git+ssh://git@github.com/o/r.git#0123abcd\"},\n"
    "  \"node_modules/nothere\": {}\n"
    " }}\n";

TEST(core_npm__v3_components_purls_hashes)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", npm_v3, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "package-lock.json");
    CHECK_STR(s->root_name, "app");
    CHECK_STR(s->platform, "noarch");
    /* w, @scope/lib, shared 2 and 1.5, leaf (once for two paths), devtool,
     * maybe, real, gitdep; no entry for the link, the root or `nothere` */
    CHECK(s->npkgs == 9);
    const sb_pkg *lib = find(s, "@scope/lib", "2.0.0");
    CHECK(lib && !strcmp(lib->purl, "pkg:npm/%40scope/lib@2.0.0"));
    sb_hash_hex hx;
    const char *lib512 = lib ? sb_pkg_hash(lib, SB_HASH_SHA512, &hx) : NULL;
    CHECK(lib512 && strlen(lib512) == 128 && !strncmp(lib512, "000102030405", 12) && !strcmp(lib512 + 124, "3e3f"));
    CHECK(lib && lib->sha1 && !strcmp(lib->sha1, "ffffffffffffffffffffffffffffffffffffffff"));
    CHECK(lib && lib->license && !strcmp(lib->license, "MIT"));
    CHECK(lib && lib->supplier_name && !strcmp(lib->supplier_name, "registry.npmjs.org"));
    const sb_pkg *leaf = find(s, "leaf", "1.0.0");
    CHECK_STR(prop(leaf, "pixi:install-paths"), "node_modules/leaf, node_modules/@scope/lib/node_modules/leaf");
    CHECK(leaf && leaf->lic && leaf->lic->kind == SB_LIC_EXPR && !strcmp(leaf->lic->value, "Apache-2.0"));
    const sb_pkg *real = find(s, "real", "1.2.0");
    CHECK(real && !strcmp(real->purl, "pkg:npm/real@1.2.0"));
    CHECK_STR(prop(real, "pixi:npm-alias"), "aliased");
    /* the user part of a URL never reaches a document (git@ too) */
    const sb_pkg *git = find(s, "gitdep", NULL);
    CHECK(git && !strcmp(git->purl, "pkg:npm/gitdep@3.0.0?vcs_url=git%2Bssh:%2F%2Fgithub.com%2Fo%2Fr.git%400123abcd"));
    CHECK_STR(prop(git, "pixi:source-rev"), "0123abcd");
    const sb_pkg *w = find(s, "w", NULL);
    CHECK(w && !strcmp(w->purl, "pkg:generic/w@0.1.0"));
    CHECK_STR(prop(w, "pixi:direct-url"), "packages/w");
    sb_arena_destroy(a);
}

TEST(core_npm__v3_node_resolution_scopes_roots)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "package-lock.json", npm_v3, &err);
    CHECK(s != NULL);
    if (!s) {
        sb_arena_destroy(a);
        return;
    }
    const sb_pkg *lib = find(s, "@scope/lib", NULL), *shared2 = find(s, "shared", "2.0.0"),
                 *shared1 = find(s, "shared", "1.5.0"), *leaf = find(s, "leaf", NULL), *w = find(s, "w", NULL),
                 *devtool = find(s, "devtool", NULL), *maybe = find(s, "maybe", NULL), *real = find(s, "real", NULL),
                 *git = find(s, "gitdep", NULL);
    /* the nested copy wins inside @scope/lib; the top-level one elsewhere */
    CHECK(depends_on(s, lib, shared2) && !depends_on(s, lib, shared1));
    CHECK(depends_on(s, w, shared1) && !depends_on(s, w, shared2));
    CHECK(depends_on(s, lib, leaf) && depends_on(s, shared2, leaf));
    CHECK(depends_on(s, devtool, maybe));
    /* the root: its dependencies of every kind, the workspace member, the alias by install name */
    CHECK(root_depends_on(s, lib) && root_depends_on(s, real) && root_depends_on(s, git));
    CHECK(root_depends_on(s, devtool) && root_depends_on(s, shared1) && root_depends_on(s, w));
    CHECK(!root_depends_on(s, leaf) && !root_depends_on(s, maybe));
    CHECK_STR(prop(lib, "pixi:direct"), "true");
    CHECK(NULL == prop(leaf, "pixi:direct"));
    /* scopes: devOptional kept; leaf reached from dev and production: required */
    CHECK_STR(prop(maybe, "pixi:scope"), "devOptional");
    CHECK_STR(prop(devtool, "pixi:scope"), "dev");
    CHECK_STR(prop(leaf, "pixi:scope"), "required");
    /* ... and the model's scope, which the writers turn into CycloneDX scope
     * and SPDX DEV_/OPTIONAL_DEPENDENCY_OF */
    CHECK(maybe->scope == SB_SCOPE_DEVELOPMENT && devtool->scope == SB_SCOPE_DEVELOPMENT);
    CHECK(leaf->scope == SB_SCOPE_REQUIRED && lib->scope == SB_SCOPE_REQUIRED);
    sb_arena_destroy(a);
}

/* v1: nested dependencies with requires, an alias, a git spec as version */
static const char npm_v1[] =
    "{\"name\": \"old\", \"version\": \"0.0.1\", \"lockfileVersion\": 1, \"requires\": true,\n"
    " \"dependencies\": {\n"
    "  \"a\": {\"version\": \"1.0.0\", \"resolved\": \"https://registry.npmjs.org/a/-/a-1.0.0.tgz\",\n"
    "         \"requires\": {\"b\": \"^2\"},\n"
    "         \"dependencies\": {\"b\": {\"version\": \"2.0.0\", \"resolved\": \"https://registry.npmjs.org/b/-/b-2.0.0.tgz\",\n"
    "                                    \"dev\": true, \"requires\": {\"c\": \"1\"}}}},\n"
    "  \"b\": {\"version\": \"1.0.0\", \"optional\": true},\n"
    "  \"c\": {\"version\": \"1.0.0\", \"integrity\": \"sha1-" SHA1_FF
    "\"},\n"
    "  \"al\": {\"version\": \"npm:@x/real@3.1.0\"},\n"
    "  \"g\": {\"version\": \"github:o/r#deadbeef\", \"from\": \"github:o/r\"}\n"
    " }}\n";

TEST(core_npm__v1_nesting_alias_git)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", npm_v1, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 6);
    CHECK_STR(s->root_name, "old");
    const sb_pkg *pa = find(s, "a", NULL), *b2 = find(s, "b", "2.0.0"), *b1 = find(s, "b", "1.0.0"),
                 *c = find(s, "c", NULL);
    CHECK(depends_on(s, pa, b2) && !depends_on(s, pa, b1));
    CHECK(depends_on(s, b2, c));
    CHECK_STR(prop(b2, "pixi:scope"), "dev");
    CHECK_STR(prop(b1, "pixi:scope"), "optional");
    CHECK(b2->scope == SB_SCOPE_DEVELOPMENT && b1->scope == SB_SCOPE_OPTIONAL);
    CHECK_STR(prop(b2, "pixi:install-paths"), "node_modules/a/node_modules/b");
    CHECK(c && c->sha1 && !strcmp(c->sha1, "ffffffffffffffffffffffffffffffffffffffff"));
    const sb_pkg *al = find(s, "@x/real", "3.1.0");
    CHECK(al && !strcmp(al->purl, "pkg:npm/%40x/real@3.1.0"));
    CHECK_STR(prop(al, "pixi:npm-alias"), "al");
    const sb_pkg *g = find(s, "g", "deadbeef");
    CHECK(g && !strcmp(g->purl, "pkg:npm/g@deadbeef?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fr.git%40deadbeef"));
    sb_arena_destroy(a);
}

/* Issue 43: install paths as a directory tree. A v3 entry deep in the tree
 * resolves its dependencies level by level (nearest first, scoped names
 * too); a v1 package with a name past PATH_MAX keeps its children, each
 * resolved, but no path npm could not have installed at is spelled out
 * (they were once 100 KB copies each). */
TEST(core_npm__deep_paths_and_long_names)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    size_t depth = 300, cap = depth * 24 + 4096;
    char *deep = malloc(cap), *text = malloc(cap + 1024);
    CHECK(deep && text);
    if (!deep || !text) {
        free(deep);
        free(text);
        sb_arena_destroy(a);
        return;
    }
    size_t o = 0;
    for (size_t i = 0; i < depth; i++)
        o += (size_t)snprintf(deep + o, cap - o, "%snode_modules/d%zu", i ? "/" : "", i);
    /* "near" is installed 150 levels up, "@s/far" at the root, "@s/near" twice: the nearer wins */
    size_t mid = 0;
    for (size_t i = 0, seen = 0; deep[i]; i++)
        if (deep[i] == '/' && ++seen == 2 * 150) {
            mid = i;
            break;
        }
    snprintf(text, cap + 1024,
             "{\"lockfileVersion\":3,\"packages\":{\"\":{\"name\":\"x\"},"
             "\"%s\":{\"version\":\"1.0.0\",\"dependencies\":{\"near\":\"1\",\"@s/far\":\"1\",\"absent\":\"1\"}},"
             "\"%.*s/node_modules/near\":{\"version\":\"2.0.0\"},"
             "\"node_modules/near\":{\"version\":\"1.0.0\"},"
             "\"node_modules/@s/far\":{\"version\":\"3.0.0\"}}}",
             deep, (int)mid, deep);
    sb_sbom *s = sel(a, "package-lock.json", text, &err);
    CHECK(s != NULL);
    char name[16];
    snprintf(name, sizeof name, "d%zu", depth - 1);
    const sb_pkg *leaf = find(s, name, "1.0.0"), *near2 = find(s, "near", "2.0.0"), *near1 = find(s, "near", "1.0.0"),
                 *far = find(s, "@s/far", "3.0.0");
    CHECK(leaf && near2 && near1 && far);
    CHECK(depends_on(s, leaf, near2) && !depends_on(s, leaf, near1));
    CHECK(depends_on(s, leaf, far));
    CHECK(leaf && leaf->ndeps == 2);
    /* v1: a 4,070-byte name (its path fits PATH_MAX, its children's do not) with 50 children */
    size_t nl = 4070;
    o = (size_t)snprintf(text, cap, "{\"lockfileVersion\":1,\"dependencies\":{\"");
    memset(text + o, 'n', nl);
    o += nl;
    o += (size_t)snprintf(text + o, cap - o,
                          "\":{\"version\":\"1.0.0\",\"requires\":{\"c0\":\"1\"},\"dependencies\":{");
    for (int i = 0; i < 50; i++)
        o += (size_t)snprintf(text + o, cap - o, "%s\"c%d\":{\"version\":\"1.0.%d\"%s}", i ? "," : "", i, i,
                              i == 1 ? ",\"requires\":{\"c0\":\"1\"}" : "");
    snprintf(text + o, cap - o, "}}}}");
    sb_sbom *s1 = sel(a, "package-lock.json", text, &err);
    CHECK(s1 != NULL);
    CHECK(s1 && s1->npkgs == 51);
    const sb_pkg *c0 = find(s1, "c0", NULL), *c1 = find(s1, "c1", NULL);
    CHECK(c0 && c1 && depends_on(s1, c1, c0));
    CHECK(c0 && NULL == prop(c0, "pixi:install-paths")); /* past 4,096 bytes: not a path npm installs at */
    const sb_pkg *top = s1 ? &s1->pkgs[0] : NULL;
    for (size_t i = 0; s1 && i < s1->npkgs; i++)
        if (strlen(s1->pkgs[i].name) == nl)
            top = &s1->pkgs[i];
    CHECK(top && strlen(top->name) == nl && depends_on(s1, top, c0));
    CHECK(top && prop(top, "pixi:install-paths") && strlen(prop(top, "pixi:install-paths")) == nl + 13);
    free(deep);
    free(text);
    sb_arena_destroy(a);
}

TEST(core_npm__refusals)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    CHECK(NULL == sel(a, "package-lock.json", "{\"lockfileVersion\": 4, \"packages\": {}}", &err));
    CHECK(err.code == SB_EUNSUPPORTED && strstr(err.msg, "lockfileVersion 4") && strstr(err.msg, "1, 2, 3"));
    CHECK(NULL == sel(a, "package-lock.json", "{\n\"lockfileVersion\": 2,\n<<<<<<< HEAD\n", &err));
    CHECK(err.code == SB_EPARSE && err.line == 3);
    CHECK(NULL == sel(a, "package-lock.json", "{\"lockfileVersion\": 2}", &err));
    CHECK(err.code == SB_EPARSE);
    CHECK(NULL == sel(a, "package-lock.json", "{\"lockfileVersion\": 3, \"packages\": {\"node_modules/x\": 1}}", &err));
    CHECK(err.code == SB_EPARSE && strstr(err.msg, "node_modules/x"));
    CHECK(NULL == sel(a, "package-lock.json", "[1, 2]", &err));
    CHECK(err.code == SB_EPARSE);
    /* a BOM is skipped; detection by content finds it */
    CHECK(NULL != sel(a, "auto", "\xEF\xBB\xBF{\"lockfileVersion\": 3, \"packages\": {}}", &err));
    sb_arena_destroy(a);
}

/* `resolved: "file:https://..."` (fuzz find): the location handed back
 * unchanged must be a copy, not a string of the freed jansson tree */
TEST(core_npm__file_url_outlives_the_json_tree)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    const sb_sbom *s =
        sel(a, "package-lock.json",
            "{\"lockfileVersion\": 3, \"packages\": {\"\": {\"name\": \"r\"},"
            " \"node_modules/a\": {\"version\": \"1.0.0\", \"resolved\": \"file:https://h.example/a.tgz\"}}}",
            &err);
    const sb_pkg *p = find(s, "a", "1.0.0");
    CHECK(p != NULL);
    CHECK(p && p->location && !strcmp(p->location, "https://h.example/a.tgz"));
    sb_arena_destroy(a);
}

/* Issue 38, defect 1: one name@version at several paths. The bundled copy
 * (inBundle) sorts first and has a license but no integrity or resolved;
 * the registry copy the reverse. `c` has two copies whose integrity and
 * license disagree and a mirror's resolved: the first copy's stay the
 * component's, the others are kept beside them. v1 `bundled: true` too. */
static const char npm_copies[] =
    "{\"name\": \"r\", \"version\": \"1.0.0\", \"lockfileVersion\": 3, \"packages\": {\n"
    "  \"\": {\"name\": \"r\", \"version\": \"1.0.0\", \"dependencies\": {\"a\": \"1\", \"b\": \"1\", \"c\": \"1\"}},\n"
    "  \"node_modules/a\": {\"version\": \"1.0.0\", \"resolved\": \"https://registry.npmjs.org/a/-/a-1.0.0.tgz\",\n"
    "        \"bundleDependencies\": [\"b\", \"c\"], \"dependencies\": {\"b\": \"1\", \"c\": \"1\"}},\n"
    "  \"node_modules/a/node_modules/b\": {\"version\": \"1.0.0\", \"inBundle\": true, \"license\": \"MIT\"},\n"
    "  \"node_modules/a/node_modules/c\": {\"version\": \"2.0.0\", \"inBundle\": true, \"license\": \"MIT\",\n"
    "        \"resolved\": \"https://registry.npmjs.org/c/-/c-2.0.0.tgz\", \"integrity\": \"sha512-" SHA512_0_63
    "\"},\n"
    "  \"node_modules/b\": {\"version\": \"1.0.0\", \"resolved\": \"https://registry.npmjs.org/b/-/b-1.0.0.tgz\",\n"
    "        \"integrity\": \"sha512-" SHA512_0_63 " sha1-" SHA1_FF
    "\"},\n"
    "  \"node_modules/c\": {\"version\": \"2.0.0\", \"license\": \"ISC\",\n"
    "        \"resolved\": \"https://mirror.example/npm/c/-/c-2.0.0.tgz\", \"integrity\": \"sha512-" SHA512_FF
    " sha1-" SHA1_FF
    "\"}\n"
    "}}\n";
static const char npm_copies_v1[] =
    "{\"name\": \"r\", \"lockfileVersion\": 1, \"dependencies\": {\n"
    "  \"a\": {\"version\": \"1.0.0\", \"requires\": {\"b\": \"1\"},\n"
    "         \"dependencies\": {\"b\": {\"version\": \"1.0.0\", \"bundled\": true}}},\n"
    "  \"b\": {\"version\": \"1.0.0\", \"resolved\": \"https://registry.npmjs.org/b/-/b-1.0.0.tgz\", \"integrity\": \"sha1-" SHA1_FF
    "\"}\n"
    "}}\n";

TEST(core_npm__copies_union_and_conflicts)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "package-lock.json", npm_copies, &err);
    CHECK(s != NULL && s->npkgs == 3);
    const sb_pkg *b = find(s, "b", "1.0.0"), *c = find(s, "c", "2.0.0");
    CHECK(b && c);
    if (!b || !c) {
        sb_arena_destroy(a);
        return;
    }
    sb_hash_hex hx;
    const char *b512 = sb_pkg_hash(b, SB_HASH_SHA512, &hx);
    CHECK(b512 && !strncmp(b512, "000102030405", 12));
    CHECK(b->sha1 && !strcmp(b->sha1, "ffffffffffffffffffffffffffffffffffffffff"));
    CHECK(b->license && !strcmp(b->license, "MIT"));
    CHECK(b->location && !strcmp(b->location, "https://registry.npmjs.org/b/-/b-1.0.0.tgz"));
    CHECK(b->supplier_name && !strcmp(b->supplier_name, "registry.npmjs.org"));
    CHECK_STR(b->purl, "pkg:npm/b@1.0.0");
    CHECK(NULL == prop(b, "pixi:other-integrity") && NULL == prop(b, "pixi:other-license"));
    /* c: the first copy's SHA-512, license and resolved; the second's sha1 added; the rest kept beside */
    const char *c512 = sb_pkg_hash(c, SB_HASH_SHA512, &hx);
    CHECK(c512 && !strncmp(c512, "000102030405", 12));
    CHECK(c->sha1 && !strcmp(c->sha1, "ffffffffffffffffffffffffffffffffffffffff"));
    CHECK_STR(prop(c, "pixi:other-integrity"), "sha512-" SHA512_FF);
    CHECK(c->license && !strcmp(c->license, "MIT"));
    CHECK_STR(prop(c, "pixi:other-license"), "ISC");
    CHECK_STR(prop(c, "pixi:other-resolved"), "https://mirror.example/npm/c/-/c-2.0.0.tgz");
    CHECK_STR(c->purl, "pkg:npm/c@2.0.0");
    s = sel(a, "package-lock.json", npm_copies_v1, &err);
    const sb_pkg *b1 = find(s, "b", "1.0.0");
    CHECK(s && s->npkgs == 2 && b1);
    CHECK(b1 && b1->sha1 && b1->location && b1->supplier_name && !strcmp(b1->supplier_name, "registry.npmjs.org"));
    sb_arena_destroy(a);
}

/* Issue 38, defect 7: the scope of a package from its copies as npm's
 * --omit reads their flags (a dev copy and an optional copy: neither omit
 * alone removes it, devOptional; dev copies with or without optional: dev);
 * the root named by the top level when "" has no name; what nothing
 * depends on marked as an orphan. */
static const char npm_scopes[] =
    "{\"name\": \"top\", \"version\": \"2.0.0\", \"lockfileVersion\": 3, \"packages\": {\n"
    "  \"\": {\"dependencies\": {\"p\": \"1\"}, \"devDependencies\": {\"d\": \"1\"}, \"optionalDependencies\": {\"o\": \"1\"}},\n"
    "  \"node_modules/d\": {\"version\": \"1.0.0\", \"dev\": true, \"dependencies\": {\"x\": \"1\", \"y\": \"1\"},\n"
    "        \"optionalDependencies\": {\"z\": \"1\"}},\n"
    "  \"node_modules/d/node_modules/x\": {\"version\": \"1.0.0\", \"dev\": true},\n"
    "  \"node_modules/d/node_modules/y\": {\"version\": \"1.0.0\", \"dev\": true},\n"
    "  \"node_modules/d/node_modules/z\": {\"version\": \"1.0.0\", \"dev\": true, \"optional\": true},\n"
    "  \"node_modules/o\": {\"version\": \"1.0.0\", \"optional\": true, \"dependencies\": {\"x\": \"1\"}},\n"
    "  \"node_modules/o/node_modules/x\": {\"version\": \"1.0.0\", \"optional\": true},\n"
    "  \"node_modules/p\": {\"version\": \"1.0.0\", \"dependencies\": {\"z\": \"1\", \"y\": \"1\"}},\n"
    "  \"node_modules/p/node_modules/y\": {\"version\": \"1.0.0\", \"dev\": true},\n"
    "  \"node_modules/p/node_modules/z\": {\"version\": \"1.0.0\", \"dev\": true},\n"
    "  \"node_modules/stray\": {\"version\": \"1.0.0\", \"extraneous\": true, \"dependencies\": {\"under\": \"1\"}},\n"
    "  \"node_modules/under\": {\"version\": \"1.0.0\"}\n"
    "}}\n";

TEST(core_npm__scopes_root_name_orphans)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "package-lock.json", npm_scopes, &err);
    CHECK(s != NULL);
    if (!s) {
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->root_name, "top");
    CHECK(s->root_version && !strcmp(s->root_version, "2.0.0"));
    const sb_pkg *x = find(s, "x", NULL), *y = find(s, "y", NULL), *z = find(s, "z", NULL), *d = find(s, "d", NULL),
                 *stray = find(s, "stray", NULL), *under = find(s, "under", NULL), *p = find(s, "p", NULL);
    CHECK_STR(prop(x, "pixi:scope"), "devOptional"); /* a dev copy and an optional copy */
    CHECK(x && x->scope == SB_SCOPE_DEVELOPMENT);
    CHECK_STR(prop(y, "pixi:scope"), "dev");
    CHECK_STR(prop(z, "pixi:scope"), "dev"); /* dev, and dev + optional: --omit=dev removes both */
    CHECK_STR(prop(d, "pixi:scope"), "dev");
    /* the orphan: still a root edge (the graph stays closed), now saying so */
    CHECK_STR(prop(stray, "pixi:orphan"), "true");
    CHECK(root_depends_on(s, stray) && depends_on(s, stray, under));
    CHECK(NULL == prop(under, "pixi:orphan") && NULL == prop(p, "pixi:orphan") && NULL == prop(x, "pixi:orphan"));
    CHECK(NULL == prop(d, "pixi:orphan"));
    /* v1 states no root edges: nothing there is called an orphan */
    s = sel(a, "package-lock.json", npm_copies_v1, &err);
    for (size_t i = 0; s && i < s->npkgs; i++)
        CHECK(NULL == prop(&s->pkgs[i], "pixi:orphan"));
    sb_arena_destroy(a);
}

/* Issue 38, "also untested": npm's git, tarball and file: sources, v3 and
 * v1, each with the purl form the purl spec gives (vcs_url, download_url;
 * a local file pkg:generic), never a registry purl they are not. */
static const char npm_sources_v3[] =
    "{\"name\": \"r\", \"lockfileVersion\": 3, \"packages\": {\n"
    "  \"\": {\"name\": \"r\", \"dependencies\": {\"ssh\": \"git+ssh://git@github.com/o/ssh.git\", \"gh\": \"github:o/gh\",\n"
    "        \"tb\": \"https://example.com/tb-4.0.0.tgz\", \"ftb\": \"file:vendor/ftb-5.0.0.tgz\", \"fdir\": \"file:../fdir\"}},\n"
    "  \"../fdir\": {\"name\": \"fdir\", \"version\": \"6.0.0\"},\n"
    "  \"node_modules/fdir\": {\"resolved\": \"../fdir\", \"link\": true},\n"
    "  \"node_modules/ftb\": {\"version\": \"5.0.0\", \"resolved\": \"file:vendor/ftb-5.0.0.tgz\", \"integrity\": \"sha1-" SHA1_FF
    "\"},\n"
    "  \"node_modules/gh\": {\"version\": \"2.0.0\", \"resolved\": \"github:o/gh#89abcdef\"},\n"
    "  \"node_modules/ssh\": {\"version\": \"1.0.0\", \"resolved\": \"git+ssh://git@github.com/o/ssh.git#0123abcd\"},\n"
    "  \"node_modules/tb\": {\"version\": \"4.0.0\", \"resolved\": \"https://example.com/tb-4.0.0.tgz\"}\n"
    "}}\n";
static const char npm_sources_v1[] =
    "{\"name\": \"r\", \"lockfileVersion\": 1, \"dependencies\": {\n"
    "  \"ssh\": {\"version\": \"git+ssh://git@gitlab.example/o/ssh.git#0123abcd\", \"from\": \"git+ssh://git@gitlab.example/o/ssh.git\"},\n"
    "  \"gh\": {\"version\": \"github:o/gh#89abcdef\", \"from\": \"github:o/gh\"},\n"
    "  \"tb\": {\"version\": \"https://example.com/tb-4.0.0.tgz\"},\n"
    "  \"reg\": {\"version\": \"https://registry.npmjs.org/reg/-/reg-7.0.0.tgz\", \"integrity\": \"sha1-" SHA1_FF
    "\"},\n"
    "  \"ftb\": {\"version\": \"file:vendor/ftb-5.0.0.tgz\"},\n"
    "  \"fdir\": {\"version\": \"file:../fdir\"}\n"
    "}}\n";

TEST(core_npm__git_tarball_file_sources)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "package-lock.json", npm_sources_v3, &err);
    CHECK(s && s->npkgs == 5);
    const sb_pkg *p;
    p = find(s, "ssh", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:npm/ssh@1.0.0?vcs_url=git%2Bssh:%2F%2Fgithub.com%2Fo%2Fssh.git%400123abcd"));
    p = find(s, "gh", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:npm/gh@2.0.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fgh.git%4089abcdef"));
    CHECK_STR(prop(p, "pixi:source-rev"), "89abcdef");
    p = find(s, "tb", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:npm/tb@4.0.0?download_url=https:%2F%2Fexample.com%2Ftb-4.0.0.tgz"));
    p = find(s, "ftb", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:generic/ftb@5.0.0") && p->sha1);
    CHECK_STR(prop(p, "pixi:direct-url"), "vendor/ftb-5.0.0.tgz");
    p = find(s, "fdir", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:generic/fdir@6.0.0"));
    CHECK_STR(prop(p, "pixi:direct-url"), "../fdir");
    for (size_t i = 0; s && i < s->npkgs; i++)
        CHECK(root_depends_on(s, &s->pkgs[i]) && NULL == prop(&s->pkgs[i], "pixi:orphan"));
    s = sel(a, "package-lock.json", npm_sources_v1, &err);
    CHECK(s && s->npkgs == 6);
    p = find(s, "ssh", NULL);
    CHECK(p &&
          !strcmp(p->purl, "pkg:npm/ssh@0123abcd?vcs_url=git%2Bssh:%2F%2Fgitlab.example%2Fo%2Fssh.git%400123abcd"));
    p = find(s, "gh", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:npm/gh@89abcdef?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fgh.git%4089abcdef"));
    p = find(s, "tb", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:npm/tb?download_url=https:%2F%2Fexample.com%2Ftb-4.0.0.tgz"));
    /* npm 5 wrote a registry tarball as the version: the version its file names */
    p = find(s, "reg", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:npm/reg@7.0.0") && p->supplier_name && p->sha1);
    p = find(s, "ftb", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:generic/ftb"));
    CHECK_STR(prop(p, "pixi:direct-url"), "vendor/ftb-5.0.0.tgz");
    p = find(s, "fdir", NULL);
    CHECK(p && !strcmp(p->purl, "pkg:generic/fdir"));
    CHECK_STR(prop(p, "pixi:direct-url"), "../fdir");
    sb_arena_destroy(a);
}

/* pnpm 9: two importers, a workspace link, a peer suffix, an alias, a git
 * package, an optional and a dev dependency, a snapshot named later than its
 * dependent */
static const char pnpm_v9[] =
    "lockfileVersion: '9.0'\n"
    "importers:\n"
    "  .:\n"
    "    dependencies:\n"
    "      app-lib:\n"
    "        specifier: workspace:*\n"
    "        version: link:packages/lib\n"
    "    devDependencies:\n"
    "      tool: {specifier: ^1, version: 1.0.0}\n"
    "  packages/lib:\n"
    "    dependencies:\n"
    "      ui: {specifier: ^2, version: 2.0.0(react@18.2.0)}\n"
    "      al: {specifier: 'npm:@x/real@^3', version: '@x/real@3.0.0'}\n"
    "      gitdep: {specifier: 'github:o/r', version: 'https://codeload.github.com/o/r/tar.gz/abc'}\n"
    "    optionalDependencies:\n"
    "      opt: {specifier: ^1, version: 1.0.0}\n"
    "packages:\n"
    "  ui@2.0.0:\n"
    "    resolution: {integrity: sha512-" SHA512_0_63
    "}\n"
    "  react@18.2.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "  '@x/real@3.0.0':\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "  gitdep@https://codeload.github.com/o/r/tar.gz/abc:\n"
    "    resolution: {tarball: https://codeload.github.com/o/r/tar.gz/abc}\n"
    "    version: 1.1.0\n"
    "  opt@1.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "  tool@1.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "snapshots:\n"
    "  ui@2.0.0(react@18.2.0):\n"
    "    dependencies:\n"
    "      react: 18.2.0\n"
    "  react@18.2.0: {}\n"
    "  '@x/real@3.0.0': {}\n"
    "  gitdep@https://codeload.github.com/o/r/tar.gz/abc: {}\n"
    "  opt@1.0.0:\n"
    "    dependencies:\n"
    "      react: 18.2.0\n"
    "  tool@1.0.0:\n"
    "    dependencies:\n"
    "      ui: 2.0.0(react@18.2.0)\n";

TEST(core_pnpm__v9_importers_peers_alias_git)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", pnpm_v9, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "pnpm-lock.yaml");
    CHECK(s->npkgs ==
          7); /* app-lib (the member packages/lib, named as the root links it), ui, react, @x/real, gitdep, opt, tool */
    const sb_pkg *lib = find(s, "app-lib", NULL), *ui = find(s, "ui", "2.0.0"), *react = find(s, "react", NULL),
                 *real = find(s, "@x/real", "3.0.0"), *git = find(s, "gitdep", "1.1.0"), *opt = find(s, "opt", NULL),
                 *tool = find(s, "tool", NULL);
    CHECK(lib && !strcmp(lib->purl, "pkg:generic/app-lib"));
    CHECK(ui && !strcmp(ui->purl, "pkg:npm/ui@2.0.0") && ui->sha512b);
    CHECK_STR(prop(ui, "pixi:peer-suffixes"), "(react@18.2.0)");
    CHECK(real && !strcmp(real->purl, "pkg:npm/%40x/real@3.0.0"));
    CHECK(git && !strcmp(git->purl,
                         "pkg:npm/gitdep@1.1.0?download_url=https:%2F%2Fcodeload.github.com%2Fo%2Fr%2Ftar.gz%2Fabc"));
    /* edges: link to the member, peer-suffixed ref, alias ref, snapshot listed later */
    CHECK(root_depends_on(s, lib) && root_depends_on(s, tool) && !root_depends_on(s, ui));
    CHECK(depends_on(s, lib, ui) && depends_on(s, lib, real) && depends_on(s, lib, git) && depends_on(s, lib, opt));
    CHECK(depends_on(s, ui, react) && depends_on(s, tool, ui) && depends_on(s, opt, react));
    /* scopes down the graph: ui from production and from dev is required */
    CHECK_STR(prop(ui, "pixi:scope"), "required");
    CHECK_STR(prop(tool, "pixi:scope"), "dev");
    CHECK_STR(prop(opt, "pixi:scope"), "optional");
    CHECK_STR(prop(react, "pixi:scope"), "required");
    CHECK(ui->scope == SB_SCOPE_REQUIRED && tool->scope == SB_SCOPE_DEVELOPMENT && opt->scope == SB_SCOPE_OPTIONAL);
    sb_arena_destroy(a);
}

/* 5.x single project (/name/version_peer keys) and 6.0 (/name@version(peer)) */
static const char pnpm_v5[] =
    "lockfileVersion: 5.4\n"
    "specifiers:\n"
    "  '@s/a': ^1\n"
    "dependencies:\n"
    "  '@s/a': 1.0.0_b@2.0.0\n"
    "devDependencies:\n"
    "  b: 2.0.0\n"
    "packages:\n"
    "  /@s/a/1.0.0_b@2.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    dependencies:\n"
    "      b: 2.0.0\n"
    "    dev: false\n"
    "  /b/2.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "  github.com/o/r/abc:\n"
    "    resolution: {type: git, repo: 'https://github.com/o/r.git', commit: abc}\n"
    "    name: r\n"
    "    version: 0.1.0\n";

static const char pnpm_v6[] =
    "lockfileVersion: '6.0'\n"
    "dependencies:\n"
    "  a:\n"
    "    specifier: ^1\n"
    "    version: 1.0.0(b@2.0.0)\n"
    "packages:\n"
    "  /a@1.0.0(b@2.0.0):\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    dependencies:\n"
    "      b: 2.0.0\n"
    "  /b@2.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF "}\n";

TEST(core_pnpm__v5_v6_keys)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pnpm-lock.yaml", pnpm_v5, &err);
    CHECK(s && s->npkgs == 3);
    const sb_pkg *pa = find(s, "@s/a", "1.0.0"), *b = find(s, "b", "2.0.0"), *r = find(s, "r", "0.1.0");
    CHECK(pa && !strcmp(pa->purl, "pkg:npm/%40s/a@1.0.0"));
    CHECK_STR(prop(pa, "pixi:peer-suffixes"), "_b@2.0.0");
    CHECK(depends_on(s, pa, b) && root_depends_on(s, pa) && root_depends_on(s, b));
    CHECK_STR(prop(b, "pixi:scope"), "required");
    CHECK(r && !strcmp(r->purl, "pkg:npm/r@0.1.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fr.git%40abc"));
    s = sel(a, "auto", pnpm_v6, &err);
    CHECK(s && s->npkgs == 2);
    const sb_pkg *a6 = find(s, "a", "1.0.0"), *b6 = find(s, "b", "2.0.0");
    CHECK(depends_on(s, a6, b6) && root_depends_on(s, a6));
    CHECK_STR(prop(a6, "pixi:peer-suffixes"), "(b@2.0.0)");
    sb_arena_destroy(a);
}

/* issue 38, defect 2: pnpm 6.0 references whose peer suffix names a scoped
 * package ("7.23.3(@babel/core@7.23.3)") hold a '/', which 6.0 keys (aliases,
 * git-hosted packages) hold too; they are versions all the same. Scopes are
 * what the keys state (dev: true/false, optional: true), also where the
 * graph alone would say otherwise (`late` is reached only over an optional
 * edge, its key says required) */
static const char pnpm_v6_scoped_peers[] =
    "lockfileVersion: '6.0'\n"
    "dependencies:\n"
    "  '@babel/plugin-x':\n"
    "    specifier: ^7\n"
    "    version: 7.23.3(@babel/core@7.23.3)\n"
    "devDependencies:\n"
    "  '@babel/core': {specifier: ^7, version: 7.23.3}\n"
    "  tool: {specifier: ^1, version: 1.0.0(@babel/core@7.23.3)(@types/node@20.0.0)}\n"
    "packages:\n"
    "  /@babel/plugin-x@7.23.3(@babel/core@7.23.3):\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    peerDependencies: {'@babel/core': ^7}\n"
    "    dependencies:\n"
    "      '@babel/core': 7.23.3\n"
    "      helper: 1.0.0(@babel/core@7.23.3)\n"
    "    optionalDependencies:\n"
    "      late: 1.0.0\n"
    "    dev: false\n"
    "  /helper@1.0.0(@babel/core@7.23.3):\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    dependencies:\n"
    "      '@babel/core': 7.23.3\n"
    "    dev: false\n"
    "  /@babel/core@7.23.3:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "  /late@1.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    dev: false\n"
    "  /tool@1.0.0(@babel/core@7.23.3)(@types/node@20.0.0):\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    dependencies:\n"
    "      '@types/node': 20.0.0\n"
    "    optionalDependencies:\n"
    "      fse: 1.0.0\n"
    "    dev: true\n"
    "  /@types/node@20.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    dev: true\n"
    "  /fse@1.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "    dev: true\n"
    "    optional: true\n";

TEST(core_pnpm__v6_scoped_peer_suffix_and_stated_scopes)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pnpm-lock.yaml", pnpm_v6_scoped_peers, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 7);
    const sb_pkg *px = find(s, "@babel/plugin-x", "7.23.3"), *core = find(s, "@babel/core", "7.23.3"),
                 *helper = find(s, "helper", "1.0.0"), *late = find(s, "late", "1.0.0"),
                 *tool = find(s, "tool", "1.0.0"), *node = find(s, "@types/node", "20.0.0"),
                 *fse = find(s, "fse", "1.0.0");
    CHECK(px && core && helper && late && tool && node && fse);
    /* every edge, from the importer and from the packages */
    CHECK(root_depends_on(s, px) && root_depends_on(s, core) && root_depends_on(s, tool));
    CHECK(depends_on(s, px, core) && depends_on(s, px, helper) && depends_on(s, px, late));
    CHECK(depends_on(s, helper, core) && depends_on(s, tool, node) && depends_on(s, tool, fse));
    CHECK_STR(prop(px, "pixi:peer-suffixes"), "(@babel/core@7.23.3)");
    CHECK_STR(prop(tool, "pixi:peer-suffixes"), "(@babel/core@7.23.3)(@types/node@20.0.0)");
    /* the scopes the keys state */
    CHECK_STR(prop(px, "pixi:scope"), "required");
    CHECK_STR(prop(helper, "pixi:scope"), "required");
    CHECK_STR(prop(core, "pixi:scope"), "required"); /* no dev: both */
    CHECK_STR(prop(late, "pixi:scope"), "required");
    CHECK_STR(prop(tool, "pixi:scope"), "dev");
    CHECK_STR(prop(node, "pixi:scope"), "dev");
    /* dev: true with optional: true is npm's dev (an optional dependency
     * of a development tool), not devOptional */
    CHECK_STR(prop(fse, "pixi:scope"), "dev");
    CHECK(late && late->scope == SB_SCOPE_REQUIRED && fse && fse->scope == SB_SCOPE_DEVELOPMENT);
    sb_arena_destroy(a);
}

/* pnpm 9.0 references by pnpm's rule: an '@' inside a URL
 * ("git+ssh://git@host/r.git#abc") or a scoped peer suffix is no alias */
static const char pnpm_v9_refs[] =
    "lockfileVersion: '9.0'\n"
    "importers:\n"
    "  .:\n"
    "    dependencies:\n"
    "      r: {specifier: 'git+ssh://git@gitlab.example/o/r.git#v1', version: 'git+ssh://git@gitlab.example/o/r.git#0123abc'}\n"
    "      p: {specifier: ^1, version: 1.0.0(@s/peer@2.0.0)}\n"
    "      al: {specifier: 'npm:@s/peer@^2', version: '@s/peer@2.0.0'}\n"
    "packages:\n"
    "  r@git+ssh://git@gitlab.example/o/r.git#0123abc:\n"
    "    resolution: {type: git, repo: 'git+ssh://git@gitlab.example/o/r.git', commit: 0123abc}\n"
    "    version: 3.0.0\n"
    "  p@1.0.0:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "  '@s/peer@2.0.0':\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    "}\n"
    "snapshots:\n"
    "  r@git+ssh://git@gitlab.example/o/r.git#0123abc: {}\n"
    "  p@1.0.0(@s/peer@2.0.0):\n"
    "    dependencies:\n"
    "      '@s/peer': 2.0.0\n"
    "  '@s/peer@2.0.0': {}\n";

TEST(core_pnpm__v9_references_by_pnpms_rule)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pnpm-lock.yaml", pnpm_v9_refs, &err);
    CHECK(s && s->npkgs == 3);
    const sb_pkg *r = s ? find(s, "r", "3.0.0") : NULL, *p = s ? find(s, "p", "1.0.0") : NULL,
                 *peer = s ? find(s, "@s/peer", "2.0.0") : NULL;
    CHECK(r && p && peer);
    if (r && p && peer) {
        /* stated root edges (pixi:direct), not orphans hung off the root */
        CHECK_STR(prop(r, "pixi:direct"), "true");
        CHECK_STR(prop(p, "pixi:direct"), "true");
        CHECK_STR(prop(peer, "pixi:direct"), "true");
        CHECK(depends_on(s, p, peer));
        /* a git source is npm with its vcs_url (user info left out), never a bare registry purl */
        CHECK_STR(r->purl, "pkg:npm/r@3.0.0?vcs_url=git%2Bssh:%2F%2Fgitlab.example%2Fo%2Fr.git%400123abc");
    }
    sb_arena_destroy(a);
}

/* issue 38, defect 6: workspace members with one folder name (core/types,
 * hooks/types, dedupe/types, packages/types) are distinct components: the
 * name their dependents link them under, the lock's name and version of an
 * injected copy of the folder, else the importer path */
static const char pnpm_members[] =
    "lockfileVersion: '9.0'\n"
    "importers:\n"
    "  .:\n"
    "    dependencies:\n"
    "      '@x/core-types': {specifier: 'workspace:*', version: link:core/types}\n"
    "  core/types: {}\n"
    "  hooks/types:\n"
    "    dependencies:\n"
    "      '@x/core-types': {specifier: 'workspace:*', version: link:../../core/types}\n"
    "      '@x/dedupe-types': {specifier: 'workspace:*', version: file:dedupe/types}\n"
    "  dedupe/types: {}\n"
    "  packages/types:\n"
    "    devDependencies:\n"
    "      other-alias: {specifier: 'workspace:@x/core-types@*', version: link:../../core/types}\n"
    "packages:\n"
    "  '@x/dedupe-types@file:dedupe/types':\n"
    "    resolution: {directory: dedupe/types, type: directory}\n"
    "    version: 2.0.0\n"
    "snapshots:\n"
    "  '@x/dedupe-types@file:dedupe/types': {}\n";

TEST(core_pnpm__workspace_members_distinct)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pnpm-lock.yaml", pnpm_members, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 4);
    const sb_pkg *core = find(s, "@x/core-types", NULL), *hooks = find(s, "hooks/types", NULL),
                 *dedupe = find(s, "@x/dedupe-types", "2.0.0"), *pkgs = find(s, "packages/types", NULL);
    CHECK(core && hooks && dedupe && pkgs);
    if (!(core && hooks && dedupe && pkgs)) {
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(core->purl, "pkg:generic/%40x/core-types");
    CHECK_STR(dedupe->purl, "pkg:generic/%40x/dedupe-types@2.0.0");
    CHECK(strcmp(hooks->purl, pkgs->purl) && strcmp(hooks->purl, core->purl) && strcmp(pkgs->purl, dedupe->purl));
    CHECK_STR(prop(core, "pixi:direct-url"), "core/types");
    CHECK_STR(prop(hooks, "pixi:direct-url"), "hooks/types");
    CHECK_STR(prop(dedupe, "pixi:direct-url"), "dedupe/types");
    CHECK_STR(prop(pkgs, "pixi:direct-url"), "packages/types");
    CHECK(depends_on(s, hooks, core) && depends_on(s, hooks, dedupe) && depends_on(s, pkgs, core));
    CHECK(root_depends_on(s, core) && root_depends_on(s, hooks) && root_depends_on(s, dedupe));
    for (size_t i = 0; i < s->npkgs; i++)
        for (size_t j = i + 1; j < s->npkgs; j++)
            CHECK(strcmp(s->pkgs[i].purl, s->pkgs[j].purl));
    sb_arena_destroy(a);
}

/* pnpm sources (issue 38, "also untested"): a git commit pin over ssh
 * (the scp-like repo pnpm records) and over https, a hosted-git tarball, a
 * tarball URL, a file: tarball and a file: folder: vcs_url, download_url,
 * pkg:generic, never a bare registry purl */
static const char pnpm_v6_sources[] =
    "lockfileVersion: '6.0'\n"
    "dependencies:\n"
    "  sshdep: {specifier: 'git+ssh://git@gitlab.example:o/sshdep.git#v1', version: gitlab.example/o/sshdep/0123abc}\n"
    "  httpsdep: {specifier: 'git+https://git.example/o/httpsdep.git#v2', version: git.example/o/httpsdep/4567def}\n"
    "  hosted: {specifier: 'github:o/hosted#v3', version: github.com/o/hosted/89abcde}\n"
    "  tb: {specifier: 'https://example.com/tb-4.0.0.tgz', version: '@example.com/tb-4.0.0.tgz'}\n"
    "  vend: {specifier: 'file:vendor/vend-5.0.0.tgz', version: 'file:vendor/vend-5.0.0.tgz'}\n"
    "  localdir: {specifier: 'file:../localdir', version: 'file:../localdir'}\n"
    "packages:\n"
    "  gitlab.example/o/sshdep/0123abc:\n"
    "    resolution: {type: git, repo: 'git@gitlab.example:o/sshdep.git', commit: 0123abc}\n"
    "    name: sshdep\n"
    "    version: 1.0.0\n"
    "  git.example/o/httpsdep/4567def:\n"
    "    resolution: {type: git, repo: 'https://git.example/o/httpsdep.git', commit: 4567def}\n"
    "    name: httpsdep\n"
    "    version: 2.0.0\n"
    "  github.com/o/hosted/89abcde:\n"
    "    resolution: {tarball: https://codeload.github.com/o/hosted/tar.gz/89abcde}\n"
    "    name: hosted\n"
    "    version: 3.0.0\n"
    "  '@example.com/tb-4.0.0.tgz':\n"
    "    resolution: {tarball: https://example.com/tb-4.0.0.tgz}\n"
    "    name: tb\n"
    "    version: 4.0.0\n"
    "  file:vendor/vend-5.0.0.tgz:\n"
    "    resolution: {integrity: sha1-" SHA1_FF
    ", tarball: file:vendor/vend-5.0.0.tgz}\n"
    "    name: vend\n"
    "    version: 5.0.0\n"
    "  file:../localdir:\n"
    "    resolution: {directory: ../localdir, type: directory}\n"
    "    name: localdir\n"
    "    version: 6.0.0\n";

TEST(core_pnpm__git_tarball_file_sources)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pnpm-lock.yaml", pnpm_v6_sources, &err);
    CHECK(s && s->npkgs == 6);
    const sb_pkg *ssh = s ? find(s, "sshdep", "1.0.0") : NULL, *https = s ? find(s, "httpsdep", "2.0.0") : NULL,
                 *hosted = s ? find(s, "hosted", "3.0.0") : NULL, *tb = s ? find(s, "tb", "4.0.0") : NULL,
                 *vend = s ? find(s, "vend", "5.0.0") : NULL, *dir = s ? find(s, "localdir", "6.0.0") : NULL;
    CHECK(ssh && https && hosted && tb && vend && dir);
    if (!(ssh && https && hosted && tb && vend && dir)) {
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(ssh->purl, "pkg:npm/sshdep@1.0.0?vcs_url=git%2Bssh:%2F%2Fgitlab.example%2Fo%2Fsshdep.git%400123abc");
    CHECK_STR(prop(ssh, "pixi:source-rev"), "0123abc");
    CHECK_STR(https->purl, "pkg:npm/httpsdep@2.0.0?vcs_url=git%2Bhttps:%2F%2Fgit.example%2Fo%2Fhttpsdep.git%404567def");
    CHECK_STR(hosted->purl,
              "pkg:npm/hosted@3.0.0?download_url=https:%2F%2Fcodeload.github.com%2Fo%2Fhosted%2Ftar.gz%2F89abcde");
    CHECK_STR(tb->purl, "pkg:npm/tb@4.0.0?download_url=https:%2F%2Fexample.com%2Ftb-4.0.0.tgz");
    CHECK_STR(vend->purl, "pkg:generic/vend@5.0.0");
    CHECK_STR(prop(vend, "pixi:direct-url"), "vendor/vend-5.0.0.tgz");
    CHECK(vend->sha1 != NULL);
    CHECK_STR(dir->purl, "pkg:generic/localdir@6.0.0");
    CHECK_STR(prop(dir, "pixi:direct-url"), "../localdir");
    for (size_t i = 0; i < s->npkgs; i++)
        CHECK_STR(prop(&s->pkgs[i], "pixi:direct"), "true");
    sb_arena_destroy(a);
}

/* The sections in any order: the reader pulls the events more than once
 * (lockfileVersion last, snapshots before packages, importers last), and
 * gives the same components, edges and scopes as in pnpm's own order. */
TEST(core_pnpm__sections_in_any_order)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    const char *imp = strstr(pnpm_v9, "importers:"), *pk = strstr(pnpm_v9, "packages:\n"),
               *sn = strstr(pnpm_v9, "snapshots:");
    CHECK(imp && pk && sn && imp < pk && pk < sn);
    if (!(imp && pk && sn)) {
        sb_arena_destroy(a);
        return;
    }
    /* snapshots, packages, importers, lockfileVersion */
    char *lock = sb_arena_printf(a, "%s%.*s%.*s%.*s", sn, (int)(sn - pk), pk, (int)(pk - imp), imp,
                                 (int)(imp - pnpm_v9), pnpm_v9);
    sb_sbom *s = lock ? sel(a, "pnpm-lock.yaml", lock, &err) : NULL;
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 7);
    const sb_pkg *lib = find(s, "app-lib", NULL), *ui = find(s, "ui", "2.0.0"), *react = find(s, "react", NULL),
                 *real = find(s, "@x/real", "3.0.0"), *git = find(s, "gitdep", "1.1.0"), *opt = find(s, "opt", NULL),
                 *tool = find(s, "tool", NULL);
    CHECK(lib && ui && react && real && git && opt && tool);
    if (lib && ui && react && real && git && opt && tool) {
        CHECK_STR(prop(ui, "pixi:peer-suffixes"), "(react@18.2.0)");
        CHECK(root_depends_on(s, lib) && root_depends_on(s, tool) && !root_depends_on(s, ui));
        CHECK(depends_on(s, lib, ui) && depends_on(s, lib, real) && depends_on(s, lib, git) && depends_on(s, lib, opt));
        CHECK(depends_on(s, ui, react) && depends_on(s, tool, ui) && depends_on(s, opt, react));
        CHECK_STR(prop(ui, "pixi:scope"), "required");
        CHECK_STR(prop(tool, "pixi:scope"), "dev");
        CHECK_STR(prop(opt, "pixi:scope"), "optional");
    }
    /* a first document whose packages precede its lockfileVersion is not the
     * lock when a later one names a version; a 6.0 lock with its version last */
    const char two[] = "packages:\n  /x@1.0.0: {resolution: {integrity: sha1-" SHA1_FF
                       "}}\nlockfileVersion: '6.0'\n"
                       "---\nimporters:\n  .:\n    dependencies:\n      y: {specifier: '1', version: 1.0.0}\n"
                       "packages:\n  /y@1.0.0: {resolution: {integrity: sha1-" SHA1_FF "}}\nlockfileVersion: '6.0'\n";
    s = sel(a, "pnpm-lock.yaml", two, &err);
    CHECK(s && s->npkgs == 1 && find(s, "y", "1.0.0") && !find(s, "x", NULL));
    if (s)
        CHECK(root_depends_on(s, find(s, "y", "1.0.0")));
    sb_arena_destroy(a);
}

TEST(core_pnpm__documents_and_refusals)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    /* two documents: the last is the project's lock */
    const char two[] =
        "---\nlockfileVersion: '9.0'\nimporters:\n  .: {}\npackages:\n  x@1.0.0: {resolution: {integrity: sha1-" SHA1_FF
        "}}\n"
        "---\nlockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      y: {specifier: '1', version: 1.0.0}\n"
        "packages:\n  y@1.0.0: {resolution: {integrity: sha1-" SHA1_FF "}}\nsnapshots:\n  y@1.0.0: {}\n";
    sb_sbom *s = sel(a, "pnpm-lock.yaml", two, &err);
    CHECK(s && s->npkgs == 1 && find(s, "y", "1.0.0"));
    CHECK(NULL == sel(a, "pnpm-lock.yaml", "", &err));
    CHECK(err.code == SB_EPARSE && strstr(err.msg, "empty"));
    CHECK(NULL == sel(a, "pnpm-lock.yaml", "lockfileVersion: '4.0'\npackages: {}\n", &err));
    CHECK(err.code == SB_EUNSUPPORTED && strstr(err.msg, "'4.0'") && strstr(err.msg, "9.x") && err.line == 1);
    CHECK(NULL == sel(a, "pnpm-lock.yaml", "lockfileVersion: '9.0'\npackages:\n  nonsense: {}\n", &err));
    CHECK(err.code == SB_EPARSE && err.line == 3);
    CHECK(NULL == sel(a, "pnpm-lock.yaml", "lockfileVersion: '9.0'\npackages: [1\n", &err));
    CHECK(err.code == SB_EPARSE && err.line > 0);
    sb_arena_destroy(a);
}

/* yarn classic: several descriptors for one entry, an alias without range,
 * a git dependency, an optional dependency, the sha1 of a resolved URL */
static const char yarn_v1[] =
    "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n"
    "# yarn lockfile v1\n"
    "\n\n"
    "\"@s/a@^1.0.0\", \"@s/a@^1.1.0\":\n"
    "  version \"1.2.0\"\n"
    "  resolved \"https://registry.yarnpkg.com/@s/a/-/a-1.2.0.tgz#ffffffffffffffffffffffffffffffffffffffff\"\n"
    "  dependencies:\n"
    "    b \"^2\"\n"
    "    al \"npm:real\"\n"
    "  optionalDependencies:\n"
    "    g \"github:o/r\"\n"
    "\n"
    "b@^2:\n"
    "  version \"2.0.0\"\n"
    "  resolved \"https://registry.yarnpkg.com/b/-/b-2.0.0.tgz#0123\"\n"
    "  integrity sha512-" SHA512_0_63
    "\n"
    "\n"
    "\"al@npm:real\":\n"
    "  version \"3.0.0\"\n"
    "  resolved \"https://registry.yarnpkg.com/real/-/real-3.0.0.tgz\"\n"
    "\n"
    "\"g@github:o/r\":\n"
    "  version \"0.1.0\"\n"
    "  resolved \"https://github.com/o/r.git#abcdef\"\n";

TEST(core_yarn__classic)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", yarn_v1, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "yarn.lock");
    CHECK(s->npkgs == 4);
    const sb_pkg *pa = find(s, "@s/a", "1.2.0"), *b = find(s, "b", "2.0.0"), *real = find(s, "real", "3.0.0"),
                 *g = find(s, "g", "0.1.0");
    CHECK(pa && !strcmp(pa->purl, "pkg:npm/%40s/a@1.2.0") && pa->sha1 &&
          !strcmp(pa->sha1, "ffffffffffffffffffffffffffffffffffffffff"));
    CHECK(pa && pa->location && !strcmp(pa->location, "https://registry.yarnpkg.com/@s/a/-/a-1.2.0.tgz"));
    CHECK_STR(prop(pa, "pixi:install-paths"), "@s/a@^1.0.0, @s/a@^1.1.0");
    CHECK(b && b->sha512b && NULL == b->sha1);
    CHECK(real && !strcmp(real->purl, "pkg:npm/real@3.0.0"));
    CHECK(g && !strcmp(g->purl, "pkg:npm/g@0.1.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fr.git%40abcdef"));
    CHECK(depends_on(s, pa, b) && depends_on(s, pa, real) && depends_on(s, pa, g));
    CHECK(root_depends_on(s, pa) && !root_depends_on(s, b));
    /* a conflict marker is refused at its line */
    const char conflict[] = "# yarn lockfile v1\n\na@1:\n  version \"1.0.0\"\n<<<<<<< HEAD\n";
    CHECK(NULL == sel(a, "yarn.lock", conflict, &err));
    CHECK(err.code == SB_EPARSE && err.line == 5 && strstr(err.msg, "conflict"));
    CHECK(NULL == sel(a, "yarn.lock", "# yarn lockfile v1\n    version \"1\"\n", &err));
    CHECK(err.code == SB_EPARSE && err.line == 2);
    sb_arena_destroy(a);
}

/* issue 38, defect 3: yarn classic with an offline mirror writes `resolved`
 * as the tarball's bare file name; an entry the registry resolved (a semver
 * range, a dist-tag, npm: and npm: aliases) is pkg:npm all the same, the
 * sha1 of the fragment kept; an entry of a local tarball stays local. And the
 * other sources (issue 38, "also untested"): git+ssh and github: shorthands,
 * a tarball URL, file: folders and tarballs, with the purl forms the purl
 * spec gives them, never a bare registry purl */
static const char yarn_v1_sources[] =
    "# yarn lockfile v1\n"
    "\n"
    "\"@babel/helpers@^7.0.0\", \"@babel/helpers@npm:^7.0.0\":\n"
    "  version \"7.24.0\"\n"
    "  resolved \"helpers-7.24.0.tgz#ffffffffffffffffffffffffffffffffffffffff\"\n"
    "  integrity sha512-" SHA512_0_63
    "\n"
    "  dependencies:\n"
    "    al \"npm:@s/real@^1\"\n"
    "    tagged latest\n"
    "\n"
    "\"al@npm:@s/real@^1\":\n"
    "  version \"1.0.0\"\n"
    "  resolved \"real-1.0.0.tgz#0123456789abcdef0123456789abcdef01234567\"\n"
    "\n"
    "tagged@latest:\n"
    "  version \"2.0.0\"\n"
    "  resolved \"tagged-2.0.0.tgz\"\n"
    "\n"
    "vendored@./vendor/vendored-1.0.0.tgz:\n"
    "  version \"1.0.0\"\n"
    "  resolved \"vendored-1.0.0.tgz#0123456789abcdef0123456789abcdef01234567\"\n"
    "\n"
    "\"gs@git+ssh://git@github.com/o/gs.git#v2\":\n"
    "  version \"2.0.0\"\n"
    "  resolved \"git+ssh://git@github.com/o/gs.git#0123456789abcdef0123456789abcdef01234567\"\n"
    "\n"
    "\"gh@github:o/gh#v3\":\n"
    "  version \"3.0.0\"\n"
    "  resolved \"https://codeload.github.com/o/gh/tar.gz/89abcdef\"\n"
    "\n"
    "\"tb@https://example.com/tb-4.0.0.tgz\":\n"
    "  version \"4.0.0\"\n"
    "  resolved \"https://example.com/tb-4.0.0.tgz#0123456789abcdef0123456789abcdef01234567\"\n"
    "\n"
    "\"loc@file:../loc\":\n"
    "  version \"5.0.0\"\n"
    "\n"
    "\"hs@github:o/hs\":\n"
    "  version \"8.0.0\"\n"
    "\n"
    "\"loctgz@file:vendor/loctgz-6.0.0.tgz\":\n"
    "  version \"6.0.0\"\n"
    "  resolved \"file:vendor/loctgz-6.0.0.tgz#0123456789abcdef0123456789abcdef01234567\"\n";

TEST(core_yarn__classic_offline_mirror_and_sources)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "yarn.lock", yarn_v1_sources, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 10);
    const sb_pkg *h = find(s, "@babel/helpers", "7.24.0"), *real = find(s, "@s/real", "1.0.0"),
                 *tagged = find(s, "tagged", "2.0.0"), *ven = find(s, "vendored", "1.0.0"),
                 *gs = find(s, "gs", "2.0.0"), *gh = find(s, "gh", "3.0.0"), *tb = find(s, "tb", "4.0.0"),
                 *loc = find(s, "loc", "5.0.0"), *loctgz = find(s, "loctgz", "6.0.0");
    CHECK(h && real && tagged && ven && gs && gh && tb && loc && loctgz);
    if (!(h && real && tagged && ven && gs && gh && tb && loc && loctgz)) {
        sb_arena_destroy(a);
        return;
    }
    /* the mirror's registry packages */
    CHECK_STR(h->purl, "pkg:npm/%40babel/helpers@7.24.0");
    CHECK(h->sha512b && h->sha1 && !strcmp(h->sha1, "ffffffffffffffffffffffffffffffffffffffff"));
    CHECK(NULL == h->location && NULL == prop(h, "pixi:direct-url"));
    CHECK_STR(real->purl, "pkg:npm/%40s/real@1.0.0");
    CHECK_STR(tagged->purl, "pkg:npm/tagged@2.0.0");
    CHECK(depends_on(s, h, real) && depends_on(s, h, tagged));
    /* a local tarball behind the mirror's file name stays local */
    CHECK_STR(ven->purl, "pkg:generic/vendored@1.0.0");
    /* git: vcs_url with the commit; hosted shorthand and tarball URLs: download_url; file: local */
    CHECK_STR(
        gs->purl,
        "pkg:npm/gs@2.0.0?vcs_url=git%2Bssh:%2F%2Fgithub.com%2Fo%2Fgs.git%400123456789abcdef0123456789abcdef01234567");
    CHECK_STR(prop(gs, "pixi:source-rev"), "0123456789abcdef0123456789abcdef01234567");
    CHECK_STR(gh->purl, "pkg:npm/gh@3.0.0?download_url=https:%2F%2Fcodeload.github.com%2Fo%2Fgh%2Ftar.gz%2F89abcdef");
    CHECK_STR(
        tb->purl,
        "pkg:npm/tb@4.0.0?download_url=https:%2F%2Fexample.com%2Ftb-4.0.0.tgz%230123456789abcdef0123456789abcdef01234567");
    CHECK_STR(loc->purl, "pkg:generic/loc@5.0.0");
    CHECK_STR(prop(loc, "pixi:direct-url"), "../loc");
    CHECK_STR(loctgz->purl, "pkg:generic/loctgz@6.0.0");
    /* a hosted-git shorthand yarn left unresolved: no registry purl, and no
     * ssh URL made of "github:" */
    const sb_pkg *hs = find(s, "hs", "8.0.0");
    CHECK(hs && !strcmp(hs->purl, "pkg:generic/hs@8.0.0"));
    sb_arena_destroy(a);
}

/* issue 38, defects 4 and 5: berry binds a relative range (portal:, link:,
 * file:, a patch file) to the dependent's locator, the key's "::locator="
 * tail, which the distribution reference keeps; a built-in patch
 * (optional!builtin<compat/fsevents>) is the package yarn installs: one
 * component with its unpatched source, the edges to either, the patch a
 * property. And git+ssh, hosted git, tarball URL and file: sources. */
static const char yarn_berry_bound[] =
    "__metadata:\n"
    "  version: 8\n"
    "  cacheKey: 10c0\n"
    "\n"
    "\"app@workspace:.\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"app@workspace:.\"\n"
    "  dependencies:\n"
    "    my-local-a: \"portal:../my-local-a\"\n"
    "    fsevents: \"npm:~2.3.2\"\n"
    "    lodash: \"patch:lodash@npm%3A4.17.21#./.yarn/patches/lodash.patch\"\n"
    "    gs: \"git+ssh://git@github.com/o/gs.git#v2\"\n"
    "    gh: \"github:o/gh\"\n"
    "    tb: \"https://example.com/tb-4.0.0.tgz\"\n"
    "    loc: \"file:../loc\"\n"
    "    scp: \"git@gitlab.example:o/scp.git\"\n"
    "  languageName: unknown\n"
    "  linkType: soft\n"
    "\n"
    "\"my-local-a@portal:../my-local-a::locator=app%40workspace%3A.\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"my-local-a@portal:../my-local-a::locator=app%40workspace%3A.\"\n"
    "  dependencies:\n"
    "    my-local-b: \"portal:../my-local-b\"\n"
    "    my-link-c: \"link:../my-link-c\"\n"
    "    fsevents: \"npm:~2.3.2\"\n"
    "  languageName: node\n"
    "  linkType: soft\n"
    "\n"
    "\"my-local-b@portal:../my-local-b::locator=my-local-a%40portal%3A..%2Fmy-local-a%3A%3Alocator%3Dapp%2540workspace%253A.\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"my-local-b@portal:../my-local-b::locator=my-local-a%40portal%3A..%2Fmy-local-a%3A%3Alocator%3Dapp%2540workspace%253A.\"\n"
    "  languageName: node\n"
    "  linkType: soft\n"
    "\n"
    "\"my-link-c@link:../my-link-c::locator=my-local-a%40portal%3A..%2Fmy-local-a%3A%3Alocator%3Dapp%2540workspace%253A.\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"my-link-c@link:../my-link-c::locator=my-local-a%40portal%3A..%2Fmy-local-a%3A%3Alocator%3Dapp%2540workspace%253A.\"\n"
    "  languageName: node\n"
    "  linkType: soft\n"
    "\n"
    "\"fsevents@npm:~2.3.2\":\n"
    "  version: 2.3.3\n"
    "  resolution: \"fsevents@npm:2.3.3\"\n"
    "  dependencies:\n"
    "    node-gyp: \"npm:latest\"\n"
    "  checksum: 10c0/aaaa\n"
    "  conditions: os=darwin\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"fsevents@patch:fsevents@npm%3A~2.3.2#optional!builtin<compat/fsevents>\":\n"
    "  version: 2.3.3\n"
    "  resolution: \"fsevents@patch:fsevents@npm%3A2.3.3#optional!builtin<compat/fsevents>::version=2.3.3&hash=df0bf1\"\n"
    "  dependencies:\n"
    "    node-gyp: \"npm:latest\"\n"
    "  checksum: 10c0/bbbb\n"
    "  conditions: os=darwin\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"node-gyp@npm:latest\":\n"
    "  version: 10.0.0\n"
    "  resolution: \"node-gyp@npm:10.0.0\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"lodash@npm:4.17.21\":\n"
    "  version: 4.17.21\n"
    "  resolution: \"lodash@npm:4.17.21\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"lodash@patch:lodash@npm%3A4.17.21#./.yarn/patches/lodash.patch::locator=app%40workspace%3A.\":\n"
    "  version: 4.17.21\n"
    "  resolution: \"lodash@patch:lodash@npm%3A4.17.21#./.yarn/patches/lodash.patch::version=4.17.21&hash=0a1b2c&locator=app%40workspace%3A.\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"gs@git+ssh://git@github.com/o/gs.git#v2\":\n"
    "  version: 2.0.0\n"
    "  resolution: \"gs@git+ssh://git@github.com/o/gs.git#commit=0123456789abcdef0123456789abcdef01234567\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"gh@github:o/gh\":\n"
    "  version: 3.0.0\n"
    "  resolution: \"gh@https://github.com/o/gh.git#commit=89abcdef\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"tb@https://example.com/tb-4.0.0.tgz\":\n"
    "  version: 4.0.0\n"
    "  resolution: \"tb@https://example.com/tb-4.0.0.tgz\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"scp@git@gitlab.example:o/scp.git\":\n"
    "  version: 7.0.0\n"
    "  resolution: \"scp@git@gitlab.example:o/scp.git#commit=fedcba\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"loc@file:../loc::locator=app%40workspace%3A.\":\n"
    "  version: 5.0.0\n"
    "  resolution: \"loc@file:../loc#../loc::hash=abcdef&locator=app%40workspace%3A.\"\n"
    "  languageName: node\n"
    "  linkType: hard\n";

TEST(core_yarn__berry_bound_ranges_builtin_patches_sources)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "yarn.lock", yarn_berry_bound, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    const sb_pkg *la = find(s, "my-local-a", NULL), *lb = find(s, "my-local-b", NULL), *lc = find(s, "my-link-c", NULL),
                 *fse = find(s, "fsevents", "2.3.3"), *gyp = find(s, "node-gyp", "10.0.0"),
                 *gs = find(s, "gs", "2.0.0"), *gh = find(s, "gh", "3.0.0"), *tb = find(s, "tb", "4.0.0"),
                 *loc = find(s, "loc", "5.0.0");
    CHECK(la && lb && lc && fse && gyp && gs && gh && tb && loc);
    if (!(la && lb && lc && fse && gyp && gs && gh && tb && loc)) {
        sb_arena_destroy(a);
        return;
    }
    /* defect 4: the bound edges, stated (pixi:direct only where the root states it) */
    CHECK(root_depends_on(s, la) && depends_on(s, la, lb) && depends_on(s, la, lc));
    CHECK(NULL == prop(lb, "pixi:direct") && NULL == prop(lc, "pixi:direct"));
    CHECK(!root_depends_on(s, lb) && !root_depends_on(s, lc));
    CHECK(prop(lb, "pixi:direct-url") &&
          strstr(prop(lb, "pixi:direct-url"), "../my-local-b::locator=my-local-a%40portal"));
    CHECK_STR(lb->purl, "pkg:generic/my-local-b"); /* berry's placeholder is no version */
    /* defect 5: one fsevents, the patched one, with every incoming edge */
    size_t nfse = 0;
    for (size_t i = 0; i < s->npkgs; i++)
        nfse += !strcmp(s->pkgs[i].name, "fsevents");
    CHECK(nfse == 1);
    CHECK_STR(fse->purl, "pkg:npm/fsevents@2.3.3");
    CHECK(root_depends_on(s, fse) && depends_on(s, la, fse) && depends_on(s, fse, gyp));
    CHECK_STR(prop(fse, "pixi:direct"), "true");
    CHECK(prop(fse, "pixi:yarn-resolution") &&
          strstr(prop(fse, "pixi:yarn-resolution"), "optional!builtin<compat/fsevents>"));
    CHECK_STR(prop(fse, "pixi:yarn-checksum"), "10c0/bbbb");
    CHECK(NULL == fse->location);
    /* a patch file is bound to the root too: the edge to the patched lodash */
    int lodash_patched = 0;
    for (size_t i = 0; i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, "lodash") && prop(&s->pkgs[i], "pixi:yarn-resolution"))
            lodash_patched = root_depends_on(s, &s->pkgs[i]) && NULL != prop(&s->pkgs[i], "pixi:direct");
    CHECK(lodash_patched);
    /* sources */
    CHECK_STR(
        gs->purl,
        "pkg:npm/gs@2.0.0?vcs_url=git%2Bssh:%2F%2Fgithub.com%2Fo%2Fgs.git%400123456789abcdef0123456789abcdef01234567");
    CHECK_STR(gh->purl, "pkg:npm/gh@3.0.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fgh.git%4089abcdef");
    CHECK_STR(tb->purl, "pkg:npm/tb@4.0.0?download_url=https:%2F%2Fexample.com%2Ftb-4.0.0.tgz");
    CHECK_STR(loc->purl, "pkg:generic/loc@5.0.0");
    CHECK(root_depends_on(s, gs) && root_depends_on(s, gh) && root_depends_on(s, tb) && root_depends_on(s, loc));
    CHECK_STR(prop(loc, "pixi:direct"), "true");
    const sb_pkg *scp = find(s, "scp", "7.0.0");
    CHECK(scp && !strcmp(scp->purl, "pkg:npm/scp@7.0.0?vcs_url=git%2Bssh:%2F%2Fgitlab.example%2Fo%2Fscp.git%40fedcba"));
    sb_arena_destroy(a);
}

/* yarn berry: the workspace root and a member, a patch: entry, a git entry */
static const char yarn_berry[] =
    "__metadata:\n"
    "  version: 8\n"
    "  cacheKey: 10c0\n"
    "\n"
    "\"app@workspace:.\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"app@workspace:.\"\n"
    "  dependencies:\n"
    "    lib: \"workspace:*\"\n"
    "    resolve: \"patch:resolve@npm%3A^1.22.8#optional!builtin<compat/resolve>\"\n"
    "  languageName: unknown\n"
    "  linkType: soft\n"
    "\n"
    "\"lib@workspace:*, lib@workspace:packages/lib\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"lib@workspace:packages/lib\"\n"
    "  dependencies:\n"
    "    \"@s/x\": ^1.0.0\n"
    "    g: \"https://github.com/o/r.git#commit=abc\"\n"
    "  languageName: unknown\n"
    "  linkType: soft\n"
    "\n"
    "\"@s/x@npm:^1.0.0\":\n"
    "  version: 1.0.1\n"
    "  resolution: \"@s/x@npm:1.0.1\"\n"
    "  checksum: 10c0/abcdef\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"resolve@patch:resolve@npm%3A^1.22.8#optional!builtin<compat/resolve>\":\n"
    "  version: 1.22.8\n"
    "  resolution: \"resolve@patch:resolve@npm%3A1.22.8#optional!builtin<compat/resolve>::version=1.22.8&hash=c3c19d\"\n"
    "  languageName: node\n"
    "  linkType: hard\n"
    "\n"
    "\"g@https://github.com/o/r.git#commit=abc\":\n"
    "  version: 2.0.0\n"
    "  resolution: \"g@https://github.com/o/r.git#commit=abc\"\n"
    "  languageName: node\n"
    "  linkType: hard\n";

TEST(core_yarn__berry)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", yarn_berry, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->root_name, "app");
    CHECK(s->npkgs == 4); /* lib, @s/x, resolve, g: not the root workspace */
    const sb_pkg *lib = find(s, "lib", NULL), *x = find(s, "@s/x", "1.0.1"), *res = find(s, "resolve", "1.22.8"),
                 *g = find(s, "g", "2.0.0");
    CHECK(lib && !strcmp(lib->purl, "pkg:generic/lib")); /* 0.0.0-use.local is no version */
    CHECK_STR(prop(lib, "pixi:direct-url"), "packages/lib");
    CHECK(x && !strcmp(x->purl, "pkg:npm/%40s/x@1.0.1"));
    /* checksum is yarn's cache zip: a property, never a hash */
    CHECK_STR(prop(x, "pixi:yarn-checksum"), "10c0/abcdef");
    CHECK(x && NULL == x->sha512b && NULL == x->sha256 && NULL == x->sha1);
    CHECK(res && !strcmp(res->purl, "pkg:npm/resolve@1.22.8") && NULL == res->location);
    CHECK(prop(res, "pixi:yarn-resolution") && strstr(prop(res, "pixi:yarn-resolution"), "patch:"));
    CHECK(g && !strcmp(g->purl, "pkg:npm/g@2.0.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fr.git%40abc"));
    CHECK(root_depends_on(s, lib) && root_depends_on(s, res) && !root_depends_on(s, x));
    CHECK(depends_on(s, lib, x) && depends_on(s, lib, g));
    /* a berry lock folds devDependencies into dependencies: no scope from it alone */
    CHECK(NULL == prop(x, "pixi:scope"));
    const char v3[] =
        "__metadata:\n  version: 3\n  cacheKey: 8\n\n\"a@npm:1\":\n  version: 1.0.0\n  resolution: \"a@npm:1.0.0\"\n";
    CHECK(NULL == sel(a, "yarn.lock", v3, &err));
    CHECK(err.code == SB_EUNSUPPORTED && strstr(err.msg, "version 3") && strstr(err.msg, "4 to 10") && err.line == 2);
    sb_arena_destroy(a);
}

/* A tarball URL resolution: the location outlives the reader's scratch
 * YAML tree (under ASan a use-after-free before sb_lock__location copied
 * URLs; found by the pnpm fuzz target). */
TEST(core_pnpm__tarball_url_outlives_the_tree)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    const char lock[] =
        "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      z: {specifier: '1', version: 1.0.0}\n"
        "packages:\n  z@1.0.0: {resolution: {tarball: 'file:https://example.org/z-1.0.0.tgz'}}\n"
        "snapshots:\n  z@1.0.0: {}\n";
    sb_sbom *s = sel(a, "pnpm-lock.yaml", lock, &err);
    const sb_pkg *p = s ? find(s, "z", "1.0.0") : NULL;
    CHECK(p != NULL);
    CHECK(p && p->location && strstr(p->location, "example.org/z-1.0.0.tgz"));
    sb_arena_destroy(a);
}

/* Issue 38, defect 7: scope words as npm means them. a is a dev dependency;
 * b is reached through a (dev, not optional) only: dev, not devOptional; c
 * through a's optional edge: still dev (npm: dev and optional); d through a
 * and through the optional o: devOptional; e through o only: optional. */
static const char pnpm_scopes[] =
    "lockfileVersion: '9.0'\n"
    "importers:\n"
    "  .:\n"
    "    devDependencies:\n"
    "      a: {specifier: ^1, version: 1.0.0}\n"
    "    optionalDependencies:\n"
    "      o: {specifier: ^1, version: 1.0.0}\n"
    "packages:\n"
    "  a@1.0.0: {resolution: {integrity: sha512-AAAA}}\n"
    "  b@1.0.0: {resolution: {integrity: sha512-AAAA}}\n"
    "  c@1.0.0: {resolution: {integrity: sha512-AAAA}}\n"
    "  d@1.0.0: {resolution: {integrity: sha512-AAAA}}\n"
    "  e@1.0.0: {resolution: {integrity: sha512-AAAA}}\n"
    "  o@1.0.0: {resolution: {integrity: sha512-AAAA}}\n"
    "snapshots:\n"
    "  a@1.0.0:\n"
    "    dependencies: {b: 1.0.0, d: 1.0.0}\n"
    "    optionalDependencies: {c: 1.0.0}\n"
    "  b@1.0.0: {}\n"
    "  c@1.0.0: {}\n"
    "  d@1.0.0: {}\n"
    "  e@1.0.0: {}\n"
    "  o@1.0.0:\n"
    "    dependencies: {d: 1.0.0, e: 1.0.0}\n";

TEST(core_js__scopes_as_npm_means_them)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pnpm-lock.yaml", pnpm_scopes, &err);
    CHECK(s != NULL);
    CHECK_STR(prop(find(s, "a", NULL), "pixi:scope"), "dev");
    CHECK_STR(prop(find(s, "b", NULL), "pixi:scope"), "dev");
    CHECK_STR(prop(find(s, "c", NULL), "pixi:scope"), "dev");
    CHECK_STR(prop(find(s, "d", NULL), "pixi:scope"), "devOptional");
    CHECK_STR(prop(find(s, "e", NULL), "pixi:scope"), "optional");
    CHECK_STR(prop(find(s, "o", NULL), "pixi:scope"), "optional");
    sb_arena_destroy(a);
}

/* ---- the shared cases of JavaScript scopes (shared/cases/js-scopes) ---- */

/* A case file read and selected as `kind` (the manifest, a package.json
 * text, beside it when given); NULL with a message printed when it cannot be. */
static sb_sbom *case_sel(sb_arena *a, const char *kind, const char *file, const char *manifest_file)
{
    char rel[256];
    snprintf(rel, sizeof rel, "cases/js-scopes/%s", file);
    size_t len = 0;
    char *text = sb_test_read(sb_test_shared(rel), &len);
    if (NULL == text) {
        printf("  cannot read %s\n", rel);
        return NULL;
    }
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    if (sb_lock_read(&l, a, kind, text, len, NULL, NULL, &err) != SB_OK) {
        printf("  %s: %s\n", rel, err.msg);
        free(text);
        return NULL;
    }
    if (manifest_file) {
        snprintf(rel, sizeof rel, "cases/js-scopes/%s", manifest_file);
        size_t mlen = 0;
        char *mtext = sb_test_read(sb_test_shared(rel), &mlen);
        sb_manifest *m = NULL;
        if (NULL == mtext || sb_manifest_read(&m, a, "package.json", mtext, mlen, NULL, &err) != SB_OK) {
            printf("  cannot read the manifest %s\n", rel);
            free(mtext);
            free(text);
            return NULL;
        }
        o.manifest = m;
        free(mtext);
    }
    if (sb_select(&s, a, l, &o, &err) != SB_OK) {
        printf("  %s: %s\n", file, err.msg);
        s = NULL;
    }
    free(text);
    return s;
}

TEST(core_js__case_pnpm6_dev_optional_is_dev)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = case_sel(a, "pnpm-lock.yaml", "pnpm6-dev-optional.yaml", NULL);
    CHECK(s != NULL);
    CHECK_STR(prop(find(s, "esbuild", NULL), "pixi:scope"), "dev");
    CHECK_STR(prop(find(s, "@esbuild/linux-x64", NULL), "pixi:scope"), "dev");
    sb_arena_destroy(a);
}

TEST(core_js__case_pnpm6_neither_flag_is_the_graphs)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = case_sel(a, "pnpm-lock.yaml", "pnpm6-dev-and-prod-optional.yaml", NULL);
    CHECK(s != NULL);
    CHECK_STR(prop(find(s, "a", NULL), "pixi:scope"), "required");
    CHECK_STR(prop(find(s, "b", NULL), "pixi:scope"), "optional");
    CHECK_STR(prop(find(s, "d", NULL), "pixi:scope"), "dev");
    /* no flag: reached by a dev path and an optional production one */
    CHECK_STR(prop(find(s, "shared", NULL), "pixi:scope"), "devOptional");
    sb_arena_destroy(a);
}

TEST(core_js__case_pnpm9_peer_variants_walked_per_key)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = case_sel(a, "pnpm-lock.yaml", "pnpm9-peer-variants.yaml", NULL);
    CHECK(s != NULL);
    CHECK_STR(prop(find(s, "parser", NULL), "pixi:scope"), "required");
    CHECK_STR(prop(find(s, "types", "1.0.0"), "pixi:scope"), "required");
    CHECK_STR(prop(find(s, "tool", NULL), "pixi:scope"), "dev");
    /* only the variant tool uses depends on it */
    CHECK_STR(prop(find(s, "types", "2.0.0"), "pixi:scope"), "dev");
    CHECK(s && s->npkgs == 4);
    sb_arena_destroy(a);
}

TEST(core_js__case_pnpm9_patch_hash_property)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = case_sel(a, "pnpm-lock.yaml", "pnpm9-patched.yaml", NULL);
    CHECK(s != NULL);
    const sb_pkg *lp = find(s, "left-pad", "1.3.0");
    CHECK_STR(prop(lp, "pixi:pnpm-patch-hash"), "2ee4bf2ea5c6b3f1a7d0e5d1b9c0f4a6d3e2c1b0a9f8e7d6c5b4a3f2e1d0c9b8");
    CHECK(lp && !strcmp(lp->purl, "pkg:npm/left-pad@1.3.0"));
    CHECK(s && s->npkgs == 2);
    s = case_sel(a, "pnpm-lock.yaml", "pnpm9-alias-catalog-tarball.yaml", NULL);
    CHECK(s != NULL);
    CHECK(prop(find(s, "left-pad", "1.3.0"), "pixi:pnpm-patch-hash") == NULL);
    CHECK_STR(prop(find(s, "is-odd", NULL), "pixi:scope"), "required"); /* dev of ".", required of packages/lib */
    sb_arena_destroy(a);
}

TEST(core_js__case_yarn_berry_optional_and_dev_by_manifest)
{
    sb_arena *a = sb_arena_new(0);
    /* the lock alone: fsevents only through chokidar's dependenciesMeta
     * optional edge; whether chokidar, mocha, left-pad are dev it cannot say */
    sb_sbom *s = case_sel(a, "yarn.lock", "yarn-berry-optional-dev.lock", NULL);
    CHECK(s != NULL);
    CHECK_STR(prop(find(s, "fsevents", NULL), "pixi:scope"), "optional");
    CHECK(prop(find(s, "mocha", NULL), "pixi:scope") == NULL);
    CHECK(prop(find(s, "chokidar", NULL), "pixi:scope") == NULL);
    const sb_pkg *mocha = find(s, "mocha", NULL);
    CHECK(mocha && mocha->scope == SB_SCOPE_NONE);
    /* with the package.json: its devDependencies decide */
    s = case_sel(a, "yarn.lock", "yarn-berry-optional-dev.lock", "package.json");
    CHECK(s != NULL);
    CHECK_STR(prop(find(s, "mocha", NULL), "pixi:scope"), "dev");
    CHECK_STR(prop(find(s, "mocha", NULL), "pixi:declared-in"), "devDependencies");
    CHECK_STR(prop(find(s, "chokidar", NULL), "pixi:scope"), "required");
    CHECK_STR(prop(find(s, "left-pad", NULL), "pixi:scope"), "required");
    CHECK_STR(prop(find(s, "fsevents", NULL), "pixi:scope"), "optional");
    mocha = find(s, "mocha", NULL);
    const sb_pkg *fse = find(s, "fsevents", NULL);
    CHECK(mocha && mocha->scope == SB_SCOPE_DEVELOPMENT && fse && fse->scope == SB_SCOPE_OPTIONAL);
    sb_arena_destroy(a);
}

TEST(core_js__case_yarn_berry_user_patch_one_component)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = case_sel(a, "yarn.lock", "yarn-berry-user-patch.lock", NULL);
    CHECK(s != NULL);
    CHECK(s && s->npkgs == 1);
    const sb_pkg *lp = find(s, "left-pad", "1.3.0");
    CHECK(lp && !strcmp(lp->purl, "pkg:npm/left-pad@1.3.0"));
    CHECK(lp && root_depends_on(s, lp));
    CHECK_STR(prop(lp, "pixi:yarn-resolution"),
              "left-pad@patch:left-pad@npm%3A1.3.0#~/.yarn/patches/"
              "left-pad-npm-1.3.0-abc.patch::version=1.3.0&hash=1a2b3c");
    CHECK_STR(prop(lp, "pixi:yarn-checksum"), "10c0/bbbb");
    sb_arena_destroy(a);
}

TEST(core_js__case_yarn_classic_optional_with_and_without_manifest)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = case_sel(a, "yarn.lock", "yarn-classic-optional.lock", NULL);
    CHECK(s != NULL);
    CHECK_STR(prop(find(s, "fsevents", NULL), "pixi:scope"), "optional");
    CHECK(prop(find(s, "chokidar", NULL), "pixi:scope") == NULL);
    s = case_sel(a, "yarn.lock", "yarn-classic-optional.lock", "package.json");
    CHECK(s != NULL);
    const sb_pkg *fse = find(s, "fsevents", NULL);
    CHECK_STR(prop(fse, "pixi:scope"), "optional");
    CHECK(fse && fse->scope == SB_SCOPE_OPTIONAL);
    CHECK_STR(prop(find(s, "chokidar", NULL), "pixi:scope"), "required");
    CHECK_STR(prop(find(s, "mocha", NULL), "pixi:scope"), "dev");
    sb_arena_destroy(a);
}

/* berry's placeholder for a workspace's version is no version */
static const char yarn_berry_use_local[] =
    "__metadata:\n"
    "  version: 8\n"
    "  cacheKey: 10c0\n"
    "\n"
    "\"app@workspace:.\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"app@workspace:.\"\n"
    "  dependencies:\n"
    "    lib: \"workspace:packages/lib\"\n"
    "  languageName: unknown\n"
    "  linkType: soft\n"
    "\n"
    "\"lib@workspace:packages/lib\":\n"
    "  version: 0.0.0-use.local\n"
    "  resolution: \"lib@workspace:packages/lib\"\n"
    "  languageName: unknown\n"
    "  linkType: soft\n";

TEST(core_js__yarn_berry_use_local_is_no_version)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "yarn.lock", yarn_berry_use_local, &err);
    CHECK(s != NULL);
    const sb_pkg *lib = find(s, "lib", NULL);
    CHECK(lib && NULL == lib->version);
    CHECK(lib && lib->purl && !strstr(lib->purl, "0.0.0-use.local"));
    CHECK(s && (NULL == s->root_version || strcmp(s->root_version, "0.0.0-use.local")));
    sb_arena_destroy(a);
}

TEST(core_js__case_conflict_hint_names_the_package_manager)
{
    static const struct {
        const char *file, *name, *cmd;
    } cases[] = {
        {"conflict-package-lock.json", "package-lock.json", "(npm install)"},
        {"conflict-yarn.lock", "yarn.lock", "(yarn)"},
        {"conflict-berry-yarn.lock", "yarn.lock", "(yarn)"},
        {"conflict-pnpm-lock.yaml", "pnpm-lock.yaml", "(pnpm install)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "cases/js-scopes/%s", cases[i].file);
        size_t len = 0;
        char *text = sb_test_read(sb_test_shared(rel), &len);
        CHECK(text != NULL);
        if (NULL == text)
            continue;
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_lock *l = NULL;
        CHECK(sb_lock_read(&l, a, "auto", text, len, cases[i].name, NULL, &err) != SB_OK);
        CHECK(strstr(err.msg, "merge-conflict markers") && strstr(err.msg, cases[i].cmd));
        CHECK(NULL == strstr(err.msg, "pixi install"));
        if (!strstr(err.msg, cases[i].cmd))
            printf("  %s: %s\n", cases[i].file, err.msg);
        free(text);
        sb_arena_destroy(a);
    }
    /* bun.lock: its own command */
    static const char bun_conflict[] =
        "{\n  \"lockfileVersion\": 1,\n<<<<<<< HEAD\n  \"workspaces\": {},\n=======\n"
        "  \"workspaces\": {\"\": {}},\n>>>>>>> feature\n  \"packages\": {}\n}\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "auto", bun_conflict, strlen(bun_conflict), "bun.lock", NULL, &err) != SB_OK);
    CHECK(strstr(err.msg, "(bun install)") != NULL);
    sb_arena_destroy(a);
}

TEST(core_js__case_npm1_url_as_version_under_another_name)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = case_sel(a, "package-lock.json", "npm1-url-alias.json", NULL);
    CHECK(s != NULL);
    CHECK(s && s->npkgs == 1);
    const sb_pkg *ab = find(s, "abbrev", "1.1.1");
    CHECK(ab && !strcmp(ab->purl, "pkg:npm/abbrev@1.1.1"));
    CHECK_STR(prop(ab, "pixi:npm-alias"), "remote");
    CHECK(NULL == find(s, "remote", NULL));
    sb_arena_destroy(a);
}

/* 8,000 copies of x@1.0.0 each with a license of its own, and values a
 * separator splits: the first copy's license stays the component's, the
 * others are listed once each in lock order in pixi:other-license (joined
 * in place, not re-printed per copy), a value equal to a listed piece is
 * not repeated, one holding the separator always is. */
TEST(core_npm__copies_other_licenses_once_each)
{
    enum { N = 8000 };
    size_t cap = (size_t)N * 160 + 1024;
    char *t = malloc(cap), *w = t;
    w += sprintf(w,
                 "{\"lockfileVersion\": 3, \"packages\": {\"\": {\"name\": \"r\", \"dependencies\": {\"p0\": \"1\"}}");
    for (int i = 0; i < N; i++)
        w += sprintf(w,
                     ", \"node_modules/p%d\": {\"version\": \"1.0.0\"}, \"node_modules/p%d/node_modules/x\": "
                     "{\"version\": \"1.0.0\", \"license\": \"L%d\"}",
                     i, i, i % 3 == 2 ? i - 1 : i);
    w += sprintf(w,
                 ", \"node_modules/q/node_modules/x\": {\"version\": \"1.0.0\", \"license\": \"L1; L4\"}"
                 ", \"node_modules/q2/node_modules/x\": {\"version\": \"1.0.0\", \"license\": \"L4\"}}}");
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "package-lock.json", t, &err);
    const sb_pkg *x = s ? find(s, "x", "1.0.0") : NULL;
    CHECK(x && !strcmp(x->license, "L0"));
    const char *o = x ? prop(x, "pixi:other-license") : NULL;
    CHECK(o && !strncmp(o, "L1; L3; L4; L6; L7; L9; L10; ", 29));
    /* 5,334 distinct values less L0, then "L1; L4" as two pieces */
    size_t pieces = 1;
    for (const char *c = o; c && (c = strstr(c, "; ")); c += 2)
        pieces++;
    CHECK(pieces == 5333 + 2);
    CHECK(o && strlen(o) > 8 && !strcmp(o + strlen(o) - 8, "; L1; L4"));
    sb_arena_destroy(a);
    free(t);
}

/* The scope walk's worklist on a long chain reached three ways: dev at p0,
 * optional at p100, required at p150 of p0 -> p1 -> ... -> p199. Classes
 * arrive in waves, so packages go back on the list (more visits than
 * packages: its ring wraps) and every package ends with the union of what
 * reaches it: p0-p99 dev, p100-p149 dev and optional, p150-p199 required.
 * pnpm walks lock keys (its own list), bun the one yarn shares. */
static char *chain_lock(const char *kind, int n)
{
    size_t cap = (size_t)n * 256 + 1024, at = 0;
    char *t = malloc(cap);
    if (NULL == t)
        return NULL;
#define PUT(...) at += (size_t)snprintf(t + at, cap - at, __VA_ARGS__)
    if (!strcmp(kind, "pnpm-lock.yaml")) {
        PUT("lockfileVersion: '9.0'\nimporters:\n  .:\n    devDependencies:\n      p0: {specifier: ^1, version: "
            "1.0.0}\n    optionalDependencies:\n      p100: {specifier: ^1, version: 1.0.0}\n    dependencies:\n"
            "      p150: {specifier: ^1, version: 1.0.0}\npackages:\n");
        for (int i = 0; i < n; i++)
            PUT("  p%d@1.0.0: {resolution: {integrity: sha512-AAAA}}\n", i);
        PUT("snapshots:\n");
        for (int i = 0; i < n; i++)
            if (i + 1 < n)
                PUT("  p%d@1.0.0:\n    dependencies: {p%d: 1.0.0}\n", i, i + 1);
            else
                PUT("  p%d@1.0.0: {}\n", i);
    } else { /* bun.lock */
        PUT("{\"lockfileVersion\": 1, \"workspaces\": {\"\": {\"name\": \"app\", \"devDependencies\": {\"p0\": \"^1\"}, "
            "\"optionalDependencies\": {\"p100\": \"^1\"}, \"dependencies\": {\"p150\": \"^1\"}}}, \"packages\": {\n");
        for (int i = 0; i < n; i++)
            if (i + 1 < n)
                PUT("\"p%d\": [\"p%d@1.0.0\", \"\", {\"dependencies\": {\"p%d\": \"^1\"}}, \"\"],\n", i, i, i + 1);
            else
                PUT("\"p%d\": [\"p%d@1.0.0\", \"\", {}, \"\"]\n}}\n", i, i);
    }
#undef PUT
    return t;
}

TEST(core_js__scope_worklist_waves_on_a_chain)
{
    static const char *kinds[] = {"pnpm-lock.yaml", "bun.lock"};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        sb_arena *a = sb_arena_new(0);
        char *text = chain_lock(kinds[k], 200);
        sb_err err;
        sb_sbom *s = text ? sel(a, kinds[k], text, &err) : NULL;
        if (NULL == s)
            printf("  %s: %s\n", kinds[k], text ? err.msg : "out of memory");
        int bad = s ? 0 : 1;
        for (int i = 0; s && i < 200; i++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", i);
            const char *want = i < 100 ? "dev" : i < 150 ? "devOptional" : "required";
            const char *got = prop(find(s, name, "1.0.0"), "pixi:scope");
            if (NULL == got || strcmp(got, want)) {
                if (!bad)
                    printf("  %s: %s is %s, not %s\n", kinds[k], name, got ? got : "(none)", want);
                bad++;
            }
        }
        sb_test_subcase(kinds[k], 0 == bad, "every package's scope is the union of what reaches it");
        free(text);
        sb_arena_destroy(a);
    }
}

/* A meter that keeps the books: what is out now and at most, and a limit. */
typedef struct js_meter {
    size_t out, peak, limit;
    size_t taken, given;
} js_meter;

static int jm_take(void *ctx, size_t n)
{
    js_meter *m = ctx;
    if (m->limit && m->out + n > m->limit)
        return 0;
    m->out += n;
    m->taken += n;
    if (m->out > m->peak)
        m->peak = m->out;
    return 1;
}

static void jm_give(void *ctx, size_t n)
{
    js_meter *m = ctx;
    m->out -= n;
    m->given += n;
}

/* pnpm's lock-key edges live outside the arena but on its meter: a read
 * balances the books (every byte taken is given back), and a meter that
 * refuses anywhere along the way fails the read as out of memory, books
 * balanced still. */
TEST(core_pnpm__edges_on_the_meter)
{
    char *text = chain_lock("pnpm-lock.yaml", 3000);
    CHECK(text != NULL);
    if (NULL == text)
        return;
    js_meter jm = {0};
    sb_meter m = {jm_take, jm_give, &jm};
    sb_arena *a = sb_arena_new(0);
    sb_lock *l = NULL;
    sb_err err;
    CHECK(sb_arena_meter(a, &m) == 0);
    CHECK(sb_lock_read(&l, a, "pnpm-lock.yaml", text, strlen(text), NULL, NULL, &err) == SB_OK);
    sb_arena_destroy(a);
    CHECK(jm.taken == jm.given && jm.out == 0);
    size_t peak = jm.peak;
    /* refused at a few points below the peak: an error, nothing left charged */
    int refused = 0, balanced = 1;
    for (size_t cut = peak / 8; cut < peak; cut += peak / 8) {
        js_meter lm = {0, 0, cut, 0, 0};
        sb_meter lmm = {jm_take, jm_give, &lm};
        a = sb_arena_new(0);
        sb_arena_meter(a, &lmm);
        l = NULL;
        sb_code rc = sb_lock_read(&l, a, "pnpm-lock.yaml", text, strlen(text), NULL, NULL, &err);
        refused += rc == SB_ENOMEM;
        sb_arena_destroy(a);
        balanced &= lm.taken == lm.given && lm.out == 0;
    }
    CHECK(refused >= 6);
    CHECK(balanced);
    free(text);
}
