/*
 * gate.h - what a CI gate found: the one shape every `fail-on-*` check
 * (license policy, vulnerabilities, quality profiles, diff, yanked) reports
 * in, so the service answers every failed gate the same way: a 422
 * problem+json of type urn:sbomd:problem:<slug> whose `violations` array
 * names each finding, and `curl --fail-with-body` fails the job.
 *
 * A gate only collects; deciding what violates is the caller's business.
 * Findings live in the request arena.
 */
#ifndef SB_GATE_H
#define SB_GATE_H

#include "arena.h"
#include "err.h"

#include <stddef.h>

/* A package a finding names, and why it is named. */
typedef struct sb_finding_pkg {
    const char *name, *version, *reason;
} sb_finding_pkg;

/* One finding. Every field may be NULL / 0 (omitted from the problem
 * document). A finding about one package names it in package/version; one
 * about many (a quality element lacking in 40 components) lists the first
 * ones in pkgs and how many there are in all in count. */
typedef struct sb_finding {
    const char *package; /* component name */
    const char *version;
    const char *rule;   /* what was checked: "deny-license", "severity>=high", ... */
    const char *value;  /* what was found: the license expression, the advisory id, ... */
    const char *reason; /* one human sentence */
    const char *remedy; /* what to do about it, one sentence */
    const sb_finding_pkg *pkgs;
    size_t npkgs;
    size_t count; /* packages concerned in all (pkgs holds the first npkgs) */
} sb_finding;

typedef struct sb_gate {
    const char *slug;  /* problem type suffix: "policy-violation", "vulnerable", ... */
    const char *title; /* problem title */
    sb_finding *items;
    size_t n, cap;
} sb_gate;

/* An empty gate of a kind. */
void sb_gate_init(sb_gate *g, const char *slug, const char *title);

/* Append a copy of *f (the strings are not copied: they must outlive the
 * request, i.e. live in `a` or be static). */
sb_code sb_gate_add(sb_gate *g, sb_arena *a, const sb_finding *f);

/* Whether the gate fired. */
static inline int sb_gate_fired(const sb_gate *g)
{
    return g->n > 0;
}

#endif
