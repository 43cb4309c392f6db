/*
 * openapi.c - GET /openapi.yaml: the API contract, embedded in the binary at
 * build time from openapi/openapi.yaml, so the server always serves the
 * contract it was built with; and GET /reports.schema.json, the one schema of
 * every report's rows and summary (openapi/reports.schema.json) that the
 * contract links to, beside it for the same reason.
 */
#include "handlers.h"

extern const char sb_openapi_yaml[];
extern const unsigned long sb_openapi_yaml_len;
extern const char sb_openapi_yaml_etag[];
extern const char sb_reports_schema[];
extern const unsigned long sb_reports_schema_len;
extern const char sb_reports_schema_etag[];

static int get_openapi(svc_req *r)
{
    return svc_req_send_asset(r, "application/yaml", sb_openapi_yaml, (size_t)sb_openapi_yaml_len,
                              sb_openapi_yaml_etag);
}

static int get_reports_schema(svc_req *r)
{
    return svc_req_send_asset(r, "application/schema+json", sb_reports_schema, (size_t)sb_reports_schema_len,
                              sb_reports_schema_etag);
}

int h_openapi_register(svc_router *rt)
{
    return svc_router_add(rt, "GET", "/openapi.yaml", get_openapi, 0) ||
           svc_router_add(rt, "GET", "/reports.schema.json", get_reports_schema, 0);
}
