/*
 * sbom.c - POST /v1/sbom: lockfile in the body, an SBOM streamed back.
 *
 * Query: format (cyclonedx-1.6 | cyclonedx-1.7 | spdx-2.3 | spdx-3.0.1), else
 * the Accept header (media types with version= and q= parameters);
 * environment (default "default"), platform (default: linux-64 when locked,
 * else the only platform), kind (auto), filename (for detection and the
 * recorded lockfile name), name / version (the document root), timestamp
 * (Unix seconds), pretty (true|false), all-environments / all-platforms
 * (true: one compact document per environment x platform as NDJSON),
 * license-texts (true: embed license file texts from the package cache),
 * license-file-max / license-texts-max (lower the server's text budget),
 * include / exclude / exclude-kind / scope / keep-orphans (core/filter.h),
 * output=vex (with vulnerabilities=osv and a CycloneDX format: the findings
 * as a CycloneDX VEX pointing into that SBOM); format=github-snapshot (GitHub's
 * dependency-submission body, core/doc_github.c) with sha, ref, correlator,
 * job-id (required), job-url and path, which no other format takes; its
 * all-* answer is one snapshot with a manifest per selection, not NDJSON.
 * The lockfile is the raw body, or the `lockfile` field of a
 * multipart/form-data upload; its name comes from filename=, else the
 * Content-Disposition of the body or of the part.
 */
#include "handlers.h"
#include "../core/pairs.h"
#include "../core/doc.h"
#include "../core/filter.h"
#include "../core/lock.h"
#include "../core/gate.h"
#include "../core/health.h"
#include "../core/scorecard.h"
#include "../core/model.h"
#include "../core/select.h"
#include "../core/vuln.h"
#include "../service/gates.h"
#include "../service/intake.h"
#include "../service/lookup/lookup.h"
#include "../service/params.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static int format_choices(svc_req *r, const char ***out)
{
    const sb_doc_ops *const *f = sb_doc_formats();
    size_t n = 0;
    while (f[n])
        n++;
    const char **v = sb_arena_alloc(svc_req_arena(r), (n ? n : 1) * sizeof *v);
    if (NULL == v)
        return 0;
    for (size_t i = 0; i < n; i++)
        v[i] = f[i]->name;
    *out = v;
    return (int)n;
}

/* Texts left out of the budget are worth a header: the body may be read by
 * a tool that never looks at pixi:incomplete. */
static void warn_incomplete(svc_req *r, const sb_sbom *s)
{
    for (size_t i = 0; i < s->incomplete.n; i++) {
        if (strcmp(s->incomplete.step[i], "license-texts"))
            continue;
        const char *w = sb_arena_printf(svc_req_arena(r), "299 sbomd \"%s (%s/%s)\"", s->incomplete.detail[i],
                                        s->environment, s->platform);
        if (w)
            svc_req_add_header(r, "Warning", w);
    }
}

/* SPDX 2.3 and GitHub's snapshot have no place for findings (spec 6.9):
 * say so rather than drop them silently. */
static void warn_vulns(svc_req *r, const sb_doc_ops *ops, const sb_sbom *s)
{
    if (!ops->drops_findings || !s->vulns_asked)
        return;
    const char *w = sb_arena_printf(svc_req_arena(r),
                                    "299 sbomd \"%s cannot hold vulnerability findings: %zu left out (%s/%s); "
                                    "ask for cyclonedx-1.6, cyclonedx-1.7 or spdx-3.0.1\"",
                                    ops->title, s->nvulns, s->environment, s->platform);
    if (w)
        svc_req_add_header(r, "Warning", w);
}

/* all-environments / all-platforms: one document per selection, in the
 * order core/pairs.c gives (default first, then by name), as NDJSON. */
