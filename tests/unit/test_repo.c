/*
 * test_repo.c - a repository sent whole (core/repo.c) and the archive
 * walker under it (sb_archive_walk): lockfiles found by name and by
 * content, trees skipped by default, globs, links and unsafe names listed,
 * the pixi sibling rule, one package per identity with every lockfile that
 * locks it, two versions staying two, a failed lockfile listed or (strict)
 * failing; and the caps: entries, member size, ratio, truncated and
 * corrupted archives. Archives are built here in memory.
 */
#include "test.h"
#include "../../core/buf.h"
#include "../../core/repo.h"
#include "../../core/select.h"

#include <stdlib.h>
#include <zlib.h>

static void tar_add(sb_buf *t, const char *name, char type, const char *data, size_t len)
{
    unsigned char h[512] = {0};
    snprintf((char *)h, 100, "%s", name);
    memcpy(h + 100, "0000644", 7);
    memcpy(h + 108, "0000000", 7);
    memcpy(h + 116, "0000000", 7);
    snprintf((char *)h + 124, 12, "%011llo", (unsigned long long)len);
    memcpy(h + 136, "00000000000", 11);
    h[156] = (unsigned char)type;
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    sb_buf_append(t, h, 512);
    sb_buf_append(t, data, len);
    static const char zero[512];
    if (len % 512)
        sb_buf_append(t, zero, 512 - len % 512);
}

static void tar_end(sb_buf *t)
{
    static const char zero[1024];
    sb_buf_append(t, zero, sizeof zero);
}

static void gz(const sb_buf *in, sb_buf *out)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    deflateInit2(&s, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    sb_buf_reserve(out, deflateBound(&s, in->len));
    s.next_in = (unsigned char *)in->data;
    s.avail_in = (uInt)in->len;
    s.next_out = (unsigned char *)out->data;
    s.avail_out = (uInt)(out->alloc);
    deflate(&s, Z_FINISH);
    out->len = s.total_out;
    deflateEnd(&s);
}

static const char UV_SIX[] =
    "version = 1\nrequires-python = \">=3.8\"\n\n[[package]]\nname = \"six\"\nversion = "
    "\"1.16.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n";
static const char UV_SIX2[] =
    "version = 1\nrequires-python = \">=3.8\"\n\n[[package]]\nname = \"six\"\nversion = "
    "\"1.17.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n[[package]]\nname "
    "= \"idna\"\nversion = \"3.7\"\nsource = { registry = \"https://pypi.org/simple\" }\n";
static const char PINS[] = "six==1.16.0\nidna==3.7\n";

static sb_repo *read_files(sb_arena *a, const char *const *names, const char *const *data, size_t n,
                           const sb_repo_opts *o, sb_code *rc, sb_err *err)
{
    size_t lens[16];
    for (size_t i = 0; i < n; i++)
        lens[i] = strlen(data[i]);
    sb_repo *r = NULL;
    *rc = sb_repo_read_files(&r, a, names, data, lens, n, o, err);
    return r;
}

static const sb_pkg *find_pkg(const sb_lock *l, const char *name, const char *version)
{
    const sb_lock_platform *pl = &l->envs[0].platforms[0];
    for (size_t i = 0; i < pl->npkgs; i++)
        if (!strcmp(pl->pkgs[i]->name, name) &&
            (!version || (pl->pkgs[i]->version && !strcmp(pl->pkgs[i]->version, version))))
            return pl->pkgs[i];
    return NULL;
}

static const char *prop(const sb_pkg *p, const char *name)
{
    for (uint32_t j = 0; j + 1 < p->reader_props.n; j += 2)
        if (!strcmp(p->reader_props.v[j], name))
            return p->reader_props.v[j + 1];
    return NULL;
}

