/*
 * test_manifest.c - the manifest readers (core/manifest.c) and what the
 * selection makes of a manifest: spec 2.13 author parsing, PEP 735 group
 * inclusion (expansion, cycles, missing groups), each manifest kind's root
 * metadata and declarations, malformed vs unreadable input, and declared
 * roots, pixi:declared-in, scopes and missing names in a selected document.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/deadline.h"
#include "../../core/lock.h"
#include "../../core/manifest.h"
#include "../../core/model.h"
#include "../../core/select.h"

#include <stdlib.h>

static sb_manifest *read_m(sb_arena *a, const char *fname, const char *text, sb_err *err)
{
    sb_limits lim = SB_LIMITS_DEFAULT;
    sb_manifest *m = NULL;
    sb_err_clear(err);
    if (sb_manifest_read(&m, a, fname, text, strlen(text), &lim, err) != SB_OK)
        return NULL;
    return m;
}

/* "feature:name" of every declaration, in order, joined by spaces */
static const char *decls(sb_arena *a, const sb_manifest *m)
{
    const char *out = "";
    for (size_t i = 0; i < m->ndeps; i++)
        out = sb_arena_printf(a, "%s%s%s:%s", out, i ? " " : "", m->deps[i].feature, m->deps[i].name);
    return out;
}

static const sb_mdep *find_dep(const sb_manifest *m, const char *feature, const char *name)
{
    for (size_t i = 0; i < m->ndeps; i++)
        if (!strcmp(m->deps[i].feature, feature) && !strcmp(m->deps[i].name, name))
            return &m->deps[i];
    return NULL;
}

TEST(manifest_author_rules)
{
    sb_arena *a = sb_arena_new(0);
    sb_author au;
    CHECK(sb_manifest_author(a, "Jane Doe <jane@example.org>", &au));
    CHECK_STR(au.name, "Jane Doe");
    CHECK_STR(au.email, "jane@example.org");
    /* empty name falls back to the email */
    CHECK(sb_manifest_author(a, "<only@example.org>", &au));
    CHECK_STR(au.name, "only@example.org");
    CHECK(NULL == au.email);
    /* no brackets: the whole string is the name */
    CHECK(sb_manifest_author(a, "  The Team  ", &au));
    CHECK_STR(au.name, "The Team");
    CHECK(NULL == au.email);
    /* split on the LAST '<' */
    CHECK(sb_manifest_author(a, "A <b> Person <p@x.org>", &au));
    CHECK_STR(au.name, "A <b> Person");
    CHECK_STR(au.email, "p@x.org");
    /* no closing '>': no email, the whole string is the name */
    CHECK(sb_manifest_author(a, "Broken <mail@x.org", &au));
    CHECK_STR(au.name, "Broken <mail@x.org");
    CHECK(NULL == au.email);
    /* blank: none */
    CHECK(!sb_manifest_author(a, "   ", &au));
    CHECK(!sb_manifest_author(a, "", &au));
    CHECK(!sb_manifest_author(a, "<>", &au));
    sb_arena_destroy(a);
}

TEST(manifest_group_include)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_manifest *m = read_m(a, "pyproject.toml",
                            "[dependency-groups]\n"
                            "test = ['pytest>=8', 'Coverage[toml]']\n"
                            "lint = ['ruff']\n"
                            "dev = [{include-group = 'test'}, {include-group = 'lint'}, 'ipython']\n",
                            &err);
    CHECK(m != NULL);
    if (m) {
        CHECK(find_dep(m, "dev", "pytest") && find_dep(m, "dev", "coverage") && find_dep(m, "dev", "ruff"));
        CHECK(find_dep(m, "dev", "ipython") && find_dep(m, "test", "pytest"));
        CHECK(NULL == find_dep(m, "lint", "pytest"));
        CHECK(find_dep(m, "dev", "ruff")->scope == SB_SCOPE_DEVELOPMENT);
    }
    /* transitive: a includes b includes c */
    m = read_m(a, "pyproject.toml",
               "[dependency-groups]\na = [{include-group = 'b'}]\nb = [{include-group = 'c'}]\nc = ['six']\n", &err);
    CHECK(m && find_dep(m, "a", "six") && find_dep(m, "b", "six"));
    /* a cycle is malformed, located at the include that closes it */
    m = read_m(a, "pyproject.toml",
               "[dependency-groups]\na = ['x', {include-group = 'b'}]\nb = [{include-group = 'a'}]\n", &err);
    CHECK(NULL == m);
    CHECK(err.code == SB_EPARSE);
    CHECK(err.line == 3);
    CHECK(strstr(err.msg, "includes itself") != NULL);
    /* a self-include too */
    m = read_m(a, "pyproject.toml", "[dependency-groups]\nme = [{include-group = 'me'}]\n", &err);
    CHECK(NULL == m && err.code == SB_EPARSE && err.line == 2);
    /* including a group that does not exist */
    m = read_m(a, "pyproject.toml", "[dependency-groups]\na = [{include-group = 'nope'}]\n", &err);
    CHECK(NULL == m && err.code == SB_EPARSE && strstr(err.msg, "not a group"));
    sb_arena_destroy(a);
}

