/*
 * page.c - GET /: one static page (handlers/page.html, embedded at build
 * time) to upload a lockfile from a browser, download its SBOM and see the
 * licenses and packages reports. No framework, no external requests: its
 * Content-Security-Policy lets it talk to this server only, and no other
 * site frame it (a framed upload form could be clickjacked).
 */
#include "handlers.h"

extern const char sb_page_html[];
extern const unsigned long sb_page_html_len;
extern const char sb_page_html_etag[];

static int get_page(svc_req *r)
{
    svc_req_add_header(r, "Content-Security-Policy",
                       "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                       "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                       "frame-ancestors 'none'");
    svc_req_add_header(r, "X-Content-Type-Options", "nosniff");
    return svc_req_send_asset(r, "text/html; charset=utf-8", sb_page_html, (size_t)sb_page_html_len, sb_page_html_etag);
}

int h_page_register(svc_router *rt)
{
    return svc_router_add(rt, "GET", "/", get_page, 0);
}
