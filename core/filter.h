/*
 * filter.h - leaving packages out of a document ("Filters").
 *
 * A request may drop packages by name (include / exclude globs), by kind and
 * by scope. The filter runs on a selected sb_sbom whose graph is resolved,
 * before any lookup: the dropped packages leave, the graph is re-closed from
 * the document's original root edges (what only dropped packages reached
 * goes too, unless orphans are kept) and every package left out is recorded
 * with its reason in sb_sbom.excluded, which writers render as the
 * document-level pixi:excluded.
 */
#ifndef SB_FILTER_H
#define SB_FILTER_H

#include "arena.h"
#include "deadline.h"
#include "err.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

/* Kinds exclude-kind names besides the model's own (sb_kind_name): PyPI
 * packages built from source (sdist, VCS, local tree: pixi:source=true). */
#define SB_FILTER_PYPI_SOURCE 31 /* above every sb_kind (SB_KIND_N < 31) */

struct sb_filter {
    const char *const *include; /* keep only names matching one of these (none: keep all) */
    size_t ninclude;
    const char *const *exclude; /* drop names matching any of these */
    size_t nexclude;
    unsigned kinds;     /* bit (1u << sb_kind) per dropped kind, and 1u << SB_FILTER_PYPI_SOURCE */
    bool required_only; /* drop development and optional packages (sb_scope) */
    bool keep_orphans;  /* keep what only dropped packages reached */
    /* include then exclude compiled (sb_filter_compile), once per request
     * rather than per document; NULL: sb_filter_apply compiles them */
    const struct sb_glob *const *globs;
};

/* Shell-style match of a package name: '*' any run, '?' one character,
 * ASCII case folded and '-' equal to '_'. */
bool sb_glob_match(const char *pattern, const char *name);

/* A pattern split once at its stars into segments: a literal with a KMP
 * table, one with '?' of up to 64 characters with shift-and masks, or a
 * longer one with '?'. */
typedef struct sb_glob sb_glob;

/* `pattern` compiled into `a`; NULL when out of memory. */
sb_glob *sb_glob_compile(sb_arena *a, const char *pattern);

/* 1 when `name` matches, 0 when not, -1 (err set, SB_ETIMEOUT) when the
 * deadline (may be NULL) passed. Each segment is placed at its leftmost
 * match and never revisited; a literal one is found by KMP and one with
 * '?' of up to 64 characters by a bit-parallel scan, so a match costs the
 * name's length plus the pattern's. Only a segment longer than 64 with '?'
 * in it is compared at each start (its length times the name's at worst):
 * that work is counted against the deadline as it goes. */
int sb_glob_run(const sb_glob *g, const char *name, sb_deadline *dl, sb_err *err);

/* f->globs filled from f->include and f->exclude, in `a` (which outlives
 * every use of f). */
sb_code sb_filter_compile(sb_filter *f, sb_arena *a);

/* The exclude-kind value `name` ("conda", "conda-source", "pypi",
 * "pypi-source", "npm", ...) as its bit in sb_filter.kinds; 0 when unknown. */
unsigned sb_filter_kind_bit(const char *name);

/* The names sb_filter_kind_bit() takes, NULL-terminated (for a 400). */
const char *const *sb_filter_kind_names(void);

/* Whether the filter drops anything at all (keep_orphans alone does not). */
bool sb_filter_active(const sb_filter *f);

/*
 * Apply `f` to `s` in place, O(packages + edges + name matching): packages
 * keep their order, dependency lists their order, root edges model order.
 * When `kept` is not NULL it receives (in `a`) for every package left the
 * index it had before, so a caller can carry parallel arrays along.
 * s->excluded lists what was left out, in the model's order. Name
 * matching reads the deadline `dl` (may be NULL): SB_ETIMEOUT, err set.
 */
sb_code sb_filter_apply(sb_sbom *s, sb_arena *a, const sb_filter *f, size_t **kept, sb_deadline *dl, sb_err *err);

/* "name@version (reason), ..." for pixi:excluded, or NULL when nothing was left out. */
const char *sb_filter_excluded_text(const sb_sbom *s, sb_arena *a);

#endif
