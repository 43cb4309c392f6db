/*
 * test_intake.c - the strict query check every lockfile endpoint runs first
 * (service/intake.c check_query over svc_query_check_* in service/params.c):
 * unknown and misplaced parameters, out-of-bounds values, which parameters
 * may repeat, and a selection excluding its all-* form. End to end the same
 * rules are in tests/integration/params.sh.
 */
#include "test.h"
#include "../../service/params.h"

#include <string.h>

typedef struct kv {
    const char *k, *v;
} kv;

/* Run the check over a query as intake does: each argument in order, then
 * the pairs. 0 = accepted; else 1 with why copied out. */
static int run(unsigned ep, const kv *q, size_t n, char *why, size_t wn)
{
    svc_query_check c = {.ep = ep};
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = svc_query_check_arg(&c, q[i].k, q[i].v);
    snprintf(why, wn, "%s", bad ? c.why : "");
    return bad;
}

/* The query's value of a name: the first one given, "" for a bare ?name. */
typedef struct query {
    const kv *q;
    size_t n;
} query;

static const char *lookup(void *cls, const char *name)
{
    const query *qq = cls;
    for (size_t i = 0; i < qq->n; i++)
        if (!strcmp(qq->q[i].k, name))
            return qq->q[i].v ? qq->q[i].v : "";
    return NULL;
}

static int run_all(unsigned ep, const kv *q, size_t n, char *why, size_t wn)
{
    if (run(ep, q, n, why, wn))
        return 1;
    svc_query_check c = {.ep = ep};
    query qq = {q, n};
    int bad = svc_query_check_pairs(&c, lookup, &qq);
    snprintf(why, wn, "%s", bad ? c.why : "");
    return bad;
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
    CHECK_STR(why, "query parameter 'timestamp' must be a whole number from 0 to 253402300799");
    CHECK(RUN(SVC_EP_SBOM, {"timestamp", "-1"}) == 1);
    CHECK(RUN(SVC_EP_SBOM, {"timestamp", NULL}) == 1); /* a bare ?timestamp has no number */
    CHECK(RUN(SVC_EP_TREE, {"depth", "100000"}) == 0);
    CHECK(RUN(SVC_EP_TREE, {"depth", "100001"}) == 1);
    CHECK(RUN(SVC_EP_SBOM, {"pretty", NULL}) == 0); /* a bare boolean is true */
    CHECK(RUN(SVC_EP_SBOM, {"pretty", "maybe"}) == 1);
    CHECK_STR(why, "query parameter 'pretty' must be true or false");
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
