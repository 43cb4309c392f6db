/*
 * lookup.h - license lookups over the network, shared by every request of
 * the process (issue: --fetch-licenses inside a server); OSV advisories and
 * PyPI project pages (yanked, outdated) go through the same engine.
 *
 * One thread drives a libcurl multi handle: at most `concurrency` transfers
 * at once, connections kept alive and reused. Results live in a bounded
 * in-process cache (positive answers for --lookup-ttl, "the index has no
 * such release" for --lookup-negative-ttl, failures not kept); a release
 * asked for while its transfer runs waits for that transfer (single flight).
 * Requests take turns for the transfer slots, each with its own queue and a
 * cap on its lookups (lookup_sched.h); a request whose client goes or whose
 * deadline passes stops costing transfers.
 * URLs are only ever built from the configured index base plus a package's
 * encoded name and version, never taken from the lockfile (no SSRF), and
 * redirects are not followed.
 * With --cache-url, answers are also shared with every replica through
 * Redis (shared_cache.h): a request asks it, in one round trip, for what
 * this process lacks before any transfer, and every answer a transfer
 * brings is written there (queued, never waited for).
 */
#ifndef SVC_LOOKUP_H
#define SVC_LOOKUP_H

#include "../../core/model.h"
#include "../../core/select.h"
#include "../config.h"
#include "../metrics.h"

#include <time.h>

typedef struct svc_lookup svc_lookup;

/* Start the engine (the caller made sure lookups are enabled). SB_OK, or an
 * sb_code with *err. */
sb_code svc_lookup_start(svc_lookup **out, const svc_cfg *cfg, svc_metrics *m, sb_err *err);

/* Stop the thread, abandon transfers, free everything. */
void svc_lookup_stop(svc_lookup *L);

/* One request's view: the engine (NULL when the server makes no lookups),
 * the absolute CLOCK_MONOTONIC deadline of its lookups, and how to tell that
 * its client has gone (NULL: never asked). The engine keeps the request's
 * queue in `ticket` from its first lookup until svc_lookup_end(). */
typedef struct svc_lookup_ctx {
    svc_lookup *engine;
    struct timespec deadline;
    int (*gone)(void *gone_cls);
    void *gone_cls;
    struct svc_sched_req *ticket;
    /* the shared cache (--cache-url) failed for this request: warn (NULL:
     * nobody to tell) is called once with the reason, which the answer
     * carries as a Warning header; its lookups went on without it */
    void (*warn)(void *warn_cls, const char *why);
    void *warn_cls;
    int warned;
    int kev, epss;            /* ?kev=true / ?epss=true: annotate the findings (--kev-url/-file, --epss-url/-file) */
    const struct sb_vex *vex; /* the request's `vex` part, applied to the findings; NULL = none */
} svc_lookup_ctx;

/* An sb_lookup_fn: PyPI packages without a license are looked up together;
 * blocks until all are answered, the deadline passes or the client goes
 * (checked every 100 ms). Past the request's --lookup-max-per-request
 * lookups, packages are counted in st->capped and not looked up. When it
 * gives up, the request's queued lookups are dropped and transfers no other
 * request waits for are aborted; later calls for the request look up nothing.
 * A failure (out of memory; lookups that did not answer are counted, not
 * failures) sets err. */
sb_code svc_lookup_fill(void *ctx, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err);

/* Queue, without waiting, the lookups a selection's records will want (a
 * multi-document request calls this for every selection before writing the
 * first, so all of their transfers share the pool; each document's own
 * svc_lookup_fill then finds them answered or in flight). */
void svc_lookup_prefetch(void *ctx, const sb_lock_platform *plat, const char *package_cache, sb_arena *a);

/* The same for packages already selected (and filtered: a request with
 * filters queues only what its documents keep). */
void svc_lookup_prefetch_pkgs(void *ctx, const sb_pkg *pkgs, size_t n, sb_arena *a);
/* An sb_vuln_fn: the selection's PyPI and npm purls asked of
 * OSV (--osv-url) in querybatch chunks, then each advisory's record, all
 * through the engine above (claims, cap, single flight, cache for
 * --osv-ttl, deadline, client gone). What fails is recorded as pixi:incomplete
 * step osv; the document never fails for it. */
sb_code svc_lookup_vulns(void *ctx, sb_sbom *s, sb_arena *a, sb_err *err);

/* PyPI project pages (<pypi-url>/<PEP 503 name>/json) for n names, through
 * the engine above (claims, per-request cap, single flight, in-memory cache
 * for --lookup-ttl, --lookup-negative-ttl for a 404, deadline, client gone):
 * digests[i] is the page's digest (core/health.h: sb_health_pypi_digest),
 * "" when the index has no such project, NULL when it failed, was capped
 * (counted in *capped) or the server makes no lookups (*offline set). */
sb_code svc_lookup_pypi_projects(void *ctx, sb_arena *a, size_t n, const char *const *names, const char **digests,
                                 size_t *capped, int *offline);

/* An sb_vuln_fn (lookup_health.c): the selection's PyPI
 * index packages' project pages read into s->health (yanked flags, how far
 * behind); gaps are pixi:incomplete step pypi-releases. */
sb_code svc_lookup_health(void *ctx, sb_sbom *s, sb_arena *a, sb_err *err);

/* OpenSSF Scorecard answers (<scorecard-url>/projects/github.com/<repo>)
 * for n "owner/repo" names already checked by sb_github_repo, through the
 * engine above (claims, cap, single flight, cache for --scorecard-ttl, a 404
 * for --lookup-negative-ttl): digests[i] is the answer's digest
 * (core/scorecard.h), "" when the API has not scored it, NULL when it failed,
 * was capped (*capped) or the server makes no lookups (*offline). */
sb_code svc_lookup_scorecards(void *ctx, sb_arena *a, size_t n, const char *const *repos, const char **digests,
                              size_t *capped, int *offline);

/* An sb_vuln_fn (lookup_scorecard.c): the selection's packages with a GitHub
 * repository (PyPI: from their project pages, read by svc_lookup_health
 * before) get s->scorecard; gaps are pixi:incomplete step scorecard. */
sb_code svc_lookup_scorecard(void *ctx, sb_sbom *s, sb_arena *a, sb_err *err);

/* Conda channel indexes (--channel-index-url with {channel}/{subdir}) for
 * n channel/subdir pairs, through the engine above (cache for
 * --channel-index-ttl): digests[i] is the index's digest (core/health.h),
 * NULL when it failed, was capped, was not askable, or the server reads no
 * channel index (*offline set: no lookups or no --channel-index-url). */
sb_code svc_lookup_channel_indexes(void *ctx, sb_arena *a, size_t n, const char *const *channels,
                                   const char *const *subdirs, const char **digests, size_t *capped, int *offline);

/* The request is over (a svc_lookup_ctx *, for svc_req_on_done): its claims
 * are dropped as when it gives up. Safe without an engine or a lookup made. */
void svc_lookup_end(void *ctx);

#endif
