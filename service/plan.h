/*
 * plan.h - what a request asks for, resolved once before its body is read:
 * the output format (format= or Accept), and the choices that depend on
 * several parameters together (output=vex needs a CycloneDX format and
 * vulnerabilities=osv; the snapshot's parameters belong to
 * format=github-snapshot and it needs some of them). Pure: it reads the
 * parsed query and the server's settings, never the request, so it is unit
 * tested on its own; a refusal is a problem value the handler answers.
 */
#ifndef SVC_PLAN_H
#define SVC_PLAN_H

#include "config.h"
#include "http/request.h"
#include "params.h"
#include "../core/doc.h"

typedef struct svc_plan {
    const sb_doc_ops *ops;       /* the document format (output=vex: its VEX document) */
    const sb_doc_snapshot *snap; /* format=github-snapshot: the commit and job; NULL else */
    bool many;                   /* all-environments / all-platforms: one document per selection */
} svc_plan;

/* The plan of a POST /v1/sbom: 0 with *out set, or 1 with the refusal in
 * *pb (400 for a format= sbomd does not write or a parameter that does not
 * go with the others, 406 for an Accept it cannot meet). `accept` is the
 * Accept header (NULL: none); allocations come from `a`. */
int svc_plan_sbom(svc_plan *out, const svc_query *q, const svc_cfg *cfg, const char *accept, sb_arena *a,
                  svc_problem *pb);

#endif
