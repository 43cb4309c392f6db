/*
 * gates.c - the CI gates a request asks for, over its selected documents:
 * fail-on-quality, fail-on-yanked, fail-on-severity / -kev / -epss and
 * fail-on-scorecard, and the license policy's fail-on=license. Each gate
 * decides an answer (svc_problem) and returns; the handler answers it. A
 * gate never passes blind: it is evaluated only on data it has.
 *
 *   - a gate whose data this server never gathers (no --vulnerabilities, no
 *     --lookups) is a 400 urn:sbomd:problem:feature-disabled before the body
 *     is read (svc_gates_offered);
 *   - a gate that fires on the data it has answers its 422 as always;
 *   - a gate that would pass but whose data is missing from a document (an
 *     upstream refused, failed, timed out, or a lookup was capped: the
 *     document's pixi:incomplete steps the gate reads) is a 503
 *     urn:sbomd:problem:gate-unevaluated with Retry-After, listing each
 *     gate, the missing step and what it lacked (svc_gates_run);
 *   - gate-incomplete=pass opts out of both: the gates are evaluated on what
 *     is known, and a Warning header says which were not whole.
 *
 * Every answer made from documents says which steps they lack in the
 * Sbomd-Incomplete header (svc_gates_mark_incomplete), so a script can test
 * it without reading the body.
 */
#include "gates.h"
#include "params.h"
#include "../core/diff.h"
#include "../core/gate.h"
#include "../core/health.h"
#include "../core/quality.h"
#include "../core/scorecard.h"
#include "../core/vuln.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* A gate that could not finish for memory fails closed: never a pass. */
static int out_of_memory(svc_problem *pb)
{
    return svc_problem_code(pb, SB_ENOMEM, "out of memory evaluating a gate");
}

static int asks_severity(const svc_query *q)
{
    return q->fail_on_severity != NULL;
}
static int asks_kev(const svc_query *q)
{
    return q->fail_on_kev > 0;
}
static int asks_epss(const svc_query *q)
{
    return q->fail_on_epss != NULL;
}
static int asks_yanked(const svc_query *q)
{
    return q->fail_on_yanked > 0;
}
static int asks_scorecard(const svc_query *q)
{
    return q->fail_on_scorecard != NULL;
}

/* The gates that read upstream data, one row each: whether a request asks
 * for it, the pixi:incomplete steps it needs whole (the scorecard gate finds
 * a PyPI package's repository on its project page, so it needs those pages
 * too), and the server option (and its svc_cfg flag) without which the data
 * is never gathered. */
typedef struct gate_need {
    const char *gate;
    int (*asked)(const svc_query *q);
    const char *steps[3];
    const char *server_option;
    size_t cfg_flag; /* offsetof(svc_cfg, a long flag) */
} gate_need;

static const gate_need needs[] = {
    {"fail-on-severity", asks_severity, {"osv", NULL}, "--vulnerabilities", offsetof(svc_cfg, vulns)},
    {"fail-on-kev", asks_kev, {"osv", "kev", NULL}, "--vulnerabilities", offsetof(svc_cfg, vulns)},
    {"fail-on-epss", asks_epss, {"osv", "epss", NULL}, "--vulnerabilities", offsetof(svc_cfg, vulns)},
    {"fail-on-yanked", asks_yanked, {"pypi-releases", NULL}, "--lookups", offsetof(svc_cfg, lookups)},
    {"fail-on-scorecard", asks_scorecard, {"scorecard", "pypi-releases", NULL}, "--lookups", offsetof(svc_cfg, lookups)},
};
#define NNEEDS (sizeof needs / sizeof needs[0])

static int server_has(const svc_cfg *cfg, const gate_need *g)
{
    return *(const long *)(const void *)((const char *)cfg + g->cfg_flag) != 0;
}

