/*
 * github.c - GitHub repository URLs read into "owner/repo" (see github.h):
 * one parser, so a purl and a Scorecard lookup never disagree about which
 * spellings name a repository.
 */
#include "github.h"

#include <string.h>
#include <strings.h>

/* n bytes at s are one safe path segment: [A-Za-z0-9._-], not "." or ".." */
static int segment_ok(const char *s, size_t n)
{
    if (0 == n || n > 100 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            return 0;
    }
    return 1;
}

const char *sb_github_repo(sb_arena *a, const char *url)
{
    if (NULL == url)
        return NULL;
    const char *p = url;
    static const char *const schemes[] = {"git+https://", "git+ssh://", "git+http://", "https://",
                                          "http://",      "git://",     "ssh://"};
    for (size_t i = 0; i < sizeof schemes / sizeof *schemes; i++)
        if (!strncasecmp(p, schemes[i], strlen(schemes[i]))) {
            p += strlen(schemes[i]);
            break;
        }
    if (!strncasecmp(p, "git@github.com:", 15))
        p += 15;
    else if (!strncasecmp(p, "github:", 7))
        p += 7;
    else {
        if (!strncasecmp(p, "git@", 4))
            p += 4;
        if (!strncasecmp(p, "www.", 4))
            p += 4;
        if (strncasecmp(p, "github.com", 10) || (p[10] != '/' && p[10] != ':'))
            return NULL;
        p += 11;
    }
    const char *slash = strchr(p, '/');
    if (NULL == slash || !segment_ok(p, (size_t)(slash - p)))
        return NULL;
    const char *r = slash + 1;
    size_t n = strcspn(r, "/?#");
    if (n >= 4 && !strncasecmp(r + n - 4, ".git", 4)) /* ".git" alone names nothing */
        n -= 4;
    if (!segment_ok(r, n))
        return NULL;
    return sb_arena_printf(a, "%.*s/%.*s", (int)(slash - p), p, (int)n, r);
}
