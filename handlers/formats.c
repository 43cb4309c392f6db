/*
 * formats.c - GET /v1/formats: the document formats sbomd writes, as JSON.
 */
#include "handlers.h"
#include "../core/doc.h"

static int get_formats(svc_req *r)
{
    const char *body;
    size_t len;
    sb_err err;
    sb_err_clear(&err);
    if (sb_doc_formats_json(&body, &len, svc_req_arena(r)) != SB_OK) {
        sb_err_set(&err, SB_ENOMEM, "out of memory");
        return svc_req_error(r, &err, NULL, 0);
    }
    return svc_req_send(r, 200, "application/json", body, len);
}

int h_formats_register(svc_router *rt)
{
    return svc_router_add(rt, "GET", "/v1/formats", get_formats, 0);
}
