/*
 * test_bounds.c - issue 19 items 1 and 2 in core: the Python readers build
 * only the platform asked for, resolve same-name packages, extras and root
 * edges through indexes (same answers as the scans they replace), and every
 * reader and the selection stop with SB_ETIMEOUT once the deadline passed.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/buf.h"
#include "../../core/deadline.h"
#include "../../core/lock.h"
#include "../../core/model.h"
#include "../../core/select.h"

#include <time.h>

static const sb_pkg *find_version(const sb_sbom *s, const char *name, const char *version)
{
    for (size_t i = 0; s && i < s->npkgs; i++)
        if (!strcmp(s->pkgs[i].name, name) && (NULL == version || !strcmp(s->pkgs[i].version, version)))
            return &s->pkgs[i];
    return NULL;
}

static int has_prop(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; p && i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return 1;
    return 0;
}

static sb_sbom *read_select(sb_arena *a, const char *kind, const char *text, size_t len, const sb_limits *lim,
                            const char *platform, sb_err *err)
{
    sb_lock *l = NULL;
    if (sb_lock_read(&l, a, kind, text, len, NULL, lim, err) != SB_OK)
        return NULL;
    sb_select_opts o = {.platform = platform};
    sb_sbom *s = NULL;
    return sb_select(&s, a, l, &o, err) == SB_OK ? s : NULL;
}

/* two packages named p (a uv fork): the version pin picks one, resolution
 * markers the other per platform; q has 12 extras and the root asks for e.11 (E_11) */
static const char forks[] =
    "version = 1\nrequires-python = \">=3.10\"\n"
    "[[package]]\nname = \"app\"\nversion = \"1\"\nsource = { editable = \".\" }\n"
    "dependencies = [{ name = \"p\" }, { name = \"r\" }, { name = \"q\", extra = [\"e.11\"] }]\n"
    "[[package]]\nname = \"p\"\nversion = \"1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "resolution-markers = [\"sys_platform == 'win32'\"]\n"
    "[[package]]\nname = \"p\"\nversion = \"2.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "resolution-markers = [\"sys_platform == 'linux'\"]\n"
    "[[package]]\nname = \"r\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "dependencies = [{ name = \"p\", version = \"1.0\" }]\n"
    "[[package]]\nname = \"q\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "[package.optional-dependencies]\n"
    "e0 = [{ name = \"x0\" }]\ne1 = [{ name = \"x1\" }]\ne2 = [{ name = \"x2\" }]\ne3 = [{ name = \"x3\" }]\n"
    "e4 = [{ name = \"x4\" }]\ne5 = [{ name = \"x5\" }]\ne6 = [{ name = \"x6\" }]\ne7 = [{ name = \"x7\" }]\n"
    "e8 = [{ name = \"x8\" }]\ne9 = [{ name = \"x9\" }]\ne10 = [{ name = \"x10\" }]\nE_11 = [{ name = \"x11\" }]\n"
    "[[package]]\nname = \"x9\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
    "[[package]]\nname = \"x11\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n";

TEST(bounds_same_name_extras_root_edges)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_sbom *s = read_select(a, "uv.lock", forks, strlen(forks), NULL, "linux-64", &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        sb_arena_destroy(a);
        return;
    }
    /* linux: the root's p is 2.0 (its resolution marker), r pins 1.0: both in */
    const sb_pkg *p1 = find_version(s, "p", "1.0"), *p2 = find_version(s, "p", "2.0");
    CHECK(p1 && p2);
    CHECK(has_prop(p2, "pixi:direct") && has_prop(p1, "pixi:direct")); /* by name, as before */
    CHECK(find_version(s, "x11", NULL) != NULL); /* extra E_11 normalized, found among 12 groups */
    CHECK(find_version(s, "x9", NULL) == NULL);
    CHECK(!has_prop(find_version(s, "x11", NULL), "pixi:direct"));
    s = read_select(a, "uv.lock", forks, strlen(forks), NULL, "win-64", &err);
    CHECK(s && find_version(s, "p", "1.0") && !find_version(s, "p", "2.0")); /* win32 marker picks 1.0 */
    sb_arena_destroy(a);
}

TEST(bounds_only_the_selected_platform)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.platform = "win-64";
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, "uv.lock", forks, strlen(forks), NULL, &lim, &err) == SB_OK);
    if (!l) {
        sb_arena_destroy(a);
        return;
    }
    CHECK(l->nenvs == 1 && l->envs[0].nplatforms == 7); /* every platform listed */
    size_t built = 0;
    for (size_t i = 0; i < l->envs[0].nplatforms; i++)
        built += !l->envs[0].platforms[i].unbuilt;
    CHECK(built == 1);
    sb_select_opts o = {.platform = "win-64"};
    sb_sbom *s = NULL;
    CHECK(sb_select(&s, a, l, &o, &err) == SB_OK && find_version(s, "p", "1.0") && !find_version(s, "p", "2.0"));
    o.platform = "linux-64";
    CHECK(sb_select(&s, a, l, &o, &err) == SB_EMISUSE);
    o.platform = "beos-68k"; /* unknown: the choices are still named */
    CHECK(sb_select(&s, a, l, &o, &err) == SB_ENOTFOUND && strstr(err.msg, "osx-arm64"));
    sb_arena_destroy(a);
}

