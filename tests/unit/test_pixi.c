/*
 * test_pixi.c - the pixi.lock reader and model selection: every format
 * version, derived conda fields, purls, the graph, and located errors.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"
#include "../../core/pairs.h"

#include <stdlib.h>

static sb_code read_str(sb_arena *a, const char *yaml, sb_lock **out, sb_err *err)
{
    sb_err_clear(err);
    return sb_lock_read(out, a, "pixi.lock", yaml, strlen(yaml), NULL, NULL, err);
}

static const sb_pkg *find(const sb_sbom *s, const char *name)
{
    for (size_t i = 0; i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, name))
            return &s->pkgs[i];
    return NULL;
}

static const char *prop(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

static const char v6[] =
    "version: 6\n"
    "environments:\n"
    "  default:\n"
    "    channels:\n"
    "    - url: https://conda.anaconda.org/conda-forge/\n"
    "    indexes:\n"
    "    - https://pypi.org/simple\n"
    "    packages:\n"
    "      linux-64:\n"
    "      - conda: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda\n"
    "      - conda: https://conda.anaconda.org/conda-forge/linux-64/libzlib-1.3.1-hb9d3cd8_2.conda\n"
    "      - conda: https://conda.anaconda.org/conda-forge/noarch/python-3.12.0-h1_0.tar.bz2\n"
    "      - pypi: https://files.pythonhosted.org/packages/six-1.17.0-py2.py3-none-any.whl\n"
    "      - pypi: git+https://github.com/Pallets/Flask.git#2579ce9f18e67ec3213c6eceb5240310ccd46af8\n"
    "      osx-arm64:\n"
    "      - conda: https://conda.anaconda.org/conda-forge/linux-64/libzlib-1.3.1-hb9d3cd8_2.conda\n"
    "packages:\n"
    "- conda: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda\n"
    "  sha256: C30DABA32DDEBBB7DED490F0E371EAE90F51E72DB620554089103B4A6934B0D5\n"
    "  md5: 51a19bba1b8ebfb60df25cde030b7ebc\n"
    "  depends:\n"
    "  - __glibc >=2.17\n"
    "  - libzlib 1.3.1 hb9d3cd8_2\n"
    "  - zlib\n"
    "  license: Zlib\n"
    "  license_family: Other\n"
    "  purls: []\n"
    "  size: 92286\n"
    "- conda: https://conda.anaconda.org/conda-forge/linux-64/libzlib-1.3.1-hb9d3cd8_2.conda\n"
    "  build_number: 2\n"
    "  sha256: not-a-hash\n"
    "- conda: https://conda.anaconda.org/conda-forge/noarch/python-3.12.0-h1_0.tar.bz2\n"
    "  purls:\n"
    "  - pkg:pypi/cpython\n"
    "- pypi: https://files.pythonhosted.org/packages/six-1.17.0-py2.py3-none-any.whl\n"
    "  name: Six\n"
    "  version: 1.17.0\n"
    "  requires_python: '>=2.7'\n"
    "- pypi: git+https://github.com/Pallets/Flask.git#2579ce9f18e67ec3213c6eceb5240310ccd46af8\n"
    "  name: flask\n"
    "  version: 3.2.0.dev0\n"
    "  requires_dist:\n"
    "  - six>=1 ; python_version < '4'\n"
    "  - Missing_Pkg\n";

TEST(core_pixi__v6_fields_purls_graph)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(read_str(a, v6, &l, &err) == SB_OK);
    if (!l) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(l->version == 6);
    CHECK(l->nenvs == 1);
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    CHECK_STR(s->platform, "linux-64");
    CHECK(s->npkgs == 5);
    /* conda before pypi, then by name */
    CHECK_STR(s->pkgs[0].name, "libzlib");
    CHECK_STR(s->pkgs[2].name, "zlib");
    CHECK_STR(s->pkgs[3].name, "Six");
    const sb_pkg *z = find(s, "zlib");
    CHECK_STR(z->purl, "pkg:conda/zlib@1.3.1?build=hb9d3cd8_2&channel=conda-forge&subdir=linux-64&type=conda");
    CHECK_STR(z->sha256, "c30daba32ddebbb7ded490f0e371eae90f51e72db620554089103b4a6934b0d5");
    CHECK_STR(prop(z, "pixi:channel-url"), "https://conda.anaconda.org/conda-forge/");
    CHECK_STR(prop(z, "pixi:file-name"), "zlib-1.3.1-hb9d3cd8_2.conda");
    CHECK_STR(prop(z, "pixi:size"), "92286");
    CHECK_STR(prop(z, "pixi:license-family"), "Other");
    CHECK(z->ndeps == 1); /* __glibc dropped, self edge dropped */
    CHECK_STR(s->pkgs[z->deps[0]].name, "libzlib");
    const sb_pkg *lz = find(s, "libzlib");
    CHECK(lz->sha256 == NULL); /* invalid hash refused */
    CHECK_STR(prop(lz, "pixi:build-number"), "2");
    const sb_pkg *py = find(s, "python");
    CHECK_STR(py->purl, "pkg:conda/python@3.12.0?build=h1_0&channel=conda-forge&subdir=noarch&type=tar.bz2");
    CHECK_STR(prop(py, "pixi:noarch"), "true");
    CHECK(sb_pkg_xr(py)->extra_purls.n == 1);
    CHECK_STR(sb_pkg_xr(py)->extra_purls.v[0], "pkg:pypi/cpython@3.12.0");
    const sb_pkg *six = find(s, "Six");
    CHECK_STR(six->purl, "pkg:pypi/six@1.17.0");
    CHECK_STR(six->supplier_name, "pypi.org");
    CHECK_STR(prop(six, "pixi:index-url"), "https://pypi.org/simple");
    CHECK_STR(prop(six, "pixi:requires-python"), ">=2.7");
    CHECK(prop(six, "pixi:source") == NULL);
    CHECK(six->ndeps == 1 && !strcmp(s->pkgs[six->deps[0]].name, "python"));
    const sb_pkg *fl = find(s, "flask");
    CHECK_STR(fl->purl, "pkg:github/pallets/flask@2579ce9f18e67ec3213c6eceb5240310ccd46af8");
    CHECK_STR(prop(fl, "pixi:source-rev"), "2579ce9f18e67ec3213c6eceb5240310ccd46af8");
    CHECK(fl->ndeps == 2); /* six + python; Missing_Pkg absent */
    /* roots: nothing depends on zlib and flask */
    CHECK(s->nroot == 2);
    CHECK_STR(s->pkgs[s->root_deps[0]].name, "zlib");
    CHECK_STR(s->pkgs[s->root_deps[1]].name, "flask");

    sb_select_opts o2 = {.platform = "osx-arm64"};
    CHECK(sb_select(&s, a, l, &o2, &err) == SB_OK);
    CHECK(s->npkgs == 1);
    sb_select_opts o3 = {.platform = "win-64"};
    CHECK(sb_select(&s, a, l, &o3, &err) == SB_ENOTFOUND);
    CHECK(strstr(err.msg, "linux-64, osx-arm64") != NULL);
    sb_select_opts o4 = {.environment = "dev"};
    CHECK(sb_select(&s, a, l, &o4, &err) == SB_ENOTFOUND);
    CHECK(strstr(err.msg, "available: default") != NULL);
    sb_arena_destroy(a);
}

