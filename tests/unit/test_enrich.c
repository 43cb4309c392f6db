/*
 * test_enrich.c - the package cache lookup (fills only what is empty, never
 * leaves the cache, ignores incomplete extractions), the license-text budget,
 * the pixi:incomplete collector, and the errors of the enrichment callbacks
 * (lookups, advisories) coming up through sb_select unchanged.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/enrich.h"
#include "../../core/filter.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static char root[64];

static void make_pkg(const char *stem, int with_index)
{
    char p[512];
    snprintf(p, sizeof p, "%s/pkgs/%s", root, stem);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/pkgs/%s/info", root, stem);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/pkgs/%s/info/licenses", root, stem);
    mkdir(p, 0700);
    if (with_index) {
        snprintf(p, sizeof p, "%s/pkgs/%s/info/index.json", root, stem);
        write_file(p, "{}");
    }
    snprintf(p, sizeof p, "%s/pkgs/%s/info/about.json", root, stem);
    write_file(p, "{\"license\": \"Zlib\", \"summary\": \"compression\", \"home\": \"https://zlib.net\"}");
    snprintf(p, sizeof p, "%s/pkgs/%s/info/licenses/LICENSE", root, stem);
    write_file(p, "zlib license text");
}

TEST(enrich_package_cache)
{
    snprintf(root, sizeof root, "/tmp/sbomd-cache-XXXXXX");
    CHECK(mkdtemp(root) != NULL);
    char pk[600];
    snprintf(pk, sizeof pk, "%s/pkgs", root);
    mkdir(pk, 0700);
    make_pkg("zlib-1.3.1-hb9d3cd8_2", 1);
    make_pkg("partial-1-h0", 0);
    sb_arena *a = sb_arena_new(0);
    int found = 0;
    sb_pkg p = {.kind = SB_KIND_CONDA, .name = "zlib", .file_name = "zlib-1.3.1-hb9d3cd8_2.conda"};
    CHECK(sb_enrich_from_cache(&p, a, root, &found) == SB_OK && found);
    CHECK_STR(p.license, "Zlib");
    const sb_pkgx *px = sb_pkg_xr(&p);
    CHECK_STR(px->summary, "compression");
    CHECK_STR(px->homepage, "https://zlib.net");
    CHECK(px->nlicfiles == 1 && !strcmp(px->licfiles[0].name, "LICENSE") && px->licfiles[0].text_len == 17);
    sb_pkg q = {.kind = SB_KIND_CONDA, .name = "zlib", .license = "MIT", .file_name = "zlib-1.3.1-hb9d3cd8_2.tar.bz2"};
    CHECK(sb_enrich_from_cache(&q, a, root, &found) == SB_OK && found);
    CHECK_STR(q.license, "MIT"); /* the lockfile's license is never overwritten */
    sb_pkg r = {.kind = SB_KIND_CONDA, .name = "partial", .file_name = "partial-1-h0.conda"};
    CHECK(sb_enrich_from_cache(&r, a, root, &found) == SB_OK && !found && r.license == NULL);
    const char *hostile[] = {"../zlib-1.3.1-hb9d3cd8_2.conda", "..conda", ".hidden.conda", "a/b.conda"};
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        sb_pkg h = {.kind = SB_KIND_CONDA, .name = "x", .file_name = hostile[i]};
        CHECK(sb_enrich_from_cache(&h, a, pk, &found) == SB_OK && !found && h.license == NULL);
    }
    sb_pkg py = {.kind = SB_KIND_PYPI, .name = "zlib", .file_name = "zlib-1.3.1-hb9d3cd8_2.conda"};
    CHECK(sb_enrich_from_cache(&py, a, root, &found) == SB_OK && !found); /* conda binaries only */

    /* budget: texts off -> names only, no marker; a tiny budget -> marker */
    sb_pkg pk2[2] = {p, p};
    sb_sbom s = {.pkgs = pk2, .npkgs = 2};
    CHECK(sb_enrich_budget(&s, a, false, SB_TEXTS_CYCLONEDX, 0, 0) == SB_OK);
    CHECK(sb_pkg_xr(&s.pkgs[0])->licfiles[0].text_len == -1 && s.incomplete.n == 0);
    sb_pkg pk3[2] = {p, p};
    sb_sbom t = {.pkgs = pk3, .npkgs = 2};
    CHECK(sb_enrich_budget(&t, a, true, SB_TEXTS_CYCLONEDX, 0, 20) == SB_OK);
    CHECK(sb_pkg_xr(&t.pkgs[0])->licfiles[0].text_len == 17 && sb_pkg_xr(&t.pkgs[1])->licfiles[0].text_len == -1);
    CHECK(px->licfiles[0].text_len == 17); /* the shared record is untouched */
    CHECK_STR(sb_incomplete_steps(&t.incomplete, a), "license-texts");
    CHECK(strstr(sb_incomplete_details(&t.incomplete, a), "1 file(s) listed by name only") != NULL);
    sb_arena_destroy(a);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