TEST(manifest_pyproject_pep621_and_tools)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_manifest *m =
        read_m(a, "pyproject.toml",
               "[project]\nname = 'demo'\nversion = '1.2.3'\n"
               "license = {text = 'Apache-2.0'}\n"
               "authors = [{name = 'Ann', email = 'ann@x.org'}, {email = 'bob@x.org'}, {name = 'Cy'}]\n"
               "dependencies = ['Requests[socks]>=2; python_version > \"3.8\"', 'attrs']\n"
               "[project.optional-dependencies]\nfast = ['orjson']\n"
               "[project.urls]\nHomepage = 'https://demo.example'\n'Source Code' = 'https://git.example/demo'\n"
               "Docs = 'https://docs.example'\n"
               "[tool.uv]\ndev-dependencies = ['pytest']\n"
               "[tool.pdm.dev-dependencies]\nlint = ['flake8']\n",
               &err);
    CHECK(m != NULL);
    if (NULL == m) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(m->kind, "pyproject.toml");
    CHECK_STR(m->name, "demo");
    CHECK_STR(m->version, "1.2.3");
    CHECK_STR(m->license, "Apache-2.0");
    CHECK(m->nauthors == 3);
    if (m->nauthors == 3) {
        CHECK_STR(m->authors[0].name, "Ann");
        CHECK_STR(m->authors[0].email, "ann@x.org");
        CHECK_STR(m->authors[1].name, "bob@x.org");
        CHECK(NULL == m->authors[1].email);
        CHECK_STR(m->authors[2].name, "Cy");
    }
    CHECK_STR(m->homepage, "https://demo.example");
    CHECK_STR(m->repository, "https://git.example/demo");
    CHECK_STR(m->documentation, "https://docs.example");
    CHECK_STR(decls(a, m), "default:requests default:attrs fast:orjson dev:pytest lint:flake8");
    CHECK(find_dep(m, "fast", "orjson")->scope == SB_SCOPE_OPTIONAL);
    CHECK(find_dep(m, "dev", "pytest")->scope == SB_SCOPE_DEVELOPMENT);
    CHECK(find_dep(m, "lint", "flake8")->scope == SB_SCOPE_DEVELOPMENT);
    CHECK(!m->pixi);

    /* poetry: authors strings, groups, optional deps declared through extras */
    m = read_m(a, "pyproject.toml",
               "[tool.poetry]\nname = 'po'\nversion = '0.1'\nauthors = ['Pat <pat@x.org>']\nlicense = 'MIT'\n"
               "repository = 'https://git.example/po'\n"
               "[tool.poetry.dependencies]\npython = '^3.9'\nclick = '^8'\nujson = {version = '*', optional = true}\n"
               "[tool.poetry.group.test.dependencies]\npytest = '*'\n"
               "[tool.poetry.dev-dependencies]\nblack = '*'\n"
               "[tool.poetry.extras]\nspeed = ['ujson']\n",
               &err);
    CHECK(m != NULL);
    if (m) {
        CHECK_STR(m->name, "po");
        CHECK(m->nauthors == 1 && !strcmp(m->authors[0].email, "pat@x.org"));
        CHECK_STR(m->repository, "https://git.example/po");
        CHECK_STR(decls(a, m), "default:click test:pytest dev:black speed:ujson");
        CHECK(find_dep(m, "speed", "ujson")->scope == SB_SCOPE_OPTIONAL);
    }
    sb_arena_destroy(a);
}

