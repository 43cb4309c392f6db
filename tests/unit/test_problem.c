/*
 * test_problem.c - the table of problem types (service/http/problem.c): one type
 * per kind, each with one status, and openapi/openapi.yaml listing exactly
 * the same types with the same statuses, and docs/api.md a row for each.
 */
#include "test.h"
#include "../../service/http/request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST(problem_types_unique_and_complete)
{
    size_t n = 0;
    const svc_ptype_row *t = svc_ptypes(&n);
    CHECK(n == SVC_PT_N);
    for (size_t i = 0; i < n; i++) {
        /* every enum value has its row (a designated initializer left out
         * would leave a NULL slug) and no two kinds share a type */
        CHECK(t[i].slug != NULL && t[i].title != NULL && t[i].when != NULL);
        if (NULL == t[i].slug)
            continue;
        CHECK(t[i].status >= 400 && t[i].status <= 599);
        for (size_t j = i + 1; j < n; j++)
            CHECK(t[j].slug == NULL || strcmp(t[i].slug, t[j].slug) != 0);
    }
    CHECK(svc_status_for(SB_EPARSE) == 400);
    CHECK(svc_status_for(SB_ELIMIT) == 413);
    CHECK(svc_status_for(SB_EUNSUPPORTED) == 422);
    CHECK(svc_status_for(SB_EMISUSE) == 500);
}

/* Each row is in the OpenAPI's Problem.type: in its enum, and in its
 * description as "- <slug> (<status>, <title>)"; and the enum holds no type
 * the table does not (run from the repository root, as tests/run-all.sh does). */
TEST(problem_types_match_openapi)
{
    size_t len = 0, n = 0;
    char *y = sb_test_read("openapi/openapi.yaml", &len);
    CHECK(y != NULL);
    if (NULL == y)
        return;
    const svc_ptype_row *t = svc_ptypes(&n);
    for (size_t i = 0; i < n; i++) {
        char en[128], desc[160];
        snprintf(en, sizeof en, "- urn:sbomd:problem:%s\n", t[i].slug);
        snprintf(desc, sizeof desc, "- %s (%u, %s):", t[i].slug, t[i].status, t[i].title);
        sb_test_subcase(t[i].slug, strstr(y, en) != NULL, "not in Problem.type's enum in openapi.yaml");
        sb_test_subcase(t[i].slug, strstr(y, desc) != NULL, "not described with its status and title in openapi.yaml");
    }
    const char *mark = "- urn:sbomd:problem:";
    for (const char *q = y; (q = strstr(q, mark)); q += strlen(mark)) {
        const char *s = q + strlen(mark);
        size_t k = strcspn(s, "\n");
        int found = 0;
        for (size_t i = 0; i < n; i++)
            found |= strlen(t[i].slug) == k && !strncmp(t[i].slug, s, k);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(k < 60 ? k : 60), s);
        sb_test_subcase(name, found, "in openapi.yaml's enum, not in the table");
    }
    free(y);
}

/* docs/api.md's table of problem types has a row per type, with its status. */
TEST(problem_types_match_docs)
{
    size_t len = 0, n = 0;
    char *d = sb_test_read("docs/api.md", &len);
    CHECK(d != NULL);
    if (NULL == d)
        return;
    const svc_ptype_row *t = svc_ptypes(&n);
    for (size_t i = 0; i < n; i++) {
        char row[128];
        snprintf(row, sizeof row, "| `%s` | %u | ", t[i].slug, t[i].status);
        sb_test_subcase(t[i].slug, strstr(d, row) != NULL, "no row with its status in docs/api.md's problem types");
    }
    free(d);
}
