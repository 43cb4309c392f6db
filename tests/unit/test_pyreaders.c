/*
 * test_pyreaders.c - the Python lockfile readers on small inline inputs:
 * what each puts into the model (roots, edges, markers per platform,
 * artifact choice, properties, scopes) and how each refuses bad input, and
 * how the writers render scopes; conda-lock.yml categories (scopes too).
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/buf.h"
#include "../../core/doc.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"

#include <jansson.h>
#include <stdlib.h>

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

static const char *prop(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; p && i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

static int depends_on(const sb_sbom *s, const sb_pkg *p, const char *name)
{
    for (size_t i = 0; p && i < p->ndeps; i++)
        if (!strcmp(s->pkgs[p->deps[i]].name, name))
            return 1;
    return 0;
}

static const char uv_lock[] =
    "version = 1\n"
    "revision = 2\n"
    "requires-python = \">=3.10\"\n"
    "[[package]]\n"
    "name = \"app\"\n"
    "version = \"0.1.0\"\n"
    "source = { editable = \".\" }\n"
    "dependencies = [\n"
    "    { name = \"colorama\", marker = \"sys_platform == 'win32'\" },\n"
    "    { name = \"requests\", extra = [\"socks\"] },\n"
    "]\n"
    "[[package]]\n"
    "name = \"colorama\"\n"
    "version = \"0.4.6\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n"
    "wheels = [{ url = \"https://files/colorama-0.4.6-py2.py3-none-any.whl\", hash = \"sha256:4f1d9991f5acc0ca119f9d443620b77f9d6b33703e51011c16baf57afb285fc6\" }]\n"
    "[[package]]\n"
    "name = \"requests\"\n"
    "version = \"2.32.3\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n"
    "dependencies = [{ name = \"idna\" }]\n"
    "sdist = { url = \"https://files/requests-2.32.3.tar.gz\", hash = \"sha256:55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760\" }\n"
    "[package.optional-dependencies]\n"
    "socks = [{ name = \"pysocks\" }]\n"
    "[[package]]\n"
    "name = \"idna\"\n"
    "version = \"3.10\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n"
    "[[package]]\n"
    "name = \"pysocks\"\n"
    "version = \"1.7.1\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n"
    "[[package]]\n"
    "name = \"unused\"\n"
    "version = \"1\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n";

TEST(uv_walk_root_markers_extras)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "uv.lock", uv_lock, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->root_name, "app");
    CHECK_STR(s->root_version, "0.1.0");
    CHECK_STR(s->platform, "linux-64");
    CHECK(s->npkgs == 3); /* requests, idna, pysocks: not colorama (win32), not unused */
    CHECK(find(s, "colorama") == NULL && find(s, "unused") == NULL);
    const sb_pkg *rq = find(s, "requests");
    CHECK(rq && depends_on(s, rq, "idna") && depends_on(s, rq, "pysocks")); /* the extra is followed */
    CHECK_STR(prop(rq, "pixi:direct"), "true");
    CHECK(prop(find(s, "idna"), "pixi:direct") == NULL);
    CHECK_STR(prop(rq, "pixi:source"), "true"); /* only an sdist: the source is installed */
    CHECK_STR(rq ? rq->purl : NULL, "pkg:pypi/requests@2.32.3");
    CHECK(s->nroot == 1 && !strcmp(s->pkgs[s->root_deps[0]].name, "requests"));
    s = sel(a, "uv.lock", uv_lock, "win-64", &err);
    const sb_pkg *co = find(s, "colorama");
    CHECK(co != NULL);
    CHECK_STR(co ? co->location : NULL, "https://files/colorama-0.4.6-py2.py3-none-any.whl");
    CHECK_STR(co ? co->sha256 : NULL, "4f1d9991f5acc0ca119f9d443620b77f9d6b33703e51011c16baf57afb285fc6");
    CHECK(sel(a, "uv.lock", "version = 3\n", NULL, &err) == NULL && err.code == SB_EUNSUPPORTED && err.line == 1);
    CHECK(sel(a, "uv.lock", "version = 1\n[[package]]\nversion = \"1\"\nsource = { registry = \"x\" }\n", NULL, &err) ==
              NULL &&
          err.code == SB_EPARSE);
    sb_arena_destroy(a);
}

