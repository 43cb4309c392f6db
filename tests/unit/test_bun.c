/*
 * test_bun.c - the bun.lock reader on small hand-made inputs: JSONC
 * (comments, trailing commas, positions kept), registry entries (purls,
 * scoped names, aliases, SRI hashes), install paths resolved bun's way,
 * scopes from the workspaces' lists, workspace members, git / github /
 * file: / link: / tarball sources and their purls, overrides, patches and
 * trusted packages as properties, lockfileVersion 0, detection, and the
 * refusals (bun.lockb, other versions, malformed input).
 */
#include "test.h"
#include "jsreaders.h"
#include "../../core/arena.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/deadline.h"

#include <stdio.h>
#include <stdlib.h>

#define SHA512_0_63 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+Pw=="
#define SHA1_FF "//////////////////////////8="

/* registry entries as bun writes them, JSONC and all: a scoped package, an
 * npm alias under its key, a package from a registry of its own, a hash in
 * two algorithms, comments holding commas and brackets, strings holding
 * what looks like a trailing comma */
static const char bun_registry[] =
    "// bun.lock written by hand\n"
    "{\n"
    "  \"lockfileVersion\": 1, /* a block comment, ] */\n"
    "  \"workspaces\": {\n"
    "    \"\": {\n"
    "      \"name\": \"app\",\n"
    "      \"dependencies\": {\n"
    "        \"@scope/lib\": \"^2\",\n"
    "        \"aliased\": \"npm:real@^1\",\n"
    "        \"odd\": \"1.0.0\",\n"
    "      },\n"
    "    },\n"
    "  },\n"
    "  \"packages\": {\n"
    "    \"@scope/lib\": [\"@scope/lib@2.0.0\", \"\", { \"dependencies\": { \"leaf\": \"^1\" } }, \"sha512-" SHA512_0_63
    " sha1-" SHA1_FF
    "\"],\n"
    "    \"aliased\": [\"real@1.2.0\", \"\", {}, \"sha512-" SHA512_0_63
    "\"],\n"
    "    \"leaf\": [\"leaf@1.0.0\", \"https://npm.example.com/leaf/-/leaf-1.0.0.tgz\", {}, \"sha1-" SHA1_FF
    "\"],\n"
    "    \"odd\": [\"odd@1.0.0\", \"\", { \"bin\": \"x,]\" }, \"\"], // a comment, }\n"
    "  },\n"
    "}\n";

TEST(core_bun__registry_purls_hashes_alias)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "auto", bun_registry, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->input_kind, "bun.lock");
    CHECK_STR(s->root_name, "app");
    CHECK_STR(s->platform, "noarch");
    CHECK(s->npkgs == 4);
    const sb_pkg *lib = find(s, "@scope/lib", "2.0.0");
    CHECK(lib && !strcmp(lib->purl, "pkg:npm/%40scope/lib@2.0.0"));
    sb_hash_hex hx;
    const char *lib512 = lib ? sb_pkg_hash(lib, SB_HASH_SHA512, &hx) : NULL;
    CHECK(lib512 && strlen(lib512) == 128 && !strncmp(lib512, "000102030405", 12) && !strcmp(lib512 + 124, "3e3f"));
    CHECK(lib && lib->sha1 && !strcmp(lib->sha1, "ffffffffffffffffffffffffffffffffffffffff"));
    const sb_pkg *real = find(s, "real", "1.2.0");
    CHECK(real && !strcmp(real->purl, "pkg:npm/real@1.2.0"));
    CHECK_STR(prop(real, "pixi:npm-alias"), "aliased");
    CHECK_STR(prop(real, "pixi:install-paths"), "aliased");
    CHECK(root_depends_on(s, real) && root_depends_on(s, lib));
    /* a registry of its own: still pkg:npm, the tarball its location */
    const sb_pkg *leaf = find(s, "leaf", "1.0.0");
    CHECK(leaf && !strcmp(leaf->purl, "pkg:npm/leaf@1.0.0"));
    CHECK(leaf && leaf->location && !strcmp(leaf->location, "https://npm.example.com/leaf/-/leaf-1.0.0.tgz"));
    CHECK(leaf && leaf->supplier_name && !strcmp(leaf->supplier_name, "npm.example.com"));
    CHECK(depends_on(s, lib, leaf));
    /* an empty integrity is no hash */
    const sb_pkg *odd = find(s, "odd", "1.0.0");
    CHECK(odd && NULL == odd->sha1 && NULL == sb_pkg_hash(odd, SB_HASH_SHA512, &hx));
    sb_arena_destroy(a);
}

