/*
 * test_shared_cache.c - --cache-url taken apart (svc_shared_parse_url): the
 * forms Redis clients accept (password only, ACL user and password,
 * percent-escapes, IPv6, default port and database) and the ones refused
 * (rediss:// without TLS support, other schemes, bad ports, databases,
 * escapes, queries); and a shared cache that is off answering OFF at once.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../service/lookup/shared_cache.h"

TEST(shared_url_forms)
{
    svc_shared_url u;
    sb_err err;
    CHECK(svc_shared_parse_url("redis://cache", &u, &err) == 0);
    CHECK_STR(u.host, "cache");
    CHECK(u.port == 6379 && u.db == 0 && !u.has_password);
    CHECK(svc_shared_parse_url("redis://10.0.0.5:6380/7", &u, &err) == 0);
    CHECK_STR(u.host, "10.0.0.5");
    CHECK(u.port == 6380 && u.db == 7);
    CHECK(svc_shared_parse_url("redis://:s3cret@redis.ns.svc:6379/0", &u, &err) == 0);
    CHECK(u.has_password && !u.user[0]);
    CHECK_STR(u.password, "s3cret");
    CHECK_STR(u.host, "redis.ns.svc");
    CHECK(svc_shared_parse_url("redis://app:p%40ss%3Aw@[::1]:7000/", &u, &err) == 0);
    CHECK_STR(u.user, "app");
    CHECK_STR(u.password, "p@ss:w");
    CHECK_STR(u.host, "::1");
    CHECK(u.port == 7000 && u.db == 0);
    /* an unescaped '@' in the password: the last one ends the userinfo */
    CHECK(svc_shared_parse_url("redis://:a@b@h", &u, &err) == 0);
    CHECK_STR(u.password, "a@b");
    CHECK_STR(u.host, "h");
    /* a lone userinfo is the password, as redis-cli -u reads it */
    CHECK(svc_shared_parse_url("redis://tok@h:1/2", &u, &err) == 0);
    CHECK(u.has_password && !u.user[0]);
    CHECK_STR(u.password, "tok");
}

TEST(shared_url_refused)
{
    svc_shared_url u;
    sb_err err;
    CHECK(svc_shared_parse_url("rediss://h:6380/0", &u, &err) < 0);
    CHECK(strstr(err.msg, "TLS") != NULL);
    const char *bad[] = {"http://h:6379",        "redis://",       "redis://:pw@",   "redis://h:0",
                         "redis://h:65536",      "redis://h:12x",  "redis://h/-1",   "redis://h/x",
                         "redis://h/1/2",        "redis://h?db=1", "redis://h#f",    "redis://[::1",
                         "redis://[::1]x",       "redis://:%zz@h", "redis://:%00@h", "redis://h h",
                         "redis://h/99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = '\0';
        int rc = svc_shared_parse_url(bad[i], &u, &err);
        sb_test_subcase(bad[i], rc < 0 && err.msg[0], "accepted, or refused without a reason");
    }
}

TEST(shared_off)
{
    sb_arena *a = sb_arena_new(0);
    const char *v = "x";
    size_t n = 1;
    char why[64];
    CHECK(!svc_shared_enabled());
    CHECK(svc_shared_get("k", a, &v, &n, why, sizeof why) == SVC_SHARED_OFF);
    CHECK(v == NULL && n == 0);
    CHECK(svc_shared_put("k", "v", 1, 60) == -1);
    CHECK(svc_shared_flush(10) == 1);
    sb_arena_destroy(a);
}
