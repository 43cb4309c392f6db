/*
 * test_doc.c - the resumable producer: byte-identical output for any buffer
 * size, valid JSON, unique bom-refs, dependency refs that resolve, component
 * counts equal to the selection, and determinism (same input, same bytes).
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/buf.h"
#include "../../core/doc.h"
#include "../../core/lock.h"
#include "../../core/par.h"
#include "../../core/select.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>

/* par_cap: sb_doc_opts.par_buf_cap (0: the default); m: the meter of the
 * document's arena (NULL: none) */
static char *produce_metered(const sb_doc_ops *ops, const sb_sbom *s, const char *in, size_t inlen, size_t bufsize,
                             size_t par_cap, const sb_meter *m, size_t *outlen)
{
    sb_arena *a = sb_arena_new(0);
    if (m)
        sb_arena_meter(a, m);
    sb_doc *d = NULL;
    sb_doc_opts o = {.timestamp = 1700000000, .pretty = true, .input = in, .input_len = inlen, .par_buf_cap = par_cap};
    sb_err err;
    sb_buf out = SB_BUF_INIT(0);
    char *buf = malloc(bufsize);
    char *result = NULL;
    if (sb_doc_new(&d, a, ops, s, &o, &err) == SB_OK) {
        for (;;) {
            ssize_t n = sb_doc_produce(d, buf, bufsize);
            if (n <= 0) {
                if (n == 0)
                    result = out.data ? strndup(out.data, out.len) : strdup("");
                break;
            }
            if ((size_t)n > bufsize)
                break;
            sb_buf_append(&out, buf, (size_t)n);
        }
    }
    if (result)
        *outlen = out.len;
    sb_doc_free(d);
    sb_buf_free(&out);
    free(buf);
    sb_arena_destroy(a);
    return result;
}

static char *produce_all(const sb_doc_ops *ops, const sb_sbom *s, const char *in, size_t inlen, size_t bufsize,
                         size_t *outlen)
{
    return produce_metered(ops, s, in, inlen, bufsize, 0, NULL, outlen);
}

/* A meter that keeps the books (thread-safe: the writer's jobs charge it)
 * and refuses past a limit. */
typedef struct doc_meter {
    pthread_mutex_t mu;
    size_t taken, given, peak, limit;
    int refusals;
} doc_meter;

static int dm_take(void *ctx, size_t n)
{
    doc_meter *m = ctx;
    pthread_mutex_lock(&m->mu);
    int ok = m->taken - m->given + n <= m->limit;
    if (ok) {
        m->taken += n;
        if (m->taken - m->given > m->peak)
            m->peak = m->taken - m->given;
    } else {
        m->refusals++;
    }
    pthread_mutex_unlock(&m->mu);
    return ok;
}

static void dm_give(void *ctx, size_t n)
{
    doc_meter *m = ctx;
    pthread_mutex_lock(&m->mu);
    m->given += n;
    pthread_mutex_unlock(&m->mu);
}

/* The fixture's bytes (*in, freed by the caller) read as a pixi.lock into
 * *l; SB_EIO (a subcase failed) when the fixture cannot be read. */
static sb_code read_fixture(const char *fx, sb_arena *a, char **in, size_t *len, sb_lock **l, sb_err *err)
{
    *l = NULL;
    *in = sb_test_read(sb_test_shared(fx), len);
    if (!*in) {
        sb_test_subcase(fx, 0, "cannot read fixture");
        return SB_EIO;
    }
    return sb_lock_read(l, a, NULL, *in, *len, "pixi.lock", NULL, err);
}

static const char *fixtures[] = {
    "fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock",
    "fixtures/pixi/setup-pixi-test-default-rev-b41bd44/pixi.lock",
    "fixtures/pixi/pixi-crates-pixi_record-src-test_fixtures-full_source_records.lock/pixi.lock",
    "fixtures/pixi/rattler-test-data-conda-lock-v7-pypi_relative_outside_url.yml/pixi.lock",
    "fixtures/pixi/rerun--rev-c5e2c66/pixi.lock",
    NULL,
};

