/*
 * health.c - GET /healthz (alive and answering) and GET /readyz (accepting
 * work: 503 once shutdown has begun, so load balancers drain this replica).
 */
#include "handlers.h"

static int healthz(svc_req *r)
{
    static const char body[] = "{\"status\":\"ok\"}\n";
    return svc_req_send(r, 200, "application/json", body, sizeof body - 1);
}

static int readyz(svc_req *r)
{
    static const char ok[] = "{\"status\":\"ready\"}\n";
    static const char draining[] = "{\"status\":\"draining\"}\n";
    if (svc_req_server_ready(r))
        return svc_req_send(r, 200, "application/json", ok, sizeof ok - 1);
    svc_req_add_header(r, "Retry-After", "5");
    return svc_req_send(r, 503, "application/json", draining, sizeof draining - 1);
}

int h_health_register(svc_router *rt)
{
    return svc_router_add(rt, "GET", "/healthz", healthz, 0) || svc_router_add(rt, "GET", "/readyz", readyz, 0);
}
