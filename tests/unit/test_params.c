/*
 * test_params.c - request parameter parsers: booleans, counts, and Accept
 * negotiation with q-values, versions, wildcards and hostile shapes.
 */
#include "test.h"
#include "../../service/params.h"

#include <string.h>

TEST(params_bool_and_count)
{
    int b = 7;
    CHECK(svc_param_bool(NULL, 1, &b) == 0 && b == 1);
    CHECK(svc_param_bool("false", 1, &b) == 0 && b == 0);
    CHECK(svc_param_bool("", 0, &b) == 0 && b == 1);
    CHECK(svc_param_bool("yes", 0, &b) == -1);
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