TEST(core_pixi__v1_map_dependencies_and_version_last)
{
    static const char v1[] =
        "metadata:\n"
        "  channels:\n"
        "  - url: https://conda.anaconda.org/conda-forge/\n"
        "  platforms:\n"
        "  - linux-64\n"
        "package:\n"
        "- name: zlib\n"
        "  version: 1.3.1\n"
        "  manager: conda\n"
        "  platform: linux-64\n"
        "  dependencies:\n"
        "    libzlib: 1.3.1 hb9d3cd8_2\n"
        "  url: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda\n"
        "  hash:\n"
        "    md5: 51a19bba1b8ebfb60df25cde030b7ebc\n"
        "    sha256: null\n"
        "  build: hb9d3cd8_2\n"
        "- name: libzlib\n"
        "  version: 1.3.1\n"
        "  manager: conda\n"
        "  platform: linux-64\n"
        "  dependencies: {}\n"
        "  url: https://conda.anaconda.org/conda-forge/linux-64/libzlib-1.3.1-hb9d3cd8_2.conda\n"
        "  hash:\n"
        "    md5: 51a19bba1b8ebfb60df25cde030b7ebc\n"
        "- name: six\n"
        "  version: 1.17.0\n"
        "  manager: pip\n"
        "  platform: linux-64\n"
        "  url: https://files.pythonhosted.org/six-1.17.0-py2.py3-none-any.whl#sha256=4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274\n"
        "  hash:\n"
        "    md5: null\n"
        "version: 1\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(read_str(a, v1, &l, &err) == SB_OK);
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    if (l)
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    if (s) {
        CHECK(s->npkgs == 3);
        const sb_pkg *z = find(s, "zlib");
        CHECK(z && z->ndeps == 1);
        CHECK(z && z->sha256 == NULL && z->x->md5 != NULL);
        const sb_pkg *six = find(s, "six");
        CHECK_STR(six->location, "https://files.pythonhosted.org/six-1.17.0-py2.py3-none-any.whl");
        CHECK_STR(six->sha256, "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274");
    }
    sb_arena_destroy(a);
}

TEST(core_pixi__conda_source_v7)
{
    static const char v7[] =
        "version: 7\n"
        "platforms:\n"
        "- name: linux-64\n"
        "environments:\n"
        "  default:\n"
        "    channels:\n"
        "    - url: https://conda.anaconda.org/conda-forge/\n"
        "    packages:\n"
        "      linux-64:\n"
        "      - conda_source: mylib[abcd1234] @ packages/mylib\n"
        "      - conda_source: part[ffff0000] @ part\n"
        "packages:\n"
        "- conda_source: mylib[abcd1234] @ packages/mylib\n"
        "  version: 0.1.0\n"
        "  build: h0\n"
        "  subdir: linux-64\n"
        "  source:\n"
        "    git: https://github.com/example/mylib.git\n"
        "    tag: v0.1.0\n"
        "    rev: deadbeef\n"
        "- conda_source: part[ffff0000] @ part\n"
        "  depends:\n"
        "  - mylib\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    CHECK(read_str(a, v7, &l, &err) == SB_OK);
    if (l)
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    if (s) {
        const sb_pkg *m = find(s, "mylib");
        CHECK_STR(m->purl, "pkg:conda/mylib@0.1.0?build=h0&subdir=linux-64");
        CHECK_STR(m->location, "git+https://github.com/example/mylib.git@deadbeef");
        CHECK_STR(prop(m, "pixi:source-tag"), "v0.1.0");
        CHECK_STR(prop(m, "pixi:identifier-hash"), "abcd1234");
        const sb_pkg *p = find(s, "part");
        CHECK_STR(p->purl, "pkg:conda/part");
        CHECK(p->version == NULL);
        CHECK(p->ndeps == 1);
    }
    sb_arena_destroy(a);
}

typedef struct bad_case {
    const char *name, *yaml;
    sb_code code;
    unsigned line;
    const char *needle;
} bad_case;

