/*
 * router.h - method + exact path -> handler. Built at startup, read-only after.
 */
#ifndef SVC_ROUTER_H
#define SVC_ROUTER_H

#include "request.h"

typedef int (*svc_handler_fn)(svc_req *r);

#define SVC_ROUTE_PATH_MAX 64

typedef struct svc_route {
    const char *method;
    char path[SVC_ROUTE_PATH_MAX]; /* a copy: paths may be built at startup */
    svc_handler_fn fn;
    int wants_body;
    unsigned query_ep; /* SVC_EP_* whose query parameters it takes (parsed at dispatch); 0 = none read */
    const struct sb_report_kind *report; /* the report it serves (/v1/report/...), NULL for others */
} svc_route;

#define SVC_MAX_ROUTES 48

typedef struct svc_router {
    svc_route routes[SVC_MAX_ROUTES];
    unsigned n;
} svc_router;

/* Add a route; `path` is copied (at most SVC_ROUTE_PATH_MAX - 1 bytes, else -1). */
int svc_router_add(svc_router *rt, const char *method, const char *path, svc_handler_fn fn, int wants_body);

/* The same for a route that takes the query parameters of endpoint `ep`
 * (service/params.h): the server parses them once, before the handler
 * runs, and answers every unknown or bad one itself. */
int svc_router_add_q(svc_router *rt, const char *method, const char *path, svc_handler_fn fn, int wants_body,
                     unsigned ep);

/* The same for a report's route: the request carries the report kind
 * (svc_req_report), so no stage finds a report by its path. */
int svc_router_add_report(svc_router *rt, const char *path, svc_handler_fn fn, unsigned ep,
                          const struct sb_report_kind *k);

/* The route for method+path, or NULL; *path_known tells a 405 from a 404.
 * HEAD matches GET routes. */
const svc_route *svc_router_match(const svc_router *rt, const char *method, const char *path, int *path_known);

/* The route path closest to a path no route has (a typo), or NULL when none
 * is within a third of its length. */
const char *svc_router_closest(const svc_router *rt, const char *path);

/* "GET, HEAD" style list of methods allowed on path, into buf. */
void svc_router_allowed(const svc_router *rt, const char *path, char *buf, size_t n);

#endif
