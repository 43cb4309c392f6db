/*
 * derive.h - the per-package step of a selection (select.c): from a
 * selected record as read (and enriched) to the package a document shows,
 * its license normalized and its purls, supplier and pixi:* properties
 * derived.
 */
#ifndef SB_DERIVE_H
#define SB_DERIVE_H

#include "arena.h"
#include "deadline.h"
#include "err.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

struct sb_pypimap; /* pypimap.h */

/* What a request asks of the derivation (from its sb_select_opts). */
typedef struct sb_derive_opts {
    const struct sb_pypimap *pypi_map; /* conda-forge -> PyPI names for the extra purls, NULL = none */
    bool primary_pypi;                 /* a PyPI identity, when a package has one, is the primary purl */
} sb_derive_opts;

/*
 * For each of the n packages (the selection's own copies, in any order):
 * p->lic (equal license strings share one sb_lic, its memory from licmem),
 * p->purl, x->ref_purl (what the id derives from, when not the purl),
 * x->extra_purls,
 * p->supplier_*, and p->props sorted by name, repeated names dropped (a
 * reader's property before a derived one). `env` gives the PyPI index a
 * package without one was resolved from; `opts` may be NULL. Memory that
 * is only needed meanwhile comes from scratch. SB_ENOMEM "out of memory",
 * SB_EINVAL naming a package that has no valid purl, or the deadline's
 * SB_ETIMEOUT, each with err set.
 */
sb_code sb_derive_pkgs(sb_pkg *pkgs, size_t n, sb_arena *a, sb_arena *licmem, sb_arena *scratch, const sb_lock_env *env,
                       const sb_derive_opts *opts, sb_deadline *dl, sb_err *err);

/* `url` without its user:password@ part (the host follows the authority's
 * last '@'): credentials in a lockfile's URLs (private channels,
 * authenticated indexes) never reach a document. `url` itself when it has
 * none, or when the copy cannot be allocated; NULL for NULL. */
const char *sb_derive_no_userinfo(sb_arena *a, const char *url);

#endif