TEST(poetry_file_only_and_markers)
{
    static const char lock[] =
        "[[package]]\nname = \"Typing_Extensions\"\nversion = \"4.12.2\"\npython-versions = \">=3.8\"\n"
        "files = [\n  {file = \"typing_extensions-4.12.2.tar.gz\", hash = \"sha256:1a7ead55c7e559dd4dee8856e3a88b41225abfe1ce8df57b7c13915fe121ffb8\"},\n"
        "  {file = \"typing_extensions-4.12.2-py3-none-any.whl\", hash = \"sha256:04e5ca0351e0f3f85c6853954072df659d0d13fac324d0072316b67d7794700d\"},\n]\n"
        "[[package]]\nname = \"pywin32\"\nversion = \"306\"\nmarkers = \"sys_platform == \\\"win32\\\"\"\nfiles = []\n"
        "[[package]]\nname = \"extra-only\"\nversion = \"1\"\nmarkers = {main = \"extra == \\\"fancy\\\"\"}\nfiles = []\n"
        "[package.dependencies]\nTyping-Extensions = \">=4\"\n"
        "[metadata]\nlock-version = \"2.1\"\npython-versions = \"^3.9\"\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "poetry.lock", lock, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 2); /* pywin32 only on Windows; extra-only with every extra on */
    const sb_pkg *te = find(s, "Typing_Extensions");
    CHECK(te && te->location == NULL);
    CHECK_STR(te ? te->file_name : NULL, "typing_extensions-4.12.2-py3-none-any.whl");
    CHECK_STR(prop(te, "pixi:file-name"), "typing_extensions-4.12.2-py3-none-any.whl");
    CHECK_STR(te ? te->purl : NULL, "pkg:pypi/typing-extensions@4.12.2");
    CHECK(depends_on(s, find(s, "extra-only"), "Typing_Extensions"));
    CHECK(sel(a, "poetry.lock", "[metadata]\nlock-version = \"999.0\"\n", NULL, &err) == NULL &&
          err.code == SB_EUNSUPPORTED && strstr(err.msg, "poetry lock"));
    sb_arena_destroy(a);
}

TEST(pdm_extras_folded)
{
    static const char lock[] =
        "[metadata]\nlock_version = \"4.5.0\"\n"
        "[[package]]\nname = \"requests\"\nversion = \"2.32.3\"\ndependencies = [\"idna>=2.5\"]\nfiles = []\n"
        "[[package]]\nname = \"requests\"\nversion = \"2.32.3\"\nextras = [\"socks\"]\n"
        "dependencies = [\"requests==2.32.3\", \"PySocks!=1.5.7,>=1.5.6\", \"win-inet-pton; sys_platform == \\\"win32\\\"\"]\nfiles = []\n"
        "[[package]]\nname = \"idna\"\nversion = \"3.10\"\nfiles = []\n"
        "[[package]]\nname = \"pysocks\"\nversion = \"1.7.1\"\nfiles = []\n"
        "[[package]]\nname = \"win-inet-pton\"\nversion = \"1.1.0\"\nfiles = []\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pdm.lock", lock, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 4); /* the extras entry is not a package of its own */
    const sb_pkg *rq = find(s, "requests");
    CHECK(depends_on(s, rq, "idna") && depends_on(s, rq, "pysocks"));
    CHECK(!depends_on(s, rq, "win-inet-pton")); /* its marker is false on linux-64 */
    s = sel(a, "pdm.lock", lock, "win-64", &err);
    CHECK(depends_on(s, find(s, "requests"), "win-inet-pton"));
    sb_arena_destroy(a);
}

TEST(requirements_via_graph_and_refusals)
{
    static const char txt[] =
        "#\n# This file is autogenerated by pip-compile with Python 3.9\n#\n"
        "certifi==2024.8.30 \\\n    --hash=sha256:922820b53db7a7257ffbda3f597266d435245903d80737e34f8a45ff3e3230d8\n"
        "    # via requests\n"
        "requests==2.32.3\n    # via -r requirements.in\n"
        "tomli==2.0.1 ; python_version < \"3.11\"\n    # via\n    #   -r requirements.in\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "requirements.txt", txt, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 3); /* tomli: python 3.9 from the header */
    CHECK(depends_on(s, find(s, "requests"), "certifi"));
    CHECK_STR(find(s, "certifi") ? find(s, "certifi")->sha256 : NULL,
              "922820b53db7a7257ffbda3f597266d435245903d80737e34f8a45ff3e3230d8");
    CHECK(s->nroot == 2); /* requests and tomli come from -r */
    CHECK(sel(a, "requirements.txt", "six>=1\n", NULL, &err) == NULL && err.code == SB_EUNSUPPORTED && err.line == 1);
    CHECK(sel(a, "requirements.txt", "ok==1\n-e ./src\n", NULL, &err) == NULL && err.line == 2);
    sb_arena_destroy(a);
}

/* Issue 18 item 6: a line with several --hash kept none. The first SHA-256
 * is the package's hash, every other value rides in pixi:hashes. */
