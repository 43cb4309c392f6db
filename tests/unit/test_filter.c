/*
 * test_filter.c - the filters of spec 3 (core/filter.h): glob rules, kind
 * names, re-closing hand-built graphs (orphans dropped or kept, cycles,
 * indices remapped, reasons in model order), pixi:excluded in the writers,
 * and through a selection: enrichment sees only what the filter keeps.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/doc.h"
#include "../../core/filter.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"

#include <jansson.h>
#include <stdlib.h>

TEST(filter_glob_rules)
{
    CHECK(sb_glob_match("pytest", "pytest"));
    CHECK(!sb_glob_match("pytest", "pytest-cov"));
    CHECK(sb_glob_match("pytest*", "pytest-cov"));
    CHECK(sb_glob_match("pytest*", "pytest"));                      /* * matches nothing too */
    CHECK(sb_glob_match("PyTest*", "pytest_COV"));                  /* case folded */
    CHECK(sb_glob_match("typing_extensions", "typing-extensions")); /* _ = - */
    CHECK(sb_glob_match("typing-extensions", "Typing_Extensions"));
    CHECK(!sb_glob_match("typing-extensions", "typing.extensions")); /* only - and _ */
    CHECK(sb_glob_match("py?", "pyx"));
    CHECK(!sb_glob_match("py?", "py"));
    CHECK(!sb_glob_match("py?", "pyxy"));
    CHECK(sb_glob_match("*", "anything"));
    CHECK(sb_glob_match("*", ""));
    CHECK(!sb_glob_match("", "a"));
    CHECK(sb_glob_match("*-dev", "libfoo-dev"));
    CHECK(sb_glob_match("*_dev", "libfoo-dev"));
    CHECK(!sb_glob_match("*-dev", "libfoo-devel"));
    CHECK(sb_glob_match("a*b*c", "axxbyyc"));
    CHECK(!sb_glob_match("a*b*c", "axxbyy"));
    CHECK(sb_glob_match("a*b?c", "ab-bxc")); /* backtracks to the last * */
    CHECK(sb_glob_match("**x", "yyx"));
    CHECK(sb_glob_match("lib*", "lib"));
    CHECK(sb_glob_match("@types/*", "@types/node"));
    /* no exponential blow-up on many stars against a long miss */
    char name[4097];
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    CHECK(!sb_glob_match("*a*a*a*a*a*a*a*a*b", name));
}

