/*
 * test_scorecard.c - OpenSSF Scorecard: the GitHub repository a package
 * names (the URL spellings themselves: test_github.c), the API URL, the recorded
 * real answer digested and read back, the properties below scorecard-min,
 * thresholds, and the repository a PyPI project page names.
 */
#include "test.h"
#include "../../core/health.h"
#include "../../core/scorecard.h"

#include <stdlib.h>
#include <string.h>

TEST(scorecard_pkg_repo)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg p;
    memset(&p, 0, sizeof p);
    sb_pkgx *x = sb_pkg_x(&p, a);
    x->homepage = "https://github.com/h/home";
    CHECK_STR(sb_scorecard_pkg_repo(a, &p), "h/home");
    x->repository = "https://github.com/r/repo";
    CHECK_STR(sb_scorecard_pkg_repo(a, &p), "r/repo"); /* the repository first */
    x->repository = "https://gitlab.com/r/repo";
    CHECK_STR(sb_scorecard_pkg_repo(a, &p), "h/home");
    CHECK_STR(sb_scorecard_url(a, "https://api.securityscorecards.dev/", "psf/requests"),
              "https://api.securityscorecards.dev/projects/github.com/psf/requests");
    sb_arena_destroy(a);
}

TEST(scorecard_real_answer_digest)
{
    sb_arena *a = sb_arena_new(0);
    size_t len = 0;
    char *body = sb_test_read("tests/data/scorecard/github.com-ljharb-qs.json", &len);
    CHECK(body != NULL);
    const char *dg = NULL;
    size_t n = 0;
    CHECK(body && sb_scorecard_digest(a, body, len, &dg, &n) == SB_OK);
    CHECK_STR(dg,
              "score\t6.8\ndate\t2023-05-22\ncheck\tMaintained\t8\ncheck\tCode-Review\t0\n"
              "check\tCII-Best-Practices\t0\ncheck\tLicense\t10\n");
    CHECK(dg && n == strlen(dg));
    sb_scorecard sc;
    memset(&sc, 0, sizeof sc);
    sc.repo = "ljharb/qs";
    CHECK(sb_scorecard_from_digest(&sc, a, dg) == SB_OK);
    CHECK(sc.state == SB_SCORECARD_ANSWERED && sc.score > 6.79 && sc.score < 6.81);
    CHECK_STR(sc.date, "2023-05-22");
    CHECK_STR(sc.repo, "ljharb/qs"); /* kept */
    CHECK(sc.nchecks == 4 && !strcmp(sc.checks[1].name, "Code-Review") && sc.checks[1].score == 0);
    CHECK(sb_scorecard_from_digest(&sc, a, "") == SB_OK && sc.state == SB_SCORECARD_UNSCORED);
    CHECK(sb_scorecard_from_digest(&sc, a, "latest\t1\n") == SB_EPARSE);
    free(body);
    /* what is not an answer: no numeric score, or one off the scale; a
     * timestamp date is cut to its day, odd checks are left out */
    static const char *const junk[] = {"",    "[]", "{}", "{\"score\": \"7\"}", "{\"score\": 11}", "{\"score\": -1}",
                                       "nope"};
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++)
        CHECK(sb_scorecard_digest(a, junk[i], strlen(junk[i]), &dg, &n) == SB_EPARSE);
    const char *odd =
        "{\"date\": \"2024-11-25T10:12:31Z\", \"score\": 7.25, \"checks\": [{\"name\": \"A\\tB\", \"score\": 1},"
        " {\"name\": \"Fuzzing\", \"score\": -1}, {\"name\": \"X\", \"score\": 12}, {\"score\": 3}, {\"name\": \"Y\"}]}";
    CHECK(sb_scorecard_digest(a, odd, strlen(odd), &dg, &n) == SB_OK);
    CHECK(dg && (!strcmp(dg, "score\t7.3\ndate\t2024-11-25\ncheck\tFuzzing\t-1\n") ||
                 !strcmp(dg, "score\t7.2\ndate\t2024-11-25\ncheck\tFuzzing\t-1\n")));
    sb_arena_destroy(a);
}

