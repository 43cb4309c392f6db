/*
 * intake.h - what every endpoint that takes a lockfile does first: the body
 * (raw or multipart), detection and reading, and the selection options
 * taken from the request's parsed query (svc_req_q: environment, platform,
 * name, version, timestamp, pretty, all-*, license texts and their budget,
 * the filters, the policy, the lookups), with the checks that need the
 * server's settings or several parameters together (a budget above the
 * server's, a policy name it does not have, a gate without
 * vulnerabilities=osv), each refused with a located problem answer.
 */
#ifndef SVC_INTAKE_H
#define SVC_INTAKE_H

#include "../core/lock.h"
#include "../core/model.h"
#include "../core/select.h"
#include "../core/policy.h"
#include "http/request.h"

#include <time.h>

typedef struct svc_intake {
    const char *body; /* NULL once read: the request's body is freed */
    size_t len;
    unsigned char sha1[20]; /* of the lockfile, for the documents' serial numbers */
    sb_lock *lock;
    sb_select_opts sel;
    time_t ts;     /* document timestamp */
    bool ts_given; /* by timestamp=: it wins over an SBOM input's own (core/doc.c) */
    int pretty;
    int all_envs, all_plats;
    sb_policy policy;           /* policy=NAME, then allow/deny/require/ignore-license */
    bool policy_on;             /* any of them was given */
    bool fail_license;          /* fail-on=license: a violation answers 422 */
    sb_gate gate;               /* the violations of every document of the request */
    int fail_quality;           /* fail-on-quality: an sb_quality_profile, -1 = none */
    const struct sb_repo *repo; /* a repository sent whole (core/repo.h): its lockfiles; NULL otherwise */
} svc_intake;

/* Every stage below returns 0 when the request may go on, or 1 with the
 * answer it decided in *pb; the handler gives it (svc_req_answer). */

/* Apply the request's license policy (if any) to one selected document:
 * verdicts, pixi:license-* properties, findings. */
int svc_intake_policy(svc_req *r, svc_intake *in, sb_sbom *s, svc_problem *pb);

/* Parse parameters and read the lockfile: the answer 400/413/415/422...
 * when it cannot be. `shape`: which license files the output can embed; `digest`:
 * fill in->sha1 (documents need it, reports do not). */
int svc_intake_read(svc_req *r, sb_text_shape shape, int digest, svc_intake *in, svc_problem *pb);

/* The same for the lockfile in the multipart part named `part` (/v1/diff's
 * `base` and `head`), for a report (no digest, CycloneDX text shape); the
 * body stays for the next part. The `filename` parameter does not apply: a
 * part's own file name helps detection. */
int svc_intake_read_part(svc_req *r, const char *part, svc_intake *in, svc_problem *pb);

/* Select one environment x platform (in->sel), apply the license policy
 * and its gate (fail-on=license): the answer 422 naming the choices or the
 * violations, or 504 past the deadline, when it cannot go on. */
int svc_intake_select(svc_req *r, svc_intake *in, sb_sbom **out, svc_problem *pb);

/* The request's deadline (--request-timeout from its start) as core takes
 * it: absolute CLOCK_MONOTONIC nanoseconds (core/deadline.h). */
long long svc_intake_deadline(const svc_req *r);


/* all-environments / all-platforms: every selection, in the order
 * core/pairs.c gives (default first, then by name), with their lookups run
 * together, the license policy applied and its gate checked; the answer
 * (422 naming choices or violations, 504) when it cannot go on. */
int svc_intake_select_all(svc_req *r, svc_intake *in, sb_sbom ***docs, size_t *ndocs, svc_problem *pb);

/* Environments or platforms to offer when a selection was not found. */
int svc_intake_choices(svc_req *r, const sb_lock *lock, const char *env, const char ***out);

/* The output of a report kind asked for: output= wins, else Accept among
 * the outputs the kind has. 0 and *ops set, or 1 with the answer (400
 * naming the outputs, 406). */
struct sb_report_kind;
int svc_intake_output(svc_req *r, const struct sb_report_kind *k, const sb_doc_ops **ops, svc_problem *pb);
/* The explain report's package=: 0 when the selection holds it (or a
 * filter left it out); else 1 with a 422 unknown-choice in *pb, naming the
 * closest package names. */
int svc_intake_explain_known(svc_req *r, const sb_sbom *s, const char *want, svc_problem *pb);

/* report-<output>: the format a report or diff answer is counted and logged
 * under (output an sb_report_output); NULL out of range. */
const char *svc_intake_report_label(int output);

#endif