static void check_structure(const char *name, const char *doc, const sb_sbom *s)
{
    json_error_t je;
    json_t *root = json_loads(doc, 0, &je);
    sb_test_subcase(name, root != NULL, je.text);
    if (!root)
        return;
    json_t *comps = json_object_get(root, "components");
    json_t *deps = json_object_get(root, "dependencies");
    int ok = json_is_array(comps) && json_array_size(comps) == s->npkgs;
    char why[200];
    snprintf(why, sizeof why, "components %zu vs model %zu", json_array_size(comps), s->npkgs);
    sb_test_subcase(name, ok, why);
    /* unique bom-refs; every dependency ref and dependsOn entry resolves */
    json_t *refs = json_object();
    json_object_set_new(refs, "root", json_true());
    int unique = 1, resolves = 1;
    size_t i;
    json_t *c;
    json_array_foreach(comps, i, c) {
        const char *r = json_string_value(json_object_get(c, "bom-ref"));
        if (!r || json_object_get(refs, r))
            unique = 0;
        else
            json_object_set_new(refs, r, json_true());
    }
    json_t *dentry;
    json_array_foreach(deps, i, dentry) {
        const char *r = json_string_value(json_object_get(dentry, "ref"));
        if (!r || !json_object_get(refs, r))
            resolves = 0;
        size_t k;
        json_t *t;
        json_array_foreach(json_object_get(dentry, "dependsOn"), k, t)
            if (!json_object_get(refs, json_string_value(t)))
                resolves = 0;
    }
    sb_test_subcase(name, unique, "bom-refs are unique");
    sb_test_subcase(name, resolves, "every dependency ref resolves");
    sb_test_subcase(name, json_array_size(deps) == s->npkgs + 1, "one dependency entry per component + root");
    json_decref(refs);
    json_decref(root);
}

TEST(core_doc__identical_for_any_buffer_size)
{
    static const size_t sizes[] = {1, 7, 4096, 65536};
    const sb_doc_ops *formats[] = {&sb_doc_cyclonedx_16, &sb_doc_cyclonedx_17, &sb_doc_spdx_23, &sb_doc_spdx_301,
                                   &sb_doc_github_snapshot};
    for (int f = 0; fixtures[f]; f++) {
        size_t len;
        char *in;
        sb_lock *l;
        sb_err err;
        sb_arena *a = sb_arena_new(0);
        sb_code rc = read_fixture(fixtures[f], a, &in, &len, &l, &err);
        if (!in) {
            sb_arena_destroy(a);
            continue;
        }
        sb_sbom *s = NULL;
        if (rc == SB_OK) {
            sb_select_opts o = {.platform = l->envs[0].nplatforms ? l->envs[0].platforms[0].name : NULL,
                                .environment = l->envs[0].name};
            rc = sb_select(&s, a, l, &o, &err);
        }
        sb_test_subcase(fixtures[f], rc == SB_OK, err.msg);
        for (int k = 0; rc == SB_OK && k < 5; k++) {
            size_t ref_len = 0;
            char *ref = produce_all(formats[k], s, in, len, 65536, &ref_len);
            sb_test_subcase(fixtures[f], ref != NULL, "produce failed");
            if (!ref)
                continue;
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                size_t n = 0;
                char *other = produce_all(formats[k], s, in, len, sizes[z], &n);
                char name[300];
                snprintf(name, sizeof name, "%s %s buf=%zu", fixtures[f], formats[k]->name, sizes[z]);
                sb_test_subcase(name, other && n == ref_len && !memcmp(ref, other, n), "bytes differ");
                free(other);
            }
            if (k < 2) {
                check_structure(fixtures[f], ref, s);
            } else if (k == 4) { /* one manifest, one resolved entry per package */
                json_t *j = json_loads(ref, 0, NULL);
                json_t *m = json_object_get(j, "manifests");
                json_t *one = json_object_get(m, "pixi.lock");
                sb_test_subcase(fixtures[f], json_object_size(m) == 1 && one, "one manifest, pixi.lock");
                sb_test_subcase(fixtures[f], json_object_size(json_object_get(one, "resolved")) == s->npkgs,
                                "github-snapshot: resolved = model");
                json_decref(j);
            } else {
                json_t *j = json_loads(ref, 0, NULL);
                sb_test_subcase(fixtures[f], j != NULL, "SPDX output is JSON");
                if (j && k == 2)
                    sb_test_subcase(fixtures[f], json_array_size(json_object_get(j, "packages")) == s->npkgs + 1,
                                    "SPDX 2.3 packages = model + root");
                json_decref(j);
            }
            free(ref);
        }
        sb_arena_destroy(a);
        free(in);
    }
}

