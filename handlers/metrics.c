/*
 * metrics.c - GET /metrics: counters and gauges in Prometheus text format.
 */
#include "handlers.h"

static int get_metrics(svc_req *r)
{
    const char *body;
    size_t len;
    if (svc_req_metrics_text(r, &body, &len) != 0) {
        sb_err err;
        sb_err_set(&err, SB_ENOMEM, "out of memory");
        return svc_req_error(r, &err, NULL, 0);
    }
    return svc_req_send_asset(r, "text/plain; version=0.0.4; charset=utf-8", body, len, NULL);
}

int h_metrics_register(svc_router *rt)
{
    return svc_router_add(rt, "GET", "/metrics", get_metrics, 0);
}
