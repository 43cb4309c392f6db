/*
 * test_params.c - request parameter parsers: booleans, counts, and Accept
 * negotiation with q-values, versions, wildcards and hostile shapes.
 */
#include "test.h"
#include "../../service/params.h"

#include <stdlib.h>
#include <string.h>

TEST(params_bool_and_count)
{
    int b = 7;
    CHECK(svc_param_bool(NULL, 1, &b) == 0 && b == 1);
    CHECK(svc_param_bool("false", 1, &b) == 0 && b == 0);
    CHECK(svc_param_bool("", 0, &b) == 0 && b == 1);
    /* the words other tools take, in any case; nothing else */
    const char *t[] = {"true", "True", "TRUE", "on", "On", "yes", "YES", "1"};
    const char *f[] = {"false", "False", "off", "OFF", "no", "No", "0"};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        CHECK(svc_param_bool(t[i], 0, &b) == 0 && b == 1 && svc_bool_word(t[i]) == 1);
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        CHECK(svc_param_bool(f[i], 1, &b) == 0 && b == 0 && svc_bool_word(f[i]) == 0);
    const char *bad[] = {"maybe", "y", "n", "t", "2", "01", "onn", " true"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(svc_param_bool(bad[i], 0, &b) == -1 && svc_bool_word(bad[i]) == -1);
    CHECK(svc_bool_word("") == -1); /* a bare query parameter is true; an empty setting is unset */
    long long n = 42;
    CHECK(svc_param_count(NULL, 10, &n) == 0 && n == 42);
    CHECK(svc_param_count("10", 10, &n) == 0 && n == 10);
    CHECK(svc_param_count("11", 10, &n) == -1);
    CHECK(svc_param_count("-1", 10, &n) == -1);
    CHECK(svc_param_count("", 10, &n) == -1);
    CHECK(svc_param_count("1e3", 1000000, &n) == -1);
    CHECK(svc_param_count("99999999999999999999", 9223372036854775807LL, &n) == -1);
    CHECK(svc_param_count("9223372036854775807", 9223372036854775807LL, &n) == 0 && n == 9223372036854775807LL);
}

TEST(params_negotiate_format)
{
    CHECK(svc_negotiate_format(NULL) == &sb_doc_cyclonedx_16);
    CHECK(svc_negotiate_format("") == &sb_doc_cyclonedx_16);
    CHECK(svc_negotiate_format("application/spdx+json") == &sb_doc_spdx_23);
    CHECK(svc_negotiate_format("application/spdx+json;version=3.0.1") == &sb_doc_spdx_301);
    CHECK(svc_negotiate_format("application/spdx+json; version=\"3.0.1\"") == &sb_doc_spdx_301);
    CHECK(svc_negotiate_format("application/vnd.cyclonedx+json; version=1.7") == &sb_doc_cyclonedx_17);
    CHECK(svc_negotiate_format("application/spdx+json;q=0.5, application/vnd.cyclonedx+json;version=1.7;q=0.9") ==
          &sb_doc_cyclonedx_17);
    CHECK(svc_negotiate_format("text/html, */*;q=0.1") == &sb_doc_cyclonedx_16);
    CHECK(svc_negotiate_format("text/html") == NULL);
    CHECK(svc_negotiate_format("application/spdx+json;q=0") == NULL);
    CHECK(svc_negotiate_format("application/spdx+json;q=2") == NULL); /* not a q-value */
    CHECK(svc_negotiate_format("application/vnd.cyclonedx+json;version=9") == NULL);
    CHECK(svc_negotiate_format(",,, ;;;, ;q=,") == NULL);
    char big[5000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK(svc_negotiate_format(big) == NULL); /* long items are truncated, not overrun */
}

TEST(params_negotiate_type)
{
    const char *const types[] = {"application/json", "text/plain"};
    CHECK(svc_negotiate_type(NULL, types, 2) == 0);
    CHECK(svc_negotiate_type("text/plain", types, 2) == 1);
    CHECK(svc_negotiate_type("text/*", types, 2) == 1);
    CHECK(svc_negotiate_type("*/*", types, 2) == 0);
    CHECK(svc_negotiate_type("text/plain;q=0.4, application/json;q=0.8", types, 2) == 0);
    CHECK(svc_negotiate_type("image/png", types, 2) == -1);
}

TEST(params_table_strict_check)
{
    char why[256];
    CHECK(svc_qparam_check("platform", "linux-64", SVC_EP_SBOM, why, sizeof why) == 0);
    CHECK(svc_qparam_check("plaform", "linux-64", SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(strstr(why, "did you mean 'platform'") != NULL);
    CHECK(svc_qparam_check("License_Texts", "true", SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(strstr(why, "did you mean 'license-texts'") != NULL);
    CHECK(svc_qparam_check("zzzzzzzz", "1", SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(strstr(why, "did you mean") == NULL);
    /* endpoint rules: depth is the tree report's, format the document's */
    CHECK(svc_qparam_check("depth", "2", SVC_EP_TREE, why, sizeof why) == 0);
    CHECK(svc_qparam_check("depth", "2", SVC_EP_REPORT, why, sizeof why) == -1);
    CHECK(strstr(why, "not taken by this endpoint") != NULL);
    CHECK(svc_qparam_check("format", "spdx-2.3", SVC_EP_REPORT, why, sizeof why) == -1);
    CHECK(svc_qparam_check("output", "text", SVC_EP_TREE, why, sizeof why) == 0);
    CHECK(svc_qparam_check("all-platforms", "true", SVC_EP_REPORT, why, sizeof why) == -1);
    /* types and bounds from the table */
    CHECK(svc_qparam_check("pretty", "maybe", SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(svc_qparam_check("pretty", NULL, SVC_EP_SBOM, why, sizeof why) == 0); /* bare ?pretty = true */
    CHECK(svc_qparam_check("timestamp", "253402300800", SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(svc_qparam_check("timestamp", NULL, SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(svc_qparam_check("depth", "100001", SVC_EP_TREE, why, sizeof why) == -1);
    /* a name of 10 kB is cut in the sentence, never overflows it */
    static char huge[10000];
    memset(huge, 'a', sizeof huge - 1);
    CHECK(svc_qparam_check(huge, "1", SVC_EP_SBOM, why, sizeof why) == -1 && strlen(why) < sizeof why);
    CHECK(svc_qparam_closest("", SVC_EP_SBOM) == NULL || strlen(svc_qparam_closest("", SVC_EP_SBOM)) <= 3);
}

/* The snapshot's parameters reach GitHub: a ref git would refuse, a job
 * link other than http(s), a path leaving the repository, control
 * characters or unbounded text are refused, each by its own name. */
TEST(params_github_snapshot_values)
{
    char why[512];
    static const char *const good_refs[] = {"refs/heads/main", "refs/pull/42/merge", "refs/tags/v1.2.3",
                                            "refs/heads/feature/x-y_z", "refs/heads/@"};
    for (size_t i = 0; i < sizeof good_refs / sizeof good_refs[0]; i++)
        CHECK(svc_qparam_check("ref", good_refs[i], SVC_EP_SBOM, why, sizeof why) == 0);
    static const char *const bad_refs[] = {
        "main",           "refs/",          "refs/heads/a..b", "refs/heads/.hidden", "refs/heads/x.lock",
        "refs/heads/a b", "refs/heads/a~1", "refs/heads/a^",   "refs/heads/a:b",     "refs/heads/a?",
        "refs/heads/a*",  "refs/heads/a[",  "refs/heads/a\\b", "refs/heads/a@{1}",   "refs/heads//a",
        "refs/heads/a/",  "refs/heads/a.",  "refs/heads/a\nb", "refs/heads/a\x7f"};
    for (size_t i = 0; i < sizeof bad_refs / sizeof bad_refs[0]; i++) {
        CHECK(svc_qparam_check("ref", bad_refs[i], SVC_EP_SBOM, why, sizeof why) == -1);
        CHECK(strstr(why, "ref") != NULL);
    }
    static char long_ref[1100];
    memcpy(long_ref, "refs/heads/", 11);
    memset(long_ref + 11, 'a', sizeof long_ref - 12);
    CHECK(svc_qparam_check("ref", long_ref, SVC_EP_SBOM, why, sizeof why) == -1);

    CHECK(svc_qparam_check("job-url", "https://ci.example/run/42", SVC_EP_SBOM, why, sizeof why) == 0);
    CHECK(svc_qparam_check("job-url", "HTTP://ci.example:8080/x?y=1", SVC_EP_SBOM, why, sizeof why) == 0);
    static const char *const bad_urls[] = {
        "javascript:alert(1)", "data:text/html,x", "ftp://x/",           "https://",       "https:///x",
        "//ci.example/x",      "https://a b/",     "https://a/\r\nX: y", "ci.example/run", ""};
    for (size_t i = 0; i < sizeof bad_urls / sizeof bad_urls[0]; i++) {
        CHECK(svc_qparam_check("job-url", bad_urls[i], SVC_EP_SBOM, why, sizeof why) == -1);
        CHECK(strstr(why, "job-url") != NULL);
    }

    CHECK(svc_qparam_check("path", "python/uv.lock", SVC_EP_SBOM, why, sizeof why) == 0);
    CHECK(svc_qparam_check("path", ".github/deps/pixi.lock", SVC_EP_SBOM, why, sizeof why) == 0);
    static const char *const bad_paths[] = {"",      "/etc/passwd", "../x", "a/../b", "a//b",
                                            "a/./b", "a/",          "a\\b", "a\nb",   "."};
    for (size_t i = 0; i < sizeof bad_paths / sizeof bad_paths[0]; i++) {
        CHECK(svc_qparam_check("path", bad_paths[i], SVC_EP_SBOM, why, sizeof why) == -1);
        CHECK(strstr(why, "path") != NULL);
    }

    CHECK(svc_qparam_check("correlator", "deps submit pixi.lock", SVC_EP_SBOM, why, sizeof why) == 0);
    CHECK(svc_qparam_check("correlator", "", SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(svc_qparam_check("correlator", "a\r\nb", SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(strstr(why, "correlator") != NULL);
    static char long_text[300];
    memset(long_text, 'c', sizeof long_text - 1);
    CHECK(svc_qparam_check("correlator", long_text, SVC_EP_SBOM, why, sizeof why) == -1);
    CHECK(svc_qparam_check("job-id", "4242", SVC_EP_SBOM, why, sizeof why) == 0);
    CHECK(svc_qparam_check("job-id", "42\t", SVC_EP_SBOM, why, sizeof why) == -1);
}

/* The table and openapi/openapi.yaml name the same query parameters (run
 * from the repository root, as tests/run-all.sh does). */
TEST(params_table_matches_openapi)
{
    size_t len = 0;
    char *y = sb_test_read("openapi/openapi.yaml", &len);
    CHECK(y != NULL);
    if (NULL == y)
        return;
    for (const svc_qparam *p = svc_qparams(); p->name; p++) {
        char pat[96];
        snprintf(pat, sizeof pat, "{name: %s, in: query", p->name);
        if (!strstr(y, pat))
            sb_test_subcase(p->name, 0, "in the table, not in openapi.yaml");
        else
            sb_test_subcase(p->name, 1, NULL);
    }
    for (const char *q = y; (q = strstr(q, "{name: ")); q += 7) {
        const char *e = strchr(q + 7, ',');
        if (NULL == e || strncmp(e, ", in: query", 11))
            continue;
        char name[64];
        size_t n = (size_t)(e - (q + 7));
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, q + 7, n);
        name[n] = '\0';
        int found = 0;
        for (const svc_qparam *p = svc_qparams(); p->name; p++)
            found |= !strcmp(p->name, name);
        sb_test_subcase(name, found, "in openapi.yaml, not in the table");
    }
    free(y);
}

/* Format names clients type, and the media types, come from the formats'
 * own descriptors (core/doc.h). */
TEST(params_format_aliases)
{
    CHECK(sb_doc_find("cyclonedx") == &sb_doc_cyclonedx_16);
    CHECK(sb_doc_find("CycloneDX-JSON") == &sb_doc_cyclonedx_16);
    CHECK(sb_doc_find("cdx") == &sb_doc_cyclonedx_16);
    CHECK(sb_doc_find("spdx") == &sb_doc_spdx_23);
    CHECK(sb_doc_find("spdx-json") == &sb_doc_spdx_23);
    CHECK(sb_doc_find("spdx-3") == &sb_doc_spdx_301);
    CHECK(sb_doc_find("cyclonedx-1.7") == &sb_doc_cyclonedx_17);
    CHECK(sb_doc_find("cyclonedx-1.5") == NULL);
    CHECK(sb_doc_find("json") == NULL);
    CHECK(sb_doc_formats()[0] == &sb_doc_cyclonedx_16);
    CHECK(sb_doc_find_media("application/vnd.cyclonedx+json", NULL) == &sb_doc_cyclonedx_16);
    CHECK(sb_doc_find_media("application/vnd.cyclonedx+json", "1.7") == &sb_doc_cyclonedx_17);
    CHECK(sb_doc_find_media("application/vnd.cyclonedx+json", "1.5") == NULL);
    CHECK(sb_doc_find_media("application/spdx+json", "3.0") == &sb_doc_spdx_301);
    CHECK(sb_doc_find_media("application/ld+json", NULL) == &sb_doc_spdx_301);
    CHECK(sb_doc_find_media("application/*", NULL) == &sb_doc_cyclonedx_16);
    CHECK(sb_doc_find_media("text/html", NULL) == NULL);
}

/* The most specific range decides each format's q; q=0 excludes even when a
 * wildcard would pick it; all-* answers take application/x-ndjson. */
TEST(params_negotiate_exclusion_and_ndjson)
{
    CHECK(svc_negotiate_format("application/vnd.cyclonedx+json;q=0, */*") == &sb_doc_spdx_23);
    CHECK(svc_negotiate_format("*/*, application/vnd.cyclonedx+json;version=1.6;q=0") == &sb_doc_cyclonedx_17);
    CHECK(svc_negotiate_format("application/vnd.cyclonedx+json;q=0, application/spdx+json;q=0, */*") == NULL);
    CHECK(svc_negotiate_format("application/spdx+json, */*;q=0") == &sb_doc_spdx_23);
    CHECK(svc_negotiate_format("application/json;q=0.1, application/spdx+json;version=3.0.1;q=0.2") ==
          &sb_doc_spdx_301);
    CHECK(svc_negotiate_format("application/vnd.cyclonedx+json") == &sb_doc_cyclonedx_16);
    CHECK(svc_negotiate_format("application/x-ndjson") == NULL);
    CHECK(svc_negotiate_format_for("application/x-ndjson", 1) == &sb_doc_cyclonedx_16);
    CHECK(svc_negotiate_format_for("application/x-ndjson, application/spdx+json", 1) == &sb_doc_spdx_23);
    CHECK(svc_negotiate_format_for("application/x-ndjson;q=0", 1) == NULL);
}
