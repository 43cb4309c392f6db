/*
 * router.c - a short linear table; a service with a handful of routes needs
 * nothing cleverer.
 */
#include "router.h"
#include "../params.h"

#include <string.h>

int svc_router_add_q(svc_router *rt, const char *method, const char *path, svc_handler_fn fn, int wants_body,
                     unsigned ep)
{
    if (rt->n >= SVC_MAX_ROUTES || strlen(path) >= SVC_ROUTE_PATH_MAX)
        return -1;
    svc_route *r = &rt->routes[rt->n++];
    *r = (svc_route){.method = method, .fn = fn, .wants_body = wants_body, .query_ep = ep};
    memcpy(r->path, path, strlen(path) + 1);
    return 0;
}

int svc_router_add_report(svc_router *rt, const char *path, svc_handler_fn fn, unsigned ep,
                          const struct sb_report_kind *k)
{
    if (svc_router_add_q(rt, "POST", path, fn, 1, ep))
        return -1;
    rt->routes[rt->n - 1].report = k;
    return 0;
}

int svc_router_add(svc_router *rt, const char *method, const char *path, svc_handler_fn fn, int wants_body)
{
    return svc_router_add_q(rt, method, path, fn, wants_body, 0);
}

const char *svc_router_closest(const svc_router *rt, const char *path)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1, len = strnlen(path, 64);
    for (unsigned i = 0; i < rt->n; i++) {
        size_t d = svc_distance(path, rt->routes[i].path);
        if (d < best_d) {
            best = rt->routes[i].path;
            best_d = d;
        }
    }
    return best && best_d * 3 <= len ? best : NULL;
}

const svc_route *svc_router_match(const svc_router *rt, const char *method, const char *path, int *path_known)
{
    *path_known = 0;
    for (unsigned i = 0; i < rt->n; i++) {
        const svc_route *r = &rt->routes[i];
        if (strcmp(r->path, path))
            continue;
        *path_known = 1;
        if (!strcmp(r->method, method) || (!strcmp(method, "HEAD") && !strcmp(r->method, "GET")))
            return r;
    }
    return NULL;
}

void svc_router_allowed(const svc_router *rt, const char *path, char *buf, size_t n)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < rt->n; i++) {
        if (strcmp(rt->routes[i].path, path))
            continue;
        if (buf[0])
            strncat(buf, ", ", n - strlen(buf) - 1);
        strncat(buf, rt->routes[i].method, n - strlen(buf) - 1);
        if (!strcmp(rt->routes[i].method, "GET"))
            strncat(buf, ", HEAD", n - strlen(buf) - 1);
    }
}