TEST(scorecard_props_below_min)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg pkgs[2];
    memset(pkgs, 0, sizeof pkgs);
    pkgs[0].name = "qs";
    pkgs[1].name = "nothing";
    sb_prop pr[2] = {{"pixi:index-url", "x"}, {"pixi:source", "true"}};
    pkgs[0].props = pr;
    pkgs[0].nprops = 2;
    sb_scorecard sc[2];
    memset(sc, 0, sizeof sc);
    CHECK(sb_scorecard_from_digest(&sc[0], a,
                                   "score\t6.8\ndate\t2023-05-22\ncheck\tMaintained\t8\ncheck\tCode-Review\t0\n"
                                   "check\tFuzzing\t-1\ncheck\tLicense\t10\n") == SB_OK);
    sc[1].state = SB_SCORECARD_FAILED;
    sb_sbom s;
    memset(&s, 0, sizeof s);
    s.pkgs = pkgs;
    s.npkgs = 2;
    s.scorecard = sc;
    CHECK(sb_scorecard_props(&s, a, 9) == SB_OK);
    static const char *const want[][2] = {
        {"pixi:index-url", "x"},
        {"pixi:scorecard", "6.8"},
        {"pixi:scorecard-check-Code-Review", "0"},
        {"pixi:scorecard-check-Maintained", "8"},
        {"pixi:scorecard-date", "2023-05-22"},
        {"pixi:source", "true"},
    };
    CHECK(pkgs[0].nprops == 6);
    for (size_t i = 0; i < 6 && i < pkgs[0].nprops; i++)
        CHECK(!strcmp(pkgs[0].props[i].name, want[i][0]) && !strcmp(pkgs[0].props[i].value, want[i][1]));
    CHECK(pkgs[1].nprops == 0); /* failed: nothing said */
    pkgs[0].props = pr;
    pkgs[0].nprops = 2;
    CHECK(sb_scorecard_props(&s, a, -1) == SB_OK && pkgs[0].nprops == 4); /* no minimum: no checks */
    double d = -5;
    CHECK(sb_scorecard_threshold("5", &d) == 0 && d == 5.0);
    CHECK(sb_scorecard_threshold("6.5", &d) == 0 && d == 6.5);
    CHECK(sb_scorecard_threshold("10", &d) == 0 && d == 10.0);
    static const char *const no[] = {NULL, "", "-1", "11", "10.5", "abc", "5.5.5", ".5", "1e1", "5 "};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        CHECK(sb_scorecard_threshold(no[i], &d) != 0);
    sb_arena_destroy(a);
}

TEST(scorecard_repo_from_project_page)
{
    sb_arena *a = sb_arena_new(0);
    /* a labelled source link wins over an earlier unlabelled one; home_page last */
    const char *page =
        "{\"info\": {\"version\": \"1.0\", \"home_page\": \"https://github.com/home/page\","
        " \"project_urls\": {\"Homepage\": \"https://github.com/other/site\", \"Documentation\": \"https://x.readthedocs.io\","
        " \"Source Code\": \"https://github.com/right/repo\"}}, \"releases\": {}}";
    const char *dg = NULL;
    size_t n = 0;
    CHECK(sb_health_pypi_digest(a, page, strlen(page), &dg, &n) == SB_OK);
    CHECK_STR(dg, "latest\t1.0\nrepo\tright/repo\n");
    sb_health h;
    CHECK(sb_health_from_digest(&h, a, dg, "1.0") == SB_OK);
    CHECK_STR(h.repo, "right/repo");
    CHECK_STR(h.latest, "1.0");
    const char *p2 =
        "{\"info\": {\"version\": \"1.0\", \"home_page\": \"https://github.com/home/page\", \"project_urls\": null}}";
    CHECK(sb_health_pypi_digest(a, p2, strlen(p2), &dg, &n) == SB_OK);
    CHECK_STR(dg, "latest\t1.0\nrepo\thome/page\n");
    const char *p3 = "{\"info\": {\"version\": \"1.0\", \"project_urls\": {\"Source\": \"https://gitlab.com/a/b\"}}}";
    CHECK(sb_health_pypi_digest(a, p3, strlen(p3), &dg, &n) == SB_OK);
    CHECK_STR(dg, "latest\t1.0\n");
    CHECK(sb_health_from_digest(&h, a, dg, "1.0") == SB_OK && NULL == h.repo);
    sb_arena_destroy(a);
}
