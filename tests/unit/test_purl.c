/*
 * test_purl.c - the official purl-spec vectors (spec cases and the conda,
 * pypi, generic and github type cases), each counted as one case, plus the
 * shapes sbomd builds itself.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/purl.h"

#include <jansson.h>
#include <stdlib.h>

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int same(const char *a, const char *b)
{
    if (!a || !b)
        return !a && !b;
    return 0 == strcmp(a, b);
}

/* components from a vector's JSON object */
static void from_json(sb_purl *p, sb_arena *a, json_t *o)
{
    memset(p, 0, sizeof *p);
    p->type = jstr(o, "type");
    p->ns = jstr(o, "namespace");
    p->name = jstr(o, "name");
    p->version = jstr(o, "version");
    p->subpath = jstr(o, "subpath");
    json_t *q = json_object_get(o, "qualifiers");
    if (json_is_object(q)) {
        p->quals = sb_arena_calloc(a, json_object_size(q) + 1, sizeof *p->quals);
        const char *k;
        json_t *v;
        json_object_foreach(q, k, v) {
            p->quals[p->nquals].name = sb_arena_strdup(a, k);
            p->quals[p->nquals].value = json_is_string(v) ? json_string_value(v) : NULL;
            p->nquals++;
        }
    }
}

static int components_equal(const sb_purl *got, const sb_purl *want)
{
    if (!same(got->type, want->type) || !same(got->ns, want->ns) || !same(got->name, want->name) ||
        !same(got->version, want->version) || !same(got->subpath, want->subpath))
        return 0;
    size_t wn = 0;
    for (size_t i = 0; i < want->nquals; i++)
        if (want->quals[i].value && want->quals[i].value[0])
            wn++;
    if (got->nquals != wn)
        return 0;
    for (size_t i = 0; i < want->nquals; i++) {
        if (!want->quals[i].value || !want->quals[i].value[0])
            continue;
        int found = 0;
        for (size_t j = 0; j < got->nquals; j++)
            if (!strcmp(got->quals[j].name, want->quals[i].name) && same(got->quals[j].value, want->quals[i].value))
                found = 1;
        if (!found)
            return 0;
    }
    return 1;
}

static void run_file(const char *rel, int *total)
{
    json_error_t je;
    json_t *root = json_load_file(sb_test_shared(rel), 0, &je);
    if (NULL == root) {
        sb_test_subcase(rel, 0, "cannot load vectors (is SB_SHARED right?)");
        return;
    }
    json_t *tests = json_object_get(root, "tests");
    size_t i;
    json_t *t;
    json_array_foreach(tests, i, t) {
        sb_arena *a = sb_arena_new(0);
        const char *type = jstr(t, "test_type");
        int expect_fail = json_is_true(json_object_get(t, "expected_failure"));
        json_t *in = json_object_get(t, "input");
        json_t *want = json_object_get(t, "expected_output");
        char name[300];
        snprintf(name, sizeof name, "purl %s[%zu] %s %.120s", rel, i, type,
                 json_is_string(in) ? json_string_value(in) : jstr(t, "description"));
        int ok = 0;
        char why[400] = "";
        if (!strcmp(type, "build")) {
            sb_purl p;
            from_json(&p, a, in);
            char *out = NULL;
            sb_code rc = sb_purl_build(&out, a, &p, NULL);
            if (expect_fail)
                ok = rc != SB_OK;
            else
                ok = rc == SB_OK && same(out, json_string_value(want));
            snprintf(why, sizeof why, "built '%s'", out ? out : "(error)");
        } else if (!strcmp(type, "parse")) {
            sb_purl got;
            sb_code rc = sb_purl_parse(&got, a, json_string_value(in), NULL);
            if (expect_fail) {
                ok = rc != SB_OK;
            } else {
                sb_purl w;
                from_json(&w, a, want);
                ok = rc == SB_OK && components_equal(&got, &w);
            }
            snprintf(why, sizeof why, "parse rc=%d", rc);
        } else { /* validate / roundtrip: parse then build canonical */
            sb_purl got;
            char *out = NULL;
            sb_code rc = sb_purl_parse(&got, a, json_string_value(in), NULL);
            if (rc == SB_OK)
                rc = sb_purl_build(&out, a, &got, NULL);
            if (expect_fail)
                ok = rc != SB_OK;
            else
                ok = rc == SB_OK && same(out, json_string_value(want));
            snprintf(why, sizeof why, "canonical '%s'", out ? out : "(error)");
        }
        sb_test_subcase(name, ok, why);
        (*total)++;
        sb_arena_destroy(a);
    }
    json_decref(root);
}

TEST(core_purl__official_vectors)
{
    int total = 0;
    run_file("data/purl-spec/tests/spec/specification-test.json", &total);
    run_file("data/purl-spec/tests/types/conda-test.json", &total);
    run_file("data/purl-spec/tests/types/pypi-test.json", &total);
    run_file("data/purl-spec/tests/types/generic-test.json", &total);
    run_file("data/purl-spec/tests/types/github-test.json", &total);
    run_file("data/purl-spec/tests/types/npm-test.json", &total);
    CHECK(total >= 50);
    printf("  purl vectors run: %d\n", total);
}

TEST(core_purl__sbomd_shapes)
{
    sb_arena *a = sb_arena_new(0);
    CHECK_STR(sb_purl_conda(a, "zlib", "1.3.1", "h1", "conda-forge", "linux-64", "conda"),
              "pkg:conda/zlib@1.3.1?build=h1&channel=conda-forge&subdir=linux-64&type=conda");
    CHECK_STR(sb_purl_conda(a, "mylib", NULL, NULL, NULL, NULL, NULL), "pkg:conda/mylib");
    sb_prop q = {"vcs_url", "git+https://example.org/r.git@abc"};
    sb_purl p = {"pypi", NULL, "Typing_Extensions", "4.0", &q, 1, NULL};
    char *out = NULL;
    CHECK(sb_purl_build(&out, a, &p, NULL) == SB_OK);
    CHECK_STR(out, "pkg:pypi/typing-extensions@4.0?vcs_url=git%2Bhttps:%2F%2Fexample.org%2Fr.git%40abc");
    sb_purl e = {"pypi", NULL, "", "1", NULL, 0, NULL};
    CHECK(sb_purl_build(&out, a, &e, NULL) == SB_EINVAL);
    sb_purl n = {"npm", "@scope", "pkg", "1.0", NULL, 0, NULL};
    CHECK(sb_purl_build(&out, a, &n, NULL) == SB_OK);
    CHECK_STR(out, "pkg:npm/%40scope/pkg@1.0");
    sb_arena_destroy(a);
}
