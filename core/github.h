/*
 * github.h - which GitHub repository a URL names: the one reading of the
 * spellings packages carry, for the pkg:github purl of a PyPI git source
 * (derive.c) and the OpenSSF Scorecard lookups (scorecard.c, health.c).
 */
#ifndef SB_GITHUB_H
#define SB_GITHUB_H

#include "arena.h"

/*
 * "owner/repo" (in `a`, spelled as in the URL: the callers decide about
 * case) when `url` names a GitHub repository, NULL otherwise.
 *
 * Accepted, the prefix compared without case: an optional scheme
 * (https://, http://, git://, ssh://, git+https://, git+http://,
 * git+ssh://), then github.com/, www.github.com/ or git@github.com/ (':'
 * may stand for that '/'), or git@github.com:, or the shorthand github:;
 * no scheme at all is bare github.com/o/r. After owner/repo the URL may go
 * on with a path, a query or a fragment, which are dropped, as is one
 * ".git" (any case) ending the repository.
 *
 * Refused: any other host (gitlab.com, github.com.evil.example), user
 * information other than git@, a missing owner or repository, and an owner
 * or repository that is not 1 to 100 of [A-Za-z0-9._-] or is "." or ".."
 * (after ".git" is dropped): the result is safe as two path segments of a
 * URL. NULL url is refused; NULL is also the answer when out of memory.
 */
const char *sb_github_repo(sb_arena *a, const char *url);

#endif
