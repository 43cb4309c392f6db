/*
 * diff.h - what changed between two selected models (a base and a head
 * revision of a lockfile), as rows a pull request can show and a CI gate
 * can refuse.
 *
 * Packages are matched by (kind, name), the name PEP 503-normalized for
 * PyPI and case-folded for conda. A name present several times on one side
 * (npm keeps one name in several versions) pairs equal versions first,
 * then the rest in version order; what is left over is added or removed.
 * A matched pair gives a row per change it shows:
 *
 *   upgraded / downgraded  the version strings differ and the ecosystem's
 *                          order (core/vercmp.h) says which way; strings
 *                          the order holds equal ("1.0" / "1.0.0") are no
 *                          change
 *   license-changed        the normalized license expression differs
 *   source-changed         where it comes from differs: the channel, or
 *                          the index's or registry's host (also when the
 *                          lockfile names only the artifact's URL), else
 *                          the direct URL, path or git URL; a direct URL
 *                          or path that only changed its file name along
 *                          with the version is not a source change
 *   hash-changed           the same artifact (version, file name, conda
 *                          build) with a different digest of one algorithm
 *                          both sides record (a republished or tampered
 *                          artifact: a supply-chain red flag)
 *   scope-changed          both sides state a scope and they differ
 *                          (a runtime dependency became development, ...)
 *
 * Every row also says whether the package is a direct dependency (the
 * root's, on either side), for gates on direct dependencies only.
 *
 * Rows are ordered by change (the enum's order), then kind and name.
 * Everything lives in the arena given.
 */
#ifndef SB_DIFF_H
#define SB_DIFF_H

#include "doc.h"
#include "gate.h"
#include "model.h"
#include "report.h"

typedef enum sb_diff_change {
    SB_DIFF_ADDED,
    SB_DIFF_REMOVED,
    SB_DIFF_UPGRADED,
    SB_DIFF_DOWNGRADED,
    SB_DIFF_LICENSE,
    SB_DIFF_SOURCE,
    SB_DIFF_HASH,
    SB_DIFF_SCOPE,
    SB_DIFF_NCHANGES
} sb_diff_change;

/* "added", "removed", "upgraded", "downgraded", "license-changed",
 * "source-changed", "hash-changed", "scope-changed" (the JSON/CSV `change`
 * value, and fail-on's names on /v1/diff). */
const char *sb_diff_change_name(sb_diff_change c);

/* One change of one package. Absent values are NULL (an added package has
 * no base_*). */
typedef struct sb_diff_row {
    sb_diff_change change;
    sb_kind kind;
    const char *name; /* as the head spells it, else the base */
    const char *base_version, *head_version;
    const char *base_license, *head_license; /* normalized */
    const char *base_source, *head_source;
    const char *base_hash, *head_hash; /* hash-changed: "<alg>:<hex>" of the digest that differs */
    const char *purl;                  /* the head's, else the base's */
    sb_scope base_scope, head_scope;
    bool direct; /* a direct dependency of the root on either side */
    /* under a license policy (both sides' s->policy): why the head's
     * package violates it when the base's did not (or was absent); NULL
     * otherwise, and without a policy */
    const char *now_denied;
    /* a repository's diff (sb_diff_compute_repo): the path of the lockfile
     * the change is in, and the name as text and Markdown show it
     * ("path: name"); NULL otherwise */
    const char *lockfile, *label;
} sb_diff_row;

typedef struct sb_diff {
    const sb_sbom *base, *head;
    sb_diff_row *rows;
    size_t nrows;
    size_t count[SB_DIFF_NCHANGES];
    size_t unchanged; /* matched pairs without a row */
    /* what a gate asks (set by the caller before writing): the Markdown and
     * text outputs lead with these rows */
    unsigned gated;    /* bits 1 << sb_diff_change; 0 = no gate */
    bool gated_direct; /* only rows of direct dependencies */
    bool by_lockfile;  /* rows carry their lockfile (sb_diff_compute_repo) */
} sb_diff;

/* Compare two models. SB_ENOMEM is the only failure. */
sb_code sb_diff_compute(sb_diff **out, sb_arena *a, const sb_sbom *base, const sb_sbom *head, sb_err *err);

/*
 * Compare two repositories lockfile by lockfile: base[0..nb) and
 * head[0..nh) are each lockfile's own selection, named by its path
 * (lockfile_name). A path on both sides is compared as two revisions of
 * one lockfile; a path on one side only is a lockfile added or removed: a
 * row of its own (its component in base_all / head_all, the repositories'
 * merged selections, which the summary describes) beside a row for each of
 * its packages. Rows are ordered by change, then head's lockfile order
 * (base's for removed lockfiles), then kind and name.
 */
sb_code sb_diff_compute_repo(sb_diff **out, sb_arena *a, const sb_sbom *base_all, const sb_sbom *head_all,
                             const sb_sbom *const *base, size_t nb, const sb_sbom *const *head, size_t nh, sb_err *err);

/* Where a package comes from, as the diff compares it (see above); NULL
 * when the model does not say. A host is copied into `a`. */
const char *sb_diff_source(sb_arena *a, const sb_pkg *p);

/* The diff's outputs, as a report kind has them (not in the report
 * registry: a diff reads two models, /v1/diff): json ({"diff": [rows], "summary"}),
 * text (an aligned table and a summary line), markdown (a summary line,
 * then a collapsible table per change kind, for a pull-request comment) or
 * csv (header change,kind,name,base_version,head_version,
 * base_license,head_license,base_source,head_source,purl, then the columns
 * added since: base_hash,head_hash,base_scope,head_scope,direct; and for a
 * repository's diff, lockfile). With a
 * gate set (diff->gated), text and Markdown first list the rows it fails on. NULL for an
 * output the diff has not (sarif). */
extern const sb_report_kind sb_diff_kind;

/* A producer (sb_doc_produce, sb_doc_free) writing `diff` with ops from
 * sb_diff_kind. */
sb_code sb_diff_doc_new(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_diff *diff, const sb_doc_opts *opts,
                        sb_err *err);

/* All kinds of change (fail-on=diff). */
#define SB_DIFF_ALL ((1u << SB_DIFF_NCHANGES) - 1)
/* fail-on=now-denied: a change after which the license policy denies a
 * package it did not deny before (a row with now_denied), whatever its kind */
#define SB_DIFF_NOW_DENIED (1u << SB_DIFF_NCHANGES)

/* Whether row r is one a gate on `kinds` (bits 1 << sb_diff_change, and
 * SB_DIFF_NOW_DENIED; direct_only: of direct dependencies only) fails on. */
bool sb_diff_gated(const sb_diff_row *r, unsigned kinds, bool direct_only);

/* One finding per row sb_diff_gated says into g. */
sb_code sb_diff_gate(sb_gate *g, sb_arena *a, const sb_diff *diff, unsigned kinds, bool direct_only);

#endif