static int stream_many(svc_req *r, const sb_doc_ops *ops, svc_intake *in, const sb_lock *lock,
                       const sb_select_opts *base, int all_envs, int all_plats, time_t ts, const unsigned char *sha1,
                       const sb_doc_snapshot *snap)
{
    int prc;
    sb_arena *a = svc_req_arena(r);
    const svc_cfg *cfg = svc_req_cfg(r);
    sb_err err;
    sb_err_clear(&err);
    sb_select_pair *pairs = NULL;
    size_t np = 0;
    if (sb_model_pairs(&pairs, &np, a, lock, base, all_envs, all_plats, (size_t)cfg->max_documents, &err) != SB_OK) {
        const char **choices = NULL;
        int n = err.code == SB_ENOTFOUND ? svc_intake_choices(r, lock, base->environment, &choices) : 0;
        return svc_req_error(r, &err, choices, (size_t)n);
    }
    /* every pair's lookups are queued before any is selected, so they run
     * together; with a filter, only what it keeps (learnt by a selection
     * without lookups; an unknown platform is answered by the real one) */
    for (size_t i = 0; base->lookup && i < np; i++) {
        sb_select_opts sel = *base;
        sel.environment = pairs[i].environment;
        sel.platform = pairs[i].platform;
        if (sb_filter_active(sel.filter)) {
            sb_select_opts probe = sel;
            probe.lookup = NULL;
            probe.health = NULL; /* and no health lookups: the selection asks them */
            sb_sbom *kept = NULL;
            sb_err perr;
            if (sb_select(&kept, a, lock, &probe, &perr) == SB_OK)
                svc_lookup_prefetch_pkgs(sel.lookup_ctx, kept->pkgs, kept->npkgs, a);
        } else {
            svc_lookup_prefetch(sel.lookup_ctx, sb_select_platform(lock, &sel), sel.package_cache, a);
        }
    }
    sb_sbom **docs = sb_arena_alloc(a, (np + 1) * sizeof *docs);
    if (NULL == docs)
        return -1;
    size_t at = 0;
    if (sb_model_select_pairs(docs, a, lock, base, pairs, np, &at, &err) != SB_OK) {
        if (err.code == SB_ETIMEOUT)
            return svc_req_timeout(r);
        const char **choices = NULL;
        int n = err.code == SB_ENOTFOUND ? svc_intake_choices(r, lock, pairs[at].environment, &choices) : 0;
        return svc_req_error(r, &err, choices, (size_t)n);
    }
    size_t nd = np; /* at least one: every environment has its document */
    long total = 0;
    for (size_t i = 0; i < nd; i++) {
        if (svc_intake_policy(r, in, docs[i], &prc))
            return prc;
        total += (long)docs[i]->npkgs;
        warn_incomplete(r, docs[i]);
    }
    /* the policy above marked them; from here on they are only read */
    const sb_sbom **cdocs = (const sb_sbom **)docs;
    svc_req_note(r, NULL, total);
    if (svc_intake_gate(r, in, &prc))
        return prc;
    svc_req_mark(r, "model");
    int grc;
    if (svc_gates_run(r, in->fail_quality, cdocs, nd, &grc))
        return grc;
    for (size_t i = 0; i < nd; i++)
        warn_vulns(r, ops, docs[i]);
    if (svc_req_expired(r))
        return svc_req_timeout(r);
    sb_doc_opts dopts = {.timestamp = ts, .pretty = false, .input_sha1 = sha1, .timestamp_given = in->ts_given};
    sb_doc *doc = NULL;
    if (ops->joins_selections) { /* one document holding every selection */
        dopts.pretty = in->pretty != 0;
        dopts.snapshot = snap;
        if (sb_doc_new_joined(&doc, a, ops, cdocs, nd, &dopts, &err) != SB_OK)
            return svc_req_error(r, &err, NULL, 0);
        svc_req_count(r, 1, NULL);
        svc_req_disposition(r, "sbom", all_envs ? "all" : docs[0]->environment, all_plats ? "all" : docs[0]->platform,
                            ops->ext);
        return svc_req_stream(r, ops->media_type, doc);
    }
    if (sb_doc_new_seq(&doc, a, ops, cdocs, nd, &dopts, &err) != SB_OK)
        return svc_req_error(r, &err, NULL, 0);
    svc_req_count(r, (unsigned)nd, NULL);
    svc_req_disposition(r, "sbom", all_envs ? "all" : docs[0]->environment, all_plats ? "all" : docs[0]->platform,
                        ".ndjson");
    return svc_req_stream(r, "application/x-ndjson", doc);
}