/* install paths: a nested copy for one dependent, scoped keys at both
 * levels, a dependency missing (an optional one not installed); scopes
 * from the root's four lists (a peer also listed as dev stays dev, an
 * optional peer); a member with its own nested copy and a dev dependency */
static const char bun_paths[] =
    "{\n"
    "  \"lockfileVersion\": 1,\n"
    "  \"workspaces\": {\n"
    "    \"\": {\n"
    "      \"name\": \"app\",\n"
    "      \"dependencies\": { \"a\": \"^1\", \"@s/x\": \"^1\", \"w\": \"workspace:*\" },\n"
    "      \"devDependencies\": { \"devtool\": \"^1\", \"both\": \"^1\" },\n"
    "      \"optionalDependencies\": { \"opt\": \"^1\", \"gone\": \"^1\" },\n"
    "      \"peerDependencies\": { \"both\": \"^1\", \"peer\": \"^1\" },\n"
    "    },\n"
    "    \"packages/w\": {\n"
    "      \"name\": \"w\",\n"
    "      \"version\": \"0.1.0\",\n"
    "      \"dependencies\": { \"shared\": \"^2\" },\n"
    "      \"devDependencies\": { \"wdev\": \"^1\" },\n"
    "    },\n"
    "  },\n"
    "  \"packages\": {\n"
    "    \"a\": [\"a@1.0.0\", \"\", { \"dependencies\": { \"shared\": \"^2\", \"@s/y\": \"^1\" }, \"optionalDependencies\": { "
    "\"gone\": \"^1\" }, \"peerDependencies\": { \"p1\": \"*\", \"p2\": \"*\" }, \"optionalPeers\": [\"p2\"] }, "
    "\"sha512-" SHA512_0_63
    "\"],\n"
    "    \"a/shared\": [\"shared@2.0.0\", \"\", {}, \"\"],\n"
    "    \"@s/x\": [\"@s/x@1.0.0\", \"\", { \"dependencies\": { \"@s/y\": \"^2\", \"shared\": \"^1\" } }, \"\"],\n"
    "    \"@s/x/@s/y\": [\"@s/y@2.0.0\", \"\", { \"dependencies\": { \"shared\": \"^1\" } }, \"\"],\n"
    "    \"@s/y\": [\"@s/y@1.0.0\", \"\", {}, \"\"],\n"
    "    \"shared\": [\"shared@1.0.0\", \"\", {}, \"\"],\n"
    "    \"p1\": [\"p1@1.0.0\", \"\", {}, \"\"],\n"
    "    \"p2\": [\"p2@1.0.0\", \"\", {}, \"\"],\n"
    "    \"devtool\": [\"devtool@1.0.0\", \"\", { \"dependencies\": { \"dd\": \"^1\" } }, \"\"],\n"
    "    \"dd\": [\"dd@1.0.0\", \"\", {}, \"\"],\n"
    "    \"both\": [\"both@1.0.0\", \"\", {}, \"\"],\n"
    "    \"peer\": [\"peer@1.0.0\", \"\", {}, \"\"],\n"
    "    \"opt\": [\"opt@1.0.0\", \"\", { \"dependencies\": { \"dd\": \"^1\" } }, \"\"],\n"
    "    \"w\": [\"w@workspace:packages/w\"],\n"
    "    \"w/shared\": [\"shared@2.0.0\", \"\", {}, \"\"],\n"
    "    \"wdev\": [\"wdev@1.0.0\", \"\", {}, \"\"],\n"
    "  }\n"
    "}\n";

