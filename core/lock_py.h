/*
 * lock_py.h - the shared back half of the Python lockfile readers (uv.lock,
 * pylock.toml, poetry.lock, pdm.lock, requirements.txt).
 *
 * Each reader only turns its syntax into an sb_pyl: packages with their
 * artifacts, markers and dependency edges. sb_pyl_build() then does what
 * they have in common: for each of the seven platforms, evaluate markers at
 * the Python floor, decide which packages are installed (a reachability walk
 * from the workspace members, or each package's own marker), choose the one
 * artifact the platform installs, and emit sb_pkg records into one
 * environment of an sb_lock.
 *
 * Scopes: a walk claims packages in three rounds, from the members'
 * base dependencies (required), then their extras (optional), then their
 * development groups (development), each round only what the ones before
 * left; without a walk each package keeps the scope its reader read. A
 * platform where everything is required says nothing: no scopes.
 */
#ifndef SB_LOCK_PY_H
#define SB_LOCK_PY_H

#include "lock.h"
#include "model.h"
#include "strmap.h"

typedef struct sb_py_dep {
    const char *name;    /* PEP 503-normalized */
    const char *marker;  /* NULL = always */
    const char *extras;  /* extras requested on the target, comma-separated */
    const char *version; /* pins a target among same-named packages (uv forks) */
} sb_py_dep;

typedef struct sb_py_deps {
    const char *group; /* extra or dependency-group name; NULL for the base list */
    bool dev;          /* a development group (uv dev-dependencies), not an extra */
    sb_py_dep *v;
    size_t n, cap;
} sb_py_deps;

typedef struct sb_py_art {
    const char *file;   /* file name */
    const char *url;    /* NULL when the lockfile records none */
    const char *sha256; /* lower-case hex or NULL */
    bool sdist;
} sb_py_art;

typedef struct sb_py_pkg {
    sb_pkg *rec;        /* template: kind, name, version, location (non-index), index_url, ...
                         * (its slot of sb_pyl.recs) */
    const char *marker; /* the package's own marker (pylock, poetry, pdm) */
    sb_py_art *arts;
    sb_py_deps *groups;                  /* [0] = base dependencies, then one per extra / group */
    uint32_t narts, acap, ngroups, gcap; /* 32-bit: one of these per package read */
    sb_strmap *gmap;                     /* group name -> index, once there are many (sb_pyl_group) */
    sb_strv resolution_markers;
    bool member;    /* workspace member: a walk starts here */
    bool root;      /* the project itself: becomes the document root */
    bool index;     /* comes from an index: gets the artifact as location */
    sb_scope scope; /* what the lock says the package is for (poetry groups,
                          * pdm groups); NONE = the walk decides, or no scope */
} sb_py_pkg;

typedef struct sb_pyl {
    const char *kind;            /* "uv.lock" */
    bool no_dep_data;            /* the format states no dependencies (requirements.txt) */
    const char *requires_python; /* for the Python floor */
    const char *python_default;  /* floor when requires-python names none */
    bool walk;                   /* include what the members reach (uv); else each marker decides */
    bool marker_all_extras;      /* markers naming an extra are true (poetry) */
    bool file_only;              /* artifacts have no URL: file name + hash, no location */
    sb_strv root_names;          /* declared root edges when not walking (requirements) */
    bool has_root_names;
    sb_py_pkg *pkgs; /* the reader's side of each package: read by the build only */
    /* the records, parallel to pkgs (pkgs[i].rec == &recs[i]) and in the
     * lock's arena: with one platform built they become its records in one
     * array, which a consuming selection adopts instead of copying each */
    sb_pkg *recs;
    size_t npkgs, pcap;
    /* sb_pyl_add gives a package no groups: the reader adds the base group
     * with sb_pyl_group(p, a, NULL) to the few that have dependencies
     * (requirements.txt: the pins a `# via` names), not 40 bytes to each */
    bool base_on_demand;
    /* the reader's own index, PEP 503 name -> its package, one package a
     * name (every package its name's only one): the build looks names up in
     * it rather than making its own; NULL: the build makes one */
    const sb_strmap *names;
    sb_arena *tmp; /* where sb_pyl_add puts a package's base dependency
                                   * group, when the reader has an arena that outlives
                                   * the build only (NULL: the lock's) */
} sb_pyl;