TEST(core_doc__deterministic_serial_and_timestamp)
{
    size_t len;
    char *in = sb_test_read(sb_test_shared(fixtures[0]), &len);
    CHECK(in != NULL);
    if (!in)
        return;
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    CHECK(sb_lock_read(&l, a, NULL, in, len, NULL, NULL, &err) == SB_OK);
    CHECK(sb_select(&s, a, l, &o, &err) == SB_OK);
    size_t n1, n2, n3;
    char *d1 = produce_all(&sb_doc_cyclonedx_16, s, in, len, 4096, &n1);
    char *d2 = produce_all(&sb_doc_cyclonedx_16, s, in, len, 4096, &n2);
    CHECK(d1 && d2 && n1 == n2 && !memcmp(d1, d2, n1));
    CHECK(d1 && strstr(d1, "\"timestamp\": \"2023-11-14T22:13:20Z\""));
    /* 1.6 and 1.7 are two documents: two serials (issue 18 item 10); a changed input changes it */
    char *d3 = produce_all(&sb_doc_cyclonedx_17, s, in, len, 4096, &n3);
    json_t *j1 = json_loads(d1, 0, NULL), *j3 = json_loads(d3, 0, NULL);
    CHECK(strcmp(json_string_value(json_object_get(j1, "serialNumber")),
                 json_string_value(json_object_get(j3, "serialNumber"))) != 0);
    CHECK_STR(json_string_value(json_object_get(j3, "specVersion")), "1.7");
    in[len - 1] = in[len - 1] == '\n' ? ' ' : '\n';
    char *d4 = produce_all(&sb_doc_cyclonedx_16, s, in, len, 4096, &n3);
    json_t *j4 = json_loads(d4, 0, NULL);
    CHECK(strcmp(json_string_value(json_object_get(j1, "serialNumber")),
                 json_string_value(json_object_get(j4, "serialNumber"))) != 0);
    json_decref(j1);
    json_decref(j3);
    json_decref(j4);
    free(d1);
    free(d2);
    free(d3);
    free(d4);
    free(in);
    sb_arena_destroy(a);
}

/* ---- the serial names one document (issue 18 item 10) ---- */

static sb_code no_lookup(void *ctx, sb_pkg *pkgs, size_t n, sb_arena *a, sb_lookup_stats *st, sb_err *err)
{
    (void)ctx, (void)pkgs, (void)n, (void)a, (void)st, (void)err;
    return SB_OK;
}

typedef struct serial_case {
    const char *what;
    const sb_doc_ops *ops;
    sb_select_opts sel;
    time_t ts;
    bool pretty;
} serial_case;

/* The serial of the document one request would get: the lockfile read,
 * the selection made and the producer started, as the handler does. */
static void serial_of(char out[37], const char *in, size_t len, const serial_case *c)
{
    out[0] = '\0';
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_doc *d = NULL;
    sb_doc_opts o = {.timestamp = c->ts, .pretty = c->pretty, .input = in, .input_len = len};
    if (sb_lock_read(&l, a, NULL, in, len, "pixi.lock", NULL, &err) == SB_OK &&
        sb_select(&s, a, l, &c->sel, &err) == SB_OK && sb_doc_new(&d, a, c->ops, s, &o, &err) == SB_OK)
        memcpy(out, d->serial, 37);
    sb_doc_free(d);
    sb_arena_destroy(a);
}