/* The backtracking definition of a match, the oracle for the compiled one. */
static int fold_c(char c)
{
    return c == '_' ? '-' : (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static bool ref_match(const char *p, const char *t)
{
    if (!*p)
        return !*t;
    if (*p == '*')
        return ref_match(p + 1, t) || (*t && ref_match(p, t + 1));
    return *t && (*p == '?' || fold_c(*p) == fold_c(*t)) && ref_match(p + 1, t + 1);
}

/* Every pattern of up to 6 characters over a small alphabet, against
 * names of up to 7: the greedy segment matcher agrees with backtracking. */
TEST(filter_glob__agrees_with_backtracking)
{
    static const char pa[] = "ab*?_", ta[] = "abA-";
    unsigned seed = 12345, bad = 0, n = 0;
    for (int k = 0; k < 20000; k++) {
        char pat[8], name[9];
        size_t pl = (seed = seed * 1103515245u + 12345u) >> 16 & 7, tl = (seed = seed * 1103515245u + 12345u) >> 16 & 7;
        for (size_t i = 0; i < pl % 7; i++)
            pat[i] = pa[((seed = seed * 1103515245u + 12345u) >> 16) % 5];
        pat[pl % 7] = '\0';
        for (size_t i = 0; i < tl; i++)
            name[i] = ta[((seed = seed * 1103515245u + 12345u) >> 16) % 4];
        name[tl] = '\0';
        n++;
        if (sb_glob_match(pat, name) != ref_match(pat, name) && bad++ < 5)
            printf("  glob '%s' on '%s': %d\n", pat, name, sb_glob_match(pat, name));
    }
    CHECK(n == 20000 && bad == 0);
}

/* The match by dynamic programming (pattern prefix x name prefix), the
 * oracle for long runs where backtracking would take too long. */
static bool ref_dp(const char *p, const char *t)
{
    size_t pl = strlen(p), tl = strlen(t);
    unsigned char *m = calloc((pl + 1) * (tl + 1), 1);
    m[0] = 1;
    for (size_t i = 1; i <= pl; i++)
        for (size_t j = 0; j <= tl; j++) {
            unsigned char v = 0;
            if (p[i - 1] == '*')
                v = m[(i - 1) * (tl + 1) + j] || (j && m[i * (tl + 1) + j - 1]);
            else if (j && (p[i - 1] == '?' || fold_c(p[i - 1]) == fold_c(t[j - 1])))
                v = m[(i - 1) * (tl + 1) + j - 1];
            m[i * (tl + 1) + j] = v;
        }
    bool r = m[pl * (tl + 1) + tl];
    free(m);
    return r;
}

/* Runs with '?' either side of 64 characters (shift-and up to 64, each
 * start compared past it), against names of a's and b's: as the oracle. */
TEST(filter_glob__long_wild_runs_agree)
{
    unsigned seed = 777, bad = 0;
    for (int k = 0; k < 3000; k++) {
        char pat[80], name[150];
        size_t pl = 0, tl = 40 + ((seed = seed * 1103515245u + 12345u) >> 16) % 100;
        size_t run = 56 + ((seed = seed * 1103515245u + 12345u) >> 16) % 14; /* 56 .. 69 */
        if ((seed = seed * 1103515245u + 12345u) >> 16 & 1)
            pat[pl++] = '*';
        for (size_t i = 0; i < run; i++) {
            unsigned r = ((seed = seed * 1103515245u + 12345u) >> 16) % 16;
            pat[pl++] = r == 0 ? '?' : r == 1 ? 'b' : 'a';
        }
        if ((seed = seed * 1103515245u + 12345u) >> 16 & 1)
            pat[pl++] = '*';
        pat[pl] = '\0';
        for (size_t i = 0; i < tl; i++)
            name[i] = ((seed = seed * 1103515245u + 12345u) >> 16) % 12 ? 'a' : 'B';
        name[tl] = '\0';
        if (sb_glob_match(pat, name) != ref_dp(pat, name) && bad++ < 3)
            printf("  glob '%s' on '%s': %d\n", pat, name, sb_glob_match(pat, name));
    }
    CHECK(bad == 0);
    CHECK(sb_glob_match("*a?c*", "xxABCxx") && !sb_glob_match("*a?c*", "xxACxx"));
}

/* A 15 KB pattern against 15 KB names costs their lengths, not their
 * product: 200 names in well under the deadline a backtracking matcher
 * (n x m = 225M steps a name) would pass; a '?' segment past the deadline
 * stops with SB_ETIMEOUT. */
TEST(filter_glob__long_pattern_linear_and_deadline)
{
    enum { L = 15000 };
    char *pat = malloc(L + 4), *name = malloc(L + 8);
    pat[0] = '*';
    memset(pat + 1, 'a', L);
    memcpy(pat + 1 + L, "b*", 3);
    memset(name, 'a', L + 4);
    memcpy(name + L + 4, "-1", 3);
    sb_arena *a = sb_arena_new(0);
    sb_glob *g = sb_glob_compile(a, pat);
    CHECK(g != NULL);
    sb_err err;
    sb_err_clear(&err);
    sb_deadline dl = {sb_deadline_now_ns() + 5000000000LL, 0, "filtering"};
    int all = 0;
    for (int i = 0; g && i < 200; i++)
        all += sb_glob_run(g, name, &dl, &err);
    CHECK(all == 0 && err.code == SB_OK);
    name[L + 4] = 'b';
    CHECK(g && sb_glob_run(g, name, &dl, &err) == 1);
    /* a '?' segment: compared at each start, counted against the deadline */
    pat[1 + L / 2] = '?';
    sb_glob *q = sb_glob_compile(a, pat);
    name[L + 4] = '-';
    sb_deadline past = {sb_deadline_now_ns() - 1, 0, "filtering"};
    CHECK(q && sb_glob_run(q, name, &past, &err) == -1 && err.code == SB_ETIMEOUT);
    sb_arena_destroy(a);
    free(pat);
    free(name);
}

TEST(filter_kind_names)
{
    CHECK(sb_filter_kind_bit("conda") == 1u << SB_KIND_CONDA);
    CHECK(sb_filter_kind_bit("conda-source") == 1u << SB_KIND_CONDA_SOURCE);
    CHECK(sb_filter_kind_bit("pypi") == 1u << SB_KIND_PYPI);
    CHECK(sb_filter_kind_bit("npm") == 1u << SB_KIND_NPM);
    CHECK(sb_filter_kind_bit("pypi-source") == 1u << SB_FILTER_PYPI_SOURCE);
    CHECK(sb_filter_kind_bit("PyPI") == 0 && sb_filter_kind_bit("") == 0 && sb_filter_kind_bit(NULL) == 0);
    size_t n = 0;
    for (const char *const *k = sb_filter_kind_names(); *k; k++, n++)
        CHECK(sb_filter_kind_bit(*k) != 0);
    CHECK(n == SB_KIND_N + 1); /* every kind, and pypi-source */
    sb_filter f = {.keep_orphans = true};
    CHECK(!sb_filter_active(&f) && !sb_filter_active(NULL));
    f.required_only = true;
    CHECK(sb_filter_active(&f));
}

/* A hand-built document: names, kinds, scopes, edges (by index) and roots. */
typedef struct gspec {
    const char *name;
    sb_kind kind;
    sb_scope scope;
    int deps[4]; /* -1 ends */
} gspec;

static sb_sbom *build(sb_arena *a, const gspec *g, size_t n, const size_t *roots, size_t nroots)
{
    sb_sbom *s = sb_arena_calloc(a, 1, sizeof *s);
    s->root_name = "w";
    s->environment = "default";
    s->platform = "linux-64";
    s->pkgs = sb_arena_calloc(a, n, sizeof *s->pkgs);
    s->npkgs = n;
    for (size_t i = 0; i < n; i++) {
        sb_pkg *p = &s->pkgs[i];
        p->name = g[i].name;
        p->version = "1.0";
        p->kind = g[i].kind;
        p->scope = g[i].scope;
        p->purl = p->id = sb_arena_printf(a, "pkg:generic/%s@1.0", g[i].name);
        p->deps = sb_arena_alloc(a, 4 * sizeof *p->deps);
        for (int d = 0; d < 4 && g[i].deps[d] >= 0; d++)
            p->deps[p->ndeps++] = (size_t)g[i].deps[d];
    }
    s->root_deps = sb_arena_alloc(a, (n + 1) * sizeof *s->root_deps);
    memcpy(s->root_deps, roots, nroots * sizeof *roots);
    s->nroot = nroots;
    return s;
}

static const char *names(sb_arena *a, const sb_sbom *s)
{
    const char *o = "";
    for (size_t i = 0; i < s->npkgs; i++)
        o = sb_arena_printf(a, "%s%s%s", o, i ? " " : "", s->pkgs[i].name);
    return o;
}

/* "a>b,c" per package with edges, and "root>x,y" first */
static const char *edges(sb_arena *a, const sb_sbom *s)
{
    const char *o = "root>";
    for (size_t k = 0; k < s->nroot; k++)
        o = sb_arena_printf(a, "%s%s%s", o, k ? "," : "", s->pkgs[s->root_deps[k]].name);
    for (size_t i = 0; i < s->npkgs; i++) {
        if (!s->pkgs[i].ndeps)
            continue;
        o = sb_arena_printf(a, "%s %s>", o, s->pkgs[i].name);
        for (size_t d = 0; d < s->pkgs[i].ndeps; d++)
            o = sb_arena_printf(a, "%s%s%s", o, d ? "," : "", s->pkgs[s->pkgs[i].deps[d]].name);
    }
    return o;
}

/* app -> lib -> {zlib, shared}; six alone; tool (development) -> {helper
 * (development), shared}. Roots: app, six, tool. */
static const gspec graph[] = {
    {"app", SB_KIND_PYPI, SB_SCOPE_REQUIRED, {1, -1}},        {"lib", SB_KIND_PYPI, SB_SCOPE_REQUIRED, {2, 6, -1}},
    {"zlib", SB_KIND_CONDA, SB_SCOPE_REQUIRED, {-1}},         {"six", SB_KIND_PYPI, SB_SCOPE_REQUIRED, {-1}},
    {"tool", SB_KIND_PYPI, SB_SCOPE_DEVELOPMENT, {5, 6, -1}}, {"helper", SB_KIND_PYPI, SB_SCOPE_DEVELOPMENT, {-1}},
    {"shared", SB_KIND_CONDA, SB_SCOPE_REQUIRED, {-1}},
};
static const size_t graph_roots[] = {0, 3, 4};
#define GRAPH build(a, graph, 7, graph_roots, 3)

TEST(filter_scope_required)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = GRAPH;
    sb_filter f = {.required_only = true};
    size_t *kept = NULL;
    CHECK(sb_filter_apply(s, a, &f, &kept, NULL, NULL) == SB_OK);
    CHECK_STR(names(a, s), "app lib zlib six shared");
    CHECK_STR(edges(a, s), "root>app,six app>lib lib>zlib,shared"); /* shared stays: lib needs it */
    CHECK(kept && kept[0] == 0 && kept[3] == 3 && kept[4] == 6);
    CHECK(s->filter == &f);
    CHECK_STR(sb_filter_excluded_text(s, a), "tool@1.0 (scope=development), helper@1.0 (scope=development)");
    sb_arena_destroy(a);
}

TEST(filter_orphans_dropped)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = GRAPH;
    const char *pat[] = {"LIB"};
    sb_filter f = {.exclude = pat, .nexclude = 1};
    CHECK(sb_filter_apply(s, a, &f, NULL, NULL, NULL) == SB_OK);
    /* zlib was only lib's; shared is still tool's */
    CHECK_STR(names(a, s), "app six tool helper shared");
    CHECK_STR(edges(a, s), "root>app,six,tool tool>helper,shared");
    CHECK_STR(sb_filter_excluded_text(s, a), "lib@1.0 (exclude=LIB), zlib@1.0 (orphan)");
    /* excluding every root empties the document */
    s = GRAPH;
    sb_filter k = {.kinds = 1u << SB_KIND_PYPI};
    CHECK(sb_filter_apply(s, a, &k, NULL, NULL, NULL) == SB_OK);
    CHECK(s->npkgs == 0 && s->nroot == 0 && s->nexcluded == 7);
    CHECK_STR(s->excluded[2].reason, "orphan");
    CHECK_STR(s->excluded[0].reason, "exclude-kind=pypi");
    sb_arena_destroy(a);
}

