/*
 * test_health.c - PyPI project pages digested and read back (yanked flags,
 * Behind, Step, release dates), the step between two versions, which
 * packages are asked, and the pixi:yanked properties kept sorted.
 */
#include "test.h"
#include "../../core/health.h"

#include <stdlib.h>
#include <string.h>

/* the shape of a pypi.org project page, trimmed to what is read */
static const char page[] =
    "{\"info\": {\"name\": \"Demo\", \"version\": \"2.1.0\"}, \"last_serial\": 1, \"urls\": [],"
    " \"releases\": {"
    "  \"1.0\": [{\"upload_time\": \"2020-01-02T03:04:05\", \"upload_time_iso_8601\": \"2020-01-02T03:04:05.000000Z\","
    "            \"yanked\": false, \"yanked_reason\": null}],"
    "  \"1.1.0\": [{\"upload_time_iso_8601\": \"2021-02-03T00:00:00Z\", \"yanked\": true, \"yanked_reason\": \"bad\\tbuild\\nsorry\"},"
    "            {\"upload_time_iso_8601\": \"2021-02-01T00:00:00Z\", \"yanked\": true, \"yanked_reason\": null}],"
    "  \"1.2.0\": [{\"upload_time_iso_8601\": \"2021-05-05T00:00:00Z\", \"yanked\": true},"
    "            {\"upload_time_iso_8601\": \"2021-05-05T00:00:00Z\", \"yanked\": false}],"
    "  \"2.0.0\": [{\"upload_time\": \"2022-06-07T08:00:00\", \"yanked\": false}],"
    "  \"2.1.0\": [{\"upload_time_iso_8601\": \"2023-07-08T00:00:00Z\", \"yanked\": false}],"
    "  \"2.2.0rc1\": [{\"upload_time_iso_8601\": \"2024-01-01T00:00:00Z\", \"yanked\": false}],"
    "  \"3.0.0\": []"
    " }}";

TEST(health_pypi_digest_and_read_back)
{
    sb_arena *a = sb_arena_new(0);
    const char *dg = NULL;
    size_t n = 0;
    CHECK(sb_health_pypi_digest(a, page, strlen(page), &dg, &n) == SB_OK);
    CHECK(dg && strlen(dg) == n);
    CHECK(dg && !strncmp(dg, "latest\t2.1.0\n", 13));
    CHECK(dg && strstr(dg, "1.1.0\t2021-02-01\ty\tbad build sorry\n")); /* earliest upload, one line */
    CHECK(dg && strstr(dg, "1.2.0\t2021-05-05\tn\t\n"));                /* one file left: installable */
    CHECK(dg && !strstr(dg, "3.0.0"));                                  /* no files: never installable */

    sb_health h;
    CHECK(sb_health_from_digest(&h, a, dg, "1.1.0") == SB_OK);
    CHECK(h.state == SB_HEALTH_ANSWERED && h.yanked);
    CHECK_STR(h.yanked_reason, "bad build sorry");
    CHECK_STR(h.released, "2021-02-01");
    CHECK_STR(h.latest, "2.1.0");
    CHECK_STR(h.latest_released, "2023-07-08");
    CHECK(h.behind == 3); /* 1.2.0, 2.0.0, 2.1.0: not 2.2.0rc1 past the newest */
    CHECK_STR(h.step, "major");

    /* "1.0.0" is the PEP 440 spelling of the listed "1.0" */
    CHECK(sb_health_from_digest(&h, a, dg, "1.0.0") == SB_OK);
    CHECK(!h.yanked && h.yanked_reason == NULL);
    CHECK_STR(h.released, "2020-01-02");
    CHECK(h.behind == 3); /* 1.1.0 is yanked: not counted */

    CHECK(sb_health_from_digest(&h, a, dg, "2.1.0") == SB_OK);
    CHECK(h.behind == 0 && h.step == NULL);
    CHECK(sb_health_from_digest(&h, a, dg, "2.0.0") == SB_OK);
    CHECK(h.behind == 1);
    CHECK_STR(h.step, "minor");
    /* a version the page does not list: still placed, no release date */
    CHECK(sb_health_from_digest(&h, a, dg, "0.9") == SB_OK);
    CHECK(h.released == NULL && !h.yanked && h.behind == 4);

    CHECK(sb_health_from_digest(&h, a, "", "1.0") == SB_OK);
    CHECK(h.state == SB_HEALTH_UNKNOWN);

    CHECK(sb_health_pypi_digest(a, "[]", 2, &dg, &n) == SB_EPARSE);
    CHECK(sb_health_pypi_digest(a, "{\"info\": {}}", 12, &dg, &n) == SB_EPARSE);
    CHECK(sb_health_pypi_digest(a, "not json", 8, &dg, &n) == SB_EPARSE);
    /* a page without releases still says what is newest */
    CHECK(sb_health_pypi_digest(a, "{\"info\": {\"version\": \"1\"}}", 26, &dg, &n) == SB_OK);
    CHECK_STR(dg, "latest\t1\n");
    sb_arena_destroy(a);
}