TEST(core_bun__install_paths_scopes_members)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "bun.lock", bun_paths, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    const sb_pkg *pa = find(s, "a", "1.0.0"), *sh1 = find(s, "shared", "1.0.0"), *sh2 = find(s, "shared", "2.0.0");
    const sb_pkg *y1 = find(s, "@s/y", "1.0.0"), *y2 = find(s, "@s/y", "2.0.0"), *x = find(s, "@s/x", "1.0.0");
    /* a's own copy of shared, not the hoisted one; @s/y hoisted for a, nested under @s/x */
    CHECK(depends_on(s, pa, sh2) && !depends_on(s, pa, sh1));
    CHECK(depends_on(s, pa, y1) && !depends_on(s, pa, y2));
    CHECK(depends_on(s, x, y2) && !depends_on(s, x, y1) && depends_on(s, x, sh1));
    /* from @s/x/@s/y up: @s/x/@s/y/shared, @s/x/shared, then shared */
    CHECK(depends_on(s, y2, sh1));
    CHECK_STR(prop(sh2, "pixi:install-paths"), "a/shared, w/shared");
    /* peers are edges; p2 an optional one */
    const sb_pkg *p1 = find(s, "p1", NULL), *p2 = find(s, "p2", NULL);
    CHECK(depends_on(s, pa, p1) && depends_on(s, pa, p2));
    CHECK_STR(prop(p1, "pixi:scope"), "required");
    CHECK_STR(prop(p2, "pixi:scope"), "optional");
    /* the root's lists */
    CHECK_STR(prop(pa, "pixi:scope"), "required");
    CHECK_STR(prop(find(s, "devtool", NULL), "pixi:scope"), "dev");
    CHECK_STR(prop(find(s, "both", NULL), "pixi:scope"), "dev");
    CHECK_STR(prop(find(s, "peer", NULL), "pixi:scope"), "peer");
    CHECK_STR(prop(find(s, "opt", NULL), "pixi:scope"), "optional");
    /* dd: dev through devtool, optional through opt: npm's devOptional (omitted
     * only when both dev and optional are) */
    CHECK_STR(prop(find(s, "dd", NULL), "pixi:scope"), "devOptional");
    CHECK(find(s, "devtool", NULL) && find(s, "devtool", NULL)->scope == SB_SCOPE_DEVELOPMENT);
    /* the member: local, off the root, its dependencies from under its name */
    const sb_pkg *w = find(s, "w", NULL);
    CHECK(w && !strcmp(w->purl, "pkg:generic/w@0.1.0"));
    CHECK_STR(prop(w, "pixi:direct-url"), "packages/w");
    CHECK(root_depends_on(s, w));
    CHECK(depends_on(s, w, sh2) && !depends_on(s, w, sh1));
    const sb_pkg *wdev = find(s, "wdev", NULL);
    CHECK(depends_on(s, w, wdev));
    CHECK_STR(prop(wdev, "pixi:scope"), "dev");
    /* "gone" is in no key: no component, no edge; 15 entries, w once */
    CHECK(NULL == find(s, "gone", NULL));
    CHECK(s->npkgs == 15);
    sb_arena_destroy(a);
}

