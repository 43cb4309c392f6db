/*
 * test_service.c - the service's parsers and policies that need no server:
 * bearer tokens (load, check, reload keeping the old set, open paths),
 * coded request bodies (gzip, deflate, zstd, bombs, truncation, the budget
 * refusing growth), file replacement noticed by polling, --listen addresses and the configuration loader
 * (flags over environment, bounds, unknown options), the idle release put
 * off and made later.
 */
#include "test.h"
#include "../../service/http/auth.h"
#include "../../service/config.h"
#include "../../service/http/decode.h"
#include "../../service/filewatch.h"
#include "../../service/http/request_int.h"
#include "../../core/deadline.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

TEST(svc_auth__load_check_reload)
{
    char dir[] = "/tmp/sbomd-auth-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/tokens", dir);
    write_file(path, "# CI tokens\n  alpha-1  \n\nbeta-2\n");
    svc_auth a;
    sb_err err;
    CHECK(svc_auth_init(&a, path, "/,/healthz", &err) == 0);
    CHECK(a.n == 2);
    CHECK(svc_auth_check(&a, "Bearer alpha-1") == 1);
    CHECK(svc_auth_check(&a, "Bearer beta-2") == 1);
    CHECK(svc_auth_check(&a, "Bearer alpha-") == -1); /* a prefix is not the token */
    CHECK(svc_auth_check(&a, "Bearer  alpha-1x") == -1);
    CHECK(svc_auth_check(&a, NULL) == 0);
    CHECK(svc_auth_check(&a, "Basic YWxwaGEtMQ==") == 0);
    CHECK(svc_auth_is_open(&a, "/healthz") && svc_auth_is_open(&a, "/"));
    CHECK(!svc_auth_is_open(&a, "/v1/sbom") && !svc_auth_is_open(&a, "/healthzz"));
    /* a reload that fails keeps the old tokens */
    unlink(path);
    CHECK(mkdir(path, 0700) == 0);
    size_t n = 99;
    CHECK(svc_auth_reload(&a, &n, &err) < 0);
    CHECK(svc_auth_check(&a, "Bearer alpha-1") == 1);
    rmdir(path);
    write_file(path, "# nothing yet\n");
    CHECK(svc_auth_reload(&a, &n, &err) < 0 && strstr(err.msg, "no token"));
    CHECK(svc_auth_check(&a, "Bearer beta-2") == 1);
    /* a good reload replaces them */
    write_file(path, "gamma-3\n");
    CHECK(svc_auth_reload(&a, &n, &err) == 0 && n == 1);
    CHECK(svc_auth_check(&a, "Bearer gamma-3") == 1 && svc_auth_check(&a, "Bearer alpha-1") == -1);
    svc_auth_free(&a);
    unlink(path);
    rmdir(dir);
}

/* ---- coded bodies ---------------------------------------------------------- */

static sb_buf coded(const char *coding, const char *text, size_t len)
{
    sb_buf b = SB_BUF_INIT(0);
    size_t cap = compressBound((uLong)len) + ZSTD_compressBound(len) + 64;
    sb_buf_reserve(&b, cap);
    if (!strcmp(coding, "zstd")) {
        b.len = ZSTD_compress(b.data, cap, text, len, 3);
    } else {
        z_stream z;
        memset(&z, 0, sizeof z);
        /* 16 + 15: gzip framing; 15: zlib (HTTP's "deflate") */
        deflateInit2(&z, 6, Z_DEFLATED, strcmp(coding, "deflate") ? 16 + 15 : 15, 8, Z_DEFAULT_STRATEGY);
        z.next_in = (Bytef *)text;
        z.avail_in = (uInt)len;
        z.next_out = (Bytef *)b.data;
        z.avail_out = (uInt)cap;
        deflate(&z, Z_FINISH);
        b.len = cap - z.avail_out;
        deflateEnd(&z);
    }
    return b;
}

static int refuse_after_2mib(void *ctx, size_t len)
{
    (*(int *)ctx)++;
    return len > (2u << 20);
}