TEST(filter_orphans_kept)
{
    sb_arena *a = sb_arena_new(0);
    sb_sbom *s = GRAPH;
    const char *pat[] = {"app", "t??l"};
    sb_filter f = {.exclude = pat, .nexclude = 2, .keep_orphans = true};
    CHECK(sb_filter_apply(s, a, &f, NULL, NULL, NULL) == SB_OK);
    /* lib and helper lost their only dependents: they become root edges */
    CHECK_STR(names(a, s), "lib zlib six helper shared");
    CHECK_STR(edges(a, s), "root>lib,six,helper lib>zlib,shared");
    CHECK_STR(sb_filter_excluded_text(s, a), "app@1.0 (exclude=app), tool@1.0 (exclude=t??l)");
    /* the same kinds as before with orphans kept: the conda packages stay, as roots */
    s = GRAPH;
    sb_filter k = {.kinds = 1u << SB_KIND_PYPI, .keep_orphans = true};
    CHECK(sb_filter_apply(s, a, &k, NULL, NULL, NULL) == SB_OK);
    CHECK_STR(edges(a, s), "root>zlib,shared");
    sb_arena_destroy(a);
}

TEST(filter_include_and_cycles)
{
    sb_arena *a = sb_arena_new(0);
    /* r -> x -> y -> x (a cycle below the root) */
    static const gspec cyc[] = {
        {"r", SB_KIND_CONDA, SB_SCOPE_NONE, {1, -1}},
        {"x", SB_KIND_CONDA, SB_SCOPE_NONE, {2, -1}},
        {"y", SB_KIND_CONDA, SB_SCOPE_NONE, {1, -1}},
    };
    static const size_t r0[] = {0};
    sb_sbom *s = build(a, cyc, 3, r0, 1);
    const char *inc[] = {"x", "Y"};
    sb_filter f = {.include = inc, .ninclude = 2, .keep_orphans = true};
    CHECK(sb_filter_apply(s, a, &f, NULL, NULL, NULL) == SB_OK);
    CHECK_STR(edges(a, s), "root>x x>y y>x"); /* one of the cycle becomes the root edge */
    CHECK_STR(sb_filter_excluded_text(s, a), "r@1.0 (include)");
    s = build(a, cyc, 3, r0, 1);
    f.keep_orphans = false;
    CHECK(sb_filter_apply(s, a, &f, NULL, NULL, NULL) == SB_OK);
    CHECK(s->npkgs == 0);
    CHECK_STR(sb_filter_excluded_text(s, a), "r@1.0 (include), x@1.0 (orphan), y@1.0 (orphan)");
    /* scope NONE is never dropped by scope=required; an inactive filter changes nothing */
    s = build(a, cyc, 3, r0, 1);
    sb_filter req = {.required_only = true};
    size_t *kept = NULL;
    CHECK(sb_filter_apply(s, a, &req, &kept, NULL, NULL) == SB_OK && s->npkgs == 3 && s->nexcluded == 0 && kept &&
          kept[2] == 2);
    CHECK(sb_filter_excluded_text(s, a) == NULL);
    sb_filter none = {.keep_orphans = true};
    s = build(a, cyc, 3, r0, 1);
    CHECK(sb_filter_apply(s, a, &none, &kept, NULL, NULL) == SB_OK && s->npkgs == 3 && s->filter == NULL &&
          kept == NULL);
    sb_arena_destroy(a);
}