/* `n` copies of line(i) joined, after `head` */
static char *repeat(sb_arena *a, const char *head, const char *fmt, int n, size_t *len)
{
    sb_buf b = SB_BUF_INIT(0);
    sb_buf_append(&b, head, strlen(head));
    char line[256];
    for (int i = 0; i < n; i++) {
        int k = snprintf(line, sizeof line, fmt, i, i, i);
        sb_buf_append(&b, line, (size_t)k);
    }
    char *out = sb_arena_strndup(a, b.data, b.len);
    *len = b.len;
    sb_buf_free(&b);
    return out;
}

TEST(bounds_deadline_every_reader_and_select)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.deadline_ns = 1; /* long past */
    size_t len;
    const struct {
        const char *kind, *head, *fmt;
    } in[] = {
        {"requirements.txt", "", "p%d==1.0%.0d%.0d\n"},
        {"uv.lock", "version = 1\n",
         "[[package]]\nname = \"p%d\"\nversion = \"1.%d\"\nsource = { registry = \"x%d\" }\n"},
        {"pylock.toml", "lock-version = '1.0'\ncreated-by = 't'\n",
         "[[packages]]\nname = 'p%d'\nversion = '1.%d%.0d'\n"},
        {"poetry.lock", "[metadata]\nlock-version = '2.1'\n", "[[package]]\nname = 'p%d'\nversion = '1.%d%.0d'\n"},
        {"pdm.lock", "[metadata]\nlock_version = '4.5.0'\n", "[[package]]\nname = 'p%d'\nversion = '1.%d%.0d'\n"},
        {"pixi.lock",
         "version: 6\nenvironments:\n  default:\n    channels:\n    - url: https://conda.anaconda.org/conda-forge/\n"
         "    packages:\n      linux-64:\n      - conda: https://conda.anaconda.org/conda-forge/linux-64/p0-1.0-h0_0.conda\n"
         "packages:\n",
         "- conda: https://conda.anaconda.org/conda-forge/linux-64/p%d-1.%d-h0_%d.conda\n"},
        {"conda explicit spec", "@EXPLICIT\n",
         "https://conda.anaconda.org/conda-forge/linux-64/p%d-1.%d-h0_%d.conda\n"},
        {"go.mod", "module m\ngo 1.22\n", "require example.com/p%d v1.%d.%d\n"},
        {"go.sum", "", "example.com/p%d v1.%d.%d h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"},
        {"gradle.lockfile", "", "g:p%d:1.%d.%d=runtimeClasspath\n"},
        {"Cargo.lock", "version = 4\n", "[[package]]\nname = \"p%d\"\nversion = \"1.%d.%d\"\n"},
        {"Gemfile.lock", "GEM\n  remote: https://rubygems.org/\n  specs:\n", "    p%d (1.%d%.0d)\n"},
        {"Podfile.lock", "PODS:\n", "  - P%d (1.%d%.0d)\n"},
        {"mix.lock", "%{\n", "  \"p%d\": {:hex, :p%d, \"1.%d\"},\n"},
    };
    for (size_t k = 0; k < sizeof in / sizeof in[0]; k++) {
        const char *text = repeat(a, in[k].head, in[k].fmt, 2000, &len);
        if (!strcmp(in[k].kind, "mix.lock")) { /* the map closes after its entries */
            text = sb_arena_printf(a, "%s}\n", text);
            len += 2;
        }
        sb_lock *l = NULL;
        sb_code rc = sb_lock_read(&l, a, !strcmp(in[k].kind, "conda explicit spec") ? "auto" : in[k].kind, text, len,
                                  NULL, &lim, &err);
        if (rc != SB_ETIMEOUT)
            printf("  %s: %d %s\n", in[k].kind, rc, err.msg);
        CHECK(rc == SB_ETIMEOUT && strstr(err.msg, "deadline"));
        /* the same input with time to spare reads */
        sb_limits ok = SB_LIMITS_DEFAULT;
        ok.deadline_ns = sb_deadline_now_ns() + 60LL * 1000000000LL;
        rc = sb_lock_read(&l, a, !strcmp(in[k].kind, "conda explicit spec") ? "auto" : in[k].kind, text, len, NULL, &ok,
                          &err);
        if (rc != SB_OK)
            printf("  %s in time: %d %s\n", in[k].kind, rc, err.msg);
        CHECK(rc == SB_OK);
    }
    /* the JSON and YAML readers of PHP, .NET and Dart: a head, 2,000 entries, a tail */
    const struct {
        const char *kind, *head, *fmt, *tail;
    } more[] = {
        {"composer.lock", "{\"packages\": [", "{\"name\": \"v/p%d\", \"version\": \"1.%d%.0d\"},\n",
         "{\"name\": \"v/z\", \"version\": \"1.0\"}]}"},
        {"packages.lock.json", "{\"version\": 1, \"dependencies\": {\"net8.0\": {",
         "\"P%d\": {\"type\": \"Transitive\", \"resolved\": \"1.%d%.0d\"},\n",
         "\"Z\": {\"type\": \"Direct\", \"resolved\": \"1.0\"}}}}"},
        {"pubspec.lock", "packages:\n",
         "  p%d:\n    dependency: transitive\n    source: hosted\n    version: \"1.%d.%d\"\n    description:\n"
         "      name: p\n      url: \"https://pub.dev\"\n",
         "sdks:\n  dart: any\n"},
    };
    for (size_t k = 0; k < sizeof more / sizeof more[0]; k++) {
        const char *text = repeat(a, more[k].head, more[k].fmt, 2000, &len);
        text = sb_arena_printf(a, "%s%s", text, more[k].tail);
        len = strlen(text);
        sb_lock *l = NULL;
        sb_code rc = sb_lock_read(&l, a, more[k].kind, text, len, NULL, &lim, &err);
        if (rc != SB_ETIMEOUT)
            printf("  %s: %d %s\n", more[k].kind, rc, err.msg);
        CHECK(rc == SB_ETIMEOUT && strstr(err.msg, "deadline"));
        sb_limits ok = SB_LIMITS_DEFAULT;
        ok.deadline_ns = sb_deadline_now_ns() + 60LL * 1000000000LL;
        rc = sb_lock_read(&l, a, more[k].kind, text, len, NULL, &ok, &err);
        if (rc != SB_OK)
            printf("  %s in time: %d %s\n", more[k].kind, rc, err.msg);
        CHECK(rc == SB_OK && l->nrecords == 2001 - (k == 2));
    }
    /* Package.resolved: JSON, so its pins are closed after the repetition */
    {
        const char *pins = repeat(a,
                                  "{\"version\": 2, \"pins\": [{\"identity\": \"z\", \"kind\": "
                                  "\"remoteSourceControl\", \"location\": \"https://h.example/o/z\", \"state\": "
                                  "{\"revision\": \"r\"}}",
                                  ", {\"identity\": \"p%d\", \"kind\": \"remoteSourceControl\", \"location\": "
                                  "\"https://h.example/o/p%d\", \"state\": {\"version\": \"1.%d.0\"}}",
                                  2000, &len);
        const char *text = sb_arena_printf(a, "%s]}", pins);
        sb_lock *l = NULL;
        CHECK(text && sb_lock_read(&l, a, "Package.resolved", text, len + 2, NULL, &lim, &err) == SB_ETIMEOUT);
        sb_limits ok = SB_LIMITS_DEFAULT;
        ok.deadline_ns = sb_deadline_now_ns() + 60LL * 1000000000LL;
        CHECK(text && sb_lock_read(&l, a, "Package.resolved", text, len + 2, NULL, &ok, &err) == SB_OK);
    }
    /* conan.lock: JSON, so the list is closed after the repeated lines */
    {
        const char *body = repeat(a, "{\"version\": \"0.5\", \"requires\": [\"p/0\"", ", \"p%d/1.%d#%d\"", 2000, &len);
        const char *text = sb_arena_printf(a, "%s]}", body);
        sb_lock *l = NULL;
        CHECK(sb_lock_read(&l, a, "conan.lock", text, len + 2, NULL, &lim, &err) == SB_ETIMEOUT);
        sb_limits ok = SB_LIMITS_DEFAULT;
        ok.deadline_ns = sb_deadline_now_ns() + 60LL * 1000000000LL;
        CHECK(sb_lock_read(&l, a, "conan.lock", text, len + 2, NULL, &ok, &err) == SB_OK);
    }
    /* selection: read in time, select after the deadline */
    {
        const char *text = repeat(a, "", "p%d==1.0%.0d%.0d\n", 10, &len);
        sb_lock *l = NULL;
        CHECK(sb_lock_read(&l, a, "requirements.txt", text, len, NULL, NULL, &err) == SB_OK);
        sb_select_opts o = {.deadline_ns = 1};
        sb_sbom *s = NULL;
        CHECK(l && sb_select(&s, a, l, &o, &err) == SB_ETIMEOUT);
        o.deadline_ns = 0;
        CHECK(l && sb_select(&s, a, l, &o, &err) == SB_OK && s->npkgs == 10);
    }
    sb_arena_destroy(a);
}