/* Room for n packages in one array (n: what the reader counted in its
 * input, an upper bound): regrowing a large array by doubling leaves as much
 * again behind in the arena. More than n still works. The records go into
 * `a`, the reader's side into pl->tmp when set (the build reads it last). */
sb_code sb_pyl_reserve(sb_pyl *pl, sb_arena *a, size_t n);

/* Lines of data[0..len) that start with `prefix`, counting up to `max`. */
size_t sb_pyl_count_lines(const char *data, size_t len, const char *prefix, size_t max);

/* Package `from` moved to slot `to` (to <= from), record and all: a reader
 * dropping entries keeps pkgs[i].rec == &recs[i]. */
void sb_pyl_move(sb_pyl *pl, size_t to, size_t from);

/* New package / dependency group / dependency / artifact; NULL on allocation failure. */
sb_py_pkg *sb_pyl_add(sb_pyl *pl, sb_arena *a);
sb_py_deps *sb_pyl_group(sb_py_pkg *p, sb_arena *a, const char *group);
sb_py_dep *sb_pyl_dep(sb_py_deps *g, sb_arena *a);

/* The extras of the dependency being read, built by appending (a crafted
 * list of 8,000 extras re-printed per item took half a gigabyte): which
 * dependency (group, index) and its string so far. Zero-initialized. */
typedef struct sb_py_extras {
    const sb_py_deps *group;
    size_t idx;
    sb_strb b;
} sb_py_extras;

/* Add `extra` to the extras of g's last dependency (comma-separated). */
sb_code sb_pyl_dep_extra(sb_py_extras *x, sb_py_deps *g, sb_arena *a, const char *extra);

/* Index of the group named `group` (PEP 503-normalized; NULL = the base
 * list, 0), or (size_t)-1. */
size_t sb_pyl_find_group(const sb_py_pkg *p, const char *group);
sb_py_art *sb_pyl_art(sb_py_pkg *p, sb_arena *a);

/* Grow a reader's own array kept parallel to pl->pkgs (zero-filled) so it
 * holds `need` elements; NULL on allocation failure. */
void *sb_pyl_parallel(sb_arena *a, void *arr, size_t *cap, size_t need, size_t size);

/* "sha256:<hex>" (any case) -> lower-case hex, NULL for other algorithms or bad hex. */
const char *sb_pyl_sha256(sb_arena *a, const char *hash);

/* File name of a URL or path (after the last '/', before '?' / '#'). */
const char *sb_pyl_basename(sb_arena *a, const char *url);

/* Artifacts a lock lists apart from its packages (poetry.lock 1.x
 * `[metadata.files] name = [...]`, pdm.lock before 4.x `"name version" =
 * [...]`): collected while reading, attached by sb_pyl_attach_files(). */
typedef struct sb_py_file {
    const char *name;    /* PEP 503-normalized */
    const char *version; /* NULL: every package of that name */
    sb_py_art art;
} sb_py_file;

typedef struct sb_py_files {
    sb_py_file *v;
    size_t n, cap;
} sb_py_files;

/* A new entry for `name` (normalized here) and `version` (may be NULL); NULL on allocation failure. */
sb_py_file *sb_pyl_file(sb_py_files *fs, sb_arena *a, const char *name, const char *version);

/* Give each package the files listed for its name (and version, when the
 * list names one). A name locked at several versions without a version in
 * the list only gets the files whose name carries its version. */
sb_code sb_pyl_attach_files(sb_pyl *pl, sb_arena *a, const sb_py_files *fs);

/* Consumes pl: with one platform built (lim->platform), the package
 * templates become the records. */
sb_code sb_pyl_build(sb_lock **out, sb_arena *a, sb_pyl *pl, const sb_limits *lim, sb_err *err);

#endif
