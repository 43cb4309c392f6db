/*
 * test_quality.c - the quality profiles' element table, driven by hand-built
 * models: a model with every element passes every profile; the same model
 * missing one element fails exactly that element (and only the profiles
 * that require it), with the reason the rule gives; the gate lists exactly
 * the failing elements; the report renders in all four outputs.
 */
#include "test.h"
#include "../../core/gate.h"
#include "../../core/quality.h"
#include "../../core/report.h"

#include <jansson.h>
#include <stdlib.h>

static sb_prop bsi_props[] = {{"bsi:archive", "yes"}, {"bsi:executable", "no"}, {"bsi:structured", "yes"}};
static sb_author full_author = {true, "Jane Doe", "jane@example.org"};

static void full_pkg(sb_pkg *p, const char *name)
{
    memset(p, 0, sizeof *p);
    p->kind = SB_KIND_PYPI;
    p->name = name;
    p->version = "1.0";
    p->purl = "pkg:pypi/x@1.0";
    p->id = p->purl;
    p->supplier_name = "PyPI";
    p->supplier_url = "https://pypi.org";
    p->sha256 = "aa";
    static const unsigned char sha512[64] = {0xbb};
    p->sha512b = sha512;
    p->license = "MIT";
    p->file_name = "x-1.0-py3-none-any.whl";
    p->props = bsi_props;
    p->nprops = 3;
}

typedef struct model {
    sb_sbom s;
    sb_pkg pkgs[2];
} model;

static void full_model(model *m)
{
    memset(m, 0, sizeof *m);
    full_pkg(&m->pkgs[0], "alpha");
    full_pkg(&m->pkgs[1], "beta");
    m->s.root_name = "ws";
    m->s.environment = "default";
    m->s.platform = "linux-64";
    m->s.input_kind = "uv.lock";
    m->s.pkgs = m->pkgs;
    m->s.npkgs = 2;
    m->s.author = &full_author;
}

static sb_author no_email = {false, "ACME", NULL};

/* Each case removes one element from the second package (or the document). */
typedef struct qcase {
    const char *element;
    sb_quality_reason why;
    void (*drop)(model *m);
} qcase;

static void drop_author(model *m)
{
    m->s.author = NULL;
}
static void drop_author_email(model *m)
{
    m->s.author = &no_email;
}
static void drop_name(model *m)
{
    m->pkgs[1].name = "";
}
static void drop_version(model *m)
{
    m->pkgs[1].version = NULL;
}
static void drop_purl(model *m)
{
    m->pkgs[1].purl = NULL;
}
static void drop_supplier(model *m)
{
    m->pkgs[1].supplier_name = NULL, m->pkgs[1].supplier_url = NULL;
}
static void drop_supplier_url(model *m)
{
    m->pkgs[1].supplier_url = NULL;
}
static void drop_hashes(model *m)
{
    m->pkgs[1].sha256 = NULL, m->pkgs[1].sha512b = NULL;
}
static void drop_sha512(model *m)
{
    m->pkgs[1].sha512b = NULL;
}
static void drop_license(model *m)
{
    m->pkgs[1].license = NULL;
} /* lookups off: a PyPI release */
static void drop_deps(model *m)
{
    m->s.deps_unknown = true;
}
static void drop_file(model *m)
{
    m->pkgs[1].file_name = NULL;
}
static void drop_props(model *m)
{
    m->pkgs[1].nprops = 1;
}

static const qcase cases[] = {
    {"sbom-author-contact", SB_QR_NOT_GIVEN, drop_author_email},
    {"component-name", SB_QR_NOT_IN_INPUT, drop_name},
    {"component-version", SB_QR_NOT_IN_INPUT, drop_version},
    {"software-identifiers", SB_QR_NOT_IN_INPUT, drop_purl},
    {"component-creator-contact", SB_QR_NOT_IN_INPUT, drop_supplier_url},
    {"component-hash-sha512", SB_QR_NOT_IN_INPUT, drop_sha512},
    {"license", SB_QR_LOOKUPS_OFF, drop_license},
    {"filename", SB_QR_NOT_IN_INPUT, drop_file},
    {"bsi-properties", SB_QR_NOT_IN_INPUT, drop_props},
};

/* elements whose drop takes others with it, by what they mean */
static const struct {
    const char *element;
    const char *also[3];
    void (*drop)(model *m);
    sb_quality_reason why;
} coupled[] = {
    /* no supplier: no supplier with a URL either */
    {"software-producer", {"component-creator-contact", NULL}, drop_supplier, SB_QR_NOT_IN_INPUT},
    /* no hash at all: no SHA-512 either */
    {"component-hash", {"component-hash-sha512", NULL}, drop_hashes, SB_QR_NOT_IN_INPUT},
    /* no author: no author's e-mail */
    {"sbom-author", {"sbom-author-contact", NULL}, drop_author, SB_QR_NOT_GIVEN},
    {"dependency-relationship", {NULL}, drop_deps, SB_QR_NOT_IN_INPUT},
};

