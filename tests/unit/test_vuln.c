/*
 * test_vuln.c - CVSS v3 base scores against published scores, OSV record
 * and querybatch parsing, twin merging and the PyPI mapping.
 */
#include "test.h"
#include "../../core/doc.h"
#include "../../core/pypimap.h"
#include "../../core/exploit.h"
#include "../../core/gate.h"
#include "../../core/vex.h"
#include "../../core/vuln.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vectors with the base scores NVD / FIRST's calculator publish for them. */
static const struct {
    const char *vector;
    double score;
} cvss[] = {
    {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8},
    {"CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N", 5.4},
    {"CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:N/A:N", 8.6},
    {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", 10.0},
    {"CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", 6.1},
    {"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 7.8},
    {"CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N", 5.9},
    {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", 7.5},
    {"CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 8.8},
    {"CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N", 0.0},
    {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N", 5.3},
    {"CVSS:3.1/AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", 7.8},
    {"CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:H/A:H", 7.5},
    {"CVSS:3.1/AV:A/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 8.8},
    {"CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H", 7.2},
    {"CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N", 6.4},
    {"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H", 8.8},
    {"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H", 5.5},
    {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", 7.5},
    /* temporal metrics and another metric order leave the base score alone */
    {"CVSS:3.1/S:U/AV:N/AC:L/PR:N/UI:N/C:H/I:H/A:H/E:P/RL:O", 9.8},
};

TEST(vuln_cvss3_base_scores)
{
    for (size_t i = 0; i < sizeof cvss / sizeof cvss[0]; i++) {
        double got = sb_cvss3_base(cvss[i].vector);
        char why[160];
        snprintf(why, sizeof why, "%s: got %.1f, want %.1f", cvss[i].vector, got, cvss[i].score);
        sb_test_subcase(cvss[i].vector, fabs(got - cvss[i].score) < 1e-9, why);
    }
}

TEST(vuln_cvss3_rejects_incomplete)
{
    CHECK(sb_cvss3_base("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H") < 0); /* no A */
    CHECK(sb_cvss3_base("CVSS:2.0/AV:N/AC:L/Au:N/C:P/I:P/A:P") < 0);
    CHECK(sb_cvss3_base("AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H") < 0);
    CHECK(sb_cvss3_base("CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H") < 0);
    CHECK(sb_cvss3_base("CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H") < 0); /* AV twice */
    CHECK(sb_cvss3_base(NULL) < 0);
}

TEST(vuln_severity_words)
{
    CHECK(sb_sev_parse("MODERATE") == SB_SEV_MEDIUM);
    CHECK(sb_sev_parse("Critical") == SB_SEV_CRITICAL);
    CHECK(sb_sev_parse("bogus") == SB_SEV_UNKNOWN);
    CHECK(sb_sev_of_score(0.0) == SB_SEV_NONE);
    CHECK(sb_sev_of_score(3.9) == SB_SEV_LOW);
    CHECK(sb_sev_of_score(4.0) == SB_SEV_MEDIUM);
    CHECK(sb_sev_of_score(7.0) == SB_SEV_HIGH);
    CHECK(sb_sev_of_score(9.0) == SB_SEV_CRITICAL);
}

static sb_code record(sb_arena *a, const char *file, sb_vuln *out)
{
    char path[512];
    snprintf(path, sizeof path, "tests/data/osv/%s", file);
    size_t n;
    char *json = sb_test_read(path, &n);
    if (NULL == json)
        return SB_ENOTFOUND;
    sb_code rc = sb_osv_record_parse(a, json, n, out);
    free(json);
    return rc;
}

TEST(vuln_osv_record_and_twins)
{
    sb_arena *a = sb_arena_new(0);
    sb_vuln recs[3];
    CHECK(record(a, "PYSEC-2019-217.json", &recs[0]) == SB_OK);
    CHECK(record(a, "GHSA-462w-v97r-4m45.json", &recs[1]) == SB_OK);
    CHECK(record(a, "GHSA-h5c8-rqwp-cp95.json", &recs[2]) == SB_OK);
    CHECK_STR(recs[1].id, "GHSA-462w-v97r-4m45");
    CHECK(recs[1].nratings == 2); /* database severity + the CVSS vector */
    CHECK(recs[1].ncwes == 1 && recs[1].cwes[0] == 693);
    CHECK_STR(recs[1].aff_names[0], "jinja2"); /* "Jinja2" under PEP 503 */
    CHECK_STR(recs[1].aff_fixed[0], "2.10.1");
    CHECK_STR(recs[0].modified, "2021-11-22T04:57:52Z"); /* fraction dropped */
    /* one package, jinja2 2.10, for which OSV answered all three ids */
    sb_pkg pkg = {.kind = SB_KIND_PYPI,
                  .name = "jinja2",
                  .version = "2.10",
                  .purl = "pkg:pypi/jinja2@2.10",
                  .id = "pkg:pypi/jinja2@2.10"};
    sb_sbom s = {.pkgs = &pkg, .npkgs = 1};
    sb_vuln_query q = {"pkg:pypi/jinja2@2.10", 0};
    sb_strv hits = {0};
    sb_strv_push(&hits, a, "PYSEC-2019-217");
    sb_strv_push(&hits, a, "GHSA-h5c8-rqwp-cp95");
    sb_strv_push(&hits, a, "GHSA-462w-v97r-4m45");
    CHECK(sb_vuln_attach(&s, a, &q, &hits, 1, recs, 3) == SB_OK);
    CHECK(s.nvulns == 2); /* PYSEC-2019-217 and GHSA-462w-v97r-4m45 are one finding */
    if (s.nvulns == 2) {
        CHECK_STR(s.vulns[0].id, "GHSA-462w-v97r-4m45"); /* high before medium */
        CHECK(s.vulns[0].severity == SB_SEV_HIGH);
        CHECK(s.vulns[0].score > 8.55 && s.vulns[0].score < 8.65);
        int has_pysec = 0, has_cve = 0;
        for (size_t k = 0; k < s.vulns[0].aliases.n; k++) {
            has_pysec |= !strcmp(s.vulns[0].aliases.v[k], "PYSEC-2019-217");
            has_cve |= !strcmp(s.vulns[0].aliases.v[k], "CVE-2019-10906");
        }
        CHECK(has_pysec && has_cve);
        CHECK(s.vulns[0].naffects == 1 && s.vulns[0].affects[0] == 0);
        CHECK_STR(s.vulns[0].recommendation, "Upgrade jinja2 to 2.10.1");
        CHECK_STR(s.vulns[1].id, "GHSA-h5c8-rqwp-cp95");
        CHECK_STR(s.vulns[1].recommendation, "Upgrade jinja2 to 3.1.3");
    }
    sb_arena_destroy(a);
}

TEST(vuln_osv_batch)
{
    sb_arena *a = sb_arena_new(0);
    sb_vuln_query q[2] = {{"pkg:pypi/jinja2@2.10", 0}, {"pkg:npm/%40scope/x@1.0.0", 1}};
    const char *body;
    size_t len;
    CHECK(sb_osv_batch_body(a, q, 2, &body, &len) == SB_OK);
    CHECK_STR(body,
              "{\"queries\":[{\"package\":{\"purl\":\"pkg:pypi/jinja2@2.10\"}},"
              "{\"package\":{\"purl\":\"pkg:npm/%40scope/x@1.0.0\"}}]}");
    const char *ans = "{\"results\":[{\"vulns\":[{\"id\":\"GHSA-1\",\"modified\":\"2024-01-01T00:00:00Z\"}]},{}]}";
    sb_strv ids[2];
    CHECK(sb_osv_batch_parse(a, ans, strlen(ans), 2, ids) == SB_OK);
    CHECK(ids[0].n == 1 && ids[1].n == 0);
    CHECK(sb_osv_batch_parse(a, ans, strlen(ans), 3, ids) == SB_EPARSE); /* another number of answers */
    CHECK(sb_osv_batch_parse(a, "{\"code\":13}", 11, 2, ids) == SB_EPARSE);
    sb_arena_destroy(a);
}

TEST(vuln_pypi_mapping)
{
    const char *json = "{\"jinja2\":\"jinja2\",\"zlib\":null,\"pyyaml\":[\"pyyaml\",\"\",\"PyYAML-alt\"]}";
    sb_pypimap *m = NULL;
    sb_err err;
    CHECK(sb_pypimap_parse(&m, json, strlen(json), &err) == SB_OK);
    size_t n;
    const char *const *v = sb_pypimap_get(m, "jinja2", &n);
    CHECK(n == 1 && v && !strcmp(v[0], "jinja2"));
    CHECK(NULL == sb_pypimap_get(m, "zlib", &n) && n == 0);
    CHECK(NULL == sb_pypimap_get(m, "absent", &n));
    v = sb_pypimap_get(m, "pyyaml", &n);
    CHECK(n == 2 && v && !strcmp(v[1], "PyYAML-alt"));
    CHECK(sb_pypimap_count(m) == 3);
    sb_pypimap_free(m);
    CHECK(sb_pypimap_parse(&m, "[1]", 3, &err) == SB_EPARSE);
    CHECK(sb_pypimap_parse(&m, "{\"a\":1}", 7, &err) == SB_EPARSE);
}

/* Two findings for the KEV / EPSS / gate tests: one known by a CVE alias,
 * one by a CVE id of its own. */
static void two_findings(sb_sbom *s, sb_pkg *pkg, sb_vuln *v, sb_arena *a)
{
    *pkg = (sb_pkg){.kind = SB_KIND_PYPI,
                    .name = "jinja2",
                    .version = "2.10",
                    .purl = "pkg:pypi/jinja2@2.10",
                    .id = "pkg:pypi/jinja2@2.10"};
    static size_t aff[1] = {0};
    memset(v, 0, 2 * sizeof *v);
    v[0] = (sb_vuln){.id = "GHSA-462w-v97r-4m45",
                     .severity = SB_SEV_HIGH,
                     .score = 8.6,
                     .affects = aff,
                     .naffects = 1,
                     .epss = -1,
                     .epss_pct = -1};
    sb_strv_push(&v[0].aliases, a, "PYSEC-2019-217");
    sb_strv_push(&v[0].aliases, a, "CVE-2019-10906");
    sb_strv_push(&v[0].aliases, a, "CVE-2019-99999");
    v[1] = (sb_vuln){.id = "CVE-2024-22195",
                     .severity = SB_SEV_MEDIUM,
                     .score = 5.4,
                     .affects = aff,
                     .naffects = 1,
                     .epss = -1,
                     .epss_pct = -1};
    *s = (sb_sbom){.pkgs = pkg, .npkgs = 1, .vulns = v, .nvulns = 2};
}

TEST(vuln_kev_catalog)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg pkg;
    sb_vuln v[2];
    sb_sbom s;
    two_findings(&s, &pkg, v, a);
    size_t n, marked = 9;
    char *json = sb_test_read("tests/data/kev/known_exploited_vulnerabilities.json", &n);
    CHECK(json != NULL);
    CHECK(json && sb_kev_apply(&s, a, json, n, &marked) == SB_OK);
    free(json);
    CHECK(marked == 1);
    CHECK(v[0].kev == 1 && v[1].kev == 0);
    CHECK_STR(v[0].kev_cve, "CVE-2019-10906");
    CHECK_STR(v[0].kev_added, "2026-11-20");
    CHECK_STR(v[0].kev_due, "2026-12-11");
    CHECK_STR(v[0].kev_ransomware, "Unknown");
    const char *notcat = "{\"title\": \"x\", \"count\": 0}";
    CHECK(sb_kev_apply(&s, a, notcat, strlen(notcat), &marked) == SB_EPARSE);
    sb_strv cves;
    CHECK(sb_vuln_cves(&s, a, &cves) == SB_OK);
    CHECK(cves.n == 3);
    if (cves.n == 3) {
        CHECK_STR(cves.v[0], "CVE-2019-10906");
        CHECK_STR(cves.v[1], "CVE-2019-99999");
        CHECK_STR(cves.v[2], "CVE-2024-22195");
    }
    CHECK_STR(sb_epss_query(a, cves.v, cves.n), "cve=CVE-2019-10906,CVE-2019-99999,CVE-2024-22195");
    sb_arena_destroy(a);
}

TEST(vuln_epss_highest_and_odd_ids)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg pkg;
    sb_vuln v[2];
    sb_sbom s;
    two_findings(&s, &pkg, v, a);
    /* an alias that would add a query parameter is no CVE id: never asked, never matched */
    sb_strv_push(&v[1].aliases, a, "CVE-2024-1&limit=1");
    const char *ans =
        "{\"status\":\"OK\",\"data\":["
        "{\"cve\":\"CVE-2019-99999\",\"epss\":\"0.300000000\",\"percentile\":\"0.900000000\",\"date\":\"2026-12-01\"},"
        "{\"cve\":\"CVE-2019-10906\",\"epss\":\"0.012450000\",\"percentile\":\"0.785310000\",\"date\":\"2026-12-01\"},"
        "{\"cve\":\"CVE-2024-1&limit=1\",\"epss\":\"0.9\",\"percentile\":\"0.9\"},"
        "{\"cve\":\"CVE-2024-22195\",\"epss\":\"1.5\",\"percentile\":\"0.4\"}]}";
    size_t scored = 0;
    CHECK(sb_epss_apply(&s, a, ans, strlen(ans), &scored) == SB_OK);
    CHECK(scored == 1);
    CHECK_STR(v[0].epss_cve, "CVE-2019-99999"); /* the higher of its two CVEs, whatever the order */
    CHECK_STR(v[0].epss_text, "0.300000000");
    CHECK(v[1].epss < 0); /* 1.5 is no probability */
    sb_strv cves;
    CHECK(sb_vuln_cves(&s, a, &cves) == SB_OK);
    CHECK(cves.n == 3);
    CHECK(sb_epss_apply(&s, a, "{\"status\":\"error\"}", 18, &scored) == SB_EPARSE);
    sb_arena_destroy(a);
}

TEST(vuln_gate_kev_epss_vex)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg pkg;
    sb_vuln v[2];
    sb_sbom s;
    two_findings(&s, &pkg, v, a);
    v[0].kev = 1;
    v[0].kev_cve = "CVE-2019-10906";
    v[1].epss = 0.2;
    v[1].epss_text = "0.2";
    sb_gate g;
    sb_gate_init(&g, "vulnerable", "Vulnerable packages");
    CHECK(sb_vuln_gate(&s, a, SB_SEV_UNKNOWN, 0, -1, &g) == SB_OK && g.n == 0); /* no gate asked */
    CHECK(sb_vuln_gate(&s, a, SB_SEV_UNKNOWN, 1, -1, &g) == SB_OK && g.n == 1);
    CHECK(g.n == 1 && !strcmp(g.items[0].rule, "kev") && !strcmp(g.items[0].value, "GHSA-462w-v97r-4m45"));
    sb_gate_init(&g, "vulnerable", "Vulnerable packages");
    CHECK(sb_vuln_gate(&s, a, SB_SEV_UNKNOWN, 0, 0.1, &g) == SB_OK && g.n == 1);
    CHECK(g.n == 1 && !strcmp(g.items[0].value, "CVE-2024-22195"));
    /* VEX: a settled finding never fails, an exploitable one still does */
    v[0].vex_state = "not_affected";
    v[1].vex_state = "exploitable";
    sb_gate_init(&g, "vulnerable", "Vulnerable packages");
    CHECK(sb_vuln_gate(&s, a, SB_SEV_LOW, 1, 0.1, &g) == SB_OK);
    CHECK(g.n == 2); /* CVE-2024-22195: severity and EPSS */
    CHECK(sb_vuln_accepted(&v[0]) && !sb_vuln_accepted(&v[1]));
    sb_arena_destroy(a);
}

TEST(vuln_vex_dialects_and_matching)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg pkg;
    sb_vuln v[2];
    sb_sbom s;
    two_findings(&s, &pkg, v, a);
    sb_err err;
    sb_vex *x = NULL;
    size_t n, applied = 0;
    char *json = sb_test_read("tests/data/vex/openvex.json", &n);
    CHECK(json && sb_vex_parse(a, json, n, &x, &err) == SB_OK);
    free(json);
    CHECK(x && x->n == 2);
    if (x && x->n == 2) {
        CHECK_STR(x->stmts[0].state, "not_affected");
        CHECK_STR(x->stmts[0].justification, "code_not_reachable"); /* OpenVEX's word translated */
        CHECK_STR(x->stmts[1].state, "resolved");                   /* fixed */
        CHECK(sb_vex_apply(&s, a, x, &applied) == SB_OK);
        CHECK(applied == 1);
        CHECK(v[1].vex_state && !strcmp(v[1].vex_state, "not_affected")); /* CVE-2024-22195 for jinja2@2.10 */
        CHECK(NULL == v[0].vex_state);                                    /* fixed in 3.1.4, not in 2.10 */
    }
    json = sb_test_read("tests/data/vex/cyclonedx-vex.json", &n);
    CHECK(json && sb_vex_parse(a, json, n, &x, &err) == SB_OK);
    free(json);
    CHECK(x && x->n == 2 && x->stmts[0].refs.n == 1);
    CHECK(x && sb_vex_apply(&s, a, x, &applied) == SB_OK && applied == 1); /* the BOM-Link names jinja2@2.10 */
    CHECK(v[0].vex_state && !strcmp(v[0].vex_state, "not_affected"));
    static const char *const bad[] = {
        "[1]",
        "{\"bomFormat\":\"CycloneDX\"}",
        "{\"bomFormat\":\"CycloneDX\",\"vulnerabilities\":[{\"analysis\":{\"state\":\"not_affected\"}}]}",
        "{\"bomFormat\":\"CycloneDX\",\"vulnerabilities\":[{\"id\":\"X\",\"analysis\":{\"state\":\"not_affected\",\"justification\":\"meh\"}}]}",
        "{\"@context\":\"https://openvex.dev/ns/v0.2.0\",\"statements\":[{\"vulnerability\":{\"name\":\"X\"},\"status\":\"gone\"}]}",
        "{\"@context\":\"https://example.com\",\"statements\":[]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_err_clear(&err);
        CHECK(sb_vex_parse(a, bad[i], strlen(bad[i]), &x, &err) == SB_EPARSE && err.msg[0]);
    }
    sb_arena_destroy(a);
}

/* The whole document into a heap string, bufsize bytes at a time; the
 * serial into serial[37] (NULL on failure). */
static char *vex_render(const sb_doc_ops *ops, const sb_sbom *s, size_t bufsize, char serial[37], char link[37])
{
    sb_arena *a = sb_arena_new(0);
    sb_doc *d = NULL;
    sb_doc_opts o = {.timestamp = 1700000000, .pretty = true, .input = "lock", .input_len = 4};
    sb_err err;
    sb_buf out = SB_BUF_INIT(0);
    char *buf = malloc(bufsize), *res = NULL;
    if (buf && sb_doc_new(&d, a, ops, s, &o, &err) == SB_OK) {
        memcpy(serial, d->serial, 37);
        memcpy(link, d->link_serial, 37);
        ssize_t n;
        while ((n = sb_doc_produce(d, buf, bufsize)) > 0)
            sb_buf_append(&out, buf, (size_t)n);
        if (0 == n)
            res = strndup(out.data ? out.data : "", out.len);
    }
    sb_doc_free(d);
    sb_buf_free(&out);
    free(buf);
    sb_arena_destroy(a);
    return res;
}

/* output=vex: no components, the findings' affects refs are BOM-Links into
 * the SBOM of the same model and options (its serial, percent-encoded
 * bom-ref), the VEX's own serial is another, the analysis is carried. */
TEST(vuln_vex_output_bom_links)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg pkg;
    sb_vuln v[2];
    sb_sbom s;
    two_findings(&s, &pkg, v, a);
    pkg.id = "pkg:pypi/jinja2@2.10?x=%41#b c"; /* '%', '#' and ' ' may not stand in a fragment */
    s.environment = "default";
    s.platform = "linux-64";
    s.input_kind = "uv.lock";
    s.root_name = "demo";
    s.vulns_asked = true;
    v[1].vex_state = "not_affected";
    v[1].vex_justification = "code_not_reachable";
    const sb_doc_ops *pairs[][2] = {{&sb_doc_cyclonedx_16, &sb_doc_cyclonedx_vex_16},
                                    {&sb_doc_cyclonedx_17, &sb_doc_cyclonedx_vex_17}};
    for (size_t i = 0; i < 2; i++) {
        char sbom_serial[37], unused[37], vex_serial[37], link[37];
        char *sbom = vex_render(pairs[i][0], &s, 1 << 16, sbom_serial, unused);
        char *vex = vex_render(pairs[i][1], &s, 1 << 16, vex_serial, link);
        char *vex7 = vex_render(pairs[i][1], &s, 7, vex_serial, link);
        CHECK(sbom && vex && vex7);
        if (!sbom || !vex || !vex7)
            continue;
        CHECK_STR(vex, vex7); /* any buffer size, the same bytes */
        CHECK_STR(link, sbom_serial);
        CHECK(strcmp(vex_serial, sbom_serial) != 0);
        json_error_t je;
        json_t *root = json_loads(vex, 0, &je);
        CHECK(root != NULL);
        CHECK(NULL == json_object_get(root, "components") && NULL == json_object_get(root, "dependencies"));
        CHECK(NULL == json_object_get(json_object_get(root, "metadata"), "component"));
        CHECK_STR(json_string_value(json_object_get(root, "specVersion")), i ? "1.7" : "1.6");
        json_t *vulns = json_object_get(root, "vulnerabilities");
        CHECK(json_array_size(vulns) == 2);
        char want[160];
        snprintf(want, sizeof want, "urn:cdx:%s/1#pkg:pypi/jinja2@2.10?x=%%2541%%23b%%20c", sbom_serial);
        for (size_t k = 0; k < json_array_size(vulns); k++)
            CHECK_STR(json_string_value(
                          json_object_get(json_array_get(json_object_get(json_array_get(vulns, k), "affects"), 0),
                                          "ref")),
                      want);
        json_t *an = json_object_get(json_array_get(vulns, 1), "analysis");
        CHECK_STR(json_string_value(json_object_get(an, "state")), "not_affected");
        CHECK_STR(json_string_value(json_object_get(an, "justification")), "code_not_reachable");
        snprintf(want, sizeof want, "urn:cdx:%s/1", sbom_serial);
        json_t *p0 = json_array_get(json_object_get(json_object_get(root, "metadata"), "properties"), 0);
        CHECK_STR(json_string_value(json_object_get(p0, "name")), "pixi:vex-for");
        CHECK_STR(json_string_value(json_object_get(p0, "value")), want);
        json_decref(root);
        /* fed back as a vex part, the encoded BOM-Link names the package again */
        sb_vex *x = NULL;
        sb_err err;
        size_t applied = 0;
        const char *was = v[1].vex_state;
        v[1].vex_state = NULL;
        CHECK(sb_vex_parse(a, vex, strlen(vex), &x, &err) == SB_OK);
        CHECK(x && sb_vex_apply(&s, a, x, &applied) == SB_OK && applied == 1);
        CHECK_STR(v[1].vex_state, "not_affected");
        CHECK(NULL == v[0].vex_state);
        v[1].vex_state = was;
        v[1].vex_source = NULL;
        free(sbom);
        free(vex);
        free(vex7);
    }
    sb_arena_destroy(a);
}

/* OSV pagination: next_page_token read per query (a bad one is none), and
 * the follow-up body asks only the chosen queries, each with its token. */
TEST(vuln_osv_pages)
{
    sb_arena *a = sb_arena_new(0);
    const char *ans =
        "{\"results\":[{\"vulns\":[{\"id\":\"A-1\"}],\"next_page_token\":\"tok=1\"},{},"
        "{\"vulns\":[{\"id\":\"B-1\"}],\"next_page_token\":\"bad\\ntoken\"}]}";
    sb_strv ids[3];
    const char *next[3] = {"x", "x", "x"};
    CHECK(sb_osv_batch_parse_pages(a, ans, strlen(ans), 3, ids, next) == SB_OK);
    CHECK_STR(next[0], "tok=1");
    CHECK(NULL == next[1] && NULL == next[2]);
    CHECK(ids[0].n == 1 && ids[1].n == 0 && ids[2].n == 1);
    CHECK(sb_osv_batch_parse_pages(a, ans, strlen(ans), 2, ids, next) == SB_EPARSE); /* another number of queries */
    sb_vuln_query q[3] = {{.purl = "pkg:pypi/a@1"}, {.purl = "pkg:pypi/b@2"}, {.purl = "pkg:pypi/c@3"}};
    size_t idx[1] = {2};
    const char *tok[1] = {"p\"1"};
    const char *body = NULL;
    size_t len = 0;
    CHECK(sb_osv_batch_page_body(a, q, idx, tok, 1, &body, &len) == SB_OK);
    CHECK_STR(body, "{\"queries\":[{\"package\":{\"purl\":\"pkg:pypi/c@3\"},\"page_token\":\"p\\\"1\"}]}");
    CHECK(body && len == strlen(body));
    CHECK(sb_osv_batch_body(a, q, 1, &body, &len) == SB_OK);
    CHECK_STR(body, "{\"queries\":[{\"package\":{\"purl\":\"pkg:pypi/a@1\"}}]}");
    sb_arena_destroy(a);
}
