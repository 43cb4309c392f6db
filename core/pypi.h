/*
 * pypi.h - what a PyPI JSON API answer (/pypi/<name>/<version>/json) says
 * about a release's license, by the spec's precedence (9.4):
 * info.license_expression; else info.license when short and single-line;
 * else the License :: classifiers (mapped to SPDX ids where the table knows
 * them). No I/O here: the service fetches, this reads.
 */
#ifndef SB_PYPI_H
#define SB_PYPI_H

#include "arena.h"
#include "err.h"

#include <stddef.h>

/* The license string of a response body (NULL when it names none), in the
 * arena. SB_EPARSE when the body is not a JSON object. */
sb_code sb_pypi_license(sb_arena *a, const char *json, size_t len, const char **license);

/* The index URL of a release: <base>/<PEP 503 name>/<version>/json, with
 * both parts percent-encoded; NULL when name or version is unusable. */
const char *sb_pypi_url(sb_arena *a, const char *base, const char *name, const char *version);

/* base + "/" + each segment percent-encoded (only unreserved name
 * characters pass) + suffix; NULL for an empty, "." or ".." segment. Every
 * lookup URL is built here, from configuration and encoded parts only. */
const char *sb_index_url(sb_arena *a, const char *base, const char *const *segs, size_t n, const char *suffix);

#endif