TEST(manifest_pixi_features_and_envs)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_manifest *m = read_m(a, "pixi.toml",
                            "[workspace]\nname = 'ws'\nversion = '2.0'\nauthors = ['Q <q@x.org>']\n"
                            "license = 'BSD-3-Clause'\nhomepage = 'https://ws.example'\n"
                            "[dependencies]\nPython = '3.12.*'\n'conda-forge::numpy' = '*'\n"
                            "[pypi-dependencies]\nRich_Text = '*'\n"
                            "[target.linux-64.dependencies]\npatchelf = '*'\n"
                            "[feature.test.dependencies]\npytest = '*'\n"
                            "[feature.docs.target.osx-64.pypi-dependencies]\nmkdocs = '*'\n"
                            "[environments]\ntest = ['test']\nlean = {features = ['docs'], no-default-feature = true}\n",
                            &err);
    CHECK(m != NULL);
    if (NULL == m) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(m->kind, "pixi.toml");
    CHECK_STR(m->name, "ws");
    CHECK_STR(m->license, "BSD-3-Clause");
    CHECK(m->nauthors == 1);
    CHECK(m->pixi);
    CHECK_STR(decls(a, m), "default:python default:numpy default:rich-text default:patchelf test:pytest docs:mkdocs");
    CHECK(find_dep(m, "default", "rich-text")->eco == SB_MDEP_PYPI);
    CHECK(find_dep(m, "default", "patchelf")->eco == SB_MDEP_CONDA);
    CHECK(sb_manifest_in_env(m, "test", "test") && sb_manifest_in_env(m, "test", "default"));
    CHECK(!sb_manifest_in_env(m, "test", "docs"));
    CHECK(!sb_manifest_in_env(m, "lean", "default") && sb_manifest_in_env(m, "lean", "docs"));
    CHECK(sb_manifest_in_env(m, "default", "default") && !sb_manifest_in_env(m, "default", "test"));
    sb_arena_destroy(a);
}

TEST(manifest_environment_yml_and_package_json)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_manifest *m = read_m(a, "environment.yml",
                            "name: sci\nchannels: [conda-forge]\ndependencies:\n"
                            "  - python=3.11\n  - conda-forge::NumPy>=1.26\n  - __glibc\n"
                            "  - pip\n  - pip:\n    - Flask==3.0\n    - -r requirements.txt\n",
                            &err);
    CHECK(m != NULL);
    if (m) {
        CHECK_STR(m->kind, "environment.yml");
        CHECK_STR(m->name, "sci");
        CHECK_STR(decls(a, m), "default:python default:numpy default:pip default:flask");
        CHECK(find_dep(m, "default", "flask")->eco == SB_MDEP_PYPI);
        CHECK(find_dep(m, "default", "numpy")->eco == SB_MDEP_CONDA);
    }
    m = read_m(a, "package.json",
               "{\"name\": \"@acme/web\", \"version\": \"3.1.0\", \"license\": \"ISC\","
               " \"author\": \"Kim Lee <kim@acme.io> (https://acme.io)\","
               " \"repository\": {\"type\": \"git\", \"url\": \"https://github.com/acme/web\"},"
               " \"homepage\": \"https://acme.io\","
               " \"dependencies\": {\"react\": \"^18\"}, \"devDependencies\": {\"@types/node\": \"20\"},"
               " \"optionalDependencies\": {\"fsevents\": \"*\"}, \"peerDependencies\": {\"react-dom\": \"*\"}}",
               &err);
    CHECK(m != NULL);
    if (m) {
        CHECK_STR(m->name, "@acme/web");
        CHECK_STR(m->version, "3.1.0");
        CHECK_STR(m->license, "ISC");
        CHECK(m->nauthors == 1 && !strcmp(m->authors[0].name, "Kim Lee") &&
              !strcmp(m->authors[0].email, "kim@acme.io"));
        CHECK_STR(m->repository, "https://github.com/acme/web");
        CHECK_STR(decls(a, m),
                  "default:react devDependencies:@types/node optionalDependencies:fsevents peerDependencies:react-dom");
        CHECK(find_dep(m, "devDependencies", "@types/node")->scope == SB_SCOPE_DEVELOPMENT);
        CHECK(find_dep(m, "peerDependencies", "react-dom")->scope == SB_SCOPE_OPTIONAL);
    }
    sb_arena_destroy(a);
}

