/*
 * test_intake.c - the one parse of the query every lockfile endpoint gets at
 * dispatch (svc_query_parse_* in service/params.c, run by the server):
 * unknown and misplaced parameters, out-of-bounds values, which parameters
 * may repeat, and a selection excluding its all-* form. End to end the same
 * rules are in tests/integration/params.sh.
 */
#include "test.h"
#include "../../service/params.h"
#include "../../core/diff.h"

#include <string.h>

typedef struct kv {
    const char *k, *v;
} kv;

/* Run the one parse over a query as the server does at dispatch: each
 * argument in order, then the pairs. 0 = accepted (the typed fields in *out
 * when out is given); else 1 with why copied out. */
static void *test_alloc(void *cls, size_t n)
{
    (void)cls;
    static const char *pool[8][SVC_QLIST_MAX]; /* lists of one query at a time */
    static size_t used;
    (void)n;
    return pool[used++ % 8];
}

static int parse(unsigned ep, const kv *q, size_t n, char *why, size_t wn, svc_query *out)
{
    svc_query qq;
    svc_query_parser p;
    svc_query_parse_begin(&p, &qq, ep, test_alloc, NULL);
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = svc_query_parse_arg(&p, q[i].k, q[i].v);
    if (!bad)
        bad = svc_query_parse_end(&p);
    snprintf(why, wn, "%s", bad ? p.why : "");
    if (out)
        *out = qq;
    return bad;
}

static int run_all(unsigned ep, const kv *q, size_t n, char *why, size_t wn)
{
    return parse(ep, q, n, why, wn, NULL);
}

#define RUN(ep, ...) \
    run_all((ep), (const kv[]){__VA_ARGS__}, sizeof((const kv[]){__VA_ARGS__}) / sizeof(kv), why, sizeof why)

TEST(intake_query_unknown_and_misplaced)
{
    char why[256];
    CHECK(RUN(SVC_EP_SBOM, {"platform", "linux-64"}, {"pretty", "true"}) == 0 && why[0] == '\0');
    CHECK(RUN(SVC_EP_SBOM, {"pretty", "1"}, {"plaform", "linux-64"}) == 1);
    CHECK_STR(why, "unknown query parameter 'plaform' (did you mean 'platform'?)");
    CHECK(RUN(SVC_EP_SBOM, {"zzzzzzzz", "1"}) == 1);
    CHECK_STR(why, "unknown query parameter 'zzzzzzzz'");
    /* a parameter of another endpoint is named as such, not as a typo */
    CHECK(RUN(SVC_EP_REPORT, {"depth", "2"}) == 1);
    CHECK_STR(why, "query parameter 'depth' is not taken by this endpoint");
    CHECK(RUN(SVC_EP_TREE, {"depth", "2"}) == 0);
    /* the first refused argument is the one reported */
    CHECK(RUN(SVC_EP_SBOM, {"nope", "1"}, {"pretty", "maybe"}) == 1 && strstr(why, "'nope'"));
}

TEST(intake_query_bounds)
{
    char why[256];
    CHECK(RUN(SVC_EP_SBOM, {"timestamp", "253402300799"}) == 0);
    CHECK(RUN(SVC_EP_SBOM, {"timestamp", "253402300800"}) == 1);
    CHECK_STR(why,
              "query parameter 'timestamp' must be Unix seconds from 0 to 253402300799 or an RFC 3339 date-time "
              "(2020-01-01T00:00:00Z)");
    CHECK(RUN(SVC_EP_SBOM, {"timestamp", "-1"}) == 1);
    CHECK(RUN(SVC_EP_SBOM, {"timestamp", NULL}) == 1); /* a bare ?timestamp has no number */
    CHECK(RUN(SVC_EP_TREE, {"depth", "100000"}) == 0);
    CHECK(RUN(SVC_EP_TREE, {"depth", "100001"}) == 1);
    CHECK(RUN(SVC_EP_SBOM, {"pretty", NULL}) == 0); /* a bare boolean is true */
    CHECK(RUN(SVC_EP_SBOM, {"pretty", "maybe"}) == 1);
    CHECK_STR(why, "query parameter 'pretty' must be a boolean: true, false, on, off, yes, no, 1 or 0 (any case)");
}

TEST(intake_query_repeats)
{
    char why[256];
    CHECK(RUN(SVC_EP_SBOM, {"pretty", "true"}, {"platform", "linux-64"}, {"pretty", "false"}) == 1);
    CHECK_STR(why, "query parameter 'pretty' is given more than once");
    CHECK(RUN(SVC_EP_SBOM, {"platform", "linux-64"}, {"platform", "osx-arm64"}) == 1);
    /* list parameters repeat */
    CHECK(RUN(SVC_EP_SBOM, {"include", "numpy"}, {"include", "scipy"}, {"exclude", "a"}, {"exclude", "b"}) == 0);
    CHECK(RUN(SVC_EP_SBOM, {"allow-license", "MIT"}, {"allow-license", "BSD-3-Clause"}) == 0);
    /* the check is exact: a differently spelled name is refused as unknown, not counted as a repeat */
    CHECK(RUN(SVC_EP_SBOM, {"pretty", "true"}, {"Pretty", "true"}) == 1 && strstr(why, "unknown"));
}