TEST(enrich_incomplete_collector)
{
    sb_arena *a = sb_arena_new(0);
    sb_incomplete inc = {0};
    CHECK(sb_incomplete_steps(&inc, a) == NULL && sb_incomplete_details(&inc, a) == NULL);
    for (int i = 0; i < 6; i++)
        CHECK(sb_incomplete_add(&inc, a, i % 2 ? "hashes" : "licenses", "%d thing(s)", i) == SB_OK);
    CHECK_STR(sb_incomplete_steps(&inc, a), "licenses, hashes"); /* each step once */
    CHECK(strstr(sb_incomplete_details(&inc, a), "licenses: 0 thing(s); hashes: 1 thing(s)") != NULL);
    sb_arena_destroy(a);
}

/* ---- a failing callback's error travels up the selection ----------------- */

static const char uv_two[] =
    "version = 1\n"
    "requires-python = \">=3.9\"\n"
    "[[package]]\n"
    "name = \"demo\"\n"
    "version = \"0.1.0\"\n"
    "source = { editable = \".\" }\n"
    "dependencies = [{ name = \"idna\" }]\n"
    "[[package]]\n"
    "name = \"idna\"\n"
    "version = \"3.10\"\n"
    "source = { registry = \"https://pypi.org/simple\" }\n";

/* What a fake callback answers: its code, and its message (NULL: it sets none). */
typedef struct fail_with {
    sb_code code;
    const char *msg;
    int calls;
} fail_with;

static sb_code fail_answer(fail_with *f, sb_err *err)
{
    f->calls++;
    if (f->code != SB_OK && f->msg)
        return sb_err_set(err, f->code, "%s", f->msg);
    return f->code;
}

static sb_code failing_lookup(void *ctx, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err)
{
    (void)pkgs, (void)n, (void)a, (void)st;
    return fail_answer(ctx, err);
}

static sb_code failing_vulns(void *ctx, sb_sbom *s, sb_arena *a, sb_err *err)
{
    (void)s, (void)a;
    return fail_answer(ctx, err);
}

/* sb_select's code and message with `o`; the message into msg. */
static sb_code select_with(const sb_lock *l, sb_arena *a, const sb_select_opts *o, char msg[1024])
{
    sb_err err;
    sb_err_set(&err, SB_EUPSTREAM, "stale: from an earlier call"); /* cleared by the selection */
    sb_sbom *s = NULL;
    sb_code rc = sb_select(&s, a, l, o, &err);
    snprintf(msg, 1024, "%s", err.msg);
    CHECK(rc == err.code);
    return rc;
}

TEST(enrich_callback_errors_travel_up)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "uv.lock", uv_two, strlen(uv_two), NULL, NULL, &err) == SB_OK);
    if (NULL == l) {
        sb_arena_destroy(a);
        return;
    }
    char msg[1024];
    /* a license lookup that says why it failed: its code and words, not "out of memory" */
    fail_with up = {SB_EUPSTREAM, "pypi.org answered 503 for idna", 0};
    sb_select_opts o = {.lookup = failing_lookup, .lookup_ctx = &up};
    CHECK(select_with(l, a, &o, msg) == SB_EUPSTREAM);
    CHECK_STR(msg, "pypi.org answered 503 for idna");
    CHECK(up.calls == 1);
    /* the same when the lookup runs after a filter (on what the document keeps) */
    sb_filter f = {.required_only = true};
    o.filter = &f;
    CHECK(select_with(l, a, &o, msg) == SB_EUPSTREAM);
    CHECK_STR(msg, "pypi.org answered 503 for idna");
    /* a vulnerability lookup past its deadline */
    fail_with late = {SB_ETIMEOUT, "advisories not answered within the request's deadline", 0};
    sb_select_opts v = {.vulns = failing_vulns, .vulns_ctx = &late};
    CHECK(select_with(l, a, &v, msg) == SB_ETIMEOUT);
    CHECK_STR(msg, "advisories not answered within the request's deadline");
    /* a callback that returns a code and says nothing: the code, and the step named */
    fail_with mute = {SB_ELIMIT, NULL, 0};
    v.vulns_ctx = &mute;
    CHECK(select_with(l, a, &v, msg) == SB_ELIMIT);
    CHECK_STR(msg, "the vulnerability lookups failed (limit)");
    /* only an allocation that failed is "out of memory" */
    fail_with oom = {SB_ENOMEM, NULL, 0};
    v.vulns_ctx = &oom;
    CHECK(select_with(l, a, &v, msg) == SB_ENOMEM);
    CHECK_STR(msg, "out of memory");
    /* and a callback that succeeds leaves the selection whole */
    fail_with fine = {SB_OK, NULL, 0};
    v.vulns_ctx = &fine;
    CHECK(select_with(l, a, &v, msg) == SB_OK && fine.calls == 1);
    sb_arena_destroy(a);
}