static const sb_quality_result *find(const sb_quality *q, const char *id)
{
    for (size_t i = 0; i < q->n; i++)
        if (!strcmp(q->res[i].el->id, id))
            return &q->res[i];
    return NULL;
}

static int in_list(const char *id, const char *const *also)
{
    for (size_t k = 0; also && also[k]; k++)
        if (!strcmp(also[k], id))
            return 1;
    return 0;
}

/* exactly `id` (and `also`) fail; profiles fail exactly when they require one of them */
static void expect_only(const char *label, void (*drop)(model *), const char *id, const char *const *also,
                        sb_quality_reason why)
{
    sb_arena *a = sb_arena_new(0);
    model m;
    full_model(&m);
    drop(&m);
    sb_quality q;
    int ok = sb_quality_score(&q, a, &m.s) == SB_OK;
    const sb_quality_result *r = ok ? find(&q, id) : NULL;
    /* one package lacks it (all of them for the document-wide dependency data) */
    size_t lack = drop == drop_deps ? 2 : 1;
    ok = ok && r && r->have + lack == r->total && r->nfirst == lack && r->first_why[0] == why &&
         r->by_reason[why] == lack;
    for (size_t i = 0; ok && i < q.n; i++) {
        const sb_quality_result *o = &q.res[i];
        int should_fail = !strcmp(o->el->id, id) || in_list(o->el->id, also);
        ok = (o->have < o->total) == should_fail;
    }
    for (int p = 0; ok && p < SB_QP_N; p++) {
        int required = 0;
        for (size_t i = 0; i < q.n; i++)
            required |= q.res[i].el->source[p] && (q.res[i].have < q.res[i].total);
        ok = q.pass[p] == !required;
        sb_gate g;
        sb_gate_init(&g, "quality-failed", "t");
        ok = ok && sb_quality_gate(&g, a, &m.s, &q, (sb_quality_profile)p) == SB_OK;
        size_t want = 0;
        for (size_t i = 0; i < q.n; i++)
            want += q.res[i].el->source[p] && q.res[i].have < q.res[i].total;
        ok = ok && g.n == want;
        for (size_t k = 0; ok && k < g.n; k++)
            ok = strstr(g.items[k].rule, sb_quality_profile_name((sb_quality_profile)p)) == g.items[k].rule;
    }
    sb_test_subcase(label, ok, "the model lacking one element is not judged failing for exactly that element");
    sb_arena_destroy(a);
}

TEST(quality_full_model_passes_every_profile)
{
    sb_arena *a = sb_arena_new(0);
    model m;
    full_model(&m);
    sb_quality q;
    CHECK(sb_quality_score(&q, a, &m.s) == SB_OK);
    for (size_t i = 0; i < q.n; i++)
        sb_test_subcase(q.res[i].el->id, q.res[i].have == q.res[i].total, "met by the full model");
    for (int p = 0; p < SB_QP_N; p++)
        CHECK(q.pass[p]);
    sb_arena_destroy(a);
}

TEST(quality_one_element_missing)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_only(cases[i].element, cases[i].drop, cases[i].element, NULL, cases[i].why);
    for (size_t i = 0; i < sizeof coupled / sizeof coupled[0]; i++)
        expect_only(coupled[i].element, coupled[i].drop, coupled[i].element, coupled[i].also, coupled[i].why);
}

TEST(quality_every_profile_element_is_covered)
{
    /* every element of the table is exercised by a case above */
    size_t n;
    const sb_quality_element *els = sb_quality_elements(&n);
    for (size_t e = 0; e < n; e++) {
        int hit = 0;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            hit |= !strcmp(cases[i].element, els[e].id);
        for (size_t i = 0; i < sizeof coupled / sizeof coupled[0]; i++)
            hit |= !strcmp(coupled[i].element, els[e].id);
        int always = !strcmp(els[e].id, "timestamp") || !strcmp(els[e].id, "tool-name") ||
                     !strcmp(els[e].id, "generation-context");
        sb_test_subcase(els[e].id, hit || always, "no table case drops this element");
        int any = 0;
        for (int p = 0; p < SB_QP_N; p++)
            any |= els[e].source[p] != NULL;
        CHECK(any);
    }
}