TEST(core_pixi__bad_input_is_located)
{
    static const bad_case cases[] = {
        {"future version", "version: 8\nenvironments: {}\npackages: []\n", SB_EUNSUPPORTED, 1, "version 8"},
        {"version zero", "version: 0\npackages: []\n", SB_EUNSUPPORTED, 1, "not supported"},
        {"missing version", "environments: {}\npackages: []\n", SB_EPARSE, 1, "missing top-level key 'version'"},
        {"version not int", "version: seven\n", SB_EPARSE, 1, "integer"},
        {"truncated flow", "version: 6\npackages: [\n  {conda: x", SB_EPARSE, 4, "invalid YAML"},
        {"packages wrong type", "version: 6\nenvironments: {}\npackages: 5\n", SB_EPARSE, 3, "sequence"},
        {"alias", "version: 6\nenvironments: &e {}\nother: *e\npackages: []\n", SB_EUNSUPPORTED, 3, "aliases"},
        {"top-level list", "- a\n- b\n", SB_EPARSE, 1, "mapping"},
        {"unknown reference",
         "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n      - conda: https://x/y/linux-64/a-1-0.conda\npackages: []\n",
         SB_EPARSE, 6, "not in 'packages'"},
        {"no kind", "version: 6\nenvironments: {}\npackages:\n- name: x\n", SB_EPARSE, 4, "no kind"},
        {"nul byte", "version: 6\npackages: []\nx: \"a\\0b\"\n", SB_EPARSE, 3, "NUL"},
        {"two documents", "version: 6\npackages: []\n---\nversion: 6\n", SB_EPARSE, 3, "single YAML document"},
        {"duplicate version", "version: 6\nversion: 6\npackages: []\n", SB_EPARSE, 2, "twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_lock *l = NULL;
        sb_code rc = read_str(a, cases[i].yaml, &l, &err);
        char why[1200];
        snprintf(why, sizeof why, "rc=%d line=%u msg=%s", rc, err.line, err.msg);
        sb_test_subcase(cases[i].name,
                        rc == cases[i].code && err.line == cases[i].line && strstr(err.msg, cases[i].needle), why);
        sb_arena_destroy(a);
    }
}

TEST(core_pixi__limits_depth_scalar_events)
{
    sb_limits lim = SB_LIMITS_DEFAULT;
    size_t n = 200000;
    char *deep = malloc(n * 2 + 64);
    strcpy(deep, "version: 6\nx: ");
    size_t o = strlen(deep);
    for (size_t i = 0; i < n; i++)
        deep[o++] = '[';
    deep[o] = '\0';
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "pixi.lock", deep, strlen(deep), NULL, &lim, &err) == SB_ELIMIT);
    CHECK(strstr(err.msg, "nesting") != NULL);
    free(deep);

    size_t big = (1u << 20) + 10;
    char *s = malloc(big + 64);
    strcpy(s, "version: 6\nx: ");
    o = strlen(s);
    memset(s + o, 'a', big);
    s[o + big] = '\0';
    CHECK(sb_lock_read(&l, a, "pixi.lock", s, strlen(s), NULL, &lim, &err) == SB_ELIMIT);
    CHECK(strstr(err.msg, "scalar") != NULL);
    free(s);

    lim.max_events = 50;
    const char *many =
        "version: 6\nx: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48]\n";
    CHECK(sb_lock_read(&l, a, "pixi.lock", many, strlen(many), NULL, &lim, &err) == SB_ELIMIT);
    sb_arena_destroy(a);
}

TEST(core_pixi__every_fixture_reads)
{
    /* every pixi.lock fixture must read, and select at least one environment */
    FILE *idx = fopen(sb_test_shared("fixtures/SOURCES.tsv"), "r");
    CHECK(idx != NULL);
    if (!idx)
        return;
    char line[4096];
    int count = 0;
    while (fgets(line, sizeof line, idx)) {
        if (strncmp(line, "pixi/", 5))
            continue;
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        char path[4200];
        snprintf(path, sizeof path, "fixtures/%s", line);
        size_t len;
        char *data = sb_test_read(sb_test_shared(path), &len);
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_err_clear(&err);
        sb_lock *l = NULL;
        sb_code rc = data ? sb_lock_read(&l, a, NULL, data, len, "pixi.lock", NULL, &err) : SB_EIO;
        int ok = rc == SB_OK;
        for (size_t e = 0; ok && e < l->nenvs; e++)
            for (size_t p = 0; ok && p < l->envs[e].nplatforms; p++) {
                sb_sbom *s = NULL;
                sb_select_opts o = {.environment = l->envs[e].name, .platform = l->envs[e].platforms[p].name};
                ok = sb_select(&s, a, l, &o, &err) == SB_OK;
            }
        char why[8192];
        snprintf(why, sizeof why, "%s: %u:%u %s", path, err.line, err.column, err.msg);
        sb_test_subcase(path, ok, why);
        count++;
        free(data);
        sb_arena_destroy(a);
    }
    fclose(idx);
    CHECK(count >= 100);
}

TEST(core_explicit__fragments_platform_errors)
{
    static const char spec[] =
        "# This file may be used to create an environment using:\n"
        "# platform: linux-64\n"
        "@EXPLICIT\n"
        "https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda#51a19bba1b8ebfb60df25cde030b7ebc\n"
        "https://conda.anaconda.org/conda-forge/noarch/tzdata-2024a-h0c530f3_0.conda#sha256:C30DABA32DDEBBB7DED490F0E371EAE90F51E72DB620554089103B4A6934B0D5\n"
        "\n"
        "https://conda.anaconda.org/conda-forge/linux-64/libzlib-1.3.1-hb9d3cd8_2.tar.bz2\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    CHECK(sb_lock_read(&l, a, NULL, spec, strlen(spec), NULL, NULL, &err) == SB_OK);
    if (l) {
        CHECK_STR(l->kind, "conda explicit spec");
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    }
    if (s) {
        CHECK_STR(s->platform, "linux-64");
        CHECK(s->npkgs == 3);
        const sb_pkg *z = find(s, "zlib");
        CHECK_STR(z->x->md5, "51a19bba1b8ebfb60df25cde030b7ebc");
        CHECK_STR(z->location, "https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda");
        CHECK_STR(find(s, "tzdata")->sha256, "c30daba32ddebbb7ded490f0e371eae90f51e72db620554089103b4a6934b0d5");
        CHECK_STR(find(s, "libzlib")->purl,
                  "pkg:conda/libzlib@1.3.1?build=hb9d3cd8_2&channel=conda-forge&subdir=linux-64&type=tar.bz2");
        CHECK(s->nroot == 3);
    }
    static const char bad[] = "@EXPLICIT\nnumpy==1.0\n";
    CHECK(sb_lock_read(&l, a, NULL, bad, strlen(bad), NULL, NULL, &err) == SB_EPARSE);
    CHECK(err.line == 2 && strstr(err.msg, "not a package URL"));
    static const char nofrag[] = "@EXPLICIT\nhttps://x.org/c/osx-arm64/a-1-0.conda#zz\n";
    CHECK(sb_lock_read(&l, a, NULL, nofrag, strlen(nofrag), NULL, NULL, &err) == SB_EPARSE);
    static const char noplat[] =
        "@EXPLICIT\nhttps://x.org/c/noarch/a-1-0.conda\nhttps://x.org/c/osx-arm64/b-1-0.conda\n";
    CHECK(sb_lock_read(&l, a, NULL, noplat, strlen(noplat), NULL, NULL, &err) == SB_OK);
    CHECK(l && l->envs[0].nplatforms == 1 && !strcmp(l->envs[0].platforms[0].name, "osx-arm64"));
    sb_arena_destroy(a);
}