TEST(repo_files_one_package_per_identity_with_its_lockfiles)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_code rc;
    sb_repo_opts o = {0};
    const char *names[] = {"a/requirements.txt", "b/requirements.txt", "c/requirements.txt"};
    const char *data[] = {"six==1.16.0\n", PINS, "six==1.17.0\nidna==3.7\n"};
    sb_repo *r = read_files(a, names, data, 3, &o, &rc, &err);
    CHECK(rc == SB_OK);
    CHECK(r && r->nread == 3);
    if (r && r->lock) {
        const sb_pkg *six = find_pkg(r->lock, "six", "1.16.0"), *six2 = find_pkg(r->lock, "six", "1.17.0");
        CHECK(six && six2);
        if (six)
            CHECK_STR(prop(six, "pixi:lockfiles"), "a/requirements.txt, b/requirements.txt");
        if (six2)
            CHECK_STR(prop(six2, "pixi:lockfiles"), "c/requirements.txt");
        const sb_pkg *comp = find_pkg(r->lock, "b/requirements.txt", NULL);
        CHECK(comp && comp->kind == SB_KIND_EXTERNAL);
        CHECK(comp && prop(comp, "pixi:lockfile-kind") &&
              !strcmp(prop(comp, "pixi:lockfile-kind"), "requirements.txt"));
        sb_sbom *s = NULL;
        sb_select_opts so = {0};
        CHECK(sb_select(&s, a, r->lock, &so, &err) == SB_OK);
        /* three lockfile components, idna once, six twice */
        CHECK(s && s->npkgs == 3 + 3);
        CHECK(s && s->nroot == 3);
    }
    sb_arena_destroy(a);
}

TEST(repo_files_pattern_names_need_their_content)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_code rc;
    sb_repo_opts o = {0};
    const char *names[] = {"LICENSE.txt", "requirements.txt", "CMakeLists.txt"};
    const char *data[] = {"Permission is hereby granted, free of charge,\nto any person\n", PINS,
                          "cmake_minimum_required(VERSION 3.10)\n"};
    sb_repo *r = read_files(a, names, data, 3, &o, &rc, &err);
    CHECK(rc == SB_OK);
    CHECK(r && r->nread == 1 && r->nfailed == 0);
    if (r)
        CHECK_STR(r->files[0].path, "requirements.txt");
    sb_arena_destroy(a);
}

TEST(repo_files_failed_lockfile_listed_or_strict)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_code rc;
    sb_repo_opts o = {0};
    const char *names[] = {"ok/uv.lock", "bad/uv.lock"};
    const char *data[] = {UV_SIX, "version = 1\n[[package]]\nname = \"x\"\nbroken\n"};
    sb_repo *r = read_files(a, names, data, 2, &o, &rc, &err);
    CHECK(rc == SB_OK);
    CHECK(r && r->nread == 1 && r->nfailed == 1);
    CHECK(r && r->lock && r->lock->incomplete && r->lock->incomplete->n == 1);
    if (r && r->lock && r->lock->incomplete)
        CHECK(strstr(r->lock->incomplete->detail[0], "bad/uv.lock: line 4") != NULL);
    o.strict = true;
    r = read_files(a, names, data, 2, &o, &rc, &err);
    CHECK(rc == SB_EUNSUPPORTED);
    CHECK(err.line == 4);
    CHECK(strstr(err.msg, "bad/uv.lock") != NULL);
    sb_arena_destroy(a);
}

TEST(repo_files_pixi_project_supersedes_python_sibling)
{
    sb_arena *a = sb_arena_new(0);
    size_t plen = 0;
    char *pixi = sb_test_read(sb_test_shared("fixtures/pixi/pixi-examples-pypi/pixi.lock"), &plen);
    CHECK(pixi != NULL);
    if (NULL == pixi) {
        sb_arena_destroy(a);
        return;
    }
    sb_err err;
    sb_code rc;
    sb_repo_opts o = {0};
    const char *names[] = {"p/pixi.lock", "p/requirements.txt", "p/pixi.toml", "q/requirements.txt"};
    const char *data[] = {pixi, PINS,
                          "[workspace]\nname = \"p\"\nchannels = [\"conda-forge\"]\nplatforms = [\"linux-64\"]\n",
                          PINS};
    sb_repo *r = read_files(a, names, data, 4, &o, &rc, &err);
    CHECK(rc == SB_OK);
    CHECK(r && r->nread == 2 && r->nskipped == 1);
    int superseded = 0;
    for (size_t i = 0; r && i < r->nfiles; i++)
        superseded |= !strcmp(r->files[i].path, "p/requirements.txt") && r->files[i].state == SB_REPO_SKIPPED &&
                      strstr(r->files[i].why, "pixi") != NULL;
    CHECK(superseded);
    free(pixi);
    sb_arena_destroy(a);
}