TEST(requirements_every_hash_kept)
{
    static const char txt[] =
        "attrs==24.2.0 \\\n"
        "    --hash=sha256:5CFB1B9148B5B086569BAEC03F20D7B6BF3BCACC9A42BEBF87FFAAEC5C9A6D2E \\\n"
        "    --hash=sha256:81921eb96de3191c8258c199618104dd27ac608d9366f5e35d011eae1867ede2 \\\n"
        "    --hash=sha512:00ff \\\n"
        "    --hash=sha256:81921eb96de3191c8258c199618104dd27ac608d9366f5e35d011eae1867ede2 \\\n"
        "    --hash sha256:1111111111111111111111111111111111111111111111111111111111111111\n"
        "    # via -r requirements.in\n"
        "six==1.16.0 --hash=sha512:abcd --hash=bogus --hash=sha256:zz\n"
        "idna==3.10 --hash=sha256:12f65c9b470abda6dc35cf8e63cc574b1c52b11df2c86030af0ac09b01b13ea9\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "requirements.txt", txt, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    const sb_pkg *attrs = find(s, "attrs"), *six = find(s, "six"), *idna = find(s, "idna");
    CHECK_STR(attrs ? attrs->sha256 : NULL, "5cfb1b9148b5b086569baec03f20d7b6bf3bcacc9a42bebf87ffaaec5c9a6d2e");
    CHECK_STR(prop(attrs, "pixi:hashes"),
              "sha256:81921eb96de3191c8258c199618104dd27ac608d9366f5e35d011eae1867ede2,sha512:00ff,"
              "sha256:1111111111111111111111111111111111111111111111111111111111111111");
    CHECK(six && NULL == six->sha256); /* no well-formed SHA-256: no package hash */
    CHECK_STR(prop(six, "pixi:hashes"), "sha512:abcd");
    CHECK_STR(idna ? idna->sha256 : NULL, "12f65c9b470abda6dc35cf8e63cc574b1c52b11df2c86030af0ac09b01b13ea9");
    CHECK(NULL == prop(idna, "pixi:hashes")); /* one hash: nothing more to say */
    sb_arena_destroy(a);
}

/* The fixture the issue names: 48 pins, 417 --hash values, today 0 kept. */
TEST(requirements_fixture_hashes)
{
    size_t len = 0;
    char *txt = sb_test_read(sb_test_shared("fixtures/requirements/warehouse-requirements/tests.txt"), &len);
    CHECK(txt != NULL);
    if (!txt)
        return;
    size_t want = 0;
    for (const char *h = txt; (h = strstr(h, "--hash=")) != NULL; h += 7)
        want++;
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "requirements.txt", txt, NULL, &err);
    CHECK(s != NULL);
    size_t hashed = 0, kept = 0;
    for (size_t i = 0; s && i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        hashed += p->sha256 != NULL;
        kept += p->sha256 != NULL;
        for (const char *v = prop(p, "pixi:hashes"); v; v = strchr(v, ',') ? strchr(v, ',') + 1 : NULL)
            kept++;
    }
    CHECK(s && s->npkgs == 48);
    CHECK(hashed == 48);
    CHECK(want == 417 && kept == want);
    sb_arena_destroy(a);
    free(txt);
}

TEST(pylock_markers_and_root)
{
    static const char lock[] =
        "lock-version = '1.0'\nrequires-python = '>=3.12'\ncreated-by = 'test'\n"
        "[[packages]]\nname = 'proj'\nversion = '1'\ndirectory = { path = '.', editable = true }\n"
        "[[packages]]\nname = 'numpy'\nversion = '2.2.3'\nmarker = 'sys_platform == \"linux\"'\n"
        "wheels = [\n {name = 'numpy-2.2.3-cp312-cp312-win_amd64.whl', url = 'https://f/numpy-2.2.3-cp312-cp312-win_amd64.whl', hashes = {sha256 = '83807d445817326b4bcdaaaf8e8e9f1753da04341eceec705c001ff342002e5d'}},\n"
        " {name = 'numpy-2.2.3-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl', url = 'https://f/numpy-linux.whl', hashes = {sha256 = '5f1d9991f5acc0ca119f9d443620b77f9d6b33703e51011c16baf57afb285fc6'}},\n]\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pylock.toml", lock, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->root_name, "proj");
    CHECK(s->npkgs == 1);
    const sb_pkg *np = find(s, "numpy");
    CHECK_STR(np ? np->location : NULL, "https://f/numpy-linux.whl");
    CHECK_STR(prop(np, "pixi:marker"), "sys_platform == \"linux\"");
    s = sel(a, "pylock.toml", lock, "win-64", &err);
    CHECK(s && s->npkgs == 0);
    CHECK(sel(a, "pylock.toml", "lock-version = '2.0'\n", NULL, &err) == NULL && err.code == SB_EUNSUPPORTED);
    sb_arena_destroy(a);
}