TEST(health_step)
{
    CHECK_STR(sb_health_step("1.2.3", "2.0.0"), "major");
    CHECK_STR(sb_health_step("1.2.3", "1.3.0"), "minor");
    CHECK_STR(sb_health_step("1.2.3", "1.2.4"), "patch");
    CHECK_STR(sb_health_step("1.2", "1.2.1"), "patch");
    CHECK_STR(sb_health_step("1.2.3rc1", "1.2.3"), "other");
    CHECK_STR(sb_health_step("1.2.3", "1.2.3.post1"), "other");
    CHECK_STR(sb_health_step("1!1.0", "2!0.5"), "major"); /* another epoch */
    CHECK_STR(sb_health_step("2024.2.2", "2024.6.2"), "minor");
    CHECK(sb_health_step("1.2.3", "1.2.3") == NULL);
    CHECK(sb_health_step("2.0", "1.9") == NULL);
    CHECK(sb_health_step(NULL, "1.0") == NULL);
}

TEST(health_queryable_and_props)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg p[4];
    memset(p, 0, sizeof p);
    p[0] = (sb_pkg){.kind = SB_KIND_PYPI, .name = "a", .version = "1", .purl = "pkg:pypi/a@1"};
    p[1] = (sb_pkg){.kind = SB_KIND_PYPI, .name = "b", .version = "1", .purl = "pkg:pypi/b@1?vcs_url=git%2Bhttps://x"};
    p[2] = (sb_pkg){.kind = SB_KIND_PYPI, .name = "c", .version = "1", .purl = "pkg:generic/c@1"};
    p[3] = (sb_pkg){.kind = SB_KIND_CONDA, .name = "d", .version = "1", .purl = "pkg:conda/d@1"};
    CHECK(sb_health_queryable(&p[0]));
    CHECK(!sb_health_queryable(&p[1])); /* VCS: the name may be someone else's on the index */
    CHECK(!sb_health_queryable(&p[2]));
    CHECK(!sb_health_queryable(&p[3]));

    sb_prop props[] = {{"pixi:kind-x", "1"}, {"pixi:source", "true"}, {"pixi:z", "2"}};
    p[0].props = props;
    p[0].nprops = 3;
    sb_health h[2];
    memset(h, 0, sizeof h);
    h[0] = (sb_health){.state = SB_HEALTH_ANSWERED, .yanked = true, .yanked_reason = "why"};
    h[1] = (sb_health){.state = SB_HEALTH_FAILED, .yanked = true}; /* a failure says nothing */
    sb_sbom s;
    memset(&s, 0, sizeof s);
    s.pkgs = p;
    s.npkgs = 2;
    s.health = h;
    CHECK(sb_health_props(&s, a) == SB_OK);
    CHECK(p[0].nprops == 5);
    const char *want[] = {"pixi:kind-x", "pixi:source", "pixi:yanked", "pixi:yanked-reason", "pixi:z"};
    for (int k = 0; k < 5 && p[0].nprops == 5; k++)
        CHECK_STR(p[0].props[k].name, want[k]);
    CHECK(p[1].nprops == 0);
    sb_arena_destroy(a);
}

