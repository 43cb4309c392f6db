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
    const sb_report_kind *k = svc_req_report(r); /* every report route carries its kind */
    const sb_doc_ops *ops = NULL;
    svc_problem pb;
    if (svc_intake_output(r, k, &ops, &pb))
        return svc_req_answer(r, &pb);
    const svc_query *q = svc_req_q(r);
    const char *explain = q->package;
    if (k->needs_package && (NULL == explain || !explain[0])) /* before the body is read */
        return svc_bad_param(r, "package", "is required: the name of the package to explain");
    svc_intake in;
    svc_req_mark(r, "upload");
    int rc;
    if (svc_req_repeat(r, &rc))
        return rc;
    if (svc_intake_read(r, SB_TEXTS_CYCLONEDX, 0, &in, &pb))
        return svc_req_answer(r, &pb);
    svc_req_mark(r, "parse");
    /* a report whose SARIF results are policy violations: no policy, nothing to say */
    if (ops->report_output == SB_REPORT_SARIF && k->sarif_needs_policy && !in.policy_on)
        return svc_bad_param(r, "output",
                             "is sarif, whose results are license policy violations: give a policy "
                             "(allow-license, deny-license, require-license or policy)");
    sb_sbom *sbom = NULL;
    if (svc_intake_select(r, &in, &sbom, &pb))
        return svc_req_answer(r, &pb);
    svc_req_mark(r, "model");
    if (k->needs_package && svc_intake_explain_known(r, sbom, explain, &pb))
        return svc_req_answer(r, &pb);
    const sb_sbom *one[1] = {sbom};
    if (svc_gates_run(r, in.fail_quality, one, 1, &pb))
        return svc_req_answer(r, &pb);
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
        /* the endpoint whose parameter rows the report takes, by its params */
        static const unsigned eps[] = {[SB_REPORT_PARAMS_COMMON] = SVC_EP_REPORT,
                                       [SB_REPORT_PARAMS_TREE] = SVC_EP_TREE,
                                       [SB_REPORT_PARAMS_QUALITY] = SVC_EP_QUALITY,
                                       [SB_REPORT_PARAMS_EXPLAIN] = SVC_EP_EXPLAIN};
        if (svc_router_add_report(rt, path, post_report, eps[(*k)->params], *k))
            return -1;
    }
    return 0;
}