TEST(core_condalock__by_name_and_version)
{
    /* issue 18 item 1: conda-lock only writes version 1 without environments;
     * other content named *conda-lock.yml is pixi's (this test once expected
     * the refusal "conda-lock.yml version 2 is not supported") */
    static const char v2[] = "version: 2\nmetadata:\n  platforms: [linux-64]\npackage: []\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, NULL, v2, strlen(v2), "env/conda-lock.yml", NULL, &err) == SB_OK);
    CHECK(l && !strcmp(l->kind, "pixi.lock") && l->version == 2);
    static const char v6_env[] = "version: 6\nenvironments: {}\npackages: []\n";
    CHECK(sb_lock_read(&l, a, NULL, v6_env, strlen(v6_env), "x-conda-lock.yaml", NULL, &err) == SB_OK);
    CHECK(l && !strcmp(l->kind, "pixi.lock") && l->version == 6);
    /* asked for by kind, the refusal stays */
    CHECK(sb_lock_read(&l, a, "conda-lock.yml", v2, strlen(v2), NULL, NULL, &err) == SB_EUNSUPPORTED);
    CHECK(err.line == 1);
    static const char ok[] =
        "metadata:\n  platforms: [linux-64]\npackage:\n"
        "- name: zlib\n  version: 1.3.1\n  manager: conda\n  platform: linux-64\n  dependencies: {}\n"
        "  url: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda\n"
        "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: main\n  optional: false\n"
        "version: 1\n";
    CHECK(sb_lock_read(&l, a, NULL, ok, strlen(ok), "conda-lock.yml", NULL, &err) == SB_OK);
    CHECK(l && !strcmp(l->kind, "conda-lock.yml"));
    sb_arena_destroy(a);
}

/* the file name a document records: the one sent, else the kind's own name
 * when the content tells the kind, else none (pixi.lock v1 = conda-lock.yml) */
static const char *recorded_name(sb_arena *a, const char *data, const char *filename, const char *sent)
{
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {.lockfile_name = sent};
    if (sb_lock_read(&l, a, NULL, data, strlen(data), filename, NULL, &err) != SB_OK ||
        sb_select(&s, a, l, &o, &err) != SB_OK)
        return "(failed)";
    return s->lockfile_name ? s->lockfile_name : "(none)";
}

TEST(core_lock__recorded_name_is_sent_or_known)
{
    static const char v1[] =
        "version: 1\nmetadata:\n  platforms: [linux-64]\npackage:\n"
        "- name: zlib\n  version: 1.3.1\n  manager: conda\n  platform: linux-64\n"
        "  url: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda\n";
    static const char v6_min[] = "version: 6\nenvironments:\n  default:\n    packages: {}\npackages: []\n";
    sb_arena *a = sb_arena_new(0);
    CHECK_STR(recorded_name(a, v1, NULL, NULL), "(none)");
    CHECK_STR(recorded_name(a, v1, "conda-lock.yml", NULL), "conda-lock.yml");
    CHECK_STR(recorded_name(a, v1, "pixi.lock", NULL), "pixi.lock");
    CHECK_STR(recorded_name(a, v1, "ci.lock", "ci.lock"), "ci.lock");
    CHECK_STR(recorded_name(a, v6_min, NULL, NULL), "pixi.lock");
    sb_arena_destroy(a);
}

typedef struct bom_case {
    const char *path, *name;
    const char *kind, *content_kind; /* as read by name, by content alone (NULL: not tried) */
} bom_case;

/* one lock read, summarized for comparison */
static void read_summary(const char *data, size_t len, const char *filename, char *out, size_t n)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_err_clear(&err);
    sb_lock *l = NULL;
    sb_code rc = sb_lock_read(&l, a, NULL, data, len, filename, NULL, &err);
    if (rc == SB_OK)
        snprintf(out, n, "%s v%d %zu records %zu envs", l->kind, l->version, l->nrecords, l->nenvs);
    else
        snprintf(out, n, "rc %d: %s", rc, err.msg);
    sb_arena_destroy(a);
}

/* issue 18 item 1: a leading UTF-8 BOM changes nothing, for every kind */
TEST(core_lock__utf8_bom_is_skipped_for_every_kind)
{
    static const bom_case cases[] = {
        {"pixi/rattler-test-data-conda-lock-v6-derived-channel-lock.yml/pixi.lock", "pixi.lock", "pixi.lock",
         "pixi.lock"},
        {"conda-lock/conda-lock-tests-test-lockfile/conda-lock.yml", "conda-lock.yml", "conda-lock.yml", "pixi.lock"},
        {"explicit/conda-lock-tests-zlib/conda-win-64.lock", "conda-win-64.lock", "conda explicit spec",
         "conda explicit spec"},
        {"uv/rerun--rev-65343a7/uv.lock", "uv.lock", "uv.lock", "uv.lock"},
        {"pylock/osv-scalibr-extractor-filesystem-language-python-pylock-testdata/pdm-full.toml", "pylock.toml",
         "pylock.toml", "pylock.toml"},
        {"poetry/poetry-tests-fixtures-up_to_date_lock/poetry.lock", "poetry.lock", "poetry.lock", "poetry.lock"},
        {"pdm/pdm--rev-1e5dc62/pdm.lock", "pdm.lock", "pdm.lock", "pdm.lock"},
        {"bun/elysia--rev-8c11a35/bun.lock", "bun.lock", "bun.lock", "bun.lock"},
        {"composer/composer--rev-eba7baa/composer.lock", "composer.lock", "composer.lock", "composer.lock"},
        {"nuget/collapse-taskscheduler--rev-36e469a/packages.lock.json", "packages.lock.json", "packages.lock.json",
         "packages.lock.json"},
        {"pub/gallery--rev-cfcb9db/pubspec.lock", "pubspec.lock", "pubspec.lock", "pubspec.lock"},
        {"go/fzf--rev-b734f65/go.mod", "go.mod", "go.mod", "go.mod"},
        {"go/fzf--rev-b734f65/go.sum", "go.sum", "go.sum", "go.sum"},
        {"swiftpm/codeedit--rev-beafb17/Package.resolved", "Package.resolved", "Package.resolved", "Package.resolved"},
        {"gradle/bitwarden-android--rev-d817f6b/gradle.lockfile", "gradle.lockfile", "gradle.lockfile",
         "gradle.lockfile"},
        {"cargo/ripgrep--rev-3fce3b5/Cargo.lock", "Cargo.lock", "Cargo.lock", "Cargo.lock"},
        {"conan/openstudio--rev-09472be/conan.lock", "conan.lock", "conan.lock", "conan.lock"},
        {"bundler/rails--rev-ee68786/Gemfile.lock", "Gemfile.lock", "Gemfile.lock", "Gemfile.lock"},
        {"cocoapods/spotube-ios--rev-826c8e4/Podfile.lock", "Podfile.lock", "Podfile.lock", "Podfile.lock"},
        {"mix/phoenix-installer--rev-167c469/mix.lock", "mix.lock", "mix.lock", "mix.lock"},
        /* this one is not taken for requirements by content alone, BOM or not */
        {"requirements/pdm-tests-fixtures-projects-demo-package/requirements.txt", "requirements.txt",
         "requirements.txt", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "fixtures/%s", cases[i].path);
        size_t len;
        char *data = sb_test_read(sb_test_shared(path), &len);
        char *bom = data ? malloc(len + 3) : NULL;
        if (NULL == bom) {
            sb_test_subcase(cases[i].path, 0, "unreadable");
            free(data);
            continue;
        }
        memcpy(bom, "\xEF\xBB\xBF", 3);
        memcpy(bom + 3, data, len);
        for (int named = 0; named < 2; named++) {
            const char *kind = named ? cases[i].kind : cases[i].content_kind;
            if (NULL == kind)
                continue;
            char want[512], got[512], why[1100], sub[600];
            read_summary(data, len, named ? cases[i].name : NULL, want, sizeof want);
            read_summary(bom, len + 3, named ? cases[i].name : NULL, got, sizeof got);
            snprintf(why, sizeof why, "without BOM: %s; with: %s", want, got);
            snprintf(sub, sizeof sub, "BOM %s (%s)", cases[i].path, named ? "named" : "by content");
            sb_test_subcase(sub, !strcmp(want, got) && !strncmp(want, kind, strlen(kind)), why);
        }
        free(bom);
        free(data);
    }
}