TEST(repo_files_globs_and_nothing_found)
{
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_code rc;
    const char *skip[] = {"legacy/*"};
    sb_repo_opts o = {.skip_paths = skip, .nskip = 1};
    const char *names[] = {"legacy/uv.lock", "app/uv.lock"};
    const char *data[] = {UV_SIX, UV_SIX2};
    sb_repo *r = read_files(a, names, data, 2, &o, &rc, &err);
    CHECK(rc == SB_OK && r && r->nread == 1 && r->nskipped == 1);
    const char *only[] = {"legacy/*"};
    sb_repo_opts o2 = {.paths = only, .npaths = 1, .skip_paths = only, .nskip = 1};
    r = read_files(a, names, data, 2, &o2, &rc, &err);
    CHECK(rc == SB_ENOTFOUND);
    CHECK(strstr(err.msg, "no lockfile") != NULL);
    sb_arena_destroy(a);
}

TEST(repo_tar_gz_walk_skips_trees_links_and_unsafe_names)
{
    sb_arena *a = sb_arena_new(0);
    sb_buf t, z;
    sb_buf_init(&t, 1 << 26);
    sb_buf_init(&z, 1 << 26);
    tar_add(&t, "proj/", '5', "", 0);
    tar_add(&t, "proj/app/uv.lock", '0', UV_SIX, strlen(UV_SIX));
    tar_add(&t, "proj/web/node_modules/x/uv.lock", '0', UV_SIX2, strlen(UV_SIX2));
    tar_add(&t, "proj/link/uv.lock", '2', "", 0);
    tar_add(&t, "../evil/uv.lock", '0', UV_SIX2, strlen(UV_SIX2));
    tar_add(&t, "/abs/uv.lock", '0', UV_SIX2, strlen(UV_SIX2));
    tar_add(&t, "proj/reqs/requirements.txt", '0', PINS, strlen(PINS));
    tar_end(&t);
    gz(&t, &z);
    sb_err err;
    sb_repo_opts o = {0};
    sb_repo *r = NULL;
    CHECK_STR(sb_repo_sniff(z.data, z.len), "tar.gz");
    CHECK_STR(sb_repo_sniff(t.data, t.len), "tar");
    CHECK(sb_repo_read(&r, a, z.data, z.len, &o, &err) == SB_OK);
    CHECK(r && r->nread == 2);
    const char *sk = r ? sb_repo_skipped_list(r, a, 4096) : NULL;
    CHECK(sk && strstr(sk, "web/node_modules/ (skipped by default"));
    CHECK(sk && strstr(sk, "link/uv.lock (a link, not followed)"));
    CHECK(sk && strstr(sk, "../evil/uv.lock ('..' in the name refused)"));
    CHECK(sk && strstr(sk, "/abs/uv.lock (absolute name refused)"));
    /* the same archive as plain tar, and paths= bringing node_modules back */
    const char *back[] = {"*node_modules*"};
    sb_repo_opts o2 = {.paths = back, .npaths = 1};
    CHECK(sb_repo_read(&r, a, t.data, t.len, &o2, &err) == SB_OK);
    CHECK(r && r->nread == 1 && !strcmp(r->files[0].path, "web/node_modules/x/uv.lock"));
    sb_buf_free(&t);
    sb_buf_free(&z);
    sb_arena_destroy(a);
}

TEST(repo_tar_caps_truncation_and_checksum)
{
    sb_arena *a = sb_arena_new(0);
    sb_buf t, z;
    sb_buf_init(&t, 1 << 27);
    sb_buf_init(&z, 1 << 27);
    for (int i = 0; i < 12; i++) {
        char n[32];
        snprintf(n, sizeof n, "f%d.txt", i);
        tar_add(&t, n, '0', "x", 1);
    }
    tar_end(&t);
    sb_err err;
    sb_repo *r = NULL;
    sb_repo_opts o = {.caps = {.entries = 10}};
    CHECK(sb_repo_read(&r, a, t.data, t.len, &o, &err) == SB_ELIMIT);
    CHECK(strstr(err.msg, "cap on entries") != NULL);
    /* cut inside a member, then a flipped header byte */
    sb_repo_opts d = {0};
    CHECK(sb_repo_read(&r, a, t.data, 512 * 3 + 100, &d, &err) == SB_EPARSE);
    CHECK(strstr(err.msg, "truncated") != NULL);
    t.data[10] ^= 1;
    CHECK(sb_repo_read(&r, a, t.data, t.len, &d, &err) == SB_EPARSE);
    CHECK(strstr(err.msg, "checksum") != NULL);
    /* a gzip bomb: 48 MiB of zeros in one member */
    sb_buf_reset(&t);
    size_t big = 48u << 20;
    char *zeros = calloc(1, big);
    tar_add(&t, "zeros.bin", '0', zeros, big);
    tar_end(&t);
    free(zeros);
    gz(&t, &z);
    CHECK(sb_repo_read(&r, a, z.data, z.len, &d, &err) == SB_ELIMIT);
    CHECK(strstr(err.msg, "compression ratio") != NULL);
    sb_repo_opts tot = {.caps = {.total = 8 << 20, .ratio = 100000}};
    CHECK(sb_repo_read(&r, a, z.data, z.len, &tot, &err) == SB_ELIMIT);
    CHECK(strstr(err.msg, "uncompressed bytes") != NULL);
    /* a truncated gzip stream */
    CHECK(sb_repo_read(&r, a, z.data, z.len / 2, &tot, &err) != SB_OK);
    sb_buf_free(&t);
    sb_buf_free(&z);
    sb_arena_destroy(a);
}

