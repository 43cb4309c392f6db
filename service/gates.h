/*
 * gates.h - the CI gates of a request over its selected documents, failing
 * closed when their data is missing (gates.c says how).
 */
#ifndef SVC_GATES_H
#define SVC_GATES_H

#include "http/request.h"
#include "../core/model.h"

#include <stddef.h>

/* Before the body is read: a gate this server cannot evaluate (its data is
 * never gathered here) is a 400 feature-disabled. 0, or 1 with the answer
 * queued and *rc set. */
int svc_gates_offered(svc_req *r, int *rc);

/* After selection, before the answer: the Sbomd-Incomplete header;
 * fail-on-quality (`quality_profile`, -1 = none), fail-on-yanked,
 * fail-on-severity / -kev / -epss, fail-on-scorecard, each a 422 when it
 * fires; then a gate that did not fire but whose data is missing answers 503
 * gate-unevaluated (gate-incomplete=pass: a Warning instead). 0 when the
 * answer may go on; 1 with it queued. */
int svc_gates_run(svc_req *r, int quality_profile, const sb_sbom *const *docs, size_t n, int *rc);

/* The Sbomd-Incomplete header: the pixi:incomplete steps of the documents,
 * each once, comma-separated (none: no header). svc_gates_run sets it;
 * answers that run no gates call it themselves. */
void svc_gates_mark_incomplete(svc_req *r, const sb_sbom *const *docs, size_t n);

#endif
