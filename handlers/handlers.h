/*
 * handlers.h - one register call per endpoint file; nothing else is public.
 */
#ifndef H_HANDLERS_H
#define H_HANDLERS_H

#include "../service/router.h"

int h_sbom_register(svc_router *rt);
int h_health_register(svc_router *rt);
int h_formats_register(svc_router *rt);
int h_metrics_register(svc_router *rt);
int h_openapi_register(svc_router *rt);
int h_report_register(svc_router *rt);
int h_page_register(svc_router *rt);
int h_version_register(svc_router *rt);
int h_diff_register(svc_router *rt);

/* fail-on-severity / fail-on-kev over the request's documents (sbom.c):
 * 1 with the 422 problem queued (*rc for the handler) when it fires. */
struct sb_sbom;
int svc_vuln_gate(svc_req *r, const struct sb_sbom *const *docs, size_t n, int *rc);
/* fail-on-yanked: the same shape, slug "yanked" (sbom.c). */
int svc_yanked_gate(svc_req *r, const struct sb_sbom *const *docs, size_t n, int *rc);
/* fail-on-scorecard=N: 1 with the 422 queued when a scored package is below N. */
int svc_scorecard_gate(svc_req *r, const struct sb_sbom *const *docs, size_t n, int *rc);

#endif