/* conda channel indexes (the outdated report's conda rows) */
TEST(health_channel_index)
{
    sb_arena *a = sb_arena_new(0);
    CHECK_STR(sb_health_channel_url(a, "https://conda.example/{channel}/{subdir}/repodata.json", "conda-forge",
                                    "linux-64"),
              "https://conda.example/conda-forge/linux-64/repodata.json");
    CHECK_STR(sb_health_channel_url(a, "http://x/{subdir}?c={channel}&{other}", "c", "noarch"),
              "http://x/noarch?c=c&{other}");
    CHECK(NULL == sb_health_channel_url(a, "", "c", "noarch"));
    static const char *const bad[] = {NULL,  "",    ".",   "..", "https://conda.anaconda.org/conda-forge",
                                      "a/b", "a b", "a%2f"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(NULL == sb_health_channel_url(a, "http://x/{channel}/{subdir}", bad[i], "linux-64") &&
              NULL == sb_health_channel_url(a, "http://x/{channel}/{subdir}", "c", bad[i]));
    const char *repo =
        "{\"info\": {\"subdir\": \"linux-64\"}, \"repodata_version\": 1, \"removed\": [],"
        " \"packages\": {\"z-1.0-h0.tar.bz2\": {\"name\": \"z\", \"version\": \"1.0\", \"build\": \"h0\", \"timestamp\": 1600000000000},"
        "   \"z-1.10-h0.tar.bz2\": {\"name\": \"z\", \"version\": \"1.10\", \"timestamp\": 1700000000}},"
        " \"packages.conda\": {\"z-1.0-h1.conda\": {\"name\": \"z\", \"version\": \"1.0\", \"timestamp\": 1500000000000},"
        "   \"z-1.9-h0.conda\": {\"name\": \"z\", \"version\": \"1.9\"},"
        "   \"z-2.0a1-h0.conda\": {\"name\": \"z\", \"version\": \"1.11\", \"timestamp\": 1710000000000},"
        "   \"y-3-h0.conda\": {\"name\": \"y\", \"version\": \"3\", \"timestamp\": 1710000000000},"
        "   \"bad\": {\"name\": \"b\\tad\", \"version\": \"1\"}, \"worse\": {\"version\": \"1\"}}}";
    const char *dg = NULL;
    size_t n = 0;
    CHECK(sb_health_channel_digest(a, repo, strlen(repo), &dg, &n) == SB_OK);
    /* a line per name and version, the earliest build's day (seconds read as such), "-" when none */
    CHECK(dg && strstr(dg, "z\t1.0\t2017-07-14\n") && strstr(dg, "z\t1.10\t2023-11-14\n") && strstr(dg, "z\t1.9\t-\n"));
    CHECK(dg && !strstr(dg, "ad\t") && n == strlen(dg));
    sb_health h;
    CHECK(sb_health_from_channel(&h, a, dg, "z", "1.0") == SB_OK);
    CHECK(h.state == SB_HEALTH_ANSWERED);
    CHECK_STR(h.latest, "1.11"); /* conda ordering: 1.11 > 1.10 > 1.9 */
    CHECK_STR(h.released, "2017-07-14");
    CHECK_STR(h.latest_released, "2024-03-09");
    CHECK(h.behind == 3);
    CHECK_STR(h.step, "minor");
    CHECK(sb_health_from_channel(&h, a, dg, "z", "1.11") == SB_OK && h.behind == 0 && NULL == h.step);
    CHECK(sb_health_from_channel(&h, a, dg, "q", "1") == SB_OK && h.state == SB_HEALTH_UNKNOWN);
    CHECK(sb_health_from_channel(&h, a, dg, "y", "2") == SB_OK && h.behind == 1 && NULL == h.released);
    static const char *const junk[] = {"", "[]", "{}", "{\"packages\": []}", "nope"};
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++)
        CHECK(sb_health_channel_digest(a, junk[i], strlen(junk[i]), &dg, &n) == SB_EPARSE);
    sb_arena_destroy(a);
}