int svc_gates_offered(const svc_cfg *cfg, const svc_query *q, svc_problem *pb)
{
    if (q->gate_incomplete_pass)
        return 0; /* evaluated on what is known; the answer says what is not */
    for (size_t i = 0; i < NNEEDS; i++) {
        if (!needs[i].asked(q) || server_has(cfg, &needs[i]))
            continue;
        char detail[400];
        snprintf(detail, sizeof detail,
                 "%s needs data this server does not gather (it was started without %s), so the gate cannot be "
                 "evaluated; ask its operator to turn it on, or add gate-incomplete=pass to have the document "
                 "without the gate's data",
                 needs[i].gate, needs[i].server_option);
        return svc_problem_type(pb, SVC_PT_FEATURE_DISABLED, detail, NULL, 0);
    }
    return 0;
}

void svc_gates_mark_incomplete(svc_req *r, const sb_sbom *const *docs, size_t n)
{
    char steps[512];
    size_t len = 0;
    steps[0] = '\0';
    for (size_t d = 0; d < n; d++)
        for (size_t i = 0; i < docs[d]->incomplete.n; i++) {
            const char *st = docs[d]->incomplete.step[i];
            size_t sl = strlen(st);
            int seen = 0;
            for (const char *p = steps; (p = strstr(p, st)) && !seen; p += sl)
                seen = (p == steps || p[-1] == ' ') && (p[sl] == ',' || p[sl] == '\0');
            if (seen || len + sl + 3 >= sizeof steps)
                continue;
            len += (size_t)snprintf(steps + len, sizeof steps - len, "%s%s", len ? ", " : "", st);
        }
    if (len)
        svc_req_incomplete(r, steps);
}

/* Gates whose data a document lacks: into g (gate, step, detail); then a
 * 503, or with gate-incomplete=pass a Warning per gate. 1 with the answer
 * queued. */
static int unevaluated(const svc_query *q, sb_arena *a, const sb_sbom *const *docs, size_t n, const char **warning,
                       svc_problem *pb)
{
    sb_gate g;
    sb_gate_init(&g, "gate-unevaluated", "A gate could not be evaluated");
    char gates[256];
    size_t glen = 0;
    gates[0] = '\0';
    for (size_t k = 0; k < NNEEDS; k++) {
        if (!needs[k].asked(q))
            continue;
        size_t before = g.n;
        for (size_t d = 0; d < n; d++)
            for (size_t i = 0; i < docs[d]->incomplete.n; i++)
                for (const char *const *st = needs[k].steps; *st; st++) {
                    if (strcmp(*st, docs[d]->incomplete.step[i]))
                        continue;
                    sb_finding f = {.rule = needs[k].gate,
                                    .value = *st,
                                    .reason = sb_arena_printf(a, "%s (%s/%s)", docs[d]->incomplete.detail[i],
                                                              docs[d]->environment, docs[d]->platform)};
                    if (sb_gate_add(&g, a, &f) != SB_OK)
                        return out_of_memory(pb);
                }
        if (g.n > before && glen + strlen(needs[k].gate) + 3 < sizeof gates)
            glen += (size_t)snprintf(gates + glen, sizeof gates - glen, "%s%s", glen ? ", " : "", needs[k].gate);
    }
    if (!sb_gate_fired(&g))
        return 0;
    if (q->gate_incomplete_pass) {
        const char *w = sb_arena_printf(a,
                                        "299 sbomd \"evaluated on incomplete data (gate-incomplete=pass): %s; "
                                        "see Sbomd-Incomplete\"",
                                        gates);
        *warning = w;
        return 0;
    }
    const char *detail =
        sb_arena_printf(a,
                        "%s could not be evaluated: the data it reads is incomplete (%s: %s); a gate never passes "
                        "blind. Retry later, or add gate-incomplete=pass to evaluate it on what is known",
                        gates, g.items[0].value, g.items[0].reason ? g.items[0].reason : "");
    return svc_problem_gate(pb, &g, detail ? detail : "a gate could not be evaluated", 1);
}

static int quality_gate(sb_arena *a, int profile, const sb_sbom *const *docs, size_t n, svc_problem *pb)
{
    if (profile < 0)
        return 0;
    sb_gate g;
    sb_gate_init(&g, "quality-failed", "The SBOM lacks minimum elements of the profile");
    for (size_t i = 0; i < n; i++) {
        sb_quality q;
        if (sb_quality_score(&q, a, docs[i]) != SB_OK ||
            sb_quality_gate(&g, a, docs[i], &q, (sb_quality_profile)profile) != SB_OK)
            return out_of_memory(pb);
    }
    if (!sb_gate_fired(&g))
        return 0;
    const char *detail = sb_arena_printf(a, "%zu element(s) of %s are not met (environment %s, platform %s)", g.n,
                                         sb_quality_profile_name((sb_quality_profile)profile), docs[0]->environment,
                                         docs[0]->platform);
    return svc_problem_gate(pb, &g, detail ? detail : "elements of the quality profile are not met", 0);
}

