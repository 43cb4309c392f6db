/*
 * lock_js.h - the shared back half of the JavaScript lockfile readers
 * (package-lock.json, pnpm-lock.yaml, yarn.lock).
 *
 * A reader turns its syntax into an sb_jsl: one sb_js_pkg per
 * name@version(+source), each with the lock paths it is installed under, the
 * scope of each instance merged, and its dependency edges as other packages'
 * keys. sb_jsl_build() then emits them into the one environment ("default")
 * and the one platform ("noarch": JavaScript lockfiles lock no platform) of
 * an sb_lock, with pixi:scope, pixi:install-paths and pixi:direct properties.
 */
#ifndef SB_LOCK_JS_H
#define SB_LOCK_JS_H

#include "deadline.h"
#include "lock.h"
#include "model.h"
#include "strmap.h"

#include <stdbool.h>
#include <stdint.h>

/* An instance's scope, ordered so that merging instances keeps the highest:
 * a package reachable from production and from development is required. */
typedef enum sb_js_scope {
    SB_JS_UNSET = 0,
    SB_JS_DEV,
    SB_JS_DEV_OPTIONAL,
    SB_JS_PEER,
    SB_JS_OPTIONAL,
    SB_JS_REQUIRED
} sb_js_scope;

/* The reader's extras around the record, kept small: a 100,000-entry lock
 * holds 100,000 of these. Most packages have one install path and no
 * optional or development edges, so those lists are allocated on demand.
 * The extras live in the reader's scratch arena (sb_jsl.tmp), gone after
 * sb_jsl_build; the record itself in the request's arena, in one array
 * the selection adopts instead of copying (sb_lock_platform.recs). */
typedef struct sb_js_pkg {
    sb_pkg *rec;         /* kind npm; name, version, location, hashes, license, key */
    const char *path1;   /* the first lock path it is installed under */
    sb_strv *paths_more; /* the others, NULL when none (see sb_js_path) */
    sb_strv *opt_deps;   /* the keys of `depends` reached as optional dependencies; NULL: none */
    sb_strv *dev_deps;   /* ... and as development dependencies (workspace members); NULL: none */
    const char *peers;   /* peer suffixes of its lock keys, "(a@1), (b@2)" */
    sb_js_scope scope;
    uint8_t paths; /* the kinds of path from the root that reach it (lock_js.c sb_jsl_scopes) */
    bool direct;   /* the document root depends on it */
    uint8_t omits; /* npm: the --omit sets that remove every instance (lock_npm.c), 0xff: none read */
    bool queued;   /* on sb_jsl_scopes' worklist now */
} sb_js_pkg;

typedef struct sb_jsl {
    const char *kind; /* "package-lock.json" */
    int version;      /* lockfile version as read */
    const char *root_name, *root_version;
    sb_js_pkg **pkgs; /* in tmp */
    size_t n, cap;
    sb_pkg *recs;     /* the records, in the request's arena; pkgs[i]->rec == &recs[i] */
    size_t nrecs;     /* room in recs */
    sb_arena *tmp;    /* the reader's scratch: extras, tables, what only reading needs */
    sb_strmap by_key; /* in tmp */
    sb_strv roots;    /* keys the document root depends on */
    bool has_roots;   /* the lockfile states its root's dependencies */
    bool orphans;     /* mark what no stated edge reaches with pixi:orphan (a reader whose lock states every
                       * edge, root's included: npm v2/v3) */
    size_t max_packages;
    sb_deadline dl;      /* the request's, from the limits (sb_jsl_tick) */
    bool scopes_guessed; /* the lock cannot tell dev from prod: sb_lock.scopes_guessed, opt_edges kept */
    /* sb_jsl_prop_append's state, in tmp: each (record, property) being
     * built and each (record, property, value) listed */
    sb_strmap app_by, app_seen;
    struct sb_js_app *apps;
    size_t napps, appcap;
} sb_jsl;

sb_code sb_jsl_init(sb_jsl *l, sb_arena *a, const char *kind, const sb_limits *lim);

/* Destroy the reader's scratch arena (sb_jsl_build does on success; a reader
 * calls it on its error paths too). Safe to call twice. */
void sb_jsl_free(sb_jsl *l);

/* A deadline check for the readers' loops over entries and edges (and the
 * back half's own): SB_ETIMEOUT with the message set once the deadline passed. */
sb_code sb_jsl_tick(sb_jsl *l, sb_err *err);
/* The same for `units` ticks' worth of work (deadline.h sb_deadline_work). */
sb_code sb_jsl_work(sb_jsl *l, size_t units, sb_err *err);
/* Room for `n` packages up front (a reader that counted its entries), so
 * the package table, the records and the key map are not grown and copied.
 * Past `n` the records grow by an eighth (each package's rec re-pointed). */