TEST(svc_decode__codings_bombs_truncation)
{
    static const char text[] = "version: 6\nenvironments: {}\npackages: []\n";
    char why[160];
    const char *codings[] = {"gzip", "deflate", "zstd"};
    for (size_t i = 0; i < 3; i++) {
        sb_buf in = coded(codings[i], text, sizeof text - 1), out;
        CHECK(svc_decode_body(codings[i], &in, 1 << 20, &out, NULL, NULL, why, sizeof why) == SVC_DECODE_OK);
        CHECK(out.len == sizeof text - 1 && out.data && !strcmp(out.data, text));
        sb_buf_free(&out);
        /* truncated: every coding says so */
        in.len /= 2;
        CHECK(svc_decode_body(codings[i], &in, 1 << 20, &out, NULL, NULL, why, sizeof why) == SVC_DECODE_CORRUPT);
        sb_buf_free(&out);
        sb_buf_free(&in);
    }
    CHECK(svc_decode_needed("gzip") && svc_decode_needed("ZSTD"));
    CHECK(!svc_decode_needed(NULL) && !svc_decode_needed("") && !svc_decode_needed("identity"));
    sb_buf plain = SB_BUF_INIT(0), out;
    sb_buf_append(&plain, text, sizeof text - 1);
    CHECK(svc_decode_body("gzip", &plain, 1 << 20, &out, NULL, NULL, why, sizeof why) == SVC_DECODE_CORRUPT);
    sb_buf_free(&out);
    CHECK(svc_decode_body("br", &plain, 1 << 20, &out, NULL, NULL, why, sizeof why) == SVC_DECODE_UNKNOWN);
    CHECK(strstr(why, "'br'") != NULL);
    sb_buf_free(&out);
    sb_buf_free(&plain);
    /* a bomb: 16 MiB of zeros stops at the cap, and the budget is asked first */
    size_t big = 16u << 20;
    char *zeros = calloc(1, big);
    for (size_t i = 0; i < 2; i++) {
        sb_buf in = coded(codings[i * 2], zeros, big);
        CHECK(in.len < big / 100);
        CHECK(svc_decode_body(codings[i * 2], &in, 4u << 20, &out, NULL, NULL, why, sizeof why) == SVC_DECODE_TOO_BIG);
        CHECK(out.len <= (4u << 20));
        sb_buf_free(&out);
        int asked = 0;
        CHECK(svc_decode_body(codings[i * 2], &in, 64u << 20, &out, refuse_after_2mib, &asked, why, sizeof why) ==
              SVC_DECODE_REFUSED);
        CHECK(asked == 3 && out.len <= (2u << 20)); /* 1 MiB, 2 MiB, then the refused 3rd */
        sb_buf_free(&out);
        sb_buf_free(&in);
    }
    free(zeros);
}

TEST(svc_listen__ipv4_ipv6_brackets)
{
    struct sockaddr_storage ss;
    int fam = 0;
    sb_err err;
    CHECK(svc_listen_parse("127.0.0.1", 8080, &ss, &fam, &err) == 0 && fam == AF_INET);
    CHECK(ntohs(((struct sockaddr_in *)&ss)->sin_port) == 8080);
    CHECK(svc_listen_parse("::", 1, &ss, &fam, &err) == 0 && fam == AF_INET6);
    CHECK(svc_listen_parse("[::1]", 1, &ss, &fam, &err) == 0 && fam == AF_INET6);
    CHECK(svc_listen_parse("[::1", 1, &ss, &fam, &err) < 0 && strstr(err.msg, "IPv4 or IPv6"));
    CHECK(svc_listen_parse("localhost", 1, &ss, &fam, &err) < 0);
    CHECK(svc_listen_parse("", 1, &ss, &fam, &err) < 0);
}

TEST(svc_cfg__flags_env_bounds)
{
    svc_cfg c;
    sb_err err;
    char *argv1[] = {"sbomd", "--port", "9090", "--max-body=1048576", "--quiet", NULL};
    unsetenv("SBOMD_PORT");
    CHECK(svc_cfg_load(&c, 4, argv1, &err) == 0);
    CHECK(c.port == 9090 && c.max_body == 1048576);
    setenv("SBOMD_PORT", "7070", 1);
    char *argv2[] = {"sbomd", NULL};
    CHECK(svc_cfg_load(&c, 1, argv2, &err) == 0 && c.port == 7070);
    char *argv3[] = {"sbomd", "--port", "6060", NULL};
    CHECK(svc_cfg_load(&c, 3, argv3, &err) == 0 && c.port == 6060); /* the flag wins */
    unsetenv("SBOMD_PORT");
    char *argv4[] = {"sbomd", "--port", "70000", NULL};
    CHECK(svc_cfg_load(&c, 3, argv4, &err) < 0 && strstr(err.msg, "port"));
    char *argv5[] = {"sbomd", "--no-such-option", NULL};
    CHECK(svc_cfg_load(&c, 2, argv5, &err) < 0 && strstr(err.msg, "no-such-option"));
    char *argv6[] = {"sbomd", "--max-body", "lots", NULL};
    CHECK(svc_cfg_load(&c, 3, argv6, &err) < 0 && strstr(err.msg, "max-body"));
    /* a boolean setting takes the words other tools write, in any case */
    char *argv7[] = {"sbomd", "--quiet=On", NULL};
    CHECK(svc_cfg_load(&c, 2, argv7, &err) == 0 && c.quiet == 1);
    char *argv8[] = {"sbomd", "--quiet=OFF", NULL};
    CHECK(svc_cfg_load(&c, 2, argv8, &err) == 0 && c.quiet == 0);
    setenv("SBOMD_QUIET", "True", 1);
    CHECK(svc_cfg_load(&c, 1, argv2, &err) == 0 && c.quiet == 1);
    setenv("SBOMD_QUIET", "maybe", 1);
    CHECK(svc_cfg_load(&c, 1, argv2, &err) < 0 &&
          strstr(err.msg, "quiet: 'maybe' is not a boolean: true, false, on, off, yes, no, 1 or 0 (any case)"));
    unsetenv("SBOMD_QUIET");
}

