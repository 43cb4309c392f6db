/*
 * gates.h - the CI gates of a request over its selected documents, failing
 * closed when their data is missing (gates.c says how).
 */
#ifndef SVC_GATES_H
#define SVC_GATES_H

#include "http/request.h"
#include "params.h"
#include "../core/gate.h"
#include "../core/model.h"

#include <stddef.h>

/* Before the body is read: a gate this server cannot evaluate (its data is
 * never gathered here) is a 400 feature-disabled. 0, or 1 with it in *pb. */
int svc_gates_offered(const svc_cfg *cfg, const svc_query *q, svc_problem *pb);

/* fail-on=license (`fail_license`) over the license policy's gate `g`
 * (violations of every document of the request): 1 with the 422 in *pb
 * when it fired. */
int svc_gates_license(const sb_gate *g, int fail_license, const char *policy_name, sb_arena *a, svc_problem *pb);

/* /v1/diff's fail-on over a computed diff (its gate fields set from q): a
 * 400 when now-denied has no policy to read; when the gate fires, a 422
 * problem in *pb, or, for an output that is the diff itself (`as_doc`:
 * text, Markdown), *status 422 and 0 so the diff is the answer. */
struct sb_diff;
int svc_gates_diff(const svc_query *q, sb_arena *a, struct sb_diff *diff, bool policy_on, int as_doc, unsigned *status,
                   svc_problem *pb);

/* The gates over selected documents, without the request: fail-on-quality
 * (`quality_profile`, -1 = none), fail-on-yanked, fail-on-severity / -kev /
 * -epss, fail-on-scorecard, each a 422 when it fires; then a gate that did
 * not fire but whose data is missing is a 503 gate-unevaluated
 * (gate-incomplete=pass: *warning says so instead). 0 when the answer may go
 * on; 1 with it in *pb. */
int svc_gates_check(const svc_query *q, sb_arena *a, int quality_profile, const sb_sbom *const *docs, size_t n,
                    const char **warning, svc_problem *pb);

/* After selection, before the answer: the Sbomd-Incomplete header, then
 * svc_gates_check (its Warning header set on the request). 0 when the
 * answer may go on; 1 with it in *pb. */
int svc_gates_run(svc_req *r, int quality_profile, const sb_sbom *const *docs, size_t n, svc_problem *pb);

/* The Sbomd-Incomplete header: the pixi:incomplete steps of the documents,
 * each once, comma-separated (none: no header). svc_gates_run sets it;
 * answers that run no gates call it themselves. */
void svc_gates_mark_incomplete(svc_req *r, const sb_sbom *const *docs, size_t n);

#endif
