/*
 * policy.h - license policy: allow / deny lists of SPDX ids,
 * require-license, per-package exemptions, and the expression-aware
 * evaluation of one package's normalized license against them.
 *
 * Evaluation (no HTTP here; the service builds a policy from the query and
 * the --policy-file, then calls sb_policy_apply on a selected model):
 *
 * - an expression is read with SPDX precedence (WITH > AND > OR, parens);
 *   `A OR B` passes when either branch passes, `A AND B` when both do;
 * - a leaf is an id (optionally `+`, `-only`, `-or-later`) and an optional
 *   `WITH exception`. Ids compare case-insensitively by family and version
 *   (`GPL-3.0` = `GPL-3.0-only`, `GPL-2.0+` = `GPL-2.0-or-later`); the
 *   deprecated `GPL-2.0-with-classpath-exception` style ids become
 *   id + exception, a few renamed ids map to their successors;
 * - an `-or-later` leaf passes when its own version or any later version of
 *   the family that allow-license names is acceptable (an allowed
 *   GPL-3.0-only satisfies GPL-2.0-or-later); an `-or-later` policy entry
 *   matches every version from its own up;
 * - LicenseRef-/DocumentRef- ids match exactly (ignoring case);
 * - the most specific entry decides: an entry naming the leaf's exception
 *   beats one without; at equal specificity deny wins; with an allow list a
 *   leaf no entry allows fails;
 * - a package without a license, or with free text, violates only under
 *   require-license;
 * - an exempted package (ignore-license) is never a violation.
 *
 * Everything lives in the caller's arena.
 */
#ifndef SB_POLICY_H
#define SB_POLICY_H

#include "arena.h"
#include "err.h"
#include "gate.h"
#include "license.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

/* Why a package fails (or SB_POL_PASS). */
typedef enum sb_policy_rule {
    SB_POL_PASS = 0,
    SB_POL_DENIED,      /* a deny-license entry matches every way out */
    SB_POL_NOT_ALLOWED, /* allow-license is given and names no way out */
    SB_POL_NO_LICENSE,  /* require-license, and the package states none */
    SB_POL_NOT_SPDX,    /* require-license, and the license is free text */
    SB_POL_NRULES
} sb_policy_rule;

/* One allow/deny entry, read once. */
typedef struct sb_policy_term {
    const char *text;    /* as given (trimmed) */
    const char *family;  /* "GPL", "Apache", "MIT", or a whole LicenseRef */
    const char *version; /* "2.0", "" when the id has none */
    const char *exc;     /* exception id, NULL when none */
    bool or_later, ref;
} sb_policy_term;

typedef struct sb_policy {
    const char *name; /* the server-side policy chosen (policy=NAME), or NULL */
    sb_policy_term *allow, *deny;
    size_t nallow, ndeny, capallow, capdeny;
    bool require;
    const char **ignore_pkg, **ignore_why; /* why: "" when none was given */
    size_t nignore, capignore;
} sb_policy;

/* What the policy says about one package. */
typedef struct sb_policy_verdict {
    sb_policy_rule rule; /* what it would be without an exemption */
    const char *reason;  /* one sentence when rule != PASS */
    const char *exempt;  /* exemption reason ("true" when none given), NULL when not exempt */
} sb_policy_verdict;

/* Whether any part of a policy is set. */
bool sb_policy_active(const sb_policy *p);

/* Add allow (deny=false) or deny ids from a comma-separated list. Each must
 * be one SPDX license id (current or deprecated, `+` allowed) or a
 * LicenseRef-, optionally `WITH` a known exception: otherwise SB_EINVAL
 * naming the value. */
sb_code sb_policy_add_ids(sb_policy *p, sb_arena *a, bool deny, const char *list, sb_err *err);

/* Add exemptions "PKG[:WHY]" from a comma-separated list; SB_EINVAL on an
 * empty package name. */
sb_code sb_policy_add_ignores(sb_policy *p, sb_arena *a, const char *list, sb_err *err);

/* One exemption "PKG[:WHY]" whose WHY may hold commas (a policy file's
 * array element). */
sb_code sb_policy_add_ignore(sb_policy *p, sb_arena *a, const char *value, sb_err *err);

/* Append everything of `from` to `to` (a named policy under query additions). */
sb_code sb_policy_merge(sb_policy *to, sb_arena *a, const sb_policy *from);

/* The rule name a finding is filed under ("deny-license", ...); "" for PASS. */
const char *sb_policy_rule_name(sb_policy_rule r);

/* Evaluate one normalized license (exemptions are not looked at here).
 * *reason is set for a failure. */
sb_policy_rule sb_policy_eval(const sb_policy *p, sb_arena *a, const sb_lic *lic, const char **reason);

/* The exemption of a package name (case-insensitive), NULL when none. */
const char *sb_policy_exempt(const sb_policy *p, const char *pkg);

/* Evaluate every package of a selected model: sets s->policy (one verdict
 * per package) and s->policy_key (for the serial), adds the properties
 * pixi:license-violation / pixi:license-exempt, and files every
 * non-exempt violation in `g` (may be NULL). */
sb_code sb_policy_apply(const sb_policy *p, sb_sbom *s, sb_arena *a, sb_gate *g);

/* A canonical text of the policy (for document serials). */
const char *sb_policy_key(const sb_policy *p, sb_arena *a);

#endif