TEST(svc_filewatch__replaced_file_reported_once_settled)
{
    char dir[] = "/tmp/sbomd-watch-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64], next[64];
    snprintf(path, sizeof path, "%s/tokens", dir);
    snprintf(next, sizeof next, "%s/tokens.new", dir);
    write_file(path, "one\n");
    svc_filewatch w;
    svc_filewatch_init(&w, path);
    CHECK(svc_filewatch_poll(&w) == 0); /* unchanged */
    /* replaced by rename, as a Secret volume's symlink swap replaces it */
    write_file(next, "two-and-longer\n");
    CHECK(rename(next, path) == 0);
    CHECK(svc_filewatch_poll(&w) == 0); /* seen once: not settled yet */
    CHECK(svc_filewatch_poll(&w) == 1); /* seen twice alike: reload */
    CHECK(svc_filewatch_poll(&w) == 0); /* and only once */
    CHECK(unlink(path) == 0);
    CHECK(svc_filewatch_poll(&w) == 0);
    CHECK(svc_filewatch_poll(&w) == 1); /* gone is a change too (the reload will fail, keeping the old set) */
    CHECK(svc_filewatch_poll(&w) == 0);
    svc_filewatch_init(&w, "");
    CHECK(svc_filewatch_poll(&w) == 0); /* nothing watched */
    rmdir(dir);
}

TEST(svc_cfg__probe_listener)
{
    svc_cfg c;
    sb_err err;
    unsetenv("SBOMD_PROBE_PORT");
    unsetenv("SBOMD_PORT");
    char *argv1[] = {"sbomd", NULL};
    CHECK(svc_cfg_load(&c, 1, argv1, &err) == 0 && c.probe_port == -1 && c.probe_listen[0] == '\0'); /* off */
    char *argv2[] = {"sbomd", "--probe-port", "8081", "--probe-listen", "0.0.0.0", NULL};
    CHECK(svc_cfg_load(&c, 5, argv2, &err) == 0 && c.probe_port == 8081 && !strcmp(c.probe_listen, "0.0.0.0"));
    char *argv3[] = {"sbomd", "--port", "8080", "--probe-port", "8080", NULL};
    CHECK(svc_cfg_load(&c, 5, argv3, &err) < 0 && strstr(err.msg, "probe-port 8080"));
    char *argv4[] = {"sbomd", "--port", "0", "--probe-port", "0", NULL}; /* both any free port: distinct */
    CHECK(svc_cfg_load(&c, 5, argv4, &err) == 0);
    char *argv5[] = {"sbomd", "--probe-port", "-2", NULL};
    CHECK(svc_cfg_load(&c, 3, argv5, &err) < 0 && strstr(err.msg, "probe-port"));
}

/* An idle release within a second of the last one is put off, owed, and
 * made by the first call to svc_req__release_owed (the guard's sweeper,
 * every quarter second) once the second has passed. The times are given,
 * not waited for: a slow release (valgrind) cannot move them. */
TEST(svc_release__put_off_then_owed)
{
    const long long s = 1000000000LL;
    long long t = sb_deadline_now_ns() + 10 * s; /* past any release made before */
    svc_req__release_idle_at(t);
    CHECK(!svc_req__release_pending());
    svc_req__release_idle_at(t + s / 2); /* within the second of the one before */
    CHECK(svc_req__release_pending());
    svc_req__release_owed_at(t + s - 1); /* still within it: stays owed */
    CHECK(svc_req__release_pending());
    svc_req__release_owed_at(t + s + s / 4);
    CHECK(!svc_req__release_pending());
    svc_req__release_owed_at(t + 3 * s); /* nothing owed: nothing done */
    CHECK(!svc_req__release_pending());
    svc_req__release_idle_at(t + 3 * s); /* a second after the owed one: made at once */
    CHECK(!svc_req__release_pending());
}