/* The JavaScript readers as loadtest/gen-jslock writes them (n packages,
 * each depending on its predecessor), built here so the test needs no
 * script: package-lock.json v3, pnpm-lock.yaml 9.0, yarn.lock classic,
 * bun.lock. */
static char *js_lock(sb_arena *a, const char *kind, int n, size_t *len)
{
    sb_buf b = SB_BUF_INIT(0);
    char line[512];
    int k;
#define PUT(...) (k = snprintf(line, sizeof line, __VA_ARGS__), sb_buf_append(&b, line, (size_t)k))
    if (!strcmp(kind, "package-lock.json")) {
        PUT("{\"name\": \"r\", \"version\": \"1.0.0\", \"lockfileVersion\": 3, \"packages\": {\n"
            "\"\": {\"name\": \"r\", \"version\": \"1.0.0\", \"dependencies\": {\"p%d\": \"^1\"}}",
            n - 1);
        for (int i = 0; i < n; i++) {
            PUT(",\n\"node_modules/p%d\": {\"version\": \"1.0.0\", \"resolved\": "
                "\"https://registry.npmjs.org/p%d/-/p%d-1.0.0.tgz\"",
                i, i, i);
            if (i)
                PUT(", \"dependencies\": {\"p%d\": \"^1\"}", i - 1);
            PUT("}");
        }
        PUT("}}\n");
    } else if (!strcmp(kind, "pnpm-lock.yaml")) {
        PUT("lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      p%d:\n"
            "        specifier: ^1\n        version: 1.0.0\npackages:\n",
            n - 1);
        for (int i = 0; i < n; i++)
            PUT("  p%d@1.0.0:\n    resolution: {integrity: sha512-AAAA}\n", i);
        PUT("snapshots:\n");
        for (int i = 0; i < n; i++)
            i ? PUT("  p%d@1.0.0:\n    dependencies:\n      p%d: 1.0.0\n", i, i - 1) : PUT("  p0@1.0.0: {}\n");
    } else if (!strcmp(kind, "bun.lock")) {
        PUT("{\n  \"lockfileVersion\": 1,\n  \"workspaces\": {\n    \"\": {\n      \"name\": \"r\",\n"
            "      \"dependencies\": {\n        \"p%d\": \"^1\",\n      },\n    },\n  },\n  \"packages\": {\n",
            n - 1);
        for (int i = 0; i < n; i++) {
            PUT("    \"p%d\": [\"p%d@1.0.0\", \"\", {", i, i);
            if (i)
                PUT(" \"dependencies\": { \"p%d\": \"^1\" } ", i - 1);
            PUT("}, \"sha512-AAAA\"],\n\n");
        }
        PUT("  }\n}\n");
    } else {
        PUT("# yarn lockfile v1\n\n");
        for (int i = 0; i < n; i++) {
            PUT("\"p%d@^1\":\n  version \"1.0.0\"\n  resolved \"https://registry.yarnpkg.com/p%d/-/p%d-1.0.0.tgz\"\n",
                i, i, i);
            if (i)
                PUT("  dependencies:\n    \"p%d\" \"^1\"\n", i - 1);
            PUT("\n");
        }
    }
#undef PUT
    char *out = sb_arena_strndup(a, b.data, b.len);
    *len = b.len;
    sb_buf_free(&b);
    return out;
}