/* every kind of source bun writes, and a workspace under a second key */
static const char bun_sources[] =
    "{\n"
    "  \"lockfileVersion\": 1,\n"
    "  \"workspaces\": {\n"
    "    \"\": {\n"
    "      \"name\": \"app\",\n"
    "      \"dependencies\": {\n"
    "        \"g\": \"git+ssh://git@github.com/o/g.git#v1\", \"gh\": \"github:o/gh\", \"dir\": \"file:../dir\",\n"
    "        \"ln\": \"link:ln\", \"tb\": \"file:tb-1.0.0.tgz\", \"rt\": \"https://example.com/rt-1.0.0.tgz\",\n"
    "        \"other\": \"workspace:*\", \"byp\": \"file:../byp\",\n"
    "      },\n"
    "    },\n"
    "    \"packages/m\": { \"name\": \"m\" },\n"
    "  },\n"
    "  \"packages\": {\n"
    "    \"g\": [\"g@git+ssh://git@github.com/o/g.git#v1\", { \"dependencies\": { \"dir\": \"*\" } }, "
    "\"0123456789abcdef0123456789abcdef01234567\"],\n"
    "    \"gh\": [\"gh@github:o/gh#abcdef1\", {}, \"o-gh-abcdef1\"],\n"
    "    \"dir\": [\"dir@file:../dir\", { \"devDependencies\": { \"dtool\": \"^1\" } }],\n"
    "    \"dtool\": [\"dtool@1.0.0\", \"\", {}, \"\"],\n"
    "    \"ln\": [\"ln@link:ln\", {}],\n"
    "    \"tb\": [\"tb@tb-1.0.0.tgz\", {}, \"sha512-" SHA512_0_63
    "\"],\n"
    "    \"rt\": [\"rt@https://example.com/rt-1.0.0.tgz\", {}],\n"
    "    \"m\": [\"m@workspace:packages/m\"],\n"
    "    \"other\": [\"m@workspace:packages/m\"],\n"
    "    \"byp\": [\"/byp@file:../byp\", {}],\n"
    "  }\n"
    "}\n";

TEST(core_bun__sources_and_purls)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "bun.lock", bun_sources, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    /* git: the resolved commit is the version and pins the vcs_url */
    const sb_pkg *g = find(s, "g", NULL);
    CHECK(g && !strcmp(g->version, "0123456789abcdef0123456789abcdef01234567"));
    CHECK(g && !strcmp(g->purl,
                       "pkg:npm/g@0123456789abcdef0123456789abcdef01234567?vcs_url=git%2Bssh:%2F%2Fgithub.com%"
                       "2Fo%2Fg.git%400123456789abcdef0123456789abcdef01234567"));
    /* github: the commit from bun's tag, the repository as a git URL */
    const sb_pkg *gh = find(s, "gh", NULL);
    CHECK(gh && !strcmp(gh->version, "abcdef1"));
    CHECK(gh && !strcmp(gh->purl, "pkg:npm/gh@abcdef1?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fo%2Fgh.git%40abcdef1"));
    /* folders, links and local tarballs: generic, their path kept */
    const sb_pkg *dir = find(s, "dir", NULL);
    CHECK(dir && !strcmp(dir->purl, "pkg:generic/dir") && NULL == dir->version);
    CHECK_STR(prop(dir, "pixi:direct-url"), "../dir");
    CHECK(depends_on(s, g, dir));
    /* a folder's devDependencies, which bun installs and lists: a development edge */
    CHECK(depends_on(s, dir, find(s, "dtool", NULL)));
    CHECK_STR(prop(find(s, "dtool", NULL), "pixi:scope"), "dev");
    CHECK(find(s, "ln", NULL) && !strcmp(find(s, "ln", NULL)->purl, "pkg:generic/ln"));
    const sb_pkg *tb = find(s, "tb", NULL);
    CHECK(tb && !strcmp(tb->purl, "pkg:generic/tb"));
    CHECK_STR(prop(tb, "pixi:direct-url"), "tb-1.0.0.tgz");
    sb_hash_hex hx;
    CHECK(tb && sb_pkg_hash(tb, SB_HASH_SHA512, &hx));
    /* a remote tarball: npm, with its download_url */
    const sb_pkg *rt = find(s, "rt", NULL);
    CHECK(rt && !strcmp(rt->purl, "pkg:npm/rt?download_url=https:%2F%2Fexample.com%2Frt-1.0.0.tgz"));
    /* one member under two keys; the alias is a key, not a property */
    const sb_pkg *m = find(s, "m", NULL);
    CHECK(m && !strcmp(m->purl, "pkg:generic/m"));
    CHECK_STR(prop(m, "pixi:install-paths"), "m, other");
    CHECK(NULL == prop(m, "pixi:npm-alias"));
    CHECK(root_depends_on(s, m));
    /* a name bun spelled as a path is the key's */
    const sb_pkg *byp = find(s, "byp", NULL);
    CHECK(byp && !strcmp(byp->purl, "pkg:generic/byp") && NULL == prop(byp, "pixi:npm-alias"));
    CHECK(s->npkgs == 9);
    sb_arena_destroy(a);
}