static void zput16(sb_buf *b, unsigned v)
{
    unsigned char x[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    sb_buf_append(b, x, 2);
}
static void zput32(sb_buf *b, unsigned long v)
{
    zput16(b, (unsigned)(v & 0xFFFF));
    zput16(b, (unsigned)(v >> 16 & 0xFFFF));
}

/* a zip of stored members (crc_delta spoils the first CRC) */
static void zip_build(sb_buf *z, const char *const *names, const char *const *data, size_t n, unsigned long crc_delta)
{
    sb_buf cd;
    sb_buf_init(&cd, 1 << 20);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(data[i]), nl = strlen(names[i]);
        unsigned long crc = crc32(0L, (const unsigned char *)data[i], (uInt)len) + (i ? 0 : crc_delta);
        unsigned long off = (unsigned long)z->len;
        zput32(z, 0x04034b50);
        zput16(z, 20), zput16(z, 0), zput16(z, 0), zput16(z, 0), zput16(z, 0);
        zput32(z, crc), zput32(z, len), zput32(z, len);
        zput16(z, (unsigned)nl), zput16(z, 0);
        sb_buf_append(z, names[i], nl);
        sb_buf_append(z, data[i], len);
        zput32(&cd, 0x02014b50);
        zput16(&cd, 20), zput16(&cd, 20), zput16(&cd, 0), zput16(&cd, 0), zput16(&cd, 0), zput16(&cd, 0);
        zput32(&cd, crc), zput32(&cd, len), zput32(&cd, len);
        zput16(&cd, (unsigned)nl), zput16(&cd, 0), zput16(&cd, 0), zput16(&cd, 0), zput16(&cd, 0);
        zput32(&cd, 0), zput32(&cd, off);
        sb_buf_append(&cd, names[i], nl);
    }
    unsigned long cdo = (unsigned long)z->len;
    sb_buf_append(z, cd.data, cd.len);
    zput32(z, 0x06054b50);
    zput16(z, 0), zput16(z, 0), zput16(z, (unsigned)n), zput16(z, (unsigned)n);
    zput32(z, (unsigned long)cd.len), zput32(z, cdo), zput16(z, 0);
    sb_buf_free(&cd);
}

TEST(repo_zip_reads_and_checks_crc)
{
    sb_arena *a = sb_arena_new(0);
    sb_buf z;
    sb_buf_init(&z, 1 << 20);
    const char *names[] = {"app/uv.lock", "README.md"};
    const char *data[] = {UV_SIX, "# hello\n"};
    zip_build(&z, names, data, 2, 0);
    sb_err err;
    sb_repo *r = NULL;
    sb_repo_opts o = {0};
    CHECK_STR(sb_repo_sniff(z.data, z.len), "zip");
    CHECK(sb_repo_read(&r, a, z.data, z.len, &o, &err) == SB_OK);
    CHECK(r && r->nread == 1);
    sb_buf_reset(&z);
    zip_build(&z, names, data, 2, 1);
    CHECK(sb_repo_read(&r, a, z.data, z.len, &o, &err) == SB_EPARSE);
    CHECK(strstr(err.msg, "CRC-32") != NULL);
    CHECK(sb_repo_read(&r, a, z.data, z.len - 30, &o, &err) == SB_EPARSE);
    sb_buf_free(&z);
    sb_arena_destroy(a);
}