/* One selection of a lockfile, as lines "kind name version purl location"
 * (the model's order). */
static char *components_in(const char *data, size_t len, const char *env, const char *platform, char *out, size_t n)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_err_clear(&err);
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {.environment = env, .platform = platform};
    out[0] = '\0';
    if (NULL == data || sb_lock_read(&l, a, NULL, data, len, "pixi.lock", NULL, &err) != SB_OK ||
        sb_select(&s, a, l, &o, &err) != SB_OK) {
        snprintf(out, n, "error: %s", err.msg);
    } else {
        size_t o2 = 0;
        for (size_t i = 0; i < s->npkgs && o2 < n; i++) {
            const sb_pkg *p = &s->pkgs[i];
            o2 += (size_t)snprintf(out + o2, n - o2, "%s %s %s %s %s\n", sb_kind_name(p->kind), p->name,
                                   p->version ? p->version : "-", p->purl, p->location ? p->location : "-");
        }
    }
    sb_arena_destroy(a);
    return out;
}

static char *components_of(const char *rel, const char *env, const char *platform, char *out, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "fixtures/pixi/%s/pixi.lock", rel);
    size_t len;
    char *data = sb_test_read(sb_test_shared(path), &len);
    components_in(data, len, env, platform, out, n);
    free(data);
    return out;
}

typedef struct pair_case {
    const char *name, *env, *v6_platform, *v7_platform;
    size_t want; /* components */
} pair_case;

/* issue 18 item 2, spec 2.2: the v6 and v7 renderings of one lock give the
 * same components: v6 source packages keyed by `conda:` with a non-archive
 * location, and v6 selectors choosing among records sharing a location */
TEST(core_pixi__v6_and_v7_give_the_same_components)
{
    static const pair_case cases[] = {
        {"conda-path-lock.yml", "default", "win-64", "win-64", 3},
        {"conda-path-lock.yml", "default", "linux-64", "linux-64-foobar", 1},
        {"conda-path-lock.yml", "second", "win-64", "win-64", 1},
        {"pixi-build-git-rev-only-source-lock.yml", "default", "linux-64", "linux-64", 1},
        {"sources-lock.yml", "default", "win-64", "win-64", 1},
        {"multiple-source-packages-with-variants-lock.yml", "default", "linux-64", "linux-64", 2},
        {"derived-channel-lock.yml", "default", "win-64", "win-64", 2},
        {"python-from-conda-only-lock.yml", "default", NULL, NULL, 19},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const pair_case *c = &cases[i];
        char r6[160], r7[160], a6[8192], a7[8192], why[17000], sub[300];
        snprintf(r6, sizeof r6, "rattler-test-data-conda-lock-v6-%s", c->name);
        snprintf(r7, sizeof r7, "rattler-test-data-conda-lock-v7-%s", c->name);
        components_of(r6, c->env, c->v6_platform, a6, sizeof a6);
        components_of(r7, c->env, c->v7_platform, a7, sizeof a7);
        size_t lines = 0;
        for (const char *q = a6; (q = strchr(q, '\n')); q++)
            lines++;
        snprintf(why, sizeof why, "%zu components, want %zu\nv6:\n%sv7:\n%s", lines, c->want, a6, a7);
        snprintf(sub, sizeof sub, "v6 = v7: %s %s/%s", c->name, c->env, c->v6_platform ? c->v6_platform : "-");
        sb_test_subcase(sub, !strcmp(a6, a7) && lines == c->want, why);
    }
    char out[8192];
    /* the selector's build picks the record; a selector's name keeps both
     * packages at one path */
    components_of("rattler-test-data-conda-lock-v6-conda-path-lock.yml", "second", "win-64", out, sizeof out);
    CHECK(strstr(out, "build=second") != NULL);
    components_of("rattler-test-data-conda-lock-v6-conda-path-lock.yml", "default", "win-64", out, sizeof out);
    CHECK(strstr(out, "conda-source b-python-project 0.1") != NULL);
    CHECK(strstr(out, "minimal-project@0.1?build=first&subdir=win-64") != NULL);
}