/* output=vex (issue 22 part 4): the findings as a component-less CycloneDX
 * VEX of the SBOM format chosen, whose BOM-Links point into the document the
 * same request without output=vex answers. 1 with a 400 queued when it
 * cannot be: another output, an SPDX format, or no findings asked for. */
static int vex_output(svc_req *r, const sb_doc_ops **ops, int *rc)
{
    const char *output = svc_req_q(r)->output;
    if (NULL == output)
        return 0;
    if (strcasecmp(output, "vex")) {
        *rc = svc_bad_param(r, "output", "must be vex on /v1/sbom (the document's format is format= or Accept)");
        return 1;
    }
    if ((*ops)->vex) {
        *ops = (*ops)->vex;
    } else {
        const char *why =
            sb_arena_printf(svc_req_arena(r),
                            "is vex, a CycloneDX VEX document, but format %s is not CycloneDX: ask for "
                            "cyclonedx-1.6 or cyclonedx-1.7 (spdx-3.0.1 carries the findings in the SBOM itself)",
                            (*ops)->name);
        *rc = svc_bad_param(r, "output", why ? why : "is vex, which needs a CycloneDX format");
        return 1;
    }
    if (NULL == svc_req_q(r)->vulnerabilities) {
        *rc = svc_bad_param(r, "output", "is vex, which needs vulnerabilities=osv (the VEX lists the findings)");
        return 1;
    }
    return 0;
}

/* format=github-snapshot (issue 42): the commit and job it is submitted for,
 * which only the client knows. 1 with a 400 queued when a required one is
 * missing (all of them named at once) or when they are given for another
 * format; else 0 with *out set (NULL for another format). */
static int snapshot_params(svc_req *r, const sb_doc_ops *ops, const sb_doc_snapshot **out, int *rc)
{
    const svc_query *q = svc_req_q(r);
    const struct {
        const char *name, *value;
        bool required;
    } p[] = {{"sha", q->sha, true},       {"ref", q->ref, true},          {"correlator", q->correlator, true},
             {"job-id", q->job_id, true}, {"job-url", q->job_url, false}, {"path", q->path, false}};
    size_t n = sizeof p / sizeof p[0];
    *out = NULL;
    sb_arena *a = svc_req_arena(r);
    if (!ops->snapshot) {
        for (size_t i = 0; i < n; i++)
            if (p[i].value) {
                const char *why = sb_arena_printf(a, "is only taken by format=github-snapshot, not %s", ops->name);
                *rc = svc_bad_param(r, p[i].name, why ? why : "is only taken by format=github-snapshot");
                return 1;
            }
        return 0;
    }
    sb_strb missing = {0};
    size_t nmissing = 0;
    for (size_t i = 0; i < n; i++)
        if (p[i].required && NULL == p[i].value) {
            nmissing++;
            if (sb_strb_add(&missing, a, ", ", p[i].name) != SB_OK)
                return *rc = -1, 1;
        }
    if (nmissing) {
        const char *detail = sb_arena_printf(a,
                                             "format github-snapshot needs the query parameter%s %s (in GitHub "
                                             "Actions: sha=$GITHUB_SHA, ref=$GITHUB_REF, correlator=$GITHUB_WORKFLOW "
                                             "$GITHUB_JOB, job-id=$GITHUB_RUN_ID)",
                                             nmissing > 1 ? "s" : "", missing.s);
        *rc = svc_req_problem(r, SVC_PT_MISSING_PARAMETER,
                              detail ? detail : "format github-snapshot needs sha, ref, correlator and job-id", NULL,
                              0);
        return 1;
    }
    sb_doc_snapshot *g = sb_arena_calloc(a, 1, sizeof *g);
    if (NULL == g)
        return *rc = -1, 1;
    g->sha = q->sha;
    g->ref = q->ref;
    g->correlator = q->correlator;
    g->job_id = q->job_id;
    g->job_url = q->job_url;
    g->source_location = q->path;
    g->detector_url = svc_req_cfg(r)->detector_url[0] ? svc_req_cfg(r)->detector_url : NULL;
    *out = g;
    return 0;
}

