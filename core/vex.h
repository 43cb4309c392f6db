/*
 * vex.h - VEX statements applied to findings:
 * a CycloneDX VEX document (vulnerabilities[] with analysis and affects) or
 * an OpenVEX document (statements[] with status and products) says of an
 * advisory that a product is not affected, fixed, affected or under
 * investigation; the findings it names carry that as their analysis, and
 * the settled ones (not_affected, resolved, false_positive) no longer fail
 * a gate.
 *
 * Statements are kept in CycloneDX's words: OpenVEX's statuses and
 * justifications are translated when read.
 */
#ifndef SB_VEX_H
#define SB_VEX_H

#include "arena.h"
#include "err.h"
#include "model.h"

#include <stddef.h>

typedef struct sb_vex_stmt {
    sb_strv ids;               /* the advisory's id and aliases */
    sb_strv refs;              /* products: bom-refs, BOM-Link fragments, purls; empty = any */
    const char *state;         /* CycloneDX analysis.state */
    const char *justification; /* CycloneDX analysis.justification or NULL */
    const char *detail;        /* analysis.detail / impact_statement, or NULL */
} sb_vex_stmt;

typedef struct sb_vex {
    const char *source; /* "cyclonedx:<serialNumber>" / "openvex:<@id>" (pixi:vex-source) */
    sb_vex_stmt *stmts;
    size_t n;
} sb_vex;

/* Read a VEX document (JSON, either dialect). SB_EPARSE with err saying
 * what is wrong: not JSON, neither dialect, a statement without an id or
 * with a state / status / justification its dialect does not define. */
sb_code sb_vex_parse(sb_arena *a, const char *json, size_t len, sb_vex **out, sb_err *err);

/* Apply the statements to s->vulns: a statement matches a finding that
 * has one of its ids (id or alias) when it names no product or names one
 * of the finding's packages (bom-ref, a BOM-Link ending in #<bom-ref>, or
 * one of the package's purls, compared without qualifiers when the
 * statement's purl has none). The last matching statement wins. *applied
 * counts the findings it set. */
sb_code sb_vex_apply(sb_sbom *s, sb_arena *a, const sb_vex *vex, size_t *applied);

#endif