TEST(core_doc__serial_names_one_document)
{
    size_t len;
    char *in = sb_test_read(
        sb_test_shared("fixtures/pixi/pixi-docs-source_files-pixi_workspaces-introduction-multi_env/pixi.lock"), &len);
    CHECK(in != NULL);
    if (!in)
        return;
    const sb_select_opts base = {.environment = "default", .platform = "linux-64"};
    const serial_case ref = {"reference", &sb_doc_cyclonedx_16, base, 1700000000, true};
    /* each differs from the reference in one thing that changes the bytes */
    serial_case cases[] = {
        {"format version", &sb_doc_cyclonedx_17, base, 1700000000, true},
        {"format", &sb_doc_spdx_23, base, 1700000000, true},
        {"SPDX version", &sb_doc_spdx_301, base, 1700000000, true},
        {"environment", &sb_doc_cyclonedx_16, base, 1700000000, true},
        {"platform", &sb_doc_cyclonedx_16, base, 1700000000, true},
        {"root name", &sb_doc_cyclonedx_16, base, 1700000000, true},
        {"root version", &sb_doc_cyclonedx_16, base, 1700000000, true},
        {"recorded file name", &sb_doc_cyclonedx_16, base, 1700000000, true},
        {"timestamp", &sb_doc_cyclonedx_16, base, 1700000001, true},
        {"compact", &sb_doc_cyclonedx_16, base, 1700000000, false},
        {"license texts", &sb_doc_cyclonedx_16, base, 1700000000, true},
        {"package cache", &sb_doc_cyclonedx_16, base, 1700000000, true},
        {"license lookups", &sb_doc_cyclonedx_16, base, 1700000000, true},
    };
    cases[3].sel.environment = "py312";
    cases[4].sel.platform = "win-64";
    cases[5].sel.root_name = "demo";
    cases[6].sel.root_version = "1.2.3";
    cases[7].sel.lockfile_name = "other.lock";
    cases[10].sel.license_texts = true;
    cases[11].sel.package_cache = "/nonexistent-sbomd-cache";
    cases[12].sel.lookup = no_lookup;
    size_t n = sizeof cases / sizeof cases[0];
    char r1[37], r2[37], got[37 * 16];
    serial_of(r1, in, len, &ref);
    serial_of(r2, in, len, &ref);
    CHECK(r1[0] != '\0');
    CHECK_STR(r1, r2); /* identical requests, identical serials */
    for (size_t i = 0; i < n; i++) {
        serial_of(got + 37 * i, in, len, &cases[i]);
        char name[120];
        snprintf(name, sizeof name, "serial differs by %s", cases[i].what);
        sb_test_subcase(name, got[37 * i] && strcmp(got + 37 * i, r1) != 0, got + 37 * i);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(got + 37 * i, got + 37 * k))
                sb_test_subcase(name, 0, "shared with another case");
    }
    /* the text budget counts when texts are written, and only then */
    serial_case t1 = cases[10], t2 = cases[10], off = ref;
    t2.sel.license_file_max = 1000;
    off.sel.license_file_max = 1000;
    char a1[37], a2[37], a3[37];
    serial_of(a1, in, len, &t1);
    serial_of(a2, in, len, &t2);
    serial_of(a3, in, len, &off);
    CHECK(strcmp(a1, a2) != 0);
    CHECK_STR(a3, r1);
    /* the SPDX namespace carries the serial */
    size_t dn;
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    CHECK(sb_lock_read(&l, a, NULL, in, len, "pixi.lock", NULL, &err) == SB_OK);
    CHECK(sb_select(&s, a, l, &base, &err) == SB_OK);
    char *doc = s ? produce_all(&sb_doc_spdx_23, s, in, len, 4096, &dn) : NULL;
    CHECK(doc && strstr(doc, got + 37 * 1));
    free(doc);
    sb_arena_destroy(a);
    free(in);
}

/* A joined document (all-* in github-snapshot): one snapshot whose
 * manifests are the selections, in order, each with its packages; the same
 * bytes for any buffer size, however the pieces fall across the parts. */