static sb_scope scope_of(const sb_sbom *s, const char *name)
{
    const sb_pkg *p = find(s, name);
    return p ? p->scope : (sb_scope)-1;
}

/* app -> a -> shared; extra `fancy` -> b -> shared, d; dev group -> c -> d, e */
static const char uv_scoped[] =
    "version = 1\nrequires-python = \">=3.10\"\n"
    "[[package]]\nname = \"app\"\nversion = \"1\"\nsource = { editable = \".\" }\n"
    "dependencies = [{ name = \"a\" }]\n"
    "[package.optional-dependencies]\nfancy = [{ name = \"b\" }]\n"
    "[package.dev-dependencies]\ndev = [{ name = \"c\" }]\n"
    "[[package]]\nname = \"a\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "dependencies = [{ name = \"shared\" }]\n"
    "[[package]]\nname = \"b\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "dependencies = [{ name = \"shared\" }, { name = \"d\" }]\n"
    "[[package]]\nname = \"c\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "dependencies = [{ name = \"d\" }, { name = \"e\" }, { name = \"a\" }]\n"
    "[[package]]\nname = \"shared\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "[[package]]\nname = \"d\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "[[package]]\nname = \"e\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n";

TEST(uv_scopes_required_optional_development)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "uv.lock", uv_scoped, NULL, &err);
    CHECK(s != NULL && s->npkgs == 6);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(scope_of(s, "a") == SB_SCOPE_REQUIRED);
    CHECK(scope_of(s, "shared") == SB_SCOPE_REQUIRED); /* also via the extra: required wins */
    CHECK(scope_of(s, "b") == SB_SCOPE_OPTIONAL);
    CHECK(scope_of(s, "d") == SB_SCOPE_OPTIONAL); /* extra and dev group: optional */
    CHECK(scope_of(s, "c") == SB_SCOPE_DEVELOPMENT);
    CHECK(scope_of(s, "e") == SB_SCOPE_DEVELOPMENT);
    CHECK(depends_on(s, find(s, "c"), "a")); /* a dev package may need a required one */
    /* the same lock without extras and groups tells nothing apart: no scope */
    static const char plain[] =
        "version = 1\n[[package]]\nname = \"app\"\nversion = \"1\"\nsource = { virtual = \".\" }\n"
        "dependencies = [{ name = \"a\" }]\n"
        "[[package]]\nname = \"a\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n";
    s = sel(a, "uv.lock", plain, NULL, &err);
    CHECK(s && s->npkgs == 1 && scope_of(s, "a") == SB_SCOPE_NONE);
    sb_arena_destroy(a);
}

TEST(scope_crossing_rules)
{
    CHECK(sb_scope_crossing(SB_SCOPE_REQUIRED, SB_SCOPE_DEVELOPMENT) == SB_SCOPE_DEVELOPMENT);
    CHECK(sb_scope_crossing(SB_SCOPE_REQUIRED, SB_SCOPE_OPTIONAL) == SB_SCOPE_OPTIONAL);
    CHECK(sb_scope_crossing(SB_SCOPE_DEVELOPMENT, SB_SCOPE_DEVELOPMENT) == SB_SCOPE_NONE); /* inside the group */
    CHECK(sb_scope_crossing(SB_SCOPE_DEVELOPMENT, SB_SCOPE_REQUIRED) == SB_SCOPE_NONE);    /* required anyway */
    CHECK(sb_scope_crossing(SB_SCOPE_OPTIONAL, SB_SCOPE_DEVELOPMENT) == SB_SCOPE_DEVELOPMENT);
    CHECK(sb_scope_crossing(SB_SCOPE_NONE, SB_SCOPE_DEVELOPMENT) == SB_SCOPE_NONE); /* unscoped source */
    CHECK(sb_scope_merge(SB_SCOPE_DEVELOPMENT, SB_SCOPE_OPTIONAL) == SB_SCOPE_OPTIONAL);
    CHECK(sb_scope_merge(SB_SCOPE_DEVELOPMENT, SB_SCOPE_REQUIRED) == SB_SCOPE_REQUIRED);
    CHECK(sb_scope_merge(SB_SCOPE_NONE, SB_SCOPE_DEVELOPMENT) == SB_SCOPE_DEVELOPMENT);
}

/* The whole document for `s` as JSON (NULL on failure). */
static json_t *render(const sb_doc_ops *ops, const sb_sbom *s, const char *in, char **text)
{
    sb_arena *a = sb_arena_new(0);
    sb_doc *d = NULL;
    sb_doc_opts o = {.timestamp = 1700000000, .pretty = true, .input = in, .input_len = strlen(in)};
    sb_err err;
    sb_buf out = SB_BUF_INIT(0);
    char buf[4096];
    json_t *j = NULL;
    ssize_t n = -1;
    if (sb_doc_new(&d, a, ops, s, &o, &err) == SB_OK)
        while ((n = sb_doc_produce(d, buf, sizeof buf)) > 0)
            sb_buf_append(&out, buf, (size_t)n);
    if (n == 0 && out.data) {
        j = json_loadb(out.data, out.len, 0, NULL);
        *text = strndup(out.data, out.len);
    }
    sb_doc_free(d);
    sb_buf_free(&out);
    sb_arena_destroy(a);
    return j;
}

static int has_rel(json_t *doc, const char *from, const char *type, const char *to)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "relationships"), i, r)
        if (!strcmp(json_string_value(json_object_get(r, "spdxElementId")), from) &&
            !strcmp(json_string_value(json_object_get(r, "relationshipType")), type) &&
            !strcmp(json_string_value(json_object_get(r, "relatedSpdxElement")), to))
            return 1;
    return 0;
}

/* The SPDX 3 node whose spdxId ends with `frag`. */
static json_t *node3(json_t *doc, const char *frag)
{
    size_t i, fl = strlen(frag);
    json_t *n;
    json_array_foreach(json_object_get(doc, "@graph"), i, n) {
        const char *id = json_string_value(json_object_get(n, "spdxId"));
        if (id && strlen(id) > fl && !strcmp(id + strlen(id) - fl, frag))
            return n;
    }
    return NULL;
}

TEST(scopes_in_every_format)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "uv.lock", uv_scoped, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        sb_arena_destroy(a);
        return;
    }
    char *text = NULL;
    /* CycloneDX: scope after version/description, before supplier; development is "optional" */
    json_t *cdx = render(&sb_doc_cyclonedx_16, s, uv_scoped, &text);
    CHECK(cdx != NULL);
    size_t i;
    json_t *c;
    int seen = 0;
    json_array_foreach(json_object_get(cdx, "components"), i, c) {
        const char *name = json_string_value(json_object_get(c, "name"));
        const char *scope = json_string_value(json_object_get(c, "scope"));
        int req = !strcmp(name, "a") || !strcmp(name, "shared");
        CHECK_STR(scope, req ? "required" : "optional");
        seen++;
    }
    CHECK(seen == 6);
    const char *at = text ? strstr(text, "\"bom-ref\": \"pkg:pypi/c@1\"") : NULL;
    CHECK(at && strstr(at, "\"scope\"") && strstr(at, "\"supplier\"") &&
          strstr(at, "\"scope\"") < strstr(at, "\"supplier\""));
    json_decref(cdx);
    free(text);
    /* SPDX 2.3: edges crossing into a group or an extra are reversed */
    json_t *spdx = render(&sb_doc_spdx_23, s, uv_scoped, &text);
    CHECK(spdx != NULL);
    CHECK(has_rel(spdx, "SPDXRef-Package-root", "DEPENDS_ON", "SPDXRef-Package-pypi-a-1"));
    CHECK(has_rel(spdx, "SPDXRef-Package-pypi-c-1", "DEV_DEPENDENCY_OF", "SPDXRef-Package-root"));
    CHECK(has_rel(spdx, "SPDXRef-Package-pypi-b-1", "OPTIONAL_DEPENDENCY_OF", "SPDXRef-Package-root"));
    CHECK(has_rel(spdx, "SPDXRef-Package-pypi-c-1", "DEPENDS_ON", "SPDXRef-Package-pypi-e-1")); /* inside the group */
    CHECK(has_rel(spdx, "SPDXRef-Package-pypi-c-1", "DEPENDS_ON", "SPDXRef-Package-pypi-a-1")); /* required anyway */
    CHECK(has_rel(spdx, "SPDXRef-Package-pypi-b-1", "DEPENDS_ON", "SPDXRef-Package-pypi-d-1")); /* inside the extra */
    CHECK(has_rel(spdx, "SPDXRef-Package-pypi-d-1", "OPTIONAL_DEPENDENCY_OF", "SPDXRef-Package-pypi-c-1"));
    CHECK(!has_rel(spdx, "SPDXRef-Package-root", "DEPENDS_ON", "SPDXRef-Package-pypi-c-1"));
    json_decref(spdx);
    free(text);
    /* SPDX 3.0.1: the root's development edge apart, as a LifecycleScopedRelationship */
    json_t *s3 = render(&sb_doc_spdx_301, s, uv_scoped, &text);
    CHECK(s3 != NULL);
    json_t *dev = node3(s3, "#relationship-root-depends-development");
    json_t *plain = node3(s3, "#relationship-root-depends");
    CHECK_STR(json_string_value(json_object_get(dev, "type")), "LifecycleScopedRelationship");
    CHECK_STR(json_string_value(json_object_get(dev, "scope")), "development");
    CHECK(json_array_size(json_object_get(dev, "to")) == 1);
    CHECK(json_array_size(json_object_get(plain, "to")) == 2); /* a and b */
    CHECK_STR(json_string_value(json_object_get(plain, "type")), "Relationship");
    CHECK(node3(s3, "#relationship-Package-pypi-c-1-depends-development") == NULL); /* c's edges stay in or leave dev */
    int listed = 0;
    json_t *e;
    json_array_foreach(json_object_get(node3(s3, "#sbom"), "element"), i, e)
        listed += !strcmp(json_string_value(e), json_string_value(json_object_get(dev, "spdxId")));
    CHECK(listed == 1);
    json_decref(s3);
    free(text);
    sb_arena_destroy(a);
}