TEST(filter_pypi_source_kind)
{
    sb_arena *a = sb_arena_new(0);
    static const gspec two[] = {
        {"sdist-pkg", SB_KIND_PYPI, SB_SCOPE_NONE, {-1}},
        {"wheel-pkg", SB_KIND_PYPI, SB_SCOPE_NONE, {-1}},
    };
    static const size_t r[] = {0, 1};
    sb_sbom *s = build(a, two, 2, r, 2);
    static sb_prop src = {"pixi:source", "true"};
    s->pkgs[0].props = &src;
    s->pkgs[0].nprops = 1;
    sb_filter f = {.kinds = sb_filter_kind_bit("pypi-source")};
    CHECK(sb_filter_apply(s, a, &f, NULL, NULL, NULL) == SB_OK);
    CHECK_STR(names(a, s), "wheel-pkg");
    CHECK_STR(sb_filter_excluded_text(s, a), "sdist-pkg@1.0 (exclude-kind=pypi-source)");
    sb_arena_destroy(a);
}

/* ---- through a selection ---- */

static const char uv_dev[] =
    "version = 1\n"
    "requires-python = \">=3.10\"\n"
    "[[package]]\n"
    "name = \"app\"\n"
    "version = \"0.1.0\"\n"
    "source = { editable = \".\" }\n"
    "dependencies = [{ name = \"requests\" }]\n"
    "[package.dev-dependencies]\n"
    "dev = [{ name = \"pytest\" }]\n"
    "[[package]]\n"
    "name = \"requests\"\n"
    "version = \"2.32.3\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n"
    "dependencies = [{ name = \"idna\" }]\n"
    "[[package]]\n"
    "name = \"idna\"\n"
    "version = \"3.10\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n"
    "[[package]]\n"
    "name = \"pytest\"\n"
    "version = \"8.3.4\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n"
    "dependencies = [{ name = \"iniconfig\" }, { name = \"idna\" }]\n"
    "[[package]]\n"
    "name = \"iniconfig\"\n"
    "version = \"2.0.0\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n";