TEST(intake_query_selection_excludes_all)
{
    char why[256];
    CHECK(RUN(SVC_EP_SBOM, {"environment", "default"}, {"all-environments", "true"}) == 1);
    CHECK_STR(why,
              "query parameters 'environment' and 'all-environments' exclude each other: name one environment "
              "or ask for all");
    CHECK(RUN(SVC_EP_SBOM, {"all-platforms", NULL}, {"platform", "linux-64"}) == 1 && strstr(why, "'platform'"));
    /* all-*=false names nothing more: the selection stands */
    CHECK(RUN(SVC_EP_SBOM, {"environment", "default"}, {"all-environments", "false"}) == 0);
    CHECK(RUN(SVC_EP_SBOM, {"all-environments", "true"}, {"all-platforms", "true"}) == 0);
}

#define PARSE(ep, out, ...) \
    parse((ep), (const kv[]){__VA_ARGS__}, sizeof((const kv[]){__VA_ARGS__}) / sizeof(kv), why, sizeof why, (out))

/* The typed fields handlers and intake read: absent values, booleans,
 * counts, lists in order, and the values a row's check turns into types. */
TEST(intake_query_typed_fields)
{
    char why[256];
    svc_query q;
    CHECK(PARSE(SVC_EP_SBOM, &q, {"platform", "linux-64"}) == 0);
    CHECK_STR(q.platform, "linux-64");
    CHECK(q.environment == NULL && q.pretty == -1 && q.timestamp == -1 && q.include.n == 0);
    CHECK(q.fail_on_quality == -1 && q.epss_min < 0 && q.scorecard_gate < 0 && !q.fail_on_license);
    CHECK(PARSE(SVC_EP_SBOM, &q, {"pretty", "false"}, {"timestamp", "1700000000"}, {"include", "numpy"},
                {"include", "sci*"}, {"keep-orphans", NULL}) == 0);
    CHECK(q.pretty == 0 && q.timestamp == 1700000000LL && q.keep_orphans == 1);
    CHECK(q.include.n == 2 && !strcmp(q.include.v[0], "numpy") && !strcmp(q.include.v[1], "sci*"));
    CHECK(PARSE(SVC_EP_SBOM, &q, {"scope", "required"}, {"primary-purl", "pypi"}, {"fail-on-quality", "ntia-2021"},
                {"vulnerabilities", "osv"}, {"fail-on-severity", "HIGH"}, {"fail-on-epss", "0.5"},
                {"fail-on-scorecard", "6.5"}, {"exclude-kind", "pypi"}) == 0);
    CHECK(q.required_only && q.primary_pypi && q.fail_on_quality >= 0 && q.severity > 0);
    CHECK(q.epss_min == 0.5 && q.scorecard_gate == 6.5 && q.kinds != 0 && q.exclude_kind.n == 1);
    CHECK(PARSE(SVC_EP_SBOM, &q, {"deny-license", "GPL-3.0-only"}, {"fail-on", "license"}) == 0);
    CHECK(q.fail_on_license && q.deny_license.n == 1 && !q.diff_gate);
    CHECK(PARSE(SVC_EP_DIFF, &q, {"fail-on", "diff"}) == 0);
    CHECK(q.diff_gate == SB_DIFF_ALL && !q.fail_on_license);
    CHECK(PARSE(SVC_EP_DIFF, &q, {"fail-on", "added,downgraded"}) == 0);
    CHECK(q.diff_gate == (1u << SB_DIFF_ADDED | 1u << SB_DIFF_DOWNGRADED));
    CHECK(PARSE(SVC_EP_DIFF, &q, {"fail-on", "license-changed"}) == 0 && q.diff_gate == 1u << SB_DIFF_LICENSE);
    CHECK(PARSE(SVC_EP_DIFF, &q, {"fail-on", "source-changed"}) == 0 && q.diff_gate == 1u << SB_DIFF_SOURCE);
    CHECK(PARSE(SVC_EP_QUALITY, &q, {"profile", "all"}) == 0 && q.profiles == 0);
    CHECK(PARSE(SVC_EP_QUALITY, &q, {"profile", "ntia-2021"}) == 0 && q.profiles != 0);
}