/* A condvar's absolute wake time: now plus any span, normalized (the
 * nanoseconds stay under a second), on the clock asked for. */
TEST(core_deadline__after_normalizes)
{
    static const long long spans[] = {0, 999999999LL, 1000000000LL, 1900000000LL, 30LL * 1000000000LL + 5};
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++) {
        struct timespec before, at;
        clock_gettime(CLOCK_MONOTONIC, &before);
        sb_deadline_after(CLOCK_MONOTONIC, spans[i], &at);
        long long b = (long long)before.tv_sec * 1000000000LL + before.tv_nsec;
        long long t = (long long)at.tv_sec * 1000000000LL + at.tv_nsec;
        CHECK(at.tv_nsec >= 0 && at.tv_nsec < 1000000000L);
        CHECK(t - b >= spans[i] && t - b < spans[i] + 1000000000LL);
    }
    struct timespec rt, at;
    clock_gettime(CLOCK_REALTIME, &rt);
    sb_deadline_after(CLOCK_REALTIME, 500000000LL, &at);
    CHECK(at.tv_sec >= rt.tv_sec && at.tv_sec <= rt.tv_sec + 2);
}

TEST(bounds_deadline_javascript_readers)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    static const char *const kinds[] = {"package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t len;
        const char *text = js_lock(a, kinds[k], 3000, &len);
        sb_limits lim = SB_LIMITS_DEFAULT;
        lim.deadline_ns = 1; /* long past: the reader's own loops must notice */
        sb_lock *l = NULL;
        sb_code rc = sb_lock_read(&l, a, kinds[k], text, len, NULL, &lim, &err);
        if (rc != SB_ETIMEOUT)
            printf("  %s: %d %s\n", kinds[k], rc, err.msg);
        CHECK(rc == SB_ETIMEOUT && strstr(err.msg, "deadline"));
        lim.deadline_ns = sb_deadline_now_ns() + 60LL * 1000000000LL;
        rc = sb_lock_read(&l, a, kinds[k], text, len, NULL, &lim, &err);
        if (rc != SB_OK)
            printf("  %s in time: %d %s\n", kinds[k], rc, err.msg);
        CHECK(rc == SB_OK && l && l->nrecords == 3000);
    }
    sb_arena_destroy(a);
}

/* Issue 43: the requirements estimate counts what the reader reads, indented
 * pins too (200,000 of them were once admitted for 7.7 MiB). */
TEST(core_estimate__counts_indented_pins)
{
    const char *flat = "a==1\nb==2\nc==3\n", *indented = "  a==1\n\tb==2\n c==3\n# not one\n\n";
    size_t ef = sb_lock_estimate("requirements.txt", flat, strlen(flat), NULL);
    size_t ei = sb_lock_estimate("requirements.txt", indented, strlen(indented), NULL);
    CHECK(ef == 3 * 500 + strlen(flat) * 2);
    CHECK(ei == 3 * 500 + strlen(indented) * 2);
}