TEST(core_pixi__v6_source_package_fields)
{
    static const char v6src[] =
        "version: 6\n"
        "environments:\n"
        "  default:\n"
        "    packages:\n"
        "      linux-64:\n"
        "      - conda: pixi-tag-package\n"
        "      - conda: .\n"
        "      - conda: ./recipes\n"
        "        name: other\n"
        "packages:\n"
        "- conda: pixi-tag-package\n"
        "  name: pixi-tag-package\n"
        "  version: 1.2.0\n"
        "  build: pyhbf21a9e_0\n"
        "  subdir: noarch\n"
        "  package_build_source:\n"
        "    git: https://github.com/example/pixi-package.git\n"
        "    tag: v1.2.0\n"
        "    rev: def456789012345\n"
        "- conda: .\n"
        "  name: editable-pyproject\n"
        "  version: 0.1.0\n"
        "  build: pyh4616a5c_0\n"
        "  subdir: noarch\n"
        "  input:\n"
        "    hash: 0e5b879b8be1bd55540bc912ca881382625113b8fca75bf88b2e3a9a1093b4d3\n"
        "    globs:\n"
        "    - pyproject.toml\n"
        "    - src/**\n"
        "- conda: ./recipes\n"
        "  name: first\n"
        "  version: 1\n"
        "  subdir: linux-64\n"
        "- conda: ./recipes\n"
        "  name: other\n"
        "  version: 2\n"
        "  subdir: linux-64\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    CHECK(read_str(a, v6src, &l, &err) == SB_OK);
    if (l)
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    if (s) {
        CHECK(s->npkgs == 3);
        const sb_pkg *t = find(s, "pixi-tag-package");
        CHECK(t && t->kind == SB_KIND_CONDA_SOURCE);
        CHECK_STR(t->purl, "pkg:conda/pixi-tag-package@1.2.0?build=pyhbf21a9e_0&subdir=noarch");
        CHECK_STR(t->location, "git+https://github.com/example/pixi-package.git@def456789012345");
        CHECK_STR(prop(t, "pixi:source-tag"), "v1.2.0");
        CHECK_STR(prop(t, "pixi:source-rev"), "def456789012345");
        CHECK(prop(t, "pixi:file-name") == NULL && prop(t, "pixi:channel") == NULL);
        const sb_pkg *e = find(s, "editable-pyproject");
        CHECK(e && e->kind == SB_KIND_CONDA_SOURCE);
        CHECK_STR(e->location, ".");
        CHECK_STR(prop(e, "pixi:source-path"), ".");
        CHECK_STR(prop(e, "pixi:source-input-hash"),
                  "0e5b879b8be1bd55540bc912ca881382625113b8fca75bf88b2e3a9a1093b4d3");
        CHECK_STR(prop(e, "pixi:source-input-globs"), "pyproject.toml,src/**");
        const sb_pkg *ot = find(s, "other");
        CHECK(ot && !strcmp(ot->version, "2"));
        CHECK(find(s, "first") == NULL);
    }
    /* a selector nothing matches is the located error a missing record is */
    static const char nomatch[] =
        "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n"
        "      - conda: ./recipes\n        build: nope\n"
        "packages:\n- conda: ./recipes\n  name: first\n  version: 1\n  subdir: linux-64\n";
    CHECK(read_str(a, nomatch, &l, &err) == SB_EPARSE);
    CHECK(err.line == 6 && strstr(err.msg, "not in 'packages'"));
    sb_arena_destroy(a);
}

/* issue 18 item 7: a v4 URL holding one record per subdir; each platform
 * gets its own subdir's record, or the noarch one */
TEST(core_pixi__v4_one_url_record_per_subdir)
{
    static const char v4[] =
        "version: 4\n"
        "environments:\n"
        "  default:\n"
        "    channels:\n"
        "    - url: https://conda.anaconda.org/conda-forge/\n"
        "    packages:\n"
        "      linux-64:\n"
        "      - conda: https://conda.anaconda.org/conda-forge/noarch/tzdata-2024a-h0c530f3_0.conda\n"
        "      win-64:\n"
        "      - conda: https://conda.anaconda.org/conda-forge/noarch/tzdata-2024a-h0c530f3_0.conda\n"
        "      osx-arm64:\n"
        "      - conda: https://conda.anaconda.org/conda-forge/noarch/tzdata-2024a-h0c530f3_0.conda\n"
        "packages:\n"
        "- kind: conda\n"
        "  name: tzdata\n"
        "  version: 2024a\n"
        "  build: h0c530f3_0\n"
        "  subdir: linux-64\n"
        "  url: https://conda.anaconda.org/conda-forge/noarch/tzdata-2024a-h0c530f3_0.conda\n"
        "  license: LicenseRef-linux\n"
        "- kind: conda\n"
        "  name: tzdata\n"
        "  version: 2024a\n"
        "  build: h0c530f3_0\n"
        "  subdir: win-64\n"
        "  url: https://conda.anaconda.org/conda-forge/noarch/tzdata-2024a-h0c530f3_0.conda\n"
        "  license: LicenseRef-win\n"
        "- kind: conda\n"
        "  name: tzdata\n"
        "  version: 2024a\n"
        "  build: h0c530f3_0\n"
        "  subdir: noarch\n"
        "  url: https://conda.anaconda.org/conda-forge/noarch/tzdata-2024a-h0c530f3_0.conda\n"
        "  license: LicenseRef-noarch\n";
    static const char *const want[][2] = {{"linux-64", "LicenseRef-linux"},
                                          {"win-64", "LicenseRef-win"},
                                          {"osx-arm64", "LicenseRef-noarch"}};
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(read_str(a, v4, &l, &err) == SB_OK);
    for (size_t i = 0; l && i < 3; i++) {
        sb_sbom *s = NULL;
        sb_select_opts o = {.platform = want[i][0]};
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
        if (s && s->npkgs == 1)
            CHECK_STR(s->pkgs[0].license, want[i][1]);
        else
            CHECK(!"one package per platform");
    }
    sb_arena_destroy(a);
}

/* issue 18 item 5: v6/v7 leave out a build number the build string ends
 * with (and v4/v5 one that is 0); pixi:build-number is there for every version */