/* A lookup that records what it was asked and fills a license. */
typedef struct asked {
    const char *names[16];
    size_t n;
} asked;

static sb_code fake_lookup(void *ctx, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err)
{
    (void)err;
    asked *k = ctx;
    for (size_t i = 0; i < n; i++) {
        if (k->n < 16)
            k->names[k->n++] = pkgs[i].name;
        pkgs[i].license = sb_arena_strdup(a, "MIT");
    }
    st->asked = st->filled = n;
    return SB_OK;
}

static char *write_doc(sb_arena *a, const sb_doc_ops *ops, const sb_sbom *s)
{
    sb_doc_opts o = {.timestamp = 0, .pretty = false};
    sb_doc *d = NULL;
    sb_err err;
    if (sb_doc_new(&d, a, ops, s, &o, &err) != SB_OK)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while (buf && (got = sb_doc_produce(d, buf + len, cap - len - 1)) > 0) {
        len += (size_t)got;
        if (cap - len < 1024)
            buf = realloc(buf, cap *= 2);
    }
    if (buf)
        buf[len] = '\0';
    sb_doc_free(d);
    return buf;
}

TEST(filter_selection_before_lookups)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "uv.lock", uv_dev, strlen(uv_dev), NULL, NULL, &err) == SB_OK);
    if (NULL == l) {
        sb_arena_destroy(a);
        return;
    }
    asked k = {0};
    sb_filter f = {.required_only = true};
    sb_select_opts o = {.filter = &f, .lookup = fake_lookup, .lookup_ctx = &k};
    sb_sbom *s = NULL;
    CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    if (NULL == s) {
        sb_arena_destroy(a);
        return;
    }
    CHECK_STR(names(a, s), "idna requests");
    CHECK(k.n == 2); /* pytest and iniconfig were never looked up */
    for (size_t i = 0; i < k.n; i++)
        CHECK(strcmp(k.names[i], "pytest") && strcmp(k.names[i], "iniconfig"));
    CHECK(s->pkgs[0].license && s->pkgs[0].lic && s->pkgs[0].lic->kind != SB_LIC_NONE); /* enriched after the filter */
    CHECK_STR(edges(a, s), "root>requests requests>idna");
    CHECK_STR(sb_filter_excluded_text(s, a), "iniconfig@2.0.0 (scope=development), pytest@8.3.4 (scope=development)");
    /* the ids of what is kept are those of the unfiltered document */
    sb_select_opts plain = {0};
    sb_sbom *u = NULL;
    CHECK(sb_select(&u, a, l, &plain, &err) == SB_OK && u && u->npkgs == 4);
    CHECK_STR(s->pkgs[1].id, "pkg:pypi/requests@2.32.3");
    /* writers: CycloneDX metadata property, SPDX root comment line; serials differ */
    char *cf = write_doc(a, &sb_doc_cyclonedx_16, s), *cu = write_doc(a, &sb_doc_cyclonedx_16, u);
    json_t *jf = cf ? json_loads(cf, 0, NULL) : NULL, *ju = cu ? json_loads(cu, 0, NULL) : NULL;
    CHECK(jf && ju);
    json_t *props = json_object_get(json_object_get(jf, "metadata"), "properties");
    int found = 0;
    for (size_t i = 0; i < json_array_size(props); i++) {
        json_t *p = json_array_get(props, i);
        if (!strcmp(json_string_value(json_object_get(p, "name")), "pixi:excluded"))
            found = !strcmp(json_string_value(json_object_get(p, "value")), sb_filter_excluded_text(s, a));
    }
    CHECK(found);
    CHECK(cu && !strstr(cu, "pixi:excluded"));
    CHECK(jf && ju &&
          strcmp(json_string_value(json_object_get(jf, "serialNumber")),
                 json_string_value(json_object_get(ju, "serialNumber"))));
    json_decref(jf);
    json_decref(ju);
    free(cf);
    free(cu);
    char *sp = write_doc(a, &sb_doc_spdx_23, s);
    CHECK(sp && strstr(sp, "\"comment\":\"pixi:excluded=iniconfig@2.0.0 (scope=development), pytest@8.3.4"));
    free(sp);
    char *s3 = write_doc(a, &sb_doc_spdx_301, s);
    CHECK(s3 && strstr(s3, "pixi:excluded=iniconfig@2.0.0 (scope=development)"));
    free(s3);
    sb_arena_destroy(a);
}
