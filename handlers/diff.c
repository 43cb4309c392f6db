/*
 * diff.c - POST /v1/diff: a multipart body with parts `base` and `head`,
 * each a lockfile read and selected as /v1/sbom reads its body (the same
 * selection parameters apply to both; two repositories, archives of a base
 * and a head commit, are compared lockfile by lockfile), answered with what changed
 * (core/diff.h) as JSON, text, Markdown or CSV (output= or Accept). When
 * fail-on's kinds of change (optionally of direct dependencies only; with a
 * license policy, now-denied: a package the policy denies now and did not
 * before) are among the changes, the answer is a 422: the problem+json naming them for
 * JSON and CSV, or the text / Markdown diff itself led by the changes that
 * fail the gate (a pull-request comment and a failed job in one request).
 */
#include "handlers.h"
#include "../core/diff.h"
#include "../service/gates.h"
#include "../service/intake.h"
#include "../service/params.h"

#include <stdio.h>
#include <string.h>

/* Read and select one side; a repository (an archive, several lockfile
 * parts) also each lockfile's own selection, in *each. 0, or 1 with the
 * answer in *pb. */
static int side(svc_req *r, const char *part, svc_intake *in, sb_sbom **out, sb_sbom ***each, size_t *neach,
                svc_problem *pb)
{
    if (svc_intake_read_part(r, part, in, pb))
        return 1;
    if (in->repo && svc_intake_select_all(r, in, each, neach, pb))
        return 1;
    return svc_intake_select(r, in, out, pb);
}

static int post_diff(svc_req *r)
{
    svc_problem pb;
    const sb_doc_ops *ops = NULL;
    if (svc_intake_output(r, &sb_diff_kind, &ops, &pb))
        return svc_req_answer(r, &pb);
    svc_intake base_in, head_in;
    sb_sbom *base = NULL, *head = NULL, **base_each = NULL, **head_each = NULL;
    size_t nbase = 0, nhead = 0;
    svc_req_mark(r, "upload");
    if (side(r, "base", &base_in, &base, &base_each, &nbase, &pb) ||
        side(r, "head", &head_in, &head, &head_each, &nhead, &pb))
        return svc_req_answer(r, &pb);
    svc_req_drop_body(r); /* both sides hold copies of what they need */
    const sb_sbom *sides[2] = {base, head};
    svc_gates_mark_incomplete(r, sides, 2);
    svc_req_mark(r, "model");
    sb_arena *a = svc_req_arena(r);
    sb_err err;
    sb_err_clear(&err);
    sb_diff *diff = NULL;
    /* two repositories: lockfile by lockfile (its path pairs them) */
    sb_code made = base_in.repo && head_in.repo
                       ? sb_diff_compute_repo(&diff, a, base, head, (const sb_sbom *const *)base_each, nbase,
                                              (const sb_sbom *const *)head_each, nhead, &err)
                       : sb_diff_compute(&diff, a, base, head, &err);
    if (made != SB_OK)
        return svc_req_error(r, &err, NULL, 0);
    /* text and Markdown: the diff itself, led by what fails, is the 422 */
    int as_doc = ops->report_output == SB_REPORT_TEXT || ops->report_output == SB_REPORT_MARKDOWN;
    unsigned status = 200;
    if (svc_gates_diff(svc_req_q(r), a, diff, head_in.policy_on, as_doc, &status, &pb))
        return svc_req_answer(r, &pb);
    if (status == 422)
        svc_req_gate_fired(r, "diff"); /* the diff itself is the 422: counted as the gate's */
    sb_doc_opts dopts = {.timestamp = head_in.ts, .pretty = head_in.pretty != 0};
    sb_doc *doc = NULL;
    if (sb_diff_doc_new(&doc, a, ops, diff, &dopts, &err) != SB_OK)
        return svc_req_error(r, &err, NULL, 0);
    svc_req_disposition(r, "diff", head->environment, head->platform, svc_media_ext(ops->media_type));
    return svc_req_stream_status(r, status, ops->media_type, doc);
}

int h_diff_register(svc_router *rt)
{
    return svc_router_add_q(rt, "POST", "/v1/diff", post_diff, 1, SVC_EP_DIFF);
}