/* overrides, patches and trusted packages; lockfileVersion 0 with a
 * member's lists restated in its entry, and the root's own entry */
static const char bun_props_v0[] =
    "{\n"
    "  \"lockfileVersion\": 0,\n"
    "  \"workspaces\": {\n"
    "    \"\": { \"name\": \"app\", \"dependencies\": { \"p\": \"^1\", \"w\": \"workspace:*\" } },\n"
    "    \"w\": { \"name\": \"w\", \"version\": \"2.0.0\", \"devDependencies\": { \"q\": \"^1\" } },\n"
    "  },\n"
    "  \"trustedDependencies\": [\"p\", 7],\n"
    "  \"patchedDependencies\": { \"p@1.0.0\": \"patches/p@1.0.0.patch\", \"q@9.9.9\": \"patches/none.patch\" },\n"
    "  \"overrides\": { \"q\": \"1.0.0\", \"nested\": { \"x\": \"1\" } },\n"
    "  \"packages\": {\n"
    "    \"app\": [\"app@root:\", {}],\n"
    "    \"p\": [\"p@1.0.0\", \"\", {}, \"\"],\n"
    "    \"q\": [\"q@1.0.0\", \"\", {}, \"\"],\n"
    "    \"w\": [\"w@workspace:w\", { \"dependencies\": { \"q\": \"^1\" } }],\n"
    "  }\n"
    "}\n";

TEST(core_bun__properties_and_v0)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "bun.lock", bun_props_v0, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    const sb_pkg *p = find(s, "p", NULL), *q = find(s, "q", NULL), *w = find(s, "w", NULL);
    CHECK_STR(prop(p, "pixi:bun-trusted"), "true");
    CHECK_STR(prop(p, "pixi:bun-patch"), "patches/p@1.0.0.patch");
    CHECK(NULL == prop(p, "pixi:bun-override"));
    CHECK_STR(prop(q, "pixi:bun-override"), "1.0.0");
    CHECK(NULL == prop(q, "pixi:bun-patch") && NULL == prop(q, "pixi:bun-trusted"));
    /* the workspaces section says q is w's development dependency; the v0
     * entry's restatement is not read */
    CHECK(depends_on(s, w, q));
    CHECK_STR(prop(q, "pixi:scope"), "dev");
    CHECK(s->npkgs == 3 && NULL == find(s, "app", NULL));
    sb_arena_destroy(a);
}