static int post_sbom(svc_req *r)
{
    sb_arena *a = svc_req_arena(r);
    sb_err err;
    sb_err_clear(&err);

    const sb_doc_ops *ops;
    const svc_query *q = svc_req_q(r);
    const char *fmt = q->format;
    if (fmt) {
        ops = sb_doc_find(fmt);
    } else {
        /* all-* answers NDJSON: Accept may name that container */
        int many = q->all_environments > 0 || q->all_platforms > 0;
        ops = svc_negotiate_format_for(svc_req_header(r, "Accept"), many);
    }
    if (NULL == ops) {
        const char **choices = NULL;
        int n = format_choices(r, &choices);
        char detail[256];
        snprintf(detail, sizeof detail, "%s%.64s%s is not a format sbomd writes",
                 fmt ? "format '" : "Accept: ", fmt ? fmt : svc_req_header(r, "Accept"), fmt ? "'" : "");
        /* a format= the server does not write is a bad value (400); only what
         * Accept asks for is a matter of negotiation (406) */
        return svc_req_problem(r, fmt ? SVC_PT_INVALID_PARAMETER : SVC_PT_NOT_ACCEPTABLE, detail, choices, (size_t)n);
    }
    int vrc;
    if (vex_output(r, &ops, &vrc))
        return vrc;
    const sb_doc_snapshot *snap = NULL;
    if (snapshot_params(r, ops, &snap, &vrc))
        return vrc;
    svc_req_note(r, ops->name, -1);

    svc_intake in;
    int rc;
    svc_req_mark(r, "upload");
    if (svc_req_repeat(r, &rc))
        return rc;
    if (svc_intake_read(r, ops->text_shape, 1, &in, &rc))
        return rc;
    svc_req_mark(r, "parse");
    if (in.all_envs || in.all_plats)
        return stream_many(r, ops, &in, in.lock, &in.sel, in.all_envs, in.all_plats, in.ts, in.sha1, snap);
    sb_sbom *sbom = NULL;
    if (svc_intake_select(r, &in, &sbom, &rc))
        return rc;
    svc_req_mark(r, "model");
    const sb_sbom *one[1] = {sbom};
    if (svc_gates_run(r, in.fail_quality, one, 1, &rc))
        return rc;
    warn_incomplete(r, sbom);
    warn_vulns(r, ops, sbom);

    sb_doc_opts dopts = {.timestamp = in.ts,
                         .pretty = in.pretty != 0,
                         .input_sha1 = in.sha1,
                         .timestamp_given = in.ts_given,
                         .snapshot = snap};
    sb_doc *doc = NULL;
    if (sb_doc_new(&doc, a, ops, sbom, &dopts, &err) != SB_OK)
        return svc_req_error(r, &err, NULL, 0);
    svc_req_disposition(r, "sbom", sbom->environment, sbom->platform, ops->ext);
    return svc_req_stream(r, ops->media_type, doc);
}

int h_sbom_register(svc_router *rt)
{
    return svc_router_add_q(rt, "POST", "/v1/sbom", post_sbom, 1, SVC_EP_SBOM);
}