/* A value outside its row's set is refused in the one parse, with the set. */
TEST(intake_query_closed_sets)
{
    char why[256];
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"scope", "most"}) == 1);
    CHECK_STR(why, "query parameter 'scope' must be required (leave out development and optional packages) or all");
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"exclude-kind", "rpm"}) == 1);
    CHECK_STR(why, "query parameter 'exclude-kind': 'rpm' is not a package kind");
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"fail-on-severity", "moderate"}) == 1);
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"fail-on-epss", "2"}) == 1 && strstr(why, "probability"));
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"scorecard-min", "11"}) == 1 && strstr(why, "between 0 and 10"));
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"vulnerabilities", "nvd"}) == 1);
    CHECK_STR(why, "query parameter 'vulnerabilities' must be osv");
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"fail-on", "diff"}) == 1 && strstr(why, "takes 'license'"));
    CHECK(PARSE(SVC_EP_DIFF, NULL, {"fail-on", "license"}) == 1 && strstr(why, "must be 'diff'"));
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"fail-on-quality", "iso"}) == 1);
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"include", ""}) == 1 && strstr(why, "non-empty name pattern"));
    CHECK(PARSE(SVC_EP_SBOM, NULL, {"allow-license", NULL}) == 1);
}

/* Every row has a field of the right type: a value given is read back
 * through svc_query_on, the way the repeat check asks which upstream
 * parameters were given. */
TEST(intake_query_every_row_lands)
{
    char why[256];
    for (const svc_qparam *p = svc_qparams(); p->name; p++) {
        unsigned ep = p->endpoints & SVC_EP_SBOM      ? SVC_EP_SBOM
                      : p->endpoints & SVC_EP_TREE    ? SVC_EP_TREE
                      : p->endpoints & SVC_EP_QUALITY ? SVC_EP_QUALITY
                      : p->endpoints & SVC_EP_EXPLAIN ? SVC_EP_EXPLAIN
                      : p->endpoints & SVC_EP_REPORT  ? SVC_EP_REPORT
                                                      : SVC_EP_DIFF;
        const char *v = p->type == SVC_Q_BOOL                                                        ? "true"
                        : p->type == SVC_Q_COUNT                                                     ? "7"
                        : !strcmp(p->name, "scope")                                                  ? "all"
                        : !strcmp(p->name, "exclude-kind")                                           ? "npm"
                        : !strcmp(p->name, "primary-purl")                                           ? "conda"
                        : !strcmp(p->name, "vulnerabilities")                                        ? "osv"
                        : !strcmp(p->name, "fail-on-severity")                                       ? "low"
                        : !strcmp(p->name, "fail-on-epss")                                           ? "0.1"
                        : !strcmp(p->name, "scorecard-min") || !strcmp(p->name, "fail-on-scorecard") ? "5"
                        : !strcmp(p->name, "fail-on")                                                ? "license"
                        : !strcmp(p->name, "fail-on-quality")                                        ? "ntia-2021"
                        : !strcmp(p->name, "profile")                                                ? "ntia-2021"
                        : !strcmp(p->name, "gate-incomplete")                                        ? "pass"
                        : !strcmp(p->name, "timestamp")                                              ? "1700000000"
                        : !strcmp(p->name, "sha")     ? "0123456789abcdef0123456789abcdef01234567"
                        : !strcmp(p->name, "ref")     ? "refs/heads/main"
                        : !strcmp(p->name, "job-url") ? "https://ci.example/run/1"
                                                      : "x";
        svc_query q;
        kv one[1] = {{p->name, v}};
        int bad = parse(ep, one, 1, why, sizeof why, &q);
        sb_test_subcase(p->name, !bad && svc_query_on(&q, p), why);
    }
}

/* timestamp= takes Unix seconds or an RFC 3339 date-time, into one value. */
TEST(intake_query_timestamp_rfc3339)
{
    char why[256];
    svc_query q;
    static const struct {
        const char *in;
        long long want; /* -1: refused */
    } cases[] = {
        {"0", 0},
        {"1700000000", 1700000000LL},
        {"2020-01-01T00:00:00Z", 1577836800LL},
        {"2020-01-01t00:00:00z", 1577836800LL},
        {"2020-01-01 00:00:00Z", 1577836800LL},
        {"2020-01-01T02:00:00+02:00", 1577836800LL},
        {"2019-12-31T19:00:00.123456-05:00", 1577836800LL},
        {"2024-02-29T12:00:00Z", 1709208000LL},
        {"2016-12-31T23:59:60Z", 1483228799LL}, /* a leap second, taken as :59 */
        {"1970-01-01T00:00:00Z", 0},
        {"9999-12-31T23:59:59Z", 253402300799LL},
        {"2023-02-29T00:00:00Z", -1}, /* not a leap year */
        {"2020-13-01T00:00:00Z", -1},
        {"2020-01-01T24:00:00Z", -1},
        {"2020-01-01T00:00:00", -1}, /* no offset */
        {"2020-01-01T00:00:00+0200", -1},
        {"2020-01-01", -1},
        {"1969-12-31T23:59:59Z", -1}, /* before the epoch */
        {"2020-01-01T00:00:00.Z", -1},
        {"-5", -1},
        {"", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kv one[1] = {{"timestamp", cases[i].in}};
        int bad = parse(SVC_EP_SBOM, one, 1, why, sizeof why, &q);
        int ok = cases[i].want < 0 ? bad == 1 : (bad == 0 && q.timestamp == cases[i].want);
        sb_test_subcase(cases[i].in, ok, why);
    }
}