TEST(manifest_malformed_vs_unreadable)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    /* malformed text: SB_EPARSE with a position */
    CHECK(NULL == read_m(a, "pyproject.toml", "[project]\nname = 'x'\nversion = \n", &err));
    CHECK(err.code == SB_EPARSE && err.line == 3 && err.column > 0);
    CHECK(NULL == read_m(a, "package.json", "{\"name\": \"x\",\n \"version\": }", &err));
    CHECK(err.code == SB_EPARSE && err.line == 2);
    CHECK(NULL == read_m(a, "environment.yml", "dependencies:\n  - a\n - b: [\n", &err));
    CHECK(err.code == SB_EPARSE && err.line > 0);
    /* unreadable as a manifest: SB_EFORMAT (the service warns and goes on) */
    CHECK(NULL == read_m(a, "setup.cfg", "[metadata]\nname = x\n", &err));
    CHECK(err.code == SB_EFORMAT);
    CHECK(NULL == read_m(a, NULL, "x", &err));
    CHECK(err.code == SB_EFORMAT);
    CHECK(NULL == read_m(a, "environment.yml", "- just\n- a list\n", &err));
    CHECK(err.code == SB_EFORMAT);
    CHECK(NULL == read_m(a, "package.json", "[1, 2]", &err));
    CHECK(err.code == SB_EFORMAT);
    sb_arena_destroy(a);
}

static const char *prop_of(const sb_pkg *p, const char *name)
{
    for (size_t k = 0; k < p->nprops; k++)
        if (!strcmp(p->props[k].name, name))
            return p->props[k].value;
    return NULL;
}

static const sb_pkg *pkg_named(const sb_sbom *s, const char *name)
{
    for (size_t i = 0; i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, name))
            return &s->pkgs[i];
    return NULL;
}

/* A lockfile that records no scopes (pinned requirements.txt) beside a
 * pyproject with an extra and a group: the manifest decides scopes, roots
 * are what it declares, and what it declares that is absent is listed. */
TEST(manifest_applied_to_selection)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_manifest *m = read_m(a, "pyproject.toml",
                            "[project]\nname = 'app'\nversion = '0.9'\nlicense = 'MIT'\n"
                            "dependencies = ['requests']\n"
                            "[project.optional-dependencies]\nyaml = ['PyYAML']\n"
                            "[dependency-groups]\ntest = ['pytest', 'requests', 'not-installed']\n",
                            &err);
    CHECK(m != NULL);
    const char *req = "requests==2.31.0\npyyaml==6.0.1\npytest==8.0.0\nidna==3.6\n";
    sb_limits lim = SB_LIMITS_DEFAULT;
    sb_lock *lock = NULL;
    sb_err_clear(&err);
    CHECK(sb_lock_read(&lock, a, "requirements.txt", req, strlen(req), "requirements.txt", &lim, &err) == SB_OK);
    if (NULL == m || NULL == lock) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    sb_select_opts o = {0};
    o.manifest = m;
    sb_sbom *s = NULL;
    CHECK(sb_select(&s, a, lock, &o, &err) == SB_OK);
    if (NULL == s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(s->root_name, "app");
    CHECK_STR(s->root_version, "0.9");
    CHECK_STR(s->root_license, "MIT");
    CHECK(s->manifest && s->manifest_digest && strlen(s->manifest_digest) == 40);
    const sb_pkg *rq = pkg_named(s, "requests"), *py = pkg_named(s, "pyyaml"), *pt = pkg_named(s, "pytest"),
                 *id = pkg_named(s, "idna");
    CHECK(rq && py && pt && id);
    if (rq && py && pt && id) {
        CHECK_STR(prop_of(rq, "pixi:direct"), "true");
        CHECK_STR(prop_of(rq, "pixi:declared-in"), "default,test");
        CHECK_STR(prop_of(py, "pixi:declared-in"), "yaml");
        CHECK_STR(prop_of(pt, "pixi:declared-in"), "test");
        CHECK(NULL == prop_of(id, "pixi:direct"));
        CHECK(rq->scope == SB_SCOPE_REQUIRED);
        CHECK(py->scope == SB_SCOPE_OPTIONAL);
        CHECK(pt->scope == SB_SCOPE_DEVELOPMENT);
    }
    CHECK(s->ndeclared == 3);
    CHECK(s->declared_missing.n == 1 && !strcmp(s->declared_missing.v[0], "not-installed"));
    /* the query's name wins, and drops the manifest's version with it */
    o.root_name = "override";
    CHECK(sb_select(&s, a, lock, &o, &err) == SB_OK);
    CHECK_STR(s->root_name, "override");
    CHECK(NULL == s->root_version);
    sb_arena_destroy(a);
}

