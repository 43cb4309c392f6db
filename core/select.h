/*
 * select.h - selecting one environment x platform of an sb_lock into an
 * sb_sbom (select.c): the options a request gives, the hooks through which
 * the service's lookups (licenses, advisories, health, scorecards) take
 * part, and the selection itself.
 *
 * The model's vocabulary (model.h) knows nothing of this: readers fill an
 * sb_lock, writers read an sb_sbom; only the code that turns one into the
 * other, and what drives it, includes this header.
 */
#ifndef SB_SELECT_H
#define SB_SELECT_H

#include "arena.h"
#include "err.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

struct sb_manifest; /* manifest.h */
struct sb_pypimap;  /* pypimap.h */

/* What a license lookup pass did (see sb_select_opts.lookup). */
typedef struct sb_lookup_stats {
    size_t asked;   /* packages that wanted a license */
    size_t filled;  /* of those, filled in */
    size_t failed;  /* lookups that failed or missed the deadline */
    size_t offline; /* not asked: the server makes no lookups */
    size_t capped;  /* not asked: past the request's lookup limit */
    size_t unasked; /* not asked: the request did not ask for lookups (the server makes them) */
    size_t off;     /* not asked: lookups are off where the document was made */
} sb_lookup_stats;

/* Fill licenses the lockfile lacks from the package indexes: called once per
 * selection with every package (copies owned by the selection), before
 * properties are derived. Set with sb_enrich_set_license(). The network
 * lives in the service; core only calls this. On failure it returns its
 * code with err set, and sb_select() returns both unchanged. */
typedef sb_code (*sb_lookup_fn)(void *ctx, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err);

/* An sb_lookup_fn for sb_select_opts.lookup_probe: counts the packages
 * without a license that a lookup would ask about (a PyPI release, a conda
 * archive: those service/lookup/lookup.c asks for) as st->unasked when ctx is not
 * NULL (the server makes lookups: the request did not ask) or st->off (no
 * lookups where the document is made); fills nothing, asks nobody. */
sb_code sb_lookup_probe(void *ctx, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err);

/* Find the advisories that affect a selection's packages: called
 * once the packages have their purls and ids; fills s->vulns and records
 * what could not be asked in s->incomplete. The network lives in the
 * service; core only calls this. On failure it returns its code with err
 * set, and sb_select() returns both unchanged. */
typedef sb_code (*sb_vuln_fn)(void *ctx, sb_sbom *s, sb_arena *a, sb_err *err);

typedef struct sb_select_opts {
    const char *environment;     /* NULL = "default" */
    const char *package_cache;   /* conda package cache root (has pkgs/), NULL = none */
    bool license_texts;          /* embed license file texts */
    sb_text_shape text_shape;    /* which files the output format can embed */
    long long license_file_max;  /* bytes of text per file (<= 0: 1 MiB) */
    long long license_texts_max; /* bytes of text per document (<= 0: 64 MiB) */
    const char *platform;        /* NULL = the documented default, see below */
    const char *root_name;       /* NULL = "workspace" */
    const char *root_version;    /* optional */
    const char *lockfile_name;   /* file name recorded in the document */
    const sb_author *author;     /* SBOM author; NULL = none given */
    sb_lookup_fn lookup;         /* NULL = no lookups */
    void *lookup_ctx;
    /* without lookups: counts (offline or unasked), never fills, the
     * packages without a license a lookup would have asked about, so the
     * document says why their licenses are absent; NULL = not counted */
    sb_lookup_fn lookup_probe;
    void *lookup_probe_ctx;
    long long deadline_ns;              /* absolute CLOCK_MONOTONIC time (deadline.h); 0 = none */
    const struct sb_manifest *manifest; /* what the project declares; NULL = none */
    const char *manifest_problem;       /* a manifest was sent but could not be read: why (pixi:incomplete) */
    const sb_filter *filter;            /* packages to leave out, before any lookup; NULL = none */
    const struct sb_pypimap *pypi_map;  /* conda-forge -> PyPI names (pypimap.h), NULL = none */
    bool primary_pypi;                  /* a PyPI identity, when a package has one, is the primary purl */
    sb_vuln_fn vulns;                   /* NULL = no vulnerability lookups */
    bool vuln_kev, vuln_epss;           /* kev=true / epss=true: findings annotated (the serial says so) */
    const char *vex_digest;             /* SHA-1 hex of a `vex` part applied to the findings; NULL = none */
    void *vulns_ctx;
    /* supply-chain health (core/health.h): PyPI project pages asked for
     * yanked flags (pixi:yanked) and/or the outdated report; `health` fills
     * s->health (and records gaps as pixi:incomplete step pypi-releases) */
    bool yanked, outdated;
    sb_vuln_fn health; /* NULL = no health lookups */
    void *health_ctx;
    /* OpenSSF Scorecard (core/scorecard.h): `scorecard_fn` fills s->scorecard
     * for packages with a GitHub repository (PyPI ones through their project
     * pages, so health is asked too); gaps are pixi:incomplete step scorecard */
    bool scorecard;
    double scorecard_min;    /* < 0: no per-check properties */
    sb_vuln_fn scorecard_fn; /* NULL = no scorecard lookups */
    void *scorecard_ctx;
    bool consume; /* the lock is selected once only: a platform's records
                                * may become the selection's (see recs), after which the
                                * lock's package lists are not to be read again */
} sb_select_opts;

/* The platform a selection takes when none is named and the environment
 * locks it (else its only platform): decided here once, for the server and
 * sbomgen alike. */
#define SB_SELECT_DEFAULT_PLATFORM "linux-64"

/* The one platform a reader builds records for (sb_limits.platform) for a
 * selection of one document: the one named, else the default. */
const char *sb_select_reader_platform(const sb_select_opts *opts);

/* The records a selection would read (see sb_select for the default
 * platform); NULL when environment or platform is not in the lockfile. */
const sb_lock_platform *sb_select_platform(const sb_lock *lock, const sb_select_opts *opts);

/*
 * Select one environment x platform. The default platform, since a service
 * has no host platform: linux-64 when the environment locks it, else the
 * environment's only platform when it has exactly one, else the one the
 * reader named (sb_lock_env.default_platform); an environment that
 * locks no platform at all gives an empty document for platform "none";
 * otherwise
 * SB_ENOTFOUND naming the choices. An unknown environment or platform is
 * SB_ENOTFOUND with the available names in the message. A failure below
 * (a lookup or other callback, the deadline) comes up with its own code and
 * message; SB_ENOMEM "out of memory" is an allocation that failed.
 */
sb_code sb_select(sb_sbom **out, sb_arena *a, const sb_lock *lock, const sb_select_opts *opts, sb_err *err);

#endif