/* Poetry < 1.5: lock-version 1.x, `category`, `marker`, files under [metadata.files]. */
TEST(poetry_1x_category_files_and_scopes)
{
    static const char lock[] =
        "[[package]]\ncategory = \"main\"\nname = \"requests\"\noptional = false\npython-versions = \"*\"\nversion = \"2.25.1\"\n"
        "[package.dependencies]\nidna = \">=2.5\"\n"
        "[[package]]\ncategory = \"main\"\nname = \"idna\"\noptional = false\npython-versions = \"*\"\nversion = \"2.10\"\n"
        "[[package]]\ncategory = \"dev\"\nname = \"pytest\"\noptional = false\npython-versions = \"*\"\nversion = \"6.2.2\"\n"
        "[package.dependencies]\ncolorama = {version = \"*\", markers = \"sys_platform == \\\"win32\\\"\"}\nidna = \"*\"\n"
        "[[package]]\ncategory = \"dev\"\nmarker = \"sys_platform == \\\"win32\\\"\"\nname = \"colorama\"\noptional = false\n"
        "python-versions = \"*\"\nversion = \"0.4.4\"\n"
        "[[package]]\ncategory = \"main\"\nname = \"pysocks\"\noptional = true\npython-versions = \"*\"\nversion = \"1.7.1\"\n"
        "[metadata]\ncontent-hash = \"x\"\nlock-version = \"1.1\"\npython-versions = \"^3.8\"\n"
        "[metadata.files]\n"
        "requests = [\n  {file = \"requests-2.25.1-py2.py3-none-any.whl\", hash = \"sha256:c210084e36a42ae6b9219e00e48287def368a26d03a048ddad7bfee44f75871e\"},\n"
        "  {file = \"requests-2.25.1.tar.gz\", hash = \"sha256:27973dd4a904a4f13b263a19c866c13b92a39ed1c964655f025f3f8d3d75b804\"},\n]\n"
        "idna = []\npytest = []\ncolorama = []\npysocks = []\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "poetry.lock", lock, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 4); /* colorama's marker is false on linux-64 */
    const sb_pkg *rq = find(s, "requests");
    CHECK_STR(rq ? rq->sha256 : NULL, "c210084e36a42ae6b9219e00e48287def368a26d03a048ddad7bfee44f75871e");
    CHECK_STR(rq ? rq->file_name : NULL, "requests-2.25.1-py2.py3-none-any.whl");
    CHECK(depends_on(s, rq, "idna") && depends_on(s, find(s, "pytest"), "idna"));
    CHECK(scope_of(s, "requests") == SB_SCOPE_REQUIRED && scope_of(s, "idna") == SB_SCOPE_REQUIRED);
    CHECK(scope_of(s, "pytest") == SB_SCOPE_DEVELOPMENT);
    CHECK(scope_of(s, "pysocks") == SB_SCOPE_OPTIONAL); /* optional = true: only an extra installs it */
    s = sel(a, "poetry.lock", lock, "win-64", &err);
    CHECK(s && scope_of(s, "colorama") == SB_SCOPE_DEVELOPMENT && depends_on(s, find(s, "pytest"), "colorama"));
    /* before lock-version existed (Poetry < 1.0): read the same way */
    static const char old[] =
        "[[package]]\ncategory = \"main\"\nname = \"six\"\noptional = false\npython-versions = \"*\"\nversion = \"1.15.0\"\n"
        "[metadata]\ncontent-hash = \"x\"\npython-versions = \"*\"\n"
        "[metadata.files]\nsix = [\n  {file = \"six-1.15.0-py2.py3-none-any.whl\", hash = \"sha256:8b74bedcbbbaca38ff6d7491d76f2b06b3592611af620f8426e82dddb04a5ced\"},\n]\n";
    s = sel(a, "poetry.lock", old, NULL, &err);
    CHECK(s && s->npkgs == 1 && find(s, "six") && find(s, "six")->sha256);
    CHECK(s && scope_of(s, "six") == SB_SCOPE_NONE); /* all required: nothing told apart */
    sb_arena_destroy(a);
}

