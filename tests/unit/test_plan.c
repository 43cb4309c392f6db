/*
 * test_plan.c - the request's plan (service/plan.c) and gates
 * (service/gates.c) on their own, without a server: each refusal is a
 * problem value the handler would answer, with the status its kind maps to.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/diff.h"
#include "../../core/gate.h"
#include "../../core/health.h"
#include "../../service/gates.h"
#include "../../service/plan.h"

#include <string.h>

static svc_query query(void)
{
    svc_query q;
    svc_query_init(&q);
    return q;
}

TEST(plan_format_by_name_and_accept)
{
    sb_arena *a = sb_arena_new(0);
    svc_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    svc_problem pb;
    svc_plan p;
    svc_query q = query();
    q.format = "spdx-2.3";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 0);
    CHECK(p.ops && !strcmp(p.ops->name, "spdx-2.3") && p.snap == NULL && !p.many);
    q = query();
    CHECK(svc_plan_sbom(&p, &q, &cfg, "application/vnd.cyclonedx+json; version=1.7", a, &pb) == 0);
    CHECK(p.ops && !strcmp(p.ops->name, "cyclonedx-1.7"));
    /* a format sbomd does not write: 400 naming the ones it does */
    q = query();
    q.format = "swid";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_TYPE && pb.type == SVC_PT_INVALID_PARAMETER && pb.nchoices >= 4);
    CHECK(strstr(pb.err.msg, "'swid'") != NULL);
    /* an Accept it cannot meet is negotiation: 406 */
    q = query();
    CHECK(svc_plan_sbom(&p, &q, &cfg, "image/png", a, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_TYPE && pb.type == SVC_PT_NOT_ACCEPTABLE);
    sb_arena_destroy(a);
}

TEST(plan_vex_needs_cyclonedx_and_findings)
{
    sb_arena *a = sb_arena_new(0);
    svc_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    svc_problem pb;
    svc_plan p;
    svc_query q = query();
    q.format = "cyclonedx-1.6";
    q.output = "vex";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_ERROR && pb.err.code == SB_EINVAL && strstr(pb.err.msg, "vulnerabilities=osv"));
    q.vulnerabilities = "osv";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 0);
    CHECK(p.ops && p.ops->links_into != NULL); /* the VEX of the chosen SBOM format */
    q.format = "spdx-2.3";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 1 && strstr(pb.err.msg, "not CycloneDX"));
    q.format = "cyclonedx-1.6";
    q.output = "sarif";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 1 && strstr(pb.err.msg, "must be vex"));
    sb_arena_destroy(a);
}

TEST(plan_snapshot_parameters)
{
    sb_arena *a = sb_arena_new(0);
    svc_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    svc_problem pb;
    svc_plan p;
    svc_query q = query();
    q.format = "github-snapshot";
    q.sha = "0123456789abcdef0123456789abcdef01234567";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_TYPE && pb.type == SVC_PT_MISSING_PARAMETER);
    CHECK(strstr(pb.err.msg, "ref, correlator, job-id") != NULL); /* every missing one named at once */
    q.ref = "refs/heads/main";
    q.correlator = "ci build";
    q.job_id = "42";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 0);
    CHECK(p.snap && !strcmp(p.snap->job_id, "42") && p.snap->detector_url == NULL);
    /* the snapshot's parameters belong to it alone */
    q.format = "cyclonedx-1.6";
    CHECK(svc_plan_sbom(&p, &q, &cfg, NULL, a, &pb) == 1 && strstr(pb.err.msg, "'sha'"));
    sb_arena_destroy(a);
}

/* A selected document of one package with what the gates read. */
static sb_sbom *doc_of(sb_arena *a, const char *incomplete_step)
{
    sb_sbom *s = sb_arena_calloc(a, 1, sizeof *s);
    s->pkgs = sb_arena_calloc(a, 1, sizeof *s->pkgs);
    s->pkgs[0].name = "jinja2";
    s->pkgs[0].version = "3.1.0";
    s->npkgs = 1;
    s->environment = "default";
    s->platform = "linux-64";
    if (incomplete_step)
        sb_incomplete_add(&s->incomplete, a, incomplete_step, "the upstream answered 503");
    return s;
}

