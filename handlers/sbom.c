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
 *
 * The handler runs the stages (plan, repeat, intake, select, gates) and
 * answers once: a stage that refuses returns its problem, never answers.
 */
#include "handlers.h"
#include "../core/doc.h"
#include "../core/model.h"
#include "../service/gates.h"
#include "../service/intake.h"
#include "../service/params.h"
#include "../service/plan.h"

#include <string.h>

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

/* SPDX 2.3 and GitHub's snapshot have no place for findings: say so rather
 * than drop them silently. */
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

/* The documents of the request, selected and past their gates: one, or
 * one per selection (`many`: all-*, or a repository's lockfiles). 0, or 1
 * with the answer in *pb. */
static int select_docs(svc_req *r, svc_intake *in, int many, sb_sbom ***docs, size_t *nd, svc_problem *pb)
{
    if (many) {
        if (svc_intake_select_all(r, in, docs, nd, pb))
            return 1;
    } else {
        sb_sbom **one = sb_arena_alloc(svc_req_arena(r), sizeof *one);
        if (NULL == one)
            return svc_problem_code(pb, SB_ENOMEM, "out of memory");
        if (svc_intake_select(r, in, &one[0], pb))
            return 1;
        *docs = one;
        *nd = 1;
    }
    svc_req_mark(r, "model");
    if (svc_gates_run(r, in->fail_quality, (const sb_sbom *const *)*docs, *nd, pb))
        return 1;
    return svc_req_expired(r) ? svc_problem_timeout(pb) : 0;
}

static int post_sbom(svc_req *r)
{
    sb_arena *a = svc_req_arena(r);
    svc_problem pb;
    svc_plan plan;
    if (svc_plan_sbom(&plan, svc_req_q(r), svc_req_cfg(r), svc_req_header(r, "Accept"), a, &pb))
        return svc_req_answer(r, &pb);
    const sb_doc_ops *ops = plan.ops;
    svc_req_note(r, ops->name, -1);

    svc_intake in;
    int rc;
    svc_req_mark(r, "upload");
    if (svc_req_repeat(r, &rc))
        return rc;
    if (svc_intake_read(r, ops->text_shape, 1, &in, &pb))
        return svc_req_answer(r, &pb);
    svc_req_mark(r, "parse");
    sb_sbom **docs = NULL;
    size_t nd = 0;
    /* a repository's NDJSON lines and snapshot manifests are its lockfiles'
     * own documents; one document is the merged repository */
    int all = in.all_envs || in.all_plats;
    int many = all || (in.repo && ops->joins_selections);
    if (select_docs(r, &in, many, &docs, &nd, &pb))
        return svc_req_answer(r, &pb);
    for (size_t i = 0; i < nd; i++) {
        warn_incomplete(r, docs[i]);
        warn_vulns(r, ops, docs[i]);
    }

    const sb_sbom *const *cdocs = (const sb_sbom *const *)docs;
    sb_doc_opts dopts = {.timestamp = in.ts,
                         .pretty = in.pretty != 0 && (!many || ops->joins_selections),
                         .input_sha1 = in.sha1,
                         .timestamp_given = in.ts_given,
                         .snapshot = plan.snap,
                         .by_lockfile = in.repo && !all};
    sb_err err;
    sb_err_clear(&err);
    sb_doc *doc = NULL;
    const char *env = in.all_envs ? "all" : docs[0]->environment, *plat = in.all_plats ? "all" : docs[0]->platform;
    if (many && !ops->joins_selections) { /* NDJSON: one compact document per selection */
        if (sb_doc_new_seq(&doc, a, ops, cdocs, nd, &dopts, &err) != SB_OK)
            return svc_req_error(r, &err, NULL, 0);
        svc_req_count(r, (unsigned)nd, NULL);
        svc_req_disposition(r, "sbom", env, plat, ".ndjson");
        return svc_req_stream(r, "application/x-ndjson", doc);
    }
    sb_code made = many ? sb_doc_new_joined(&doc, a, ops, cdocs, nd, &dopts, &err)
                        : sb_doc_new(&doc, a, ops, docs[0], &dopts, &err);
    if (made != SB_OK)
        return svc_req_error(r, &err, NULL, 0);
    if (many)
        svc_req_count(r, 1, NULL);
    svc_req_disposition(r, "sbom", env, plat, ops->ext);
    return svc_req_stream(r, ops->media_type, doc);
}

int h_sbom_register(svc_router *rt)
{
    return svc_router_add_q(rt, "POST", "/v1/sbom", post_sbom, 1, SVC_EP_SBOM);
}