/* Poetry >= 2: `groups`; lock-version 2.0 without groups has no scope. */
TEST(poetry_groups_give_scopes)
{
    static const char lock[] =
        "[[package]]\nname = \"click\"\nversion = \"8.1.7\"\noptional = false\npython-versions = \">=3.7\"\n"
        "groups = [\"main\", \"dev\"]\nfiles = []\n"
        "[[package]]\nname = \"black\"\nversion = \"24.1\"\noptional = false\npython-versions = \">=3.8\"\n"
        "groups = [\"dev\"]\nfiles = []\n[package.dependencies]\nclick = \">=8\"\n"
        "[[package]]\nname = \"ujson\"\nversion = \"5\"\noptional = true\npython-versions = \"*\"\ngroups = [\"main\"]\nfiles = []\n"
        "[metadata]\nlock-version = \"2.1\"\npython-versions = \"^3.9\"\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "poetry.lock", lock, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(scope_of(s, "click") == SB_SCOPE_REQUIRED);
    CHECK(scope_of(s, "black") == SB_SCOPE_DEVELOPMENT);
    CHECK(scope_of(s, "ujson") == SB_SCOPE_OPTIONAL);
    static const char v20[] =
        "[[package]]\nname = \"click\"\nversion = \"8.1.7\"\noptional = false\npython-versions = \">=3.7\"\nfiles = []\n"
        "[[package]]\nname = \"ujson\"\nversion = \"5\"\noptional = true\npython-versions = \"*\"\nfiles = []\n"
        "[metadata]\nlock-version = \"2.0\"\npython-versions = \"^3.9\"\n";
    s = sel(a, "poetry.lock", v20, NULL, &err);
    CHECK(s && s->npkgs == 2 && scope_of(s, "click") == SB_SCOPE_NONE && scope_of(s, "ujson") == SB_SCOPE_NONE);
    sb_arena_destroy(a);
}