TEST(gates_offered_only_what_the_server_gathers)
{
    svc_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    svc_problem pb;
    svc_query q = query();
    CHECK(svc_gates_offered(&cfg, &q, &pb) == 0);
    q.fail_on_severity = "high";
    CHECK(svc_gates_offered(&cfg, &q, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_TYPE && pb.type == SVC_PT_FEATURE_DISABLED && strstr(pb.err.msg, "--vulnerabilities"));
    cfg.vulns = 1;
    CHECK(svc_gates_offered(&cfg, &q, &pb) == 0);
    q = query();
    q.fail_on_yanked = 1;
    CHECK(svc_gates_offered(&cfg, &q, &pb) == 1 && strstr(pb.err.msg, "--lookups"));
    q.gate_incomplete_pass = true; /* evaluated on what is known */
    CHECK(svc_gates_offered(&cfg, &q, &pb) == 0);
}

TEST(gates_fire_fail_closed_and_warn)
{
    sb_arena *a = sb_arena_new(0);
    svc_problem pb;
    const char *warning = NULL;
    svc_query q = query();
    const sb_sbom *docs[1];

    /* nothing asked: nothing stops */
    docs[0] = doc_of(a, NULL);
    CHECK(svc_gates_check(&q, a, -1, docs, 1, &warning, &pb) == 0 && warning == NULL);

    /* a yanked release fires fail-on-yanked: 422 with the finding */
    sb_sbom *y = doc_of(a, NULL);
    y->health = sb_arena_calloc(a, 1, sizeof *y->health);
    y->health[0].state = SB_HEALTH_ANSWERED;
    y->health[0].yanked = true;
    docs[0] = y;
    q.fail_on_yanked = 1;
    CHECK(svc_gates_check(&q, a, -1, docs, 1, &warning, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_GATE && pb.gate.n == 1 && !strcmp(pb.gate.items[0].package, "jinja2"));
    CHECK(!strcmp(pb.gate.slug, "yanked"));

    /* a gate that would pass on missing data never passes blind: 503 */
    docs[0] = doc_of(a, "pypi-releases");
    CHECK(svc_gates_check(&q, a, -1, docs, 1, &warning, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_UNEVALUATED && strstr(pb.err.msg, "fail-on-yanked"));

    /* gate-incomplete=pass: evaluated on what is known, a Warning says so */
    q.gate_incomplete_pass = true;
    CHECK(svc_gates_check(&q, a, -1, docs, 1, &warning, &pb) == 0);
    CHECK(warning && strstr(warning, "fail-on-yanked"));
    sb_arena_destroy(a);
}

TEST(gates_license_and_diff)
{
    sb_arena *a = sb_arena_new(0);
    svc_problem pb;
    sb_gate g;
    sb_gate_init(&g, "policy-violation", "The license policy is violated");
    CHECK(svc_gates_license(&g, 1, NULL, a, &pb) == 0); /* nothing violated */
    sb_finding f = {.package = "gpl-thing", .version = "1", .rule = "deny-license", .value = "GPL-3.0-only"};
    CHECK(sb_gate_add(&g, a, &f) == SB_OK);
    CHECK(svc_gates_license(&g, 0, NULL, a, &pb) == 0); /* fail-on=license not asked */
    CHECK(svc_gates_license(&g, 1, "strict", a, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_GATE && pb.gate.n == 1 && strstr(pb.err.msg, "1 package(s) violate") &&
          strstr(pb.err.msg, "strict"));

    /* fail-on=now-denied reads a license policy: without one, a 400 */
    svc_query q = query();
    q.diff_gate = SB_DIFF_NOW_DENIED;
    sb_diff d;
    memset(&d, 0, sizeof d);
    unsigned status = 200;
    CHECK(svc_gates_diff(&q, a, &d, false, 0, &status, &pb) == 1);
    CHECK(pb.how == SVC_ANSWER_ERROR && pb.err.code == SB_EINVAL && strstr(pb.err.msg, "fail-on"));
    /* with a policy and nothing changed, the diff goes on as 200 */
    CHECK(svc_gates_diff(&q, a, &d, true, 0, &status, &pb) == 0 && status == 200 && d.gated == SB_DIFF_NOW_DENIED);
    sb_arena_destroy(a);
}