/* fail-on-severity / fail-on-kev / fail-on-epss (the query's parse checked
 * their values): 1 with the 422 queued when the gate fires. */
static int vuln_gate(const svc_query *q, sb_arena *a, const sb_sbom *const *docs, size_t n, svc_problem *pb)
{
    const char *fs = q->fail_on_severity, *fe = q->fail_on_epss;
    int kev = q->fail_on_kev > 0;
    double epss = q->epss_min;
    if (NULL == fs && !kev && epss < 0)
        return 0;
    sb_gate g;
    sb_gate_init(&g, "vulnerable", "Vulnerable packages");
    for (size_t i = 0; i < n; i++)
        if (sb_vuln_gate(docs[i], a, fs ? (sb_sev)q->severity : SB_SEV_UNKNOWN, kev, epss, &g) != SB_OK)
            return out_of_memory(pb); /* a gate that could not finish fails closed */
    if (!sb_gate_fired(&g))
        return 0;
    const char *detail =
        sb_arena_printf(a,
                        "%zu finding(s) at or above the gate (fail-on-severity=%s%s%s%s); the same request "
                        "without the gate answers the document",
                        g.n, fs ? fs : "-", kev ? ", fail-on-kev=true" : "", fe ? ", fail-on-epss=" : "", fe ? fe : "");
    return svc_problem_gate(pb, &g, detail, 0);
}

/* fail-on-yanked (the query's parse checked
 * the value; intake asked for the flags): 1
 * with the 422 queued when a yanked release is in a document. A package
 * whose lookup failed is not a finding: its document says
 * pixi:incomplete step pypi-releases. */
static int yanked_gate(const svc_query *q, sb_arena *a, const sb_sbom *const *docs, size_t n, svc_problem *pb)
{
    if (q->fail_on_yanked <= 0)
        return 0;
    sb_gate g;
    sb_gate_init(&g, "yanked", "Yanked releases");
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; docs[i]->health && k < docs[i]->npkgs; k++) {
            const sb_health *h = &docs[i]->health[k];
            if (h->state != SB_HEALTH_ANSWERED || !h->yanked)
                continue;
            const sb_pkg *p = &docs[i]->pkgs[k];
            sb_finding f = {.package = p->name,
                            .version = p->version,
                            .rule = "fail-on-yanked",
                            .value = h->yanked_reason,
                            .reason = sb_arena_printf(a, "%s %s is yanked from the index (PEP 592)%s%s", p->name,
                                                      p->version, h->yanked_reason ? ": " : "",
                                                      h->yanked_reason ? h->yanked_reason : "")};
            if (sb_gate_add(&g, a, &f) != SB_OK)
                return out_of_memory(pb);
        }
    if (!sb_gate_fired(&g))
        return 0;
    const char *detail = sb_arena_printf(a,
                                         "%zu yanked release(s) locked (fail-on-yanked=true); the same request "
                                         "without the gate answers the document",
                                         g.n);
    return svc_problem_gate(pb, &g, detail, 0);
}

/* fail-on-scorecard=N (the query's parse checked
 * the value; intake asked for the scores):
 * 1 with the 422 queued when a package's repository scores below N. A
 * package without a known repository, or one the API has not scored, is not
 * a finding (nothing says it is worse); one whose lookup failed neither: its
 * document says pixi:incomplete step scorecard. */