/* PDM before lock_version 2: `sections`, a dependency table, files keyed "name version" under [metadata]. */
TEST(pdm_legacy_and_2x_read_with_scopes)
{
    static const char legacy[] =
        "[[package]]\nname = \"click\"\nsections = [\"default\", \"dev\"]\nversion = \"7.1.2\"\n"
        "[package.dependencies]\ncolorama = {marker = \"sys_platform == 'win32'\", version = \"*\"}\n"
        "[[package]]\nname = \"colorama\"\nsections = [\"default\"]\nversion = \"0.4.4\"\nmarker = \"sys_platform == 'win32'\"\n"
        "[[package]]\nname = \"pytest\"\nsections = [\"dev\"]\nversion = \"6.2.1\"\n"
        "[package.dependencies]\nclick = \"*\"\n"
        "[metadata]\n\"click 7.1.2\" = [\n"
        "    {file = \"click-7.1.2-py2.py3-none-any.whl\", hash = \"sha256:dacca89f4bfadd5de3d7489b7c8a566eee0d3676333fbb50030263894c38c0dc\"},\n]\n"
        "\"pytest 6.2.1\" = []\n";
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "pdm.lock", legacy, NULL, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 2); /* colorama only on Windows */
    CHECK_STR(find(s, "click") ? find(s, "click")->sha256 : NULL,
              "dacca89f4bfadd5de3d7489b7c8a566eee0d3676333fbb50030263894c38c0dc");
    CHECK(depends_on(s, find(s, "pytest"), "click"));
    CHECK(scope_of(s, "click") == SB_SCOPE_REQUIRED);
    CHECK(scope_of(s, "pytest") == SB_SCOPE_OPTIONAL); /* a group, extra or dev: the lock does not say */
    s = sel(a, "pdm.lock", legacy, "win-64", &err);
    CHECK(s && depends_on(s, find(s, "click"), "colorama"));
    /* lock_version 2 / 3: PEP 508 dependencies, files in [metadata.files] */
    static const char v2[] =
        "[[package]]\nname = \"click\"\nsections = [\"default\"]\nversion = \"7.1.2\"\n"
        "[[package]]\nname = \"mkdocs\"\nsections = [\"doc\"]\nversion = \"1.1.2\"\ndependencies = [\"click>=3.3\"]\n"
        "[metadata]\nlock_version = \"2\"\ncontent_hash = \"sha256:x\"\n[metadata.files]\n"
        "\"click 7.1.2\" = [\n    {file = \"click-7.1.2.tar.gz\", hash = \"sha256:d2b5255c7c6349bc1bd1e59e08cd12acbbd63ce649f2588755783aa94dfb6b1a\"},\n]\n";
    s = sel(a, "pdm.lock", v2, NULL, &err);
    CHECK(s && s->npkgs == 2 && depends_on(s, find(s, "mkdocs"), "click"));
    CHECK(s && find(s, "click") && find(s, "click")->sdist && scope_of(s, "mkdocs") == SB_SCOPE_OPTIONAL);
    /* the one shape refused: no versions at all; and formats from the future */
    CHECK(sel(a, "pdm.lock", "[[package]]\nname = \"x\"\nsections = [\"default\"]\n", NULL, &err) == NULL &&
          err.code == SB_EUNSUPPORTED && strstr(err.msg, "no version"));
    CHECK(sel(a, "pdm.lock", "[metadata]\nlock_version = \"9.0\"\n", NULL, &err) == NULL &&
          err.code == SB_EUNSUPPORTED);
    sb_arena_destroy(a);
}