TEST(core_doc__github_snapshot_joins_selections)
{
    size_t len;
    const char *fx = "fixtures/pixi/pixi-examples-pypi-source-deps/pixi.lock";
    char *in = sb_test_read(sb_test_shared(fx), &len);
    CHECK(in != NULL);
    if (!in)
        return;
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_lock *l = NULL;
    CHECK(sb_lock_read(&l, a, NULL, in, len, "pixi.lock", NULL, &err) == SB_OK);
    const sb_sbom *parts[3];
    size_t n = 0;
    for (size_t p = 0; l && p < l->envs[0].nplatforms && n < 3; p++) {
        sb_select_opts o = {.platform = l->envs[0].platforms[p].name, .environment = l->envs[0].name};
        sb_sbom *s = NULL;
        if (sb_select(&s, a, l, &o, &err) == SB_OK)
            parts[n++] = s;
    }
    CHECK(n >= 2);
    sb_doc_snapshot g = {.sha = "0123456789abcdef0123456789abcdef01234567",
                         .ref = "refs/heads/main",
                         .correlator = "c",
                         .job_id = "1"};
    sb_doc_opts o = {.timestamp = 1700000000, .pretty = true, .input = in, .input_len = len, .snapshot = &g};
    char *docs[2] = {NULL, NULL};
    size_t lens[2] = {0, 0}, sizes[2] = {65536, 3};
    for (int z = 0; z < 2 && n >= 2; z++) {
        sb_doc *d = NULL;
        CHECK(sb_doc_new_joined(&d, a, &sb_doc_github_snapshot, parts, n, &o, &err) == SB_OK);
        sb_buf out = SB_BUF_INIT(0);
        char buf[65536];
        ssize_t k;
        while (d && (k = sb_doc_produce(d, buf, sizes[z])) > 0)
            sb_buf_append(&out, buf, (size_t)k);
        docs[z] = out.data ? strndup(out.data, out.len) : NULL;
        lens[z] = out.len;
        sb_buf_free(&out);
        sb_doc_free(d);
    }
    CHECK(docs[0] && docs[1] && lens[0] == lens[1] && !memcmp(docs[0], docs[1], lens[0]));
    json_t *j = docs[0] ? json_loads(docs[0], 0, NULL) : NULL;
    json_t *m = json_object_get(j, "manifests");
    CHECK(json_object_size(m) == n);
    size_t i = 0;
    const char *key;
    json_t *v;
    json_object_foreach(m, key, v) {
        char want[200];
        if (i >= n)
            break;
        snprintf(want, sizeof want, "pixi.lock:%s:%s", parts[i]->environment, parts[i]->platform);
        CHECK_STR(key, want);
        CHECK(json_object_size(json_object_get(v, "resolved")) == parts[i]->npkgs);
        i++;
    }
    CHECK_STR(json_string_value(json_object_get(j, "sha")), g.sha);
    /* a format that does not join is refused */
    sb_doc *d = NULL;
    CHECK(sb_doc_new_joined(&d, a, &sb_doc_cyclonedx_16, parts, n, &o, &err) == SB_EMISUSE);
    json_decref(j);
    free(docs[0]);
    free(docs[1]);
    sb_arena_destroy(a);
    free(in);
}

/* A file name is the client's: CR, LF, other C0, DEL and C1 characters never
 * reach a document (the SPDX creation comment, CycloneDX's pixi:lockfile),
 * and a clean name is not copied. */
TEST(core_doc__file_name_without_control_characters)
{
    const char *clean = "uv.lock", *out = NULL;
    sb_arena *a = sb_arena_new(0);
    CHECK(sb_str_no_controls(a, clean, &out) == SB_OK && out == clean);
    CHECK(sb_str_no_controls(a, NULL, &out) == SB_OK && out == NULL);
    CHECK(sb_str_no_controls(a, "a\r\nb\x01\x7f\xc2\x85\xc3\xa9.lock", &out) == SB_OK);
    CHECK_STR(out, "ab\xc3\xa9.lock");
    static const char req[] = "idna==3.7\n";
    sb_err err;
    sb_lock *l = NULL;
    sb_sbom *s = NULL;
    sb_select_opts sel = {.lockfile_name = "req\r\nPackageName: evil\xc2\x85.txt"};
    CHECK(sb_lock_read(&l, a, "requirements.txt", req, sizeof req - 1, "requirements.txt", NULL, &err) == SB_OK);
    CHECK(l && sb_select(&s, a, l, &sel, &err) == SB_OK);
    CHECK(s && s->lockfile_name && !strpbrk(s->lockfile_name, "\r\n") && !strstr(s->lockfile_name, "\xc2\x85"));
    const sb_doc_ops *ops[] = {&sb_doc_spdx_23, &sb_doc_spdx_301, &sb_doc_cyclonedx_16};
    for (size_t k = 0; s && k < sizeof ops / sizeof ops[0]; k++) {
        size_t n = 0;
        char *doc = produce_all(ops[k], s, req, sizeof req - 1, 4096, &n);
        /* the name as one line: no escaped line break or C1 control where it was */
        CHECK(doc && strstr(doc, "reqPackageName: evil.txt") && !strstr(doc, "req\\r") && !strstr(doc, "req\\n") &&
              !strstr(doc, "\\u0085"));
        free(doc);
    }
    sb_arena_destroy(a);
}