TEST(core_bun__detection)
{
    static const char npm_v3[] =
        "{\"lockfileVersion\": 3, \"packages\": {\"\": {\"workspaces\": {\"packages\": [\"a\"]}},"
        " \"node_modules/x\": {\"version\": \"1.0.0\"}}}";
    sb_lock_choice c;
    sb_lock_choose(&c, NULL, bun_registry, strlen(bun_registry), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "bun.lock") && c.by_content);
    sb_lock_choose(&c, NULL, bun_paths, strlen(bun_paths), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "bun.lock"));
    /* a package-lock.json whose root lists its workspaces in the object
     * form stays npm's */
    sb_lock_choose(&c, NULL, npm_v3, strlen(npm_v3), NULL);
    CHECK(c.reader && !strcmp(c.reader->kind, "package-lock.json"));
    sb_lock_choose(&c, NULL, "{}", 2, "dir/bun.lock");
    CHECK(c.reader && !strcmp(c.reader->kind, "bun.lock") && !c.by_content);
    /* bun.lockb by its header, whatever the name says */
    static const char lockb[] = "#!/usr/bin/env bun\nbun-lockfile-format-v0\n\x02\x00\x00";
    sb_lock_choose(&c, NULL, lockb, sizeof lockb - 1, "package-lock.json");
    CHECK(c.reader && !strcmp(c.reader->kind, "bun.lock"));
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, NULL, lockb, sizeof lockb - 1, "bun.lockb", NULL, &err) == SB_EUNSUPPORTED);
    CHECK(strstr(err.msg, "bun install --save-text-lockfile") && strstr(err.msg, "bun.lock"));
    /* a BOM is skipped */
    size_t n = strlen(bun_registry);
    char *bom = sb_arena_alloc(a, n + 3);
    memcpy(bom, "\xEF\xBB\xBF", 3);
    memcpy(bom + 3, bun_registry, n);
    CHECK(sb_lock_read(&l, a, NULL, bom, n + 3, NULL, NULL, &err) == SB_OK && l->nrecords == 4);
    sb_arena_destroy(a);
}

TEST(core_bun__refusals_and_positions)
{
    static const struct {
        const char *text;
        sb_code code;
        unsigned line, col;
        const char *msg;
    } cases[] = {
        {"{\"lockfileVersion\": 2, \"workspaces\": {}, \"packages\": {}}", SB_EUNSUPPORTED, 0, 0, "0 and 1"},
        {"{\"workspaces\": {}, \"packages\": {}}", SB_EPARSE, 0, 0, "no integer lockfileVersion"},
        /* blanked comments and commas keep the positions of what follows */
        {"{\n  \"lockfileVersion\": 1, // c\n  /* a,\n b */ \"packages\": {\n    \"x\": [\"x@1.0.0\",, \"\"],\n  },\n}",
         SB_EPARSE, 5, 21, "a value must follow"},
        {"{\"lockfileVersion\": 1, \"packages\": {\"x\": {\"a\": 1}}}", SB_EPARSE, 1, 37, "must be an array"},
        {"{\"lockfileVersion\": 1, \"packages\": {\"x\": [\"nover\"]}}", SB_EPARSE, 1, 43, "not name@version"},
        {"{\"lockfileVersion\": 1, \"packages\": {\"x\": [7]}}", SB_EPARSE, 1, 37, "must start with"},
        {"{\"lockfileVersion\": 1, \"packages\": []}", SB_EPARSE, 1, 24, "packages must be an object"},
        {"{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}, \"\": {}}}", SB_EPARSE, 1, 47, "listed twice"},
        {"{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}},}", SB_OK, 0, 0, NULL},
        {"[1,]", SB_EPARSE, 0, 0, "must be a JSON object"},
        {"{\"lockfileVersion\": 1 /* never closed", SB_EPARSE, 0, 0, "bun.lock"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_err_clear(&err);
        sb_lock *l = NULL;
        sb_code rc = sb_lock_read(&l, a, "bun.lock", cases[i].text, strlen(cases[i].text), NULL, NULL, &err);
        int ok = rc == cases[i].code && (NULL == cases[i].msg || strstr(err.msg, cases[i].msg)) &&
                 (0 == cases[i].line || (err.line == cases[i].line && err.column == cases[i].col));
        char why[1200], name[64];
        snprintf(why, sizeof why, "got %d at %u:%u: %s", rc, err.line, err.column, err.msg);
        snprintf(name, sizeof name, "bun.lock refusal %zu", i);
        sb_test_subcase(name, ok, why);
        sb_arena_destroy(a);
    }
    /* an install path deeper than the nesting bound (64 packages): 413's code */
    char deep[1024] = "{\"lockfileVersion\": 1, \"packages\": {\"";
    size_t o = strlen(deep);
    for (int i = 0; i < 130; i++)
        o += (size_t)snprintf(deep + o, sizeof deep - o, "%sa", i ? "/" : "");
    snprintf(deep + o, sizeof deep - o, "\": [\"a@1.0.0\", \"\", {}, \"\"]}}");
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "bun.lock", deep, strlen(deep), NULL, NULL, &err) == SB_ELIMIT);
    CHECK(strstr(err.msg, "nests deeper than 64") && err.line == 1);
    sb_arena_destroy(a);
}

