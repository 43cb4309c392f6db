/*
 * test_github.c - the one GitHub repository URL parser (core/github.h):
 * every spelling packages carry read to "owner/repo", everything else
 * refused, so no URL a lockfile names can steer a Scorecard lookup
 * elsewhere or make a pkg:github purl of what is not a repository.
 */
#include "test.h"
#include "../../core/github.h"

#include <string.h>

TEST(github_repo_spellings)
{
    sb_arena *a = sb_arena_new(0);
    static const char *const good[][2] = {
        {"https://github.com/psf/requests", "psf/requests"},
        {"http://www.github.com/psf/requests/", "psf/requests"},
        {"https://github.com/psf/requests.git", "psf/requests"},
        {"https://github.com/psf/requests/tree/main/src", "psf/requests"},
        {"https://github.com/ljharb/qs#readme", "ljharb/qs"},
        {"https://GitHub.com/a/b?tab=readme", "a/b"},
        {"git+https://github.com/urllib3/urllib3.git", "urllib3/urllib3"},
        {"git+ssh://git@github.com/ljharb/qs.git", "ljharb/qs"},
        {"git://github.com/kjd/idna", "kjd/idna"},
        {"git@github.com:certifi/python-certifi.git", "certifi/python-certifi"},
        {"github:ljharb/qs", "ljharb/qs"},
        {"github.com/conda-forge/zlib-feedstock", "conda-forge/zlib-feedstock"},
        {"https://github.com/a.b_c/d-e.f", "a.b_c/d-e.f"},
        /* the spellings a PyPI git source's purl was read from (model.c
         * before this parser was shared): all still read */
        {"https://www.github.com/pallets/flask", "pallets/flask"},
        {"ssh://git@github.com/pallets/flask.git", "pallets/flask"},
        {"http://github.com/pallets/flask", "pallets/flask"},
        {"git@github.com:pallets/flask", "pallets/flask"},
        /* spelled as written: pkg:github lower-cases, Scorecard does not */
        {"https://github.com/Pallets/Flask.git", "Pallets/Flask"},
        {"https://github.com/o/R.GIT", "o/R"},
        {"GIT+SSH://GIT@GITHUB.COM/o/r", "o/r"},
        {"git@github.com/o/r", "o/r"},
        {"https://github.com/o/r/", "o/r"},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        const char *r = sb_github_repo(a, good[i][0]);
        CHECK(r && !strcmp(r, good[i][1]));
    }
    static const char *const bad[] = {
        NULL,
        "",
        "https://gitlab.com/a/b",
        "https://github.com/",
        "https://github.com/onlyowner",
        "https://github.com.evil.example/a/b",
        "https://evil.example/github.com/a/b",
        "https://github.com/../b",
        "https://github.com/a/..",
        "https://github.com/a/%2e%2e",
        "https://github.com/a b/c",
        "https://github.com/a/.git",
        "https://user@github.com/a/b",
        "file:///github.com/a/b",
        "https://githubcom/a/b",
        "https://github.com/o/",
        "https://github.com//r",
        "https://api.github.com/o/r",
        "ftp://github.com/o/r",
        "https://gist.github.com/o/r",
        "https://github.com/o/r.git@v1.0", /* pip's @rev is not part of a name */
        "https://github.com/o/r%20x",
        "https://github.com/" /* owner of 101 characters */
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/r",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(NULL == sb_github_repo(a, bad[i]));
    CHECK(
        NULL !=
        sb_github_repo(
            a,
            "https://github.com/"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/r"));
    sb_arena_destroy(a);
}
