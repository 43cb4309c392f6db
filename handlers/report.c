/*
 * report.c - POST /v1/report/{kind} for every report the registry in
 * core/report.c holds (packages, licenses, python, tree, quality,
 * vulnerabilities, outdated, explain): the same body and selection parameters
 * as /v1/sbom (license policy included), a report streamed back as JSON, an
 * aligned text table, Markdown, CSV, or SARIF where the report has it
 * (?output=, else Accept).
 */
#include "handlers.h"
#include "../core/quality.h"
#include "../core/report.h"
#include "../service/gates.h"
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
    if (NULL == k) /* the router took only the registered kinds: a defect if reached */
        return svc_req_problem(r, SVC_PT_NOT_FOUND, "no such report", NULL, 0);
    if (svc_intake_output(r, k, &ops, &rc))
        return rc;
    const svc_query *q = svc_req_q(r);
    const char *explain = q->package;
    if (k->needs_package && (NULL == explain || !explain[0])) /* before the body is read */
        return svc_bad_param(r, "package", "is required: the name of the package to explain");
    svc_intake in;
    svc_req_mark(r, "upload");
    if (svc_req_repeat(r, &rc))
        return rc;
    if (svc_intake_read(r, SB_TEXTS_CYCLONEDX, 0, &in, &rc))
        return rc;
    svc_req_mark(r, "parse");
    /* the licenses report's SARIF results are policy violations: no policy, nothing to say */
    if (ops == k->ops[SB_REPORT_SARIF] && !strcmp(k->name, "licenses") && !in.policy_on)
        return svc_bad_param(r, "output",
                             "is sarif, whose results are license policy violations: give a policy "
                             "(allow-license, deny-license, require-license or policy)");
    if (in.all_envs || in.all_plats)
        return svc_bad_param(r, in.all_envs ? "all-environments" : "all-platforms",
                             "is not supported by reports: a report covers one environment x platform");
    sb_sbom *sbom = NULL;
    if (svc_intake_select(r, &in, &sbom, &rc))
        return rc;
    svc_req_mark(r, "model");
    if (k->needs_package && svc_intake_explain_known(r, sbom, explain, &rc))
        return rc;
    const sb_sbom *one[1] = {sbom};
    if (svc_gates_run(r, in.fail_quality, one, 1, &rc))
        return rc;
    sb_doc_opts dopts = {.timestamp = in.ts, .pretty = in.pretty != 0, .input_sha1 = in.sha1};
    if (q->depth >= 0) /* tree only; 0 = the root's direct dependencies */
        dopts.tree_levels = (unsigned)q->depth + 1;
    dopts.quality_profiles = q->profiles; /* quality only: one profile, or 0 for all */
    dopts.explain_package = explain;
    sb_doc *doc = NULL;
    sb_err err;
    sb_err_clear(&err);
    if (sb_doc_new(&doc, svc_req_arena(r), ops, sbom, &dopts, &err) != SB_OK)
        return svc_req_error(r, &err, NULL, 0);
    /* curl -OJ saves it as e.g. licenses-report-default-linux-64.csv */
    char what[48];
    snprintf(what, sizeof what, "%s-report", k->name);
    svc_req_disposition(r, what, sbom->environment, sbom->platform, svc_media_ext(ops->media_type));
    return svc_req_stream(r, ops->media_type, doc);
}

int h_report_register(svc_router *rt)
{
    for (const sb_report_kind *const *k = sb_report_registry(); *k; k++) {
        char path[SVC_ROUTE_PATH_MAX];
        snprintf(path, sizeof path, PREFIX "%s", (*k)->name);
        unsigned ep = !strcmp((*k)->name, "tree")      ? SVC_EP_TREE
                      : !strcmp((*k)->name, "quality") ? SVC_EP_QUALITY
                      : !strcmp((*k)->name, "explain") ? SVC_EP_EXPLAIN
                                                       : SVC_EP_REPORT;
        if (svc_router_add_q(rt, "POST", path, post_report, 1, ep))
            return -1;
    }
    return 0;
}
