/*
 * scorecard.h - OpenSSF Scorecard results for the packages of a selection
 *: which GitHub repository a package
 * comes from (its URLs read by github.h), the API URL that scores it, the answer read into a short
 * digest, and the pixi:scorecard* properties. No I/O here: the service
 * fetches <scorecard-url>/projects/github.com/<owner>/<repo> through its
 * lookup engine and hands the digests back.
 *
 * Digest text (what the cache keeps per repository, a few bytes per check):
 * "score\t<overall, one decimal>\ndate\t<YYYY-MM-DD>\n" then one line per
 * check "check\t<Name>\t<score -1..10>\n" (-1: the check was inconclusive).
 * An empty digest is a repository the API has not scored (404).
 */
#ifndef SB_SCORECARD_H
#define SB_SCORECARD_H

#include "arena.h"
#include "err.h"
#include "model.h"

#include <stddef.h>

typedef enum sb_scorecard_state {
    SB_SCORECARD_NONE = 0, /* no GitHub repository known: nothing asked */
    SB_SCORECARD_ANSWERED, /* scored */
    SB_SCORECARD_UNSCORED, /* the API has no result for the repository */
    SB_SCORECARD_FAILED    /* failed, capped, missed the deadline, or no lookups on this server */
} sb_scorecard_state;

typedef struct sb_scorecard_check {
    const char *name; /* "Code-Review", ... as the API names it */
    int score;        /* 0..10, -1 inconclusive */
} sb_scorecard_check;

typedef struct sb_scorecard {
    sb_scorecard_state state;
    const char *repo; /* "owner/repo" on github.com, NULL when none is known */
    double score;     /* overall, 0..10 (one decimal) */
    const char *date; /* YYYY-MM-DD of the run */
    sb_scorecard_check *checks;
    size_t nchecks;
} sb_scorecard;

/* The repository a package record names, "owner/repo" as sb_github_repo
 * (github.h) reads it: its repository, then its homepage; NULL when
 * neither is on GitHub. */
const char *sb_scorecard_pkg_repo(sb_arena *a, const sb_pkg *p);

/* <base>/projects/github.com/<owner/repo> (base's trailing '/' dropped). */
const char *sb_scorecard_url(sb_arena *a, const char *base, const char *repo);

/* The digest of an API answer (see above), in the arena. SB_EPARSE when the
 * body is not a JSON object with a numeric `score`. */
sb_code sb_scorecard_digest(sb_arena *a, const char *json, size_t len, const char **digest, size_t *dlen);

/* Read a digest into *sc (state ANSWERED; an empty digest UNSCORED);
 * sc->repo is left as it was. SB_EPARSE when it is not a digest. */
sb_code sb_scorecard_from_digest(sb_scorecard *sc, sb_arena *a, const char *digest);

/* Give the selection's scored packages pixi:scorecard and
 * pixi:scorecard-date, and, when min >= 0, pixi:scorecard-check-<Check> for
 * each conclusive check scoring below min. */
sb_code sb_scorecard_props(sb_sbom *s, sb_arena *a, double min);

/* Parse a score threshold "N" or "N.N" between 0 and 10; 0 or -1. */
int sb_scorecard_threshold(const char *s, double *out);

#endif