/* conda-lock.yml: one entry per category a package is locked for. */
static const char condalock_categories[] =
    "version: 1\nmetadata:\n  platforms: [linux-64, osx-64]\npackage:\n"
    "- name: python\n  version: 3.12.1\n  manager: conda\n  platform: linux-64\n  dependencies: {zlib: '*'}\n"
    "  url: https://conda.anaconda.org/conda-forge/linux-64/python-3.12.1-h1_0_cpython.conda\n"
    "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: main\n  optional: false\n"
    "- name: zlib\n  version: 1.3.1\n  manager: conda\n  platform: linux-64\n  dependencies: {}\n"
    "  url: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda\n"
    "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: main\n  optional: false\n"
    "- name: zlib\n  version: 1.3.1\n  manager: conda\n  platform: linux-64\n  dependencies: {}\n"
    "  url: https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda\n"
    "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: dev\n  optional: true\n"
    "- name: pytest\n  version: 8.0.0\n  manager: conda\n  platform: linux-64\n  dependencies: {python: '>=3.8', pluggy: '*'}\n"
    "  url: https://conda.anaconda.org/conda-forge/noarch/pytest-8.0.0-pyhd8ed1ab_0.conda\n"
    "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: dev\n  optional: true\n"
    "- name: pluggy\n  version: 1.4.0\n  manager: conda\n  platform: linux-64\n  dependencies: {}\n"
    "  url: https://conda.anaconda.org/conda-forge/noarch/pluggy-1.4.0-pyhd8ed1ab_0.conda\n"
    "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: dev\n  optional: true\n"
    "- name: pluggy\n  version: 1.4.0\n  manager: conda\n  platform: linux-64\n  dependencies: {}\n"
    "  url: https://conda.anaconda.org/conda-forge/noarch/pluggy-1.4.0-pyhd8ed1ab_0.conda\n"
    "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: docs\n  optional: true\n"
    "- name: zlib\n  version: 1.3.1\n  manager: conda\n  platform: osx-64\n  dependencies: {}\n"
    "  url: https://conda.anaconda.org/conda-forge/osx-64/zlib-1.3.1-h2_2.conda\n"
    "  hash: {md5: 51a19bba1b8ebfb60df25cde030b7ebc}\n  category: main\n  optional: false\n";

TEST(condalock_categories_one_component_scoped)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = sel(a, "conda-lock.yml", condalock_categories, "linux-64", &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK(s->npkgs == 4); /* zlib and pluggy once each, not #dup-2 */
    for (size_t i = 0; i < s->npkgs; i++)
        CHECK(strstr(s->pkgs[i].id, "#dup") == NULL);
    CHECK(scope_of(s, "python") == SB_SCOPE_REQUIRED);
    CHECK(scope_of(s, "zlib") == SB_SCOPE_REQUIRED); /* main and dev: required */
    CHECK(scope_of(s, "pytest") == SB_SCOPE_DEVELOPMENT);
    CHECK(scope_of(s, "pluggy") == SB_SCOPE_OPTIONAL); /* dev and docs: optional */
    CHECK(depends_on(s, find(s, "pytest"), "pluggy") && depends_on(s, find(s, "python"), "zlib"));
    /* osx-64 locks only main: nothing to tell apart */
    s = sel(a, "conda-lock.yml", condalock_categories, "osx-64", &err);
    CHECK(s && s->npkgs == 1 && scope_of(s, "zlib") == SB_SCOPE_NONE);
    /* the same records as a pixi.lock v1 carry no scope, duplicates and all */
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "pixi.lock", condalock_categories, strlen(condalock_categories), NULL, NULL, &err) ==
          SB_OK);
    sb_select_opts o = {.platform = "linux-64"};
    CHECK(l && sb_select(&s, a, l, &o, &err) == SB_OK && scope_of(s, "pytest") == SB_SCOPE_NONE);
    sb_arena_destroy(a);
}