static int scorecard_gate(const svc_query *query, sb_arena *a, const sb_sbom *const *docs, size_t n, svc_problem *pb)
{
    const char *q = query->fail_on_scorecard;
    double min = query->scorecard_gate;
    if (NULL == q)
        return 0;
    sb_gate g;
    sb_gate_init(&g, "scorecard", "OpenSSF Scorecard below the threshold");
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; docs[i]->scorecard && k < docs[i]->npkgs; k++) {
            const sb_scorecard *sc = &docs[i]->scorecard[k];
            if (sc->state != SB_SCORECARD_ANSWERED || sc->score >= min)
                continue;
            const sb_pkg *p = &docs[i]->pkgs[k];
            sb_finding f = {.package = p->name,
                            .version = p->version,
                            .rule = sb_arena_printf(a, "fail-on-scorecard=%s", q),
                            .value = sb_arena_printf(a, "%.1f", sc->score),
                            .reason = sb_arena_printf(a, "github.com/%s scores %.1f, below %s", sc->repo, sc->score,
                                                      q)};
            if (sb_gate_add(&g, a, &f) != SB_OK)
                return out_of_memory(pb);
        }
    if (!sb_gate_fired(&g))
        return 0;
    const char *detail = sb_arena_printf(a,
                                         "%zu package(s) whose repository scores below %s (fail-on-scorecard); the "
                                         "same request without the gate answers the document",
                                         g.n, q);
    return svc_problem_gate(pb, &g, detail, 0);
}

int svc_gates_license(const sb_gate *g, int fail_license, const char *policy_name, sb_arena *a, svc_problem *pb)
{
    if (!fail_license || !sb_gate_fired(g))
        return 0;
    const char *detail = sb_arena_printf(a, "%zu package(s) violate the license policy%s%s", g->n,
                                         policy_name ? " " : "", policy_name ? policy_name : "");
    return svc_problem_gate(pb, g, detail ? detail : "the license policy is violated", 0);
}

int svc_gates_diff(const svc_query *q, sb_arena *a, sb_diff *diff, bool policy_on, int as_doc, unsigned *status,
                   svc_problem *pb)
{
    unsigned gated = q->diff_gate; /* fail-on's kinds of change, checked by the query's parse */
    bool direct = q->diff_direct;
    if ((gated & SB_DIFF_NOW_DENIED) && !policy_on)
        return svc_problem_param(pb, "fail-on",
                                 "is now-denied, which needs a license policy (allow-license, deny-license, "
                                 "require-license or policy)");
    diff->gated = gated;
    diff->gated_direct = direct;
    if (!gated || !diff->nrows)
        return 0;
    sb_gate g;
    sb_gate_init(&g, "diff", "The lockfiles differ");
    if (sb_diff_gate(&g, a, diff, gated, direct) != SB_OK)
        return out_of_memory(pb);
    if (!sb_gate_fired(&g))
        return 0;
    if (as_doc) { /* the diff itself, led by what fails, is the answer */
        *status = 422;
        return 0;
    }
    char detail[300];
    if (gated == SB_DIFF_ALL)
        snprintf(detail, sizeof detail, "%zu change(s) between base and head, and fail-on=diff", diff->nrows);
    else
        snprintf(detail, sizeof detail,
                 "%zu change(s) between base and head of the kinds fail-on=%.120s names (%zu change(s) in all)", g.n,
                 q->fail_on, diff->nrows);
    return svc_problem_gate(pb, &g, detail, 0);
}

int svc_gates_check(const svc_query *q, sb_arena *a, int quality_profile, const sb_sbom *const *docs, size_t n,
                    const char **warning, svc_problem *pb)
{
    *warning = NULL;
    /* a gate that fires on what is known fails the request whatever else is
     * missing (its 422 names real findings); one that would pass is only
     * trusted on whole data */
    return quality_gate(a, quality_profile, docs, n, pb) || yanked_gate(q, a, docs, n, pb) ||
           vuln_gate(q, a, docs, n, pb) || scorecard_gate(q, a, docs, n, pb) || unevaluated(q, a, docs, n, warning, pb);
}

int svc_gates_run(svc_req *r, int quality_profile, const sb_sbom *const *docs, size_t n, svc_problem *pb)
{
    svc_gates_mark_incomplete(r, docs, n);
    const char *warning = NULL;
    int stop = svc_gates_check(svc_req_q(r), svc_req_arena(r), quality_profile, docs, n, &warning, pb);
    if (warning)
        svc_req_add_header(r, "Warning", warning);
    return stop;
}