/* the budget's estimate: 1,000 B per '[' however the entries are laid out,
 * plus 2x the bytes (core/lock.c, loadtest/README.md) */
TEST(core_bun__memory_estimate)
{
    static const char one_line[] =
        "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {}}, \"packages\": {\"a\": [\"a@1.0.0\", "
        "\"\", {}, \"\"], \"b\": [\"b@1.0.0\", \"\", {}, \"\"]}}";
    size_t n = strlen(one_line);
    CHECK(sb_lock_estimate(NULL, one_line, n, NULL) == 2 * 1000 + 2 * n);
    CHECK(sb_lock_estimate(NULL, bun_paths, strlen(bun_paths), "bun.lock") == 17 * 1000 + 2 * strlen(bun_paths));
}

/* A key 128 names deep of 4,000 characters each, whose 3,000 dependencies
 * are installed nowhere but one at the top and one under the key's first
 * name: each resolution looks up names per level, never the path, so the
 * whole read fits a 5 s deadline many times over (hashing each candidate
 * path took seconds a dependency); the two installed ones are found. */
TEST(core_bun__deep_long_key_resolves_per_name)
{
    enum { DEPTH = 128, SEG = 4000, NDEPS = 3000 };
    size_t cap = (size_t)(DEPTH + 4) * (SEG + 8) + (size_t)NDEPS * 24 + 4096;
    char *t = malloc(cap), *w = t;
    w += sprintf(w, "{\"lockfileVersion\": 1, \"workspaces\": {\"\": {\"name\": \"app\", \"dependencies\": {\"s0");
    memset(w, 'x', SEG), w += SEG;
    w += sprintf(w, "\": \"1\"}}}, \"packages\": {\"top\": [\"top@1.0.0\", \"\", {}, \"\"], \"s0");
    memset(w, 'x', SEG), w += SEG;
    w += sprintf(w, "\": [\"s0@1.0.0\", \"\", {}, \"\"], \"s0");
    memset(w, 'x', SEG), w += SEG;
    w += sprintf(w, "/near\": [\"near@1.0.0\", \"\", {}, \"\"], \"");
    for (int i = 0; i < DEPTH; i++) {
        w += sprintf(w, "%ss%d", i ? "/" : "", i);
        memset(w, 'x', SEG), w += SEG;
    }
    w += sprintf(w, "\": [\"deep@1.0.0\", \"\", {\"dependencies\": {\"top\": \"1\", \"near\": \"1\"");
    for (int i = 0; i < NDEPS; i++)
        w += sprintf(w, ", \"nq%d\": \"1\"", i);
    w += sprintf(w, "}}, \"\"]}}");
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_err_clear(&err);
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.deadline_ns = sb_deadline_now_ns() + 5000000000LL;
    sb_lock *l = NULL;
    sb_code rc = sb_lock_read(&l, a, "bun.lock", t, (size_t)(w - t), NULL, &lim, &err);
    CHECK(rc == SB_OK);
    if (rc != SB_OK)
        printf("  %s\n", err.msg);
    sb_select_opts o = {0};
    sb_sbom *s = NULL;
    CHECK(l && sb_select(&s, a, l, &o, &err) == SB_OK);
    const sb_pkg *deep = find(s, "deep", NULL), *top = find(s, "top", NULL), *near = find(s, "near", NULL);
    CHECK(deep && top && near && depends_on(s, deep, top) && depends_on(s, deep, near));
    CHECK(deep && deep->ndeps == 2);
    sb_arena_destroy(a);
    free(t);
}
