/*
 * report.c - POST /v1/report/{packages,licenses,python,tree}: the same body
 * and selection parameters as /v1/sbom, a report streamed back as JSON or as
 * an aligned text table (?output=json|text, else Accept).
 */
#include "handlers.h"
#include "../core/report.h"
#include "../service/intake.h"
#include "../service/params.h"

#include <stdio.h>
#include <string.h>

#define PREFIX "/v1/report/"

static int post_report(svc_req *r)
{
    const sb_report_kind *k = sb_report_kind_find(svc_req_path(r) + strlen(PREFIX));
    const sb_doc_ops *ops = NULL;
    int rc;
    if (NULL == k)
        return svc_req_problem(r, 404, NULL, NULL, NULL, NULL, 0);
    if (svc_intake_output(r, k, &ops, &rc))
        return rc;
    svc_intake in;
    svc_req_mark(r, "upload");
    if (svc_intake_read(r, SB_TEXTS_CYCLONEDX, 0, &in, &rc))
        return rc;
    svc_req_mark(r, "parse");
    if (in.all_envs || in.all_plats)
        return svc_bad_param(r, in.all_envs ? "all-environments" : "all-platforms",
                             "is not supported by reports: a report covers one environment x platform");
    sb_sbom *sbom = NULL;
    if (svc_intake_select(r, &in, &sbom, &rc))
        return rc;
    svc_req_mark(r, "model");
    sb_doc_opts dopts = {in.ts, in.pretty != 0, NULL, 0, 0, in.sha1};
    long long depth = -1;
    if (svc_param_count(svc_req_query(r, "depth"), 100000, &depth))
        return svc_bad_param(r, "depth", "must be a level count (0 = the root's direct dependencies only)");
    if (depth >= 0)
        dopts.tree_levels = (unsigned)depth + 1;
    sb_doc *doc = NULL;
    sb_err err;
    sb_err_clear(&err);
    if (sb_doc_new(&doc, svc_req_arena(r), ops, sbom, &dopts, &err) != SB_OK)
        return svc_req_error(r, &err, NULL, 0);
    return svc_req_stream(r, ops->media_type, doc);
}

int h_report_register(svc_router *rt)
{
    for (const sb_report_kind *const *k = sb_report_registry(); *k; k++) {
        char path[SVC_ROUTE_PATH_MAX];
        snprintf(path, sizeof path, PREFIX "%s", (*k)->name);
        if (svc_router_add(rt, "POST", path, post_report, 1))
            return -1;
    }
    return 0;
}
