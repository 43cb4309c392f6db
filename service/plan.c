/*
 * plan.c - a request's options resolved into a plan before its body is read
 * (plan.h): the format, output=vex and the GitHub snapshot's parameters.
 * Every rule that joins two parameters lives here, beside the one table of
 * parameters (params.c) that checks each alone.
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The names of the formats sbomd writes, for a refusal's choices. */
static const char *const *format_names(sb_arena *a, size_t *n)
{
    const sb_doc_ops *const *f = sb_doc_formats();
    for (*n = 0; f[*n];)
        (*n)++;
    const char **v = sb_arena_alloc(a, (*n ? *n : 1) * sizeof *v);
    for (size_t i = 0; v && i < *n; i++)
        v[i] = f[i]->name;
    if (NULL == v)
        *n = 0;
    return v;
}

/* output=vex: the findings as a component-less CycloneDX VEX of the SBOM
 * format chosen, whose BOM-Links point into the document the same request
 * without output=vex answers. Refused for another output, an SPDX format,
 * or when no findings are asked for. */
static int vex_output(const svc_query *q, sb_arena *a, const sb_doc_ops **ops, svc_problem *pb)
{
    if (NULL == q->output)
        return 0;
    if (strcasecmp(q->output, "vex"))
        return svc_problem_param(pb, "output", "must be vex on /v1/sbom (the document's format is format= or Accept)");
    if (NULL == (*ops)->vex) {
        const char *why = sb_arena_printf(a,
                                          "is vex, a CycloneDX VEX document, but format %s is not CycloneDX: ask for "
                                          "cyclonedx-1.6 or cyclonedx-1.7 (spdx-3.0.1 carries the findings in the "
                                          "SBOM itself)",
                                          (*ops)->name);
        return svc_problem_param(pb, "output", why ? why : "is vex, which needs a CycloneDX format");
    }
    if (NULL == q->vulnerabilities)
        return svc_problem_param(pb, "output", "is vex, which needs vulnerabilities=osv (the VEX lists the findings)");
    *ops = (*ops)->vex;
    return 0;
}

/* format=github-snapshot: the commit and job it is submitted for, which
 * only the client knows. Refused when a required one is missing (all of
 * them named at once) or when one is given for another format. */
static int snapshot_params(const svc_query *q, const svc_cfg *cfg, sb_arena *a, const sb_doc_ops *ops,
                           const sb_doc_snapshot **out, svc_problem *pb)
{
    const struct {
        const char *name, *value;
        bool required;
    } p[] = {{"sha", q->sha, true},       {"ref", q->ref, true},          {"correlator", q->correlator, true},
             {"job-id", q->job_id, true}, {"job-url", q->job_url, false}, {"path", q->path, false}};
    size_t n = sizeof p / sizeof p[0];
    *out = NULL;
    if (!ops->snapshot) {
        for (size_t i = 0; i < n; i++)
            if (p[i].value) {
                const char *why = sb_arena_printf(a, "is only taken by format=github-snapshot, not %s", ops->name);
                return svc_problem_param(pb, p[i].name, why ? why : "is only taken by format=github-snapshot");
            }
        return 0;
    }
    sb_strb missing = {0};
    size_t nmissing = 0;
    for (size_t i = 0; i < n; i++)
        if (p[i].required && NULL == p[i].value) {
            nmissing++;
            if (sb_strb_add(&missing, a, ", ", p[i].name) != SB_OK)
                return svc_problem_code(pb, SB_ENOMEM, "out of memory");
        }
    if (nmissing) {
        char detail[400];
        snprintf(detail, sizeof detail,
                 "format github-snapshot needs the query parameter%s %s (in GitHub Actions: sha=$GITHUB_SHA, "
                 "ref=$GITHUB_REF, correlator=$GITHUB_WORKFLOW $GITHUB_JOB, job-id=$GITHUB_RUN_ID)",
                 nmissing > 1 ? "s" : "", missing.s);
        return svc_problem_type(pb, SVC_PT_MISSING_PARAMETER, detail, NULL, 0);
    }
    sb_doc_snapshot *g = sb_arena_calloc(a, 1, sizeof *g);
    if (NULL == g)
        return svc_problem_code(pb, SB_ENOMEM, "out of memory");
    g->sha = q->sha;
    g->ref = q->ref;
    g->correlator = q->correlator;
    g->job_id = q->job_id;
    g->job_url = q->job_url;
    g->source_location = q->path;
    g->detector_url = cfg->detector_url[0] ? cfg->detector_url : NULL;
    *out = g;
    return 0;
}

int svc_plan_sbom(svc_plan *out, const svc_query *q, const svc_cfg *cfg, const char *accept, sb_arena *a,
                  svc_problem *pb)
{
    memset(out, 0, sizeof *out);
    /* all-* answers NDJSON: Accept may name that container */
    out->many = q->all_environments > 0 || q->all_platforms > 0;
    out->ops = q->format ? sb_doc_find(q->format) : svc_negotiate_format_for(accept, out->many);
    if (NULL == out->ops) {
        size_t n = 0;
        const char *const *choices = format_names(a, &n);
        char detail[256];
        snprintf(detail, sizeof detail, "%s%.64s%s is not a format sbomd writes", q->format ? "format '" : "Accept: ",
                 q->format ? q->format
                 : accept  ? accept
                           : "",
                 q->format ? "'" : "");
        /* a format= the server does not write is a bad value (400); only what
         * Accept asks for is a matter of negotiation (406) */
        return svc_problem_type(pb, q->format ? SVC_PT_INVALID_PARAMETER : SVC_PT_NOT_ACCEPTABLE, detail, choices, n);
    }
    return vex_output(q, a, &out->ops, pb) || snapshot_params(q, cfg, a, out->ops, &out->snap, pb);
}