sb_code sb_jsl_expect(sb_jsl *l, sb_arena *a, size_t n);

/* Record one more install path of the package. */
sb_code sb_js_path(sb_js_pkg *p, sb_arena *a, const char *path);

/* The identity of name@version from `source` (NULL for a registry). */
const char *sb_js_key(sb_arena *a, const char *name, const char *version, const char *source);

/* The package of that identity, added (name, version, key, kind set) when
 * new. *added tells which. NULL with *code set on allocation failure or when
 * the input holds more packages than the limit. */
sb_js_pkg *sb_jsl_get(sb_jsl *l, sb_arena *a, const char *name, const char *version, const char *source, bool *added,
                      sb_code *code);

/* A package by key; NULL when absent. */
sb_js_pkg *sb_jsl_find(const sb_jsl *l, const char *key);

/* Merge one instance's scope into the package's. */
void sb_js_scope_merge(sb_js_pkg *p, sb_js_scope s);

/* An SRI `integrity` ("sha512-<base64> sha1-<base64>") into the record's hashes
 * (SHA-512/384 in binary, SHA-256/1 in hex); unknown algorithms and undecodable digests are skipped. */
sb_code sb_js_integrity(sb_arena *a, sb_pkg *p, const char *sri);

/* The union of one more install path's SRI `integrity` with the record's
 * hashes: a digest of an algorithm the record lacks is added; one that
 * disagrees with the record's is kept in the record's pixi:other-integrity
 * property (space-separated, itself an SRI list), never dropped nor
 * replacing the first. */
sb_code sb_js_integrity_union(sb_jsl *l, sb_arena *a, sb_pkg *p, const char *sri);

/* Append `value` to the record's reader property `name` (created when
 * absent), `sep` between values; a value already listed is not repeated.
 * Amortised in the value's length: a set of what is listed (in l->tmp),
 * and the joined value grown by doubling in place, never re-scanned or
 * re-printed per value (8,000 copies of one package each with a license of
 * its own were quadratic). */
sb_code sb_js_prop_append(sb_jsl *l, sb_pkg *p, sb_arena *a, const char *name, const char *value, const char *sep);

/* Add a dependency edge (a key) to `p`, and a root edge to the lock. */
sb_code sb_js_dep(sb_js_pkg *p, sb_arena *a, const char *key);
sb_code sb_jsl_root(sb_jsl *l, sb_arena *a, const char *key);

/* As sb_js_dep for an optionalDependencies / devDependencies edge. */
sb_code sb_js_dep_scoped(sb_js_pkg *p, sb_arena *a, const char *key, sb_js_scope how);

/* A root edge with the scope the root states for it. */
sb_code sb_jsl_root_scoped(sb_jsl *l, sb_arena *a, const char *key, sb_js_scope s);

/* Scopes from the root edges down the graph, for lockfiles that record none
 * per package (pnpm 9, yarn): a package gets the highest scope of the paths
 * reaching it; an optional edge makes required optional and dev devOptional,
 * a development edge makes anything dev. */
sb_code sb_jsl_scopes(sb_jsl *l, sb_arena *a, sb_err *err);

/* The class a path from the root gets from an edge of that scope (a bit set
 * of sb_jsl_scopes' D = 1, O = 2, P = 4), and the scope of a package reached
 * by the classes of mask `m` (bit 1 << class): for a reader that walks a
 * graph finer than the components (pnpm's peer variants) and merges after. */
unsigned sb_js_path_class(sb_js_scope s);
sb_js_scope sb_js_scope_of_paths(uint8_t m);

/* The npm word of a scope ("devOptional"; NULL when unset) and the model's
 * scope it is written as (dev and devOptional development, peer and
 * optional optional). */
const char *sb_js_scope_word(sb_js_scope s);
sb_scope sb_js_model_scope(sb_js_scope s);

/* "@scope/name" or "name" as spelled in a `name@range` descriptor: the
 * length of the name part (the '@' after a scope's first character). */
size_t sb_js_name_len(const char *desc);

/* A git source [repo, repo+n) at commit [commit, commit+cn) (none when cn
 * is 0) as the location the model makes a vcs_url of, "git+<url>#<commit>":
 * git+ added to a URL without it, an scp-like "user@host:o/r.git" as
 * git+ssh://git@host/o/r.git (without, it read as a local path). */
const char *sb_js_git_url(sb_arena *a, const char *repo, size_t n, const char *commit, size_t cn);

/* The sb_lock of the packages read; the scratch arena is destroyed. */
sb_code sb_jsl_build(sb_lock **out, sb_arena *a, sb_jsl *l, sb_err *err);

#endif