TEST(core_pixi__implied_build_number)
{
    static const char *const cases[][3] = {
        /* version, record lines, expected pixi:build-number */
        {"6", "- conda: https://conda.anaconda.org/conda-forge/linux-64/bzip2-1.0.8-h4bc722e_7.conda\n", "7"},
        {"7", "- conda: https://conda.anaconda.org/conda-forge/linux-64/bzip2-1.0.8-h4bc722e_7.conda\n", "7"},
        {"6",
         "- conda: https://conda.anaconda.org/conda-forge/linux-64/bzip2-1.0.8-h4bc722e_7.conda\n"
         "  build_number: 3\n",
         "3"},
        {"6", "- conda: https://conda.anaconda.org/conda-forge/linux-64/bzip2-1.0.8-cpython.conda\n", "0"},
        {"6", "- conda: https://conda.anaconda.org/conda-forge/linux-64/bzip2-1.0.8-pyhd8ed1ab_100.conda\n", "100"},
        {"5",
         "- kind: conda\n  name: bzip2\n  version: 1.0.8\n  build: h4bc722e_7\n  subdir: linux-64\n"
         "  url: https://conda.anaconda.org/conda-forge/linux-64/bzip2-1.0.8-h4bc722e_7.conda\n",
         "0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char yaml[1024];
        const char *url = strstr(cases[i][1], "https://");
        size_t ul = strcspn(url, "\n");
        snprintf(yaml, sizeof yaml,
                 "version: %s\nenvironments:\n  default:\n    packages:\n      linux-64:\n      - conda: %.*s\n"
                 "packages:\n%s",
                 cases[i][0], (int)ul, url, cases[i][1]);
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_lock *l = NULL;
        sb_sbom *s = NULL;
        sb_select_opts o = {0};
        const char *got = "(no document)";
        if (read_str(a, yaml, &l, &err) == SB_OK && sb_select(&s, a, l, &o, &err) == SB_OK && s->npkgs == 1)
            got = prop(&s->pkgs[0], "pixi:build-number");
        char why[1300], sub[64];
        snprintf(why, sizeof why, "got %s want %s for\n%s", got ? got : "(none)", cases[i][2], yaml);
        snprintf(sub, sizeof sub, "build number case %zu", i);
        sb_test_subcase(sub, got && !strcmp(got, cases[i][2]), why);
        sb_arena_destroy(a);
    }
}

/* issue 18 item 4: a v7 PyPI record's `index:` is where it came from: the
 * supplier and pixi:index-url follow it, not the environment's first index */
TEST(core_pixi__v7_pypi_index)
{
    size_t len;
    char *data = sb_test_read(sb_test_shared(
                                  "fixtures/pixi/pixi-tests-data-satisfiability-pypi-index-transitive/pixi.lock"),
                              &len);
    CHECK(data != NULL);
    if (NULL == data)
        return;
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    CHECK(sb_lock_read(&l, a, NULL, data, len, "pixi.lock", NULL, &err) == SB_OK);
    if (l)
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    for (int i = 0; s && i < 2; i++) {
        const sb_pkg *p = find(s, i ? "bar" : "foo");
        CHECK(p != NULL);
        if (NULL == p)
            continue;
        CHECK_STR(p->supplier_name, "custom.example.com");
        CHECK_STR(p->supplier_url, "https://custom.example.com/simple");
        CHECK_STR(prop(p, "pixi:index-url"), "https://custom.example.com/simple");
        CHECK_STR(p->purl, i ? "pkg:pypi/bar@1.0.0" : "pkg:pypi/foo@1.0.0");
    }
    /* without `index:` the environment's first index still applies; a
     * user:password in the record's index never reaches the document */
    static const char v7[] =
        "version: 7\nplatforms:\n- name: linux-64\nenvironments:\n  default:\n"
        "    indexes:\n    - https://pypi.org/simple\n    packages:\n      linux-64:\n"
        "      - pypi: https://files.example/a-1.0-py3-none-any.whl\n"
        "      - pypi: https://files.example/b-1.0-py3-none-any.whl\n"
        "packages:\n"
        "- pypi: https://files.example/a-1.0-py3-none-any.whl\n  name: a\n  version: '1.0'\n"
        "- pypi: https://files.example/b-1.0-py3-none-any.whl\n  name: b\n  version: '1.0'\n"
        "  index: https://user:s3cret@private.example/simple\n";
    CHECK(read_str(a, v7, &l, &err) == SB_OK);
    if (l)
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    if (s && s->npkgs == 2) {
        CHECK_STR(prop(find(s, "a"), "pixi:index-url"), "https://pypi.org/simple");
        CHECK_STR(prop(find(s, "b"), "pixi:index-url"), "https://private.example/simple");
        CHECK_STR(find(s, "b")->supplier_name, "private.example");
    }
    free(data);
    sb_arena_destroy(a);
}

/* `data` with its top-level `version:` line moved to the end (malloc'd). */
static char *version_last(const char *data, size_t len)
{
    char *out = malloc(len + 2), *vl = NULL;
    size_t o = 0, vn = 0;
    for (const char *p = data, *end = data + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ll = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        if (NULL == vl && ll >= 8 && !strncmp(p, "version:", 8)) {
            vl = (char *)p;
            vn = ll;
        } else {
            memcpy(out + o, p, ll);
            o += ll;
        }
        p += ll;
    }
    if (o && out[o - 1] != '\n')
        out[o++] = '\n';
    if (vl) {
        memcpy(out + o, vl, vn);
        o += vn;
    }
    out[o] = '\0';
    return out;
}

/* issue 18 item 8: `version:` last gives the answer `version:` first does:
 * the same document, the same refusal, and detection past the first 64 KiB */
TEST(core_pixi__version_last_same_answer)
{
    static const char *const rels[][2] = {
        {"rerun", "win-64"}, /* v7, 888 KB: version beyond the detection window when last */
        {"pixi-examples-pypi", "win-64"},
        {"rattler-test-data-conda-lock-v6-conda-path-lock.yml", "win-64"},
        {"rattler-test-data-test.lock", "osx-arm64"},
        {"setup-pixi-test-default-rev-3f5ab78", "win-64"},
    };
    static char first[1 << 20], last[1 << 20];
    for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "fixtures/pixi/%s/pixi.lock", rels[i][0]);
        size_t len;
        char *data = sb_test_read(sb_test_shared(path), &len);
        char *moved = data ? version_last(data, len) : NULL;
        components_in(data, len, NULL, rels[i][1], first, sizeof first);
        components_in(moved, moved ? strlen(moved) : 0, NULL, rels[i][1], last, sizeof last);
        char why[600], sub[300];
        snprintf(why, sizeof why, "first: %.250s\nlast: %.250s", first, last);
        snprintf(sub, sizeof sub, "version last: %s", rels[i][0]);
        sb_test_subcase(sub, moved && !strcmp(first, last) && strncmp(first, "error", 5), why);
        /* by content alone too (no name) */
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_lock *l = NULL;
        snprintf(sub, sizeof sub, "version last, by content: %s", rels[i][0]);
        sb_test_subcase(sub, moved && sb_lock_read(&l, a, NULL, moved, strlen(moved), NULL, NULL, &err) == SB_OK,
                        err.msg);
        sb_arena_destroy(a);
        free(moved);
        free(data);
    }
    /* an unsupported version is the answer wherever it stands, not the
     * first record shape a newer format may have changed */
    static const char *const v8[] = {
        "version: 8\nenvironments: {}\npackages:\n- name: x\n",
        "environments: {}\npackages:\n- name: x\nversion: 8\n",
    };
    for (int i = 0; i < 2; i++) {
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_lock *l = NULL;
        CHECK(read_str(a, v8[i], &l, &err) == SB_EUNSUPPORTED);
        CHECK(err.line == (i ? 4u : 1u) && err.column == 10 && strstr(err.msg, "version 8"));
        sb_arena_destroy(a);
    }
}

