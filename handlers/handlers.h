/*
 * handlers.h - one register call per endpoint file; nothing else is public.
 */
#ifndef H_HANDLERS_H
#define H_HANDLERS_H

#include "../service/http/router.h"

int h_sbom_register(svc_router *rt);
int h_health_register(svc_router *rt);
int h_formats_register(svc_router *rt);
int h_metrics_register(svc_router *rt);
int h_openapi_register(svc_router *rt);
int h_report_register(svc_router *rt);
int h_page_register(svc_router *rt);
int h_version_register(svc_router *rt);
int h_diff_register(svc_router *rt);

#endif