/* Two threads write the bytes one writes (doc.c, "Two cores"): the
 * platform of the largest pixi.lock fixture with the most packages, long
 * enough for batches, in each format that marks its pieces parallel, read
 * through small and large buffers; and with jobs that stop after 1 KiB, so
 * the producer writes the rest of every batch itself. */
TEST(core_doc__two_threads_write_one_threads_bytes)
{
    const char *fx = "fixtures/pixi/rerun--rev-c5e2c66/pixi.lock";
    size_t len;
    char *in;
    sb_lock *l;
    sb_err err;
    sb_arena *a = sb_arena_new(0);
    sb_code rc = read_fixture(fx, a, &in, &len, &l, &err);
    if (!in) {
        sb_arena_destroy(a);
        return;
    }
    sb_sbom *s = NULL;
    const sb_lock_platform *most = NULL;
    for (size_t e = 0; rc == SB_OK && e < l->nenvs; e++)
        for (size_t p = 0; p < l->envs[e].nplatforms; p++)
            if (!most || l->envs[e].platforms[p].npkgs > most->npkgs)
                most = &l->envs[e].platforms[p];
    if (rc == SB_OK && most) {
        const char *env = NULL;
        for (size_t e = 0; e < l->nenvs && !env; e++)
            for (size_t p = 0; p < l->envs[e].nplatforms; p++)
                if (&l->envs[e].platforms[p] == most)
                    env = l->envs[e].name;
        sb_select_opts o = {.platform = most->name, .environment = env};
        rc = sb_select(&s, a, l, &o, &err);
    }
    sb_test_subcase(fx, rc == SB_OK, err.msg);
    sb_test_subcase(fx, rc == SB_OK && s->npkgs >= 256, "at least 256 packages, so the jobs run");
    const sb_doc_ops *formats[] = {&sb_doc_cyclonedx_16, &sb_doc_cyclonedx_17, &sb_doc_spdx_23};
    for (int k = 0; rc == SB_OK && k < 3; k++) {
        sb_par_configure(1, 0);
        size_t one_len = 0;
        char *one = produce_all(formats[k], s, in, len, 65536, &one_len);
        sb_par_configure(SIZE_MAX, 0);
        static const size_t sizes[] = {7, 65536, 65536};
        for (size_t z = 0; one && z < sizeof sizes / sizeof sizes[0]; z++) {
            size_t n = 0, cap = z == 2 ? 1024 : 0;
            char *two = produce_metered(formats[k], s, in, len, sizes[z], cap, NULL, &n);
            char name[200];
            snprintf(name, sizeof name, "%s two threads, buf=%zu, job cap=%zu", formats[k]->name, sizes[z], cap);
            sb_test_subcase(name, two && n == one_len && !memcmp(one, two, n), "bytes differ");
            free(two);
        }
        sb_test_subcase(formats[k]->name, one != NULL, "produce failed");
        free(one);
    }
    /* the stage and the jobs' buffers are paid from the document arena's
     * meter: charged as they grow, all given back when the document goes,
     * and a meter that cannot pay for a batch stops the document */
    for (int lim = 0; rc == SB_OK && lim < 2; lim++) {
        doc_meter dm = {.mu = PTHREAD_MUTEX_INITIALIZER, .limit = lim ? (size_t)96 << 10 : SIZE_MAX};
        sb_meter m = {dm_take, dm_give, &dm};
        sb_par_configure(SIZE_MAX, 0);
        size_t n = 0;
        char *two = produce_metered(&sb_doc_cyclonedx_16, s, in, len, 65536, 0, &m, &n);
        char name[100];
        snprintf(name, sizeof name, "metered, limit %zu", dm.limit);
        sb_test_subcase(name, dm.taken == dm.given, "the meter's books balance once the document is freed");
        if (lim)
            sb_test_subcase(name, two == NULL && dm.refusals > 0, "a batch the meter refuses stops the document");
        else
            sb_test_subcase(name, two != NULL && dm.peak >= (size_t)256 << 10,
                            "the jobs' buffers (256 KiB each) are charged");
        free(two);
    }
    sb_arena_destroy(a);
    free(in);
}