/* issue 18 item 8: a PyPI record without a version still has a pkg:pypi
 * purl with a version (spec 4; "0" as spec 2.2 says), the component none */
TEST(core_pixi__pypi_without_version)
{
    static const char v6nov[] =
        "version: 6\nenvironments:\n  default:\n    indexes:\n    - https://pypi.org/simple\n"
        "    packages:\n      linux-64:\n"
        "      - pypi: https://files.example/Foo_Bar-1.0-py3-none-any.whl\n"
        "      - pypi: git+https://gitlab.example/org/repo.git\n"
        "      - pypi: ./local/pkg\n"
        "packages:\n"
        "- pypi: https://files.example/Foo_Bar-1.0-py3-none-any.whl\n  name: Foo_Bar\n"
        "- pypi: git+https://gitlab.example/org/repo.git\n  name: gl\n"
        "- pypi: ./local/pkg\n  name: LocalPkg\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    CHECK(read_str(a, v6nov, &l, &err) == SB_OK);
    if (l)
        CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    if (s && s->npkgs == 3) {
        CHECK_STR(find(s, "Foo_Bar")->purl, "pkg:pypi/foo-bar@0");
        CHECK(find(s, "Foo_Bar")->version == NULL);
        CHECK_STR(find(s, "gl")->purl, "pkg:pypi/gl@0?vcs_url=git%2Bhttps:%2F%2Fgitlab.example%2Forg%2Frepo.git");
        CHECK_STR(find(s, "LocalPkg")->purl, "pkg:generic/LocalPkg");
    }
    sb_arena_destroy(a);
}

/* core/pairs.c: which (environment, platform) documents a request over
 * several selections makes, in which order, and each one's selection */
TEST(core_pixi__pairs_order_limits_selection)
{
    static const char lock3[] =
        "version: 6\n"
        "environments:\n"
        "  zeta:\n"
        "    channels: []\n"
        "    packages:\n"
        "      win-64:\n"
        "      - conda: https://conda.anaconda.org/conda-forge/win-64/zlib-1.3.1-h0_0.conda\n"
        "  default:\n"
        "    channels: []\n"
        "    packages:\n"
        "      osx-arm64:\n"
        "      - conda: https://conda.anaconda.org/conda-forge/osx-arm64/zlib-1.3.1-h0_0.conda\n"
        "      linux-64:\n"
        "      - conda: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-h0_0.conda\n"
        "  alpha:\n"
        "    channels: []\n"
        "packages:\n"
        "- conda: https://conda.anaconda.org/conda-forge/win-64/zlib-1.3.1-h0_0.conda\n"
        "- conda: https://conda.anaconda.org/conda-forge/osx-arm64/zlib-1.3.1-h0_0.conda\n"
        "- conda: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-h0_0.conda\n";
    sb_arena *a = sb_arena_new(0);
    sb_lock *l = NULL;
    sb_err err;
    CHECK(read_str(a, lock3, &l, &err) == SB_OK);
    sb_select_opts base = {0};
    sb_select_pair *p = NULL;
    size_t n = 0;
    /* every environment, every platform: default first, then by name; an
     * environment that locks no platform has its one empty document */
    CHECK(sb_model_pairs(&p, &n, a, l, &base, true, true, 16, &err) == SB_OK);
    CHECK(n == 4);
    if (n == 4) {
        CHECK_STR(p[0].environment, "default");
        CHECK_STR(p[0].platform, "linux-64");
        CHECK_STR(p[1].environment, "default");
        CHECK_STR(p[1].platform, "osx-arm64");
        CHECK_STR(p[2].environment, "alpha");
        CHECK(NULL == p[2].platform);
        CHECK_STR(p[3].environment, "zeta");
        CHECK_STR(p[3].platform, "win-64");
        sb_sbom *docs[4] = {0};
        size_t at = 99;
        CHECK(sb_model_select_pairs(docs, a, l, &base, p, n, &at, &err) == SB_OK);
        CHECK(docs[0] && docs[0]->npkgs == 1 && !strcmp(docs[0]->platform, "linux-64"));
        CHECK(docs[1] && docs[1]->npkgs == 1 && !strcmp(docs[1]->platform, "osx-arm64"));
        CHECK(docs[2] && docs[2]->npkgs == 0);
        CHECK(docs[3] && docs[3]->npkgs == 1 && !strcmp(docs[3]->environment, "zeta"));
    }
    /* one environment's platforms; every environment on one platform */
    base.environment = "default";
    CHECK(sb_model_pairs(&p, &n, a, l, &base, false, true, 16, &err) == SB_OK && n == 2);
    base.environment = NULL;
    base.platform = "win-64";
    CHECK(sb_model_pairs(&p, &n, a, l, &base, true, false, 16, &err) == SB_OK && n == 3);
    if (n == 3) {
        CHECK_STR(p[2].platform, "win-64");
        /* a pair the lockfile does not lock fails its selection, named */
        sb_sbom *docs[3] = {0};
        size_t at = 99;
        CHECK(sb_model_select_pairs(docs, a, l, &base, p, n, &at, &err) == SB_ENOTFOUND);
        CHECK(at == 0);
        CHECK(strstr(err.msg, "win-64") != NULL);
    }
    /* more documents than the server writes */
    base.platform = NULL;
    CHECK(sb_model_pairs(&p, &n, a, l, &base, true, true, 3, &err) == SB_ELIMIT);
    CHECK(strstr(err.msg, "asks for 4 documents") != NULL);
    /* an environment the lockfile does not have: named, with the choices */
    base.environment = "nope";
    CHECK(sb_model_pairs(&p, &n, a, l, &base, false, true, 16, &err) == SB_ENOTFOUND);
    CHECK(strstr(err.msg, "nope") != NULL && strstr(err.msg, "alpha") != NULL);
    sb_arena_destroy(a);
}
