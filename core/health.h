/*
 * health.h - supply-chain health of the packages in a selection: PEP 592
 * yanked flags and how far each PyPI
 * index package is behind its project's newest release.
 *
 * Both come from one PyPI JSON API answer per project
 * (<pypi-url>/<name>/json: `info.version` and `releases`, each release's
 * files with `upload_time_iso_8601`, `yanked`, `yanked_reason`). The
 * service fetches it and keeps only a digest (a few bytes per release, made
 * here); documents and the outdated report read the digest. No I/O here.
 *
 * Digest text: "latest\t<info.version>\n", "repo\t<owner/repo>\n" when the
 * page names a GitHub repository (core/github.h), then one line per release that
 * has files: "<version>\t<YYYY-MM-DD of its first upload>\t<y|n>\t<reason>\n"
 * (y = every file yanked; tabs and line breaks in the reason become spaces).
 */
#ifndef SB_HEALTH_H
#define SB_HEALTH_H

#include "arena.h"
#include "err.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

/* What the index said about one package; state SB_HEALTH_NONE everywhere
 * when the package was not asked about. */
typedef enum sb_health_state {
    SB_HEALTH_NONE = 0, /* not an index package, or nothing was asked */
    SB_HEALTH_ANSWERED, /* the project page was read */
    SB_HEALTH_UNKNOWN,  /* the index has no such project */
    SB_HEALTH_FAILED    /* failed, capped, missed the deadline, or no lookups on this server */
} sb_health_state;

typedef struct sb_health {
    sb_health_state state;
    bool yanked;               /* the locked release is yanked (every file of it) */
    const char *yanked_reason; /* NULL when none was given */
    const char *released;      /* first upload of the locked version, YYYY-MM-DD; NULL when not listed */
    const char *latest;        /* the project's newest release (info.version) */
    const char *latest_released;
    long behind;      /* releases newer than the locked one, yanked ones left out */
    const char *step; /* "major", "minor", "patch" (or "other"); NULL when up to date */
    const char *repo; /* GitHub "owner/repo" the project page names (project_urls, home_page); NULL: none */
} sb_health;

/* The digest of a project page (see above), in the arena. SB_EPARSE when
 * the body is not a JSON object with an `info.version` string. */
sb_code sb_health_pypi_digest(sb_arena *a, const char *json, size_t len, const char **digest, size_t *dlen);

/* What a digest says about `version` (state ANSWERED); an empty digest is a
 * project the index does not have (state UNKNOWN). */
sb_code sb_health_from_digest(sb_health *h, sb_arena *a, const char *digest, const char *version);

/* 1 when p is a PyPI index release (pkg:pypi purl of its own, no
 * qualifiers, a version): only those are asked (a VCS, archive or
 * local package's name may belong to someone else on the index). */
int sb_health_queryable(const sb_pkg *p);

/* How far `from` is behind `to` by their release segments: "major",
 * "minor", "patch", else "other" (pre/post/dev/local parts only); NULL when
 * `from` is not older. */
const char *sb_health_step(const char *from, const char *to);

/*
 * Conda packages (the outdated report): a channel index in repodata.json's
 * shape (`packages` and `packages.conda`: records with name, version,
 * timestamp in ms) per channel and subdir, fetched by the service from
 * --channel-index-url. Its digest: one line per distinct name and version,
 * "<name>\t<version>\t<YYYY-MM-DD of its first build, or ->\n".
 */

/* The index URL for a package's channel and subdir: `tmpl` with {channel}
 * and {subdir} replaced; NULL when either is missing or not a plain name
 * ([A-Za-z0-9._-], not "." or "..": a lockfile cannot steer the URL), or
 * the template is empty. */
const char *sb_health_channel_url(sb_arena *a, const char *tmpl, const char *channel, const char *subdir);

/* The digest of a channel index (see above). SB_EPARSE when the body is not
 * a JSON object with a `packages` or `packages.conda` object. */
sb_code sb_health_channel_digest(sb_arena *a, const char *json, size_t len, const char **digest, size_t *dlen);

/* What a channel digest says about conda package `name` at `version`
 * (newest by conda ordering, its and the locked version's first build day,
 * Behind = distinct versions newer than the lock up to the newest, Step);
 * state UNKNOWN when the index does not list the name. */
sb_code sb_health_from_channel(sb_health *h, sb_arena *a, const char *digest, const char *name, const char *version);

/* Give the selection's yanked packages their pixi:yanked /
 * pixi:yanked-reason properties (kept sorted by name). */
sb_code sb_health_props(sb_sbom *s, sb_arena *a);

#endif