/* Found by the manifest fuzz target: an array where pixi expects a
 * dependency table (feature.<name> = [...], target = [...]) puts an array
 * index, which has no key, where the table's name is read. Not a
 * dependency, not a crash. */
TEST(core_manifest__array_where_a_table_is_expected)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_err_clear(&err);
    sb_manifest *m = read_m(a, "pixi.toml", "[feature]\nf = [{a = \"1\"}]\n[target]\nx = [{b = \"2\"}]\n", &err);
    CHECK(m != NULL);
    CHECK(m && m->ndeps == 0);
    sb_arena_destroy(a);
}

/* 3,000 pixi features all declaring one package, in one environment, and
 * one outside it: each declaration checked with one lookup (the indexed
 * environment agrees with sb_manifest_in_env), declared-in written once in
 * declaration order, the whole selection well inside a 5 s deadline. */
TEST(manifest_many_features_indexed_once)
{
    enum { NF = 3000 };
    size_t cap = (size_t)NF * 64 + 256;
    char *t = malloc(cap), *w = t;
    w += sprintf(w, "[workspace]\nname = 'app'\nchannels = []\nplatforms = ['linux-64']\n");
    for (int i = 0; i < NF; i++)
        w += sprintf(w, "[feature.f%d.pypi-dependencies]\nrequests = '*'\n", i);
    w += sprintf(w, "[feature.off.pypi-dependencies]\nrequests = '*'\n[environments]\ndefault = [");
    for (int i = 0; i < NF; i++)
        w += sprintf(w, "%s'f%d'", i ? ", " : "", i);
    w += sprintf(w, "]\n");
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_manifest *m = read_m(a, "pixi.toml", t, &err);
    CHECK(m != NULL && m->ndeps == NF + 1);
    sb_menv_index x;
    CHECK(m && sb_manifest_env_index(&x, m, NULL, a) == SB_OK);
    size_t agree = 0;
    for (size_t d = 0; m && d < m->ndeps; d++)
        agree += sb_manifest_env_has(&x, m->deps[d].feature) == sb_manifest_in_env(m, NULL, m->deps[d].feature);
    CHECK(m && agree == m->ndeps);
    CHECK(m && !sb_manifest_env_has(&x, "off") && sb_manifest_env_has(&x, "f17") && sb_manifest_env_has(&x, "default"));
    const char *req = "requests==2.31.0\n";
    sb_limits lim = SB_LIMITS_DEFAULT;
    sb_lock *lock = NULL;
    CHECK(sb_lock_read(&lock, a, "requirements.txt", req, strlen(req), "requirements.txt", &lim, &err) == SB_OK);
    sb_select_opts o = {0};
    o.manifest = m;
    o.deadline_ns = sb_deadline_now_ns() + 5000000000LL;
    sb_sbom *s = NULL;
    CHECK(m && lock && sb_select(&s, a, lock, &o, &err) == SB_OK);
    const sb_pkg *rq = s ? pkg_named(s, "requests") : NULL;
    const char *din = rq ? prop_of(rq, "pixi:declared-in") : NULL;
    CHECK(din && !strncmp(din, "f0,f1,f2,", 9) && strstr(din, ",f2999") && !strstr(din, "off"));
    CHECK(din && strlen(din) == 20 + 270 + 3600 + 10000 + 2999);
    sb_arena_destroy(a);
    free(t);
}
