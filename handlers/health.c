/*
 * health.c - GET /healthz: the process is alive and answering.
 */
#include "handlers.h"

static int healthz(svc_req *r)
{
    static const char body[] = "{\"status\":\"ok\"}\n";
    return svc_req_send(r, 200, "application/json", body, sizeof body - 1);
}

int h_health_register(svc_router *rt)
{
    return svc_router_add(rt, "GET", "/healthz", healthz, 0);
}