TEST(quality_license_reasons)
{
    sb_arena *a = sb_arena_new(0);
    model m;
    full_model(&m);
    m.pkgs[0].license = NULL;
    m.pkgs[0].lookup = SB_LOOKUP_FAILED;
    m.pkgs[1].license = NULL;
    m.pkgs[1].kind = SB_KIND_NPM; /* no lookup can supply it */
    sb_quality q;
    CHECK(sb_quality_score(&q, a, &m.s) == SB_OK);
    const sb_quality_result *r = find(&q, "license");
    CHECK(r && r->have == 0 && r->by_reason[SB_QR_LOOKUP_FAILED] == 1 && r->by_reason[SB_QR_NOT_IN_INPUT] == 1);
    m.pkgs[0].lookup = SB_LOOKUP_NOT_MADE;
    CHECK(sb_quality_score(&q, a, &m.s) == SB_OK);
    r = find(&q, "license");
    CHECK(r && r->by_reason[SB_QR_LOOKUPS_OFF] == 1);
    int pc;
    sb_quality_profile qp;
    CHECK(sb_quality_profile_find("bsi-tr-03183-2", &qp) == 0 && qp == SB_QP_BSI);
    pc = sb_quality_profile_find("bsi", &qp);
    CHECK(pc == -1);
    sb_arena_destroy(a);
}

static char *render(const sb_doc_ops *ops, const sb_sbom *s, unsigned profiles)
{
    sb_arena *a = sb_arena_new(0);
    sb_doc_opts o = {0};
    o.quality_profiles = profiles;
    sb_doc *d = NULL;
    sb_err err;
    sb_err_clear(&err);
    char *out = NULL;
    size_t n = 0;
    if (sb_doc_new(&d, a, ops, s, &o, &err) == SB_OK) {
        char buf[7]; /* small: rows span several produce calls */
        ssize_t k;
        while ((k = sb_doc_produce(d, buf, sizeof buf)) > 0) {
            out = realloc(out, n + (size_t)k + 1);
            memcpy(out + n, buf, (size_t)k);
            n += (size_t)k;
        }
        sb_doc_free(d);
    }
    if (out)
        out[n] = '\0';
    sb_arena_destroy(a);
    return out;
}

TEST(quality_report_outputs)
{
    model m;
    full_model(&m);
    m.pkgs[1].sha512b = NULL;
    char *j = render(sb_report_find("quality", SB_REPORT_JSON), &m.s, 1u << SB_QP_BSI);
    json_error_t je;
    json_t *doc = j ? json_loads(j, 0, &je) : NULL;
    CHECK(doc != NULL);
    json_t *prof = json_array_get(json_object_get(json_object_get(doc, "summary"), "profiles"), 0);
    CHECK_STR(json_string_value(json_object_get(prof, "profile")), "bsi-tr-03183-2");
    CHECK_STR(json_string_value(json_object_get(prof, "verdict")), "fail");
    CHECK_STR(json_string_value(json_array_get(json_object_get(prof, "failing"), 0)), "component-hash-sha512");
    CHECK(json_array_size(json_object_get(json_object_get(doc, "summary"), "profiles")) == 1);
    json_decref(doc);
    free(j);
    char *t = render(sb_report_find("quality", SB_REPORT_TEXT), &m.s, 0);
    CHECK(t && strstr(t, "Verdict bsi-tr-03183-2: fail (lacking: component-hash-sha512)") &&
          strstr(t, "Verdict cisa-2026: pass") && strstr(t, "Verdict ntia-2021: pass"));
    free(t);
    char *md = render(sb_report_find("quality", SB_REPORT_MARKDOWN), &m.s, 0);
    CHECK(md && strstr(md, "| Profile | Element |") && strstr(md, "|---|") && strstr(md, "- ntia-2021: pass"));
    free(md);
    char *csv = render(sb_report_find("quality", SB_REPORT_CSV), &m.s, 0);
    /* the JSON row's keys; reasons and first_lacking joined with ';' */
    CHECK(csv && !strncmp(csv, "environment,platform,profile,element,title,section,", 51) && strstr(csv, "\r\n") &&
          !strstr(csv, "Verdict"));
    CHECK(csv && strstr(csv, "bsi-tr-03183-2,component-hash-sha512,") &&
          strstr(csv, ",not in the lockfile=1,beta 1.0,false\r\n"));
    free(csv);
}

TEST(quality_author_parse)
{
    sb_arena *a = sb_arena_new(0);
    sb_author au;
    const char *why;
    CHECK(sb_author_parse(&au, a, "Person: Jane Doe (jane@example.org)", &why) == 0 && au.person &&
          !strcmp(au.name, "Jane Doe") && !strcmp(au.email, "jane@example.org"));
    CHECK(sb_author_parse(&au, a, "ACME", &why) == 0 && !au.person && !strcmp(au.name, "ACME") && !au.email);
    CHECK(sb_author_parse(&au, a, "Organization: ACME", &why) == 0 && !au.person);
    CHECK(sb_author_parse(&au, a, "Person: ", &why) == -1);
    CHECK(sb_author_parse(&au, a, "Jane (not-an-email)", &why) == -1);
    CHECK(sb_author_parse(&au, a, "Jane (a@b) x", &why) == -1);
    CHECK(sb_author_parse(&au, a, "Ja\nne", &why) == -1);
    sb_arena_destroy(a);
}
