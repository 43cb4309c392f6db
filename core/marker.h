/*
 * marker.h - PEP 508 environment markers, the platform table they are
 * evaluated against, and the Python-side helpers the Python lockfile readers
 * share (requires-python floor, wheel choice per platform, requirement
 * strings).
 */
#ifndef SB_MARKER_H
#define SB_MARKER_H

#include "arena.h"
#include "err.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct sb_marker_env {
    const char *platform; /* conda-style name: linux-64, osx-arm64, ... */
    const char *sys_platform, *platform_system, *os_name, *platform_machine;
    char python_version[16];      /* "3.9" */
    char python_full_version[24]; /* "3.9.0" */
    const char *const *extras;    /* active extras/groups, PEP 503-normalized */
    size_t nextras;
    bool all_extras; /* every `extra == ...` is true */
} sb_marker_env;

/* The seven platforms Python lockfiles are evaluated for, in a stable order. */
extern const char *const sb_marker_platforms[];
#define SB_MARKER_NPLATFORMS 7

/* Fill env for a platform and a Python "X.Y"; SB_ENOTFOUND for an unknown platform. */
sb_code sb_marker_env_init(sb_marker_env *env, const char *platform, const char *python);

/* 1 true, 0 false, -1 malformed (err set). An empty or NULL marker is true. */
int sb_marker_eval(const char *marker, const sb_marker_env *env, sb_err *err);

/* Lowest Python "X.Y" a requires-python specifier allows (the first clause
 * of the form >=X.Y, ~=X.Y, ==X.Y(.*), >X.Y taken as X.Y); `fallback` when none. */
void sb_marker_python_floor(const char *requires_python, const char *fallback, char out[16]);

/* Does `version` satisfy a PEP 440 specifier list (">=3.8, <4, !=3.9.*")?
 * 1 yes, 0 no, -1 unknown: `version` is NULL or not a version, or a clause has no version or an operator that is none (`~=`
 * needs two release segments). Versions compare at the release level;
 * ==X.* and !=X.* compare the segments written. An empty list is 1. */
int sb_marker_spec_match(const char *spec, const char *version);

/* The highest Python MAJOR.MINOR a requires-python specifier allows (spec
 * 10.3): the lowest of its clauses' ceilings, where <X.Y (and <X.Y.0) gives
 * X.(Y-1), <X.Y.Z gives X.Y, <=, ==, === X.Y... and ~=X.Y.Z give X.Y; >=, >,
 * !=, ~=X.Y and <X.0 give none. *major = *minor = -1 when no clause does. */
void sb_marker_python_ceiling(const char *spec, int *major, int *minor);

/* The first two release segments of a version ("3.12.4" -> 3, 12): 0, or -1
 * when it has fewer (or is NULL). */
int sb_marker_major_minor(const char *version, long *major, long *minor);

/* Does a wheel file name fit the platform (by its platform tag)? */
bool sb_marker_wheel_fits(const char *wheel, const char *platform);

/* The artifact this platform installs, as the spec's choice rule says:
 * a *-none-any wheel; else a fitting wheel tagged -cpXY- for the floor Python;
 * else one with -abi3-; else the first fitting wheel; else the sdist (returns
 * -1); else the first wheel. `names` are file names (or URLs ending in them).
 * Returns the index into names, -1 for the sdist, -2 when there is nothing. */
int sb_marker_choose_wheel(const char *const *names, size_t n, bool has_sdist, const char *platform,
                           const char *python);

/* A PEP 508 requirement "name[extra1,extra2] (>=1) ; marker". */
typedef struct sb_req {
    const char *name;   /* as written */
    const char *extras; /* comma-separated, NULL when none */
    const char *spec;   /* version specifier text, NULL when none */
    const char *marker; /* NULL when none */
    const char *url;    /* "name @ url" form */
} sb_req;

sb_code sb_req_parse(sb_req *r, sb_arena *a, const char *text, sb_err *err);

#endif
